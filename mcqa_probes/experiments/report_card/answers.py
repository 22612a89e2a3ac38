"""Answers of a multiple-choice QA archive to questions of a file: what ``allennlp predict
--predictor mcqa`` prints, without the round trip through a predictions file.

The archive is loaded once per page (:func:`load_archive_model`); its validation dataset reader
turns each question into the instance ``allennlp evaluate`` / ``predict`` would build (the
reader's ``text_to_instance``: the same word pieces as reading the file), and the one prediction
loop (:func:`mcqa_probes.training.evaluation.predict_instances`) picks the best choice.
"""
import functools
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from mcqa_probes.data.question import MultipleChoiceQuestion, read_questions


@dataclass
class LoadedArchive:
    model: Any
    reader: Any


@functools.lru_cache(maxsize=2)
def load_archive_model(location: str, cuda_device: int, precision: str) -> LoadedArchive:
    """The archive's model (eval mode, on ``cuda_device``, scoring in ``precision``) and its
    validation dataset reader."""
    from allennlp.models.archival import load_archive

    from mcqa_probes.common.device import place_model

    archive = load_archive(location, cuda_device=cuda_device)
    place_model(archive.model, cuda_device, precision)
    archive.model.eval()
    return LoadedArchive(archive.model, archive.validation_dataset_reader)


def first_questions(path: Path, limit: Optional[int]) -> List[MultipleChoiceQuestion]:
    """The first ``limit`` questions of a labelled file (all with ``limit`` 0 or None), as
    ``allennlp evaluate`` reads them."""
    questions = read_questions(path)
    return list(itertools.islice(questions, limit or None))


@dataclass
class Answer:
    best: int
    gold: int
    metadata: Dict[str, Any]

    @property
    def correct(self) -> bool:
        return self.best == self.gold


def answer_questions(loaded: LoadedArchive, questions: Sequence[MultipleChoiceQuestion],
                     batch_size: int = 32) -> List[Answer]:
    """The archive's best choice for each question, with the gold index and the instance metadata
    (``notes``, cluster keys) the probe metrics read."""
    from mcqa_probes.training.evaluation import batches, predict_instances

    reader = loaded.reader
    if hasattr(reader, "batch_to_instances"):  # the mcqa readers: one tokenizer call per batch of questions
        instances = [i for chunk in batches(list(questions), 128) for i in reader.batch_to_instances(list(chunk))]
    else:
        instances = [reader.text_to_instance(question) for question in questions]
    if not instances:
        return []
    best = predict_instances(loaded.model, instances, batch_size)["best"]
    return [Answer(int(b), gold_index(instance), instance["metadata"].metadata) for b, instance in zip(best, instances)]


def gold_index(instance) -> int:
    """The gold choice of an instance (an ``IndexField`` or a ``LabelField`` named ``label``)."""
    field = instance["label"]
    return int(field.sequence_index if hasattr(field, "sequence_index") else field.label)


def accuracy(answers: Sequence[Answer]) -> float:
    return sum(a.correct for a in answers) / len(answers) if answers else float("nan")
