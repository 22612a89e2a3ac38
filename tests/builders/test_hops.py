import pytest

from mcqa_probes.builders.hops import Taxonomy, chain_text, sister_chain_text
from mcqa_probes.knowledge.wordnet import graph_from_description


def test_hops_up_with_hop_counts_and_chains(mini_graph):
    tax = Taxonomy(mini_graph, max_hops=5)
    up = tax.up("beagle.n.01")
    assert {c: len(chain) - 1 for c, chain in up.items()} == {
        "hound.n.01": 1, "dog.n.01": 2, "animal.n.01": 3, "organism.n.01": 4, "entity.n.01": 5,
    }
    assert chain_text(up["animal.n.01"], "up") == "beagle.n.01=>hound.n.01=>dog.n.01=>animal.n.01"
    assert set(Taxonomy(mini_graph, max_hops=2).up("beagle.n.01")) == {"hound.n.01", "dog.n.01"}
    assert tax.up_levels("beagle.n.01", 4) == [["hound.n.01"], ["dog.n.01"], ["animal.n.01"], ["organism.n.01"]]


def test_hops_down_levels(mini_graph):
    tax = Taxonomy(mini_graph, max_hops=5)
    assert tax.down_levels("dog.n.01", 4) == [["hound.n.01", "puppy.n.01"], ["beagle.n.01"]]
    assert tax.down_levels("animal.n.01", 4) == [
        ["bird.n.01", "cat.n.01", "dog.n.01"],
        ["hound.n.01", "kitten.n.01", "puppy.n.01", "robin.n.01"],
        ["beagle.n.01"],
    ]
    assert chain_text(tax.down("dog.n.01")["beagle.n.01"], "down") == "dog.n.01<=hound.n.01<=beagle.n.01"
    assert tax.down_levels("oak.n.01", 4) == []


def test_sister_families_by_hand(mini_graph):
    tax = Taxonomy(mini_graph)
    assert list(tax.sisters("dog.n.01", 1)) == ["bird.n.01", "cat.n.01"]
    assert list(tax.sisters("dog.n.01", 2)) == ["bird.n.01", "cat.n.01", "kitten.n.01", "robin.n.01"]
    assert list(tax.sister_layer("dog.n.01", 2)) == ["kitten.n.01", "robin.n.01"]
    assert sister_chain_text(tax.sisters("dog.n.01", 2)["kitten.n.01"]) == "dog.n.01=>animal.n.01<=cat.n.01<=kitten.n.01"
    assert list(tax.sisters("hound.n.01", 1)) == ["puppy.n.01"]
    assert list(tax.sister_layer("hound.n.01", 2)) == []
    assert list(tax.sisters("animal.n.01", 2)) == ["plant.n.01", "tree.n.01"]
    assert list(tax.sisters("run.v.01", 1)) == ["walk.v.01"]
    assert list(tax.sisters("oak.n.01", 2)) == []  # an only child has no sisters
    assert list(tax.sisters("entity.n.01", 1)) == []


def test_depth_and_ancestors(mini_graph):
    tax = Taxonomy(mini_graph)
    assert [tax.depth(c) for c in ("entity.n.01", "animal.n.01", "beagle.n.01", "move.v.01", "sprint.v.01")] == [0, 2, 5, 0, 2]
    assert tax.ancestors("sprint.v.01") == {"run.v.01", "move.v.01"}
    assert tax.is_ancestor("dog.n.01", "beagle.n.01") and not tax.is_ancestor("beagle.n.01", "dog.n.01")


def test_multiple_inheritance_sister_that_is_an_ancestor_is_not_a_sister():
    # x isa b, x isa a, b isa a: b is a child of x's parent a, but also x's own parent
    graph = graph_from_description({"synsets": [
        {"id": "a.n.01", "lemmas": ["a"], "definition": "A"},
        {"id": "b.n.01", "lemmas": ["b"], "definition": "B", "hypernyms": ["a.n.01"]},
        {"id": "x.n.01", "lemmas": ["x"], "definition": "X", "hypernyms": ["a.n.01", "b.n.01"]},
        {"id": "y.n.01", "lemmas": ["y"], "definition": "Y", "hypernyms": ["a.n.01"]},
    ]})
    tax = Taxonomy(graph)
    assert list(tax.sisters("x.n.01", 1)) == ["y.n.01"]
    assert {c: len(chain) - 1 for c, chain in tax.up("x.n.01").items()} == {"a.n.01": 1, "b.n.01": 1}


def test_bad_limits():
    with pytest.raises(ValueError):
        Taxonomy(graph_from_description({"synsets": []}), max_hops=0)


@pytest.mark.parametrize("seed", range(6))
def test_the_shared_sister_pools_are_the_sister_layers(seed):
    """sister_pool / sister_chain read a parent's family in place for a concept with one parent edge
    and the union of its parents' families for one with several; they must give exactly sister_layer's
    ids, in its order, with its chains, on random hierarchies with multiple parents and (for half of
    them) implied parents that make cycles."""
    import random

    from mcqa_probes.knowledge.graph import Concept, KnowledgeGraph

    rng = random.Random(seed)
    graph = KnowledgeGraph(source="r", version="1")
    names = [f"c{i:03d}" for i in range(120)]
    for name in names:
        graph.add(Concept(id=name, pos="n", lemmas=(name,), definition=""))
    for index, name in enumerate(names[1:], 1):
        for parent in rng.sample(names[:index], 1 if rng.random() < 0.7 else min(rng.choice([2, 3]), index)):
            graph.add_isa(name, parent)
    if seed % 2:
        for _ in range(25):
            child, parent = rng.sample(names, 2)
            graph.add_implied_isa(child, parent)
    tax = Taxonomy(graph, max_hops=5)
    single = several = 0
    for concept in names:
        single += len(graph.hypernyms(concept)) == 1
        several += len(graph.hypernyms(concept)) > 1
        for level in (1, 2, 3):
            layer = Taxonomy(graph, max_hops=5).sister_layer(concept, level)
            pool = tax.sister_pool(concept, level)
            assert list(pool) == list(layer) and len(pool) == len(layer), (concept, level)
            assert [pool[i] for i in range(len(pool))] == list(layer)
            assert all(tax.sister_chain(concept, level, other) == chain for other, chain in layer.items())
    assert single > 60 and several > 20


def test_a_hierarchy_thousands_of_levels_deep_has_its_depths_and_ancestors_without_recursion():
    """A chain of 2,000 concepts and a diamond at its foot: depth and ancestors are walks, not
    recursions (a recursion passed Python's limit near 1,000 levels: RecursionError)."""
    from mcqa_probes.knowledge.graph import Concept, KnowledgeGraph

    graph = KnowledgeGraph(source="chain", version="1")
    names = [f"c{i:04d}" for i in range(2000)] + ["left", "right", "foot"]
    for name in names:
        graph.add(Concept(id=name, pos="n", lemmas=(name,), definition=""))
    for child, parent in zip(names[1:2000], names[:1999]):
        graph.add_isa(child, parent)
    for child, parent in [("left", "c1999"), ("right", "c0500"), ("foot", "left"), ("foot", "right")]:
        graph.add_isa(child, parent)
    tax = Taxonomy(graph)
    assert tax.depth("foot") == 502 and tax.depth("left") == 2000 and tax.depth("c1999") == 1999
    assert tax.ancestors("foot") == frozenset(names[:2000]) | {"left", "right"}
    assert tax.ancestors("right") == frozenset(names[:501])
    assert tax.depth("c0000") == 0 and tax.ancestors("c0000") == frozenset()
