"""Rates and speed-ups of measured times, the one way every benchmark reports them.

Times are reported unrounded (a few questions on a tiny model take milliseconds: rounded to
hundredths they would read 0.0). A ratio over a time is None only when that time is exactly 0,
i.e. when the clock was too coarse to see the work, never a division error. Plain Python.
"""
from typing import Optional


def ratio(numerator: float, denominator: float) -> Optional[float]:
    """``numerator / denominator`` (a speed-up ``theirs / ours``, or a rate ``count / seconds``);
    None only when ``denominator`` is exactly 0."""
    return numerator / denominator if denominator else None


def shown(value: Optional[float], digits: int = 2, suffix: str = "") -> str:
    """A ratio as text (``shown(2.414, 2, "x")`` is ``2.41x``); ``n/a`` for None (a time of exactly 0)."""
    return "n/a" if value is None else f"{value:.{digits}f}{suffix}"


__all__ = ["ratio", "shown"]
