"""oLMpics controls on files that are not the paper's probes (e.g. a probe built from an ontology):
the word lists are inferred from every split together, a word of one stem is an argument, a warning
names the words, and a NO LANG. control that would blank every stem is an error naming the file."""
import json
import logging

import pytest

from mcqa_probes.data.olmpics_controls import (
    apply_control, control_words, infer_key_words, infer_language_words, transform_file,
)
from mcqa_probes.data.question import Choice, MultipleChoiceQuestion, read_questions
from mcqa_probes.experiments.olmpics.learning_curves import prepare_variants

ARGUMENTS = ["kidney stone", "renal cyst", "liver fluke", "heart murmur", "lung nodule", "bone spur",
             "skin rash", "eye floater", "ear wax", "nail fungus", "hair loss", "tooth decay"]


def related(i, argument):
    return MultipleChoiceQuestion(f"q{i}", f"Which concept is related to {argument}? [MASK]",
                                  [Choice("A", f"a{i}"), Choice("B", f"b{i}")], 0)


def write(questions, path):
    path.write_text("".join(json.dumps(q.to_json()) + "\n" for q in questions), encoding="utf-8")
    return path


def test_a_small_file_keeps_its_arguments():
    """Four stems: each argument word is in one of them (25%, past the 15% fraction) but in one stem only."""
    questions = [related(i, argument) for i, argument in enumerate(ARGUMENTS[:4])]
    assert infer_language_words(questions) == {"which", "concept", "is", "related", "to"}
    assert [q.stem for q in apply_control(questions, "nolang")] == \
        ["kidney stone [MASK]", "renal cyst [MASK]", "liver fluke [MASK]", "heart murmur [MASK]"]


def test_train_and_dev_get_the_words_of_both_splits(tmp_path, caplog):
    """The dev file alone would call "spleen" (in both its stems) template language; pooled with train
    it is in 2 of 14 stems, under 15%: an argument in both splits."""
    train = write([related(i, a) for i, a in enumerate(ARGUMENTS)], tmp_path / "related_train.jsonl")
    dev_questions = [related(20, "spleen failure"), related(21, "spleen cyst")]
    dev = write(dev_questions, tmp_path / "related_dev.jsonl")
    assert "spleen" in infer_language_words(dev_questions)
    with caplog.at_level(logging.WARNING):
        variants = prepare_variants(str(train), str(dev), tmp_path / "out", ["nolang"], None, dev_limit=None)
    assert [q.stem for q in read_questions(variants["nolang"]["dev"])] == ["spleen failure [MASK]", "spleen cyst [MASK]"]
    assert variants["nolang"]["train"][0].stem == "kidney stone [MASK]"
    warning = " ".join(record.getMessage() for record in caplog.records)
    assert "not one of the oLMpics probes" in warning and "inferred from 14 stems: concept, related, which" in warning
    # bin/olmpics_control decides on the file with its sibling split, as the learning curve does
    transform_file(dev, tmp_path / "dev_nolang.jsonl", "nolang")
    assert next(read_questions(tmp_path / "dev_nolang.jsonl")).stem == "spleen failure [MASK]"


def test_a_control_that_blanks_every_stem_is_an_error_naming_the_file(tmp_path):
    same = [MultipleChoiceQuestion(f"q{i}", "Which concept is related to [MASK]?", [Choice("A", f"a{i}"), Choice("B", f"b{i}")], 0)
            for i in range(4)]
    train, dev = write(same, tmp_path / "same_train.jsonl"), write(same[:2], tmp_path / "same_dev.jsonl")
    with pytest.raises(ValueError, match=f"{train}: nolang control: no word of any of the 4 stems is left"):
        prepare_variants(str(train), str(dev), tmp_path / "out", ["nolang"], None, dev_limit=None)
    with pytest.raises(ValueError, match=f"{dev}: nolang control: no word .* concept, related, which"):
        transform_file(dev, tmp_path / "x.jsonl", "nolang")
    assert not (tmp_path / "x.jsonl").exists()


def test_perturbed_key_words_of_an_unknown_probe_are_its_most_frequent_template_words():
    stems = ["zeta alpha x1 [MASK]", "zeta beta x2 [MASK]", "zeta alpha beta x3 [MASK]", "zeta gamma x4 [MASK]"]
    questions = [MultipleChoiceQuestion(f"q{i}", s, [Choice("A", "y")], 0) for i, s in enumerate(stems)]
    assert infer_key_words(questions, 2) == {"zeta", "alpha"}  # 4 stems, then 2 (alpha before beta); not "alpha, beta"
    assert control_words("perturbed", "age_comparison") == {"age", "than"}  # the paper's lists win
    perturbed = apply_control(questions, "perturbed", seed=3)
    assert all("zeta" not in q.stem.split() and "x" + str(i + 1) in q.stem for i, q in enumerate(perturbed))
