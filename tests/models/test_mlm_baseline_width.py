"""MLM-BASELINE's FF_MLM is as wide as the masked LM's head by default (issue 12.4)."""
import json

from allennlp.commands.train import train_model_from_file
from allennlp.data import Vocabulary
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder
from allennlp.modules.token_embedders import Embedding
from transformers import AutoConfig

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.models.mlm_baseline import MlmBaseline
from tests.conftest import FIXTURES, ROOT
from tests.olmpics_models import olmpics_bert  # noqa: F401

OLMPICS = FIXTURES / "olmpics"


def embedder(dim=6):
    return BasicTextFieldEmbedder({"glove": Embedding(embedding_dim=dim, num_embeddings=10)})


def test_default_width_is_the_masked_lms_hidden_size(olmpics_bert):
    hidden = AutoConfig.from_pretrained(olmpics_bert).hidden_size
    assert hidden != 256  # the old fixed default
    model = MlmBaseline(Vocabulary(), embedder(), transformer_model_name=olmpics_bert)
    assert model.dense.out_features == hidden == model.hidden_dim
    assert model.output_weight.shape[1] == hidden and model.layer_norm.normalized_shape == (hidden,)
    narrow = MlmBaseline(Vocabulary(), embedder(), transformer_model_name=olmpics_bert, hidden_dim=8)
    assert narrow.dense.out_features == 8


def test_config_without_hidden_uses_the_lm_width(olmpics_bert, tmp_path, monkeypatch):
    monkeypatch.setenv("MODEL_NAME", olmpics_bert)
    monkeypatch.setenv("GLOVE_FILE", str(FIXTURES / "glove" / "tiny_glove.txt"))
    monkeypatch.setenv("EMBEDDING_DIM", "6")
    monkeypatch.setenv("EPOCHS", "1")
    monkeypatch.delenv("HIDDEN", raising=False)
    overrides = {"train_data_path": str(OLMPICS / "number_comparison_age_compare_masked_train.jsonl"),
                 "validation_data_path": str(OLMPICS / "number_comparison_age_compare_masked_dev.jsonl")}
    model = train_model_from_file(str(ROOT / "training_config" / "olmpics_mlm_baseline.jsonnet"), str(tmp_path / "run"),
                                  overrides=json.dumps(overrides))
    assert model.dense.out_features == AutoConfig.from_pretrained(olmpics_bert).hidden_size
