"""A requested training size larger than the training file is not run under that name (issue 12.1)."""
import csv
import json

import pytest

from mcqa_probes.metrics.learning_curve import PAPER_SIZES, PAPER_WEIGHTS, paper_comparable, plan_sizes
from mcqa_probes.experiments.olmpics.learning_curves import format_summary, run_learning_curve
from tests.conftest import FIXTURES

AGE = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_train.jsonl"
AGE_DEV = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl"


def hundred_questions(path):
    """A 100-question training file (the fixture's questions, repeated with new ids)."""
    lines = [json.loads(line) for line in AGE.read_text().splitlines() if line.strip()]
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(100):
            question = dict(lines[i % len(lines)], id=f"q{i}")
            handle.write(json.dumps(question) + "\n")
    return path


def test_plan_sizes_stops_at_the_available_size():
    assert plan_sizes(PAPER_SIZES, 5000) == (list(PAPER_SIZES), [])
    assert plan_sizes(PAPER_SIZES, 1004) == ([62, 125, 250, 500, 1000, 1004], [2000, 4000])
    assert plan_sizes(PAPER_SIZES, 1000) == ([62, 125, 250, 500, 1000], [2000, 4000])
    assert plan_sizes([62, 125], 40) == ([40], [62, 125])
    assert paper_comparable(PAPER_SIZES) and not paper_comparable(PAPER_SIZES, missing=[4000])
    with pytest.raises(ValueError):
        plan_sizes(PAPER_SIZES, 0)


def test_a_100_question_file_runs_62_and_100_only(tmp_path):
    train = hundred_questions(tmp_path / "train.jsonl")
    runs = []

    def fake_trainer(config, directory, overrides):
        size = sum(1 for _ in open(overrides["train_data_path"]))
        runs.append((directory.parent.name, size))
        return 0.5 + size / 1000

    summary = run_learning_curve("unused.jsonnet", str(train), str(AGE_DEV), tmp_path / "lc", seeds=2,
                                 trainer=fake_trainer, progress=False)
    # every run is filed under the number of questions it really trained on
    assert sorted(runs) == [("n100_s0", 100), ("n100_s1", 100), ("n62_s0", 62), ("n62_s1", 62)]
    assert summary["requested_sizes"] == list(PAPER_SIZES)
    assert summary["sizes"] == [62, 100]
    assert summary["missing_sizes"] == [125, 250, 500, 1000, 2000, 4000]
    assert summary["train_questions"] == 100
    assert summary["paper_comparable"] is False
    assert summary["curves"]["full"] == {"62": pytest.approx(0.562), "100": pytest.approx(0.6)}
    # WS over the sizes run: the first two paper weights, renormalised
    w62, w125 = PAPER_WEIGHTS[:2]
    assert summary["full"]["WS"] == pytest.approx((w62 * 0.562 + w125 * 0.6) / (w62 + w125))
    assert summary["full"]["MAX"] == pytest.approx(0.6)
    assert summary["full"]["missing_sizes"] == [125, 250, 500, 1000, 2000, 4000]
    on_disk = json.loads((tmp_path / "lc" / "summary.json").read_text())
    assert on_disk["missing_sizes"] == summary["missing_sizes"] and on_disk["paper_comparable"] is False
    with open(tmp_path / "lc" / "curve.csv") as handle:
        rows = list(csv.DictReader(handle))
    run_rows = {r["size"]: r for r in rows if r["mean_accuracy"]}
    assert set(run_rows) == {"62", "100"} and "stands in for 125" in run_rows["100"]["note"]
    assert [r["size"] for r in rows if not r["mean_accuracy"]] == ["125", "250", "500", "1000", "2000", "4000"]
    assert all("100 questions" in r["note"] for r in rows if not r["mean_accuracy"])
    text = format_summary(summary)
    assert "not run: sizes 125, 250, 500, 1000, 2000, 4000" in text


def test_a_file_with_every_size_is_paper_comparable(tmp_path):
    summary = run_learning_curve("unused.jsonnet", str(AGE), str(AGE_DEV), tmp_path / "lc", sizes=[8, 16], seeds=1,
                                 trainer=lambda c, d, o: 0.5, progress=False)
    assert summary["sizes"] == [8, 16] and summary["missing_sizes"] == []
    assert summary["paper_comparable"] is False  # not the paper's sizes
