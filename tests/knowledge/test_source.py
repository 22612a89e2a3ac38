"""load_source: format guessing, merging, identifiers, undefined parents, roots, cycles, relations."""
import shutil

import pytest

from mcqa_probes.knowledge.identifiers import curie, expand, normalise, relation_name
from mcqa_probes.knowledge.ontology import SourceError, Vocabulary, file_name
from mcqa_probes.knowledge.source import guess_format, load_source
from tests.conftest import FIXTURES

ONTOLOGIES = FIXTURES / "ontologies"
VEHICLES = ONTOLOGIES / "vehicles.obo"


@pytest.mark.parametrize("iri, expected", [
    ("http://purl.obolibrary.org/obo/SO_0000110", "SO:0000110"),
    ("http://purl.obolibrary.org/obo/so#part_of", "part_of"),
    ("http://purl.obolibrary.org/obo/IAO_0000115", "IAO:0000115"),
    ("https://schema.org/Hospital", "schema:Hospital"),
    ("http://www.w3.org/2004/02/skos/core#broader", "skos:broader"),
    ("http://example.org/kitchen/knife", "http://example.org/kitchen/knife"),
    ("SO:0000110", "SO:0000110"),
])
def test_identifiers_are_curies_where_the_prefix_is_known(iri, expected):
    assert curie(iri) == expected
    assert curie("http://example.org/kitchen/knife", [("k", "http://example.org/kitchen/")]) == "k:knife"
    assert normalise("<http://purl.obolibrary.org/obo/SO_0000110>") == "SO:0000110"
    assert expand("IAO:0000115", {}) == "http://purl.obolibrary.org/obo/IAO_0000115"
    assert expand("skos:altLabel", {}) == "http://www.w3.org/2004/02/skos/core#altLabel"


def test_the_format_is_guessed_from_the_file():
    assert guess_format(VEHICLES) == "obo"
    assert guess_format(ONTOLOGIES / "vehicles.owl") == "owl"
    assert guess_format(ONTOLOGIES / "kitchen_skos.ttl") == "skos"
    assert guess_format(ONTOLOGIES / "clinics_rdfs.ttl") == "rdf"
    assert guess_format(ONTOLOGIES / "products_tsv") == "tsv"
    with pytest.raises(SourceError, match="give --source .*products_tsv"):
        guess_format(ONTOLOGIES / "products_tsv" / "concepts.tsv")
    with pytest.raises(SourceError, match="no such file"):
        guess_format(ONTOLOGIES / "missing.obo")
    with pytest.raises(SourceError, match=r"^http://purl\.obolibrary\.org/obo/so\.obo: a URL, .*download the file"):
        load_source("http://purl.obolibrary.org/obo/so.obo")


def test_a_vocabulary_declaring_owl_and_rdfs_classes_is_guessed_rdfs_and_keeps_both(tmp_path):
    """schema.org style: most classes ``rdfs:Class``, a few ``owl:Class``: guessed ``rdf``, which reads
    both (was: ``owl``, so the rdfs:Class root was dropped and reported as never defined)."""
    path = tmp_path / "mixed.ttl"
    path.write_text("@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix ex: <http://example.org/m#> .\n"
                    'ex:Thing a rdfs:Class ; rdfs:label "heritage thing" .\n'
                    'ex:Place a owl:Class ; rdfs:label "place" ; rdfs:subClassOf ex:Thing .\n'
                    'ex:Room a rdfs:Class ; rdfs:label "room" ; rdfs:subClassOf ex:Place .\n')
    assert guess_format(path) == "rdf"
    graph = load_source(path)
    assert sorted(graph.concepts) == ["ex:Place", "ex:Room", "ex:Thing"] and list(graph.hypernyms("ex:Place")) == ["ex:Thing"]
    assert "undefined_parent" not in graph.provenance["report"].counts
    path.write_text(path.read_text().replace("a rdfs:Class", "a owl:Class"))
    assert guess_format(path) == "owl"


def test_a_table_saved_as_text_is_a_tsv_source_given_by_its_directory(tmp_path):
    (tmp_path / "edges.txt").write_text("child\trelation\tparent\n")
    with pytest.raises(SourceError, match=f"give --source {tmp_path}$"):
        guess_format(tmp_path / "edges.txt")


@pytest.mark.parametrize("path, name", [
    ("so.obo", "so"), ("mondo.owl.ttl", "mondo"), ("soil-profile.skos.nt", "soil-profile"), ("chebi.obo.gz", "chebi"),
    ("so-2024.11.18.obo", "so-2024.11.18"), ("vocab.json-ld", "vocab"), ("crm.nq", "crm"), ("thes.trig", "thes"),
])
def test_a_source_without_an_ontology_name_is_named_after_its_file_without_format_suffixes(path, name):
    """An OBO file with no ``ontology:`` header and its OWL rendering saved as ``x.owl.ttl`` are both *x*."""
    assert file_name(path) == name


def test_a_parent_that_is_never_defined_is_counted_and_dropped_or_with_strict_an_error(tmp_path):
    path = tmp_path / "v.obo"
    text = VEHICLES.read_text().replace("is_a: VO:0000003 ! watercraft\n\n[Term]\nid: VO:0000009",
                                        "is_a: VO:0000099 ! nowhere\n\n[Term]\nid: VO:0000009")
    path.write_text(text)
    line = text[: text.index("is_a: VO:0000099")].count("\n") + 1
    graph = load_source(path)
    assert list(graph.hypernyms("VO:0000008")) == []
    report = graph.provenance["report"]
    assert report.counts["undefined_parent"] == 1
    assert report.examples["undefined_parent"] == [f"{path}:{line} VO:0000008 is_a VO:0000099"]
    with pytest.raises(SourceError) as caught:
        load_source(path, strict=True)
    assert str(caught.value).startswith(f"{path}:{line}: VO:0000008 is_a VO:0000099: VO:0000099 is never defined")


def test_a_relation_link_from_a_concept_to_itself_is_dropped_and_counted_in_obo_and_its_owl_rendering(tmp_path):
    """BFO as GO ships it in its slices says ``continuant part_of continuant`` (part_of is reflexive):
    no link and no cycle, counted with the self edges, from the OBO file and from its OWL rendering
    alike (was: "cycle in the part_of relation" from both, so --relations part_of failed)."""
    obo, ttl = tmp_path / "vo.obo", tmp_path / "vo.ttl"
    obo.write_text("format-version: 1.2\nontology: vo\n\n[Term]\nid: VO:1\nname: vehicle\n"
                   "relationship: part_of VO:1\n\n[Term]\nid: VO:2\nname: wheel\nrelationship: part_of VO:1\n\n"
                   "[Typedef]\nid: part_of\nname: part of\nis_transitive: true\n")
    ttl.write_text(
        "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix obo: <http://purl.obolibrary.org/obo/> .\n"
        "@prefix oio: <http://www.geneontology.org/formats/oboInOwl#> .\n"
        '<http://purl.obolibrary.org/obo/vo.owl> a owl:Ontology .\n'
        '<http://purl.obolibrary.org/obo/vo#part_of> a owl:ObjectProperty, owl:TransitiveProperty ; rdfs:label "part of" ; oio:shorthand "part_of" .\n'
        'obo:VO_1 a owl:Class ; rdfs:label "vehicle" ;'
        " rdfs:subClassOf [ a owl:Restriction ; owl:onProperty <http://purl.obolibrary.org/obo/vo#part_of> ; owl:someValuesFrom obo:VO_1 ] .\n"
        'obo:VO_2 a owl:Class ; rdfs:label "wheel" ;'
        " rdfs:subClassOf [ a owl:Restriction ; owl:onProperty <http://purl.obolibrary.org/obo/vo#part_of> ; owl:someValuesFrom obo:VO_1 ] .\n")
    for path in (obo, ttl):
        graph = load_source(path, relations=["part_of"], strict=True)
        report = graph.provenance["report"]
        assert report.counts["self_parent"] == 1, path
        assert [e.endswith("VO:1 part_of VO:1") for e in report.examples["self_parent"]] == [True], path
        assert list(graph.related("VO:2", "part_of")) == ["VO:1"] and not list(graph.related("VO:1", "part_of")), path


def test_a_relationship_by_a_relation_no_typedef_declares_is_counted_and_with_strict_an_error(tmp_path):
    """``relationship: attached_to VO:1`` where no [Typedef] declares attached_to (a misspelt id reads
    so): counted at its first clause, once per relation, its links kept; --strict: an error at that
    line (was: accepted without a word, even with --strict). A declared one is neither."""
    path = tmp_path / "vo.obo"
    path.write_text("format-version: 1.2\nontology: vo\n\n[Term]\nid: VO:1\nname: vehicle\n\n"
                    "[Term]\nid: VO:2\nname: wheel\nrelationship: attached_to VO:1\nrelationship: part_of VO:1\n\n"
                    "[Term]\nid: VO:3\nname: mirror\nrelationship: attached_to VO:1\n\n"
                    "[Typedef]\nid: part_of\nname: part of\n")
    graph = load_source(path, relations=["attached_to"])
    report = graph.provenance["report"]
    assert report.counts["undeclared_relation"] == 1 and report.examples["undeclared_relation"] == [f"{path}:11 attached_to"]
    assert any("relations that nothing declares" in line for line in report.lines())
    assert sorted(graph.inverse_related("VO:1", "attached_to")) == ["VO:2", "VO:3"]
    with pytest.raises(SourceError) as raised:
        load_source(path, strict=True)
    assert str(raised.value).startswith(f"{path}:11: relationship attached_to: no [Typedef] declares the relation")
    path.write_text(path.read_text() + "\n[Typedef]\nid: attached_to\nname: attached to\n")
    assert "undeclared_relation" not in load_source(path, strict=True).provenance["report"].counts


def test_a_cycle_in_the_parent_relation_is_an_error_with_a_line(tmp_path):
    path = tmp_path / "cycle.obo"
    text = VEHICLES.read_text().replace("id: VO:0000001\nname: vehicle\n", "id: VO:0000001\nname: vehicle\n"
                                        "is_a: VO:0000005 ! car\n")
    path.write_text(text)
    with pytest.raises(SourceError) as caught:
        load_source(path)
    message = str(caught.value)
    assert "cycle in the is_a relation" in message and "VO:0000001" in message and "VO:0000005" in message
    assert message.startswith(f"{path}:") and message.split(":")[1].isdigit()


def test_a_root_keeps_its_sub_tree_and_an_unknown_root_is_an_error():
    graph = load_source(VEHICLES, root="VO:0000004")
    assert sorted(graph.concepts) == ["VO:0000004", "VO:0000010", "VO:0000011", "VO:0000027", "VO:0000028"]
    assert list(graph.hypernyms("VO:0000028")) == ["VO:0000010"]          # the watercraft parent is outside
    assert load_source(VEHICLES, root="http://purl.obolibrary.org/obo/VO_0000004").concepts == graph.concepts
    assert load_source(VEHICLES, root="aircraft").concepts == graph.concepts
    with pytest.raises(SourceError, match=r"--root VO:9999999: no such concept \(expected an id such as VO:0000001"):
        load_source(VEHICLES, root="VO:9999999")
    # a synonym is no label: the error names whose synonym it is (was: "no such concept" only)
    with pytest.raises(SourceError, match=r"--root flying machine: a synonym of VO:0000004 \(aircraft\), not a label "
                                          r"\(expected an id or a concept's label: --root VO:0000004\)"):
        load_source(VEHICLES, root="flying machine")
    # part_of links the aircraft to parts outside the sub-tree only: the error says so (was: "no such
    # relation between concepts (found: none besides the parent relation)", as if the source had none)
    with pytest.raises(SourceError, match=r"--relations part_of: no part_of link between two concepts under --root "
                                          r"VO:0000004 \(the whole source has 8; expected a relation inside the sub-tree"):
        load_source(VEHICLES, root="VO:0000004", relations=["part_of"])
    with pytest.raises(SourceError, match=r"--relations has_part: no such relation between concepts"):
        load_source(VEHICLES, root="VO:0000004", relations=["has_part"])


def test_a_root_without_a_label_in_the_language_is_an_error_that_says_so(tmp_path):
    """A thesaurus concept labelled in French only is no concept of an English build: as --root, the
    error says why (was: "no such concept", for a concept that is in the file)."""
    path = tmp_path / "farm.ttl"
    path.write_text('@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix ag: <http://e.org/ag/> .\n'
                    'ag:c1 a skos:Concept ; skos:prefLabel "crop"@en .\n'
                    'ag:c2 a skos:Concept ; skos:prefLabel "culture fourragère"@fr ; skos:broader ag:c1 .\n'
                    'ag:c3 a skos:Concept ; skos:prefLabel "alfalfa"@en ; skos:broader ag:c2 .\n')
    assert sorted(load_source(path, root="ag:c1").concepts) == ["ag:c1", "ag:c3"]
    with pytest.raises(SourceError, match=r"--root ag:c2: has no label in --lang en, so it is no concept of the build"):
        load_source(path, root="ag:c2")
    with pytest.raises(SourceError, match=r"--root ag:c9: no such concept"):
        load_source(path, root="ag:c9")


def test_a_root_keeps_the_classes_that_the_axioms_put_under_it(tmp_path):
    """A defined class whose only parent is its genus (``intersection_of``), an equivalent class, and a
    union whose members are all under the root are under it; a union with a member outside is not.
    An obsolete root is an error that says so."""
    terms = {1: ("organ", ["is_a: T:0"]), 2: ("root", ["is_a: T:1"]), 3: ("tuber", ["is_a: T:1"]),
             4: ("rock", ["is_a: T:0"]), 5: ("root part", ["intersection_of: T:1", "intersection_of: part_of T:2"]),
             6: ("underground organ", ["union_of: T:2", "union_of: T:3"]),
             7: ("underground thing", ["union_of: T:2", "union_of: T:4"]),
             8: ("radix", ["equivalent_to: T:2"]), 9: ("old organ", ["is_a: T:1", "is_obsolete: true"])}
    text = "format-version: 1.2\nontology: t\n\n[Typedef]\nid: part_of\n\n[Term]\nid: T:0\nname: thing\n\n"
    text += "".join(f"[Term]\nid: T:{i}\nname: {name}\n" + "".join(f"{clause}\n" for clause in clauses) + "\n"
                    for i, (name, clauses) in terms.items())
    path = tmp_path / "organs.obo"
    path.write_text(text)
    assert sorted(load_source(path, root="T:1").concepts) == ["T:1", "T:2", "T:3", "T:5", "T:6", "T:8"]
    with pytest.raises(SourceError, match=r"--root T:9: obsolete / deprecated"):
        load_source(path, root="T:9")
    with pytest.raises(SourceError, match=r"--root Old_Organ: obsolete / deprecated"):   # by its label too
        load_source(path, root="Old_Organ")
    # the same classes in OWL (Turtle): the same sub-tree
    owl = ("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
           "@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\n"
           'obo:BFO_0000050 a owl:ObjectProperty ; oboInOwl:shorthand "part_of" .\nobo:T_0 a owl:Class ; rdfs:label "thing" .\n')
    axioms = {1: "rdfs:subClassOf obo:T_0", 2: "rdfs:subClassOf obo:T_1", 3: "rdfs:subClassOf obo:T_1",
              4: "rdfs:subClassOf obo:T_0",
              5: "owl:equivalentClass [ owl:intersectionOf ( obo:T_1 [ a owl:Restriction ; owl:onProperty obo:BFO_0000050 ; "
                 "owl:someValuesFrom obo:T_2 ] ) ]",
              6: "owl:equivalentClass [ owl:unionOf ( obo:T_2 obo:T_3 ) ]", 7: "owl:equivalentClass [ owl:unionOf ( obo:T_2 obo:T_4 ) ]",
              8: "owl:equivalentClass obo:T_2", 9: "rdfs:subClassOf obo:T_1 ; owl:deprecated true"}
    owl += "".join(f'obo:T_{i} a owl:Class ; rdfs:label "{terms[i][0]}" ; {axiom} .\n' for i, axiom in axioms.items())
    (tmp_path / "organs.ttl").write_text(owl)
    assert sorted(load_source(tmp_path / "organs.ttl", root="T:1").concepts) == ["T:1", "T:2", "T:3", "T:5", "T:6", "T:8"]


def test_a_cycle_in_an_rdf_file_is_named_at_the_first_line_naming_one_of_its_concepts(tmp_path):
    """RDF gives no line per triple: the line is the first one that names a concept of the cycle
    (was: the first line naming the concept the message happened to list first)."""
    path = tmp_path / "cycle.ttl"
    path.write_text("@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix : <https://schema.org/> .\n\n"
                    ':Thing a rdfs:Class ; rdfs:label "Thing" ; rdfs:subClassOf :Shop .\n'
                    ':Place a rdfs:Class ; rdfs:label "Place" ; rdfs:subClassOf :Thing .\n'
                    ':Store a rdfs:Class ; rdfs:label "Store" ; rdfs:subClassOf :Place .\n'
                    ':Shop a rdfs:Class ; rdfs:label "Shop" ; rdfs:subClassOf :Store .\n')
    with pytest.raises(SourceError, match=r"cycle.ttl:4: cycle in the is_a relation: "):
        load_source(path)


def test_a_root_label_that_two_concepts_share_is_an_error_naming_both(tmp_path):
    path = tmp_path / "twice.obo"
    path.write_text(VEHICLES.read_text().replace("name: submarine", "name: aircraft"))
    with pytest.raises(SourceError, match=r"--root aircraft: 2 concepts have this label \(VO:0000004, VO:0000009\)"):
        load_source(path, root="aircraft")


def test_a_root_label_is_found_in_any_case_and_with_or_without_its_accents(tmp_path):
    """--root cafe (or CAFÉ) for a concept labelled *café*, as names are compared elsewhere (was: "no
    such concept" without the accent)."""
    path = tmp_path / "places.obo"
    path.write_text("format-version: 1.2\nontology: pl\n\n[Term]\nid: PL:1\nname: place\n\n"
                    "[Term]\nid: PL:2\nname: café\nis_a: PL:1\n\n[Term]\nid: PL:3\nname: tea room\nis_a: PL:2\n")
    for given in ("café", "cafe", "CAFÉ", "Cafe"):
        assert sorted(load_source(path, root=given).concepts) == ["PL:2", "PL:3"], given


def test_an_all_only_relationship_is_counted_alike_in_obo_and_in_its_owl_rendering(tmp_path):
    """engine part_of car {all_only="true"} is no some link: skipped and counted in the OBO file; its
    OWL rendering, an owl:allValuesFrom restriction, is counted too (was: left out without a word, so
    the two validity summaries differed), and the two graphs are the same."""
    obo, owl = tmp_path / "v.obo", tmp_path / "v.owl"
    old = "relationship: part_of VO:0000005 ! car"
    assert VEHICLES.read_text().count(old) == 1
    obo.write_text(VEHICLES.read_text().replace(old, 'relationship: part_of VO:0000005 {all_only="true"} ! car'))
    text = (ONTOLOGIES / "vehicles.owl").read_text()
    some = ('    <owl:onProperty rdf:resource="http://purl.obolibrary.org/obo/BFO_0000050"/>\n'
            '    <owl:someValuesFrom rdf:resource="http://purl.obolibrary.org/obo/VO_0000005"/>')
    assert text.count(some) == 1
    owl.write_text(text.replace(some, some.replace("someValuesFrom", "allValuesFrom")))
    from_obo, from_owl = load_source(obo, relations=["part_of"]), load_source(owl, relations=["part_of"])
    for graph in (from_obo, from_owl):
        report = graph.provenance["report"]
        assert report.counts["qualified_link"] == 1
        assert report.examples["qualified_link"][0].endswith("VO:0000015 part_of VO:0000005 all_only")
        assert "VO:0000005" not in graph.related("VO:0000015", "part_of")
    assert from_obo.concepts == from_owl.concepts


def test_an_unknown_relation_is_an_error_listing_the_relations_found():
    assert load_source(VEHICLES, relations=["part of"]).provenance["relations"] == {"part_of": "part_of"}
    # by an alias too: the probe is named by the source's id (was: after the alias, BFO:0000050)
    assert load_source(VEHICLES, relations=["BFO:0000050"]).provenance["relations"] == {"part_of": "part_of"}
    with pytest.raises(SourceError, match=r"--relations has_part: no such relation .*found: part_of"):
        load_source(VEHICLES, relations=["has_part"])


def test_nothing_left_is_an_error(tmp_path):
    path = tmp_path / "empty.obo"
    path.write_text("format-version: 1.2\nontology: empty\n\n[Term]\nid: X:1\nis_obsolete: true\n")
    with pytest.raises(SourceError, match="no concepts left after reading and filtering"):
        load_source(path)


def test_several_files_are_merged(tmp_path):
    extra = tmp_path / "extra.obo"
    extra.write_text('format-version: 1.2\nontology: vo-extra\n\n[Term]\nid: VO:0000024\nname: motorcycle\n'
                     'synonym: "motorcycle" EXACT []\nsynonym: "moped" EXACT []\n\n[Term]\nid: VO:0000030\n'
                     'name: scooter\ndef: "A small light two-wheeled motor machine." []\nis_a: VO:0000024\n')
    graph = load_source([VEHICLES, extra])
    assert graph.source == "vo+vo-extra" and len(graph) == 28
    assert graph["VO:0000024"].lemmas == ("motorcycle", "moped", "motorbike")
    assert list(graph.hypernyms("VO:0000030")) == ["VO:0000024"]
    assert graph.provenance["report"].counts["merged"] == 1
    assert [f["name"] for f in graph.provenance["files"]] == ["vo", "vo-extra"]


def test_links_and_equivalences_one_rdf_file_states_of_another_files_classes_are_kept_in_a_merge(tmp_path):
    """b.ttl says ``Nave partOf Church`` (the church a class of a.ttl), ``Hall partOf House`` (both a.ttl's)
    and ``Hall owl:equivalentClass Gallery`` (the hall a.ttl's): merged, the graph is the one file's
    (was: those links and the equivalence lost without a word, the gallery offered as a wrong answer for
    the hall), in either order; the same in the probe files."""
    head = "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix ex: <http://example.org/m#> .\n"
    first = head + "".join(f'ex:{name} a rdfs:Class ; rdfs:label "{name.lower()}" ; rdfs:subClassOf ex:{parent} .\n'
                           for name, parent in [("Place", "Top"), ("Room", "Place"), ("Hall", "Room"), ("Cellar", "Room"),
                                                ("Attic", "Room"), ("Building", "Place"), ("Church", "Building"),
                                                ("Castle", "Building"), ("House", "Building")])
    second = (head + "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
              "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
              'ex:Gallery a rdfs:Class ; rdfs:label "gallery" ; rdfs:subClassOf ex:Room .\n'
              'ex:Nave a rdfs:Class ; rdfs:label "nave" ; rdfs:subClassOf ex:Place .\n'
              'ex:partOf a rdf:Property ; rdfs:label "part of" .\n'
              "ex:Hall owl:equivalentClass ex:Gallery .\nex:Nave ex:partOf ex:Church .\nex:Hall ex:partOf ex:House .\n")
    (tmp_path / "a.ttl").write_text(first + 'ex:Top a rdfs:Class ; rdfs:label "top" .\n')
    (tmp_path / "b.ttl").write_text(second)
    (tmp_path / "ab.ttl").write_text(first + 'ex:Top a rdfs:Class ; rdfs:label "top" .\n' + second)
    whole = load_source(tmp_path / "ab.ttl", format="rdf", relations=["partOf"])
    assert sorted(whole.related("ex:Nave", "ex:partOf")) == ["ex:Church"]
    assert sorted(whole.implied_hypernyms("ex:Hall")) == ["ex:Gallery"]
    for order in (["a.ttl", "b.ttl"], ["b.ttl", "a.ttl"]):
        merged = load_source([tmp_path / name for name in order], format="rdf", relations=["partOf"])
        assert {c: sorted(merged.related(c, "ex:partOf")) for c in merged.concepts} == {
            c: sorted(whole.related(c, "ex:partOf")) for c in whole.concepts}, order
        assert {c: sorted(merged.implied_hypernyms(c)) for c in merged.concepts} == {
            c: sorted(whole.implied_hypernyms(c)) for c in whole.concepts}, order
    # a link or equivalence to a resource no file defines stays out
    (tmp_path / "c.ttl").write_text(head + "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                                    "ex:Hall owl:equivalentClass ex:Nowhere .\nex:Attic ex:partOf ex:Nowhere .\n")
    merged = load_source([tmp_path / "ab.ttl", tmp_path / "c.ttl"], format="rdf")
    assert list(merged.implied_hypernyms("ex:Hall")) == ["ex:Gallery"] and not list(merged.related("ex:Attic", "ex:partOf"))


def test_the_provenance_has_every_file_with_its_sha256(tmp_path):
    from mcqa_probes.common.io import sha256_file

    graph = load_source(VEHICLES)
    assert graph.provenance["files"] == [{"path": str(VEHICLES), "format": "obo", "name": "vo",
                                          "version": "2026-11-01", "sha256": sha256_file(VEHICLES)}]
    folder = tmp_path / "products"
    shutil.copytree(ONTOLOGIES / "products_tsv", folder)
    first = load_source(folder).provenance["files"][0]["sha256"]
    (folder / "edges.tsv").write_text((folder / "edges.tsv").read_text() + "P:6\tis_a\tP:2\n")
    assert load_source(folder).provenance["files"][0]["sha256"] != first


def test_labels_only_in_another_language_say_which_lang_to_give(tmp_path):
    path = tmp_path / "fr.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix k: <http://example.org/k/> .\n"
                    "k:a a skos:Concept ; skos:prefLabel \"couteau\"@fr .\nk:b a skos:Concept ; skos:prefLabel \"pain\"@fr ;"
                    " skos:broader k:a .\n")
    with pytest.raises(SourceError, match=r"in language 'en'\); labels are in fr \(\d+\) \(concepts per language\): give --lang fr"):
        load_source(path)
    from mcqa_probes.knowledge.ontology import Vocabulary

    assert len(load_source(path, vocabulary=Vocabulary(lang="fr"))) == 2


def test_a_term_split_over_two_frames_is_one_concept(tmp_path):
    path = tmp_path / "split.obo"
    path.write_text('format-version: 1.4\nontology: sp\n\n[Term]\nid: X:1\nname: root\n\n[Term]\nid: X:2\nname: leaf\n\n'
                    '[Term]\nid: X:2\ndef: "A small end." []\nsynonym: "tip" EXACT []\nis_a: X:1\n')
    graph = load_source(path)
    assert graph["X:2"].lemmas == ("leaf", "tip") and graph["X:2"].definition == "A small end."
    assert list(graph.hypernyms("X:2")) == ["X:1"]


def test_an_obsolete_frame_makes_the_term_obsolete_in_this_file_and_in_a_merge(tmp_path):
    path = tmp_path / "obs.obo"
    path.write_text('format-version: 1.4\nontology: ob\n\n[Term]\nid: X:1\nname: root\n\n[Term]\nid: X:2\nname: leaf\n'
                    'is_a: X:1\n\n[Term]\nid: X:3\nname: twig\nis_a: X:1\n\n[Term]\nid: X:2\nis_obsolete: true\n')
    graph = load_source(path)
    assert "X:2" not in graph and graph.provenance["report"].counts["obsolete"] == 1
    other = tmp_path / "later.obo"
    other.write_text('format-version: 1.4\nontology: la\n\n[Term]\nid: X:3\nname: twig\nis_obsolete: true\n')
    assert "X:3" in graph and "X:3" not in load_source([path, other])


def test_instance_frames_are_not_concepts(tmp_path):
    path = tmp_path / "inst.obo"
    path.write_text('format-version: 1.4\nontology: in\n\n[Term]\nid: X:1\nname: animal\n\n[Term]\nid: X:2\nname: dog\n'
                    'is_a: X:1\n\n[Instance]\nid: X:100\nname: Lassie\ninstance_of: X:2\n')
    graph = load_source(path)
    assert sorted(graph.concepts) == ["X:1", "X:2"]


@pytest.mark.parametrize("skipped", ['skos:prefLabel "outil de coupe"@fr', 'skos:prefLabel "cutting tool"@en ; owl:deprecated true'])
@pytest.mark.parametrize("knife_under", ["k:knife skos:broader k:cutting_tool .", "k:cutting_tool skos:narrower k:knife ."])
def test_an_edge_to_a_skipped_concept_goes_on_to_its_parents(tmp_path, skipped, knife_under):
    """utensil > cutting tool > knife with the middle concept unnamed in English or deprecated (the
    knife placed under it by its own broader or by the middle one's narrower): the knife is still a
    utensil (else "utensil" could be offered as a wrong answer for the knife). A related link to the
    skipped concept is dropped: "board related cutting tool" says nothing of utensils."""
    path = tmp_path / "mid.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                    "@prefix k: <http://example.org/k/> .\n"
                    'k:utensil a skos:Concept ; skos:prefLabel "utensil"@en .\n'
                    f"k:cutting_tool a skos:Concept ; skos:broader k:utensil ; {skipped} .\n"
                    f'k:knife a skos:Concept ; skos:prefLabel "knife"@en .\n{knife_under}\n'
                    'k:board a skos:Concept ; skos:broader k:utensil ; skos:related k:cutting_tool, k:knife ; '
                    'skos:prefLabel "board"@en .\n')
    graph = load_source(path, relations=["skos:related"])
    assert "k:cutting_tool" not in graph
    assert list(graph.hypernyms("k:knife")) == ["k:utensil"]
    assert list(graph.related("k:board", "skos:related")) == ["k:knife"]
    assert graph.provenance["report"].counts["edge_lifted"] == 1
    assert graph.provenance["report"].counts["link_to_dropped"] == 1 and "edge_to_dropped" not in graph.provenance["report"].counts


def test_an_existential_link_to_an_obsolete_term_goes_on_to_its_parents(tmp_path):
    """OBO's relationship (an OWL existential restriction): wheel part_of (some) bicycle, bicycle is_a
    vehicle gives wheel part_of (some) vehicle."""
    path = tmp_path / "parts.obo"
    path.write_text("format-version: 1.2\nontology: pt\n\n[Term]\nid: X:1\nname: vehicle\n\n[Term]\nid: X:2\n"
                    "name: bicycle\nis_a: X:1\nis_obsolete: true\n\n[Term]\nid: X:3\nname: wheel\n"
                    "relationship: part_of X:2\n\n[Term]\nid: X:4\nname: car\nis_a: X:1\n\n[Term]\nid: X:5\n"
                    "name: tire\nrelationship: part_of X:4\n\n[Typedef]\nid: part_of\nname: part of\n")
    graph = load_source(path, relations=["part_of"])
    assert list(graph.related("X:3", "part_of")) == ["X:1"] and list(graph.related("X:5", "part_of")) == ["X:4"]


def test_errors_and_reports_name_the_file_the_line_is_in(tmp_path):
    """Merged files and a TSV pair: the line of an edge is a line of the file that holds it."""
    extra = tmp_path / "extra.obo"
    extra.write_text('format-version: 1.2\nontology: ex\n\n[Term]\nid: VO:0000030\nname: scooter\nis_a: VO:0000099\n')
    with pytest.raises(SourceError) as caught:
        load_source([VEHICLES, extra], strict=True)
    assert str(caught.value).startswith(f"{extra}:7: VO:0000030 is_a VO:0000099")
    folder = tmp_path / "products"
    shutil.copytree(ONTOLOGIES / "products_tsv", folder)
    edges = (folder / "edges.tsv").read_text()
    (folder / "edges.tsv").write_text(edges + "P:2\tis_a\tP:404\n")
    report = load_source(folder).provenance["report"]
    line = len(edges.splitlines()) + 1
    assert report.examples["undefined_parent"] == [f"{folder / 'edges.tsv'}:{line} P:2 is_a P:404"]


TURTLE = "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix {p}: <http://example.org/t/> .\n"


def test_merged_rdf_files_with_other_prefixes_for_one_namespace_give_one_id_per_iri(tmp_path):
    first, second = tmp_path / "a.ttl", tmp_path / "b.ttl"
    first.write_text(TURTLE.format(p="a") + 'a:tool a skos:Concept ; skos:prefLabel "tool"@en .\n')
    second.write_text(TURTLE.format(p="k") + 'k:hammer a skos:Concept ; skos:broader k:tool ; skos:prefLabel "hammer"@en .\n'
                      'k:other a skos:Concept ; skos:prefLabel "other"@en .\n')
    graph = load_source([first, second], strict=True)
    assert sorted(graph.concepts) == ["a:hammer", "a:other", "a:tool"]
    assert list(graph.hypernyms("a:hammer")) == ["a:tool"]
    # a root given as an IRI is the concept of that IRI
    assert sorted(load_source([first, second], root="http://example.org/t/tool").concepts) == ["a:hammer", "a:tool"]


@pytest.mark.parametrize("prefix", ["geo", "org", "time", "schema", "k"])
@pytest.mark.parametrize("syntax", ["ttl", "rdf"])
def test_a_files_own_prefix_names_its_concepts_where_rdflib_binds_that_name_to_another_namespace(tmp_path, prefix,
                                                                                                   syntax):
    """``@prefix geo: <http://example.org/t/>``: rdflib binds geo to GeoSPARQL by default; the file's
    concepts are still geo:... (was: full IRIs, and ``--root geo:land`` no such concept)."""
    names = {"biome": None, "land": "biome", "water": "biome"}
    if syntax == "ttl":
        path = tmp_path / "t.ttl"
        path.write_text(TURTLE.format(p=prefix) + "".join(
            f'{prefix}:{name} a skos:Concept ;' + (f" skos:broader {prefix}:{up} ;" if up else "")
            + f' skos:prefLabel "{name}"@en .\n' for name, up in names.items()))
    else:
        path = tmp_path / "t.rdf"
        path.write_text('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
                        f'xmlns:skos="http://www.w3.org/2004/02/skos/core#" xmlns:{prefix}="http://example.org/t/">\n'
                        + "".join(f'<skos:Concept rdf:about="http://example.org/t/{name}"><skos:prefLabel xml:lang="en">'
                                  f"{name}</skos:prefLabel>" + (f'<skos:broader rdf:resource="http://example.org/t/{up}"/>'
                                                                if up else "") + "</skos:Concept>\n"
                                  for name, up in names.items()) + "</rdf:RDF>\n")
    assert sorted(load_source(path).concepts) == [f"{prefix}:biome", f"{prefix}:land", f"{prefix}:water"]
    assert len(load_source(path, root=f"{prefix}:biome")) == 3


def test_a_lang_that_no_label_has_is_an_error_even_where_a_few_labels_are_untagged(tmp_path):
    path = tmp_path / "fr.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix k: <http://example.org/k/> .\n"
                    + "".join(f'k:c{i} a skos:Concept ; skos:prefLabel "outil {i}"@fr ; skos:broader k:c0 .\n' for i in range(1, 6))
                    + 'k:c0 a skos:Concept ; skos:prefLabel "outil" .\n')
    with pytest.raises(SourceError, match=r"--lang de: 5 concepts dropped for want of a label in this language, 1 kept "
                                          r".*concepts per language: fr \(5\)\): give --lang fr$"):
        load_source(path, vocabulary=Vocabulary(lang="de"))
    assert len(load_source(path, vocabulary=Vocabulary(lang="fr"))) == 6


def test_a_thesaurus_in_another_language_with_a_few_english_labels_is_an_error_naming_its_main_language(tmp_path):
    """One concept of six labelled ``en-GB``, the others ``nl-BE``: the default --lang en would keep one."""
    path = tmp_path / "nl.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix k: <http://example.org/k/> .\n"
                    + "".join(f'k:c{i} a skos:Concept ; skos:prefLabel "gereedschap {i}"@nl-BE ; skos:broader k:c0 .\n'
                              for i in range(1, 6))
                    + 'k:c0 a skos:Concept ; skos:prefLabel "tool"@en-GB ; skos:prefLabel "gereedschap"@nl-BE .\n')
    with pytest.raises(SourceError, match=r"--lang en: 5 concepts dropped .* 1 kept .*concepts per language: "
                                          r"nl-be \(6\), en-gb \(1\)\): give --lang nl-be$"):
        load_source(path)
    assert len(load_source(path, vocabulary=Vocabulary(lang="nl-BE"))) == 6
    # most concepts in --lang: no error, the few others dropped and counted
    path.write_text(path.read_text().replace("@nl-BE ; skos:broader", "@en ; skos:broader", 4))
    assert len(load_source(path)) == 5


def test_a_cycle_through_a_skipped_concept_names_it(tmp_path):
    path = tmp_path / "loop.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                    "@prefix k: <http://example.org/k/> .\n"
                    'k:a a skos:Concept ; skos:prefLabel "a"@en ; skos:broader k:d .\n'
                    'k:d a skos:Concept ; skos:prefLabel "d"@en ; owl:deprecated true ; skos:broader k:a .\n')
    with pytest.raises(SourceError, match=r"cycle in the is_a relation: k:a -> \(skipped k:d\) -> k:a"):
        load_source(path)


def test_an_edge_from_a_concept_never_defined_is_counted_or_an_error_with_strict(tmp_path):
    """A child missing from concepts.tsv (a typo) or a skos:narrower to a collection (not a concept):
    the edge is dropped and counted as an edge to a parent never defined, never silently."""
    folder = tmp_path / "products"
    shutil.copytree(ONTOLOGIES / "products_tsv", folder)
    edges = (folder / "edges.tsv").read_text()
    (folder / "edges.tsv").write_text(edges + "P:404\tis_a\tP:1\n")
    line = len(edges.splitlines()) + 1
    report = load_source(folder).provenance["report"]
    assert report.examples["undefined_parent"] == [f"{folder / 'edges.tsv'}:{line} P:404 is_a P:1"]
    with pytest.raises(SourceError, match=f"edges.tsv:{line}: P:404 is_a P:1: P:404 is never defined"):
        load_source(folder, strict=True)
    thesaurus = tmp_path / "kitchen.ttl"
    thesaurus.write_text((ONTOLOGIES / "kitchen_skos.ttl").read_text()
                         + '\nk:sets a skos:Collection ; skos:prefLabel "sets"@en ; skos:member k:soup .\n'
                           'k:dish skos:narrower k:sets .\n')
    graph = load_source(thesaurus)
    named = len(thesaurus.read_text().splitlines()) - 1        # the collection's own line names it first
    assert graph.provenance["report"].examples["undefined_parent"] == [f"{thesaurus}:{named} k:sets is_a k:dish"]
    assert "k:sets" not in graph.concepts
    with pytest.raises(SourceError, match="k:sets is_a k:dish: k:sets is never defined"):
        load_source(thesaurus, strict=True)


@pytest.mark.parametrize("syntax", ["turtle", "xml"])
def test_an_rdf_edge_to_a_concept_never_defined_is_named_with_the_line_that_names_it(tmp_path, syntax):
    """rdflib gives no line numbers: the error (and the report's examples) take the first line that
    names the missing concept, here through the file's empty prefix (Turtle) or its full IRI (RDF/XML)."""
    import rdflib

    turtle = ("@prefix : <http://example.org/hvac#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
              "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\n"
              ':Equipment a owl:Class ; rdfs:label "equipment"@en .\n'
              ':Meter a owl:Class ; rdfs:label "meter"@en ; rdfs:subClassOf :Equipment .\n'
              ':Gas_Meter a owl:Class ; rdfs:label "gas meter"@en ;\n    rdfs:subClassOf :Metre .\n')
    path = tmp_path / ("hvac.ttl" if syntax == "turtle" else "hvac.owl")
    if syntax == "turtle":
        path.write_text(turtle)
    else:
        written = rdflib.Graph().parse(data=turtle, format="turtle").serialize(format="xml")
        path.write_text(written if isinstance(written, str) else written.decode("utf-8"))
    lines = path.read_text().splitlines()
    expected = next(number for number, text in enumerate(lines, 1) if "Metre" in text)
    with pytest.raises(SourceError) as caught:
        load_source(path, strict=True)
    assert str(caught.value).startswith(f"{path}:{expected}: ") and "#Metre is never defined" in str(caught.value)
    report = load_source(path).provenance["report"]
    assert report.examples["undefined_parent"][0].startswith(f"{path}:{expected} ")


def test_a_relation_that_chains_through_a_concept_cut_by_the_root_still_holds(tmp_path):
    """hand part_of arm part_of locomotor system part_of body, the locomotor system outside --root:
    hand part_of body still holds (an implied link: never an answer, never a distractor)."""
    from mcqa_probes.builders.ontology_qa import OntologyQABuilder
    from mcqa_probes.builders.ontology_build import ontology_settings

    stanzas = ["format-version: 1.2\nontology: rt\n", "[Typedef]\nid: part_of\nname: part of\nis_transitive: true\n"]
    terms = [("RT:1", "structure", None, None), ("RT:2", "hand", "RT:1", "RT:3"), ("RT:3", "arm", "RT:1", "RT:9"),
             ("RT:4", "body", "RT:1", None), ("RT:5", "finger", "RT:1", "RT:2"),
             ("RT:9", "locomotor system", None, "RT:4")]
    for concept_id, name, parent, whole in terms:
        stanzas.append(f"[Term]\nid: {concept_id}\nname: {name}\ndef: \"The {name} of a vertebrate body plan.\" []\n"
                       + (f"is_a: {parent}\n" if parent else "") + (f"relationship: part_of {whole}\n" if whole else ""))
    path = tmp_path / "rt.obo"
    path.write_text("\n".join(stanzas), encoding="utf-8")
    graph = load_source(path, root="RT:1", relations=["part_of"])
    assert "RT:9" not in graph.concepts and graph.implied_related("RT:2", "part_of") == ["RT:4"]
    # arm part_of body, so arm part_of structure (body is_a structure): the builders' closure, kept
    assert graph.implied_related("RT:3", "part_of") == ["RT:1", "RT:4"]
    assert graph.implied_related("RT:5", "part_of") == ["RT:4"]
    builder = OntologyQABuilder(graph, ontology_settings(), relation="part_of", probe_name="part_of",
                                relation_name="part_of")
    assert {"RT:3", "RT:4"} <= builder.entailed("RT:2")
    assert not builder.valid_for("part_of", "RT:2", "RT:3")("RT:4")     # body: a second correct answer
    whole = load_source(path, relations=["part_of"])                  # no root: a direct link chain, nothing implied
    assert not whole.implied_related("RT:2", "part_of")


def test_a_defined_class_whose_definition_names_a_concept_cut_by_the_root_still_classifies():
    """cheesy pizza = pizza and has_topping some cheese topping; under --root pizza the cheese
    toppings are cut, yet margherita (has_topping mozzarella, a cheese topping) is still a cheesy
    pizza: classified on the whole source before the cut (was: lost, cheesy pizza offered as a wrong
    answer to what margherita is a kind of)."""
    from mcqa_probes.builders.ontology_qa import OntologyQABuilder
    from mcqa_probes.builders.ontology_build import ontology_settings

    path = ONTOLOGIES / "pizza_axioms.obo"
    whole = load_source(path)
    graph = load_source(path, root="PZ:0000002")
    assert "PZ:0000005" not in graph.concepts and "PZ:0000016" in graph.concepts
    for concept in ("PZ:0000016", "PZ:0000017"):      # margherita, american pizza
        assert graph.implied_hypernyms(concept) == whole.implied_hypernyms(concept)
    assert "PZ:0000019" in graph.implied_hypernyms("PZ:0000016")
    assert "PZ:0000021" in graph.implied_hypernyms("PZ:0000017")
    classified = [line for line in graph.provenance["report"].to_json()["classified"]["examples"]]
    assert any("PZ:0000016 is_a PZ:0000019" in str(line) for line in classified)
    builder = OntologyQABuilder(graph, ontology_settings())
    assert not builder.valid_for("hypernymy", "PZ:0000016", "PZ:0000002")("PZ:0000019")


def test_names_and_definitions_are_read_in_one_unicode_form(tmp_path):
    """``café`` with one ``é`` (NFC) and with ``e`` + a combining accent (NFD) is one name: a concept
    named so is no distractor of the other's questions, and a definition naming it is masked."""
    import unicodedata

    from mcqa_probes.builders.ontology_build import ontology_settings
    from mcqa_probes.builders.ontology_qa import MASK, OntologyQABuilder
    from mcqa_probes.knowledge.text import mask_names

    composed, decomposed = unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café")
    assert composed != decomposed
    (tmp_path / "concepts.tsv").write_text(
        "id\tlabel\tsynonyms\tdefinition\n"
        "D1\tdrink\t\tSomething made to be drunk.\n"
        f"A1\t{composed}\t\tA drink of coffee.\n"
        f"L1\tlatte\t\tA {decomposed} with much milk.\n"
        "P1\tplace\t\tWhere things are.\n"
        f"B1\t{decomposed}\t\tA small place that sells coffee.\n", encoding="utf-8")
    (tmp_path / "edges.tsv").write_text("child\trelation\tparent\nA1\tis_a\tD1\nL1\tis_a\tA1\nB1\tis_a\tP1\n",
                                        encoding="utf-8")
    graph = load_source(tmp_path)
    assert graph["B1"].lemmas[0] == graph["A1"].lemmas[0] == composed
    assert graph["L1"].definition == f"A {composed} with much milk."
    assert mask_names(graph["L1"].definition, graph["A1"].lemmas, MASK) == (f"A {MASK} with much milk.", 1)
    builder = OntologyQABuilder(graph, ontology_settings())
    assert not builder.valid_for("hypernymy", "L1", "A1")("B1")        # named like the answer


def test_a_cycle_in_an_rdf_file_is_an_error_at_a_line_stating_one_of_its_edges(tmp_path):
    """rdflib gives no lines: the first line that names both concepts of an edge of the cycle (line 6,
    ``ex:b ... rdfs:subClassOf ex:a``), not line 5, which names ``ex:a`` alone."""
    path = tmp_path / "cycle.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix ex: <http://example.org/x#> .\n\n"
                    "ex:a a owl:Class ; rdfs:label \"alpha\" .\n"
                    "ex:b a owl:Class ; rdfs:label \"beta\" ; rdfs:subClassOf ex:a .\n"
                    "ex:a rdfs:subClassOf ex:b .\n", encoding="utf-8")
    with pytest.raises(SourceError) as raised:
        load_source(path)
    assert str(raised.value).startswith(f"{path}:6: cycle in the is_a relation: ex:")


def test_an_rdf_cycle_is_named_at_a_statement_not_at_owlapis_comment_above_it(tmp_path):
    """OWLAPI writes ``<!-- IRI -->`` above each class: the error's line is the class's ``subClassOf``
    under it, the edge of the cycle (was: the comment's, then the class's ``rdf:about`` line)."""
    path = tmp_path / "cycle.owl"
    classes = "".join(
        f'    <!-- http://purl.obolibrary.org/obo/PO_000000{i} -->\n\n'
        f'    <owl:Class rdf:about="http://purl.obolibrary.org/obo/PO_000000{i}">\n'
        f'        <rdfs:label>part {i}</rdfs:label>\n'
        f'        <rdfs:subClassOf rdf:resource="http://purl.obolibrary.org/obo/PO_000000{2 if i == 1 else 1}"/>\n'
        f'    </owl:Class>\n\n' for i in (1, 2))
    path.write_text('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"\n'
                    '     xmlns:owl="http://www.w3.org/2002/07/owl#"\n'
                    '     xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">\n'
                    '    <owl:Ontology rdf:about="http://purl.obolibrary.org/obo/po.owl"/>\n\n' + classes + "</rdf:RDF>\n")
    lines = path.read_text().splitlines()
    assert lines[6].strip().startswith("<!-- http://purl.obolibrary.org/obo/PO_0000001")
    with pytest.raises(SourceError) as raised:
        load_source(path)
    assert str(raised.value).startswith(f"{path}:11: cycle in the is_a relation: PO:"), str(raised.value)
    assert lines[8].strip().startswith('<owl:Class rdf:about="http://purl.obolibrary.org/obo/PO_0000001')
    assert lines[10].strip().startswith('<rdfs:subClassOf rdf:resource="http://purl.obolibrary.org/obo/PO_0000002')


def test_a_turtle_cycle_is_named_at_a_statement_not_at_owlapis_comment_above_it(tmp_path):
    """OWLAPI's Turtle writes ``###  IRI`` above each class: the error's line is the ``rdfs:subClassOf``
    line in the class's statement, the edge of the cycle (was: the comment's, then the subject's)."""
    path = tmp_path / "cycle.ttl"
    classes = "".join(
        f"###  http://purl.obolibrary.org/obo/PO_000000{i}\n"
        f"obo:PO_000000{i} rdf:type owl:Class ;\n"
        f'    rdfs:subClassOf obo:PO_000000{2 if i == 1 else 1} ;\n    rdfs:label "part {i}" .\n\n' for i in (1, 2))
    path.write_text("@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                    "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
                    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\n"
                    "<http://purl.obolibrary.org/obo/po.owl> rdf:type owl:Ontology .\n\n" + classes)
    lines = path.read_text().splitlines()
    assert lines[7].startswith("###  http://purl.obolibrary.org/obo/PO_0000001")
    with pytest.raises(SourceError) as raised:
        load_source(path)
    assert str(raised.value).startswith(f"{path}:10: cycle in the is_a relation: PO:"), str(raised.value)
    assert lines[8].startswith("obo:PO_0000001 rdf:type owl:Class")
    assert lines[9].strip() == "rdfs:subClassOf obo:PO_0000002 ;"


@pytest.mark.parametrize("strict_undefined", [False, True])
def test_the_line_of_an_rdf_cycle_or_undefined_concept_is_not_one_naming_a_longer_id(tmp_path, strict_undefined):
    """``ex:c10`` (line 3) and ``<http://example.org/t/c1/part>`` (line 4) do not name ``ex:c1``."""
    path = tmp_path / "tools.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
                    "@prefix ex: <http://example.org/t/> .\n"
                    "ex:c10 a skos:Concept ; skos:prefLabel \"tools\"@en .\n"
                    "<http://example.org/t/c1/part> a skos:Concept ; skos:prefLabel \"parts\"@en .\n"
                    + ("" if strict_undefined else "ex:c1 a skos:Concept ; skos:prefLabel \"knives\"@en ; skos:broader ex:c2 .\n")
                    + "ex:c2 a skos:Concept ; skos:prefLabel \"blades\"@en ; skos:broader ex:c1 .\n", encoding="utf-8")
    with pytest.raises(SourceError) as raised:
        load_source(path, strict=True)
    expected = "ex:c2 is_a ex:c1: ex:c1 is never defined" if strict_undefined else "cycle in the is_a relation: ex:c1"
    assert str(raised.value).startswith(f"{path}:5: {expected}")


@pytest.mark.parametrize("text, expected", [
    ("ex:x a skos:Concept ; skos:prefLabel \"x\" .", "skos"),
    ("ex:x a owl:NamedIndividual, skos:Concept .", "skos"),
    ("ex:x rdf:type skos:Concept .", "skos"),
    ("ex:C a owl:Class ; skos:closeMatch skos:Concept .", "owl"),       # a mention, no declaration
    ("ex:p a owl:ObjectProperty ; rdfs:domain skos:Concept .", "rdf"),  # FOAF-like: the class only referred to
    # RiC-O: an ontology with a small vocabulary inside, read alike from every syntax (more classes declared)
    ("ex:f a skos:Concept .\nex:A a owl:Class .\nex:B a owl:Class .\n<http://e/C> <http://www.w3.org/1999/02/"
     "22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Class> .", "owl"),
    ("ex:f a skos:Concept .\nex:g a skos:Concept .\nex:A a owl:Class .", "skos"),
    # a thesaurus that leaves out "a skos:Concept" (SKOS entails it from broader / narrower)
    ("ex:f skos:prefLabel \"f\" ; skos:broader ex:g .\nex:g skos:prefLabel \"g\" .", "skos"),
    ("ex:A a owl:Class ; skos:prefLabel \"a\" .", "owl"),
])
def test_a_file_is_skos_when_it_declares_a_concept_not_when_it_mentions_the_class(tmp_path, text, expected):
    path = tmp_path / "v.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n" + text + "\n", encoding="utf-8")
    assert guess_format(path) == expected
    xml = tmp_path / "v.rdf"
    xml.write_text('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
                   'xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">'
                   '<rdf:Description rdf:about="http://e/p"><rdfs:domain '
                   'rdf:resource="http://www.w3.org/2004/02/skos/core#Concept"/></rdf:Description>'
                   '<rdf:Description rdf:about="http://e/x"><rdf:type '
                   'rdf:resource="http://www.w3.org/2004/02/skos/core#Concept"/></rdf:Description></rdf:RDF>',
                   encoding="utf-8")
    assert guess_format(xml) == "skos"


@pytest.mark.parametrize("seed", range(8))
def test_the_links_kept_across_a_cut_are_those_of_the_whole_closure(seed):
    """_entailed_across walks only the subjects that can meet a cut concept: on random hierarchies
    and links it must find what a walk from every kept subject finds (the whole source's closure,
    less what the kept concepts alone give)."""
    import random

    from mcqa_probes.knowledge.source import _entailed_across

    rng = random.Random(seed)
    nodes = [f"n{i:02d}" for i in range(40)]
    isa = {(child, parent) for index, child in enumerate(nodes[1:], 1)
           for parent in rng.sample(nodes[:index], min(index, rng.choice([1, 1, 2])))}
    links = {(rng.choice(nodes), "part_of", rng.choice(nodes)) for _ in range(30)}
    root = rng.choice(nodes[:10])
    keep = {root} | {c for c in nodes if _reaches(c, root, isa)}

    def closure(subject, allowed):
        """A fixed point over sets: what the allowed start (the subject and its ancestors) and what
        is reached link to, with the ancestors of each, allowed ones only."""
        def at_or_above(c):
            return {c} | {a for a in nodes if _reaches(c, a, isa)}
        start = {c for c in at_or_above(subject) if allowed(c)}
        reached = set()
        while True:
            grown = reached | {a for s_, _, o in links if s_ in start | reached for a in at_or_above(o) if allowed(a)}
            if grown == reached:
                return reached
            reached = grown

    expected = {(s, "part_of", o) for s in keep
                for o in closure(s, lambda c: True) - closure(s, keep.__contains__) if o in keep and o != s}
    assert set(_entailed_across(keep, sorted(isa), sorted(links), {}, {})) == expected


def _reaches(child, ancestor, isa):
    stack, seen = [child], set()
    while stack:
        node = stack.pop()
        for c, p in isa:
            if c == node and p not in seen:
                seen.add(p)
                stack.append(p)
    return ancestor in seen


def test_a_chain_through_concepts_cut_by_the_root_still_holds(tmp_path):
    """vesicle located_in space, space part_of region part_of duct, located_in transitive over part_of;
    the root keeps the vesicle and the duct, not the space nor the region: the vesicle is still
    located in the duct (an implied link: the located_in probe never offers the duct as wrong)."""
    text = ("format-version: 1.2\nontology: t\n\n[Typedef]\nid: part_of\nis_transitive: true\n\n"
            "[Typedef]\nid: located_in\ntransitive_over: part_of\n\n[Term]\nid: T:0\nname: thing\n\n"
            "[Term]\nid: T:1\nname: kept\nis_a: T:0\n\n[Term]\nid: T:2\nname: vesicle\nis_a: T:1\n"
            "relationship: located_in T:4\n\n[Term]\nid: T:3\nname: duct\nis_a: T:1\n\n[Term]\nid: T:4\nname: space\n"
            "is_a: T:0\nrelationship: part_of T:5\n\n[Term]\nid: T:5\nname: region\nis_a: T:0\nrelationship: part_of T:3\n")
    path = tmp_path / "chain.obo"
    path.write_text(text)
    whole = load_source(path, relations=["located_in"])
    assert whole.relation_info["located_in"]["through"] == ["part_of"]
    cut = load_source(path, root="T:1")
    assert sorted(cut.concepts) == ["T:1", "T:2", "T:3"]
    assert "T:3" in cut.implied_related("T:2", "located_in")


@pytest.mark.parametrize("relation, prefixes, name", [
    ("part_of", (), "part of"), ("skos:related", (), "related"), ("ex:partOf", ("ex",), "partOf"),
    ("has:prefix", (), "has prefix"), ("BFO:0000050", (), ""), ("RO:has_part", (), "has part"),
    # a property in a namespace the file gives no prefix: its local name, not "http //..."
    ("http://www.co-ode.org/ontologies/pizza/pizza.owl#hasTopping", (), "hasTopping"),
    ("http://example.org/rel/located_in", (), "located in"), ("http://purl.obolibrary.org/obo/RO_0002202", (), ""),
])
def test_a_relation_known_by_its_id_alone_is_named_alike_in_every_format(relation, prefixes, name):
    assert relation_name(relation, prefixes) == name


def test_a_relation_with_a_colon_and_no_typedef_reads_the_same_from_obo_and_owl(tmp_path):
    """The Units Ontology's ``relationship: has:prefix UO:...`` (no Typedef), ``obo:has_prefix`` in
    its OWL rendering: *has prefix* in both (it was *has:prefix* and *prefix*)."""
    obo, ttl = tmp_path / "units.obo", tmp_path / "units.ttl"
    obo.write_text("format-version: 1.2\nontology: mu\n\n[Term]\nid: MU:1\nname: prefix\n\n[Term]\nid: MU:2\nname: kilo\n"
                   "is_a: MU:1\n\n[Term]\nid: MU:3\nname: kilogram\nrelationship: has:prefix MU:2\n")
    ttl.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                   "@prefix obo: <http://purl.obolibrary.org/obo/> .\n"
                   "<http://purl.obolibrary.org/obo/mu.owl> a owl:Ontology .\nobo:has_prefix a owl:ObjectProperty .\n"
                   'obo:MU_1 a owl:Class ; rdfs:label "prefix" .\nobo:MU_2 a owl:Class ; rdfs:label "kilo" ; rdfs:subClassOf obo:MU_1 .\n'
                   'obo:MU_3 a owl:Class ; rdfs:label "kilogram" ; rdfs:subClassOf [ a owl:Restriction ; '
                   "owl:onProperty obo:has_prefix ; owl:someValuesFrom obo:MU_2 ] .\n")
    for path in (obo, ttl):
        graph = load_source(path, relations=["has:prefix"])
        assert graph.relation_info["has:prefix"]["name"] == "has prefix", path
        assert list(graph.related("MU:3", "has:prefix")) == ["MU:2"]


def test_spellings_of_one_synonym_that_differ_in_case_give_one_name_whatever_the_file_order(tmp_path):
    """PSI-MOD's MOD:02104 lists ``L-tyrosine`` before ``L-Tyrosine``; its OWL rendering sorts them."""
    names = []
    for order in (("L-tyrosine", "L-Tyrosine"), ("L-Tyrosine", "L-tyrosine")):
        path = tmp_path / "mod.obo"
        path.write_text("format-version: 1.2\nontology: mod\n\n[Term]\nid: MOD:1\nname: tyrosine residue\n"
                        + "".join(f'synonym: "{name}" EXACT []\n' for name in order))
        names.append(load_source(path)["MOD:1"].lemmas)
    assert names[0] == names[1] == ("tyrosine residue", "L-Tyrosine")


def test_a_real_label_wins_over_a_name_made_from_the_iri_whatever_the_file_order(tmp_path):
    """SIOC mentions foaf:Agent without a label (named *agent* after its IRI); FOAF labels it "Agent"."""
    mentions = tmp_path / "sioc.ttl"
    mentions.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                        "<http://x.org/foaf/Agent> a owl:Class ; rdfs:comment \"Something that acts.\" .\n")
    labels = tmp_path / "foaf.ttl"
    labels.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                      "<http://x.org/foaf/Agent> a owl:Class ; rdfs:label \"Agent\" .\n"
                      "<http://x.org/foaf/Account> a owl:Class ; rdfs:label \"online account\" .\n")
    for order in ([mentions, labels], [labels, mentions]):
        graph = load_source(order)
        assert graph["http://x.org/foaf/Agent"].lemmas[0] == "Agent"


def test_a_synonym_of_an_obsolete_synonym_type_is_no_name_in_obo_and_in_its_owl_rendering(tmp_path):
    """HPO's *Nevus of Ota* keeps "Mongolian spot" as an EXACT synonym of type ``obsolete_synonym``
    ("discarded/obsoleted synonym"): a name it no longer has. Skipped and counted from the OBO file and
    from its OWL rendering (the type on the synonym's axiom annotation); a synonym of another type stays."""
    obo, ttl = tmp_path / "hp.obo", tmp_path / "hp.ttl"
    obo.write_text('format-version: 1.2\nsynonymtypedef: layperson "layperson term"\n'
                   'synonymtypedef: obsolete_synonym "discarded/obsoleted synonym"\nontology: hp\n\n'
                   '[Term]\nid: HP:1\nname: Abnormal skin pigmentation\n\n'
                   '[Term]\nid: HP:2\nname: Nevus of Ota\nsynonym: "Mongolian spot" EXACT obsolete_synonym []\n'
                   'synonym: "Ota spot" RELATED obsolete_synonym []\nsynonym: "Oculodermal melanocytosis" EXACT []\n'
                   'synonym: "Blue-grey patch" EXACT layperson []\n'
                   "is_a: HP:1\n")
    ttl.write_text(
        "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix oio: <http://www.geneontology.org/formats/oboInOwl#> .\n"
        "<http://purl.obolibrary.org/obo/hp.owl> a owl:Ontology .\n"
        '<http://purl.obolibrary.org/obo/hp#obsolete_synonym> a owl:AnnotationProperty ; rdfs:label "discarded/obsoleted synonym" ;'
        " rdfs:subPropertyOf oio:SynonymTypeProperty .\n"
        '<http://purl.obolibrary.org/obo/hp#layperson> a owl:AnnotationProperty ; rdfs:label "layperson term" ;'
        " rdfs:subPropertyOf oio:SynonymTypeProperty .\n"
        'obo:HP_1 a owl:Class ; rdfs:label "Abnormal skin pigmentation" .\n'
        'obo:HP_2 a owl:Class ; rdfs:label "Nevus of Ota" ; rdfs:subClassOf obo:HP_1 ; oio:hasExactSynonym "Mongolian spot", '
        '"Oculodermal melanocytosis", "Blue-grey patch" ; oio:hasRelatedSynonym "Ota spot" .\n'
        '[ a owl:Axiom ; owl:annotatedSource obo:HP_2 ; owl:annotatedProperty oio:hasRelatedSynonym ; owl:annotatedTarget "Ota spot" ;'
        " oio:hasSynonymType <http://purl.obolibrary.org/obo/hp#obsolete_synonym> ] .\n"
        '[ a owl:Axiom ; owl:annotatedSource obo:HP_2 ; owl:annotatedProperty oio:hasExactSynonym ; owl:annotatedTarget "Mongolian spot" ;'
        " oio:hasSynonymType <http://purl.obolibrary.org/obo/hp#obsolete_synonym> ] .\n"
        '[ a owl:Axiom ; owl:annotatedSource obo:HP_2 ; owl:annotatedProperty oio:hasExactSynonym ; owl:annotatedTarget "Blue-grey patch" ;'
        " oio:hasSynonymType <http://purl.obolibrary.org/obo/hp#layperson> ] .\n")
    lemmas = []
    for path in (obo, ttl):
        graph = load_source(path)
        assert "Mongolian spot" not in graph["HP:2"].lemmas, path
        assert {"Oculodermal melanocytosis", "Blue-grey patch"} <= set(graph["HP:2"].lemmas), path
        # of any scope, counted (was: a RELATED one skipped without a word), at its own line in OBO
        report = graph.provenance["report"]
        assert report.counts["obsolete_synonym"] == 2, path
        examples = sorted(report.examples["obsolete_synonym"])
        assert any("HP:2 'Mongolian spot'" in e for e in examples) and any("HP:2 'Ota spot'" in e for e in examples)
        if path == obo:
            assert sorted(examples) == [f"{obo}:13 HP:2 'Mongolian spot'", f"{obo}:14 HP:2 'Ota spot'"], examples
        lemmas.append(graph["HP:2"].lemmas)
    assert lemmas[0] == lemmas[1]


def test_an_alternative_id_is_counted_apart_from_obsolete_terms_in_obo_and_in_its_owl_rendering(tmp_path):
    """OWLAPI (so ROBOT) renders each OBO ``alt_id`` as a deprecated class with no label, marked "terms
    merged" and "term replaced by" its term: HPO's OWL rendering has 3,832 of them beside 450 obsolete
    terms. They are counted as alternative ids from both files, not as obsolete terms, so the two
    validity summaries agree; an obsolete term that is also another's alt_id stays an obsolete term.
    An edge to an alt_id goes on to its term, from both files (was: to a concept never defined from
    the OBO file, an error with --strict, and dropped from the OWL one)."""
    obo, ttl = tmp_path / "vo.obo", tmp_path / "vo.ttl"
    obo.write_text("format-version: 1.2\nontology: vo\n\n[Term]\nid: VO:1\nname: vehicle\n\n"
                   "[Term]\nid: VO:2\nname: car\nalt_id: VO:9\nalt_id: VO:3\nis_a: VO:1\n\n"
                   "[Term]\nid: VO:3\nname: obsolete automobile\nis_obsolete: true\n\n"
                   "[Term]\nid: VO:4\nname: obsolete cart\nalt_id: VO:8\nis_obsolete: true\n\n"
                   "[Term]\nid: VO:5\nname: sports car\nis_a: VO:9\n")
    ttl.write_text(
        "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix obo: <http://purl.obolibrary.org/obo/> .\n<http://purl.obolibrary.org/obo/vo.owl> a owl:Ontology .\n"
        'obo:VO_1 a owl:Class ; rdfs:label "vehicle" .\n'
        'obo:VO_2 a owl:Class ; rdfs:label "car" ; rdfs:subClassOf obo:VO_1 .\n'
        'obo:VO_3 a owl:Class ; rdfs:label "obsolete automobile" ; owl:deprecated true ;'
        " obo:IAO_0000231 obo:IAO_0000227 ; obo:IAO_0100001 obo:VO_2 .\n"
        'obo:VO_4 a owl:Class ; rdfs:label "obsolete cart" ; owl:deprecated true .\n'
        "obo:VO_8 a owl:Class ; owl:deprecated true ; obo:IAO_0000231 obo:IAO_0000227 ; obo:IAO_0100001 obo:VO_4 .\n"
        "obo:VO_9 a owl:Class ; owl:deprecated true ; obo:IAO_0000231 obo:IAO_0000227 ; obo:IAO_0100001 obo:VO_2 .\n"
        'obo:VO_5 a owl:Class ; rdfs:label "sports car" ; rdfs:subClassOf obo:VO_9 .\n')
    # without the deprecated classes, the alternative ids given as oboInOwl:hasAlternativeId only (an
    # older OWLAPI, a hand-made file): the same (was: the edge to VO:9 dropped)
    bare = tmp_path / "vo_bare.ttl"
    bare.write_text("\n".join(line for line in ttl.read_text().splitlines() if not line.startswith(("obo:VO_8", "obo:VO_9")))
                    .replace("@prefix obo:", "@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\n"
                             "@prefix obo:") + "\nobo:VO_2 oboInOwl:hasAlternativeId \"VO:9\", \"VO:3\" .\n"
                    'obo:VO_4 oboInOwl:hasAlternativeId "VO:8" .\n')
    found = []
    for path in (obo, ttl, bare):
        graph = load_source(path, strict=True)       # an edge to an alt_id is to a concept the file defines
        report = graph.provenance["report"]
        assert sorted(graph.concepts) == ["VO:1", "VO:2", "VO:5"], path
        assert report.counts["obsolete"] == 2 and report.counts["alternative_id"] == 2, path
        assert list(graph.hypernyms("VO:5")) == ["VO:2"], path    # is_a VO:9, an alt_id of VO:2: is_a VO:2
        # an edge to an alternative id is the term's: counted as such, not as an edge lifted to the
        # parents of an obsolete term (was: "linked on to its parents")
        assert report.counts["edge_to_alternative_id"] == 1 and "edge_lifted" not in report.counts, path
        assert "undefined_parent" not in report.counts, path
        # the edge's example names its file and line: RDF's the first naming the child (was: no file)
        line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "VO_5" in text or "is_a: VO:9" in text)
        assert report.examples["edge_to_alternative_id"][0].startswith(f"{path}:{line} VO:5 is_a VO:9 -> VO:2"), (
            path, report.examples["edge_to_alternative_id"])
        found.append(([e.split(" ", 1)[1] for e in report.examples["alternative_id"]],
                      sorted(e.split(" ", 1)[1] for e in report.examples["obsolete"])))
        # every example names its file and a line: in RDF the first that names the id (was: none from RDF)
        lines = path.read_text().splitlines()
        for example in report.examples["alternative_id"] + report.examples["obsolete"]:
            where, *ids = [word for word in example.split(" ") if word != "of"]
            file, _, number = where.rpartition(":")
            assert file == str(path) and number.isdigit(), example
            named = lines[int(number) - 1]      # the id's line, or (OBO's alt_id) its term's frame
            assert any(i in named or i.replace(":", "_") in named for i in ids), (example, named)
        # an alt_id as --root names its term (was: "obsolete / deprecated"); one of an obsolete term is obsolete
        with pytest.raises(SourceError, match=r"--root VO:9: an alternative id of VO:2 \(car\).*--root VO:2\)"):
            load_source(path, root="VO:9")
        with pytest.raises(SourceError, match=r"--root VO:8: obsolete / deprecated"):
            load_source(path, root="VO:8")
    assert found[0] == found[1] == found[2] == (["VO:8 of VO:4", "VO:9 of VO:2"], ["VO:3", "VO:4"])


def test_a_term_that_another_lists_as_its_alt_id_is_obsolete_in_obo_as_in_its_owl_rendering(tmp_path):
    """A merged term whose frame was left behind (``VO:6`` has a name and a parent, and ``VO:2`` lists
    it as an alt_id): OWLAPI makes it a deprecated class that keeps its name, so it is obsolete from
    both files and an edge to it goes on to its parents (was: a concept from the OBO file, none from
    the rendering)."""
    obo, ttl = tmp_path / "vo.obo", tmp_path / "vo.ttl"
    obo.write_text("format-version: 1.2\nontology: vo\n\n[Term]\nid: VO:1\nname: vehicle\n\n"
                   "[Term]\nid: VO:2\nname: car\nalt_id: VO:6\nis_a: VO:1\n\n"
                   "[Term]\nid: VO:6\nname: automobile\nis_a: VO:1\n\n"
                   "[Term]\nid: VO:5\nname: sports car\nis_a: VO:6\n")
    ttl.write_text(
        "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix obo: <http://purl.obolibrary.org/obo/> .\n<http://purl.obolibrary.org/obo/vo.owl> a owl:Ontology .\n"
        'obo:VO_1 a owl:Class ; rdfs:label "vehicle" .\n'
        'obo:VO_2 a owl:Class ; rdfs:label "car" ; rdfs:subClassOf obo:VO_1 .\n'
        'obo:VO_6 a owl:Class ; rdfs:label "automobile" ; rdfs:subClassOf obo:VO_1 ; owl:deprecated true ;'
        " obo:IAO_0000231 obo:IAO_0000227 ; obo:IAO_0100001 obo:VO_2 .\n"
        'obo:VO_5 a owl:Class ; rdfs:label "sports car" ; rdfs:subClassOf obo:VO_6 .\n')
    for path in (obo, ttl):
        graph = load_source(path, strict=True)
        report = graph.provenance["report"]
        assert sorted(graph.concepts) == ["VO:1", "VO:2", "VO:5"], path
        assert report.counts["obsolete"] == 1 and "alternative_id" not in report.counts, path
        assert [e.split(" ", 1)[1] for e in report.examples["obsolete"]] == ["VO:6"], path
        assert list(graph.hypernyms("VO:5")) == ["VO:1"], path


def test_a_term_with_several_definitions_gets_the_same_one_from_obo_and_from_its_owl_rendering(tmp_path):
    """OBO allows one def per term, but a file may give two (or split a term over two frames, each with
    one); OWLAPI renders each as an IAO:0000115 annotation, which RDF gives in no order. Both readers
    take the first in sorted order and count the term (was: the OBO reader kept the last def clause,
    the RDF reader the first in order: a question's context differed between the two files)."""
    obo, ttl = tmp_path / "vo.obo", tmp_path / "vo.ttl"
    obo.write_text('format-version: 1.2\nontology: vo\n\n[Term]\nid: VO:1\nname: vehicle\ndef: "A thing that moves." []\n\n'
                   '[Term]\nid: VO:2\nname: car\ndef: "Zoom: a road vehicle." []\n'
                   'def: "A road vehicle with four wheels." []\nis_a: VO:1\n\n'
                   '[Term]\nid: VO:3\nname: boat\ndef: "Something that floats." []\nis_a: VO:1\n\n'
                   '[Term]\nid: VO:3\ndef: "A vessel for travel on water." []\n')
    ttl.write_text(
        "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix obo: <http://purl.obolibrary.org/obo/> .\n<http://purl.obolibrary.org/obo/vo.owl> a owl:Ontology .\n"
        'obo:VO_1 a owl:Class ; rdfs:label "vehicle" ; obo:IAO_0000115 "A thing that moves." .\n'
        'obo:VO_2 a owl:Class ; rdfs:label "car" ; rdfs:subClassOf obo:VO_1 ;\n'
        '  obo:IAO_0000115 "Zoom: a road vehicle.", "A road vehicle with four wheels." .\n'
        'obo:VO_3 a owl:Class ; rdfs:label "boat" ; rdfs:subClassOf obo:VO_1 ;\n'
        '  obo:IAO_0000115 "Something that floats.", "A vessel for travel on water." .\n')
    for path in (obo, ttl):
        graph = load_source(path)
        assert [graph[c].definition for c in ("VO:1", "VO:2", "VO:3")] == [
            "A thing that moves.", "A road vehicle with four wheels.", "A vessel for travel on water."], path
        report = graph.provenance["report"]
        assert report.counts["several_definitions"] == 2, path
        assert sorted(e.split(" ", 1)[-1] for e in report.examples["several_definitions"]) == ["VO:2 (2)", "VO:3 (2)"]


_OBO_RENDERING = (
    "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
    "@prefix obo: <http://purl.obolibrary.org/obo/> .\n"
    "@prefix oio: <http://www.geneontology.org/formats/oboInOwl#> .\n"
    "obo:TEMP a owl:Ontology ; oio:hasOBOFormatVersion \"1.2\" .\n"
    'obo:VO_1 a owl:Class ; oio:id "VO:1" ; rdfs:label "vehicle" ; rdfs:comment "Not for annotation." .\n'
    'obo:VO_2 a owl:Class ; oio:id "VO:2" ; rdfs:label "car" ; rdfs:subClassOf obo:VO_1, obo:VO_7 .\n'
    'obo:VO_3 a owl:Class ; oio:id "VO:3" ; rdfs:label "boat" ; rdfs:subClassOf obo:VO_1 ; rdfs:comment "See also ship." .\n'
    '<http://example.org/vo/wheel> a owl:Class ; oio:id "http://example.org/vo/wheel" ; rdfs:subClassOf obo:VO_1 .\n'
    "<http://example.org/vo/engine> a owl:Class .\nobo:VO_7 a owl:Class .\n"
    'obo:VO_4 a owl:Class ; oio:id "VO:4" ; rdfs:label "bus" ; rdfs:subClassOf obo:VO_1, <http://example.org/vo/engine> .\n')


def test_an_owl_rendering_of_an_obo_file_reads_as_the_obo_file_without_comments_or_names_from_iris(tmp_path):
    """What OWLAPI (so ROBOT) writes for an OBO file: each term's ``oboInOwl:id``, the OBO comments as
    rdfs:comment, a declaration of every class the file names (one it never defines too), and the
    ontology IRI ``obo:TEMP`` where the OBO file has no ``ontology:`` header. Read as the OBO file is
    (was, for the rendering: comments taken as definitions where no term has a def, a term with no
    name and a class never defined named after their IRIs, the source named TEMP, a ``.owl.ttl``
    file named ``x.owl``). A plain OWL file keeps rdfs:comment as definitions and IRI names."""
    obo, rendering = tmp_path / "vo.obo", tmp_path / "vo.owl.ttl"
    obo.write_text("format-version: 1.2\n\n[Term]\nid: VO:1\nname: vehicle\ncomment: Not for annotation.\n\n"
                   "[Term]\nid: VO:2\nname: car\nis_a: VO:1\nis_a: VO:7\n\n"
                   "[Term]\nid: VO:3\nname: boat\nis_a: VO:1\ncomment: See also ship.\n\n"
                   "[Term]\nid: http://example.org/vo/wheel\nis_a: VO:1\n\n"
                   "[Term]\nid: VO:4\nname: bus\nis_a: VO:1\nis_a: http://example.org/vo/engine\n")
    rendering.write_text(_OBO_RENDERING)
    seen = []
    for path in (obo, rendering):
        graph = load_source(path)
        report = graph.provenance["report"]
        assert sorted(graph.concepts) == ["VO:1", "VO:2", "VO:3", "VO:4"], path
        assert not any(graph[c].definition for c in graph.concepts), path
        assert graph.source == "vo", path
        assert report.counts["no_label"] == 1 and report.counts["undefined_parent"] == 2, path
        assert "label_from_iri" not in report.counts, path
        seen.append(sorted(e.split(" ", 1)[-1] for e in report.examples["undefined_parent"]))
    assert seen[0] == seen[1]
    plain = tmp_path / "plain.ttl"       # no oboInOwl: an OWL file of its own, read as RDFS/OWL
    plain.write_text(_OBO_RENDERING.replace(" oio:hasOBOFormatVersion \"1.2\" ", " ")
                     .replace('oio:id "', 'rdfs:seeAlso "'))
    graph = load_source(plain)
    assert graph.source == "plain"
    assert graph["VO:1"].definition == "Not for annotation."
    assert {"http://example.org/vo/wheel", "http://example.org/vo/engine"} <= set(graph.concepts)
    assert graph.provenance["report"].counts["label_from_iri"] == 2


def test_control_characters_are_dropped_or_read_as_windows_1252_and_counted(tmp_path):
    """A NUL in a name, and the C1 controls a Windows-1252 text read as Latin-1 leaves (U+0092 for its
    apostrophe, U+0096 for its dash), in an OBO file and in a TSV pair alike: the NUL dropped, the
    others read as the characters they stand for, each concept counted (was: kept, and written into
    the questions)."""
    obo = tmp_path / "d.obo"
    obo.write_text('format-version: 1.2\nontology: d\n\n[Term]\nid: D:1\nname: disease\n\n'
                   '[Term]\nid: D:2\nname: Crohn\x92s dis\x00ease\ndef: "A bowel disease \x96 chronic." []\n'
                   'synonym: "regional\x01 enteritis" EXACT []\nis_a: D:1\n', encoding="utf-8")
    folder = tmp_path / "d_tsv"
    folder.mkdir()
    (folder / "concepts.tsv").write_text("id\tlabel\tsynonyms\tdefinition\nD:1\tdisease\t\t\n"
                                         "D:2\tCrohn\x92s dis\x00ease\tregional\x01 enteritis\tA bowel disease \x96 chronic.\n",
                                         encoding="utf-8")
    (folder / "edges.tsv").write_text("child\trelation\tparent\nD:2\tis_a\tD:1\n")
    for source in (obo, folder):
        graph = load_source(source)
        assert graph["D:2"].lemmas == ("Crohn\u2019s disease", "regional enteritis"), source
        assert graph["D:2"].definition == "A bowel disease \u2013 chronic.", source
        report = graph.provenance["report"]
        assert report.counts["control_character"] == 1 and report.examples["control_character"][0].endswith(" D:2")


@pytest.mark.parametrize("name, compress", [
    ("vehicles.obo", "gzip"), ("vehicles.owl", "bz2"), ("kitchen_skos.ttl", "lzma"), ("clinics_rdfs.ttl", "gzip")])
def test_a_compressed_file_is_read_as_the_file_inside(tmp_path, name, compress):
    """A release as it is downloaded (chebi.obo.gz, mesh.nt.bz2): the same graph as the file inside,
    its format guessed from the inner suffix, and its report naming the compressed file."""
    import importlib

    plain = ONTOLOGIES / name
    suffix = {"gzip": ".gz", "bz2": ".bz2", "lzma": ".xz"}[compress]
    packed = tmp_path / (name + suffix)
    packed.write_bytes(importlib.import_module(compress).compress(plain.read_bytes()))
    assert guess_format(packed) == guess_format(plain)
    expected, graph = load_source(plain), load_source(packed)
    assert sorted(graph.triples()) == sorted(expected.triples()) and len(graph) == len(expected)
    assert (graph.source, graph.version) == (expected.source, expected.version)
    assert graph.provenance["files"][0]["path"] == str(packed)
    examples = [e for shown in graph.provenance["report"].examples.values() for e in shown]
    assert examples == [e.replace(str(plain), str(packed)) for shown in
                        expected.provenance["report"].examples.values() for e in shown]
    if name == "vehicles.obo":
        assert any(e.startswith(f"{packed}:26 ") for e in examples)     # the line inside, the file as given


def test_a_damaged_compressed_file_a_fault_inside_one_and_an_archive_are_errors_naming_the_file(tmp_path):
    import gzip

    whole = gzip.compress(VEHICLES.read_bytes())
    cut = tmp_path / "cut.obo.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(SourceError, match=r"cut\.obo\.gz: not a whole gzip file .*expected a \.obo file compressed by gzip"):
        load_source(cut)
    text = VEHICLES.read_text()
    broken = tmp_path / "broken.obo.gz"
    broken.write_bytes(gzip.compress(text.replace("is_a: VO:0000003", "is_a VO:0000003", 1).encode()))
    line = text[: text.index("is_a: VO:0000003")].count("\n") + 1
    with pytest.raises(SourceError) as caught:
        load_source(broken)
    assert str(caught.value).startswith(f"{broken}:{line}: is_a clause without a colon")
    archive = tmp_path / "vehicles.tar"
    archive.write_bytes(b"ustar")
    with pytest.raises(SourceError, match="an archive .*give the ontology file in it"):
        load_source(archive)


def test_a_zip_archive_is_read_as_the_one_ontology_file_it_holds(tmp_path):
    """NCIt's Thesaurus.owl.zip, AGROVOC's .nt.zip: the one ontology file inside (in a folder, beside a
    README and macOS's __MACOSX copies) gives the same graph; none, several or a broken archive are errors."""
    import zipfile

    packed = tmp_path / "Thesaurus.owl.zip"
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(ONTOLOGIES / "vehicles.owl", "release/vehicles.owl")
        archive.writestr("__MACOSX/release/._vehicles.owl", "resource fork")
        archive.writestr("README.txt", "a release")
    assert guess_format(packed) == "owl"
    expected, graph = load_source(ONTOLOGIES / "vehicles.owl"), load_source(packed)
    assert sorted(graph.triples()) == sorted(expected.triples()) and graph.source == expected.source
    for name, members, held in (("two.zip", ["a.owl", "b.ttl"], "2 ontology files (a.owl, b.ttl)"),
                                ("none.zip", ["a.txt"], "0 ontology files (none)")):
        with zipfile.ZipFile(tmp_path / name, "w") as archive:
            for member in members:
                archive.writestr(member, "x")
        with pytest.raises(SourceError) as caught:
            load_source(tmp_path / name)
        assert str(caught.value).startswith(f"{tmp_path / name}: a zip archive with {held}; expected one")
    (tmp_path / "cut.zip").write_bytes(packed.read_bytes()[:100])
    with pytest.raises(SourceError, match=r"cut\.zip: not a whole zip file"):
        load_source(tmp_path / "cut.zip")


def test_a_relation_domain_puts_the_terms_with_its_links_under_it_in_obo_and_owl_alike(tmp_path):
    """OBO ``domain:`` of a Typedef and its OWL rendering's ``rdfs:domain``: a term with a link of the
    relation (``relationship:``, a differentia) is a kind of the domain (an implied edge, counted)."""
    obo = tmp_path / "zoo.obo"
    obo.write_text("format-version: 1.2\nontology: zoo\n\n"
                   "[Term]\nid: ZO:1\nname: animal\n\n[Term]\nid: ZO:2\nname: habitat\n\n"
                   "[Term]\nid: ZO:3\nname: forest\nis_a: ZO:2\n\n"
                   "[Term]\nid: ZO:4\nname: forest dweller\nrelationship: lives_in ZO:3\n\n"
                   "[Term]\nid: ZO:5\nname: tree dweller\nintersection_of: lives_in ZO:3\n\n"
                   "[Typedef]\nid: lives_in\nname: lives in\ndomain: ZO:1\nrange: ZO:2\n")
    owl = tmp_path / "zoo.ttl"
    owl.write_text("@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                   "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                   "@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\n"
                   "<http://purl.obolibrary.org/obo/zoo.owl> a owl:Ontology .\n"
                   "<http://purl.obolibrary.org/obo/zoo#lives_in> a owl:ObjectProperty ; rdfs:label \"lives in\" ; oboInOwl:shorthand \"lives_in\" ;"
                   " rdfs:domain obo:ZO_1 ; rdfs:range obo:ZO_2 .\n"
                   'obo:ZO_1 a owl:Class ; rdfs:label "animal" .\nobo:ZO_2 a owl:Class ; rdfs:label "habitat" .\n'
                   'obo:ZO_3 a owl:Class ; rdfs:label "forest" ; rdfs:subClassOf obo:ZO_2 .\n'
                   'obo:ZO_4 a owl:Class ; rdfs:label "forest dweller" ; rdfs:subClassOf [ a owl:Restriction ;'
                   " owl:onProperty <http://purl.obolibrary.org/obo/zoo#lives_in> ; owl:someValuesFrom obo:ZO_3 ] .\n"
                   'obo:ZO_5 a owl:Class ; rdfs:label "tree dweller" ; owl:equivalentClass [ a owl:Restriction ;'
                   " owl:onProperty <http://purl.obolibrary.org/obo/zoo#lives_in> ; owl:someValuesFrom obo:ZO_3 ] .\n")
    for path in (obo, owl):
        graph = load_source(path)
        # forest dweller: under animal (the domain) and, as tree dweller's definition covers it, tree dweller
        assert sorted(graph.implied_hypernyms("ZO:4")) == ["ZO:1", "ZO:5"], path
        assert list(graph.implied_hypernyms("ZO:5")) == ["ZO:1"], path
        assert not graph.implied_hypernyms("ZO:3"), path
        assert graph.provenance["report"].counts["domain_parent"] == 2, path


def test_equivalent_relations_ranges_and_domains_above_a_sub_relation_are_read_in_obo_and_owl_alike(tmp_path):
    """``situated_in`` ``equivalent_to: located_in`` (OWL ``owl:equivalentProperty``): each link of one is
    a link of the other; located_in's ``range: site`` (``rdfs:range``): what is located in anything is
    located in some site (and so in a spatial entity); ``grows_on is_a: inhabits`` with inhabits'
    ``domain: organism``: what grows on something is an organism. Implied (validity closures only),
    alike from the OBO file and its OWL rendering (was: none of the three read)."""
    terms = [("EV:1", "spatial entity", None), ("EV:2", "site", "EV:1"), ("EV:3", "basin", "EV:2"),
             ("EV:4", "village", None), ("EV:5", "town", None), ("EV:6", "organism", None), ("EV:7", "rock", None),
             ("EV:8", "biofilm", None)]
    links = [("EV:4", "situated_in", "EV:3"), ("EV:5", "located_in", "EV:4"), ("EV:8", "grows_on", "EV:7")]
    obo = tmp_path / "envo.obo"
    obo.write_text("format-version: 1.4\nontology: ev\n\n" + "".join(
        f"[Term]\nid: {i}\nname: {name}\n" + (f"is_a: {parent}\n" if parent else "")
        + "".join(f"relationship: {r} {o}\n" for s_, r, o in links if s_ == i) + "\n" for i, name, parent in terms)
        + "[Typedef]\nid: located_in\nname: located in\nrange: EV:2\n\n"
        + "[Typedef]\nid: situated_in\nname: situated in\nequivalent_to: located_in\n\n"
        + "[Typedef]\nid: inhabits\nname: inhabits\ndomain: EV:6\n\n[Typedef]\nid: grows_on\nname: grows on\nis_a: inhabits\n")
    def iri(i):
        return f"obo:EV_{i.split(':')[1]}"
    prop = {r: f"<http://purl.obolibrary.org/obo/ev#{r}>" for r in ("located_in", "situated_in", "inhabits", "grows_on")}
    owl = tmp_path / "envo.ttl"
    owl.write_text("@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                   "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                   "@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\n"
                   "<http://purl.obolibrary.org/obo/ev.owl> a owl:Ontology .\n"
                   + "".join(f'{p} a owl:ObjectProperty ; rdfs:label "{r.replace("_", " ")}" ; oboInOwl:shorthand "{r}" .\n'
                             for r, p in prop.items())
                   + f"{prop['located_in']} rdfs:range obo:EV_2 .\n{prop['situated_in']} owl:equivalentProperty {prop['located_in']} .\n"
                   + f"{prop['inhabits']} rdfs:domain obo:EV_6 .\n{prop['grows_on']} rdfs:subPropertyOf {prop['inhabits']} .\n"
                   + "".join(f'{iri(i)} a owl:Class ; rdfs:label "{name}"' + (f" ; rdfs:subClassOf {iri(parent)}" if parent else "")
                             + "".join(f" ; rdfs:subClassOf [ a owl:Restriction ; owl:onProperty {prop[r]} ; owl:someValuesFrom {iri(o)} ]"
                                       for s_, r, o in links if s_ == i) + " .\n" for i, name, parent in terms))
    for path in (obo, owl):
        graph = load_source(path, relations=["located_in", "situated_in", "grows_on"])
        assert graph.provenance["relations"] == {"located_in": "located_in", "situated_in": "situated_in",
                                                 "grows_on": "grows_on"}, path
        assert sorted(graph.implied_related("EV:4", "located_in")) == ["EV:2", "EV:3"], path     # equivalent, range
        assert sorted(graph.implied_related("EV:5", "situated_in")) == ["EV:2", "EV:4"], path   # equivalent, range
        assert list(graph.implied_related("EV:5", "located_in")) == ["EV:2"], path               # range
        assert list(graph.implied_hypernyms("EV:8")) == ["EV:6"], path                          # domain above


def test_a_synonym_typed_as_a_respelling_is_marked_in_obo_and_in_its_owl_rendering(tmp_path):
    """HPO types *Anaemia* as the ``uk_spelling`` ("UK spelling") of *Anemia* and *Ear anomalies* as a
    ``plural_form``: names of the concept, marked as respellings (the synonymy probe does not ask them),
    alike from the OBO file and from its OWL rendering; a synonym of another type is no respelling."""
    obo, ttl = tmp_path / "hp.obo", tmp_path / "hp.ttl"
    obo.write_text('format-version: 1.2\nsynonymtypedef: layperson "layperson term"\n'
                   'synonymtypedef: plural_form "plural form"\nsynonymtypedef: uk_spelling "UK spelling"\nontology: hp\n\n'
                   '[Term]\nid: HP:1\nname: Phenotypic abnormality\n\n'
                   '[Term]\nid: HP:2\nname: Anemia\nsynonym: "Anaemia" EXACT uk_spelling []\n'
                   'synonym: "Low number of red blood cells" EXACT layperson []\nis_a: HP:1\n\n'
                   '[Term]\nid: HP:3\nname: Ear malformation\nsynonym: "Ear anomalies" EXACT plural_form []\n'
                   'synonym: "Malformed ears" EXACT []\nis_a: HP:1\n')
    ttl.write_text(
        "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix oio: <http://www.geneontology.org/formats/oboInOwl#> .\n"
        "<http://purl.obolibrary.org/obo/hp.owl> a owl:Ontology .\n"
        '<http://purl.obolibrary.org/obo/hp#uk_spelling> a owl:AnnotationProperty ; rdfs:label "UK spelling" ;'
        " rdfs:subPropertyOf oio:SynonymTypeProperty .\n"
        '<http://purl.obolibrary.org/obo/hp#plural_form> a owl:AnnotationProperty ; rdfs:label "plural form" ;'
        " rdfs:subPropertyOf oio:SynonymTypeProperty .\n"
        '<http://purl.obolibrary.org/obo/hp#layperson> a owl:AnnotationProperty ; rdfs:label "layperson term" ;'
        " rdfs:subPropertyOf oio:SynonymTypeProperty .\n"
        'obo:HP_1 a owl:Class ; rdfs:label "Phenotypic abnormality" .\n'
        'obo:HP_2 a owl:Class ; rdfs:label "Anemia" ; rdfs:subClassOf obo:HP_1 ; oio:hasExactSynonym "Anaemia", '
        '"Low number of red blood cells" .\n'
        'obo:HP_3 a owl:Class ; rdfs:label "Ear malformation" ; rdfs:subClassOf obo:HP_1 ; oio:hasExactSynonym '
        '"Ear anomalies", "Malformed ears" .\n'
        '[ a owl:Axiom ; owl:annotatedSource obo:HP_2 ; owl:annotatedProperty oio:hasExactSynonym ; owl:annotatedTarget "Anaemia" ;'
        " oio:hasSynonymType <http://purl.obolibrary.org/obo/hp#uk_spelling> ] .\n"
        '[ a owl:Axiom ; owl:annotatedSource obo:HP_2 ; owl:annotatedProperty oio:hasExactSynonym ;'
        ' owl:annotatedTarget "Low number of red blood cells" ; oio:hasSynonymType <http://purl.obolibrary.org/obo/hp#layperson> ] .\n'
        '[ a owl:Axiom ; owl:annotatedSource obo:HP_3 ; owl:annotatedProperty oio:hasExactSynonym ; owl:annotatedTarget "Ear anomalies" ;'
        " oio:hasSynonymType <http://purl.obolibrary.org/obo/hp#plural_form> ] .\n")
    concepts = []
    for path in (obo, ttl):
        graph = load_source(path)
        assert graph["HP:2"].respellings == ("Anaemia",) and "Anaemia" in graph["HP:2"].lemmas, path
        assert graph["HP:3"].respellings == ("Ear anomalies",) and "Malformed ears" in graph["HP:3"].lemmas, path
        assert graph["HP:1"].respellings == (), path
        concepts.append([graph[c] for c in ("HP:1", "HP:2", "HP:3")])
    assert concepts[0] == concepts[1]


def test_a_synonym_written_as_another_vocabularys_code_is_marked(tmp_path):
    """The Sequence Ontology lists other tools' terms as EXACT synonyms (``VEP:missense_variant``,
    ``INSDC_feature:ncRNA``): codes, not names in words. A prefix that starts synonyms of three concepts
    or more and is no word of a label marks them (counted); ``ATP:ADP antiporter`` keeps its name
    (*ATP* is a word of a label), and so does a prefix that two concepts use."""
    terms = [("SO:1", "sequence variant", []), ("SO:2", "missense variant", ["VEP:missense_variant", "missense"]),
             ("SO:3", "stop gained", ["VEP:stop_gained", "nonsense"]), ("SO:4", "frameshift variant", ["VEP:frameshift_variant"]),
             ("SO:5", "ATP binding", ["Lab:atp", "ATP:ADP exchange"]), ("SO:6", "ATP:ADP antiporter", ["ATP:ADP exchanger"]),
             ("SO:7", "ADP transporter", ["ATP:ADP carrier", "Lab:adp"])]
    frames = []
    for concept_id, label, synonyms in terms:
        lines = [f"[Term]\nid: {concept_id}\nname: {label}"] + [f'synonym: "{s}" EXACT []' for s in synonyms]
        frames.append("\n".join(lines + ([] if concept_id == "SO:1" else ["is_a: SO:1"])))
    obo = tmp_path / "so.obo"
    obo.write_text("format-version: 1.2\nontology: so\n\n" + "\n\n".join(frames) + "\n")
    graph = load_source(obo)
    assert graph["SO:2"].codes == ("VEP:missense_variant",) and "VEP:missense_variant" in graph["SO:2"].lemmas
    assert graph["SO:4"].codes == ("VEP:frameshift_variant",)
    for concept_id in ("SO:5", "SO:6", "SO:7"):          # ATP is a label's word; Lab: two concepts only
        assert graph[concept_id].codes == (), concept_id
    report = graph.provenance["report"]
    assert report.counts["code_synonym"] == 3 and "SO:2 'VEP:missense_variant'" in report.examples["code_synonym"][0]


SKOS_HEAD = "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix t: <http://example.org/t/> .\n"
SKOS_TOOLS = (SKOS_HEAD
              + 't:thing a skos:Concept ; skos:prefLabel "thing"@en .\n'
              't:machine a skos:Concept ; skos:prefLabel "machine"@en ; skos:broader t:thing .\n'
              't:tool a skos:Concept ; skos:prefLabel "tool"@en ; skos:broader t:thing .\n'
              't:hammer a skos:Concept ; skos:prefLabel "hammer"@en ; skos:broader t:tool ; '
              'skos:broaderTransitive t:machine .\n'
              't:motor a skos:Concept ; skos:prefLabel "motor"@en ; skos:broader t:thing ; '
              'skos:narrowerTransitive t:drill .\n'
              't:drill a skos:Concept ; skos:prefLabel "drill"@en ; skos:broader t:machine ; skos:related t:hammer .\n'
              't:saw a skos:Concept ; skos:prefLabel "saw"@en ; skos:broader t:tool ; skos:broadMatch t:machine, '
              '<http://example.org/other/cutter> .\n'
              't:engine a skos:Concept ; skos:prefLabel "engine"@en ; skos:broader t:machine ; skos:narrowMatch t:saw .\n')


def test_skos_transitive_broader_and_narrower_widen_the_validity_closure_not_the_hierarchy(tmp_path):
    """``hammer skos:broader tool ; skos:broaderTransitive machine``: the hammer is a machine too, so
    "machine" is no wrong answer for it (was: read as a relation link only, and offered as one), but
    its hierarchy, answers and hops stay skos:broader's; ``motor skos:narrowerTransitive drill`` alike."""
    path = tmp_path / "tools.ttl"
    path.write_text(SKOS_TOOLS)
    graph = load_source(path)
    assert list(graph.hypernyms("t:hammer")) == ["t:tool"] and list(graph.implied_hypernyms("t:hammer")) == ["t:machine"]
    assert list(graph.hypernyms("t:drill")) == ["t:machine"] and list(graph.implied_hypernyms("t:drill")) == ["t:motor"]
    # skos:broadMatch / narrowMatch (sub-properties of broader / narrower) within the file alike (was:
    # relation links, and "machine" a wrong answer for the saw); to another scheme, nothing
    assert list(graph.hypernyms("t:saw")) == ["t:tool"]
    assert sorted(graph.implied_hypernyms("t:saw")) == ["t:engine", "t:machine"]
    assert graph.relations() == ["skos:related"] and "undefined_parent" not in graph.provenance["report"].counts


@pytest.mark.parametrize("name", ["skos:broaderTransitive", "skos:narrowerTransitive", "skos:broader", "is_a",
                                  "skos:broadMatch"])
def test_asking_the_hierarchy_as_a_relation_is_an_error_pointing_to_hypernymy(tmp_path, name):
    """(was, for skos:broaderTransitive: a relation probe worded "hammer is broader ..." over its own
    links only, without the skos:broader links it entails)"""
    path = tmp_path / "tools.ttl"
    path.write_text(SKOS_TOOLS)
    with pytest.raises(SourceError, match=rf"--relations {name}: the source's hierarchy, which the hypernymy and "
                                          r"hyponymy probes ask .* \(found: skos:related\)"):
        load_source(path, relations=[name])


def test_a_tables_relation_spelled_several_ways_is_one_relation_asked_by_any_spelling(tmp_path):
    """``part_of``, ``Part of`` and ``part-of`` rows are one relation (``part_of``), as is_a's
    spellings are one hierarchy; ``--relations part_of`` takes them all (was: ``Part of``, which sorts
    first, alone, and part_of's own rows were left out of the probe and of its closure)."""
    folder = tmp_path / "parts"
    folder.mkdir()
    (folder / "concepts.tsv").write_text("id\tlabel\tsynonyms\tdefinition\n" + "".join(
        f"P:{i}\t{name}\t\t\n" for i, name in enumerate(["car", "wheel", "tire", "engine", "piston"])))
    (folder / "edges.tsv").write_text("child\trelation\tparent\nP:1\tpart_of\tP:0\nP:2\tPart of\tP:1\n"
                                      "P:3\tpart-of\tP:0\nP:4\tpart_of\tP:3\n")
    for name in ("part_of", "Part of", "part-of"):
        graph = load_source(folder, relations=[name])
        # the probe is named after the source's spelling, whichever one --relations gave
        assert graph.provenance["relations"] == {"part_of": "part_of"} and graph.relations() == ["part_of"]
        assert graph.provenance["relation_spellings"] == {name: "part_of"}
        assert [list(graph.related(f"P:{i}", "part_of")) for i in range(1, 5)] == [["P:0"], ["P:1"], ["P:0"], ["P:3"]]
        report = graph.provenance["report"]
        assert report.counts["relation_spelling"] == 2
        assert report.examples["relation_spelling"][0].endswith("edges.tsv:3 Part of read as part_of")


@pytest.mark.parametrize("first", ["part_of", "Part of", "partOf", "PART-OF"])
def test_a_tables_part_of_chains_however_its_first_row_spells_it(tmp_path, first):
    """``part_of`` chains when the source does not say (the Relation Ontology's); so does a table's
    ``Part of`` or ``partOf`` (was: only the spelling ``part_of``, so a table whose first row wrote
    ``Part of`` asked one hop, and a cycle in it was read without a word)."""
    folder = tmp_path / "parts"
    folder.mkdir()
    (folder / "concepts.tsv").write_text("id\tlabel\tsynonyms\tdefinition\n" + "".join(
        f"P:{i}\t{name}\t\t\n" for i, name in enumerate(["car", "engine", "piston", "ring"])))
    (folder / "edges.tsv").write_text(f"child\trelation\tparent\nP:1\t{first}\tP:0\nP:2\tpart_of\tP:1\n")
    graph = load_source(folder, relations=["part of"])
    # one id however the first row writes it (its probe folder and question ids: part_of)
    assert graph.relations() == ["part_of"] and graph.relation_info["part_of"]["transitive"]
    with (folder / "edges.tsv").open("a") as edges:
        edges.write("P:0\tpart_of\tP:2\n")
    with pytest.raises(SourceError, match=r"edges.tsv:4: cycle in the"):
        load_source(folder, relations=["part of"])


def test_a_link_to_or_from_a_concept_dropped_for_want_of_a_label_still_keeps_distractors_out(tmp_path):
    """battery part_of (an unnamed, so dropped) laptop, laptop is_a computer: the battery is part of a
    computer, so "computer" is no wrong answer for it; the dropped laptop part_of a desk set, and a
    netbook is_a laptop: the netbook is part of a desk set. What the dropped concept carried stays in
    the validity closures (implied links), never answers (was: lost, and "computer" offered as a wrong
    answer for the battery); the link itself is still counted as dropped."""
    folder = tmp_path / "parts"
    folder.mkdir()
    names = {"P:1": "device", "P:2": "computer", "P:3": "", "P:4": "battery", "P:5": "desk set", "P:6": "netbook",
             "P:7": "phone"}
    (folder / "concepts.tsv").write_text("id\tlabel\tsynonyms\tdefinition\n" + "".join(
        f"{i}\t{name}\t\t\n" for i, name in names.items()))
    (folder / "edges.tsv").write_text("child\trelation\tparent\nP:2\tis_a\tP:1\nP:3\tis_a\tP:2\nP:6\tis_a\tP:3\n"
                                      "P:7\tis_a\tP:1\nP:4\tpart_of\tP:3\nP:4\tpart_of\tP:7\nP:3\tpart_of\tP:5\n")
    graph = load_source(folder, relations=["part_of"])
    assert "P:3" not in graph and list(graph.hypernyms("P:6")) == ["P:2"]
    # and, part_of being transitive, the battery is part of the desk set the laptop is part of
    assert list(graph.related("P:4", "part_of")) == ["P:7"]
    assert list(graph.implied_related("P:4", "part_of")) == ["P:2", "P:5"]
    assert list(graph.related("P:6", "part_of")) == [] and list(graph.implied_related("P:6", "part_of")) == ["P:5"]
    # the link to the laptop and the laptop's own link, each counted
    assert graph.provenance["report"].counts["link_to_dropped"] == 2


@pytest.mark.parametrize("written", ["k:board skos:related k:cutter .", "k:cutter skos:related k:board ."])
def test_a_related_link_to_a_dropped_concept_is_counted_from_either_side(tmp_path, written):
    """skos:related is written from either concept's side: a link between a kept concept and one
    dropped for want of an English label is counted (at the line that first names the subject) whichever
    side states it (was: only when the dropped concept was the object)."""
    path = tmp_path / "side.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix k: <http://example.org/k/> .\n"
                    'k:tool a skos:Concept ; skos:prefLabel "tool"@en .\n'
                    'k:cutter a skos:Concept ; skos:broader k:tool ; skos:prefLabel "outil de coupe"@fr .\n'
                    'k:board a skos:Concept ; skos:broader k:tool ; skos:prefLabel "board"@en .\n'
                    'k:saw a skos:Concept ; skos:broader k:tool ; skos:prefLabel "saw"@en ; skos:related k:board .\n'
                    f"{written}\n")
    graph = load_source(path, relations=["skos:related"])
    report = graph.provenance["report"]
    assert "k:cutter" not in graph and report.counts["link_to_dropped"] == 1
    # the concept dropped for want of a label is shown at the line that names it (rdflib gives none)
    assert report.examples["no_label"] == [f"{path}:4 k:cutter"]
    assert list(graph.related("k:saw", "skos:related")) == ["k:board"]


@pytest.mark.parametrize("from_deprecated", [True, False])
def test_a_related_link_of_a_deprecated_concept_is_counted_from_either_side_at_its_statement(tmp_path, from_deprecated):
    """owl:deprecated: the concept is skipped, and a skos:related link between it and a kept concept is
    counted whichever side states it (was: not from the deprecated side, its links never read), shown
    at the line of the N-Triples file that states it (was: the first line naming the subject)."""
    k, skos = "<http://example.org/k/", "<http://www.w3.org/2004/02/skos/core#"
    triples = [f"{k}{name}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> {skos}Concept> ." for name in
               ("tool", "saw", "board", "jigsaw")]
    triples += [f'{k}{name}> {skos}prefLabel> "{name}"@en .' for name in ("tool", "saw", "board", "jigsaw")]
    triples += [f"{k}{name}> {skos}broader> {k}tool> ." for name in ("saw", "board", "jigsaw")]
    triples.append(f'{k}jigsaw> <http://www.w3.org/2002/07/owl#deprecated> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .')
    triples.append(f"{k}saw> {skos}related> {k}board> .")
    triples.append(f"{k}jigsaw> {skos}related> {k}board> ." if from_deprecated else f"{k}board> {skos}related> {k}jigsaw> .")
    path = tmp_path / "deprecated.nt"
    path.write_text("\n".join(triples) + "\n")
    graph = load_source(path, relations=["skos:related"])
    report = graph.provenance["report"]
    assert "http://example.org/k/jigsaw" not in graph and report.counts["obsolete"] == 1
    assert report.counts["link_to_dropped"] == 1
    subject, obj = ("jigsaw", "board") if from_deprecated else ("board", "jigsaw")
    assert report.examples["link_to_dropped"] == [
        f"{path}:{len(triples)} http://example.org/k/{subject} skos:related http://example.org/k/{obj}"]
    assert list(graph.related("http://example.org/k/saw", "skos:related")) == ["http://example.org/k/board"]


def _split_thesaurus(tmp_path):
    """A small thesaurus written four ways: whole (English labels and skos:broader), its labels alone,
    its skos:narrower backbone alone (no type, no label), its French labels alone (no type)."""
    head = SKOS_HEAD
    tree = {"thing": None, "tool": "thing", "machine": "thing", "hammer": "tool", "saw": "tool", "drill": "machine"}
    files = {"whole": [head], "labels": [head], "backbone": [head], "fr": [head]}
    for name, parent in tree.items():
        files["whole"].append(f't:{name} a skos:Concept ; skos:prefLabel "{name}"@en'
                              + (f" ; skos:broader t:{parent}" if parent else "") + " .\n")
        files["labels"].append(f't:{name} a skos:Concept ; skos:prefLabel "{name}"@en .\n')
        files["fr"].append(f't:{name} skos:prefLabel "{name} (fr)"@fr .\n')
        if parent:
            files["backbone"].append(f"t:{parent} skos:narrower t:{name} .\n")
    for name, lines in files.items():
        (tmp_path / f"{name}.ttl").write_text("".join(lines))
    return tree


def test_a_thesaurus_split_into_labels_and_a_backbone_or_into_languages_merges_into_one_hierarchy(tmp_path):
    """The labels in one file and the skos:narrower triples in another (no type, no label there) give
    the hierarchy of the whole file; French labels in a file of their own name the concepts in --lang
    fr (was: the backbone's links lost without a word, and --lang fr an error: no concept in French)."""
    tree = _split_thesaurus(tmp_path)
    whole = load_source(tmp_path / "whole.ttl")
    split = load_source([tmp_path / "labels.ttl", tmp_path / "backbone.ttl"])
    for graph in (whole, split):
        assert {c: list(graph.hypernyms(f"t:{c}")) for c in tree} == {
            c: ([f"t:{p}"] if p else []) for c, p in tree.items()}
    french = load_source([tmp_path / "whole.ttl", tmp_path / "fr.ttl"], vocabulary=Vocabulary(lang="fr"))
    assert {c: french[f"t:{c}"].lemmas[0] for c in tree} == {c: f"{c} (fr)" for c in tree}
    assert list(french.hypernyms("t:hammer")) == ["t:tool"]
    assert french.provenance["report"].counts["merged"] == len(tree)
    # one file alone says nothing of resources it does not make concepts
    assert len(load_source(tmp_path / "labels.ttl").concepts) == len(tree)
    with pytest.raises(SourceError, match="no concepts left"):
        load_source(tmp_path / "backbone.ttl")


def test_two_concepts_of_one_thesaurus_linked_by_exact_match_are_kinds_of_each_other_for_validity(tmp_path):
    """``t:auto skos:exactMatch t:car``: what is a kind of one is a kind of the other, so neither is a
    wrong answer where the other is right (implied parents both ways, never answers); a match to a
    resource the file does not define changes nothing."""
    path = tmp_path / "cars.ttl"
    path.write_text(SKOS_HEAD
                    + 't:vehicle a skos:Concept ; skos:prefLabel "vehicle"@en .\n'
                    't:car a skos:Concept ; skos:prefLabel "car"@en ; skos:broader t:vehicle .\n'
                    't:auto a skos:Concept ; skos:prefLabel "automobile"@en ; skos:broader t:vehicle ; '
                    "skos:exactMatch t:car, <http://example.org/other/car> .\n"
                    't:sedan a skos:Concept ; skos:prefLabel "sedan"@en ; skos:broader t:car .\n')
    graph = load_source(path)
    assert list(graph.implied_hypernyms("t:auto")) == ["t:car"] and list(graph.implied_hypernyms("t:car")) == ["t:auto"]
    assert list(graph.hypernyms("t:auto")) == ["t:vehicle"] and list(graph.hypernyms("t:sedan")) == ["t:car"]


def test_a_relation_is_found_by_the_files_own_prefix_or_its_full_iri(tmp_path):
    """A thesaurus that writes ``@prefix dct:`` links concepts by ``dct:requires``, whose id is
    ``dcterms:requires`` (the usual prefix of the namespace): ``--relations dct:requires``, the id and
    the full IRI all name it (was: "no such relation" for the file's own spelling). A concept with a
    ``dct:isReplacedBy`` is deprecated (skipped, as with ``owl:deprecated``)."""
    path = tmp_path / "jobs.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix dct: <http://purl.org/dc/terms/> .\n"
                    "@prefix j: <http://example.org/j/> .\n"
                    + "".join(f'j:{n} a skos:Concept ; skos:prefLabel "{n}"@en .\n' for n in ("typist", "clerk", "worker"))
                    + "j:typist dct:requires j:clerk .\nj:clerk skos:broader j:worker .\nj:scribe a skos:Concept ; "
                    'skos:prefLabel "scribe"@en ; dct:isReplacedBy j:clerk .\n')
    for name in ("dct:requires", "dcterms:requires", "http://purl.org/dc/terms/requires"):
        graph = load_source(path, relations=[name])
        assert graph.provenance["relations"] == {"dcterms:requires": "dcterms:requires"}, name   # one probe name
        assert list(graph.related("j:typist", "dcterms:requires")) == ["j:clerk"]
        assert "j:scribe" not in graph and graph.provenance["report"].counts["obsolete"] == 1


@pytest.mark.parametrize("lang, label, respelled", [("en", "paediatrician", "pediatrician"),
                                                    ("en-US", "pediatrician", "paediatrician"),
                                                    ("en-GB", "paediatrician", "pediatrician")])
def test_a_preferred_label_of_another_region_is_a_respelling_not_another_name(tmp_path, lang, label, respelled):
    """``skos:prefLabel "paediatrician"@en-GB, "pediatrician"@en-US``: one is the label, the other a
    name of the concept that the synonymy probe never asks for (a regional spelling, as HPO's
    ``uk_spelling``); an ``altLabel`` stays another name (was: *pediatrician* asked as another name
    of *paediatrician*)."""
    path = tmp_path / "jobs.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix j: <http://example.org/j/> .\n"
                    'j:ped a skos:Concept ; skos:prefLabel "paediatrician"@en-GB, "pediatrician"@en-US ; '
                    'skos:altLabel "child doctor"@en .\n')
    concept = load_source(path, vocabulary=Vocabulary(lang=lang))["j:ped"]
    assert concept.lemmas[0] == label and respelled in concept.lemmas and "child doctor" in concept.lemmas
    assert concept.respellings == (respelled,)


def test_two_preferred_labels_in_one_language_are_counted(tmp_path):
    """SKOS allows one ``skos:prefLabel`` per language: a concept with two (*lawyer*, *attorney*) is
    counted with both names (the first in sorted order is the label, the other a name), not read
    without a word; one label per language is not counted."""
    path = tmp_path / "jobs.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix j: <http://example.org/j/> .\n"
                    'j:law a skos:Concept ; skos:prefLabel "lawyer"@en, "attorney"@en, "Anwalt"@de .\n'
                    'j:ped a skos:Concept ; skos:prefLabel "paediatrician"@en-GB, "pediatrician"@en-US .\n')
    graph = load_source(path)
    report = graph.provenance["report"]
    assert list(graph["j:law"].lemmas[:2]) == ["attorney", "lawyer"]
    assert report.counts["several_labels"] == 1
    assert report.examples["several_labels"][0].endswith("j:law (2: attorney, lawyer)")


def test_an_identifier_holding_a_control_character_is_an_error_at_its_line(tmp_path):
    """A NUL inside an id (``id: VO:00<NUL>0006``) was read as another concept, every edge to the
    real one dropped as undefined; now an error naming the id's line, in OBO and in a TSV pair."""
    lines = VEHICLES.read_text(encoding="utf-8").split("\n")
    number = next(i for i, line in enumerate(lines) if line == "id: VO:0000006")
    lines[number] = "id: VO:00\x000006"
    path = tmp_path / "nul.obo"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(SourceError, match=rf"nul.obo:{number + 1}: identifier 'VO:00\\x000006' holds a control "
                                          r"character \(expected printable characters only"):
        load_source(path)
    table = tmp_path / "table"
    shutil.copytree(ONTOLOGIES / "products_tsv", table)
    rows = (table / "edges.tsv").read_text(encoding="utf-8").split("\n")
    rows[2] = rows[2].replace("P:", "P:\x00", 1)
    (table / "edges.tsv").write_text("\n".join(rows), encoding="utf-8")
    with pytest.raises(SourceError, match=r"edges.tsv:3: identifier 'P:\\x00"):
        load_source(table, format="tsv")
    # in a clause other than the id: the clause's own line (an intersection_of genus, a relation's id)
    for old, new in [("is_a: VO:0000005 ! car\n", "intersection_of: VO:00\x000005\nintersection_of: part_of VO:0000001\n"),
                     ("relationship: part_of", "relationship: part\x00_of")]:
        text = VEHICLES.read_text(encoding="utf-8")
        assert old in text
        (tmp_path / "clause.obo").write_text(text.replace(old, new, 1), encoding="utf-8")
        number = text[:text.index(old)].count("\n") + 1
        with pytest.raises(SourceError, match=rf"clause.obo:{number}: identifier '.*\\x00.*' holds a control character"):
            load_source(tmp_path / "clause.obo")


def test_a_file_whose_suffix_says_nothing_is_read_by_how_its_text_starts(tmp_path):
    """``vehicles.txt`` holding OBO, ``vehicles.data`` holding RDF/XML, ``kitchen.txt`` holding
    Turtle: read as their text says (the formats table: "another suffix: by its text")."""
    for fixture, name, expected in [("vehicles.obo", "vehicles.txt", "obo"), ("vehicles.owl", "vehicles.data", "owl"),
                                    ("kitchen_skos.ttl", "kitchen.txt", "skos")]:
        shutil.copy(ONTOLOGIES / fixture, tmp_path / name)
        assert guess_format(tmp_path / name) == expected
        assert load_source(tmp_path / name).concepts.keys() == load_source(ONTOLOGIES / fixture).concepts.keys()
    # an OBO file opening with comments and without format-version; RDF/XML opening with a comment
    obo = VEHICLES.read_text(encoding="utf-8").replace("format-version: 1.2\n", "! exported 2026-11-01\n! by hand\n")
    (tmp_path / "commented.txt").write_text(obo, encoding="utf-8")
    owl = (ONTOLOGIES / "vehicles.owl").read_text(encoding="utf-8")
    (tmp_path / "commented.data").write_text("<!-- exported -->\n" + owl[owl.index("<rdf:RDF"):], encoding="utf-8")
    assert guess_format(tmp_path / "commented.txt") == "obo" and guess_format(tmp_path / "commented.data") == "owl"
    (tmp_path / "notes.txt").write_text("Vehicles: cars, bicycles and boats.\n")
    with pytest.raises(SourceError, match=r"notes.txt: cannot tell the format from the suffix .txt; give --format"):
        guess_format(tmp_path / "notes.txt")


def test_an_obo_file_with_old_mac_line_ends_is_read_and_one_without_frames_is_an_error(tmp_path):
    text = VEHICLES.read_text(encoding="utf-8")
    (tmp_path / "cr.obo").write_bytes(text.replace("\n", "\r").encode("utf-8"))
    assert load_source(tmp_path / "cr.obo").concepts.keys() == load_source(VEHICLES).concepts.keys()
    # a stray CR inside a name of a file with LF line ends is no line end (read as before)
    (tmp_path / "stray.obo").write_text(text.replace("name: car\n", "name: motor\rcar\n", 1), encoding="utf-8")
    assert load_source(tmp_path / "stray.obo").concepts.keys() == load_source(VEHICLES).concepts.keys()
    # Turtle read with --format obo, and an empty file: said so, not "no concepts left"
    with pytest.raises(SourceError, match=r"kitchen_skos.ttl:1: no \[Term\] or \[Typedef\] frame \(expected an OBO file"):
        load_source(ONTOLOGIES / "kitchen_skos.ttl", format="obo")
    (tmp_path / "empty.obo").write_text("")
    with pytest.raises(SourceError, match=r"empty.obo: an empty file \(expected an OBO file"):
        load_source(tmp_path / "empty.obo")


def test_a_json_ld_context_that_cannot_be_fetched_is_said_so(tmp_path, monkeypatch):
    import urllib.error

    import rdflib.parser

    def offline(*args, **kwargs):
        raise urllib.error.URLError("no network here")

    monkeypatch.setattr(rdflib.parser, "_urlopen", offline)
    path = tmp_path / "remote.jsonld"
    path.write_text('{"@context": "http://example.org/context.jsonld", "@id": "x", "label": "a thing"}')
    with pytest.raises(SourceError, match=r"remote.jsonld:1: not valid JSON-LD: its @context "
                                          r"http://example.org/context.jsonld could not be fetched \(.*no network here"):
        load_source(path)
    path.write_text('{"@context": ["https://w3id.org/x/ctx.jsonld", {"ex": "http://example.org/"}], "@id": "ex:x"}')
    with pytest.raises(SourceError, match=r"its @context https://w3id.org/x/ctx.jsonld could not be fetched"):
        load_source(path)


def test_a_logical_axiom_naming_a_concept_never_defined_is_counted_and_an_error_with_strict(tmp_path):
    text = VEHICLES.read_text(encoding="utf-8")
    stanza = "[Term]\nid: VO:0000040\nname: amphibious car\n"
    defined = tmp_path / "genus.obo"
    defined.write_text(text + "\n" + stanza + "intersection_of: VO:0000999\nintersection_of: part_of VO:0000006\n")
    graph = load_source(defined)
    report = graph.provenance["report"].to_json()
    assert report["undefined_in_axiom"]["count"] == 1
    # the intersection_of line that names it (was: the term's id line)
    line = (text + "\n" + stanza).count("\n") + 1
    with pytest.raises(SourceError, match=rf"genus.obo:{line}: a logical axiom of VO:0000040 and VO:0000999: "
                                          r"VO:0000999 is never defined"):
        load_source(defined, strict=True)
    # an equivalence to another vocabulary's class: counted once (its two edges are one axiom), no error
    equivalent = tmp_path / "equivalent.obo"
    equivalent.write_text(text + "\n" + stanza + "is_a: VO:0000005\nequivalent_to: EXT:0000001\n")
    assert load_source(equivalent, strict=True).provenance["report"].to_json()["undefined_in_axiom"]["count"] == 1


def test_a_transitive_link_through_an_obsolete_term_keeps_what_it_reaches_out_of_the_distractors(tmp_path):
    """piston part_of engine assembly (obsolete) part_of car: the piston is part of a car, so *car*
    is no wrong answer for what it is part of; alike from OBO, its OWL rendering and a table (was: the
    obsolete term's own links were not read, and *car* was offered as a distractor)."""
    obo = tmp_path / "v.obo"
    obo.write_text("format-version: 1.2\nontology: v\n\n[Term]\nid: V:1\nname: car\n\n[Term]\nid: V:2\n"
                   "name: engine assembly\nrelationship: part_of V:1\nis_obsolete: true\n\n[Term]\nid: V:3\n"
                   "name: piston\nrelationship: part_of V:2\nrelationship: part_of V:4\n\n[Term]\nid: V:4\n"
                   "name: cylinder\n\n[Typedef]\nid: part_of\nname: part of\nis_transitive: true\n")
    restriction = ("rdfs:subClassOf [ a owl:Restriction ; owl:onProperty <http://purl.obolibrary.org/obo/v#part_of> ; "
                   "owl:someValuesFrom obo:V_{} ]")
    ttl = tmp_path / "v.ttl"
    ttl.write_text(
        "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix obo: <http://purl.obolibrary.org/obo/> .\n"
        "@prefix oio: <http://www.geneontology.org/formats/oboInOwl#> .\n"
        "<http://purl.obolibrary.org/obo/v.owl> a owl:Ontology .\n"
        '<http://purl.obolibrary.org/obo/v#part_of> a owl:ObjectProperty, owl:TransitiveProperty ; rdfs:label "part of" ;'
        ' oio:shorthand "part_of" .\n'
        'obo:V_1 a owl:Class ; rdfs:label "car" .\n'
        f'obo:V_2 a owl:Class ; rdfs:label "engine assembly" ; owl:deprecated true ; {restriction.format(1)} .\n'
        f'obo:V_3 a owl:Class ; rdfs:label "piston" ; {restriction.format(2)} ; {restriction.format(4)} .\n'
        'obo:V_4 a owl:Class ; rdfs:label "cylinder" .\n')
    table = tmp_path / "v_tsv"
    table.mkdir()
    (table / "concepts.tsv").write_text("id\tlabel\tsynonyms\tdefinition\tdeprecated\nV:1\tcar\t\t\t\n"
                                        "V:2\tengine assembly\t\t\ttrue\nV:3\tpiston\t\t\t\nV:4\tcylinder\t\t\t\n")
    (table / "edges.tsv").write_text("child\trelation\tparent\nV:2\tpart_of\tV:1\nV:3\tpart_of\tV:2\n"
                                     "V:3\tpart_of\tV:4\n")
    for path in (obo, ttl, table):
        graph = load_source(path, relations=["part_of"])
        assert sorted(graph.concepts) == ["V:1", "V:3", "V:4"], path
        assert list(graph.related("V:3", "part_of")) == ["V:4"], path          # the answer: what is stated
        assert "V:1" in graph.implied_related("V:3", "part_of"), path           # kept out of the distractors


def test_relations_by_a_prefixed_names_local_part_and_by_an_obo_purls_local_name():
    """``--relations related`` for skos:related (where no other relation has that local part) and
    ``BFO_0000050`` (an OBO PURL's end) for the part_of that BFO:0000050 aliases (were: no such relation)."""
    kitchen = load_source(ONTOLOGIES / "kitchen_skos.ttl", relations=["related"])
    assert kitchen.provenance["relations"] == {"skos:related": "skos:related"}
    for path in (VEHICLES, ONTOLOGIES / "vehicles.owl"):
        graph = load_source(path, relations=["BFO_0000050"])
        assert graph.provenance["relations"] == {"part_of": "part_of"}, path
    with pytest.raises(SourceError, match=r"--relations XYZ_0000050: no such relation between concepts"):
        load_source(VEHICLES, relations=["XYZ_0000050"])


def test_an_unknown_relation_lists_the_relations_found_with_their_names_where_their_ids_are_codes(tmp_path):
    """An OWL file's relations are often codes (BFO:0000050): the error says what each is called."""
    path = tmp_path / "parts.ttl"
    path.write_text(
        "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix obo: <http://purl.obolibrary.org/obo/> .\n"
        'obo:BFO_0000050 a owl:ObjectProperty ; rdfs:label "part of" .\n'
        'obo:X_1 a owl:Class ; rdfs:label "car" .\n'
        'obo:X_2 a owl:Class ; rdfs:label "wheel" ; rdfs:subClassOf [ a owl:Restriction ; '
        "owl:onProperty obo:BFO_0000050 ; owl:someValuesFrom obo:X_1 ] .\n")
    with pytest.raises(SourceError, match=r"--relations located_in: no such relation between concepts \(found: "
                                          r"BFO:0000050 \(part of\)\)"):
        load_source(path, relations=["located_in"])
    # a relation whose id is its name is listed as it is
    with pytest.raises(SourceError, match=r"\(found: part_of\)$"):
        load_source(ONTOLOGIES / "vehicles.owl", relations=["located_in"])


def test_a_root_given_by_the_label_of_a_deprecated_concept_says_so_in_owl_and_a_table(tmp_path):
    with pytest.raises(SourceError, match=r"--root old vehicle: obsolete / deprecated"):
        load_source(ONTOLOGIES / "vehicles.owl", root="old vehicle")
    table = tmp_path / "t"
    table.mkdir()
    (table / "concepts.tsv").write_text("id\tlabel\tsynonyms\tdefinition\tdeprecated\nA:1\tthing\t\t\t\n"
                                        "A:2\told thing\t\t\ttrue\n")
    (table / "edges.tsv").write_text("child\trelation\tparent\n")
    with pytest.raises(SourceError, match=r"--root old thing: obsolete / deprecated"):
        load_source(table, root="old thing")
    with pytest.raises(SourceError, match=r"--root new thing: no such concept"):
        load_source(table, root="new thing")


def test_a_cycle_through_skos_broader_transitive_is_refused_as_one_through_broader(tmp_path):
    """Two concepts each ``skos:broaderTransitive`` of the other (or one broader, the other broader
    transitive) are a cycle of the hierarchy, as with ``skos:broader`` (was: read without a word, each
    an ancestor of the other's children); two concepts linked by ``skos:exactMatch`` are no cycle."""
    head = ("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix ex: <http://example.org/t/> .\n"
            'ex:s a skos:ConceptScheme ; skos:prefLabel "T"@en .\nex:a a skos:Concept ; skos:prefLabel "alpha"@en .\n'
            'ex:b a skos:Concept ; skos:prefLabel "beta"@en ; skos:broader ex:a .\n')
    for links in ("skos:broaderTransitive ex:d", "skos:narrowerTransitive ex:d"):
        path = tmp_path / "cycle.ttl"
        path.write_text(head + f'ex:c a skos:Concept ; skos:prefLabel "gamma"@en ; skos:broader ex:a ; {links} .\n'
                        'ex:d a skos:Concept ; skos:prefLabel "delta"@en ; skos:broader ex:a ; '
                        + ("skos:broaderTransitive ex:c" if "broader" in links else "skos:narrowerTransitive ex:c")
                        + " .\n")
        with pytest.raises(SourceError, match=r"cycle\.ttl:6: cycle in the is_a relation: ex:[cd] -> ex:[cd] -> ex:[cd]"):
            load_source(path)
    path.write_text(head + 'ex:c a skos:Concept ; skos:prefLabel "gamma"@en ; skos:broader ex:a ; skos:exactMatch ex:d .\n'
                    'ex:d a skos:Concept ; skos:prefLabel "delta"@en ; skos:broader ex:a ; skos:exactMatch ex:c .\n')
    assert sorted(load_source(path).concepts) == ["ex:a", "ex:b", "ex:c", "ex:d"]


def test_a_relation_whose_only_links_are_qualified_is_an_error_that_says_so(tmp_path):
    """GO writes ``relationship: part_of X {cardinality="1"}``: no 'some' link, never asked. Asking
    for that relation says why it has no question, at the link's line (was: "no such relation between
    concepts", as if the file had no part_of at all)."""
    path = tmp_path / "go.obo"
    path.write_text("format-version: 1.4\nontology: go\n\n[Term]\nid: G:1\nname: process\n\n[Term]\nid: G:2\n"
                    "name: catabolic process\nis_a: G:1\n"
                    'relationship: part_of G:1 {cardinality="1"} ! process\n\n'
                    "[Typedef]\nid: part_of\nname: part of\nis_transitive: true\n")
    with pytest.raises(SourceError) as caught:
        load_source(path, relations=["part_of"])
    message = str(caught.value)
    assert message.startswith(f"{path}:12: --relations part_of: part_of links no two concepts as a question asks it")
    assert "its 1 link(s) in the source are qualified (cardinality, all_only)" in message
    # by its name too; an unknown relation keeps the plain error
    with pytest.raises(SourceError, match=r"part_of links no two concepts"):
        load_source(path, relations=["part of"])
    with pytest.raises(SourceError, match=r"--relations has_part: no such relation between concepts"):
        load_source(path, relations=["has_part"])


def test_an_obsolete_terms_replacement_is_no_link_from_it_in_obo_nor_in_owl(tmp_path):
    """OBO ``replaced_by`` / ``consider`` and their OWL rendering (IAO:0100001 "term replaced by",
    oboInOwl:consider, IRIs between two classes): what replaces an obsolete term, not a relation
    link from it (was: counted in OWL as 2 links from a dropped concept, none in OBO)."""
    obo = tmp_path / "dis.obo"
    obo.write_text("format-version: 1.4\nontology: dis\n\n[Term]\nid: DS:1\nname: disease\n\n"
                   "[Term]\nid: DS:2\nname: infection\nis_a: DS:1\n\n"
                   "[Term]\nid: DS:3\nname: old infection\nis_obsolete: true\nreplaced_by: DS:2\nconsider: DS:1\n")
    owl = tmp_path / "dis.ttl"
    owl.write_text("@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                   "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                   "@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\n"
                   "<http://purl.obolibrary.org/obo/dis.owl> a owl:Ontology .\n"
                   "obo:IAO_0100001 a owl:AnnotationProperty ; rdfs:label \"term replaced by\" .\n"
                   "oboInOwl:consider a owl:AnnotationProperty .\n"
                   'obo:DS_1 a owl:Class ; rdfs:label "disease" .\n'
                   'obo:DS_2 a owl:Class ; rdfs:label "infection" ; rdfs:subClassOf obo:DS_1 .\n'
                   'obo:DS_3 a owl:Class ; rdfs:label "obsolete old infection" ; owl:deprecated true ;'
                   " obo:IAO_0100001 obo:DS_2 ; oboInOwl:consider obo:DS_1 .\n")
    counts = [dict(load_source(path).provenance["report"].counts) for path in (obo, owl)]
    assert counts[0] == counts[1] and counts[0]["obsolete"] == 1 and "link_to_dropped" not in counts[1]


def test_skos_mappings_to_another_scheme_are_counted_as_such_and_not_as_broken_axioms(tmp_path):
    """``skos:broadMatch isco:2212`` (a sub-property of broader, an implied parent), ``exactMatch`` and
    ``closeMatch`` to concepts of another scheme: counted as mappings not followed (was: the broadMatch
    as a "logical axiom naming a concept that is never defined", the others not at all); a mapping
    to a concept of another file of the build is no outside mapping, and with --strict none is an error."""
    head = ("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix o: <http://example.org/occ/> .\n"
            "@prefix isco: <http://example.net/isco/> .\n")
    first = tmp_path / "occupations.ttl"
    first.write_text(head + 'o:health a skos:Concept ; skos:prefLabel "health professional"@en .\n'
                     'o:surgeon a skos:Concept ; skos:prefLabel "surgeon"@en ; skos:broader o:health ;'
                     " skos:broadMatch isco:2212 ; skos:exactMatch isco:221 .\n"
                     'o:nurse a skos:Concept ; skos:prefLabel "nurse"@en ; skos:broader o:health ;'
                     " skos:closeMatch isco:222 ; skos:relatedMatch o:carer .\n")
    second = tmp_path / "care.ttl"
    second.write_text(head + 'o:carer a skos:Concept ; skos:prefLabel "carer"@en .\n')
    for strict in (False, True):
        report = load_source([first, second], strict=strict).provenance["report"]
        assert report.counts["outside_mapping"] == 3 and "undefined_in_axiom" not in report.counts
        assert any(f"{first}:5 o:surgeon skos:broadMatch isco:2212" in example
                   for example in report.to_json()["outside_mapping"]["examples"])


@pytest.mark.parametrize("syntax", ["obo", "ttl"])
def test_an_inverse_of_a_relation_nothing_declares_is_counted_and_with_strict_an_error(tmp_path, syntax):
    """``inverse_of: is_conj_base_of`` (misspelt: the Typedef is is_conjugate_base_of), and in OWL an
    ``owl:inverseOf`` to a property with no declaration: the inverse reading was lost without a word,
    even with --strict. Counted at its line as an undeclared relation; --strict: an error there."""
    if syntax == "obo":
        text = ("format-version: 1.4\nontology: ch\n\n[Term]\nid: CH:1\nname: acetic acid\n"
                "relationship: is_conjugate_acid_of CH:2\n\n[Term]\nid: CH:2\nname: acetate\n\n"
                "[Typedef]\nid: is_conjugate_acid_of\nname: is conjugate acid of\ninverse_of: is_conj_base_of\n\n"
                "[Typedef]\nid: is_conjugate_base_of\nname: is conjugate base of\n")
        line, clause = 16, "inverse_of"
    else:
        text = ("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                "@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix ch: <http://purl.obolibrary.org/obo/ch#> .\n"
                'obo:CH_1 a owl:Class ; rdfs:label "acetic acid" ; rdfs:subClassOf [ a owl:Restriction ;\n'
                "    owl:onProperty ch:is_conjugate_acid_of ; owl:someValuesFrom obo:CH_2 ] .\n"
                'obo:CH_2 a owl:Class ; rdfs:label "acetate" .\n'
                'ch:is_conjugate_acid_of a owl:ObjectProperty ; rdfs:label "is conjugate acid of" ;\n'
                "    owl:inverseOf ch:is_conj_base_of .\n"
                'ch:is_conjugate_base_of a owl:ObjectProperty ; rdfs:label "is conjugate base of" .\n')
        line, clause = 9, "owl:inverseOf"
    path = tmp_path / f"ch.{syntax}"
    path.write_text(text)
    report = load_source(path, relations=["is_conjugate_acid_of"]).provenance["report"]
    assert report.examples["undeclared_relation"] == [f"{path}:{line} is_conj_base_of ({clause} of is_conjugate_acid_of)"]
    with pytest.raises(SourceError) as raised:
        load_source(path, relations=["is_conjugate_acid_of"], strict=True)
    assert str(raised.value).startswith(f"{path}:{line}: {clause} is_conj_base_of of the relation is_conjugate_acid_of: "
                                        "nothing declares the relation is_conj_base_of"), str(raised.value)
    path.write_text(text.replace("is_conj_base_of", "is_conjugate_base_of"))
    assert "undeclared_relation" not in load_source(path, relations=["is_conjugate_acid_of"],
                                                    strict=True).provenance["report"].counts


def test_a_synonym_type_no_synonymtypedef_declares_is_counted_and_with_strict_an_error(tmp_path):
    """``synonym: "ethyl alcohol" EXACT COMMON_NAME []`` with no ``synonymtypedef: COMMON_NAME``: a
    misspelt type (``uk_speling``) would have its respellings asked as other names, without a word.
    Counted once per type at its first clause; --strict: an error there."""
    path = tmp_path / "ch.obo"
    text = ('format-version: 1.4\nsynonymtypedef: IUPAC_NAME "IUPAC NAME" EXACT\nontology: ch\n\n'
            "[Term]\nid: CH:1\nname: alcohol\n\n[Term]\nid: CH:2\nname: ethanol\nis_a: CH:1\n"
            'synonym: "ethyl alcohol" EXACT COMMON_NAME []\nsynonym: "EtOH" EXACT COMMON_NAME []\n'
            'synonym: "ethanol" EXACT IUPAC_NAME []\n')
    path.write_text(text)
    graph = load_source(path)
    assert graph.provenance["report"].examples["undeclared_synonym_type"] == [f"{path}:13 COMMON_NAME"]
    assert graph.provenance["report"].counts["undeclared_synonym_type"] == 1
    assert "ethyl alcohol" in graph["CH:2"].lemmas
    with pytest.raises(SourceError) as raised:
        load_source(path, strict=True)
    assert str(raised.value).startswith(f"{path}:13: synonym of the type COMMON_NAME: no synonymtypedef declares it")
    path.write_text(text.replace("ontology: ch", 'synonymtypedef: COMMON_NAME "common name"\nontology: ch'))
    assert "undeclared_synonym_type" not in load_source(path, strict=True).provenance["report"].counts


def test_with_strict_an_edge_to_an_iri_with_a_space_says_so(tmp_path):
    path = tmp_path / "ch.owl"
    path.write_text('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"\n'
                    '    xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns:owl="http://www.w3.org/2002/07/owl#">\n'
                    '  <owl:Class rdf:about="http://purl.obolibrary.org/obo/CH_1"><rdfs:label>alcohol</rdfs:label></owl:Class>\n'
                    '  <owl:Class rdf:about="http://purl.obolibrary.org/obo/CH_2"><rdfs:label>ethanol</rdfs:label>\n'
                    '    <rdfs:subClassOf rdf:resource="http://purl.obolibrary.org/obo/CH 1"/>\n  </owl:Class>\n</rdf:RDF>\n')
    assert load_source(path).provenance["report"].counts["invalid_iri"] == 1
    with pytest.raises(SourceError) as raised:
        load_source(path, strict=True)
    assert str(raised.value).startswith(f"{path}:6: CH:2 is_a http://purl.obolibrary.org/obo/CH 1: "
                                        "http://purl.obolibrary.org/obo/CH 1 is never defined, and its IRI has a space "
                                        "in it, which an IRI writes as %20"), str(raised.value)


@pytest.mark.parametrize("syntax", ["obo", "ttl"])
def test_a_cycle_of_relations_under_relations_is_an_error_at_its_line(tmp_path, syntax):
    """``part_of is_a has_part`` and ``has_part is_a part_of`` (in OWL, rdfs:subPropertyOf both ways): the
    two relations were read as one without a word (no inverse distractors left). An error, as a cycle of
    concepts is; ``equivalent_to`` (each under the other, as it says) is none."""
    if syntax == "obo":
        text = ("format-version: 1.4\nontology: an\n\n[Term]\nid: AN:1\nname: heart\n\n[Term]\nid: AN:2\nname: atrium\n"
                "relationship: part_of AN:1\n\n[Typedef]\nid: part_of\nname: part of\nis_a: has_part\n\n"
                "[Typedef]\nid: has_part\nname: has part\nis_a: part_of\n")
        line = 16
    else:
        text = ("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                "@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix an: <http://purl.obolibrary.org/obo/an#> .\n"
                'obo:AN_1 a owl:Class ; rdfs:label "heart" .\n'
                'obo:AN_2 a owl:Class ; rdfs:label "atrium" ; rdfs:subClassOf [ a owl:Restriction ;\n'
                "    owl:onProperty an:part_of ; owl:someValuesFrom obo:AN_1 ] .\n"
                'an:part_of a owl:ObjectProperty ; rdfs:label "part of" ; rdfs:subPropertyOf an:has_part .\n'
                'an:has_part a owl:ObjectProperty ; rdfs:label "has part" ; rdfs:subPropertyOf an:part_of .\n')
        line = 8
    path = tmp_path / f"an.{syntax}"
    path.write_text(text)
    with pytest.raises(SourceError) as raised:
        load_source(path, relations=["part_of"])
    assert str(raised.value).startswith(f"{path}:{line}: cycle in the is_a relation of relations: "), str(raised.value)
    assert "part_of" in str(raised.value) and "has_part" in str(raised.value)
    if syntax == "obo":
        path.write_text(text.replace("is_a: has_part", "equivalent_to: has_part").replace("is_a: part_of\n", ""))
        load_source(path, relations=["part_of"])


def test_a_chained_relation_classifies_only_along_a_path_that_begins_with_it(tmp_path):
    """develops_from ``transitive_over: part_of``; *ectoderm derivative* = structure and develops_from
    some ectoderm. *neural plate* part_of ectoderm (no develops_from link) was classified under it (a
    part_of link taken for a develops_from one); *neural crest* develops_from the neural plate, part of
    the ectoderm, is, by the chain."""
    text = ("format-version: 1.4\nontology: tov\n\n[Term]\nid: T:1\nname: structure\n\n"
            "[Term]\nid: T:2\nname: ectoderm\nis_a: T:1\n\n"
            "[Term]\nid: T:3\nname: neural plate\nis_a: T:1\nrelationship: part_of T:2\n\n"
            "[Term]\nid: T:4\nname: ectoderm derivative\nintersection_of: T:1\nintersection_of: develops_from T:2\n\n"
            "[Term]\nid: T:5\nname: neural crest\nis_a: T:1\nrelationship: develops_from T:3\n\n"
            "[Typedef]\nid: part_of\nname: part of\nis_transitive: true\n\n"
            "[Typedef]\nid: develops_from\nname: develops from\ntransitive_over: part_of\n")
    path = tmp_path / "tov.obo"
    path.write_text(text)
    graph = load_source(path)
    assert "T:4" not in graph.implied_hypernyms("T:3")
    assert "T:4" in graph.implied_hypernyms("T:5")
    assert graph.provenance["report"].examples["classified"] == ["T:5 is_a T:4"]


def test_a_concept_labelled_otherwise_in_a_second_file_is_counted_and_keeps_that_name(tmp_path):
    """*heart* in one file, *cor cordis* in the other: merged with only "defined in more than one file", the
    second name dropped. Counted apart, and a name of the concept (no distractor named so), never asked."""
    first, second = tmp_path / "a.obo", tmp_path / "b.obo"
    first.write_text("format-version: 1.4\nontology: an\n\n[Term]\nid: AN:1\nname: organ\n\n"
                     "[Term]\nid: AN:2\nname: heart\nis_a: AN:1\n")
    second.write_text("format-version: 1.4\nontology: an\n\n[Term]\nid: AN:2\nname: cor cordis\n"
                      'def: "The organ that pumps blood." []\n')
    graph = load_source([first, second])
    report = graph.provenance["report"]
    assert report.counts["merged"] == 1
    assert report.examples["merged_label"] == [f"{second}:5 AN:2 'cor cordis' (kept: 'heart')"]
    assert graph["AN:2"].lemmas == ("heart",) and "cor cordis" in graph["AN:2"].other_names
    assert graph["AN:2"].definition == "The organ that pumps blood."


@pytest.mark.parametrize("root", ["part_of", "part of", "Part_Of"])
def test_a_root_naming_a_relation_says_it_is_one(root):
    """An OBO Typedef or a table's relation given as --root (was: "no such concept" only; a property of
    an RDF file already said so)."""
    for source, format, example in ((VEHICLES, None, "VO:0000001"), (FIXTURES / "ontologies" / "products_tsv", "tsv", None)):
        with pytest.raises(SourceError) as raised:
            load_source(source, format=format, root=root)
        message = str(raised.value)
        assert f"--root {root}: a relation of the source (part_of), not a concept" in message, message
        assert message.endswith("a relation is asked with --relations part_of)"), message


def test_a_concept_stated_its_own_parent_in_rdf_is_counted_at_the_line_that_states_it(tmp_path):
    path = tmp_path / "kitchen.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix k: <http://x.org/k#> .\n"
                    'k:tool a skos:Concept ; skos:prefLabel "tool"@en .\n'
                    'k:wok a skos:Concept ; skos:prefLabel "wok"@en ;\n'
                    "    skos:broader k:tool ;\n    skos:broader k:wok .\n")
    report = load_source(path).provenance["report"]
    assert report.counts["self_parent"] == 1
    assert report.examples["self_parent"] == [f"{path}:6 k:wok is_a k:wok"]


@pytest.mark.parametrize("written", ["NULL", "n/a", "N.A.", "TBD", "-", "none.", "See Fan_Coil_Unit",
                                     "See also: rail freight."])
def test_a_definition_that_stands_for_none_is_no_definition_and_counted(tmp_path, written):
    """NAICS's table writes "NULL" for 155 definitions: shown as a hypernymy question's context
    ("defined as 'NULL'") before 2026-12-07; Brick's "See Fan_Coil_Unit" points to another entry
    (was: a definition choice of its own)."""
    folder = tmp_path / "codes"
    folder.mkdir()
    (folder / "concepts.tsv").write_text("id\tlabel\tsynonyms\tdefinition\nA\trail transportation\t\t" + written +
                                         "\nB\ttransportation\t\tMoving people or goods from one place to another.\n")
    (folder / "edges.tsv").write_text("child\trelation\tparent\nA\tis_a\tB\n")
    graph = load_source(folder)
    assert graph["A"].definition == "" and graph["B"].definition.startswith("Moving people")
    report = graph.provenance["report"]
    assert report.counts["placeholder_definition"] == 1 and report.counts["no_definition"] == 1
    assert report.examples["placeholder_definition"] == [f"{folder / 'concepts.tsv'}:2 A {written!r}"]


def test_the_classification_under_defined_classes_follows_the_transitive_relations(tmp_path):
    """*hand* part_of *arm* part_of *body*, part_of transitive: the hand is a *body part* (= structure
    and part_of some body). Was: the read's last classification was given the hierarchy's transitive
    steps in place of the transitive relations (a variable of that name rebound), so only the arm was
    one, and the hand could be a wrong answer that a reasoner proves right."""
    path = tmp_path / "body.obo"
    path.write_text("format-version: 1.4\nontology: body\n\n"
                    "[Term]\nid: B:1\nname: structure\n\n[Term]\nid: B:2\nname: body\nis_a: B:1\n\n"
                    "[Term]\nid: B:3\nname: arm\nis_a: B:1\nrelationship: part_of B:2\n\n"
                    "[Term]\nid: B:4\nname: hand\nis_a: B:1\nrelationship: part_of B:3\n\n"
                    "[Term]\nid: B:5\nname: body part\nintersection_of: B:1\nintersection_of: part_of B:2\n\n"
                    "[Typedef]\nid: part_of\nname: part of\nis_transitive: true\n")
    for root in (None, "B:1"):
        graph = load_source(path, relations=["part_of"], root=root)
        assert sorted(graph.implied_hypernyms("B:4")) == ["B:5"], root
        assert sorted(graph.implied_hypernyms("B:3")) == ["B:5"], root


def test_a_definition_naming_a_class_the_source_never_defines_still_classifies(tmp_path):
    """GO defines *regulation of lysosomal membrane permeability* by a filler from OBA, which GO never
    defines: a term with a link to that filler is covered all the same (was: the definition left out,
    and an ancestor it entails offered as a wrong answer). The edges to the filler are still dropped
    and counted; the filler is no concept."""
    path = tmp_path / "go.obo"
    path.write_text("format-version: 1.4\nontology: go\n\n"
                    "[Term]\nid: GO:1\nname: biological regulation\n\n[Term]\nid: GO:2\nname: cellular process\n\n"
                    "[Term]\nid: GO:3\nname: regulation of membrane permeability\nis_a: GO:2\n"
                    "intersection_of: GO:1\nintersection_of: regulates OBA:92\n\n"
                    "[Term]\nid: GO:4\nname: negative regulation of membrane permeability\nis_a: GO:1\n"
                    "relationship: negatively_regulates OBA:92\n\n"
                    "[Term]\nid: GO:5\nname: assembly involved in conjugation\nintersection_of: CL:9\n"
                    "intersection_of: part_of GO:2\n\n"
                    "[Term]\nid: GO:6\nname: fusion focus assembly\nis_a: CL:9\nrelationship: part_of GO:3\n\n"
                    "[Typedef]\nid: regulates\nname: regulates\nis_transitive: true\n\n"
                    "[Typedef]\nid: negatively_regulates\nname: negatively regulates\nis_a: regulates\n\n"
                    "[Typedef]\nid: part_of\nname: part of\nis_transitive: true\n")
    graph = load_source(path)
    assert "GO:3" in graph.implied_hypernyms("GO:4")        # through the filler OBA:92
    assert "GO:5" in graph.implied_hypernyms("GO:6")        # through the genus CL:9
    assert "OBA:92" not in graph and "CL:9" not in graph
    counts = graph.provenance["report"].counts
    assert counts["undefined_parent"] == 2 and counts["undefined_in_axiom"] == 2


def test_a_defined_class_over_a_filler_never_defined_is_covered_by_one_over_its_super_relation(tmp_path):
    """GO: *negative regulation of short-term plasticity* = regulation and
    negatively_regulates_characteristic some OBA:136 is a *regulation of short-term plasticity* =
    regulation and regulates_characteristic some OBA:136, OBA:136 never defined in GO (was: not
    classified, and so offered as a wrong answer of the hyponymy question of its ancestors)."""
    path = tmp_path / "go.obo"
    path.write_text("format-version: 1.4\nontology: go\n\n[Term]\nid: GO:1\nname: biological regulation\n\n"
                    "[Term]\nid: GO:2\nname: regulation of short-term plasticity\n"
                    "intersection_of: GO:1\nintersection_of: regulates_characteristic OBA:136\n\n"
                    "[Term]\nid: GO:3\nname: negative regulation of short-term plasticity\n"
                    "intersection_of: GO:1\nintersection_of: negatively_regulates_characteristic OBA:136\n\n"
                    "[Typedef]\nid: regulates_characteristic\nname: regulates characteristic\n\n"
                    "[Typedef]\nid: negatively_regulates_characteristic\nname: negatively regulates characteristic\n"
                    "is_a: regulates_characteristic\n")
    graph = load_source(path)
    assert "GO:2" in graph.implied_hypernyms("GO:3") and "GO:3" not in graph.implied_hypernyms("GO:2")
