"""Environment-variable overrides with defaults for the jsonnet configs.

Jsonnet cannot test whether an external variable exists, so ``std.extVar("MODEL_NAME")`` alone
cannot have a default. allennlp passes every environment variable as an extVar; this module adds
one more, ``MCQA_PROBES_ENV``, holding all of them as a JSON object. ``training_config/lib/env.libsonnet``
reads it and offers ``env.str("MODEL_NAME", "roberta-large")`` and friends, so a config has
defaults and any value can be overridden from the shell:

    MODEL_NAME=minilm EPOCHS=1 allennlp train training_config/roberta_probe.jsonnet -s runs/x

It also offers ``MCQA_PROBES_GLOVE_50D``: the path of the offline GloVe 6B 50d file
(``env.glove_50d`` in the libsonnet), so GloVe configs need no machine-specific path.

Installed when ``mcqa_probes`` is imported (i.e. as an allennlp plugin, before configs are read).
"""
import functools
import json
import os
from mcqa_probes.resources.glove import glove_50d_file

EXT_VAR = "MCQA_PROBES_ENV"


#: Derived defaults offered to configs (the environment can still override them).
GLOVE_50D_VARIABLE = "MCQA_PROBES_GLOVE_50D"


def _derived_defaults():
    defaults = {}
    try:

        defaults[GLOVE_50D_VARIABLE] = str(glove_50d_file(create=False))
    except Exception:  # the config then needs GLOVE_FILE; allennlp reports a missing file clearly
        pass
    return defaults


def environment_json() -> str:
    variables = _derived_defaults()
    variables.update({key: value for key, value in os.environ.items() if key != EXT_VAR})
    return json.dumps(variables, sort_keys=True)


def install() -> None:
    from allennlp.common import params

    original = params._environment_variables
    if getattr(original, "__mcqa_probes_env__", False):
        return

    @functools.wraps(original)
    def _environment_variables():
        variables = dict(original())
        variables[EXT_VAR] = environment_json()
        return variables

    _environment_variables.__mcqa_probes_env__ = True
    params._environment_variables = _environment_variables
