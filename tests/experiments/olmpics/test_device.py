"""Device and precision in the oLMpics drivers: zero-shot MC-MLM in bf16 end to end on the CPU, and
the device / precision reaching allennlp's trainer (CUDA_DEVICE, PRECISION) in learning curves and the suite."""
import os

import torch

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.experiments.olmpics import suite
from mcqa_probes.experiments.olmpics.learning_curves import run_learning_curve
from mcqa_probes.experiments.olmpics.zero_shot import build, predict_instances, zero_shot_evaluate
from tests.conftest import FIXTURES

AGE = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl"
AGE_TRAIN = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_train.jsonl"


def scored(model_dir: str, precision: str):
    reader, model = build(model_dir, precision=precision, cuda_device=-1)
    instances = [instance for path in (AGE, AGE_TRAIN) for instance in reader.read(str(path))]
    output_dtypes, linear_dtypes = set(), set()
    linear = model.head.encoder.encoder.layer[0].attention.self.query
    hooks = [model.register_forward_hook(lambda _m, _i, output: output_dtypes.add(output["logits"].dtype)),
             linear.register_forward_hook(lambda _m, _i, output: linear_dtypes.add(output.dtype))]
    try:
        predictions = predict_instances(model, instances, batch_size=8)
    finally:
        for hook in hooks:
            hook.remove()
    return predictions, output_dtypes, linear_dtypes


def test_zero_shot_scoring_in_bf16_agrees_with_fp32(tiny_bert):
    fp32, fp32_outputs, fp32_linear = scored(tiny_bert, "fp32")
    bf16, bf16_outputs, bf16_linear = scored(tiny_bert, "bf16")
    assert fp32_linear == {torch.float32}
    assert bf16_linear == {torch.bfloat16}  # autocast really ran inside the encoder
    assert bf16_outputs == fp32_outputs == {torch.float32}  # scores come back in fp32
    f, b = torch.tensor(fp32["logits"]), torch.tensor(bf16["logits"])
    assert f.shape == b.shape == (34, 2)
    assert not torch.equal(f, b)
    margin = (f[:, 0] - f[:, 1]).abs().mean().item()
    assert (f - b).abs().max().item() < 0.1 * margin
    agree = sum(x == y for x, y in zip(fp32["best"], bf16["best"])) / len(fp32["best"])
    assert agree >= 0.9


def test_zero_shot_evaluate_reports_device_and_precision(tiny_bert):
    result = zero_shot_evaluate(tiny_bert, str(AGE), batch_size=4, cuda_device=-1, precision="bf16")
    assert result["device"] == "cpu, bf16" and result["count"] == 10


def test_learning_curve_runs_see_cuda_device_and_precision(tmp_path, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.delenv("CUDA_DEVICE", raising=False)
    seen = []

    def fake_trainer(config, serialization_dir, overrides):
        seen.append((os.environ.get("CUDA_DEVICE"), os.environ.get("PRECISION")))
        return 0.5

    run_learning_curve("config.jsonnet", str(AGE_TRAIN), str(AGE), tmp_path, sizes=[4], seeds=1,
                       trainer=fake_trainer, progress=False, precision="bf16")
    assert seen == [("-1", "bf16")]  # default device: the CPU when torch sees no GPU
    assert "CUDA_DEVICE" not in os.environ  # restored after the runs


def test_suite_passes_device_and_precision_on(tmp_path, monkeypatch):

    calls = []
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    monkeypatch.setattr(suite, "zero_shot_evaluate",
                        lambda *a, **k: calls.append(("zero_shot", k["cuda_device"], k["precision"])) or {"accuracy": 1})

    def fake_curve(*args, **kwargs):
        calls.append(("curve", kwargs["cuda_device"], kwargs["precision"]))
        return {"full": {"WS": 0.5, "MAX": 0.5}, "language_sensitivity": {}}

    monkeypatch.setattr(suite, "run_learning_curve", fake_curve)
    suite.run_suite("m", tmp_path, tmp_path / "out", sizes=[4], seeds=1, probes=["age_comparison"],
                    baselines=False, precision="fp16")
    assert calls and set(calls) == {("zero_shot", 0, "fp16"), ("curve", 0, "fp16")}  # default: GPU 0
