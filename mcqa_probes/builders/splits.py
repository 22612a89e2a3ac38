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
    questions: List[ProbeQuestion], rng: random.Random, train_size: Optional[int] = 3000
) -> Dict[str, List[ProbeQuestion]]:
    """Concept-disjoint train/dev/test; within a split, questions keep their input order."""
    by_concept: Dict[str, List[ProbeQuestion]] = {}
    for question in questions:
        by_concept.setdefault(question.concept, []).append(question)
    concepts = sorted(by_concept)
    rng.shuffle(concepts)
    assignment: Dict[str, str] = {}
    train_total = 0
    limit = len(questions) if train_size is None else int(train_size)
    rest = []
    for concept in concepts:
        size = len(by_concept[concept])
        if train_total + size <= limit and train_total < limit:
            assignment[concept] = "train"
            train_total += size
        else:
            rest.append(concept)
    totals = {"dev": 0, "test": 0}
    for concept in rest:
        split = "dev" if totals["dev"] <= totals["test"] else "test"
        assignment[concept] = split
        totals[split] += len(by_concept[concept])
    splits: Dict[str, List[ProbeQuestion]] = {name: [] for name in SPLITS}
    for question in questions:
        splits[assignment[question.concept]].append(question)
    return splits


def check_leakage(splits: Dict[str, List[ProbeQuestion]]) -> None:
    """Raise :class:`LeakageError` if a concept, cluster key or gold pair crosses splits."""
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
