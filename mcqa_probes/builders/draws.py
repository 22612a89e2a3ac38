"""The random draws of the probe builders, made without :class:`random.Random`'s per-draw Python layers.

``below(getrandbits, n)`` is ``rng.randrange(n)`` and ``shuffle(getrandbits, x)`` is ``rng.shuffle(x)``
for ``getrandbits = rng.getrandbits``: the same calls to the generator in the same order (CPython's
``_randbelow_with_getrandbits``), so a build gives the same files, byte for byte, with either. A
question takes a dozen draws or more, which made these layers a tenth of the build;
``tests/builders/test_draws.py`` checks the equality on the running Python.
"""
from typing import Callable, List

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
