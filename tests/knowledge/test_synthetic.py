"""The synthetic ontology of the build benchmark: deterministic, acyclic, with multiple inheritance,
synonyms, part_of links and the faulty xref lines real releases have."""
from mcqa_probes.knowledge.source import load_source
from mcqa_probes.knowledge.synthetic import write_synthetic_obo


def test_the_synthetic_ontology_has_what_real_ones_have_and_is_the_same_for_a_seed(tmp_path):
    path = write_synthetic_obo(tmp_path / "a.obo", 400, seed=5)
    assert write_synthetic_obo(tmp_path / "b.obo", 400, seed=5).read_bytes() == path.read_bytes()
    assert write_synthetic_obo(tmp_path / "c.obo", 400, seed=6).read_bytes() != path.read_bytes()
    graph = load_source(path, relations=["part_of"])
    assert len(graph) == 400 and len({c.lemmas[0] for c in graph.concepts.values()}) == 400
    assert sum(1 for c in graph.concepts if len(graph.hypernyms(c)) > 1) > 10          # multiple inheritance
    assert sum(1 for c in graph.concepts.values() if len(c.lemmas) > 1) > 50           # synonyms
    assert graph.relations() == ["part_of"] and graph.relation_info["part_of"]["transitive"]
    assert graph.provenance["report"].counts["skipped_clause"] == 39                    # every tenth concept
    roots = [c for c in graph.concepts if not graph.hypernyms(c)]
    assert roots == ["SYN:0000001"]
