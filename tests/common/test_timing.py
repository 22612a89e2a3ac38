"""The benchmarks' ratios of measured times: unrounded, None only for a time of exactly 0."""
from mcqa_probes.common.timing import ratio, shown


def test_ratio_divides_and_is_none_only_for_a_zero_time():
    assert ratio(3.0, 0.004) == 3.0 / 0.004  # a few milliseconds stay a real speed-up, not 0.0 or None
    assert ratio(6, 0.0015) == 4000.0
    assert ratio(1.0, 0.0) is None and ratio(0.0, 0) is None
    assert ratio(0.0, 2.0) == 0.0


def test_shown_writes_none_as_n_a():
    assert shown(2.414, 2, "x") == "2.41x" and shown(None, 2, "x") == "n/a" and shown(12.34, 1) == "12.3"
