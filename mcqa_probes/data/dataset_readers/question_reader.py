"""The shared base of the readers of multiple-choice question files (not registered itself).

Every question reader accepts in ``text_to_instance`` what the ``mcqa`` predictor and the drivers
pass: a parsed :class:`~mcqa_probes.data.question.MultipleChoiceQuestion`, or a stem with choice
texts (and an optional gold index). The subclass builds its fields in :meth:`question_to_instance`
and takes the instance metadata from :meth:`question_metadata`, so every reader's metadata carries
the same keys (id, question, choices, labels, answer_index, num_real_choices, and every extra key
of the line such as ``notes``: what the probe metrics read).
"""
import logging
import os
from typing import Any, Dict, List, Optional, Sequence, Union

from allennlp.data import DatasetReader, Instance

from mcqa_probes.data.question import Choice, MultipleChoiceQuestion, as_question

logger = logging.getLogger(__name__)


class QuestionReader(DatasetReader):
    def say_cap(self, path: Union[str, os.PathLike], file_path: Optional[str] = None) -> None:
        """Log that only the first ``max_instances`` questions of ``path`` are read, when it holds more:
        the cap set by a config's ``TRAIN_MAX`` / ``DEV_MAX`` stays in a model archive's reader, so
        ``allennlp evaluate`` of the archive scores only that many questions of any file."""
        cap = self.max_instances
        if not cap:
            return
        try:
            with open(path, "rb") as handle:
                total = sum(1 for line in handle if line.strip())
        except OSError:     # the read itself says what is wrong with the file
            return
        if total > cap:
            logger.warning("%s: reading the first %d of its %d questions only (the reader's max_instances: "
                           "TRAIN_MAX / DEV_MAX of the config, kept in a model archive's reader; train without it, "
                           "or evaluate with --overrides '{\"validation_dataset_reader.max_instances\": null}', "
                           "to score the whole file)", file_path or path, cap, total)

    def text_to_instance(  # type: ignore[override]
        self,
        question: Union[MultipleChoiceQuestion, str],
        choices: Optional[List[str]] = None,
        answer_index: Optional[int] = None,
    ) -> Instance:
        """Build an instance from a :class:`MultipleChoiceQuestion`, or from a stem and choice texts."""
        return self.question_to_instance(as_question(question, choices, answer_index))

    def question_to_instance(self, question: MultipleChoiceQuestion) -> Instance:
        raise NotImplementedError

    @staticmethod
    def question_metadata(question: MultipleChoiceQuestion, choices: Optional[Sequence[Choice]] = None) -> Dict[str, Any]:
        """The instance metadata of a question; ``choices`` are the choices as the instance holds
        them (e.g. padded), by default the question's own."""
        shown = list(question.choices if choices is None else choices)
        metadata: Dict[str, Any] = {
            "id": question.id,
            "question": question.stem,
            "choices": [c.text for c in shown],
            "labels": [c.label for c in shown],
            "answer_index": question.answer_index,
            "num_real_choices": len(question.choices),
        }
        metadata.update(question.extras)
        return metadata
