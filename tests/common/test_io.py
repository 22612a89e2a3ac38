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
