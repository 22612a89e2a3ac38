"""Helpers for tests and benchmarks: tiny local transformer checkpoints (no download)."""
from mcqa_probes.testing.tiny_models import make_tiny_bert, make_tiny_roberta

__all__ = ["make_tiny_bert", "make_tiny_roberta"]
