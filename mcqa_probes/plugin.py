"""The allennlp plugin and the Python entry point: importing this module registers every
mcqa_probes component (:func:`mcqa_probes.components.register`) and the ``allennlp probe-report``
subcommand.

``.allennlp_plugins`` names this module, so the ``allennlp`` command loads it from the repository
root; ``--include-package mcqa_probes`` imports it too. From Python::

    import mcqa_probes.plugin  # noqa: F401
    from allennlp.predictors import Predictor
    predictor = Predictor.from_path("runs/minilm_synonymy/model.tar.gz", "mcqa")

When the ``allennlp`` command itself runs, an error its subcommands do not catch (a model name
that names no model, a malformed data file) ends as every command of the package ends: one
``error:`` line and exit status 2 (:func:`mcqa_probes.common.cli.report_uncaught_errors`).

This module is the top of the stage order: nothing in the package imports it.
"""
import functools

from mcqa_probes.common import cli
from mcqa_probes.components import register


def _errors_as_one_line() -> None:
    """The ``allennlp`` command's uncaught errors through :func:`cli.report_uncaught_errors`, also
    after ``allennlp train`` installs its own hook (``prepare_global_logging``: ours is put back)."""
    from allennlp.common import logging as common_logging

    cli.report_uncaught_errors()
    prepare = common_logging.prepare_global_logging
    if getattr(prepare, "__wrapped__", None) is None:
        @functools.wraps(prepare)
        def prepare_global_logging(*args, **kwargs):
            prepare(*args, **kwargs)
            cli.report_uncaught_errors()

        common_logging.prepare_global_logging = prepare_global_logging


register()
if cli.is_allennlp_command():
    _errors_as_one_line()

from mcqa_probes.commands import probe_report  # noqa: E402,F401  (registers the allennlp probe-report subcommand)
