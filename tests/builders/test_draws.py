import random

import pytest

from mcqa_probes.builders.draws import below, sample, shuffle


def test_below_is_randrange_draw_for_draw():
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in [1, 2, 3, 5, 7, 8, 63, 64, 65, 1000, 2 ** 20 + 3]:
            assert [below(ours.getrandbits, n) for _ in range(50)] == [theirs.randrange(n) for _ in range(50)]
        assert ours.random() == theirs.random()        # the generators are left in the same state


def test_shuffle_is_random_shuffle_draw_for_draw():
    for seed in range(20):
        ours, theirs = random.Random(f"s{seed}"), random.Random(f"s{seed}")
        for size in [0, 1, 2, 5, 17, 64, 300]:
            mine, other = list(range(size)), list(range(size))
            shuffle(ours.getrandbits, mine)
            theirs.shuffle(other)
            assert mine == other
            assert sorted(mine) == list(range(size))
        assert ours.random() == theirs.random()



def test_sample_is_random_sample_draw_for_draw():
    for seed in range(20):
        ours, theirs = random.Random(f"k{seed}"), random.Random(f"k{seed}")
        # both of CPython's ways: a pool (small populations) and a set of places (large ones, k > 5 too)
        for size, k in [(0, 0), (1, 1), (3, 1), (3, 3), (5, 2), (21, 5), (22, 1), (22, 5), (40, 6), (40, 30),
                        (100, 7), (1000, 60)]:
            population = [f"x{i}" for i in range(size)]
            assert sample(ours.getrandbits, population, k) == theirs.sample(population, k), (size, k)
        assert ours.random() == theirs.random()


def test_sample_refuses_more_than_the_population():
    with pytest.raises(ValueError):
        sample(random.Random(1).getrandbits, [1, 2], 3)
