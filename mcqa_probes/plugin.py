"""The allennlp plugin and the Python entry point: importing this module registers every
mcqa_probes component (:func:`mcqa_probes.components.register`) and the ``allennlp probe-report``
subcommand.

``.allennlp_plugins`` names this module, so the ``allennlp`` command loads it from the repository
root; ``--include-package mcqa_probes`` imports it too. From Python::

    import mcqa_probes.plugin  # noqa: F401
    from allennlp.predictors import Predictor
    predictor = Predictor.from_path("runs/minilm_synonymy/model.tar.gz", "mcqa")

This module is the top of the stage order: nothing in the package imports it.
"""
from mcqa_probes.components import register

register()

from mcqa_probes.commands import probe_report  # noqa: E402,F401  (registers the allennlp probe-report subcommand)
