"""The WinoVenti section (Do & Pavlick 2021, Table 6): generic and exception accuracy of a masked LM
over All pairs, the pairs of its own adversarial filter (Individual) and the pairs every Table-6
model's filter kept (Intersection; needs the registry) -- the numbers of ``bin/winoventi_eval`` --
each with its 95% interval: a bootstrap over semantic clusters, the prompts about one (word,
associative outcome, alternative) triple.

A causal LM (:mod:`.causal_lm`) scores the sentence with o_g against the sentence with o_e (the
``causal_lm_mc`` reader's WinoVenti prompts); a prompt is right when its target scores strictly
higher (as the ``causal_lm_mc`` model counts it). Beside generic and exception accuracy over All
pairs: strict accuracy, the pairs whose generic AND exception prompts are both right.

Item records (:mod:`mcqa_probes.metrics.item_records`): one per scored prompt, a two-choice question
(choices o_g, o_e: the associative and the alternative outcome; gold the prompt's target), probe
``generic`` or ``exception`` (the section's two rows, over All pairs), cluster the (word, o_g, o_e)
triple (:func:`triple_cluster`: both prompts of a pair and every pair about the same triple, what the
intervals resample), concept the word; a masked LM's scores at the [MASK] under ``mlm``, a causal LM's
under every normalisation (``cloze/<score>``, its own first) and ``choice_only``.
"""
import shlex
from typing import Any, Dict, List, Optional, Set, Tuple

from mcqa_probes.common.io import sha256_file
from mcqa_probes.data.dataset_readers.question_reader import QuestionReader
from mcqa_probes.data.dataset_readers.winoventi import prompt_question
from mcqa_probes.data.winoventi import (
    EXCEPTION, GENERIC, individual_pairs, intersection_pairs, read_registry, read_winoventi, unique_triples,
    write_winoventi,
)
from mcqa_probes.experiments.report_card.causal_lm import causal_key, causal_notes, causal_scores
from mcqa_probes.experiments.report_card.inputs import CardInputs, bootstrap_intervals, done
from mcqa_probes.experiments.report_card.models import CardModel
from mcqa_probes.experiments.report_card.section import ReportSection, SectionContext, missing_file
from mcqa_probes.experiments.winoventi.adversarial_filter import adversarial_filter, filter_flags
from mcqa_probes.experiments.winoventi.evaluate import evaluate_model
from mcqa_probes.experiments.winoventi.scoring import MaskedLm
from mcqa_probes.metrics.item_records import item_record
from mcqa_probes.reports.card.tables import (
    best_reference, count_cell, grid_table, interval_of, number_cell, percent_cell, ran_models, reference_columns,
    summary_row,
)
from mcqa_probes.training.evaluation import predict_instances

MULTI_TOKEN = "skip"
SUBSETS = (("all", "All"), ("individual", "Individual"), ("intersection", "Intersection"))
#: the item records' probe of a prompt, by its test type
PROBES = {GENERIC: "generic", EXCEPTION: "exception"}


def triple_cluster(prompt: Any) -> str:
    """A prompt's semantic cluster: its (word, o_g, o_e) triple, shared by both prompts of its pair and by
    every pair about the same triple (the intervals and the paired comparison resample them together)."""
    return "|".join(prompt.triple)


def item_metadata(prompt: Any) -> Dict[str, Any]:
    """A prompt's metadata for its item record: the readers' question (:func:`prompt_question`: choices
    o_g, o_e; gold the target; ``test_type``, ``pair_index``, ``word``, ``line``) with its cluster
    (:func:`triple_cluster`) and concept (the word) as ``notes``."""
    return {**QuestionReader.question_metadata(prompt_question(prompt)),
            "notes": {"cluster_key": triple_cluster(prompt), "concept": prompt.word}}


def prompt_records(label: str, prompts: List[Any], scores: Dict[int, Dict[str, List[float]]]) -> List[Dict[str, Any]]:
    """The item records of the scored prompts (a prompt with no ``scores`` -- line -> {prompt name:
    [o_g score, o_e score]} -- left out: a multi-piece outcome word), in file order; the primary prompt
    is each one's first. On a tie a record chooses o_g (:func:`~mcqa_probes.metrics.item_records.first_max`)
    where the section counts the prompt wrong (strictly higher)."""
    return [item_record(label, "winoventi", PROBES[p.test_type], item_metadata(p), scores[p.line],
                        next(iter(scores[p.line])))
            for p in prompts if scores.get(p.line)]


def first_pairs(prompts: List[Any], limit: Optional[int]) -> List[Any]:
    """The prompts of the first ``limit`` pairs (all with 0 / None)."""
    if not limit:
        return list(prompts)
    kept = []
    for pair in dict.fromkeys(p.pair_index for p in prompts):
        if len(kept) == limit:
            break
        kept.append(pair)
    chosen = set(kept)
    return [p for p in prompts if p.pair_index in chosen]


def subset_intervals(prompts: List[Any], correct: Dict[int, bool], pairs: Optional[Set[int]] = None) -> Dict[str, List[float]]:
    """95% intervals (percent) of generic and exception accuracy over the scored prompts of a subset of
    pairs (``None``: all), resampling the (word, o_g, o_e) triples: the prompts about one triple are
    one semantic cluster."""
    found = {}
    for key, test_type in (("generic", 1), ("exception", 2)):
        answers = [(correct[p.line], triple_cluster(p)) for p in prompts
                   if p.test_type == test_type and p.line in correct and (pairs is None or p.pair_index in pairs)]
        interval = bootstrap_intervals(answers).get("accuracy")
        if interval:
            found[key] = [100.0 * interval[0], 100.0 * interval[1]]
    return found


def strict_pairs(prompts: List[Any], correct: Dict[int, bool]) -> Dict[str, Any]:
    """Strict accuracy (percent): the share of pairs whose every scored prompt is right, with its 95%
    interval (pairs resampled by their (word, o_g, o_e) triple)."""
    pairs: Dict[int, List[Any]] = {}
    for p in prompts:
        if p.line in correct:
            pairs.setdefault(p.pair_index, []).append(p)
    answers = [(all(correct[p.line] for p in members), triple_cluster(members[0])) for members in pairs.values()]
    interval = bootstrap_intervals(answers).get("accuracy")
    value = 100.0 * sum(right for right, _ in answers) / len(answers) if answers else float("nan")
    return {"strict": value, "interval": [100.0 * interval[0], 100.0 * interval[1]] if interval else None}


def causal_row(loaded: Any, chosen: List[Any], batch_size: int) -> Tuple[Dict[str, Any], Dict[int, Dict[str, Any]]]:
    """A causal LM's WinoVenti row (generic, exception and strict accuracy over All pairs; a prompt is
    right when its target scores strictly above the alternative) and each prompt's scores by item-record
    prompt name (by file line: [o_g, o_e] under ``cloze/<score>``, its own first, and ``choice_only``)."""
    questions = [prompt_question(p) for p in chosen]
    predicted = predict_instances(loaded.model, [loaded.reader.text_to_instance(q) for q in questions], batch_size)
    logits = predicted["logits"]
    correct = {p.line: row[q.answer_index] > row[1 - q.answer_index] for p, q, row in zip(chosen, questions, logits)}
    every: Dict[str, Any] = {}
    for key, test_type in (("generic", 1), ("exception", 2)):
        found = [correct[p.line] for p in chosen if p.test_type == test_type]
        every[key] = 100.0 * sum(found) / len(found) if found else float("nan")
    strict = strict_pairs(chosen, correct)
    every.update(strict=strict["strict"], n=len({p.pair_index for p in chosen}))
    every["intervals"] = dict(subset_intervals(chosen, correct), **({"strict": strict["interval"]} if strict["interval"] else {}))
    scores = {p.line: found for p, found in zip(chosen, predicted["prompt_scores"])}
    return {"all": every, "score": loaded.score}, scores


def _reference(row: Dict[str, Any]) -> bool:
    return row["model"] in ("RoBERTa-large", "BERT-large", "Human")


@ReportSection.register("winoventi")
class WinoVentiSection(ReportSection, title="WinoVenti (Do & Pavlick 2021)", order=30, model_facts=("masked_lm_head",)):
    """Generic / exception accuracy of a masked LM on WinoVenti (Table 6 layout)."""

    def why_absent(self, model: CardModel, inputs: CardInputs) -> Optional[str]:
        if model.is_mcqa:
            return (f"{model.label} is a multiple-choice QA archive; WinoVenti scores the outcome words at a masked "
                    "LM's [MASK]: give the masked LM (its HuggingFace name or directory)")
        return missing_file("--winoventi-tsv", inputs.winoventi_tsv, "winoventi_bert_large_final.tsv layout")

    def key_parts(self, model: CardModel, inputs: CardInputs) -> Dict[str, Any]:
        registry = inputs.winoventi_registry
        return {"tsv": sha256_file(inputs.winoventi_tsv), "registry": sha256_file(registry) if registry else None,
                "max_pairs": inputs.max_questions, "precision": inputs.precision, "multi_token": MULTI_TOKEN,
                **causal_key(model, inputs)}

    def run(self, model: CardModel, inputs: CardInputs, context: SectionContext) -> Dict[str, Any]:
        prompts = read_winoventi(inputs.winoventi_tsv)
        chosen = first_pairs(prompts, inputs.max_questions)
        if model.is_causal:
            loaded = context.archive(model)
            with context.progress_bar("prompts"):
                row, scores = causal_row(loaded, chosen, inputs.batch_size)
            context.add_items(prompt_records(model.label, chosen, scores))
            tsv = inputs.winoventi_tsv
            command = (f"bin/causal_probe_table --model {shlex.quote(model.location)} --limit {2 * row['all']['n']} "
                       f"{shlex.quote(tsv)}  # the first {row['all']['n']} pairs (two prompts each)")
            return done(row, reading(model, row), [command], {tsv: sha256_file(tsv)},
                        notes=["Individual and Intersection are the pairs kept by a masked LM's adversarial filter: "
                               "not computed for a causal LM"])
        registry = read_registry(inputs.winoventi_registry) if inputs.winoventi_registry else None
        lm = MaskedLm(model.location, cuda_device=inputs.cuda_device, precision=inputs.precision, multi_token=MULTI_TOKEN)
        with context.progress_bar("prompts"):
            row = evaluate_model(model.location, chosen, registry, batch_size=inputs.batch_size, lm=lm)
        correct, logits = row.pop("correct"), row.pop("logits")
        context.add_items(prompt_records(model.label, chosen, {line: {lm.model.item_prompt: scores}
                                                             for line, scores in logits.items()}))
        row["all"]["intervals"] = subset_intervals(chosen, correct)
        if "individual" in row:
            source = row.get("individual_source", "")
            if source.startswith("registry:"):
                flags = registry.flags[source.split(":", 1)[1]]
            else:  # the model's own filter, as evaluate_model ran it
                with context.progress_bar("adversarial filter"):
                    flags = filter_flags(adversarial_filter(lm, unique_triples(chosen), batch_size=inputs.batch_size))
            row["individual"]["intervals"] = subset_intervals(chosen, correct, individual_pairs(chosen, flags))
        if "intersection" in row:
            row["intersection"]["intervals"] = subset_intervals(
                chosen, correct, intersection_pairs(chosen, registry, row["intersection_models"]))
        notes = []
        if registry is None:
            notes.append("Intersection needs the associative-bias registry (--winoventi-registry)")
        tsv = inputs.winoventi_tsv
        commands = []
        if len(chosen) < len(prompts):
            tsv = f"winoventi_first_{inputs.max_questions}_pairs.tsv"
            commands.append(f"# the first {inputs.max_questions} pairs of {inputs.winoventi_tsv} written to {tsv}")
            write_winoventi(chosen, context.out / tsv)
            tsv = str(context.out / tsv)
        commands.append(f"bin/winoventi_eval --model {shlex.quote(model.location)} --tsv {shlex.quote(tsv)}"
                        + (f" --registry {shlex.quote(inputs.winoventi_registry)}" if registry else "")
                        + f" --multi-token {MULTI_TOKEN} --precision {inputs.precision}")
        data = {inputs.winoventi_tsv: sha256_file(inputs.winoventi_tsv)}
        if registry is not None:
            data[inputs.winoventi_registry] = sha256_file(inputs.winoventi_registry)
        return done(row, reading(model, row, context.facts.get("masked_lm_head")), commands, data, notes=notes)

    def tables(self, section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        specs = []
        for subset, name in SUBSETS:
            get = lambda r, s=subset: r.get(s) or {}  # noqa: E731
            specs += [(f"{name}: generic %", lambda r, get=get: number_cell(get(r).get("generic"), interval_of(get(r), "generic")),
                       ("winoventi", f"generic_{subset}")),
                      (f"{name}: exception %", lambda r, get=get: number_cell(get(r).get("exception"), interval_of(get(r), "exception")),
                       ("winoventi", f"exception_{subset}")),
                      (f"{name}: N pairs", lambda r, get=get: count_cell(get(r).get("n")), ("winoventi", f"n_{subset}"))]
        table = grid_table("Generic / exception accuracy (Table 6 layout)", specs, section, models, (),
                           reference_columns("winoventi", None, _reference),
                           ["A prompt is right when P(target) > P(incorrect) at the [MASK]; N = pairs. Accuracy % with "
                            "its 95% interval (bootstrap over the (word, outcome, alternative) triples)."]
                           + (["A causal LM compares the two whole sentences (target against alternative in the "
                               "[MASK]'s place). " + causal_notes(causal_scores(ran_models(section, models)))[0]]
                              if causal_scores(ran_models(section, models)) else []))
        return [table] if table else []

    def summary(self, section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        ran = ran_models(section, models)
        if not ran:
            return []
        rows = []
        for key in ("generic", "exception"):
            cells = {}
            for model in ran:
                every = section["models"][model["label"]]["results"].get("all") or {}
                cells[model["label"]] = number_cell(every.get(key), interval_of(every, key))
            rows.append(summary_row(f"WinoVenti: {key} prompts", cells, None, percent_cell(0.5),
                                    best_reference("winoventi", "winoventi", f"{key}_all")))
        return rows


def reading(model: CardModel, row: Dict[str, Any], head: Optional[Dict] = None) -> str:
    every = row["all"]
    gap = every["generic"] - every["exception"]
    text = (f"{model.label} gets {every['generic']:.1f}% of generic and {every['exception']:.1f}% of exception prompts "
            f"right over {every['n']} pairs")
    if gap > 10:
        text += f": {gap:.0f} points worse when the context overrides the usual association"
    elif gap < -10:
        text += f": {-gap:.0f} points better on exceptions than on the usual association"
    else:
        text += ": no strong preference for the associative outcome"
    if head is not None and not head.get("trained"):
        text += " (its masked-LM head is untrained: these numbers are those of random weights)"
    if row.get("score"):
        text += f"; both prompts of a pair right for {every['strict']:.1f}% of pairs (zero-shot, score {row['score']})"
    return text + "."
