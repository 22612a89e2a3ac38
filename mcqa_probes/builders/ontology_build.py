"""The probe build for a user's knowledge source: graph → questions → de-dup → splits → files.

    from mcqa_probes.knowledge.source import load_source
    from mcqa_probes.builders.ontology_build import build_ontology_probes
    graph = load_source("so.obo", relations=["part_of"])
    result = build_ontology_probes("probes_so", graph, relations=["part_of"], seed=42)

writes the same files as the WordNet build (``<out>/<probe>/{train,dev,test}.jsonl``,
``stats.json``, ``manifest.json``) through the same step (:func:`mcqa_probes.builders.build.write_probe`),
for the probes ``definitions``, ``synonymy``, ``hypernymy``, ``hyponymy`` and one relation probe per
relation asked for (named after it: ``part_of``). A probe no concept can be asked about (no
synonyms in the source, no definitions) is left out and said so. The manifest names the source
(name, version, format, every file with its sha256, root, relations, the vocabulary) and holds the
source's validity report; ``stats.json`` holds, per probe, the paper's Table 4 columns and the
probe's validity summary (concepts that could be asked, asked, questions dropped and why, leakage
masked or dropped, answers named in the term).
"""
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Union

from mcqa_probes.builders.build import (
    FORMAT_VERSION, Progress, _no_progress, build_from_queue, check_out, commit_probe_files, probe_rng, write_probe,
)
from mcqa_probes.builders.ontology_qa import ONTOLOGY_SETTINGS, OntologyQABuilder, ontology_settings
from mcqa_probes.builders.output import write_json
from mcqa_probes.builders.wordnetqa import WORDNET_PROBES
from mcqa_probes.common.collector import collector_paused
from mcqa_probes.common.io import staged_folder
from mcqa_probes.knowledge.graph import KnowledgeGraph
from mcqa_probes.knowledge.identifiers import relation_probe_name

#: the probes from the costliest to build to the cheapest, the order in which the workers take them
#: (CPU seconds on so.obo: 1.5, 0.8, 0.3, 0.3; on HPO: 3.1, 1.8, 1.5, 1.2; relation probes last)
COST_RANK = {"hypernymy": 0, "definitions": 1, "hyponymy": 2, "synonymy": 3}

#: why a probe can have no question, by probe kind
EMPTY_REASONS = {
    "definitions": "no concept has a usable definition",
    "synonymy": "no concept has an exact synonym",
    "hypernymy": "no concept has a parent",
    "hyponymy": "no concept has a child",
}


def build_ontology_probes(
    out: Union[str, Path], graph: KnowledgeGraph, relations: Sequence[str] = (),
    probes: Optional[Sequence[str]] = None, seed: int = 42, max_hops: int = 5, train_size: Optional[int] = 3000,
    settings: Optional[dict] = None, progress: Progress = _no_progress,
    log: Callable[[str], None] = lambda message: None, workers: int = 1,
) -> Dict[str, object]:
    """Build the probes of ``graph`` into ``out``; returns ``{"manifest", "stats", "validity", "timings", "skipped"}``.

    ``workers=2`` builds the probes in two forked processes while this one waits, each taking the
    next probe left, costliest first (every probe has its own seeded random stream and the builders'
    caches are pure, so the files are byte-identical whatever ``workers`` is; see
    :func:`mcqa_probes.builders.build.build_from_queue`). The cyclic garbage
    collector is paused meanwhile (the questions are kept, none of them is garbage).
    """
    out = Path(out)
    settings = ontology_settings(dict(settings or {}, max_hops=max_hops))
    resolved = dict((graph.provenance or {}).get("relations", {}))
    # a relation by the name the source reader gave its probe (Part of, partOf: part_of), once
    spelled = (graph.provenance or {}).get("relation_spellings", {})
    relations = list(dict.fromkeys(spelled.get(name, name) for name in relations))
    for name in relations:
        resolved.setdefault(name, name)
    relation_probes = {relation_probe_name(name): resolved[name] for name in relations}
    # notes name the relation as the user did, so one ontology read from OBO and from OWL (where the
    # same relation may carry another id) gives the same files
    relation_names = {relation_probe_name(name): name for name in relations}
    available = list(WORDNET_PROBES) + list(relation_probes)
    names = list(available) if probes is None else [p for p in available if p in set(probes)]
    unknown = sorted(set(probes or ()) - set(available))
    if unknown or not names:
        raise ValueError(f"unknown probe(s) {unknown or list(probes or ())}; choose from {', '.join(available)}")
    check_out(out, names)
    stats: Dict[str, object] = {}
    files: Dict[str, str] = {}
    counts: Dict[str, Dict[str, int]] = {}
    timings: Dict[str, float] = {}
    validity: Dict[str, Dict[str, int]] = {}
    skipped: Dict[str, str] = {}
    builder = OntologyQABuilder(graph, settings, progress)

    def build_one(probe: str) -> tuple:
        """Build, check and write one probe; returns its builder and questions (a forked worker keeps them)."""
        start = time.perf_counter()
        relation = relation_probes.get(probe)
        maker = builder if relation is None else OntologyQABuilder(graph, settings, progress, relation=relation,
                                                                   probe_name=probe, relation_name=relation_names[probe])
        questions = maker.build(probe, probe_rng(seed, probe, "generate"))
        timings[f"generate_{probe}"] = round(time.perf_counter() - start, 2)
        summary = dict(maker.summary)
        if not questions:
            skipped[probe] = (EMPTY_REASONS.get(probe) if relation is None else
                              f"no concept has a {relation} link with valid distractors")
            if summary.get("askable") and summary.get("unusable_definition", 0) >= summary["askable"]:
                # every definition says too little once the concept's own names are masked
                skipped[probe] = (f"{EMPTY_REASONS['definitions']}: its {summary['askable']} definitions have "
                                  f"fewer than {int(settings['min_definition_words'])} content words besides the "
                                  f"concept's own names")
            elif summary.get("askable"):
                skipped[probe] = f"no question with {int(settings['num_choices']) - 1} valid distractors"
            elif summary.get("parents_all_roots"):
                skipped[probe] = (f"the parents of its {summary['parents_all_roots']} concepts with a parent are all "
                                  f"roots, and a root is no answer (min_answer_depth; --min-answer-depth 0 "
                                  f"lets it be one)")
            log(f"{probe}: no questions ({skipped[probe]})")
            return maker, questions
        train_limit = int(len(questions) * float(settings["train_fraction"]))
        train_limit = train_limit if train_size is None else min(int(train_size), train_limit)
        write_probe(stage, probe, questions, seed, train_limit, (stats, files, counts, timings), progress, log,
                    compact=True, together=relation is not None)
        summary["questions"] = len(questions)
        summary["duplicates_dropped"] = stats[probe]["duplicates_dropped"]
        validity[probe] = summary
        stats[probe]["validity"] = summary
        return maker, questions

    results = (stats, files, counts, timings, validity, skipped)
    # hypernymy asks about every ancestor up to max_hops, once per distractor family: the most
    # questions by far, so it goes first; the relation probes are the smallest
    order = sorted(names, key=lambda p: COST_RANK.get(p, len(COST_RANK)))
    # the probe files take their places in out together, once all are whole (commit_probe_files)
    with staged_folder(out) as stage, collector_paused():
        build_from_queue(build_one, order, results, workers)
        stats = {p: stats[p] for p in names if p in stats}
        validity = {p: validity[p] for p in names if p in validity}
        skipped = {p: skipped[p] for p in names if p in skipped}
        if not stats:
            files_read = [str(f["path"]) for f in (graph.provenance or {}).get("files", [])]
            root = (graph.provenance or {}).get("root")
            # a sub-tree too small to ask anything: say which --root made it so
            within = f"; --root {', '.join(root) if isinstance(root, list) else root} keeps {len(graph)} concept{'s' if len(graph) != 1 else ''}" if root else ""
            raise ValueError(f"{', '.join(files_read) or graph.source}: no probe has a question "
                             f"({'; '.join(f'{p}: {r}' for p, r in skipped.items())}{within})")
        commit_probe_files(stage, out, files)
    files["stats.json"] = write_json(out / "stats.json", stats)
    provenance = dict(graph.provenance or {})
    report = provenance.pop("report", None)
    provenance.pop("relation_spellings", None)     # how --relations spelled them: no part of the files
    manifest = {
        "format_version": FORMAT_VERSION,
        "probes": [p for p in names if p in stats],
        "seed": seed,
        "settings": {"train_size": train_size, "ontology": settings},
        "sources": {"ontology": {"source": graph.source, "version": graph.version, "concepts": len(graph),
                                 **provenance, "validity": report.to_json() if report is not None else {}}},
        "skipped_probes": skipped,
        "counts": counts,
        "files": {name: {"sha256": digest} for name, digest in sorted(files.items())},
    }
    write_json(out / "manifest.json", manifest)
    return {"manifest": manifest, "stats": stats, "validity": validity, "timings": timings, "skipped": skipped}


def validity_lines(result: Dict[str, object]) -> List[str]:
    """The validity summary per probe, as printed by ``bin/build_probes``."""
    lines = []
    settings = ((result.get("manifest") or {}).get("settings") or {}).get("ontology") or {}
    fewest = int(settings.get("min_definition_words", ONTOLOGY_SETTINGS["min_definition_words"]))
    wording = [
        ("askable", "concepts could be asked"),
        # "A location." (one word) or "Carbodiimide." (only its own name)
        ("unusable_definition", f"definitions with fewer than {fewest} content words besides the concept's own "
                                f"names (not asked)"),
        ("concepts", "asked"), ("questions", "questions made"),
        ("duplicates_dropped", "dropped as duplicates"), ("no_valid_distractors", "dropped: too few valid distractors"),
        ("leakage_dropped", "dropped: definition names the answer"),
        ("leakage_masked", "definitions naming the answer masked"),
        ("definition_repeats_term", "definitions that only repeat the term or the answer: asked without them"),
        ("example_leakage_dropped", "dropped: example sentence names the answer"),
        ("example_leakage_masked", "example sentences naming the answer masked"),
        ("example_leakage_reframed", "example sentence naming the answer in the term: asked with the definition instead"),
        ("definition_names_its_concept", "definitions naming their own concept masked"),
        ("answer_named_in_term", "answers named inside the term (kept)"),
        ("answer_is_the_term", "dropped: the answer has the term's own name (two concepts named alike, one "
                               "asked of the other)"),
        ("synonym_shares_term", "synonyms that hold the term or are held in it (kept)"),
        ("synonym_labels_another", "synonyms that are another concept's label (kept: the source names both so)"),
        ("answer_named_in_grouping_term", "answers named inside the term, a grouping class (kept)"),
        ("template_names_answer", "asked in another template (the template's own words name the answer)"),
        ("random_distractors_from_answer_branches", "random distractors from the answers' branches of the "
                                                    "hierarchy (fewer than min_answer_pool answers)"),
        ("random_distractors_from_all_concepts", "random distractors from all concepts (fewer than "
                                                 "min_answer_pool answers)"),
    ]
    for probe, summary in result["validity"].items():
        # a hyponymy answer (a kind of the term) names the term inside it: "nurse" in "paediatric nurse"
        said = dict(wording, **({"answer_named_in_term": "terms named inside the answer (kept)"}
                                if probe == "hyponymy" else {}))
        parts = [text if key.startswith("random_") else f"{summary[key]} {text}"
                 for key, text in said.items() if summary.get(key)]
        lines.append(f"  {probe}: " + ", ".join(parts))
    for probe, reason in result["skipped"].items():
        lines.append(f"  {probe}: left out ({reason})")
    return lines
