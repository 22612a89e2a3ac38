"""The artifact audit trains and scores every model on the chosen device, in the chosen precision."""
import os

import torch

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.experiments.wordnetqa import artifact_audit
from tests.conftest import DATA
from tests.models.glove_baseline_case import TINY_GLOVE


def test_run_audit_puts_cuda_device_and_precision_in_every_run(tmp_path, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    probe = tmp_path / "hypernymy"
    probe.mkdir()
    (probe / "train.jsonl").write_text((DATA / "wordnetqa_hypernymy.jsonl").read_text())
    seen = []

    def fake_train_and_score(model, paths, run_dir, settings, keep_model=False):
        seen.append((model.key, settings["CUDA_DEVICE"], settings["PRECISION"]))
        return {"dev": 0.5, "test": 0.5}

    monkeypatch.setattr(artifact_audit, "train_and_score", fake_train_and_score)
    artifact_audit.run_audit([probe], tmp_path / "out", models=["random", "choice_only"], dev_size=2, test_size=2,
                             glove_file=TINY_GLOVE, progress=lambda _: None, precision="bf16")
    assert seen == [("choice_only", "-1", "bf16")]


def test_train_and_score_trains_and_evaluates_on_the_settings_device(tmp_path, monkeypatch):
    import allennlp.commands.train as train_module

    trained_env, evaluated = {}, []

    from allennlp.data import Vocabulary

    class Trained(torch.nn.Linear):
        vocab = Vocabulary()

    model = Trained(1, 1)

    def fake_train_model(params, serialization_dir, force=False):
        trained_env.update(CUDA_DEVICE=os.environ.get("CUDA_DEVICE"), PRECISION=os.environ.get("PRECISION"))
        trained_env["config"] = (params["trainer"]["cuda_device"], params["model"]["precision"])
        return model

    import mcqa_probes.training.evaluation as evaluation_module

    devices = []
    monkeypatch.setattr(train_module, "train_model", fake_train_model)
    # dev and test are scored through the one evaluation loop, on the model where train_and_score put it
    monkeypatch.setattr(evaluation_module, "evaluate_file",
                        lambda trained, reader, path, batch_size=64, **_:
                        evaluated.append((trained, path)) or {"accuracy": 0.5})

    def fake_device(number):  # no GPU here: record which device was asked for
        devices.append(number)
        return torch.device("cpu")

    monkeypatch.setattr(artifact_audit, "torch_device", fake_device)
    path = str(DATA / "wordnetqa_hypernymy.jsonl")
    scores = artifact_audit.train_and_score(
        artifact_audit.MODELS["choice_only"], {"train": path, "dev": path, "test": path}, tmp_path / "run",
        {"CUDA_DEVICE": "0", "PRECISION": "bf16", "GLOVE_FILE": str(TINY_GLOVE), "EMBEDDING_DIM": "6"},
    )
    assert trained_env == {"CUDA_DEVICE": "0", "PRECISION": "bf16", "config": (0, "bf16")}
    assert devices == [0]                             # the model goes to the settings' device ...
    assert evaluated == [(model, path), (model, path)]  # ... where dev and test are scored
    assert scores["dev"] == scores["test"] == 0.5
