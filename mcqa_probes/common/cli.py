"""How every command fails: one home for the error line, the exit status and ``--debug``.

Every ``bin/`` command ends with ``raise SystemExit(run(main))`` and ``allennlp probe-report``
calls its work through :func:`call`, so that what the user sees when something goes wrong is
the same everywhere:

* **bad input** (a missing or unreadable file, a malformed line, a value out of range, a bad
  configuration): ONE line on stderr, ``error: <what, where, what was expected>``, and exit
  status 2. These are :class:`ValueError` (so :class:`InputError`, ``McqaFormatError`` and every
  reader's error), :class:`OSError` (``FileNotFoundError``, the resources' ``MissingResourceError``,
  a permission or a model directory transformers cannot read) and allennlp's
  ``ConfigurationError``. Argument errors are argparse's own (usage line, then
  ``PROG: error: ...``, exit status 2), as for every allennlp subcommand.
* **a bug** (any other exception): the traceback, then ``error: internal error: <type>: <message>``
  and exit status 1.
* **a stop** (Ctrl-C, SIGTERM): one ``interrupted`` line and exit status 128 + the signal
  (130 for SIGINT, 143 for SIGTERM); a grid says what it kept (:class:`Interrupted`).

allennlp's own subcommands (``train``, ``evaluate``, ``predict``, ...) end the same way: the plugin
calls :func:`report_uncaught_errors` when the ``allennlp`` command runs, so an error they do not
catch is reported by :func:`report` too (``MCQA_DEBUG=1`` for the traceback).

``--debug`` anywhere on the command line (taken out before the command parses it) or
``MCQA_DEBUG=1`` in the environment prints the full traceback of every error too.

Plain Python: no torch / allennlp import (allennlp's ``ConfigurationError`` is recognised by
name, only when allennlp is already loaded).
"""
import argparse
import atexit
import contextlib
import json
import os
import select
import signal
import sys
import threading
import traceback
from pathlib import Path
from typing import Any, Callable, Iterator, List, Optional, Sequence, TextIO, Tuple

from mcqa_probes.common.io import holds_lines

DEBUG_FLAG = "--debug"
DEBUG_VARIABLE = "MCQA_DEBUG"
#: exit statuses
OK, INTERNAL_ERROR, BAD_INPUT = 0, 1, 2
#: model archive suffixes: an argument ending so is a path, never a model name
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz")


class InputError(ValueError):
    """Bad input a command detected itself; the message says what, where and what was expected."""


class Interrupted(KeyboardInterrupt):
    """The command was stopped by a signal (SIGINT or SIGTERM, see :func:`stop_on_signals`);
    the message (if any) says what was kept. Exit status 128 + the signal's number."""

    def __init__(self, signum: int = signal.SIGINT, message: Optional[str] = None):
        self.signum = int(signum)
        self.message = message or f"stopped by {signal_name(self.signum)}"
        super().__init__(self.message)

    @property
    def exit_status(self) -> int:
        return 128 + self.signum

    def __str__(self) -> str:
        return self.message


def say_line(message: str, stream: Optional[TextIO] = None) -> None:
    """Write ``message`` and its newline to ``stream`` (stdout) in one ``write`` call on its file, so that
    the lines of processes writing side by side (a build's forked workers) stay whole lines: ``print``
    writes the text and the newline apart, and two workers' notes ran into one line."""
    stream = sys.stdout if stream is None else stream
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):      # no file under it (a test's captured stream)
        stream.write(message + "\n")
        stream.flush()
        return
    stream.flush()
    data = (message + "\n").encode(getattr(stream, "encoding", None) or "utf-8", "replace")
    while data:
        data = data[os.write(descriptor, data):]


def signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


# ---------------------------------------------------------------------------- running a command
def debug_wanted(argv: Optional[Sequence[str]] = None) -> bool:
    """True with ``--debug`` in ``argv`` or ``MCQA_DEBUG`` set to anything but ''/0/false/no."""
    if argv is not None and DEBUG_FLAG in _options(argv):
        return True
    return os.environ.get(DEBUG_VARIABLE, "").strip().lower() not in ("", "0", "false", "no", "off")


def _options(argv: Sequence[str]) -> List[str]:
    """The arguments before a ``--`` (after it everything is positional)."""
    argv = list(argv)
    return argv[: argv.index("--")] if "--" in argv else argv


def split_debug(argv: Sequence[str]) -> Tuple[List[str], bool]:
    """``argv`` without ``--debug`` (before any ``--``), and whether it was there."""
    argv = list(argv)
    end = argv.index("--") if "--" in argv else len(argv)
    kept = [a for a in argv[:end] if a != DEBUG_FLAG] + argv[end:]
    return kept, len(kept) != len(argv)


def run(main: Callable[[List[str]], Optional[int]], argv: Optional[Sequence[str]] = None) -> int:
    """The exit status of a ``bin/`` command: ``main(argv)`` (default ``sys.argv[1:]``, less
    ``--debug``) with its errors reported as the module docstring says. Use it as
    ``raise SystemExit(run(main))``."""
    argv, debug = split_debug(sys.argv[1:] if argv is None else argv)
    return call(main, argv, debug=debug)


def call(function: Callable[..., Optional[int]], *args: Any, debug: bool = False, **kwargs: Any) -> int:
    """``function(*args, **kwargs)``'s status (None counts as 0), or the status of the error it
    raised, reported on stderr (:func:`report`). ``SystemExit`` (argparse, ``--help``) passes."""
    try:
        status = function(*args, **kwargs)
    except SystemExit:
        raise
    except BaseException as error:  # noqa: B902 - every error ends as a line and a status
        return report(error, debug=debug or debug_wanted())
    return OK if status is None else int(status)


def is_bad_input(error: BaseException) -> bool:
    """Bad input or a missing / unreadable resource, as opposed to a bug (see the module docstring)."""
    return isinstance(error, (ValueError, OSError)) or _is_configuration_error(error)


def _is_configuration_error(error: BaseException) -> bool:
    checks = sys.modules.get("allennlp.common.checks")
    return checks is not None and isinstance(error, getattr(checks, "ConfigurationError", ()))


def _is_allennlp_sigterm(error: BaseException) -> bool:
    """allennlp's command line turns SIGTERM into ``SigTermReceived`` (``install_sigterm_handler``)."""
    util = sys.modules.get("allennlp.common.util")
    return util is not None and isinstance(error, getattr(util, "SigTermReceived", ()))


def message_of(error: BaseException) -> str:
    """The error's text on one line (an OS error as ``<file>: <reason>``)."""
    if isinstance(error, FileExistsError) and error.filename is not None and os.path.isfile(error.filename):
        # a directory to write in (an --out, mkdir) that is a file: say so, not only "File exists"
        text = f"{error.filename}: a file, not a directory (expected a directory to write in)"
    elif isinstance(error, OSError) and error.filename is not None and error.strerror:
        text = f"{error.filename}: {error.strerror}"
        if error.filename2 is not None:
            text += f" ({error.filename2})"
    else:
        text = str(error)
    text = " ".join(line.strip() for line in text.splitlines() if line.strip())
    return text or type(error).__name__


def report(error: BaseException, debug: bool = False, stream: Optional[TextIO] = None) -> int:
    """Print what the user needs about ``error`` and return the exit status."""
    stream = stream or sys.stderr
    if isinstance(error, KeyboardInterrupt) or _is_allennlp_sigterm(error):
        if debug:
            traceback.print_exception(type(error), error, error.__traceback__, file=stream)
        if isinstance(error, Interrupted):
            print(f"interrupted: {error.message}", file=stream, flush=True)
            return error.exit_status
        if isinstance(error, KeyboardInterrupt):
            print("interrupted", file=stream, flush=True)
            return 128 + signal.SIGINT
        print(f"interrupted: stopped by {signal_name(signal.SIGTERM)}", file=stream, flush=True)
        return 128 + signal.SIGTERM
    if isinstance(error, BrokenPipeError) and _stdout_closed():
        return 128 + signal.SIGPIPE  # `command | head`: the reader left, nothing to say
    if is_bad_input(error):
        if debug:
            traceback.print_exception(type(error), error, error.__traceback__, file=stream)
        print(f"error: {message_of(error)}", file=stream, flush=True)
        return BAD_INPUT
    traceback.print_exception(type(error), error, error.__traceback__, file=stream)
    print(f"error: internal error: {type(error).__name__}: {message_of(error)} "
          f"(a bug: the traceback above says where)", file=stream, flush=True)
    return INTERNAL_ERROR


def is_allennlp_command(argv0: Optional[str] = None) -> bool:
    """Whether this process is the ``allennlp`` command (the console script or ``python -m allennlp``)."""
    path = Path(sys.argv[0] if argv0 is None else argv0)
    return path.name == "allennlp" or (path.name == "__main__.py" and path.parent.name == "allennlp")


def report_uncaught_errors() -> None:
    """From now on an exception nothing catches ends this process as :func:`report` says (one
    ``error:`` line and status 2 for bad input; the traceback and status 1 for a bug; ``interrupted``
    and 128 + the signal for a stop) instead of Python's traceback and status 1. For commands whose
    main loop is not ours (allennlp's subcommands); the exit handlers run before the process ends."""
    sys.excepthook = _report_and_exit


def _report_and_exit(error_type, error, error_traceback) -> None:
    if error is None:
        error = error_type()
    if error.__traceback__ is None:
        error = error.with_traceback(error_traceback)
    _log_to_files(error)
    status = report(error, debug=debug_wanted())
    with contextlib.suppress(Exception):
        atexit._run_exitfuncs()  # what a normal exit would run (allennlp removes extracted archives so)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)  # an excepthook cannot choose the exit status otherwise


def _log_to_files(error: BaseException) -> None:
    """The traceback into the log files of the root logger (allennlp train's ``out.log``), as
    allennlp's own hook would write it; the terminal gets :func:`report`'s line."""
    import logging  # lazy: only when a command ends on an error

    root = logging.getLogger()
    files = [handler for handler in root.handlers if isinstance(handler, logging.FileHandler)]
    if not files:
        return
    record = root.makeRecord(root.name, logging.CRITICAL, __file__, 0, "Uncaught exception", (),
                             (type(error), error, error.__traceback__))
    for handler in files:
        with contextlib.suppress(Exception):
            handler.handle(record)


def _stdout_closed() -> bool:
    """True when stdout is a pipe whose reader has gone; stdout then goes to /dev/null, so that
    Python's final flush does not complain. The write that failed may have emptied the buffer, so
    a flush that passes is not the answer: the pipe itself is asked (``poll`` gives ``POLLERR`` on
    a pipe with no reader)."""
    try:
        sys.stdout.flush()
        closed = False
    except BrokenPipeError:
        closed = True
    except (OSError, ValueError):
        return False
    if not closed:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            poller = select.poll()
            poller.register(sys.stdout.fileno(), select.POLLOUT)
            closed = any(events & select.POLLERR for _, events in poller.poll(0))
    if closed:
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
    return closed


# ---------------------------------------------------------------------------- signals
class SignalStop:
    """What :func:`stop_on_signals` yields: ``install()`` puts the handler back after code that
    replaces it (``ray.init`` installs its own SIGTERM handler); ``signum`` is the signal that
    stopped the block (None while none came)."""

    def __init__(self, signals: Sequence[int]):
        self.signals = tuple(signals)
        self.signum: Optional[int] = None
        self.previous = {}

    def handler(self, signum, _frame) -> None:
        if self.signum is not None:  # already stopping (cleaning up): a repeat is ignored
            return
        self.signum = signum
        raise Interrupted(signum)

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # signal handlers belong to the main thread: a worker thread leaves them alone
        for signum in self.signals:
            previous = signal.signal(signum, self.handler)
            self.previous.setdefault(signum, previous)

    def restore(self) -> None:
        for signum, previous in self.previous.items():
            # None: the previous handler was not installed from Python (ray's): the default then
            signal.signal(signum, previous if previous is not None else signal.SIG_DFL)
        self.previous = {}


@contextlib.contextmanager
def stop_on_signals(signals: Sequence[int] = (signal.SIGINT, signal.SIGTERM)) -> Iterator[SignalStop]:
    """Within the block, SIGINT and SIGTERM raise :class:`Interrupted` (a ``KeyboardInterrupt``)
    in the main thread, once: a repeat while the block cleans up is ignored. The previous
    handlers come back when the block ends. Outside the main thread this does nothing."""
    stop = SignalStop(signals)
    stop.install()
    try:
        yield stop
    finally:
        stop.restore()


# ---------------------------------------------------------------------------- early checks
def looks_like_path(argument: str) -> bool:
    """Whether a MODEL-like argument (a path, or a model name such as ``roberta-large`` or
    ``org/name``) is meant as a local path: absolute, ``./``, ``../`` or ``~``, an archive name,
    deeper than ``org/name``, or under a directory that exists here."""
    if "://" in argument:
        return False
    if argument.startswith(("/", "./", "../", "~", ".\\")) or argument.endswith(ARCHIVE_SUFFIXES):
        return True
    parts = Path(argument).parts
    return len(parts) > 2 or (len(parts) == 2 and Path(parts[0]).is_dir())


def number_list(kind: Callable[[str], Any] = int, minimum: Optional[float] = None,
                distinct: bool = True) -> Callable[[str], List[Any]]:
    """An argparse ``type``: a comma-separated list of ``kind`` (``1,,2`` is 1 and 2), at least one,
    each ``>= minimum`` when given and, with ``distinct``, each once (a grid value given twice would
    be run and counted twice); a bad list is argparse's one-line error naming the option."""
    name = "integers (e.g. 100,250)" if kind is int else "numbers (e.g. 1e-5,2e-5)"

    def parse(text: str) -> List[Any]:
        try:
            values = [kind(part) for part in text.split(",") if part.strip()]
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: expected comma-separated {name}") from None
        if not values:
            raise argparse.ArgumentTypeError(f"{text!r}: no values; expected comma-separated {name}")
        if minimum is not None and min(values) < minimum:
            raise argparse.ArgumentTypeError(f"{text!r}: {min(values):g} is below {minimum:g}; expected values "
                                             f">= {minimum:g}")
        if distinct and len(set(values)) < len(values):
            raise argparse.ArgumentTypeError(f"{text!r}: a value given twice (it would be run, and counted, twice); "
                                             "expected each value once")
        return values
    return parse


def json_object(text: str) -> dict:
    """An argparse ``type``: a JSON object (``--overrides '{"trainer": {"num_epochs": 2}}'``)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"{text!r}: not JSON ({error.msg} at character {error.pos + 1}); expected "
                                         "a JSON object such as '{\"trainer\": {\"num_epochs\": 2}}'") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"{text!r}: a JSON {type(value).__name__}; expected a JSON object such as "
                                         "'{\"trainer\": {\"num_epochs\": 2}}'")
    return value


def positive(text: str) -> int:
    """An argparse ``type``: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected an integer >= 1") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: expected an integer >= 1")
    return value


def require_file(path: Any, what: str, option: Optional[str] = None) -> None:
    """An :class:`InputError` unless ``path`` is a file: ``[OPTION ]PATH: no such file (expected WHAT)``."""
    _require(path, what, option, Path.is_file, "file")


def require_questions(path: Any, what: str, option: Optional[str] = None) -> None:
    """:func:`require_file`, and an :class:`InputError` when the file holds no line but blank ones (a
    probe's empty split): ``[OPTION ]PATH: no question in the file ...``, before any work starts."""
    require_file(path, what, option)
    if not holds_lines(os.path.expanduser(str(path))):
        where = f"{option} {path}" if option else str(path)
        raise InputError(f"{where}: no question in the file (it is empty or has only blank lines); leave it out")


def require_directory(path: Any, what: str, option: Optional[str] = None) -> None:
    """An :class:`InputError` unless ``path`` is a directory."""
    _require(path, what, option, Path.is_dir, "directory")


def require_output_directory(path: Any, what: str, option: Optional[str] = None) -> None:
    """An :class:`InputError` when ``path`` exists and is not a directory (a directory to write in that
    need not exist yet): ``[OPTION ]PATH: a file, not a directory (expected WHAT)``, before any work."""
    resolved = Path(os.path.expanduser(str(path)))
    if resolved.exists() and not resolved.is_dir():
        where = f"{option} {path}" if option else str(path)
        raise InputError(f"{where}: a file, not a directory (expected {what})")


def require_path(path: Any, what: str, option: Optional[str] = None) -> None:
    """An :class:`InputError` unless ``path`` exists (a file or a directory)."""
    _require(path, what, option, Path.exists, "file or directory")


def _require(path: Any, what: str, option: Optional[str], test: Callable[[Path], bool], kind: str) -> None:
    resolved = Path(os.path.expanduser(str(path)))
    if test(resolved):
        return
    where = f"{option} {path}" if option else str(path)
    if resolved.exists():
        found = "a directory" if resolved.is_dir() else "a file"
        raise InputError(f"{where}: {found}, not a {kind} (expected {what})")
    raise InputError(f"{where}: no such {kind} (expected {what})")


__all__ = ["run", "call", "report", "is_bad_input", "message_of", "debug_wanted", "split_debug", "InputError",
           "Interrupted", "stop_on_signals", "SignalStop", "signal_name", "looks_like_path", "require_file",
           "require_directory", "require_output_directory", "require_path", "is_allennlp_command",
           "report_uncaught_errors", "number_list", "json_object", "positive", "DEBUG_FLAG", "DEBUG_VARIABLE",
           "BAD_INPUT", "INTERNAL_ERROR"]
