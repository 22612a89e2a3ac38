"""Calibration of a model's choice probabilities (plain Python + numpy: no torch), from item records.

For each question the model's confidence is the probability of the choice it picks (the softmax over
the choices' scores under the record's primary prompt: :mod:`mcqa_probes.metrics.item_records`), and
it is right or wrong.

* **Expected calibration error** (ECE) with **equal-mass bins**: the questions sorted by confidence
  (ties in file order) are cut into ``bins`` groups of as equal size as possible (``numpy.array_split``:
  the first ``n mod bins`` groups have one more); ECE = sum over bins of (bin size / n) x |accuracy
  in the bin - mean confidence in the bin|. Equal-mass bins are never empty and each holds ~n/bins
  questions, unlike equal-width bins where an overconfident model puts almost every question in the
  last bin. 0 = calibrated; it is biased upwards on few questions (each bin's accuracy is noisy).
* **Brier score** (multi-class): the mean over questions of sum over choices of (p_k - [k = gold])^2;
  0 is perfect, 1 - 1/K is uniform guessing among K choices, 2 the worst.
* The **reliability diagram** is :func:`reliability` (mean confidence, accuracy and size per bin),
  drawn by :func:`mcqa_probes.reports.figures.reliability_diagram`.

Every function takes ``prompt`` to read another prompt than each record's primary one.
:func:`calibration_report` is what the pages show: the primary prompt's calibration and, where PriDe
was run (a causal LM's lettered prompt asked under every cyclic rotation: the records carry
``letters/pride/rot<r>``, :func:`mcqa_probes.metrics.item_records.add_pride_prompts`), the lettered
prompt's calibration before (``letters/rot0``, the raw softmax over the letters' scores) and after the
letter prior is removed (``letters/pride/rot0``), on the same questions.
"""
from typing import Any, Dict, List, Mapping, Optional, Sequence

import numpy

from mcqa_probes.metrics.item_records import letters_prompt, pride_prompt

#: bins of the expected calibration error and the reliability diagram
BINS = 10


def _prompt(record: Mapping[str, Any], prompt: Optional[str]) -> str:
    return record["primary"] if prompt is None else prompt


def confidences(records: Sequence[Mapping[str, Any]], prompt: Optional[str] = None) -> List[float]:
    """The probability of the chosen choice, per record (under ``prompt``; default each record's primary)."""
    return [float(r["probabilities"][_prompt(r, prompt)][r["chosen"][_prompt(r, prompt)]]) for r in records]


def reliability(records: Sequence[Mapping[str, Any]], prompt: Optional[str] = None,
                bins: int = BINS) -> List[Dict[str, float]]:
    """Equal-mass bins of the records with a gold answer: per bin ``count``, ``confidence`` (mean),
    ``accuracy`` and the confidence range ``low`` / ``high``, lowest confidence first."""
    records = [r for r in records if r["gold"] is not None]
    if not records:
        return []
    confidence = numpy.asarray(confidences(records, prompt), dtype=float)
    right = numpy.asarray([bool(r["correct"][_prompt(r, prompt)]) for r in records], dtype=float)
    order = numpy.argsort(confidence, kind="stable")
    result = []
    for part in numpy.array_split(order, min(bins, len(records))):
        result.append({"count": int(len(part)), "confidence": float(confidence[part].mean()),
                       "accuracy": float(right[part].mean()), "low": float(confidence[part].min()),
                       "high": float(confidence[part].max())})
    return result


def expected_calibration_error(records: Sequence[Mapping[str, Any]], prompt: Optional[str] = None,
                               bins: int = BINS) -> float:
    """ECE over equal-mass bins (see the module docstring); NaN for no record with a gold answer."""
    table = reliability(records, prompt, bins)
    total = sum(b["count"] for b in table)
    if not total:
        return float("nan")
    return float(sum(b["count"] / total * abs(b["accuracy"] - b["confidence"]) for b in table))


def brier_score(records: Sequence[Mapping[str, Any]], prompt: Optional[str] = None) -> float:
    """Multi-class Brier score (see the module docstring); NaN for no record with a gold answer."""
    values = []
    for record in records:
        if record["gold"] is None:
            continue
        probabilities = record["probabilities"][_prompt(record, prompt)]
        values.append(sum((p - (k == record["gold"])) ** 2 for k, p in enumerate(probabilities)))
    return float(numpy.mean(values)) if values else float("nan")


def calibration(records: Sequence[Mapping[str, Any]], prompt: Optional[str] = None, bins: int = BINS) -> Dict[str, Any]:
    """``questions``, ``accuracy``, ``confidence`` (mean), ``ece``, ``brier`` and the ``bins`` of the diagram."""
    labelled = [r for r in records if r["gold"] is not None]
    table = reliability(labelled, prompt, bins)
    return {
        "questions": len(labelled),
        "accuracy": float(numpy.mean([r["correct"][_prompt(r, prompt)] for r in labelled])) if labelled else float("nan"),
        "confidence": float(numpy.mean(confidences(labelled, prompt))) if labelled else float("nan"),
        "ece": expected_calibration_error(labelled, prompt, bins),
        "brier": brier_score(labelled, prompt),
        "bins": table,
    }


def calibration_report(records: Sequence[Mapping[str, Any]], bins: int = BINS) -> Dict[str, Any]:
    """:func:`calibration` under each record's primary prompt, with ``prompt`` (the primary prompt's
    name; names joined by ", " when the records differ) and, when some records carry the PriDe-debiased
    lettered prompt, ``pride``: ``{"raw_prompt": "letters/rot0", "prompt": "letters/pride/rot0",
    "raw": calibration, "debiased": calibration}`` over the labelled records that have both."""
    labelled = [r for r in records if r["gold"] is not None]
    result = calibration(labelled, bins=bins)
    result["prompt"] = ", ".join(dict.fromkeys(r["primary"] for r in labelled))
    raw, debiased = letters_prompt(0), pride_prompt(0)
    both = [r for r in labelled if raw in r["probabilities"] and debiased in r["probabilities"]]
    if both:
        result["pride"] = {"raw_prompt": raw, "prompt": debiased, "raw": calibration(both, raw, bins),
                           "debiased": calibration(both, debiased, bins)}
    return result


def calibration_rows(report: Mapping[str, Any]) -> List[tuple]:
    """``(prompt, calibration)`` rows of one :func:`calibration_report`: the primary prompt's, then, where
    PriDe was run, the lettered prompt's raw one (unless it is the primary prompt over the same
    questions) and its PriDe-debiased one (what the card and ``bin/probe_compare`` show)."""
    rows = [(report.get("prompt") or "primary", report)]
    pride = report.get("pride")
    if pride:
        if pride["raw_prompt"] != report.get("prompt") or pride["raw"]["questions"] != report["questions"]:
            rows.append((pride["raw_prompt"], pride["raw"]))     # not twice when it is the primary prompt
        rows.append((f"{pride['prompt']} (PriDe)", pride["debiased"]))
    return rows

