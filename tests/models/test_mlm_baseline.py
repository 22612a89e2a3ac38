import json

import torch
from allennlp.commands.train import train_model_from_file
from allennlp.data import Batch

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.data.dataset_readers.olmpics_mlm import OlmpicsMlmReader
from tests.conftest import FIXTURES, ROOT
from tests.olmpics_models import olmpics_bert  # noqa: F401

OLMPICS = FIXTURES / "olmpics"
CONFIG = ROOT / "training_config" / "olmpics_mlm_baseline.jsonnet"


def test_mlm_baseline_trains_on_first_20_glove_tokens(olmpics_bert, tmp_path, monkeypatch):
    monkeypatch.setenv("MODEL_NAME", olmpics_bert)
    monkeypatch.setenv("GLOVE_FILE", str(FIXTURES / "glove" / "tiny_glove.txt"))
    monkeypatch.setenv("EMBEDDING_DIM", "6")
    monkeypatch.setenv("HIDDEN", "8")
    monkeypatch.setenv("EPOCHS", "1")
    overrides = {"train_data_path": str(OLMPICS / "number_comparison_age_compare_masked_train.jsonl"),
                 "validation_data_path": str(OLMPICS / "number_comparison_age_compare_masked_dev.jsonl")}
    model = train_model_from_file(str(CONFIG), str(tmp_path / "run"), overrides=json.dumps(overrides))
    assert model.dense.in_features == 20 * 6  # 20 tokens x GloVe dim (1000 with the real 50-d GloVe)
    reader = OlmpicsMlmReader(olmpics_bert, word_tokens=True)
    short = reader.text_to_instance("A bird [MASK] has a fish .", ["always", "never"], 1)
    long = reader.text_to_instance(" ".join(["bird"] * 30) + " [MASK] .", ["always", "never"], 0)
    batch = Batch([short, long])
    batch.index_instances(model.vocab)
    tensors = batch.as_tensor_dict()
    model.eval()
    encoded = model.encode(tensors["words"])
    assert encoded.shape == (2, 120)
    assert torch.all(encoded[0, 7 * 6:] == 0)  # 7 tokens, zero-padded to 20
    output = model(**{k: v for k, v in tensors.items() if k != "tokens"})
    assert output["logits"].shape == (2, 2) and "loss" in output
    assert json.loads((tmp_path / "run" / "metrics.json").read_text())["best_validation_accuracy"] >= 0
