"""bin/inoculate --model: the inoculation grid for a causal LM (training_config/inoculate_causal.jsonnet)
on a tiny random Llama, through the same reader, callback and grid runner as the encoder sweep."""
import csv
import json
import runpy

import pytest

from mcqa_probes.experiments.causal_lm.zero_shot import causal_zero_shot_evaluate
from mcqa_probes.experiments.wordnetqa.inoculation_sweep import SweepSettings
from tests.causal_models import tiny_causal  # noqa: F401
from tests.conftest import FIXTURES, ROOT

PROBE = FIXTURES / "probes" / "hypernymy"
ORIGINAL = FIXTURES / "olmpics" / "conjunction_filt4_dev.jsonl"


@pytest.fixture(scope="module")
def inoculated(tiny_causal, tmp_path_factory):
    directory = tiny_causal("llama", 512)
    out = tmp_path_factory.mktemp("inoculate_causal") / "sweep"
    main = runpy.run_path(str(ROOT / "bin" / "inoculate"), run_name="bin_script")["main"]
    argv = ["--model", directory, "--probe-dir", str(PROBE), "--orig-dev", str(ORIGINAL), "--dosages", "4,8",
            "--lrs", "3e-2", "--epochs", "1", "--batch-size", "4", "--dev-max", "6", "--orig-dev-max", "8", "--workers", "1",
            "--cuda-device", "-1", "--out", str(out)]
    assert main(argv) == 0
    return directory, out, main, argv


def rows(out):
    with open(out / "inoculation.csv") as handle:
        return list(csv.DictReader(handle))


def test_the_grid_reports_the_cost_against_the_zero_shot_model(inoculated):
    directory, out, _, _ = inoculated
    table = rows(out)
    assert [(r["k"], r["lr"]) for r in table] == [("4", "0.03"), ("8", "0.03")]
    zero_shot = causal_zero_shot_evaluate(directory, str(ORIGINAL), "sum", limit=8, cuda_device=-1)["accuracy"]
    for row in table:
        before, after = float(row["orig_accuracy_before"]), float(row["orig_accuracy_after"])
        assert before == pytest.approx(zero_shot)  # LoRA's B starts at zero: the untrained model is zero-shot
        assert float(row["inoculation_cost"]) == pytest.approx(100 * (before - after))
        assert float(row["aggregate_accuracy"]) == pytest.approx((float(row["probe_dev_accuracy"]) + after) / 2)
        assert row["probe_test_accuracy"] != ""
    assert (out / "inoculation_curves.png").read_bytes()[:4] == b"\x89PNG"
    assert "| k | lr |" in (out / "inoculation.md").read_text()


def test_each_run_trains_its_dose_and_archives_only_the_adapters(inoculated):
    _, out, _, _ = inoculated
    import tarfile

    import torch

    for k in (4, 8):
        run = out / "runs" / f"k{k}_lr0.03_add0"
        config = json.loads((run / "config.json").read_text())
        assert config["model"]["type"] == "causal_lm_mc" and config["model"]["probe_type"] == "lora"
        assert config["dataset_reader"]["type"] == "inoculation" and config["dataset_reader"]["dosage"] == k
        with tarfile.open(run / "model.tar.gz") as archive:
            names = archive.getnames()
            archive.extract("weights.th", run / "unpacked", filter="data")
        assert "weights.th" in names
        weights = torch.load(run / "unpacked" / "weights.th", map_location="cpu")
        assert weights and all("lora_" in key for key in weights)  # adapters only, no LM weights
        assert any(value.abs().sum() > 0 for key, value in weights.items() if "lora_B" in key)  # B left zero: trained
        metrics = json.loads((run / "metrics.json").read_text())
        assert metrics["best_epoch"] == 0 and "inoculation_cost" in metrics


def test_a_killed_grid_resumes_with_only_the_missing_run(inoculated):
    _, out, main, argv = inoculated
    kept = out / "trials" / "k4_lr0.03_add0" / "result.json"
    lost = out / "trials" / "k8_lr0.03_add0" / "result.json"
    stamp = kept.stat().st_mtime_ns
    lost.unlink()  # as if the grid had been killed during k=8
    assert main(argv) == 0
    assert kept.stat().st_mtime_ns == stamp and lost.is_file()
    assert len(rows(out)) == 2


def test_settings_name_one_model():
    with pytest.raises(ValueError, match="either a base archive"):
        SweepSettings(None, "probe", "dev.jsonl", "out")
    with pytest.raises(ValueError, match="not both"):
        SweepSettings("base.tar.gz", "probe", "dev.jsonl", "out", causal_model="smollm2")
    assert SweepSettings(None, "p", "d", "o", causal_model="smollm2").config.endswith("inoculate_causal.jsonnet")
