"""Models: score the choices of a multiple-choice question."""
from mcqa_probes.models.transformer_mcqa import TransformerMcqa

__all__ = ["TransformerMcqa"]
