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


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory) -> str:
    from mcqa_probes.testing import make_tiny_bert

    return str(make_tiny_bert(tmp_path_factory.mktemp("tiny_bert")))


@pytest.fixture(scope="session")
def tiny_roberta(tmp_path_factory) -> str:
    from mcqa_probes.testing import make_tiny_roberta

    return str(make_tiny_roberta(tmp_path_factory.mktemp("tiny_roberta")))
