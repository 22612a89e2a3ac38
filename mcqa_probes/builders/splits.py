"""De-duplication, concept-disjoint train/dev/test splits and the leakage check (generic over probes).

The split unit is ``ProbeQuestion.concept``: all questions about one concept (its semantic cluster
with all perturbations) go to one split. Train gets whole clusters, in a seeded random order, up to
``train_size`` questions (paper §3.1.2: at most 3k for inoculation); the other concepts are dealt
to dev and test so that both end up with about the same number of questions.
"""
import random
from typing import Dict, Iterable, List, Optional, Tuple

from mcqa_probes.builders.probe_question import ProbeQuestion

SPLITS = ("train", "dev", "test")


class LeakageError(ValueError):
    """A concept, cluster key or gold (question, answer) pair occurs in more than one split."""


def deduplicate(questions: Iterable[ProbeQuestion]) -> Tuple[List[ProbeQuestion], int]:
    """Drop repeated questions (same stem and choices), and questions whose gold (question, answer)
    pair already belongs to another concept (the first concept, in input order, keeps it).

    Returns the kept questions (input order) and how many were dropped.
    """
    seen_questions = set()
    owner: Dict[Tuple[str, str], str] = {}
    kept: List[ProbeQuestion] = []
    dropped = 0
    for question in questions:
        key = (question.stem, tuple(question.choices))
        pair = question.gold_pair()
        if key in seen_questions or owner.setdefault(pair, question.concept) != question.concept:
            dropped += 1
            continue
        seen_questions.add(key)
        kept.append(question)
    return kept, dropped


def split_by_concept(
    questions: List[ProbeQuestion], rng: random.Random, train_size: Optional[int] = 3000,
    together: Iterable[Tuple[str, str]] = (),
) -> Dict[str, List[ProbeQuestion]]:
    """Concept-disjoint train/dev/test; within a split, questions keep their input order.

    ``together``: pairs of concepts that go to one split (a symmetric relation asks ``a related to ?``
    and ``b related to ?``: answered by each other, they would teach in train what test asks). The
    split unit is then a group of concepts joined by the pairs, in the shuffle under its smallest
    concept; with no pairs every concept is its own unit and the order is the concepts' own.
    """
    by_concept: Dict[str, List[ProbeQuestion]] = {}
    for question in questions:
        by_concept.setdefault(question.concept, []).append(question)
    unit_of = _joined(by_concept, together)
    by_unit: Dict[str, List[str]] = {}
    for concept in sorted(by_concept):
        by_unit.setdefault(unit_of.get(concept, concept), []).append(concept)
    units = sorted(by_unit)
    rng.shuffle(units)
    size = {unit: sum(len(by_concept[c]) for c in members) for unit, members in by_unit.items()}
    assignment: Dict[str, str] = {}
    train_total = 0
    limit = len(questions) if train_size is None else int(train_size)
    rest = []
    for unit in units:
        if train_total + size[unit] <= limit and train_total < limit:
            assignment[unit] = "train"
            train_total += size[unit]
        else:
            rest.append(unit)
    totals = {"dev": 0, "test": 0}
    for unit in rest:
        split = "dev" if totals["dev"] <= totals["test"] else "test"
        assignment[unit] = split
        totals[split] += size[unit]
    splits: Dict[str, List[ProbeQuestion]] = {name: [] for name in SPLITS}
    for question in questions:
        splits[assignment[unit_of.get(question.concept, question.concept)]].append(question)
    return splits


def _joined(concepts: Iterable[str], together: Iterable[Tuple[str, str]]) -> Dict[str, str]:
    """Each concept joined to another by ``together`` (both in ``concepts``) -> its group's smallest
    concept (union-find); a concept alone is not in the map."""
    known = set(concepts)
    parent: Dict[str, str] = {}

    def root(concept: str) -> str:
        while parent.get(concept, concept) != concept:
            parent[concept] = parent.get(parent[concept], parent[concept])      # path halving
            concept = parent[concept]
        return concept

    for a, b in together:
        if a in known and b in known and a != b:
            ra, rb = root(a), root(b)
            if ra != rb:
                low, high = min(ra, rb), max(ra, rb)
                parent[high] = low
                parent.setdefault(low, low)
    return {concept: root(concept) for concept in parent}


def check_leakage(splits: Dict[str, List[ProbeQuestion]], together: Iterable[Tuple[str, str]] = ()) -> None:
    """Raise :class:`LeakageError` if a concept, cluster key or gold pair crosses splits, or two
    concepts that go ``together`` (:func:`split_by_concept`) are in two splits."""
    together = list(together)
    split_of = {q.concept: name for name in SPLITS for q in splits.get(name, [])} if together else {}
    for a, b in together:
        if a in split_of and b in split_of and split_of[a] != split_of[b]:
            probe = next(q.probe for name in SPLITS for q in splits.get(name, []))
            raise LeakageError(f"{probe}: {a!r} (in {split_of[a]}) and {b!r} (in {split_of[b]}) answer each "
                               "other's questions, and are in two splits")
    # one set per split and key (cheap); the question to name is searched only when one crosses
    keys = {name: ({q.concept for q in splits.get(name, [])}, {q.cluster_key for q in splits.get(name, [])},
                   {q.gold_pair() for q in splits.get(name, [])}) for name in SPLITS}
    if all(mine.isdisjoint(theirs) for i, a in enumerate(SPLITS) for b in SPLITS[i + 1:]
           for mine, theirs in zip(keys[a], keys[b])):
        return
    where: Dict[Tuple[str, object], str] = {}
    for name in SPLITS:
        for question in splits.get(name, []):
            for key in (("concept", question.concept), ("cluster", question.cluster_key), ("gold", question.gold_pair())):
                other = where.setdefault(key, name)
                if other != name:
                    kind, value = key
                    raise LeakageError(
                        f"{question.probe}: {kind} {value!r} is in both {other} and {name} (question {question.id})"
                    )


def answered_both_ways(questions: Iterable[ProbeQuestion]) -> List[Tuple[str, str]]:
    """The ``(concept, answer)`` pairs of questions whose reverse is asked too (``b`` is asked about
    with the answer ``a``: a symmetric relation, or a source that lists both directions), each once,
    sorted: the concepts :func:`split_by_concept` keeps ``together``."""
    asked = {(q.concept, q.notes.get("answer_id")) for q in questions if q.notes.get("answer_id") is not None}
    return sorted({(min(a, b), max(a, b)) for a, b in asked if a != b and (b, a) in asked})
