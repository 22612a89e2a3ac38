import pytest
import torch

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from tests.models.glove_baseline_case import model_case, tensors


@pytest.fixture
def case(monkeypatch):
    case = model_case("question_to_choice_glove.jsonnet", monkeypatch)
    yield case
    case.teardown_method()


def test_train_save_load_and_batch_consistency(case):
    case.ensure_model_can_train_save_and_load(case.param_file, tolerance=1e-4)
    case.ensure_batch_predictions_are_consistent()


def test_score_is_attention_between_question_and_choice_vectors(case):
    model = case.model.eval()
    choices = ["a small songbird", "a hard rock", "a poem"]
    instance = case.reader.text_to_instance("a sparrow is a kind of", choices, answer_index=0)
    batch = tensors(case, [instance])
    question_vector, _ = model.encode(batch["question"])
    choice_vectors, _ = model.encode(batch["choices"], num_wrapping_dims=1)
    expected = model.matrix_attention(question_vector.unsqueeze(1), choice_vectors)[0, 0]
    logits = model(**batch)["logits"]
    assert torch.allclose(logits[0], expected, atol=1e-6)
    other = case.reader.text_to_instance("the poem of fourteen lines is a", choices, answer_index=2)
    assert not torch.allclose(model(**tensors(case, [other]))["logits"], logits)


def test_bilinear_scorer_config(monkeypatch):
    monkeypatch.setenv("ATTENTION", "bilinear")
    case = model_case("question_to_choice_glove.jsonnet", monkeypatch)
    try:
        assert type(case.model.matrix_attention).__name__ == "BilinearMatrixAttention"
        output = case.model(**tensors(case, case.instances[:3]))
        output["loss"].backward()
    finally:
        case.teardown_method()
