import random

import pytest

from mcqa_probes.builders.probe_question import ProbeQuestion
from mcqa_probes.builders.splits import (
    LeakageError, answered_both_ways, check_leakage, deduplicate, split_by_concept,
)


def q(concept, stem, answer="a", distractor="b", n=0):
    return ProbeQuestion(f"{concept}-{n}", "p", stem, [answer, distractor, f"c{n}"], 0, concept, f"p:{concept}")


def test_deduplicate_drops_repeats_and_foreign_gold_pairs():
    questions = [q("x", "s1"), q("x", "s1"), q("x", "s1", n=1), q("y", "s1", n=2), q("y", "s2")]
    kept, dropped = deduplicate(questions)
    # exact repeat dropped; same gold pair under another concept dropped; perturbation of own pair kept
    assert [question.id for question in kept] == ["x-0", "x-1", "y-0"] and dropped == 2


def test_splits_are_concept_disjoint_and_train_is_capped():
    questions = [q(f"c{i}", f"s{i}-{j}", n=j) for i in range(40) for j in range(i % 4 + 1)]
    splits = split_by_concept(questions, random.Random(0), train_size=10)
    assert 0 < len(splits["train"]) <= 10
    assert sum(len(v) for v in splits.values()) == len(questions)
    concepts = {name: {x.concept for x in split} for name, split in splits.items()}
    assert not (concepts["train"] & concepts["dev"]) and not (concepts["train"] & concepts["test"]) and not (concepts["dev"] & concepts["test"])
    assert abs(len(splits["dev"]) - len(splits["test"])) <= 4
    check_leakage(splits)
    again = split_by_concept(questions, random.Random(0), train_size=10)
    assert [x.id for x in again["dev"]] == [x.id for x in splits["dev"]]


@pytest.mark.parametrize("bad", [
    {"train": [q("x", "s1")], "dev": [q("x", "s2")], "test": []},                        # concept crosses
    {"train": [q("x", "s1")], "dev": [q("y", "s1")], "test": []},                        # gold pair crosses
])
def test_leakage_check_fails_the_build(bad):
    with pytest.raises(LeakageError):
        check_leakage(bad)


def test_leakage_check_catches_cluster_keys():
    other = ProbeQuestion("z", "p", "s9", ["a", "b"], 0, "z", "p:x")
    with pytest.raises(LeakageError, match="cluster"):
        check_leakage({"train": [q("x", "s1")], "dev": [other], "test": []})


def related(concept, answer, n=0):
    """A question of a symmetric relation: ``concept related to ?`` answered by ``answer``."""
    question = q(concept, f"{concept} related to? {n}", answer=answer, n=n)
    question.notes["answer_id"] = answer
    return question


def test_two_concepts_that_answer_each_others_questions_go_to_one_split():
    # c0 .. c59 in a ring of symmetric links: c_i related to c_(i+1) both ways, but for the pairs i = 9, 19, ...
    questions = []
    for i in range(60):
        if i % 10 != 9:
            questions.append(related(f"c{i:02d}", f"c{i + 1:02d}"))
            questions.append(related(f"c{i + 1:02d}", f"c{i:02d}", n=1))
    pairs = answered_both_ways(questions)
    assert len(pairs) == 54 and pairs[0] == ("c00", "c01") and ("c09", "c10") not in pairs
    # without the pairs, some of them are split apart (the leak the pairs close) and the check says so
    apart = split_by_concept(questions, random.Random(1), train_size=40)
    with pytest.raises(LeakageError, match="answer each other's questions"):
        check_leakage(apart, pairs)
    kept = split_by_concept(questions, random.Random(1), train_size=40, together=pairs)
    check_leakage(kept, pairs)
    split_of = {x.concept: name for name, split in kept.items() for x in split}
    for a, b in pairs:
        assert split_of[a] == split_of[b], (a, b)
    # every group of ten goes whole to one split; train is capped and dev and test have some
    assert sum(len(v) for v in kept.values()) == len(questions) and 0 < len(kept["train"]) <= 40
    assert kept["dev"] and kept["test"]
    # no pairs: exactly the split of before (the WordNet files are byte-identical)
    assert {n: [x.id for x in v] for n, v in split_by_concept(questions, random.Random(1), 40, ()).items()} == \
        {n: [x.id for x in v] for n, v in apart.items()}
