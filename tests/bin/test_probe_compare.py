"""bin/probe_compare over item files: the table, the JSON, and one-line errors."""
import json
import runpy

import pytest

from mcqa_probes.common import cli
from mcqa_probes.metrics.item_records import write_item_records
from tests.conftest import ROOT
from tests.reports.test_compare import records


def main():
    return runpy.run_path(str(ROOT / "bin" / "probe_compare"), run_name="bin_script")["main"]


def test_table_and_json(tmp_path, capsys):
    hops = [1, 1, 2, 2]
    write_item_records(tmp_path / "items" / "A" / "wordnetqa.jsonl", records("A", [1, 1, 1, 0], hops))
    write_item_records(tmp_path / "items" / "B" / "wordnetqa.jsonl", records("B", [0, 1, 0, 0], hops))
    assert main()([str(tmp_path / "items"), "--json", str(tmp_path / "c.json"), "--samples", "50"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["A", "B", "probe", "cell"] and len(lines) == 4  # all + 2 cells
    result = json.loads((tmp_path / "c.json").read_text())
    assert result["comparisons"][0]["a_only"] == 2 and result["comparisons"][0]["b_only"] == 0


def test_one_model_or_a_bad_line_is_one_error(tmp_path):
    write_item_records(tmp_path / "a.jsonl", records("A", [1, 0], [1, 1]))
    with pytest.raises(cli.InputError, match="a comparison needs two"):
        main()([str(tmp_path / "a.jsonl")])
    (tmp_path / "bad.jsonl").write_text("{}\n")
    with pytest.raises(ValueError, match=r"bad.jsonl, line 1: item record: missing"):
        main()([str(tmp_path / "bad.jsonl")])
