
import pytest

from mcqa_probes.knowledge.wordnet import graph_from_description, graph_from_nltk
from tests.conftest import FIXTURES

MINI = FIXTURES / "wordnet_mini" / "synsets.json"


def test_description_gives_concepts_isa_links_and_triples():
    graph = graph_from_description(MINI)
    assert len(graph) == 22
    dog = graph["dog.n.01"]
    assert dog.pos == "n" and dog.lemmas == ("dog", "domestic_dog") and dog.examples == ("the dogs barked all night",)
    assert graph.hypernyms("beagle.n.01") == ["hound.n.01"]
    assert sorted(graph.hyponyms("dog.n.01")) == ["hound.n.01", "puppy.n.01"]
    assert graph.irregular_forms["v:run"] == ("ran",)
    triples = list(graph.triples())
    assert ("dog.n.01", "isa↑", "animal.n.01") in triples
    assert ("animal.n.01", "isa↓", "dog.n.01") in triples
    assert ("dog.n.01", "lemma", "domestic_dog") in triples


def test_description_errors_name_the_entry():
    with pytest.raises(ValueError, match="lacks 'definition'"):
        graph_from_description({"synsets": [{"id": "x.n.01", "lemmas": ["x"]}]})
    with pytest.raises(KeyError, match="unknown concept"):
        graph_from_description({"synsets": [{"id": "x.n.01", "lemmas": ["x"], "definition": "d", "hypernyms": ["y.n.01"]}]})


class FakeSynset:
    def __init__(self, name, lemmas, definition, examples, offset, parents=(), instance_parents=()):
        self._name, self._lemmas, self._definition, self._examples = name, lemmas, definition, examples
        self._offset, self.parents, self.instance_parents = offset, list(parents), list(instance_parents)

    def name(self):
        return self._name

    def pos(self):
        return self._name.split(".")[1]

    def lemma_names(self):
        return self._lemmas

    def definition(self):
        return self._definition

    def examples(self):
        return self._examples

    def offset(self):
        return self._offset

    def lexname(self):
        return "noun.Tops"

    def hypernyms(self):
        return self.parents

    def instance_hypernyms(self):
        return self.instance_parents


class FakeReader:
    """Duck-typed NLTK WordNetCorpusReader: all_synsets(pos), get_version(), _exception_map."""

    def __init__(self):
        river = FakeSynset("river.n.01", ["river"], "a large stream", ["the river flooded"], 100)
        stream = FakeSynset("stream.n.01", ["stream", "watercourse"], "flowing water", [], 50)
        river.parents = [stream]
        mississippi = FakeSynset("mississippi.n.01", ["Mississippi"], "a long river", [], 200, instance_parents=[river])
        self.synsets = {"n": [stream, river, mississippi], "v": []}
        self._exception_map = {"n": {"geese": ["goose"]}, "v": {"ran": ["run"]}}

    def all_synsets(self, pos):
        return iter(self.synsets[pos])

    def get_version(self):
        return "3.0"


def test_nltk_adapter_maps_synsets_links_and_exceptions():
    graph = graph_from_nltk(FakeReader())
    assert graph.version == "3.0" and graph.source == "wordnet"
    river = graph["river.n.01"]
    assert river.number == 100000100  # pos digit (noun = 1) + 8-digit offset: unique across pos files
    assert river.lemmas == ("river",) and river.examples == ("the river flooded",)
    assert graph.hypernyms("river.n.01") == ["stream.n.01"]
    assert graph.hypernyms("mississippi.n.01") == ()  # instances are not "types of"
    assert graph.irregular_forms == {"n:goose": ("geese",), "v:run": ("ran",)}
    with_instances = graph_from_nltk(FakeReader(), instances=True)
    assert with_instances.hypernyms("mississippi.n.01") == ["river.n.01"]
