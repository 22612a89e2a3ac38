"""bin/bench_read's library function on a fixture with a tiny tokenizer (seconds, offline). The times
are checked to be numbers and the rates and ratios to be computed from them, never against a speed."""
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
    seconds = result["seconds"]
    assert all(isinstance(value, float) and value >= 0 for value in seconds.values())
    assert result["questions_per_s"] == {name: 5 / value if value else None for name, value in seconds.items()}
    assert result["speedup_reader_over_per_pair"] == (seconds["per_pair"] / seconds["reader"] if seconds["reader"] else None)
    assert result["reader_over_tokenizer_call"] == (seconds["reader"] / seconds["tokenizer_call"]
                                                     if seconds["tokenizer_call"] else None)


def test_bench_missing_file(tiny_bert, tmp_path):
    with pytest.raises(FileNotFoundError, match="--data"):
        bench(tiny_bert, str(tmp_path / "none.jsonl"))
