"""Shared test fixtures: tiny local BERT / RoBERTa checkpoints (random weights, no download)."""
import os
from pathlib import Path

import pytest

# Never reach for the hub in tests.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import mcqa_probes.plugin  # noqa: E402,F401  (every test sees the registered components)

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DATA = FIXTURES / "data"


def _load_module(path: Path, name: str):
    """The Python file at ``path`` (with or without a ``.py`` suffix) run as the module ``name``."""
    import importlib.machinery
    import importlib.util

    loader = importlib.machinery.SourceFileLoader(name, str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


def load_bin(name: str):
    """bin/<name> as a module, in this process (a subprocess would re-import torch and allennlp):
    a test calls its functions or its ``main(argv)``, or patches its names first."""
    return _load_module(ROOT / "bin" / name, f"bin_{name}")


def load_fixture_script(name: str):
    """fixtures/<name>.py (a script that wrote fixture files) as a module: a test reads what the
    fixtures were made from."""
    return _load_module(FIXTURES / f"{name}.py", f"fixtures_{name}")


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory) -> str:
    from mcqa_probes.testing import make_tiny_bert

    return str(make_tiny_bert(tmp_path_factory.mktemp("tiny_bert")))


@pytest.fixture(scope="session")
def tiny_roberta(tmp_path_factory) -> str:
    from mcqa_probes.testing import make_tiny_roberta

    return str(make_tiny_roberta(tmp_path_factory.mktemp("tiny_roberta")))
