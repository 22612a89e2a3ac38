"""The ``cluster_accuracy`` Metric: strict accuracy over semantic clusters (TACL paper, Table 8)."""
from typing import Dict, List, Optional

from allennlp.training.metrics import Metric

from mcqa_probes.metrics.probe_records import ClusterTally


@Metric.register("cluster_accuracy")
class ClusterAccuracy(Metric):
    """Fed one (correct, cluster key) per question; reports ``cluster_accuracy`` (a cluster is right
    only if all its questions are right) and ``cluster_delta`` (cluster minus instance accuracy, in
    points, as the paper's Δ). Questions without a key (None) are their own singleton cluster.

    The counting is :class:`~mcqa_probes.metrics.probe_records.ClusterTally`, shared with the
    predictions-file report (``bin/probe_report``); kept as running counts (allennlp asks for the
    metric after every batch)."""

    def __init__(self) -> None:
        self._tally = ClusterTally()

    def __call__(self, correct: List[bool], clusters: List[Optional[str]], ids: Optional[List[str]] = None):  # type: ignore[override]
        for is_right, key in zip(correct, clusters):
            self._tally.add(bool(is_right), key)

    def get_metric(self, reset: bool = False) -> Dict[str, float]:
        """With ``reset`` (the end of an evaluation or an epoch) also the 95% intervals of instance
        and strict cluster accuracy, resampled over semantic clusters (``accuracy_ci_low``,
        ``accuracy_ci_high``, ``cluster_accuracy_ci_low``, ``cluster_accuracy_ci_high``: the same
        numbers as ``bin/probe_report``); not after every batch, where they would cost time."""
        result = {"cluster_accuracy": self._tally.cluster_accuracy, "cluster_delta": self._tally.cluster_delta}
        if reset:
            if self._tally.questions:
                intervals = self._tally.intervals()
                result.update({f"{name.rsplit('_', 1)[0]}_ci_{name.rsplit('_', 1)[1]}": value
                               for name, value in intervals.items()})
            self.reset()
        return result

    def reset(self) -> None:
        self._tally.reset()
