"""The allennlp plugin: importing this module registers every mcqa_probes component.

``.allennlp_plugins`` names this module, so the ``allennlp`` command loads it from the repository
root; ``--include-package mcqa_probes`` imports it too (allennlp imports a package's submodules
recursively). Everything that needs the registered names (``"type": "mcqa"`` in a config,
``Model.by_name("transformer_mcqa")``) imports ``mcqa_probes.plugin`` first.

allennlp imports plugin modules non-recursively, so each subpackage with registered classes is
imported here explicitly. The plain layers (knowledge sources, builders, the jsonl data model,
reports) do not import this module and so never pay for torch, allennlp or transformers.
"""
import mcqa_probes_compat

mcqa_probes_compat.install()

from mcqa_probes.common import config_env  # noqa: E402

config_env.install()

from mcqa_probes.data import dataset_readers  # noqa: E402,F401
from mcqa_probes import models  # noqa: E402,F401
from mcqa_probes import predictors  # noqa: E402,F401
from mcqa_probes.metrics import cluster_accuracy, probe_breakdown, probe_metrics  # noqa: E402,F401
from mcqa_probes import training  # noqa: E402,F401
from mcqa_probes.commands import probe_report  # noqa: E402,F401  (allennlp probe-report)
