"""Paired comparison of models on the same questions, from their item records
(:mod:`mcqa_probes.metrics.item_records`); ``bin/probe_compare`` and the report card's comparison
section are thin layers over :func:`compare_records`. docs/compare.md says what each number means.

For every pair of models (A, B) and every probe they both answered (same section, same probe, the
questions with the same id), and within it every hops x distractor-family cell, over the questions
both answered:

* ``difference``: accuracy of A minus accuracy of B (each model's primary prompt), as a fraction;
* ``ci_low`` / ``ci_high``: the 95% **paired cluster bootstrap** interval of the difference: the
  semantic clusters (a question without a key is a cluster of its own) are resampled with
  replacement, both models' answers to a drawn cluster together, :data:`BOOTSTRAP_SAMPLES` times with
  ``numpy.random.default_rng(seed)`` (``rng.integers(0, clusters, size=(samples, clusters))``), and the
  interval is the percentile interval of the resampled differences (question-weighted);
* ``a_only`` / ``b_only``: questions A got right and B wrong, and the reverse (the discordant pairs);
  ``p_mcnemar``: **McNemar's exact test**, the two-sided binomial test of ``a_only`` successes in
  ``a_only + b_only`` trials at 1/2 (``scipy.stats.binomtest``; 1 when no pair is discordant). It
  treats questions as independent: with large clusters trust the bootstrap interval more;
* ``p_holm`` / ``p_bh``: the p-values adjusted over **every comparison of the page** (all pairs, probes
  and cells together) by Holm (family-wise error) and Benjamini-Hochberg (false discovery rate),
  ``statsmodels.stats.multitest.multipletests``;
* ``discordance``: (a_only + b_only) / questions; ``mdd``: the **minimum detectable difference** at
  this number of questions (two-sided alpha 0.05, power 0.8), from the discordance rate psi by the
  paired (McNemar) sample-size formula n(d) = (z_{1-alpha/2} sqrt(psi) + z_{power} sqrt(psi - d^2))^2 / d^2
  solved for d (None when no difference up to psi is detectable, or nothing was discordant);
  ``questions_for_5_points``: n(0.05) with psi the observed rate, at least 0.05 (a 5-point difference
  needs at least 5% discordant questions);
* ``design_effect``: the bootstrap variance of the difference over its variance for independent
  questions ((psi - difference^2) / n): how much the clusters inflate the uncertainty (about 1: the
  questions behave as independent; multiply ``questions_for_5_points`` by it with clustered probes).
"""
import math
from collections import OrderedDict
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy
from scipy import optimize, stats
from statsmodels.stats.multitest import multipletests

from mcqa_probes.metrics.calibration import calibration_report, calibration_rows

#: bootstrap resamples of every interval (as the card's other intervals)
BOOTSTRAP_SAMPLES = 1000
ALPHA = 0.05
POWER = 0.8
#: the difference ``questions_for_5_points`` is about
TARGET = 0.05


def cluster_groups(right_a: Sequence[bool], right_b: Sequence[bool],
                   clusters: Sequence[Optional[str]]) -> numpy.ndarray:
    """Per semantic cluster (in order of first appearance; a question without a key alone):
    (A right, B right, questions)."""
    groups: "OrderedDict[Any, List[int]]" = OrderedDict()
    for index, (a, b, key) in enumerate(zip(right_a, right_b, clusters)):
        counts = groups.setdefault(("cluster", key) if key is not None else ("alone", index), [0, 0, 0])
        counts[0] += int(bool(a))
        counts[1] += int(bool(b))
        counts[2] += 1
    return numpy.asarray(list(groups.values()), dtype=numpy.int64).reshape(-1, 3)


def bootstrap_differences(groups: numpy.ndarray, samples: int = BOOTSTRAP_SAMPLES, seed: int = 0) -> numpy.ndarray:
    """The resampled accuracy differences (A - B) of the paired cluster bootstrap."""
    rng = numpy.random.default_rng(seed)
    count = len(groups)
    found = []
    chunk = max(1, 2_000_000 // max(1, count))
    for start in range(0, samples, chunk):
        picks = rng.integers(0, count, size=(min(chunk, samples - start), count))
        drawn = groups[picks]  # (resamples, clusters, 3)
        found.append((drawn[:, :, 0].sum(axis=1) - drawn[:, :, 1].sum(axis=1)) / drawn[:, :, 2].sum(axis=1))
    return numpy.concatenate(found)


def paired_cluster_bootstrap(right_a: Sequence[bool], right_b: Sequence[bool], clusters: Sequence[Optional[str]],
                             samples: int = BOOTSTRAP_SAMPLES, seed: int = 0, level: float = 0.95) -> Tuple[float, float]:
    """The percentile interval of the accuracy difference A - B, clusters resampled (see the module docstring)."""
    if not len(right_a):
        return float("nan"), float("nan")
    tail = 100.0 * (1.0 - level) / 2.0
    low, high = numpy.percentile(bootstrap_differences(cluster_groups(right_a, right_b, clusters), samples, seed),
                                 [tail, 100.0 - tail])
    return float(low), float(high)


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value of the discordant counts (1 when there are none)."""
    if a_only + b_only == 0:
        return 1.0
    return float(stats.binomtest(int(a_only), int(a_only + b_only), 0.5).pvalue)


def adjust(pvalues: Sequence[float]) -> Dict[str, List[float]]:
    """Holm and Benjamini-Hochberg adjusted p-values (``holm``, ``bh``), in the order given."""
    if not len(pvalues):
        return {"holm": [], "bh": []}
    return {"holm": [float(p) for p in multipletests(list(pvalues), alpha=ALPHA, method="holm")[1]],
            "bh": [float(p) for p in multipletests(list(pvalues), alpha=ALPHA, method="fdr_bh")[1]]}


def questions_needed(difference: float, discordance: float, alpha: float = ALPHA, power: float = POWER) -> float:
    """Paired (McNemar) sample size to detect ``difference`` with discordance rate ``discordance``
    (two-sided ``alpha``, ``power``): (z_a sqrt(psi) + z_b sqrt(psi - d^2))^2 / d^2; inf when d > psi."""
    d, psi = abs(float(difference)), float(discordance)
    if d == 0 or d > psi:
        return math.inf
    z_alpha, z_power = stats.norm.ppf(1 - alpha / 2), stats.norm.ppf(power)
    return (z_alpha * math.sqrt(psi) + z_power * math.sqrt(max(0.0, psi - d * d))) ** 2 / (d * d)


def minimum_detectable_difference(questions: int, discordance: float, alpha: float = ALPHA,
                                  power: float = POWER) -> Optional[float]:
    """The smallest difference d <= psi with ``questions_needed(d) <= questions`` (None: none is, or psi = 0)."""
    psi = float(discordance)
    if questions <= 0 or psi <= 0 or questions_needed(psi, psi, alpha, power) > questions:
        return None
    if questions_needed(psi * 1e-9, psi, alpha, power) <= questions:
        return psi * 1e-9
    return float(optimize.brentq(lambda d: questions_needed(d, psi, alpha, power) - questions, psi * 1e-9, psi,
                                 xtol=1e-12))


def compare_pair(right_a: Sequence[bool], right_b: Sequence[bool], clusters: Sequence[Optional[str]],
                 samples: int = BOOTSTRAP_SAMPLES, seed: int = 0) -> Dict[str, Any]:
    """The numbers of one comparison (unadjusted): see the module docstring."""
    n = len(right_a)
    a_only = sum(1 for a, b in zip(right_a, right_b) if a and not b)
    b_only = sum(1 for a, b in zip(right_a, right_b) if b and not a)
    accuracy_a, accuracy_b = sum(map(bool, right_a)) / n, sum(map(bool, right_b)) / n
    difference = accuracy_a - accuracy_b
    groups = cluster_groups(right_a, right_b, clusters)
    resampled = bootstrap_differences(groups, samples, seed)
    low, high = (float(v) for v in numpy.percentile(resampled, [2.5, 97.5]))
    discordance = (a_only + b_only) / n
    naive = (discordance - difference ** 2) / n
    needed = questions_needed(TARGET, max(discordance, TARGET))
    return {
        "questions": n, "clusters": int(len(groups)), "accuracy_a": accuracy_a, "accuracy_b": accuracy_b,
        "difference": difference, "ci_low": low, "ci_high": high, "a_only": a_only, "b_only": b_only,
        "p_mcnemar": mcnemar_exact(a_only, b_only), "discordance": discordance,
        "mdd": minimum_detectable_difference(n, discordance),
        "questions_for_5_points": int(math.ceil(needed)),
        "design_effect": float(resampled.var() / naive) if naive > 0 else None,
    }


def _models(records: Iterable[Mapping[str, Any]]) -> List[str]:
    return list(dict.fromkeys(r["model"] for r in records))


def cell_of(record: Mapping[str, Any]) -> Optional[str]:
    """``hops=K/FAMILY`` of a record with both, else None."""
    if record.get("hops") is None or record.get("distractor_family") is None:
        return None
    return f"hops={record['hops']}/{record['distractor_family']}"


def compare_records(records: Sequence[Mapping[str, Any]], models: Optional[Sequence[str]] = None,
                    samples: int = BOOTSTRAP_SAMPLES, seed: int = 0, cells: bool = True) -> Dict[str, Any]:
    """Every comparison of every pair of ``models`` (default: all, in order of first appearance) on
    every probe (and hops x distractor cell, with ``cells``) they both answered; p-values adjusted over
    them all. Returns ``models``, ``comparisons`` (one dict each: ``model_a``, ``model_b``,
    ``section``, ``probe``, ``cell`` (``all`` or ``hops=K/FAMILY``), the numbers of
    :func:`compare_pair`, ``p_holm``, ``p_bh``), ``samples``, ``seed``, ``alpha``, ``power``."""
    models = list(models) if models else _models(records)
    index: Dict[Tuple[str, str, str], Dict[str, Mapping[str, Any]]] = {}
    for record in records:
        if record["gold"] is None:
            continue
        index.setdefault((record["model"], record["section"], record["probe"]), {})[record["id"]] = record
    probes = list(dict.fromkeys((section, probe) for (_, section, probe) in index))
    comparisons: List[Dict[str, Any]] = []
    for i, model_a in enumerate(models):
        for model_b in models[i + 1:]:
            for section, probe in probes:
                a, b = index.get((model_a, section, probe)), index.get((model_b, section, probe))
                if not a or not b:
                    continue
                shared = [key for key in a if key in b]
                if not shared:
                    continue
                groups: "OrderedDict[str, List[str]]" = OrderedDict([("all", shared)])
                if cells:
                    for key in shared:
                        cell = cell_of(a[key])
                        if cell is not None:
                            groups.setdefault(cell, []).append(key)
                for cell, keys in groups.items():
                    right_a = [a[k]["correct"][a[k]["primary"]] for k in keys]
                    right_b = [b[k]["correct"][b[k]["primary"]] for k in keys]
                    numbers = compare_pair(right_a, right_b, [a[k]["cluster"] for k in keys], samples, seed)
                    comparisons.append({"model_a": model_a, "model_b": model_b, "section": section, "probe": probe,
                                        "cell": cell, "prompt_a": a[keys[0]]["primary"],
                                        "prompt_b": b[keys[0]]["primary"], **numbers})
    adjusted = adjust([c["p_mcnemar"] for c in comparisons])
    for comparison, holm, bh in zip(comparisons, adjusted["holm"], adjusted["bh"]):
        comparison["p_holm"], comparison["p_bh"] = holm, bh
    return {"models": models, "comparisons": comparisons, "samples": samples, "seed": seed, "alpha": ALPHA,
            "power": POWER}


def _points(value: Optional[float]) -> str:
    return "-" if value is None else f"{100 * value:+.1f}"


def comparison_rows(result: Mapping[str, Any]) -> List[List[str]]:
    """The comparisons as text rows (header first): what ``bin/probe_compare`` prints."""
    rows = [["A", "B", "probe", "cell", "n", "acc A", "acc B", "A-B", "95% CI", "A only", "B only", "p McNemar",
             "p Holm", "p BH", "MDD", "n for 5 pts"]]
    for c in result["comparisons"]:
        rows.append([c["model_a"], c["model_b"], f"{c['section']}/{c['probe']}", c["cell"], str(c["questions"]),
                     f"{100 * c['accuracy_a']:.1f}", f"{100 * c['accuracy_b']:.1f}", _points(c["difference"]),
                     f"[{_points(c['ci_low'])}, {_points(c['ci_high'])}]", str(c["a_only"]), str(c["b_only"]),
                     f"{c['p_mcnemar']:.3g}", f"{c['p_holm']:.3g}", f"{c['p_bh']:.3g}",
                     "-" if c["mdd"] is None else f"{100 * c['mdd']:.1f}", str(c["questions_for_5_points"])])
    return rows


def calibration_by_probe(records: Sequence[Mapping[str, Any]],
                         models: Optional[Sequence[str]] = None) -> Dict[str, Dict[str, Dict[str, Any]]]:
    """Per model (``models`` or the records' order) and ``section/probe``, the
    :func:`~mcqa_probes.metrics.calibration.calibration_report` of its records (the card's calibration
    table and ``bin/probe_compare``'s)."""
    result: Dict[str, Dict[str, Dict[str, Any]]] = {}
    for model in models or _models(records):
        mine = [r for r in records if r["model"] == model]
        probes = list(dict.fromkeys((r["section"], r["probe"]) for r in mine))
        result[model] = {f"{s}/{p}": calibration_report([r for r in mine if (r["section"], r["probe"]) == (s, p)])
                         for s, p in probes}
    return result


def calibration_text_rows(calibrations: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> List[List[str]]:
    """:func:`calibration_by_probe` as text rows (header first): per model, probe and prompt (the primary
    one; where PriDe was run, the lettered prompt raw and debiased) the questions, accuracy, mean
    confidence, ECE (equal-mass bins) and Brier score."""
    rows = [["model", "probe", "prompt", "n", "accuracy", "confidence", "ECE", "Brier"]]
    for model, table in calibrations.items():
        for probe, report in table.items():
            for prompt, value in calibration_rows(report):
                rows.append([model, probe, prompt, str(value["questions"]), f"{100 * value['accuracy']:.1f}",
                             f"{100 * value['confidence']:.1f}", f"{value['ece']:.3f}", f"{value['brier']:.3f}"])
    return rows


def format_rows(rows: Sequence[Sequence[str]]) -> str:
    """Rows as aligned text columns."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))] if rows else []
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)
