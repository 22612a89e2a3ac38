"""Pausing Python's cyclic garbage collector around work that allocates many objects none of which
is garbage (reading a dataset into instances, generating probe questions), the one home of it.

Each collection of the oldest generation traverses every live container, so a loop that keeps
what it allocates (tokens and fields per question, dicts per probe question) pays again and again
for the objects it already made: a third of the reading time of a dataset, a sixth of a probe build.
Reference counting still frees everything that is not in a cycle while the collector is paused.
"""
import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block; the collector's previous state after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


__all__ = ["collector_paused"]
