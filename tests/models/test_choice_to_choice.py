import pytest
import torch

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from tests.conftest import DATA
from tests.models.glove_baseline_case import model_case, tensors


@pytest.fixture
def case(monkeypatch):
    case = model_case("choice_to_choice_glove.jsonnet", monkeypatch)
    yield case
    case.teardown_method()


def test_train_save_load_and_batch_consistency(case):
    case.ensure_model_can_train_save_and_load(case.param_file, tolerance=1e-4)
    case.ensure_batch_predictions_are_consistent()


def test_score_sums_attention_to_the_other_choices_only(case):
    model = case.model.eval()
    instance = case.reader.text_to_instance("anything", ["a small songbird", "a hard rock", "a poem"], answer_index=0)
    batch = tensors(case, [instance])
    represented, _ = model.encode(batch["choices"], num_wrapping_dims=1)
    pairs = model.matrix_attention(represented, represented)[0]
    expected = pairs.sum(0) - pairs.diagonal()
    assert torch.allclose(model(**batch)["logits"][0], expected, atol=1e-5)
    changed = case.reader.text_to_instance("a different question", ["a small songbird", "a hard rock", "a poem"])
    assert torch.equal(model(**tensors(case, [changed]))["logits"], model(**batch)["logits"])


def test_padding_choices_do_not_change_real_scores(case):
    model = case.model.eval()
    instances = list(case.reader.read(DATA / "science_mixed.jsonl"))
    together = model(**tensors(case, instances))["logits"]
    alone = model(**tensors(case, instances[:1]))["logits"]
    assert torch.allclose(alone[0], together[0, :4], atol=1e-5)
