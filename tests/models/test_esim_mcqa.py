import pytest
import torch

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from tests.conftest import DATA
from tests.models.glove_baseline_case import model_case, tensors


@pytest.fixture
def case(monkeypatch):
    case = model_case("esim_glove.jsonnet", monkeypatch)
    yield case
    case.teardown_method()


def test_train_save_load_and_batch_consistency(case):
    # A bias shared by every choice cancels in the softmax over choices: its gradient is 0.
    shared_bias = {"pair_model._output_logit._linear_layers.0.bias"}
    case.ensure_model_can_train_save_and_load(case.param_file, tolerance=1e-4, gradients_to_ignore=shared_bias)
    case.ensure_batch_predictions_are_consistent()


@pytest.mark.parametrize("num_choices", [2, 3, 5])
def test_any_number_of_choices(case, num_choices):
    model = case.model.eval()
    texts = ["a small songbird", "a hard rock", "a poem of fourteen lines", "a tree", "a fish"][:num_choices]
    instance = case.reader.text_to_instance("a sparrow is a kind of", texts, answer_index=num_choices - 1)
    output = model(**tensors(case, [instance]))
    assert output["logits"].shape == (1, num_choices)
    assert torch.isfinite(output["loss"])
    output["loss"].backward()


def test_mixed_choice_counts_in_one_batch_match_single_questions(case):
    """2-, 3- and 5-way questions in one batched forward: each gets the scores it gets alone."""
    model = case.model.eval()
    reader = case.reader
    instances = [
        reader.text_to_instance("a sparrow is a", ["bird", "rock"], answer_index=0),
        reader.text_to_instance("the oak is a", ["tree", "fish", "poem"], answer_index=0),
        *list(reader.read(DATA / "wordnetqa_hypernymy.jsonl"))[:1],
    ]
    together = model(**tensors(case, instances))
    assert together["logits"].shape == (3, 5)
    for row, instance in enumerate(instances):
        alone = model(**tensors(case, [instance]))["logits"][0]
        k = alone.shape[0]
        assert torch.allclose(together["logits"][row, :k], alone, atol=1e-5)
        assert torch.all(together["probabilities"][row, k:] == 0)


def test_logit_is_the_pair_classifier_score(case):
    model = case.model.eval()
    instance = case.reader.text_to_instance("a sparrow is a", ["bird", "rock", "poem"], answer_index=0)
    batch = tensors(case, [instance])
    scores = []
    for index in range(3):
        single = case.reader.text_to_instance("a sparrow is a", [["bird", "rock", "poem"][index], "x"], answer_index=0)
        scores.append(model(**tensors(case, [single]))["logits"][0, 0])
    assert torch.allclose(model(**batch)["logits"][0], torch.stack(scores), atol=1e-5)
