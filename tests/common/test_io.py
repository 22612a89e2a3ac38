"""Atomic writes of files made of pieces."""
import hashlib

import pytest

from mcqa_probes.common.io import write_parts


def test_parts_are_written_whole_and_hashed_as_one_file(tmp_path):
    text = b'[{"id":"a"},{"id":"b"}]'
    parts = [memoryview(text)[1:-1], b"\n", b"tail"]
    path = tmp_path / "out.jsonl"
    digest = write_parts(path, parts)
    assert path.read_bytes() == b'{"id":"a"},{"id":"b"}\ntail'
    assert digest == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_failing_piece_leaves_no_file_and_keeps_the_old_one(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_bytes(b"old\n")

    def pieces():
        yield b"new "
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        write_parts(path, pieces())
    assert path.read_bytes() == b"old\n" and [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_background_writes_are_whole_hashed_in_order_and_reported(tmp_path):
    """BackgroundWriter writes as write_parts does, on its thread; ``then`` gets each digest, in the
    order the files were given, and the block ends only once every file is there."""
    from mcqa_probes.common.io import BackgroundWriter

    digests = []
    contents = {f"f{i}.jsonl": [b"x" * (i * 100_000), b"\n", bytes([65 + i])] for i in range(5)}
    with BackgroundWriter() as writer:
        for name, parts in contents.items():
            writer.write_parts(tmp_path / name, parts, lambda digest, name=name: digests.append((name, digest)))
    assert [name for name, _ in digests] == list(contents)
    for name, digest in digests:
        assert (tmp_path / name).read_bytes() == b"".join(contents[name])
        assert digest == hashlib.sha256(b"".join(contents[name])).hexdigest()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(contents)        # no temporary file left


def test_a_failed_background_write_is_raised_at_the_end_and_leaves_the_old_file(tmp_path):
    from mcqa_probes.common.io import BackgroundWriter

    path = tmp_path / "out.jsonl"
    path.write_bytes(b"old\n")
    done = []
    with pytest.raises(TypeError):
        with BackgroundWriter() as writer:
            writer.write_parts(path, [b"new", "not bytes"], done.append)
            writer.write_parts(tmp_path / "next.jsonl", [b"next\n"], done.append)
    assert path.read_bytes() == b"old\n" and len(done) == 1          # the next file was still written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["next.jsonl", "out.jsonl"]


def test_a_process_stopped_by_sigterm_mid_write_leaves_neither_file_nor_temporary(tmp_path):
    """bin/build_probes' own process: ``discard_writes_on_signal`` then SIGTERM inside ``atomic_open``."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    code = ("import os, signal, sys\nfrom mcqa_probes.common.io import atomic_open, discard_writes_on_signal\n"
            "discard_writes_on_signal()\n"
            "with atomic_open(sys.argv[1]) as stream:\n    stream.write('half')\n    os.kill(os.getpid(), signal.SIGTERM)\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "kept.txt")], cwd=ROOT, capture_output=True)
    assert done.returncode == 143, done.stderr
    (tmp_path / "other.txt").write_text("x")      # the folder stays: it held the file before
    assert [p.name for p in tmp_path.iterdir()] == ["other.txt"]


def test_a_folder_it_cannot_write_in_is_named_by_the_file_wanted_not_the_temporary_one(tmp_path):
    from mcqa_probes.common.cli import message_of
    from mcqa_probes.common.io import write_text

    (tmp_path / "notes").write_text("a file where a folder should be")
    with pytest.raises(OSError) as raised:
        write_text(tmp_path / "notes" / "train.jsonl", "{}\n")
    assert raised.value.filename == str(tmp_path / "notes" / "train.jsonl")
    assert message_of(raised.value).endswith("train.jsonl: Not a directory (expected a folder this process can "
                                             "write in)")
    assert not any(path.name.startswith(".train") for path in tmp_path.rglob("*"))


def test_a_folder_where_the_file_should_be_is_an_error_before_anything_is_written(tmp_path):
    from mcqa_probes.common.cli import message_of
    from mcqa_probes.common.io import write_text

    (tmp_path / "items.html").mkdir()
    with pytest.raises(IsADirectoryError) as raised:
        write_text(tmp_path / "items.html", "<html>")
    assert message_of(raised.value) == f"{tmp_path / 'items.html'}: Is a directory (expected the name of a file to " \
                                       "write, not a folder)"
    assert [path.name for path in tmp_path.rglob("*")] == ["items.html"]


def test_a_line_cut_short_is_reported_at_its_own_column(tmp_path):
    from mcqa_probes.common.io import McqaFormatError, read_jsonl

    path = tmp_path / "items.jsonl"
    path.write_text('{"a": 1}\n{"a": \n{"a": 2}\n')
    with pytest.raises(McqaFormatError) as raised:
        list(read_jsonl(path))
    assert str(raised.value) == f"{path}, line 2: invalid JSON (Expecting value at column 7)"
