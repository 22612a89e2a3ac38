import pytest
import torch

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from tests.conftest import DATA
from tests.models.glove_baseline_case import model_case, tensors

TRAINABLE_GLOVE_FREE = {"text_field_embedder.token_embedder_tokens.weight"}


@pytest.fixture
def case(monkeypatch):
    case = model_case("choice_only_glove.jsonnet", monkeypatch)
    yield case
    case.teardown_method()


def test_train_save_load_and_batch_consistency(case):
    case.ensure_model_can_train_save_and_load(case.param_file, tolerance=1e-4)
    case.ensure_batch_predictions_are_consistent()


def test_output_is_a_distribution_over_choices_with_cross_entropy(case):
    model = case.model.eval()
    batch = tensors(case, case.instances)
    output = model(**batch)
    assert output["probabilities"].shape == (12, 5)
    assert torch.allclose(output["probabilities"].sum(-1), torch.ones(12))
    expected = torch.nn.functional.cross_entropy(output["logits"], batch["label"].reshape(-1))
    assert torch.isclose(output["loss"], expected)


def test_question_is_never_seen(case):
    """Same scores whatever the question says (or how long it is)."""
    model = case.model.eval()
    reader = case.reader
    choices = ["a small brownish songbird", "a hard coarse grained igneous rock", "a poem of fourteen lines"]
    outputs = []
    for stem in ["a sparrow is a kind of", "which of these is a poem", "oak"]:
        instance = reader.text_to_instance(stem, choices, answer_index=0)
        outputs.append(model(**tensors(case, [instance]))["logits"])
    assert torch.equal(outputs[0], outputs[1]) and torch.equal(outputs[0], outputs[2])
    other = reader.text_to_instance("a sparrow is a kind of", list(reversed(choices)), answer_index=0)
    assert torch.allclose(model(**tensors(case, [other]))["logits"].flip(-1), outputs[0])


def test_padded_choices_get_zero_probability(case):
    model = case.model.eval()
    instances = list(case.reader.read(DATA / "science_mixed.jsonl"))
    output = model(**tensors(case, instances))
    assert output["probabilities"].shape[1] == 5
    assert output["probabilities"][0, 4].item() == 0.0
    alone = model(**tensors(case, instances[:1]))
    assert torch.allclose(alone["probabilities"][0], output["probabilities"][0, :4], atol=1e-6)
