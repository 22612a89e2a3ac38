import copy
import json

import pytest
import torch
from allennlp.common.testing import ModelTestCase

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from tests.conftest import DATA


def write_config(directory, model_dir, train_file="wordnetqa_hypernymy.jsonl"):
    config = {
        "dataset_reader": {"type": "mcqa", "transformer_model_name": model_dir, "max_length": 64},
        "train_data_path": str(DATA / train_file),
        "validation_data_path": str(DATA / train_file),
        "model": {"type": "transformer_mcqa", "transformer_model_name": model_dir, "dropout": 0.0},
        "data_loader": {"batch_size": 4, "shuffle": False},
        "trainer": {"num_epochs": 1, "optimizer": {"type": "adamw", "lr": 1e-3}, "cuda_device": -1},
    }
    path = directory / "experiment.json"
    path.write_text(json.dumps(config))
    return path


@pytest.fixture(params=["tiny_bert", "tiny_roberta"])
def model_case(request, tmp_path):
    model_dir = request.getfixturevalue(request.param)
    case = ModelTestCase()
    case.setup_method()
    config = write_config(tmp_path, model_dir)
    case.set_up_model(config, DATA / "wordnetqa_hypernymy.jsonl")
    yield case
    case.teardown_method()


def shift_invariant_parameters(model):
    """Parameters whose gradient is exactly zero in exact arithmetic, so allennlp's "every parameter
    gets a non-zero gradient" check passes or fails on float round-off (it failed for tiny RoBERTa
    under torch 2.11, where the round-off came out as exact zeros):

    * attention key biases: ``q . (k + b)`` adds the same ``q . b`` to every score of a softmax row;
    * the last layer's output LayerNorm bias and ``choice_scorer.bias``: with first-token pooling and
      one linear scorer shared by all choices they add the same constant to every choice's logit,
      and the loss is a softmax over the choices.
    """
    names = [name for name, _ in model.named_parameters()]
    last_layer = max(int(name.split(".layer.")[1].split(".")[0]) for name in names if ".layer." in name)
    return {
        name
        for name in names
        if name.endswith("attention.self.key.bias")
        or name == "choice_scorer.bias"
        or name.endswith(f"layer.{last_layer}.output.LayerNorm.bias")
    }


def test_shift_invariant_parameters_really_get_no_gradient(model_case):
    """The parameters the gradient check ignores are exactly those whose gradient is zero in exact
    arithmetic (softmax and LayerNorm are shift-invariant in them).

    Checked in float64, where round-off is ~1e-16: the ignored gradients are below 1e-12 while
    every other parameter's gradient is above 1e-9 (in float32 the two were only ~13x apart on
    some BLAS builds, so a ratio of round-offs decided the verdict)."""
    model = copy.deepcopy(model_case.model).double()
    model.eval()
    batch = model_case.dataset.as_tensor_dict(model_case.dataset.get_padding_lengths())
    model(**batch)["loss"].backward()
    ignored = shift_invariant_parameters(model)
    assert len(ignored) == 4  # 2 layers' key biases, the last output LayerNorm bias, the scorer bias
    largest = max(model.get_parameter(name).grad.abs().max().item() for name in ignored)
    smallest_other = min(
        parameter.grad.abs().max().item() for name, parameter in model.named_parameters() if name not in ignored
    )
    assert largest < 1e-12, largest
    assert smallest_other > 1e-9, smallest_other


def test_train_save_load_and_batch_consistency(model_case):
    model_case.ensure_model_can_train_save_and_load(
        model_case.param_file, tolerance=1e-4, gradients_to_ignore=shift_invariant_parameters(model_case.model)
    )
    model_case.ensure_batch_predictions_are_consistent()


def test_output_has_probabilities_loss_and_accuracy(model_case):
    model = model_case.model
    model.eval()
    batch = model_case.dataset.as_tensor_dict(model_case.dataset.get_padding_lengths())
    output = model(**batch)
    probabilities = output["probabilities"]
    assert probabilities.shape == (12, 5)
    assert torch.allclose(probabilities.sum(-1), torch.ones(12), atol=1e-5)
    expected = torch.nn.functional.cross_entropy(output["logits"], batch["label"].reshape(-1))
    assert torch.isclose(output["loss"], expected)
    gold = batch["label"].reshape(-1)
    accuracy = (output["logits"].argmax(-1) == gold).float().mean().item()
    assert model.get_metrics(reset=True)["accuracy"] == pytest.approx(accuracy)
    readable = model.make_output_human_readable(dict(output))
    best = output["best_alternative"].tolist()
    assert readable["best_text"][0] == output["choices"][0][best[0]]


def test_ragged_choices_are_masked(tiny_bert):
    """Questions with 4 and 5 choices in one batch: the padded 5th choice gets probability 0."""
    from allennlp.data import Batch, Vocabulary

    from mcqa_probes.data.dataset_readers.mcqa import McqaReader
    from mcqa_probes.models.transformer_mcqa import TransformerMcqa

    reader = McqaReader(transformer_model_name=tiny_bert)
    instances = list(reader.read(DATA / "science_mixed.jsonl"))
    model = TransformerMcqa(Vocabulary(), transformer_model_name=tiny_bert).eval()
    batch = Batch(instances)
    batch.index_instances(Vocabulary())
    output = model(**batch.as_tensor_dict())
    assert output["probabilities"][0, 4].item() == 0.0
    alone = Batch(instances[:1])
    alone.index_instances(Vocabulary())
    single = model(**alone.as_tensor_dict())
    assert torch.allclose(single["probabilities"][0], output["probabilities"][0, :4], atol=1e-5)
