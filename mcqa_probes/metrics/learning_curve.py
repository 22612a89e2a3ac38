"""Learning-curve summaries of Talmor et al. 2020 (oLMpics, §3.2-3.3), plain Python.

* ``MAX``: the highest mean accuracy on the curve.
* ``WS``: a weighted average of the mean accuracies, with decreasing weights so that small
  training sizes count most: W = (0.23, 0.2, 0.17, 0.14, 0.11, 0.08, 0.07) for
  N = (62, 125, 250, 500, 1K, 2K, 4K) (paper footnote 3; the weights sum to 1).
* Language sensitivity (LANGSENSE): WS of ``max(0, full - control)`` point by point, for the
  NO LANG. and PERTURBED LANG. controls.

Weights are matched to points by position. A curve with the paper's 7 points uses the paper's
weights; a shorter curve uses the first n weights renormalised to sum to 1 (not comparable to the
paper's numbers; :func:`weights_for` says so via ``paper_comparable``). Accuracies are fractions
or percentages - the functions do not care, they return the same unit.

A training file smaller than a requested size (:func:`plan_sizes`): that size is not run (a run
on all N available questions filed under "2K" would repeat the 1K point under a false name). The
curve stops at the available size: the requested sizes below N, plus one point at N itself
(recorded as N). By position, that last point takes the weight of the first size it could not
reach (e.g. Always-Never, 1,004 training questions: 62 ... 1K, 1004 get the first 6 paper weights,
the 1004 point the 2K weight), renormalised over the points run; the sizes not run are listed and
the curve is not paper-comparable.
"""
from collections import defaultdict
from statistics import mean
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

PAPER_SIZES: Tuple[int, ...] = (62, 125, 250, 500, 1000, 2000, 4000)
PAPER_WEIGHTS: Tuple[float, ...] = (0.23, 0.2, 0.17, 0.14, 0.11, 0.08, 0.07)


def weights_for(count: int, weights: Optional[Sequence[float]] = None) -> List[float]:
    """Weights for a curve of ``count`` points (explicit ones must have that length)."""
    if count <= 0:
        raise ValueError("a learning curve needs at least one point")
    if weights is not None:
        if len(weights) != count:
            raise ValueError(f"{len(weights)} weights for {count} curve points")
        chosen = list(weights)
    elif count <= len(PAPER_WEIGHTS):
        chosen = list(PAPER_WEIGHTS[:count])
    else:
        raise ValueError(f"{count} curve points but the paper defines {len(PAPER_WEIGHTS)} weights: pass weights=")
    total = sum(chosen)
    if total <= 0:
        raise ValueError("weights must sum to a positive number")
    return [w / total for w in chosen]


def paper_comparable(sizes: Sequence[int], missing: Sequence[int] = ()) -> bool:
    """True only for the paper's 7 sizes, every one of them run."""
    return tuple(sizes) == PAPER_SIZES and not missing


def plan_sizes(sizes: Sequence[int], available: int) -> Tuple[List[int], List[int]]:
    """(sizes to run, requested sizes not run) for a training file of ``available`` questions.

    Requested sizes up to ``available`` run as asked; larger ones are not run. When some size was
    dropped and ``available`` is not itself requested, one point runs at ``available`` (all the
    training questions, recorded under its real size).
    """
    if available <= 0:
        raise ValueError("the training file has no question")
    requested = sorted({int(s) for s in sizes})
    run = [s for s in requested if s <= available]
    missing = [s for s in requested if s > available]
    if missing and available not in run:
        run.append(available)
    return run, missing


def weighted_score(accuracies: Sequence[float], weights: Optional[Sequence[float]] = None) -> float:
    """WS: the weighted average of the curve's accuracies (ordered by increasing size)."""
    return sum(w * a for w, a in zip(weights_for(len(accuracies), weights), accuracies))


def max_score(accuracies: Sequence[float]) -> float:
    """MAX: the maximal accuracy on the curve."""
    if not accuracies:
        raise ValueError("a learning curve needs at least one point")
    return max(accuracies)


def language_sensitivity(
    full: Sequence[float], control: Sequence[float], weights: Optional[Sequence[float]] = None
) -> float:
    """WS of the positive differences between the full curve and a control curve (same sizes)."""
    if len(full) != len(control):
        raise ValueError(f"curves of different lengths: {len(full)} vs {len(control)}")
    return weighted_score([max(0.0, f - c) for f, c in zip(full, control)], weights)


def mean_curve(results: Iterable[Tuple[int, int, float]]) -> Dict[int, float]:
    """Mean accuracy per size from (size, seed, accuracy) triples, sizes in increasing order."""
    by_size: Dict[int, List[float]] = defaultdict(list)
    for size, _seed, accuracy in results:
        by_size[size].append(accuracy)
    return {size: mean(by_size[size]) for size in sorted(by_size)}


def summarize(curve: Mapping[int, float], weights: Optional[Sequence[float]] = None) -> Dict[str, float]:
    """{"WS", "MAX"} of a {size: mean accuracy} curve."""
    accuracies = [curve[size] for size in sorted(curve)]
    return {"WS": weighted_score(accuracies, weights), "MAX": max_score(accuracies)}
