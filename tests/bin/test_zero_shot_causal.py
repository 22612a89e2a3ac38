"""bin/zero_shot and `allennlp evaluate` (training_config/causal_lm_zero_shot.jsonnet) with a causal LM."""
import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from mcqa_probes.common import cli
from mcqa_probes.experiments.causal_lm.zero_shot import causal_zero_shot_evaluate
from tests.causal_models import tiny_causal  # noqa: F401
from tests.conftest import FIXTURES, ROOT

HYPERNYMY = FIXTURES / "probes" / "hypernymy" / "dev.jsonl"
MC_MLM = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl"
TSV = FIXTURES / "winoventi" / "winoventi_small.tsv"


def bin_main(name):
    return runpy.run_path(str(ROOT / "bin" / name), run_name="bin_script")["main"]


def test_zero_shot_prints_one_json_line_per_file_with_accuracy_and_score(tiny_causal, capsys):
    directory = tiny_causal("gpt2", 512)
    main = bin_main("zero_shot")
    assert main(["--model", directory, "--data", str(HYPERNYMY), str(MC_MLM), str(TSV), "--score", "pmi",
                 "--limit", "4", "--cuda-device", "-1"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert [r["data"] for r in results] == [str(HYPERNYMY), str(MC_MLM), str(TSV)]
    assert [r["prompt_format"] for r in results] == ["cloze", "sentence", "sentence"]
    expected = causal_zero_shot_evaluate(directory, str(HYPERNYMY), "pmi", limit=4, cuda_device=-1)
    assert results[0]["accuracy"] == expected["accuracy"] == expected["accuracy_pmi"]
    for result in results:
        assert result["score"] == "pmi" and result["count"] == 4 and result["device"] == "cpu, fp32"
        assert {"accuracy_sum", "accuracy_mean", "accuracy_chars", "accuracy_pmi", "choice_only_accuracy"} <= set(result)
    assert "strict_cluster_accuracy" in results[0] and "strict_cluster_accuracy" not in results[1]
    assert {"generic_accuracy", "exception_accuracy"} <= set(results[2])


def test_shards_give_the_numbers_of_one_run(tiny_causal, tmp_path, capsys):
    directory = tiny_causal("gpt2", 512)
    main = bin_main("zero_shot")
    assert main(["--model", directory, "--data", str(HYPERNYMY), "--limit", "6", "--cuda-device", "-1"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert main(["--model", directory, "--data", str(HYPERNYMY), "--limit", "6", "--shards", "3", "--workers", "1",
                 "--out", str(tmp_path), "--cuda-device", "-1"]) == 0
    sharded = json.loads(capsys.readouterr().out)
    assert sharded["shards"] == 3 and sharded["questions"] == whole["count"] == 6
    assert (tmp_path / HYPERNYMY.name / "predictions.jsonl").is_file()
    metrics = json.loads((tmp_path / HYPERNYMY.name / "metrics.json").read_text())["metrics"]
    for name in ("accuracy", "accuracy_pmi", "choice_only_accuracy"):
        assert metrics[name] == pytest.approx(whole[name]), name
    with pytest.raises(cli.InputError, match="--shards: needs --out"):
        main(["--model", directory, "--data", str(HYPERNYMY), "--shards", "2", "--cuda-device", "-1"])


@pytest.mark.parametrize("margin", ["-1", "2"], ids=["flagged", "not-flagged"])
def test_the_line_of_a_file_in_shards_has_the_unsharded_lines_headline(tiny_causal, tmp_path, capsys, margin):
    """accuracy, count, chance, strict_cluster_accuracy and the choice-only flag (a margin every accuracy
    passes, and one none does) as the unsharded line has them; every metric stays under "metrics"."""
    directory = tiny_causal("gpt2", 512)
    main = bin_main("zero_shot")
    common = ["--model", directory, "--data", str(HYPERNYMY), "--limit", "6", "--flag-margin", margin,
              "--cuda-device", "-1", "--quiet"]
    assert main(common) == 0
    whole = json.loads(capsys.readouterr().out)
    assert main(common + ["--shards", "2", "--workers", "1", "--out", str(tmp_path)]) == 0
    sharded = json.loads(capsys.readouterr().out)
    assert ("flag" in whole) == (margin == "-1")
    for key in ("accuracy", "count", "chance", "strict_cluster_accuracy", "flag"):
        assert sharded.get(key) == whole.get(key), key
    questions = [json.loads(line) for line in HYPERNYMY.read_text().splitlines()[:6]]
    assert sharded["chance"] == pytest.approx(sum(1 / len(q["question"]["choices"]) for q in questions) / 6)
    assert sharded["metrics"]["cluster_accuracy"] == sharded["strict_cluster_accuracy"]
    saved = json.loads((tmp_path / HYPERNYMY.name / "metrics.json").read_text())
    assert saved["chance"] == sharded["chance"] and saved.get("flag") == sharded.get("flag")


def test_an_empty_file_among_several_is_an_error_before_any_is_scored(tiny_causal, tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n  \n")
    main = bin_main("zero_shot")
    with pytest.raises(cli.InputError, match=f"--data {empty}: no question in the file"):
        main(["--model", tiny_causal("gpt2", 512), "--data", str(HYPERNYMY), str(empty), str(TSV), "--limit", "2",
              "--cuda-device", "-1", "--quiet"])
    assert capsys.readouterr().out == ""  # HYPERNYMY, before it, was not scored either


def test_shards_of_two_files_with_one_name_go_to_two_folders(tiny_causal, tmp_path, capsys):
    """probes/hypernymy/dev.jsonl and probes/dictionary/dev.jsonl: each in its own folder, each with its own numbers."""
    directory = tiny_causal("gpt2", 512)
    dictionary = FIXTURES / "probes" / "dictionary" / "dev.jsonl"
    main = bin_main("zero_shot")
    assert main(["--model", directory, "--data", str(HYPERNYMY), str(dictionary), "--limit", "4",
                 "--cuda-device", "-1"]) == 0
    whole = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert main(["--model", directory, "--data", str(HYPERNYMY), str(dictionary), "--limit", "4", "--shards", "2",
                 "--workers", "1", "--out", str(tmp_path), "--cuda-device", "-1"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dictionary_dev.jsonl", "hypernymy_dev.jsonl"]
    for folder, expected in zip(("hypernymy_dev.jsonl", "dictionary_dev.jsonl"), whole):
        metrics = json.loads((tmp_path / folder / "metrics.json").read_text())["metrics"]
        assert metrics["accuracy_pmi"] == pytest.approx(expected["accuracy_pmi"]), folder
        ids = [json.loads(line)["id"] for line in (tmp_path / folder / "predictions.jsonl").read_text().splitlines()]
        source = HYPERNYMY if folder.startswith("hypernymy") else dictionary
        assert ids == [json.loads(line)["id"] for line in source.read_text().splitlines()[:4]]


def test_options_of_the_other_family_are_one_line_errors(tiny_causal, tiny_bert):
    main = bin_main("zero_shot")
    with pytest.raises(cli.InputError, match="--score: only for causal LMs"):
        main(["--model", tiny_bert, "--data", str(MC_MLM), "--score", "chars", "--cuda-device", "-1"])
    result = subprocess.run([sys.executable, str(ROOT / "bin" / "zero_shot"), "--model", tiny_causal("gpt2"),
                             "--data", str(HYPERNYMY), "--multi-token", "pll", "--cuda-device", "-1"],
                            cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert result.returncode == 2, result.stderr[-2000:]
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == [lines[-1]] and lines[-1].startswith("error: --multi-token: only for masked LMs;"), result.stderr
    assert result.stdout == ""


def test_allennlp_evaluate_with_the_zero_shot_config(tiny_causal, tmp_path):
    directory = tiny_causal("llama", 512)
    allennlp = str(Path(sys.executable).parent / "allennlp")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "MODEL_NAME": directory, "SCORE": "chars",
           "TEMPLATE": "Q: {stem}\nA:", "TRAIN_DATA": str(HYPERNYMY)}
    run = lambda *args: subprocess.run([allennlp, *args], cwd=ROOT, env=env, capture_output=True,  # noqa: E731
                                       text=True, timeout=600)
    result = run("train", "training_config/causal_lm_zero_shot.jsonnet", "-s", str(tmp_path / "run"))
    assert result.returncode == 0, result.stderr[-3000:]
    metrics_file = tmp_path / "metrics.json"
    result = run("evaluate", str(tmp_path / "run" / "model.tar.gz"), str(HYPERNYMY), "--output-file", str(metrics_file))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "accuracy" in result.stdout + result.stderr
    metrics = json.loads(metrics_file.read_text())
    expected = causal_zero_shot_evaluate(directory, str(HYPERNYMY), "chars", template="Q: {stem}\nA:", cuda_device=-1)
    for key in ("accuracy", "accuracy_sum", "accuracy_chars", "accuracy_pmi", "choice_only_accuracy"):
        assert metrics[key] == pytest.approx(expected[key]), key
    assert metrics["accuracy"] == metrics["accuracy_chars"]


def test_zero_shot_letters_with_rotations_and_shots(tiny_causal, capsys):
    directory = tiny_causal("llama", 1024)
    main = bin_main("zero_shot")
    train = FIXTURES / "probes" / "hypernymy" / "train.jsonl"
    assert main(["--model", directory, "--data", str(HYPERNYMY), "--format", "letters", "--rotations", "cyclic",
                 "--shots", "1", "--shots-from", str(train), "--limit", "5", "--cuda-device", "-1"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["prompt_format"] == "letters" and result["template"] == "Question: {stem}\n{choices}Answer:"
    assert result["count"] == 5 and result["asked"] == 25 and result["shots"] == 1 and result["rotations"] == "cyclic"
    assert {"circular_accuracy", "rstd", "debiased_accuracy", "accuracy_rotation_4", "letter_prior_E"} <= set(result)
    assert result["circular_accuracy"] <= min(result[f"accuracy_rotation_{r}"] for r in range(5))
    assert sum(result[f"letter_prior_{letter}"] for letter in "ABCDE") == pytest.approx(1.0)


def test_zero_shot_prompt_options_are_checked(tiny_causal, capsys):
    main = bin_main("zero_shot")
    directory = tiny_causal("gpt2")
    assert cli.run(main, ["--model", directory, "--data", str(HYPERNYMY), "--shots", "2"]) == 2
    assert "--shots 2: needs --shots-from" in capsys.readouterr().err
    assert cli.run(main, ["--model", directory, "--data", str(HYPERNYMY), "--rotations", "cyclic"]) == 2
    assert "--rotations cyclic: rotates lettered choices (needs --format letters)" in capsys.readouterr().err
    assert cli.run(main, ["--model", directory, "--data", str(HYPERNYMY), "--shots", "1", "--shots-from",
                          "/nonexistent.jsonl"]) == 2
    assert "/nonexistent.jsonl" in capsys.readouterr().err
