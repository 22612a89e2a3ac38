"""What every multiple-choice model shares: item records written from allennlp's evaluation loop
and the determinism audit (re-scoring at batch size 1) reported in its metrics."""
import contextlib

import pytest
import torch
from allennlp.data import Batch, Vocabulary

from mcqa_probes.data.dataset_readers.mcqa import McqaReader
from mcqa_probes.metrics.item_records import read_item_records, softmax
from mcqa_probes.models.multiple_choice_model import _one_question
from mcqa_probes.models.transformer_mcqa import TransformerMcqa
from mcqa_probes.training.evaluation import evaluate_instances
from tests.conftest import DATA


@pytest.fixture(scope="module")
def setup(tiny_bert):
    torch.manual_seed(0)
    reader = McqaReader(transformer_model_name=tiny_bert, max_length=128)
    instances = list(reader.read(DATA / "wordnetqa_hypernymy.jsonl"))
    model = TransformerMcqa(Vocabulary(), transformer_model_name=tiny_bert, dropout=0.0)
    model.eval()
    return model, instances


def tensors(model, instances):
    batch = Batch(list(instances))
    batch.index_instances(model.vocab)
    return batch.as_tensor_dict()


def test_items_file_holds_every_question_with_its_logits(setup, tmp_path):
    model, instances = setup
    with torch.no_grad():
        logits = model(**tensors(model, instances))["logits"]
    model.items_file, model.items_label = str(tmp_path / "hypernymy.jsonl"), "tiny"
    try:
        metrics = evaluate_instances(model, instances, batch_size=5)
    finally:
        model.items_file = None
    records = read_item_records(tmp_path / "hypernymy.jsonl")
    assert [r["id"] for r in records] == [i["metadata"]["id"] for i in instances]
    for record, row, instance in zip(records, logits, instances):
        assert (record["model"], record["section"], record["probe"], record["primary"]) == ("tiny", "evaluate",
                                                                                          "hypernymy", "mcqa")
        assert record["gold"] == instance["label"].sequence_index
        assert record["scores"]["mcqa"] == pytest.approx(row.tolist(), abs=1e-5)
        assert record["probabilities"]["mcqa"] == pytest.approx(softmax(row.tolist()), abs=1e-5)
    assert sum(r["correct"]["mcqa"] for r in records) / len(records) == pytest.approx(metrics["accuracy"])


def test_one_question_is_the_batch_of_one(setup):
    model, instances = setup
    batch = tensors(model, instances)
    alone = tensors(model, instances[3:4])
    single = _one_question(batch, 3)
    assert "label" not in single
    assert batch["alternatives"]["tokens"]["token_ids"].shape[-1] > alone["alternatives"]["tokens"]["token_ids"].shape[-1]
    for key in ("token_ids", "mask", "type_ids"):
        assert torch.equal(single["alternatives"]["tokens"][key], alone["alternatives"]["tokens"][key])  # padding cut


@contextlib.contextmanager
def alone_scores(model, change):
    """Make the questions scored alone get ``change(logits)``: a model that depends on the batch size."""
    forward = model.forward

    def changed(**inputs):
        output = forward(**inputs)
        output["logits"] = change(output["logits"])
        return output

    model.forward = changed
    try:
        yield
    finally:
        del model.forward


def test_determinism_audit_reports_differences_and_changed_answers(setup, monkeypatch):
    model, instances = setup
    model.audit_determinism(4, seed=2)
    metrics = evaluate_instances(model, instances, batch_size=5)
    assert metrics["determinism_questions"] == 4
    assert metrics["determinism_max_score_difference"] < 1e-4  # the same model alone: float noise at most
    assert metrics["determinism_changed_answers"] == 0

    monkeypatch.setattr(model, "batch_of_one", lambda: alone_scores(model, lambda logits: logits + 0.25))
    metrics = evaluate_instances(model, instances, batch_size=5)
    assert metrics["determinism_max_score_difference"] == pytest.approx(0.25, abs=1e-4)
    assert metrics["determinism_changed_answers"] == 0

    monkeypatch.setattr(model, "batch_of_one", lambda: alone_scores(model, lambda logits: -logits))
    metrics = evaluate_instances(model, instances, batch_size=5)
    assert metrics["determinism_changed_answers"] == 4  # the worst choice wins alone
    model.audit_determinism(0)
    assert not any(key.startswith("determinism") for key in evaluate_instances(model, instances, batch_size=5))
    assert [r["questions"] for r in model.determinism_results] == [4, 4, 4]
