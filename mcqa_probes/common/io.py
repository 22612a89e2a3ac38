"""The package's one home for files (plain Python: no torch / allennlp / transformers): the atomic
writer, the JSON-lines reader and writer, and the sha256 of files and values.

Writing: 
Every result, table, figure and generated data file goes through here: the content is written
to a uniquely named temporary file in the destination's directory, flushed and fsync'ed, and
then renamed over the destination (``os.replace``, atomic on POSIX). A reader therefore sees
either the old file or the complete new one, never a half-written file, even when a run is
killed or several workers (e.g. a Ray grid) write in the same directory. On any error the
temporary file is removed and the destination is left untouched.

* :func:`atomic_open` -- a context manager yielding a stream (text or binary) for writers
  that produce their output piecewise (csv writers, large files);
* :func:`write_bytes`, :func:`write_parts` (pieces, hashed as written), :func:`write_text`, :func:`write_json`, :func:`write_jsonl`,
  :func:`write_csv` -- whole-content helpers;
* :func:`write_with` -- for libraries that want a file name (matplotlib's ``savefig``);
* :class:`BackgroundWriter` -- :func:`write_parts` on a thread of its own, so that a large file's
  wait for the disk overlaps the caller's next work (the probe builds' jsonl).

Reading: :func:`read_jsonl` yields ``(line number, value)`` and raises :class:`McqaFormatError`
naming the file and line for anything that is not one JSON document per line.

Hashing: :func:`sha256_bytes`, :func:`sha256_file` (remembered per path, size and mtime within a
process) and :func:`sha256_json` (a stable digest of a JSON-able value, e.g. a cache key).
"""
import contextlib
import csv
import errno
from concurrent.futures import ThreadPoolExecutor
import glob
import hashlib
import io
import json
import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, Optional, Sequence, Tuple, Union

PathLike = Union[str, os.PathLike]

#: Permissions of the written files (``mkstemp`` would leave them 0600).
FILE_MODE = 0o644


def _temporary(path: Path) -> str:
    """A new, empty temporary file next to ``path``; its name keeps ``path``'s suffix (for tools
    that pick a format from the extension) and contains ``.tmp``. A folder at ``path`` is an error
    named by ``path`` before anything is written (the rename would fail at the end, named by the
    temporary file)."""
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, f"{os.strerror(errno.EISDIR)} (expected the name of a file to write, "
                                "not a folder)", str(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".tmp{path.suffix}", dir=path.parent)
    except OSError as error:        # named by the file wanted, not by the temporary one
        number = errno.ENOTDIR if error.errno == errno.EEXIST else error.errno    # a file where a folder should be
        raise OSError(number, f"{os.strerror(number)} (expected a folder this process can write in)",
                      str(path)) from None
    os.close(handle)
    os.chmod(temporary, FILE_MODE)
    return temporary


def _fsync_directory(directory: Path) -> None:
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:  # e.g. platforms without directory descriptors
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _commit(temporary: str, path: Path) -> None:
    os.replace(temporary, path)
    _fsync_directory(path.parent)


def _discard(temporary: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temporary)


#: the files being written in this process (:func:`atomic_open`), each with the folder made for it
#: (or None), for :func:`discard_writes_on_signal`; a file is listed before its temporary file is made
_IN_FLIGHT: Dict[Path, Optional[str]] = {}


def discard_writes_on_signal(signum: int = signal.SIGTERM) -> None:
    """Have ``signum`` (by default SIGTERM: ``kill PID``, a parent's death) remove the temporary files
    of the writes still going on in this process, and the folders made for them that nothing else is
    in, then end the process (status 128 + signum) as the signal would. Without this the signal ends
    the process at once and leaves ``.NAME.XXXX.tmp`` files half-written. For processes this package owns (a build's
    forked workers, a ``bin/`` command): call it from the main thread."""
    def stop(number, _frame) -> None:
        for stage in list(_STAGED):         # a set of files not yet moved into place: none of them
            shutil.rmtree(stage, ignore_errors=True)
        for path, folder in list(_IN_FLIGHT.items()):
            # its temporary file by its name's pattern (_temporary): the signal may come before
            # atomic_open knows the name
            for temporary in path.parent.glob(f".{glob.escape(path.name)}.*.tmp{glob.escape(path.suffix)}"):
                _discard(str(temporary))
            if folder:
                with contextlib.suppress(OSError):      # the folder made for it, if nothing else is there now
                    os.rmdir(folder)
        os._exit(128 + number)

    signal.signal(signum, stop)


#: the folders of :func:`staged_folder` open in this process, for :func:`discard_writes_on_signal`
_STAGED: Dict[str, None] = {}


@contextlib.contextmanager
def staged_folder(folder: PathLike, name: str = ".partial") -> Iterator[Path]:
    """``with staged_folder(out) as stage: ...``: a hidden folder ``out/.partial`` in which a set of
    files is written (each as by :func:`atomic_open`) before any of them takes its place in ``out``
    (:func:`commit_staged`, inside the block). However the block ends, the folder is removed: a run
    stopped on the way (an error, SIGTERM under :func:`discard_writes_on_signal`, in this process or
    a forked one) leaves ``out`` as it was, an earlier run's files untouched and none of the new
    ones, and ``out`` itself gone again where the block made it and nothing else is in it. One left
    by a SIGKILL is removed by the next run into ``out``."""
    folder = Path(folder)
    made = not folder.exists()
    stage = folder / name
    shutil.rmtree(stage, ignore_errors=True)
    try:
        stage.mkdir(parents=True)
    except OSError as error:        # named by the folder wanted (a file above it, no permission)
        raise OSError(error.errno, f"{os.strerror(error.errno)} (expected a folder this process can write in)",
                      str(folder)) from None
    _STAGED[str(stage)] = None
    try:
        yield stage
    finally:
        _STAGED.pop(str(stage), None)
        shutil.rmtree(stage, ignore_errors=True)
        if made:
            with contextlib.suppress(OSError):      # only if empty: what the block made and did not fill
                folder.rmdir()


def commit_staged(stage: Path, folder: PathLike, relatives: Iterable[str]) -> None:
    """Move the files ``relatives`` (paths relative to both folders) from ``stage`` into ``folder``,
    each by a rename (``os.replace``: a reader sees the old file or the new one), in the order given."""
    folder = Path(folder)
    parents = []
    for relative in relatives:
        target = folder / relative
        if target.parent not in parents:
            target.parent.mkdir(parents=True, exist_ok=True)
            parents.append(target.parent)
        os.replace(stage / relative, target)
    for parent in parents:
        _fsync_directory(parent)


def _listed_temporary(path: Path) -> str:
    """:func:`_temporary`, the file listed in ``_IN_FLIGHT`` first (the caller un-lists it when done)."""
    _IN_FLIGHT[path] = None if path.parent.is_dir() else str(path.parent)
    try:
        return _temporary(path)
    except BaseException:
        _IN_FLIGHT.pop(path, None)
        raise


@contextlib.contextmanager
def atomic_open(path: PathLike, mode: str = "w", encoding: Optional[str] = "utf-8",
                newline: Optional[str] = None) -> Iterator[Any]:
    """``with atomic_open(path) as handle: ...`` -- like ``open(path, mode)`` (``"w"``/``"wt"`` or
    ``"wb"``), but the file appears under ``path`` only when the block ends without an error."""
    if mode not in ("w", "wt", "wb"):
        raise ValueError(f"atomic_open: mode must be 'w', 'wt' or 'wb', got {mode!r}")
    path = Path(path)
    temporary = _listed_temporary(path)
    try:
        if "b" in mode:
            stream = open(temporary, "wb")
        else:
            stream = open(temporary, "w", encoding=encoding, newline=newline)
        with stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        _commit(temporary, path)
    except BaseException:
        _discard(temporary)
        raise
    finally:
        _IN_FLIGHT.pop(path, None)


def write_bytes(path: PathLike, data: bytes) -> Path:
    path = Path(path)
    with atomic_open(path, "wb") as stream:
        stream.write(data)
    return path


def write_parts(path: PathLike, parts: Iterable[Any]) -> str:
    """Write the concatenation of ``parts`` (bytes-like) atomically; returns its sha256 (one pass
    over each part, no joined copy)."""
    digest = hashlib.sha256()
    with atomic_open(Path(path), "wb") as stream:
        for part in parts:
            stream.write(part)
            digest.update(part)
    return digest.hexdigest()


class BackgroundWriter:
    """:func:`write_parts` calls made one after another on a thread of their own while the caller goes
    on (``with BackgroundWriter() as writer: writer.write_parts(path, parts, then)``). Writing a file
    of tens of MB is mostly waiting for the disk (``fsync``), which holds no lock the caller needs, so
    the caller makes the next file's pieces meanwhile. Every file is written exactly as by
    :func:`write_parts` (it appears under its name only when whole and on disk); ``then(sha256)`` is
    called once it is. Leaving the block waits for every write and raises the first error (the file
    of a failed write is left as it was)."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mcqa_probes-writer")
        self._pending: list = []

    def write_parts(self, path: PathLike, parts: Sequence[Any], then: Callable[[str], None]) -> None:
        """Queue ``write_parts(path, parts)`` (``parts``: bytes-like, made already); ``then(digest)`` after."""
        self._pending.append(self._executor.submit(lambda: then(write_parts(path, parts))))

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        pending, self._pending = self._pending, []
        for future in pending:
            future.result()

    def __enter__(self) -> "BackgroundWriter":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def write_text(path: PathLike, text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` as is (no newline translation)."""
    return write_bytes(path, text.encode(encoding))


def json_text(value: Any, indent: Optional[int] = 2, sort_keys: bool = False, ensure_ascii: bool = True,
              end: str = "\n") -> str:
    return json.dumps(value, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii) + end


def write_json(path: PathLike, value: Any, indent: Optional[int] = 2, sort_keys: bool = False,
               ensure_ascii: bool = True, end: str = "\n") -> Path:
    """``json.dumps(value, indent=..., sort_keys=..., ensure_ascii=...) + end``."""
    return write_text(path, json_text(value, indent, sort_keys, ensure_ascii, end))


def write_jsonl(path: PathLike, records: Iterable[Any], ensure_ascii: bool = True) -> int:
    """Write one JSON document per line; returns the number of lines."""
    count = 0
    with atomic_open(path, "w", encoding="utf-8", newline="") as stream:
        for record in records:
            stream.write(json.dumps(record, ensure_ascii=ensure_ascii) + "\n")
            count += 1
    return count


def csv_text(rows: Iterable[Sequence[Any]], header: Optional[Sequence[Any]] = None, **writer_options: Any) -> str:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, **writer_options)
    if header is not None:
        writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def write_csv(path: PathLike, rows: Iterable[Sequence[Any]], header: Optional[Sequence[Any]] = None,
              **writer_options: Any) -> Path:
    """``csv.writer`` rows (default dialect: excel, ``\\r\\n`` line ends, as ``open(path, "w", newline="")``
    gives); ``writer_options`` go to ``csv.writer`` (e.g. ``lineterminator="\\n"``)."""
    return write_text(path, csv_text(rows, header, **writer_options))


def write_with(path: PathLike, writer: Callable[[str], None]) -> Path:
    """``writer(temporary_path)`` writes the file (e.g. matplotlib's ``savefig``); then it is fsync'ed
    and renamed over ``path``. The temporary name ends with ``path``'s suffix."""
    path = Path(path)
    temporary = _listed_temporary(path)
    try:
        writer(temporary)
        with open(temporary, "rb") as stream:
            os.fsync(stream.fileno())
        _commit(temporary, path)
    except BaseException:
        _discard(temporary)
        raise
    finally:
        _IN_FLIGHT.pop(path, None)
    return path


class McqaFormatError(ValueError):
    """An input file (a line of it) is not what the reader expects; the message names the file and
    the 1-based line."""

    def __init__(self, message: str, path: Optional[str] = None, line: Optional[int] = None):
        self.path, self.line, self.reason = path, line, message
        if path is not None:
            where = f"{path}, line {line}: " if line is not None else f"{path}: "
        else:
            where = f"line {line}: " if line is not None else ""
        super().__init__(where + message)


def read_jsonl(path: PathLike, *, what: str = "JSON line", allow_empty: bool = False) -> Iterator[Tuple[int, Any]]:
    """``(1-based line number, decoded value)`` for each non-blank line of a JSON-lines file.

    Raises :class:`McqaFormatError` naming the file and line for bytes that are not UTF-8 and for
    invalid JSON, and (unless ``allow_empty``) naming the file when it holds no line at all
    (``what`` says what was expected, e.g. "question"). A UTF-8 byte-order mark is skipped.
    """
    count = 0
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise McqaFormatError(
                    f"not UTF-8: byte 0x{raw[error.start]:02x} at byte {error.start + 1} of the line "
                    "(expected UTF-8 encoded JSON lines; convert the file, e.g. iconv -t UTF-8)", str(path), number
                ) from None
            if number == 1:
                line = line.lstrip("\ufeff")
            if not line.strip():
                continue
            try:
                data = json.loads(line.rstrip("\r\n"))    # a line cut short: its column, not the next line's
            except json.JSONDecodeError as error:
                raise McqaFormatError(f"invalid JSON ({error.msg} at column {error.colno})", str(path), number) from None
            count += 1
            yield number, data
    if not count and not allow_empty:
        raise McqaFormatError(f"no {what} in the file (it is empty or has only blank lines; expected one JSON "
                              f"{what} per line)", str(path))


def holds_lines(path: PathLike) -> bool:
    """Whether ``path`` is a file with a non-blank line: a split file without one (a probe too small
    to fill it) counts as no split where a split is optional."""
    try:
        with open(path, "rb") as handle:
            return any(line.strip() for line in handle)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return False


def read_jsonl_values(path: PathLike, *, what: str = "JSON line", allow_empty: bool = True) -> list:
    """The decoded lines of a JSON-lines file, as a list (errors as :func:`read_jsonl`)."""
    return [value for _, value in read_jsonl(path, what=what, allow_empty=allow_empty)]


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_SHA256: Dict[str, Tuple[int, int, str]] = {}


def sha256_file(path: PathLike) -> str:
    """sha256 of a file's bytes (remembered per path, size and mtime within one process)."""
    path = Path(path)
    stat = path.stat()
    key = str(path.resolve())
    cached = _SHA256.get(key)
    if cached and cached[:2] == (stat.st_size, stat.st_mtime_ns):
        return cached[2]
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    _SHA256[key] = (stat.st_size, stat.st_mtime_ns, digest.hexdigest())
    return digest.hexdigest()


def sha256_json(value: Any) -> str:
    """A stable digest of a JSON-able value (keys sorted, compact)."""
    return sha256_bytes(json_text(value, indent=None, sort_keys=True).encode("utf-8"))
