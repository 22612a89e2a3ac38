"""The one progress helper (issue 30.2): plain lines off a terminal, a tqdm bar on one, nothing when
quiet; the scoring loops report to the innermost open bar. No assertion on a time or a rate."""
import io
import re

from mcqa_probes.common import progress as progress_module
from mcqa_probes.common.progress import Progress, advance, current, expect, progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_plain_lines_off_a_terminal_name_the_work_and_count_questions():
    stream = io.StringIO()
    with progress("smollm2 / wordnetqa / hypernymy", file=stream) as bar:
        expect(5)
        advance(2)
        advance(3)
        assert current() is bar
    assert current() is None
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1  # the end line only: the next one would come a minute after the start
    assert re.fullmatch(r"smollm2 / wordnetqa / hypernymy: 5/5 questions(, [\d.]+ questions/s)?, \d+ s", lines[0])


def test_a_line_while_running_says_the_time_left_without_the_clock_deciding():
    stream = io.StringIO()
    bar = Progress("m / s / p", total=10, file=stream, interval=0)  # every advance may print
    bar.advance(4)
    line = stream.getvalue().splitlines()[0]
    assert line.startswith("m / s / p: 4/10 questions")
    assert bar.line(finished=False).startswith("m / s / p: 4/10 questions")


def test_quiet_writes_nothing_and_the_loops_report_to_no_bar_outside_one():
    stream = io.StringIO()
    with progress("m / s / p", total=3, quiet=True, file=stream):
        advance(3)
    advance(5)  # no bar open: goes nowhere
    expect(5)
    assert stream.getvalue() == ""


def test_given_total_wins_and_nested_bars_take_the_inner_work():
    stream = io.StringIO()
    with progress("outer", total=4, file=stream) as outer:
        expect(100)  # ignored: the opener knew the total
        advance(4)
        with progress("outer / inner", file=stream) as inner:
            expect(2)
            advance(2)
    assert (outer.total, outer.done, inner.total, inner.done) == (4, 4, 2, 2)
    assert [line.split(":")[0] for line in stream.getvalue().splitlines()] == ["outer / inner", "outer"]


def test_a_terminal_gets_a_tqdm_bar_on_that_stream():
    stream = Terminal()
    with progress("m / s / p", total=3, file=stream) as bar:
        assert bar.bar is not None
        advance(3)
    assert "m / s / p" in stream.getvalue() and "3/3" in stream.getvalue()


def test_the_default_stream_is_stderr_taken_when_opened(capsys):
    with progress("m / s / p", total=1):
        advance(1)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("m / s / p: 1/1 questions")
    assert progress_module.PLAIN_INTERVAL == 60.0
