"""What every model that scores K choices shares: masking, softmax, loss, metrics, outputs.

Not registered itself. A subclass computes one logit per choice in ``forward`` and returns
``self.choice_output(logits, choice_mask, label, metadata)``.
"""
from typing import Any, Dict, List, Optional

import torch
from allennlp.data import Vocabulary
from allennlp.models import Model
from allennlp.nn import util
from allennlp.training.metrics import CategoricalAccuracy

from mcqa_probes.common.device import autocast, check_precision, model_device
from mcqa_probes.metrics.probe_metrics import ProbeMetrics

#: metadata keys copied to the output (the ``mcqa`` predictor and the reports use them)
METADATA_OUTPUTS = ("id", "labels", "choices", "answer_index")


class MultipleChoiceModel(Model):
    """Base of the multiple-choice models.

    Padded choices are masked out of the softmax; the loss is cross-entropy over the choices; the
    metrics are ``accuracy`` and, on probe files with ``notes``, ``cluster_accuracy``,
    ``cluster_delta`` and the ``_breakdown/hops=K/FAMILY@DEPTH`` cells.

    # Parameters

    cluster_key : `str`, optional (default = `None`)
        Metadata field (dotted, e.g. ``notes.synset_id``) naming a question's semantic cluster for
        strict cluster accuracy; by default the first of ``notes.cluster_key``, ``notes.synset_id``,
        ``notes.gold_synset``, ``question_concept`` that is present.
    precision : `str`, optional (default = `"fp32"`)
        ``fp32``, ``bf16`` or ``fp16``: the forward pass runs under autocast in this precision on
        the model's device (evaluation, prediction, scoring); logits and probabilities are
        returned in fp32. For training use allennlp's ``trainer.use_amp`` instead.
    """

    default_predictor = "mcqa"

    def __init__(
        self, vocab: Vocabulary, cluster_key: Optional[str] = None, precision: str = "fp32", **kwargs
    ) -> None:
        super().__init__(vocab, **kwargs)
        self.precision = check_precision(precision, "model.precision")
        self.accuracy = CategoricalAccuracy()
        self.probe_metrics = ProbeMetrics(cluster_key)

    def autocast(self):
        """Context for the scoring part of ``forward``: autocast in ``self.precision`` (fp32: no-op)."""
        return autocast(model_device(self), self.precision)

    def choice_output(
        self,
        logits: torch.Tensor,
        choice_mask: Optional[torch.Tensor] = None,
        label: Optional[torch.Tensor] = None,
        metadata: Optional[List[Dict[str, Any]]] = None,
    ) -> Dict[str, Any]:
        if logits.dtype in (torch.float16, torch.bfloat16):
            logits = logits.float()  # scores are returned in fp32 (or fp64 for a float64 model) whatever the autocast
        if choice_mask is not None:
            logits = util.replace_masked_values(logits, choice_mask, util.min_value_of_dtype(logits.dtype))
        result: Dict[str, Any] = {
            "logits": logits,
            "probabilities": torch.softmax(logits, dim=-1),
            "best_alternative": logits.argmax(dim=-1),
        }
        if label is not None:
            gold = label.reshape(-1).long()
            result["loss"] = torch.nn.functional.cross_entropy(logits, gold)
            self.accuracy(logits, gold)
            self.probe_metrics.update(result["best_alternative"].tolist(), gold.tolist(), metadata)
        if metadata is not None:
            for key in METADATA_OUTPUTS:
                result[key] = [m.get(key) for m in metadata]
            if any("notes" in m for m in metadata):
                result["notes"] = [m.get("notes") for m in metadata]
        return result

    def make_output_human_readable(self, output_dict: Dict[str, Any]) -> Dict[str, Any]:
        best = output_dict["best_alternative"]
        best = best.tolist() if isinstance(best, torch.Tensor) else list(best)
        if "labels" in output_dict:
            output_dict["best_label"] = [labels[i] for labels, i in zip(output_dict["labels"], best)]
            output_dict["best_text"] = [choices[i] for choices, i in zip(output_dict["choices"], best)]
        return output_dict

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        metrics = {"accuracy": self.accuracy.get_metric(reset)}
        metrics.update(self.probe_metrics.get_metric(reset))
        return metrics
