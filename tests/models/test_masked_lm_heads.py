"""Candidate scoring equals each family's own masked-LM logits; head probes leave the encoder alone."""
import pytest
import torch
from allennlp.data import Vocabulary
from transformers import AutoModelForMaskedLM, AutoTokenizer

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.data.dataset_readers.olmpics_mlm import OlmpicsMlmReader
from mcqa_probes.models import masked_lm_scoring
from mcqa_probes.models.masked_lm_mc import MaskedLmMc
from mcqa_probes.data.candidates import candidate_token_id
from mcqa_probes.models.masked_lm_scoring import MaskedLmHead
from tests.mlm_families import FAMILIES, QUESTIONS, tensors, tiny_mlm  # noqa: F401



def hf_candidate_logits(directory, stem, words):
    """``AutoModelForMaskedLM(...)(...).logits[mask, ids]``: the model's own full-vocabulary forward."""
    tokenizer = AutoTokenizer.from_pretrained(directory)
    model = AutoModelForMaskedLM.from_pretrained(directory).eval()
    encoded = tokenizer(stem.replace("[MASK]", tokenizer.mask_token), return_tensors="pt")
    if "token_type_ids" in encoded and "token_type_ids" not in model.forward.__code__.co_varnames:
        encoded.pop("token_type_ids")  # DistilBERT
    position = encoded["input_ids"][0].tolist().index(tokenizer.mask_token_id)
    ids = [candidate_token_id(tokenizer, w) for w in words]
    with torch.no_grad():
        return model(**encoded).logits[0, position, ids]


def model_scores(directory, **model_kwargs):
    reader = OlmpicsMlmReader(directory)
    model = MaskedLmMc(Vocabulary(), transformer_model_name=directory, probe_type="zero_shot", **model_kwargs).eval()
    with torch.no_grad():
        output = model(**tensors(model, [reader.text_to_instance(*q) for q in QUESTIONS]))
    return model, output["logits"]


@pytest.mark.parametrize("family", FAMILIES)
def test_candidate_logits_equal_the_models_own_logits(family, tiny_mlm):
    directory = tiny_mlm(family)
    model, logits = model_scores(directory)
    assert model.head.family == family  # the frugal K-candidate path, not the fallback
    for row, (stem, words, _) in enumerate(QUESTIONS):
        expected = hf_candidate_logits(directory, stem, words)
        assert torch.allclose(logits[row, : len(words)], expected, atol=1e-5, rtol=0), (family, row)


def test_mobilebert_output_layer_is_wider_than_its_decoder(tiny_mlm):
    model = AutoModelForMaskedLM.from_pretrained(tiny_mlm("mobilebert"))
    decoder = model.get_output_embeddings()
    assert decoder.weight.shape[1] < model.config.hidden_size  # 16-wide decoder, hidden 32
    head = MaskedLmHead(model)
    assert len(head.output_layer_parameters()) == 3  # decoder weight, bias, dense block


@pytest.mark.parametrize("family", ["mobilebert", "electra"])
def test_unknown_layout_runs_the_models_own_head(family, tiny_mlm, monkeypatch):
    monkeypatch.setattr(masked_lm_scoring, "_layout", lambda model: None)
    directory = tiny_mlm(family)
    model, logits = model_scores(directory)
    assert model.head.family == "own_head"
    for row, (stem, words, _) in enumerate(QUESTIONS):
        assert torch.allclose(logits[row, : len(words)], hf_candidate_logits(directory, stem, words), atol=1e-5)


def test_a_wrong_layout_is_caught_and_the_own_head_used(tiny_mlm, monkeypatch):
    real = masked_lm_scoring._layout

    def without_extra_columns(model):  # MobileBERT read as plain BERT: misses the dense block
        layout = real(model)
        return layout._replace(family="bert", extra_columns=None) if layout is not None else None

    monkeypatch.setattr(masked_lm_scoring, "_layout", without_extra_columns)
    head = MaskedLmHead(AutoModelForMaskedLM.from_pretrained(tiny_mlm("electra")))
    assert head.family == "bert"  # right layout: kept
    directory = tiny_mlm("mobilebert")
    model, logits = model_scores(directory)
    assert model.head.family == "own_head"
    stem, words, _ = QUESTIONS[1]
    assert torch.allclose(logits[1, : len(words)], hf_candidate_logits(directory, stem, words), atol=1e-5)


def snapshot(module):
    return {name: tensor.detach().clone() for name, tensor in module.state_dict().items()}


def train_steps(model, instances, steps=3, lr=0.05):
    optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=lr)
    model.train()
    for _ in range(steps):
        optimizer.zero_grad()
        loss = model(**tensors(model, instances))["loss"]
        loss.backward()
        optimizer.step()
    model.eval()


PROBE_CASES = [(f, p, False) for f in FAMILIES for p in ("mlp", "linear")] + [
    (f, p, True) for f in ("bert", "mobilebert") for p in ("mlp", "linear")  # the own-head path too
]


@pytest.mark.parametrize("family,probe_type,own_head", PROBE_CASES)
def test_head_probes_keep_encoder_and_embeddings_bit_identical(family, probe_type, own_head, tiny_mlm, monkeypatch):
    if own_head:
        monkeypatch.setattr(masked_lm_scoring, "_layout", lambda model: None)
    directory = tiny_mlm(family)
    reader = OlmpicsMlmReader(directory)
    model = MaskedLmMc(Vocabulary(), transformer_model_name=directory, probe_type=probe_type)
    original = AutoModelForMaskedLM.from_pretrained(directory)
    head = model.head
    assert head.untied_decoder_weight is not None and not head.decoder_is_tied()
    trainable = {id(p) for p in model.parameters() if p.requires_grad}
    assert trainable, "nothing trains"
    encoder_before = snapshot(head.encoder)
    output_before = head.untied_decoder_weight.detach().clone()
    transform_before = [p.detach().clone() for p in head.transform_parameters()]
    train_steps(model, [reader.text_to_instance(*q) for q in QUESTIONS])
    after = snapshot(head.encoder)
    assert encoder_before.keys() == after.keys()
    for name in after:  # the whole encoder, input (word) embeddings included
        assert torch.equal(after[name], encoder_before[name]), (family, name)
        assert torch.equal(after[name], original.base_model.state_dict()[name]), (family, name)
    assert torch.equal(head.input_embeddings.weight, original.get_input_embeddings().weight)
    assert torch.equal(head.masked_lm.get_output_embeddings().weight, original.get_output_embeddings().weight)
    # the head did train: its own (untied) output layer and, for mlp only, its hidden layer
    assert not torch.equal(head.untied_decoder_weight, output_before)
    transform_same = all(torch.equal(a, b) for a, b in zip(transform_before, head.transform_parameters()))
    assert transform_same == (probe_type == "linear"), family
    # scoring after training is the model's own head with the trained (untied) output weight
    stem, words, _ = QUESTIONS[0]
    instance = reader.text_to_instance(stem, words, 0)
    with torch.no_grad():
        scores = model(**tensors(model, [instance]))["logits"][0]
        t = tensors(model, [instance])
        hidden = head.hidden_at(t["tokens"]["tokens"]["token_ids"], t["tokens"]["tokens"]["mask"].long(),
                                t["mask_position"], t["tokens"]["tokens"].get("type_ids") if model._use_type_ids else None)
        own = head.own_head_logits(hidden)[0, t["candidate_ids"][0]]
    assert torch.allclose(scores, own, atol=1e-5)
