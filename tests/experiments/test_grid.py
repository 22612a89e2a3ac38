"""The grid runner: serial and on a local Ray (2 workers), resumption after a failure or a crash,
failure reports with the log path, and results that do not depend on the number of workers."""
import json
import os
import random
import shutil
import time
from pathlib import Path

import pytest

from mcqa_probes.experiments.grid import GridFailed, GridOptions, Trial, run_grid, start_ray
from tests.conftest import DATA


# ---------------------------------------------------------------------------- trial functions
def record(name, marker_dir, value=None):
    """Leaves one marker file per execution; the result depends on the trial's seed and threads."""
    import torch

    Path(marker_dir, f"{name}.{os.getpid()}.{time.time_ns()}.ran").write_text(str(os.getpid()))
    print(f"{name} says hello")
    return {"value": value, "random": random.random(), "torch": float(torch.rand(1)),
            "threads": torch.get_num_threads()}


def fail_once(name, marker_dir):
    marker = Path(marker_dir) / f"{name}.failed-once"
    if not marker.exists():
        marker.write_text("")
        raise RuntimeError("first run fails")
    return record(name, marker_dir, 0)


def crash_once(name, marker_dir):
    """The first run kills its own process (a crash, not an exception)."""
    marker = Path(marker_dir) / f"{name}.crashed-once"
    if not marker.exists():
        marker.write_text("")
        os._exit(3)
    return record(name, marker_dir, 0)


def runs(marker_dir, name):
    return len(list(Path(marker_dir).glob(f"{name}.*.ran")))


def grid_of(marker_dir, names, function=record, **resources):
    def arguments(name):
        return {"name": name, "marker_dir": str(marker_dir), **({"value": name} if function is record else {})}

    return [Trial(name, function, arguments(name), spec={"name": name, "function": function.__name__},
                  label=f"name={name}", **resources) for name in names]


# ---------------------------------------------------------------------------- serial
def test_serial_grid_reports_a_failure_and_resumes_only_what_is_missing(tmp_path, capsys):
    marker = tmp_path / "markers"
    marker.mkdir()
    trials = grid_of(marker, ["a", "b", "c", "d"]) + grid_of(marker, ["e"], fail_once)
    out = tmp_path / "out"
    report = run_grid(trials, out, GridOptions(workers=1))
    assert [o.status for o in report.outcomes] == ["done"] * 4 + ["failed"]
    failed = report.failed[0]
    assert failed.id == "e" and "RuntimeError: first run fails" in failed.error
    assert failed.log == str(out / "trials" / "e" / "trial.log")
    assert "raise RuntimeError" in Path(failed.log).read_text()  # the traceback is in the trial's log
    assert not (out / "trials" / "e" / "result.json").exists()
    captured = capsys.readouterr()
    assert "a says hello" not in captured.out  # trial output goes to its log, not the console
    assert "[1/5] trial name=a done in" in captured.err
    assert f"[5/5] trial name=e FAILED after 0 s: RuntimeError: first run fails (log: {failed.log})" in captured.err
    stored = json.loads((out / "trials" / "a" / "result.json").read_text())
    assert stored["spec"] == {"name": "a", "function": "record"} and stored["result"] == report.results()["a"]
    assert "a says hello" in (out / "trials" / "a" / "trial.log").read_text()
    with pytest.raises(GridFailed, match=r"trials/e/trial.log"):
        report.raise_for_failures()
    mtimes = {n: (out / "trials" / n / "result.json").stat().st_mtime_ns for n in "abcd"}

    again = run_grid(trials, out, GridOptions(workers=1))
    assert [o.status for o in again.outcomes] == ["skipped"] * 4 + ["done"]
    assert [runs(marker, n) for n in "abcde"] == [1, 1, 1, 1, 1]  # finished trials did not run again
    assert {n: (out / "trials" / n / "result.json").stat().st_mtime_ns for n in "abcd"} == mtimes
    assert again.results()["a"] == report.results()["a"] and not again.failed
    again.raise_for_failures()


def test_progress_lines_and_summary(tmp_path, capsys):
    trials = grid_of(tmp_path, ["a", "b"])
    run_grid(trials, tmp_path / "out", GridOptions(workers=1), describe=lambda result: f"value {result['value']}")
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "grid: 2 trials, 0 finished earlier, running 2 serially in this process"
    assert lines[1].startswith("[1/2] trial name=a done in ") and lines[1].endswith(" s (value a)")
    assert lines[2].startswith("[2/2] trial name=b done in ")
    assert lines[3].startswith("grid: 2 trials: 2 run, 0 finished earlier, 0 failed")
    run_grid(trials, tmp_path / "out", GridOptions(workers=1, quiet=True))
    assert capsys.readouterr().err == ""


def test_half_finished_or_changed_trials_run_again(tmp_path):
    marker = tmp_path / "markers"
    marker.mkdir()
    out = tmp_path / "out"
    trials = grid_of(marker, ["a", "b", "c"])
    run_grid(trials, out, GridOptions(workers=1, quiet=True))
    (out / "trials" / "a" / "result.json").unlink()  # killed before the result was written
    (out / "trials" / "a" / "checkpoint.th").write_text("half a run")
    (out / "trials" / "b" / "result.json").write_text('{"spec": ')  # torn write
    trials[2].spec = {"name": "c", "function": "record", "epochs": 2}  # another spec
    report = run_grid(trials, out, GridOptions(workers=1, quiet=True))
    assert [o.status for o in report.outcomes] == ["done", "done", "done"]
    assert [runs(marker, n) for n in "abc"] == [2, 2, 2]
    assert not (out / "trials" / "a" / "checkpoint.th").exists()
    assert [o.status for o in run_grid(trials, out, GridOptions(workers=1, quiet=True)).outcomes] == ["skipped"] * 3


def test_results_depend_on_the_trial_not_the_order(tmp_path):
    names = ["a", "b", "c", "d"]
    forward = run_grid(grid_of(tmp_path, names), tmp_path / "one", GridOptions(workers=1, quiet=True)).results()
    backward = run_grid(grid_of(tmp_path, names[::-1]), tmp_path / "two", GridOptions(workers=1, quiet=True)).results()
    assert forward == backward
    assert len({r["random"] for r in forward.values()}) == 4  # seeded per trial, not one stream
    assert all(r["threads"] == 1 for r in forward.values())  # 1 CPU per trial by default


def test_trial_ids_are_checked(tmp_path):
    with pytest.raises(ValueError, match="twice"):
        run_grid(grid_of(tmp_path, ["a", "a"]), tmp_path)
    for bad in ("../escape", "two words", "_hidden", "a/./b"):
        with pytest.raises(ValueError, match="letters"):
            run_grid(grid_of(tmp_path, [bad]), tmp_path / "bad")
    # letters of any script: a probe directory named in Spanish is a trial of its own directory
    report = run_grid(grid_of(tmp_path, ["sinónimo_ü"]), tmp_path / "unicode", GridOptions(workers=1, quiet=True))
    assert list(report.results()) == ["sinónimo_ü"] and report.count("done") == 1
    assert (tmp_path / "unicode" / "trials" / "sinónimo_ü" / "result.json").is_file()


# ---------------------------------------------------------------------------- Ray
@pytest.fixture(scope="module")
def ray_session():
    """One local Ray (2 CPUs) for all Ray tests of this module (starting it takes seconds)."""
    ray = start_ray(num_cpus=2)
    yield ray
    ray.shutdown()


def test_two_ray_workers_give_the_serial_results(tmp_path, ray_session):
    marker = tmp_path / "markers"
    marker.mkdir()
    names = ["a", "b", "c", "d"]
    parallel = run_grid(grid_of(marker, names), tmp_path / "ray", GridOptions(workers=2))
    serial = run_grid(grid_of(marker, names), tmp_path / "serial", GridOptions(workers=1))
    assert not parallel.failed and parallel.results() == serial.results()
    pids = {int(p.read_text()) for p in marker.glob("*.ran")}
    assert len(pids) >= 2 and os.getpid() in pids  # the Ray trials ran in other processes
    assert "a says hello" in (tmp_path / "ray" / "trials" / "a" / "trial.log").read_text()


def niceness(name):
    return {"nice": os.nice(0)}


def test_ray_trials_run_at_the_priority_of_the_command(tmp_path, ray_session):
    """Not Ray's default niceness 15, which starves the trials behind any other work of the machine."""
    report = run_grid([Trial(name, niceness, {"name": name}) for name in "ab"], tmp_path, GridOptions(workers=2))
    assert not report.failed and report.results() == {"a": {"nice": os.nice(0)}, "b": {"nice": os.nice(0)}}


def test_a_crashed_ray_trial_is_reported_and_resumed(tmp_path, ray_session, capsys):
    marker = tmp_path / "markers"
    marker.mkdir()
    out = tmp_path / "out"
    trials = grid_of(marker, ["a", "b", "c"]) + grid_of(marker, ["d"], crash_once)
    report = run_grid(trials, out, GridOptions(workers=2))
    assert [o.status for o in report.outcomes] == ["done", "done", "done", "failed"]
    assert Path(report.failed[0].log).is_file() and report.failed[0].log in capsys.readouterr().err
    mtimes = {n: (out / "trials" / n / "result.json").stat().st_mtime_ns for n in "abc"}

    again = run_grid(trials, out, GridOptions(workers=2))
    assert [o.status for o in again.outcomes] == ["skipped"] * 3 + ["done"]
    assert [runs(marker, n) for n in "abcd"] == [1, 1, 1, 1]
    assert {n: (out / "trials" / n / "result.json").stat().st_mtime_ns for n in "abc"} == mtimes


def test_artifact_audit_on_ray_matches_the_serial_audit(tmp_path, ray_session, monkeypatch):
    """A real driver: bin/artifact_audit (tiny GloVe models) with --workers 2 and --workers 1."""
    from tests.bin.test_artifact_audit import load_cli
    from tests.models.glove_baseline_case import TINY_GLOVE

    monkeypatch.setenv("HIDDEN", "4")  # the trials get the driver's environment
    probe = tmp_path / "hypernymy"
    probe.mkdir()
    shutil.copy(DATA / "wordnetqa_hypernymy.jsonl", probe / "train.jsonl")
    shutil.copy(DATA / "dictionary_qa.jsonl", probe / "dev.jsonl")  # 8 questions, capped to 4 (test is carved)
    cli = load_cli()
    common = ["--probe-dir", str(probe), "--models", "random,choice_only,vec_similarity,question_to_choice",
              "--dev-size", "2", "--test-size", "2", "--eval-max", "4", "--epochs", "1",
              "--glove-file", str(TINY_GLOVE)]
    assert cli.main(common + ["--out", str(tmp_path / "ray"), "--workers", "2"]) == 0
    assert cli.main(common + ["--out", str(tmp_path / "serial"), "--workers", "1"]) == 0

    def scores(name):
        report = json.loads((tmp_path / name / "artifact_audit.json").read_text())
        results = report["probes"]["hypernymy"]["results"]
        return {model: (r["dev"], r["test"], r["row"]) for model, r in results.items()}

    assert scores("ray") == scores("serial") and len(scores("ray")) == 4

    def splits(name):  # the same seed gives the same split files whatever --workers
        return json.loads((tmp_path / name / "trials" / "hypernymy" / "random" / "result.json").read_text())["spec"][
            "data_sha256"]

    assert splits("ray") == splits("serial")
    assert json.loads((tmp_path / "ray" / "artifact_audit.json").read_text())["probes"]["hypernymy"]["splits"][
        "eval"]["dev"]["questions"] == 4
    spec = json.loads((tmp_path / "ray" / "trials" / "hypernymy" / "choice_only" / "result.json").read_text())["spec"]
    assert spec["config_environment"]["HIDDEN"] == "4"
    log = (tmp_path / "ray" / "trials" / "hypernymy" / "question_to_choice" / "trial.log").read_text()
    assert "trial hypernymy/question_to_choice" in log


def size_trainer(config, directory, overrides):
    """A stand-in for allennlp training: accuracy from the training file's size (and a seeded draw)."""
    size = sum(1 for _ in open(overrides["train_data_path"]))
    return round(0.5 + size / 100 + random.Random(overrides["random_seed"]).random() / 100, 6)


def test_learning_curve_on_ray_matches_the_serial_curve(tmp_path, ray_session):
    from mcqa_probes.experiments.olmpics.learning_curves import run_learning_curve
    from tests.experiments.olmpics.test_suite import AGE, AGE_DEV

    def curve(name, workers):
        return run_learning_curve("unused.jsonnet", str(AGE), str(AGE_DEV), tmp_path / name, sizes=[8, 16], seeds=2,
                                  controls=["nolang"], trainer=size_trainer, progress=False,
                                  grid_options=GridOptions(workers=workers))

    parallel, serial = curve("ray", 2), curve("serial", 1)
    assert parallel == serial and parallel["curves"]["full"]["16"] > parallel["curves"]["full"]["8"]
    assert (tmp_path / "ray" / "runs.csv").read_text() == (tmp_path / "serial" / "runs.csv").read_text()
    assert len(list((tmp_path / "ray" / "trials").glob("*/*/result.json"))) == 8
