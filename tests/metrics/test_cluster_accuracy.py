"""Strict cluster accuracy has one implementation (ClusterTally): the allennlp metric, fed batch by
batch from instance metadata, and the predictions-file report give the same numbers, also when some
questions have no cluster key (each such question is its own singleton cluster)."""
import json

import pytest

from mcqa_probes.metrics.cluster_accuracy import ClusterAccuracy
from mcqa_probes.metrics.probe_metrics import ProbeMetrics
from mcqa_probes.metrics.probe_records import ClusterTally, cluster_accuracy, read_prediction_records
from mcqa_probes.reports.probe_report import probe_report

# Clusters: A (2/2 right), B (1/2 right); four questions without a key: two right, two wrong,
# two of them sharing an (empty) id -- still separate clusters.
# By hand: clusters A, B, n1, n2, "", "" = 6; right: A, n1, one "" = 3 -> 1/2.
# Instance: right a1 a2 b1 n1 "" = 5 of 8.
FIXTURE = [
    ({"id": "a1", "notes": {"synset_id": "A"}}, 0, 0),
    ({"id": "n1", "notes": {}}, 1, 1),
    ({"id": "b1", "notes": {"synset_id": "B"}}, 2, 2),
    ({"id": "", "notes": {}}, 0, 0),
    ({"id": "a2", "notes": {"synset_id": "A"}}, 1, 1),
    ({"id": "n2", "notes": {}}, 0, 3),
    ({"id": "", "notes": {}}, 0, 1),
    ({"id": "b2", "notes": {"synset_id": "B"}}, 0, 3),
]
CLUSTER, INSTANCE = 3 / 6, 5 / 8


def test_by_hand():
    tally = ClusterTally()
    for metadata, predicted, gold in FIXTURE:
        tally.add(predicted == gold, metadata["notes"].get("synset_id"))
    assert (tally.clusters, tally.clusters_right) == (6, 3)
    assert tally.cluster_accuracy == pytest.approx(CLUSTER)
    assert tally.instance_accuracy == pytest.approx(INSTANCE)


def test_allennlp_metric_and_report_agree_with_keyless_questions(tmp_path):
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text("".join(
        json.dumps({**m, "best_choice_index": p, "answer_index": g}) + "\n" for m, p, g in FIXTURE))
    report = probe_report(str(predictions), str(tmp_path / "out"))

    probe = ProbeMetrics()
    # batches of 3: the second batch [n2, "", b2] ... and a batch of keyless questions only
    for start in range(0, len(FIXTURE), 3):
        batch = FIXTURE[start:start + 3]
        probe.update([p for _, p, _ in batch], [g for _, _, g in batch], [m for m, _, _ in batch])
    metrics = probe.get_metric(reset=True)

    metric = ClusterAccuracy()
    for start in range(0, len(FIXTURE), 2):
        batch = FIXTURE[start:start + 2]
        metric([p == g for _, p, g in batch], [m["notes"].get("synset_id") for m, _, _ in batch])
    direct = metric.get_metric(reset=True)

    records = list(read_prediction_records(str(predictions)))
    assert report["cluster_accuracy"] == metrics["cluster_accuracy"] == direct["cluster_accuracy"] \
        == cluster_accuracy(records) == pytest.approx(CLUSTER)
    assert report["cluster_delta"] == pytest.approx(metrics["cluster_delta"])
    assert report["cluster_delta"] == pytest.approx(direct["cluster_delta"])
    assert report["cluster_delta"] == pytest.approx(100 * (CLUSTER - INSTANCE))
    assert report["clusters"] == 6
    assert json.loads((tmp_path / "out" / "report.json").read_text())["cluster_accuracy"] == pytest.approx(CLUSTER)


def test_keyless_batches_count_once_a_key_is_seen():
    probe = ProbeMetrics()
    probe.update([0], [1], [{"id": "x"}])  # no key: its own (wrong) cluster
    assert "cluster_accuracy" not in probe.get_metric()
    probe.update([0], [0], [{"id": "y", "notes": {"synset_id": "A"}}])
    assert probe.get_metric(reset=True)["cluster_accuracy"] == pytest.approx(1 / 2)
    probe.update([0], [0], [{"id": "z"}])  # reset cleared the counts
    probe.update([0], [0], [{"id": "w", "notes": {"synset_id": "A"}}])
    assert probe.get_metric()["cluster_accuracy"] == 1.0
