"""The one evaluation home: allennlp's evaluation loop and the batched prediction loop agree with
a forward pass done by hand."""
import pytest
import torch
from allennlp.data import Batch, Vocabulary

from mcqa_probes.data.dataset_readers.mcqa import McqaReader
from mcqa_probes.models.transformer_mcqa import TransformerMcqa
from mcqa_probes.training.evaluation import (
    evaluate_file,
    evaluate_instances,
    model_cuda_device,
    predict_instances,
)
from tests.conftest import DATA, FIXTURES


def by_hand(model, instances):
    batch = Batch(instances)
    batch.index_instances(model.vocab)
    with torch.no_grad():
        output = model(**batch.as_tensor_dict())
    gold = batch.as_tensor_dict()["label"].reshape(-1)
    return output["logits"], (output["logits"].argmax(-1) == gold).float().mean().item()


def test_evaluation_and_predictions_equal_a_forward_by_hand(tiny_bert):
    torch.manual_seed(0)
    reader = McqaReader(transformer_model_name=tiny_bert, max_length=64)
    path = DATA / "wordnetqa_hypernymy.jsonl"
    instances = list(reader.read(path))
    model = TransformerMcqa(Vocabulary(), transformer_model_name=tiny_bert, dropout=0.0)
    model.eval()
    logits, accuracy = by_hand(model, instances)
    assert model_cuda_device(model) == -1

    assert evaluate_instances(model, instances, batch_size=5)["accuracy"] == pytest.approx(accuracy)
    assert evaluate_file(model, reader, str(path), batch_size=3)["accuracy"] == pytest.approx(accuracy)
    assert model.get_metrics()["accuracy"] == 0.0  # the metric state is left reset

    predictions = predict_instances(model, instances, batch_size=5)
    assert predictions["best"] == logits.argmax(-1).tolist()
    assert torch.allclose(torch.tensor(predictions["logits"]), logits, atol=1e-5)


def test_evaluating_nothing_is_an_error(tiny_bert):
    model = TransformerMcqa(Vocabulary(), transformer_model_name=tiny_bert)
    with pytest.raises(ValueError, match="no instances"):
        evaluate_instances(model, [])


def test_predictions_take_the_real_choices_from_the_cpu_tensors(tiny_bert, monkeypatch):
    """On a GPU, allennlp's move_to_device moves the batch dict's tensors in place; the mask of the
    real choices (MC-MLM ``candidate_ids >= 0``) must come from the CPU tensors, as the logits come
    back to the CPU. Here the "move" leaves the caller's dict holding tensors on another device
    (``meta``, the one other device a CPU machine has) and gives the model usable ones."""
    import mcqa_probes.training.evaluation as evaluation
    from mcqa_probes.experiments.olmpics.zero_shot import build

    reader, model = build(tiny_bert, cuda_device=-1)
    instances = list(reader.read(str(FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl")))[:6]
    expected = predict_instances(model, instances, batch_size=4)

    def move_elsewhere(tensors, device):
        usable = dict(tensors)
        for key, value in tensors.items():
            if isinstance(value, torch.Tensor):
                tensors[key] = value.to("meta")
        return usable

    monkeypatch.setattr(evaluation, "move_to_device", move_elsewhere)
    assert evaluation.predict_instances(model, instances, batch_size=4) == expected
    assert all(len(row) == 2 for row in expected["logits"])          # the two real choices of each question
