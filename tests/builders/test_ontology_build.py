"""build_ontology_probes: the WordNet build's files from any source, the same from OBO and OWL,
byte-identical from run to run, with the source and the validity summary in manifest and stats."""
import json
from pathlib import Path

import pytest

from mcqa_probes.builders.ontology_build import build_ontology_probes, validity_lines
from mcqa_probes.common.io import sha256_file
from mcqa_probes.knowledge.source import load_source
from tests.builders.conftest import write_taxonomy
from tests.conftest import FIXTURES, load_fixture_script

ONTOLOGIES = FIXTURES / "ontologies"
SPLITS = ("train", "dev", "test")
#: the probes of the vehicle fixtures with --relations part_of
VEHICLE_PROBES = ("definitions", "synonymy", "hypernymy", "hyponymy", "part_of")


def build(source, out, relations=(), **kwargs):
    graph = load_source(source, relations=list(relations))
    return build_ontology_probes(out, graph, relations=list(relations), **kwargs)


def _same_probe_files(first, second):
    """The probe files and stats.json of two builds of the vehicle ontology are byte-identical."""
    for probe in VEHICLE_PROBES:
        for split in SPLITS:
            assert (first / probe / f"{split}.jsonl").read_bytes() == (second / probe / f"{split}.jsonl").read_bytes(), \
                (probe, split)
    assert (first / "stats.json").read_bytes() == (second / "stats.json").read_bytes()


@pytest.mark.parametrize("rendering", ["vehicles.owl", "vehicles.owx", "vehicles.ofn", "vehicles.omn",
                                       "vehicles_fastobo.ofn"])
def test_an_obo_file_and_its_owl_rendering_give_the_same_probe_files(tmp_path, rendering):
    """The OWL rendering in RDF/XML, OWL/XML (Protégé 4's style), the functional syntax (ROBOT's, and
    fastobo's OBO-to-OWL mapping's) and the Manchester syntax (fixtures/make_owl_syntaxes.py)."""
    obo = build(ONTOLOGIES / "vehicles.obo", tmp_path / "obo", ["part_of"])
    owl = build(ONTOLOGIES / rendering, tmp_path / "owl", ["part_of"])
    assert obo["manifest"]["probes"] == owl["manifest"]["probes"] == list(VEHICLE_PROBES)
    _same_probe_files(tmp_path / "obo", tmp_path / "owl")


@pytest.mark.parametrize("writer", ["owlready2 rdfxml", "owlready2 ntriples", "fastobo rdf", "fastobo owx"])
def test_the_ontology_as_other_tools_save_it_gives_the_same_probe_files(tmp_path, writer):
    """vehicles.owl saved again by owlready2 (its own RDF/XML style, N-Triples), and vehicles.obo put
    into OWL by fastobo's OBO-to-OWL mapping (RDF/XML, OWL/XML; the OBO file's two faults, in clauses
    the build does not read, mended first: fixtures/make_owl_syntaxes.py)."""
    tool, syntax = writer.split()
    suffix = {"ntriples": "nt", "owx": "owx"}.get(syntax, "owl")
    saved = tmp_path / f"vehicles_{tool}.{suffix}"
    if tool == "owlready2":
        import owlready2

        world = owlready2.World()
        world.get_ontology(f"file://{ONTOLOGIES / 'vehicles.owl'}").load().save(file=str(saved), format=syntax)
    else:
        import fastobo

        mended = load_fixture_script("make_owl_syntaxes").mended_obo_text()
        fastobo.dump_owl(fastobo.loads(mended), str(saved), format=syntax)
    assert saved.read_text() != (ONTOLOGIES / "vehicles.owl").read_text()
    build(ONTOLOGIES / "vehicles.obo", tmp_path / "obo", ["part_of"])
    build(saved, tmp_path / "saved", ["part_of"])
    _same_probe_files(tmp_path / "obo", tmp_path / "saved")


def test_a_skos_xl_thesaurus_gives_the_probe_files_of_its_plain_skos_rendering(tmp_path):
    plain = build(ONTOLOGIES / "kitchen_skos.ttl", tmp_path / "plain", ["skos:related"])
    xl = build(ONTOLOGIES / "kitchen_skosxl.ttl", tmp_path / "xl", ["skos:related"])
    assert xl["manifest"]["probes"] == plain["manifest"]["probes"] and "synonymy" in xl["manifest"]["probes"]
    for probe in plain["manifest"]["probes"]:
        for split in SPLITS:
            assert (tmp_path / "plain" / probe / f"{split}.jsonl").read_bytes() == \
                (tmp_path / "xl" / probe / f"{split}.jsonl").read_bytes(), (probe, split)


def test_the_same_seed_gives_byte_identical_files_and_another_seed_other_ones(tmp_path):
    build(ONTOLOGIES / "kitchen_skos.ttl", tmp_path / "a", ["skos:related"], seed=3)
    build(ONTOLOGIES / "kitchen_skos.ttl", tmp_path / "b", ["skos:related"], seed=3)
    build(ONTOLOGIES / "kitchen_skos.ttl", tmp_path / "c", ["skos:related"], seed=4)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert len(files) == 5 * 3 + 2
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)
    assert any((tmp_path / "a" / f).read_bytes() != (tmp_path / "c" / f).read_bytes() for f in files)


def test_two_workers_write_the_same_files_as_one(tmp_path):
    build(ONTOLOGIES / "vehicles.obo", tmp_path / "one", ["part_of"], workers=1)
    result = build(ONTOLOGIES / "vehicles.obo", tmp_path / "two", ["part_of"], workers=2)
    assert list(result["stats"]) == ["definitions", "synonymy", "hypernymy", "hyponymy", "part_of"]
    files = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    assert len(files) == 5 * 3 + 2
    assert all((tmp_path / "one" / f).read_bytes() == (tmp_path / "two" / f).read_bytes() for f in files)


def _files_of(folder):
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("workers", [1, 2])
def test_a_build_that_stops_midway_leaves_the_earlier_build_as_it_was(tmp_path, monkeypatch, workers):
    """A rebuild into an earlier build's folder that fails while writing (a full disk, a folder it
    may not write in) leaves that build whole, its manifest with it, and none of its own files: the
    probe files are staged and take their places together at the end (was: the new files of the
    probes done beside the earlier build's others, without a manifest). With two workers the error
    is the same OSError (was: "the build worker failed", reported as an internal error)."""
    import mcqa_probes.builders.build as build_module

    build(ONTOLOGIES / "vehicles.obo", tmp_path, ["part_of"], workers=1)
    before = _files_of(tmp_path)
    assert Path("manifest.json") in before and Path("stats.json") in before
    written = []
    real = build_module.write_questions

    def fail_on_the_second_probe(path, *args, **kwargs):
        written.append(path)
        if path.parent.name != written[0].parent.name:
            raise OSError(28, "No space left on device", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(build_module, "write_questions", fail_on_the_second_probe)
    with pytest.raises(OSError, match="No space left"):
        build(ONTOLOGIES / "vehicles.obo", tmp_path, ["part_of"], workers=workers, seed=7)
    assert _files_of(tmp_path) == before and not (tmp_path / ".partial").exists()
    # into a folder that did not exist: none is left
    with pytest.raises(OSError, match="No space left"):
        build(ONTOLOGIES / "vehicles.obo", tmp_path / "new", ["part_of"], workers=workers, seed=7)
    assert not (tmp_path / "new").exists()


def test_a_build_stopped_by_sigterm_leaves_the_earlier_build_as_it_was(tmp_path):
    """``kill PID`` (SIGTERM) of a rebuild, once its first probe's files are written: the staged
    files are removed by the build's signal handler, the earlier build is left whole."""
    import multiprocessing
    import os
    import signal

    import mcqa_probes.builders.build as build_module
    from mcqa_probes.common.io import discard_writes_on_signal

    build(ONTOLOGIES / "vehicles.obo", tmp_path, ["part_of"], workers=1)
    before = _files_of(tmp_path)

    def rebuild():
        discard_writes_on_signal()
        real, done = build_module.write_questions, []

        def stop_on_the_second_probe(path, *args, **kwargs):
            done.append(path.parent.name)
            if done[0] != done[-1]:
                os.kill(os.getpid(), signal.SIGTERM)
            return real(path, *args, **kwargs)

        build_module.write_questions = stop_on_the_second_probe
        build(ONTOLOGIES / "vehicles.obo", tmp_path, ["part_of"], workers=1, seed=7)

    process = multiprocessing.get_context("fork").Process(target=rebuild)
    process.start()
    process.join(120)
    assert process.exitcode == 128 + signal.SIGTERM
    assert _files_of(tmp_path) == before and not (tmp_path / ".partial").exists()


def test_an_out_folder_or_probe_folder_that_is_a_file_is_refused_before_anything_is_written(tmp_path):
    build(ONTOLOGIES / "vehicles.obo", tmp_path / "out", workers=1)
    before = {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()}
    (tmp_path / "out" / "part_of").write_text("notes")
    with pytest.raises(ValueError, match=r"out/part_of: a file, not a folder \(expected a folder"):
        build(ONTOLOGIES / "vehicles.obo", tmp_path / "out", ["part_of"], workers=1, seed=7)
    assert {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file() and p.name != "part_of"} == before
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match=r"file: a file, not a folder \(expected a folder for the probe files\)"):
        build(ONTOLOGIES / "vehicles.obo", tmp_path / "file", workers=1)
    with pytest.raises(ValueError, match=r"file/sub: .*file is a file, not a folder \(expected a folder in which"):
        build(ONTOLOGIES / "vehicles.obo", tmp_path / "file" / "sub", workers=1)
    (tmp_path / "links").mkdir()
    (tmp_path / "links" / "hypernymy").symlink_to(tmp_path / "nowhere")
    with pytest.raises(ValueError, match=r"links/hypernymy: a link to .*nowhere, which does not exist"):
        build(ONTOLOGIES / "vehicles.obo", tmp_path / "links", workers=1)
    (tmp_path / "odd" / "manifest.json").mkdir(parents=True)
    with pytest.raises(ValueError, match=r"odd/manifest.json: a folder \(expected the build's manifest.json"):
        build(ONTOLOGIES / "vehicles.obo", tmp_path / "odd", workers=2)


def test_the_manifest_names_the_source_and_the_stats_hold_each_probes_validity_summary(tmp_path):
    result = build(ONTOLOGIES / "vehicles.obo", tmp_path, ["part_of"])
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    source = manifest["sources"]["ontology"]
    assert (source["source"], source["version"], source["format"]) == ("vo", "2026-11-01", "obo")
    assert source["files"][0]["sha256"] == sha256_file(ONTOLOGIES / "vehicles.obo")
    assert source["relations"] == {"part_of": "part_of"}
    assert source["validity"]["skipped_clause"]["examples"] == [f"{ONTOLOGIES / 'vehicles.obo'}:26 xref"]
    for name in manifest["files"]:
        assert manifest["files"][name]["sha256"] == sha256_file(tmp_path / name)
    stats = json.loads((tmp_path / "stats.json").read_text())
    hypernymy = stats["hypernymy"]["validity"]
    assert hypernymy["questions"] == sum(stats["hypernymy"]["splits"][s]["questions"] for s in SPLITS) \
        + stats["hypernymy"]["duplicates_dropped"]
    assert hypernymy["leakage_masked"] > 0
    lines = validity_lines(result)
    assert any(line.startswith("  hypernymy: ") and "definitions naming the answer masked" in line for line in lines)
    # hyponymy's answer (a kind of the term) holds the term: said so (was: "answers named inside the term")
    assert stats["hyponymy"]["validity"]["answer_named_in_term"] == 2
    hyponymy = next(line for line in lines if line.startswith("  hyponymy: "))
    assert "2 terms named inside the answer (kept)" in hyponymy and "answers named inside" not in hyponymy


def test_splits_are_concept_disjoint_and_a_small_probe_keeps_dev_and_test(tmp_path):
    build(ONTOLOGIES / "vehicles.obo", tmp_path, ["part_of"])
    for probe in ("definitions", "hypernymy", "part_of"):
        concepts = {}
        for split in SPLITS:
            lines = [json.loads(line) for line in (tmp_path / probe / f"{split}.jsonl").read_text().splitlines()]
            assert lines, (probe, split)
            concepts[split] = {line["notes"]["concept_id"] for line in lines}
        assert not (concepts["train"] & concepts["dev"]) and not (concepts["train"] & concepts["test"])
        assert not (concepts["dev"] & concepts["test"])


def test_a_probe_without_questions_is_left_out_and_said_so(tmp_path):
    result = build(ONTOLOGIES / "clinics_rdfs.ttl", tmp_path)
    assert "synonymy" not in result["manifest"]["probes"] and not (tmp_path / "synonymy").exists()
    assert result["skipped"] == {"synonymy": "no concept has an exact synonym"}
    assert "  synonymy: left out (no concept has an exact synonym)" in validity_lines(result)
    with pytest.raises(ValueError, match=r"unknown probe\(s\) \['dictionary'\]"):
        build(ONTOLOGIES / "clinics_rdfs.ttl", tmp_path / "x", probes=["dictionary"])


def test_hypernymy_whose_only_parents_are_roots_is_left_out_for_that_reason(tmp_path):
    """Every concept's parent is the root (too general to be an answer): not 'no concept has a parent'."""
    stanzas = ["format-version: 1.2\nontology: flat\n",
               '[Term]\nid: FL:0000001\nname: thing\ndef: "The top of everything in this file." []\n']
    for number, name in enumerate(["apple", "pear", "plum", "cherry", "quince", "medlar", "sloe"], start=2):
        stanzas.append(f'[Term]\nid: FL:{number:07d}\nname: {name}\n'
                       f'def: "A fruit called the {name} in orchard records number {number}." []\nis_a: FL:0000001\n')
    (tmp_path / "flat.obo").write_text("\n".join(stanzas))
    result = build(tmp_path / "flat.obo", tmp_path / "out")
    assert result["skipped"]["hypernymy"] == (
        "the parents of its 7 concepts with a parent are all roots, and a root is no answer (min_answer_depth; "
        "--min-answer-depth 0 lets it be one)")
    assert result["manifest"]["probes"] == ["definitions"]
    # a shallow source whose roots are real categories: a root may be the answer when asked for
    shallow = build(tmp_path / "flat.obo", tmp_path / "roots", settings={"min_answer_depth": {"n": 0}})
    assert "hypernymy" in shallow["manifest"]["probes"]
    answers = {json.loads(line)["notes"]["answer_id"] for split in SPLITS
               for line in (tmp_path / "roots" / "hypernymy" / f"{split}.jsonl").read_text().splitlines()}
    assert answers == {"FL:0000001"}


def test_an_owl_rendering_that_names_the_relation_by_its_iri_gives_the_same_files(tmp_path):
    """Without oboInOwl:shorthand, the OWL file's relation id is BFO:0000050 where the OBO file's is
    part_of; asked for by the same name, both builds write the same files."""
    text = (ONTOLOGIES / "vehicles.owl").read_text()
    assert "<oboInOwl:shorthand>part_of</oboInOwl:shorthand>" in text
    owl = tmp_path / "iri.owl"
    owl.write_text(text.replace("<oboInOwl:shorthand>part_of</oboInOwl:shorthand>", ""))
    assert load_source(owl, relations=["part_of"]).provenance["relations"] == {"part_of": "BFO:0000050"}
    build(ONTOLOGIES / "vehicles.obo", tmp_path / "obo", ["part_of"])
    build(owl, tmp_path / "owl", ["part_of"])
    for split in SPLITS:
        assert (tmp_path / "obo" / "part_of" / f"{split}.jsonl").read_bytes() == \
            (tmp_path / "owl" / "part_of" / f"{split}.jsonl").read_bytes()


@pytest.mark.parametrize("spelling", ["Part of", "partOf", "PART_OF", "part-of", "part of"])
def test_a_relation_typed_in_another_case_or_with_other_separators_gives_the_same_files(tmp_path, spelling):
    """``--relations 'Part of'`` (or partOf, PART_OF) asks for the relation the OBO file and its OWL
    rendering call part_of (and label *part of*): the same probe, named part_of, with the same
    question ids, random stream, splits and notes (was: a probe named after the typing, ``Part_of/``
    with other splits). The manifest is the same too: how --relations was typed is no part of it."""
    build(ONTOLOGIES / "vehicles.obo", tmp_path / "as_written", ["part_of"])
    for source in ("vehicles.obo", "vehicles.owl"):
        result = build(ONTOLOGIES / source, tmp_path / source, [spelling])
        assert result["manifest"]["probes"][-1] == "part_of"
        assert result["manifest"]["sources"]["ontology"]["relations"] == {
            "part_of": "part_of" if source.endswith("obo") else result["manifest"]["sources"]["ontology"]["relations"]["part_of"]}
        assert "relation_spellings" not in result["manifest"]["sources"]["ontology"]
        _same_probe_files(tmp_path / "as_written", tmp_path / source)
    assert (tmp_path / "as_written" / "manifest.json").read_bytes() == (tmp_path / "vehicles.obo" / "manifest.json").read_bytes()


def test_one_relation_asked_for_by_two_names_is_one_probe(tmp_path):
    """``--relations part_of,BFO_0000050`` names one relation twice: one probe, named by the source's id
    (was: two probes of the same questions under two names, with other splits); the alias alone gives it too."""
    result = build(ONTOLOGIES / "vehicles.obo", tmp_path / "twice", ["part_of", "BFO_0000050"])
    assert result["manifest"]["probes"] == list(VEHICLE_PROBES)
    build(ONTOLOGIES / "vehicles.obo", tmp_path / "once", ["part_of"])
    _same_probe_files(tmp_path / "once", tmp_path / "twice")
    build(ONTOLOGIES / "vehicles.obo", tmp_path / "alias", ["BFO_0000050"])
    _same_probe_files(tmp_path / "once", tmp_path / "alias")


@pytest.mark.parametrize("spelling", ["related", "Related", "skos:related", "related to",
                                      "http://www.w3.org/2004/02/skos/core#related"])
def test_a_skos_relation_by_its_local_name_its_curie_or_its_iri_gives_the_same_files(tmp_path, spelling):
    """``--relations related`` and ``skos:related`` (or the IRI) ask for one relation: one probe,
    ``skos_related``, with the same ids, splits and notes (was: a probe ``related/`` with other splits,
    and the IRI in ``notes.relation``)."""
    as_curie = build(ONTOLOGIES / "kitchen_skos.ttl", tmp_path / "curie", ["skos:related"])
    other = build(ONTOLOGIES / "kitchen_skos.ttl", tmp_path / "other", [spelling])
    assert as_curie["manifest"]["probes"][-1] == other["manifest"]["probes"][-1] == "skos_related"
    for split in SPLITS:
        assert (tmp_path / "curie" / "skos_related" / f"{split}.jsonl").read_bytes() == \
            (tmp_path / "other" / "skos_related" / f"{split}.jsonl").read_bytes(), split
    notes = [json.loads(line)["notes"] for split in SPLITS
             for line in (tmp_path / "other" / "skos_related" / f"{split}.jsonl").read_text().splitlines()]
    assert notes and {note["relation"] for note in notes} == {"skos:related"}


def test_a_relation_known_by_its_full_iri_gives_a_probe_named_after_its_local_name(tmp_path):
    """A property in a namespace without a prefix (full IRI ids): asked for by the IRI or by its local
    name, the probe is ``hasTopping`` and its stems say *has topping*."""
    from tests.knowledge.test_rdf import _pizza_turtle

    path = tmp_path / "pizza.ttl"
    path.write_text(_pizza_turtle("@prefix : <http://e.org/pizza.owl#> .\n"))
    by_iri = build(path, tmp_path / "iri", ["http://e.org/pizza.owl#hasTopping"], settings={"num_choices": 3})
    by_name = build(path, tmp_path / "name", ["hasTopping"], settings={"num_choices": 3})
    assert "hasTopping" in by_iri["manifest"]["probes"] and "hasTopping" in by_name["manifest"]["probes"]
    stems = [json.loads(line)["question"]["stem"] for split in SPLITS
             for line in (tmp_path / "iri" / "hasTopping" / f"{split}.jsonl").read_text().splitlines()]
    assert stems and all("has topping" in stem and "http" not in stem for stem in stems)


def test_the_validity_summary_says_why_a_short_definition_is_not_asked(tmp_path):
    """A one-word definition ("A location.") names none of the concept's names; its count says what it
    lacks (too few content words besides its own names, ``min_definition_words``), not that it named them."""
    source = tmp_path / "places.obo"
    terms = [("place", "A region of space where something is or happens."), ("harbour", "A location."),
             ("market town", "A town holding markets."),
             ("port city", "A city with a port where ships load and unload goods."),
             ("village", "A small settlement in a rural area with few houses."),
             ("capital", "The city where the government of a country has its seat."),
             ("suburb", "A residential district lying near the edge of a large city."),
             ("hamlet", "A very small settlement without a church of its own.")]
    source.write_text("format-version: 1.2\nontology: pl\n\n" + "\n".join(
        f'[Term]\nid: PL:{n}\nname: {name}\ndef: "{text}" []\n' + ("is_a: PL:1\n" if n > 1 else "")
        for n, (name, text) in enumerate(terms, 1)))
    lines = validity_lines(build(source, tmp_path / "two", probes=["definitions"], settings={"min_answer_pool": 1}))
    assert "1 definitions with fewer than 2 content words besides the concept's own names (not asked)" in lines[0]
    lines = validity_lines(build(source, tmp_path / "four", probes=["definitions"],
                                 settings={"min_answer_pool": 1, "min_definition_words": 4}))
    assert "2 definitions with fewer than 4 content words besides the concept's own names (not asked)" in lines[0]


def test_definitions_that_all_say_too_little_leave_the_probe_out_for_that_reason(tmp_path):
    """Every definition only repeats its term ("A harbour."): the probe is left out as having no
    usable definition, with the count (was: 'no question with 4 valid distractors')."""
    source = tmp_path / "places.obo"
    names = ["place", "harbour", "market", "port", "village", "capital", "suburb", "hamlet"]
    source.write_text("format-version: 1.2\nontology: pl\n\n" + "\n".join(
        f'[Term]\nid: PL:{n}\nname: {name}\ndef: "A {name}." []\n' + ("is_a: PL:1\n" if n > 1 else "")
        for n, name in enumerate(names, 1)))
    result = build(source, tmp_path / "out", settings={"min_answer_depth": {"n": 0}})
    assert result["skipped"]["definitions"] == (
        "no concept has a usable definition: its 8 definitions have fewer than 2 content words besides the "
        "concept's own names")


def test_an_owl_ontology_split_into_its_classes_and_a_file_of_definitions_and_restrictions_merges_whole(tmp_path):
    """vehicles.owl as two Turtle files: the classes (types, labels, synonyms, is-a) in one, and the
    definitions and the part_of restrictions of those classes, untyped there, in the other. Merged (in
    either order) they give the one file's probe files byte for byte, named after the ontology (was: no
    definition and no part_of link read from the second file, and the source named 'vo+restrictions')."""
    import rdflib

    whole = rdflib.Graph().parse(ONTOLOGIES / "vehicles.owl", format="xml")
    iao = rdflib.URIRef("http://purl.obolibrary.org/obo/IAO_0000115")
    restrictions = {o for s, o in whole.subject_objects(rdflib.RDFS.subClassOf) if isinstance(o, rdflib.BNode)}
    classes, extra = rdflib.Graph(), rdflib.Graph()
    for prefix, namespace in whole.namespaces():
        classes.bind(prefix, namespace)
        extra.bind(prefix, namespace)
    for triple in whole:
        s, p, o = triple
        moved = p == iao or (p == rdflib.RDFS.subClassOf and o in restrictions) or s in restrictions
        (extra if moved else classes).add(triple)
    assert len(extra) > 20 and not set(extra.subjects(rdflib.RDF.type, rdflib.OWL.Class))
    classes.serialize(tmp_path / "vehicles_classes.ttl", format="turtle")
    extra.serialize(tmp_path / "restrictions.ttl", format="turtle")
    build(ONTOLOGIES / "vehicles.owl", tmp_path / "one", ["part_of"])
    for order in ((tmp_path / "vehicles_classes.ttl", tmp_path / "restrictions.ttl"),
                  (tmp_path / "restrictions.ttl", tmp_path / "vehicles_classes.ttl")):
        out = tmp_path / order[0].stem
        graph = load_source(list(order), relations=["part_of"])
        assert (graph.source, graph.version) == ("vo", "2026-11-01")
        build_ontology_probes(out, graph, relations=["part_of"])
        _same_probe_files(tmp_path / "one", out)


def test_a_table_thousands_of_levels_deep_builds_its_hypernymy_probe(tmp_path):
    """A taxonomy kept as a table, one chain of 1,500 concepts: the read and the build walk it
    without recursion (a RecursionError in the worker, about 100 KB of traceback, exit 1, was what
    depth ~1,000 gave), and every question's answer is one of the concept's ancestors."""
    words = ["amber", "basil", "cedar", "dune", "ember", "fern", "grove", "heath", "iris", "juniper"]
    label = lambda i: " ".join(words[int(digit)] for digit in f"{i:04d}")     # noqa: E731
    source = write_taxonomy(tmp_path / "chain", [(f"T{i}", label(i), "", f"The stage numbered {i} of a long sequence.")
                                                 for i in range(1500)], [(f"T{i}", f"T{i - 1}") for i in range(1, 1500)])
    result = build(source, tmp_path / "out", probes=["hypernymy"])
    questions = [json.loads(line) for split in ("train", "dev", "test")
                 for line in (tmp_path / "out" / "hypernymy" / f"{split}.jsonl").open()]
    assert len({q["notes"]["concept_id"] for q in questions}) > 1000
    # "asked" counts the concepts that kept a question, as the counts table does (was: every concept
    # tried, though some lost every question for want of distractors)
    summary = result["validity"]["hypernymy"]
    assert summary["no_valid_distractors"] and summary["askable"] > summary["concepts"]
    assert summary["concepts"] == len({q["notes"]["concept_id"] for q in questions}) == result["stats"]["hypernymy"]["concepts"]
    for question in questions[:500]:
        concept, answer = (int(question["notes"][key][1:]) for key in ("concept_id", "answer_id"))
        assert answer < concept and all(int(d[1:]) > concept for d in question["notes"]["distractor_ids"])


def test_the_two_concepts_of_a_symmetric_link_are_in_one_split_and_counted(tmp_path):
    result = build(ONTOLOGIES / "kitchen_skos.ttl", tmp_path, ["skos:related"])
    split_of, asked = {}, set()
    for split in SPLITS:
        for line in (tmp_path / "skos_related" / f"{split}.jsonl").read_text().splitlines():
            notes = json.loads(line)["notes"]
            split_of[notes["concept_id"]] = split
            asked.add((notes["concept_id"], notes["answer_id"]))
    both_ways = {tuple(sorted(pair)) for pair in asked if pair[::-1] in asked}
    assert both_ways and result["stats"]["skos_related"]["pairs_answered_both_ways"] == len(both_ways)
    for a, b in both_ways:
        assert split_of[a] == split_of[b], (a, b)


def test_a_relation_probes_ids_name_the_inverse_family_as_its_notes_do(tmp_path):
    build(ONTOLOGIES / "vehicles.obo", tmp_path, ["part_of"])
    lines = [json.loads(line) for split in SPLITS
             for line in (tmp_path / "part_of" / f"{split}.jsonl").read_text().splitlines()]
    inverse = [line for line in lines if line["notes"]["distractor_type"] == "inverse"]
    assert inverse
    for line in lines:
        family = line["notes"]["distractor_type"]
        assert line["id"].rsplit("-", 1)[1] == family + str(line["notes"].get("distractor_hops") or ""), line["id"]


def test_a_synonym_that_holds_the_term_or_is_held_in_it_is_kept_and_counted(tmp_path):
    """*ribose* for *D-ribose*: the choice that shares the term's word gives the answer away to a
    reader; such questions are kept (the synonym is one) and counted in the validity summary."""
    rows = [("S:1", "sugar", "saccharide", "A sweet soluble carbohydrate of short chains."),
            ("S:2", "D-ribose", "ribose", "A pentose sugar found in the backbone of RNA."),
            ("S:3", "glucose", "dextrose", "A hexose sugar that cells burn for their energy."),
            ("S:4", "fructose", "levulose", "A hexose sugar of fruit and of honey."),
            ("S:5", "sucrose", "table sugar", "A disaccharide of glucose and fructose, refined from cane."),
            ("S:6", "lactose", "milk sugar", "A disaccharide found in the milk of mammals.")]
    folder = write_taxonomy(tmp_path / "sugars", rows, [(f"S:{i}", "S:1") for i in range(2, 7)])
    result = build(folder, tmp_path / "out", probes=["synonymy"], settings={"synonymy_min_lemmas": 2}, workers=1)
    synonymy = result["validity"]["synonymy"]
    questions = [json.loads(line) for split in SPLITS
                 for line in (tmp_path / "out" / "synonymy" / f"{split}.jsonl").read_text().splitlines()]
    shares = [q for q in questions if q["notes"]["term"] in ("D-ribose", "sucrose", "lactose")]
    # D-ribose / ribose shares the word; table sugar and milk sugar hold "sugar", not their terms
    ribose = [q for q in questions if q["notes"]["term"] == "D-ribose"]
    assert ribose and shares
    assert synonymy["synonym_shares_term"] == len({(q["notes"]["template"], q["notes"]["context"]) for q in ribose})
    assert any("synonyms that hold the term or are held in it (kept" in line for line in validity_lines(result))


def test_a_synonym_that_is_another_concepts_label_is_kept_and_counted(tmp_path):
    """*legionellosis*, an exact synonym of *Legionnaires' disease* and the label of its parent: the
    source says both (as WordNet's one lemma of two synsets); asked, and counted per question stem."""
    rows = [("D:1", "infection", "infectious disease", "A disease caused by a germ that invades the body."),
            ("D:2", "legionellosis", "legionella infection", "An infection by bacteria of the genus Legionella."),
            ("D:3", "Legionnaires' disease", "legionellosis", "A severe pneumonia caused by Legionella bacteria."),
            ("D:4", "influenza", "flu", "A viral infection of the airways that spreads in winter."),
            ("D:5", "tuberculosis", "consumption", "A bacterial infection that mostly attacks the lungs."),
            ("D:6", "measles", "rubeola", "A viral infection that causes a red rash and fever.")]
    folder = write_taxonomy(tmp_path / "infections", rows, [("D:3", "D:2")] + [(f"D:{i}", "D:1") for i in (2, 4, 5, 6)])
    result = build(folder, tmp_path / "out", probes=["synonymy"], settings={"synonymy_min_lemmas": 2}, workers=1)
    questions = [json.loads(line) for split in SPLITS
                 for line in (tmp_path / "out" / "synonymy" / f"{split}.jsonl").read_text().splitlines()]
    asked = [q for q in questions if q["notes"]["term"] == "Legionnaires' disease"]
    assert asked and all(q["question"]["choices"][int(q["answerKey"])]["text"] == "legionellosis" for q in asked)
    assert result["validity"]["synonymy"]["synonym_labels_another"] == len(
        {(q["notes"]["template"], q["notes"]["context"]) for q in asked})
    assert any("synonyms that are another concept's label (kept" in line for line in validity_lines(result))


def test_a_question_whose_answer_has_the_terms_own_name_is_dropped_and_counted(tmp_path):
    """Two concepts labelled alike, one under the other (NAICS's 11111 and 111110, *Soybean Farming*):
    "what is 'soybean farming' an example of?" answered *soybean farming* asks nothing (was: kept, and
    counted only among the answers named inside the term)."""
    rows, edges = [("R", "farming", "", "Growing plants or raising animals.")], []
    for group in ("grain", "fruit", "vegetable", "oilseed", "flower"):
        rows.append((f"G{group}", f"{group} farming", "", f"Growing {group} plants for sale."))
        edges.append((f"G{group}", "R"))
        for number in range(5):
            rows.append((f"C{group}{number}", f"{group} crop {number} farming", "", f"Growing crop {number} of the {group} kind."))
            edges.append((f"C{group}{number}", f"G{group}"))
    rows.append(("Soy", "soybean farming", "", "Growing soybeans for oil and meal."))
    rows.append(("Soy2", "Soybean Farming", "", "Growing soybeans, the industry's one kind."))
    edges += [("Soy", "Goilseed"), ("Soy2", "Soy")]
    source = write_taxonomy(tmp_path / "naics", rows, edges)
    result = build(source, tmp_path / "out", workers=1, settings={"min_answer_depth": {"n": 0}})
    asked = 0
    for probe in ("hypernymy", "hyponymy"):
        for split in SPLITS:
            for line in (tmp_path / "out" / probe / f"{split}.jsonl").read_text().splitlines():
                question = json.loads(line)
                answer = question["question"]["choices"][int(question["answerKey"])]["text"]
                assert answer.lower() != question["notes"]["term"].lower(), question["id"]
                asked += question["notes"]["concept_id"] in ("Soy", "Soy2")
        assert result["validity"][probe]["answer_is_the_term"] >= 1, probe
    assert asked > 0                # the two are asked of their other ancestors and descendants
    assert any("dropped: the answer has the term's own name" in line for line in validity_lines(result))
