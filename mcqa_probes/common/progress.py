"""Progress on long work: the one helper every long command shows its progress with.

:func:`progress` opens a bar for a piece of work (``with progress("smollm2 / wordnetqa / hypernymy"):``);
the scoring loops (:mod:`mcqa_probes.training.evaluation`) report to the innermost open bar with
:func:`expect` (how many questions they are about to score) and :func:`advance` (how many they have
scored), so a command opens a bar where it knows what the work is called and the loop counts it.
No bar open: the loops' reports go nowhere.

* On a terminal: a tqdm bar on stderr -- questions done / total, questions per second, time left.
* Elsewhere (a log file, a pipe, a test): one plain line a minute at most while it runs and one when
  it ends, e.g. ``smollm2 / wordnetqa / hypernymy: 120/200 questions, 3.2 questions/s, about 25 s left``.
* ``quiet``: nothing.

The total is the one given to :func:`progress`, else the sum of what the loops :func:`expect` (a
question scored under several prompts -- a causal LM's normalisations and choice-only control --
counts once per prompt). Plain Python; tqdm is imported when a bar is drawn.
"""
import contextlib
import contextvars
import sys
import time
from typing import Iterator, List, Optional, TextIO

#: seconds between two plain lines when stderr is not a terminal
PLAIN_INTERVAL = 60.0

_open: contextvars.ContextVar[List["Progress"]] = contextvars.ContextVar("mcqa_probes_progress", default=[])


class Progress:
    """One bar (or its plain lines); see the module docstring. Use :func:`progress` to open one."""

    def __init__(self, desc: str, total: Optional[int] = None, quiet: bool = False, file: Optional[TextIO] = None,
                 unit: str = "question", interval: float = PLAIN_INTERVAL) -> None:
        self.desc, self.unit, self.quiet, self.interval = desc, unit, quiet, interval
        self.file = file if file is not None else sys.stderr  # taken now: a scoring loop may redirect stderr
        self.fixed_total = total is not None
        self.total = total or 0
        self.done = 0
        self.started = self.last_line = time.monotonic()
        self.bar = None
        if not quiet and _is_terminal(self.file):
            from tqdm import tqdm  # lazy: drawn only on a terminal

            self.bar = tqdm(total=total, desc=desc, unit=unit, file=self.file, dynamic_ncols=True, leave=True)

    def expect(self, count: int) -> None:
        """``count`` more questions are coming (ignored when the total was given when opened)."""
        if self.fixed_total:
            return
        self.total += count
        if self.bar is not None:
            self.bar.total = self.total
            self.bar.refresh()

    def advance(self, count: int) -> None:
        """``count`` more questions scored."""
        self.done += count
        if self.bar is not None:
            self.bar.update(count)
        elif not self.quiet and time.monotonic() - self.last_line >= self.interval:
            self._line(finished=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif not self.quiet and self.done:
            self._line(finished=True)

    def line(self, finished: bool = False) -> str:
        """The plain line: done / total, rate, time left (or taken, once finished)."""
        seconds = time.monotonic() - self.started
        rate = self.done / seconds if seconds > 0 else None
        text = f"{self.desc}: {self.done}" + (f"/{self.total}" if self.total else "") + f" {self.unit}s"
        if rate:
            text += f", {rate:.1f} {self.unit}s/s"
        if finished:
            return text + f", {seconds:.0f} s"
        if rate and self.total > self.done:
            text += f", about {(self.total - self.done) / rate:.0f} s left"
        return text

    def _line(self, finished: bool) -> None:
        print(self.line(finished), file=self.file, flush=True)
        self.last_line = time.monotonic()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def progress(desc: str, total: Optional[int] = None, quiet: bool = False, file: Optional[TextIO] = None,
             unit: str = "question") -> Iterator[Progress]:
    """Open a bar named ``desc`` (e.g. ``model / section / probe``) for the block: the scoring loops
    inside it report to it. ``total``: the questions of the block, if known (else what the loops
    :func:`expect`); ``quiet``: show nothing; ``file``: default stderr."""
    bar = Progress(desc, total, quiet, file, unit)
    token = _open.set(_open.get() + [bar])
    try:
        yield bar
    finally:
        _open.reset(token)
        bar.close()


def current() -> Optional[Progress]:
    """The innermost open bar, or None."""
    bars = _open.get()
    return bars[-1] if bars else None


def expect(count: int) -> None:
    """What a scoring loop calls before it scores ``count`` questions."""
    bar = current()
    if bar is not None:
        bar.expect(count)


def advance(count: int) -> None:
    """What a scoring loop calls after it scored ``count`` questions."""
    bar = current()
    if bar is not None:
        bar.advance(count)


__all__ = ["PLAIN_INTERVAL", "Progress", "advance", "current", "expect", "progress"]
