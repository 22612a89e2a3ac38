import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcqa_probes.metrics.cluster_accuracy import ClusterAccuracy
from mcqa_probes.metrics.probe_metrics import ProbeMetrics
from mcqa_probes.metrics.probe_records import breakdown, cluster_accuracy, read_prediction_records
from mcqa_probes.reports.probe_report import summarize

# Hand-made predictions: 3 clusters. A: 2/2 right; B: 1/2 right; C: 0/1 right.
PREDICTIONS = [
    {"id": "a1", "correct": True, "notes": {"synset_id": "A", "hops": 1, "distractor_type": "random", "distractor_hops": 0}},
    {"id": "a2", "correct": True, "notes": {"synset_id": "A", "hops": 1, "distractor_type": "sister", "distractor_hops": 1}},
    {"id": "b1", "best_choice_index": 2, "answer_index": 2, "notes": {"synset_id": "B", "hops": 2, "distractor_type": "sister", "distractor_hops": 1}},
    {"id": "b2", "best_choice_index": 0, "answer_index": 3, "notes": {"synset_id": "B", "hops": 2, "distractor_type": "sister", "distractor_hops": 1}},
    {"id": "c1", "correct": False, "notes": {"synset_id": "C", "hops": 1, "distractor_type": "random", "distractor_hops": 0}},
]


@pytest.fixture
def predictions_file(tmp_path):
    path = tmp_path / "predictions.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in PREDICTIONS) + "\n")
    return path


def test_cluster_accuracy_and_delta_by_hand(predictions_file):
    records = list(read_prediction_records(str(predictions_file)))
    assert [r.correct for r in records] == [True, True, True, False, False]
    assert cluster_accuracy(records) == pytest.approx(1 / 3)  # only A is fully right
    summary = summarize(records)
    assert summary["instance_accuracy"] == pytest.approx(3 / 5)
    assert summary["cluster_delta"] == pytest.approx(100 * (1 / 3 - 3 / 5))
    assert summary["clusters"] == 3


def test_breakdown_cells_by_hand(predictions_file):
    table = breakdown(read_prediction_records(str(predictions_file)))
    assert table == {"1": {"random@0": [1, 2], "sister@1": [1, 1]}, "2": {"sister@1": [1, 2]}}


def test_cluster_key_field_override(predictions_file):
    records = list(read_prediction_records(str(predictions_file), cluster_field="id"))
    assert cluster_accuracy(records) == pytest.approx(3 / 5)  # every question its own cluster


def test_bad_predictions_file_names_line(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"id": "x", "correct": True}) + "\n" + json.dumps({"id": "y"}) + "\n")
    with pytest.raises(ValueError, match=r"p.jsonl, line 2: expected 'correct'"):
        list(read_prediction_records(str(path)))


def test_allennlp_metrics_match_the_file_based_numbers():
    metric = ClusterAccuracy()
    metric([True, True], ["A", "A"])
    metric([True, False, False], ["B", "B", "C"])
    result = metric.get_metric(reset=True)
    assert result["cluster_accuracy"] == pytest.approx(1 / 3)
    assert result["cluster_delta"] == pytest.approx(100 * (1 / 3 - 3 / 5))
    assert metric.get_metric()["cluster_accuracy"] == 0.0  # reset

    probe = ProbeMetrics()
    metadata = [{"id": p["id"], "notes": p["notes"]} for p in PREDICTIONS]
    predicted = [0, 0, 2, 0, 1]
    gold = [0, 0, 2, 3, 0]
    probe.update(predicted, gold, metadata)
    metrics = probe.get_metric(reset=True)
    assert metrics["cluster_accuracy"] == pytest.approx(1 / 3)
    assert metrics["_breakdown/hops=1/random@0"] == 0.5
    assert metrics["_breakdown/hops=2/sister@1"] == 0.5
    assert metrics["_breakdown/hops=1/sister@1"] == 1.0


def test_no_cluster_metrics_without_cluster_keys():
    probe = ProbeMetrics()
    probe.update([0], [0], [{"id": "x"}])
    assert probe.get_metric() == {}


def test_the_breakdown_cells_hidden_from_progress_bars_raise_no_allennlp_warning():
    # in a fresh process: allennlp warns once per process, so an earlier test could have used it up
    script = (
        "import logging, sys\n"
        "logging.basicConfig(stream=sys.stdout, level=logging.WARNING)\n"
        "import mcqa_probes.metrics.probe_breakdown\n"
        "from allennlp.training.util import description_from_metrics\n"
        "print(description_from_metrics({'accuracy': 0.5, '_breakdown/hops=1/random@0': 0.25}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert "accuracy: 0.50" in done.stdout and "_breakdown" not in done.stdout   # hidden from the bar
    assert "beginning with" not in done.stdout + done.stderr
