"""The allennlp 2.10.1 compatibility layer (mcqa_probes_compat): each fix, and its no-op path."""
import subprocess
import sys
import types

import pytest
import torch

import mcqa_probes  # noqa: F401  (installs the layer)
import mcqa_probes_compat as compat


def test_layer_is_active_at_interpreter_start_up():
    """bin/setup's .pth file imports the layer before any allennlp module (the console script case)."""
    code = "import sys; print('mcqa_probes_compat' in sys.modules); import allennlp.commands; print('ok')"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["True", "ok"]


def test_torchvision_placeholder_raises_on_use():
    import torchvision

    if not getattr(torchvision, "__mcqa_probes_placeholder__", False):
        pytest.skip("a working torchvision is installed: the placeholder is (correctly) not used")
    import torchvision.ops.boxes as box_ops  # what allennlp's region_detector does at import

    with pytest.raises(ImportError, match="torchvision is not usable"):
        box_ops.nms
    assert "torchvision" in compat.applied


def test_transformers_adamw_and_allennlp_optimizer():
    import transformers
    from allennlp.training.optimizers import HuggingfaceAdamWOptimizer

    assert hasattr(transformers, "AdamW")
    layer = torch.nn.Linear(2, 1)
    optimizer = HuggingfaceAdamWOptimizer(list(layer.named_parameters()), lr=0.1)
    before = layer.weight.detach().clone()
    layer(torch.ones(1, 2)).sum().backward()
    optimizer.step()
    assert not torch.equal(before, layer.weight)
    with pytest.raises(ValueError, match="correct_bias=False"):
        transformers.AdamW(layer.parameters(), correct_bias=False)


def test_get_tokenizer_accepts_add_special_tokens(tiny_bert):
    from allennlp.common import cached_transformers
    from allennlp.data.tokenizers import PretrainedTransformerTokenizer

    tokenizer = cached_transformers.get_tokenizer(tiny_bert, add_special_tokens=False)
    assert tokenizer.tokenize("a bird") == ["a", "bird"]
    assert [t.text for t in PretrainedTransformerTokenizer(tiny_bert).tokenize("a bird")] == ["[CLS]", "a", "bird", "[SEP]"]


def test_reduce_on_plateau_accepts_verbose():
    from allennlp.training.learning_rate_schedulers import LearningRateScheduler
    from allennlp.common import Params

    layer = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(layer.parameters(), lr=1.0)
    scheduler = LearningRateScheduler.from_params(
        Params({"type": "reduce_on_plateau", "verbose": True, "patience": 0, "factor": 0.5}), optimizer=optimizer
    )
    scheduler.step(1.0)
    scheduler.step(2.0)
    assert optimizer.param_groups[0]["lr"] == pytest.approx(0.5)


def test_no_op_when_library_does_not_need_the_fix(monkeypatch):
    """With a transformers that has no kwarg conflict, get_tokenizer is left untouched."""
    module = types.SimpleNamespace(get_tokenizer=lambda name, **kwargs: (name, kwargs))
    original = module.get_tokenizer
    monkeypatch.setattr(compat, "_tokenizer_kwarg_conflicts", lambda: False)
    compat._patch_get_tokenizer(module)
    assert module.get_tokenizer is original
    monkeypatch.setattr(compat, "_tokenizer_kwarg_conflicts", lambda: True)
    compat._patch_get_tokenizer(module)
    assert module.get_tokenizer("m", add_special_tokens=False, x=1) == ("m", {"x": 1})
    # and with a torch whose ReduceLROnPlateau still takes verbose, nothing is patched
    monkeypatch.setattr(compat, "_plateau_rejects_verbose", lambda: False)
    fake = types.SimpleNamespace(ReduceOnPlateauLearningRateScheduler=type("S", (), {"__init__": lambda self: None}))
    init = fake.ReduceOnPlateauLearningRateScheduler.__init__
    compat._patch_reduce_on_plateau(fake)
    assert fake.ReduceOnPlateauLearningRateScheduler.__init__ is init


def test_nltk_download_is_silenced_only_during_the_import(monkeypatch):
    import nltk

    calls = []
    monkeypatch.setattr(nltk, "download", lambda *a, **k: calls.append(a))
    compat._silence_nltk_download()
    assert nltk.download("punkt") is False and calls == []
    compat._restore_nltk_download()
    nltk.download("punkt")
    assert calls == [("punkt",)]


def test_allennlp_models_import_without_download_attempts():
    code = (
        "import nltk\n"
        "def boom(*a, **k): raise SystemExit('nltk.download called')\n"
        "nltk.download = boom\n"
        "import allennlp_models.rc.tools.narrativeqa\n"
        "print('imported')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and "imported" in result.stdout, result.stderr[-2000:]
