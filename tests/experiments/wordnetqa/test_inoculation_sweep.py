import json

import pytest

from mcqa_probes.experiments.wordnetqa import inoculation_sweep
from mcqa_probes.experiments.wordnetqa.inoculation_sweep import SweepSettings, mark_best, run_sweep

#: the base archive's reader, given: the archives here are names, not files (read from a real
#: archive's config otherwise; tests/bin/test_inoculate_archive.py)
READER = {"model_name": "minilm", "max_length": 128, "truncation": "question_start"}


def fake_row(k, lr, add_some, aggregate):
    return {"k": k, "lr": lr, "add_some": add_some, "probe_dev_accuracy": aggregate, "probe_test_accuracy": aggregate,
            "orig_accuracy_before": 0.6, "orig_accuracy_after": 0.5, "inoculation_cost": 10.0,
            "aggregate_accuracy": aggregate, "run_dir": "x"}


def test_best_aggregate_per_k():
    rows = mark_best([fake_row(100, 1e-5, 0, 0.4), fake_row(100, 3e-5, 0, 0.6), fake_row(1000, 1e-5, 0, 0.7),
                      fake_row(1000, 3e-5, 0, 0.5)])
    assert [r["best_for_k"] for r in rows] == [False, True, True, False]


def test_finished_runs_are_skipped(tmp_path, monkeypatch):
    """Resumption (grid runner): finished runs (trials/<run>/result.json, same settings) are read back;
    a half-finished run and runs whose settings changed train again."""
    settings = SweepSettings(base_archive="base.tar.gz", probe_dir=str(tmp_path), orig_dev="dev.jsonl", **READER,
                             out=str(tmp_path / "out"), dosages=[10, 20], lrs=[1e-5], add_some=[0])
    trained = []

    def fake_run_one(settings, point, reuse=True):
        assert reuse is False  # the runner, not run_one, decides what is finished
        trained.append(point["k"])
        return fake_row(point["k"], point["lr"], point["add_some"], 0.55 if point["k"] == 10 else 0.65)

    monkeypatch.setattr(inoculation_sweep, "run_one", fake_run_one)
    run_sweep(settings)
    assert trained == [10, 20]
    interrupted = tmp_path / "out" / "trials" / "k20_lr1e-05_add0"
    assert (interrupted / "trial.log").is_file()
    (interrupted / "result.json").unlink()
    (interrupted / "stale.txt").write_text("half a run")
    trained.clear()
    rows = run_sweep(settings)
    assert trained == [20] and not (interrupted / "stale.txt").exists()
    assert [r["aggregate_accuracy"] for r in rows] == [0.55, 0.65]
    table = (tmp_path / "out" / "inoculation.csv").read_text().splitlines()
    assert table[0].startswith("k,lr,add_some,seed,probe_dev_accuracy") and len(table) == 3
    assert (tmp_path / "out" / "inoculation_curves.png").read_bytes()[:4] == b"\x89PNG"
    trained.clear()
    settings.epochs = 5  # another spec: nothing is reused
    run_sweep(settings)
    assert trained == [10, 20]


def test_run_one_reuses_result_and_restarts_interrupted(tmp_path, monkeypatch):
    import allennlp.commands.train as train_module

    settings = SweepSettings(base_archive="b", probe_dir=str(tmp_path), orig_dev="d", out=str(tmp_path / "o"), **READER)
    run_dir = tmp_path / "o" / "runs" / "k5_lr0.001_add0"
    run_dir.mkdir(parents=True)
    (run_dir / "result.json").write_text(json.dumps({"k": 5, "reused": True}))
    monkeypatch.setattr(train_module, "train_model_from_file", lambda *a, **k: pytest.fail("must not train"))
    assert inoculation_sweep.run_one(settings, {"k": 5, "lr": 1e-3, "add_some": 0})["reused"] is True
    with pytest.raises(ValueError, match="--orig-train"):
        inoculation_sweep.run_one(settings, {"k": 6, "lr": 1e-3, "add_some": 1})


def test_seeds_are_a_grid_axis_with_their_own_runs_and_best_rows():
    from mcqa_probes.experiments.wordnetqa.inoculation_sweep import SweepSettings, grid, mark_best, point_name

    single = SweepSettings("base.tar.gz", "probe", "dev.jsonl", "out", **READER, dosages=[10, 20], lrs=[1e-5, 3e-5], seed=7)
    assert [p["seed"] for p in grid(single)] == [7, 7, 7, 7]
    assert point_name(single, next(grid(single))) == "k10_lr1e-05_add0"  # names as before without --seeds

    several = SweepSettings("base.tar.gz", "probe", "dev.jsonl", "out", **READER, dosages=[10, 20], lrs=[1e-5, 3e-5],
                            seeds=[1, 2])
    points = list(grid(several))
    names = [point_name(several, p) for p in points]
    assert len(points) == 8 and len(set(names)) == 8 and names[0] == "k10_lr1e-05_add0_s1"
    rows = [dict(p, aggregate_accuracy=p["lr"] * 1e4 + p["seed"]) for p in points]
    best = [(r["k"], r["seed"], r["lr"]) for r in mark_best(rows) if r["best_for_k"]]
    assert best == [(10, 1, 3e-5), (10, 2, 3e-5), (20, 1, 3e-5), (20, 2, 3e-5)]  # one per (k, seed)
