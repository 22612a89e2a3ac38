"""The common multiple-choice data model and its JSON-lines parser (plain Python, no torch).

One question per line, in the ARC / OpenBookQA / CommonsenseQA family::

    {"id": ..., "question": {"stem": ..., "choices": [{"label": ..., "text": ...}, ...]},
     "answerKey": ..., ...extra keys such as "notes"...}

Labels may be ints, digit strings or letters; the gold index is the position of the choice whose
label equals ``answerKey`` (compared as strings). Every extra key (``notes``,
``question_concept``, ...; also extra keys inside ``question``) is kept in ``extras`` so the
metrics can use it. The ad-hoc form ``{"question": "...", "choices": ["...", ...]}`` is accepted
too (labels become "A", "B", ...). Bad input raises :class:`McqaFormatError` naming the file and
line and what was expected (the lines come from :func:`mcqa_probes.common.io.read_jsonl`, the one
JSON-lines reader of the project): bytes that are not UTF-8 and a file without any question are
errors too, never an empty result.
"""
import logging
import os
import string
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from mcqa_probes.common.io import McqaFormatError, read_jsonl

logger = logging.getLogger(__name__)


@dataclass
class Choice:
    label: str
    text: str


@dataclass
class MultipleChoiceQuestion:
    id: str
    stem: str
    choices: List[Choice]
    answer_index: Optional[int] = None
    extras: Dict[str, Any] = field(default_factory=dict)

    @property
    def answer_label(self) -> Optional[str]:
        return None if self.answer_index is None else self.choices[self.answer_index].label

    def to_json(self, answer_key_as: str = "label") -> Dict[str, Any]:
        """Back to the jsonl form (labels and answerKey as they were read, as strings)."""
        result: Dict[str, Any] = {
            "id": self.id,
            "question": {"stem": self.stem, "choices": [{"label": c.label, "text": c.text} for c in self.choices]},
        }
        if self.answer_index is not None:
            result["answerKey"] = self.choices[self.answer_index].label
        result.update(self.extras)
        return result


#: Where a question's semantic-cluster key is looked for, first match wins (ours, then the released files').
CLUSTER_KEY_FIELDS = ("notes.cluster_key", "notes.synset_id", "notes.gold_synset", "question_concept")


def lookup(data: Dict[str, Any], dotted: str) -> Any:
    """``data["a"]["b"]`` for ``"a.b"``; None where a part is missing."""
    value: Any = data
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def cluster_key(metadata: Dict[str, Any], field: Optional[str] = None) -> Optional[str]:
    """The semantic cluster of a question (its metadata, or a question's ``extras``): ``field`` or
    the first of :data:`CLUSTER_KEY_FIELDS` that is there."""
    for name in ([field] if field else CLUSTER_KEY_FIELDS):
        value = lookup(metadata, name)
        if value is not None and value != "":
            return str(value)
    return None


def default_labels(count: int) -> List[str]:
    if count <= 26:
        return list(string.ascii_uppercase[:count])
    return [str(i) for i in range(count)]


def _label(value: Any, what: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise McqaFormatError(f"{what} must be an int or a string, got {value!r}")
    return str(value).strip()


def question_from_json(
    data: Any,
    *,
    require_answer_key: bool = True,
    default_id: str = "",
    min_choices: int = 2,
) -> MultipleChoiceQuestion:
    """Parse one decoded JSON object (full or ad-hoc form). Raises McqaFormatError without position."""
    if not isinstance(data, dict):
        raise McqaFormatError(f"expected a JSON object, got {type(data).__name__}")
    extras = {k: v for k, v in data.items() if k not in ("id", "question", "answerKey", "choices")}
    question = data.get("question")
    raw_choices: Any
    if isinstance(question, dict):
        stem = question.get("stem")
        raw_choices = question.get("choices")
        extras.update({k: v for k, v in question.items() if k not in ("stem", "choices")})
        if raw_choices is None and "choices" in data:
            raw_choices = data["choices"]
    elif isinstance(question, str):
        stem = question
        raw_choices = data.get("choices")
    else:
        raise McqaFormatError('expected "question" to be an object {"stem", "choices"} or a string')
    if not isinstance(stem, str):
        raise McqaFormatError('expected "question.stem" to be a string')
    # HuggingFace-style flattened choices: {"label": [...], "text": [...]}
    if isinstance(raw_choices, dict) and isinstance(raw_choices.get("text"), list):
        texts = raw_choices["text"]
        labels = raw_choices.get("label") or default_labels(len(texts))
        if len(labels) != len(texts):
            raise McqaFormatError("choices.label and choices.text have different lengths")
        raw_choices = [{"label": l, "text": t} for l, t in zip(labels, texts)]
    if not isinstance(raw_choices, list):
        raise McqaFormatError('expected "choices" to be a list')
    if len(raw_choices) < min_choices:
        raise McqaFormatError(f"expected at least {min_choices} choices, got {len(raw_choices)}")
    choices: List[Choice] = []
    fallback = default_labels(len(raw_choices))
    for position, raw in enumerate(raw_choices):
        if isinstance(raw, str):
            label, text = fallback[position], raw
        elif isinstance(raw, dict) and "text" in raw:
            label = _label(raw["label"], f"choice {position} label") if "label" in raw else fallback[position]
            text = raw["text"]
        else:
            raise McqaFormatError(f'choice {position}: expected a string or {{"label", "text"}}, got {raw!r}')
        if not isinstance(text, str):
            raise McqaFormatError(f"choice {position}: text must be a string, got {text!r}")
        if not text.strip():
            raise McqaFormatError(f"choice {position} (label {label!r}) has empty text")
        choices.append(Choice(label, text))
    labels = [c.label for c in choices]
    if len(set(labels)) != len(labels):
        raise McqaFormatError(f"duplicate choice labels {labels}")
    answer_index = None
    answer = data.get("answerKey")
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        if require_answer_key:
            raise McqaFormatError('missing "answerKey" (set require_answer_key=false to read unlabeled files)')
    else:
        key = _label(answer, "answerKey")
        if key not in labels:
            raise McqaFormatError(f"answerKey {answer!r} matches no choice label (labels: {labels})")
        answer_index = labels.index(key)
    identifier = data.get("id", default_id)
    return MultipleChoiceQuestion(str(identifier), stem, choices, answer_index, extras)


def read_numbered_questions(
    path: Union[str, os.PathLike], *, require_answer_key: bool = True, min_choices: int = 2, allow_empty: bool = False,
    distinct_ids: bool = True,
) -> Iterator[Tuple[int, MultipleChoiceQuestion]]:
    """``(line number, question)`` for each question of a JSON-lines file; errors name the file and
    the 1-based line. A file without any question is an error (unless ``allow_empty``).

    A question whose id an earlier line of the file already has is told apart as ``<id>#2``, ``#3``,
    ... (its n-th use of the id; ``distinct_ids=False``: kept, for a caller that checks ids itself),
    with one warning per file: released files repeat ids (17 ids of oLMpics' compositional
    comparison dev, 430 of the released WordNetQA hypernymy train), and the predictions and item
    records of two questions under one id would be one record (the second's scores on the first's
    choices)."""
    seen: Dict[str, int] = {}
    repeated = 0
    for number, data in read_jsonl(path, what="question", allow_empty=allow_empty):
        try:
            question = question_from_json(
                data, require_answer_key=require_answer_key, default_id=f"line-{number}", min_choices=min_choices
            )
        except McqaFormatError as error:
            raise McqaFormatError(error.reason, str(path), number) from None
        if distinct_ids:
            given = question.id
            seen[given] = uses = seen.get(given, 0) + 1
            while uses > 1 and f"{given}#{uses}" in seen:   # an id that is itself written <id>#<n>
                uses += 1
            if uses > 1:
                question.id = f"{given}#{uses}"
                seen[question.id] = 1
                repeated += 1
        yield number, question
    if repeated:
        logger.warning("%s: %d question(s) repeat the id of an earlier line; told apart as <id>#2, #3, ... in "
                       "predictions and item records", path, repeated)


def read_questions(
    path: Union[str, os.PathLike], *, require_answer_key: bool = True, min_choices: int = 2, allow_empty: bool = False,
    distinct_ids: bool = True,
) -> Iterator[MultipleChoiceQuestion]:
    """The questions of a JSON-lines file (see :func:`read_numbered_questions`)."""
    for _, question in read_numbered_questions(
        path, require_answer_key=require_answer_key, min_choices=min_choices, allow_empty=allow_empty,
        distinct_ids=distinct_ids,
    ):
        yield question


def as_question(
    question: Union[MultipleChoiceQuestion, str], choices: Optional[List[str]] = None, answer_index: Optional[int] = None
) -> MultipleChoiceQuestion:
    """What readers' ``text_to_instance`` accept: a parsed question, or a stem with choice texts."""
    if isinstance(question, MultipleChoiceQuestion):
        return question
    parsed = question_from_json({"question": question, "choices": list(choices or [])}, require_answer_key=False)
    if answer_index is not None:
        parsed.answer_index = answer_index
    return parsed
