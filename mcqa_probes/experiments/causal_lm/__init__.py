"""Causal-LM experiments: the benchmark against lm-evaluation-harness (``bin/bench_causal``)."""
