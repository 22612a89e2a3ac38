import json

import pytest
import torch
from allennlp.commands.train import train_model_from_file
from allennlp.common.testing import ModelTestCase
from allennlp.data import Vocabulary
from transformers import AutoModelForMaskedLM, AutoTokenizer

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.data.dataset_readers.olmpics_mlm import OlmpicsMlmReader
from mcqa_probes.models.masked_lm_mc import MaskedLmMc
from mcqa_probes.data.candidates import candidate_token_id
from tests.conftest import FIXTURES, ROOT
from tests.olmpics_models import olmpics_bert, olmpics_roberta  # noqa: F401
from tests.mlm_families import QUESTIONS, tensors

OLMPICS = FIXTURES / "olmpics"
TRAIN = OLMPICS / "number_comparison_age_compare_masked_train.jsonl"
DEV = OLMPICS / "number_comparison_age_compare_masked_dev.jsonl"
CONFIG = ROOT / "training_config" / "olmpics_mc_mlm.jsonnet"


def layer_norm(x, module):
    mean = x.mean(-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + module.eps) * module.weight + module.bias


def gelu(x):
    return 0.5 * x * (1.0 + torch.erf(x / 2 ** 0.5))


def hand_logits(directory, stem, words):
    """Masked-LM logits of the candidate words at [MASK], from the raw weights."""
    tokenizer = AutoTokenizer.from_pretrained(directory)
    model = AutoModelForMaskedLM.from_pretrained(directory).eval()
    encoded = tokenizer(stem.replace("[MASK]", tokenizer.mask_token), return_tensors="pt")
    position = encoded["input_ids"][0].tolist().index(tokenizer.mask_token_id)
    with torch.no_grad():
        hidden = model.base_model(**encoded)[0][0, position]
        if hasattr(model, "cls"):
            head = model.cls.predictions
            dense, norm = head.transform.dense, head.transform.LayerNorm
        else:
            head = model.lm_head
            dense, norm = head.dense, head.layer_norm
        x = layer_norm(gelu(hidden @ dense.weight.T + dense.bias), norm)
        embeddings = model.get_input_embeddings().weight  # the tied output layer
        ids = [candidate_token_id(tokenizer, w) for w in words]
        by_hand = torch.stack([x @ embeddings[i] + head.bias[i] for i in ids])
        full_vocabulary = model(**encoded).logits[0, position, ids]
    return by_hand, full_vocabulary


@pytest.mark.parametrize("name", ["olmpics_bert", "olmpics_roberta"])
def test_zero_shot_scores_equal_hand_computed_masked_lm_logits(name, request):
    directory = request.getfixturevalue(name)
    reader = OlmpicsMlmReader(directory)
    model = MaskedLmMc(Vocabulary(), transformer_model_name=directory, probe_type="zero_shot").eval()
    assert not any(p.requires_grad for p in model.parameters())
    instances = [reader.text_to_instance(*q) for q in QUESTIONS]  # K = 2 and 3 in one batch
    with torch.no_grad():
        output = model(**tensors(model, instances))
    for row, (stem, words, _) in enumerate(QUESTIONS):
        by_hand, full_vocabulary = hand_logits(directory, stem, words)
        scores = output["logits"][row, : len(words)]
        assert torch.allclose(scores, by_hand, atol=1e-5)
        assert torch.allclose(scores, full_vocabulary, atol=1e-5)
        assert int(output["best_alternative"][row]) == int(by_hand.argmax())
    assert output["logits"][0, 2] < -1e30  # the padded third candidate of a K = 2 question
    expected_loss = torch.nn.functional.cross_entropy(output["logits"], torch.tensor([q[2] for q in QUESTIONS]))
    assert torch.allclose(output["loss"], expected_loss)


def snapshot(module):
    return {name: tensor.detach().clone() for name, tensor in module.state_dict().items()}


@pytest.mark.parametrize("probe_type", ["mlp", "linear"])
def test_head_probes_leave_encoder_and_embeddings_bit_identical(probe_type, olmpics_bert, tmp_path, monkeypatch):
    monkeypatch.setenv("MODEL_NAME", olmpics_bert)
    monkeypatch.setenv("PROBE_TYPE", probe_type)
    monkeypatch.setenv("EPOCHS", "2")
    monkeypatch.setenv("LR", "0.01")
    monkeypatch.setenv("BATCH_SIZE", "8")
    overrides = {"train_data_path": str(TRAIN), "validation_data_path": str(DEV)}
    original = AutoModelForMaskedLM.from_pretrained(olmpics_bert)
    model = train_model_from_file(str(CONFIG), str(tmp_path / "run"), overrides=json.dumps(overrides))
    trained = model.head.masked_lm
    before, after = snapshot(original.bert), snapshot(trained.bert)
    assert before.keys() == after.keys()
    for name in before:  # the whole encoder, input (word) embeddings included
        assert torch.equal(before[name], after[name]), name
    assert torch.equal(trained.get_input_embeddings().weight, original.get_input_embeddings().weight)
    assert torch.equal(trained.cls.predictions.decoder.weight, original.cls.predictions.decoder.weight)
    # the head did train: its own (untied) output layer and, for mlp, its hidden layer
    assert not torch.equal(model.head.untied_decoder_weight, original.cls.predictions.decoder.weight)
    transform_same = torch.equal(trained.cls.predictions.transform.dense.weight,
                                 original.cls.predictions.transform.dense.weight)
    assert transform_same == (probe_type == "linear")
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert 0.0 <= metrics["best_validation_accuracy"] <= 1.0


def test_mlp_probe_trains_saves_loads_and_is_batch_consistent(olmpics_roberta, tmp_path):
    config = {
        "dataset_reader": {"type": "olmpics_mlm", "transformer_model_name": olmpics_roberta},
        "train_data_path": str(TRAIN),
        "validation_data_path": str(DEV),
        "model": {"type": "masked_lm_mc", "transformer_model_name": olmpics_roberta, "probe_type": "mlp"},
        "data_loader": {"batch_size": 8, "shuffle": False},
        "trainer": {"num_epochs": 1, "optimizer": {"type": "adamw", "lr": 1e-3}, "cuda_device": -1,
                    "run_confidence_checks": False},
    }
    path = tmp_path / "experiment.json"
    path.write_text(json.dumps(config))
    case = ModelTestCase()
    case.setup_method()
    case.set_up_model(path, DEV)
    case.ensure_model_can_train_save_and_load(case.param_file, tolerance=1e-4)
    case.ensure_batch_predictions_are_consistent()
    case.teardown_method()
