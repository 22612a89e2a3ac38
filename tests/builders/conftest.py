import pytest

from mcqa_probes.knowledge.wordnet import graph_from_description
from tests.conftest import FIXTURES

MINI = FIXTURES / "wordnet_mini" / "synsets.json"

#: settings that let the tiny taxonomy ask about every ancestor (no depth filter)
MINI_SETTINGS = {"min_answer_depth": {"n": 0, "v": 0}}


@pytest.fixture
def mini_graph():
    return graph_from_description(MINI)
