import random
from collections import Counter

import pytest

from mcqa_probes.builders.hops import Taxonomy
from mcqa_probes.builders.wordnetqa import WordNetQABuilder
from mcqa_probes.knowledge.wordnet import graph_from_description
from tests.builders.conftest import MINI, MINI_SETTINGS

ASKABLE = [
    "animal.n.01", "beagle.n.01", "cat.n.01", "dog.n.01", "hound.n.01", "move.v.01",
    "oak.n.01", "robin.n.01", "run.v.01", "sprint.v.01", "tree.n.01", "walk.v.01",
]


def build(graph, probe, seed=1, **settings):
    return WordNetQABuilder(graph, dict(MINI_SETTINGS, **settings)).build(probe, random.Random(seed))


def unique(questions):
    return {q.gold_pair() for q in questions}


def test_askable_concepts_and_surface_forms(mini_graph):
    builder = WordNetQABuilder(mini_graph, MINI_SETTINGS)
    contexts = builder.contexts()
    assert sorted(contexts) == ASKABLE  # synsets without an example sentence are never asked about
    assert contexts["dog.n.01"] == [("the dogs barked all night", "dogs")]
    assert contexts["run.v.01"] == [("the children ran to the gate", "ran")]  # irregular form
    assert contexts["move.v.01"] == [("the crowd moved slowly", "moved")]


def test_definitions_by_hand(mini_graph):
    questions = build(mini_graph, "definitions", max_perturbations=None)
    assert {q.concept for q in questions} == set(ASKABLE)
    assert len(unique(questions)) == 2 * len(ASKABLE)  # two templates per concept
    dog = [q for q in questions if q.concept == "dog.n.01"]
    assert {q.choices[q.answer_index] for q in dog} == {"a domesticated canine"}
    assert all("'dogs'" in q.stem and "'the dogs barked all night'" in q.stem for q in dog)
    assert {q.notes["hops"] for q in questions} == {0}
    assert dog[0].notes["chain"] == "dog.n.01<=dog.n.01" and dog[0].notes["relation"] == "def"
    # dog: sisters bird, cat (1) and kitten, robin (2); hypernyms animal, organism, entity at 1..3;
    # hyponyms hound, puppy (1) and beagle (2): every family with a member gives a perturbation
    labels = Counter(q.id.split("-")[-1] for q in dog)
    assert set(labels) == {"random", "sister1", "sister2", "hypernym1", "hypernym2", "hypernym3", "hyponym1", "hyponym2"}
    assert all(count == 2 for count in labels.values())


def test_hypernymy_hops_and_clusters_by_hand(mini_graph):
    questions = build(mini_graph, "hypernymy", max_perturbations=None)
    answers = {}
    for q in questions:
        answers.setdefault(q.concept, set()).add((q.notes["answer_synset"], q.notes["hops"]))
    assert answers["beagle.n.01"] == {("hound.n.01", 1), ("dog.n.01", 2), ("animal.n.01", 3), ("organism.n.01", 4), ("entity.n.01", 5)}
    assert answers["sprint.v.01"] == {("run.v.01", 1), ("move.v.01", 2)}
    assert "move.v.01" not in answers  # a root has no hypernym
    assert len(unique(questions)) == 32 and len(answers) == 11
    # hops limit
    limited = build(mini_graph, "hypernymy", max_hops=2)
    assert max(q.notes["hops"] for q in limited) == 2
    # default depth filter: noun answers must be at least 4 deep (hound, kitten, robin, oak, puppy)
    default = WordNetQABuilder(mini_graph, {"isa_random_from_answers": False, "max_family_distractors": 4}).build(
        "hypernymy", random.Random(1))
    assert {q.notes["answer_synset"] for q in default if q.notes["pos"] == "n"} == {"hound.n.01"}
    # dog => animal: sisters (bird, cat | kitten, robin), hyponyms (hound, puppy | beagle), random
    dog_animal = [q for q in questions if q.concept == "dog.n.01" and q.notes["answer_synset"] == "animal.n.01"]
    families = {q.id.split("-")[-1]: q for q in dog_animal}
    assert set(families) == {"random", "sister1", "sister2", "hyponym1", "hyponym2"}
    assert sorted(families["sister1"].notes["other_distractors"]) == ["bird.n.01", "cat.n.01"]
    assert sorted(families["sister2"].notes["other_distractors"]) == ["kitten.n.01", "robin.n.01"]
    assert families["hyponym2"].notes["other_distractors"] == ["beagle.n.01"]
    assert families["hyponym2"].notes["distractor_chain"] == "dog.n.01<=hound.n.01<=beagle.n.01"
    assert families["random"].notes["other_distractors"] == [] and len(families["random"].notes["random_distractors"]) == 4
    assert families["sister1"].choices[families["sister1"].answer_index] == "animal (or beast), defined as 'a living organism that moves'"
    # beagle has no sisters and no hyponyms: random distractors only
    assert {q.notes["distractor_type"] for q in questions if q.concept == "beagle.n.01"} == {"random"}
    assert {q.cluster_key for q in questions if q.concept == "dog.n.01"} == {"hypernymy:dog.n.01"}


def test_hyponymy_answers_spread_over_hops(mini_graph):
    questions = build(mini_graph, "hyponymy", max_perturbations=None)
    answers = {}
    for q in questions:
        answers.setdefault(q.concept, set()).add((q.notes["answer_synset"], q.notes["hops"]))
    assert sorted(answers) == ["animal.n.01", "cat.n.01", "dog.n.01", "hound.n.01", "move.v.01", "run.v.01", "tree.n.01"]
    assert answers["hound.n.01"] == {("beagle.n.01", 1)}
    assert ("beagle.n.01", 2) in answers["dog.n.01"] and len(answers["dog.n.01"]) == 2
    assert answers["move.v.01"] & {("run.v.01", 1), ("walk.v.01", 1)} and ("sprint.v.01", 2) in answers["move.v.01"]
    assert Counter(h for _, h in set().union(*answers.values())) == {1: 7, 2: 3}
    chain = next(q.notes["chain"] for q in questions if q.notes["answer_synset"] == "beagle.n.01" and q.concept == "dog.n.01")
    assert chain == "dog.n.01<=hound.n.01<=beagle.n.01"
    # symmetric families: hypernyms of the target, never hyponyms
    assert {q.notes["distractor_type"] for q in questions} <= {"random", "sister", "hypernym"}


@pytest.mark.parametrize("probe", ["definitions", "synonymy", "hypernymy", "hyponymy"])
def test_exactly_one_correct_answer(mini_graph, probe):
    tax = Taxonomy(mini_graph)
    questions = build(mini_graph, probe, max_perturbations=None)
    assert questions
    for q in questions:
        assert len(q.choices) == 5 and len({c.lower() for c in q.choices}) == 5
        ids = q.notes["distractor_synsets"]
        assert ids[q.answer_index] == q.notes["answer_synset"]
        others = [c for i, c in enumerate(ids) if i != q.answer_index]
        target = q.concept
        for other in others:
            assert other != target
            if probe == "hypernymy":
                assert other not in tax.ancestors(target), (q.id, other)
            if probe == "hyponymy":
                assert target not in tax.ancestors(other), (q.id, other)
            shared = {l.lower() for l in mini_graph[other].lemmas} & {l.lower() for l in mini_graph[target].lemmas}
            assert not shared


def test_validity_rules_reject_second_correct_answers(mini_graph):
    description = {"synsets": [dict(e) for e in __import__("json").load(open(MINI))["synsets"]]}
    description["synsets"].append({"id": "dog.n.02", "lemmas": ["dog", "frump"], "definition": "a dull girl", "number": 99})
    graph = graph_from_description(description)
    builder = WordNetQABuilder(graph, MINI_SETTINGS)
    assert not builder.valid_for("definitions", "dog.n.01", "dog.n.01")("dog.n.02")  # another sense of "dog"
    assert not builder.valid_for("synonymy", "dog.n.01", "dog.n.01")("dog.n.02")  # shares a synonym
    assert builder.valid_for("definitions", "dog.n.01", "dog.n.01")("cat.n.01")
    hyper = builder.valid_for("hypernymy", "beagle.n.01", "hound.n.01")
    assert not hyper("dog.n.01") and not hyper("entity.n.01") and hyper("cat.n.01")  # ancestors are also correct
    hypo = builder.valid_for("hyponymy", "dog.n.01", "hound.n.01")
    assert not hypo("beagle.n.01") and not hypo("puppy.n.01") and hypo("cat.n.01") and hypo("animal.n.01")


def test_same_seed_same_questions(mini_graph):
    first = [q.to_json() for q in build(mini_graph, "hypernymy", seed=5)]
    again = [q.to_json() for q in build(graph_from_description(MINI), "hypernymy", seed=5)]
    other = [q.to_json() for q in build(mini_graph, "hypernymy", seed=6)]
    assert first == again and first != other


def test_max_perturbations_caps_each_unique_question(mini_graph):
    questions = build(mini_graph, "definitions", max_perturbations=2)
    per_pair = Counter(q.gold_pair() for q in questions)
    assert max(per_pair.values()) == 2
    assert all(q.notes["distractor_type"] for q in questions)
    assert sum(1 for q in questions if q.notes["distractor_type"] == "random") == len(per_pair)


def test_choice_only_controls_for_isa_probes(mini_graph):
    """Random distractors come from the probe's answer pool; a family gives at most 2 distractors."""
    settings = dict(MINI_SETTINGS, isa_random_from_answers=True, max_family_distractors={"hypernymy": 2})
    builder = WordNetQABuilder(mini_graph, settings)
    pools = builder.answer_pool("hypernymy")
    pool = {c for members in pools.values() for c in members}
    # listed once per question it answers: animal is an ancestor of dog, cat, hound, beagle, ... (by hand)
    assert pools["n"].count("animal.n.01") == sum(
        "animal.n.01" in builder.taxonomy.up(c, 5) for c in builder.askable("hypernymy"))
    assert pools["n"].count("animal.n.01") > pools["n"].count("hound.n.01") >= 1
    # every concept that is an ancestor (within 5 hops) of an askable concept, and nothing else
    expected = set()
    for concept in builder.askable("hypernymy"):
        expected |= set(builder.taxonomy.up(concept, 5))
    assert pool == expected and "beagle.n.01" not in pool and "animal.n.01" in pool
    questions = builder.build("hypernymy", random.Random(1))
    assert questions
    for question in questions:
        assert set(question.notes["random_distractors"]) <= pool
        assert len(question.notes["other_distractors"]) <= 2
        assert len(question.choices) == 5
    families = Counter(len(q.notes["other_distractors"]) for q in questions if q.notes["distractor_type"] != "random")
    assert families and max(families) == 2
