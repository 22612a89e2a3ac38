"""Predictors: answer questions with a trained archive."""
from mcqa_probes.predictors.mcqa import McqaPredictor

__all__ = ["McqaPredictor"]
