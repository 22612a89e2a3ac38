"""Helpers for the word-level baseline tests: the real training_config/*_glove.jsonnet files, made
tiny through their environment overrides (6-d hand-made GloVe fixture, h = 4, one epoch)."""
from allennlp.common.testing import ModelTestCase
from allennlp.common import Params
from allennlp.data import Batch, DatasetReader

from tests.conftest import DATA, FIXTURES, ROOT

CONFIGS = ROOT / "training_config"
TINY_GLOVE = FIXTURES / "glove" / "tiny_glove.txt"


def tiny_glove_environment(monkeypatch, train=DATA / "wordnetqa_hypernymy.jsonl", dev=None):
    monkeypatch.setenv("GLOVE_FILE", str(TINY_GLOVE))
    monkeypatch.setenv("EMBEDDING_DIM", "6")
    monkeypatch.setenv("HIDDEN", "4")
    monkeypatch.setenv("EPOCHS", "1")
    monkeypatch.setenv("BATCH_SIZE", "4")
    monkeypatch.setenv("TRAIN_DATA", str(train))
    monkeypatch.setenv("DEV_DATA", str(dev or train))
    monkeypatch.delenv("TEST_DATA", raising=False)


def model_case(config_name: str, monkeypatch, dataset=DATA / "wordnetqa_hypernymy.jsonl") -> ModelTestCase:
    tiny_glove_environment(monkeypatch, train=dataset)
    case = ModelTestCase()
    case.setup_method()
    case.set_up_model(CONFIGS / config_name, dataset)
    case.reader = DatasetReader.from_params(Params.from_file(case.param_file)["dataset_reader"])
    return case


def tensors(case_or_model, instances):
    vocab = case_or_model.vocab if hasattr(case_or_model, "vocab") else case_or_model.model.vocab
    batch = Batch(list(instances))
    batch.index_instances(vocab)
    return batch.as_tensor_dict()
