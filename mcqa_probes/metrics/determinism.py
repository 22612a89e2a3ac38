"""The determinism audit (plain Python: no torch): does a question get the same scores at batch size 1
as in the batch it was scored in?

Scores move with the batch a question is in (padding to the longest row, batched kernels that sum in
another order, bf16): lm-evaluation-harness's users keep reporting it. The audit keeps ``size``
questions drawn uniformly from those a run scores (reservoir sampling, seeded: the same questions in
the same order give the same draw), with the per-choice scores they got in their batch; the model
re-scores each of them alone (:meth:`mcqa_probes.models.multiple_choice_model.MultipleChoiceModel.audit_determinism`)
and :meth:`DeterminismAudit.result` reports

* ``questions``: how many were re-scored;
* ``max_score_difference``: the largest absolute difference between a choice's score in its batch
  and alone (the model's own score: logits, log-likelihoods), over every choice of every question;
* ``changed_answers``: how many of them get another best choice alone.

A run cut in parts (``bin/zero_shot --shards``) re-scores the questions one whole run would: the
parent draws them (:func:`draw`), each part keeps its own of them (``picks``) and the parts' results,
combined, are the whole run's.

:func:`combine` adds up several runs' results (the card's line per model); :func:`combine_rescored`
is None when they re-scored no question (a model that was never audited has no line, not a line of
zeros).
"""
import random
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

#: the result of an audit that re-scored nothing
EMPTY = {"questions": 0, "max_score_difference": 0.0, "changed_answers": 0}

#: the seed of the audit's draw of questions (the card, bin/zero_shot and its shards alike)
DETERMINISM_SEED = 0


def _best(scores: Sequence[float]) -> int:
    best = 0
    for index, score in enumerate(scores):
        if score > scores[best]:
            best = index
    return best


class DeterminismAudit:
    """Reservoir of ``size`` questions (seeded by ``seed``) with their batch scores, then the comparison.
    ``picks``: keep exactly these questions (0-based, in the order they are offered) instead of drawing."""

    def __init__(self, size: int, seed: int = 0, picks: Optional[Iterable[int]] = None) -> None:
        if int(size) < 0:
            raise ValueError(f"determinism check: expected a number of questions >= 0, got {size}")
        self.size, self.seed = int(size), int(seed)
        self.picks = None if picks is None else {int(p) for p in picks}
        self.reset()

    def reset(self) -> None:
        self.seen = 0
        self.kept: List[Tuple[Any, List[float]]] = []
        self._rng = random.Random(self.seed)

    def slot(self) -> Optional[int]:
        """Offer the next question: the reservoir slot to keep it in (overwriting), or None (not kept)."""
        self.seen += 1
        if self.picks is not None:
            if self.seen - 1 not in self.picks:
                return None
            self.kept.append((None, []))
            return len(self.kept) - 1
        if self.size == 0:
            return None
        if len(self.kept) < self.size:
            self.kept.append((None, []))
            return len(self.kept) - 1
        pick = self._rng.randrange(self.seen)
        return pick if pick < self.size else None

    def keep(self, slot: int, payload: Any, scores: Sequence[float]) -> None:
        """Store the question's input (``payload``: what re-scores it alone) and its batch scores."""
        self.kept[slot] = (payload, [float(s) for s in scores])

    def result(self, rescored: Sequence[Sequence[float]]) -> Dict[str, Any]:
        """Compare the kept questions' batch scores with ``rescored`` (the same questions alone, in order)."""
        if len(rescored) != len(self.kept):
            raise ValueError(f"determinism check: {len(rescored)} re-scored questions for {len(self.kept)} kept")
        difference, changed = 0.0, 0
        for (_, before), after in zip(self.kept, rescored):
            after = [float(s) for s in after]
            if len(after) != len(before):
                raise ValueError("determinism check: a question has another number of choices alone")
            difference = max([difference] + [abs(a - b) for a, b in zip(before, after)])
            changed += int(_best(before) != _best(after))
        return {"questions": len(self.kept), "max_score_difference": difference, "changed_answers": changed}


def draw(count: int, size: int, seed: int = 0) -> List[int]:
    """The questions (0-based, ascending) an audit of ``size`` questions seeded by ``seed`` re-scores out
    of ``count`` offered in order: the same as :class:`DeterminismAudit` keeps."""
    audit = DeterminismAudit(size, seed)
    for index in range(int(count)):
        slot = audit.slot()
        if slot is not None:
            audit.kept[slot] = (index, [])
    return sorted(index for index, _ in audit.kept)


def combine(results: Iterable[Optional[Dict[str, Any]]]) -> Dict[str, Any]:
    """Several audits' results as one: questions and changed answers added, the largest difference."""
    total = dict(EMPTY)
    for result in results:
        if not result:
            continue
        total["questions"] += int(result["questions"])
        total["changed_answers"] += int(result["changed_answers"])
        total["max_score_difference"] = max(total["max_score_difference"], float(result["max_score_difference"]))
    return total


def combine_rescored(results: Iterable[Optional[Dict[str, Any]]]) -> Optional[Dict[str, Any]]:
    """:func:`combine` of ``results``, or None when they re-scored no question (no audit ran, or its
    questions were none)."""
    total = combine(results)
    return total if total["questions"] else None


def audit_fields(result: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """An audit's result (or None: :data:`EMPTY`) as a run's result fields: ``determinism_questions``,
    ``determinism_max_score_difference``, ``determinism_changed_answers`` (counts as ints)."""
    found = dict(EMPTY, **(result or {}))
    return {"determinism_questions": int(found["questions"]),
            "determinism_max_score_difference": float(found["max_score_difference"]),
            "determinism_changed_answers": int(found["changed_answers"])}
