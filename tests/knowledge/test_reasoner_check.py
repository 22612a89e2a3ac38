"""The reasoner check (HermiT through owlready2, on Java) of the is-a probes: it passes the build's
probes, and it finds a distractor the reasoner infers correct where one is put in."""
import json
import subprocess
import sys

import pytest

from mcqa_probes.builders.ontology_build import build_ontology_probes
from mcqa_probes.knowledge.ontology import SourceError
from mcqa_probes.knowledge.reasoner_check import check_probes
from mcqa_probes.knowledge.source import load_source
from tests.conftest import FIXTURES, ROOT

PIZZA = FIXTURES / "ontologies" / "pizza_axioms.ttl"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("pizza_probes")
    build_ontology_probes(out, load_source(PIZZA, relations=["has_topping"]), relations=["has_topping"], seed=42)
    return out


def test_the_build_passes_the_reasoner_check(built):
    results = check_probes(str(PIZZA), str(built))
    assert sorted(results) == ["has_topping", "hypernymy", "hyponymy"]     # the relation probe from the manifest
    for probe, tally in results.items():
        assert tally["questions"] > 0, probe
        assert (tally["wrong_distractors"], tally["answers_not_inferred"], tally["ids_not_found"]) == (0, 0, 0), tally


def test_a_distractor_that_the_reasoner_infers_correct_is_found(built, tmp_path):
    """A hypernymy question whose first distractor is swapped for an ancestor of the concept (the
    answer of another of its questions), and one whose answer is swapped for that distractor."""
    lines = (built / "hypernymy" / "train.jsonl").read_text().splitlines()
    questions = [json.loads(line) for line in lines]
    answers = {}
    for question in questions:
        answers.setdefault(question["notes"]["concept_id"], set()).add(question["notes"]["answer_id"])
    index, question = next((i, q) for i, q in enumerate(questions) if len(answers[q["notes"]["concept_id"]]) > 1)
    other = sorted(answers[question["notes"]["concept_id"]] - {question["notes"]["answer_id"]})[0]
    wrong = json.loads(lines[index])
    wrong["notes"]["distractor_ids"][0] = other
    swapped = json.loads(lines[index])
    swapped["notes"]["answer_id"] = question["notes"]["distractor_ids"][0]
    (tmp_path / "hypernymy").mkdir()
    (tmp_path / "hypernymy" / "train.jsonl").write_text(json.dumps(wrong) + "\n" + json.dumps(swapped) + "\n")
    tally = check_probes(str(PIZZA), str(tmp_path))["hypernymy"]
    assert (tally["questions"], tally["wrong_distractors"], tally["answers_not_inferred"]) == (2, 1, 1)
    assert any(f"distractor(s) {other} inferred correct" in example for example in tally["examples"])


def test_a_relation_distractor_that_the_link_of_the_concept_entails_is_found(built, tmp_path):
    """'x has topping which of these?': a distractor swapped for an ancestor of the answer (x has
    topping some mozzarella, so some cheese too) is a second correct answer for the reasoner."""
    from mcqa_probes.knowledge.source import load_source as load

    graph = load(PIZZA, relations=["has_topping"])
    lines = (built / "has_topping" / "train.jsonl").read_text().splitlines()
    index, question = next((i, json.loads(line)) for i, line in enumerate(lines)
                           if any(p != "PZ:0000001" for p in graph.hypernyms(json.loads(line)["notes"]["answer_id"])))
    parent = next(p for p in graph.hypernyms(question["notes"]["answer_id"]) if p != "PZ:0000001")
    question["notes"]["distractor_ids"][0] = parent
    (tmp_path / "has_topping").mkdir()
    (tmp_path / "has_topping" / "train.jsonl").write_text(lines[index] + "\n" + json.dumps(question) + "\n")
    (tmp_path / "manifest.json").write_text((built / "manifest.json").read_text())
    tally = check_probes(str(PIZZA), str(tmp_path))["has_topping"]
    assert (tally["questions"], tally["wrong_distractors"], tally["answers_not_inferred"]) == (2, 1, 0)


def test_an_unsatisfiable_class_is_counted_apart_and_an_obo_file_is_refused(tmp_path):
    """IceCream has a topping and hasTopping's domain is Pizza, disjoint from IceCream: no ice cream
    can be, so it is a kind of every class and its questions cannot be checked."""
    source = tmp_path / "desserts.ttl"
    source.write_text("@prefix : <http://e.org/d#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                      "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                      ":hasTopping a owl:ObjectProperty ; rdfs:domain :Pizza .\n"
                      ':Food a owl:Class ; rdfs:label "food" .\n'
                      ':Pizza a owl:Class ; rdfs:label "pizza" ; rdfs:subClassOf :Food ; owl:disjointWith :Dessert .\n'
                      ':Dessert a owl:Class ; rdfs:label "dessert" ; rdfs:subClassOf :Food .\n'
                      ':Fruit a owl:Class ; rdfs:label "fruit" ; rdfs:subClassOf :Food .\n'
                      ':IceCream a owl:Class ; rdfs:label "ice cream" ; rdfs:subClassOf :Dessert, '
                      "[ a owl:Restriction ; owl:onProperty :hasTopping ; owl:someValuesFrom :Fruit ] .\n")
    question = {"id": "q", "notes": {"concept_id": "http://e.org/d#IceCream", "answer_id": "http://e.org/d#Dessert",
                                     "distractor_ids": ["http://e.org/d#Fruit"]}}
    (tmp_path / "probes" / "hypernymy").mkdir(parents=True)
    (tmp_path / "probes" / "hypernymy" / "test.jsonl").write_text(json.dumps(question) + "\n")
    tally = check_probes(str(source), str(tmp_path / "probes"))["hypernymy"]
    assert (tally["questions"], tally["unsatisfiable"], tally["wrong_distractors"]) == (1, 1, 0)
    obo = tmp_path / "x.obo"
    obo.write_text("format-version: 1.2\n")
    with pytest.raises(SourceError, match=r"x.obo: an OBO file, which the reasoner does not read"):
        check_probes(str(obo), str(tmp_path / "probes"))


def test_the_command_prints_a_line_per_probe_and_exits_1_on_a_fault(built, tmp_path):
    command = [sys.executable, str(ROOT / "bin" / "check_entailment"), "--source", str(PIZZA)]
    ok = subprocess.run(command + ["--probes-dir", str(built)], capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr
    assert "hypernymy: " in ok.stdout and ok.stdout.rstrip().endswith("ok: every question checked has exactly one answer "
                                                                      "HermiT infers correct")
    missing = subprocess.run(command + ["--probes-dir", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert missing.returncode == 2 and missing.stderr.startswith(f"error: {tmp_path}: no hypernymy or hyponymy probe")


def test_an_rdfs_vocabulary_is_checked_as_owl_and_a_skos_thesaurus_is_refused(tmp_path):
    """schema.org-style rdfs:Class and rdfs:subClassOf mean to the reasoner what OWL's do; a SKOS
    thesaurus's concepts are individuals to OWL (skos:broader is no subclass axiom): an error."""
    rdfs, skos = FIXTURES / "ontologies" / "clinics_rdfs.ttl", FIXTURES / "ontologies" / "kitchen_skos.ttl"
    build_ontology_probes(tmp_path / "rdfs", load_source(rdfs), seed=42)
    results = check_probes(str(rdfs), str(tmp_path / "rdfs"))
    assert results and all(t["questions"] > 0 and not t["ids_not_found"] and not t["wrong_distractors"]
                           for t in results.values()), results
    build_ontology_probes(tmp_path / "skos", load_source(skos), seed=42)
    with pytest.raises(SourceError, match=r"kitchen_skos.ttl: no classes for the reasoner"):
        check_probes(str(skos), str(tmp_path / "skos"))


def test_a_java_failure_is_shown_by_its_exceptions_message_whole_and_what_owl_2_dl_expects():
    """HermiT's refusal of a cardinality on a non-simple property was cut at 300 characters in a word
    ("...Egg>)'. a"), after the thread's prelude."""
    from mcqa_probes.knowledge.reasoner_check import java_cause

    text = ('Java error message is: Exception in thread "main" java.lang.IllegalArgumentException: Non-simple '
            "property '<http://example.org/food#hasIngredient>' or its inverse appears in the cardinality restriction "
            "'ObjectMinCardinality(2 <http://example.org/food#hasIngredient> <http://example.org/food#Egg>)'.\n"
            "\tat org.semanticweb.HermiT.structural.OWLNormalization$AxiomVisitor.visit(OWLNormalization.java:412)\n")
    cause = java_cause(text)
    assert cause.startswith("IllegalArgumentException: Non-simple property '<http://example.org/food#hasIngredient>'")
    assert "<http://example.org/food#Egg>)'. (expected an OWL 2 DL ontology" in cause and "OWLNormalization" not in cause
    assert java_cause("x " * 400).endswith(" ...") and len(java_cause("x " * 400)) <= 404
