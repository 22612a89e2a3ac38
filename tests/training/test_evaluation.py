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
from tests.conftest import DATA


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
