"""Every bin/ command that runs a model takes --cuda-device and --precision (mcqa_probes.common.device)."""
import sys

import pytest

from tests.conftest import load_bin

#: the commands that load, train, score or evaluate a model
MODEL_COMMANDS = [
    "age_sweep", "artifact_audit", "bench_eval", "bench_mlm", "inoculate", "learning_curve", "olmpics_suite",
    "winoventi_associations", "winoventi_eval", "winoventi_filter", "winoventi_finetune", "zero_shot",
]


load_command = load_bin


def help_text(name: str, monkeypatch, capsys) -> str:
    module = load_command(name)
    monkeypatch.setattr(sys, "argv", [name, "--help"])  # for the commands whose main() takes no argv
    with pytest.raises(SystemExit) as exit_info:
        module.main()
    assert exit_info.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("name", MODEL_COMMANDS)
def test_command_takes_cuda_device_and_precision(name, monkeypatch, capsys):
    text = help_text(name, monkeypatch, capsys)
    assert "--cuda-device" in text
    assert "--precision {bf16,fp16,fp32}" in text


@pytest.mark.parametrize("name", ["zero_shot", "winoventi_filter", "learning_curve"])
def test_a_gpu_that_is_not_there_is_a_usage_error(name, monkeypatch, capsys, tmp_path):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 0)
    module = load_command(name)
    required = {
        "zero_shot": ["--model", "m", "--data", "d.jsonl"],
        "winoventi_filter": ["--model", "m", "--triples", "t.tsv", "--out", str(tmp_path / "o.tsv")],
        "learning_curve": ["--config", "c", "--train", "t", "--dev", "d", "--out", str(tmp_path)],
    }[name]
    with pytest.raises(SystemExit) as exit_info:
        module.main(required + ["--cuda-device", "0"])
    assert exit_info.value.code == 2
    assert "--cuda-device 0: torch sees 0 GPU" in capsys.readouterr().err


def test_zero_shot_passes_device_and_precision_to_the_library(monkeypatch, capsys, tmp_path):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.jsonl").write_text("{}\n")  # bin/zero_shot checks that --data holds a line before loading a model
    (tmp_path / "m").mkdir()  # and that --model names a model: "m" stands for a masked LM directory
    (tmp_path / "m" / "config.json").write_text("{}")
    module = load_command("zero_shot")  # it imports the library where it uses it, after the checks
    calls = []
    monkeypatch.setattr("mcqa_probes.experiments.olmpics.zero_shot.zero_shot_evaluate",
                        lambda *a, **k: calls.append(k) or {"accuracy": 1.0})
    monkeypatch.setattr("mcqa_probes.models.causal_lm_loading.is_causal_lm", lambda name: False)
    assert module.main(["--model", "m", "--data", "a.jsonl", "--precision", "bf16"]) == 0
    assert [(k["cuda_device"], k["precision"]) for k in calls] == [(-1, "bf16")]
