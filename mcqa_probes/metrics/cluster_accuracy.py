"""The ``cluster_accuracy`` Metric: strict accuracy over semantic clusters (TACL paper, Table 8)."""
from typing import Dict, List, Optional

from allennlp.training.metrics import Metric


@Metric.register("cluster_accuracy")
class ClusterAccuracy(Metric):
    """Fed one (correct, cluster key) per question; reports ``cluster_accuracy`` (a cluster is right
    only if all its questions are right), ``instance_accuracy`` and ``cluster_delta`` (cluster minus
    instance accuracy, in points, as the paper's Δ). Questions without a key are their own cluster.

    Kept as running counts (allennlp asks for the metric after every batch)."""

    def __init__(self) -> None:
        self.reset()

    def __call__(self, correct: List[bool], clusters: List[Optional[str]], ids: Optional[List[str]] = None):  # type: ignore[override]
        for is_right, key in zip(correct, clusters):
            self._questions += 1
            self._right += int(bool(is_right))
            if key is None:  # its own cluster
                self._single_clusters += 1
                self._single_right += int(bool(is_right))
            else:
                self._clusters[key] = self._clusters.get(key, True) and bool(is_right)

    def get_metric(self, reset: bool = False) -> Dict[str, float]:
        instance = self._right / self._questions if self._questions else 0.0
        total = len(self._clusters) + self._single_clusters
        right = sum(self._clusters.values()) + self._single_right
        cluster = right / total if total else 0.0
        result = {"cluster_accuracy": cluster, "cluster_delta": 100.0 * (cluster - instance)}
        if reset:
            self.reset()
        return result

    def reset(self) -> None:
        self._clusters: Dict[str, bool] = {}
        self._questions = self._right = 0
        self._single_clusters = self._single_right = 0
