"""One home for running a model over instances: allennlp's evaluation loop, and batched predictions.

* ``evaluate_instances`` / ``evaluate_file``: the metrics of ``allennlp.training.util.evaluate``
  (what ``allennlp evaluate`` runs) over in-memory instances or a data file, on the device the
  model is on, quietly. Used by the inoculation-cost callback and the drivers (inoculation sweep,
  artifact audit).
* ``predict_instances``: per-instance outputs of a multiple-choice model in file order (candidate
  logits of the real choices, best choice), one forward per batch, for the scorers that need the
  logits rather than a metric (zero-shot MC-MLM, WinoVenti).
* ``load_archived_model``: an archive's model (eval mode, placed on a device and precision) and its
  validation dataset reader: what ``allennlp evaluate`` / ``predict`` load (an archive's config
  without loading it: :mod:`mcqa_probes.data.archives`).
* ``answer_instances`` / ``answer_questions``: per question the model's best choice, the gold choice,
  the instance metadata (``notes``, cluster keys) and the per-choice scores by prompt name, in order:
  the per-question correctness that the probe metrics and the bootstrap intervals of the report card
  read, and (:func:`item_records`) the item records (:mod:`mcqa_probes.metrics.item_records`). Questions go through the
  reader's ``text_to_instance`` (or ``batch_to_instances``): the instances reading the file builds.

The model's metric state is reset afterwards; ``evaluate_*`` leave the model in eval mode. Every
loop here reports the questions it scores to the open progress bar (:mod:`mcqa_probes.common.progress`:
``with progress("model / section / probe"):`` around a call shows questions done / total, the rate
and the time left on stderr).
"""
import contextlib
import io
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence

import torch
from allennlp.data import Batch, Instance
from allennlp.data.data_loaders import MultiProcessDataLoader, SimpleDataLoader
from allennlp.models import Model
from allennlp.models.archival import load_archive
from allennlp.nn.util import move_to_device
from allennlp.training.util import evaluate

from mcqa_probes.common import progress
from mcqa_probes.common.device import model_device, place_model
from mcqa_probes.metrics.item_records import item_record, merge_records


def batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    """Consecutive slices of at most ``size`` items, in order."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def model_cuda_device(model: torch.nn.Module) -> int:
    """The allennlp device number of the model's parameters (-1 = CPU)."""
    device = model_device(model)
    return -1 if device.type != "cuda" else device.index or 0


def batch_length(batch: Any) -> int:
    """How many instances a tensorised batch holds (the first dimension of its first tensor)."""
    if isinstance(batch, torch.Tensor):
        return int(batch.shape[0]) if batch.dim() else 1
    if isinstance(batch, dict):
        for value in batch.values():
            found = batch_length(value)
            if found:
                return found
        return 0
    return len(batch) if isinstance(batch, (list, tuple)) else 0


class _Counted:
    """A data loader whose batches are counted on the open progress bar as allennlp's loop takes them."""

    def __init__(self, loader) -> None:
        self.loader = loader

    def set_target_device(self, device) -> None:
        self.loader.set_target_device(device)

    def __iter__(self):
        for batch in self.loader:
            yield batch
            progress.advance(batch_length(batch))


def _evaluate(model: Model, loader) -> Dict[str, Any]:
    with contextlib.redirect_stderr(io.StringIO()):  # allennlp's progress bar (ours took stderr when opened)
        metrics = evaluate(model, _Counted(loader), cuda_device=model_cuda_device(model))
    model.get_metrics(reset=True)
    return metrics


def evaluate_instances(model: Model, instances: Iterable[Instance], batch_size: int = 32) -> Dict[str, Any]:
    """allennlp's evaluation metrics (``accuracy``, ...) of ``model`` over ``instances``."""
    instances = list(instances)
    if not instances:
        raise ValueError("evaluate_instances: no instances to evaluate")
    progress.expect(len(instances))
    return _evaluate(model, SimpleDataLoader(instances, batch_size, shuffle=False, vocab=model.vocab))


def evaluate_file(model: Model, reader, data_path: str, batch_size: int = 32) -> Dict[str, Any]:
    """allennlp's evaluation metrics of ``model`` over a data file read by ``reader``."""
    loader = MultiProcessDataLoader(reader, str(data_path), batch_size=batch_size, shuffle=False)
    loader.index_with(model.vocab)
    progress.expect(sum(1 for _ in loader.iter_instances()))  # read once: the loader keeps them
    return _evaluate(model, loader)


@torch.no_grad()
def predict_instances(model: Model, instances: List[Instance], batch_size: int = 64) -> Dict[str, List]:
    """Logits of the real choices, the best choice and the per-choice scores by prompt name
    (``prompt_scores``: ``model.item_scores``, the item records' ``scores``; empty for a model that
    has none) per instance, in order, on the model's device (logits back in fp32 on the CPU). Real
    choices: ``candidate_ids >= 0`` (MC-MLM instances) or every choice."""
    device = model_cuda_device(model)
    logits: List[List[float]] = []
    best: List[int] = []
    prompt_scores: List[Dict[str, List[float]]] = []
    progress.expect(len(instances))
    for chunk in batches(instances, batch_size):
        batch = Batch(list(chunk))
        batch.index_instances(model.vocab)
        tensors = batch.as_tensor_dict()
        tensors.pop("label", None)
        # the real choices, from the CPU tensors: allennlp's move_to_device moves a dict's tensors in
        # place, and a mask on the GPU cannot index the logits brought back to the CPU
        masks = tensors["candidate_ids"] >= 0 if "candidate_ids" in tensors else None
        output = model(**move_to_device(tensors, device))
        rows = output["logits"].float().cpu()
        if masks is None:
            masks = torch.ones_like(rows, dtype=torch.bool)
        for row, mask in zip(rows, masks):
            logits.append(row[mask].tolist())
        best += output["best_alternative"].tolist()
        metadata = tensors.get("metadata")
        if metadata and hasattr(model, "item_scores"):
            prompt_scores += model.item_scores(output, metadata)
        else:
            prompt_scores += [{} for _ in chunk]
        progress.advance(len(chunk))
    model.get_metrics(reset=True)
    return {"logits": logits, "best": best, "prompt_scores": prompt_scores}


@dataclass
class ArchivedModel:
    """A loaded archive: the model (eval mode, placed) and its validation dataset reader."""

    model: Model
    reader: Any


def load_archived_model(location: str, cuda_device: int = -1, precision: str = "fp32") -> ArchivedModel:
    """The archive's model in eval mode on ``cuda_device``, scoring in ``precision``, and its
    validation dataset reader (``allennlp evaluate``'s reader)."""
    archive = load_archive(str(location), cuda_device=cuda_device)
    place_model(archive.model, cuda_device, precision)
    archive.model.eval()
    return ArchivedModel(archive.model, archive.validation_dataset_reader)


@dataclass
class Answer:
    """A model's answer to one question: its best choice, the gold choice and the instance metadata."""

    best: int
    gold: int
    metadata: Dict[str, Any]
    #: per prompt name, the per-choice scores (file order; :mod:`mcqa_probes.metrics.item_records`)
    scores: Dict[str, List[float]] = field(default_factory=dict)

    @property
    def correct(self) -> bool:
        return self.best == self.gold


def gold_index(instance: Instance) -> int:
    """The gold choice of an instance (an ``IndexField`` or a ``LabelField`` named ``label``)."""
    field = instance["label"]
    return int(field.sequence_index if hasattr(field, "sequence_index") else field.label)


def answer_instances(model: Model, instances: Sequence[Instance], batch_size: int = 32) -> List[Answer]:
    """The model's best choice for each labelled instance (:func:`predict_instances`), in order."""
    instances = list(instances)
    if not instances:
        return []
    predicted = predict_instances(model, instances, batch_size)
    return [Answer(int(b), gold_index(instance), dict(instance["metadata"].metadata) if "metadata" in instance.fields else {},
                   scores)
            for b, scores, instance in zip(predicted["best"], predicted["prompt_scores"], instances)]


def answer_questions(model: Model, reader, questions: Sequence[Any], batch_size: int = 32) -> List[Answer]:
    """:func:`answer_instances` over labelled questions (``MultipleChoiceQuestion``), turned into
    instances by ``reader`` as reading their file would (one tokenizer call per 128 questions when
    the reader has ``batch_to_instances``)."""
    questions = list(questions)
    if hasattr(reader, "batch_to_instances"):
        instances = [i for chunk in batches(questions, 128) for i in reader.batch_to_instances(list(chunk))]
    else:
        instances = [reader.text_to_instance(question) for question in questions]
    return answer_instances(model, instances, batch_size)


def accuracy(answers: Sequence[Answer]) -> float:
    """Share of answers that are right (NaN for none)."""
    return sum(a.correct for a in answers) / len(answers) if answers else float("nan")


def item_records(answers: Sequence[Answer], model: str, section: str, probe: str,
                 cluster_field: Optional[str] = None) -> List[Dict[str, Any]]:
    """The item records (:func:`mcqa_probes.metrics.item_records.item_record`) of ``answers``, merged by
    question (every rotation and prompt of a question in one record); the primary prompt is each
    answer's first (the model's own). Answers without scores (a model without ``item_scores``) are left out."""
    return merge_records(item_record(model, section, probe, answer.metadata, answer.scores, next(iter(answer.scores)),
                                     cluster_field)
                         for answer in answers if answer.scores)
