"""The ``winoventi_mlm`` model: ``masked_lm_mc`` plus WinoVenti's generic / exception accuracy."""
from typing import Any, Dict, List, Optional

import torch
from allennlp.models import Model

from mcqa_probes.models.masked_lm_mc import MaskedLmMc


@Model.register("winoventi_mlm")
class WinoVentiMlm(MaskedLmMc):
    """A masked LM scoring (o_g, o_e) at the mask of WinoVenti prompts (use the ``winoventi`` reader).

    Exactly ``masked_lm_mc`` (same parameters, probe types and scoring: shared candidate mapping
    and gather of the head's logits at the mask), with the paper's metrics: a prompt is right when
    P(target) > P(incorrect) *strictly* (a tie is wrong), reported as ``generic_accuracy`` (test_type
    1), ``exception_accuracy`` (test_type 2) and ``accuracy`` (both), plus the prompt counts.
    ``correct`` (per prompt) is in the output for reports.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._counts = {1: [0, 0], 2: [0, 0]}  # test_type -> [correct, total]

    def forward(self, *args, label: Optional[torch.Tensor] = None,
                metadata: Optional[List[Dict[str, Any]]] = None, **kwargs) -> Dict[str, Any]:
        output = super().forward(*args, label=label, metadata=metadata, **kwargs)
        if label is not None:
            logits = output["logits"]
            gold = label.reshape(-1).long()
            gold_logit = logits.gather(1, gold.unsqueeze(1)).squeeze(1)
            others = logits.clone()
            others.scatter_(1, gold.unsqueeze(1), float("-inf"))
            correct = gold_logit > others.max(dim=1).values
            output["correct"] = correct
            if metadata is not None:
                for row, is_right in zip(metadata, correct.tolist()):
                    counts = self._counts.get(int(row.get("test_type", 0)))
                    if counts is not None:
                        counts[0] += int(is_right)
                        counts[1] += 1
        if metadata is not None:
            output["test_type"] = [m.get("test_type") for m in metadata]
            output["pair_index"] = [m.get("pair_index") for m in metadata]
        return output

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        metrics = super().get_metrics(reset)
        (g_right, g_total), (e_right, e_total) = self._counts[1], self._counts[2]
        metrics["generic_accuracy"] = g_right / g_total if g_total else 0.0
        metrics["exception_accuracy"] = e_right / e_total if e_total else 0.0
        metrics["strict_accuracy"] = (g_right + e_right) / (g_total + e_total) if g_total + e_total else 0.0
        metrics["generic_count"] = float(g_total)
        metrics["exception_count"] = float(e_total)
        if reset:
            self._counts = {1: [0, 0], 2: [0, 0]}
        return metrics
