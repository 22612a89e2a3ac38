"""mcqa_probes: probing multiple-choice QA models and masked language models, as an AllenNLP plugin.

Importing this package registers every component (allennlp imports plugin modules
non-recursively, so each subpackage is imported here explicitly).
"""
import mcqa_probes_compat

mcqa_probes_compat.install()

from mcqa_probes.common import config_env  # noqa: E402

config_env.install()

from mcqa_probes.data import dataset_readers  # noqa: E402,F401
from mcqa_probes import models  # noqa: E402,F401
from mcqa_probes import predictors  # noqa: E402,F401
from mcqa_probes import metrics  # noqa: E402,F401
from mcqa_probes import training  # noqa: E402,F401

__version__ = "0.1.0"
