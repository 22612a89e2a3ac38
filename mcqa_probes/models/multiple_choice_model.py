"""What every model that scores K choices shares: masking, softmax, loss, metrics, outputs.

Not registered itself. A subclass computes one logit per choice in ``forward`` and returns
``self.choice_output(logits, choice_mask, label, metadata)``.
"""
import contextlib
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import torch
from allennlp.data import Vocabulary
from allennlp.models import Model
from allennlp.nn import util
from allennlp.training.metrics import CategoricalAccuracy

from mcqa_probes.common.device import autocast, check_precision, model_device
from mcqa_probes.metrics.determinism import DeterminismAudit
from mcqa_probes.metrics.item_records import item_record, write_item_records
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
    items_file : `str`, optional (default = `None`)
        Write the item records (:mod:`mcqa_probes.metrics.item_records`: one JSON line per labelled
        question scored in eval mode, with its per-choice scores under :meth:`item_scores`' prompts)
        to this file when the metrics are reset (the end of ``allennlp evaluate``):
        ``allennlp evaluate ARCHIVE DATA --overrides '{"model.items_file": "items.jsonl"}'``. The
        records' ``section`` is ``evaluate`` and their ``probe`` the file name's stem.
    items_label : `str`, optional (default = `"model"`)
        The records' ``model``.
    determinism_check : `int`, optional (default = `0`)
        Re-score this many questions (drawn at random, seeded by ``determinism_seed``, from those
        scored in eval mode) one at a time when the metrics are reset, and report
        ``determinism_questions``, ``determinism_max_score_difference`` (the largest difference of a
        choice's score in its batch and alone) and ``determinism_changed_answers``
        (:mod:`mcqa_probes.metrics.determinism`): ``allennlp evaluate ... --overrides
        '{"model.determinism_check": 20}'``.
    determinism_seed : `int`, optional (default = `0`)
    """

    default_predictor = "mcqa"
    #: the item records' prompt name of this model's scores (:mod:`mcqa_probes.metrics.item_records`)
    item_prompt = "mcqa"

    def __init__(
        self, vocab: Vocabulary, cluster_key: Optional[str] = None, precision: str = "fp32",
        items_file: Optional[str] = None, items_label: str = "model", determinism_check: int = 0,
        determinism_seed: int = 0, **kwargs
    ) -> None:
        super().__init__(vocab, **kwargs)
        self.precision = check_precision(precision, "model.precision")
        self.accuracy = CategoricalAccuracy()
        self.probe_metrics = ProbeMetrics(cluster_key)
        self.cluster_key_field = cluster_key
        self.items_file, self.items_label = items_file, items_label
        self._items: List[Dict[str, Any]] = []
        #: (model, section, probe) of the records kept for :meth:`take_items` (:meth:`keep_items`), or None
        self._kept_items: Optional[tuple] = None
        #: every determinism audit's result since the model was made (:meth:`audit_determinism`)
        self.determinism_results: List[Dict[str, Any]] = []
        self.audit_determinism(determinism_check, determinism_seed)

    def audit_determinism(self, size: int, seed: int = 0, picks: Optional[Sequence[int]] = None) -> None:
        """From now on keep ``size`` random questions (seeded) of those scored in eval mode and re-score
        them one at a time when the metrics are reset (0: no audit); ``picks``: exactly these questions
        (0-based, in the order scored; a shard's part of a whole run's draw), ``size`` unused."""
        if picks is not None:
            self._audit = DeterminismAudit(len(picks), seed, picks) if picks else None
        else:
            self._audit = DeterminismAudit(size, seed) if size else None

    def keep_items(self, label: str, section: str, probe: str) -> None:
        """From now on keep the item records of the labelled questions scored in eval mode, as
        ``label`` / ``section`` / ``probe``, for :meth:`take_items` (what ``bin/zero_shot --items-file``
        does; ``items_file`` writes them itself)."""
        self._kept_items = (str(label), str(section), str(probe))

    def take_items(self) -> List[Dict[str, Any]]:
        """The records kept since :meth:`keep_items` (handed over and forgotten); keeping stops."""
        items, self._items, self._kept_items = self._items, [], None
        return items

    def item_scores(self, output: Dict[str, Any], metadata: List[Dict[str, Any]]) -> List[Dict[str, List[float]]]:
        """Per question of a batch, its per-choice scores by prompt name (the item records'
        ``scores``, file order): ``output["prompt_scores"]`` when the model gives several, else
        its logits of the real choices under :attr:`item_prompt`."""
        if "prompt_scores" in output:
            return output["prompt_scores"]
        return [{self.item_prompt: row} for row in self._real_logits(output, metadata)]

    @staticmethod
    def _real_logits(output: Dict[str, Any], metadata: List[Dict[str, Any]]) -> List[List[float]]:
        rows = output["logits"].detach().float().cpu().tolist()
        return [row[:int(m.get("num_real_choices") or len(m.get("choices") or row))] for row, m in zip(rows, metadata)]

    def __call__(self, *args: Any, **kwargs: Any) -> Dict[str, Any]:
        output = super().__call__(*args, **kwargs)
        metadata = kwargs.get("metadata")
        if not self.training and metadata and (self._audit is not None or self.items_file or self._kept_items):
            self._observe(output, kwargs, metadata)
        return output

    def _observe(self, output: Dict[str, Any], inputs: Dict[str, Any], metadata: List[Dict[str, Any]]) -> None:
        if (self.items_file or self._kept_items) and inputs.get("label") is not None:
            label, section, probe = self._kept_items or (self.items_label, "evaluate", Path(self.items_file).stem)
            for row, scores in zip(metadata, self.item_scores(output, metadata)):
                self._items.append(item_record(label, section, probe, row, scores, next(iter(scores)),
                                               self.cluster_key_field))
        if self._audit is not None:
            for b, scores in enumerate(self._real_logits(output, metadata)):
                slot = self._audit.slot()
                if slot is not None:
                    self._audit.keep(slot, _one_question(inputs, b), scores)

    def batch_of_one(self) -> Any:
        """Context in which a forward scores its batch as batch size 1 would (a causal LM's scorer packs
        rows itself: :class:`~mcqa_probes.models.causal_lm_mc.CausalLmMc` overrides this)."""
        return contextlib.nullcontext()

    @torch.no_grad()
    def _rescore_alone(self) -> Dict[str, Any]:
        rescored = []
        with self.batch_of_one():
            for payload, before in self._audit.kept:
                output = self.forward(**payload)
                rescored.append(output["logits"][0].detach().float().cpu().tolist()[:len(before)])
        return self._audit.result(rescored)

    def _flush(self) -> Dict[str, float]:
        """At a reset: the determinism audit's numbers (when it kept questions) and the item file."""
        found: Dict[str, float] = {}
        if self._audit is not None and self._audit.kept:
            result = self._rescore_alone()
            self.determinism_results.append(result)
            found = {f"determinism_{key}": float(value) for key, value in result.items()}
            self._audit.reset()
        if self.items_file and self._items and self._kept_items is None:
            write_item_records(self.items_file, self._items)
            self._items = []
        return found

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
        if reset:
            metrics.update(self._flush())
        return metrics


def _one_question(value: Any, index: int) -> Any:
    """The forward arguments of question ``index`` of a batch as a batch of one (tensors cloned, the
    label dropped, a text field's padding beyond its longest row cut)."""
    if isinstance(value, torch.Tensor):
        return value[index:index + 1].detach().clone()
    if isinstance(value, dict):
        single = {key: _one_question(item, index) for key, item in value.items() if key != "label"}
        mask = single.get("mask")
        if isinstance(mask, torch.Tensor) and mask.dim() >= 2:
            used = mask.reshape(-1, mask.shape[-1]).bool().any(dim=0).nonzero()
            length = int(used.max()) + 1 if len(used) else mask.shape[-1]
            single = {key: item[..., :length] if isinstance(item, torch.Tensor) and item.shape == mask.shape else item
                      for key, item in single.items()}
        return single
    if isinstance(value, list):
        return [value[index]]
    return value
