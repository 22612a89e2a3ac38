"""A knowledge source as a set of triples (TACL paper, Table 1).

Concepts (WordNet synsets, GCIDE senses) carry the atomic relations ``def`` (gloss), ``ex``
(example sentences) and ``lemma`` (surface forms); the ``isa↑`` / ``isa↓`` relations link
concepts (hypernym / hyponym). Probe builders read only this interface, so a hand-made graph in
a test behaves exactly like WordNet.

An ontology read by :mod:`mcqa_probes.knowledge.source` (OBO, OWL, RDFS, SKOS, a TSV pair) is the
same kind of graph: its classes are concepts (label and exact synonyms as lemmas), its parent
relation (``is_a``, ``rdfs:subClassOf``, ``skos:broader``) is ``isa↑``, and any other relation
between concepts (``part_of``, ``skos:related``, ...) is kept by name (:meth:`KnowledgeGraph.add_relation`)
with what the source says about it (transitive, symmetric, a readable name), for the relation probes.
A :class:`RelationView` shows one such relation through the ``hypernyms`` / ``hyponyms`` interface, so
the hop and distractor machinery of the ISA probes works over it unchanged.
"""
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set, Tuple


def reachable(start: str, step: Callable[[str], Iterable[str]]) -> Set[str]:
    """Everything reached from ``start`` by one or more ``step``s (depth first; cycles allowed),
    without ``start`` itself: the one closure walk of ancestors, descendants and relations."""
    seen, stack = set(), [start]
    while stack:
        for following in step(stack.pop()):
            if following not in seen and following != start:
                seen.add(following)
                stack.append(following)
    return seen


def parents_first(start: str, step: Callable[[str], Iterable[str]], done) -> List[str]:
    """``start`` and what ``step`` reaches from it, leaving out what ``done`` holds (and what only
    leads through it), each after everything its ``step`` reaches: the order in which a memoised
    recursion over ``step`` fills its memo, without recursion (a hierarchy thousands of levels deep
    would pass Python's recursion limit). A cycle is cut where it closes."""
    order: List[str] = []
    entered, finished, stack = set(), set(), [start]
    while stack:
        node = stack[-1]
        if node in done or node in finished:
            stack.pop()
        elif node not in entered:
            entered.add(node)
            stack.extend(following for following in step(node) if following not in done and following not in entered)
        else:
            stack.pop()
            finished.add(node)
            order.append(node)
    return order


class Relation(str, Enum):
    ISA_UP = "isa↑"      # hypernym
    ISA_DOWN = "isa↓"    # hyponym
    DEF = "def"
    EX = "ex"
    LEMMA = "lemma"


#: the :attr:`Concept.attributes` key of a synonym that is a respelling of another of the concept's
#: names by its source's synonym type (HPO's ``uk_spelling``: *Anaemia* for *Anemia*)
RESPELLING = "respelling"
#: an attribute: a name the build never asks (an OBO synonym of a scope not read as a synonym)
OTHER_NAME = "other_name"
#: the :attr:`Concept.attributes` key of a synonym written as another vocabulary's code (the Sequence
#: Ontology's ``INSDC_feature:ncRNA``, ``VEP:missense_variant``)
CODE = "code"


@dataclass(frozen=True)
class Concept:
    """One node: a WordNet synset (``dog.n.01``) or a GCIDE sense (``old.u.8``)."""

    id: str
    pos: str
    lemmas: Tuple[str, ...]
    definition: str
    examples: Tuple[str, ...] = ()
    #: a stable integer id (WordNet: synset offset), used as ``notes.synset_id``
    number: Optional[int] = None
    #: extra facts (e.g. WordNet lexicographer file, GCIDE headword / sense number)
    attributes: Tuple[Tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        """The first lemma, with underscores as spaces."""
        return self.lemmas[0].replace("_", " ") if self.lemmas else self.id

    @property
    def respellings(self) -> Tuple[str, ...]:
        """The lemmas that the source marks as respellings (:data:`RESPELLING`)."""
        return tuple(value for key, value in self.attributes if key == RESPELLING)

    @property
    def other_names(self) -> Tuple[str, ...]:
        """Names that are no lemmas (:data:`OTHER_NAME`): never asked, but no distractor named so."""
        return tuple(value for key, value in self.attributes if key == OTHER_NAME)

    @property
    def codes(self) -> Tuple[str, ...]:
        """The lemmas written as another vocabulary's code (:data:`CODE`)."""
        return tuple(value for key, value in self.attributes if key == CODE)


@dataclass
class KnowledgeGraph:
    """Concepts plus ``isa↑`` edges (``isa↓`` is derived). Deterministic iteration order."""

    source: str
    version: str
    concepts: Dict[str, Concept] = field(default_factory=dict)
    _up: Dict[str, List[str]] = field(default_factory=dict)
    _down: Dict[str, List[str]] = field(default_factory=dict)
    #: irregular inflections of base forms, ``"<pos>:<base>" -> (form, ...)`` (WordNet's ``*.exc``
    #: files: ``"v:go" -> ("went", "gone", ...)``); used to find a lemma in an example sentence
    irregular_forms: Dict[str, Tuple[str, ...]] = field(default_factory=dict)
    #: named relations between concepts other than isa: ``relation -> subject -> [object, ...]``
    _relations: Dict[str, Dict[str, List[str]]] = field(default_factory=dict)
    _inverse: Dict[str, Dict[str, List[str]]] = field(default_factory=dict)
    #: what the source says about each named relation: ``{"name": ..., "transitive": bool, "symmetric": bool}``
    relation_info: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    #: how the source was read (files and their sha256, format, root, the validity report); None for WordNet
    provenance: Optional[Dict[str, Any]] = None
    #: parents and links that the source's logical axioms entail (an intersection's named class, a
    #: union's members, equivalent classes): closures for the validity checks, never answers
    _implied_up: Dict[str, List[str]] = field(default_factory=dict)
    _implied_down: Dict[str, List[str]] = field(default_factory=dict)
    _implied_relations: Dict[str, Dict[str, List[str]]] = field(default_factory=dict)
    _implied_inverse: Dict[str, Dict[str, List[str]]] = field(default_factory=dict)
    #: ``relation -> classes`` every object of the relation is a member of (its ``rdfs:range`` / OBO
    #: ``range``, and those of the relations above and below it): an implied link to one of them says
    #: "linked to *some* member of the class", so the class and its ancestors are correct answers, but
    #: its kinds are not (every symptom is no answer to what a disease has as symptom)
    relation_ranges: Dict[str, FrozenSet[str]] = field(default_factory=dict)
    #: ``defined class -> the fillers of its definition's restrictions`` (OBO ``intersection_of: R F``,
    #: OWL ``equivalentClass [R some F]``): a concept falls under such a class because of a link of its
    #: own, so the class's link to F tells nothing of the concept beyond it (GO's *regulation of
    #: immune system process* regulates some immune system process; see
    #: :meth:`mcqa_probes.builders.ontology_qa.OntologyQABuilder.objects_reached`)
    definition_fillers: Dict[str, FrozenSet[str]] = field(default_factory=dict)

    def add(self, concept: Concept) -> None:
        if concept.id in self.concepts:
            raise ValueError(f"duplicate concept {concept.id}")
        self.concepts[concept.id] = concept

    def add_isa(self, child: str, parent: str) -> None:
        """Add ``child isa↑ parent`` (and so ``parent isa↓ child``)."""
        for name in (child, parent):
            if name not in self.concepts:
                raise KeyError(f"unknown concept {name} in isa link {child} -> {parent}")
        if parent not in self._up.setdefault(child, []):
            self._up[child].append(parent)
            self._down.setdefault(parent, []).append(child)

    def _link(self, table: Dict[str, Dict[str, List[str]]], subject: str, relation: str, obj: str, what: str) -> bool:
        """Put ``subject relation obj`` into ``table``; False when it was there already."""
        for name in (subject, obj):
            if name not in self.concepts:
                raise KeyError(f"unknown concept {name} in {what} link {subject} -> {obj}")
        targets = table.setdefault(relation, {}).setdefault(subject, [])
        if obj in targets:
            return False
        targets.append(obj)
        return True

    def add_relation(self, subject: str, relation: str, obj: str) -> None:
        """Add ``subject relation obj`` for a named relation other than isa (``part_of``, ``skos:related``)."""
        if self._link(self._relations, subject, relation, obj, relation):
            self._inverse.setdefault(relation, {}).setdefault(obj, []).append(subject)
        self.relation_info.setdefault(relation, {"name": relation.replace("_", " "), "transitive": False,
                                                 "symmetric": False})

    def add_implied_isa(self, child: str, parent: str) -> None:
        """``child`` is a kind of ``parent`` by the source's axioms, not by a parent edge (see
        :meth:`implied_hypernyms`); may form cycles (two equivalent classes)."""
        for name in (child, parent):
            if name not in self.concepts:
                raise KeyError(f"unknown concept {name} in implied isa link {child} -> {parent}")
        if child != parent and parent not in self._implied_up.setdefault(child, []):
            self._implied_up[child].append(parent)
            self._implied_down.setdefault(parent, []).append(child)

    def implied_hypernyms(self, concept_id: str) -> Sequence[str]:
        """Parents entailed by the source's axioms beyond ``isa↑``: in the closure that decides "exactly
        one correct answer" (:meth:`mcqa_probes.builders.hops.Taxonomy.ancestors`), never an answer."""
        return self._implied_up.get(concept_id, ())

    def implied_hyponyms(self, concept_id: str) -> Sequence[str]:
        """The children of :meth:`implied_hypernyms`."""
        return self._implied_down.get(concept_id, ())

    def has_implied(self) -> bool:
        return bool(self._implied_up) or bool(self._implied_relations)

    def add_implied_relation(self, subject: str, relation: str, obj: str) -> None:
        """``subject relation obj`` entailed by the source's axioms (an intersection's ``R some D``)."""
        if self._link(self._implied_relations, subject, relation, obj, f"implied {relation}"):
            self._implied_inverse.setdefault(relation, {}).setdefault(obj, []).append(subject)

    def implied_related(self, concept_id: str, relation: str) -> Sequence[str]:
        return self._implied_relations.get(relation, {}).get(concept_id, ())

    def implied_subjects(self, concept_id: str, relation: str) -> Sequence[str]:
        """Subjects of ``? relation concept`` entailed by the source's axioms (:meth:`implied_related`'s inverse)."""
        return self._implied_inverse.get(relation, {}).get(concept_id, ())

    def links_of(self, concept_id: str) -> List[Tuple[str, str]]:
        """``(relation, object)`` of every link from the concept, stated or implied."""
        return [(relation, obj) for table in (self._relations, self._implied_relations)
                for relation, subjects in table.items() for obj in subjects.get(concept_id, ())]

    def relations(self) -> List[str]:
        """The named relations that have at least one link, sorted."""
        return sorted(name for name, links in self._relations.items() if links)

    def related(self, concept_id: str, relation: str) -> Sequence[str]:
        """Objects of ``concept relation ?``."""
        return self._relations.get(relation, {}).get(concept_id, ())

    def inverse_related(self, concept_id: str, relation: str) -> Sequence[str]:
        """Subjects of ``? relation concept``."""
        return self._inverse.get(relation, {}).get(concept_id, ())

    def __len__(self) -> int:
        return len(self.concepts)

    def __contains__(self, concept_id: str) -> bool:
        return concept_id in self.concepts

    def __getitem__(self, concept_id: str) -> Concept:
        return self.concepts[concept_id]

    def hypernyms(self, concept_id: str) -> Sequence[str]:
        """``isa↑``: direct parents."""
        return self._up.get(concept_id, ())

    def hyponyms(self, concept_id: str) -> Sequence[str]:
        """``isa↓``: direct children."""
        return self._down.get(concept_id, ())

    def ids(self, pos: Optional[Iterable[str]] = None) -> List[str]:
        wanted = None if pos is None else set(pos)
        return sorted(c for c, concept in self.concepts.items() if wanted is None or concept.pos in wanted)

    def triples(self) -> Iterator[Tuple[str, str, str]]:
        """All (subject, relation, object) triples, as in the paper's Table 1."""
        for concept_id in sorted(self.concepts):
            concept = self.concepts[concept_id]
            yield concept_id, Relation.DEF.value, concept.definition
            for example in concept.examples:
                yield concept_id, Relation.EX.value, example
            for lemma in concept.lemmas:
                yield concept_id, Relation.LEMMA.value, lemma
            for parent in self.hypernyms(concept_id):
                yield concept_id, Relation.ISA_UP.value, parent
            for child in self.hyponyms(concept_id):
                yield concept_id, Relation.ISA_DOWN.value, child


class RelationView:
    """One named relation of a graph seen as a hierarchy: ``hypernyms(c)`` are the objects of
    ``c relation ?`` (the wholes of a part for ``part_of``) and ``hyponyms(c)`` the subjects of
    ``? relation c``; a symmetric relation (``skos:related``) is followed both ways. Concepts and
    their texts are the graph's own, so :class:`~mcqa_probes.builders.hops.Taxonomy` and the
    distractor sampler work over it as over ``isa``."""

    def __init__(self, graph: KnowledgeGraph, relation: str):
        if relation not in graph.relation_info:
            raise KeyError(f"no relation {relation!r} in {graph.source}")
        self.graph = graph
        self.relation = relation
        self.info = graph.relation_info[relation]
        self.source, self.version = graph.source, graph.version
        self.concepts = graph.concepts
        self.irregular_forms = graph.irregular_forms

    def __len__(self) -> int:
        return len(self.graph)

    def __contains__(self, concept_id: str) -> bool:
        return concept_id in self.graph

    def __getitem__(self, concept_id: str) -> Concept:
        return self.graph[concept_id]

    def ids(self, pos: Optional[Iterable[str]] = None) -> List[str]:
        return self.graph.ids(pos)

    def hypernyms(self, concept_id: str) -> Sequence[str]:
        found = self.graph.related(concept_id, self.relation)
        if self.info.get("symmetric"):
            found = sorted(set(found) | set(self.graph.inverse_related(concept_id, self.relation)))
        return found

    def hyponyms(self, concept_id: str) -> Sequence[str]:
        found = self.graph.inverse_related(concept_id, self.relation)
        if self.info.get("symmetric"):
            found = sorted(set(found) | set(self.graph.related(concept_id, self.relation)))
        return found

    def implied_hypernyms(self, concept_id: str) -> Sequence[str]:
        """Objects of the relation entailed by the source's axioms (never answers)."""
        return self.graph.implied_related(concept_id, self.relation)

    def has_implied(self) -> bool:
        return bool(self.graph._implied_relations.get(self.relation))
