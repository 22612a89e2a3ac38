"""Tiny masked LMs for the oLMpics tests: the default word list plus the fixture and control words."""
import pytest

from mcqa_probes.data.olmpics_controls import NONSENSE_WORDS
from mcqa_probes.testing.tiny_models import DEFAULT_WORDS

OLMPICS_WORDS = list(DEFAULT_WORDS) + list(NONSENSE_WORDS) + ["larger", "mask", "younger", "older"]


@pytest.fixture(scope="session")
def olmpics_bert(tmp_path_factory) -> str:
    from mcqa_probes.testing import make_tiny_bert

    return str(make_tiny_bert(tmp_path_factory.mktemp("olmpics_bert"), words=OLMPICS_WORDS))


@pytest.fixture(scope="session")
def olmpics_roberta(tmp_path_factory) -> str:
    from mcqa_probes.testing import make_tiny_roberta

    return str(make_tiny_roberta(tmp_path_factory.mktemp("olmpics_roberta"), words=OLMPICS_WORDS))
