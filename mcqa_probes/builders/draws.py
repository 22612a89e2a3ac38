"""The random draws of the probe builders, made without :class:`random.Random`'s per-draw Python layers.

``below(getrandbits, n)`` is ``rng.randrange(n)``, ``shuffle(getrandbits, x)`` is ``rng.shuffle(x)`` and
``sample(getrandbits, x, k)`` is ``rng.sample(x, k)`` for ``getrandbits = rng.getrandbits``: the same
calls to the generator in the same order (CPython's ``_randbelow_with_getrandbits``), so a build
gives the same files, byte for byte, with either. A question takes a dozen draws or more, which made
these layers a tenth of the build; ``tests/builders/test_draws.py`` checks the equality on the
running Python.
"""
import math
from typing import Callable, List, Sequence

GetRandBits = Callable[[int], int]


def below(getrandbits: GetRandBits, n: int) -> int:
    """A uniform integer in ``[0, n)``, ``n > 0`` (``rng.randrange(n)``)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(getrandbits: GetRandBits, x: List) -> None:
    """Shuffle ``x`` in place (``rng.shuffle(x)``)."""
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def sample(getrandbits: GetRandBits, population: Sequence, k: int) -> List:
    """``k`` distinct members of ``population`` (``rng.sample(population, k)``): CPython's two ways,
    a pool for a small population, a set of taken places for a large one, draw for draw."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    result = [None] * k
    setsize = 21                              # as CPython sizes its small set
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = below(getrandbits, n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]         # move the last one into the place taken
    else:
        selected = set()
        for i in range(k):
            j = below(getrandbits, n)
            while j in selected:
                j = below(getrandbits, n)
            selected.add(j)
            result[i] = population[j]
    return result
