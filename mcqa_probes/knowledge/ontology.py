"""What the ontology readers share: the error they raise, the validity report they fill, the
vocabulary that says which property means what, and the raw data one file yields.

* :class:`SourceError`: bad input in a knowledge source, as ``FILE:LINE: what was expected`` (the
  line where the parser gives one); ``bin/build_probes`` prints it as one ``error:`` line, exit 2.
* :class:`SourceReport`: what was skipped, repaired or dropped while reading (a clause the build does
  not use that breaks the grammar, an obsolete term, an edge to a parent that is never defined, a
  concept with no label, ...), each with the file and line where known; the build prints it as the
  source part of the validity summary and writes it to the manifest.
* :class:`Vocabulary`: which properties mean label, definition, synonym and parent, with the standard
  ones as defaults, and the language of the labels.
* :class:`SourceData`: the concepts, parent edges and relation links of one file, before
  :func:`mcqa_probes.knowledge.source.load_source` merges files, filters and checks them.
* :func:`source_bytes` / :func:`source_text` / :func:`inner_name`: a file as its reader sees it; a
  compressed release (``chebi.obo.gz``, ``mesh.nt.bz2``, ``x.ttl.xz``) is read as the file inside it,
  a zip archive (``Thesaurus.owl.zip``) as the one ontology file it holds.

Plain Python: no torch, no allennlp.
"""
import functools
import importlib
import os
import re
import zipfile
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple


class SourceError(ValueError):
    """A knowledge source cannot be read as asked; the message is ``FILE:LINE: what was expected``."""

    def __init__(self, path: str, message: str, line: Optional[int] = None):
        self.path, self.line, self.reason = str(path), line, message
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}")


#: the compressions a source file may have, by suffix (the standard library's module, the name said):
#: read as the file inside (``hp.obo.gz`` is OBO)
COMPRESSIONS = {".gz": ("gzip", "gzip"), ".bz2": ("bz2", "bzip2"), ".xz": ("lzma", "xz")}
#: rdflib parser names by file suffix (``owx``, ``ofn``, ``omn``: the OWL syntaxes rdflib does not
#: read, through :mod:`mcqa_probes.knowledge.owl_syntax`)
SYNTAX_BY_SUFFIX = {
    ".ttl": "turtle", ".turtle": "turtle", ".n3": "n3", ".nt": "nt", ".ntriples": "nt",
    ".owl": "xml", ".rdf": "xml", ".xml": "xml", ".jsonld": "json-ld", ".json-ld": "json-ld", ".json": "json-ld",
    ".nq": "nquads", ".trig": "trig", ".owx": "owx", ".ofn": "ofn", ".omn": "omn",
}


def inner_name(path: Any) -> str:
    """The name of the file a reader reads: without a compression suffix (``so.obo.gz`` -> ``so.obo``),
    a zip archive's ontology file (``Thesaurus.owl.zip`` -> ``Thesaurus.owl``); what its format, its
    syntax and its name as a source are read from."""
    name = Path(path).name
    suffix = Path(name).suffix.lower()
    if suffix == ".zip" and os.path.isfile(path):
        stat = os.stat(path)
        return Path(_zip_member(str(path), stat.st_mtime_ns, stat.st_size)).name
    return name[: -len(suffix)] if suffix in COMPRESSIONS and len(name) > len(suffix) else name


def inner_suffix(path: Any) -> str:
    """The suffix of :func:`inner_name`, in lower case (``so.obo.gz`` -> ``.obo``)."""
    return Path(inner_name(path)).suffix.lower()


@functools.lru_cache(maxsize=8)
def _zip_member(path: str, mtime_ns: int, size: int) -> str:
    """The one ontology file (``.obo`` or an RDF suffix) in a zip archive; an error when it holds none
    or several (a folder of files: which to read is the user's choice)."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = [info.filename for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, OSError) as error:
        raise SourceError(path, f"not a whole zip file ({error}); expected a zip archive holding one ontology "
                                f"file") from None
    found = [member for member in members if not member.startswith("__MACOSX/")
             and Path(member).suffix.lower() in (".obo", *SYNTAX_BY_SUFFIX)]
    if len(found) != 1:
        held = ", ".join(found[:5]) + (", ..." if len(found) > 5 else "") if found else "none"
        raise SourceError(path, f"a zip archive with {len(found)} ontology files ({held}); expected one "
                                f"(.obo, .owl, .ttl, .nt, ...): extract the one to read and give its path")
    return found[0]


def is_compressed(path: Any) -> bool:
    """Whether the file's suffix says it is compressed (:data:`COMPRESSIONS`) or a zip archive."""
    return inner_name(path) != Path(path).name


def not_utf8(path: Any, expected: str) -> Optional[SourceError]:
    """The error for a source file that is not UTF-8 (a byte order mark allowed), at the line of its
    first bad byte, or None where it is UTF-8: the one place every reader finds it (a parser's own
    error counts within its buffer, or not at all). ``expected``: what the file should be."""
    data = source_bytes(path)
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        offset = error.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)   # counted after the mark
        return SourceError(path, f"not UTF-8 (byte 0x{data[offset]:02x}); expected {expected}",
                           data[:offset].count(b"\n") + 1)
    return None


def source_bytes(path: Any) -> bytes:
    """The bytes of a source file, decompressed when its suffix says it is compressed (a damaged
    archive is a :class:`SourceError`); the readers open a file only through this and
    :func:`source_text`."""
    path = str(path)
    if not is_compressed(path):
        with open(path, "rb") as handle:
            return handle.read()
    stat = os.stat(path)
    return _decompressed(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=2)
def _decompressed(path: str, mtime_ns: int, size: int) -> bytes:
    """A compressed file's content (a zip archive's: its ontology file's), kept for the next reader of
    the same file (the RDF reader looks at a file several times: its syntax, the parse, the line of a
    fault)."""
    if Path(path).suffix.lower() == ".zip":
        with zipfile.ZipFile(path) as archive:
            return archive.read(_zip_member(path, mtime_ns, size))
    module, name = COMPRESSIONS[Path(path).suffix.lower()]
    try:
        # lazy: a Python built without liblzma or libbz2 reads every other file
        decompress = importlib.import_module(module).decompress
    except ImportError:
        raise SourceError(path, f"this Python has no {module} module to read a {name} file; expected the file "
                                f"decompressed ({inner_suffix(path) or 'source'})") from None
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        return decompress(data)
    except Exception as error:      # noqa: BLE001 (gzip: OSError, EOFError; lzma: LZMAError; bz2: OSError)
        raise SourceError(path, f"not a whole {name} file ({error}); expected a "
                                f"{inner_suffix(path) or 'source'} file compressed by {name}") from None


def source_head(path: Any, size: int) -> bytes:
    """The first ``size`` bytes of :func:`source_bytes` (of a plain file, without reading the rest)."""
    if is_compressed(path):
        return source_bytes(path)[:size]
    with open(path, "rb") as handle:
        return handle.read(size)


def source_text(path: Any, errors: str = "strict") -> str:
    """:func:`source_bytes` decoded as UTF-8 (``errors`` as for :meth:`bytes.decode`)."""
    return source_bytes(path).decode("utf-8", errors=errors)


#: the kinds of entries of a report, in the order the summary prints them, with their wording
REPORT_KINDS = OrderedDict([
    ("skipped_clause", "clauses the build does not use that break the grammar, skipped"),
    ("repaired_clause", "clauses repaired (a malformed or missing cross-reference list)"),
    ("comment_line", "comment lines ('! ...', which OWLAPI reads and fastobo does not), skipped"),
    ("old_synonym_tag", "OBO 1.0 synonym tags (exact_synonym: ...) read as synonym clauses"),
    ("escaped_backslash", "quoted texts with an escaped backslash that fastobo rejects, read as written"),
    ("undefined_prefix", "JSON-LD properties and classes written with a prefix that the @context does not define "
                         "(read as IRIs of their own), none that the build reads: their statements not used"),
    ("invalid_iri", "IRIs with a space or another character that IRIs do not allow, read as written"),
    ("spelled_out_iri", "abbreviated IRIs with a character the functional syntax does not allow in a local "
                        "name (obo:hp.obo#layperson, as fastobo writes them), read as the full IRI"),
    ("obsolete", "obsolete or deprecated terms skipped"),
    ("blank_concept", "concepts without an IRI (a blank node: [] a skos:Concept), which no edge or id can name, "
                      "skipped"),
    ("alternative_id", "alternative ids of terms (OBO alt_id; in OWL a deprecated class without a label, merged "
                       "into its term), not concepts"),
    ("no_label", "concepts without a usable label, dropped"),
    ("label_from_iri", "classes without any label, named after their IRI (the name given in brackets)"),
    ("placeholder_definition", "definitions that stand for none (NULL, N/A, TBD, a dash, a bare 'See X'), read as no "
                               "definition"),
    ("no_definition", "concepts without a definition (not asked in the definitions probe)"),
    ("control_character", "concepts whose label, synonyms or definition hold control characters, dropped (a NUL) "
                          "or read as the Windows-1252 character they stand for (U+0092: ’)"),
    ("several_labels", "concepts with more than one preferred label in one language (a SKOS integrity error; in "
                       "OWL two rdfs:labels, where OBO has one name a term: the first in sorted order is the label, "
                       "the others names of the concept; the count in brackets)"),
    ("untagged_definition", "concepts whose only definition in the language has no language tag, in a file that "
                            "tags its definitions in other languages (of no one language: not used)"),
    ("several_definitions", "concepts with more than one definition (the first in sorted order used; the count in "
                            "brackets)"),
    ("obsolete_synonym", "synonyms of an obsolete synonym type (HPO's 'discarded/obsoleted synonym'), skipped"),
    ("respelling_synonym", "synonyms that are respellings (of a synonym type such as HPO's 'UK spelling', "
                           "'plural form'; a label in another region of the language, en-US beside en-GB): names, "
                           "never asked as another name"),
    ("code_synonym", "synonyms written as another vocabulary's code (PREFIX:code, the prefix in no label), names, "
                     "never asked as another name"),
    ("blank_parent", "parents that are a blank node of no class expression (a misspelt rdf:resource, "
                     "<rdfs:subClassOf rdf:resourc=\"#X\"/>, makes one), skipped"),
    ("restriction_without_property", "restrictions with no owl:onProperty (an owl:Restriction that says nothing), "
                                     "left out"),
    ("qualified_link", "relationship clauses with an all_only or cardinality qualifier (in OWL an allValuesFrom or "
                       "cardinality restriction; not a 'some' link), skipped (one of at least one kept out of the "
                       "distractors)"),
    ("undefined_parent", "edges to or from a concept that is never defined, dropped"),
    ("undeclared_synonym_type", "synonym types that no synonymtypedef declares (a misspelt uk_spelling would ask a "
                                "respelling as another name), their synonyms read as untyped (at the first)"),
    ("undeclared_relation", "relations that nothing declares (no [Typedef] for a relationship or a Typedef's "
                            "inverse_of clause, no property declaration for an owl:inverseOf), read by their ids alone "
                            "(at the first such clause)"),
    ("outside_mapping", "SKOS mappings to concepts of another scheme (skos:exactMatch, closeMatch, broadMatch, "
                        "narrowMatch, relatedMatch), not followed"),
    ("undefined_in_axiom", "logical axioms (intersection_of, union_of, equivalent_to, a restriction, a range or "
                           "domain) naming a concept that is never defined (a definition still covers the "
                           "concepts with an edge to it; the rest left out)"),
    ("self_parent", "edges from a concept to itself (C is_a C, C rdfs:subClassOf C, C part_of C), dropped"),
    ("edge_to_alternative_id", "edges to an alternative id of a term (OBO alt_id), read as edges to the term"),
    ("edge_lifted", "edges to an obsolete or dropped concept, linked on to its parents"),
    ("edge_to_dropped", "edges to an obsolete or dropped concept with no parent, dropped"),
    ("link_to_dropped", "links from an obsolete or dropped concept, or to one by a relation that does not pass "
                        "on to its parents (skos:related, a table's relation), dropped"),
    ("comma_synonym", "synonym cells with a comma and no '|' (two names in one cell? synonyms are separated by | "
                      "or one a line), kept as one name"),
    ("relation_not_asked", "relations of table rows that --relations does not ask (the rows in brackets), not made "
                           "probes (a spelling of the hierarchy the reader does not know? is_a, subClassOf, broader, "
                           "child of, kind of, ...)"),
    ("relation_spelling", "table rows that spell a relation another way than its first row (Part of after "
                          "part_of), read as one relation"),
    ("merged", "concepts defined in more than one file, merged"),
    ("merged_label", "of those, concepts labelled otherwise in a later file (the first file's label kept, the "
                     "other a name of the concept, never asked as another)"),
    ("outside_root", "concepts outside the chosen root(s), left out"),
    ("shortened_definition", "definitions longer than the limit, cut at a sentence end (or at the limit, with '...')"),
    ("classified", "classes that a defined class's definition covers without a parent edge saying so (kept out "
                   "of its distractors, never asked as its answers)"),
    ("possibly_classified", "classes that may fall under a defined class whose definition is read in part (a "
                            "universal, negated or cardinality restriction: its other conjuncts cover them; kept "
                            "out of its distractors, never asked as its answers)"),
    ("domain_parent", "classes under a property's rdfs:domain through a restriction on it (kept out of its "
                      "distractors, never asked as its answers)"),
])


#: a synonym type that marks a name as no longer the concept's (HPO's ``obsolete_synonym``,
#: "discarded/obsoleted synonym"): its synonyms are no names; read from the type's id or its name
_OBSOLETE_SYNONYM_TYPE = re.compile(r"obsolete|deprecated|discarded", re.IGNORECASE)


def obsolete_synonym_type(*names: str) -> bool:
    """Whether a synonym type, by its id (``obsolete_synonym``, an IRI ending so) or its name, marks
    its synonyms obsolete: the OBO reader asks with the ``synonymtypedef`` clause's id and text, the
    RDF reader with the type's IRI and ``rdfs:label``, alike."""
    return any(_OBSOLETE_SYNONYM_TYPE.search(name or "") for name in names)


#: a synonym type that marks a name as another spelling of one of the concept's names (HPO's
#: ``uk_spelling`` "UK spelling" and ``plural_form``; a "misspelling", a "spelling variant"): a
#: respelling, which a model finds by its form, not another name (see :func:`respelling_synonym_type`)
_RESPELLING_SYNONYM_TYPE = re.compile(r"spelling|plural[ _-]?form", re.IGNORECASE)


def respelling_synonym_type(*names: str) -> bool:
    """Whether a synonym type, by its id or its name (as :func:`obsolete_synonym_type` is asked),
    marks its synonyms as respellings (*Anaemia* for *Anemia*): names of the concept for every
    validity test, never asked as its other name in the synonymy probe."""
    return any(_RESPELLING_SYNONYM_TYPE.search(name or "") for name in names)


@dataclass
class SourceReport:
    """Counts of what reading a source skipped or changed, with up to ``keep`` examples each."""

    keep: int = 5
    counts: Dict[str, int] = field(default_factory=dict)
    examples: Dict[str, List[str]] = field(default_factory=dict)

    def add(self, kind: str, path: Optional[str] = None, line: Optional[int] = None, detail: str = "") -> None:
        if kind not in REPORT_KINDS:
            raise KeyError(f"unknown report kind {kind!r}")
        self.counts[kind] = self.counts.get(kind, 0) + 1
        shown = self.examples.setdefault(kind, [])
        if len(shown) < self.keep:
            where = f"{path}:{line}" if path and line else (path or "")
            shown.append(f"{where} {detail}".strip())

    def lines(self) -> List[str]:
        """One line per kind that occurred: ``  <count> <what> (e.g. so.obo:8859 xref)``."""
        out = []
        for kind, wording in REPORT_KINDS.items():
            if self.counts.get(kind):
                examples = "; ".join(self.examples.get(kind, []))
                out.append(f"{self.counts[kind]:>7} {wording}" + (f" (e.g. {examples})" if examples else ""))
        return out

    def to_json(self) -> Dict[str, Any]:
        return {kind: {"count": self.counts[kind], "examples": self.examples.get(kind, [])}
                for kind in REPORT_KINDS if self.counts.get(kind)}


#: the standard properties, in order of preference (CURIEs as :mod:`.identifiers` writes them)
DEFAULT_LABELS = ("rdfs:label", "skos:prefLabel", "skosxl:prefLabel")
DEFAULT_DEFINITIONS = ("IAO:0000115", "skos:definition", "rdfs:comment", "skos:scopeNote")
DEFAULT_SYNONYMS = ("oboInOwl:hasExactSynonym", "skos:altLabel", "skosxl:altLabel")
DEFAULT_PARENTS = ("rdfs:subClassOf", "skos:broader", "is_a")
DEFAULT_EXAMPLES = ("skos:example",)
#: OBO tags and synonym scopes that mean the same as the standard properties
OBO_EQUIVALENTS = {
    "rdfs:label": "name", "IAO:0000115": "def", "rdfs:subClassOf": "is_a",
    "oboInOwl:hasExactSynonym": "EXACT", "oboInOwl:hasRelatedSynonym": "RELATED",
    "oboInOwl:hasBroadSynonym": "BROAD", "oboInOwl:hasNarrowSynonym": "NARROW",
}


#: a language tag (BCP 47's shape: ``en``, ``de-AT``, ``zh-Hant-TW``, ``sr-Latn``)
_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*")


def language_tag(text: str) -> str:
    """``text`` as a language tag (``es_ES``, as a locale writes it, is ``es-ES``); a ValueError that says
    what was expected for an empty or malformed one."""
    tag = text.strip().replace("_", "-")
    if not tag:
        raise ValueError("an empty language tag (expected one such as en, de-AT, es)")
    if not _LANGUAGE_TAG.fullmatch(tag):
        raise ValueError(f"{text!r} is no language tag (expected one such as en, de-AT, es)")
    return tag


@dataclass
class Vocabulary:
    """Which property means what. Every field is a list of property ids in order of preference
    (CURIEs such as ``skos:prefLabel`` or full IRIs); the first one a concept has wins (for labels: the
    first one with a label tagged in ``lang``, else the first one with any).

    ``lang``: the language tag wanted for labels, synonyms and definitions (``en``); a literal with
    no tag is taken when none has it, one in another language never.
    """

    labels: Sequence[str] = DEFAULT_LABELS
    definitions: Sequence[str] = DEFAULT_DEFINITIONS
    synonyms: Sequence[str] = DEFAULT_SYNONYMS
    parents: Sequence[str] = DEFAULT_PARENTS
    lang: str = "en"
    #: example sentences (the paper's context frames quote one when the concept has it)
    examples: Sequence[str] = DEFAULT_EXAMPLES

    def to_json(self) -> Dict[str, Any]:
        return {"labels": list(self.labels), "definitions": list(self.definitions), "synonyms": list(self.synonyms),
                "parents": list(self.parents), "examples": list(self.examples), "lang": self.lang}


class Line(int):
    """A line number that knows its file: the edges of a TSV pair are in edges.tsv, those of merged
    files in each file, so an error or a report names the file the line is in."""

    def __new__(cls, number: int, path: str):
        line = super().__new__(cls, number)
        line.path = path
        return line

    def __getnewargs__(self):
        return int(self), self.path


#: file suffixes that an ontology's IRI may end with (LinkML's ``.../lexical-index.owl.ttl``)
_IRI_FILE_SUFFIXES = (".owl", ".ttl", ".turtle", ".rdf", ".nt", ".ntriples", ".nq", ".trig", ".n3", ".jsonld",
                      ".json-ld", ".json", ".xml", ".obo", ".skos", ".owx", ".ofn", ".omn")
#: segments of an ontology's IRI that do not name it: a version (FOAF's ``.../foaf/0.1/``, MADS's
#: ``.../mads/rdf/v1``, a date ``.../2004/02/...``) and words any vocabulary's IRI may end in (SAREF's ``.../core/``)
_IRI_VERSION = re.compile(r"v?\d+(?:[._-]\d+)*", re.IGNORECASE)
_IRI_GENERIC_WORDS = {"ontology", "ontologies", "vocab", "voc", "vocabulary", "terms", "ns", "core", "def"}


def _without_format_suffixes(name: str) -> str:
    """``name`` without the format suffixes it ends with (``lexical-index.owl.ttl``: ``lexical-index``)."""
    while name.lower().endswith(_IRI_FILE_SUFFIXES) and name.rindex(".") > 0:
        name = name[: name.rindex(".")]
    return name


def ontology_name(iri: str) -> str:
    """An ontology named after its IRI (or CURIE): the last segment without its file suffixes
    (``https://w3id.org/oak/lexical-index.owl.ttl`` is *lexical-index*, ``http://example.org/ns/prov#``
    *prov*); a segment that is only a format word, a version or a word such as *ontology* is passed
    over (``.../summary_statistics/owl.ttl`` is *summary_statistics*, ``http://xmlns.com/foaf/0.1/``
    *foaf*, ``http://dbpedia.org/ontology/`` *dbpedia.org*), and so is a CURIE's
    (``linkml:text_annotator.owl.ttl`` is *linkml:text_annotator*; ``summary_statistics:owl.ttl`` is
    named by its prefix)."""
    words = {suffix[1:] for suffix in _IRI_FILE_SUFFIXES} | _IRI_GENERIC_WORDS | {""}

    def says_nothing(segment: str) -> bool:
        return segment.lower() in words or bool(_IRI_VERSION.fullmatch(segment))

    segments = re.split(r"[/#]", iri)
    if "://" in iri or iri.startswith("file:"):
        segments = segments[1:]                    # the scheme
    for segment in reversed(segments):
        segment = _without_format_suffixes(segment)
        prefix, _, local = segment.rpartition(":")
        if prefix and local.lower() in words:
            segment = prefix                       # a CURIE whose local name says nothing
        if not says_nothing(segment) and not segment.endswith(":"):
            return segment
    return ""


def file_name(path: str) -> str:
    """A source named after its file, without its format suffixes (``mondo.owl.ttl`` is *mondo*, as
    ``mondo.obo`` is); a compressed file after the file inside it."""
    return _without_format_suffixes(Path(inner_name(path)).name)


def own_name(name: str) -> str:
    """An ontology's name without a file suffix: HPO's OBO header says ``ontology: hp.obo``, its OWL
    release is ``.../obo/hp.owl``; both are ``hp``."""
    return name[: -len(".obo")] if name.endswith(".obo") and len(name) > len(".obo") else name


def without_own_name(version: str, name: str) -> str:
    """A version that repeats the ontology's name (HPO's ``hp/releases/2024-01-16``) or ends in the
    release's file (PATO's ``releases/2025-05-14/pato.obo``, whose OWL release's version IRI ends in
    ``.../releases/2025-05-14/pato.owl``) without it, as the OBO and the OWL readers both give it
    (``name`` with or without its file suffix): ``releases/2024-01-16``, ``releases/2025-05-14``."""
    owns = [own for own in dict.fromkeys((name, own_name(name))) if own]
    head = next((f"{own}/" for own in owns if version.startswith(f"{own}/") and len(version) > len(own) + 1), "")
    version = version[len(head):]
    for tail in (f"/{own}{suffix}" for own in owns for suffix in (".obo", ".owl")):
        if version.endswith(tail) and len(version) > len(tail):
            return version[: -len(tail)]
    return version


def file_of(line: Optional[int], default: Optional[str]) -> Optional[str]:
    """The file a line is in (``default`` for a plain number); None where there is no line."""
    return getattr(line, "path", default) if line else None


@dataclass
class RawConcept:
    """A concept as one file gives it (ids already normalised to CURIEs)."""

    id: str
    label: Optional[str] = None
    synonyms: List[str] = field(default_factory=list)
    #: the synonyms whose synonym type marks them as respellings (:func:`respelling_synonym_type`)
    respellings: List[str] = field(default_factory=list)
    #: names the build does not ask (OBO synonyms of the other scopes: RELATED, BROAD, NARROW with the
    #: default EXACT); a distractor that one of them names like the answer is no distractor
    other_names: List[str] = field(default_factory=list)
    definition: Optional[str] = None
    examples: List[str] = field(default_factory=list)
    line: Optional[int] = None
    #: the label is made from the IRI (a class with no label in this file): a merged file's real one wins
    label_from_iri: bool = False


@dataclass
class SourceData:
    """Everything one file yields: concepts, parent edges ``(child, parent, line)``, relation links
    ``(subject, relation, object, line)`` and what the file says about its relations."""

    path: str
    format: str
    name: str
    version: str
    concepts: Dict[str, RawConcept] = field(default_factory=dict)
    parents: List[Tuple[str, str, Optional[int]]] = field(default_factory=list)
    links: List[Tuple[str, str, str, Optional[int]]] = field(default_factory=list)
    relation_info: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    #: relations whose links are existential (OBO ``relationship:``, OWL ``someValuesFrom``): ``C r D``
    #: with ``D is_a E`` gives ``C r E``, so a link to a skipped concept goes on to its parents; a plain
    #: property between two concepts (``skos:related``, a table's link) is dropped instead
    existential_relations: set = field(default_factory=set)
    #: what the source's logical axioms entail beyond its parent edges: an intersection's named class
    #: (OBO ``intersection_of: G``, OWL ``C owl:equivalentClass [owl:intersectionOf (G ...)]``), a
    #: union's members (``union_of``: each member is a kind of C), an equivalent class (both ways), and
    #: an intersection's ``R D`` as the link ``C R D``. They widen the closures that keep a second correct
    #: answer out of the distractors, and are never asked as answers: a checker that reads the parent
    #: edges alone and one that reasons over the axioms both find one correct answer per question
    implied_parents: List[Tuple[str, str, Optional[int]]] = field(default_factory=list)
    implied_links: List[Tuple[str, str, str, Optional[int]]] = field(default_factory=list)
    #: the defined classes, ``(class, named conjuncts, [(relation, filler)], [union members, ...])``
    #: of ``C = G1 and ... and R some D and (A or B)``: a class under every conjunct is a kind of C
    #: (:func:`mcqa_probes.knowledge.source.classify`), also where no parent edge says so
    definitions: List[Tuple[str, List[str], List[Tuple[str, str]], List[List[str]]]] = field(default_factory=list)
    #: the defined classes whose definition is read in part (a conjunct that is a universal, negated or
    #: cardinality restriction): ``definitions`` holds the part understood, which covers more classes
    partial_definitions: set = field(default_factory=set)
    #: ``(class, domain)``: a class under a property's ``rdfs:domain`` through a restriction on it (also
    #: in ``implied_parents``; kept to be counted)
    domain_parents: List[Tuple[str, str]] = field(default_factory=list)
    #: the union classes, ``class -> [members]`` (OBO ``union_of``, OWL ``owl:unionOf``): under a root
    #: that holds every member, so is the class (``--root``)
    unions: Dict[str, List[str]] = field(default_factory=dict)
    #: sub-relations: ``relation -> [super-relation, ...]`` (OWL ``rdfs:subPropertyOf``, an OBO
    #: Typedef's ``is_a``): ``C member_of D`` is also ``C part_of D`` where member_of is_a part_of
    relation_parents: Dict[str, List[str]] = field(default_factory=dict)
    #: ranges: ``relation -> [class, ...]`` (OWL ``rdfs:range``, an OBO Typedef's ``range``): ``C located_in
    #: D`` with located_in's range *site* is ``C located_in some site`` too (validity closures only)
    relation_ranges: Dict[str, List[str]] = field(default_factory=dict)
    #: ``(relation, clause, other relation, line)``: a relation named by a clause of another's
    #: declaration (an OBO Typedef's ``inverse_of``), to count one that nothing declares
    relation_mentions: List[Tuple[str, str, str, Optional[int]]] = field(default_factory=list)
    #: ``(synonym type, line)`` of the first synonym clause typed by a type that no ``synonymtypedef``
    #: of an OBO file's header declares, one per type (counted; an error with --strict)
    undeclared_synonym_types: List[Tuple[str, Optional[int]]] = field(default_factory=list)
    #: the properties an RDF file declares (``rdf:Property``, ``owl:ObjectProperty``, ...): ``id -> its label``
    #: (or ''), to say so of a ``--root`` that names one
    properties: Dict[str, str] = field(default_factory=dict)
    #: ids skipped as obsolete / deprecated (an edge to one is dropped, not reported as undefined)
    obsolete: set = field(default_factory=set)
    #: the labels of those (lower case -> id), to say "obsolete" of a ``--root`` given by label
    obsolete_labels: Dict[str, str] = field(default_factory=dict)
    #: alternative ids (OBO ``alt_id``; OWL's deprecated class merged into its term, or
    #: ``oboInOwl:hasAlternativeId``) -> the term that has them, to name it for a ``--root`` given so
    alternatives: Dict[str, str] = field(default_factory=dict)
    #: ``(child, ancestor)`` stated by a transitive super-property of the hierarchy (``skos:broaderTransitive``,
    #: ``skos:broadMatch``, their inverses): also in ``implied_parents``; a cycle through them and the
    #: parent edges is refused as a cycle of the parents is
    hierarchy_implied: set = field(default_factory=set)
    #: ``(concept, property, object)`` of the SKOS mappings (``skos:exactMatch``, ``closeMatch``,
    #: ``broadMatch``, ``narrowMatch``, ``relatedMatch``) from a concept: one to a concept of another
    #: scheme, what they are for, is counted (``outside_mapping``), not taken for a broken axiom
    mappings: List[Tuple[str, str, str]] = field(default_factory=list)
    #: what an RDF file says of resources that it does not make concepts (untyped, or unlabelled in
    #: it): their names (``id -> RawConcept``) and the parent edges from them; used where several
    #: files are merged and another file makes them concepts (a thesaurus's labels in one file and
    #: its skos:narrower backbone in another; one file of labels per language), else not at all
    loose_concepts: Dict[str, RawConcept] = field(default_factory=dict)
    loose_parents: List[Tuple[str, str, Optional[int]]] = field(default_factory=list)
    #: likewise the links it states from or to such resources (``altar partOf nave``, the altar a
    #: concept of another file) and the equivalences (``owl:equivalentClass`` between named
    #: resources, ``skos:exactMatch``: implied parents both ways), kept where the merge has both ends
    loose_links: List[Tuple[str, str, str, Optional[int]]] = field(default_factory=list)
    loose_implied: List[Tuple[str, str, Optional[int]]] = field(default_factory=list)
    #: language tags seen on labels (RDF), with the number of concepts labelled in each, to say which
    #: --lang would find labels
    label_languages: Counter = field(default_factory=Counter)
    #: the ``(prefix, namespace)`` pairs its ids were made with (RDF), to read an IRI given as --root
    namespaces: List[Tuple[str, str]] = field(default_factory=list)
