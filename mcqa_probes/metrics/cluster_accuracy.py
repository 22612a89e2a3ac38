"""The ``cluster_accuracy`` Metric: strict accuracy over semantic clusters (TACL paper, Table 8)."""
from typing import Dict, List, Optional

from allennlp.training.metrics import Metric

from mcqa_probes.metrics.probe_records import ProbeRecord, cluster_accuracy, instance_accuracy


@Metric.register("cluster_accuracy")
class ClusterAccuracy(Metric):
    """Fed one (correct, cluster key) per question; reports ``cluster_accuracy`` (a cluster is right
    only if all its questions are right), ``instance_accuracy`` and ``cluster_delta`` (cluster minus
    instance accuracy, in points, as the paper's Δ)."""

    def __init__(self) -> None:
        self._records: List[ProbeRecord] = []

    def __call__(self, correct: List[bool], clusters: List[Optional[str]], ids: Optional[List[str]] = None):  # type: ignore[override]
        ids = ids or [str(len(self._records) + i) for i in range(len(correct))]
        self._records.extend(ProbeRecord(id=i, correct=bool(c), cluster=k) for i, c, k in zip(ids, correct, clusters))

    def get_metric(self, reset: bool = False) -> Dict[str, float]:
        instance = instance_accuracy(self._records)
        cluster = cluster_accuracy(self._records)
        result = {"cluster_accuracy": cluster, "cluster_delta": 100.0 * (cluster - instance)}
        if reset:
            self.reset()
        return result

    def reset(self) -> None:
        self._records = []
