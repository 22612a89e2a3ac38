"""OWL/XML, the OWL functional and Manchester syntaxes through py-horned-owl: the same graph as the
ontology in Turtle (ids with the file's own prefix, labels, definitions, parents, restrictions),
Protégé 4's XML entities expanded, and parse errors with their line."""
import pytest

from mcqa_probes.knowledge.ontology import SourceError
from mcqa_probes.knowledge.owl_syntax import expand_entities, spell_out_iris
from mcqa_probes.knowledge.source import guess_format, load_source
from tests.conftest import FIXTURES

ONTOLOGIES = FIXTURES / "ontologies"

TURTLE = """@prefix pz: <http://example.org/pizza#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix obo: <http://purl.obolibrary.org/obo/> .
pz:Food a owl:Class ; rdfs:label "food"@en .
pz:Pizza a owl:Class ; rdfs:label "pizza"@en ; rdfs:subClassOf pz:Food ;
    obo:IAO_0000115 "A flat baked dough with toppings."@en .
pz:Topping a owl:Class ; rdfs:label "topping"@en ; rdfs:subClassOf pz:Food .
pz:Cheese a owl:Class ; rdfs:label "cheese topping"@en ; rdfs:subClassOf pz:Topping .
pz:Margherita a owl:Class ; rdfs:label "margherita"@en ; rdfs:subClassOf pz:Pizza ,
    [ a owl:Restriction ; owl:onProperty pz:hasTopping ; owl:someValuesFrom pz:Cheese ] .
pz:hasTopping a owl:ObjectProperty ; rdfs:label "has topping" .
"""

# Protégé 4's OWL/XML: a DOCTYPE with entities, IRIs relative to xml:base, abbreviated IRIs
OWL_XML = """<?xml version="1.0"?>
<!DOCTYPE Ontology [
    <!ENTITY pz "http://example.org/pizza#" >
    <!ENTITY obo "http://purl.obolibrary.org/obo/" >
]>
<Ontology xmlns="http://www.w3.org/2002/07/owl#" xml:base="http://example.org/pizza"
     ontologyIRI="http://example.org/pizza">
    <Prefix name="pz" IRI="http://example.org/pizza#"/>
    <Prefix name="rdfs" IRI="http://www.w3.org/2000/01/rdf-schema#"/>
    <Declaration><Class IRI="#Food"/></Declaration>
    <Declaration><Class IRI="#Pizza"/></Declaration>
    <Declaration><Class abbreviatedIRI="pz:Topping"/></Declaration>
    <Declaration><Class IRI="&pz;Cheese"/></Declaration>
    <Declaration><Class IRI="#Margherita"/></Declaration>
    <Declaration><ObjectProperty IRI="#hasTopping"/></Declaration>
    <SubClassOf><Class IRI="#Pizza"/><Class IRI="#Food"/></SubClassOf>
    <SubClassOf><Class IRI="#Topping"/><Class IRI="#Food"/></SubClassOf>
    <SubClassOf><Class IRI="#Cheese"/><Class IRI="#Topping"/></SubClassOf>
    <SubClassOf><Class IRI="#Margherita"/><Class IRI="#Pizza"/></SubClassOf>
    <SubClassOf><Class IRI="#Margherita"/>
        <ObjectSomeValuesFrom><ObjectProperty IRI="#hasTopping"/><Class IRI="#Cheese"/></ObjectSomeValuesFrom>
    </SubClassOf>
    <AnnotationAssertion><AnnotationProperty abbreviatedIRI="rdfs:label"/><IRI>#Food</IRI>
        <Literal xml:lang="en">food</Literal></AnnotationAssertion>
    <AnnotationAssertion><AnnotationProperty abbreviatedIRI="rdfs:label"/><IRI>#Pizza</IRI>
        <Literal xml:lang="en">pizza</Literal></AnnotationAssertion>
    <AnnotationAssertion><AnnotationProperty IRI="&obo;IAO_0000115"/><IRI>#Pizza</IRI>
        <Literal xml:lang="en">A flat baked dough with toppings.</Literal></AnnotationAssertion>
    <AnnotationAssertion><AnnotationProperty abbreviatedIRI="rdfs:label"/><IRI>#Topping</IRI>
        <Literal xml:lang="en">topping</Literal></AnnotationAssertion>
    <AnnotationAssertion><AnnotationProperty abbreviatedIRI="rdfs:label"/><IRI>#Cheese</IRI>
        <Literal xml:lang="en">cheese topping</Literal></AnnotationAssertion>
    <AnnotationAssertion><AnnotationProperty abbreviatedIRI="rdfs:label"/><IRI>#Margherita</IRI>
        <Literal xml:lang="en">margherita</Literal></AnnotationAssertion>
    <AnnotationAssertion><AnnotationProperty abbreviatedIRI="rdfs:label"/><IRI>#hasTopping</IRI>
        <Literal>has topping</Literal></AnnotationAssertion>
</Ontology>
"""

FUNCTIONAL = """Prefix(pz:=<http://example.org/pizza#>)
Prefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)
Prefix(obo:=<http://purl.obolibrary.org/obo/>)

Ontology(<http://example.org/pizza>
    Declaration(Class(pz:Food))
    Declaration(Class(pz:Pizza))
    Declaration(Class(pz:Topping))
    Declaration(Class(pz:Cheese))
    Declaration(Class(pz:Margherita))
    Declaration(ObjectProperty(pz:hasTopping))
    SubClassOf(pz:Pizza pz:Food)
    SubClassOf(pz:Topping pz:Food)
    SubClassOf(pz:Cheese pz:Topping)
    SubClassOf(pz:Margherita pz:Pizza)
    SubClassOf(pz:Margherita ObjectSomeValuesFrom(pz:hasTopping pz:Cheese))
    AnnotationAssertion(rdfs:label pz:Food "food"@en)
    AnnotationAssertion(rdfs:label pz:Pizza "pizza"@en)
    AnnotationAssertion(obo:IAO_0000115 pz:Pizza "A flat baked dough with toppings."@en)
    AnnotationAssertion(rdfs:label pz:Topping "topping"@en)
    AnnotationAssertion(rdfs:label pz:Cheese "cheese topping"@en)
    AnnotationAssertion(rdfs:label pz:Margherita "margherita"@en)
    AnnotationAssertion(rdfs:label pz:hasTopping "has topping")
)
"""

MANCHESTER = """Prefix: pz: <http://example.org/pizza#>
Prefix: rdfs: <http://www.w3.org/2000/01/rdf-schema#>
Prefix: obo: <http://purl.obolibrary.org/obo/>

Ontology: <http://example.org/pizza>

ObjectProperty: pz:hasTopping
    Annotations: rdfs:label "has topping"

Class: pz:Food
    Annotations: rdfs:label "food"@en

Class: pz:Pizza
    Annotations: rdfs:label "pizza"@en, obo:IAO_0000115 "A flat baked dough with toppings."@en
    SubClassOf: pz:Food

Class: pz:Topping
    Annotations: rdfs:label "topping"@en
    SubClassOf: pz:Food

Class: pz:Cheese
    Annotations: rdfs:label "cheese topping"@en
    SubClassOf: pz:Topping

Class: pz:Margherita
    Annotations: rdfs:label "margherita"@en
    SubClassOf: pz:Pizza, pz:hasTopping some pz:Cheese
"""


def _summary(graph):
    return {concept_id: (concept.lemmas, concept.definition, tuple(graph.hypernyms(concept_id)),
                         tuple(graph.related(concept_id, "pz:hasTopping")))
            for concept_id, concept in sorted(graph.concepts.items())}


@pytest.mark.parametrize("name, text", [("pizza.owx", OWL_XML), ("pizza.owl", OWL_XML), ("pizza.ofn", FUNCTIONAL),
                                        ("pizza-edit.owl", FUNCTIONAL), ("pizza.omn", MANCHESTER)])
def test_each_owl_syntax_gives_the_graph_of_the_same_ontology_in_turtle(tmp_path, name, text):
    """Ids keep the file's own prefix (pz:, as from Turtle); a ``.owl`` file in OWL/XML or the
    functional syntax is told by its text."""
    turtle = tmp_path / "pizza.ttl"
    turtle.write_text(TURTLE)
    path = tmp_path / name
    path.write_text(text)
    expected = load_source(turtle, relations=["pz:hasTopping"])
    graph = load_source(path, relations=["pz:hasTopping"])
    assert guess_format(path) == "owl" and graph.provenance["format"] == "owl"
    assert _summary(graph) == _summary(expected)
    assert sorted(graph.concepts) == ["pz:Cheese", "pz:Food", "pz:Margherita", "pz:Pizza", "pz:Topping"]
    assert list(graph.hypernyms("pz:Cheese")) == ["pz:Topping"]
    assert list(graph.related("pz:Margherita", "pz:hasTopping")) == ["pz:Cheese"]
    assert graph["pz:Pizza"].definition == "A flat baked dough with toppings."
    assert graph.source == expected.source


@pytest.mark.parametrize("name, text", [("menu.ofn", FUNCTIONAL), ("menu.owx", OWL_XML), ("menu.omn", MANCHESTER)])
def test_an_ontology_without_an_iri_is_named_after_its_file_without_the_syntax_suffix(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text.replace("Ontology(<http://example.org/pizza>", "Ontology(")
                    .replace('\n     ontologyIRI="http://example.org/pizza"', "")
                    .replace("Ontology: <http://example.org/pizza>", "Ontology:"))
    assert "example.org/pizza>" not in path.read_text() and 'ontologyIRI' not in path.read_text()
    assert load_source(path).source == "menu"


def test_protege_4_entities_are_expanded_and_every_line_keeps_its_number():
    expanded = expand_entities(OWL_XML)
    assert "&pz;" not in expanded and "&obo;" not in expanded and "<!DOCTYPE" not in expanded
    assert '<Class IRI="http://example.org/pizza#Cheese"/>' in expanded
    assert '<AnnotationProperty IRI="http://purl.obolibrary.org/obo/IAO_0000115"/>' in expanded
    before, after = OWL_XML.split("\n"), expanded.split("\n")
    assert len(after) == len(before)
    assert [number for number, line in enumerate(after) if "SubClassOf" in line] == \
        [number for number, line in enumerate(before) if "SubClassOf" in line]
    assert expand_entities(FUNCTIONAL) == FUNCTIONAL


def _line(text, needle):
    return next(number for number, line in enumerate(text.split("\n"), 1) if needle in line)


@pytest.mark.parametrize("name, text, old, new, expected", [
    ("bad.owx", OWL_XML, '<SubClassOf><Class IRI="#Cheese"/><Class IRI="#Topping"/></SubClassOf>',
     '<SubClassOff><Class IRI="#Cheese"/><Class IRI="#Topping"/></SubClassOff>',
     r"not valid OWL/XML: Unexpected tag: found SubClassOff"),
    ("bad.owl", OWL_XML, "<Literal xml:lang=\"en\">topping</Literal>", "<Literal xml:lang=\"en\">topping</Literl>",
     r"not valid OWL/XML: XML that is not well formed \(mismatched tag; expected the <Literal> opened at line \d+ to "
     r"be closed by </Literal> first\)"),
    ("bad.owx", OWL_XML, '<AnnotationAssertion><AnnotationProperty abbreviatedIRI="rdfs:label"/><IRI>#Topping',
     '<AnnotationAssertion <AnnotationProperty abbreviatedIRI="rdfs:label"/><IRI>#Topping',
     r"not valid OWL/XML: XML that is not well formed \(invalid token; expected a tag, text or an entity"),
    ("bad.ofn", FUNCTIONAL, "SubClassOf(pz:Cheese pz:Topping)", "SubClassOf(pz:Cheese pz:Topping",
     r"not valid OWL functional syntax: expected .* at: SubClassOf\(pz:Cheese pz:Topping"),
    ("bad.omn", "\n" + MANCHESTER, "    SubClassOf: pz:Topping", "    SubClassOf pz:Topping",
     r"not valid OWL Manchester syntax: expected .* at: SubClassOf pz:Topping"),
    # an undeclared prefix: the parser gives a byte span and no words (was: no line, no prefix named)
    ("bad.ofn", FUNCTIONAL, "SubClassOf(pz:Cheese pz:Topping)", "SubClassOf(zz:Cheese pz:Topping)",
     r"not valid OWL functional syntax: undefined prefix 'zz' \(zz:Cheese; expected a declaration Prefix\(zz:=<\.\.\.>\)"),
    ("bad.omn", "\n" + MANCHESTER, "    SubClassOf: pz:Topping", "    SubClassOf: zz:Topping",
     r"not valid OWL Manchester syntax: undefined prefix 'zz' \(zz:Topping; expected a declaration Prefix: zz: <\.\.\.>"),
    # an IRI left open: said in words, not by the grammar's RFC3987 rules (and the line, where the
    # parser shows the line's end as a visible character)
    ("bad.omn", "\n" + MANCHESTER, "Ontology: <http://example.org/pizza>", "Ontology: <http://example.org/pizza",
     r"not valid OWL Manchester syntax: an IRI not closed \(expected the rest of the IRI and its closing '>'\) at: "
     r"Ontology: <http://example\.org/pizza$"),
    # a faulty line holding quotes: the parser quotes it escaped (\"), the file has it plain
    ("bad.omn", "\n" + MANCHESTER, '    Annotations: rdfs:label "topping"@en', '    Annotations: rdfs:label "topping"@en )(',
     r'not valid OWL Manchester syntax: expected .* at: Annotations: rdfs:label "topping"@en \)\($'),
])
def test_a_malformed_file_is_an_error_at_the_line_of_the_fault(tmp_path, name, text, old, new, expected):
    """The line counts the file's own lines: Protégé's DOCTYPE, a blank first line (which the Manchester
    parser does not count) and an element the OWL/XML parser has read past are no offset."""
    assert old in text
    broken = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(broken)
    with pytest.raises(SourceError, match=expected) as raised:
        load_source(path)
    assert raised.value.line == _line(broken, new.split("\n")[0].strip())


def test_the_vehicle_fixtures_in_every_owl_syntax_give_the_obo_files_graph():
    obo = load_source(ONTOLOGIES / "vehicles.obo", relations=["part_of"])
    for suffix in ("owx", "ofn", "omn", "_fastobo.ofn"):
        graph = load_source(ONTOLOGIES / f"vehicles{'' if suffix.startswith('_') else '.'}{suffix}",
                            relations=["part_of"])
        assert (graph.source, graph.version) == ("vo", "2026-11-01"), suffix
        assert graph.concepts == obo.concepts and graph.relation_info == obo.relation_info, suffix
        for concept_id in obo.concepts:
            assert list(graph.hypernyms(concept_id)) == list(obo.hypernyms(concept_id)), (suffix, concept_id)
            assert list(graph.related(concept_id, "part_of")) == list(obo.related(concept_id, "part_of"))


def test_an_ontology_py_horned_owl_cannot_write_as_rdf_is_one_error_without_rusts_message(tmp_path, capfd):
    """py-horned-owl 2.0.0 panics while writing an assertion whose object is ``rdf:nil`` as RDF (DASH's
    vocabulary has one): an error that says so, and nothing of the panic on the standard error."""
    path = tmp_path / "odd.ofn"
    path.write_text("Prefix(ex:=<http://e/>)\nPrefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)\n"
                    "Ontology(<http://e/odd>\n    Declaration(Class(ex:A))\n"
                    '    AnnotationAssertion(rdfs:label ex:A "a thing")\n'
                    "    ObjectPropertyAssertion(ex:p ex:x <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil>)\n)\n")
    with pytest.raises(SourceError, match=r"odd.ofn: read as OWL functional syntax, but py-horned-owl cannot write it "
                                          r"as RDF \(PanicException: .*\); save the ontology as RDF/XML or Turtle"):
        load_source(path)
    assert capfd.readouterr().err == ""


# fastobo's functional syntax: '#' and '/' in local names; around them what must stay as it is
FASTOBO_STYLE = """Prefix(obo:=<http://purl.obolibrary.org/obo/>)
Prefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)
Ontology(obo:vo.owl obo:vo/2026-11-01/vo.owl
    Declaration(Class(obo:VO_1))
    Declaration(Class(obo:VO_2))
    Declaration(ObjectProperty(obo:vo#part_of))
    # a comment with obo:vo#part_of in it
    AnnotationAssertion(rdfs:label obo:VO_1 "wheel, as in obo:vo#wheel")
    AnnotationAssertion(rdfs:label obo:VO_2 "car"^^<http://www.w3.org/2001/XMLSchema#string>)
    AnnotationAssertion(rdfs:comment obo:VO_2 "a \\"quoted\\" obo:x#y")
    SubClassOf(obo:VO_1 ObjectSomeValuesFrom(obo:vo#part_of obo:VO_2))
    Declaration(Class(ex:odd#name))
)
"""


def test_abbreviated_iris_the_grammar_does_not_allow_are_written_out_and_nothing_else():
    """Only abbreviated IRIs outside literals, full IRIs and comments whose prefix is declared; every
    line keeps its number and each one written out is listed with its line."""
    text, spelled = spell_out_iris(FASTOBO_STYLE)
    assert spelled == [(3, "obo:vo/2026-11-01/vo.owl"), (6, "obo:vo#part_of"), (11, "obo:vo#part_of")]
    before, after = FASTOBO_STYLE.split("\n"), text.split("\n")
    assert len(after) == len(before)
    assert after[2] == "Ontology(obo:vo.owl <http://purl.obolibrary.org/obo/vo/2026-11-01/vo.owl>"
    assert after[10] == ("    SubClassOf(obo:VO_1 ObjectSomeValuesFrom(<http://purl.obolibrary.org/obo/vo#part_of> "
                         "obo:VO_2))")
    changed = {number for number, (old, new) in enumerate(zip(before, after), 1) if old != new}
    assert changed == {3, 6, 11}        # not the comment, the literals, nor the undeclared prefix ex:
    assert spell_out_iris(FUNCTIONAL) == (FUNCTIONAL, [])


def test_a_file_as_fastobo_writes_it_is_read_and_the_iris_written_out_are_reported(tmp_path):
    from mcqa_probes.knowledge.ontology import SourceReport
    from mcqa_probes.knowledge.owl_syntax import owl_syntax_as_rdf

    path = tmp_path / "vo.ofn"
    path.write_text(FASTOBO_STYLE.replace("    Declaration(Class(ex:odd#name))\n", ""))
    report = SourceReport()
    rdf_xml, _prefixes = owl_syntax_as_rdf(str(path), "ofn", report)
    assert "http://purl.obolibrary.org/obo/vo#part_of" in rdf_xml
    assert report.counts == {"spelled_out_iri": 3}
    assert report.examples["spelled_out_iri"][1] == f"{path}:6 obo:vo#part_of"
    # a fault of its own after them: the error is that one, at its line
    broken = tmp_path / "broken.ofn"
    broken.write_text(path.read_text().replace("ObjectSomeValuesFrom(", "ObjectSome("))
    with pytest.raises(SourceError, match=r"not valid OWL functional syntax: expected .* at: "
                                          r"SubClassOf\(obo:VO_1 ObjectSome\(obo:vo#part_of obo:VO_2\)\)$") as raised:
        load_source(broken)       # the line quoted as the file has it
    assert raised.value.line == 11


@pytest.mark.parametrize("old, new, expected", [
    # py-horned-owl says only "Unexpected EoF", at the file's end, of a root it does not know
    ('xmlns="http://www.w3.org/2002/07/owl#"', 'xmlns="http://www.w3.org/2002/07/owlx#"',
     r"expected the root element <Ontology> in OWL's namespace http://www\.w3\.org/2002/07/owl# .*found it in "
     r"http://www\.w3\.org/2002/07/owlx#"),
    ("<Ontology ", "<Ontologie ", r"expected the root element <Ontology> of OWL/XML, found <Ontologie> of namespace"),
])
def test_an_owl_xml_file_with_another_root_names_the_root_and_its_line(tmp_path, old, new, expected):
    broken = OWL_XML.replace(old, new, 1).replace("</Ontology>", "</Ontologie>" if "Ontologie" in new else "</Ontology>")
    path = tmp_path / "menu.owx"
    path.write_text(broken)
    with pytest.raises(SourceError, match=expected) as raised:
        load_source(path)
    assert raised.value.line == _line(broken, "<Ontolog")


def test_rdf_xml_saved_as_owx_is_read_as_rdf_xml(tmp_path):
    path = tmp_path / "vehicles.owx"
    path.write_bytes((ONTOLOGIES / "vehicles.owl").read_bytes())
    graph, expected = load_source(path), load_source(ONTOLOGIES / "vehicles.owl")
    assert graph.concepts == expected.concepts and graph.source == expected.source
