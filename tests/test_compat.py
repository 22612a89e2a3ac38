"""The allennlp 2.10.1 compatibility layer (mcqa_probes_compat): each fix, and its no-op path."""
import importlib.abc
import importlib.machinery
import importlib.util
import subprocess
import sys
import types

import pytest
import torch

import mcqa_probes.plugin  # noqa: F401  (registers the components)
import mcqa_probes_compat as compat


def test_layer_is_active_at_interpreter_start_up():
    """bin/setup's .pth file imports the layer before any allennlp module (the console script case)."""
    code = "import sys; print('mcqa_probes_compat' in sys.modules); import allennlp.commands; print('ok')"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["True", "ok"]


def test_torchvision_placeholder_raises_on_use():
    """The placeholder itself (tested directly, whatever torchvision this machine has): a package
    whose submodules import and whose attributes raise a clear ImportError when used."""
    spec = importlib.machinery.ModuleSpec("torchvision", compat._PlaceholderLoader(), is_package=True)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert getattr(module, "__mcqa_probes_placeholder__", False)
    with pytest.raises(ImportError, match="torchvision is not usable"):
        module.ops
    with pytest.raises(AttributeError):
        module.__wrapped__  # dunder lookups (inspect, pickle) are plain AttributeErrors
    assert "torchvision" in compat.applied


def test_torchvision_in_this_process_is_real_or_the_placeholder():
    """allennlp's module-level ``import torchvision.ops.boxes`` works either way: a working
    torchvision is left alone (no placeholder), a missing or broken one gets the placeholder."""
    import torchvision
    import torchvision.ops.boxes as box_ops  # what allennlp's region_detector does at import

    if getattr(torchvision, "__mcqa_probes_placeholder__", False):
        with pytest.raises(ImportError, match="torchvision is not usable"):
            box_ops.nms
    else:
        assert callable(box_ops.nms)
        assert not isinstance(torchvision, compat._UnavailableModule)


def test_torchvision_finder_uses_the_real_module_when_there_is_one(monkeypatch):
    """No-op path: with a real torchvision spec the finder only wraps its loader; a real import
    that fails (the CUDA build beside the CPU torch) falls back to the placeholder."""
    finder = compat._CompatFinder()
    monkeypatch.setattr(finder, "_real_spec", lambda *args: None)
    assert isinstance(finder.find_spec("torchvision").loader, compat._PlaceholderLoader)

    class BrokenLoader(importlib.abc.Loader):
        def create_module(self, spec):
            return None

        def exec_module(self, module):
            raise RuntimeError("operator torchvision::nms does not exist")

    real = importlib.machinery.ModuleSpec("torchvision", BrokenLoader(), is_package=True)
    monkeypatch.setattr(finder, "_real_spec", lambda *args: real)
    spec = finder.find_spec("torchvision")
    assert spec is real and isinstance(spec.loader, compat._TorchvisionLoader)
    monkeypatch.delitem(sys.modules, "torchvision", raising=False)
    module = importlib.util.module_from_spec(spec)
    sys.modules["torchvision"] = module
    spec.loader.exec_module(module)
    assert getattr(sys.modules["torchvision"], "__mcqa_probes_placeholder__", False)


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

    def recorder(*args, **kwargs):
        calls.append(args)

    monkeypatch.setattr(nltk, "download", recorder)
    compat._silence_nltk_download()
    stub = nltk.download
    assert stub is not recorder
    assert stub("punkt") is False and calls == []  # the stub never reaches the real function
    compat._restore_nltk_download()
    assert nltk.download is recorder


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
