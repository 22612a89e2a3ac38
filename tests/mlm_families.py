"""Tiny random masked LMs of every family the MC-MLM scoring supports (built once per session, lazily)."""
import pytest

from mcqa_probes.testing.tiny_models import TINY_FAMILIES
from tests.olmpics_models import OLMPICS_WORDS

FAMILIES = TINY_FAMILIES  # bert, roberta, distilbert, albert, mobilebert, electra


@pytest.fixture(scope="session")
def tiny_mlm(tmp_path_factory):
    """``tiny_mlm(family)`` -> directory of a tiny ``*ForMaskedLM`` of that family (oLMpics words)."""
    from mcqa_probes.testing import make_tiny_masked_lm

    built = {}

    def get(family: str) -> str:
        if family not in built:
            built[family] = str(make_tiny_masked_lm(tmp_path_factory.mktemp(f"mlm_{family}"), family,
                                                    words=OLMPICS_WORDS, seed=3))
        return built[family]

    return get


#: small MC-MLM questions (stem with [MASK], candidates, gold index) shared by the model tests
QUESTIONS = [
    ("A 15 year old person is [MASK] than a 16 year old person .", ["younger", "older"], 0),
    ("A bird [MASK] has a fish .", ["always", "never", "sometimes"], 1),
    ("A sparrow and a salmon are both a type of [MASK] .", ["tool", "animal", "plant"], 1),
]


def tensors(model, instances):
    """The tensor dict of a batch of instances, indexed with the model's vocabulary."""
    from allennlp.data import Batch

    batch = Batch(instances)
    batch.index_instances(model.vocab)
    return batch.as_tensor_dict()
