import math

from mcqa_probes.metrics.probe_records import chance_level


def test_chance_level_is_the_exact_mean_of_one_over_the_number_of_choices():
    # summed one by one, a hundred 1/5 give 0.19999999999999962 and 300 1/3 give 0.3333333333333322
    assert chance_level([5] * 100) == 0.2
    assert chance_level([5] * 10_000) == 0.2
    # fsum of n times 1/5, divided by n, gives 0.20000000000000004 for some n (71: a probe's test split)
    assert all(chance_level([5] * n) == 0.2 for n in range(1, 400))
    assert chance_level([3] * 300) == 1 / 3
    assert chance_level(iter([2, 4])) == 0.375                  # any iterable, mixed sizes
    assert math.isnan(chance_level([]))
