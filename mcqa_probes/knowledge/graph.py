"""A knowledge source as a set of triples (TACL paper, Table 1).

Concepts (WordNet synsets, GCIDE senses) carry the atomic relations ``def`` (gloss), ``ex``
(example sentences) and ``lemma`` (surface forms); the ``isa↑`` / ``isa↓`` relations link
concepts (hypernym / hyponym). Probe builders read only this interface, so a hand-made graph in
a test behaves exactly like WordNet.
"""
from dataclasses import dataclass, field
from enum import Enum
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple


class Relation(str, Enum):
    ISA_UP = "isa↑"      # hypernym
    ISA_DOWN = "isa↓"    # hyponym
    DEF = "def"
    EX = "ex"
    LEMMA = "lemma"


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
