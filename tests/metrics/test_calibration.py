"""Calibration recomputed by hand on tiny records."""
import math

import numpy
import pytest

from mcqa_probes.metrics.calibration import (
    brier_score, calibration, calibration_report, expected_calibration_error, reliability,
)
from mcqa_probes.metrics.item_records import item_record
from tests.metrics.test_item_records import pride_by_numpy, pride_case


def record(i, probabilities, gold):
    metadata = {"id": f"q{i}", "question": "?", "choices": [str(k) for k in range(len(probabilities))],
                "answer_index": gold}
    return item_record("m", "s", "p", metadata, {"mcqa": [math.log(p) for p in probabilities]}, "mcqa")


# confidences 0.9 (right), 0.6 (wrong), 0.5 (right), 0.8 (right), 0.7 (wrong)
RECORDS = [record(0, [0.9, 0.1], 0), record(1, [0.6, 0.4], 1), record(2, [0.5, 0.3, 0.2], 0),
           record(3, [0.1, 0.8, 0.1], 1), record(4, [0.3, 0.7], 0)]


def test_equal_mass_bins_and_ece_by_hand():
    bins = reliability(RECORDS, bins=2)
    # sorted by confidence: 0.5 (R), 0.6 (W), 0.7 (W) | 0.8 (R), 0.9 (R)
    assert [b["count"] for b in bins] == [3, 2]
    assert bins[0]["confidence"] == pytest.approx(0.6) and bins[0]["accuracy"] == pytest.approx(1 / 3)
    assert bins[1]["confidence"] == pytest.approx(0.85) and bins[1]["accuracy"] == 1.0
    assert expected_calibration_error(RECORDS, bins=2) == pytest.approx(3 / 5 * abs(1 / 3 - 0.6) + 2 / 5 * 0.15)
    # one bin per question: the mean of |right - confidence|
    assert expected_calibration_error(RECORDS, bins=5) == pytest.approx((0.1 + 0.6 + 0.5 + 0.2 + 0.7) / 5)


def test_brier_by_hand():
    by_hand = [(0.9 - 1) ** 2 + 0.1 ** 2, 0.6 ** 2 + (0.4 - 1) ** 2, (0.5 - 1) ** 2 + 0.3 ** 2 + 0.2 ** 2,
               0.1 ** 2 + (0.8 - 1) ** 2 + 0.1 ** 2, (0.3 - 1) ** 2 + 0.7 ** 2]
    assert brier_score(RECORDS) == pytest.approx(sum(by_hand) / 5)
    summary = calibration(RECORDS, bins=2)
    assert summary["questions"] == 5 and summary["accuracy"] == pytest.approx(0.6)
    assert summary["confidence"] == pytest.approx(0.7)
    assert summary["brier"] == pytest.approx(sum(by_hand) / 5)


def numpy_calibration(probabilities, golds, bins):
    """ECE over equal-mass bins (the questions sorted by confidence, cut in ``bins`` groups of equal size)
    and the multi-class Brier score, recomputed with numpy from the probabilities alone."""
    probabilities, golds = numpy.asarray(probabilities), numpy.asarray(golds)
    confidence = probabilities.max(axis=1)
    right = (probabilities.argmax(axis=1) == golds).astype(float)
    order = numpy.argsort(confidence, kind="stable")
    groups = order.reshape(bins, -1)  # equal sizes here: len(golds) is a multiple of bins
    ece = sum(len(g) / len(golds) * abs(right[g].mean() - confidence[g].mean()) for g in groups)
    brier = ((probabilities - numpy.eye(probabilities.shape[1])[golds]) ** 2).sum(axis=1).mean()
    return ece, brier


def test_pride_calibration_beside_the_raw_one_recomputed_with_numpy():
    records, shown, golds = pride_case()
    debiased, _ = pride_by_numpy(shown)
    raw = numpy.exp(shown[:, 0]) / numpy.exp(shown[:, 0]).sum(axis=1, keepdims=True)  # rotation 0: the file's order
    report = calibration_report(records, bins=4)
    assert report["prompt"] == "letters/rot0" and report["questions"] == 9  # the primary: every record
    pride = report["pride"]
    assert (pride["raw_prompt"], pride["prompt"]) == ("letters/rot0", "letters/pride/rot0")
    assert pride["raw"]["questions"] == pride["debiased"]["questions"] == 8  # the questions asked under every rotation
    for name, probabilities in (("raw", raw), ("debiased", debiased[:, 0])):
        ece, brier = numpy_calibration(probabilities, golds, bins=4)
        assert pride[name]["ece"] == pytest.approx(ece, abs=1e-12), name
        assert pride[name]["brier"] == pytest.approx(brier, abs=1e-12), name
        assert pride[name]["accuracy"] == pytest.approx(numpy.mean(probabilities.argmax(axis=1) == golds))
    assert pride["debiased"]["ece"] != pytest.approx(pride["raw"]["ece"])  # removing the prior moves it
    assert "pride" not in calibration_report(RECORDS)  # no rotations, no PriDe


def test_calibration_rows_show_the_raw_lettered_prompt_once():
    from mcqa_probes.metrics.calibration import calibration_rows

    raw = {"questions": 4, "ece": 0.5}
    debiased = {"questions": 4, "ece": 0.1}
    pride = {"raw_prompt": "letters/rot0", "prompt": "letters/pride/rot0", "raw": raw, "debiased": debiased}
    primary_letters = dict(raw, prompt="letters/rot0", pride=pride)
    assert [name for name, _ in calibration_rows(primary_letters)] == ["letters/rot0", "letters/pride/rot0 (PriDe)"]
    primary_cloze = {"questions": 6, "ece": 0.3, "prompt": "cloze/sum", "pride": pride}
    rows = calibration_rows(primary_cloze)
    assert [name for name, _ in rows] == ["cloze/sum", "letters/rot0", "letters/pride/rot0 (PriDe)"]
    assert rows[1][1] is raw and rows[2][1] is debiased
    assert [name for name, _ in calibration_rows({"questions": 2, "prompt": "mcqa"})] == ["mcqa"]
