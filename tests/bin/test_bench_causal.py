"""bin/bench_causal on a tiny random GPT-2: ours and lm-evaluation-harness answer the same requests, the
choices agree, the scores match to 1e-4, both sides are timed (the times are numbers and the speed-ups
their ratios, never checked against a speed: an idle machine takes milliseconds); bad input is one
error line."""
import json

from mcqa_probes.common import cli
from tests import causal_models
from tests.conftest import FIXTURES, load_bin

tiny_causal = causal_models.tiny_causal  # the session fixture: a tiny random causal LM per family


load_command = load_bin


def test_bench_causal_compares_with_lm_eval_on_the_same_requests(tiny_causal, capsys):
    command = load_command("bench_causal")
    files = [FIXTURES / "probes" / "hypernymy" / "dev.jsonl", FIXTURES / "winoventi" / "winoventi_small.tsv"]
    status = cli.run(command.main, ["--model", tiny_causal("gpt2"), "--data", *map(str, files), "--limit", "6",
                                    "--batch-size", "4", "--lm-eval-batch-size", "4", "--json", "--cuda-device", "-1"])
    assert status == 0
    lines = capsys.readouterr().out.strip().splitlines()
    result = json.loads(lines[-1])
    assert [f["data"] for f in result["files"]] == list(map(str, files))
    for line, row in zip(lines, result["files"]):
        assert row["questions"] == 6 and row["requests"] >= 12
        assert row["same_choices"] == 1.0 and row["max_abs_diff"] <= 1e-4 and row["greedy_agree"] == 1.0
        assert_timed(row)
        assert line.startswith(row["data"]) and "lm-eval" in line and "same choices 100.0%" in line
    assert [row["format"] for row in result["files"]] == ["cloze", "sentence"]
    assert result["lm_eval"].startswith("0.4")


def assert_timed(row):
    """The times are there as numbers, and each speed-up is their ratio (None only for a time of 0)."""
    for mine, theirs, speedup in (("ours_seconds", "lm_eval_seconds", "speedup"),
                                  ("ours_cpu_seconds", "lm_eval_cpu_seconds", "cpu_speedup")):
        assert all(isinstance(row[key], (int, float)) and row[key] >= 0 for key in (mine, theirs)), row
        expected = row[theirs] / row[mine] if row[mine] else None
        assert row[speedup] == expected, row


def test_bench_causal_names_a_missing_file(tmp_path, capsys):
    command = load_command("bench_causal")
    assert cli.run(command.main, ["--data", str(tmp_path / "missing.jsonl")]) == cli.BAD_INPUT
    assert "missing.jsonl" in capsys.readouterr().err


def test_bench_causal_letters_mode(tiny_causal, capsys):
    command = load_command("bench_causal")
    data = FIXTURES / "csqa" / "dev_hf.jsonl"
    status = cli.run(command.main, ["--model", tiny_causal("llama", 512), "--data", str(data), "--limit", "6",
                                    "--format", "letters", "--json", "--cuda-device", "-1"])
    assert status == 0
    lines = capsys.readouterr().out.strip().splitlines()
    row = json.loads(lines[-1])["files"][0]
    assert row["format"] == "letters" and row["requests"] == 6 * 5
    assert row["same_choices"] == 1.0 and row["max_abs_diff"] <= 1e-4
    assert_timed(row)
    assert "target >= 1x" in lines[0]
