"""Registration of every allennlp component of mcqa_probes: one explicit call, :func:`register`.

allennlp finds components by name (``"type": "mcqa"`` in a config, ``Model.by_name("transformer_mcqa")``);
the names exist once the modules that define them have been imported. :func:`register` imports
them (dataset readers, models, metrics, predictors, training callbacks and readers), installs the
compatibility layer and the configs' environment variables, and may be called any number of times.

Who calls it: :mod:`mcqa_probes.plugin` (what ``.allennlp_plugins`` and ``--include-package``
load), the experiment drivers (:mod:`mcqa_probes.experiments`, also inside Ray workers) and the
bin/ commands. From Python, ``import mcqa_probes.plugin`` (or ``mcqa_probes.components.register()``)
before ``Predictor.from_path(...)`` or ``Model.from_params(...)``.

The imports sit inside the function so that importing this module (and the package) stays free
of torch and allennlp; this module sits above models/metrics/training/predictors and below
experiments in the stage order (docs/layout.md).
"""
_REGISTERED = False


def register() -> None:
    """Import every module that registers an allennlp component (idempotent)."""
    global _REGISTERED
    if _REGISTERED:
        return
    import mcqa_probes_compat  # lazy: registration is a call, importing this module must cost nothing

    mcqa_probes_compat.install()
    from mcqa_probes.common import config_env  # lazy: as above

    config_env.install()
    # Imported for their registrations (Registrable.register decorators run at import).
    from mcqa_probes import models, predictors, training  # noqa: F401  # lazy: torch/allennlp, loaded when registering
    from mcqa_probes.data import dataset_readers  # noqa: F401  # lazy: as above
    from mcqa_probes.metrics import cluster_accuracy, probe_breakdown, probe_metrics  # noqa: F401  # lazy: as above
    from mcqa_probes.data.dataset_readers import causal_lm_mc as _causal_reader  # noqa: F401  # lazy: as above
    from mcqa_probes.models import causal_lm_mc as _causal_model  # noqa: F401  # lazy: as above

    _REGISTERED = True
