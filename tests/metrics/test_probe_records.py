import math

from mcqa_probes.metrics.probe_records import chance_level


def test_chance_level_is_the_exact_mean_of_one_over_the_number_of_choices():
    # summed one by one, a hundred 1/5 give 0.19999999999999962 and 300 1/3 give 0.3333333333333322
    assert chance_level([5] * 100) == 0.2
    assert chance_level([5] * 10_000) == 0.2
    assert chance_level([3] * 300) == 1 / 3
    assert chance_level(iter([2, 4])) == 0.375                  # any iterable, mixed sizes
    assert math.isnan(chance_level([]))
