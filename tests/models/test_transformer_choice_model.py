"""The base of the models over one pretrained transformer: the config keys of the base
(``transformer_model_name``) and of ``MultipleChoiceModel`` (``cluster_key``, ``precision``) are read
through each registered model's ``**kwargs``, as the configs and archives have them."""
import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.models import Model

from mcqa_probes.models.transformer_choice_model import TransformerChoiceModel


@pytest.mark.parametrize("name,keys", [
    ("transformer_mcqa", {"pooling": "mean", "dropout": 0.0}),
    ("masked_lm_mc", {"probe_type": "linear", "pll_batch_size": 8}),
    ("winoventi_mlm", {"probe_type": "zero_shot", "pll_batch_size": 256}),
])
def test_registered_models_read_the_base_keys_from_the_config(name, keys, tiny_bert):
    params = Params({"type": name, "transformer_model_name": tiny_bert, "cluster_key": "notes.synset_id",
                     "precision": "bf16", **keys})
    model = Model.from_params(vocab=Vocabulary(), params=params)
    assert isinstance(model, TransformerChoiceModel)
    assert model.transformer_model_name == tiny_bert
    assert (model.precision, model.probe_metrics.cluster_key_field) == ("bf16", "notes.synset_id")
    assert model._use_type_ids  # the tiny BERT takes token type ids
    for key, value in keys.items():
        assert (model.dropout.p if key == "dropout" else getattr(model, key)) == value


def test_an_unknown_key_is_still_a_configuration_error(tiny_bert):
    params = Params({"type": "transformer_mcqa", "transformer_model_name": tiny_bert, "no_such_key": 1})
    with pytest.raises((ConfigurationError, TypeError)):
        Model.from_params(vocab=Vocabulary(), params=params)


@pytest.mark.parametrize("name,key,value,expected", [
    ("transformer_mcqa", "pooling", "max", "model.pooling: expected one of ('first_token', 'pooler', 'mean'), got 'max'"),
    ("masked_lm_mc", "probe_type", "lora",
     "model.probe_type: expected one of ('zero_shot', 'mlp', 'linear', 'full'), got 'lora'"),
])
def test_a_value_outside_the_choices_names_the_key(name, key, value, expected, tiny_bert):
    params = Params({"type": name, "transformer_model_name": tiny_bert, key: value})
    with pytest.raises(ValueError) as error:
        Model.from_params(vocab=Vocabulary(), params=params)
    assert str(error.value) == expected
