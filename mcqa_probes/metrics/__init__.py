"""Metrics: instance and strict cluster accuracy, hops × distractor breakdown, learning curves.

``probe_records`` and ``learning_curve`` are plain Python (used by reports and drivers without
torch); the allennlp ``Metric`` classes (``cluster_accuracy``, ``probe_breakdown``,
``probe_metrics``) are registered through :mod:`mcqa_probes.plugin`.
"""
