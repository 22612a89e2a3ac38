"""The inoculation sweep trains (CUDA_DEVICE) and scores the probe test set on the chosen device."""
import json
import os
import types

import torch

from mcqa_probes.experiments.wordnetqa import inoculation_sweep
from mcqa_probes.experiments.wordnetqa.inoculation_sweep import SweepSettings
from tests.conftest import DATA

#: the base archive's reader, given: the archives here are names, not files (read from a real
#: archive's config otherwise; tests/bin/test_inoculate_archive.py)
READER = {"model_name": "minilm", "max_length": 128, "truncation": "question_start"}


def test_run_one_trains_and_scores_on_the_chosen_device(tmp_path, monkeypatch):
    import allennlp.commands.train as train_module

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    for name in ("train", "dev", "test"):
        (tmp_path / f"{name}.jsonl").write_text((DATA / "wordnetqa_hypernymy.jsonl").read_text())
    trained, scored = [], []

    def fake_train(config, serialization_dir):
        trained.append(os.environ.get("CUDA_DEVICE"))
        os.makedirs(serialization_dir, exist_ok=True)
        metrics = {"best_validation_accuracy": 0.5, "orig_accuracy_before": 0.6, "orig_accuracy": 0.55,
                   "inoculation_cost": 5.0, "aggregate_accuracy": 0.525}
        with open(os.path.join(serialization_dir, "metrics.json"), "w") as handle:
            json.dump(metrics, handle)

    monkeypatch.setattr(train_module, "train_model_from_file", fake_train)
    monkeypatch.setattr(inoculation_sweep, "_evaluate",
                        lambda archive, data, batch_size, cuda_device, precision: scored.append((cuda_device, precision)) or 0.4)
    settings = SweepSettings(base_archive="b", probe_dir=str(tmp_path), orig_dev="d", out=str(tmp_path / "o"), **READER,
                             cuda_device=1, precision="bf16")
    row = inoculation_sweep.run_one(settings, {"k": 5, "lr": 1e-3, "add_some": 0})
    assert trained == ["1"] and scored == [(1, "bf16")] and row["probe_test_accuracy"] == 0.4


def test_evaluate_loads_places_and_evaluates_on_the_device(monkeypatch):
    """The archive is loaded on the device, the model set to the precision, and scored by the one
    evaluation helper (allennlp's evaluation loop) with the archive's validation reader."""
    import mcqa_probes.training.evaluation as evaluation

    class Scorer(torch.nn.Linear):
        precision = "fp32"
        vocab = None

    model = Scorer(1, 1)
    reader = object()
    calls = {}

    def fake_load_archive(path, cuda_device=-1):
        calls["load"] = cuda_device
        return types.SimpleNamespace(model=model, validation_dataset_reader=reader)

    def fake_evaluate_file(got_model, got_reader, data_path, batch_size):
        calls["evaluate"] = (got_model is model, got_reader is reader, data_path, batch_size, got_model.precision)
        return {"accuracy": 0.75}

    monkeypatch.setattr(evaluation, "load_archive", fake_load_archive)
    monkeypatch.setattr(inoculation_sweep, "evaluate_file", fake_evaluate_file)
    assert inoculation_sweep._evaluate("model.tar.gz", "test.jsonl", 8, -1, "bf16") == 0.75
    assert calls == {"load": -1, "evaluate": (True, True, "test.jsonl", 8, "bf16")}
