"""Bad model names and directories, as a user gives them to every command that takes a model
(bin/zero_shot, bin/inoculate, allennlp train / evaluate / predict / probe-report): one `error:`
line naming the model and what was expected, exit status 2, no hub retries (HF_HUB_OFFLINE=1, the
hub's offline switch); a name in the local model cache still loads offline. Messages and exit
statuses only, never the time taken. The allennlp commands print nothing else on stderr before
it (no pkg_resources warning, no "Plugin ... available" lines)."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mcqa_probes.common import cli
from tests import causal_models
from tests.conftest import DATA, FIXTURES, ROOT

tiny_causal = causal_models.tiny_causal  # the session fixture: a tiny random causal LM per family

ALLENNLP = str(Path(sys.executable).parent / "allennlp")
HYPERNYMY = FIXTURES / "probes" / "hypernymy"
UNKNOWN = "no-such-model-xyz"
OFFLINE_LINE = (f"error: {UNKNOWN}: not a local directory, not a known offline name (smollm2, minilm, ...) and not "
                "in the local model cache (offline)")


def command(args, env=None):
    full_env = {k: v for k, v in os.environ.items() if k not in (cli.DEBUG_VARIABLE, "TRANSFORMERS_OFFLINE")}
    full_env.update({"HF_HUB_OFFLINE": "1", **(env or {})})
    return subprocess.run([str(a) for a in args], cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=600)


def bin_command(name, *args, env=None):
    return command([sys.executable, ROOT / "bin" / name, *args], env=env)


def error_lines(result):
    """stderr's lines, less allennlp's INFO log lines (train and predict log their parameters)."""
    return [line for line in result.stderr.splitlines() if line.strip() and " - INFO - " not in line]


def assert_one_line(result, expected):
    assert result.returncode == cli.BAD_INPUT, result.stderr[-3000:]
    assert error_lines(result) == [expected], result.stderr[-3000:]


@pytest.fixture
def empty_dir(tmp_path):
    directory = tmp_path / "not_a_model"
    directory.mkdir()
    (directory / "notes.txt").write_text("no model here")
    return directory


def test_zero_shot_unknown_name_offline():
    assert_one_line(bin_command("zero_shot", "--model", UNKNOWN, "--data", HYPERNYMY / "dev.jsonl"), OFFLINE_LINE)


def test_zero_shot_directory_without_a_model(empty_dir):
    result = bin_command("zero_shot", "--model", empty_dir, "--data", HYPERNYMY / "dev.jsonl")
    assert_one_line(result, f"error: {empty_dir}: not a model directory (no config.json)")


def test_zero_shot_loads_a_name_from_the_local_model_cache_offline(tiny_causal, tmp_path):
    """A HuggingFace name the cache holds (refs/main -> snapshots/<commit>/) loads with the hub offline."""
    repo = tmp_path / "hub" / "models--some-org--tiny-gpt2"
    snapshot = repo / "snapshots" / "0123abcd"
    shutil.copytree(tiny_causal("gpt2"), snapshot)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("0123abcd")
    result = bin_command("zero_shot", "--model", "some-org/tiny-gpt2", "--data", HYPERNYMY / "dev.jsonl", "--limit", "3",
                         "--no-choice-only-control", "--cuda-device", "-1", env={"HF_HUB_CACHE": tmp_path / "hub"})
    assert result.returncode == 0, result.stderr[-3000:]
    output = json.loads(result.stdout.strip().splitlines()[-1])
    assert output["model"] == "some-org/tiny-gpt2" and output["count"] == 3


def test_inoculate_unknown_name_and_directory_without_a_model(empty_dir, tmp_path):
    common = ["--probe-dir", HYPERNYMY, "--orig-dev", DATA / "wordnetqa_hypernymy.jsonl", "--out", tmp_path / "out"]
    assert_one_line(bin_command("inoculate", "--model", UNKNOWN, *common), OFFLINE_LINE)
    result = bin_command("inoculate", "--model", empty_dir, *common)
    assert_one_line(result, f"error: {empty_dir}: not a model directory (no config.json)")
    assert not (tmp_path / "out").exists()


#: runs a bin/ command as its own __main__ would, then says which heavy packages it had imported
LOADED = """
import json, runpy, sys
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit as stop:
    print(json.dumps({"status": stop.code, "loaded": sorted(
        name for name in ("torch", "allennlp", "transformers") if name in sys.modules)}))
"""


@pytest.mark.parametrize("name,args", [
    ("zero_shot", ["--data", HYPERNYMY / "dev.jsonl"]),
    ("inoculate", ["--probe-dir", HYPERNYMY, "--orig-dev", DATA / "wordnetqa_hypernymy.jsonl", "--out", "OUT"]),
])
def test_an_unknown_model_name_is_the_error_before_torch_loads(name, args, tmp_path):
    """The arguments and the model name are checked before torch, allennlp or transformers load
    (what the error costs is a plain interpreter's start, not the library's)."""
    args = [tmp_path / "out" if a == "OUT" else a for a in args]
    result = command([sys.executable, "-c", LOADED, ROOT / "bin" / name, "--model", UNKNOWN, *args])
    assert error_lines(result) == [OFFLINE_LINE], result.stderr[-3000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"status": cli.BAD_INPUT, "loaded": []}


def test_probe_report_unknown_name_is_one_line_and_nothing_else(tmp_path):
    result = command([ALLENNLP, "probe-report", UNKNOWN, "--out", tmp_path / "card", "--probes-dir", FIXTURES / "probes"])
    assert result.returncode == cli.BAD_INPUT
    assert result.stderr.strip().splitlines() == [OFFLINE_LINE]  # no warning, no INFO line before it


def test_train_with_an_unknown_model_name(tmp_path):
    result = command([ALLENNLP, "train", "training_config/roberta_probe.jsonnet", "-s", tmp_path / "run"],
                     env={"MODEL_NAME": UNKNOWN, "TRAIN_DATA": DATA / "wordnetqa_hypernymy.jsonl",
                          "DEV_DATA": DATA / "wordnetqa_hypernymy.jsonl"})
    assert_one_line(result, OFFLINE_LINE)
    assert "Traceback" not in result.stderr and "Traceback" in (tmp_path / "run" / "out.log").read_text()


@pytest.fixture
def archive_naming(tmp_path):
    """An archive whose config names a model (only config.json: the reader is built first)."""
    def make(model_name):
        config = tmp_path / "config.json"
        config.write_text(json.dumps({
            "dataset_reader": {"type": "mcqa", "transformer_model_name": model_name},
            "model": {"type": "transformer_mcqa", "transformer_model_name": model_name},
            "train_data_path": "unused", "trainer": {}, "data_loader": {"batch_size": 2}}))
        archive = tmp_path / "model.tar.gz"
        subprocess.run(["tar", "czf", archive, "-C", tmp_path, "config.json"], check=True)
        return archive
    return make


def test_evaluate_and_predict_an_archive_naming_an_unknown_model(archive_naming, empty_dir):
    archive = archive_naming(UNKNOWN)
    result = command([ALLENNLP, "evaluate", archive, DATA / "wordnetqa_hypernymy.jsonl"])
    assert_one_line(result, OFFLINE_LINE)
    archive = archive_naming(str(empty_dir))
    result = command([ALLENNLP, "predict", archive, DATA / "adhoc_questions.jsonl", "--predictor", "mcqa", "--silent"])
    assert_one_line(result, f"error: {empty_dir}: not a model directory (no config.json)")
