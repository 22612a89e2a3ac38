"""One JSON-lines reader: an empty file and non-UTF-8 bytes stop with file (and line) named (issue 12.8)."""
import json

import pytest

from mcqa_probes.data.question import read_questions
from mcqa_probes.common.io import McqaFormatError, read_jsonl
from mcqa_probes.metrics.probe_records import read_prediction_records

GOOD = {"id": "1", "question": {"stem": "s", "choices": [{"label": "A", "text": "a"}, {"label": "B", "text": "b"}]},
        "answerKey": "A"}


@pytest.mark.parametrize("content", [b"", b"\n  \n\n"])
def test_a_file_without_questions_is_an_error_naming_it(tmp_path, content):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    with pytest.raises(McqaFormatError, match="no question in the file") as error:
        list(read_questions(path))
    assert str(path) in str(error.value)
    assert list(read_questions(path, allow_empty=True)) == []


def test_non_utf8_bytes_name_file_line_and_the_expected_encoding(tmp_path):
    path = tmp_path / "latin1.jsonl"
    second = json.dumps({**GOOD, "id": "2", "question": {**GOOD["question"], "stem": "caf\u00e9"}}, ensure_ascii=False)
    path.write_bytes((json.dumps(GOOD) + "\n").encode("utf-8") + (second + "\n").encode("latin-1"))
    with pytest.raises(McqaFormatError) as error:
        list(read_questions(path))
    message = str(error.value)
    assert f"{path}, line 2: " in message and "not UTF-8" in message and "0xe9" in message
    assert error.value.line == 2


def test_utf8_bom_and_utf8_text_are_fine(tmp_path):
    path = tmp_path / "bom.jsonl"
    text = json.dumps({**GOOD, "question": {**GOOD["question"], "stem": "caf\u00e9"}}, ensure_ascii=False)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8") + b"\n")
    assert [q.stem for q in read_questions(path)] == ["caf\u00e9"]
    assert [n for n, _ in read_jsonl(path)] == [1]


def test_predictions_files_use_the_same_reader(tmp_path):
    empty = tmp_path / "p.jsonl"
    empty.write_text("")
    with pytest.raises(McqaFormatError, match="no prediction in the file"):
        list(read_prediction_records(str(empty)))
    bad = tmp_path / "q.jsonl"
    bad.write_bytes(b'{"id": "x", "correct": true}\n{"id": "\xff", "correct": true}\n')
    with pytest.raises(McqaFormatError, match=r"q.jsonl, line 2: not UTF-8"):
        list(read_prediction_records(str(bad)))


def test_mcqa_reader_stops_on_an_empty_file(tmp_path):
    from mcqa_probes.data.dataset_readers.mcqa import McqaReader

    path = tmp_path / "empty.jsonl"
    path.write_text("\n")
    with pytest.raises(McqaFormatError, match="empty.jsonl: no question in the file"):
        list(McqaReader(transformer_model_name="minilm").read(str(path)))
