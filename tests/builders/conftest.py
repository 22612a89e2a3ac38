import pytest

from mcqa_probes.knowledge.wordnet import graph_from_description
from tests.conftest import FIXTURES

MINI = FIXTURES / "wordnet_mini" / "synsets.json"

#: settings that let the tiny taxonomy ask about every ancestor (no depth filter)
# The hand-computed expectations use the plain DISTR of the paper: random distractors from all
# concepts and families filling all four distractors (test_wordnetqa checks the choice-only
# controls isa_random_from_answers / max_family_distractors separately).
MINI_SETTINGS = {"min_answer_depth": {"n": 0, "v": 0}, "isa_random_from_answers": False,
                 "max_family_distractors": 4}


def write_taxonomy(folder, rows, edges):
    """A TSV pair in ``folder`` (made): ``rows`` (id, label, synonyms, definition), ``edges`` (child,
    parent) of is_a or (child, relation, parent). Returns the folder."""
    folder.mkdir()
    (folder / "concepts.tsv").write_text("id\tlabel\tsynonyms\tdefinition\n" + "".join("\t".join(r) + "\n" for r in rows),
                                         encoding="utf-8")
    (folder / "edges.tsv").write_text("child\trelation\tparent\n" + "".join(
        "\t".join(edge if len(edge) == 3 else (edge[0], "is_a", edge[1])) + "\n" for edge in edges), encoding="utf-8")
    return folder


@pytest.fixture
def mini_graph():
    return graph_from_description(MINI)
