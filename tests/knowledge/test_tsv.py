"""A taxonomy kept in a spreadsheet: concepts.tsv + edges.tsv (or .csv)."""
import shutil

import pytest

from mcqa_probes.builders.ontology_templates import relation_phrase
from mcqa_probes.knowledge.ontology import SourceError, SourceReport, Vocabulary
from mcqa_probes.knowledge.source import load_source
from mcqa_probes.knowledge.tsv import read_tsv
from tests.conftest import FIXTURES

PRODUCTS = FIXTURES / "ontologies" / "products_tsv"


def read(directory):
    return read_tsv(str(directory), Vocabulary(), SourceReport())


def test_concepts_synonyms_parents_and_relations_are_read():
    data = read(PRODUCTS)
    assert data.format == "tsv" and data.name == "products_tsv" and len(data.concepts) == 16
    assert data.concepts["P:5"].synonyms == ["couch", "settee"] and data.concepts["P:5"].line == 6
    assert ("P:16", "P:4", 13) in data.parents
    assert ("P:15", "part_of", "P:11", 16) in data.links and ("P:15", "part_of", "P:12", 17) in data.links


def test_a_relation_named_as_a_curie_reads_as_a_skos_file_reads_it(tmp_path):
    """``skos:related`` in a table is SKOS's (*related to*, symmetric, as read from a SKOS file); another
    prefixed name loses its prefix (``ex:partOf`` reads *is part of* in a question)."""
    folder = tmp_path / "products"
    shutil.copytree(PRODUCTS, folder)
    text = (folder / "edges.tsv").read_text()
    (folder / "edges.tsv").write_text(text + "P:16\tskos:related\tP:5\nP:13\tex:partOf\tP:4\n")
    info = read(folder).relation_info
    assert info["skos:related"] == {"name": "related to", "transitive": False, "symmetric": True, "aliases": []}
    assert info["ex:partOf"]["name"] == "partOf" and relation_phrase(info["ex:partOf"]["name"]) == "is part of"
    assert relation_phrase(info["skos:related"]["name"]) == "is related to"
    assert info["part_of"]["name"] == "part of"


@pytest.mark.parametrize("name", ["is_a", "IS_A", "isa", "is a", "Is-A", "subClassOf", "sub_class_of",
                                  "rdfs:subClassOf", "broader", "skos:broader", "parent"])
def test_the_parent_relation_is_known_by_its_usual_names_whatever_the_spelling(tmp_path, name):
    """A spreadsheet's "is a" or "Is-A" is the hierarchy, as is_a (was, for those two: a relation link
    named "is a", and no hypernymy)."""
    folder = tmp_path / "products"
    shutil.copytree(PRODUCTS, folder)
    text = (folder / "edges.tsv").read_text()
    (folder / "edges.tsv").write_text(text.replace("\tis_a\t", f"\t{name}\t"))
    data = read(folder)
    assert ("P:16", "P:4", 13) in data.parents and len(data.parents) == len(read(PRODUCTS).parents)
    assert sorted({relation for _, relation, _, _ in data.links}) == ["part_of"]


def test_a_cell_quoted_whole_keeps_its_own_quotes_and_a_quote_inside_a_cell_is_read_as_written(tmp_path):
    folder = tmp_path / "products"
    shutil.copytree(PRODUCTS, folder)
    text = (folder / "concepts.tsv").read_text()
    (folder / "concepts.tsv").write_text(text.replace("P:4\tchair", 'P:4\t"""Pro"" chair"').replace("P:6\tstool", 'P:6\t5" stool'))
    data = read(folder)
    assert data.concepts["P:4"].label == '"Pro" chair' and data.concepts["P:6"].label == '5" stool'


def test_csv_files_with_quoted_cells_work_too(tmp_path):
    folder = tmp_path / "products"
    folder.mkdir()
    (folder / "concepts.csv").write_text('id,label,synonyms,definition\nA,thing,,"A thing, in general."\n'
                                         'B,chair,seat|stool,"A seat, with a back."\n')
    (folder / "edges.csv").write_text("child,relation,parent\nB,is_a,A\n")
    data = read(folder)
    assert data.concepts["B"].definition == "A seat, with a back." and data.parents == [("B", "A", 2)]


def test_csv_files_with_semicolons_as_spreadsheets_write_them_are_read_alike(tmp_path):
    folder = tmp_path / "products"
    folder.mkdir()
    (folder / "concepts.csv").write_bytes('\ufeffid;label;synonyms;definition\r\nA;thing;;"A thing; in general."\r\n'
                                          'B;chair;seat|stool;A seat, with a back.\r\n'.encode("utf-8"))
    (folder / "edges.csv").write_text("child;relation;parent\nB;is_a;A\n")
    data = read(folder)
    assert data.concepts["A"].definition == "A thing; in general." and data.concepts["B"].synonyms == ["seat", "stool"]
    assert data.concepts["B"].definition == "A seat, with a back." and data.parents == [("B", "A", 2)]


@pytest.mark.parametrize("name, old, new, line, what", [
    ("concepts.tsv", "P:6\tstool\t\tA seat without a back or arms.", "P:6\tstool\tA seat without a back or arms.", 7,
     "3 columns, expected 4"),
    ("concepts.tsv", "id\tlabel\tsynonyms\tdefinition", "id\tterm\tsynonyms\tdefinition", 1, "header is"),
    ("edges.tsv", "P:9\tis_a\tP:7", "P:9\tis_a", 9, "2 columns, expected 3"),
    # the edges' header error names no column of concepts.tsv (was: "deprecated, obsolete is read")
    ("edges.tsv", "child\trelation\tparent", "kid\trelation\tparent", 1,
     "header is kid, relation, parent; expected the columns child, relation, parent (in any order; then any "
     "others: ignored)"),
    # a row short of its (empty) definition cell: said which cells a row may leave out
    ("concepts.tsv", "P:6\tstool\t\tA seat without a back or arms.", "P:6\tstool\t", 7,
     "3 columns, expected 4 (id, label, synonyms, definition) (the cells of id, label, synonyms, definition are "
     "written, empty or not; only those of columns after them may be left out)"),
    ("concepts.tsv", "P:4\tchair", "P:3\tchair", 5, "P:3 is defined twice"),
    ("concepts.tsv", "P:6\tstool", "# checked by ann\nP:6\tstool", 7,
     "1 column, expected 4 (id, label, synonyms, definition) (a comment line? a table has none)"),
    # a quote opened and never closed takes in the rows after it: an error where it opens
    ("concepts.tsv", "P:6\tstool\t\tA seat", "P:6\tstool\t\t\"A seat", 7, "a quoted cell runs on to line"),
    ("concepts.tsv", "P:5\tsofa", "P:5\t\"sofa", 6, "a quoted cell runs on to line"),
    # on the last line: the quote takes no line more, and is still open at the end of the file
    ("concepts.tsv", "P:16\tarmchair\teasy chair\tA chair", "P:16\tarmchair\teasy chair\t\"A chair", 17,
     "a quoted cell runs on to the end of the file (line 17)"),
    ("edges.tsv", "P:15\tis_a\tP:1\n", "P:15\tis_a\t\"P:1\n", 20, "a quoted cell runs on to the end of the file"),
    # a cell that opens with a quote and goes on after it: the csv module would read '"Pro" chair' as 'Pro chair'
    ("concepts.tsv", "P:4\tchair", "P:4\t\"Pro\" chair", 5, "a cell opens with a quote (\") and goes on after"),
])
def test_a_malformed_table_is_an_error_naming_file_and_line(tmp_path, name, old, new, line, what):
    assert_error_at(tmp_path, name, old, new, line, what)


@pytest.mark.parametrize("stray_row", [0, 1, 3])
def test_a_stray_separator_in_a_row_whose_last_cell_is_empty_is_an_error_not_a_shift(tmp_path, stray_row):
    """``T2;hacksaw;A saw with a fine blade; for metal.;`` (a ``;`` inside the definition, the synonyms
    cell empty): one cell more than the other rows, its last one empty. It was read with the cells
    shifted, the definition's end taken as a synonym and asked; now an error at the row (or, the
    first row being the odd one, at the row after it, naming it). A file whose every row ends in one
    separator more is read as before."""
    folder = tmp_path / "tools"
    folder.mkdir()
    rows = [("T1", "saw", "A tool with a toothed blade, for wood."), ("T2", "hacksaw", "A saw with a fine blade, for metal."),
            ("T3", "jigsaw", "A saw with a thin blade, for curves."), ("T4", "handsaw", "A saw with a wide blade, for one hand.")]
    (folder / "edges.csv").write_text("child;relation;parent\nT2;is_a;T1\nT3;is_a;T1\nT4;is_a;T1\n")

    def write(lines):
        (folder / "concepts.csv").write_text("id;label;definition;synonyms\n" + "\n".join(lines) + "\n")

    write([f"{i};{label};{definition};;" for i, label, definition in rows])     # every row one ; more: as before
    assert read(folder).concepts["T3"].definition == "A saw with a thin blade, for curves." and not read(folder).concepts["T3"].synonyms
    write([f"{i};{label};{definition.replace(', for', '; for') if n == stray_row else definition};"
           for n, (i, label, definition) in enumerate(rows)])
    with pytest.raises(SourceError) as raised:
        read(folder)
    expected = (f"concepts.csv:{stray_row + 2}: 5 cells, where line 2 has 4" if stray_row else
                "concepts.csv:2: 5 cells, where the other rows have 4")
    assert expected in str(raised.value) and "a separator inside a cell" in str(raised.value), str(raised.value)


def test_a_concepts_table_with_a_header_and_no_rows_is_an_error_at_its_file(tmp_path):
    """(was: "no concepts left after reading and filtering", naming the folder and no line)"""
    folder = tmp_path / "products"
    shutil.copytree(PRODUCTS, folder)
    (folder / "concepts.tsv").write_text("id\tlabel\tsynonyms\tdefinition\n")
    with pytest.raises(SourceError) as raised:
        read(folder)
    assert str(raised.value) == (f"{folder / 'concepts.tsv'}:1: a header and no rows after it (expected one row per "
                                 "concept: id, label, synonyms, definition)")


def test_an_empty_label_column_beside_a_name_column_is_an_error_that_says_which_is_read(tmp_path):
    """A spreadsheet with both ``Name`` (filled) and ``Label`` (empty): the label column is read, so
    every concept had no label (was: "no concepts left after reading and filtering", naming the folder)."""
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "concepts.csv").write_text("Definition;Name;ID;Synonyms;Label\nA tool.;tool;T1;;\nA hand tool.;hand tool;T2;;\n")
    (folder / "edges.csv").write_text("child;relation;parent\nT2;is_a;T1\n")
    with pytest.raises(SourceError) as raised:
        read(folder)
    assert str(raised.value).startswith(f"{folder / 'concepts.csv'}:1: the label column is empty on every row")
    assert "a 'Name' column too" in str(raised.value)
    (folder / "concepts.csv").write_text("Definition;Name;ID;Synonyms\nA tool.;tool;T1;\nA hand tool.;hand tool;T2;\n")
    assert read(folder).concepts["T2"].label == "hand tool"


def assert_error_at(tmp_path, name, old, new, line, what, encoding="utf-8"):
    """The fixture with ``old`` replaced by ``new`` in ``name`` (written in ``encoding``) fails at ``line``."""
    folder = tmp_path / "products"
    shutil.copytree(PRODUCTS, folder)
    text = (folder / name).read_text()
    assert old in text
    (folder / name).write_bytes(text.replace(old, new, 1).encode(encoding))
    with pytest.raises(SourceError) as caught:
        read(folder)
    assert str(caught.value).startswith(f"{folder / name}:{line}: {what}")


def test_a_quote_never_closed_before_the_end_of_the_file_is_an_error_even_over_short_rows(tmp_path):
    """The rows taken in have too few cells to read as rows (an export that drops empty cells): the
    cell is still open at the end of the file, which no closed quote leaves."""
    folder = tmp_path / "products"
    shutil.copytree(PRODUCTS, folder)
    text = (folder / "concepts.tsv").read_text()
    old = "P:14\tcushion\tpillow\tA soft pad"
    assert old in text
    text = text.replace(old, 'P:14\tcushion\tpillow\t"A soft pad')
    text = text.replace("P:15\tlampshade\tshade\tA cover", "P:15\tlampshade").replace("P:16\tarmchair\teasy chair\t", "P:16\t")
    (folder / "concepts.tsv").write_text(text)
    with pytest.raises(SourceError) as caught:
        read(folder)
    assert str(caught.value).startswith(f"{folder / 'concepts.tsv'}:15: a quoted cell runs on to the end of the file "
                                        f"(line 17): a quote (\") opened here and never closed?")


def test_a_quoted_cell_with_line_breaks_is_read_and_its_row_named_by_its_first_line(tmp_path):
    folder = tmp_path / "products"
    shutil.copytree(PRODUCTS, folder)
    text = (folder / "concepts.tsv").read_text()
    old = "P:6\tstool\t\tA seat without a back or arms."
    assert old in text
    (folder / "concepts.tsv").write_text(text.replace(old, 'P:6\tstool\t\t"A seat without a back\nor arms."'))
    data = read(folder)
    assert data.concepts["P:6"].definition == "A seat without a back\nor arms." and data.concepts["P:6"].line == 7
    assert data.concepts["P:7"].line == 9          # the row after it: its own first line
    assert len(data.concepts) == 16
    # a CSV export: a cell over two lines with commas in it is a cell, not rows taken in
    (folder / "concepts.tsv").unlink()
    (folder / "concepts.csv").write_text('id,label,synonyms,definition\nA,thing,,"A thing,\nSteel, brass, nylon, titanium and more."\n'
                                         'B,chair,seat|stool,"A seat, with a back."\n')
    (folder / "edges.tsv").write_text("child\trelation\tparent\nB\tis_a\tA\n")
    data = read(folder)
    assert data.concepts["A"].definition == "A thing,\nSteel, brass, nylon, titanium and more." and data.concepts["B"].line == 4
    # a line of a cell that lists sizes: its first piece has a digit but is no id of the table's
    # (was: read as a row taken in, "a quote opened here and never closed?")
    (folder / "concepts.csv").write_text('id,label,synonyms,definition\nP:1,thing,,\nP:2,storage drive,,"A device that '
                                         'keeps data.\n512GB, 1TB, 2TB, 4TB models are stocked."\nP:3,chair,seat,A seat.\n')
    (folder / "edges.tsv").write_text("child\trelation\tparent\nP:2\tis_a\tP:1\nP:3\tis_a\tP:1\n")
    data = read(folder)
    assert data.concepts["P:2"].definition.endswith("\n512GB, 1TB, 2TB, 4TB models are stocked.")
    assert data.concepts["P:3"].line == 5
    # the same cell taking in a row whose id is shaped as the table's (TR-003 in row TR-002) is the error
    (folder / "concepts.csv").write_text('id,label,synonyms,definition\nTR-001,thing,,\nTR-002,drive,,"A device.\n'
                                         'TR-003,chair,seat,A seat.\nTR-004,sofa,,A long seat.\n')
    (folder / "edges.tsv").write_text("child\trelation\tparent\nTR-002\tis_a\tTR-001\n")
    with pytest.raises(SourceError, match=r"concepts.csv:3: a quoted cell runs on to line 5 and takes in whole rows"):
        read(folder)


def test_two_files_of_one_table_are_an_error_naming_both(tmp_path):
    """A ``concepts.csv`` saved beside the ``concepts.tsv`` (an export made again in another format):
    which one is the table is not guessed (was: the .tsv read without a word, the .csv's rows lost)."""
    folder = tmp_path / "products"
    shutil.copytree(PRODUCTS, folder)
    (folder / "concepts.csv").write_text((folder / "concepts.tsv").read_text().replace("\t", ","))
    with pytest.raises(SourceError, match=r"products: concepts.tsv and concepts.csv in the directory: which is the "
                                          r"concepts table\?"):
        read(folder)


def test_a_missing_table_or_a_file_instead_of_a_directory_says_what_is_expected(tmp_path):
    folder = tmp_path / "products"
    shutil.copytree(PRODUCTS, folder)
    (folder / "edges.tsv").unlink()
    with pytest.raises(SourceError, match="no edges.tsv .* child, relation, parent"):
        read(folder)
    with pytest.raises(SourceError, match="not a directory"):
        read(folder / "concepts.tsv")


def test_extra_columns_are_allowed_and_a_deprecated_column_is_read(tmp_path):
    folder = tmp_path / "products"
    folder.mkdir()
    (folder / "concepts.tsv").write_text("ID\tLabel\tSynonyms\tDefinition\tOwner\tDeprecated\n"
                                         "A\tthing\t\tA thing.\tann\tfalse\nB\tchair\t\tA seat.\tbob\ttrue\n")
    (folder / "edges.tsv").write_text("child\trelation\tparent\tnote\nB\tis_a\tA\tchecked\n")
    data = read(folder)
    assert list(data.concepts) == ["A"] and "B" in data.obsolete and data.parents == [("B", "A", 2)]


def test_a_deprecated_cell_in_a_spreadsheets_language_is_read_and_one_neither_true_nor_false_is_an_error(tmp_path):
    """German Excel writes TRUE as ``WAHR`` (was: read as "not deprecated", the concept asked); a cell
    that is neither true nor false, as the end of a definition pushed over by a stray ``;``, is an
    error at its row (was: the definition cut short without a word)."""
    folder = tmp_path / "products"
    folder.mkdir()
    (folder / "concepts.csv").write_text("ID;Label;Synonyms;Definition;Deprecated;;\n"
                                         "A;thing;;A thing.;FALSCH;;\nB;chair;;A seat.;WAHR;;\nC;stool;;A seat.;x;;\n"
                                         "D;bench;;A long seat.;;;\n")
    (folder / "edges.csv").write_text("child;relation;parent\nD;is_a;A\n")
    data = read(folder)
    assert list(data.concepts) == ["A", "D"] and data.obsolete == {"B", "C"}
    (folder / "concepts.csv").write_text("ID;Label;Synonyms;Definition;Deprecated;;\n"
                                         "A;thing;;A thing.;;;\nD;bench;;A long seat; for three.;;;\n")
    with pytest.raises(SourceError, match=r"concepts.csv:3: 8 cells, where line 2 has 7 .*a separator inside a cell"):
        read(folder)
    # the same push where no empty cell ends the rows: the deprecated cell says it
    (folder / "concepts.csv").write_text("ID;Label;Synonyms;Definition;Deprecated\n"
                                         "A;thing;;A thing.;\nD;bench;;A long seat; for three.\n")
    with pytest.raises(SourceError, match=r"concepts.csv:3: the deprecated cell holds 'for three.' \(expected true or false"):
        read(folder)


def test_a_table_not_in_utf8_is_an_error_naming_the_line_of_the_first_bad_byte(tmp_path):
    assert_error_at(tmp_path, "concepts.tsv", "P:4\tchair", "P:4\tchaise café", 5, "not UTF-8", encoding="latin-1")


@pytest.mark.parametrize("encoding, suffix", [("utf-16", ".txt"), ("utf-16-be", ".tsv"), ("utf-32", ".tsv")])
def test_a_table_saved_as_excels_unicode_text_is_read_as_the_utf8_one(tmp_path, encoding, suffix):
    """Excel's *Unicode Text* export (``.txt``: tab-separated UTF-16 with a byte order mark, Windows
    line ends): the same concepts, links and lines as the UTF-8 table; cut short (an odd byte count),
    an error at the line where it breaks."""
    folder = tmp_path / "products_tsv"
    folder.mkdir()
    bom = {"utf-16": b"", "utf-16-be": "\ufeff".encode("utf-16-be"), "utf-32": b""}[encoding]
    for name in ("concepts", "edges"):
        text = (PRODUCTS / f"{name}.tsv").read_text(encoding="utf-8").replace("\n", "\r\n").replace("sofa", "sofá")
        (folder / f"{name}{suffix}").write_bytes(bom + text.encode(encoding))
    expected, data = read(PRODUCTS), read(folder)
    assert data.concepts["P:5"].label == "sofá" and expected.concepts["P:5"].label == "sofa"
    data.concepts["P:5"].label = "sofa"
    assert data.concepts == expected.concepts and data.parents == expected.parents and data.links == expected.links
    if encoding == "utf-16":
        edges = (folder / "edges.txt").read_bytes()
        (folder / "edges.txt").write_bytes(edges[:-1])
        lines = len(edges.decode("utf-16").splitlines())        # the last line's newline is cut in half
        with pytest.raises(SourceError, match=rf"edges\.txt:{lines}: begins with a UTF-16 byte order mark but is "
                                              r"not UTF-16 \(truncated data\)"):
            read(folder)


def test_columns_are_found_by_name_and_a_spreadsheets_trailing_empty_cells_are_ignored(tmp_path):
    folder = tmp_path / "reordered"
    shutil.copytree(PRODUCTS, folder)
    rows = [line.split("\t") for line in (folder / "concepts.tsv").read_text().splitlines()]
    reordered = ["\t".join([row[1].upper() if i == 0 else row[1], row[0], row[3], row[2]]) + "\t" for i, row in enumerate(rows)]
    (folder / "concepts.tsv").write_text("\n".join(reordered) + "\n")     # label, id, definition, synonyms + an empty cell
    assert read(folder).concepts == read(PRODUCTS).concepts and len(read(folder).concepts) > 3


def test_compressed_tables_are_read_as_the_tables_inside(tmp_path):
    """concepts.tsv.gz and edges.tsv.bz2 (a taxonomy exported and compressed): the same data, and a
    fault inside one named with the compressed file and the line inside it."""
    import bz2
    import gzip

    folder = tmp_path / "products_tsv"
    folder.mkdir()
    (folder / "concepts.tsv.gz").write_bytes(gzip.compress((PRODUCTS / "concepts.tsv").read_bytes()))
    (folder / "edges.tsv.bz2").write_bytes(bz2.compress((PRODUCTS / "edges.tsv").read_bytes()))
    expected, data = read(PRODUCTS), read(folder)
    assert data.concepts == expected.concepts and data.parents == expected.parents and data.links == expected.links
    assert all(line.path == str(folder / "edges.tsv.bz2") for _, _, line in data.parents)
    lines = (PRODUCTS / "concepts.tsv").read_text().split("\n")
    lines[3] += "\textra cell"
    (folder / "concepts.tsv.gz").write_bytes(gzip.compress("\n".join(lines).encode()))
    with pytest.raises(SourceError, match=r"concepts\.tsv\.gz:4: "):
        read(folder)
    (folder / "concepts.tsv.gz").write_bytes(gzip.compress("\n".join(lines).encode("latin-1", "replace")
                                                           .replace(b"couch", b"c\xf6uch")))
    with pytest.raises(SourceError, match=r"concepts\.tsv\.gz:\d+: not UTF-8"):
        read(folder)


def test_headers_as_spreadsheets_write_them_and_rows_without_their_empty_optional_cells_are_read(tmp_path):
    """``Name`` for label, ``Synonym`` for synonyms, a remark in parentheses after a name (was: each
    an error "expected the columns ..."); a row that leaves out the empty cells of optional columns
    at its end (an export that trims them) is read as if it had them; a row missing a required
    column is still an error at its line."""
    folder = tmp_path / "products"
    shutil.copytree(PRODUCTS, folder)
    rows = (folder / "concepts.tsv").read_text().splitlines()
    rows[0] = " ID \tName\tSynonym (pipe-separated)\tDefinition (one sentence)\tDeprecated"
    rows[1:] = [row + ("\tfalse" if number % 2 else "") for number, row in enumerate(rows[1:])]
    (folder / "concepts.tsv").write_text("\n".join(rows) + "\n")
    assert read(folder).concepts == read(PRODUCTS).concepts
    rows[3] = "\t".join(rows[3].split("\t")[:2])                # P:3 seating: no synonyms, no definition
    (folder / "concepts.tsv").write_text("\n".join(rows) + "\n")
    with pytest.raises(SourceError, match=r"concepts.tsv:4: 2 columns, expected 5 \(id, label, synonyms, definition, "
                                          r"deprecated\)"):
        read(folder)
    # a row that lost a separator in the middle, its deprecated cell now under definition: shifted, an error
    cells = rows[4].split("\t")
    rows[3] = "\t".join([cells[0], cells[1], cells[3] or "A thing.", "FALSE"])
    (folder / "concepts.tsv").write_text("\n".join(rows) + "\n")
    with pytest.raises(SourceError, match=r"concepts.tsv:4: 4 columns, expected 5 \(id, label, synonyms, definition, "
                                          r"deprecated\): the last cell, 'FALSE' under definition, reads as a "
                                          r"deprecated value"):
        read(folder)
    # two columns that name one (a label per language), and a remark that says another separator: errors
    for header, what in [("id\tLabel (fr)\tLabel (en)\tsynonyms\tdefinition", "label is named by 2 columns"),
                         ("id\tlabel\tSynonyms (comma-separated)\tdefinition",
                          r"the header says 'Synonyms \(comma-separated\)' \(expected synonyms separated by \|")]:
        cells = header.count("\t") + 1
        (folder / "concepts.tsv").write_text(header + "\nA\t" + "\t".join(["x"] * (cells - 1)) + "\n")
        with pytest.raises(SourceError, match=rf"concepts.tsv:1: .*{what}"):
            read(folder)
    # a table with both a label and a name column keeps label; name is an extra column
    (folder / "concepts.tsv").write_text("id\tlabel\tsynonyms\tdefinition\tname\nA\tthing\t\tA thing.\tThing\n")
    (folder / "edges.tsv").write_text("child\trelation\tparent\n")
    assert read(folder).concepts["A"].label == "thing"


def test_excels_sep_line_names_the_separator_and_is_no_header(tmp_path):
    """Excel writes ``sep=;`` as a CSV's first line when asked to keep the separator: it is read as the
    separator, and the header is the next line (was: "header is sep=" with the columns garbled)."""
    rows = [("A", "animal", "", "A living being that moves."), ("B", "dog", "hound", "A domestic animal, it barks."),
            ("C", "cat", "", "A small domestic animal that purrs.")]
    plain, hinted = tmp_path / "plain", tmp_path / "hinted"
    for folder, head in ((plain, ""), (hinted, "sep=;\r\n")):
        folder.mkdir()
        (folder / "concepts.csv").write_text(head + "id;label;synonyms;definition\r\n" + "".join(
            ";".join(f'"{cell}"' if "," in cell else cell for cell in row) + "\r\n" for row in rows), encoding="utf-8-sig")
        (folder / "edges.csv").write_text(head + "child;relation;parent\r\nB;is_a;A\r\nC;is_a;A\r\n", encoding="utf-8")
    first, second = load_source(plain, format="tsv"), load_source(hinted, format="tsv")
    assert first.concepts == second.concepts and list(second.hypernyms("B")) == ["A"]
    assert second["B"].definition == "A domestic animal, it barks."
    (hinted / "concepts.csv").write_text("sep=;\nid;name\n", encoding="utf-8")
    with pytest.raises(SourceError, match=r"concepts\.csv:2: header is id, name; expected the columns"):
        load_source(hinted, format="tsv")


def test_under_a_header_with_empty_cells_at_its_end_a_row_short_of_a_cell_or_with_one_more_is_an_error(tmp_path):
    """An export whose header and rows end in two empty cells (``id,label,synonyms,definition,,``): a row
    that lost a separator in the middle has 5 cells, not 6, and was read with its cells shifted (the
    definition taken for part of a synonym); a row with a cell under the empty columns is counted as
    the file holds its cells (was: "5 columns, expected 4" for a row of 7 cells)."""
    rows = ["id,label,synonyms,definition,,", "art:0,art,,The making of things of beauty.,,",
            "art:1,painting,picture,A picture made with paint.,,", "art:2,fresco,wall painting,A painting on wet plaster.,,",
            "art:3,etching,,A print from a bitten plate.,,"]
    folder = tmp_path / "art"
    folder.mkdir()
    (folder / "edges.csv").write_text("child,relation,parent\nart:1,is_a,art:0\nart:2,is_a,art:1\nart:3,is_a,art:0\n")
    (folder / "concepts.csv").write_text("\n".join(rows) + "\n")
    assert read(folder).concepts["art:2"].definition == "A painting on wet plaster."
    short = rows[:3] + ["art:2,fresco,wall painting A painting on wet plaster.,,"] + rows[4:]
    (folder / "concepts.csv").write_text("\n".join(short) + "\n")
    with pytest.raises(SourceError) as caught:
        read(folder)
    assert str(caught.value) == (f"{folder / 'concepts.csv'}:4: 5 cells, where the header and line 2 have 6 (id, label, "
                                 "synonyms, definition and 2 empty columns after them; expected the same number of "
                                 "separators on every row: a separator lost inside a row shifts the cells after it)")
    extra = rows[:3] + ["art:2,fresco,wall painting,A painting on wet plaster.,oops,,"] + rows[4:]
    (folder / "concepts.csv").write_text("\n".join(extra) + "\n")
    with pytest.raises(SourceError, match=r"concepts\.csv:4: 7 cells, where the header has 6 \(id, label, synonyms, "
                                          r"definition and 2 empty columns after them\): 'oops' is under no column"):
        read(folder)


def test_a_flag_joined_to_the_last_cell_and_a_header_with_another_separator_are_errors_that_say_so(tmp_path):
    """``shop:Walkman;Walkman;;A portable cassette player.TRUE`` (the separator before the deprecated
    cell lost): the deprecated row was read as live, its definition ending in TRUE. A header with
    commas over rows with semicolons said only "1 column, expected 5"."""
    folder = tmp_path / "shop"
    folder.mkdir()
    (folder / "edges.csv").write_text("child;relation;parent\ns:2;is_a;s:1\ns:3;is_a;s:1\n")
    rows = ["id;label;synonyms;definition;deprecated", "s:1;device;;A thing made for a purpose.;FALSE",
            "s:2;radio;;A device that receives broadcasts.;FALSE", "s:3;walkman;;A portable cassette player.;TRUE"]
    (folder / "concepts.csv").write_text("\r\n".join(rows) + "\r\n", encoding="utf-8-sig")
    assert "s:3" in read(folder).obsolete and "s:3" not in read(folder).concepts      # deprecated: skipped
    glued = rows[:3] + ["s:3;walkman;;A portable cassette player.TRUE"]
    (folder / "concepts.csv").write_text("\r\n".join(glued) + "\r\n", encoding="utf-8-sig")
    with pytest.raises(SourceError) as caught:
        read(folder)
    assert str(caught.value).startswith(f"{folder / 'concepts.csv'}:4: 4 columns, expected 5 (id, label, synonyms, "
                                        "definition, deprecated): the last cell, under definition, ends in 'TRUE'"), \
        str(caught.value)
    (folder / "concepts.csv").write_text("\r\n".join([rows[0].replace(";", ",")] + rows[1:]) + "\r\n", encoding="utf-8-sig")
    with pytest.raises(SourceError) as caught:
        read(folder)
    assert str(caught.value).endswith("concepts.csv:2: 1 column, expected 5 (id, label, synonyms, definition, deprecated) "
                                      "(the header is separated by commas, this row by semicolons: expected one "
                                      "separator throughout)"), str(caught.value)
    with pytest.raises(SourceError, match="no such file or directory"):
        read(tmp_path / "missing")


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_a_utf16_table_saved_without_its_byte_order_mark_is_read(tmp_path, encoding):
    """Excel's *Unicode Text* without the mark: the header's letters each beside a NUL byte (was: "not
    UTF-8" at the first letter past ASCII)."""
    folder = tmp_path / "utf16"
    shutil.copytree(PRODUCTS, folder)
    for name in ("concepts", "edges"):
        text = (PRODUCTS / f"{name}.tsv").read_text(encoding="utf-8").replace("couch", "cañapé")
        (folder / f"{name}.tsv").unlink()
        (folder / f"{name}.txt").write_bytes(text.encode(encoding))
    data, expected = read(folder), read(PRODUCTS)
    assert sorted(data.concepts) == sorted(expected.concepts)
    assert [edge[:2] for edge in data.parents] == [edge[:2] for edge in expected.parents]
    assert any("cañapé" in (c.label or "") + " ".join(c.synonyms) + (c.definition or "") for c in data.concepts.values())


def test_a_tables_hierarchy_spellings_lists_in_cells_and_edges_written_with_labels(tmp_path):
    """``child of`` / ``kind of`` rows were read as a relation nobody asked (the concept lost its parent,
    nothing said); synonyms one a line in a cell (Alt+Enter) were glued into one name; a cell of names
    parted by commas is counted; an edges file written with the labels dropped every edge as "never
    defined"; a relation's rows that no probe asks are counted."""
    folder = tmp_path / "shop"
    folder.mkdir()
    (folder / "concepts.tsv").write_text(
        "id\tlabel\tsynonyms\tdefinition\nP:1\tfurniture\t\tThings for a room.\nP:2\tchair\t\tA seat for one.\n"
        'P:3\tarmchair\t"easy chair\nclub chair"\tA chair with arms.\nP:4\tstool\tbar stool, tall stool\tA seat without a back.\n'
        "P:5\tleg\t\tA support.\n")
    (folder / "edges.tsv").write_text("child\trelation\tparent\nP:2\tchild of\tP:1\nP:3\tis a kind of\tP:2\n"
                                      "P:4\tkind of\tP:1\nP:5\tpart of\tP:2\n")
    data = read(folder)
    assert sorted((c, p) for c, p, _ in data.parents) == [("P:2", "P:1"), ("P:3", "P:2"), ("P:4", "P:1")]
    assert data.concepts["P:3"].synonyms == ["easy chair", "club chair"]
    graph = load_source(folder)
    report = graph.provenance["report"]
    assert report.examples["comma_synonym"] == [f"{folder / 'concepts.tsv'}:6 P:4 'bar stool, tall stool'"]
    assert report.examples["relation_not_asked"] == [f"{folder / 'edges.tsv'}:5 part_of (1)"]
    assert "relation_not_asked" not in load_source(folder, relations=["part_of"]).provenance["report"].counts
    (folder / "edges.tsv").write_text("child\trelation\tparent\nchair\tis_a\tfurniture\n")
    with pytest.raises(SourceError) as caught:
        read(folder)
    assert str(caught.value) == (f"{folder / 'edges.tsv'}:2: 'chair' is the label of P:2, not an id (expected the ids of "
                                 "concepts.tsv in child and parent)")


def test_of_two_spellings_of_a_synonym_by_case_the_lower_case_one_is_kept():
    """``statement|Statement`` on *account statement*: every choice of the concept read "Statement", a
    capital among lower-case choices (a cue); the lower-case spelling is kept (the Sequence Ontology's
    *large retrotransposon derivative*, not *Large Retrotransposon Derivative*)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "concepts.tsv").write_text("id\tlabel\tsynonyms\tdefinition\nB:1\tdocument\t\tA written record.\n"
                                             "B:2\taccount statement\tStatement|statement\tA list of an account's moves.\n")
        (folder / "edges.tsv").write_text("child\trelation\tparent\nB:2\tis_a\tB:1\n")
        assert load_source(folder)["B:2"].lemmas == ("account statement", "statement")
