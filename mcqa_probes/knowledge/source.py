"""Any expert knowledge source into a :class:`~mcqa_probes.knowledge.graph.KnowledgeGraph`:
OBO, OWL / RDFS / SKOS in any RDF syntax, or a TSV pair; one file or several merged.

    from mcqa_probes.knowledge.source import load_source
    graph = load_source(["so.obo"], root="SO:0000110")

Steps, each counted in the graph's validity report (``graph.provenance["report"]``):

1. read each file with its reader (:mod:`.obo`, :mod:`.rdf`, :mod:`.tsv`), the format given or
   guessed from the file (:func:`guess_format`); ids are CURIEs (:mod:`.identifiers`);
2. merge the files: a concept defined twice keeps the first label and definition and gets the
   synonyms of both (``merged``); one made obsolete in any file is skipped;
3. drop concepts without a usable label (``no_label``), clean definitions (:mod:`.text`), and show
   code-like labels (``MedicalOrganization``) as words when most labels of the source are so;
4. drop parent edges and relation links to or from a concept that is never defined (``undefined_parent``;
   with ``strict`` an error); an edge to a concept that was dropped (no label) or is obsolete goes on
   to that concept's own parents (``edge_lifted``: ``C is_a D is_a E`` with D dropped gives ``C is_a
   E``, so the closure that decides "exactly one correct answer" keeps every ancestor), or is dropped
   when it has none (``edge_to_dropped``); a link by a relation that does not pass on to parents
   (``skos:related``, a table's relation) is dropped (``link_to_dropped``, as is every link from a
   dropped or obsolete concept); the parents and links that logical axioms entail
   (``SourceData.implied_parents``) go on the same way, uncounted, into the graph's
   ``implied_hypernyms`` (validity closures only, never answers);
5. keep only the sub-tree under ``root`` (ids, comma-separated; an unknown root is an error);
6. refuse a cycle in the parent relation (an error naming the cycle and the line of its first edge)
   and an empty result.

Relations named in ``relations`` must exist (an unknown name is an error listing those found); a
relation's transitivity comes from the source (OBO ``is_transitive``, ``owl:TransitiveProperty``)
or, when the source says nothing, from :data:`TRANSITIVE_BY_NAME` (however a table spells the name:
``Part of``, ``partOf``); so does its symmetry (OBO ``is_symmetric``, ``owl:SymmetricProperty``, else
:data:`SYMMETRIC_BY_NAME`: a table's ``related to``) and its inverse (OBO ``inverse_of``,
``owl:inverseOf``, else :data:`INVERSES_BY_NAME`: BFO's *part of* and *has part*, by id or name).
"""
import graphlib
import itertools
import re
import unicodedata
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Pattern, Sequence, Set, Tuple, Union

from mcqa_probes.common.io import sha256_bytes, sha256_file
from mcqa_probes.knowledge.entailment import (
    chain_relations, chain_starts, classify, inverse_links, range_links, relation_chains, sub_relation_links, super_relations,
)
from mcqa_probes.knowledge.graph import CODE, OTHER_NAME, RESPELLING, Concept, KnowledgeGraph, reachable
from mcqa_probes.knowledge.identifiers import expand, is_iri, local_name, normalise, relation_name
from mcqa_probes.knowledge.obo import read_obo
from mcqa_probes.knowledge.ontology import (
    COMPRESSIONS, SYNTAX_BY_SUFFIX, Line, RawConcept, SourceData, SourceError, SourceReport, Vocabulary, file_name, file_of,
    inner_suffix,
    source_bytes, source_head, source_text,
)
from mcqa_probes.knowledge.rdf import edge_line, line_naming, read_rdf
from mcqa_probes.knowledge.text import camel_case_source, clean_definition, fold_accents, letters, readable_label
from mcqa_probes.knowledge.tsv import PARENT_RELATIONS, read_tsv

FORMATS = ("obo", "owl", "rdf", "skos", "tsv")
#: relations that chain when the source does not say (the OBO Relation Ontology's and SKOS's)
TRANSITIVE_BY_NAME = {"part_of", "has_part", "BFO:0000050", "BFO:0000051", "located_in", "RO:0001025",
                      "location_of", "RO:0001015", "skos:broaderTransitive", "skos:narrowerTransitive"}
#: the same, as :func:`~mcqa_probes.knowledge.text.letters` writes them: a table's ``Part of`` or
#: ``partOf`` chains as ``part_of`` does (one relation however its rows spell it)
_TRANSITIVE_LETTERS = frozenset(map(letters, TRANSITIVE_BY_NAME))
#: relations read both ways when the source does not say (however a table spells them: ``related to``,
#: ``Related``, ``relatedTo``): "A related to B" says B is related to A, so B's own link back is no
#: wrong answer; the Relation Ontology's *interacts with* by its id too. (Not ``adjacent_to`` or
#: ``overlaps``: the Relation Ontology does not declare them symmetric, and between classes they are not)
SYMMETRIC_BY_NAME = {"related", "related_to", "is_related_to", "skos:related", "associated_with", "similar_to",
                     "sibling_of", "interacts_with", "RO:0002434"}
_SYMMETRIC_LETTERS = frozenset(map(letters, SYMMETRIC_BY_NAME))
#: pairs of relations each the other read backwards when the source declares no ``inverse_of``
#: (BFO's part of / has part, the Relation Ontology's located in / location of), by id or name
INVERSES_BY_NAME = (("part_of", "has_part"), ("BFO:0000050", "BFO:0000051"), ("located_in", "location_of"),
                    ("RO:0001025", "RO:0001015"))
#: readable names of common OBO Relation Ontology ids, for a source that uses them without a Typedef
KNOWN_RELATION_NAMES = {"BFO:0000050": "part of", "BFO:0000051": "has part", "RO:0001025": "located in",
                        "RO:0001015": "location of", "RO:0002202": "develops from", "RO:0002131": "overlaps",
                        "RO:0002211": "regulates", "RO:0000057": "has participant", "RO:0002215": "capable of"}
PathLike = Union[str, Path]
#: names of the parent relation and its SKOS relatives (as :func:`~mcqa_probes.knowledge.text.letters`
#: writes them): the hierarchy, which no relation probe asks
HIERARCHY_NAMES = PARENT_RELATIONS | {"is_a", "skos:narrower", "narrower", "skos:broadertransitive",
                                      "skos:narrowertransitive", "broadertransitive", "narrowertransitive",
                                      "skos:broadmatch", "skos:narrowmatch", "broadmatch", "narrowmatch"}


def _known_as(relation: str, info: dict, names: Iterable[str]) -> Set[str]:
    """Which of ``names`` (as :func:`~mcqa_probes.knowledge.text.letters` writes them) the relation
    is, by its id, its id's local part (``ex:relatedTo``) or its name (``part of`` for ``BFO:0000050``)."""
    spellings = (relation, relation.partition(":")[2], info.get("name") or "")
    return {letters(spelling) for spelling in spellings if spelling} & set(names)


def _inverses_by_name(data: "SourceData") -> List[Tuple[str, str]]:
    """The pairs of :data:`INVERSES_BY_NAME` that the source's relations are (both of them there)."""
    by_name: Dict[str, Set[str]] = {}
    known = {letters(name) for pair in INVERSES_BY_NAME for name in pair}
    for relation in set(data.relation_info) | {r for _, r, _, _ in data.links}:
        for found in _known_as(relation, data.relation_info.get(relation, {}), known):
            by_name.setdefault(found, set()).add(relation)
    return sorted({(relation, other) for first, second in INVERSES_BY_NAME
                   for relation in by_name.get(letters(first), ()) for other in by_name.get(letters(second), ())
                   if relation != other})


def _declares(prefixed: str, iri: str) -> Pattern:
    """A resource declared of the class ``prefixed`` / ``iri``: Turtle / N-Triples (``a`` or ``rdf:type``,
    maybe after other types), RDF/XML (an element of the class, an ``rdf:type`` of it) or JSON-LD (an
    ``@type``); a vocabulary that only refers to the class (FOAF's ``rdfs:domain skos:Concept``) does
    not declare one."""
    named = f"(?:{re.escape(prefixed)}|<{re.escape(iri)}>)(?![\\w#:-])"
    return re.compile(
        r"(?:(?<![\w:<\"'])a|rdf:type|<http://www\.w3\.org/1999/02/22-rdf-syntax-ns#type>)\s+(?:[^\s.;,\"]+\s*,\s*)*"
        + named
        + f"|<{re.escape(prefixed)}[\\s/>]"
        + f"|<rdf:type\\s+rdf:resource=\"{re.escape(iri)}\""
        + f"|\"@type\"\\s*:\\s*(?:\\[[^\\]]*?)?\"(?:{re.escape(prefixed)}|{re.escape(iri)})\"")


_DECLARES_SKOS_CONCEPT = _declares("skos:Concept", "http://www.w3.org/2004/02/skos/core#Concept")
#: classes declared (OWL, RDFS): a file that declares more of them than of skos:Concept is an ontology
#: with a small vocabulary inside (RiC-O), whatever its syntax puts first
_DECLARES_RDFS_CLASS = _declares("rdfs:Class", "http://www.w3.org/2000/01/rdf-schema#Class")
_DECLARES_CLASS = [_declares("owl:Class", "http://www.w3.org/2002/07/owl#Class"), _DECLARES_RDFS_CLASS]

#: a thesaurus's own properties, in a file that declares no concept and no class
_USES_SKOS = re.compile(r"(?:skos:|2004/02/skos/core#)(?:prefLabel|broader|narrower)\b")


#: the W3C vocabularies' own terms (owl:Thing, xsd:string): no concept of a source, never "undefined"
_W3C_PREFIXES = ("owl:", "rdf:", "rdfs:", "xsd:")
#: archives of several files, which are not opened
_ARCHIVES = (".tar", ".tgz", ".7z", ".rar")
#: the first lines of an OBO file, and of RDF in a text syntax (Turtle, N-Triples, RDF/XML, JSON-LD,
#: the OWL syntaxes), for a file whose suffix says nothing (``ontology.txt``)
_LOOKS_OBO = re.compile(r"\A\ufeff?\s*(?:![^\n]*\n\s*)*(?:format-version:|data-version:|ontology:|\[Term\]|\[Typedef\])")
_LOOKS_RDF = re.compile(r"\A\ufeff?\s*(?:(?:#[^\n]*\n\s*)*(?:@prefix|@base|PREFIX\s|BASE\s|<http[^>]*>\s+<)|<\?xml|"
                        r"<!--|<rdf:RDF|<Ontology|[{\[]\s*\"@|\{\s*\"@context|Prefix\(|Ontology\(|Prefix:|Ontology:)",
                        re.IGNORECASE)


def guess_format(path: PathLike) -> str:
    """``tsv`` for a directory, ``obo`` for ``.obo``, ``skos`` / ``owl`` / ``rdf`` for RDF syntaxes (by
    the classes the file declares: looked at in the first 200 kB: ``skos`` when it declares a
    ``skos:Concept``, ``owl`` when ``owl:Class`` and no ``rdfs:Class``); another suffix by how the text starts (an OBO header or frame, RDF in a
    text syntax), else an error naming the choices; a compressed file by the suffix and the
    text of the file inside (:func:`~mcqa_probes.knowledge.ontology.inner_name`)."""
    path = Path(path)
    if path.is_dir():
        return "tsv"
    if not path.exists():
        raise SourceError(str(path), "no such file or directory (expected an OBO, OWL, RDF, SKOS file or a "
                                     "directory with concepts.tsv and edges.tsv)")
    suffix = inner_suffix(path)
    if suffix == ".obo":
        return "obo"
    if suffix in (".tsv", ".csv") or (suffix == ".txt" and path.stem.lower() in ("concepts", "edges")):
        raise SourceError(str(path), "a TSV source is the directory that holds concepts.tsv and edges.tsv: "
                                     f"give --source {path.parent}")
    head = source_head(path, 200_000).decode("utf-8", errors="replace") if suffix not in _ARCHIVES else ""
    if suffix not in SYNTAX_BY_SUFFIX and _LOOKS_OBO.search(head):         # another suffix: by its text
        return "obo"
    if suffix in SYNTAX_BY_SUFFIX or _LOOKS_RDF.search(head):
        concepts = len(_DECLARES_SKOS_CONCEPT.findall(head))
        if concepts and concepts >= sum(len(pattern.findall(head)) for pattern in _DECLARES_CLASS):
            return "skos"
        if ((suffix in (".owl", ".owx", ".ofn", ".omn") or "owl#Class" in head or "owl:Class" in head)
                and not _DECLARES_RDFS_CLASS.search(head)):
            return "owl"        # (a file that declares rdfs:Class too is RDFS, which reads both kinds of class)
        if not any(pattern.search(head) for pattern in _DECLARES_CLASS) and _USES_SKOS.search(head):
            return "skos"               # a thesaurus that leaves out "a skos:Concept" (SKOS entails it)
        return "rdf"
    if suffix in _ARCHIVES:
        raise SourceError(str(path), f"an archive ({suffix}): give the ontology file in it (a file compressed by "
                                     f"{', '.join(COMPRESSIONS)} and a zip archive holding one are read as they are)")
    raise SourceError(str(path), f"cannot tell the format from the suffix {suffix or '(none)'}; give --format "
                                 f"({'|'.join(FORMATS)})")


def read_file(path: PathLike, format: Optional[str], vocabulary: Vocabulary, report: SourceReport,
              shared: Optional[Dict[str, str]] = None, merged: bool = False) -> SourceData:
    """One file with the reader of its format (``shared``: RDF prefixes of the files read before;
    ``merged``: other files are read with it)."""
    kind = format or guess_format(path)
    if kind not in FORMATS:
        raise SourceError(str(path), f"unknown format {kind!r} (expected one of {', '.join(FORMATS)})")
    if kind == "tsv":
        return read_tsv(str(path), vocabulary, report)
    if Path(path).is_dir():
        raise SourceError(str(path), f"a directory (expected a {kind.upper()} file; a directory of concepts.tsv "
                                     "and edges.tsv is read with --format tsv)")
    if not Path(path).is_file():
        raise SourceError(str(path), f"no such file (expected a {kind.upper()} file)")
    if kind == "obo":
        return read_obo(str(path), vocabulary, report)
    blank = b" \t\r\n\xef\xbb\xbf"
    if not source_head(str(path), 4096).strip(blank) and not source_bytes(str(path)).strip(blank):
        raise SourceError(str(path), f"an empty file (expected {'a SKOS' if kind == 'skos' else 'an ' + kind.upper()} "
                                     "file with classes or concepts)")
    return read_rdf(str(path), vocabulary, report, kind=None if kind == "rdf" else kind, shared=shared, merged=merged)


#: a definition that stands for none: an empty cell written out by the tool that exported it
_PLACEHOLDER = re.compile(r"^\s*(?:null|none|nil|nan|n/?a|n\.a\.|tbd|tba|todo|to do|missing|undefined|"
                          r"no definition|not defined|[-\u2013\u2014?.\s]+|"
                          # a pointer to another entry, a term or an id (Brick's "See Fan_Coil_Unit")
                          r"see(?: also)?:?\s+\S+(?:\s+\S+){0,3})\s*[.!]?\s*$", re.IGNORECASE)


def _undeclared_obo_relations(parts: List[SourceData], data: SourceData, report: SourceReport, strict: bool) -> None:
    """A ``relationship:`` clause of an OBO file naming a relation that no ``[Typedef]`` of the source
    declares (OBO 1.4 asks for one; a misspelt id, ``attached_to`` for ``attaches_to``, reads so), or
    a Typedef's ``inverse_of`` naming one: counted, once per relation at its first clause, the relation read by its id alone (neither
    transitive nor symmetric unless its name says so); with ``strict``, an error there."""
    for part in parts:
        _undeclared_inverses(part, data, report, strict)
        if part.format != "obo":
            continue
        for synonym_type, line in part.undeclared_synonym_types:
            if strict:
                raise SourceError(file_of(line, part.path) or part.path,
                                  f"synonym of the type {synonym_type}: no synonymtypedef declares it (expected "
                                  f"'synonymtypedef: {synonym_type} \"...\"' in the header; without --strict its "
                                  "synonyms are read as untyped and counted)", line)
            report.add("undeclared_synonym_type", file_of(line, part.path), line, synonym_type)
        first: Dict[str, Optional[int]] = {}
        for _, relation, _, line in part.links:
            if relation not in data.relation_info and (first.get(relation) is None or (line and line < first[relation])):
                first[relation] = line
        for relation, line in sorted(first.items()):
            if strict:
                raise SourceError(file_of(line, part.path) or part.path,
                                  f"relationship {relation}: no [Typedef] declares the relation {relation} (expected "
                                  f"a [Typedef] frame with 'id: {relation}'; without --strict it is read by its id "
                                  f"alone and counted)", line)
            report.add("undeclared_relation", file_of(line, part.path), line, relation)


def _undeclared_inverses(part: SourceData, data: SourceData, report: SourceReport, strict: bool) -> None:
    """A Typedef's ``inverse_of`` naming a relation that no ``[Typedef]`` declares, or an ``owl:inverseOf``
    naming a property that nothing declares (a misspelt id, ``is_conj_base_of`` for
    ``is_conjugate_base_of``: the inverse reading was lost without a word): counted as an undeclared
    relation; with ``strict``, an error at its line."""
    obo = part.format == "obo"
    for relation, clause, other, line in part.relation_mentions:
        if clause not in ("inverse_of", "owl:inverseOf") or (obo and other in data.relation_info):
            continue
        if strict:
            expected = (f"a [Typedef] frame with 'id: {other}'" if obo else
                        f"a declaration of {other}, such as {other} a owl:ObjectProperty")
            raise SourceError(file_of(line, part.path) or part.path,
                              f"{clause} {other} of the relation {relation}: nothing declares the relation {other} "
                              f"(expected {expected}; without --strict the {clause} clause is read by its id alone "
                              f"and counted)", line)
        report.add("undeclared_relation", file_of(line, part.path), line, f"{other} ({clause} of {relation})")


def _merge(parts: List[SourceData], report: SourceReport) -> SourceData:
    if len(parts) == 1:
        return parts[0]
    # named after the files that name an ontology (or a scheme); a file that names none (its name its
    # file's, no version: a file of definitions or of links for the others) adds nothing to the name
    naming = [p for p in parts if not (p.version == "unknown" and p.name == file_name(p.path))] or parts
    merged = SourceData(path="+".join(p.path for p in parts), format="+".join(sorted({p.format for p in parts})),
                        name="+".join(dict.fromkeys(p.name for p in naming)),
                        version="+".join(dict.fromkeys(p.version for p in naming)))
    for part in parts:
        for concept_id, concept in part.concepts.items():
            mine = merged.concepts.get(concept_id)
            if mine is None:
                merged.concepts[concept_id] = concept
                continue
            report.add("merged", part.path, concept.line, concept_id)
            if _fill(mine, concept):
                report.add("merged_label", part.path, concept.line, f"{concept_id} '{concept.label}' (kept: '{mine.label}')")
        merged.parents.extend(part.parents)
        merged.links.extend(part.links)
        merged.implied_parents.extend(part.implied_parents)
        merged.implied_links.extend(part.implied_links)
        merged.definitions.extend(part.definitions)
        merged.partial_definitions |= part.partial_definitions
        merged.domain_parents.extend(part.domain_parents)
        for united, members in part.unions.items():
            merged.unions.setdefault(united, []).extend(m for m in members if m not in merged.unions.get(united, ()))
        for relation, supers in part.relation_parents.items():
            merged.relation_parents.setdefault(relation, []).extend(supers)
        for relation, kinds in part.relation_ranges.items():
            merged.relation_ranges.setdefault(relation, []).extend(kinds)
        merged.obsolete |= part.obsolete
        for label, concept_id in part.obsolete_labels.items():
            merged.obsolete_labels.setdefault(label, concept_id)
        for alternative, term in part.alternatives.items():
            merged.alternatives.setdefault(alternative, term)
        for prop, label in part.properties.items():
            merged.properties.setdefault(prop, label)
        merged.hierarchy_implied |= part.hierarchy_implied
        merged.mappings.extend(part.mappings)
        merged.label_languages.update(part.label_languages)
        merged.namespaces.extend(pair for pair in part.namespaces if pair not in merged.namespaces)
        merged.existential_relations |= part.existential_relations
        for relation, info in part.relation_info.items():
            merged.relation_info.setdefault(relation, info)
    # what a file says of resources that another file makes concepts (SourceData.loose_concepts):
    # names where the concept has none yet, and the hierarchy edges from them
    for part in parts:
        for concept_id, loose in part.loose_concepts.items():
            mine = merged.concepts.get(concept_id)
            if mine is not None:
                report.add("merged", part.path, None, concept_id)
                _fill(mine, loose)
        merged.parents.extend(edge for edge in part.loose_parents
                              if edge[0] in merged.concepts or edge[0] in merged.obsolete)
    # the links and equivalences a file states of concepts of another file (SourceData.loose_links)
    ends = set(merged.concepts) | merged.obsolete
    merged.links.extend(link for part in parts for link in part.loose_links if link[0] in ends and link[2] in ends)
    merged.implied_parents.extend(edge for part in parts for edge in part.loose_implied
                                  if edge[0] in ends and edge[1] in ends)
    return merged


def _fill(mine: RawConcept, other: RawConcept) -> bool:
    """A concept defined again (another file, another language): the other's label where it has a
    better one, its definition where it has none, the other's synonyms and respellings besides.
    Another label of its own (*cor cordis* for *heart*) is a name of the concept, never asked as
    another (was: dropped); returns whether there was one."""
    relabelled = False
    if not mine.label or (mine.label_from_iri and other.label and not other.label_from_iri):
        mine.label, mine.label_from_iri = other.label, other.label_from_iri
    elif other.label and not other.label_from_iri and other.label != mine.label:
        relabelled = True
        if other.label not in mine.other_names:
            mine.other_names.append(other.label)
    mine.definition = mine.definition or other.definition
    mine.synonyms.extend(s for s in other.synonyms if s not in mine.synonyms)
    mine.respellings.extend(s for s in other.respellings if s not in mine.respellings)
    mine.other_names.extend(s for s in other.other_names if s not in mine.other_names)
    return relabelled


def _kept_beyond(start: str, step: Dict[str, List[str]], kept) -> List[str]:
    """The ``kept`` concepts reached from ``start`` over ``step`` (its parents, or its children)
    through concepts not kept only, sorted."""
    reached, seen, stack = set(), {start}, [start]
    while stack:
        for other in step.get(stack.pop(), ()):
            if other in kept:
                reached.add(other)
            elif other not in seen:
                seen.add(other)
                stack.append(other)
    return sorted(reached)


def _descendants(roots: Sequence[str], children: Dict[str, List[str]]) -> Set[str]:
    keep, stack = set(roots), list(roots)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in keep:
                keep.add(child)
                stack.append(child)
    return keep


#: an OBO id written as its PURL's local name (``BFO_0000050`` for ``BFO:0000050``)
_OBO_LOCAL_ID = re.compile(r"^([A-Za-z][A-Za-z0-9]*)_(\d+)$")


def _resolve_relations(wanted: Optional[Iterable[str]], data: SourceData) -> Dict[str, str]:
    """User's relation names -> the source's relation ids (by id, CURIE, alias or name)."""
    if not wanted:
        return {}
    used = sorted({link[1] for link in data.links})

    def listed() -> str:
        """The relations found, each with its name where its id is a code (``BFO:0000050 (part of)``)."""
        shown = []
        for relation in used:
            name = str(data.relation_info.get(relation, {}).get("name") or "")
            code = any(character.isdigit() for character in re.split(r"[:/#]", relation)[-1])
            shown.append(f"{relation} ({name})" if name and code else relation)
        return ", ".join(shown)

    names: Dict[str, str] = {}
    # a relation's own id first, as written (part_of is the relation part_of, even where BFO:0000050 is
    # named "part of", or where another relation is named "Part of"), then in any case, then its names
    # and aliases
    exact = {alias: relation for relation in used for alias in (relation, normalise(relation))}
    for relation in used:
        for alias in (relation, normalise(relation)):
            names.setdefault(alias.lower().replace(" ", "_"), relation)
    for relation in used:
        info = data.relation_info.get(relation, {})
        for alias in [info.get("name", ""), *info.get("aliases", [])]:
            if alias:
                names.setdefault(alias.lower().replace(" ", "_"), relation)
    # a relation that is a full IRI (its namespace has no prefix in the file) by its local name too
    # (hasTopping), where no other relation has that local name
    by_local: Dict[str, List[str]] = {}
    for relation in used:
        if is_iri(relation):
            by_local.setdefault(local_name(relation).lower(), []).append(relation)
        elif ":" in relation:       # a prefixed name by its local part too (related for skos:related)
            by_local.setdefault(relation.split(":", 1)[1].lower(), []).append(relation)
    for key, relations in by_local.items():
        if len(relations) == 1:
            names.setdefault(key, relations[0])
    # a relation by a prefixed name in any of the file's own prefixes (dct:isReplacedBy for the
    # relation named dcterms:isReplacedBy), or by its full IRI
    file_prefixes = dict(data.namespaces)
    by_iri = {expand(relation, file_prefixes): relation for relation in used}
    resolved = {}
    for given in wanted:
        name = given
        obo_style = _OBO_LOCAL_ID.match(name)      # BFO_0000050, as an OBO PURL ends: BFO:0000050
        if obo_style:
            candidate = f"{obo_style.group(1)}:{obo_style.group(2)}"
            if candidate in exact or normalise(candidate).lower().replace(" ", "_") in names:
                name = candidate
        if name in exact or normalise(name) in exact:
            resolved[given] = exact.get(name) or exact[normalise(name)]
            continue
        if expand(name, file_prefixes) in by_iri:
            resolved[given] = by_iri[expand(name, file_prefixes)]
            continue
        key = normalise(name).lower().replace(" ", "_")
        if key not in names:
            # last, a name that differs only in hyphens, spaces and underscores from one relation's id
            # or name (part-of, partof), as a table's spellings of one relation are read as one
            alike = {relation for alias, relation in names.items() if letters(alias) == letters(key)}
            if len(alike) == 1:
                resolved[given] = alike.pop()
                continue
        if key not in names and letters(normalise(name)) in HIERARCHY_NAMES:
            raise SourceError(data.path, f"--relations {given}: the source's hierarchy, which the hypernymy and "
                                         "hyponymy probes ask (with hops, over its transitive closure); expected "
                                         f"another relation (found: {listed() or 'none besides the hierarchy'})")
        if key not in names:
            unasked = _unasked_relation(key, data)
            if unasked:
                relation, count, line = unasked
                raise SourceError(data.path, f"--relations {given}: {relation} links no two concepts as a question "
                                             f"asks it (a 'some' link); its {count} link(s) in the source are "
                                             "qualified (cardinality, all_only) or entailed by a logical definition, "
                                             "kept out of the distractors but never asked (found: "
                                             f"{listed() or 'none besides the parent relation'})", line)
            raise SourceError(data.path, f"--relations {given}: no such relation between concepts (found: "
                                         f"{listed() or 'none besides the parent relation'})")
        resolved[given] = names[key]
    return resolved


def _unasked_relation(key: str, data: SourceData) -> Optional[Tuple[str, int, Optional[int]]]:
    """``(relation, links, the first one's line)`` for a relation named ``key`` (id or name, as :func:`_resolve_relations`
    keys them) whose only links are implied ones (``data.implied_links``: a cardinality or all_only
    qualifier, a logical definition): it exists, but no question asks it; None otherwise."""
    counts: Dict[str, int] = {}
    first: Dict[str, Optional[int]] = {}
    for _, relation, _, line in data.implied_links:
        counts[relation] = counts.get(relation, 0) + 1
        first.setdefault(relation, line)
    for relation, count in sorted(counts.items()):
        info = data.relation_info.get(relation, {})
        aliases = [relation, normalise(relation), info.get("name", ""), *info.get("aliases", [])]
        if key in {alias.lower().replace(" ", "_") for alias in aliases if alias}:
            return relation, count, first[relation]
    return None


def _refuse_relation_outside_root(relations, cut: SourceData, links_of_source, data: SourceData, roots: List[str],
                                  error: SourceError) -> None:
    """``error`` (a relation that is no relation of the graph) again, or, for a relation of the whole
    source that links no two concepts under the ``--root`` (``cut``: the links kept), the error that
    says so."""
    whole = SourceData(path=cut.path, format=data.format, name=data.name, version=data.version,
                       links=[(s, r, o, None) for (s, r, o), _ in links_of_source],
                       relation_info=data.relation_info, namespaces=data.namespaces)
    for given in relations:
        try:
            _resolve_relations([given], cut)
            continue
        except SourceError:
            pass
        try:
            relation = _resolve_relations([given], whole)[given]
        except SourceError:
            break
        count = sum(1 for (_, r, _), _ in links_of_source if r == relation)
        raise SourceError(cut.path, f"--relations {given}: no {relation} link between two concepts under --root "
                                    f"{','.join(roots)} (the whole source has {count}; expected a relation inside "
                                    "the sub-tree: a wider --root, or no --relations)") from None
    raise error


#: a relation id that is a code, not a name (``BFO:0000050``, ``RO_0002131``): its probe is named after its label
_CODED_RELATION = re.compile(r"(?:[A-Za-z]{1,12}[_:])?\d+")


def _relation_spelling(relation: str, info: dict) -> str:
    """The name of the probe of ``relation`` (its folder, question ids, random stream and
    ``notes.relation``), whatever spelling of it ``--relations`` gives (``related``, ``skos:related``,
    its IRI, ``Part of``, ``partOf``, an alias): the source's id of it (``part_of``, ``skos:related``;
    an IRI by its local name, ``hasTopping``), or where that id is a code (``BFO:0000050``) its name
    with ``_`` for spaces (``part_of``), so that an OBO file and its OWL rendering (``part_of`` and
    ``BFO:0000050`` labelled *part of*) give one name too."""
    own = local_name(relation) if is_iri(relation) else relation
    if _CODED_RELATION.fullmatch(own) or _CODED_RELATION.fullmatch(own.split(":", 1)[-1]):
        own = info.get("name") or own
    return own.replace(" ", "_")


def load_source(
    paths: Union[PathLike, Sequence[PathLike]],
    format: Optional[str] = None,
    root: Union[None, str, Sequence[str]] = None,
    relations: Optional[Sequence[str]] = None,
    vocabulary: Optional[Vocabulary] = None,
    strict: bool = False,
    max_definition_words: int = 60,
    log: Callable[[str], None] = lambda message: None,
) -> KnowledgeGraph:
    """Read, merge, clean, filter and check a knowledge source (see the module docstring)."""
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    if not paths:
        raise SourceError("--source", "no source given (expected a file or a TSV directory)")
    if format is not None and format not in FORMATS:
        raise SourceError(str(paths[0]), f"unknown format {format!r} (expected one of {', '.join(FORMATS)})")
    vocabulary = vocabulary or Vocabulary()
    report = SourceReport()
    parts, shared = [], {}
    for path in paths:
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", str(path)) and not Path(path).exists():
            raise SourceError(str(path), "a URL, which is not downloaded here: download the file (curl -LO URL, "
                                         "a .gz as it is) and give its path")
        log(f"reading {path}")
        parts.append(read_file(path, format, vocabulary, report, shared, merged=len(paths) > 1))
    data = _merge(parts, report)
    where = data.path
    _refuse_control_in_ids(data)
    _undeclared_obo_relations(parts, data, report, strict)
    for concept_id in data.obsolete & set(data.concepts):   # obsolete in one frame or file: skipped, as reported
        del data.concepts[concept_id]

    rdf_files = [str(path) for path, part in zip(paths, parts) if part.format not in ("obo", "tsv")]

    def first_naming(concept: str, subject: bool = False) -> Optional[Line]:
        """The first line of the RDF files that names ``concept`` (rdflib gives no lines); ``subject``:
        the first that describes it, where one does (its rdf:about, its statement's subject)."""
        return next((Line(number, path) for path in rdf_files
                     for number in [line_naming(path, concept, data.namespaces, subject=subject)] if number), None)

    def edge_naming(child: str, parent: str) -> Optional[Line]:
        """The first line of the RDF files that states the edge ``child -> parent`` (for an error and the
        report's few examples: the files are searched)."""
        return next((Line(number, path) for path in rdf_files
                     for number in [edge_line(path, child, parent, data.namespaces)] if number), None)

    # a cycle of relations under relations (a Typedef's is_a, rdfs:subPropertyOf; not equivalent_to, which
    # says "each under the other"): refused as a cycle of concepts is (was: the relations read as one)
    sub_relations = [(relation, other, line) for part in parts for relation, clause, other, line in part.relation_mentions
                     if clause in ("is_a", "rdfs:subPropertyOf") and relation != other]
    _refuse_cycles(where, [(r, o) for r, o, _ in sub_relations], {(r, o): line for r, o, line in sub_relations if line},
                   "is_a", edge_naming=edge_naming, of="relations")

    # labels and definitions
    camel = camel_case_source(c.label for c in data.concepts.values() if c.label)
    code_prefixes = _code_prefixes(data.concepts.values())
    concepts: Dict[str, Concept] = {}
    for concept_id in sorted(data.concepts):
        raw = data.concepts[concept_id]
        if any(_has_control(text) for text in (raw.label, raw.definition, *raw.synonyms, *raw.examples)):
            report.add("control_character", _file_of(raw, data), raw.line, concept_id)
        label = readable_label(_clean_text(raw.label), camel) if raw.label and raw.label.strip() else ""
        if not label:
            # RDF: the line first naming it, for the examples the report keeps
            # RDF: the statement that describes it (was: the first line naming it, a skos:narrower to it)
            line = raw.line or (first_naming(concept_id, subject=True) if report.counts.get("no_label", 0) < report.keep
                                else None)
            report.add("no_label", file_of(line, where) if line else _file_of(raw, data), line, concept_id)
            continue
        definition, shortened = clean_definition(_clean_text(raw.definition), max_definition_words)
        if shortened:
            report.add("shortened_definition", _file_of(raw, data), raw.line, concept_id)
        if definition and _PLACEHOLDER.match(definition):
            # a spreadsheet's or a database's empty cell written out (NAICS's 155 "NULL"): no definition
            # (was: shown as the context of its hypernymy questions, "defined as 'NULL'")
            report.add("placeholder_definition", _file_of(raw, data), raw.line, f"{concept_id} {definition!r}")
            definition = ""
        if not definition:
            report.add("no_definition", _file_of(raw, data), raw.line, concept_id)
        synonyms, seen = [], {_name_key(label)}
        # one order whatever the format, and of the spellings of one name (L-tyrosine, L-Tyrosine) the
        # first in it, not the first in the file (an RDF file's order is not the OBO file's); one in lower
        # case before one in capitals (statement, Statement: the capital was the choice, a cue among the
        # lower-case ones)
        for text in sorted((readable_label(_clean_text(synonym), camel) for synonym in raw.synonyms),
                           key=lambda name: (_name_key(name), name != name.lower(), name)):
            if text and _name_key(text) not in seen:
                seen.add(_name_key(text))
                synonyms.append(text)
        # synonyms typed as respellings (uk_spelling) or written as another vocabulary's code: names,
        # never asked as another name
        marked = {readable_label(_clean_text(synonym), camel): RESPELLING for synonym in raw.respellings}
        for synonym in raw.synonyms:
            match = _CODE.match(synonym)
            if match and match.group(1) in code_prefixes:
                marked.setdefault(readable_label(_clean_text(synonym), camel), CODE)
        attributes = tuple((marked[text], text) for text in synonyms if text in marked)
        for kind, text in attributes:
            report.add(f"{kind}_synonym", _file_of(raw, data), raw.line, f"{concept_id} '{text}'")
        # names never asked (an OBO synonym of another scope), in one order whatever the format
        others = sorted({readable_label(_clean_text(name), camel) for name in raw.other_names} - {""},
                        key=lambda name: (_name_key(name), name))
        attributes += tuple((OTHER_NAME, name) for name in others if _name_key(name) not in seen)
        concepts[concept_id] = Concept(id=concept_id, pos="n", lemmas=(label, *synonyms), definition=definition,
                                       examples=tuple(_clean_text(example) for example in raw.examples),
                                       attributes=attributes)

    # --lang in no label, or in few, of a file whose labels are tagged: the few concepts with an
    # untagged label, or with one in --lang, would make a probe while most of the source is dropped
    wanted = vocabulary.lang.lower().split("-")[0]
    tags = _languages_by_use(data)
    in_wanted = sum(count for tag, count in data.label_languages.items() if tag.split("-")[0] == wanted)
    if (concepts and tags and tags[0].split("-")[0] != wanted and data.label_languages[tags[0]] > in_wanted
            and report.counts.get("no_label", 0) > len(concepts)):
        raise SourceError(where, f"--lang {vocabulary.lang}: {report.counts['no_label']} concepts dropped for want of "
                                 f"a label in this language, {len(concepts)} kept (expected most concepts labelled "
                                 f"in --lang; the file's labels, concepts per language: "
                                 f"{_languages_text(data, tags)}): give --lang {tags[0]}")

    # a skipped concept (no label, obsolete, deprecated) in the middle of the hierarchy: the edges to it
    # go on to its own parents, so that "exactly one correct answer" still sees every ancestor
    skipped_parents: Dict[str, List[str]] = {}
    for child, parent, _ in data.parents:
        if child not in concepts:
            skipped_parents.setdefault(child, []).append(parent)
    lifted_cache: Dict[str, List[str]] = {}

    def lifted(target: str) -> List[str]:
        """The kept concepts above a skipped one, through skipped ones only."""
        found = lifted_cache.get(target)
        if found is None:
            found = lifted_cache[target] = _kept_beyond(target, skipped_parents, concepts)
        return found

    through: Dict[Tuple[str, str], str] = {}      # a lifted edge -> the skipped concept it went through
    dangling: List[Tuple[str, str, str]] = []     # (child, is_a or relation, a target never defined)
    def undefined(child: str, what: str, target: str, missing: str, line) -> None:
        """An edge to or from ``missing``, a concept never defined: counted, or an error with --strict.
        An RDF file gives no line: the first line that names ``missing`` (for an error and the examples
        the report keeps)."""
        if not line and (strict or report.counts.get("undefined_parent", 0) < report.keep):
            line = first_naming(missing)
        if strict:
            # an IRI with a space (rdf:resource=".../CHEBI 0000042", read as written): the space says why
            spaced = ", and its IRI has a space in it, which an IRI writes as %20" if " " in missing else ""
            raise SourceError(file_of(line, where) or where, f"{child} {what} {target}: {missing} is never defined"
                              f"{spaced} (expected a concept of the source; without --strict such edges are dropped "
                              "and counted)", line)
        report.add("undefined_parent", file_of(line, where), line, f"{child} {what} {target}")

    def targets(child: str, target: str, line: Optional[int], what: str, lift: bool = True) -> List[str]:
        """What the edge ``child what target`` points to in the graph (none: dropped, counted)."""
        if child not in concepts:
            if child in data.concepts or child in data.obsolete:
                # a skipped concept: counted where it was skipped; a link from it (not its is_a) is
                # counted too, as one to it is (skos:related is written from either side)
                if what != "is_a":
                    if not line and report.counts.get("link_to_dropped", 0) < report.keep:
                        line = edge_naming(child, target) or first_naming(child)
                    report.add("link_to_dropped", file_of(line, where), line, f"{child} {what} {target}")
                return []
            # never defined: a TSV edge's child missing from concepts.tsv, a skos:narrower to a collection
            undefined(child, what, target, child, line)
            return []
        if target in concepts:
            return [target]
        if target in data.concepts or target in data.obsolete:
            # an alternative id of a term (OBO alt_id) stands for the term: its edge is the term's
            alternative = lift and lifted(target) == [data.alternatives.get(target)]
            kind = ("edge_to_alternative_id" if alternative else "edge_lifted" if lift and lifted(target)
                    else "edge_to_dropped" if lift else "link_to_dropped")
            if not line and report.counts.get(kind, 0) < report.keep:     # RDF: the line stating it, or naming the child
                line = edge_naming(child, target) or first_naming(child)
            if lift and lifted(target):
                report.add(kind, file_of(line, where), line, f"{child} {what} {target} -> {', '.join(lifted(target))}")
                for reached in lifted(target):
                    through.setdefault((child, reached), target)
            else:
                report.add("edge_to_dropped" if lift else "link_to_dropped", file_of(line, where), line,
                           f"{child} {what} {target}")
            return lifted(target) if lift else []
        undefined(child, what, target, target, line)
        # kept for the classification alone: a definition's filler from another ontology, never
        # defined here (GO's fillers from CHEBI, UBERON, OBA), covers the classes linked to it
        dangling.append((child, what, target))
        return []

    # the object of a relation is in the relation's range (and in the ranges of the relations above it)
    in_range = range_links([*data.links, *data.implied_links], data.relation_ranges, data.relation_parents)
    data.implied_links.extend(in_range)
    # "some member of the range" read the other way would make every member a correct answer: such a
    # link is no link the inverse relation reads (was: a range with an owl:inverseOf emptied the probe)
    range_implied = {link[:3] for link in in_range}
    parent_edges: Dict[Tuple[str, str], Optional[int]] = {}
    for c, p, line in data.parents:
        if c == p:          # C is_a C (a reasoner's output says so of every class): no edge, no cycle
            if not line and report.counts.get("self_parent", 0) < report.keep:     # RDF: the line stating it
                line = edge_naming(c, p) or first_naming(c)
            report.add("self_parent", file_of(line, where), line, f"{c} is_a {c}")
            continue
        for target in targets(c, p, line, "is_a"):
            parent_edges[(c, target)] = line
    link_edges: Dict[Tuple[str, str, str], Optional[int]] = {}
    for s_, r, o, line in data.links:
        # C r D, D is_a E: C r E for an existential relation; "C related D" says nothing of E
        for target in targets(s_, o, line, r, lift=r in data.existential_relations):
            if target == s_:    # C part_of C (BFO says so of continuant: part_of is reflexive): no link, no cycle
                if not line and report.counts.get("self_parent", 0) < report.keep:
                    line = edge_naming(s_, o) or first_naming(s_)
                report.add("self_parent", file_of(line, where), line, f"{s_} {r} {s_}")
                continue
            link_edges[(s_, r, target)] = line
    parents = sorted(parent_edges.items())
    links = sorted(link_edges.items())
    # what a link to or from a skipped concept still entails, for the validity closures only (never
    # answers): C r D with D skipped and D is_a E: C r (a kind of) E; D r E with C is_a D: C r E.
    # (A link by an existential relation to D went on to E above, as an answer.)
    skipped_children: Dict[str, List[str]] = {}
    for child, parent, _ in data.parents:
        if parent not in concepts:
            skipped_children.setdefault(parent, []).append(child)

    def skipped(concept: str) -> bool:
        return concept not in concepts and (concept in data.concepts or concept in data.obsolete)

    through_skipped = set()
    transitive = {r for r, info in data.relation_info.items()
                  if info.get("transitive") or letters(r) in _TRANSITIVE_LETTERS} | set(TRANSITIVE_BY_NAME)
    # a transitive relation's own links from a skipped concept: C r D, D skipped, D r E: C r E
    skipped_steps: Dict[Tuple[str, str], List[str]] = {}
    for s_, r, o, _ in data.links:
        if r in transitive and skipped(s_):
            skipped_steps.setdefault((s_, r), []).append(o)

    def chained_beyond(start: str, relation: str) -> List[str]:
        """The kept concepts a skipped ``start`` reaches over ``relation``'s own links, through skipped
        ones (and, for an existential relation, the kept parents of a skipped one on the way)."""
        reached, seen, stack = set(), {start}, [start]
        while stack:
            for other in skipped_steps.get((stack.pop(), relation), ()):
                if other in concepts:
                    reached.add(other)
                elif skipped(other) and other not in seen:
                    if relation in data.existential_relations:
                        reached.update(lifted(other))
                    seen.add(other)
                    stack.append(other)
        return sorted(reached)

    for s_, r, o, _ in data.links:
        subjects = _kept_beyond(s_, skipped_children, concepts) if skipped(s_) else [s_] if s_ in concepts else []
        objects = lifted(o) if skipped(o) else [o] if o in concepts else []
        if skipped(s_) or (skipped(o) and r not in data.existential_relations):
            through_skipped.update((subject, r, obj) for subject in subjects for obj in objects if subject != obj)
        if skipped(o) and r in transitive:
            through_skipped.update((subject, r, obj) for subject in subjects for obj in chained_beyond(o, r)
                                   if subject != obj)

    def implied_targets(target: str) -> List[str]:
        """A logical axiom's concept, or the parents of a skipped one; nothing counted or refused
        (these edges only widen the validity closures: SourceData.implied_parents)."""
        if target in concepts:
            return [target]
        return lifted(target) if target in data.concepts or target in data.obsolete else []

    def never_defined(concept: str) -> bool:
        """Not a concept of the source, nor one of OWL's, RDF's or XML Schema's own (owl:Thing,
        owl:Nothing, xsd:string as a data restriction's filler)."""
        return concept not in concepts and not skipped(concept) and not concept.startswith(_W3C_PREFIXES)

    # a logical axiom naming a concept never defined (intersection_of, union_of, equivalent_to, a
    # some-restriction's filler, a range, a domain) is left out and counted; with --strict, the
    # genus or a union member of a definition (which place the defined class) is an error
    hierarchy = {(defined, missing) for defined, genus, _, _ in data.definitions for missing in genus}
    hierarchy |= {(member, union) for union, members in data.unions.items() for member in members}
    # a SKOS mapping to a concept of another scheme (what mappings are for): counted as such, no axiom
    outside = sorted({(subject, prop, obj) for subject, prop, obj in data.mappings if never_defined(obj)})
    for subject, prop, obj in outside:
        line = edge_naming(subject, obj) if report.counts.get("outside_mapping", 0) < report.keep else None
        report.add("outside_mapping", file_of(line, where), line, f"{subject} {prop} {obj}")
    mapped = {tuple(sorted((subject, obj))) for subject, _, obj in outside}
    axioms: Dict[Tuple[str, str], Optional[int]] = {}       # equivalent_to's two edges are one axiom
    for a, b, line in itertools.chain(data.implied_parents, ((a, o, line) for a, _, o, line in data.implied_links)):
        if (never_defined(a) or never_defined(b)) and tuple(sorted((a, b))) not in mapped:
            axioms.setdefault(tuple(sorted((a, b))), line)
    for (first, second), line in sorted(axioms.items()):
        for missing in [concept for concept in (first, second) if never_defined(concept)]:
            if strict and ((first, second) in hierarchy or (second, first) in hierarchy):
                line = line or first_naming(missing)        # RDF: looked up for an error only (a search of the file)
                raise SourceError(file_of(line, where) or where, f"a logical axiom of {first} and {second}: {missing} "
                                  "is never defined (expected a concept of the source; without --strict such "
                                  "axioms are left out and counted)", line)
            report.add("undefined_in_axiom", file_of(line, where), line, f"{first} - {second}")
    implied = sorted({(child, target) for child, parent, _ in data.implied_parents if child in concepts
                      for target in implied_targets(parent) if target != child})
    implied_links = sorted({(subject, relation, target) for subject, relation, obj, _ in data.implied_links
                            if subject in concepts for target in implied_targets(obj)} | through_skipped)
    # the axioms' own edges to classes the source never defines (a defined class's differentia over a
    # filler of another ontology: GO's *negatively_regulates_characteristic some OBA:0000136*), for
    # the classification alone, as the stated ones (dangling)
    dangling.extend(sorted({(child, "is_a", parent) for child, parent, _ in data.implied_parents
                            if child in concepts and parent not in concepts and parent not in data.concepts
                            and parent not in data.obsolete}))
    dangling.extend(sorted({(subject, relation, obj) for subject, relation, obj, _ in data.implied_links
                            if subject in concepts and obj not in concepts and obj not in data.concepts
                            and obj not in data.obsolete}))

    def named_in_definition(target: str) -> List[str]:
        """A concept a definition names, or the kept ancestors of a skipped one (a never-defined one
        stays, so that the definition is left out: mcqa_probes.knowledge.entailment.classify)."""
        return implied_targets(target) if target in data.concepts or target in data.obsolete else [target]

    # a definition that names a skipped concept (pizza.owl's Pizza in --lang pt, where it has no
    # label) names its kept ancestors instead: a weaker definition classifies more classes under the
    # defined one, which is safe, since what classification finds only keeps distractors out
    definitions = [(defined, [t for g in genus for t in named_in_definition(g)],
                    [(relation, t) for relation, filler in differentia for t in named_in_definition(filler)],
                    [[t for member in union for t in named_in_definition(member)] for union in unions])
                   for defined, genus, differentia, unions in data.definitions]

    # the other relations a relation's closure follows (its property chains: entailment.chain_relations)
    chained = chain_relations(data.relation_info, data.relation_parents)
    chains_begin = chain_starts(data.relation_info, data.relation_parents)
    chains = relation_chains(data.relation_info, data.relation_parents)

    # two relations declared inverse (OBO inverse_of, owl:inverseOf, on either side): x R y is y S x
    inverses: Dict[str, List[str]] = {}
    for relation, info in sorted(data.relation_info.items()):
        for other in info.get("inverses", ()):
            if other != relation:
                inverses.setdefault(relation, []).append(other)
                inverses.setdefault(other, []).append(relation)
    for relation, other in _inverses_by_name(data):      # part_of / has_part with no inverse_of said
        if other not in inverses.get(relation, ()):
            inverses.setdefault(relation, []).append(other)
            inverses.setdefault(other, []).append(relation)

    def assemble(concepts, parents, links, implied, implied_links) -> Tuple[KnowledgeGraph, List[Tuple[str, str]]]:
        """The graph of these concepts and edges, with what the inverses, sub-relations and defined
        classes entail; returns it with the ``(child, defined class)`` edges classification added."""
        graph = KnowledgeGraph(source=data.name, version=data.version)
        for number, concept_id in enumerate(sorted(concepts)):
            concept = concepts[concept_id]
            graph.add(Concept(id=concept.id, pos=concept.pos, lemmas=concept.lemmas, definition=concept.definition,
                              examples=concept.examples, number=number, attributes=concept.attributes))
        for (child, parent), _ in parents:
            graph.add_isa(child, parent)
        for (subject, relation, obj), _ in links:
            graph.add_relation(subject, relation, obj)
        for child, parent in implied:
            graph.add_implied_isa(child, parent)
        if inverses:    # the other way's links are implied links too, before the sub-relations take them
            stated = [edge for edge, _ in links] + [link for link in implied_links if link not in range_implied]
            implied_links = sorted(set(implied_links) | set(inverse_links(
                stated + sub_relation_links(stated, data.relation_parents), inverses)) - {edge for edge, _ in links})
        for subject, relation, obj in implied_links:
            graph.add_implied_relation(subject, relation, obj)
        # what sub-relations and defined classes entail besides (mcqa_probes.knowledge.entailment)
        for subject, relation, obj in sub_relation_links([edge for edge, _ in links] + implied_links,
                                                         data.relation_parents):
            graph.add_implied_relation(subject, relation, obj)
        return graph, classify(graph, definitions, data.relation_parents, transitive=transitive, through=chained,
                               starts=chains_begin, chains=chains, outside=dangling)

    # the sub-tree under the root(s)
    roots = [r.strip() for r in (root.split(",") if isinstance(root, str) else (root or [])) if r.strip()]
    classified_across: List[Tuple[str, str]] = []
    if roots:
        by_label = {}
        for concept in concepts.values():
            # in any case and with or without its accents (--root cafe for café)
            by_label.setdefault(fold_accents(concept.lemmas[0].lower()), []).append(concept.id)
        resolved = []
        for name in map(_clean_text, roots):
            concept_id = normalise(name)
            if concept_id not in concepts:
                concept_id = normalise(name, data.namespaces)       # an IRI of a namespace with a prefix
            if concept_id not in concepts:
                matches = (by_label.get(fold_accents(name.replace("_", " ").lower()), [])
                           + by_label.get(fold_accents(name.lower()), []))
                if len(set(matches)) > 1:
                    raise SourceError(where, f"--root {name}: {len(set(matches))} concepts have this label "
                                             f"({', '.join(sorted(set(matches)))}); give one of their ids")
                if len(set(matches)) != 1:
                    term = data.alternatives.get(concept_id) or data.alternatives.get(normalise(name))
                    if term in concepts:
                        raise SourceError(where, f"--root {name}: an alternative id of {term} "
                                                 f"({concepts[term].lemmas[0]}), which is no concept of its own "
                                                 f"(expected a term's own id: --root {term})")
                    if (concept_id in data.obsolete or normalise(name) in data.obsolete
                            or not matches and name.replace("_", " ").lower() in data.obsolete_labels
                            or not matches and name.lower() in data.obsolete_labels):
                        raise SourceError(where, f"--root {name}: obsolete / deprecated in the source, so "
                                                 "skipped with its edges (expected a concept in use)")
                    if concept_id in data.concepts or normalise(name, data.namespaces) in data.concepts:
                        raise SourceError(where, f"--root {name}: has no label in --lang {vocabulary.lang}, so it is "
                                                 "no concept of the build (expected a concept with a label; "
                                                 "another --lang, or one of its children)")
                    example = next(iter(sorted(concepts)), "")
                    # a synonym is no label: say whose it is (was: "no such concept" only)
                    wanted_key = _name_key(name.replace("_", " "))
                    having = sorted(c.id for c in concepts.values() if any(_name_key(s) == wanted_key for s in c.lemmas[1:]))
                    if having:
                        shown = ", ".join(f"{c} ({concepts[c].lemmas[0]})" for c in having[:5])
                        raise SourceError(where, f"--root {name}: a synonym of {shown}, not a label (expected an id "
                                                 f"or a concept's label: --root {having[0]})")
                    named_property = next((p for p, label in sorted(data.properties.items()) if name in (p, label)
                                           or normalise(name) == p or normalise(name, data.namespaces) == p), None)
                    if named_property:
                        # a property (shop:price, batteryCapacity) is no class (was: "no such concept" only)
                        raise SourceError(where, f"--root {name}: a property of the source ({named_property}), not a "
                                                 f"concept (expected a class or concept: an id such as {example}, or "
                                                 "a unique label)")
                    spelled = name.replace("_", " ").lower()
                    named_relation = next((r for r, info in sorted(data.relation_info.items())
                                           if spelled in (r.replace("_", " ").lower(),
                                                          str(info.get("name") or "").replace("_", " ").lower())), None)
                    if named_relation:
                        # an OBO Typedef, a table's relation (was: "no such concept" only)
                        raise SourceError(where, f"--root {name}: a relation of the source ({named_relation}), not a "
                                                 f"concept (expected a concept: an id such as {example}, or a unique "
                                                 f"label; a relation is asked with --relations {named_relation})")
                    raise SourceError(where, f"--root {name}: no such concept (expected an id such as {example}, "
                                             "or a unique label; synonyms are not taken)")
                concept_id = matches[0]
            resolved.append(concept_id)
        # classified on the whole source first: a defined class whose definition names a concept
        # outside the sub-tree (cheese pizza = pizza and has_part some cheese, under --root dish)
        # still has the classes it covers under it (margherita, with mozzarella, a cheese)
        _, classified_across = assemble(concepts, parents, links, implied, implied_links)
        implied = sorted(set(implied) | set(classified_across))
        # under the root: its descendants over the parent edges and what the axioms entail (a defined
        # class under its genus or classified under it, a union's members under it, an equivalent
        # class), and a union class whose members all are (round after round: a union of unions)
        children: Dict[str, List[str]] = {}
        for child, parent in [edge for edge, _ in parents] + implied:
            children.setdefault(parent, []).append(child)
        keep = _descendants(resolved, children)
        while True:
            united = sorted(u for u, members in data.unions.items()
                            if u in concepts and u not in keep and members and all(m in keep for m in members))
            if not united:
                break
            keep |= _descendants(united, children)
        for concept_id in sorted(set(concepts) - keep):
            report.add("outside_root", None, None, concept_id)
        concepts = {c: concepts[c] for c in sorted(keep)}
        # a relation that chains through a concept outside the sub-tree (hand part_of arm part_of
        # locomotor system part_of body) still holds between the two ends: kept as implied links
        through_outside = _entailed_across(keep, [edge for edge, _ in parents] + implied,
                                           [edge for edge, _ in links] + implied_links, data.relation_parents,
                                           chained)
        parents = [(edge, line) for edge, line in parents if edge[0] in keep and edge[1] in keep]
        links_of_source = links
        links = [(edge, line) for edge, line in links if edge[0] in keep and edge[2] in keep]
        implied = [edge for edge in implied if edge[0] in keep and edge[1] in keep]
        implied_links = sorted({edge for edge in implied_links if edge[0] in keep and edge[2] in keep}
                               | set(through_outside))
    if not concepts:
        other = [tag for tag in _languages_by_use(data) if tag != vocabulary.lang.lower()]
        near = [tag for tag in other if tag.split("-")[0] == vocabulary.lang.lower().split("-")[0]]
        hint = (f"; labels are in {_languages_text(data, other)} (concepts per language): give --lang "
                f"{(near or other)[0]}"
                if other and not roots else "")
        raise SourceError(where, "no concepts left after reading and filtering (expected classes or concepts "
                                 "with a label" + (f" under --root {','.join(roots)}" if roots else "")
                                 + (f" in language {vocabulary.lang!r}" if other else "") + ")" + hint)

    # with the ancestors a transitive super-property of the hierarchy states (skos:broaderTransitive:
    # two concepts each broader than the other are a cycle as with skos:broader)
    # (its own name: ``transitive``, the transitive relations, is read by assemble below; was rebound
    # here, so the classification under defined classes went without them)
    hierarchy_steps = [edge for edge in implied if edge in data.hierarchy_implied]
    _refuse_cycles(where, [edge for edge, _ in parents] + hierarchy_steps, dict(parents), "is_a", through, first_naming,
                   edge_naming)
    graph, classified = assemble(concepts, parents, links, implied, implied_links)
    # the classes a relation's objects are all members of (its range, those of the relations above
    # and below it, whose links are its links too): a link to one of them is "some member", never a
    # reason to take the class's kinds for correct answers (KnowledgeGraph.relation_ranges)
    supers = super_relations(data.relation_parents)
    for relation in graph.relations():
        kin = {relation, *supers.get(relation, ()), *(below for below, above in supers.items() if relation in above)}
        kinds = frozenset(kind for other in kin for kind in data.relation_ranges.get(other, ()) if kind in graph)
        if kinds:
            graph.relation_ranges[relation] = kinds
    for defined, _, differentia, _ in definitions:
        fillers = frozenset(filler for _, filler in differentia if filler in graph)
        if defined in graph and fillers:
            graph.definition_fillers[defined] = graph.definition_fillers.get(defined, frozenset()) | fillers
    classified = sorted({edge for edge in classified_across if edge[0] in graph and edge[1] in graph}
                        | set(classified))
    for child, defined in classified:
        report.add("possibly_classified" if defined in data.partial_definitions else "classified", None, None,
                   f"{child} is_a {defined}")
    for child, domain in sorted(set(data.domain_parents)):      # counted where the parent edges do not say so
        if child in graph and domain in graph and domain not in reachable(child, graph.hypernyms):
            report.add("domain_parent", None, None, f"{child} is_a {domain}")
    below_relations: Dict[str, Set[str]] = {}
    for below, above in super_relations(data.relation_parents).items():
        for relation in above:
            below_relations.setdefault(relation, set()).add(below)
    for relation in graph.relations():
        info = dict(data.relation_info.get(relation, {}))
        if letters(relation) in _TRANSITIVE_LETTERS:
            info["transitive"] = True
        if _known_as(relation, info, _SYMMETRIC_LETTERS):
            info["symmetric"] = True
        graph.relation_info[relation] = {"name": info.get("name") or KNOWN_RELATION_NAMES.get(relation)
                                         or relation_name(relation) or relation.replace("_", " "),
                                         "transitive": bool(info.get("transitive")),
                                         "symmetric": bool(info.get("symmetric")),
                                         "aliases": list(info.get("aliases", [])),
                                         "through": list(chained.get(relation, []))}
        # the relations whose links, read the other way, are links of this one: its inverses and those
        # of the relations under it (seat part_of car, car has_part seat: seat overlaps car too)
        backwards = {other for below in (relation, *below_relations.get(relation, ())) for other in inverses.get(below, ())}
        if backwards:
            graph.relation_info[relation]["inverses"] = sorted(backwards)
        if info.get("name_language") and info.get("name"):     # a name in another language than English
            graph.relation_info[relation]["name_language"] = info["name_language"]
    data_for_names = SourceData(path=where, format=data.format, name=data.name, version=data.version,
                                links=[(s, r, o, None) for (s, r, o), _ in links],
                                # the relations no question asks too (for the error that says so)
                                relation_info={**data.relation_info, **graph.relation_info},
                                implied_links=data.implied_links, namespaces=data.namespaces)
    try:
        resolved_relations = _resolve_relations(relations, data_for_names)
    except SourceError as error:
        if not roots:
            raise
        _refuse_relation_outside_root(relations, data_for_names, links_of_source, data, roots, error)
    # a table's rows of a relation no probe asks: counted (a spelling of the hierarchy the reader does
    # not know, "child of" before 2026-12-07, lost its rows without a word)
    asked = set(resolved_relations.values())
    for part in parts:
        if part.format == "tsv":
            rows: Dict[str, List[Optional[int]]] = {}
            for _, relation, _, line in part.links:
                if relation not in asked:
                    rows.setdefault(relation, []).append(line)
            for relation, lines in sorted(rows.items()):
                report.add("relation_not_asked", file_of(lines[0], part.path), lines[0], f"{relation} ({len(lines)})")
    # one probe per relation, however it is spelled: two names of one (part_of,BFO_0000050) are one probe
    spelled = {given: _relation_spelling(relation, graph.relation_info.get(relation, {}))
               for given, relation in resolved_relations.items()}
    for relation in set(resolved_relations.values()):
        if graph.relation_info[relation]["transitive"]:
            edges = [(s, o) for (s, r, o), _ in links if r == relation]
            _refuse_cycles(where, edges, {(s, o): line for (s, r, o), line in links if r == relation}, relation,
                           through, first_naming, edge_naming)
    graph.provenance = {
        "files": [{"path": str(path), "format": part.format, "name": part.name, "version": part.version,
                   "sha256": _digest(path)} for path, part in zip(paths, parts)],
        "format": data.format,
        "root": resolved if roots else None,
        # by the name its probe gets (the same however --relations spells it), and that name of each
        # spelling given (read by the builder, not written to the manifest)
        "relations": {spelled[given]: relation for given, relation in resolved_relations.items()},
        "relation_spellings": spelled,
        "vocabulary": vocabulary.to_json(),
        "camel_case_labels": camel,
        "report": report,
    }
    return graph


def _entailed_across(keep: Set[str], isa_edges: Iterable[Tuple[str, str]], links: Iterable[Tuple[str, str, str]],
                     relation_parents: Dict[str, List[str]], through: Dict[str, List[str]]
                     ) -> List[Tuple[str, str, str]]:
    """``(subject, relation, object)`` between kept concepts that the whole source entails (the
    closure the builders take: the relation's steps and those of the relations its chains go
    through (``through``: :func:`~mcqa_probes.knowledge.entailment.chain_relations`), is-a ancestors on both sides, sub-relations)
    through at least one concept that is not kept; read before a ``--root`` cut, so the validity
    closures of the sub-tree keep what the cut concepts carried (never answers)."""
    up: Dict[str, List[str]] = {}
    down: Dict[str, List[str]] = {}
    for child, parent in isa_edges:
        up.setdefault(child, []).append(parent)
        down.setdefault(parent, []).append(child)
    objects: Dict[Tuple[str, str], List[str]] = {}
    subjects: Dict[Tuple[str, str], List[str]] = {}
    all_links = list(links)
    for subject, relation, obj in [*all_links, *sub_relation_links(all_links, relation_parents)]:
        objects.setdefault((subject, relation), []).append(obj)
        subjects.setdefault((obj, relation), []).append(subject)
    ancestors: Dict[str, Set[str]] = {}

    def with_ancestors(concept: str) -> Set[str]:
        found = ancestors.get(concept)
        if found is None:
            found = ancestors[concept] = {concept} | reachable(concept, lambda c: up.get(c, ()))
        return found

    def outs(concept: str, relation: str) -> List[str]:
        return [o for r in (relation, *through.get(relation, ())) for o in objects.get((concept, r), ())]

    def closure(subject: str, relation: str, allowed: Callable[[str], bool]) -> Set[str]:
        """What ``subject relation ?`` holds for, through ``allowed`` concepts only."""
        reached: Set[str] = set()
        frontier = [o for c in with_ancestors(subject) if allowed(c) for o in outs(c, relation)]
        while frontier:
            following = []
            for target in frontier:
                for node in with_ancestors(target):
                    if allowed(node) and node not in reached:
                        reached.add(node)
                        following.extend(outs(node, relation))
            frontier = following
        return reached

    found = set()
    for relation in sorted({relation for _, relation in objects}):
        followed = {relation, *through.get(relation, ())}
        # the subjects whose closure can meet a cut concept that has links of the relation (or of one
        # its chains go through): those below it, those with a link to one of those, and on (the
        # walk of closure() backwards)
        seeds = sorted({c for c, r in objects if r in followed and c not in keep})
        # one walk from all the seeds at once: "" (no concept's id) stands for them
        touched = reachable("", lambda c: seeds if c == "" else (
            *down.get(c, ()), *(s for r in followed for s in subjects.get((c, r), ()))))
        for subject in sorted(touched & keep):
            whole = closure(subject, relation, lambda c: True)
            if any(node not in keep for node in whole):
                inside = closure(subject, relation, keep.__contains__)
                found.update((subject, relation, node) for node in whole - inside if node in keep and node != subject)
    return sorted(found)


#: control characters (C0 but tab and line breaks, DEL, C1): no part of a name or a definition
#: a synonym written as a code of another vocabulary: a prefix with no space, a colon and the code
#: (``INSDC_feature:ncRNA``, ``VEP:missense_variant``; not ``http://``, nor ``ATP: ...``)
_CODE = re.compile(r"([A-Za-z][A-Za-z0-9_.]*):(?=[^\s/])")


def _code_prefixes(concepts: Iterable) -> Set[str]:
    """The prefixes of the synonyms that are another vocabulary's codes: a prefix (:data:`_CODE`) that
    starts synonyms of three concepts or more and is no word of any label (the Sequence Ontology's
    ``Jannovar``, ``snpEff``, ``INSDC_qualifier``; GO's ``ATP`` in *ATP:ADP antiporter activity* is a
    word of *ATP binding*, and those names stay names)."""
    users: Dict[str, Set[str]] = {}
    words: Set[str] = set()
    for concept in concepts:
        if concept.label:
            words.update(concept.label.lower().split())
        for synonym in concept.synonyms:
            match = _CODE.match(synonym)
            if match:
                users.setdefault(match.group(1), set()).add(concept.id)
    return {prefix for prefix, ids in users.items() if len(ids) >= 3 and prefix.lower() not in words}


_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")


def _uncontrolled(match) -> str:
    """A C1 control is what a Windows-1252 text read as Latin-1 makes of its quotes and dashes
    (``Crohn\\x92s``: ``Crohn’s``): that character again; any other control is dropped (a NUL)."""
    try:
        return match.group().encode("latin-1").decode("cp1252") if match.group() >= "\x80" else ""
    except UnicodeDecodeError:      # the five bytes Windows-1252 leaves undefined
        return ""


def _has_control(text: Optional[str]) -> bool:
    return bool(text) and not text.isprintable() and _CONTROL.search(text) is not None


def _clean_text(text: Optional[str]) -> Optional[str]:
    """Text in Unicode's composed form (NFC): ``café`` written with one ``é`` or with ``e`` and a combining
    accent is one name (the name tests and the leakage masking compare characters); a control
    character is dropped or read as Windows-1252 (:func:`_uncontrolled`; counted by the caller)."""
    if _has_control(text):
        text = _CONTROL.sub(_uncontrolled, text)
    return unicodedata.normalize("NFC", text) if text and not text.isascii() else text


def _languages_by_use(data: SourceData) -> List[str]:
    """The language tags of the file's labels, the one that labels most concepts first."""
    return sorted(data.label_languages, key=lambda tag: (-data.label_languages[tag], tag))


def _languages_text(data: SourceData, tags: List[str]) -> str:
    """``nl-be (1345), en-gb (1)``: the tags with the number of concepts labelled in each."""
    return ", ".join(f"{tag} ({data.label_languages[tag]})" for tag in tags)


def _name_key(name: str) -> str:
    """Names that differ only in case, underscores or spacing are one name."""
    return " ".join(name.replace("_", " ").lower().split())


def _refuse_control_in_ids(data: SourceData) -> None:
    """An identifier holding a control character (a NUL in ``id: VO:00\\x0006``) is an error at its
    line: read as written it would be a concept of its own, and every edge to the real one undefined.
    (A generator over the ids: a source of 500,000 concepts makes no list of them.)"""
    named = itertools.chain(
        ((concept_id, raw.line, _file_of(raw, data)) for concept_id, raw in data.concepts.items()),
        ((identifier, line, None) for edges in (data.parents, data.implied_parents)
         for child, parent, line in edges for identifier in (child, parent)),
        ((identifier, line, None) for links in (data.links, data.implied_links)
         for subject, relation, obj, line in links for identifier in (subject, relation, obj)))
    for identifier, line, path in named:
        if _CONTROL.search(identifier):
            path = path or file_of(line, data.path) or data.path
            # the line that holds it, at or after the line given (a term's id line for its clauses;
            # none from RDF): the error's one search of the file
            try:
                lines = source_text(path, errors="replace").split("\n") if Path(path).is_file() else []
            except OSError:
                lines = []
            local = identifier.split(":", 1)[-1]
            line = next((number for number in range((line or 1), len(lines) + 1)
                         if local in lines[number - 1]), line)
            raise SourceError(path, f"identifier {identifier!r} holds a control character (expected printable "
                                    "characters only, e.g. PREFIX:LOCAL)", line)


def _file_of(raw, data: SourceData) -> Optional[str]:
    """The file of a concept's line; the file itself where the reader gives no line (RDF) and only one
    file was read (merged files: which one is not known)."""
    return file_of(raw.line, data.path) or (data.path if Path(data.path).is_file() else None)


def _digest(path: PathLike) -> str:
    path = Path(path)
    if path.is_dir():
        digests = [f"{p.name}:{sha256_file(p)}" for p in sorted(path.iterdir()) if p.is_file()]
        return sha256_bytes("\n".join(digests).encode("utf-8"))
    return sha256_file(path)


def _refuse_cycles(where: str, edges: List[Tuple[str, str]], lines: Dict[Tuple[str, str], Optional[int]],
                   relation: str, through: Optional[Dict[Tuple[str, str], str]] = None,
                   first_naming: Callable[[str], Optional[Line]] = lambda concept: None,
                   edge_naming: Callable[[str, str], Optional[Line]] = lambda child, parent: None,
                   of: str = "") -> None:
    """A cycle is an error naming its concepts, at the line of one of its edges (RDF: the first line
    that names both concepts of one of its edges, ``edge_naming``, else the first line that names one
    of its concepts, ``first_naming``); ``of``: what the edges join, where not concepts (``relations``)."""
    sorter = graphlib.TopologicalSorter()
    for child, parent in edges:
        sorter.add(child, parent)
    try:
        sorter.prepare()
    except graphlib.CycleError as error:
        cycle = list(reversed(error.args[1]))          # graphlib lists it parent first; read it as "is_a"
        pairs = list(zip(cycle, cycle[1:]))
        line = next((lines.get(pair) or lines.get(pair[::-1]) for pair in pairs
                     if lines.get(pair) or lines.get(pair[::-1])), None)
        if not line:        # the first line (of the first file that names one) naming an edge of it
            named = [found for found in (edge_naming(*pair) for pair in pairs) if found]
            line = min(named, key=lambda found: (found.path != named[0].path, int(found)), default=None)
        if not line:        # the first line (of the first file that names one) naming one of its concepts
            named = [found for found in map(first_naming, cycle) if found]
            line = min(named, key=lambda found: (found.path != named[0].path, int(found)), default=None)
        # an edge lifted over a skipped concept shows it: "ex:a -> (skipped ex:d) -> ex:a"
        shown = [cycle[0]] + [(f"(skipped {through[pair]}) -> " if pair in (through or {}) else "") + pair[1]
                              for pair in pairs]
        between = f" of {of}" if of else ""
        raise SourceError(file_of(line, where) or where, f"cycle in the {relation} relation{between}: {' -> '.join(shown)} "
                                 "(expected a hierarchy without cycles)", line) from None
