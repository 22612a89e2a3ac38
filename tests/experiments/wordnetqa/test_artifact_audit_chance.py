"""Artifact flags are computed against the chance level of the evaluated questions, whether or not the
random baseline ran; what cannot be checked is said, never reported as "no bias"; bad options and
probe directories of the same name are one-line errors before any work."""
import json
import shutil

import pytest

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.common.cli import InputError
from mcqa_probes.experiments.wordnetqa import artifact_audit
from tests.conftest import FIXTURES, load_bin
from tests.models.glove_baseline_case import TINY_GLOVE

PROBE = FIXTURES / "probes" / "hypernymy"  # given dev / test, 5 choices a question: chance 20%
NO_BIAS = "No partial-input model is"


@pytest.fixture
def fake_training(monkeypatch):
    """Every trained model scores 50% on dev and test (no training)."""
    monkeypatch.setattr(artifact_audit, "train_and_score",
                        lambda model, paths, run_dir, settings, keep_model=False: {"dev": 0.5, "test": 0.5})


def audit(out, models, margin=0.2):
    return artifact_audit.run_audit([PROBE], out, models=models, epochs=1, glove_file=TINY_GLOVE, flag_margin=margin,
                                    progress=lambda _: None, quiet=True)


def test_a_partial_input_model_far_above_chance_is_flagged_without_the_random_baseline(tmp_path, fake_training):
    report = audit(tmp_path / "out", ["choice_only"])
    assert [(f["split"], f["chance"], f["points_above_chance"]) for f in report["flags"]] == [
        ("dev", 0.2, 30.0), ("test", 0.2, 30.0)]
    table = (tmp_path / "out" / "artifact_audit.md").read_text()
    assert "- hypernymy: Choice-Only-GloVe test 50.0% vs chance 20.0% (+30.0)" in table and NO_BIAS not in table
    assert json.loads((tmp_path / "out" / "artifact_audit.json").read_text())["flags"] == report["flags"]
    assert report["probes"]["hypernymy"]["chance"] == {"dev": 0.2, "test": 0.2}


def test_with_the_random_baseline_the_chance_level_and_flags_are_the_same(tmp_path, fake_training):
    without = audit(tmp_path / "a", ["choice_only"])
    with_random = audit(tmp_path / "b", ["random", "choice_only"])
    results = with_random["probes"]["hypernymy"]["results"]["random"]
    assert (results["dev_chance"], results["test_chance"]) == (0.2, 0.2)
    assert with_random["flags"] == without["flags"]
    assert audit(tmp_path / "c", ["random", "choice_only"], margin=0.35)["flags"] == []
    assert f"{NO_BIAS} 35 points or more above chance." in (tmp_path / "c" / "artifact_audit.md").read_text()


def test_flags_that_cannot_be_computed_are_said_not_computed_never_no_bias():
    report = {  # written before the chance level was kept, without the random baseline
        "models": ["choice_only"],
        "settings": {"seed": 1, "epochs": 1, "glove_file": None, "flag_margin": 0.2},
        "probes": {"p": {"splits": {"sizes": {"train": 3, "dev": 1, "test": 1}},
                         "results": {"choice_only": {"dev": 0.9, "test": 0.9, "row": "Choice-Only-GloVe"}}}},
    }
    report["flags"] = artifact_audit.find_flags(report, 0.2)
    table = artifact_audit.format_table(report)
    assert report["flags"] == [] and NO_BIAS not in table
    assert "not computed for: p dev (no chance level); p test (no chance level)." in table
    report["models"] = ["random", "question_to_choice"]  # nothing partial-input to check
    report["probes"]["p"]["results"] = {}
    table = artifact_audit.format_table(report)
    assert NO_BIAS not in table and "No partial-input model (Choice-Only, Choice-to-Choice) was run" in table
    report["models"] = ["choice_only"]  # a failed run
    report["probes"]["p"]["chance"] = {"dev": 0.2, "test": 0.2}
    table = artifact_audit.format_table(report)
    assert NO_BIAS not in table and "not computed for: p choice_only (no result)." in table


@pytest.mark.parametrize("option, value, message", [
    ("--epochs", "0", "--epochs 0: expected 1 or more"),
    ("--eval-max", "-1", "--eval-max -1: expected a number of questions >= 0"),
    ("--max-train", "0", "--max-train 0: a number of questions; expected 1 or more"),
    ("--dev-size", "0", "--dev-size 0: a number of questions; expected 1 or more"),
    ("--flag-margin", "2", "--flag-margin 2: an accuracy difference; expected 0 to 1"),
])
def test_bad_numbers_are_one_line_errors_before_any_work(tmp_path, option, value, message):
    out = tmp_path / "out"
    with pytest.raises(InputError) as error:
        load_bin("artifact_audit").main(["--probe-dir", str(PROBE), "--models", "random", "--out", str(out),
                                         "--workers", "1", "--quiet", option, value])
    assert str(error.value).startswith(message) and "\n" not in str(error.value)
    assert not out.exists()


def test_two_probe_dirs_of_the_same_name_are_an_error_naming_both(tmp_path):
    other = tmp_path / "copy" / "hypernymy"
    shutil.copytree(PROBE, other)
    out = tmp_path / "out"
    with pytest.raises(InputError) as error:
        load_bin("artifact_audit").main(["--probe-dir", str(PROBE), "--probe-dir", str(other), "--models", "random",
                                         "--out", str(out), "--workers", "1", "--quiet"])
    assert f"--probe-dir {PROBE} and --probe-dir {other}: both are probe 'hypernymy'" in str(error.value)
    assert not out.exists()
    with pytest.raises(InputError, match="both are probe 'hypernymy'"):  # the library checks too, before writing
        artifact_audit.run_audit([PROBE, other], out, models=["random"], progress=lambda _: None, quiet=True)
    assert not out.exists()


def test_dev_and_test_questions_that_are_also_in_train_are_a_warning(tmp_path, fake_training):
    printed = []
    report = artifact_audit.run_audit([PROBE], tmp_path / "out", models=["choice_only"], epochs=1,
                                      glove_file=TINY_GLOVE, progress=printed.append, quiet=True)
    # the fixture's three files hold the same 12 questions
    assert report["probes"]["hypernymy"]["splits"]["in_train"] == {"dev": 12, "test": 12}
    warning = ("12 of the 12 dev questions and 12 of the 12 test questions are also in train (the same stem and "
               "choices)")
    assert any(line.startswith(f"warning: hypernymy: {warning}") for line in printed)
    assert f"**Warning**: hypernymy: {warning}" in (tmp_path / "out" / "artifact_audit.md").read_text()
    # a probe whose dev question is the only one also in train (under another id); test held out of train
    probe = tmp_path / "probe" / "hypernymy"
    probe.mkdir(parents=True)
    lines = (PROBE / "train.jsonl").read_text().splitlines()
    (probe / "train.jsonl").write_text("\n".join(lines[:10]) + "\n")
    renamed = json.loads(lines[0])
    renamed["id"] = "another-id"
    (probe / "dev.jsonl").write_text("\n".join([json.dumps(renamed)] + lines[10:]) + "\n")
    splits = artifact_audit.prepare_splits(probe, tmp_path / "splits", test_size=2)
    assert splits["in_train"] == {"dev": 1, "test": 0}
    assert artifact_audit.describe_overlap(splits).startswith("1 of the 3 dev questions is also in train")
    (probe / "dev.jsonl").write_text("\n".join(lines[10:]) + "\n")
    assert artifact_audit.describe_overlap(artifact_audit.prepare_splits(probe, tmp_path / "s2", test_size=2)) == ""


def test_a_probe_directory_the_build_left_out_says_why(tmp_path):
    build = tmp_path / "probes"
    build.mkdir()
    (build / "manifest.json").write_text(json.dumps({"probes": ["definitions", "hypernymy"],
                                                     "skipped_probes": {"synonymy": "no concept has an exact synonym"}}))
    with pytest.raises(FileNotFoundError, match=r"^--probe-dir .*synonymy: no such directory \(expected a probe "
                                                r"directory with train.jsonl\); the build left it out: no concept "
                                                r"has an exact synonym$"):
        artifact_audit.check_probe_dirs([build / "synonymy"], "--probe-dir")
    with pytest.raises(FileNotFoundError, match=r"hyponym: no such directory .*; the build in .*probes wrote "
                                                r"definitions, hypernymy$"):
        artifact_audit.check_probe_dirs([build / "hyponym"], "--probe-dir")
    (build / "hypernymy").mkdir()
    with pytest.raises(FileNotFoundError, match=r"hypernymy: no train.jsonl$"):
        artifact_audit.check_probe_dirs([build / "hypernymy"], "--probe-dir")


def test_an_empty_split_file_is_a_missing_split_and_an_empty_train_split_an_error_before_any_work(tmp_path):
    """The build writes a small probe's empty split as an empty file: an empty test.jsonl is held out of
    train as a missing one is (was: "no question in the file", the whole audit stopped); an empty
    train.jsonl is a one-line error before any work, naming the probe."""
    probe = tmp_path / "probes" / "part_of"
    shutil.copytree(PROBE, probe)
    (probe / "test.jsonl").write_text("")
    splits = artifact_audit.prepare_splits(probe, tmp_path / "splits", test_size=2, eval_max=0)
    assert "held out of" in splits["sources"]["test"] and splits["sizes"]["test"] >= 2
    (probe / "train.jsonl").write_text("\n")
    out = tmp_path / "out"
    with pytest.raises(InputError, match=r"--probe-dir .*part_of: its train.jsonl holds no question"):
        load_bin("artifact_audit").main(["--probe-dir", str(PROBE), "--probe-dir", str(probe), "--models", "random",
                                         "--out", str(out), "--workers", "1", "--quiet"])
    assert not out.exists()
