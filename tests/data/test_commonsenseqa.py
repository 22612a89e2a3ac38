"""CommonsenseQA: both layouts, SANITY mode, the question-concept split (plain Python)."""
import json

import pytest

from mcqa_probes.data.commonsenseqa import (
    answer_pool, question_concept, question_concept_split, sanity_question, sanity_questions, to_layout, write_questions,
)
from mcqa_probes.data.question import read_questions
from mcqa_probes.common.io import McqaFormatError
from tests.conftest import FIXTURES

CSQA = FIXTURES / "csqa"
GOLD = [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]  # answerKeys A B C D E A B C D E


@pytest.mark.parametrize("name", ["dev_original.jsonl", "dev_hf.jsonl"])
def test_both_layouts_give_the_same_questions(name):
    questions = list(read_questions(CSQA / name))
    assert [q.answer_index for q in questions] == GOLD
    assert questions[2].choices[questions[2].answer_index].text == "scissors"
    assert [c.label for c in questions[0].choices] == list("ABCDE")
    assert questions[0].extras["question_concept"] == "milk"
    assert questions[0].stem == "Where would you keep milk so that it stays cold?"


@pytest.mark.parametrize("name", ["test_original_no_answers.jsonl", "test_hf_no_answers.jsonl"])
def test_test_files_without_answers(name):
    with pytest.raises(McqaFormatError, match="answerKey"):
        list(read_questions(CSQA / name))
    questions = list(read_questions(CSQA / name, require_answer_key=False))
    assert len(questions) == 3 and all(q.answer_index is None for q in questions)
    assert questions[1].extras["question_concept"] == "milk"


def test_sanity_keeps_gold_position_and_k_and_draws_other_answers():
    questions = list(read_questions(CSQA / "dev_original.jsonl"))
    pool = answer_pool(questions)
    assert len(pool) == 10 and pool[0] == "refrigerator"
    sane = sanity_questions(questions, seed=3)
    for before, after in zip(questions, sane):
        assert after.answer_index == before.answer_index
        assert len(after.choices) == len(before.choices)
        assert [c.label for c in after.choices] == [c.label for c in before.choices]
        gold = after.choices[after.answer_index].text
        assert gold == before.choices[before.answer_index].text
        distractors = [c.text for i, c in enumerate(after.choices) if i != after.answer_index]
        assert len(set(distractors)) == 4 and gold not in distractors
        assert set(distractors) <= set(pool)
        assert after.extras["sanity"]["replaced"] == [c.text for i, c in enumerate(before.choices) if i != before.answer_index]
    # seeded per question id: same draw in any order, different with another seed
    assert sanity_question(questions[4], pool, 3) == sane[4]
    assert sanity_questions(questions[::-1], seed=3)[::-1] == sane
    assert sanity_questions(questions, seed=4) != sane


def test_sanity_needs_answers_and_a_big_enough_pool():
    questions = list(read_questions(CSQA / "dev_original.jsonl"))
    with pytest.raises(McqaFormatError, match="needs 4 other answers"):
        sanity_question(questions[0], ["refrigerator", "cow", "wings"])
    unlabeled = list(read_questions(CSQA / "test_hf_no_answers.jsonl", require_answer_key=False))
    with pytest.raises(McqaFormatError, match="gold answer"):
        sanity_question(unlabeled[0], answer_pool(questions))


def test_question_concept_split_is_disjoint_seeded_and_complete():
    questions = [q for _ in range(3) for q in read_questions(CSQA / "dev_original.jsonl")]
    for i, q in enumerate(questions):  # 30 questions over 24 concepts (milk, paper twice per copy)
        q.id = f"{q.id}-{i}"
        if i >= 10:
            q.extras = {**q.extras, "question_concept": f"{q.extras['question_concept']} {i // 10}"}
    splits = question_concept_split(questions, seed=1)
    concepts = {name: {question_concept(q) for q in items} for name, items in splits.items()}
    assert not concepts["train"] & concepts["dev"] and not concepts["train"] & concepts["test"]
    assert not concepts["dev"] & concepts["test"]
    assert sorted(q.id for items in splits.values() for q in items) == sorted(q.id for q in questions)
    assert 22 <= len(splits["train"]) <= 26 and splits["dev"] and splits["test"]
    assert question_concept_split(questions, seed=1) == splits
    assert question_concept_split(questions, seed=2) != splits
    with pytest.raises(ValueError, match="fractions"):
        question_concept_split(questions, (0.5, 0.2, 0.2))


@pytest.mark.parametrize("layout", ["original", "hf"])
def test_written_layouts_read_back(tmp_path, layout):
    questions = list(read_questions(CSQA / "dev_hf.jsonl"))
    write_questions(tmp_path / "out.jsonl", questions, layout)
    again = list(read_questions(tmp_path / "out.jsonl"))
    assert again == questions
    first = json.loads((tmp_path / "out.jsonl").read_text().splitlines()[0])
    if layout == "original":
        assert first["question"]["question_concept"] == "milk"
    else:
        assert first["choices"]["text"][0] == "refrigerator" and first["question_concept"] == "milk"
    assert to_layout(questions[0], layout)["answerKey"] == "A"
