"""Helpers for tests and benchmarks: tiny local transformer checkpoints (no download)."""
from mcqa_probes.testing.tiny_models import (
    TINY_CAUSAL_FAMILIES, TINY_FAMILIES, make_tiny_bert, make_tiny_causal_lm, make_tiny_masked_lm, make_tiny_roberta,
)

__all__ = ["TINY_CAUSAL_FAMILIES", "TINY_FAMILIES", "make_tiny_bert", "make_tiny_causal_lm", "make_tiny_masked_lm",
           "make_tiny_roberta"]
