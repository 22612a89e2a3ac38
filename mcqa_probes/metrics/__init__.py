"""Metrics: instance and strict cluster accuracy, hops × distractor breakdown, learning curves."""
from mcqa_probes.metrics.cluster_accuracy import ClusterAccuracy
from mcqa_probes.metrics.probe_breakdown import ProbeBreakdown

__all__ = ["ClusterAccuracy", "ProbeBreakdown"]
