"""mcqa_probes: probing multiple-choice QA models and masked language models, as an AllenNLP plugin.

Importing the package is cheap: the plain layers (``knowledge``, ``builders``, the jsonl data model
``data.question``, ``reports``, ``resources``) import without torch, allennlp or transformers.
Registering the allennlp components is the job of :mod:`mcqa_probes.plugin` (named in
``.allennlp_plugins``; ``--include-package mcqa_probes`` imports it too); the experiment drivers
(``mcqa_probes.experiments``) import it themselves.

The allennlp compatibility layer is installed here (it only registers an import hook, no torch),
so any import of the package gets it even without the ``.pth`` file that ``bin/setup`` writes.
"""
import mcqa_probes_compat

mcqa_probes_compat.install()

__version__ = "0.1.0"
