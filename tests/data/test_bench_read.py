"""bin/bench_read's library function on a fixture with a tiny tokenizer (seconds, offline)."""
import pytest

from mcqa_probes.data.bench_read import bench
from tests.conftest import DATA


@pytest.mark.parametrize("truncation", ["longest_first", "question_start"])
def test_bench_times_three_paths_on_identical_instances(tiny_bert, truncation):
    result = bench(tiny_bert, str(DATA / "dictionary_qa.jsonl"), limit=5, batch_size=2, max_length=10,
                   truncation=truncation, repeat=1)
    assert result["questions"] == 5 and result["pairs"] == 25
    assert result["identical"] is True
    assert set(result["seconds"]) == {"reader", "per_pair", "tokenizer_call"}
    assert all(value > 0 for value in result["seconds"].values())
    assert result["speedup_reader_over_per_pair"] == pytest.approx(result["seconds"]["per_pair"] / result["seconds"]["reader"])


def test_bench_missing_file(tiny_bert, tmp_path):
    with pytest.raises(FileNotFoundError, match="--data"):
        bench(tiny_bert, str(tmp_path / "none.jsonl"))
