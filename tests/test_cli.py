"""The allennlp command line, as a user runs it: train, evaluate, predict (subprocesses)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DATA, ROOT

ALLENNLP = str(Path(sys.executable).parent / "allennlp")


def run(args, env=None, cwd=ROOT):
    full_env = {**os.environ, "HF_HUB_OFFLINE": "1", **(env or {})}
    return subprocess.run([ALLENNLP, *args], cwd=cwd, env=full_env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def trained_archive(tmp_path_factory, tiny_bert):
    out = tmp_path_factory.mktemp("run") / "x"
    result = run(
        ["train", "training_config/roberta_probe.jsonnet", "-s", str(out)],
        env={"MODEL_NAME": tiny_bert, "EPOCHS": "1", "BATCH_SIZE": "4", "LR": "1e-3",
             "TRAIN_DATA": str(DATA / "wordnetqa_hypernymy.jsonl"), "DEV_DATA": str(DATA / "dictionary_qa.jsonl")},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (out / "model.tar.gz").is_file()
    config = json.loads((out / "config.json").read_text())
    assert config["model"]["transformer_model_name"] == tiny_bert  # env override reached the config
    assert config["trainer"]["optimizer"]["type"] == "adamw"
    return out / "model.tar.gz"


def test_evaluate_prints_accuracy(trained_archive, tmp_path):
    metrics_file = tmp_path / "metrics.json"
    result = run(["evaluate", str(trained_archive), str(DATA / "commonsenseqa.jsonl"), "--output-file", str(metrics_file)])
    assert result.returncode == 0, result.stderr[-3000:]
    metrics = json.loads(metrics_file.read_text())
    assert 0.0 <= metrics["accuracy"] <= 1.0 and "loss" in metrics
    assert "accuracy" in result.stdout + result.stderr


def test_predict_adhoc_questions_with_3_and_6_choices(trained_archive, tmp_path):
    output = tmp_path / "predictions.jsonl"
    result = run(["predict", str(trained_archive), str(DATA / "adhoc_questions.jsonl"), "--predictor", "mcqa",
                  "--output-file", str(output), "--silent"])
    assert result.returncode == 0, result.stderr[-3000:]
    predictions = [json.loads(line) for line in output.read_text().splitlines()]
    assert [len(p["probabilities"]) for p in predictions] == [3, 6]
    for prediction in predictions:
        assert abs(sum(prediction["probabilities"]) - 1) < 1e-4
        best = max(range(len(prediction["probabilities"])), key=prediction["probabilities"].__getitem__)
        assert prediction["best_choice_index"] == best
        assert prediction["best_choice_text"] == prediction["choices"][best]


def test_bad_file_error_names_file_and_line(trained_archive, tmp_path):
    bad = tmp_path / "bad.jsonl"
    good = (DATA / "olmpics_age.jsonl").read_text().splitlines()[0]
    bad.write_text(good + "\n" + good.replace('"answerKey": "A"', '"answerKey": "Q"') + "\n")
    result = run(["evaluate", str(trained_archive), str(bad)])
    assert result.returncode != 0
    assert f"{bad}, line 2: answerKey 'Q' matches no choice label" in result.stderr


def test_evaluate_on_an_empty_or_non_utf8_file_stops_with_file_named(trained_archive, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = run(["evaluate", str(trained_archive), str(empty)])
    assert result.returncode != 0
    assert f"{empty}: no question in the file" in result.stderr
    latin1 = tmp_path / "latin1.jsonl"
    good = (DATA / "olmpics_age.jsonl").read_text().splitlines()[0]
    latin1.write_bytes((good + "\n").encode("utf-8") + good.replace('"id": "', '"id": "\u00e9').encode("latin-1") + b"\n")
    result = run(["evaluate", str(trained_archive), str(latin1)])
    assert result.returncode != 0
    assert f"{latin1}, line 2: not UTF-8" in result.stderr


def test_help_lists_commands_with_plugin():
    result = run(["--help"])
    assert result.returncode == 0 and "train" in result.stdout


def test_evaluate_reports_cluster_accuracy_matching_the_predictions(trained_archive, tmp_path):
    """`allennlp evaluate` on a WordNetQA file: strict cluster accuracy equals the one recomputed
    from `allennlp predict` output (same model, same questions)."""
    from mcqa_probes.metrics.probe_records import cluster_accuracy, instance_accuracy, read_prediction_records

    data = DATA / "wordnetqa_hypernymy.jsonl"
    metrics_file, predictions = tmp_path / "metrics.json", tmp_path / "predictions.jsonl"
    result = run(["evaluate", str(trained_archive), str(data), "--output-file", str(metrics_file)])
    assert result.returncode == 0, result.stderr[-3000:]
    result = run(["predict", str(trained_archive), str(data), "--predictor", "mcqa", "--output-file", str(predictions), "--silent"])
    assert result.returncode == 0, result.stderr[-3000:]
    metrics = json.loads(metrics_file.read_text())
    records = list(read_prediction_records(str(predictions)))
    assert metrics["accuracy"] == pytest.approx(instance_accuracy(records))
    assert metrics["cluster_accuracy"] == pytest.approx(cluster_accuracy(records))
    assert any(key.startswith("_breakdown/hops=") for key in metrics)
