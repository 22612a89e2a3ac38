"""OBO files through fastobo: what the build reads, and how faulty lines are judged by their clause."""
import re

import pytest

from mcqa_probes.knowledge.obo import read_obo
from mcqa_probes.knowledge.ontology import SourceError, SourceReport, Vocabulary
from tests.conftest import FIXTURES

VEHICLES = FIXTURES / "ontologies" / "vehicles.obo"


def read(path, **vocabulary):
    report = SourceReport()
    return read_obo(str(path), Vocabulary(**vocabulary), report), report


def test_terms_synonyms_parents_and_relations_are_read():
    data, _ = read(VEHICLES)
    assert (data.name, data.version, data.format) == ("vo", "2026-11-01", "obo")
    car = data.concepts["VO:0000005"]
    assert car.label == "car" and car.definition.startswith("A land vehicle with four wheels")
    assert car.synonyms == ["automobile", "motorcar"]            # the RELATED synonym "auto" is not a name
    assert car.line == 37
    assert ("VO:0000012", "VO:0000002", 90) in data.parents and ("VO:0000012", "VO:0000003", 91) in data.parents
    assert ("VO:0000015", "part_of", "VO:0000005", 111) in data.links
    assert data.relation_info["part_of"] == {"name": "part of", "transitive": True, "symmetric": False,
                                             "aliases": ["BFO:0000050"]}


def test_related_synonyms_are_taken_when_the_vocabulary_asks_for_them():
    data, _ = read(VEHICLES, synonyms=("oboInOwl:hasExactSynonym", "oboInOwl:hasRelatedSynonym"))
    assert data.concepts["VO:0000005"].synonyms == ["automobile", "motorcar", "auto"]


def test_obsolete_terms_are_skipped_and_counted():
    data, report = read(VEHICLES)
    assert "VO:0000023" not in data.concepts and "VO:0000023" in data.obsolete
    assert report.counts["obsolete"] == 1 and report.examples["obsolete"][0].endswith(":163 VO:0000023")


def test_a_faulty_clause_the_build_does_not_use_is_skipped_with_its_line_and_a_faulty_xref_list_repaired():
    data, report = read(VEHICLES)
    assert report.counts == {"skipped_clause": 1, "repaired_clause": 1, "obsolete": 1}
    assert report.examples["skipped_clause"] == [f"{VEHICLES}:26 xref"]
    assert report.examples["repaired_clause"] == [f"{VEHICLES}:62 def cross-references"]
    # the repaired definition keeps its text; the skipped xref costs the term nothing
    assert data.concepts["VO:0000008"].definition == "A boat moved by the wind pushing on sails."
    assert data.concepts["VO:0000003"].synonyms == ["vessel"]


@pytest.mark.parametrize("clause", ['xref: FMA:7088 "a description left open', 'property_value: IAO:0000233 "open xsd:string'])
def test_an_open_quote_in_a_clause_the_build_does_not_use_is_skipped_with_its_own_line(tmp_path, clause):
    """The quote runs on into the definition below, where the parser stops: the line that opened it
    is the one skipped and named, the definition is kept."""
    text = VEHICLES.read_text().replace('id: VO:0000009\n', f'id: VO:0000009\n{clause}\n')
    path = tmp_path / "open.obo"
    path.write_text(text)
    line = text[: text.index(clause)].count("\n") + 1
    data, report = read(path)
    assert f"{path}:{line} {clause.split(':')[0]}" in report.examples["skipped_clause"]
    assert data.concepts["VO:0000009"].definition == read(VEHICLES)[0].concepts["VO:0000009"].definition


def test_every_faulty_line_is_found_in_one_pass(tmp_path):
    text = VEHICLES.read_text()
    text = text.replace('synonym: "bike" EXACT []', 'synonym: "bike" EXACT []\nxref: http://a.org/x\\:y')
    text = text.replace('synonym: "chopper" EXACT []', 'synonym: "chopper" EXACT [ISBN: 12 3]')
    text = text.replace("name: pedal\n", "name: pedal\ncreation_date: not a date\\:x\n")
    path = tmp_path / "many.obo"
    path.write_text(text)
    data, report = read(path)
    assert report.counts["skipped_clause"] == 2 + 1 and report.counts["repaired_clause"] == 2
    assert len(data.concepts) == 27 and data.concepts["VO:0000011"].synonyms == ["chopper"]


def test_comment_lines_are_skipped_and_counted_where_fastobo_would_stop_or_panic(tmp_path):
    """A line that is only a comment (``! ...``), in the header, between frames or inside one, indented
    or not: OWLAPI reads past it; fastobo stops at one in the header and panics (a BaseException, not
    a SyntaxError: a traceback) at one inside a frame. Left blank and counted; the file reads as without them."""
    plain, _ = read(VEHICLES)
    text = VEHICLES.read_text()
    text = text.replace("ontology: vo\n", "! made by hand\nontology: vo\n", 1)
    text = text.replace("[Term]\n", "! the terms\n[Term]\n", 1)
    text = text.replace("name: pedal\n", "name: pedal\n! a part of a bicycle\n  !indented\n")
    path = tmp_path / "commented.obo"
    path.write_text(text)
    data, report = read(path)
    assert report.counts["comment_line"] == 4
    assert sorted(e.split(" ", 1)[1] for e in report.examples["comment_line"]) == [
        "! a part of a bicycle", "! made by hand", "! the terms", "!indented"]
    def seen(read_data):        # lines moved down by the comment lines
        return ([(c.id, c.label, c.synonyms, c.definition) for c in read_data.concepts.values()],
                [edge[:2] for edge in read_data.parents], [link[:3] for link in read_data.links], read_data.name)

    assert seen(data) == seen(plain) and len(data.concepts) == 27


def test_a_panic_of_the_obo_parser_is_an_error_naming_the_frame(tmp_path, monkeypatch):
    """Should fastobo panic on a line (as it did on comment lines), the frame is named in one error line,
    not a traceback."""
    import fastobo

    class PanicException(BaseException):
        """As pyo3 names it."""

    loads = fastobo.loads

    def panicking(text, *args, **kwargs):
        if "name: pedal" in text:
            raise PanicException("internal error: entered unreachable code")
        return loads(text, *args, **kwargs)

    monkeypatch.setattr(fastobo, "loads", panicking)
    line = VEHICLES.read_text().split("\n").index("name: pedal")
    with pytest.raises(SourceError, match=r"vehicles.obo:(\d+): not valid OBO: the parser \(fastobo\) failed on this "
                                          r"frame \(internal error") as caught:
        read(VEHICLES)
    assert caught.value.line <= line + 1 and VEHICLES.read_text().split("\n")[caught.value.line - 1] == "[Term]"


def test_obo_1_0_synonym_tags_are_read_as_synonyms_with_their_scope(tmp_path):
    text = VEHICLES.read_text().replace('synonym: "bike" EXACT []', 'exact_synonym: "bike" []\nrelated_synonym: "cycle" [VO:x]')
    path = tmp_path / "obo10.obo"
    path.write_text(text)
    line = text[: text.index("exact_synonym")].count("\n") + 1
    data, report = read(path)
    assert data.concepts["VO:0000006"].synonyms == ["bike"]                       # EXACT only, as for OBO 1.2
    assert read(path, synonyms=("oboInOwl:hasExactSynonym", "oboInOwl:hasRelatedSynonym"))[0].concepts[
        "VO:0000006"].synonyms == ["bike", "cycle"]
    assert report.examples["old_synonym_tag"] == [f"{path}:{line} exact_synonym", f"{path}:{line + 1} related_synonym"]


def test_a_quoted_text_ending_in_an_escaped_backslash_is_read_as_written(tmp_path):
    """The grammar allows ``"...\\\\"``; fastobo reads its closing quote as escaped and stops."""
    text = VEHICLES.read_text().replace('def: "A lever pushed by the foot." [VO:curator]',
                                        'def: "A lever pushed by the foot \\\\" [VO:curator]\nsynonym: "foot \\\\ lever\\\\" EXACT []')
    path = tmp_path / "backslash.obo"
    path.write_text(text)
    line = text[: text.index("A lever pushed")].count("\n") + 1
    data, report = read(path)
    pedal = data.concepts["VO:0000020"]
    assert pedal.definition == "A lever pushed by the foot \\" and pedal.synonyms == ["foot \\ lever\\"]
    assert report.examples["escaped_backslash"] == [f"{path}:{line} def", f"{path}:{line + 1} synonym"]
    assert "\ue000" not in pedal.definition and report.counts.get("repaired_clause") == 1   # the fixture's own


@pytest.mark.parametrize("old, new, what", [
    ('def: "A lever pushed by the foot." [VO:curator]', 'def: "A lever pushed by the foot. [VO:curator]',
     "def clause whose quoted text is not closed"),
    # the quote runs on into the synonym below, where the parser stops: the def line is named
    ('def: "A craft that travels on or under water." [VO:curator]',
     'def: "A craft that travels on or under water. [VO:curator]', "def clause whose quoted text is not closed"),
    ('synonym: "conveyance" EXACT []', 'synonym: "conveyance EXACT []', "synonym clause whose quoted text is not closed"),
    ('def: "A machine that carries people or goods from one place to another." [VO:curator]',
     'def: "A machine that carries people or goods from one place to another." VO:curator]', "malformed def"),
    ("is_a: VO:0000004 ! aircraft\n\n[Term]\nid: VO:0000012", "is_a VO:0000004\n\n[Term]\nid: VO:0000012",
     "is_a clause without a colon"),
    ("relationship: part_of VO:0000006 ! bicycle", "relationship: part_of", "malformed relationship"),
    ("is_obsolete: true", "is_obsolete: perhaps", "malformed is_obsolete"),
    ('synonym: "roadster" EXACT []', 'synonym: roadster EXACT []', "malformed synonym"),
    ('synonym: "roadster" EXACT []', 'exact_synonym: roadster []', "malformed exact_synonym"),
    ("name: wing\n", "this line is no clause\n", "not an OBO clause"),
    ("[Term]\nid: VO:0000009\n", "[Term]\n", "[Term] frame without an id clause"),
    # a synonym type tells an obsolete or respelled synonym: its definition is read, so a broken one
    # is an error (was: skipped as unused, and the synonyms of that type asked as exact synonyms)
    ("saved-by: mcqa_probes fixtures\n", 'saved-by: mcqa_probes fixtures\nsynonymtypedef: OLD "discarded synonym EXACT\n',
     "malformed synonymtypedef clause"),
])
def test_a_broken_clause_the_build_uses_is_an_error_naming_file_and_line(tmp_path, old, new, what):
    text = VEHICLES.read_text()
    assert old in text
    line = text[: text.index(old)].count("\n") + 1 + new.startswith(old) * old.count("\n")
    path = tmp_path / "broken.obo"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(SourceError) as caught:
        read(path)
    assert str(caught.value).startswith(f"{path}:{line}: {what}")
    assert "expected" in str(caught.value) and "\n" not in str(caught.value)


def test_a_file_that_is_not_utf8_is_an_error_with_its_line(tmp_path):
    path = tmp_path / "latin1.obo"
    path.write_bytes(VEHICLES.read_bytes().replace(b"name: wheel", b"name: wh\xe9el"))
    with pytest.raises(SourceError, match=r"latin1.obo:\d+: not UTF-8"):
        read(path)


def test_after_a_byte_order_mark_the_line_of_the_first_byte_that_is_not_utf8_is_still_its_own(tmp_path):
    # the decoder counts after the mark: a bad byte first on its line was put on the line before
    path = tmp_path / "bom.obo"
    text = VEHICLES.read_bytes()
    at = text.index(b"name: wheel")
    path.write_bytes(b"\xef\xbb\xbf" + text[:at] + b"\xe9" + text[at:])
    line = text[:at].count(b"\n") + 1
    with pytest.raises(SourceError, match=rf"bom\.obo:{line}: not UTF-8 \(byte 0xe9\)"):
        read(path)


HEADER = "format-version: 1.4\nontology: ex\n\n[Typedef]\nid: part_of\nname: part of\n\n"


def _obo(tmp_path, text):
    path = tmp_path / "ex.obo"
    path.write_text(HEADER + text)
    return path


def test_a_relationship_with_all_only_or_a_cardinality_is_no_some_link_and_is_counted(tmp_path):
    """``{maxCardinality="0"}``: a ventricle is part of no heart; OWL renders these as other restrictions."""
    report = SourceReport()
    data = read_obo(str(_obo(tmp_path, "[Term]\nid: EX:1\nname: heart\n\n[Term]\nid: EX:2\nname: ventricle\n"
                                       'relationship: part_of EX:1 {maxCardinality="0"}\n'
                                       'relationship: part_of EX:3 {all_only="true"}\n'
                                       'relationship: part_of EX:4 {source="PMID:1"}\n'
                                       'relationship: part_of EX:5 {all_only="false"}\n'
                                       'relationship: part_of EX:6 {minCardinality="1"}\n'
                                       'relationship: part_of EX:7 {cardinality="2"}\n'
                                       'relationship: part_of EX:8 {minCardinality="0", maxCardinality="3"}\n')),
                    Vocabulary(), report)
    assert [(s, o) for s, _, o, _ in data.links] == [("EX:2", "EX:4"), ("EX:2", "EX:5")]
    assert report.counts["qualified_link"] == 5
    # at least one (cardinality or minCardinality of 1 or more) entails a "some" link: kept out of the
    # distractors as an implied link, never asked (was: dropped, and the leaf offered as a wrong answer)
    assert [(s, o) for s, _, o, _ in data.implied_links] == [("EX:2", "EX:6"), ("EX:2", "EX:7")]


def test_a_relation_split_over_two_frames_keeps_what_each_frame_says(tmp_path):
    """The later frame of a Typedef adds to the earlier one (was: replaced it, losing is_transitive)."""
    data = read_obo(str(_obo(tmp_path, "[Typedef]\nid: part_of\nis_transitive: true\n\n[Term]\nid: EX:1\nname: plant\n"
                                       "\n[Typedef]\nid: part_of\nname: part of\nxref: BFO:0000050\n")),
                    Vocabulary(), SourceReport())
    info = data.relation_info["part_of"]
    assert info["transitive"] is True and info["aliases"] == ["BFO:0000050"] and info["name"] == "part of"


def test_a_clause_the_build_does_not_use_ending_in_a_backslash_is_skipped_so_the_next_clause_is_read(tmp_path):
    report = SourceReport()
    data = read_obo(str(_obo(tmp_path, "[Term]\nid: EX:1\nname: plant\n\n[Term]\nid: EX:2\nname: leaf\n"
                                       "comment: see C:\\\nis_a: EX:1\ncomment: two \\\\\nis_a: EX:1\n")),
                    Vocabulary(), report)
    assert [(c, p) for c, p, _ in data.parents] == [("EX:2", "EX:1"), ("EX:2", "EX:1")]
    lines = (tmp_path / "ex.obo").read_text().splitlines()
    assert report.examples["skipped_clause"] == [f"{tmp_path / 'ex.obo'}:{lines.index('comment: see C:' + chr(92)) + 1} comment"]


def test_a_term_split_over_frames_may_repeat_its_name(tmp_path):
    data = read_obo(str(_obo(tmp_path, "[Term]\nid: EX:1\nname: leaf\n\n[Term]\nid: EX:2\nname: organ\n\n[Term]\n"
                                       "id: EX:1\nname: leaf\nis_a: EX:2\n")), Vocabulary(), SourceReport())
    assert data.concepts["EX:1"].label == "leaf" and [p for _, p, _ in data.parents] == ["EX:2"]


def test_a_relation_written_by_its_typedefs_xref_is_that_typedefs_relation_in_every_clause(tmp_path):
    """``relationship: BFO:0000050 X`` where part_of has ``xref: BFO:0000050``: one property in the OWL
    rendering (obo:BFO_0000050, named part_of), so one relation here too, in links, logical definitions,
    chains and sub-relations (was: two relations, and a defined class over part_of covered nothing
    written with BFO:0000050, so an entailed ancestor was offered as a wrong answer)."""
    text = ("[Typedef]\nid: part_of\nxref: BFO:0000050\nis_transitive: true\n\n"
            "[Typedef]\nid: located_in\ntransitive_over: BFO:0000050\n\n"
            "[Typedef]\nid: member_of\nis_a: BFO:0000050\n\n"
            "[Term]\nid: EX:1\nname: structure\n\n[Term]\nid: EX:2\nname: heart\n\n"
            "[Term]\nid: EX:3\nname: heart structure\nintersection_of: EX:1\nintersection_of: BFO:0000050 EX:2\n\n"
            "[Term]\nid: EX:4\nname: valve\nis_a: EX:1\nrelationship: BFO:0000050 EX:2\n")
    path = _obo(tmp_path, text.replace("[Typedef]\nid: part_of\nxref", "[Typedef]\nid: part_of\nname: part of\nxref", 1))
    data = read_obo(str(path), Vocabulary(), SourceReport())
    assert [(s, r, o) for s, r, o, _ in data.links] == [("EX:4", "part_of", "EX:2")]
    # of several xrefs, the one OWLAPI makes the property's IRI: the first, unless a later one is RO or
    # BFO (then the last of those); the others stay relations of their own, as in the rendering
    two = tmp_path / "two.obo"
    two.write_text("format-version: 1.4\nontology: ex\n\n[Typedef]\nid: has_part\nxref: BFO:0000051\nxref: RO:0009998\n\n"
                   "[Typedef]\nid: adjacent_to\nxref: OBO_REL:adjacent_to\nxref: XX:1\n\n"
                   "[Term]\nid: EX:1\nname: flower\nrelationship: RO:0009998 EX:2\nrelationship: BFO:0000051 EX:3\n"
                   "relationship: OBO_REL:adjacent_to EX:2\nrelationship: XX:1 EX:3\n\n"
                   "[Term]\nid: EX:2\nname: petal\n\n[Term]\nid: EX:3\nname: sepal\n")
    links = [(r, o) for _, r, o, _ in read_obo(str(two), Vocabulary(), SourceReport()).links]
    assert links == [("has_part", "EX:2"), ("BFO:0000051", "EX:3"), ("adjacent_to", "EX:2"), ("XX:1", "EX:3")]
    assert [d[2] for d in data.definitions] == [[("part_of", "EX:2")]]
    assert data.relation_info["located_in"]["chains"] == [["located_in", "part_of"]]
    assert data.relation_parents == {"member_of": ["part_of"]}
    from mcqa_probes.knowledge.source import load_source
    graph = load_source(path, relations=["part_of"])
    assert graph.provenance["report"].examples["classified"] == ["EX:4 is_a EX:3"]


def test_a_definition_given_as_a_property_value_is_read_as_its_owl_rendering_reads_it(tmp_path):
    data = read_obo(str(_obo(tmp_path, '[Term]\nid: EX:1\nname: root\nproperty_value: IAO:0000115 "The base of a '
                                       'plant." xsd:string\n\n[Term]\nid: EX:2\nname: leaf\ndef: "A flat organ." []\n'
                                       'property_value: IAO:0000115 "A green organ." xsd:string\n')),
                    Vocabulary(), SourceReport())
    assert data.concepts["EX:1"].definition == "The base of a plant."
    assert data.concepts["EX:2"].definition == "A flat organ."          # the first in order, as from RDF


@pytest.mark.parametrize("frame, faulty, message", [
    ("[Term]\nid: EX:1\nname: tuber\nis_a: EX:2\nname: tuber2\n\n[Term]\nid: EX:2\nname: organ\n", "name: tuber2",
     "a second name clause in the frame of EX:1"),
    ("[Term]\nid: EX:1\nname: leaf\n\n[Term]\nid: EX:2\nname: blade\nintersection_of: EX:1\n"
     "intersection_of: part_of\n", "intersection_of: part_of",
     "intersection_of clause of EX:2 names the relation part_of without its target"),
    # a Typedef's clauses that decide a relation's closure are used too: no silent "not transitive"
    ("[Term]\nid: EX:1\nname: leaf\n\n[Typedef]\nid: part_of\nname: part of\nis_transitive: yes\n",
     "is_transitive: yes", "malformed is_transitive clause (expected 'is_transitive: true' or 'is_transitive: false'"),
    ("[Term]\nid: EX:1\nname: leaf\n\n[Typedef]\nid: part_of\nis_symmetric: no\n", "is_symmetric: no",
     "malformed is_symmetric clause"),
    ("[Term]\nid: EX:1\nname: leaf\n\n[Typedef]\nid: located_in\nname: located in\nis_transitive: true\n"
     "name: is in\n", "name: is in", "a second name clause in the frame of located_in ('is in' after 'located in'"),
    # a term split over two frames: the later frame's name is a second one, and its clauses are found there
    ("[Term]\nid: EX:1\nname: tuber\n\n[Term]\nid: EX:2\nname: organ\n\n[Term]\nid: EX:1\nname: tuber\n"
     "is_a: EX:2\nname: root tuber\n", "name: root tuber", "a second name clause in the frame of EX:1 ('root tuber' after"),
    ("[Term]\nid: EX:1\nname: tuber\n\n[Term]\nid: EX:2\nname: organ\n\n[Term]\nid: EX:1\ndef: \"A swollen stem.\" []\n"
     "name: stem tuber\n", "name: stem tuber", "a second name clause in the frame of EX:1 ('stem tuber' after 'tuber'"),
    ("[Term]\nid: EX:1\nname: leaf\nintersection_of: EX:2\n\n[Term]\nid: EX:2\nname: organ\n\n[Term]\nid: EX:1\n"
     "intersection_of: part_of\n", "intersection_of: part_of",
     "intersection_of clause of EX:1 names the relation part_of without its target"),
    ("[Term]\nid: EX:1\nname: leaf\n\n[Typedef]\nid: part_of\nname: is part of\n", "name: is part of",
     "a second name clause in the frame of part_of ('is part of' after 'part of'"),
    # a backslash at a line's end joins the next line to the value (fastobo reads an escaped line end):
    # the is_a below would be part of the name, the edge lost
    ("[Term]\nid: EX:1\nname: tuber\n\n[Term]\nid: EX:2\nname: organ\\\nis_a: EX:1\n", "name: organ\\",
     "name clause ending in a backslash, which joins the next line to it"),
    # a Typedef's domain, range and inverse decide what its links entail: a broken one is no silent "none"
    ("[Term]\nid: EX:1\nname: leaf\n\n[Typedef]\nid: inhabits\nname: inhabits\ndomain: \"organism\"\n",
     'domain: "organism"', 'domain clause of inhabits gives "organism", a quoted text (expected'),
    ("[Term]\nid: EX:1\nname: leaf\n\n[Typedef]\nid: located_in\nrange: \"EX:1\"\n", 'range: "EX:1"',
     'range clause of located_in gives "EX:1", a quoted text (expected'),
    ("[Term]\nid: EX:1\nname: leaf\n\n[Typedef]\nid: located_in\nrange:\n", "range:", "malformed range clause"),
    # a quoted parent: fastobo reads it as an id with its quotes, an edge to no term (was: counted as one)
    ("[Term]\nid: EX:1\nname: organ\n\n[Term]\nid: EX:2\nname: leaf\nis_a: \"EX:1\"\n", 'is_a: "EX:1"',
     'is_a clause of EX:2 gives "EX:1", a quoted text (expected'),
    ("[Term]\nid: EX:1\nname: plant\n\n[Term]\nid: EX:2\nname: leaf\nrelationship: part_of \"EX:1\"\n",
     'relationship: part_of "EX:1"', 'relationship clause of EX:2 gives part_of "EX:1", a quoted text (expected'),
    ("[Term]\nid: EX:1\nname: leaf\n\n[Typedef]\nid: part_of\ninverse_of: has part\n", "inverse_of: has part",
     "malformed inverse_of clause (expected 'inverse_of: <relation id>'"),
], ids=["second-name", "intersection-of-without-target", "is-transitive-yes", "is-symmetric-no", "typedef-second-name",
        "split-term-second-name", "split-term-name-in-later-frame", "split-term-intersection-of",
        "split-typedef-second-name", "name-joined-to-next-line", "quoted-domain", "quoted-prefixed-range", "empty-range", "quoted-is-a", "quoted-relationship-target",
        "inverse-of-two-words"])
def test_a_used_clause_that_breaks_the_rules_is_an_error_at_that_clauses_line(tmp_path, frame, faulty, message):
    """The line is the faulty clause's, not the frame's id line (was: the id line for a second name)."""
    path = _obo(tmp_path, frame)
    line = path.read_text().splitlines().index(faulty) + 1
    with pytest.raises(SourceError, match=rf"ex.obo:{line}: {re.escape(message)}"):
        read_obo(str(path), Vocabulary(), SourceReport())


def test_a_synonym_type_without_its_description_is_read_by_its_id_and_counted(tmp_path):
    """``synonymtypedef: obsolete_name`` (OBO 1.4 asks for a quoted description after the id): its id
    still tells an obsolete synonym type, so *velocipede* is not asked as another name; counted."""
    path = tmp_path / "types.obo"
    path.write_text('format-version: 1.2\nsynonymtypedef: obsolete_name\nontology: t\n\n[Term]\nid: T:1\nname: thing\n\n'
                    '[Term]\nid: T:2\nname: bicycle\nsynonym: "velocipede" EXACT obsolete_name []\n'
                    'synonym: "bike" EXACT []\nis_a: T:1\n')
    report = SourceReport()
    data = read_obo(str(path), Vocabulary(), report)
    assert data.concepts["T:2"].synonyms == ["bike"]
    assert report.counts["repaired_clause"] == 1 and "types.obo:2" in "; ".join(report.lines())


def test_a_def_or_synonym_without_its_cross_reference_list_is_read_and_counted(tmp_path):
    """The grammar requires the list (``[]`` at least); a hand-written file leaves it out."""
    path = tmp_path / "nolist.obo"
    path.write_text('format-version: 1.4\nontology: ml\n\n[Term]\nid: ML:1\nname: instrument\n'
                    'def: "A device for making music."\nsynonym: "musical instrument" EXACT\n\n'
                    '[Term]\nid: ML:2\nname: fiddle\nis_a: ML:1\nsynonym: "violin" EXACT []\n'
                    'def: "A bowed instrument." [ML:rt, "unclosed\n')
    data, report = read(path)
    assert data.concepts["ML:1"].definition == "A device for making music."
    assert data.concepts["ML:1"].synonyms == ["musical instrument"]
    assert data.concepts["ML:2"].definition == "A bowed instrument."
    assert report.examples["repaired_clause"] == [f"{path}:7 def cross-references missing",
                                                  f"{path}:8 synonym cross-references missing",
                                                  f"{path}:15 def cross-references"]
    # what is not a missing list stays an error with its line (a synonym without its scope)
    path.write_text('format-version: 1.4\nontology: ml\n\n[Term]\nid: ML:1\nname: instrument\nsynonym: "x"\n')
    with pytest.raises(SourceError, match=r"nolist.obo:7: malformed synonym clause"):
        read(path)


@pytest.mark.parametrize("clauses, tag", [
    ("intersection_of: EX:1\n", "intersection_of"),
    ("union_of: EX:3\n", "union_of"),
])
def test_a_single_genus_or_union_member_is_an_error_and_a_differentia_alone_is_read(tmp_path, clauses, tag):
    """``intersection_of: cell`` alone made *heart cell* the same as *cell* (every cell classified under it),
    ``union_of`` one member the same as the member, without a word; OBO 1.4 asks for two or more. A
    differentia alone (``intersection_of: part_of EX:3``) is a class equivalent to the restriction."""
    head = ("format-version: 1.4\nontology: ex\n\n[Term]\nid: EX:1\nname: cell\n\n[Term]\nid: EX:3\nname: heart\n\n"
            "[Term]\nid: EX:4\nname: muscle cell\nis_a: EX:1\n\n[Term]\nid: EX:2\nname: heart cell\n")
    path = tmp_path / "ex.obo"
    path.write_text(head + clauses)
    with pytest.raises(SourceError) as raised:
        read_obo(str(path), Vocabulary(), SourceReport())
    assert str(raised.value).startswith(f"{path}:20: a single {tag} clause for EX:2 (expected two or more"), str(raised.value)
    path.write_text(head + "intersection_of: part_of EX:3\n\n[Typedef]\nid: part_of\nname: part of\n")
    assert "EX:2" in read_obo(str(path), Vocabulary(), SourceReport()).concepts


def test_a_name_given_twice_alike_is_no_second_name(tmp_path):
    """GO's slices (oaklib's go-nucleus.obo) give ten Typedefs ``name: part of`` and ``name: part_of``:
    one name (was: the file refused, "a second name clause"); so is a term's name written twice."""
    path = _obo(tmp_path, "[Term]\nid: EX:1\nname: leaf\nname: leaf\n\n[Term]\nid: EX:2\nname: blade\n"
                          "relationship: part_of EX:1\n\n[Typedef]\nid: part_of\nname: part of\nname: part_of\n"
                          "is_transitive: true\n")
    data = read_obo(str(path), Vocabulary(), SourceReport())
    assert data.concepts["EX:1"].label == "leaf"
    assert data.relation_info["part_of"]["name"] == "part of" and data.relation_info["part_of"]["transitive"]
