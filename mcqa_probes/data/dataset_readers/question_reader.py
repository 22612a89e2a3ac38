"""The shared base of the readers of multiple-choice question files (not registered itself).

Every question reader accepts in ``text_to_instance`` what the ``mcqa`` predictor and the drivers
pass: a parsed :class:`~mcqa_probes.data.question.MultipleChoiceQuestion`, or a stem with choice
texts (and an optional gold index). The subclass builds its fields in :meth:`question_to_instance`
and takes the instance metadata from :meth:`question_metadata`, so every reader's metadata carries
the same keys (id, question, choices, labels, answer_index, num_real_choices, and every extra key
of the line such as ``notes``: what the probe metrics read).
"""
from typing import Any, Dict, List, Optional, Sequence, Union

from allennlp.data import DatasetReader, Instance

from mcqa_probes.data.question import Choice, MultipleChoiceQuestion, as_question


class QuestionReader(DatasetReader):
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
