"""Calibration recomputed by hand on tiny records."""
import math

import pytest

from mcqa_probes.metrics.calibration import brier_score, calibration, expected_calibration_error, reliability
from mcqa_probes.metrics.item_records import item_record


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
