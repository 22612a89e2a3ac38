"""bin/probe_compare over item files: the table, the JSON, and one-line errors."""
import json
import runpy

import pytest

from mcqa_probes.common import cli
from mcqa_probes.metrics.item_records import write_item_records
from tests.causal_models import tiny_causal  # noqa: F401
from tests.conftest import FIXTURES, ROOT
from tests.reports.test_compare import records


def main():
    return runpy.run_path(str(ROOT / "bin" / "probe_compare"), run_name="bin_script")["main"]


def test_table_and_json(tmp_path, capsys):
    hops = [1, 1, 2, 2]
    write_item_records(tmp_path / "items" / "A" / "wordnetqa.jsonl", records("A", [1, 1, 1, 0], hops))
    write_item_records(tmp_path / "items" / "B" / "wordnetqa.jsonl", records("B", [0, 1, 0, 0], hops))
    assert main()([str(tmp_path / "items"), "--json", str(tmp_path / "c.json"), "--samples", "50"]) == 0
    comparison, calibration = capsys.readouterr().out.split("\n\n")
    lines = comparison.splitlines()
    assert lines[0].split()[:4] == ["A", "B", "probe", "cell"] and len(lines) == 4  # all + 2 cells
    assert [line.split()[:2] for line in calibration.splitlines()] == [["model", "probe"], ["A", "wordnetqa/hypernymy"],
                                                                       ["B", "wordnetqa/hypernymy"]]
    result = json.loads((tmp_path / "c.json").read_text())
    assert result["comparisons"][0]["a_only"] == 2 and result["comparisons"][0]["b_only"] == 0
    assert result["calibration"]["B"]["wordnetqa/hypernymy"]["accuracy"] == 0.25


def test_calibration_only_of_one_model_matches_a_recomputation(tmp_path, capsys):
    """ECE (10 equal-mass bins) and Brier of the printed row, recomputed here from the scores."""
    import numpy

    from mcqa_probes.metrics.item_records import item_record

    rights = [1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1]
    margins = [0.15 * (i + 1) for i in range(len(rights))]           # distinct confidences
    found = [item_record("A", "wordnetqa", "hypernymy",
                         {"id": f"q{i}", "question": "?", "choices": ["a", "b"], "answer_index": 0, "notes": {}},
                         {"mcqa": [m, 0.0] if right else [0.0, m]}, "mcqa")
             for i, (right, m) in enumerate(zip(rights, margins))]
    write_item_records(tmp_path / "a.jsonl", found)
    assert main()([str(tmp_path / "a.jsonl"), "--calibration-only", "--json", str(tmp_path / "c.json")]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header.split() == ["model", "probe", "prompt", "n", "accuracy", "confidence", "ECE", "Brier"]
    confidence = numpy.array([1 / (1 + numpy.exp(-m)) for m in margins])   # softmax of (m, 0) at the larger one
    right = numpy.array(rights, dtype=float)
    # the gold choice's probability is confidence when right, 1 - confidence when wrong
    gold_probability = numpy.where(right == 1, confidence, 1 - confidence)
    brier = numpy.mean((1 - gold_probability) ** 2 + (1 - gold_probability) ** 2)
    bins = numpy.array_split(numpy.argsort(confidence), 10)                  # 2 questions per bin
    ece = sum(len(b) / len(rights) * abs(right[b].mean() - confidence[b].mean()) for b in bins)
    cells = row.split()
    assert cells[:4] == ["A", "wordnetqa/hypernymy", "mcqa", "20"]
    assert float(cells[4]) == pytest.approx(100 * right.mean(), abs=0.05)
    assert float(cells[6]) == pytest.approx(ece, abs=5e-4) and float(cells[7]) == pytest.approx(brier, abs=5e-4)
    stored = json.loads((tmp_path / "c.json").read_text())["calibration"]["A"]["wordnetqa/hypernymy"]
    assert stored["brier"] == pytest.approx(brier) and stored["ece"] == pytest.approx(ece)


def test_one_model_or_a_bad_line_is_one_error(tmp_path):
    write_item_records(tmp_path / "a.jsonl", records("A", [1, 0], [1, 1]))
    with pytest.raises(cli.InputError, match=r"a comparison needs two \(--calibration-only"):
        main()([str(tmp_path / "a.jsonl")])
    (tmp_path / "bad.jsonl").write_text("{}\n")
    with pytest.raises(ValueError, match=r"bad.jsonl, line 1: item record: missing"):
        main()([str(tmp_path / "bad.jsonl")])


def test_two_zero_shot_runs_of_one_model_labelled_apart(tmp_path, capsys, tiny_causal):
    """--score sum and --score pmi of one model: unlabelled, the second file's records repeat the
    first's keys (an error naming both files, not answers counted twice); with --items-label each run
    is a model of its own and the paired difference is the runs' accuracy difference."""
    zero_shot = runpy.run_path(str(ROOT / "bin" / "zero_shot"), run_name="bin_script")["main"]
    data, model = FIXTURES / "probes" / "hypernymy" / "dev.jsonl", tiny_causal("gpt2", 512)
    accuracy = {}
    for score in ("sum", "pmi"):
        for label in (None, f"gpt2-{score}"):  # the same run, unlabelled and labelled
            items = tmp_path / f"{score}{'-labelled' if label else ''}.jsonl"
            assert zero_shot(["--model", model, "--data", str(data), "--score", score, "--items-file", str(items),
                              "--cuda-device", "-1", "--quiet"] + (["--items-label", label] if label else [])) == 0
            accuracy[score] = json.loads(capsys.readouterr().out)["accuracy"]
    assert cli.run(main(), [str(tmp_path / "sum.jsonl"), str(tmp_path / "pmi.jsonl"), "--calibration-only"]) == 2
    assert f"{tmp_path / 'pmi.jsonl'}: item record: record (" in capsys.readouterr().err
    labelled = [str(tmp_path / "sum-labelled.jsonl"), str(tmp_path / "pmi-labelled.jsonl")]
    assert main()(labelled + ["--json", str(tmp_path / "c.json"), "--samples", "50", "--no-cells"]) == 0
    comparison = json.loads((tmp_path / "c.json").read_text())["comparisons"]
    assert [(c["model_a"], c["model_b"], c["probe"], c["prompt_a"], c["prompt_b"]) for c in comparison] == \
        [("gpt2-sum", "gpt2-pmi", "hypernymy/dev", "cloze/sum", "cloze/pmi")]
    assert (comparison[0]["accuracy_a"], comparison[0]["accuracy_b"]) == (accuracy["sum"], accuracy["pmi"])
    assert comparison[0]["difference"] == pytest.approx(accuracy["sum"] - accuracy["pmi"])
    with pytest.raises(cli.InputError, match="--items-label x: labels the records of --items-file"):
        zero_shot(["--model", model, "--data", str(data), "--items-label", "x"])
