import json

import _jsonnet
from allennlp.common import Params

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from tests.conftest import ROOT


def test_defaults_and_overrides(monkeypatch):
    monkeypatch.delenv("MODEL_NAME", raising=False)
    monkeypatch.setenv("EPOCHS", "7")
    params = Params.from_file(str(ROOT / "training_config" / "roberta_probe.jsonnet"))
    assert params["model"]["transformer_model_name"] == "roberta-large"  # the paper's default
    assert params["trainer"]["num_epochs"] == 7
    monkeypatch.setenv("MODEL_NAME", "minilm")
    monkeypatch.setenv("LR", "3e-5")
    params = Params.from_file(str(ROOT / "training_config" / "roberta_probe.jsonnet"))
    assert params["dataset_reader"]["transformer_model_name"] == "minilm"
    assert params["trainer"]["optimizer"]["lr"] == 3e-5


def test_libsonnet_helpers():
    env = json.dumps({"A": "3", "B": "yes", "C": "0.5", "EMPTY": "", "lower_name": "x"})
    snippet = ("local env = import 'lib/env.libsonnet'; [env.int('A', 1), env.bool('B', false), env.float('C', 1.0), "
               "env.str('EMPTY', 'd'), env.str('Z', 'z'), env.str('LOWER_NAME', 'no')]")
    result = json.loads(_jsonnet.evaluate_snippet("s", snippet, ext_vars={"MCQA_PROBES_ENV": env},
                                                  jpathdir=[str(ROOT / "training_config")]))
    assert result == [3, True, 0.5, "d", "z", "x"]


def test_csqa_sanity_reaches_training_and_validation_readers(monkeypatch):
    monkeypatch.setenv("SANITY", "1")
    params = Params.from_file(str(ROOT / "training_config" / "csqa_transformer.jsonnet"))
    for key in ("dataset_reader", "validation_dataset_reader"):
        assert params[key]["type"] == "csqa" and params[key]["sanity"] is True
