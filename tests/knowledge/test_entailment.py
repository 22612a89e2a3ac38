"""Sub-relations, property chains and classification under defined classes (structural, named classes only)."""
from mcqa_probes.knowledge.entailment import chain_relations, classify, sub_relation_links, super_relations
from mcqa_probes.knowledge.graph import Concept, KnowledgeGraph


def graph_of(names, isa, links=()):
    graph = KnowledgeGraph(source="t", version="1")
    for name in names:
        graph.add(Concept(id=name, pos="n", lemmas=(name,), definition=""))
    for child, parent in isa:
        graph.add_isa(child, parent)
    for subject, relation, obj in links:
        graph.add_relation(subject, relation, obj)
    return graph


def test_super_relations_chain_and_survive_a_cycle():
    parents = {"member_of": ["part_of"], "part_of": ["overlaps"], "a": ["b"], "b": ["a"]}
    assert super_relations(parents) == {"member_of": {"part_of", "overlaps"}, "part_of": {"overlaps"},
                                        "a": {"b"}, "b": {"a"}}
    assert sub_relation_links([("cow", "member_of", "herd")], parents) == [
        ("cow", "overlaps", "herd"), ("cow", "part_of", "herd")]


def test_classification_goes_round_after_round_and_follows_sub_relations_and_filler_subclasses():
    names = ["food", "pizza", "topping", "cheese", "mozzarella", "margherita", "cheesy", "very cheesy", "plain"]
    graph = graph_of(names, [("pizza", "food"), ("topping", "food"), ("cheese", "topping"), ("mozzarella", "cheese"),
                             ("margherita", "pizza"), ("plain", "pizza")],
                     [("margherita", "has_mozzarella", "mozzarella")])
    definitions = [
        ("cheesy", ["pizza"], [("has_topping", "cheese")], []),        # cheesy = pizza and has_topping some cheese
        ("very cheesy", ["cheesy"], [], [["mozzarella", "margherita"]]),  # = cheesy and (mozzarella or margherita)
        ("unknown", ["pizza"], [], []),                                  # not a concept: left out
    ]
    added = classify(graph, definitions, {"has_mozzarella": ["has_topping"]})
    # margherita: a pizza with a sub-relation link to a kind of cheese; then, a cheesy pizza, very cheesy
    assert added == [("margherita", "cheesy"), ("margherita", "very cheesy")]
    assert set(graph.implied_hypernyms("margherita")) == {"cheesy", "very cheesy"}
    assert not graph.implied_hypernyms("plain") and not graph.hypernyms("cheesy")


def test_a_definition_with_a_conjunct_outside_the_source_classifies_nothing():
    graph = graph_of(["pizza", "margherita", "cheesy"], [("margherita", "pizza")], [("margherita", "has_topping", "pizza")])
    assert classify(graph, [("cheesy", ["pizza"], [("has_topping", "external:cheese")], [])], {}) == []
    assert classify(graph, [("cheesy", ["pizza"], [("has_topping", "pizza")], [])], {}) == [("margherita", "cheesy")]


def test_the_relations_a_closure_follows_come_from_the_chains_of_the_relation_and_of_its_sub_relations():
    """``regulates`` has a sub-relation whose chain goes through ``located_in`` (itself transitive over
    ``part_of``, named by its xref ``BFO:0000050``); ``overlaps`` holds over ``touches`` then itself."""
    info = {"regulates": {}, "positively_regulates": {"chains": [["positively_regulates", "located_in"]]},
            "located_in": {"chains": [["located_in", "BFO:0000050"]]}, "part_of": {"aliases": ["BFO:0000050"]},
            "overlaps": {"chains": [["touches", "overlaps"]]}, "touches": {}, "adjacent_to": {}}
    through = chain_relations(info, {"positively_regulates": ["regulates"]})
    assert through["regulates"] == ["located_in", "part_of", "positively_regulates"]
    assert through["positively_regulates"] == ["located_in", "part_of"]
    assert through["located_in"] == ["part_of"] and through["overlaps"] == ["touches"]
    assert "adjacent_to" not in through and "part_of" not in through and "touches" not in through


def test_a_defined_class_covers_what_reaches_its_filler_through_a_transitive_or_chained_relation():
    """body part = thing and part_of some body; hand part_of arm part_of body: the hand is a body part
    when part_of is transitive (not when it is not); a cell located_in a hand is located in the body when
    located_in is transitive over part_of (``through``)."""
    names = ["thing", "hand", "arm", "body", "cell", "body part", "body place"]
    isa = [(n, "thing") for n in names[1:]]
    links = [("hand", "part_of", "arm"), ("arm", "part_of", "body"), ("cell", "located_in", "hand")]
    definitions = [("body part", ["thing"], [("part_of", "body")], []),
                   ("body place", ["thing"], [("located_in", "body")], [])]
    assert ("arm", "body part") in classify(graph_of(names, isa, links), definitions, {})
    assert ("hand", "body part") not in classify(graph_of(names, isa, links), definitions, {})
    found = classify(graph_of(names, isa, links), definitions, {}, transitive={"part_of"},
                     through={"located_in": ["part_of"]})
    assert {("arm", "body part"), ("hand", "body part"), ("cell", "body place")} <= set(found)
    assert ("cell", "body part") not in found


def test_a_chain_makes_a_link_only_of_its_whole_path():
    """GO's ``positively_regulates`` holds over the chain ``negatively_regulates negatively_regulates``:
    one negatively_regulates link is no positively_regulates one (was: the walk over the chain's
    relations took a path of one step, and every *negative regulation of X* was classified under
    *positive regulation of X*, 21,697 such edges in GO's edit file); two are."""
    names = ["process", "regulation", "transport", "channel activity", "inhibitor", "release of inhibition",
             "negative regulation of transport", "positive regulation of transport", "regulation of transport"]
    isa = [(n, "process") for n in names[1:4]] + [(n, "regulation") for n in names[4:]]
    links = [("inhibitor", "negatively_regulates", "transport"),
             ("release of inhibition", "negatively_regulates", "inhibitor")]
    definitions = [("negative regulation of transport", ["regulation"], [("negatively_regulates", "transport")], []),
                   ("positive regulation of transport", ["regulation"], [("positively_regulates", "transport")], []),
                   ("regulation of transport", ["regulation"], [("regulates", "transport")], [])]
    parents = {"negatively_regulates": ["regulates"], "positively_regulates": ["regulates"]}
    chains = {"positively_regulates": [["negatively_regulates", "negatively_regulates"]]}
    found = set(classify(graph_of(names, isa, links), definitions, parents, transitive={"regulates"},
                         through={"positively_regulates": ["negatively_regulates"], "regulates": ["negatively_regulates"]},
                         chains=chains))
    assert ("inhibitor", "negative regulation of transport") in found
    assert ("inhibitor", "positive regulation of transport") not in found
    assert ("release of inhibition", "positive regulation of transport") in found     # the whole chain
    assert ("release of inhibition", "negative regulation of transport") not in found  # a third would not
    # regulates is transitive: both regulate transport
    assert {("inhibitor", "regulation of transport"), ("release of inhibition", "regulation of transport")} <= found
    # the walk over every relation of the chains (no chains given) takes the one step for the chain
    loose = set(classify(graph_of(names, isa, links), definitions, parents, transitive={"regulates"},
                         through={"positively_regulates": ["negatively_regulates"]}))
    assert ("inhibitor", "positive regulation of transport") in loose


def test_the_chains_compose_transitive_steps_and_chains_of_three():
    """``located_in transitive_over part_of`` with part_of transitive: a located_in link, then any
    number of part_of links; a chain of three members needs all three."""
    names = ["thing", "cell", "hand", "arm", "body", "tissue", "organ", "in body", "c3", "organ of c3"]
    isa = [(n, "thing") for n in names[1:]]
    links = [("cell", "located_in", "hand"), ("hand", "part_of", "arm"), ("arm", "part_of", "body"),
             ("tissue", "a", "organ"), ("organ", "b", "body")]
    definitions = [("in body", ["thing"], [("located_in", "body")], []),
                   ("organ of c3", ["thing"], [("c3", "body")], [])]
    chains = {"located_in": [["located_in", "part_of"]], "c3": [["a", "b", "c"]]}
    found = set(classify(graph_of(names, isa, links + [("organ", "c", "body")]), definitions, {},
                         transitive={"part_of"}, through={"located_in": ["part_of"], "c3": ["a", "b", "c"]},
                         chains=chains))
    assert ("cell", "in body") in found
    assert ("hand", "in body") not in found           # part_of links alone make no located_in one
    assert ("tissue", "organ of c3") not in found      # a, then b: two of the three
    links_three = links + [("body", "c", "thing")]
    definitions_three = [("organ of c3", ["thing"], [("c3", "thing")], [])]
    found = set(classify(graph_of(names, isa, links_three), definitions_three, {}, through={"c3": ["a", "b", "c"]},
                         chains=chains))
    assert ("tissue", "organ of c3") in found
