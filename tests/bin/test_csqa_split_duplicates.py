"""bin/csqa_split refuses a question id given twice (one file twice, the same questions in both
layouts, a repeat inside one file): pooled, a question could land in two splits and leak between
train and test. One error line naming both files and lines; nothing written."""
import json

import pytest

from mcqa_probes.common import cli
from mcqa_probes.common.io import McqaFormatError
from tests.conftest import FIXTURES, load_bin

CSQA = FIXTURES / "csqa"


@pytest.mark.parametrize("second", ["dev_original.jsonl", "dev_hf.jsonl"])
def test_a_question_id_in_two_inputs_is_an_error_and_writes_nothing(tmp_path, capsys, second):
    split = load_bin("csqa_split")
    out = tmp_path / "split"
    first, again = CSQA / "dev_original.jsonl", CSQA / second
    assert cli.run(split.main, [str(first), str(again), "--out-dir", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"error: {again}, line 1: question id 'csqa-a1' is already in {first}, line 1")
    assert ("the same file given twice" in err) == (second == "dev_original.jsonl")
    assert not out.exists()


def test_a_repeat_inside_one_file_and_id_less_questions(tmp_path):
    from mcqa_probes.data.commonsenseqa import read_split_inputs

    lines = (CSQA / "dev_original.jsonl").read_text().splitlines()
    (tmp_path / "dup.jsonl").write_text("\n".join(lines[:3] + [lines[1]]) + "\n")
    with pytest.raises(McqaFormatError, match=r"dup.jsonl, line 4: question id 'csqa-a2' is already in .*dup.jsonl, "
                                              r"line 2;"):
        read_split_inputs([tmp_path / "dup.jsonl"])
    # questions without an id (read as line-N) are not compared across files
    bare = [json.dumps({k: v for k, v in json.loads(line).items() if k != "id"}) for line in lines[:2]]
    for name in ("a.jsonl", "b.jsonl"):
        (tmp_path / name).write_text("\n".join(bare) + "\n")
    assert len(read_split_inputs([tmp_path / "a.jsonl", tmp_path / "b.jsonl"])) == 4
    assert len(read_split_inputs([CSQA / "dev_original.jsonl"])) == 10


def test_distinct_inputs_still_pool(tmp_path, capsys):
    lines = (CSQA / "dev_hf.jsonl").read_text().splitlines()
    (tmp_path / "train.jsonl").write_text("\n".join(lines[:6]) + "\n")
    (tmp_path / "dev.jsonl").write_text("\n".join(lines[6:]) + "\n")
    split = load_bin("csqa_split")
    assert split.main([str(tmp_path / "train.jsonl"), str(tmp_path / "dev.jsonl"), "--out-dir", str(tmp_path / "o")]) == 0
    ids = [json.loads(l)["id"] for name in ("train", "dev", "test") for l in open(tmp_path / "o" / f"{name}.jsonl")]
    assert sorted(ids) == sorted(json.loads(l)["id"] for l in lines)
