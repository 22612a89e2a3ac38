import random

import pytest

from mcqa_probes.builders.probe_question import ProbeQuestion
from mcqa_probes.builders.splits import LeakageError, check_leakage, deduplicate, split_by_concept


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
