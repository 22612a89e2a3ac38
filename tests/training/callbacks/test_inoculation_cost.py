"""The inoculation-cost callback's numbers equal direct evaluations before and after training."""
import json
import os

import pytest
import torch
from allennlp.commands.train import train_model_from_file
from allennlp.data.data_loaders import SimpleDataLoader
from allennlp.models.archival import load_archive

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.training.callbacks.inoculation_cost import InoculationCost
from tests.conftest import DATA, ROOT
from tests.models.test_transformer_mcqa import write_config

ORIGINAL = DATA / "dictionary_qa.jsonl"
PROBE = DATA / "wordnetqa_hypernymy.jsonl"


def accuracy_of(archive):
    loaded = load_archive(str(archive))
    instances = list(loaded.validation_dataset_reader.read(str(ORIGINAL)))  # not the dosage reader
    model = loaded.model.eval()
    right = total = 0
    with torch.no_grad():
        for batch in SimpleDataLoader(instances, 8, vocab=model.vocab):
            output = model(**batch)
            right += int((output["logits"].argmax(-1) == batch["label"].reshape(-1)).sum())
            total += int(batch["label"].numel())
    return right / total


@pytest.fixture(scope="module")
def inoculated(tmp_path_factory, tiny_bert):
    directory = tmp_path_factory.mktemp("inoculation")
    base_config = write_config(directory, tiny_bert, train_file="dictionary_qa.jsonl")
    train_model_from_file(str(base_config), str(directory / "base"))
    variables = {"MODEL_NAME": tiny_bert, "BASE_ARCHIVE": str(directory / "base" / "model.tar.gz"),
                 "PROBE_TRAIN": str(PROBE), "PROBE_DEV": str(PROBE), "ORIG_DEV": str(ORIGINAL),
                 "DOSAGE": "6", "EPOCHS": "1", "LR": "5e-3", "BATCH_SIZE": "3",
                 "MAX_LENGTH": "64", "TRUNCATION": "longest_first"}  # the base archive's reader settings
    saved = {k: os.environ.get(k) for k in variables}
    os.environ.update(variables)
    try:
        train_model_from_file(str(ROOT / "training_config" / "inoculate.jsonnet"), str(directory / "inoculated"))
    finally:
        for key, value in saved.items():
            os.environ.pop(key) if value is None else os.environ.__setitem__(key, value)
    return directory


def test_numbers_equal_direct_evaluation(inoculated):
    metrics = json.loads((inoculated / "inoculated" / "metrics.json").read_text())
    before = accuracy_of(inoculated / "base" / "model.tar.gz")
    after = accuracy_of(inoculated / "inoculated" / "model.tar.gz")
    assert metrics["orig_accuracy_before"] == pytest.approx(before)
    assert metrics["orig_accuracy"] == pytest.approx(after)
    assert metrics["inoculation_cost"] == pytest.approx(100 * (before - after))  # positive = worse
    assert metrics["aggregate_accuracy"] == pytest.approx((metrics["best_validation_accuracy"] + after) / 2)
    epoch = json.loads((inoculated / "inoculated" / "metrics_epoch_0.json").read_text())
    assert epoch["validation_orig_accuracy_before"] == pytest.approx(before)
    assert epoch["validation_aggregate_accuracy"] == pytest.approx(
        (epoch["validation_accuracy"] + epoch["validation_orig_accuracy"]) / 2)


def test_cost_sign_and_state_round_trip(tiny_bert):
    callback = InoculationCost("/tmp", original_data_path=str(ORIGINAL))
    callback.orig_accuracy_before = 0.75
    callback.evaluate_original = lambda trainer: 0.5  # the model got worse
    result = callback._original_metrics(None, {"accuracy": 0.9})
    assert result["inoculation_cost"] == pytest.approx(25.0) and result["aggregate_accuracy"] == pytest.approx(0.7)
    restored = InoculationCost("/tmp", original_data_path=str(ORIGINAL))
    restored.load_state_dict(callback.state_dict())
    assert restored.orig_accuracy_before == 0.75 and restored.history == [0.5]


def test_leaves_the_model_in_its_mode(tiny_bert):
    from allennlp.data import Vocabulary

    from mcqa_probes.data.dataset_readers.mcqa import McqaReader
    from mcqa_probes.models.transformer_mcqa import TransformerMcqa

    model = TransformerMcqa(Vocabulary(), transformer_model_name=tiny_bert)
    trainer = type("T", (), {"model": model, "data_loader": None})()
    callback = InoculationCost("/tmp", original_data_path=str(ORIGINAL), original_reader=McqaReader(transformer_model_name=tiny_bert))
    for mode in (True, False):
        model.train(mode)
        accuracy = callback.evaluate_original(trainer)
        assert model.training is mode and 0.0 <= accuracy <= 1.0
    assert model.get_metrics()["accuracy"] == 0.0  # the model's own metric state was cleared


def test_the_end_takes_the_best_epochs_measurement_and_scores_only_without_one(tiny_bert):
    callback = InoculationCost("/tmp", original_data_path=str(ORIGINAL))
    callback.orig_accuracy_before = 0.75
    scored = []
    callback.evaluate_original = lambda trainer: scored.append(1) or 0.5
    metrics = {"best_validation_accuracy": 0.9, "best_validation_orig_accuracy": 0.6}
    callback.on_end(None, metrics)  # the best epoch's weights are loaded: its measurement stands
    assert not scored and metrics["orig_accuracy"] == 0.6
    assert metrics["inoculation_cost"] == pytest.approx(15.0) and metrics["aggregate_accuracy"] == pytest.approx(0.75)
    metrics = {"best_validation_accuracy": 0.9}  # no validation measurement of the original task
    callback.on_end(None, metrics)
    assert scored == [1] and metrics["orig_accuracy"] == 0.5 and callback.history == [0.5]
