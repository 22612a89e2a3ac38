"""Experiment drivers (inoculation sweeps, ...): loops over allennlp runs, resumable."""
