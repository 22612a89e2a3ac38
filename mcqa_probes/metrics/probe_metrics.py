"""The probe metrics every MCQA model reports inside ``allennlp evaluate``: one object to feed.

Models call ``update(predicted, gold, metadata)`` in ``forward`` and merge ``get_metric(reset)`` into
``get_metrics``. A question whose metadata has no cluster key is its own singleton cluster; the
cluster metrics are reported only once some question had a key, and questions without ``notes``
do not count for the breakdown, so the same model works on any MCQA file.
"""
from typing import Any, Dict, List, Optional, Sequence

from mcqa_probes.metrics.cluster_accuracy import ClusterAccuracy
from mcqa_probes.metrics.probe_breakdown import ProbeBreakdown
from mcqa_probes.data.question import cluster_key
from mcqa_probes.metrics.probe_records import record_from


class ProbeMetrics:
    def __init__(self, cluster_key_field: Optional[str] = None) -> None:
        self.cluster_key_field = cluster_key_field
        self.cluster_accuracy = ClusterAccuracy()
        self.breakdown = ProbeBreakdown()
        self._seen_clusters = False

    def update(self, predicted: Sequence[int], gold: Sequence[int], metadata: Optional[List[Dict[str, Any]]]) -> None:
        if not metadata:
            return
        correct = [int(p) == int(g) for p, g in zip(predicted, gold)]
        clusters = [cluster_key(m, self.cluster_key_field) for m in metadata]
        # Every question counts (one without a key is its own cluster, as in bin/probe_report);
        # the cluster metrics are reported once any question had a key.
        self._seen_clusters = self._seen_clusters or any(c is not None for c in clusters)
        self.cluster_accuracy(correct, clusters, [str(m.get("id", "")) for m in metadata])
        self.breakdown([record_from(m, c, self.cluster_key_field) for m, c in zip(metadata, correct)])

    def get_metric(self, reset: bool = False) -> Dict[str, float]:
        result: Dict[str, float] = {}
        if self._seen_clusters:
            result.update(self.cluster_accuracy.get_metric(reset))
        result.update(self.breakdown.get_metric(reset))
        if reset:
            self.cluster_accuracy.reset()
            self._seen_clusters = False
        return result
