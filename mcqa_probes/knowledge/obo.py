"""OBO 1.2 / 1.4 files into :class:`~mcqa_probes.knowledge.ontology.SourceData`, parsed by ``fastobo``
(the strict OBO 1.4 parser under ``pronto``).

Released ontologies break the grammar in clauses the probes never read: the Sequence Ontology of
2024-11-18 has a backslash in an ``xref`` URL (line 8859, where ``fastobo`` and so ``pronto`` 2.7 stop)
and a space inside a definition's cross-reference list (line 21831). A lenient parser (``obonet``)
reads such files but equally accepts a broken clause the build relies on. Here the strict parser
runs, and each error is judged by the clause it is in:

* a clause the build does not use (``xref``, ``date``, ``property_value``, ``comment``, header
  clauses, ...) is skipped: the line is blanked, so every line keeps its number, and it is counted
  with its line in the validity report (``skipped_clause``);
* a ``def`` or ``synonym`` clause whose only fault is its cross-reference list keeps its text and
  loses the list, or gets an empty one where it has none (``repaired_clause``);
* any other broken clause the build uses (``id``, ``name``, ``def``, ``synonym``, ``is_a``,
  ``relationship``, ``is_obsolete``, the logical definitions ``intersection_of``, ``union_of``,
  ``equivalent_to``, and a Typedef's ``is_transitive``, ``is_symmetric``, ``transitive_over``,
  ``holds_over_chain``, ``equivalent_to_chain``, ``domain``, ``range``, ``inverse_of``), or a line that is not a clause
  at all, is a :class:`~mcqa_probes.knowledge.ontology.SourceError` ``FILE:LINE: ...`` naming what was
  expected.

A logical definition (``intersection_of: G`` + ``intersection_of: R D``, ``union_of``,
``equivalent_to``) is read as what it entails (``SourceData.implied_parents`` / ``implied_links``):
closures for the validity checks, never answers, as from the OWL rendering of the same file. So are a
Typedef's ``is_a`` (a sub-relation), ``equivalent_to`` (each relation under the other), ``inverse_of``
(``x R y`` is ``y S x``), ``domain``
(a subject of the relation, or of one under it, is a kind of the domain) and ``range`` (an object is
in the range: ``SourceData.relation_ranges``).

The whole file is parsed at once; after a first error each frame is parsed alone, so a file with many
faulty lines costs one pass, not one per fault. Obsolete terms are skipped (``obsolete``), and an
``alt_id`` is counted apart (``alternative_id``), as from the OWL rendering, an edge to it going on
to its term. The
synonyms taken are the scopes of the vocabulary's synonym properties (``EXACT`` by default: a
``RELATED`` synonym is not another name for the concept).
"""
import re
from typing import Dict, List, Optional, Set, Tuple

from mcqa_probes.knowledge.entailment import super_relations
from mcqa_probes.knowledge.identifiers import curie, relation_name
from mcqa_probes.knowledge.ontology import (
    OBO_EQUIVALENTS, Line, RawConcept, SourceData, SourceError, SourceReport, Vocabulary, file_name, not_utf8,
    obsolete_synonym_type, ontology_name, own_name, respelling_synonym_type, source_bytes, without_own_name,
)

#: ``synonymtypedef: acronym`` (its quoted description left out; OBO 1.4 asks for one)
_BARE_SYNONYM_TYPE = re.compile(r'^synonymtypedef:\s*([^\s"!]+)\s*(?:!.*)?$')
#: OBO 1.0's synonym tags, each with its scope (OBO 1.2 writes ``synonym: "text" EXACT []``)
OLD_SYNONYM_TAGS = {"exact_synonym": "EXACT", "related_synonym": "RELATED", "narrow_synonym": "NARROW",
                    "broad_synonym": "BROAD"}
#: clauses the build reads; a broken one is an error
USED_CLAUSES = ("id", "name", "def", "synonym", "is_a", "relationship", "is_obsolete", "intersection_of",
                "union_of", "equivalent_to", "is_transitive", "is_symmetric", "transitive_over", "holds_over_chain",
                "equivalent_to_chain", "domain", "range", "inverse_of", "synonymtypedef") + tuple(OLD_SYNONYM_TAGS)
#: what each used clause should look like, for the error message
EXPECTED = {
    "id": "'id: PREFIX:LOCAL'",
    "name": "'name: <text>'",
    "def": "'def: \"<text>\" [<xrefs>]' with the text in double quotes",
    "synonym": "'synonym: \"<text>\" EXACT|RELATED|BROAD|NARROW [<xrefs>]'",
    "is_a": "'is_a: PREFIX:LOCAL'",
    "relationship": "'relationship: <relation id> PREFIX:LOCAL'",
    "is_obsolete": "'is_obsolete: true' or 'is_obsolete: false'",
    "intersection_of": "'intersection_of: PREFIX:LOCAL' or 'intersection_of: <relation id> PREFIX:LOCAL'",
    "union_of": "'union_of: PREFIX:LOCAL'",
    "equivalent_to": "'equivalent_to: PREFIX:LOCAL'",
    "is_transitive": "'is_transitive: true' or 'is_transitive: false'",
    "synonymtypedef": "'synonymtypedef: <id> \"<description>\"' and an optional scope (its type tells an obsolete "
                      "or respelled synonym)",
    "is_symmetric": "'is_symmetric: true' or 'is_symmetric: false'",
    "transitive_over": "'transitive_over: <relation id>'",
    "holds_over_chain": "'holds_over_chain: <relation id> <relation id>'",
    "equivalent_to_chain": "'equivalent_to_chain: <relation id> <relation id>'",
    "domain": "'domain: PREFIX:LOCAL'",
    "range": "'range: PREFIX:LOCAL'",
    "inverse_of": "'inverse_of: <relation id>'",
    **{tag: f"'{tag}: \"<text>\" [<xrefs>]'" for tag in OLD_SYNONYM_TAGS},
}
_TAG = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_-]*)\s*(:?)")
_QUOTED_HEAD = re.compile(r'^(\s*(?:def|synonym)\s*:\s*"(?:[^"\\]|\\.)*"(?:\s+[A-Za-z_]+)?(?:\s+[A-Za-z][\w:-]*)?)'
                          r'\s*(\[.*)?$')
_ID_CLAUSE = re.compile(r"^\s*id\s*:")
_UNESCAPED_QUOTE = re.compile(r'(?<!\\)(?:\\\\)*"')
#: a quoted text (escapes kept) and the tags whose value opens with one
_QUOTED_TEXT = r'"(?:[^"\\]|\\.)*"'
_QUOTE_TAGS = "|".join(("def", "synonym", *OLD_SYNONYM_TAGS))
_OPENS_QUOTE = re.compile(rf'^\s*({_QUOTE_TAGS})\s*:\s*"')
_CLOSES_QUOTE = re.compile(rf'^\s*(?:{_QUOTE_TAGS})\s*:\s*{_QUOTED_TEXT}')
#: ``exact_synonym: "text" [xrefs]`` and the other OBO 1.0 synonym tags
_OLD_SYNONYM = re.compile(rf'^\s*({"|".join(OLD_SYNONYM_TAGS)})\s*:\s*({_QUOTED_TEXT})(.*)$')
#: a quoted text of a ``def`` / ``synonym`` clause, up to its closing quote
_QUOTED = re.compile(rf'^(\s*(?:def|synonym)\s*:\s*)({_QUOTED_TEXT})(.*)$')
#: characters from Unicode's private use area that stand for an escaped backslash while fastobo parses
#: (it rejects a quoted text that ends in one, ``def: "C:\\" []``); the first one absent from the file
_BACKSLASH_STAND_INS = ("\ue000", "\ue001", "\ue002", "\uf8ff")


def _unterminated_quote(line: str) -> Optional[str]:
    """The tag of a ``def`` / ``synonym`` clause whose quoted text does not end on its line, else None."""
    opens = _OPENS_QUOTE.match(line)
    return opens.group(1) if opens and not _CLOSES_QUOTE.match(line) else None


def _unescaped(identifier: str) -> str:
    """An id as the file writes it: fastobo escapes the quotes of a quoted one (``\\"X:1\\"``)."""
    return identifier.replace('\\"', '"')


def _frames(lines: List[str]) -> List[Tuple[int, int]]:
    """``(first, end)`` line indices of the header and of each ``[...]`` frame."""
    starts = [0] + [i for i, line in enumerate(lines) if line.startswith("[") and i > 0]
    return [(start, end) for start, end in zip(starts, starts[1:] + [len(lines)])]


class _Repairer:
    """Parses, blanks or repairs faulty lines, and remembers what it did."""

    def __init__(self, path: str, lines: List[str], report: SourceReport):
        self.path, self.lines, self.report = path, lines, report
        self.repaired: set = set()

    def fix(self, index: int, message: str) -> None:
        """Judge the faulty line ``index`` (0-based) by its clause: skip, repair or raise."""
        line = self.lines[index]
        match = _TAG.match(line)
        number = index + 1
        # an unterminated quote runs on into the following lines, where the parser stops: blame the
        # clause that opened it (the nearest one above, in the same frame)
        for above in range(index, -1, -1):
            tag = _unterminated_quote(self.lines[above])
            if tag:
                raise SourceError(self.path, f"{tag} clause whose quoted text is not closed on its line "
                                             f"(expected {EXPECTED[tag]})", above + 1)
            other = _TAG.match(self.lines[above])
            if (other and other.group(1) not in USED_CLAUSES and above not in self.repaired
                    and len(_UNESCAPED_QUOTE.findall(self.lines[above])) % 2):
                # an xref description or a property value with its quote left open: skipped
                self.lines[above] = ""
                self.repaired.add(above)
                self.report.add("skipped_clause", self.path, above + 1, other.group(1))
                return
            if self.lines[above].startswith("["):
                # a frame opens with its id: without one, fastobo stops at the clause after the header
                header = self.lines[above].strip()
                if header in ("[Term]", "[Typedef]", "[Instance]") and not any(
                        _ID_CLAUSE.match(text) for text in self.lines[above + 1:index + 1]):
                    raise SourceError(self.path, f"{header} frame without an id clause (expected {EXPECTED['id']} "
                                                 "as its first line)", above + 1)
                break
        if not match:
            raise SourceError(self.path, f"not an OBO clause ('tag: value' expected, found {line.strip()[:60]!r}; "
                                         f"parser: {message})", number)
        tag, colon = match.group(1), match.group(2)
        if not colon:
            if tag in USED_CLAUSES:
                raise SourceError(self.path, f"{tag} clause without a colon (expected {EXPECTED[tag]})", number)
            raise SourceError(self.path, f"not an OBO clause ('tag: value' expected, found {line.strip()[:60]!r})", number)
        if tag in USED_CLAUSES:
            bare = _BARE_SYNONYM_TYPE.match(line)
            if bare and index not in self.repaired:     # a synonym type without its description: its id tells
                self.lines[index] = f'synonymtypedef: {bare.group(1)} ""'
                self.repaired.add(index)
                self.report.add("repaired_clause", self.path, number, "synonymtypedef without its description: read by its id")
                return
            if tag in ("def", "synonym") and index not in self.repaired:
                head = _QUOTED_HEAD.match(line)
                if head:        # a broken list, or none (OBO requires one, even empty: a hand-written file omits it)
                    self.lines[index] = head.group(1) + " []"
                    self.repaired.add(index)
                    self.report.add("repaired_clause", self.path, number, f"{tag} cross-references"
                                    + ("" if head.group(2) else " missing"))
                    return
            raise SourceError(self.path, f"malformed {tag} clause (expected {EXPECTED[tag]}; parser: {message})", number)
        if tag.startswith("[") or line.lstrip().startswith("["):
            raise SourceError(self.path, f"malformed frame header (parser: {message})", number)
        self.lines[index] = ""
        self.report.add("skipped_clause", self.path, number, tag)

    def parse(self, fastobo, first: int, end: int):
        """Parse lines ``first:end`` until they pass; faulty lines are fixed in place."""
        for _ in range(end - first + 1):
            text = "\n".join(self.lines[first:end]) + "\n"
            try:
                return fastobo.loads(text, threads=1)   # a thread pool per small frame costs 30x the parse
            except SyntaxError as error:
                lineno = getattr(error, "lineno", None)
                if not lineno or not (0 < lineno <= end - first):
                    raise SourceError(self.path, f"not valid OBO: {error.msg if hasattr(error, 'msg') else error}",
                                      first + 1) from None
                self.fix(first + lineno - 1, getattr(error, "msg", str(error)))
            except BaseException as error:
                if not _is_panic(error):
                    raise
                raise SourceError(self.path, f"not valid OBO: the parser (fastobo) failed on this frame ({error}); "
                                             "expected a frame of 'tag: value' lines", first + 1) from None
        raise SourceError(self.path, "the OBO parser kept failing on this frame", first + 1)


#: a line that is only a comment
_COMMENT_LINE = re.compile(r"\n[ \t]*!")


def _read_lines(path: str, report: SourceReport) -> List[str]:
    """The file's lines; a line that is only a comment (``! ...``) is left blank and counted: OWLAPI
    reads past it, fastobo stops at one in the header and panics at one inside a frame."""
    data = source_bytes(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise not_utf8(path, "a UTF-8 OBO file") from None
    # Windows' line ends; an old Mac's (CR alone) where the file has no other (a stray CR in a
    # name is no line end)
    text = text.replace("\r\n", "\n") if "\n" in text else text.replace("\r", "\n")
    lines = text.split("\n")
    if not any(line.startswith(("[Term]", "[Typedef]", "[Instance]")) for line in lines):
        raise SourceError(path, ("an empty file" if not text.strip() else "no [Term] or [Typedef] frame")
                          + " (expected an OBO file: a header, then [Term] frames; a file in another format "
                            "needs its --format)", None if not text.strip() else 1)
    if text.lstrip(" \t").startswith("!") or _COMMENT_LINE.search(text):
        for index, line in enumerate(lines):
            if line.lstrip(" \t").startswith("!"):
                report.add("comment_line", path, index + 1, line.strip()[:40])
                lines[index] = ""
    return lines


def _is_panic(error: BaseException) -> bool:
    """fastobo's Rust code panicked (pyo3's PanicException, a BaseException) rather than raising a
    SyntaxError for a faulty line."""
    return type(error).__name__ == "PanicException"


def _rewrite(path: str, lines: List[str], report: SourceReport) -> Optional[str]:
    """Rewrite, in place, the valid lines that fastobo cannot read, and count them:

    * OBO 1.0's synonym tags: ``exact_synonym: "text" [xrefs]`` is ``synonym: "text" EXACT [xrefs]``;
    * a ``def`` / ``synonym`` text that ends in an escaped backslash (``"C:\\\\"``), where fastobo
      reads the closing quote as escaped: its escaped backslashes stand in as a private-use character
      (returned, for the texts to be given back; None when no line needed it).
    """
    stand_in = None
    for index, line in enumerate(lines):
        if line.endswith("\\") and (len(line) - len(line.rstrip("\\"))) % 2 == 1:
            _joining_backslash(path, lines, index, report)
            line = lines[index]
        if "_synonym" in line:
            old = _OLD_SYNONYM.match(line)
            if old:
                line = lines[index] = f"synonym: {old.group(2)} {OLD_SYNONYM_TAGS[old.group(1)]}{old.group(3) or ' []'}"
                report.add("old_synonym_tag", path, index + 1, old.group(1))
        if '\\\\"' in line:
            quoted = _QUOTED.match(line)
            if quoted and quoted.group(2).endswith('\\\\"'):
                if stand_in is None:
                    text = "\n".join(lines)
                    stand_in = next((char for char in _BACKSLASH_STAND_INS if char not in text), None)
                    if stand_in is None:
                        return None
                escaped = re.sub(r"\\.", lambda pair: stand_in if pair.group(0) == "\\\\" else pair.group(0),
                                 quoted.group(2))
                lines[index] = quoted.group(1) + escaped + quoted.group(3)
                report.add("escaped_backslash", path, index + 1, line.split(":", 1)[0].strip())
    return stand_in


def _joining_backslash(path: str, lines: List[str], index: int, report: SourceReport) -> None:
    """A clause whose line ends in a backslash joins the next line to its value (an escaped line end:
    ``name: tool\\`` then ``is_a: T:1`` is one name, "tool" and the is_a, and the edge is lost). Where
    the next line is a clause or a frame: a clause the build uses is an error at its line; another
    is skipped (blanked) and counted, so the clause below is read."""
    below = lines[index + 1] if index + 1 < len(lines) else ""
    tag, next_tag = _TAG.match(lines[index]), _TAG.match(below)
    if not tag or not tag.group(2) or not (below.startswith("[") or not below.strip()
                                            or (next_tag and next_tag.group(2))):
        return
    if tag.group(1) in USED_CLAUSES:
        raise SourceError(path, f"{tag.group(1)} clause ending in a backslash, which joins the next line to it "
                                f"(expected the clause on one line: drop the backslash, or write it twice for one)",
                          index + 1)
    report.add("skipped_clause", path, index + 1, tag.group(1))
    lines[index] = ""


def _clause_lines(lines: List[str]) -> Tuple[Dict[str, List[int]], Dict[Tuple[str, str, str], int]]:
    """Where each frame's id is (every frame of an id, in order: OBO lets a term's clauses be split over
    several frames), and where each ``is_a`` / ``relationship`` clause is (for messages)."""
    ids: Dict[str, List[int]] = {}
    edges: Dict[Tuple[str, str, str], int] = {}
    current = None
    for number, line in enumerate(lines, 1):
        if line.startswith("["):
            current = None
        elif line.startswith("id:"):
            current = line[3:].split("!")[0].strip()
            ids.setdefault(current, []).append(number)
        elif current and line.startswith("is_a:"):
            edges.setdefault((current, "is_a", line[5:].split("!")[0].split("{")[0].strip()), number)
        elif current and line.startswith("relationship:"):
            parts = line[13:].split("!")[0].split("{")[0].split()
            if len(parts) >= 2:
                edges.setdefault((current, parts[0], parts[1]), number)
    return ids, edges


def _clause_line(lines: List[str], frame: Optional[Line], tag: str, nth: int = 1,
                 value: Optional[str] = None) -> Optional[Line]:
    """The line of the ``nth`` ``tag`` clause (with ``value`` as its first word, if given) of the frame
    whose id is on line ``frame``, for a message about that clause; else the id's line."""
    if frame is None:
        return None
    found = 0
    for index in range(int(frame), len(lines)):
        text = lines[index]
        if text.startswith("["):
            break
        match = _TAG.match(text)
        if match and match.group(1) == tag and match.group(2):
            words = text[match.end():].split("!")[0].split()
            if value is None or (words and words[0] == value):
                found += 1
                if found == nth:
                    return Line(index + 1, frame.path)
    return frame


def _refuse_single_operand(path: str, raw_id: str, tag: str, count: int, line: Optional[Line]) -> None:
    """One ``intersection_of`` clause naming a genus alone, or one ``union_of``, for a term: OBO 1.4 asks
    for two or more, and one makes the term the same as its genus or its one member (every cell a
    *heart cell*; was read without a word). An error at that clause's line. (A differentia alone,
    ``intersection_of: part_of heart``, is an OWL class equivalent to that restriction, and read so.)"""
    if count == 1:
        what = "a genus and one or more differentia" if tag == "intersection_of" else "the members"
        raise SourceError(path, f"a single {tag} clause for {raw_id} (expected two or more: {what}; one makes "
                                f"{raw_id} the same as what it names)", line)


def _one_id_per_relation(data: SourceData, domains: Dict[str, List[str]]) -> None:
    """A relation written by an id that a ``[Typedef]`` lists as its ``xref`` (``relationship:
    BFO:0000050 X`` where ``part_of`` has ``xref: BFO:0000050``) is that Typedef's relation, as in the
    OWL rendering (one property, ``obo:BFO_0000050``, named ``part_of``): every clause that names a
    relation (links, logical definitions, chains, sub-relations, domains) is given the Typedef's id.
    The xref is the one OWLAPI makes the property's IRI (OBO 1.4 §5.9.3, for a Typedef whose id has no
    prefix): the first, unless a later one is an ``RO`` or ``BFO`` id (the last of those); another xref
    stays a relation of its own, as it is another property in the rendering."""
    canonical: Dict[str, str] = {}
    for relation, info in sorted(data.relation_info.items()):
        if ":" in relation:
            continue
        chosen = None
        for alias in info.get("aliases", ()):
            if alias != relation and (chosen is None or alias.startswith(("RO", "BFO"))):
                chosen = alias
        if chosen is not None and chosen not in data.relation_info:
            canonical[chosen] = relation
    if not canonical:
        return

    def one(relation: str) -> str:
        return canonical.get(relation, relation)

    data.links[:] = [(s, one(r), o, line) for s, r, o, line in data.links]
    data.implied_links[:] = [(s, one(r), o, line) for s, r, o, line in data.implied_links]
    data.definitions[:] = [(c, genus, [(one(r), o) for r, o in differentia], unions)
                           for c, genus, differentia, unions in data.definitions]
    for info in data.relation_info.values():
        if "chains" in info:
            info["chains"] = [[one(r) for r in chain] for chain in info["chains"]]
        if "inverses" in info:
            info["inverses"] = [one(r) for r in info["inverses"]]
    for relation in list(data.relation_parents):
        supers = data.relation_parents.pop(relation)
        data.relation_parents.setdefault(one(relation), []).extend(one(r) for r in supers)
    for table in (domains, data.relation_ranges):
        for relation in [r for r in table if r in canonical]:
            table.setdefault(canonical[relation], []).extend(table.pop(relation))


def read_obo(path: str, vocabulary: Vocabulary, report: SourceReport) -> SourceData:
    """Read one OBO file (see the module docstring)."""
    import fastobo  # lazy: a compiled third-party parser, needed only for OBO sources

    path = str(path)
    lines = _read_lines(path, report)
    stand_in = _rewrite(path, lines, report)

    def restore(text: str) -> str:
        return text.replace(stand_in, "\\") if stand_in and stand_in in text else text

    repairer = _Repairer(path, lines, report)
    try:
        document = fastobo.loads("\n".join(lines) + "\n")
    except BaseException as error:      # a faulty line, or one that makes fastobo panic: found frame by frame
        if not (isinstance(error, SyntaxError) or _is_panic(error)):
            raise
        for first, end in _frames(lines):
            repairer.parse(fastobo, first, end)
        document = repairer.parse(fastobo, 0, len(lines))
    frame_lines, edge_lines = _clause_lines(lines)
    frame_lines = {key: [Line(number, path) for number in numbers] for key, numbers in frame_lines.items()}
    id_lines = {key: numbers[0] for key, numbers in frame_lines.items()}
    frames_seen: Dict[str, int] = {}
    named_relations: Set[str] = set()
    edge_lines = {key: Line(number, path) for key, number in edge_lines.items()}

    #: where an OBO file's term may give its definition as a property value besides def:
    definition_properties = {"IAO:0000115"}
    genus_lines: List[Tuple[str, str, Optional[int]]] = []      # (genus, concept, line) of intersection_of
    name, versions = file_name(path), {}
    obsolete_types = set()          # synonym types whose synonyms are no longer names
    respelling_types = set()        # synonym types whose synonyms are other spellings (uk_spelling)
    declared_types: Set[str] = set()
    for clause in document.header:
        kind = type(clause).__name__
        if kind == "SynonymTypedefClause":
            declared_types.add(str(clause.typedef))
            if obsolete_synonym_type(str(clause.typedef), str(clause.description)):
                obsolete_types.add(str(clause.typedef))
            elif respelling_synonym_type(str(clause.typedef), str(clause.description)):
                respelling_types.add(str(clause.typedef))
        elif kind == "OntologyClause":
            # an ontology given by its IRI ("ontology: http://example.org/test.owl") is named as the
            # OWL reader names it (test), so its OWL rendering gives the same notes
            value = str(clause.ontology)
            name = (ontology_name(value) or name) if "://" in value else own_name(value)
        elif kind == "DataVersionClause":
            versions.setdefault("data", str(clause.version))
        elif kind == "DateClause":
            versions.setdefault("date", str(clause.raw_value()))
        elif kind == "PropertyValueClause":
            match = _VERSION_INFO.match(str(clause))
            if match:
                versions.setdefault("info", match.group(1))
    # as the OWL rendering gives it (see rdf._version): data-version, else owl:versionInfo, else the
    # date; a data-version that repeats the ontology's name ("hp/releases/2024-01-16", as HPO writes
    # it) without that name, as in the version IRI of the OWL release (.../obo/hp/releases/2024-01-16/hp.owl)
    version = versions.get("data") or versions.get("info") or versions.get("date") or "unknown"
    if versions.get("data"):
        version = without_own_name(version, name)
    data = SourceData(path=path, format="obo", name=name, version=version)

    scopes = {OBO_EQUIVALENTS.get(p, p).upper() for p in vocabulary.synonyms} & {"EXACT", "RELATED", "BROAD", "NARROW"}
    parent_relations = {OBO_EQUIVALENTS.get(p, p) for p in vocabulary.parents}
    alternative_ids: List[Tuple[str, str, Optional[int]]] = []     # (alt_id, its term, line)
    domains: Dict[str, List[str]] = {}              # a Typedef's domain clauses
    several_definitions: Dict[str, Set[str]] = {}   # a term's definitions where it has more than one
    # (term, intersection_of / union_of): clauses, first line, no differentia among them
    operands: Dict[Tuple[str, str], Tuple[int, Optional[Line], bool]] = {}
    for frame in document:
        kind = type(frame).__name__
        if kind not in ("TypedefFrame", "TermFrame"):     # [Instance] frames: individuals, not concepts
            continue
        raw_id = str(frame.id)
        # the id line of this frame (the concept keeps its first frame's): where its clauses are looked for
        seen = frames_seen[raw_id] = frames_seen.get(raw_id, -1) + 1
        numbers = frame_lines.get(raw_id) or [None]
        this_frame = numbers[min(seen, len(numbers) - 1)]
        names_here = 0              # name clauses in this frame so far
        synonyms_here = 0           # synonym clauses in this frame so far (for their lines)
        if kind == "TypedefFrame":
            earlier_info = data.relation_info.get(curie(raw_id))
            info = earlier_info or {"name": relation_name(raw_id), "transitive": False, "symmetric": False,
                                    "aliases": []}
            named = curie(raw_id) in named_relations
            for clause in frame:
                clause_kind = type(clause).__name__
                if clause_kind == "NameClause":
                    names_here += 1
                    if named and info["name"].lower() == str(clause.name).replace("_", " ").lower():
                        continue        # the name again, as written or with _ for its spaces: GO's slices
                        # give part_of both "name: part of" and "name: part_of" (was: an error)
                    if named and not (names_here == 1 and info["name"] == str(clause.name).replace("_", " ")):
                        raise SourceError(path, f"a second name clause in the frame of {raw_id} ('{clause.name}' after "
                                                f"'{info['name']}'; expected one name per relation)",
                                          _clause_line(lines, this_frame, "name", names_here))
                    named = True
                    named_relations.add(curie(raw_id))
                    info["name"] = str(clause.name).replace("_", " ")
                elif clause_kind == "IsTransitiveClause":
                    info["transitive"] = bool(clause.transitive)
                elif clause_kind == "IsSymmetricClause":
                    info["symmetric"] = bool(clause.symmetric)
                elif clause_kind == "XrefClause":
                    info["aliases"].append(curie(str(clause.xref.id)))
                elif clause_kind == "TransitiveOverClause":       # R transitive_over S: R after S is R
                    info.setdefault("chains", []).append([curie(raw_id), curie(str(clause.typedef))])
                elif clause_kind in ("HoldsOverChainClause", "EquivalentToChainClause"):   # P then Q is R
                    info.setdefault("chains", []).append([curie(str(clause.first)), curie(str(clause.last))])
                elif clause_kind == "IsAClause":
                    data.relation_parents.setdefault(curie(raw_id), []).append(curie(str(clause.typedef)))
                    data.relation_mentions.append((curie(raw_id), "is_a", curie(str(clause.typedef)), _clause_line(
                        lines, this_frame, "is_a", value=str(clause.typedef))))
                elif clause_kind in ("DomainClause", "RangeClause"):
                    tag = "domain" if clause_kind == "DomainClause" else "range"
                    # (fastobo escapes the quotes of a quoted prefixed id: \"XX:1\")
                    kind = _unescaped(str(clause.domain if tag == "domain" else clause.range))
                    if '"' in kind:         # fastobo reads 'domain: "organism"' as the id "organism"
                        raise SourceError(path, f"{tag} clause of {raw_id} gives {kind}, a quoted text (expected "
                                                f"'{tag}: PREFIX:LOCAL', the class's id)",
                                          _clause_line(lines, this_frame, tag, value=kind))
                    (domains if tag == "domain" else data.relation_ranges).setdefault(curie(raw_id), []).append(
                        curie(kind))
                elif clause_kind == "InverseOfClause":       # R inverse_of S: x R y is y S x
                    info.setdefault("inverses", []).append(curie(str(clause.typedef)))
                    data.relation_mentions.append((curie(raw_id), "inverse_of", curie(str(clause.typedef)), _clause_line(
                        lines, this_frame, "inverse_of", value=str(clause.typedef))))
                elif clause_kind == "EquivalentToClause":     # one relation under two ids: each under the other
                    other = curie(str(clause.typedef))
                    data.relation_parents.setdefault(curie(raw_id), []).append(other)
                    data.relation_parents.setdefault(other, []).append(curie(raw_id))
            data.relation_info[curie(raw_id)] = info
            continue
        concept_id = curie(raw_id)
        concept = RawConcept(id=concept_id, line=id_lines.get(raw_id))
        obsolete = False
        parents: List[Tuple[str, Optional[int]]] = []
        links: List[Tuple[str, str, Optional[int]]] = []
        implied: List[Tuple[str, str, Optional[int]]] = []          # (child, parent, line)
        implied_links: List[Tuple[str, str, Optional[int]]] = []
        genus: List[str] = []
        differentia: List[Tuple[str, str]] = []
        definitions: List[str] = []
        other_definitions: List[str] = []
        for clause in frame:
            clause_kind = type(clause).__name__
            if clause_kind == "NameClause":
                names_here += 1
                earlier_label = concept.label or getattr(data.concepts.get(concept_id), "label", None)
                if earlier_label is not None and earlier_label == str(clause.name):
                    continue            # the same name again: nothing to choose between
                if earlier_label is not None and not (names_here == 1 and earlier_label == str(clause.name)):
                    # in this frame, or in an earlier frame of the same term (a term split over frames)
                    raise SourceError(path, f"a second name clause in the frame of {raw_id} ('{clause.name}' after "
                                            f"'{earlier_label}'; expected one name per term: another name is a "
                                            f"synonym clause)", _clause_line(lines, this_frame, "name", names_here))
                concept.label = str(clause.name)
            elif clause_kind == "DefClause":
                definitions.append(restore(str(clause.definition)))
            elif clause_kind == "PropertyValueClause":
                # a definition given as a property value (property_value: IAO:0000115 "..." xsd:string):
                # its OWL rendering's definition annotation too
                value = clause.property_value
                if curie(str(value.relation)) in definition_properties and hasattr(value, "value"):
                    other_definitions.append(restore(str(value.value)))
            elif clause_kind == "SynonymClause":
                synonym = clause.synonym
                synonyms_here += 1
                if synonym.type is not None and str(synonym.type) not in declared_types:
                    declared_types.add(str(synonym.type))       # once per type, at its first clause
                    data.undeclared_synonym_types.append((str(synonym.type), _clause_line(
                        lines, this_frame, "synonym", synonyms_here) or concept.line))
                if synonym.type is not None and str(synonym.type) in obsolete_types:
                    # of any scope: skipped and counted, at its own line
                    report.add("obsolete_synonym", path, _clause_line(lines, this_frame, "synonym", synonyms_here)
                               or concept.line, f"{concept_id} '{restore(str(synonym.desc))}'")
                elif str(synonym.scope).upper() in scopes:
                    concept.synonyms.append(restore(str(synonym.desc)))
                    if synonym.type is not None and str(synonym.type) in respelling_types:
                        concept.respellings.append(concept.synonyms[-1])
                else:
                    # another scope: never asked, but no distractor named so (RawConcept.other_names)
                    concept.other_names.append(restore(str(synonym.desc)))
            elif clause_kind == "IsAClause":
                target = str(clause.term)
                if '"' in target:       # fastobo reads a quoted id as an id with its quotes (escaped): no term's
                    written = _unescaped(target)
                    raise SourceError(path, f"is_a clause of {raw_id} gives {written}, a quoted text (expected "
                                            f"{EXPECTED['is_a']}: an id, without quotes)",
                                      edge_lines.get((raw_id, "is_a", written)))
                if "is_a" in parent_relations:
                    parents.append((curie(target), edge_lines.get((raw_id, "is_a", target))))
            elif clause_kind == "RelationshipClause":
                relation, target = str(clause.typedef), str(clause.term)
                line = edge_lines.get((raw_id, relation, target))
                if '"' in target or '"' in relation:
                    written = [_unescaped(relation), _unescaped(target)]
                    raise SourceError(path, f"relationship clause of {raw_id} gives {' '.join(written)}, a quoted "
                                            f"text (expected {EXPECTED['relationship']}: ids, without quotes)",
                                      edge_lines.get((raw_id, *written)))
                restricted = {str(q.key): str(q.value) for q in clause.qualifiers or ()
                              if str(q.key) in NOT_EXISTENTIAL}
                only = restricted.pop("all_only", "false").lower() == "true"
                is_parent = relation in parent_relations or curie(relation) in parent_relations
                if only or restricted:
                    # all_only / cardinality: no "some" link (OWL renders it as another restriction), but
                    # at least one (cardinality or minCardinality of 1 or more, not all_only) entails one:
                    # kept out of the distractors (implied), never asked, as from the OWL rendering
                    report.add("qualified_link", path, line, f"{concept_id} {relation} {target} "
                               + (" ".join(f"{k}={v}" for k, v in sorted(restricted.items())) or "all_only"))
                    least = [restricted.get(key, "") for key in ("cardinality", "minCardinality")]
                    if not only and not is_parent and any(value.strip().isdigit() and int(value) >= 1
                                                          for value in least):
                        implied_links.append((curie(relation), curie(target), line))
                    continue
                if is_parent:
                    parents.append((curie(target), line))
                else:
                    links.append((curie(relation), curie(target), line))
            elif clause_kind == "IsObsoleteClause":
                obsolete = bool(clause.obsolete)
            elif clause_kind == "AltIdClause":
                alternative_ids.append((curie(str(clause.alt_id)), concept_id, concept.line))
            # logical definitions (see SourceData.implied_parents): C = G and R some D
            elif clause_kind == "IntersectionOfClause":
                target = curie(str(clause.term))
                # each axiom at its own clause's line (an error or a count names it there)
                if clause.typedef is None:
                    genus_line = _clause_line(lines, this_frame, "intersection_of", value=str(clause.term))
                    genus_lines.append((target, concept_id, genus_line))
                    implied.append((concept_id, target, genus_line or concept.line))
                    genus.append(target)
                else:
                    differentia.append((curie(str(clause.typedef)), target))
                    implied_links.append((*differentia[-1], _clause_line(lines, this_frame, "intersection_of",
                                                                         value=str(clause.typedef)) or concept.line))
            elif clause_kind == "UnionOfClause":              # C = M1 or M2: each member is a kind of C
                implied.append((curie(str(clause.term)), concept_id,
                                _clause_line(lines, this_frame, "union_of", value=str(clause.term)) or concept.line))
                data.unions.setdefault(concept_id, []).append(curie(str(clause.term)))
            elif clause_kind == "EquivalentToClause":
                line = _clause_line(lines, this_frame, "equivalent_to", value=str(clause.term)) or concept.line
                implied.extend([(concept_id, curie(str(clause.term)), line), (curie(str(clause.term)), concept_id, line)])
        every_definition = set(definitions + other_definitions)
        # a genus alone (C = G) and one member of a union (C = M) make the term the same as what it names;
        # a differentia alone (C = R some D) is an OWL class equivalent to a restriction, as it says
        for tag, count, alone in (("intersection_of", len(genus) + len(differentia), not differentia),
                                  ("union_of", sum(1 for c in frame if type(c).__name__ == "UnionOfClause"), True)):
            if count:       # over every frame of the term (its clauses may be split over two)
                earlier_count, first_line, earlier_alone = operands.get((raw_id, tag), (0, None, True))
                operands[(raw_id, tag)] = (earlier_count + count, first_line or _clause_line(lines, this_frame, tag),
                                           earlier_alone and alone)
        if obsolete:
            data.obsolete.add(concept_id)
            if concept.label:
                data.obsolete_labels.setdefault(concept.label.lower(), concept_id)
            report.add("obsolete", path, concept.line, concept_id)
            # its parents and links stay known (never used as edges of its own) so that the closure of a
            # term under it or linked to it still goes through it (see source.load_source)
            data.parents.extend((concept_id, parent, line) for parent, line in parents)
            data.links.extend((concept_id, relation, target, line) for relation, target, line in links)
            continue
        earlier = data.concepts.get(concept_id)
        if earlier is not None:        # OBO lets a term's clauses be split over two frames: one concept
            earlier.label = earlier.label or concept.label
            every_definition |= several_definitions.get(concept_id, {earlier.definition} - {None})
            earlier.synonyms.extend(s for s in concept.synonyms if s not in earlier.synonyms)
            earlier.other_names.extend(s for s in concept.other_names if s not in earlier.other_names)
            concept = earlier
        # several definitions (OBO allows one def per term, a definition as a property value besides,
        # and a term's clauses split over two frames; an OWL rendering keeps each): the first in order,
        # as the RDF reader picks among several
        concept.definition = min(every_definition, default=None)
        if len(every_definition) > 1:
            several_definitions[concept_id] = every_definition
        data.concepts[concept_id] = concept
        data.parents.extend((concept_id, parent, line) for parent, line in parents)
        data.links.extend((concept_id, relation, target, line) for relation, target, line in links)
        data.implied_parents.extend(implied)
        data.implied_links.extend((concept_id, relation, target, line) for relation, target, line in implied_links)
        if genus or differentia:
            data.definitions.append((concept_id, genus, differentia, []))
    for (raw_id, tag), (count, line, alone) in sorted(operands.items(), key=lambda item: int(item[1][1] or 0)):
        if alone:
            _refuse_single_operand(path, raw_id, tag, count, line)
    # an alt_id is no concept, as its OWL rendering (a deprecated class replaced by its term) is none:
    # counted, and an edge to it goes on to its term (source.load_source lifts it as from an obsolete one)
    for alternative, concept_id, line in sorted(alternative_ids):
        if alternative in data.concepts and alternative != concept_id:
            # a term of its own that another term lists as its alt_id (merged, its frame left behind):
            # obsolete, as the rendering makes it (a deprecated class that keeps its name and parents)
            report.add("obsolete", path, data.concepts.pop(alternative).line, alternative)
            data.obsolete.add(alternative)
        elif alternative not in data.concepts and alternative not in data.obsolete:
            report.add("alternative_id", path, line, f"{alternative} of {concept_id}")
            data.obsolete.add(alternative)
            data.alternatives[alternative] = concept_id
            data.parents.append((alternative, concept_id, line))
    for concept_id, texts in several_definitions.items():
        report.add("several_definitions", path, data.concepts[concept_id].line, f"{concept_id} ({len(texts)})")
    _one_id_per_relation(data, domains)
    data.existential_relations.update(relation for _, relation, _, _ in data.links)
    # a term with a relationship (or a differentia) of a relation with a domain is under the domain, as
    # in the OWL rendering (rdf._under_domains)
    # (and of the relations above it: a grows_on link is an inhabits link, under inhabits' domain too)
    supers = super_relations(data.relation_parents)
    for subject, relation, _, line in [*data.links, *data.implied_links]:
        for domain in [d for r in (relation, *sorted(supers.get(relation, ()))) for d in domains.get(r, ())]:
            if domain != subject:
                data.implied_parents.append((subject, domain, line))
                data.domain_parents.append((subject, domain))
    relations = set(data.relation_info) | {relation for _, relation, _, _ in data.links}
    for target, concept_id, line in genus_lines:
        if target in relations:         # "intersection_of: part_of": a relation whose target is left off
            raise SourceError(path, f"intersection_of clause of {concept_id} names the relation {target} without "
                                    f"its target (expected 'intersection_of: {target} <ID>' or 'intersection_of: "
                                    f"<CLASS ID>')", line)
    return data


#: relationship qualifiers that make a link something else than "some" (OWLAPI's rendering: an
#: owl:allValuesFrom or a cardinality restriction)
NOT_EXISTENTIAL = ("all_only", "cardinality", "minCardinality", "maxCardinality")


#: a header ``property_value: owl:versionInfo "X" xsd:string``
_VERSION_INFO = re.compile(r'^property_value:\s*owl:versionInfo\s+"((?:[^"\\]|\\.)*)"')

