"""Per-question records for the probe metrics (plain Python: no torch).

A record is what the metrics need about one answered question: whether it was right, its
semantic-cluster key, and the ISA hops / distractor family / distractor depth from ``notes``.
The same extraction serves the allennlp Metrics (fed from instance metadata during
``allennlp evaluate``) and ``bin/probe_report`` (fed from a predictions file), so both agree.
"""
import collections
import fractions
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy

from mcqa_probes.common.io import McqaFormatError, read_jsonl
from mcqa_probes.data.question import cluster_key


def chance_level(choice_counts: Iterable[int]) -> float:
    """The accuracy of guessing uniformly: the mean of 1/K over questions of K choices (NaN for none),
    in exact fractions, rounded once (five choices a question give 0.2, not 0.19999999999999962 or
    0.20000000000000004)."""
    counts = collections.Counter(choice_counts)
    total = sum(counts.values())
    return float(sum(fractions.Fraction(n, k) for k, n in counts.items()) / total) if total else float("nan")


def distractor_family(notes: Dict[str, Any]) -> Optional[str]:
    """``random``, ``sister``, ``hypernym``/``hyponym`` (up/down), as written by the builders and the released files."""
    family = notes.get("distractor_family", notes.get("distractor_type"))
    return None if family in (None, "") else str(family)


@dataclass(frozen=True)
class ProbeRecord:
    id: str
    correct: bool
    cluster: Optional[str] = None
    hops: Optional[int] = None
    family: Optional[str] = None
    depth: Optional[int] = None

    @property
    def column(self) -> Optional[str]:
        """The Figure-3 column: distractor family and depth k', e.g. ``sister@1``."""
        if self.family is None:
            return None
        return self.family if self.depth is None else f"{self.family}@{self.depth}"


def _int(value: Any) -> Optional[int]:
    try:
        return None if value is None or value == "" else int(value)
    except (TypeError, ValueError):
        return None


def record_from(metadata: Dict[str, Any], correct: bool, cluster_field: Optional[str] = None) -> ProbeRecord:
    notes = metadata.get("notes") if isinstance(metadata.get("notes"), dict) else {}
    depth = notes.get("distractor_depth", notes.get("distractor_hops"))
    return ProbeRecord(
        id=str(metadata.get("id", "")),
        correct=bool(correct),
        cluster=cluster_key(metadata, cluster_field),
        hops=_int(notes.get("hops")),
        family=distractor_family(notes),
        depth=_int(depth),
    )


def read_prediction_records(path: str, cluster_field: Optional[str] = None) -> Iterator[ProbeRecord]:
    """Records from a predictions file: ``allennlp predict --predictor mcqa`` output (one JSON per line,
    with ``correct`` or ``best_choice_index`` + ``answer_index``, and ``notes``)."""
    for number, data in read_jsonl(path, what="prediction"):
        if not isinstance(data, dict):
            raise McqaFormatError(f"expected a JSON object, got {type(data).__name__}", str(path), number)
        if "correct" in data:
            correct = bool(data["correct"])
        elif data.get("answer_index") is not None and "best_choice_index" in data:
            correct = data["best_choice_index"] == data["answer_index"]
        else:
            raise McqaFormatError(
                "expected 'correct' or 'best_choice_index' + 'answer_index' "
                "(predict with --predictor mcqa on a file that has answerKey)", str(path), number
            )
        yield record_from(data, correct, cluster_field)


def instance_accuracy(records: Iterable[ProbeRecord]) -> float:
    records = list(records)
    return sum(r.correct for r in records) / len(records) if records else 0.0


#: Bootstrap resamples behind every interval the toolkit reports.
BOOTSTRAP_SAMPLES = 1000


class ClusterTally:
    """Running counts for strict cluster accuracy (TACL paper §4.3 / Table 8): a semantic cluster
    counts as right only if every one of its questions is right.

    The one implementation, fed question by question by the allennlp ``cluster_accuracy`` metric
    (``allennlp evaluate``) and by :func:`cluster_accuracy` / ``bin/probe_report`` (a predictions
    file), so both give the same numbers. A question without a cluster key is its own singleton
    cluster (it counts, as one cluster, right iff the question is right): the paper's clusters are
    the questions about one target concept, and a question that names no concept is evidence
    about no other question. Such questions are never merged with each other (not by id either).
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.questions = 0
        self.right = 0
        self._keyed: Dict[str, List[int]] = {}  # cluster -> [questions right, questions]
        self._singletons: List[int] = []  # 1/0 per question without a key

    def add(self, correct: bool, cluster: Optional[str]) -> None:
        correct = bool(correct)
        self.questions += 1
        self.right += int(correct)
        if cluster is None:
            self._singletons.append(int(correct))
        else:
            counts = self._keyed.setdefault(cluster, [0, 0])
            counts[0] += int(correct)
            counts[1] += 1

    def groups(self) -> List[Tuple[int, int]]:
        """(questions right, questions) per semantic cluster, singletons included."""
        return [tuple(counts) for counts in self._keyed.values()] + [(right, 1) for right in self._singletons]

    @property
    def clusters(self) -> int:
        return len(self._keyed) + len(self._singletons)

    @property
    def clusters_right(self) -> int:
        return sum(right == total for right, total in self._keyed.values()) + sum(self._singletons)

    @property
    def instance_accuracy(self) -> float:
        return self.right / self.questions if self.questions else 0.0

    @property
    def cluster_accuracy(self) -> float:
        return self.clusters_right / self.clusters if self.clusters else 0.0

    @property
    def cluster_delta(self) -> float:
        """Cluster minus instance accuracy, in points (the paper's Δ)."""
        return 100.0 * (self.cluster_accuracy - self.instance_accuracy)

    def intervals(self, samples: int = BOOTSTRAP_SAMPLES, level: float = 0.95, seed: int = 0) -> Dict[str, float]:
        """95% intervals of instance and strict cluster accuracy (:func:`cluster_bootstrap`)."""
        return cluster_bootstrap(self.groups(), samples, level, seed)


def cluster_bootstrap(groups: Sequence[Tuple[int, int]], samples: int = BOOTSTRAP_SAMPLES, level: float = 0.95,
                      seed: int = 0) -> Dict[str, float]:
    """Percentile-bootstrap intervals that respect semantic clusters.

    The questions of one cluster ask about one concept and are not independent, so the unit that
    is resampled is the cluster: ``groups`` holds (questions right, questions) per cluster (a
    question without a cluster key is a cluster of one), ``samples`` resamples draw as many
    clusters with replacement, and the interval is the central ``level`` share of the resampled
    accuracies. Returns ``accuracy_low/high`` (question-weighted accuracy of the resampled
    questions) and ``cluster_accuracy_low/high`` (share of resampled clusters all right), as
    fractions. Seeded: the same groups and seed give the same interval. With no group at all the
    bounds are 0.
    """
    if not groups:
        return {"accuracy_low": 0.0, "accuracy_high": 0.0, "cluster_accuracy_low": 0.0, "cluster_accuracy_high": 0.0}
    counts = numpy.asarray(groups, dtype=numpy.int64)
    right, total = counts[:, 0], counts[:, 1]
    whole = (right == total).astype(numpy.int64)
    rng = numpy.random.default_rng(seed)
    accuracies, cluster_accuracies = [], []
    chunk = max(1, 2_000_000 // len(groups))  # resamples per step: bounded memory on large files
    for start in range(0, samples, chunk):
        picks = rng.integers(0, len(groups), size=(min(chunk, samples - start), len(groups)))
        accuracies.append(right[picks].sum(axis=1) / total[picks].sum(axis=1))
        cluster_accuracies.append(whole[picks].mean(axis=1))
    tail = 100.0 * (1.0 - level) / 2.0
    low, high = numpy.percentile(numpy.concatenate(accuracies), [tail, 100.0 - tail])
    cluster_low, cluster_high = numpy.percentile(numpy.concatenate(cluster_accuracies), [tail, 100.0 - tail])
    return {"accuracy_low": float(low), "accuracy_high": float(high), "cluster_accuracy_low": float(cluster_low),
            "cluster_accuracy_high": float(cluster_high)}


def cluster_tally(records: Iterable[ProbeRecord]) -> ClusterTally:
    tally = ClusterTally()
    for record in records:
        tally.add(record.correct, record.cluster)
    return tally


def cluster_accuracy(records: Iterable[ProbeRecord]) -> float:
    """Strict cluster accuracy (see :class:`ClusterTally`: questions without a key are singletons)."""
    return cluster_tally(records).cluster_accuracy


def breakdown(records: Iterable[ProbeRecord]) -> Dict[str, Dict[str, List[int]]]:
    """hops (rows) x distractor family@depth (columns) -> [correct, total]."""
    table: Dict[str, Dict[str, List[int]]] = {}
    for record in records:
        if record.hops is None or record.column is None:
            continue
        cell = table.setdefault(str(record.hops), {}).setdefault(record.column, [0, 0])
        cell[0] += int(record.correct)
        cell[1] += 1
    return table
