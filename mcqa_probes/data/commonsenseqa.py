"""CommonsenseQA (Talmor et al. 2019): SANITY mode and the question-concept split (plain Python).

Both file layouts are read by :func:`mcqa_probes.data.question.read_questions`: the original
``{"question": {"question_concept", "stem", "choices": [...]}, "answerKey", "id"}`` and the
HuggingFace flattened ``{"question": "...", "question_concept", "choices": {"label": [...],
"text": [...]}, "answerKey"}``; ``question_concept`` lands in ``extras`` either way. Test files
without ``answerKey`` read with ``require_answer_key=False``.

* :func:`sanity_question` / :func:`sanity_questions` - the paper's SANITY mode (§5): the hard
  distractors (the ConceptNet sibling and the worker-written one) are replaced by random answer
  concepts: answers of *other* questions of the same file. The gold choice keeps its position
  and label, K stays the same, and the draw is seeded per question (``Random(f"{seed}:{id}")``)
  so a question's distractors do not depend on file order or on sharding.
* :func:`question_concept_split` - the paper's second split: train/dev/test (80/10/10 by default)
  with *disjoint* question concepts, seeded. :func:`read_split_inputs` reads the files it pools and
  refuses a question id given twice (a question in two splits would leak between train and test).
"""
import os
import random
from collections import OrderedDict
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

from mcqa_probes.data.question import Choice, MultipleChoiceQuestion, read_numbered_questions
from mcqa_probes.common.io import McqaFormatError, write_jsonl

SPLIT_NAMES = ("train", "dev", "test")


def _normalized(text: str) -> str:
    return " ".join(text.lower().split())


def answer_pool(questions: Iterable[MultipleChoiceQuestion]) -> List[str]:
    """Distinct gold answer texts of labelled questions, in first-seen order (case/space-folded)."""
    pool: "OrderedDict[str, str]" = OrderedDict()
    for question in questions:
        if question.answer_index is not None:
            text = question.choices[question.answer_index].text
            pool.setdefault(_normalized(text), text)
    return list(pool.values())


def sanity_question(question: MultipleChoiceQuestion, pool: Sequence[str], seed: int = 0) -> MultipleChoiceQuestion:
    """The question with every distractor replaced by a random answer of another question.

    Drawn without replacement from ``pool`` minus the question's own gold answer (compared
    case-insensitively). ``extras["sanity"]`` records the seed and the replaced distractors.
    """
    if question.answer_index is None:
        raise McqaFormatError(f"question {question.id}: SANITY mode needs the gold answer (answerKey)")
    gold = question.choices[question.answer_index]
    # sorted: the draw depends on the pool's contents, not on the order the file listed them
    candidates = sorted(text for text in pool if _normalized(text) != _normalized(gold.text))
    needed = len(question.choices) - 1
    if len(candidates) < needed:
        raise McqaFormatError(
            f"question {question.id}: SANITY mode needs {needed} other answers, the pool has {len(candidates)}"
        )
    drawn = iter(random.Random(f"{seed}:{question.id}").sample(candidates, needed))
    choices = [
        Choice(choice.label, choice.text if position == question.answer_index else next(drawn))
        for position, choice in enumerate(question.choices)
    ]
    extras = dict(question.extras)
    extras["sanity"] = {"seed": seed, "replaced": [c.text for i, c in enumerate(question.choices) if i != question.answer_index]}
    return MultipleChoiceQuestion(question.id, question.stem, choices, question.answer_index, extras)


def sanity_questions(questions: Iterable[MultipleChoiceQuestion], seed: int = 0) -> List[MultipleChoiceQuestion]:
    """SANITY mode for a whole file: the pool is the file's own gold answers."""
    questions = list(questions)
    pool = answer_pool(questions)
    return [sanity_question(question, pool, seed) for question in questions]


def question_concept(question: MultipleChoiceQuestion) -> str:
    concept = question.extras.get("question_concept")
    if not isinstance(concept, str) or not concept.strip():
        raise McqaFormatError(f"question {question.id}: no question_concept")
    return _normalized(concept)


def read_split_inputs(paths: Sequence[Union[str, os.PathLike]]) -> List[MultipleChoiceQuestion]:
    """The questions of ``paths`` pooled in order (either layout), for :func:`question_concept_split`.

    Raises :class:`McqaFormatError` naming both files and lines when a question id appears twice
    (the same file given twice, or the same questions in both layouts): pooled, the copies could
    land in different splits and leak between train and test. Questions without an id (read as
    ``line-N``) are not compared."""
    questions: List[MultipleChoiceQuestion] = []
    seen: Dict[str, Tuple[int, str, int]] = {}
    for index, path in enumerate(paths):
        for number, question in read_numbered_questions(path, distinct_ids=False):
            if question.id == f"line-{number}":
                questions.append(question)
                continue
            if question.id in seen:
                first_index, first_path, first_line = seen[question.id]
                same = (" (the same file given twice)"
                        if first_index != index and _same_file(first_path, path) else "")
                raise McqaFormatError(
                    f"question id {question.id!r} is already in {first_path}, line {first_line}{same}; pooled, "
                    f"one question could land in two splits (expected each question once)", str(path), number)
            seen[question.id] = (index, str(path), number)
            questions.append(question)
    return questions


def _same_file(first: Union[str, os.PathLike], second: Union[str, os.PathLike]) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def question_concept_split(
    questions: Iterable[MultipleChoiceQuestion],
    fractions: Sequence[float] = (0.8, 0.1, 0.1),
    seed: int = 0,
) -> Dict[str, List[MultipleChoiceQuestion]]:
    """Split into train/dev/test whose question concepts are disjoint.

    Concepts (case-folded) are shuffled with ``Random(seed)``; whole concept groups go to train
    until it holds ``fractions[0]`` of the questions, then to dev until train+dev hold
    ``fractions[0] + fractions[1]``, the rest to test. Question order inside a split follows the
    input file.
    """
    if len(fractions) != 3 or any(f < 0 for f in fractions) or abs(sum(fractions) - 1.0) > 1e-6:
        raise ValueError(f"fractions must be three non-negative numbers summing to 1, got {list(fractions)}")
    questions = list(questions)
    groups: "OrderedDict[str, List[int]]" = OrderedDict()
    for position, question in enumerate(questions):
        groups.setdefault(question_concept(question), []).append(position)
    concepts = list(groups)
    random.Random(seed).shuffle(concepts)
    total = len(questions)
    bounds = (fractions[0] * total, (fractions[0] + fractions[1]) * total)
    assignment: Dict[int, str] = {}
    placed = 0
    for concept in concepts:
        split = "train" if placed < bounds[0] else ("dev" if placed < bounds[1] else "test")
        for position in groups[concept]:
            assignment[position] = split
        placed += len(groups[concept])
    return {name: [q for i, q in enumerate(questions) if assignment[i] == name] for name in SPLIT_NAMES}


def split_summary(splits: Dict[str, List[MultipleChoiceQuestion]]) -> List[Tuple[str, int, int]]:
    """(split, questions, distinct concepts) per split."""
    return [(name, len(items), len({question_concept(q) for q in items})) for name, items in splits.items()]


def write_questions(path, questions: Iterable[MultipleChoiceQuestion], layout: str = "original") -> int:
    """Write questions as jsonl: ``original`` (question_concept inside ``question``) or ``hf``;
    returns the number of lines."""
    return write_jsonl(path, (to_layout(question, layout) for question in questions))


def to_layout(question: MultipleChoiceQuestion, layout: str = "original") -> Dict:
    extras = dict(question.extras)
    concept: Optional[str] = extras.pop("question_concept", None)
    if layout == "original":
        inner: Dict = {"stem": question.stem, "choices": [{"label": c.label, "text": c.text} for c in question.choices]}
        if concept is not None:
            inner = {"question_concept": concept, **inner}
        data: Dict = {"id": question.id, "question": inner}
    elif layout == "hf":
        data = {"id": question.id, "question": question.stem}
        if concept is not None:
            data["question_concept"] = concept
        data["choices"] = {"label": [c.label for c in question.choices], "text": [c.text for c in question.choices]}
    else:
        raise ValueError(f"layout must be 'original' or 'hf', got {layout!r}")
    data["answerKey"] = question.answer_label if question.answer_index is not None else ""
    data.update(extras)
    return data
