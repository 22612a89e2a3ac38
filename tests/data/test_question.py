import json

import pytest

from mcqa_probes.data.question import question_from_json, read_questions
from mcqa_probes.common.io import McqaFormatError
from tests.conftest import DATA


def test_string_labels_and_notes_are_kept():
    questions = list(read_questions(DATA / "wordnetqa_hypernymy.jsonl"))
    assert len(questions) == 12
    first = json.loads((DATA / "wordnetqa_hypernymy.jsonl").read_text().splitlines()[0])
    assert questions[0].answer_index == int(first["answerKey"])
    assert questions[0].choices[questions[0].answer_index].text.startswith("brass")
    assert questions[0].extras["notes"]["hops"] == first["notes"]["hops"]


def test_int_labels():
    lines = (DATA / "dictionary_qa.jsonl").read_text().splitlines()
    for question, line in zip(read_questions(DATA / "dictionary_qa.jsonl"), lines):
        data = json.loads(line)
        assert question.answer_index == [c["label"] for c in data["question"]["choices"]].index(data["answerKey"])
        assert question.choices[0].label == "0"


def test_letter_labels_and_question_concept():
    questions = list(read_questions(DATA / "commonsenseqa.jsonl"))
    assert [q.answer_index for q in questions] == [0, 1, 2, 3]
    assert questions[0].extras["question_concept"] == "milk"


def test_flattened_huggingface_choices_and_adhoc_form():
    flat = {"id": "x", "question": "Pick one", "choices": {"label": ["A", "B"], "text": ["yes", "no"]}, "answerKey": "B"}
    assert question_from_json(flat).answer_index == 1
    adhoc = question_from_json({"question": "Pick", "choices": ["a", "b", "c"]}, require_answer_key=False)
    assert [c.label for c in adhoc.choices] == ["A", "B", "C"] and adhoc.answer_index is None


def test_file_without_final_newline(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps({"id": "1", "question": {"stem": "s", "choices": [{"label": 0, "text": "a"}, {"label": 1, "text": "b"}]}, "answerKey": 1}))
    assert [q.answer_index for q in read_questions(path)] == [1]


GOOD = {"id": "1", "question": {"stem": "s", "choices": [{"label": "A", "text": "a"}, {"label": "B", "text": "b"}]}, "answerKey": "A"}


@pytest.mark.parametrize(
    "line, reason",
    [
        ("{not json", "invalid JSON"),
        (json.dumps({k: v for k, v in GOOD.items() if k != "answerKey"}), 'missing "answerKey"'),
        (json.dumps({**GOOD, "answerKey": "Z"}), "matches no choice label"),
        (json.dumps({**GOOD, "question": {"stem": "s", "choices": [{"label": "A", "text": "a"}]}}), "at least 2 choices"),
        (json.dumps({**GOOD, "question": {"stem": "s", "choices": [{"label": "A", "text": "a"}, {"label": "B", "text": "  "}]}}), "empty text"),
    ],
)
def test_bad_input_names_file_and_line(tmp_path, line, reason):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(GOOD) + "\n\n" + line + "\n")
    with pytest.raises(McqaFormatError) as error:
        list(read_questions(path))
    message = str(error.value)
    assert str(path) in message and "line 3" in message and reason in message
    assert error.value.line == 3


def test_missing_answer_key_allowed_when_not_required(tmp_path):
    path = tmp_path / "test.jsonl"
    path.write_text(json.dumps({k: v for k, v in GOOD.items() if k != "answerKey"}) + "\n")
    assert list(read_questions(path, require_answer_key=False))[0].answer_index is None


def test_a_repeated_id_is_told_apart_by_its_use_and_kept_on_request(tmp_path, caplog):
    from mcqa_probes.data.question import read_numbered_questions

    line = '{{"id": "{}", "question": {{"stem": "s", "choices": [{{"label": "A", "text": "a"}}, ' \
           '{{"label": "B", "text": "b"}}]}}, "answerKey": "A"}}'
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(line.format(i) for i in ["x", "y", "x#2", "x", "x"]) + "\n")
    with caplog.at_level("WARNING"):
        ids = [q.id for _, q in read_numbered_questions(path)]
    assert ids == ["x", "y", "x#2", "x#3", "x#4"]
    assert "2 question(s) repeat the id of an earlier line" in caplog.text
    assert [q.id for _, q in read_numbered_questions(path, distinct_ids=False)] == ["x", "y", "x#2", "x", "x"]
