"""A taxonomy kept in a spreadsheet: a directory with ``concepts.tsv`` and ``edges.tsv`` (or ``.csv``,
either maybe compressed: ``concepts.tsv.gz``), read with the standard ``csv`` module: UTF-8 (a byte
order mark or none), or UTF-16 after its byte order mark (Excel's *Unicode Text* export).

A ``.txt`` table is tab-separated (Excel's *Text (Tab delimited)* and *Unicode Text* exports).
``concepts.tsv``: a header ``id, label, synonyms, definition``, then one row per concept (in a ``.csv``
the cells are separated by commas, or by semicolons as spreadsheets export them where the decimal
mark is a comma: the header line tells which); synonyms
are separated by ``|``. ``edges.tsv``: a header ``child, relation, parent``; a relation ``is_a``
(also ``isa``, ``is a``, ``is-a``, ``subClassOf``, ``sub_class_of``, ``rdfs:subClassOf``, ``broader``,
``skos:broader``, ``parent``: any case, spaces, hyphens and underscores aside) is the parent
relation, any other one (``part_of``) a named relation link, one relation however the rows spell it
(``part_of``, ``Part of``, ``part-of``: the first spelling is its id; the others are counted). A row with another number of columns,
a missing header, an empty id, a quote never closed (its cell takes in the rows after it) or a cell
that opens with a quote and goes on after it closes (``"Pro" keyboard``, which the ``csv`` module
reads as ``Pro keyboard``) is a :class:`~mcqa_probes.knowledge.ontology.SourceError` ``FILE:LINE`` (a row's first line). The columns are found by name (in any order, any case); other columns are allowed: a
concept whose ``deprecated`` / ``obsolete`` column is ``true`` (``1``, ``yes``, ``x``, a spreadsheet's
TRUE in its language: ``WAHR``, ``VRAI``) is skipped, a value that is neither true nor false an
error at its row; any other extra column is
ignored; empty cells past the header's end (a spreadsheet's export) are ignored, and a row that
leaves out the empty cells of optional columns at its end is read as if it had them. A header names
a column in any case, with a remark in parentheses after it (``Synonyms (pipe-separated)``), and
``Name`` / ``Synonym`` stand for ``label`` / ``synonyms``.
"""
import codecs
import csv
import io
import re
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from mcqa_probes.knowledge.identifiers import normalise, relation_name
from mcqa_probes.knowledge.ontology import (
    COMPRESSIONS, Line, RawConcept, SourceData, SourceError, SourceReport, Vocabulary, inner_suffix, is_compressed,
    not_utf8, source_bytes,
)
from mcqa_probes.knowledge.rdf import SKOS_RELATIONS
from mcqa_probes.knowledge.text import letters

CONCEPT_COLUMNS = ("id", "label", "synonyms", "definition")
EDGE_COLUMNS = ("child", "relation", "parent")
#: the parent relation's names, as :func:`~mcqa_probes.knowledge.text.letters` writes them
PARENT_RELATIONS = {"isa", "subclassof", "rdfs:subclassof", "broader", "skos:broader", "parent",
                    # as a table's author writes it (was: read as a relation nobody asked, the rows lost)
                    "childof", "isakindof", "kindof", "isatypeof", "typeof", "subtypeof", "inheritsfrom", "subclass",
                    "subcategoryof", "subcategory"}
OPTIONAL_COLUMNS = ("deprecated", "obsolete")
#: what a ``deprecated`` / ``obsolete`` cell may hold, in the languages a spreadsheet writes TRUE and
#: FALSE in (German Excel's ``WAHR``, French ``VRAI``, Dutch ``WAAR``, ...), lower case
FLAG_TRUE = frozenset({"true", "1", "yes", "y", "x", "t", "deprecated", "obsolete", "wahr", "ja", "vrai", "oui",
                       "verdadero", "si", "sí", "waar", "vero", "verdadeiro", "sim"})
FLAG_FALSE = frozenset({"", "false", "0", "no", "n", "f", "-", "falsch", "nein", "faux", "non", "falso", "onwaar",
                        "nee", "não", "nao"})


#: a table's suffixes, in the order they are looked for: ``.txt`` is tab-separated, as Excel saves
#: *Text (Tab delimited)* and *Unicode Text*
TABLE_SUFFIXES = (".tsv", ".csv", ".txt")
#: the suffixes of tab-separated tables (the others are comma- or semicolon-separated)
TAB_SEPARATED = (".tsv", ".txt")


def table_path(directory: Path, stem: str) -> Path:
    """``stem.tsv``, ``stem.csv`` or ``stem.txt`` in ``directory``, or one compressed (``concepts.tsv.gz``);
    two of them (a ``concepts.csv`` saved beside the ``concepts.tsv``) are an error: which one is
    the table is not for the reader to guess."""
    found = [directory / f"{stem}{suffix}"
             for suffix in (*TABLE_SUFFIXES, *(f"{table}{packed}" for packed in COMPRESSIONS for table in TABLE_SUFFIXES))
             if (directory / f"{stem}{suffix}").is_file()]
    if len(found) > 1:
        raise SourceError(str(directory), f"{' and '.join(path.name for path in found)} in the directory: which is the "
                                          f"{stem} table? (expected one {stem} file; move the others out)")
    if found:
        return found[0]
    raise SourceError(str(directory), f"no {stem}.tsv (or {stem}.csv, {stem}.txt) in the directory (expected {stem}.tsv "
                      f"with the columns {', '.join(CONCEPT_COLUMNS if stem == 'concepts' else EDGE_COLUMNS)})")


def table_encoding(head: bytes) -> str:
    """How a table whose first bytes are ``head`` is decoded: ``utf-16`` (or ``utf-32``) after that
    encoding's byte order mark, as Excel's *Unicode Text* export writes it (tab-separated UTF-16, the
    way older Excel keeps non-ASCII letters), or without it where the header's letters stand beside NUL
    bytes, else ``utf-8-sig`` (UTF-8, a byte order mark or none)."""
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    # UTF-16 saved without its byte order mark: a header's letters each beside a NUL byte, which no UTF-8
    # table holds (was: "not UTF-8" at the first letter past ASCII)
    if len(head) >= 4 and head[1] == head[3] == 0 and head[0] and head[2]:
        return "utf-16-le"
    if len(head) >= 4 and head[0] == head[2] == 0 and head[1] and head[3]:
        return "utf-16-be"
    return "utf-8-sig"


def _not_decodable(path: Path, encoding: str) -> SourceError:
    """The error for a table that begins with a UTF-16 (or UTF-32) byte order mark and breaks that
    encoding further on (cut short: an odd number of bytes), at the line of the fault."""
    data = source_bytes(path)
    try:
        data.decode(encoding)
        line, reason = None, "cannot be decoded"
    except UnicodeDecodeError as error:
        line = data[:error.start].decode(encoding, errors="replace").count("\n") + 1
        reason = error.reason
    name = encoding.upper()
    return SourceError(str(path), f"begins with a {name} byte order mark but is not {name} ({reason}); "
                                  "expected a UTF-8 or UTF-16 table", line)


def _rows(path: Path, columns: Tuple[str, ...]):
    """``(line, row, extra)`` after checking the header; ``extra`` maps optional columns to values."""
    try:
        if is_compressed(path):
            data = source_bytes(path)
            encoding = table_encoding(data[:4])
            handle = io.TextIOWrapper(io.BytesIO(data), encoding=encoding, newline="")
        else:
            with open(path, "rb") as peek:
                encoding = table_encoding(peek.read(4))
            handle = open(path, encoding=encoding, newline="")
    except OSError as error:
        raise SourceError(str(path), f"cannot be read ({error.strerror})") from None
    with handle:
        raw: List[str] = []          # the lines of the row being read (a row may take several)

        def lines():
            for line in handle:
                raw.append(line)
                yield line

        try:
            separator = "\t"
            if inner_suffix(path) in TAB_SEPARATED:
                reader = csv.reader(lines(), dialect="excel-tab")
            else:
                first = handle.readline()
                handle.seek(0)
                # Excel's first line "sep=;" names the separator (and is no header); else a spreadsheet
                # in a language with decimal commas exports its CSV with semicolons
                hint = re.fullmatch(r"\ufeff?sep=(.)", first.rstrip("\r\n"))
                separator = hint.group(1) if hint else ";" if first.count(";") > first.count(",") else ","
                reader = csv.reader(lines(), dialect="excel", delimiter=separator)
                if hint:
                    next(reader)
            header = next(reader, None)
            if header is None:
                raise SourceError(str(path), f"empty file (expected a header {', '.join(columns)})", reader.line_num or 1)
            header_line = reader.line_num
            names = _column_names(header, columns)
            while names and not names[-1]:       # a spreadsheet's empty last header cells
                names.pop()
            spare = len(header) - len(names)     # as many empty cells end every row of such an export
            style: Optional[Tuple[int, int]] = None     # (empty cells past the header, line) of the first row with more
            full: Optional[int] = None      # under a header with empty cells at its end: the first row as wide, its line
            plain: Optional[Tuple[int, int]] = None     # (cells, line) of the first row without
            twice = sorted({name for name in columns if names.count(name) > 1})
            if twice:
                raise SourceError(str(path), f"header is {', '.join(header)!s}: {twice[0]} is named by "
                                             f"{names.count(twice[0])} columns (expected one column of each name)", header_line)
            separated = next((cell for cell, name in zip(header, names) if name == "synonyms"
                              and re.search(r"\((?=[^)]*(?:comma|semicolon|[,;]\s*-?\s*separated))", cell, re.I)), None)
            if separated:
                raise SourceError(str(path), f"the header says {separated.strip()!r} (expected synonyms separated "
                                             "by | in one cell)", header_line)
            missing = [column for column in columns if column not in names]
            if missing:
                # the optional columns read are the concepts' (edges.tsv reads none: was named there too)
                others_read = (f"{', '.join(OPTIONAL_COLUMNS)} is read, the rest ignored" if columns == CONCEPT_COLUMNS
                               else "ignored")
                raise SourceError(str(path), f"header is {', '.join(header)!s}; expected the columns "
                                             f"{', '.join(columns)} (in any order; then any others: {others_read})",
                                  header_line)
            where = [names.index(column) for column in columns]
            others = [(index, name) for index, name in enumerate(names) if name not in columns]
            ended = reader.line_num            # the line the previous row ended on
            del raw[:]
            for row in reader:
                start, ended = ended + 1, reader.line_num
                row_lines = raw[:]
                del raw[:]
                if not row or not any(cell.strip() for cell in row):
                    continue
                # a row over several lines, or one with a quote (a quote opened on the last line runs on
                # to the end of the file without taking a line more)
                if ended > start or '"' in row_lines[0]:
                    _check_cells_across_lines(path, row, start, ended, reader.dialect, len(names), where[0], row_lines)
                cells = len(row)
                if spare and cells == len(header) and full is None:
                    full = start
                elif full is not None and cells < len(header):
                    # every row of such an export is as wide as its header: one short of a cell lost a
                    # separator, and the cells after it are shifted (a definition read as a synonym)
                    raise SourceError(str(path), f"{cells} cells, where the header and line {full} have {len(header)} "
                                                 f"({', '.join(names)} and {_empty_columns(spare)} after them; expected "
                                                 "the same number of separators on every row: a separator lost inside "
                                                 "a row shifts the cells after it)", start)
                while len(row) > len(names) and not row[-1].strip():     # Excel's trailing empty cells
                    row = row[:-1]
                past = cells - len(row)
                if past > spare:
                    # a row ending in separators past the header (each row of a file written so has as
                    # many) or one with a stray separator inside a cell, its last cell empty: the cells
                    # after the separator are shifted, and only rows ending otherwise than the others tell
                    if style is None and plain is not None:
                        raise SourceError(str(path), f"{cells} cells, where line {plain[1]} has {plain[0]} (expected "
                                                     f"{len(names)} columns, {', '.join(names)}, and the same number "
                                                     "of separators on every row: a separator inside a cell that is "
                                                     "not quoted shifts the cells after it)", start)
                    if style is None:
                        style = (past, start)
                    elif past != style[0]:
                        raise SourceError(str(path), f"{cells} cells where line {style[1]} has {len(names) + style[0]} "
                                                     f"(expected {len(names)} columns, {', '.join(names)}, and the same "
                                                     "number of separators on every row: a separator inside a cell "
                                                     "that is not quoted shifts the cells after it)", start)
                elif style is not None and style[0] > spare:
                    raise SourceError(str(path), f"{len(names) + style[0]} cells, where the other rows have "
                                                 f"{cells} (expected {len(names)} columns, {', '.join(names)}: a "
                                                 "separator inside a cell that is not quoted shifts the cells after "
                                                 "it)", style[1])
                elif plain is None:
                    plain = (cells, start)
                if max(where) < len(row) < len(names):      # an export that leaves out empty cells at the end:
                    _refuse_shifted_flag(path, row, names, start)
                    row = row + [""] * (len(names) - len(row))      # only optional columns are missing
                if len(row) != len(names):
                    comment = " (a comment line? a table has none)" if row[0].lstrip().startswith("#") else ""
                    other = next((mark for mark in "\t;," if mark != separator
                                  and row[0].count(mark) >= len(names) - 1), None) if len(row) == 1 else None
                    if other is not None and not comment:
                        # a header written with commas over rows with semicolons (two exports joined)
                        shown = {"\t": "tabs", ";": "semicolons", ",": "commas"}
                        comment = (f" (the header is separated by {shown[separator]}, this row by {shown[other]}: "
                                   "expected one separator throughout)")
                    if not comment and len(row) < len(names):
                        # a cell of the required columns is written, empty or not (a row short of one may
                        # have lost a separator in the middle: which cell is missing is not known)
                        comment = (f" (the cells of {', '.join(columns)} are written, empty or not; only those of "
                                   f"columns after them may be left out)")
                    if spare and len(row) > len(names):
                        # a cell written under the header's empty columns: counted as the file holds them
                        raise SourceError(str(path), f"{cells} cells, where the header has {len(header)} ({', '.join(names)} "
                                                     f"and {_empty_columns(spare)} after them): {row[len(names)].strip()!r} "
                                                     "is under no column (expected the cells of the header's columns; a "
                                                     "separator inside a cell that is not quoted shifts the cells after it)",
                                          start)
                    raise SourceError(str(path), f"{len(row)} column{'s' if len(row) != 1 else ''}, expected "
                                                 f"{len(names)} ({', '.join(names)}){comment}", start)
                yield (Line(start, str(path)), [row[index].strip() for index in where],
                       {name: row[index] for index, name in others})
        except csv.Error as error:
            raise SourceError(str(path), f"not a valid table ({error})", reader.line_num) from None
        except UnicodeDecodeError:
            if encoding == "utf-8-sig":
                raise not_utf8(str(path), "a UTF-8 table (save it as 'UTF-8' from the spreadsheet)") from None
            raise _not_decodable(path, encoding) from None


def _empty_columns(count: int) -> str:
    return f"{count} empty column{'s' * (count != 1)}"


#: the words of :data:`FLAG_TRUE` / :data:`FLAG_FALSE` that no label or definition is (*TRUE*, *FALSCH*;
#: not *x* or *no*)
_FLAG_WORDS = frozenset(word for word in FLAG_TRUE | FLAG_FALSE if len(word) >= 4)


#: a spreadsheet's TRUE / FALSE (in capitals, as it writes them) joined to the end of a cell, after
#: a character that is no capital letter nor a space ("player.TRUE", "cutleryFALSE")
_GLUED_FLAG = re.compile(r"(?<=[^\sA-Z])([A-Z]{4,})$")


def _refuse_shifted_flag(path, row: List[str], names: List[str], line: int) -> None:
    """A row short of a ``deprecated`` cell whose last cell, under another column, reads as one
    (``geo:beach, beach strand, A coastal feature..., FALSE`` under id, label, synonyms, definition,
    deprecated): a separator was lost in the middle, and the cells after it are shifted (the
    definition read as a synonym, *FALSE* as the definition). A :class:`SourceError` at its line."""
    missing = [name for name in names[len(row):] if name in OPTIONAL_COLUMNS]
    last, under = row[-1].strip(), names[len(row) - 1]
    if missing and under not in OPTIONAL_COLUMNS and last.lower() in _FLAG_WORDS:
        raise SourceError(str(path), f"{len(row)} columns, expected {len(names)} ({', '.join(names)}): the last "
                                     f"cell, {last!r} under {under}, reads as a {missing[0]} value (expected every "
                                     f"cell of the row; a separator lost in the middle shifts the cells after it)",
                          line)
    glued = _GLUED_FLAG.search(last)
    if missing and under not in OPTIONAL_COLUMNS and glued and glued.group(1).lower() in _FLAG_WORDS:
        # the separator before the flag lost: "A portable cassette player.TRUE" (was: read as the
        # definition, and a deprecated row kept)
        raise SourceError(str(path), f"{len(row)} columns, expected {len(names)} ({', '.join(names)}): the last "
                                     f"cell, under {under}, ends in {glued.group(1)!r} ({last[-40:]!r}), a {missing[0]} "
                                     "value joined to it (expected every cell of the row: the separator before it "
                                     "lost?)", line)


#: other names of the required columns, as spreadsheets head them
_COLUMN_ALIASES = {"name": "label", "synonym": "synonyms"}


def _column_names(header: List[str], columns: Tuple[str, ...]) -> List[str]:
    """The header's column names as the reader knows them: any case, spaces around, a remark in
    parentheses after the name (``Synonyms (pipe-separated)``), ``Name`` for ``label`` and ``Synonym``
    for ``synonyms`` where the table has no column of that name itself."""
    names = [re.sub(r"\s*\([^)]*\)$", "", cell.strip()).strip().lower() for cell in header]
    return [_COLUMN_ALIASES[name] if (name in _COLUMN_ALIASES and _COLUMN_ALIASES[name] in columns
                                      and _COLUMN_ALIASES[name] not in names) else name for name in names]


#: an identifier with a prefix (``P:2``, ``AN:0000011``, ``c_1234``, ``ex#Car``), not a word of a
#: sentence ("Steel", "Materials:")
_PREFIXED_ID = re.compile(r"[^\s:_#/]+[:_#/]\S+")


def _id_shape(text: str) -> str:
    """An identifier's shape: its runs of digits and of letters each as one (``TR-001`` and ``TR-17``
    are ``a-0``; ``512GB`` is ``0a``)."""
    return re.sub(r"[^\W\d_]+", "a", re.sub(r"\d+", "0", text.strip()))


def _reads_as_key(cell: str, own_key: str) -> bool:
    """Whether a line's key cell holds an identifier of the table's: one with a prefix, or one with a
    digit shaped as the row's own (``TR-002`` in a cell of row ``TR-001``; not "512GB, 1TB, ..." in a
    definition that lists sizes)."""
    cell = cell.strip()
    return bool(_PREFIXED_ID.fullmatch(cell)) or (any(c.isdigit() for c in cell) and " " not in cell
                                                   and _id_shape(cell) == _id_shape(own_key))


def _check_cells_across_lines(path: Path, row: List[str], start: int, ended: int, dialect, columns: int,
                              key: int, row_lines: List[str]) -> None:
    """A quoted cell may hold line breaks (a spreadsheet's export of a long definition, commas and all),
    but one with a line that reads as a whole row (the header's number of cells, an identifier in
    the key column, the id or the child of an edge, as :func:`_reads_as_key` tells) has taken in rows, and one still open at the
    end of the file (``row_lines``: the row's text, read again strictly) was never closed: a quote
    opened and never closed. An error at the row's first line (where the quote opens), not at the
    line the reader stopped on."""
    problem = None
    for cell in row:
        for line in cell.split("\n")[1:]:
            cells = line.split(dialect.delimiter)
            if len(cells) >= columns and _reads_as_key(cells[key], row[key] if key < len(row) else ""):
                problem = f"runs on to line {ended} and takes in whole rows"
    if problem is None:
        try:
            list(csv.reader(row_lines, dialect, strict=True))
        except csv.Error as error:
            if "unexpected end of data" in str(error):
                problem = f"runs on to the end of the file (line {ended})"
            elif "expected after" in str(error):
                # '"Pro" keyboard': the csv module drops the quotes and reads 'Pro keyboard' without a word
                raise SourceError(str(path), "a cell opens with a quote (\") and goes on after the closing one "
                                             "(expected a cell quoted whole, its own quotes doubled: "
                                             "\"\"\"Pro\"\" keyboard\", or no quote at its start)", start) from None
    if problem is not None:
        raise SourceError(str(path), f"a quoted cell {problem}: a quote (\") opened here and never closed? "
                                     f"(expected a row per line; a quote inside a cell is written \"\")", start)


def _flag(extra: Dict[str, str], column: str, path: Path, line: Line) -> bool:
    """Whether a row's ``deprecated`` / ``obsolete`` cell says so (:data:`FLAG_TRUE`); a cell that is
    neither true nor false (a definition's end pushed over by a stray separator: ``A road vehicle;
    for a few people.``) is an error at the row, not read as "not deprecated"."""
    value = extra.get(column, "").strip().lower()
    if value in FLAG_TRUE:
        return True
    if value not in FLAG_FALSE:
        cell = extra[column].strip()
        raise SourceError(str(path), f"the {column} cell holds {cell[:40]!r} (expected true or false, or empty; "
                                     f"a separator inside a cell that is not quoted shifts the cells after it)", line)
    return False


def read_tsv(directory: str, vocabulary: Vocabulary, report: SourceReport) -> SourceData:
    """Read a ``concepts.tsv`` + ``edges.tsv`` directory (see the module docstring)."""
    folder = Path(directory)
    if not folder.exists():
        raise SourceError(str(directory), "no such file or directory (expected a directory holding concepts.tsv "
                                          "and edges.tsv)")
    if not folder.is_dir():
        raise SourceError(str(directory), "not a directory (a TSV source is a directory holding concepts.tsv "
                                          "and edges.tsv)")
    concepts_path, edges_path = table_path(folder, "concepts"), table_path(folder, "edges")
    data = SourceData(path=str(folder), format="tsv", name=folder.name, version="unknown")
    labelled, named_otherwise = False, False      # a label on some row; a 'Name' column beside an empty 'Label'
    for line, (concept_id, label, synonyms, definition), extra in _rows(concepts_path, CONCEPT_COLUMNS):
        labelled = labelled or bool(label)
        named_otherwise = named_otherwise or bool(extra.get("name", "").strip())
        if not concept_id:
            raise SourceError(str(concepts_path), "empty id (expected an identifier in the first column)", line)
        concept_id = normalise(concept_id)
        if any(_flag(extra, column, concepts_path, line) for column in OPTIONAL_COLUMNS):
            data.obsolete.add(concept_id)
            if label:
                data.obsolete_labels.setdefault(label.strip().lower(), concept_id)
            report.add("obsolete", str(concepts_path), line, concept_id)
            continue
        if concept_id in data.concepts:
            raise SourceError(str(concepts_path), f"{concept_id} is defined twice (first on line "
                                                  f"{data.concepts[concept_id].line}; expected one row per concept)", line)
        # one synonym a line too, as a spreadsheet's line break in a cell writes a list (was: glued into one)
        names = [s.strip() for s in re.split(r"[|\r\n]+", synonyms) if s.strip()]
        if len(names) == 1 and ", " in names[0] and "|" not in synonyms:
            report.add("comma_synonym", str(concepts_path), line, f"{concept_id} '{names[0]}'")
        data.concepts[concept_id] = RawConcept(
            id=concept_id, label=label or None, definition=definition or None, line=line, synonyms=names)
    if not data.concepts and not data.obsolete:
        raise SourceError(str(concepts_path), "a header and no rows after it (expected one row per concept: "
                                              f"{', '.join(CONCEPT_COLUMNS)})", 1)
    if not labelled:
        hint = (": the table has a 'Name' column too, which is read as the label only where there is no label "
                "column (remove the empty one)" if named_otherwise else "")
        raise SourceError(str(concepts_path), f"the label column is empty on every row (expected a label per "
                                              f"concept){hint}", 1)
    spellings: Dict[str, str] = {}      # a relation's name as letters() writes it -> its first spelling
    labels: Dict[str, List[str]] = {}    # label -> ids, for an edge that names a label (made when needed)
    for line, (child, relation, parent), _extra in _rows(edges_path, EDGE_COLUMNS):
        if not child or not parent or not relation:
            raise SourceError(str(edges_path), "empty cell (expected child, relation and parent)", line)
        child, parent = normalise(child), normalise(parent)
        _refuse_label_as_id(edges_path, line, data, labels, child, parent)
        if letters(relation) in PARENT_RELATIONS or relation in vocabulary.parents:
            data.parents.append((child, parent, line))
        else:
            # one relation however a row spells it (part_of, Part of, part-of, partOf), as is_a is:
            # two relations would each miss the other's links in "exactly one correct answer"
            first = spellings.setdefault(letters(relation), relation)
            if first != relation:
                report.add("relation_spelling", str(edges_path), line, f"{relation} read as {table_relation_id(first)}")
            data.links.append((child, table_relation_id(first), parent, line))
    for relation in sorted({link[1] for link in data.links}):
        data.relation_info[relation] = relation_info(relation)
    return data


def _refuse_label_as_id(edges_path: Path, line, data: SourceData, labels: Dict[str, List[str]], *ends: str) -> None:
    """An edge whose child or parent is no id of the table but the label of one concept (an edges file
    written with the labels, ``deposit account`` for ``00101``): an error that says so (was: every
    edge dropped as "to a concept never defined", and no hierarchy). ``labels``: label -> ids, made
    at the first end that is no id."""
    for end in ends:
        if end in data.concepts:
            continue
        if not labels:
            for concept in data.concepts.values():
                if concept.label:
                    labels.setdefault(concept.label.strip(), []).append(concept.id)
        labelled = labels.get(end, [])
        if len(labelled) == 1:
            raise SourceError(str(edges_path), f"{end!r} is the label of {labelled[0]}, not an id (expected the ids "
                                               "of concepts.tsv in child and parent)", line)


def table_relation_id(spelling: str) -> str:
    """A table's relation by one id however its first row writes it: words in lower case joined by
    ``_`` (``Part Of``, ``part-of``, ``partOf``: ``part_of``), so that its probe folder and question ids
    do not follow a spreadsheet's capitals; a prefixed name or an IRI (``skos:related``,
    ``RO:0002131``) is its namespace's id, kept as written."""
    if ":" in spelling or "/" in spelling:
        return spelling
    return "_".join(part for part in re.split(r"[\s_-]+", _INNER_CAPITAL_JOIN.sub(" ", spelling)) if part).lower()


#: where a name written as code joins two words (``partOf``, ``hasPart2``)
_INNER_CAPITAL_JOIN = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def relation_info(relation: str) -> dict:
    """What a table says of a relation by its name alone: SKOS's own relations as a SKOS file reads
    them (``skos:related``: *related to*, symmetric), any other one by its name without its prefix (a
    table's prefix is a namespace's: ``ex:partOf``: *partOf*, made words by the question templates;
    an opaque id such as ``RO:0002131`` by its known name), neither transitive nor symmetric here (the
    source reader then reads by their names the ones that chain, ``part_of``, and the ones that go both
    ways, ``related to``: :data:`~mcqa_probes.knowledge.source.TRANSITIVE_BY_NAME`, ``SYMMETRIC_BY_NAME``)."""
    if relation in SKOS_RELATIONS:
        return dict(SKOS_RELATIONS[relation], aliases=[])
    name = relation_name(relation, prefixes=[relation.partition(":")[0]])
    return {"name": name, "transitive": False, "symmetric": False, "aliases": []}


def edge_file(directory: str) -> Optional[str]:
    try:
        return str(table_path(Path(directory), "edges"))
    except SourceError:
        return None
