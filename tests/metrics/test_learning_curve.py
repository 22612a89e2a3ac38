import pytest

from mcqa_probes.metrics.learning_curve import (
    PAPER_SIZES,
    PAPER_WEIGHTS,
    language_sensitivity,
    max_score,
    mean_curve,
    summarize,
    weighted_score,
    weights_for,
)


def test_paper_weights_sum_to_one_and_match_sizes():
    assert len(PAPER_WEIGHTS) == len(PAPER_SIZES) == 7
    assert sum(PAPER_WEIGHTS) == pytest.approx(1.0)


def test_ws_and_max_on_a_hand_made_curve():
    curve = [50, 60, 70, 80, 90, 95, 100]
    # 0.23*50 + 0.2*60 + 0.17*70 + 0.14*80 + 0.11*90 + 0.08*95 + 0.07*100
    expected = 11.5 + 12 + 11.9 + 11.2 + 9.9 + 7.6 + 7.0
    assert weighted_score(curve) == pytest.approx(expected)
    assert max_score(curve) == 100
    assert weighted_score([0.5] * 7) == pytest.approx(0.5)


def test_short_curve_uses_first_weights_renormalised():
    assert weights_for(2) == pytest.approx([0.23 / 0.43, 0.2 / 0.43])
    assert weighted_score([40, 60]) == pytest.approx((0.23 * 40 + 0.2 * 60) / 0.43)
    with pytest.raises(ValueError):
        weights_for(8)
    assert weighted_score([1, 3], weights=[1, 1]) == pytest.approx(2)


def test_language_sensitivity_rounds_negative_differences_to_zero():
    full = [60, 70, 80, 90, 95, 98, 100]
    control = [50, 75, 80, 70, 95, 100, 50]
    differences = [10, 0, 0, 20, 0, 0, 50]
    assert language_sensitivity(full, control) == pytest.approx(0.23 * 10 + 0.14 * 20 + 0.07 * 50)
    assert language_sensitivity(full, control) == pytest.approx(weighted_score(differences))
    with pytest.raises(ValueError):
        language_sensitivity([1, 2], [1])


def test_mean_curve_and_summary():
    curve = mean_curve([(125, 0, 0.6), (62, 0, 0.5), (62, 1, 0.7), (125, 1, 0.8)])
    assert list(curve) == [62, 125]
    assert curve[62] == pytest.approx(0.6) and curve[125] == pytest.approx(0.7)
    summary = summarize(curve)
    assert summary["MAX"] == pytest.approx(0.7)
    assert summary["WS"] == pytest.approx((0.23 * 0.6 + 0.2 * 0.7) / 0.43)
