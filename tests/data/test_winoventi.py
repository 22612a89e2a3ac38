"""WinoVenti TSV: pairing (row i <-> i + N), registry, subsets, the §3.3 splits."""
import pytest

from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.data.winoventi import (
    full_exception_split, half_exception_split, individual_pairs, intersection_pairs, pairs, read_nouns,
    read_registry, read_triples, read_winoventi, registry_column, write_registry, write_winoventi,
)
from tests.conftest import FIXTURES

WV = FIXTURES / "winoventi"
TSV = WV / "winoventi_small.tsv"
REGISTRY = WV / "registry_small.tsv"


def test_pairing_row_i_with_row_i_plus_n():
    prompts = read_winoventi(TSV)
    assert len(prompts) == 10
    by_pair = pairs(prompts)
    assert sorted(by_pair) == [0, 1, 2, 3, 4]
    generic, exception = by_pair[1]
    assert (generic.line, exception.line) == (3, 8)  # data rows 1 and 6 (header = line 1)
    assert generic.triple == exception.triple == ("bread", "fresh", "stale")
    assert (generic.target, generic.incorrect) == ("fresh", "stale")
    assert (exception.target, exception.incorrect) == ("stale", "fresh")
    assert generic.is_generic and not exception.is_generic
    assert exception.masked_prompt.endswith("last month. The bread is [MASK].")


def test_broken_pairing_is_reported_with_line(tmp_path):
    lines = TSV.read_text().splitlines()
    swapped = lines[:1] + lines[2:6] + lines[1:2] + lines[6:]  # kettle generic moved: row 0 is now bread
    (tmp_path / "bad.tsv").write_text("\n".join(swapped) + "\n")
    with pytest.raises(McqaFormatError, match=r"bad.tsv, line \d+: pair 0"):
        read_winoventi(tmp_path / "bad.tsv")
    (tmp_path / "odd.tsv").write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(McqaFormatError, match="even number"):
        read_winoventi(tmp_path / "odd.tsv")
    assert len(read_winoventi(tmp_path / "odd.tsv", check_pairs=False)) == 9


def test_registry_and_subsets():
    prompts = read_winoventi(TSV)
    registry = read_registry(REGISTRY)
    assert registry.models == ["model-a", "model-b"]
    assert registry.flags["model-a"][("apple", "edible", "rotten")] is False
    assert individual_pairs(prompts, registry.flags["model-a"]) == {0, 1, 3, 4}
    assert individual_pairs(prompts, registry.flags["model-b"]) == {0, 2, 3, 4}
    assert intersection_pairs(prompts, registry) == {0, 3, 4}
    assert intersection_pairs(prompts, registry, ["model-b"]) == {0, 2, 3, 4}
    assert registry_column(registry, "/some/dir/model-b/") == "model-b"
    assert registry_column(registry, "model-c") is None
    with pytest.raises(KeyError):
        intersection_pairs(prompts, registry, ["model-c"])


def test_registry_round_trip_and_triples(tmp_path):
    registry = read_registry(REGISTRY)
    write_registry(registry, tmp_path / "r.tsv")
    assert read_registry(tmp_path / "r.tsv").flags == registry.flags
    assert read_triples(TSV)[0] == ("kettle", "hot", "cold") and len(read_triples(TSV)) == 5
    assert read_nouns(TSV) == ["kettle", "bread", "lamp", "cup", "sponge"]
    assert read_nouns(WV / "nouns.txt") == ["kettle", "bread", "lamp"]


def test_half_and_full_exception_splits(tmp_path):
    prompts = read_winoventi(TSV) * 1
    half = half_exception_split(prompts, seed=0)
    assert sum(p.is_generic for p in half["train"]) == 2 and sum(not p.is_generic for p in half["train"]) == 2
    assert len(half["test"]) == 6 and not set(half["train"]) & set(half["test"])
    full = full_exception_split(prompts, seed=0)
    assert len(full["train"]) == 4 and len(full["test_exception"]) == 1
    assert all(not p.is_generic for p in full["train"] + full["test_exception"])
    assert len(full["test_generic"]) == 5 and len(full["test_mixed"]) == 2
    assert not set(full["train"]) & set(full["test_exception"])
    assert half_exception_split(prompts, seed=0) == half
    write_winoventi(full["train"], tmp_path / "train.tsv")
    again = read_winoventi(tmp_path / "train.tsv", check_pairs=False)
    assert [p.masked_prompt for p in again] == [p.masked_prompt for p in full["train"]]
