"""The ``probe_breakdown`` Metric: accuracy by ISA hops k × distractor family and depth k' (Figure 3)."""
from typing import Dict, List

from allennlp.training.metrics import Metric
from allennlp.training.util import HasBeenWarned

from mcqa_probes.metrics.probe_records import ProbeRecord, breakdown

# The cells are named with a leading "_" so that allennlp's progress bars leave them out, on purpose:
# its warning that they are left out ('Metrics with names beginning with "_" will not be logged ...',
# printed by every evaluation and zero-shot run) is taken as given.
HasBeenWarned.tqdm_ignores_underscores = True


@Metric.register("probe_breakdown")
class ProbeBreakdown(Metric):
    """Fed :class:`ProbeRecord` s; reports one accuracy per (hops, family@depth) cell, named
    ``_breakdown/hops=K/FAMILY@DEPTH`` (the leading underscore keeps them out of progress bars;
    they are in the evaluate output and metrics files). The cells are kept as running counts."""

    def __init__(self) -> None:
        self.reset()

    def __call__(self, records: List[ProbeRecord]):  # type: ignore[override]
        for hops, row in breakdown(records).items():
            for column, (right, total) in row.items():
                cell = self._table.setdefault(hops, {}).setdefault(column, [0, 0])
                cell[0] += right
                cell[1] += total

    def get_metric(self, reset: bool = False) -> Dict[str, float]:
        result = {}
        for hops, row in sorted(self._table.items()):
            for column, (right, total) in sorted(row.items()):
                result[f"_breakdown/hops={hops}/{column}"] = right / total
        if reset:
            self.reset()
        return result

    def reset(self) -> None:
        self._table: Dict[str, Dict[str, List[int]]] = {}
