"""bin/inoculate's options, checked before the grid starts: a dosage the probe's train file cannot
fill, values out of range and options that do not go together are one `error:` line each, before
torch loads and before anything is written under --out; the base archive goes into each run's
config as an absolute path (its model.tar.gz loads from any directory)."""
import json
import os
import sys

import pytest

from mcqa_probes.common import cli
from tests.bin.test_model_names import LOADED, command, error_lines
from tests.conftest import DATA, FIXTURES, ROOT, load_bin
from tests.data.test_archives import write_archive

PROBE = FIXTURES / "probes" / "hypernymy"  # train.jsonl: 12 questions
ORIGINAL = DATA / "dictionary_qa.jsonl"
UNUSED_MODEL = "no-such-model-xyz"  # the options are checked before the model name
#: the base archive's reader, given: the archive is a name here, not a file
READER = {"model_name": "minilm", "max_length": 128, "truncation": "question_start"}


def inoculate(tmp_path, *args, probe=PROBE):
    """bin/inoculate in a plain interpreter: its stderr lines and what it loaded."""
    result = command([sys.executable, "-c", LOADED, ROOT / "bin" / "inoculate", "--probe-dir", probe,
                      "--orig-dev", ORIGINAL, "--out", tmp_path / "out", *args])
    return error_lines(result), json.loads(result.stdout.strip().splitlines()[-1]), result


@pytest.fixture
def archive(tmp_path):
    """Any file: the options are checked before the archive is read."""
    path = tmp_path / "base.tar.gz"
    path.write_text("not read")
    return path


@pytest.mark.parametrize("args,expected", [
    (["--dosages", "0"], "--dosages 0: a dosage is a number of probe questions; expected 1 or more"),
    (["--dosages", "4,-5"], "--dosages -5: a dosage is a number of probe questions; expected 1 or more"),
    (["--lrs", "1e-5,0"], "--lrs 0: expected learning rates above 0"),
    (["--lrs=-1e-5"], "--lrs -1e-05: expected learning rates above 0"),
    (["--add-some", "-1"], "--add-some -1: original questions per probe question; expected 0 or more"),
    (["--epochs", "0"], "--epochs 0: expected 1 or more"),
    (["--batch-size", "0"], "--batch-size 0: expected 1 or more"),
    (["--add-some", "0,1"], "--add-some 0,1: mixing in original questions needs --orig-train (the original task's "
                            "training file)"),
    (["--probe-type", "full"], "--probe-type full: applies to --model (a causal LM) only, not to --base-archive "
                               "(the archive goes on training its own model and reader)"),
    (["--lora-rank", "4"], "--lora-rank 4: applies to --model (a causal LM) only, not to --base-archive "
                           "(the archive goes on training its own model and reader)"),
    (["--format", "letters"], "--format letters: applies to --model (a causal LM) only, not to --base-archive "
                              "(the archive goes on training its own model and reader)"),
])
def test_a_bad_option_with_a_base_archive_is_one_line_before_anything_loads_or_is_written(
        args, expected, archive, tmp_path):
    lines, status, result = inoculate(tmp_path, "--base-archive", archive, "--dosages", "4", *args)
    assert lines == [f"error: {expected}"], result.stderr[-3000:]
    assert status == {"status": cli.BAD_INPUT, "loaded": []}
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args,expected", [
    (["--lora-rank", "0"], "--lora-rank 0: expected 1 or more"),
    (["--model-name", "minilm"], "--model-name minilm: applies to --base-archive only (--model names the causal LM "
                                 "inoculated)"),
])
def test_a_bad_option_with_a_causal_lm_is_one_line_before_the_model_is_looked_up(args, expected, tmp_path):
    lines, status, result = inoculate(tmp_path, "--model", UNUSED_MODEL, *args)
    assert lines == [f"error: {expected}"], result.stderr[-3000:]
    assert status == {"status": cli.BAD_INPUT, "loaded": []}
    assert not (tmp_path / "out").exists()


@pytest.fixture
def readable_archive(tmp_path, tiny_bert):
    """An archive whose config names a transformer that loads (the dose is checked after the archive
    is read, still before torch loads)."""
    return write_archive(tmp_path / "readable.tar.gz", {
        "dataset_reader": {"type": "mcqa", "transformer_model_name": tiny_bert}})


@pytest.mark.parametrize("dosages", ["4,100", "13", None])
def test_a_dosage_the_probe_cannot_fill_is_one_line_naming_its_train_file(dosages, readable_archive, tmp_path):
    """The first k questions of train.jsonl are the dose: a k above its 12 questions would train on 12
    and be labelled k. The default dosages start at 100: none fits, which is said so."""
    lines, status, result = inoculate(tmp_path, "--base-archive", readable_archive,
                                      *(["--dosages", dosages] if dosages else []))
    expected = {"4,100": f"--dosages 100: {PROBE / 'train.jsonl'} has 12 questions; use dosages up to 12",
                "13": f"--dosages 13: {PROBE / 'train.jsonl'} has 12 questions; use dosages up to 12",
                None: f"{PROBE / 'train.jsonl'} has 12 questions, fewer than the smallest default dosage (100); "
                      "give --dosages up to 12"}[dosages]
    assert lines == [f"error: {expected}"], result.stderr[-3000:]
    assert status == {"status": cli.BAD_INPUT, "loaded": []}
    assert not (tmp_path / "out").exists()


def test_the_default_dosages_keep_those_the_probe_can_fill(tmp_path, capsys):
    """Unlike given dosages, the paper's defaults are cut to the probe's size, with a note."""
    train = tmp_path / "train.jsonl"
    train.write_text("".join(f'{{"id": "q{i}"}}\n' for i in range(600)))
    inoculate_module = load_bin("inoculate")
    assert inoculate_module.check_dosages(None, train) == [100, 250, 500]
    assert f"dosages 1000,2000,3000 left out: {train} has 600 questions (running 100,250,500)" in capsys.readouterr().err
    assert inoculate_module.check_dosages([50, 600], train) == [50, 600]


def test_the_questions_of_the_train_file_are_its_non_blank_lines(readable_archive, tmp_path):
    probe = tmp_path / "probe"
    probe.mkdir()
    questions = (PROBE / "train.jsonl").read_text().splitlines()[:3]
    (probe / "train.jsonl").write_text("\n".join(questions) + "\n\n  \n")
    (probe / "dev.jsonl").write_text((PROBE / "dev.jsonl").read_text())
    lines, status, _ = inoculate(tmp_path, "--base-archive", readable_archive, "--dosages", "3,4", probe=probe)
    assert lines == [f"error: --dosages 4: {probe / 'train.jsonl'} has 3 questions; use dosages up to 3"]
    assert status["loaded"] == [] and not (tmp_path / "out").exists()


def test_a_relative_base_archive_goes_into_the_configs_as_an_absolute_path(tmp_path, monkeypatch):
    from mcqa_probes.experiments.wordnetqa.inoculation_sweep import SweepSettings

    monkeypatch.chdir(tmp_path)
    settings = SweepSettings(base_archive=os.path.join("runs", "base", "model.tar.gz"), probe_dir="probe",
                             orig_dev="dev.jsonl", out="out", **READER)
    expected = str(tmp_path / "runs" / "base" / "model.tar.gz")
    assert settings.base_archive == expected and settings.model_variables()["BASE_ARCHIVE"] == expected


def test_add_some_without_the_original_train_file_is_an_error_before_any_run():
    from mcqa_probes.experiments.wordnetqa.inoculation_sweep import SweepSettings

    with pytest.raises(ValueError, match="--orig-train"):
        SweepSettings("base.tar.gz", "probe", "dev.jsonl", "out", **READER, add_some=[0, 1])


@pytest.mark.parametrize("args,expected", [
    (["--seeds", "1,a"], "argument --seeds: '1,a': expected comma-separated integers (e.g. 100,250)"),
    (["--seeds", ","], "argument --seeds: ',': no values; expected comma-separated integers (e.g. 100,250)"),
    (["--dosages", ","], "argument --dosages: ',': no values; expected comma-separated integers (e.g. 100,250)"),
    (["--seeds", "1,,1"], "argument --seeds: '1,,1': a value given twice (it would be run, and counted, twice); "
                          "expected each value once"),
    (["--dosages", "4,8,4"], "argument --dosages: '4,8,4': a value given twice (it would be run, and counted, "
                             "twice); expected each value once"),
    (["--lrs", "1e-5,x"], "argument --lrs: '1e-5,x': expected comma-separated numbers (e.g. 1e-5,2e-5)"),
])
def test_lists_are_read_before_anything_loads(args, expected, archive, tmp_path):
    lines, status, result = inoculate(tmp_path, "--base-archive", archive, *args)
    assert lines[-1] == f"inoculate: error: {expected}", result.stderr[-3000:]
    assert status == {"status": cli.BAD_INPUT, "loaded": []}
