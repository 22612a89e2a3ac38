"""RDF knowledge sources through ``rdflib``: OWL (RDF/XML, Turtle, N-Triples, JSON-LD; OWL/XML and the
functional and Manchester syntaxes as the RDF/XML that :mod:`~mcqa_probes.knowledge.owl_syntax` makes of
them), RDFS vocabularies (schema.org) and SKOS thesauri, into
:class:`~mcqa_probes.knowledge.ontology.SourceData`.

Concepts are the named resources typed as a class of the chosen kind (``owl``: ``owl:Class``;
``rdf``: ``rdfs:Class`` or ``owl:Class``; ``skos``: ``skos:Concept``, or untyped and labelled under
``skos:broader`` / ``narrower`` / ``related`` as SKOS entails; none given: all of these). For each,
the :class:`~mcqa_probes.knowledge.ontology.Vocabulary` says which property is the label, the
definition, a synonym and a parent (a concept's label is read from the first label property it has;
of the definition properties, the first one that the file uses at all is the one
read, so an OWL rendering of an OBO file, whose OBO comments became ``rdfs:comment``, takes its
definitions from ``IAO:0000115`` only (and a file that carries ``oboInOwl:id`` or
``oboInOwl:hasOBOFormatVersion``, what OWLAPI writes for an OBO file, never from ``rdfs:comment``,
names no class after its IRI and takes no bare declaration for a concept: it reads as its OBO
file); literals in the wanted language, else untagged ones (labels, synonyms and examples: untagged ones too, after those in the language, where the file names its
concepts in no other language); a value
that is a resource is read through its ``skosxl:literalForm`` (a SKOS-XL label) or ``rdf:value`` (a
structured note, as AGROVOC writes definitions)). Parents are named classes of ``rdfs:subClassOf`` and ``skos:broader`` (and the
inverse of ``skos:narrower``). Other relations are kept by property: an OWL existential restriction
``C rdfs:subClassOf [owl:onProperty P; owl:someValuesFrom D]`` is the link ``C P D`` (how OBO's
``relationship: P D`` is written in OWL), and any other property between two concepts
(``skos:related``) is a link too. A property's id is its ``oboInOwl:shorthand`` when it has one, else
its CURIE; example sentences (``skos:example``) are kept for the paper's context frames;
``owl:TransitiveProperty`` / ``owl:SymmetricProperty`` (and SKOS's own semantics) say how
it chains.

Deprecated resources (``owl:deprecated true``, schema.org's ``schema:supersededBy``, a thesaurus's
``dct:isReplacedBy``) are skipped. A
parse error is a :class:`~mcqa_probes.knowledge.ontology.SourceError` with the line when the parser
gives one.
"""
import ast
import codecs
import contextlib
import json
import logging
import re
import urllib.parse
import warnings
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from mcqa_probes.knowledge.graph import reachable
from mcqa_probes.knowledge.identifiers import KNOWN_PREFIXES, OBO_PURL, curie, expand, relation_name
from mcqa_probes.knowledge.ontology import (
    DEFAULT_DEFINITIONS, SYNTAX_BY_SUFFIX, RawConcept, SourceData, SourceError, SourceReport, Vocabulary, file_name,
    inner_name, inner_suffix, is_compressed, not_utf8, obsolete_synonym_type, ontology_name, own_name,
    respelling_synonym_type, source_bytes,
    source_head, source_text, without_own_name,
)
from mcqa_probes.knowledge.owl_syntax import OWL_SYNTAXES, owl_syntax_as_rdf, xml_error
from mcqa_probes.knowledge.text import label_from_iri

#: how an error message names rdflib's syntaxes
SYNTAX_NAMES = {"turtle": "Turtle", "n3": "N3", "nt": "N-Triples", "xml": "RDF/XML", "json-ld": "JSON-LD",
                "nquads": "N-Quads", "trig": "TriG"}
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
DC = "http://purl.org/dc/elements/1.1/"
DCTERMS = "http://purl.org/dc/terms/"
SKOS = "http://www.w3.org/2004/02/skos/core#"
SKOS_XL = "http://www.w3.org/2008/05/skos-xl#"
OBO_IN_OWL = "http://www.geneontology.org/formats/oboInOwl#"
#: how OWLAPI renders an OBO ``alt_id``: a class with the obsolescence reason (IAO:0000231) "terms
#: merged" (IAO:0000227), "term replaced by" (IAO:0100001) the term that has the alt_id
OBSOLESCENCE_REASON, TERMS_MERGED, REPLACED_BY = (OBO_PURL + "IAO_0000231", OBO_PURL + "IAO_0000227",
                                                  OBO_PURL + "IAO_0100001")
#: the ontology IRI OWLAPI (and so ROBOT) gives an OBO file that has no ``ontology:`` header
OWLAPI_UNNAMED = OBO_PURL + "TEMP"
SCHEMA = ("https://schema.org/", "http://schema.org/")
#: the types that declare a property (an ``owl:equivalentProperty`` between two of them is one relation)
PROPERTY_TYPES = (OWL + "ObjectProperty", RDF + "Property", OWL + "TransitiveProperty", OWL + "SymmetricProperty",
                  OWL + "FunctionalProperty", OWL + "InverseFunctionalProperty", OWL + "AsymmetricProperty",
                  OWL + "ReflexiveProperty", OWL + "IrreflexiveProperty")
CLASS_TYPES = {
    "owl": (OWL + "Class",),
    "rdf": (RDFS + "Class", OWL + "Class"),
    "skos": (SKOS + "Concept",),
}
#: properties that are never relation links between concepts
NOT_LINKS = {RDF + "type", RDFS + "subClassOf", SKOS + "broader", SKOS + "narrower", SKOS + "inScheme",
             SKOS + "topConceptOf", SKOS + "hasTopConcept", OWL + "equivalentClass", OWL + "disjointWith",
             RDFS + "seeAlso", RDFS + "isDefinedBy", OWL + "sameAs", DCTERMS + "isReplacedBy",
             # an obsolete term's replacement (OBO replaced_by, consider): no link of the term
             REPLACED_BY, OBO_IN_OWL + "consider"} | {s + "supersededBy" for s in SCHEMA}
#: the classes every class is a subclass of (``ex:Animal rdfs:subClassOf owl:Thing``): no parent to
#: keep, nor a concept never defined to report (with --strict, an error)
TOP_CLASSES = {OWL + "Thing", RDFS + "Resource"}
#: the SKOS properties whose subjects and objects are concepts by SKOS's semantics (so are the subject
#: of ``topConceptOf`` and the object of ``hasTopConcept``)
SKOS_CONCEPT_RELATIONS = ("broader", "narrower", "related", "broaderTransitive", "narrowerTransitive",
                          "semanticRelation")
#: SKOS's own semantics for the relations a thesaurus uses
#: (``X skos:broaderTransitive Y``: Y is broader than X; these two are relations only where skos:broader is
#: not the parent relation, else they widen its validity closures)
SKOS_RELATIONS = {"skos:related": {"name": "related to", "transitive": False, "symmetric": True},
                  "skos:broaderTransitive": {"name": "narrower than", "transitive": True, "symmetric": False},
                  "skos:narrowerTransitive": {"name": "broader than", "transitive": True, "symmetric": False},
                  # the mapping properties, asked as relations where --relations names them: exactMatch is
                  # symmetric and transitive, closeMatch and relatedMatch symmetric (SKOS Reference, S44-S46)
                  "skos:exactMatch": {"name": "an exact match of", "transitive": True, "symmetric": True},
                  "skos:closeMatch": {"name": "a close match of", "transitive": False, "symmetric": True},
                  "skos:relatedMatch": {"name": "a related match of", "transitive": False, "symmetric": True}}


#: an ``oboInOwl:id`` that is a class's CURIE (``EFO:0000001``), not a relation's name (``part_of``)
_OWN_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*:[^\s:/]+$")


def syntax_of(path: str) -> Optional[str]:
    return SYNTAX_BY_SUFFIX.get(inner_suffix(path))


def _sniff(path: str, given: Optional[str]) -> str:
    """The syntax to parse ``path`` with: OWL/XML (an ``<Ontology>`` root in OWL's namespace), the OWL
    functional syntax (``Prefix(`` / ``Ontology(``) or the Manchester syntax (``Prefix:`` /
    ``Ontology:``), which a ``.owl`` file may hold and :mod:`~mcqa_probes.knowledge.owl_syntax`
    reads; else ``given`` (by ``--format`` or the suffix), else (no suffix, ``--format rdf`` on
    ``x.data``, or an XML suffix on a text that does not open with a tag: a ``.owl`` saved as Turtle)
    by its first characters: JSON-LD (``{``, ``[``), RDF/XML (``<``), else Turtle. A ``.owx`` file
    that holds RDF/XML (an ``rdf:RDF`` root) is read as RDF/XML."""
    head = _head_text(path, 20_000)
    start = head.lstrip("\ufeff \t\r\n")
    owl_xml = re.search(r"<(?:owl:)?Ontology\b[^>]*xmlns(?::owl)?=\"http://www\.w3\.org/2002/07/owl#\"", head)
    if owl_xml and "rdf:RDF" not in head and "<RDF" not in head:
        return "owx"
    functional = re.search(r"^\s*(?:Ontology|Prefix)\s*([(:])", head, re.MULTILINE)
    if functional and not re.search(r"^\s*@?prefix\s+\w*:\s*<", head, re.MULTILINE | re.IGNORECASE):
        return "ofn" if functional.group(1) == "(" else "omn"
    xml = start.startswith("<") and not start.startswith("<http")
    if given == "owx" and xml and re.search(r"<(?:\w+:)?RDF\b", head):
        return "xml"        # RDF/XML saved as .owx
    if given is not None and not (given == "xml" and not xml):
        return given
    # no suffix, or an XML suffix on a text that is no XML (a .owl file saved as Turtle): by the text
    if start.startswith(("{", "[")):
        return "json-ld"
    return "xml" if xml else "turtle"


#: an RDF/XML root element's default namespace that ends in ``#`` (``xmlns="http://.../travel.owl#"``)
_DEFAULT_NAMESPACE = re.compile(r"""<(?:rdf:)?RDF\b[^>]*?\sxmlns\s*=\s*["']([^"'#]+)#["']""")


def _utf16_marked(data: bytes) -> bool:
    """Whether ``data`` opens with a UTF-16 byte order mark (either byte order)."""
    return data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def _head_text(path: str, size: int) -> str:
    """The first ``size`` bytes of ``path`` as text: UTF-16 where a byte order mark says so (XML may
    be in it: RDF/XML saved so by a Windows editor), else UTF-8 (a faulty byte replaced)."""
    head = source_head(path, size)
    if _utf16_marked(head):
        return head[:len(head) // 2 * 2].decode("utf-16", errors="replace")
    return head.decode("utf-8", errors="replace")


def _base_iri(path: str, syntax: str) -> str:
    """The base IRI that relative IRIs of ``path`` resolve against where the file gives none (no
    ``xml:base``, no ``@base``; a given one wins): never the file's place on disk, so that one file
    gives the same ids wherever it lies. An RDF/XML file whose default namespace is ``<NS>#`` (how
    Protégé 3 and Jena wrote ``rdf:ID="Hotel"`` without ``xml:base``) has ``<NS>``, so ``Hotel`` is
    ``<NS>#Hotel`` as its author meant; any other file ``file:///<its name>``."""
    if syntax == "xml":
        match = _DEFAULT_NAMESPACE.search(_head_text(path, 100_000))
        if match:
            return match.group(1)
    return "file:///" + urllib.parse.quote(inner_name(path) if is_compressed(path) else Path(path).name)


def _parse_source(path: str, syntax: str) -> Dict[str, object]:
    """What rdflib's ``parse`` reads for ``path`` (the file itself, or a compressed file's content),
    with :func:`_base_iri`."""
    base = _base_iri(path, syntax)
    local = _with_local_contexts(path) if syntax == "json-ld" else None
    if local is not None:
        return {"data": local, "publicID": base}
    if source_head(path, 3) == b"\xef\xbb\xbf":       # a byte order mark, which N-Triples and JSON-LD refuse
        return {"data": source_bytes(path)[3:], "publicID": base}
    return {"source": path, "publicID": base} if not is_compressed(path) else {"data": source_bytes(path),
                                                                                  "publicID": base}


def _with_local_contexts(path: str) -> Optional[bytes]:
    """A JSON-LD document whose ``@context`` names a file by a relative reference (LinkML's
    ``"@context": "staging/jsonld/meta.context.jsonld"``), with that file's context written in: the
    reference is the file's folder's, where rdflib, given the base the build gives every file
    (:func:`_base_iri`), looked at the root (``/staging/...``). None where no context is such a
    reference (or the text is no JSON: rdflib's error says where). A reference to no file is an
    error at the line of its ``@context``."""
    text = source_text(path, errors="replace")
    if '"@context"' not in text:
        return None
    try:
        document = json.loads(text.lstrip("\ufeff"))
    except ValueError:
        return None
    changed = False

    def resolved(context, folder: Path):
        nonlocal changed
        if isinstance(context, list):
            return [resolved(member, folder) for member in context]
        if not isinstance(context, str) or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", context):
            return context          # a context written in, or an IRI (https:, file:)
        target = folder / urllib.parse.unquote(context.split("#", 1)[0])
        try:
            loaded = json.loads(target.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            at = text.find(f'"{context}"')
            raise SourceError(path, f"not valid JSON-LD: its @context {context!r} could not be read from {target} "
                                    f"({_reason(error)}; expected a JSON-LD context file there, beside the file, "
                                    "or a context written in the file)",
                              text.count("\n", 0, at) + 1 if at >= 0 else None) from None
        changed = True
        return resolved(loaded.get("@context", {}) if isinstance(loaded, dict) else loaded, target.parent)

    for node in (document if isinstance(document, list) else [document]):
        if isinstance(node, dict) and "@context" in node:
            node["@context"] = resolved(node["@context"], Path(str(path)).parent)
    return json.dumps(document).encode("utf-8") if changed else None


def _refuse_obo_graphs(path: str) -> None:
    """An OBO Graphs JSON file (ROBOT's ``.json``: ``{"graphs": [{"nodes": ...}]}``) is no JSON-LD: rdflib
    reads no triple from it, so it is an error that says what it is and what to give instead."""
    head = source_head(path, 2_000).decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if re.match(r'\{\s*"graphs"\s*:', head) and "@context" not in head:
        raise SourceError(path, "an OBO Graphs JSON file (its \"graphs\" with their \"nodes\"), which is not read "
                                "(expected JSON-LD: give the ontology as OBO, or as OWL in RDF/XML or Turtle)", 1)


#: a JSON-LD keyword whose value must be a string (or null), followed by a value that is none: rdflib
#: drops a node whose ``"@id": 42`` it cannot read (its concept lost without a word) and stops on an
#: ``"@language": 5`` with a message of its own code ("argument of type 'int' is not iterable")
_JSONLD_NOT_A_STRING = re.compile(r'"(@id|@language)"\s*:\s*(?![\s"]|null\b)([^,}\]\s]*)')


def _check_jsonld_keywords(path: str) -> None:
    """Refuse a JSON-LD file in which ``@id`` or ``@language`` has a value that is not a string, at its line."""
    text = source_text(path, errors="replace")
    bad = _JSONLD_NOT_A_STRING.search(text)
    if bad:
        keyword, value = bad.group(1), bad.group(2) or "a non-string value"
        what = "an IRI or a compact IRI" if keyword == "@id" else "a language tag such as \"en\""
        raise SourceError(path, f"not valid JSON-LD: {keyword} is {value}, which is not a string (expected "
                                f"{what}, in quotes)", text.count("\n", 0, bad.start()) + 1)


#: the IRI schemes that an RDF file writes (an IRI of another "scheme" is a compact IRI whose prefix
#: is not defined: JSON-LD reads ``"skoz:broader"`` so, as an IRI of its own)
_IRI_SCHEMES = frozenset({"http", "https", "urn", "mailto", "file", "ftp", "tag", "data", "doi", "info", "uuid",
                          "did", "ark", "geo", "isbn", "tel", "ws", "wss", "ni"})
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(?!//)")


#: the local names of what the build reads beside the vocabulary's properties (classes, hierarchy,
#: schemes, deprecation, axioms, mappings, relations' declarations)
_READ_NAMES = frozenset({
    "type", "Concept", "ConceptScheme", "Class", "Collection", "member", "narrower", "broaderTransitive",
    "narrowerTransitive", "inScheme", "topConceptOf", "hasTopConcept", "deprecated", "supersededBy", "equivalentClass",
    "intersectionOf", "unionOf", "someValuesFrom", "onProperty", "Restriction", "literalForm", "related",
    "exactMatch", "closeMatch", "broadMatch", "narrowMatch", "relatedMatch", "hasRelatedSynonym", "hasBroadSynonym",
    "hasNarrowSynonym", "ObjectProperty", "TransitiveProperty", "SymmetricProperty", "inverseOf", "subPropertyOf",
    "Ontology", "versionInfo", "versionIRI", "title",
})


def _undefined_prefixes(path: str, graph, read_names: Iterable[str], report: SourceReport) -> None:
    """Properties and classes of a JSON-LD file written as compact IRIs with a prefix that its
    ``@context`` does not define (``"broader": {"@id": "skoz:broader"}``): JSON-LD takes such a name
    for an IRI of its own, so every statement written with it is lost to the build (was: the
    hierarchy of a thesaurus gone without a word). One whose local name the build reads
    (``read_names``, :data:`_READ_NAMES`) is an error at the first line that writes it; another is
    counted (``undefined_prefix``), as a clause the build does not use."""
    import rdflib  # lazy: RDF support is needed only for RDF sources

    names = {*graph.predicates(unique=True), *graph.objects(None, rdflib.RDF.type, unique=True)}
    schemes = {str(iri): _SCHEME.match(str(iri)) for iri in names if isinstance(iri, rdflib.URIRef)}
    undefined = sorted(iri for iri, scheme in schemes.items() if scheme and scheme.group(1).lower() not in _IRI_SCHEMES)
    if not undefined:
        return
    text = source_text(path, errors="replace")
    read = set(read_names) | _READ_NAMES

    def line_of(iri: str) -> Optional[int]:
        at = text.find(f'"{iri}"')
        return text.count("\n", 0, at) + 1 if at >= 0 else None

    for iri in undefined:
        local = iri.split(":", 1)[1]
        if local in read:
            uses = len(list(graph.triples((None, rdflib.URIRef(iri), None)))) + len(
                list(graph.triples((None, rdflib.RDF.type, rdflib.URIRef(iri)))))
            raise SourceError(path, f"not valid JSON-LD here: '{iri}' is a compact IRI whose prefix "
                                    f"'{_SCHEME.match(iri).group(1)}' the @context does not define ({uses} statement"
                                    f"{'s' * (uses != 1)} written with it; expected a prefix that the @context "
                                    "defines, or a full IRI)", line_of(iri))
        report.add("undefined_prefix", path, line_of(iri), f"'{iri}'")


def _syntax(path: str, syntax: Optional[str]) -> str:
    """The syntax a file is read in: the one given, else its suffix's, else what its text tells (a
    suffix that says nothing, or an XML that is no RDF/XML)."""
    used = syntax or syntax_of(path)
    return _sniff(path, used) if used in (None, "xml", "owx") else used


def _parse(path: str, syntax: Optional[str], report: Optional[SourceReport] = None):
    import rdflib  # lazy: RDF support is needed only for RDF sources

    used = _syntax(path, syntax)
    if used == "json-ld":
        _refuse_obo_graphs(path)
        _check_jsonld_keywords(path)
    graph = rdflib.Graph()
    # OWL/XML, functional, Manchester: the RDF/XML that py-horned-owl writes, with the file's prefixes
    rdf_xml, prefixes = owl_syntax_as_rdf(path, used, report) if used in OWL_SYNTAXES else (None, [])
    try:
        with warnings.catch_warnings(), _rdflib_log() as logged:   # rdflib's JSON-LD parser uses its own deprecated ConjunctiveGraph
            warnings.simplefilter("ignore", DeprecationWarning)
            if rdf_xml is not None:
                graph.parse(data=rdf_xml, format="xml", publicID=_base_iri(path, used))
                for prefix, namespace in prefixes:
                    if prefix:
                        graph.bind(prefix, namespace, override=True)
            elif used in ("nquads", "trig"):
                # quads in named graphs: the union of every graph, as one file of triples
                dataset = rdflib.Dataset(default_union=True)
                dataset.parse(**_parse_source(path, used), format=used)
                for prefix, namespace in dataset.namespaces():
                    graph.bind(prefix, namespace, override=False)
                for triple in dataset.triples((None, None, None)):
                    graph.add(triple)
            else:
                graph.parse(**_parse_source(path, used), format=used)
    except SourceError:         # what reading the file for rdflib found (_with_local_contexts): said so
        raise
    except Exception as error:  # rdflib raises a different class per syntax; each says where
        if rdf_xml is not None:     # py-horned-owl wrote RDF/XML that rdflib does not read: no line of the file
            raise SourceError(path, f"read as {OWL_SYNTAXES[used]}, but its RDF rendering cannot be read "
                                    f"({_reason(error)}); save the ontology as RDF/XML or Turtle") from None
        # a text syntax is UTF-8 (RDF/XML may declare another encoding; its parser gives the line)
        encoding_error = None if used == "xml" else not_utf8(path, f"a UTF-8 {SYNTAX_NAMES.get(used, used)} file")
        if encoding_error is not None:
            raise encoding_error from None
        if used == "json-ld" and ("urlopen error" in str(error) or type(error).__name__ in ("URLError", "HTTPError")):
            text = source_text(path, errors="replace")
            # the context named by a URL (of a list, the first one a machine must reach: not a file:/// one)
            context = re.search(r'"@context"\s*:\s*(\[[^\]]*\]|"[^"]*")', text)
            remote = re.search(r'"((?:https?|ftp)://[^"]+)"', context.group(1)) if context else None
            remote = remote or (re.search(r'"([^"]+)"', context.group(1)) if context else None)
            raise SourceError(path, f"not valid JSON-LD: its @context {remote.group(1) if remote else ''} could not "
                                    f"be fetched ({_reason(error)}); expected a context written in the file, or a "
                                    "machine that can reach its URL",
                              text.count("\n", 0, context.start()) + 1 if context else None) from None
        if used == "xml":
            data = source_bytes(path)
            declared = re.match(rb"""(?:\xef\xbb\xbf)?<\?xml[^>]*?encoding\s*=\s*["']([\w.:-]+)["']""", data)
            if not _utf16_marked(data) and (
                    declared is None or declared.group(1).lower().replace(b"_", b"-") in (b"utf-8", b"utf8")):
                # a byte that is no UTF-8 in a file that declares no other encoding: the parser's
                # "invalid token" would point at '&' and '<'
                encoding_error = not_utf8(path, "a UTF-8 RDF/XML file, or an encoding named by its first line "
                                                "(<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>)")
                if encoding_error is not None:
                    raise encoding_error from None
            # rdflib's RDF handler may stop on what a tag left open makes of the elements after it,
            # before the XML parser reaches the fault: the XML is tested first
            malformed = xml_error(data)
            if malformed is not None:
                raise SourceError(path, f"not valid {SYNTAX_NAMES[used]}: {malformed[0]}", malformed[1]) from None
        with _rdflib_log():         # the parses that look for the line warn as the first one did
            line, reason = _turtle_line(path) if used in ("turtle", "n3") else (None, None)
            reason = reason or _reason(error)
            # else the line of the text around the fault, then rdflib's own count (it drifts on large Turtle files)
            line = line or _line_of_context(error, path) or _error_line(error)
        if used == "xml" and line and reason.strip() == "unbound prefix":
            reason = _unbound_prefix(path, line) or reason
        raise SourceError(path, f"not valid {SYNTAX_NAMES.get(used, used)}: {reason}", line) from None
    if used in ("turtle", "n3", "nt", "nquads", "trig"):
        _check_escapes(path, used)
    # rdflib reads an IRI with a space and only warns (the build reads it as written): counted with its line
    bad_iris = sorted({bad.group(1) for bad in (_BAD_IRI.match(record.getMessage()) for record in logged) if bad})
    if bad_iris and report is not None:
        text = source_text(path, errors="replace")
        for iri in bad_iris:
            at = text.find(iri)
            report.add("invalid_iri", path, text.count("\n", 0, at) + 1 if at >= 0 else None, f"<{iri}>")
    return graph


#: a ``\\u`` or ``\\U`` escape (after an even number of backslashes: not itself escaped) without its
#: four or eight hexadecimal digits
_BAD_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\(?:u(?![0-9A-Fa-f]{4})|U(?![0-9A-Fa-f]{8}))")


def _check_escapes(path: str, used: str) -> None:
    """A text syntax's ``\\u`` escape needs four hexadecimal digits and ``\\U`` eight (rdflib keeps
    ``\\u00ZZ`` as those six characters): an error at its line (a comment line is passed over)."""
    data = source_bytes(path)
    if b"\\u" not in data and b"\\U" not in data:
        return
    for number, line in enumerate(data.decode("utf-8", errors="replace").split("\n"), 1):
        found = _BAD_ESCAPE.search(line) if "\\" in line and not line.lstrip().startswith("#") else None
        if found:
            escape = line[found.end() - 1]
            written = re.match(r"\\%s\w{0,%d}" % (escape, 4 if escape == "u" else 8), line[found.end() - 2:]).group()
            raise SourceError(path, f"not valid {SYNTAX_NAMES.get(used, used)}: the escape '{written}' has too few "
                                    "hexadecimal digits (expected \\u and four, or \\U and eight: \\u00e9 for é; "
                                    "a backslash itself is written \\\\)", number)


def _unbound_prefix(path: str, line: int) -> Optional[str]:
    """rdflib's "unbound prefix" of an RDF/XML file, with the prefix that line ``line`` writes and no
    ``xmlns:`` declares (``<agro:code>``), and what was expected; None where none is found."""
    text = source_text(path, errors="replace")
    declared = {prefix for prefix, _ in _XML_PREFIX.findall(text)} | {"xml", "xmlns"}
    written = text.split("\n")[line - 1] if line <= text.count("\n") + 1 else ""
    for match in re.finditer(r"</?([A-Za-z_][\w.-]*):[\w.-]+|\s([A-Za-z_][\w.-]*):[\w.-]+\s*=", written):
        prefix = match.group(1) or match.group(2)
        if prefix not in declared:
            shown = match.group().strip().rstrip("=").strip()
            shown = shown + ">" if shown.startswith("<") else f"the attribute {shown}"
            return (f"unbound prefix '{prefix}' ({shown}; expected an xmlns:{prefix}=\"...\" "
                    "declaration, on the root element or on an element around it)")
    return None


#: rdflib's warning about an IRI it read anyway
_BAD_IRI = re.compile(r"^(.*) does not look like a valid URI")


@contextlib.contextmanager
def _rdflib_log():
    """rdflib's log records while a file is parsed, kept here instead of printed (a literal it cannot
    convert, an rdf:XMLLiteral with an unbound prefix, prints a traceback on stderr: the value is
    kept as text, which is all the build reads); yields the list of records."""
    records: List[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger, handler = logging.getLogger("rdflib"), Keep()
    propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield records
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


#: a Turtle file larger than this is not searched for its faulty statement (rdflib's line is given)
TURTLE_SEARCH_BYTES = 50_000_000
_DIRECTIVE = re.compile(r"^\s*(@prefix|@base|PREFIX|BASE)\b", re.IGNORECASE)


def _turtle_line(path: str) -> Tuple[Optional[int], Optional[str]]:
    """The line of a Turtle file's first faulty statement: rdflib's own line count (and the text it
    shows around the fault) drift by up to thousands of lines in a large file. The file is cut at
    statement ends (a line ending in ``.`` followed by a line that is not indented) into blocks that
    are parsed one after the other with the prefix declarations above them (about one parse of the
    file in all); in the first block that fails, the faulty statement is found by bisection and
    parsed alone, where rdflib counts right. A "statement" that parses once it runs on to a later
    end was cut inside a string over several lines, and the search goes on after it; the head of the
    file before the statement found must parse (else None, and rdflib's line is given). Returns
    ``(line, reason)``: the reason is said here only for a string in triple quotes that is never
    closed (the line where it opens), else None (rdflib's)."""
    import rdflib  # lazy: RDF support is needed only for RDF sources

    try:
        if not is_compressed(path) and Path(path).stat().st_size > TURTLE_SEARCH_BYTES:
            return None, None       # a large file is not read again only to find the line
        text = source_text(path)
        if len(text) > TURTLE_SEARCH_BYTES:
            return None, None
        # a byte order mark before the first declaration, and Windows line ends (a line of "\r" only
        # is no indentation): as without them, every line keeping its number
        lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
    except (OSError, UnicodeDecodeError):
        return None, None
    directives = [i for i, line in enumerate(lines) if _DIRECTIVE.match(line)]

    def text(first: int, last: int) -> Tuple[str, int]:
        """Lines ``first..last`` with the declarations above them; and how many those are."""
        header = [lines[i] for i in directives if i < first]
        return "\n".join(header + lines[first: last + 1]), len(header)

    def error_of(source: str) -> Optional[Exception]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                rdflib.Graph().parse(data=source, format="turtle")
        except Exception as error:      # noqa: BLE001 (any parser error: where it is is what is wanted)
            return error
        return None

    inside, (opened, quote) = _inside_long_strings(lines)
    if opened is not None:              # a string in triple quotes never closed: where it opens
        return opened + 1, f"a string in triple quotes opens here and is never closed (expected a closing {quote})"
    ends = [i for i, line in enumerate(lines) if line.rstrip().endswith(".") and not inside[i]
            and (i + 1 < len(lines) and not lines[i + 1][:1].isspace())] + [len(lines) - 1]
    block, start = 256, 0
    while start < len(ends):
        first = ends[start - 1] + 1 if start else 0
        stop = min(start + block, len(ends)) - 1
        if error_of(text(first, ends[stop])[0]) is None:
            start = stop + 1
            continue
        low, high = start - 1, stop                 # statements up to ends[low] parse, up to ends[high] fail
        while high - low > 1:
            middle = (low + high) // 2
            if error_of(text(first, ends[middle])[0]) is not None:
                high = middle
            else:
                low = middle
        head = ends[low] + 1 if low >= 0 else 0
        # a cut inside a string over several lines: the statement parses once it goes on to a later end
        later = next((j for j in range(high + 1, min(high + 64, len(ends)))
                      if error_of(text(head, ends[j])[0]) is None), None)
        if later is not None:
            start = later + 1
            continue
        if head and error_of("\n".join(lines[:head])) is not None:
            return None, None               # the file before it does not parse: the cuts misled the search
        chunk, header = text(head, ends[high])
        error = error_of(chunk)
        if error is None:
            return None, None
        # the text around the fault (exact in a small input), else rdflib's count (one line too many
        # per continued object list before the fault)
        found = _line_in_text(error, chunk) or _error_line(error)
        if found and found > header:
            return head + found - header, None
        # no line given (the file ends inside the statement): the statement's first line
        return next((i + 1 for i in range(head, len(lines))
                     if lines[i].strip() and not lines[i].lstrip().startswith("#")), head + 1), None
    return None, None


#: what a Turtle line holds that can hide a ``.`` or a quote: an IRI, a comment, a string
_TURTLE_TOKEN = re.compile(r'"""|\'\'\'|<[^<>"{}|^`\\\s]*>|#|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')


def _inside_long_strings(lines: List[str]) -> Tuple[List[bool], Tuple[Optional[int], Optional[str]]]:
    """Per line, whether its end is inside a string in triple quotes (a line there ending in ``.``
    ends no statement); and the index of the line where such a string opens and is never closed,
    with its quotes (None, None when every one is)."""
    inside: List[bool] = []
    quote, opened = None, None
    for number, line in enumerate(lines):
        position = 0
        while position <= len(line):
            if quote is not None:               # in a long string: to its closing quotes, escapes skipped
                close = re.compile(r"(?:[^\\]|\\.)*?" + re.escape(quote)).match(line, position)
                if close is None:
                    break
                quote, position = None, close.end()
                continue
            token = _TURTLE_TOKEN.search(line, position)
            if token is None or token.group() == "#":
                break
            if token.group() in ('"""', "'''"):
                quote, opened = token.group(), number
            position = token.end()
        inside.append(quote is not None)
    return inside, ((opened, quote) if quote is not None else (None, None))


def _line_of_context(error: Exception, path: str) -> Optional[int]:
    """The line of an N3 / Turtle error that gives none (a string cut short): rdflib shows the text
    around the fault as ``at ^ in <before>^<after>``; that text is looked up in the file."""
    invalid = re.match(r"^Invalid line:\s*(.*)$", str(error).strip())        # N-Triples: the rest of the line
    if invalid:
        try:
            lines = source_text(path, errors="replace").splitlines()
        except OSError:
            return None
        import rdflib  # lazy: RDF support is needed only for RDF sources

        rest = invalid.group(1).strip()
        if not rest:        # nothing left to show: a statement not ended by " ." ran into the end of the file
            return next((number for number, line in enumerate(lines, 1)
                         if line.strip() and not line.lstrip().startswith("#") and not line.rstrip().endswith(".")), None)
        for number, line in enumerate(lines, 1):
            if line.rstrip().endswith(rest):
                try:
                    rdflib.Graph().parse(data=line, format="nt")
                except Exception:       # the first line that ends so and does not parse alone
                    return number
        return None
    if not re.search(r"at \^ in", str(error)):
        return None
    try:
        text = source_text(path, errors="replace")
    except OSError:
        return None
    return _line_in_text(error, text)


def _line_in_text(error: Exception, text: str) -> Optional[int]:
    """The line of ``text`` where the text rdflib shows around a Turtle / N3 fault (``at ^ in``) is,
    when it is there once."""
    match = re.search(r"at \^ in:?[ \n]?(.*)\Z", str(error), re.DOTALL)
    if not match:
        return None
    context = match.group(1).strip()
    quoted = re.match(r"""^"(?:\.\.\.)?(b'(?:[^'\\]|\\.)*'|b"(?:[^"\\]|\\.)*")\^(b'(?:[^'\\]|\\.)*'|b"(?:[^"\\]|\\.)*")(?:\.\.\.)?"$""",
                      context, re.DOTALL)
    if quoted:      # rdflib 7 shows the text around the fault as Python bytes: "...b'<before>'^b'<after>'..."
        try:
            pieces = [ast.literal_eval(piece).decode("utf-8", errors="replace") for piece in quoted.groups()]
        except (ValueError, SyntaxError):
            pieces = None
        if pieces:
            where = text.find(pieces[0] + pieces[1])
            if pieces[0] + pieces[1] and where >= 0 and text.find(pieces[0] + pieces[1], where + 1) < 0:
                return text.count("\n", 0, where + len(pieces[0])) + 1
    for mark in [m.start() for m in re.finditer(r"\^", context)]:    # '^^' datatypes hold carets too
        before, after = context[:mark], context[mark + 1:]
        where = text.find(before + after)
        if before + after and where >= 0 and text.find(before + after, where + 1) < 0:
            return text.count("\n", 0, where + len(before)) + 1
    return None


#: where rdflib's RDF/XML parser says a grammar error is: the file's URI, line and column
_RDF_XML_WHERE = re.compile(r"^\S+?:(\d+):\d+:\s*")


def _error_line(error: Exception) -> Optional[int]:
    match = re.search(r"\bline (\d+)", str(error))      # Turtle / N3: "at line 4 of <...>" (1-based)
    if match:
        return int(match.group(1))
    match = _RDF_XML_WHERE.match(str(error))                # RDF/XML grammar: "file:///x.owl:6:35: ..."
    if match:
        return int(match.group(1))
    for attribute in ("lineno", "line"):
        value = getattr(error, attribute, None)
        if isinstance(value, int) and value > 0:
            return value
    getter = getattr(error, "getLineNumber", None)     # xml.sax.SAXParseException
    return getter() if callable(getter) else None


#: rdflib's Turtle error shows the text around the fault as two bytes literals: ``b'...'^b'...'``
_BYTES_AROUND_CARET = re.compile(r"""b(['"])((?:\\.|(?!\1).)*)\1\^b(['"])((?:\\.|(?!\3).)*)\3""")


def _bytes_literal(quote: str, body: str) -> bytes:
    """The bytes of a Python bytes literal's body as rdflib's message shows it (``imp\\xc3\\xb4t``)."""
    try:
        return ast.literal_eval(f"b{quote}{body}{quote}")
    except (ValueError, SyntaxError):
        return body.encode("utf-8", "replace")


def _around_caret(match) -> str:
    """The text around rdflib's caret, decoded (``impôt``, not ``imp\\xc3\\xb4t``), the caret after a
    character that it cut in two."""
    before, after = _bytes_literal(*match.group(1, 2)), _bytes_literal(*match.group(3, 4))
    while after and 0x80 <= after[0] < 0xC0:       # a UTF-8 continuation byte: its character goes before
        before, after = before + after[:1], after[1:]
    return before.decode("utf-8", "replace") + "^" + after.decode("utf-8", "replace")


def _bad_syntax_text(error: Exception) -> Optional[str]:
    """rdflib's Turtle / N3 complaint (its ``BadSyntax``) with the text around the fault cut from the
    text: rdflib counts the fault's place in characters and cuts the UTF-8 bytes there, so each
    character of two bytes or more before it moved the excerpt back by one (an earlier statement, a
    character cut in two: ``�ñññ ... ^; skos:prefLabel``). None for another error."""
    data, at, why = getattr(error, "_str", None), getattr(error, "_i", None), getattr(error, "_why", None)
    if not isinstance(data, bytes) or not isinstance(at, int) or why is None:
        return None
    text = data.decode("utf-8", "replace")
    return (f'Bad syntax ({why}) at ^ in: "{"..." if at > 60 else ""}{text[max(0, at - 60):at]}^'
            f'{text[at:at + 60]}{"..." if len(text) - at > 60 else ""}"')


def _reason(error: Exception) -> str:
    text = " ".join((_bad_syntax_text(error) or _BYTES_AROUND_CARET.sub(_around_caret, str(error))).split())
    text = re.sub(r"^at line \d+ of <[^>]*>:\s*", "", text)
    text = _RDF_XML_WHERE.sub("", text)
    if text == "Invalid line:":     # N-Triples, at the end of the file
        text = "Invalid line (expected a triple ended by ' .')"
    elif text.startswith("Invalid line: "):      # N-Triples: rdflib shows the rest of the line from where it stopped
        rest = text[len("Invalid line: "):]
        iri = re.match(r"<([^<>]*)>", rest)
        if iri and " " in iri.group(1):
            text = f"the IRI <{iri.group(1)}> has a space in it (expected an IRI without spaces; a space is %20)"
        elif rest.startswith("<") and not iri:
            text = f"the IRI {rest.split()[0][:80]} is never closed (expected a '>' at its end)"
        else:
            text = (f"no term starts at '{rest[:80]}{' ...' if len(rest) > 80 else ''}' (expected an <IRI>, a _:blank "
                    f"node or a \"literal\", and a triple ended by ' .')")
    if isinstance(error, IndexError):   # rdflib's Turtle parser ran off the end of the text
        text = "the file ends inside a statement (expected one ended by ' .')"
    return (text[:200] + " ...") if len(text) > 200 else (text or type(error).__name__)


def line_naming(path: str, identifier: str, namespaces: Iterable[Tuple[str, str]], every: bool = False,
                subject: bool = False):
    """The first line of an RDF file that names ``identifier`` (a CURIE or an IRI): as its full IRI, as
    a prefixed name with one of the file's prefixes (its empty one too), or as its ``oboInOwl:id``.
    rdflib gives statements no line numbers; for an edge to or from a concept never defined this is
    the line that names it (a comment that names it is no statement: passed over, an XML comment, or
    in Turtle and N-Triples a line that starts with ``#``). ``every``: the list of every such line
    (:func:`lines_naming`). ``subject``: only a line that names it as a statement's subject (first on
    its line in Turtle and N-Triples, in the ``rdf:about`` of an RDF/XML element), else the first that
    names it (a deprecated concept is shown where it is described, not where another one links to it)."""
    numbers: List[int] = []
    try:
        text = source_text(path, errors="replace")
    except OSError:
        return numbers if every else None
    pairs = list(namespaces) + _DECLARED_PREFIX.findall(text) + _XML_PREFIX.findall(text)
    if text.lstrip("\ufeff \t\r\n")[:1] in ("{", "["):         # JSON-LD: the prefixes of its @context
        pairs += _JSON_PREFIX.findall(text)
    head = identifier.split(":", 1)[0]
    # every IRI the id can stand for (schema: is https://schema.org/ and http://schema.org/)
    iris = {expand(identifier, {}), *(expand(identifier, {prefix: namespace}) for prefix, namespace in
                                      [*pairs, *((p, n) for n, p in KNOWN_PREFIXES)] if prefix == head)}
    # a name ends where no name character follows (``ex:c1`` is not named by ``ex:c10``, ``ex:c1.5``
    # nor ``<http://x/c1/part>``; a statement's closing ``.`` may follow)
    start, end = r"(?<![\w.-])", r"(?![\w-]|[./#][\w-])"
    # the id written as a text: quoted (Turtle, JSON-LD) or an XML element's (``<oboInOwl:hasAlternativeId
    # ...>CHEBI:0000915</...>``, ``<oboInOwl:id>``)
    forms = [re.escape(f'"{identifier}"'), re.escape(f">{identifier}<")] + [start + re.escape(iri) + end
                                                                          for iri in sorted(iris)]
    forms += [start + re.escape(f"{prefix}:{iri[len(namespace):]}") + end
              for iri in sorted(iris) for prefix, namespace in pairs
              if namespace and iri.startswith(namespace) and len(iri) > len(namespace)]
    # an XML entity for the namespace (``IRI="&obo;VO_0000023"``, as OWLAPI writes RDF/XML and OWL/XML)
    forms += [re.escape(f"&{entity};{iri[len(namespace):]}") + end
              for iri in sorted(iris) for entity, namespace in _XML_ENTITY.findall(text)
              if namespace and iri.startswith(namespace) and len(iri) > len(namespace)]
    # written relative to the file's base (``rdf:ID="Apple"``, ``rdf:resource="#Apple"`` under an
    # ``xml:base``; ``<Apple>`` under Turtle's ``@base``; JSON-LD's ``"@id": "Apple"``): was no line
    forms += [re.escape(form) for iri in sorted(iris) for form in _relative_forms(iri, _bases(path, text))]
    # not in an XML comment: OWLAPI writes ``<!-- http://purl.obolibrary.org/obo/PO_0000003 -->`` above
    # each class, and the error is for the statement under it
    comments = [match.span() for match in re.finditer(r"<!--.*?-->", text, re.S)] if "<!--" in text else []
    if not text.lstrip().startswith("<"):
        # OWLAPI's Turtle writes ``###  http://purl.obolibrary.org/obo/PO_0000003`` above each class
        comments += [match.span() for match in re.finditer(r"(?m)^[ \t]*#.*$", text)]
    first = None
    for found in re.finditer("|".join(forms), text):
        if not any(begin <= found.start() < end for begin, end in comments):
            number = text.count("\n", 0, found.start()) + 1
            if subject:
                before = text[text.rfind("\n", 0, found.start()) + 1:found.start()]
                first = first or number
                if (before.strip() not in ("", "<") and not re.search(r"rdf:about=[\"']?$", before)
                        and not found.group().startswith("rdf:ID=")):
                    continue
            if not every:
                return number
            numbers.append(number)
    return numbers if every else first


#: a base IRI that a file declares: RDF/XML's ``xml:base``, Turtle's ``@base`` / ``BASE``, JSON-LD's ``@base``
_DECLARED_BASE = re.compile(r"xml:base\s*=\s*[\"']([^\"']+)[\"']|^[ \t]*@?base[ \t]*<([^>]*)>|\"@base\"\s*:\s*\"([^\"]+)\"",
                            re.IGNORECASE | re.MULTILINE)


def _bases(path: str, text: str) -> List[str]:
    """The base IRIs that relative IRIs of the file may be resolved against: those it declares, and
    the one the reader gives it where it declares none (:func:`_base_iri`)."""
    declared = [next(group for group in match.groups() if group) for match in _DECLARED_BASE.finditer(text)]
    return list(dict.fromkeys([*declared, _base_iri(path, "xml"), _base_iri(path, "turtle")]))


def _relative_forms(iri: str, bases: Sequence[str]) -> List[str]:
    """How a file may write ``iri`` relative to one of ``bases``: ``"#Apple"`` / ``"Apple"`` (an XML
    attribute or a JSON-LD ``@id``), ``<Apple>`` (Turtle), ``rdf:ID="Apple"`` (RDF/XML); each form one
    that resolves to the IRI against such a base."""
    references = []
    if "#" in iri:
        references.append("#" + iri.split("#", 1)[1])
    tail = iri.rsplit("/", 1)[-1]
    if tail and tail != iri:
        references.append(tail)
    forms = []
    for reference in dict.fromkeys(references):
        if not any(urllib.parse.urljoin(base, reference) == iri for base in bases):
            continue
        forms += [f'"{reference}"', f"'{reference}'", f"<{reference}>"]
        if reference.startswith("#"):
            forms += [f'rdf:ID="{reference[1:]}"', f"rdf:ID='{reference[1:]}'"]
    return forms


def edge_line(path: str, child: str, parent: str, namespaces: Iterable[Tuple[str, str]]) -> Optional[int]:
    """The first line of an RDF file that states an edge ``child -> parent`` (rdflib gives no lines):
    one that names both, else one that names the parent inside the child's statement (Turtle: under
    the unindented line that names the child as its subject; RDF/XML: under the ``rdf:about`` line
    that names it). None where no line does (for an error only: the file is searched)."""
    namespaces = list(namespaces)
    child_lines = set(line_naming(path, child, namespaces, every=True) or [])
    parent_lines = line_naming(path, parent, namespaces, every=True) or []
    both = sorted(child_lines.intersection(parent_lines))
    if child == parent:     # an edge to itself: a line naming it twice (one line per mention in the list)
        both = sorted(number for number in child_lines if parent_lines.count(number) > 1)
    if both:
        return both[0]
    try:
        lines = source_text(path, errors="replace").split("\n")
    except OSError:
        return None
    xml = "\n".join(lines[:5]).lstrip().startswith("<")
    if "\n".join(lines[:5]).lstrip("\ufeff \t\r\n")[:1] in ("{", "["):
        return _json_edge_line(lines, child_lines, parent_lines)

    def subject_line(text: str) -> bool:
        if xml:
            return "rdf:about=" in text or "rdf:nodeID=" in text or "rdf:ID=" in text
        return bool(text) and not text[0].isspace() and text[0] not in "#@" and not text.upper().startswith(
            ("PREFIX", "BASE"))

    for number in parent_lines:
        above = next((n for n in range(number, 0, -1) if subject_line(lines[n - 1])), None)
        if above in child_lines and not (child == parent and above == number):
            return number
    return None


def literal_line(path: str, subject: Optional[str], text: str, namespaces: Iterable[Tuple[str, str]]) -> Optional[int]:
    """The first line of an RDF file that writes the literal ``text`` (quoted, or as an XML element's
    text) in a statement about ``subject`` (a line naming it, or one under the line that does; any
    statement where ``subject`` is None): the line of a parent given as a text, not of an edge to the
    concept of that id (:func:`edge_line` would find both)."""
    try:
        lines = source_text(path, errors="replace").split("\n")
    except OSError:
        return None
    written = re.compile("|".join(re.escape(form) for form in (f'"{text}"', f"'{text}'", f">{text}<")))
    holding = [number for number, line in enumerate(lines, 1) if written.search(line)]
    if subject is None or not holding:
        return holding[0] if holding else None
    naming = sorted(set(line_naming(path, subject, namespaces, every=True) or []))
    for number in holding:
        if number in naming:
            return number
        above = [n for n in naming if n < number]
        # the nearest line above that names the subject, with no statement about another one between
        if above and not any(lines[n - 1][:1] not in ("", " ", "\t") and not lines[n - 1].lstrip().startswith("#")
                             for n in range(above[-1] + 1, number)):
            return number
    return None


def _json_edge_line(lines: List[str], child_lines, parent_lines) -> Optional[int]:
    """:func:`edge_line` in JSON-LD: a line that names the parent inside the object whose ``"@id"``
    names the child (the nearest ``"@id"`` line above it that opens an object less indented than an
    ``"@id"`` of the parent's own, as rdflib writes ``"skos:broader": {`` / ``"@id": "a:art"``)."""
    def indent(text: str) -> int:
        return len(text) - len(text.lstrip())

    for number in parent_lines:
        line = lines[number - 1]
        own = line.lstrip().lstrip("{ ").startswith('"@id"')
        above = next((n for n in range(number - 1, 0, -1) if lines[n - 1].lstrip().lstrip("{ ").startswith('"@id"')
                      and (indent(lines[n - 1]) < indent(line) if own else indent(lines[n - 1]) <= indent(line))), None)
        if above in child_lines:
            return number
    return None


#: a JSON-LD @context's prefix (``"skos": "http://www.w3.org/2004/02/skos/core#"``)
_JSON_PREFIX = re.compile(r'"([A-Za-z_][\w.-]*)"\s*:\s*"([a-z][a-z0-9+.-]*:[^"\s]*[/#:])"')
#: ``@prefix p: <ns> .`` / ``PREFIX p: <ns>`` (Turtle, SPARQL style) and ``xmlns:p="ns"`` (RDF/XML)
_DECLARED_PREFIX = re.compile(r"(?:@prefix|PREFIX)\s+([A-Za-z0-9_.-]*):\s*<([^>]*)>", re.IGNORECASE)
_XML_PREFIX = re.compile(r'xmlns:([A-Za-z0-9_.-]+)\s*=\s*"([^"]*)"')
#: ``<!ENTITY obo "http://purl.obolibrary.org/obo/" >`` (RDF/XML, OWL/XML)
_XML_ENTITY = re.compile(r'<!ENTITY\s+([A-Za-z0-9_.-]+)\s+"([^"]*)"')


def _pick(values: List, lang: str, every: bool = False, untagged_alone: bool = True) -> List:
    """Literals in ``lang`` (the exact tag first, then the same language under another region), else
    untagged ones (never another language, never a resource), in a fixed order. ``every``: the
    untagged ones after those in ``lang`` in any case (names: a converter may tag some synonyms
    ``@en`` and leave others plain, and every one of them is a name of the concept);
    ``untagged_alone=False``: never the untagged ones alone (a multilingual thesaurus's untagged
    synonyms are of no one language)."""
    import rdflib  # lazy: RDF support is needed only for RDF sources

    literals = [v for v in values if isinstance(v, rdflib.Literal)]
    wanted = lang.lower()
    exact = sorted(str(v) for v in literals if v.language and v.language.lower() == wanted)
    # the same language under another region (en-GB asked, en or en-US given), after the exact tag;
    # region by region (en-GB before en-US), so that every concept's label is of one region where it can be
    # (was: by text alone, *harbor* of en-US beside *paediatrician* of en-GB)
    regional = [str(v) for v in sorted((v for v in literals if v.language and v.language.lower() != wanted
                                        and v.language.lower().split("-")[0] == wanted.split("-")[0]),
                                       key=lambda v: (v.language.lower(), str(v)))]
    untagged = sorted(str(v) for v in literals if not v.language)
    if exact or regional:
        tagged = exact + [text for text in regional if text not in exact]
        return tagged + [text for text in untagged if text not in tagged] if every else tagged
    return untagged if untagged_alone else []


def _other_regions(values: List, picked: List[str], lang: str) -> List[str]:
    """Of ``picked`` (:func:`_pick`'s names, the first the label), those tagged with another region of
    the label's language than the label (``en-US`` beside ``en-GB``, ``en-GB`` beside ``en``)."""
    tags: Dict[str, List[str]] = {}
    for value in values:        # every tag of a text (古箏 is zh-Hant and ja alike: the ja one was taken alone)
        tags.setdefault(str(value), []).append((getattr(value, "language", None) or "").lower())
    # the label's tag in the language asked (a text can be tagged in several: 古箏@zh-Hant, @ja)
    wanted = lang.lower()
    own = [tag for tag in tags.get(picked[0], []) if tag.split("-")[0] == wanted.split("-")[0]]
    first = wanted if wanted in own else min(own, default="")
    return [text for text in picked[1:] if first and any(
        tag and tag != first and tag.split("-")[0] == first.split("-")[0] for tag in tags.get(text, ()))]


def _same_tag(values: List, text: str) -> List[str]:
    """The texts of ``values`` with the same language tag as the one whose text is ``text``, sorted."""
    tag = next((getattr(v, "language", None) for v in values if str(v) == text), None)
    return sorted({str(v) for v in values if getattr(v, "language", None) == tag})


def _pick_one_name(values: List, lang: str) -> List:
    """The candidates for a single name (a scheme's title, a relation's label): :func:`_pick`'s in
    ``lang``, else in English, else every literal, in a fixed order."""
    import rdflib  # lazy: RDF support is needed only for RDF sources

    return _pick(values, lang) or _pick(values, "en") or sorted(str(v) for v in values if isinstance(v, rdflib.Literal))


def _version(version_info: Optional[str], version_iri: Optional[str], name: str = "") -> str:
    """The version an OBO file would give: ROBOT writes ``data-version: X`` as the version IRI
    ``http://purl.obolibrary.org/obo/<ont>/X/<ont>.owl``, so X is taken from such an IRI first."""
    if version_iri:
        head, tail = f"{OBO_PURL}{name}/", f"/{name}.owl"
        if name and version_iri.startswith(head) and version_iri.endswith(tail) and len(version_iri) > len(head + tail):
            # ROBOT renders OBO's "data-version: hp/releases/X" as .../obo/hp/hp/releases/X/hp.owl: the
            # name is said once (the OBO reader drops it too)
            return without_own_name(version_iri[len(head):-len(tail)], name)
        match = re.match(r"^http://purl\.obolibrary\.org/obo/([^/]+)/(.+)/\1\.owl$", version_iri)
        if match:
            return match.group(2)
    return version_info or version_iri or "unknown"


def _obo_date(stamp: str) -> str:
    """An ``xsd:dateTime`` (``2024-12-17T17:44:00``) as an OBO header's ``date:`` writes it
    (``17:12:2024 17:44``), so that an OBO file and fastobo's OWL rendering of it have one version
    (was: the date from the OBO file, "unknown" from its rendering); another text as it is."""
    match = re.match(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})", stamp)
    return f"{match[3]}:{match[2]}:{match[1]} {match[4]}:{match[5]}" if match else stamp


#: a prefix declaration: RDF/XML's ``xmlns:p="..."``, Turtle's ``@prefix p: <...>`` or ``PREFIX p: <...>``
_PREFIX_DECLARATION = re.compile(r"""xmlns:([A-Za-z_][\w.-]*)\s*=\s*["']([^"']+)["']"""
                                 r"|^[ \t]*@?prefix[ \t]+([A-Za-z_][\w.-]*)[ \t]*:[ \t]*<([^>]+)>",
                                 re.IGNORECASE | re.MULTILINE)


def _named_prefixes_first(bound: List[Tuple[str, str]], path: str) -> List[Tuple[str, str]]:
    """rdflib keeps one prefix per namespace, and which one depends on the syntax (RDF/XML: the first
    declared, Turtle: the last), so a file that declares its namespace both as the default and by name
    (Protégé's ``xmlns="...pizza.owl#"`` and ``xmlns:pizza="...pizza.owl#"``) would give full IRIs from
    RDF/XML and ``pizza:`` ids from Turtle. Here a namespace gets the first name the file declares for
    it (in the first megabyte, where declarations are), and rdflib's binding where it declares none.
    The file's own come first: a name that rdflib binds by default to another namespace (``geo``,
    ``org``, ``time``, ``schema``) is the file's where the file declares it (was: rdflib's, and the
    file's concepts got full IRIs)."""
    declared: Dict[str, str] = {}
    text = source_head(path, 1_000_000).decode("utf-8", errors="replace")
    for match in _PREFIX_DECLARATION.finditer(text):
        prefix, namespace = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        declared.setdefault(namespace, prefix)
    named = [(declared.get(namespace, prefix), namespace) for prefix, namespace in bound]
    return [pair for pair in named if pair[1] in declared] + [pair for pair in named if pair[1] not in declared]


def shared_namespaces(bound: Iterable[Tuple[str, str]], shared: Dict[str, str]) -> List[Tuple[str, str]]:
    """This file's ``(prefix, namespace)`` pairs made consistent with the files read before it
    (``shared``: namespace -> prefix, updated): a namespace keeps the prefix it got first, a prefix
    already taken by another namespace is not used again, and the earlier files' prefixes apply to
    this file too (merged files whose prefixes differ, or an N-Triples file read after a Turtle one,
    give one id per IRI)."""
    taken = {prefix: namespace for namespace, prefix in shared.items()}
    for prefix, namespace in bound:
        if prefix and namespace not in shared and taken.get(prefix, namespace) == namespace:
            shared[namespace] = prefix
            taken[prefix] = namespace
    return [(prefix, namespace) for namespace, prefix in shared.items()]


def _typed_synonyms(graph, of_type: Callable[..., bool]) -> Set[Tuple[object, object, str]]:
    """``(class, property, text)`` of the synonyms whose OWL axiom annotation gives them a synonym
    type that ``of_type`` takes (``oboInOwl:hasSynonymType``, as an OBO file's ``synonymtypedef`` is
    rendered: the type's IRI and ``rdfs:label`` say it: an obsolete type,
    :func:`~mcqa_probes.knowledge.ontology.obsolete_synonym_type`, or a respelling,
    :func:`~mcqa_probes.knowledge.ontology.respelling_synonym_type`)."""
    import rdflib  # lazy: RDF support is needed only for RDF sources

    found: Set[Tuple[object, object, str]] = set()
    owl = rdflib.Namespace(OWL)
    for axiom, kind in graph.subject_objects(rdflib.URIRef(OBO_IN_OWL + "hasSynonymType")):
        labels = [str(label) for label in graph.objects(kind, rdflib.RDFS.label)]
        if not of_type(re.split(r"[#/]", str(kind))[-1], *labels):
            continue
        for source in graph.objects(axiom, owl.annotatedSource):
            for prop in graph.objects(axiom, owl.annotatedProperty):
                found.update((source, prop, str(target)) for target in graph.objects(axiom, owl.annotatedTarget))
    return found

def parse_rdf(path: str, syntax: Optional[str] = None):
    """``path`` as an rdflib graph (any syntax the reader takes, compressed or not); a
    :class:`~mcqa_probes.knowledge.ontology.SourceError` where it cannot be read."""
    return _parse(str(path), syntax)


def identifiers_of(graph, path: str, shared: Optional[Dict[str, str]] = None) -> Tuple[List[Tuple[str, str]], Callable]:
    """The file's ``(prefix, namespace)`` pairs (see :func:`shared_namespaces`) and the function that
    gives a node its concept id: its ``oboInOwl:id`` where it has one (an idspace outside the OBO
    PURLs, EFO or Orphanet, has no prefix in RDF/XML, and its OBO file uses this id), else its CURIE."""
    import rdflib  # lazy: RDF support is needed only for RDF sources

    bound = _named_prefixes_first([(str(prefix), str(namespace)) for prefix, namespace in
                                   graph.namespace_manager.namespaces()], path)
    namespaces = shared_namespaces(bound, {} if shared is None else shared)
    own_ids = {subject: str(value) for subject, value in graph.subject_objects(rdflib.URIRef(OBO_IN_OWL + "id"))
               if isinstance(subject, rdflib.URIRef) and _OWN_ID.match(str(value))}

    def cid(node) -> str:
        own = own_ids.get(node)
        return own if own is not None else curie(str(node), namespaces)
    return namespaces, cid


def _count_blank_concepts(graph, path: str, report: SourceReport, types: List, label_props: List) -> None:
    """Count (with the line of the label, where the text has it) each concept that is a blank node
    (``[] a skos:Concept ; skos:prefLabel "ocarina"``): no IRI names it, so no edge or id can, and it
    is skipped."""
    import rdflib  # lazy: as read_rdf

    blank = sorted({node for type_ in types for node in graph.subjects(rdflib.RDF.type, type_)
                    if isinstance(node, rdflib.BNode)}, key=str)
    if not blank:
        return
    text = source_text(path, errors="replace")
    found = []
    for node in blank:
        label = next((str(value) for prop in label_props for value in graph.objects(node, prop)), "")
        at = text.find(f'"{label}"') if label and text else -1
        found.append((text.count("\n", 0, at) + 1 if at >= 0 else None, label or "(no label)"))
    for line, label in sorted(found, key=lambda item: (item[0] is None, item[0] or 0, item[1])):
        report.add("blank_concept", path, line, label)


def _is_vocabulary_type(type_node) -> bool:
    """A type from RDF, RDFS, OWL or SKOS themselves (a class, a property, a collection, a scheme), other
    than ``owl:NamedIndividual``: what keeps a resource linked by skos:broader from being read as a concept."""
    iri = str(type_node)
    return iri != OWL + "NamedIndividual" and iri.startswith((RDF, RDFS, OWL, SKOS))


def read_rdf(path: str, vocabulary: Vocabulary, report: SourceReport, kind: Optional[str] = None,
             syntax: Optional[str] = None, shared: Optional[Dict[str, str]] = None, merged: bool = False) -> SourceData:
    """Read one RDF file (see the module docstring); ``kind``: ``owl``, ``rdf``, ``skos`` or None (any);
    ``shared``: the prefixes of the files read before this one (see :func:`shared_namespaces`);
    ``merged``: other files are read with it, so what it says of resources it does not make concepts
    is kept too (``SourceData.loose_concepts`` / ``loose_parents``)."""
    import rdflib  # lazy: RDF support is needed only for RDF sources
    from rdflib.collection import Collection  # lazy: as rdflib

    path = str(path)
    graph = _parse(path, syntax, report)
    namespaces, cid = identifiers_of(graph, path, shared)
    lookup = {prefix: namespace for prefix, namespace in namespaces}
    if _syntax(path, syntax) == "json-ld":
        # the local names of the vocabulary's properties (IAO:0000115: IAO_0000115, skos:broader: broader)
        wanted = [*vocabulary.labels, *vocabulary.definitions, *vocabulary.synonyms, *vocabulary.parents,
                  *vocabulary.examples]
        _undefined_prefixes(path, graph, [re.split(r"[#/]", expand(name, lookup))[-1] for name in wanted], report)

    def props(names: Iterable[str]) -> List:
        return [rdflib.URIRef(expand(name, lookup)) for name in names]

    text_of_resource = [rdflib.URIRef(SKOS_XL + "literalForm"), rdflib.RDF.value]

    def texts(node, prop) -> List:
        """The literals of ``node prop ?``; a resource there is a SKOS-XL label (``skosxl:literalForm``)
        or a structured note (``rdf:value``), as AGROVOC writes its labels and definitions."""
        values = []
        for value in graph.objects(node, prop):
            if isinstance(value, rdflib.Literal):
                values.append(value)
            else:
                values.extend(v for p in text_of_resource for v in graph.objects(value, p) if isinstance(v, rdflib.Literal))
        return values

    types = CLASS_TYPES[kind] if kind else tuple(sorted({t for ts in CLASS_TYPES.values() for t in ts}))
    label_props = props(vocabulary.labels)

    def has_label(node) -> bool:
        return any(graph.value(node, prop) is not None for prop in label_props)

    candidates: Set = set()
    for type_iri in types:
        candidates.update(s for s in graph.subjects(rdflib.RDF.type, rdflib.URIRef(type_iri)) if isinstance(s, rdflib.URIRef))
    # a text as the subject of a statement that makes a concept ("salad" a skos:Concept): no RDF
    # (rdflib's Turtle parser reads it; was: the concept lost, its children's edges to it reported)
    for prop in (rdflib.RDF.type, *label_props, *(rdflib.URIRef(SKOS + name) for name in SKOS_CONCEPT_RELATIONS)):
        written = next((s for s in graph.subjects(prop, None) if isinstance(s, rdflib.Literal)), None)
        if written is not None:
            raise SourceError(path, f"the text {str(written)!r} is the subject of a statement ({curie(str(prop))}); "
                                    "expected an IRI or a blank node there (<...> or a prefixed name, not a quoted "
                                    "text)", literal_line(path, None, str(written), []))
    if kind != "skos":
        # RDFS: the subject of rdfs:subClassOf is a class, typed or not (GS1's code lists); one with a
        # label is a concept
        candidates.update(s for s in graph.subjects(rdflib.RDFS.subClassOf, None)
                          if isinstance(s, rdflib.URIRef) and s not in candidates and has_label(s))
        candidates.discard(rdflib.URIRef(OWL + "Thing"))
    if kind in (None, "skos"):
        _count_blank_concepts(graph, path, report, [rdflib.URIRef(SKOS + "Concept")], label_props)
        # SKOS's semantics make the subjects and objects of broader / narrower / related (and the top
        # concepts of a scheme) concepts: an export that leaves out "a skos:Concept" (which Skosify exists
        # to repair), or types its concepts by a class of its own only (QUDT's quantity kinds: "a
        # qudt:QuantityKind", linked by skos:broader), is read as if it said so, for the resources it
        # labels and types by no class of RDF, RDFS, OWL or SKOS (a skos:Collection under skos:narrower,
        # a class, a property stay what they are; an owl:NamedIndividual is a concept)
        entailed: Set = set()
        for name in SKOS_CONCEPT_RELATIONS + ("topConceptOf",):
            entailed.update(graph.subjects(rdflib.URIRef(SKOS + name), None))
        for name in SKOS_CONCEPT_RELATIONS + ("hasTopConcept",):
            entailed.update(graph.objects(None, rdflib.URIRef(SKOS + name)))
        candidates.update(node for node in entailed if isinstance(node, rdflib.URIRef) and node not in candidates
                          and not any(_is_vocabulary_type(t) for t in graph.objects(node, rdflib.RDF.type))
                          and has_label(node))
    # an OWL rendering of an OBO file (OWLAPI and ROBOT write each term's ``oboInOwl:id``, and the OBO
    # header's format-version as ``oboInOwl:hasOBOFormatVersion``) reads as its OBO file does: a bare
    # declaration, or a class with no name, is no concept (the OBO file never defines it, or its term has
    # no name), and its OBO comments (rdfs:comment) are no definitions
    from_obo = any(True for prop in ("id", "hasOBOFormatVersion")
                   for _ in graph.triples((None, rdflib.URIRef(OBO_IN_OWL + prop), None)))
    # a bare declaration of an opaque id (``obo:XX_9 a owl:Class`` and nothing else: OWLAPI declares
    # every class a file refers to) does not define a concept: an edge to one is to a concept never
    # defined, as in the OBO file it was rendered from (counted; an error with --strict). A bare class
    # with a name that reads as words (Protege's ``zoo#Animal``) is one, named after its IRI, unless it
    # is an OBO PURL: a term an OBO file names and never defines (``obo:xsd_string``, PSI-MS's
    # ``xsd:string`` values) is declared by the rendering alone
    candidates = {node for node in candidates if any(p != rdflib.RDF.type for p in graph.predicates(node))
                  or (kind != "skos" and not from_obo and label_from_iri(str(node))
                      and not str(node).startswith(OBO_PURL))}
    true_values = {"true", "1"}
    # schema.org's supersededBy, and a vocabulary's own on schema.org's model (``shop:supersededBy``:
    # was read as no deprecation, the superseded classes asked without a word)
    superseded_by = {rdflib.URIRef(s_ + "supersededBy") for s_ in SCHEMA} | {
        p for p in graph.predicates(unique=True) if isinstance(p, rdflib.URIRef) and re.split(r"[#/]", str(p))[-1] == "supersededBy"}
    deprecated = {s for s in candidates
                  if any(str(o).lower() in true_values for o in graph.objects(s, rdflib.URIRef(OWL + "deprecated")))
                  or any(True for prop in superseded_by for _ in graph.objects(s, prop))
                  or any(True for _ in graph.objects(s, rdflib.URIRef(DCTERMS + "isReplacedBy")))}

    name, version = file_name(path), "unknown"
    # the file's own ontology: of several (a vocabulary bundled with the modules it imports, PROV-O's
    # prov.ttl), one no other imports, the one said most about
    ontologies = sorted(graph.subjects(rdflib.RDF.type, rdflib.URIRef(OWL + "Ontology")), key=str)
    imported = set(graph.objects(None, rdflib.URIRef(OWL + "imports")))
    ontologies = [o for o in ontologies if o not in imported] or ontologies
    ontologies = sorted(ontologies, key=lambda o: -len(set(graph.predicate_objects(o))))[:1]
    for ontology in ontologies:
        if str(ontology) == OWLAPI_UNNAMED:
            pass                        # an OBO file without an "ontology:" header: named after the file
        elif str(ontology).startswith(OBO_PURL) and str(ontology).endswith(".owl"):
            name = str(ontology)[len(OBO_PURL):-len(".owl")] or name     # OBO's "ontology: go/subsets/goslim"
        else:
            name = ontology_name(cid(ontology)) or name
        info = sorted(str(v) for v in graph.objects(ontology, rdflib.URIRef(OWL + "versionInfo")))
        iri = sorted(str(v) for v in graph.objects(ontology, rdflib.URIRef(OWL + "versionIRI")))
        dates = sorted(str(v) for v in graph.objects(ontology, rdflib.URIRef(OBO_IN_OWL + "date")))
        # fastobo renders the header's date as oboInOwl:hasDate, an xsd:dateTime: given back as OBO writes it
        dates += sorted(_obo_date(str(v)) for v in graph.objects(ontology, rdflib.URIRef(OBO_IN_OWL + "hasDate")))
        version = _version(info[0] if info else None, iri[0] if iri else None, name)
        if version == "unknown" and dates:
            version = dates[0]          # OBO's header "date:" without a data-version
        name = own_name(name)
    # a thesaurus: named after its concept scheme's title, in --lang if it has one, else in any language,
    # so that the name does not change with --lang; versioned by the scheme's version or date. Of several
    # schemes, the main one (the most concepts in it or at its top; then by IRI) gives both
    schemes = sorted(graph.subjects(rdflib.RDF.type, rdflib.URIRef(SKOS + "ConceptScheme")), key=str)
    if len(schemes) > 1:
        members = Counter(scheme for scheme in graph.objects(None, rdflib.URIRef(SKOS + "inScheme")))
        members.update(scheme for scheme in graph.objects(None, rdflib.URIRef(SKOS + "topConceptOf")))
        members.update(scheme for scheme, _ in graph.subject_objects(rdflib.URIRef(SKOS + "hasTopConcept")))
        schemes = sorted(schemes, key=lambda scheme: (-members[scheme], str(scheme)))
    if schemes:
        scheme = schemes[0]
        titles = [*texts(scheme, rdflib.URIRef(SKOS + "prefLabel")), *texts(scheme, rdflib.RDFS.label),
                  *texts(scheme, rdflib.URIRef(SKOS_XL + "prefLabel")),
                  *(value for prop in (DC + "title", DCTERMS + "title") for value in texts(scheme, rdflib.URIRef(prop)))]
        picked = _pick_one_name(titles, vocabulary.lang)
        name = picked[0] if picked else (cid(scheme).rsplit("/", 1)[-1].split(":")[-1] or name)
        if version == "unknown":        # the main scheme's version or date, else the next one's that has one
            stamps = [v for each in schemes for prop in (OWL + "versionInfo", DCTERMS + "modified", DC + "date",
                                                         DCTERMS + "date", DCTERMS + "issued")
                      for v in sorted(str(o) for o in graph.objects(each, rdflib.URIRef(prop)))]
            version = stamps[0] if stamps else version
    data = SourceData(path=path, format=kind or "rdf", name=name, version=version, namespaces=namespaces)

    concept_nodes = sorted(candidates - deprecated, key=str)

    def first_used(names: Iterable[str]) -> List:
        """The first property of the list that some concept of this file has: an OWL file rendered
        from OBO keeps its OBO comments as rdfs:comment, which must not become definitions where
        IAO:0000115 is the definition property."""
        for prop in props(names):
            if any((node, prop, None) in graph for node in concept_nodes):
                return [prop]
        return []

    # labels: the first property of the list that the concept has (a thesaurus may give rdfs:label to a
    # few concepts and skos:prefLabel to all); definitions: the first one the file uses at all
    by_default = tuple(vocabulary.definitions) == DEFAULT_DEFINITIONS
    definition_names = [name for name in vocabulary.definitions
                        if not (from_obo and by_default and name == "rdfs:comment")]
    definition_props = first_used(definition_names)
    synonym_props, parent_props = props(vocabulary.synonyms), props(vocabulary.parents)
    other_synonym_props = [prop for prop in (rdflib.URIRef(f"{OBO_IN_OWL}has{scope}Synonym")
                                             for scope in ("Exact", "Related", "Broad", "Narrow"))
                           if prop not in synonym_props]
    example_props = props(vocabulary.examples)
    # untagged names beside those tagged in --lang are names too, unless the file names its concepts
    # in other languages as well (a multilingual thesaurus: its untagged names are of no one language)
    named_languages = {value.language.lower().split("-")[0] for prop in (*label_props, *synonym_props)
                       for value in graph.objects(None, prop) if isinstance(value, rdflib.Literal) and value.language}
    untagged_too = named_languages <= {vocabulary.lang.lower().split("-")[0]}
    # so for the prose: an untagged definition or example is --lang's only where the file tags none in
    # another language (an rdf:HTML or xsd:string literal can carry no tag: in a file that defines its
    # concepts in English and French, it is of neither; was: shown as the French definition)
    prose_languages = {value.language.lower().split("-")[0] for prop in (*definition_props, *example_props)
                       for value in graph.objects(None, prop) if isinstance(value, rdflib.Literal) and value.language}
    untagged_prose = prose_languages <= {vocabulary.lang.lower().split("-")[0]}
    narrower = rdflib.URIRef(SKOS + "narrower")

    def example_line(kind: str, identifier: str) -> Optional[int]:
        """The first line that names ``identifier``, for the examples the report keeps of ``kind``
        (rdflib gives no lines; the file is searched for those few only)."""
        return line_naming(path, identifier, namespaces) if report.counts.get(kind, 0) < report.keep else None

    for node in sorted(deprecated, key=str):
        data.obsolete.add(cid(node))
        for label in (value for prop in label_props for value in graph.objects(node, prop)):
            data.obsolete_labels.setdefault(str(label).strip().lower(), cid(node))
        if (node, rdflib.URIRef(OBSOLESCENCE_REASON), rdflib.URIRef(TERMS_MERGED)) in graph \
                and not has_label(node):
            # an OBO alt_id as OWLAPI renders it: a deprecated class with no label, merged into its term;
            # an edge to it goes on to that term (as to an obsolete concept's parents)
            terms = sorted((term for term in graph.objects(node, rdflib.URIRef(REPLACED_BY))
                            if isinstance(term, rdflib.URIRef)), key=str)
            report.add("alternative_id", path, example_line("alternative_id", cid(node)),
                       " ".join([cid(node), *(f"of {cid(term)}" for term in terms)]))
            data.parents.extend((cid(node), cid(term), None) for term in terms)
            if len(terms) == 1:
                data.alternatives[cid(node)] = cid(terms[0])
        else:
            line = (line_naming(path, cid(node), namespaces, subject=True)
                    if report.counts.get("obsolete", 0) < report.keep else None)
            report.add("obsolete", path, line, cid(node))
        for prop in parent_props:       # kept so that the closure of a concept under it goes through it
            data.parents.extend((cid(node), cid(parent), None) for parent in graph.objects(node, prop)
                                if isinstance(parent, rdflib.URIRef))
    # an alternative id given only as oboInOwl:hasAlternativeId (an older OWLAPI or a hand-made file,
    # without the deprecated class for it): as from OBO, no concept, and an edge to it goes on to its term
    terms, own = set(concept_nodes), {cid(node) for node in concept_nodes}
    given = sorted(((curie(str(value)) if isinstance(value, rdflib.Literal) else cid(value)), term)
                   for term, value in graph.subject_objects(rdflib.URIRef(OBO_IN_OWL + "hasAlternativeId")))
    for alternative, term in given:     # in the order of the alternative ids, as from OBO
        if (term in terms or term in deprecated) and alternative not in own and alternative not in data.obsolete:
            data.obsolete.add(alternative)
            report.add("alternative_id", path, example_line("alternative_id", alternative), f"{alternative} of {cid(term)}")
            data.parents.append((alternative, cid(term), None))
            data.alternatives.setdefault(alternative, cid(term))
    hierarchy_props: Set = set()        # properties read as the hierarchy, never relation links
    if rdflib.URIRef(SKOS + "broader") in parent_props:
        # X narrower Y: Y broader X (X deprecated too); skos:broaderTransitive / narrowerTransitive (of
        # which skos:broader / narrower are sub-properties) state ancestors that skos:broader may leave
        # out: they widen the validity closures (implied parents), while answers and hops stay skos:broader's;
        # so do skos:broadMatch / narrowMatch (sub-properties of broader / narrower in the SKOS
        # Reference, S41) between two concepts of the file
        ups = [rdflib.URIRef(SKOS + "broaderTransitive"), rdflib.URIRef(SKOS + "broadMatch")]
        downs = [rdflib.URIRef(SKOS + "narrowerTransitive"), rdflib.URIRef(SKOS + "narrowMatch")]
        hierarchy_props = {*ups, *downs}
        for node in sorted(candidates, key=str):
            data.parents.extend((cid(child), cid(node), None) for child in graph.objects(node, narrower)
                                if isinstance(child, rdflib.URIRef))
            stated = [(cid(node), cid(ancestor)) for up in ups for ancestor in graph.objects(node, up)
                      if isinstance(ancestor, rdflib.URIRef) and ancestor != node]
            stated += [(cid(descendant), cid(node)) for down in downs for descendant in graph.objects(node, down)
                       if isinstance(descendant, rdflib.URIRef) and descendant != node]
            data.implied_parents.extend((child, ancestor, None) for child, ancestor in stated)
            data.hierarchy_implied.update(stated)
    known = set(concept_nodes) | deprecated      # a link to a deprecated concept goes on to its parents
    relation_nodes: Dict[str, Set] = {}          # relation id -> the properties that gave it

    def links_by(prop) -> bool:
        """Whether ``prop`` between two classes is a relation link (not the hierarchy, a label, a type, ...)."""
        return (str(prop) not in NOT_LINKS and prop not in parent_props and prop not in hierarchy_props
                and prop not in label_props)

    def relation_of(prop) -> str:
        """The relation id of ``prop``, the property noted as one that gives it."""
        relation = relation_id_of(graph, prop, cid)
        relation_nodes.setdefault(relation, set()).add(prop)
        return relation

    def link(subject: str, prop, obj) -> str:
        """Record ``subject prop obj`` as a relation link; returns the relation's id."""
        relation = relation_of(prop)
        data.links.append((subject, relation, cid(obj), None))
        return relation

    def restriction(expression) -> Tuple:
        """``(property, filler)`` of ``[owl:onProperty P; owl:someValuesFrom D]`` with both named, else Nones."""
        on_property = graph.value(expression, rdflib.URIRef(OWL + "onProperty"))
        target = graph.value(expression, rdflib.URIRef(OWL + "someValuesFrom"))
        if isinstance(on_property, rdflib.URIRef) and isinstance(target, rdflib.URIRef):
            return on_property, target
        return None, None

    def at_least_one(expression) -> Tuple:
        """``(property, class)`` of a qualified cardinality restriction of one or more (``[owl:onProperty
        P; owl:minQualifiedCardinality 1; owl:onClass D]``, OWLAPI's rendering of an OBO ``relationship``
        with ``{minCardinality="1"}`` or ``{cardinality="1"}``) with both named, else Nones."""
        on_property = graph.value(expression, rdflib.URIRef(OWL + "onProperty"))
        target = graph.value(expression, rdflib.URIRef(OWL + "onClass"))
        if (isinstance(on_property, rdflib.URIRef) and isinstance(target, rdflib.URIRef)
                and _at_least_one(graph, expression, ("minQualifiedCardinality", "qualifiedCardinality"))):
            return on_property, target
        return None, None

    def only_or_at_most(expression) -> str:
        """``"P D all_only"`` for ``[owl:onProperty P; owl:allValuesFrom D]`` (OWLAPI's rendering of an OBO
        ``relationship`` with ``{all_only="true"}``), ``"P D maxQualifiedCardinality=N"`` for a
        cardinality that entails no link (both named), else ''; neither is a link, as in the OBO file."""
        on_property = graph.value(expression, rdflib.URIRef(OWL + "onProperty"))
        if not isinstance(on_property, rdflib.URIRef):
            return ""
        relation = relation_id_of(graph, on_property, cid)
        target = graph.value(expression, rdflib.URIRef(OWL + "allValuesFrom"))
        if isinstance(target, rdflib.URIRef):
            return f"{relation} {cid(target)} all_only"
        target = graph.value(expression, rdflib.URIRef(OWL + "onClass"))
        if not isinstance(target, rdflib.URIRef):
            return ""
        for kind in ("maxQualifiedCardinality", "qualifiedCardinality", "minQualifiedCardinality"):
            count = graph.value(expression, rdflib.URIRef(OWL + kind))
            if count is not None:
                return f"{relation} {cid(target)} {kind.replace('Qualified', '')}={count}"
        return ""

    def members(expression, operator: str) -> List:
        lists = list(graph.objects(expression, rdflib.URIRef(OWL + operator)))
        return [m for head in lists for m in Collection(graph, head)]

    # the property chains of two named properties (P o Q -> R, and P o P -> P for a transitive P), for
    # a restriction on a restriction: C P some (Q some F) is C R some F
    chain_of: Dict[Tuple, List] = {}
    for prop, head in graph.subject_objects(rdflib.URIRef(OWL + "propertyChainAxiom")):
        try:
            chain = list(Collection(graph, head))
        except ValueError:
            continue
        if len(chain) == 2 and all(isinstance(m, rdflib.URIRef) for m in chain) and isinstance(prop, rdflib.URIRef):
            chain_of.setdefault(tuple(chain), []).append(prop)
    for prop in graph.subjects(rdflib.RDF.type, rdflib.URIRef(OWL + "TransitiveProperty")):
        if isinstance(prop, rdflib.URIRef):
            chain_of.setdefault((prop, prop), []).append(prop)

    def named_above(node) -> Set:
        """``node`` and its named ancestors by rdfs:subClassOf (for a union filler's common ones)."""
        return {node} | {a for a in graph.transitive_objects(node, rdflib.RDFS.subClassOf) if isinstance(a, rdflib.URIRef)}

    def some_of_expression(expression) -> List[Tuple]:
        """The ``(property, named class)`` links that ``[owl:onProperty P; owl:someValuesFrom E]`` entails
        where E is a class expression: P some each named member of an intersection, P some each named
        class above every member of a union of named classes (*Gruyère or Cheddar*: some cheese), R
        some F of a restriction Q some F where P then Q is R (a property chain, a transitive P). Was:
        none, so a *toastie* with a component with some cheddar was no *cheese dish*, which a reasoner
        found a wrong answer offered as such."""
        on_property = graph.value(expression, rdflib.URIRef(OWL + "onProperty"))
        filler = graph.value(expression, rdflib.URIRef(OWL + "someValuesFrom"))
        if not isinstance(on_property, rdflib.URIRef) or not isinstance(filler, rdflib.BNode):
            return []
        found = [(on_property, m) for m in members(filler, "intersectionOf") if isinstance(m, rdflib.URIRef)]
        united = members(filler, "unionOf")
        if united and all(isinstance(m, rdflib.URIRef) for m in united):
            common = set.intersection(*(named_above(m) for m in united))
            found += [(on_property, c) for c in sorted(common, key=str) if str(c) not in TOP_CLASSES]
        inner, target = restriction(filler)
        if inner is not None:
            found += [(outer, target) for outer in chain_of.get((on_property, inner), ())]
        return found

    def implied_by(concept_id: str, expression, equivalent: bool, described: bool = False) -> None:
        """What ``C owl:equivalentClass E`` (or ``C rdfs:subClassOf E``, ``equivalent`` False) entails,
        into ``data.implied_parents`` / ``implied_links``: E named: C and E are kinds of each other
        (equivalent) or E is a parent; E an intersection: each named member is a parent and each
        ``some`` restriction a link; E a union (equivalent only): each named member is a kind of C.
        ``described``: E is C itself, a named class that carries its ``owl:intersectionOf`` or
        ``owl:unionOf`` (OWL 1's class description: the wine ontology's ``ItalianWine``)."""
        if isinstance(expression, rdflib.URIRef) and not described:
            if equivalent and cid(expression) != concept_id:
                data.implied_parents.extend([(concept_id, cid(expression), None), (cid(expression), concept_id, None)])
            return
        on_property, target = restriction(expression)
        if on_property is not None:
            some = (relation_id_of(graph, on_property, cid), cid(target))
            data.implied_links.append((concept_id, *some, None))
            if equivalent:
                data.definitions.append((concept_id, [], [some], []))
        entailed = [(relation_id_of(graph, p, cid), cid(t)) for p, t in some_of_expression(expression)]
        if entailed and not equivalent:
            data.implied_links.extend((concept_id, *some, None) for some in entailed)
        elif entailed:
            # C = P some (A and B): what is P some A and P some B may be C (the part understood covers more)
            data.definitions.append((concept_id, [], entailed, []))
            data.partial_definitions.add(concept_id)
        conjuncts = members(expression, "intersectionOf")
        genus, differentia, unions = [], [], []
        for member in conjuncts:
            if isinstance(member, rdflib.URIRef):
                data.implied_parents.append((concept_id, cid(member), None))
                genus.append(cid(member))
            else:
                on_property, target = restriction(member)
                if on_property is not None:
                    differentia.append((relation_id_of(graph, on_property, cid), cid(target)))
                    data.implied_links.append((concept_id, *differentia[-1], None))
                elif members(member, "unionOf"):
                    unions.append([cid(m) for m in members(member, "unionOf") if isinstance(m, rdflib.URIRef)])
                else:
                    genus.append(None)          # a conjunct not understood: no classification under C
        if equivalent and conjuncts and None not in genus:
            data.definitions.append((concept_id, genus, differentia, unions))
        elif equivalent and conjuncts and (any(genus) or differentia or unions):
            # a conjunct not understood (only, not, a cardinality, some of a union): the part that is
            # understood, which covers more classes than the whole (pizza.owl's VegetarianPizza: a
            # Pizza and not some meat topping -> every pizza may be one)
            data.definitions.append((concept_id, [g for g in genus if g], differentia, unions))
            data.partial_definitions.add(concept_id)
        if equivalent:
            united = [cid(member) for member in members(expression, "unionOf") if isinstance(member, rdflib.URIRef)]
            data.implied_parents.extend((member, concept_id, None) for member in united)
            if united:
                data.unions.setdefault(concept_id, []).extend(m for m in united if m not in data.unions.get(concept_id, ()))

    obsolete_synonyms = _typed_synonyms(graph, obsolete_synonym_type)
    respellings = _typed_synonyms(graph, respelling_synonym_type)

    def named(node, counted: SourceReport, languages) -> RawConcept:
        """``node``'s names, definition and examples in --lang (``counted``: the report of what is
        skipped or repaired on the way; ``languages``: the counter of label languages)."""
        concept = RawConcept(id=cid(node))
        labelled = False
        # a label tagged in --lang wins over one without a tag from a property earlier in the list (a
        # thesaurus's code in an untagged rdfs:label beside its skos:prefLabel "..."@en)
        labels = {prop: texts(node, prop) for prop in label_props}     # read once per concept
        first = next((prop for prop in label_props if _pick(labels[prop], vocabulary.lang, untagged_alone=False)), None)
        for prop in [first] * (first is not None) + [prop for prop in label_props if prop != first]:
            values = labels[prop]
            labelled = labelled or bool(values)
            languages.update({v.language.lower() for v in values if getattr(v, "language", None)})
            picked = _pick(values, vocabulary.lang, every=untagged_too)
            if picked:
                concept.label = picked[0]
                concept.synonyms.extend(picked[1:])     # another spelling (en-US beside en, untagged): a synonym
                # the preferred name in another region of the language (en-US *pediatrician* beside en-GB
                # *paediatrician*): a respelling, a name of the concept never asked as another name
                concept.respellings.extend(_other_regions(values, picked, vocabulary.lang))
                alike = _same_tag(values, picked[0])
                # two preferred labels in one language (a SKOS integrity error; in OWL two rdfs:labels,
                # against OBO's one name a term: was read without a word)
                if len(alike) > 1 and (str(prop) == SKOS + "prefLabel" or prop == rdflib.RDFS.label):
                    counted.add("several_labels", path, example_line("several_labels", concept.id),
                                f"{concept.id} ({len(alike)}: {', '.join(alike)})")
                break
        if not labelled and kind != "skos" and not from_obo:
            # an OWL / RDFS class with no label at all (Protege's default) is named after its IRI when
            # that reads as words; a label in another language is not replaced (--lang finds it)
            concept.label = label_from_iri(str(node)) or None
            concept.label_from_iri = bool(concept.label)
            if concept.label:
                counted.add("label_from_iri", path, None, f"{concept.id} ({concept.label})")
        untagged_left = False
        for prop in definition_props:
            values = texts(node, prop)
            picked = _pick(values, vocabulary.lang, untagged_alone=untagged_prose)
            untagged_left = untagged_left or (not picked and not untagged_prose and any(
                isinstance(v, rdflib.Literal) and not v.language for v in values))
            if picked:
                concept.definition = picked[0]
                if len(picked) > 1:
                    counted.add("several_definitions", path, None, f"{concept.id} ({len(picked)})")
                break
        if untagged_left and not concept.definition:
            counted.add("untagged_definition", path, None, concept.id)
        for prop in synonym_props:
            values = texts(node, prop)
            if obsolete_synonyms:
                for value in [v for v in values if (node, prop, str(v)) in obsolete_synonyms]:
                    values.remove(value)
                    counted.add("obsolete_synonym", path, None, f"{concept.id} '{value}'")
            picked = _pick(values, vocabulary.lang, every=untagged_too, untagged_alone=untagged_too)
            concept.synonyms.extend(picked)
            if respellings:
                concept.respellings.extend(v for v in picked if (node, prop, str(v)) in respellings)
        for prop in other_synonym_props:     # OBO synonyms of the other scopes: never asked, no distractor
            values = texts(node, prop)
            for value in [v for v in values if (node, prop, str(v)) in obsolete_synonyms]:
                values.remove(value)
                counted.add("obsolete_synonym", path, None, f"{concept.id} '{value}'")
            concept.other_names.extend(_pick(values, vocabulary.lang, every=untagged_too, untagged_alone=untagged_too))
        for prop in example_props:
            concept.examples.extend(_pick(texts(node, prop), vocabulary.lang, every=untagged_prose,
                                          untagged_alone=untagged_prose))
        return concept

    for node in sorted(deprecated, key=str):
        # a deprecated class's some-restrictions (an obsolete OBO term's relationship lines) stay known as
        # its parents do, never used as links of its own: the closure of a term linked to it goes through it
        for prop in parent_props:
            for parent in graph.objects(node, prop):
                if isinstance(parent, rdflib.BNode):
                    on_property, target = restriction(parent)
                    if on_property is not None:
                        data.existential_relations.add(link(cid(node), on_property, target))
        # and its own links (skos:related from it): dropped with it and counted, as a link to it is
        for predicate, obj in graph.predicate_objects(node):
            if obj in known and links_by(predicate):
                link(cid(node), predicate, obj)
    for node in concept_nodes:
        concept = named(node, report, data.label_languages)
        data.concepts[concept.id] = concept
        for prop in parent_props:
            for parent in graph.objects(node, prop):
                if isinstance(parent, rdflib.URIRef):
                    if str(parent) in TOP_CLASSES:       # every class's: no parent, no edge to report
                        continue
                    data.parents.append((concept.id, cid(parent), None))
                elif isinstance(parent, rdflib.Literal):
                    # a parent written as a text (<rdfs:subClassOf>CHEBI:0000042</rdfs:subClassOf>, no
                    # rdf:resource): a broken clause the build uses (was: the edge dropped without a word)
                    raise SourceError(path, f"{curie(str(prop))} of {concept.id} is the text {str(parent)!r}, not a "
                                            "concept (expected the IRI of one: rdf:resource=\"...\" in RDF/XML, <...> "
                                            "or a prefixed name in Turtle, {\"@id\": \"...\"} in JSON-LD)",
                                      literal_line(path, concept.id, str(parent), namespaces)
                                      or line_naming(path, concept.id, namespaces, subject=True))
                elif isinstance(parent, rdflib.BNode):
                    on_property, target = restriction(parent)
                    if on_property is not None:
                        data.existential_relations.add(link(concept.id, on_property, target))
                        continue
                    on_property, target = at_least_one(parent)
                    if on_property is not None:     # entails a "some" link: kept out of the distractors
                        data.implied_links.append((concept.id, relation_id_of(graph, on_property, cid), cid(target), None))
                    else:       # C subClassOf (A and B ...): implied, as the intersections below
                        qualified = only_or_at_most(parent)
                        if qualified:       # an OBO relationship with all_only or a cardinality: counted
                            report.add("qualified_link", path, None, f"{concept.id} {qualified}")
                        if prop == rdflib.RDFS.subClassOf and not any(
                                predicate == rdflib.RDF.type or str(predicate).startswith(OWL)
                                for predicate in graph.predicates(parent, None)):
                            # a node of no class expression: what a misspelt rdf:resource leaves
                            # (<rdfs:subClassOf rdf:resourc="#Food"/>, valid RDF: a node with the property
                            # rdf:resourc), an edge lost (was: without a word)
                            written = sorted(f"{curie(str(p))} {str(o)!r}" if isinstance(o, rdflib.Literal)
                                             else curie(str(p)) for p, o in graph.predicate_objects(parent))
                            texts = sorted(str(o) for o in graph.objects(parent, None) if isinstance(o, rdflib.Literal))
                            line = ((texts and literal_line(path, concept.id, texts[0], namespaces))
                                    or example_line("blank_parent", concept.id)) if report.counts.get(
                                "blank_parent", 0) < report.keep else None
                            report.add("blank_parent", path, line,
                                       f"{concept.id} {curie(str(prop))} [{'; '.join(written)}]")
                            continue
                        if ((parent, rdflib.RDF.type, rdflib.URIRef(OWL + "Restriction")) in graph
                                and graph.value(parent, rdflib.URIRef(OWL + "onProperty")) is None):
                            # [ a owl:Restriction ; owl:someValuesFrom X ] with no property: says nothing
                            # (was: dropped without a word)
                            report.add("restriction_without_property", path,
                                       example_line("restriction_without_property", concept.id), concept.id)
                        implied_by(concept.id, parent, equivalent=False)
        for expression in graph.objects(node, rdflib.URIRef(OWL + "equivalentClass")):
            implied_by(concept.id, expression, equivalent=True)
        if members(node, "intersectionOf") or members(node, "unionOf"):
            implied_by(concept.id, node, equivalent=True, described=True)
        for predicate, obj in graph.predicate_objects(node):
            if obj in known and links_by(predicate):
                link(concept.id, predicate, obj)
    if merged:
        # what this file says of resources it does not make concepts (no type, no label here), for a
        # merge with files that do (a thesaurus split into a file of labels and one of skos:narrower
        # triples; one file of labels per language; an ontology's definitions and restrictions in a file
        # of their own): their names and definitions, and the hierarchy edges from them
        if not definition_props:        # a file of no concepts of its own: the definitions it gives others
            definition_props[:] = next(([prop] for prop in props(definition_names)
                                        if any(isinstance(s, rdflib.URIRef) for s in graph.subjects(prop, None))), [])
        described = {n for prop in (*label_props, *definition_props, *synonym_props) for n in graph.subjects(prop, None)
                     if isinstance(n, rdflib.URIRef) and n not in candidates}
        for node in sorted(described, key=str):
            if not any(_is_vocabulary_type(t) for t in graph.objects(node, rdflib.RDF.type)):
                concept = named(node, SourceReport(), Counter())
                if concept.label or concept.definition or concept.synonyms:
                    data.loose_concepts[concept.id] = concept
        hierarchy = [(child, parent) for prop in parent_props for child, parent in graph.subject_objects(prop)]
        if rdflib.URIRef(SKOS + "broader") in parent_props:
            hierarchy.extend((child, parent) for parent, child in graph.subject_objects(narrower))
        data.loose_parents = sorted({(cid(child), cid(parent), None) for child, parent in hierarchy
                                     if isinstance(child, rdflib.URIRef) and isinstance(parent, rdflib.URIRef)
                                     and child not in candidates and str(parent) not in TOP_CLASSES
                                     and child != parent}, key=lambda edge: edge[:2])
        # the links and equivalences it states of a resource that is no concept here (altar partOf
        # nave, the altar defined in the other file; an owl:equivalentClass whose subject is)
        own = set(concept_nodes)
        equivalences = (rdflib.URIRef(OWL + "equivalentClass"), rdflib.URIRef(SKOS + "exactMatch"))
        loose_links, loose_implied = set(), set()
        # the some-restrictions a class that is no concept here is under (part_of some car, the class
        # defined in the other file), as a concept's are read above
        for prop in parent_props:
            for subject, parent in graph.subject_objects(prop):
                if isinstance(subject, rdflib.URIRef) and subject not in candidates and isinstance(parent, rdflib.BNode):
                    on_property, target = restriction(parent)
                    if on_property is not None and isinstance(target, rdflib.URIRef):
                        relation = relation_of(on_property)
                        data.existential_relations.add(relation)
                        loose_links.add((cid(subject), relation, cid(target), None))
        for subject, predicate, obj in graph:
            if not (isinstance(subject, rdflib.URIRef) and isinstance(obj, rdflib.URIRef)) or subject == obj:
                continue
            if predicate in equivalences:
                if not (subject in known and obj in known):
                    loose_implied.update([(cid(subject), cid(obj), None), (cid(obj), cid(subject), None)])
                continue
            if ((subject in own and obj in known) or subject in deprecated or not links_by(predicate)
                    or str(obj) in TOP_CLASSES or _is_vocabulary_type(obj)):
                continue
            loose_links.add((cid(subject), relation_of(predicate), cid(obj), None))
        data.loose_links = sorted(loose_links, key=lambda link: link[:3])
        data.loose_implied = sorted(loose_implied, key=lambda edge: edge[:2])
    for name in ("exactMatch", "closeMatch", "broadMatch", "narrowMatch", "relatedMatch"):
        for subject, obj in graph.subject_objects(rdflib.URIRef(SKOS + name)):
            if subject in known and isinstance(obj, rdflib.URIRef) and obj != subject:
                data.mappings.append((cid(subject), f"skos:{name}", cid(obj)))
    # skos:exactMatch between two concepts of the file: interchangeable, so each a kind of the other in
    # the validity closures (as owl:equivalentClass), never an answer
    for left, right in sorted(graph.subject_objects(rdflib.URIRef(SKOS + "exactMatch")), key=str):
        if left in known and right in known and left != right:
            data.implied_parents.extend([(cid(left), cid(right), None), (cid(right), cid(left), None)])
    _equivalent_through_others(graph, known, cid, data)
    _under_domains(graph, concept_nodes, cid, data)
    for prop, parent in _property_parents(graph):
        data.relation_parents.setdefault(relation_id_of(graph, prop, cid), []).append(relation_id_of(graph, parent, cid))
    for prop, parent in sorted(graph.subject_objects(rdflib.RDFS.subPropertyOf), key=str):
        if isinstance(prop, rdflib.URIRef) and isinstance(parent, rdflib.URIRef):     # for a cycle of them (no line yet)
            data.relation_mentions.append((relation_id_of(graph, prop, cid), "rdfs:subPropertyOf",
                                           relation_id_of(graph, parent, cid), None))
    for prop, kind in sorted(graph.subject_objects(rdflib.RDFS.range), key=str):
        if isinstance(prop, rdflib.URIRef) and isinstance(kind, rdflib.URIRef) and str(kind) not in TOP_CLASSES:
            data.relation_ranges.setdefault(relation_id_of(graph, prop, cid), []).append(cid(kind))
    data.parents = sorted(set(data.parents), key=lambda edge: (edge[0], edge[1]))
    data.links = sorted(set(data.links), key=lambda link: link[:3])
    for relation in sorted({link[1] for link in (*data.links, *data.loose_links)}):
        data.relation_info[relation] = _relation_info(graph, relation, lookup, cid, relation_nodes.get(relation, ()),
                                                      path=path, lang=vocabulary.lang)
    for kind_of_property in (*PROPERTY_TYPES, OWL + "DatatypeProperty", OWL + "AnnotationProperty"):
        for prop in graph.subjects(rdflib.RDF.type, rdflib.URIRef(kind_of_property)):
            if isinstance(prop, rdflib.URIRef):
                labels = _pick_one_name(list(graph.objects(prop, rdflib.RDFS.label)), vocabulary.lang)
                data.properties.setdefault(cid(prop), labels[0] if labels else "")
    # an owl:inverseOf naming a property that nothing declares (no rdf:type: a misspelt IRI), counted
    inverse = rdflib.URIRef(OWL + "inverseOf")
    for prop, other in sorted(graph.subject_objects(inverse), key=str):
        for named, by in ((other, prop), (prop, other)):
            if isinstance(named, rdflib.URIRef) and isinstance(by, rdflib.URIRef) and (named, rdflib.RDF.type, None) not in graph:
                data.relation_mentions.append((relation_id_of(graph, by, cid), "owl:inverseOf", relation_id_of(graph, named, cid),
                                               edge_line(path, cid(prop), cid(other), namespaces)))
    return data


#: the restrictions that say a member has a value of the property (``some``, ``value``, a cardinality of one or more)
_EXISTENTIAL = ("someValuesFrom", "hasValue")
_AT_LEAST = ("minCardinality", "cardinality", "minQualifiedCardinality", "qualifiedCardinality")


def _at_least_one(graph, expression, kinds: Iterable[str]) -> bool:
    """The restriction ``expression`` has a cardinality of one or more among ``kinds`` (``owl:`` names)."""
    import rdflib  # lazy: RDF support is needed only for RDF sources

    for kind in kinds:
        count = graph.value(expression, rdflib.URIRef(OWL + kind))
        if count is not None and str(count).strip().isdigit() and int(str(count)) >= 1:
            return True
    return False


def _property_parents(graph) -> List[Tuple[object, object]]:
    """``(property, property above it)``: ``rdfs:subPropertyOf``, and ``owl:equivalentProperty`` between two
    properties the file declares (one relation under two names, each under the other; an equivalent
    property the file does not declare, a Typedef's cross-reference in a rendering, is an alias)."""
    import rdflib  # lazy: RDF support is needed only for RDF sources

    pairs = [(p, q) for p, q in graph.subject_objects(rdflib.RDFS.subPropertyOf)
             if isinstance(p, rdflib.URIRef) and isinstance(q, rdflib.URIRef)]
    declared = {node for kind in PROPERTY_TYPES for node in graph.subjects(rdflib.RDF.type, rdflib.URIRef(kind))}
    for p, q in graph.subject_objects(rdflib.URIRef(OWL + "equivalentProperty")):
        if isinstance(p, rdflib.URIRef) and isinstance(q, rdflib.URIRef) and p != q and p in declared and q in declared:
            pairs.extend([(p, q), (q, p)])
    return sorted(set(pairs), key=str)


def _under_domains(graph, concept_nodes, cid, data: SourceData) -> None:
    """A class whose members have a value of a property (``C rdfs:subClassOf`` or ``owl:equivalentClass``
    a ``some`` / ``value`` / at-least-one restriction on P, or an intersection holding one) is under P's
    ``rdfs:domain``: koala.owl's ``Male = hasGender value male`` with hasGender's domain Animal is a kind
    of animal. Implied parents, counted (``domain_parent``)."""
    import rdflib  # lazy: RDF support is needed only for RDF sources
    from rdflib.collection import Collection  # lazy: as rdflib

    domains: Dict[object, List] = {}
    for prop, domain in graph.subject_objects(rdflib.RDFS.domain):
        if isinstance(domain, rdflib.URIRef) and str(domain) not in TOP_CLASSES:
            domains.setdefault(prop, []).append(domain)
    if not domains:
        return
    # a value of a property is one of every property above it: under their domains too
    above: Dict[object, List] = {}
    for prop, parent in _property_parents(graph):
        above.setdefault(prop, []).append(parent)
    for prop in list(above):
        reached = sorted(reachable(prop, lambda p: above.get(p, ())) - {prop}, key=str)
        inherited = [domain for parent in reached for domain in domains.get(parent, ())]
        if inherited:
            domains[prop] = list(dict.fromkeys([*domains.get(prop, []), *inherited]))

    def existential_property(expression):
        prop = graph.value(expression, rdflib.URIRef(OWL + "onProperty"))
        if prop is None:
            return None
        if any(graph.value(expression, rdflib.URIRef(OWL + kind)) is not None for kind in _EXISTENTIAL):
            return prop
        return prop if _at_least_one(graph, expression, _AT_LEAST) else None

    for node in sorted(concept_nodes, key=str):
        expressions = [e for prop in (rdflib.RDFS.subClassOf, rdflib.URIRef(OWL + "equivalentClass"))
                       for e in graph.objects(node, prop) if isinstance(e, rdflib.BNode)]
        for expression in list(expressions):
            for head in graph.objects(expression, rdflib.URIRef(OWL + "intersectionOf")):
                expressions.extend(m for m in Collection(graph, head) if isinstance(m, rdflib.BNode))
        for expression in expressions:
            for domain in domains.get(existential_property(expression), ()):
                if domain != node:
                    data.implied_parents.append((cid(node), cid(domain), None))
                    data.domain_parents.append((cid(node), cid(domain)))


def _equivalent_through_others(graph, known, cid, data: SourceData) -> None:
    """Classes made equivalent through classes the file does not define (DBpedia's ``dbo:Region`` and
    ``dbo:AdministrativeRegion`` are both ``owl:equivalentClass wd:Q3455524``) are kinds of each
    other: implied parents both ways, so that neither is offered as a wrong answer for the other.
    The equivalences are grouped over every ``owl:equivalentClass`` between named classes, either way."""
    import rdflib  # lazy: RDF support is needed only for RDF sources

    group: Dict = {}

    def find(node):
        while group.setdefault(node, node) != node:
            group[node] = group[group[node]]
            node = group[node]
        return node

    for left, right in graph.subject_objects(rdflib.URIRef(OWL + "equivalentClass")):
        if isinstance(left, rdflib.URIRef) and isinstance(right, rdflib.URIRef):
            group[find(left)] = find(right)
    members: Dict = {}
    for node in group:
        if node in known:
            members.setdefault(find(node), []).append(cid(node))
    for ids in members.values():
        ids = sorted(set(ids))
        data.implied_parents.extend((a, b, None) for a in ids for b in ids if a != b)


def relation_id_of(graph, predicate, cid) -> str:
    """A property's relation id: its ``oboInOwl:shorthand`` where it has one, else its id by ``cid``."""
    import rdflib  # lazy: RDF support is needed only for RDF sources

    shorthand = graph.value(predicate, rdflib.URIRef(OBO_IN_OWL + "shorthand"))
    return str(shorthand) if shorthand else cid(predicate)


def _relation_info(graph, relation: str, lookup: Dict[str, str], cid, used: Iterable = (), path: str = "",
                   lang: str = "en") -> Dict:
    import rdflib  # lazy: RDF support is needed only for RDF sources
    from rdflib.collection import Collection  # lazy: as rdflib

    if relation in SKOS_RELATIONS:
        return dict(SKOS_RELATIONS[relation], aliases=[])
    nodes = [p for p in set(graph.subjects(rdflib.URIRef(OBO_IN_OWL + "shorthand"), rdflib.Literal(relation)))]
    nodes.append(rdflib.URIRef(expand(relation, lookup)))
    nodes.extend(node for node in sorted(used, key=str) if node not in nodes)
    # a readable local name as the default name (part_of: "part of"), none for an opaque one
    # (BFO:0000050: the loader knows it as "part of", as for an OBO file that uses the id bare)
    info = {"name": relation_name(relation, lookup), "transitive": False, "symmetric": False, "aliases": []}
    for node in nodes:
        # a property labelled in several languages is named in --lang's (else English, else the first)
        labels = list(graph.objects(node, rdflib.RDFS.label))
        label = _pick_one_name(labels, lang)
        if label:
            info["name"] = label[0].replace("_", " ")
            # a name in another language than English (tem como ingrediente), which English templates
            # quote rather than conjugate; said only then (the OBO file's relations have no language)
            tag = next((v.language for v in labels if str(v) == label[0] and getattr(v, "language", None)), None)
            if tag and tag.lower().split("-")[0] != "en":
                info["name_language"] = tag
            else:
                info.pop("name_language", None)
        types = {str(t) for t in graph.objects(node, rdflib.RDF.type)}
        info["transitive"] |= OWL + "TransitiveProperty" in types
        info["symmetric"] |= OWL + "SymmetricProperty" in types
        if isinstance(node, rdflib.URIRef) and cid(node) != relation:
            info["aliases"].append(cid(node))
        # what the OBO Typedef's xref became: a cross-reference, or an equivalent property
        info["aliases"].extend(curie(str(x)) for x in graph.objects(node, rdflib.URIRef(OBO_IN_OWL + "hasDbXref")))
        # P then Q is this relation (OBO's holds_over_chain; transitive_over S is the chain R, S)
        for head in sorted(graph.objects(node, rdflib.URIRef(OWL + "propertyChainAxiom")), key=str):
            try:
                members = list(Collection(graph, head))
            except ValueError as error:        # rdflib: a list whose rdf:rest comes back to itself
                raise SourceError(path, f"owl:propertyChainAxiom of {relation} is no list ({error}; expected "
                                        "( P1 P2 ... ), the relations in turn)") from None
            if len(members) > 1 and all(isinstance(m, rdflib.URIRef) for m in members):
                chain = [relation_id_of(graph, m, cid) for m in members]
                if chain not in info.setdefault("chains", []):
                    info["chains"].append(chain)
        inverse = rdflib.URIRef(OWL + "inverseOf")           # x R y is y S x
        for other in [*graph.objects(node, inverse), *graph.subjects(inverse, node)]:
            if isinstance(other, rdflib.URIRef) and relation_id_of(graph, other, cid) not in info.get("inverses", ()):
                info.setdefault("inverses", []).append(relation_id_of(graph, other, cid))
        equivalent = rdflib.URIRef(OWL + "equivalentProperty")
        info["aliases"].extend(cid(other) for other in [*graph.objects(node, equivalent), *graph.subjects(equivalent, node)]
                               if isinstance(other, rdflib.URIRef))
    info["aliases"] = [alias for alias in dict.fromkeys(info["aliases"]) if alias != relation]
    return info
