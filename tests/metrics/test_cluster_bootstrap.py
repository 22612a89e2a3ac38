"""The 95% intervals: a percentile bootstrap that resamples semantic clusters, not questions."""
import math

import pytest

from mcqa_probes.metrics.cluster_accuracy import ClusterAccuracy
from mcqa_probes.metrics.probe_records import ClusterTally, ProbeRecord, cluster_bootstrap
from mcqa_probes.reports.probe_report import markdown, summarize


def test_independent_questions_give_the_normal_approximation():
    """400 singleton clusters, half right: the interval is p ± 1.96·sqrt(p(1-p)/n) ≈ ±4.9 points."""
    groups = [(index % 2, 1) for index in range(400)]
    interval = cluster_bootstrap(groups, samples=2000)
    half_width = 1.96 * math.sqrt(0.25 / 400)
    assert interval["accuracy_low"] == pytest.approx(0.5 - half_width, abs=0.01)
    assert interval["accuracy_high"] == pytest.approx(0.5 + half_width, abs=0.01)
    # every cluster is one question: strict cluster accuracy is instance accuracy
    assert interval["cluster_accuracy_low"] == pytest.approx(interval["accuracy_low"], abs=0.01)


def test_correlated_questions_widen_the_interval():
    """The same 400 answers as 50 clusters of 8 that are all right or all wrong: the effective
    sample is 50, so the interval is about sqrt(8) times wider than with 400 singletons."""
    clustered = cluster_bootstrap([(8 * (index % 2), 8) for index in range(50)])
    singletons = cluster_bootstrap([(index % 2, 1) for index in range(400)])
    width = clustered["accuracy_high"] - clustered["accuracy_low"]
    assert width > 2 * (singletons["accuracy_high"] - singletons["accuracy_low"])
    assert width == pytest.approx(2 * 1.96 * math.sqrt(0.25 / 50), abs=0.04)


def test_interval_is_seeded_and_contains_the_estimate():
    groups = [(3, 4), (0, 2), (5, 5), (1, 3), (2, 2), (0, 1), (4, 6)]
    first, again = cluster_bootstrap(groups, seed=3), cluster_bootstrap(groups, seed=3)
    assert first == again
    tally = ClusterTally()
    for key, (right, total) in enumerate(groups):
        for index in range(total):
            tally.add(index < right, str(key))
    assert tally.intervals(seed=3) == first
    assert first["accuracy_low"] <= tally.instance_accuracy <= first["accuracy_high"]
    assert first["cluster_accuracy_low"] <= tally.cluster_accuracy <= first["cluster_accuracy_high"]
    assert cluster_bootstrap([(2, 4)] * 10)["accuracy_low"] == cluster_bootstrap([(2, 4)] * 10)["accuracy_high"] == 0.5


def test_evaluate_metrics_and_probe_report_give_the_same_interval():
    records = [ProbeRecord(str(i), correct=(i % 3 != 0), cluster=f"c{i // 4}") for i in range(40)]
    metric = ClusterAccuracy()
    metric([r.correct for r in records], [r.cluster for r in records])
    assert "accuracy_ci_low" not in metric.get_metric(reset=False)  # not after every batch
    evaluated = metric.get_metric(reset=True)
    summary = summarize(records)
    assert evaluated["accuracy_ci_low"] == summary["intervals"]["accuracy_low"]
    assert evaluated["cluster_accuracy_ci_high"] == summary["intervals"]["cluster_accuracy_high"]
    low, high = summary["intervals"]["accuracy_low"], summary["intervals"]["accuracy_high"]
    assert f"{100 * summary['instance_accuracy']:.1f} [{100 * low:.1f}, {100 * high:.1f}]" in markdown(summary)
