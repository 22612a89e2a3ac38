"""Device selection and precision (mcqa_probes.common.device), without a GPU: torch.cuda is monkeypatched."""
import argparse

import pytest
import torch

from mcqa_probes.common import device
from mcqa_probes.common.device import (
    add_device_arguments,
    autocast,
    check_requested_device,
    config_environment,
    cuda_device_from_args,
    place_model,
    resolve_cuda_device,
)


def fake_gpus(monkeypatch, count: int) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: count > 0)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: count)


def test_default_is_cpu_without_a_gpu(monkeypatch):
    fake_gpus(monkeypatch, 0)
    assert resolve_cuda_device(None) == -1


def test_default_is_the_first_gpu_when_torch_sees_one(monkeypatch):
    fake_gpus(monkeypatch, 2)
    assert resolve_cuda_device(None) == 0


def test_minus_one_forces_the_cpu_even_with_a_gpu(monkeypatch):
    fake_gpus(monkeypatch, 1)
    assert resolve_cuda_device(-1) == -1
    assert resolve_cuda_device(-3) == -1


def test_an_existing_gpu_number_is_kept(monkeypatch):
    fake_gpus(monkeypatch, 2)
    assert resolve_cuda_device(1) == 1
    assert resolve_cuda_device("1") == 1


@pytest.mark.parametrize("gpus, asked", [(0, 0), (1, 1), (2, 5)])
def test_a_gpu_that_is_not_there_is_an_error(monkeypatch, gpus, asked):
    fake_gpus(monkeypatch, gpus)
    with pytest.raises(ValueError, match=rf"--cuda-device {asked}: torch sees {gpus} GPU"):
        resolve_cuda_device(asked)


def test_parser_options_and_defaults():
    parser = add_device_arguments(argparse.ArgumentParser())
    args = parser.parse_args([])
    assert args.cuda_device is None and args.precision == "fp32"
    args = parser.parse_args(["--cuda-device", "-1", "--precision", "bf16"])
    assert args.cuda_device == -1 and args.precision == "bf16"
    with pytest.raises(SystemExit):
        parser.parse_args(["--precision", "fp8"])
    only_device = add_device_arguments(argparse.ArgumentParser(), precision=False).parse_args([])
    assert not hasattr(only_device, "precision")


def test_a_missing_gpu_is_a_usage_error_of_the_command(monkeypatch, capsys):
    fake_gpus(monkeypatch, 0)
    parser = add_device_arguments(argparse.ArgumentParser(prog="zero_shot"))
    with pytest.raises(SystemExit) as exit_info:
        cuda_device_from_args(parser, parser.parse_args(["--cuda-device", "0"]))
    assert exit_info.value.code == 2
    assert "--cuda-device 0: torch sees 0 GPU" in capsys.readouterr().err
    assert cuda_device_from_args(parser, parser.parse_args([])) == -1


def test_a_requested_gpu_is_checked_at_once_and_the_default_waits(monkeypatch, capsys):
    parser = add_device_arguments(argparse.ArgumentParser(prog="zero_shot"))
    monkeypatch.setattr(device, "default_cuda_device", lambda: pytest.fail("the default resolved too early"))
    check_requested_device(parser, parser.parse_args([]))  # nothing asked for: nothing loads
    check_requested_device(parser, parser.parse_args(["--cuda-device", "-1"]))
    fake_gpus(monkeypatch, 0)
    with pytest.raises(SystemExit) as exit_info:
        check_requested_device(parser, parser.parse_args(["--cuda-device", "0"]))
    assert exit_info.value.code == 2
    assert "--cuda-device 0: torch sees 0 GPU" in capsys.readouterr().err


def test_config_environment_names_the_variables_the_configs_read():
    assert config_environment(-1) == {"CUDA_DEVICE": "-1"}
    assert config_environment(0, "bf16") == {"CUDA_DEVICE": "0", "PRECISION": "bf16"}
    with pytest.raises(ValueError, match="precision"):
        config_environment(0, "half")


def test_autocast_fp32_is_a_no_op_and_bf16_lowers_matmuls_on_cpu():
    linear = torch.nn.Linear(4, 3)
    x = torch.randn(2, 4)
    with autocast(-1, "fp32"):
        assert linear(x).dtype == torch.float32
    with autocast(-1, "bf16"):
        assert linear(x).dtype == torch.bfloat16
    with autocast(torch.device("cpu"), "bf16"):
        assert linear(x).dtype == torch.bfloat16
    with pytest.raises(ValueError, match="precision"):
        autocast(-1, "int8")


def test_place_model_sets_precision_and_refuses_it_for_models_without_one():
    class Scorer(torch.nn.Linear):
        precision = "fp32"

    scorer = place_model(Scorer(2, 1), -1, "bf16")
    assert scorer.precision == "bf16"
    assert next(scorer.parameters()).device.type == "cpu"
    place_model(torch.nn.Linear(2, 1), -1, "fp32")  # fp32 needs no support
    with pytest.raises(ValueError, match="fp32 only"):
        place_model(torch.nn.Linear(2, 1), -1, "bf16")


def test_describe():
    assert device.describe(-1, "bf16") == "cpu, bf16"


TRAINED_CONFIGS = ["roberta_probe", "olmpics_mc_qa", "olmpics_mc_mlm", "olmpics_mlm_baseline", "esim_glove",
                   "question_to_choice_glove", "choice_only_glove", "choice_to_choice_glove", "winoventi_finetune",
                   "inoculate", "choice_only_transformer", "csqa_transformer"]
MODEL_PRECISION_CONFIGS = [c for c in TRAINED_CONFIGS if c != "inoculate"] + ["vec_similarity_glove",
                                                                             "winoventi_zero_shot"]


def load_config(name: str):
    from allennlp.common import Params

    import mcqa_probes.plugin  # noqa: F401  (registers the components)
    from tests.conftest import ROOT

    return Params.from_file(str(ROOT / "training_config" / f"{name}.jsonnet")).as_dict(quiet=True)


@pytest.mark.parametrize("name", sorted(set(TRAINED_CONFIGS + MODEL_PRECISION_CONFIGS)))
def test_configs_read_cuda_device_use_amp_and_precision(name, monkeypatch):
    for variable in ("CUDA_DEVICE", "USE_AMP", "PRECISION"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("GLOVE_FILE", "fixtures/glove/tiny_glove.txt")
    defaults = load_config(name)
    monkeypatch.setenv("CUDA_DEVICE", "1")
    monkeypatch.setenv("USE_AMP", "true")
    monkeypatch.setenv("PRECISION", "bf16")
    configured = load_config(name)
    if name in TRAINED_CONFIGS:
        assert (defaults["trainer"]["cuda_device"], defaults["trainer"]["use_amp"]) == (-1, False)
        assert (configured["trainer"]["cuda_device"], configured["trainer"]["use_amp"]) == (1, True)
    if name in MODEL_PRECISION_CONFIGS:
        assert defaults["model"]["precision"] == "fp32"
        assert configured["model"]["precision"] == "bf16"
