"""Identifiers as CURIEs, so that one ontology read from OBO and from its OWL rendering has one set of ids.

* an OBO PURL ``http://purl.obolibrary.org/obo/SO_0000110`` is ``SO:0000110`` (the OBO Foundry rule:
  ``<PREFIX>_<local>`` after ``/obo/``), and an ontology-local property
  ``http://purl.obolibrary.org/obo/so#part_of`` is ``part_of`` (how OBO writes an unprefixed
  relation id);
* an IRI in a namespace the file binds to a prefix, or in one of :data:`KNOWN_PREFIXES`, is
  ``prefix:local`` (``https://schema.org/Hospital`` is ``schema:Hospital``);
* anything else stays the full IRI; an id that is already a CURIE stays as it is.

:func:`curie` takes the prefix bindings of the file (rdflib's namespace manager gives them), so a
file's own prefixes are honoured; the well-known vocabularies below win over a file that binds
them to other names, so that the same property has the same id in every file.
"""
import re
from typing import Iterable, Mapping, Optional, Tuple

OBO_PURL = "http://purl.obolibrary.org/obo/"

#: namespaces with one fixed prefix whatever a file calls them
KNOWN_PREFIXES: Tuple[Tuple[str, str], ...] = (
    ("http://www.w3.org/2000/01/rdf-schema#", "rdfs"),
    ("http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rdf"),
    ("http://www.w3.org/2002/07/owl#", "owl"),
    ("http://www.w3.org/2004/02/skos/core#", "skos"),
    ("http://www.w3.org/2008/05/skos-xl#", "skosxl"),
    ("http://www.geneontology.org/formats/oboInOwl#", "oboInOwl"),
    ("http://purl.org/dc/elements/1.1/", "dc"),
    ("http://purl.org/dc/terms/", "dcterms"),
    ("https://schema.org/", "schema"),
    ("http://schema.org/", "schema"),
)

_OBO_CLASS = re.compile(r"^([A-Za-z][A-Za-z0-9]*)_([^/#]+)$")
_CURIE = re.compile(r"^[A-Za-z][\w.-]*:[^/\s][^\s]*$")


def is_iri(text: str) -> bool:
    return "://" in text or text.startswith("urn:")


def local_name(iri: str) -> str:
    """The last part of an IRI, after its last ``#`` or ``/`` (``.../pizza.owl#hasTopping`` ->
    ``hasTopping``); a text that is no IRI as it is."""
    return re.split(r"[#/]", iri.rstrip("/#"))[-1] if is_iri(iri) else iri


def relation_probe_name(relation: str) -> str:
    """The probe (and directory) name of a relation: ``part_of``, ``skos:related`` -> ``skos_related``,
    a full IRI by its local name (``http://.../pizza.owl#hasTopping`` -> ``hasTopping``)."""
    return re.sub(r"[^A-Za-z0-9_]+", "_", local_name(relation)).strip("_") or "relation"


def curie(iri: str, namespaces: Iterable[Tuple[str, str]] = ()) -> str:
    """The CURIE of ``iri`` (see the module docstring); ``namespaces`` are ``(prefix, namespace)`` pairs."""
    text = str(iri)
    if not is_iri(text):
        return text
    if text.startswith(OBO_PURL):
        local = text[len(OBO_PURL):]
        if "#" in local:                       # obo/so#part_of: an ontology-local relation id
            return local.split("#", 1)[1]
        match = _OBO_CLASS.match(local)
        if match:
            return f"{match.group(1)}:{match.group(2)}"
        return text
    for namespace, prefix in KNOWN_PREFIXES:
        if text.startswith(namespace) and len(text) > len(namespace):
            return f"{prefix}:{text[len(namespace):]}"
    best: Optional[Tuple[str, str]] = None
    for prefix, namespace in namespaces:
        namespace = str(namespace)
        if prefix and text.startswith(namespace) and len(text) > len(namespace):
            if best is None or len(namespace) > len(best[1]):
                best = (prefix, namespace)
    if best is not None:
        local = text[len(best[1]):]
        if re.match(r"^[\w.-]+$", local):
            return f"{best[0]}:{local}"
    return text


def normalise(identifier: str, namespaces: Iterable[Tuple[str, str]] = ()) -> str:
    """An id as the user or a file writes it (a CURIE, an IRI, ``<IRI>``) as the graph's id."""
    text = identifier.strip()
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1]
    return curie(text, namespaces)


def expand(identifier: str, namespaces: Mapping[str, str]) -> str:
    """A CURIE as a full IRI (for matching a configured property against an RDF graph)."""
    text = identifier.strip()
    if is_iri(text):
        return text
    if ":" in text:
        prefix, local = text.split(":", 1)
        known = {p: n for n, p in KNOWN_PREFIXES}
        if prefix in namespaces:
            return str(namespaces[prefix]) + local
        if prefix in known:
            return known[prefix] + local
        if re.match(r"^[A-Z][A-Za-z0-9]*$", prefix):     # an OBO prefix: IAO:0000115
            return f"{OBO_PURL}{prefix}_{local}"
    return text


def relation_name(relation: str, prefixes: Iterable[str] = ()) -> str:
    """The readable name of a relation known by its id alone, alike from every format: ``part_of`` ->
    *part of*; a CURIE's local name where the prefix is a namespace's (one of ``prefixes`` or a
    known one: ``skos:related`` -> *related*, ``ex:partOf`` -> *partOf*), the whole id as words where
    it is not (the Units Ontology's ``has:prefix``, ``obo:has_prefix`` in its OWL rendering -> *has
    prefix*); a full IRI's local name (``http://www.co-ode.org/ontologies/pizza/pizza.owl#hasTopping`` ->
    *hasTopping*); '' for an opaque id (``BFO:0000050``: its known name, or the id, is used)."""
    head, colon, local = relation.partition(":")
    if not colon or is_iri(relation):       # a full IRI (a namespace the file gives no prefix): its local name
        head, local = "", local_name(relation)
    if not any(c.isalpha() for c in local) or (is_iri(relation) and _OBO_CLASS.match(local) and local[-1].isdigit()):
        return ""
    if head and head.isalpha() and head.islower() and head not in {*prefixes, *(p for _, p in KNOWN_PREFIXES)}:
        local = f"{head} {local}"
    return " ".join(local.replace("_", " ").split())


def looks_like_curie(text: str) -> bool:
    return bool(_CURIE.match(text))
