"""Human-performance estimates (TACL paper §3.1.3) for any multiple-choice jsonl file.

1. :func:`sample_for_annotation` + :func:`write_annotation_csv` (``bin/annotation_sample``): a
   seeded random sample of questions as a crowd-sourcing CSV, one row per question:
   ``qid, question, A, B, C, D, E`` (as many letter columns as the widest question has; the
   answer key is *not* in the file).
2. :func:`read_votes` + :func:`score_annotations` (``bin/annotation_score``): read the workers'
   answers back, one row per (question, worker): columns ``qid``, ``worker`` and ``answer``
   (a letter; MTurk batch names ``Input.qid``, ``WorkerId``, ``Answer.answer`` work too). Each
   question needs ``votes_per_question`` votes (5 in the paper). The majority letter is the
   humans' answer; a tie has no majority and counts as wrong (a conservative estimate, as in
   Nangia & Bowman 2019).
3. :func:`write_gold_test_set`: the questions whose majority answer is the gold, copied verbatim
   from the input file (the paper's gold-standard test sets).

Works on any mcqa jsonl (WordNetQA, DictionaryQA, released files): labels may be ints, digit
strings or letters; the CSV always shows letters A, B, C, ... in the file's choice order.
Bad input raises :class:`AnnotationError` naming the file and line.
"""
import csv
import json
import random
import string
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence

from mcqa_probes.common.io import atomic_open

LETTERS = string.ascii_uppercase
QID_COLUMNS = ("qid", "Input.qid", "id")
WORKER_COLUMNS = ("worker", "WorkerId", "worker_id")
ANSWER_COLUMNS = ("answer", "Answer.answer", "Answer.choice", "choice")


class AnnotationError(ValueError):
    """Malformed question or annotation input; the message names the file and line."""


@dataclass
class AnnotatedQuestion:
    """One question of an mcqa jsonl file, with the line it came from."""

    id: str
    stem: str
    choices: List[str]
    gold_letter: Optional[str]
    raw: str                 # the original json line (written back verbatim to the gold set)
    line: int


@dataclass
class AnnotationScore:
    questions: int                    # questions with votes
    correct: int                      # majority vote == gold
    no_majority: int                  # ties (counted wrong)
    accuracy: float
    votes_per_question: int
    majority: Dict[str, Optional[str]] = field(default_factory=dict)   # qid -> majority letter
    correct_ids: List[str] = field(default_factory=list)               # in input-file order

    def summary(self) -> str:
        return (f"{self.questions} questions, {self.votes_per_question} votes each: majority-vote accuracy "
                f"{100 * self.accuracy:.1f}% ({self.correct} right, {self.no_majority} without a majority)")


def _atomic_write(path: str, write) -> None:
    with atomic_open(path, "w", encoding="utf-8", newline="") as out:
        write(out)


def read_mcqa_jsonl(path: str) -> List[AnnotatedQuestion]:
    """Questions of an mcqa jsonl file (``{"id", "question": {"stem", "choices"}, "answerKey"}``)."""
    questions: List[AnnotatedQuestion] = []
    seen = set()
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            raw = line.rstrip("\n")
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
                question = data["question"]
                choices = question["choices"]
                labels = [str(c["label"]) for c in choices]
                texts = [str(c["text"]) for c in choices]
                stem = str(question["stem"])
                qid = str(data["id"])
            except (json.JSONDecodeError, KeyError, TypeError) as error:
                raise AnnotationError(f"{path}, line {number}: not an mcqa question ({error!r}); expected "
                                      '{"id", "question": {"stem", "choices": [{"label", "text"}]}, "answerKey"}') from None
            if len(choices) > len(LETTERS):
                raise AnnotationError(f"{path}, line {number}: {len(choices)} choices is too many")
            if qid in seen:
                raise AnnotationError(f"{path}, line {number}: duplicate question id {qid!r}")
            seen.add(qid)
            gold = None
            if "answerKey" in data:
                key = str(data["answerKey"])
                if key not in labels:
                    raise AnnotationError(f"{path}, line {number}: answerKey {key!r} is not one of the labels {labels}")
                gold = LETTERS[labels.index(key)]
            questions.append(AnnotatedQuestion(qid, stem, texts, gold, raw, number))
    return questions


def sample_for_annotation(questions: Sequence[AnnotatedQuestion], size: int,
                          rng: random.Random) -> List[AnnotatedQuestion]:
    """``size`` questions drawn at random (all of them when there are fewer), in file order."""
    if size >= len(questions):
        return list(questions)
    picked = sorted(rng.sample(range(len(questions)), size))
    return [questions[i] for i in picked]


def write_annotation_csv(questions: Sequence[AnnotatedQuestion], path: str) -> None:
    """The crowd-sourcing batch: ``qid, question, A, B, ...`` (no answer key)."""
    width = max((len(q.choices) for q in questions), default=0)
    header = ["qid", "question"] + list(LETTERS[:width])

    def write(out):
        writer = csv.writer(out)
        writer.writerow(header)
        for q in questions:
            writer.writerow([q.id, q.stem] + q.choices + [""] * (width - len(q.choices)))

    _atomic_write(path, write)


def _column(header: Sequence[str], names: Iterable[str], path: str, what: str) -> int:
    for name in names:
        if name in header:
            return header.index(name)
    raise AnnotationError(f"{path}, line 1: no {what} column (expected one of {list(names)}; header is {list(header)})")


def read_votes(path: str, questions: Sequence[AnnotatedQuestion]) -> Dict[str, List[str]]:
    """qid → the answer letters given for it, in file order; checks every row."""
    by_id = {q.id: q for q in questions}
    votes: Dict[str, List[str]] = {}
    workers: Dict[str, set] = {}
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        try:
            header = next(reader)
        except StopIteration:
            raise AnnotationError(f"{path}, line 1: empty file; expected a header with qid, worker, answer") from None
        qid_col = _column(header, QID_COLUMNS, path, "question id")
        worker_col = _column(header, WORKER_COLUMNS, path, "worker")
        answer_col = _column(header, ANSWER_COLUMNS, path, "answer")
        for row in reader:
            number = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise AnnotationError(f"{path}, line {number}: {len(row)} fields, the header has {len(header)}")
            qid, worker, answer = row[qid_col].strip(), row[worker_col].strip(), row[answer_col].strip().upper()
            if qid not in by_id:
                raise AnnotationError(f"{path}, line {number}: unknown question id {qid!r}")
            n_choices = len(by_id[qid].choices)
            if len(answer) != 1 or answer not in LETTERS[:n_choices]:
                raise AnnotationError(f"{path}, line {number}: answer {row[answer_col]!r} is not one of "
                                      f"{', '.join(LETTERS[:n_choices])}")
            if not worker:
                raise AnnotationError(f"{path}, line {number}: empty worker id")
            if worker in workers.setdefault(qid, set()):
                raise AnnotationError(f"{path}, line {number}: worker {worker!r} answered {qid!r} twice")
            workers[qid].add(worker)
            votes.setdefault(qid, []).append(answer)
    if not votes:
        raise AnnotationError(f"{path}: no answers (only a header or blank lines; expected one row per "
                              f"(question, worker) with qid, worker, answer)")
    return votes


def majority_vote(letters: Sequence[str]) -> Optional[str]:
    """The most frequent letter, or None when the top count is shared (no majority)."""
    counts = Counter(letters).most_common()
    if not counts or (len(counts) > 1 and counts[0][1] == counts[1][1]):
        return None
    return counts[0][0]


def score_annotations(questions: Sequence[AnnotatedQuestion], votes: Dict[str, List[str]],
                      votes_per_question: int = 5, path: str = "answers") -> AnnotationScore:
    """Majority-vote accuracy over the questions that were annotated."""
    if votes_per_question < 1:
        raise AnnotationError(f"votes per question {votes_per_question}: expected a positive number")
    if not votes:
        raise AnnotationError(f"{path}: no answers to score")
    wrong_counts = {qid: len(v) for qid, v in votes.items() if len(v) != votes_per_question}
    if wrong_counts:
        shown = ", ".join(f"{qid}: {n}" for qid, n in sorted(wrong_counts.items())[:5])
        raise AnnotationError(f"{path}: {len(wrong_counts)} question(s) do not have {votes_per_question} votes ({shown})")
    majority: Dict[str, Optional[str]] = {}
    correct_ids: List[str] = []
    no_majority = 0
    for q in questions:
        if q.id not in votes:
            continue
        if q.gold_letter is None:
            raise AnnotationError(f"line {q.line}: question {q.id!r} has no answerKey, so it cannot be scored")
        letter = majority_vote(votes[q.id])
        majority[q.id] = letter
        no_majority += letter is None
        if letter == q.gold_letter:
            correct_ids.append(q.id)
    n = len(majority)
    return AnnotationScore(questions=n, correct=len(correct_ids), no_majority=no_majority,
                           accuracy=len(correct_ids) / n if n else 0.0, votes_per_question=votes_per_question,
                           majority=majority, correct_ids=correct_ids)


def write_gold_test_set(questions: Sequence[AnnotatedQuestion], score: AnnotationScore, path: str) -> int:
    """Write the questions the humans got right (original lines, input order); returns how many."""
    keep = set(score.correct_ids)
    lines = [q.raw for q in questions if q.id in keep]

    def write(out):
        for line in lines:
            out.write(line + "\n")

    _atomic_write(path, write)
    return len(lines)
