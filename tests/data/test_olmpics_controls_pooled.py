"""NO LANG.: the answer mapping is decided once on the pooled train + dev answers (issue 12.6)."""
import json

from mcqa_probes.data.olmpics_controls import NONSENSE_WORDS, pooled_answer_map, sibling_splits, transform_file
from mcqa_probes.data.question import Choice, MultipleChoiceQuestion, read_questions
from mcqa_probes.experiments.olmpics.learning_curves import prepare_variants


def taxonomy(i, answers):
    stem = f"A x{i} and a y{i} are both a type of [MASK]."
    return MultipleChoiceQuestion(f"q{i}", stem, [Choice(l, t) for l, t in zip("ABC", answers)], 0)


def write(questions, path):
    with open(path, "w", encoding="utf-8") as handle:
        for question in questions:
            handle.write(json.dumps(question.to_json()) + "\n")
    return path


# train: an open answer set (18 distinct answers); dev: 3 distinct answers only
TRAIN = [taxonomy(i, (f"animal{i}", f"plant{i}", f"tool{i}")) for i in range(6)]
DEV = [taxonomy(10 + i, ("animal", "plant", "tool")) for i in range(4)]


def test_pooled_map_is_open_when_train_plus_dev_is_open():
    assert pooled_answer_map(TRAIN, DEV) == {}
    assert pooled_answer_map(DEV) == dict(zip(["animal", "plant", "tool"], NONSENSE_WORDS))


def test_learning_curve_dev_keeps_real_answers_when_the_pooled_set_is_open(tmp_path):
    train = write(TRAIN, tmp_path / "hypernym_conjunction_train.jsonl")
    dev = write(DEV, tmp_path / "hypernym_conjunction_dev.jsonl")
    variants = prepare_variants(str(train), str(dev), tmp_path / "out", ["nolang"], None, dev_limit=None)
    nolang_dev = list(read_questions(variants["nolang"]["dev"]))
    assert [c.text for c in nolang_dev[0].choices] == ["animal", "plant", "tool"]
    assert [c.text for c in variants["nolang"]["train"][0].choices] == ["animal0", "plant0", "tool0"]


def test_learning_curve_closed_set_maps_train_and_dev_the_same_way(tmp_path):
    # dev lacks "often": mapped on its own it would give "always" and "never" other nonsense words
    closed_train = [taxonomy(i, ("always", "never", "often")) for i in range(3)]
    closed_dev = [taxonomy(9, ("always", "never", "sometimes"))]
    train = write(closed_train, tmp_path / "t_train.jsonl")
    dev = write(closed_dev, tmp_path / "t_dev.jsonl")
    variants = prepare_variants(str(train), str(dev), tmp_path / "out", ["nolang"], None, dev_limit=None)
    mapping = dict(zip(["always", "never", "often", "sometimes"], NONSENSE_WORDS))
    assert [c.text for c in variants["nolang"]["train"][0].choices] == [mapping["always"], mapping["never"], mapping["often"]]
    dev_choices = [c.text for c in next(read_questions(variants["nolang"]["dev"])).choices]
    assert dev_choices == [mapping["always"], mapping["never"], mapping["sometimes"]]


def test_transform_file_pools_with_the_sibling_split(tmp_path):
    write(TRAIN, tmp_path / "hypernym_conjunction_train.jsonl")
    dev = write(DEV, tmp_path / "hypernym_conjunction_dev.jsonl")
    assert sibling_splits(dev) == [tmp_path / "hypernym_conjunction_train.jsonl"]
    transform_file(dev, tmp_path / "dev_nolang.jsonl", "nolang")
    assert [c.text for c in next(read_questions(tmp_path / "dev_nolang.jsonl")).choices] == ["animal", "plant", "tool"]
    transform_file(dev, tmp_path / "dev_alone.jsonl", "nolang", pool=[])  # explicitly alone: a closed set
    assert [c.text for c in next(read_questions(tmp_path / "dev_alone.jsonl")).choices] == ["blah", "ya", "foo"]
