"""The WordNetQA method over any ontology: definitions, synonymy, hypernymy, hyponymy and relation
probes from a :class:`~mcqa_probes.knowledge.graph.KnowledgeGraph` read by
:func:`mcqa_probes.knowledge.source.load_source`.

What stays the paper's (:class:`~mcqa_probes.builders.wordnetqa.WordNetQABuilder` does the work):
answers at hops 1..k, distractor families (sister, hypernym/hyponym at other levels, random) with
the same sampler, several perturbations per question, semantic clusters per concept. What changes
for ontologies:

* **templates without example sentences** (:mod:`.ontology_templates`): the concept's definition is
  the context of an ISA or relation question; choices are the concepts' names (ontology labels are
  not ambiguous as WordNet lemmas are, and a definition in a choice would name the parent:
  definitions are written genus first). A source with example sentences gets the paper's frames.
* **synonymy** asks for another name of the term (``'x' is also known as``): the answer is one of
  its exact synonyms, a distractor a name of another concept (its first synonym when it has one, so
  that answers and distractors are written alike).
* **relation probes** (``part_of``, ``has_part``, ``skos:related``, ...): hypernymy over the relation
  (:class:`~mcqa_probes.knowledge.graph.RelationView`): answers are the objects of the relation at
  1..k hops (1 for a relation that does not chain), distractor families are its ``sister``s (the
  other parts of its wholes, as WordNet's sister terms are the other children of a parent) and its
  ``inverse`` (the concepts related to it the other way).
* **exactly one correct answer** over the transitive closure of every parent (multiple inheritance)
  and of the relation: a distractor that is an ancestor of the concept (hypernymy), a descendant
  (hyponymy), or entailed by the relation (``c part_of y``, ``y is_a z`` gives ``c part_of z``;
  ``c is_a p``, ``p part_of y`` gives ``c part_of y``; the relation's property chains too: OBO
  ``transitive_over`` / ``holds_over_chain``, OWL ``owl:propertyChainAxiom``: ``c located_in r``,
  ``r part_of h`` gives ``c located_in h`` when ``located_in`` is transitive over ``part_of``; the
  walk follows every relation a chain goes through, a little more than the chains entail) is never
  offered, nor a kind of what the relation's own steps reach (:meth:`OntologyQABuilder.objects_reached`);
  nor one that shares a name
  (label or synonym) with the concept or the answer, names compared respelled (case, spaces, ``_``,
  ``-``: :func:`~mcqa_probes.knowledge.text.name_key`); a concept's respellings (and, in English,
  plurals) of a name are not its synonyms.
* **definition leakage**: a definition in a stem that names the answer (genus-first definitions
  name the parent the hypernymy probe asks for) has that name masked (``___``), or the question is
  dropped with ``leakage: drop`` (an example sentence that the paper's frames quote alike); a
  definition that names its own concept is masked in every choice
  of the definitions probe, and one that says nothing once masked ("A hospital.") is not usable.
  Each count goes to the probe's validity summary, with the answers that are named inside the
  question's term ("drug-induced lupus" is a kind of "lupus": kept, counted; the question-to-choice
  control of the artifact audit measures how much it helps).

Every question's ``notes`` carry the source's ids (``concept_id``, ``answer_id``, ``distractor_ids``,
``choice_ids``), the hops and chain, the distractor family, the template and the source.
"""
import hashlib
import re
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from mcqa_probes.builders.distractors import Family, probe_families
from mcqa_probes.builders.hops import Taxonomy
from mcqa_probes.builders.ontology_templates import (
    NO_CONTEXT, every_frame_words, ontology_template_ids, relation_wording, render_example_stem, render_ontology_stem,
    language_frames, template_language,
)
from mcqa_probes.builders.templates import find_surface_form, lemma_set, surface, template_ids
from mcqa_probes.builders.wordnetqa import WordNetQABuilder, merged_settings
from mcqa_probes.knowledge.graph import Concept, KnowledgeGraph, Relation, RelationView
from mcqa_probes.knowledge.identifiers import relation_probe_name
from mcqa_probes.knowledge.text import (
    content_words, distinct_names, is_english, mask_names, mention_test, mentions, name_key, stemmer, with_bare_names,
)

#: what an ontology build changes from the WordNet defaults (every key can be overridden)
ONTOLOGY_SETTINGS: Dict[str, object] = {
    "pos": ["n"],
    # roots ("sequence feature", "thing") are correct answers for almost every concept
    "min_answer_depth": {"n": 1},
    "variants": {"definitions": 1, "synonymy": 2, "hypernymy": 1, "hyponymy": 1, "relation": 1},
    # at most this many concepts are asked about per probe (a fixed, hash-ordered choice; 0: all): the
    # Sequence Ontology (2,400 concepts) stays whole; a source of 500,000 concepts gives probes of a
    # size people score (about 12 questions per concept in hypernymy) in a build that costs little
    # more than reading the source
    "max_concepts": 2500,
    # mask | drop: what to do with a definition (or example sentence) in a stem that names the answer
    "leakage": "mask",
    # use the concept's definition as the context of ISA and relation questions
    "definition_context": True,
    # a usable definition keeps at least this many content words once its own names are masked
    "min_definition_words": 2,
    "max_family_distractors": {"definitions": 4, "synonymy": 4, "hypernymy": 2, "hyponymy": 2},
    # train gets at most this share of a probe's questions (and at most train_size), so that a small
    # probe (a relation with a few hundred links) still has dev and test questions
    "train_fraction": 0.5,
    # random distractors come from the probe's answers (the choice-only control) only when there are at
    # least this many distinct answers; fewer cannot fill four distinct valid distractors per question
    "min_answer_pool": 20,
}
MASK = "___"
#: an English indefinite article before the mask (``An ___``), whose form tells how the masked name begins
_ARTICLE_BEFORE_MASK = re.compile(r"\b([Aa])[Nn]?(\s+)(?=" + re.escape(MASK) + ")")
#: the closing punctuation that :meth:`OntologyQABuilder.choice_key` leaves out (with the spaces after it)
_CLOSING = " \t.;:,!?"
#: what :meth:`OntologyQABuilder._example_context` returns for a question to drop (``leakage: drop``)
_DROPPED = ("", "")


def ontology_settings(settings: Optional[dict] = None) -> dict:
    """``settings`` over the ontology defaults over the WordNet defaults."""
    return merged_settings(settings, defaults=merged_settings(ONTOLOGY_SETTINGS))


def _rank(probe: str, concept_id: str) -> str:
    """A concept's place in the fixed order that ``max_concepts`` takes concepts from."""
    return hashlib.sha1(f"{probe}:{concept_id}".encode("utf-8")).hexdigest()


def _second_name(names: List[str]) -> str:
    """The name a synonymy choice shows: the second one, or the only one."""
    return names[1] if len(names) > 1 else names[0]


def _closure(start: Set[str], objects: Callable[[str], Sequence[str]],
             around: Callable[[str], FrozenSet[str]]) -> Set[str]:
    """What ``objects`` reaches from ``start``, again and again, each concept reached taken with
    ``around`` it (its ancestors: ``c part_of y``, ``y is_a z`` gives ``c part_of z``)."""
    result: Set[str] = set()
    frontier = [target for source in sorted(start) for target in objects(source)]
    while frontier:
        following = []
        for target in frontier:
            if target in result:        # reached before, and with it what is around it
                continue
            for reached in (target, *around(target)):
                if reached not in result:
                    result.add(reached)
                    following.extend(objects(reached))
        frontier = following
    return result


def chains(info: dict) -> bool:
    """Whether a relation's questions ask it over hops 1..k: transitive, and not symmetric (whose links
    go both ways: every hop would lead back)."""
    return bool(info.get("transitive")) and not info.get("symmetric")


class RelationTaxonomy(Taxonomy):
    """The closures over a relation view; a relation that does not chain has only direct links (and a
    symmetric one may have cycles, so no recursion over it: one both symmetric and transitive, SKOS's
    exactMatch or an OBO Typedef with both, is asked one hop, its closure still kept out of the
    distractors by :meth:`OntologyQABuilder.entailed`)."""

    def __init__(self, view: RelationView, max_hops: int):
        super().__init__(view, max_hops)
        self.chains = chains(view.info)

    def ancestors(self, concept: str) -> FrozenSet[str]:
        if self.chains:
            return super().ancestors(concept)
        found = self._ancestors.get(concept)
        if found is None:
            found = self._ancestors[concept] = frozenset(
                (*self.graph.hypernyms(concept), *self.graph.implied_hypernyms(concept))) - {concept}
        return found

    def depth(self, concept: str) -> int:
        return super().depth(concept) if self.chains else 0


class OntologyQABuilder(WordNetQABuilder):
    """Builds the probes of one ontology; ``relation`` set: the relation probe over that relation."""

    def __init__(self, graph: KnowledgeGraph, settings: Optional[dict] = None, progress=None,
                 relation: Optional[str] = None, probe_name: Optional[str] = None, relation_name: Optional[str] = None):
        self.base = graph
        self.relation = relation
        #: how ``notes.relation`` names the relation (the user's name for it; by default its id)
        self.relation_name = relation_name or relation
        settings = ontology_settings(settings)
        if relation is not None:
            view = RelationView(graph, relation)
            if not chains(view.info):
                settings["max_hops"] = 1
            settings["min_answer_depth"] = {"n": 0}
            self.probe_name = probe_name or relation_probe_name(relation)
            super().__init__(view, settings, **({"progress": progress} if progress else {}))
            self.taxonomy = RelationTaxonomy(view, max(int(self.settings["max_hops"]),
                                                       int(self.settings["max_distractor_hops"])))
            self.sampler.taxonomy = self.taxonomy
        else:
            self.probe_name = None
            super().__init__(graph, settings, **({"progress": progress} if progress else {}))
        self.isa = Taxonomy(graph, int(self.settings["max_hops"])) if relation is not None else self.taxonomy
        #: the source's language (--lang) where it has a stemmer: names inflected in it are found too
        #: (mcqa_probes.knowledge.text.mentions); None for English (its plurals are in the patterns)
        language = ((graph.provenance or {}).get("vocabulary") or {}).get("lang")
        self.language = language if stemmer(language) is not None else None
        #: the source's language as given (None: English), for the English-only plural rules
        self.language_code = language
        self.english = is_english(language)
        #: the language of the question templates: None for English (and a language without templates)
        self.template_language = template_language(language)
        self._spellings: Dict[str, List[str]] = {}
        self._names: Dict[str, FrozenSet[str]] = {}
        self._terms: Dict[str, str] = {}
        self._label_keys: Dict[str, str] = {}
        self._by_name: Optional[Dict[str, List[str]]] = None
        self._namesakes: Dict[str, Tuple[str, ...]] = {}
        self._entailed: Dict[str, FrozenSet[str]] = {}
        self._objects_reached: Dict[str, FrozenSet[str]] = {}
        self._excluded: Dict[str, FrozenSet[str]] = {}
        self._equivalents: Dict[str, FrozenSet[str]] = {}
        self._answer_names: Dict[str, Tuple[str, ...]] = {}
        self._usable_definition: Dict[str, str] = {}
        self._repeats_term: Dict[str, bool] = {}
        self._naming_templates: Dict[Tuple[str, Tuple[str, ...]], FrozenSet[str]] = {}

    # ------------------------------------------------------------------ kinds and templates
    def kind(self, probe: str) -> str:
        if self.relation is not None:
            if probe != self.probe_name:
                raise KeyError(f"this builder makes the {self.probe_name} probe, not {probe!r}")
            return "hypernymy"
        return super().kind(probe)

    def template_kind(self, probe: str) -> str:
        return "relation" if self.relation is not None else self.kind(probe)

    def probe_templates(self, probe: str) -> List[str]:
        kind = self.template_kind(probe)
        if self._has_examples() and kind in ("definitions", "hypernymy", "hyponymy"):
            return template_ids(kind)
        return ontology_template_ids(kind, bool(self.settings["definition_context"]))

    def _has_examples(self) -> bool:
        return bool(self.contexts())

    def families(self, probe: str):
        return probe_families(self.kind(probe), self.settings["sister_levels"], int(self.settings["max_distractor_hops"]))

    # ------------------------------------------------------------------ names and definitions
    def names(self, concept_id: str) -> FrozenSet[str]:
        """The concept's names (label and synonyms, and the names it is never asked by: an OBO synonym
        of another scope, :attr:`Concept.other_names`) as :func:`~mcqa_probes.knowledge.text.name_key`
        keys: lower case, without spaces, ``_`` or ``-``, in English (and French, Spanish, German) without a
        plural ending (two concepts named ``A-minor RNA motif`` and ``A minor RNA motif`` share a name)."""
        found = self._names.get(concept_id)
        if found is None:
            english = self.english
            concept = self.graph[concept_id]
            found = self._names[concept_id] = frozenset(name_key(lemma, english, self.language_code)
                                                        for lemma in (*concept.lemmas, *concept.other_names))
        return found

    def spellings(self, concept: Concept) -> List[str]:
        """The concept's names as choices show them, without respellings of an earlier one (case,
        space, ``_``, ``-``, an English plural: :func:`~mcqa_probes.knowledge.text.distinct_names`):
        ``protein-coding`` is no synonym of ``protein coding``; nor is a synonym that the source
        types as a respelling (HPO's ``uk_spelling``: *Anaemia*; :attr:`Concept.respellings`) or
        one written as another vocabulary's code (``VEP:missense_variant``: :attr:`Concept.codes`)."""
        found = self._spellings.get(concept.id)
        if found is None:
            names = lemma_set(concept)
            respelled = {surface(name) for name in concept.respellings + concept.codes}
            if respelled:
                names = [name for index, name in enumerate(names) if index == 0 or name not in respelled]
            found = self._spellings[concept.id] = distinct_names(names, self.language_code)
        return found

    def choice_key(self, text: str) -> str:
        """Two choices may not be one name respelled (:func:`~mcqa_probes.knowledge.text.name_key`), nor
        one text but for its closing stop (two definitions copied from one another, one without it)."""
        return name_key(text.rstrip(_CLOSING), self.english, self.language_code)

    def namesakes(self, concept_id: str) -> Tuple[str, ...]:
        """The other concepts that share a name (label or synonym) with this one."""
        if self._by_name is None:
            by_name: Dict[str, List[str]] = {}
            for other in self.graph.concepts:
                for name in self.names(other):
                    by_name.setdefault(name, []).append(other)
            self._by_name = {name: ids for name, ids in by_name.items() if len(ids) > 1}
        found = self._namesakes.get(concept_id)
        if found is None:
            twins = {other for name in self.names(concept_id) for other in self._by_name.get(name, ())}
            found = self._namesakes[concept_id] = tuple(sorted(twins - {concept_id}))
        return found

    def labels_another(self, concept_id: str, name: str) -> bool:
        """Whether ``name``, a name of the concept, is the label of another concept of the source."""
        key = name_key(name, self.english, self.language_code)
        return any(name_key(self.graph[twin].lemmas[0], self.english, self.language_code) == key
                   for twin in self.namesakes(concept_id))

    def label_namesakes(self, concept_id: str) -> Tuple[str, ...]:
        """The other concepts with a name that is this one's label, the term its questions show (two
        concepts labelled *Tablet*, a computer and a dishwasher tablet): a question about one asks,
        to a reader, about both, so the other's correct answers are no distractors."""
        twins = self.namesakes(concept_id)
        if not twins:
            return ()
        label = name_key(self.graph[concept_id].lemmas[0], self.english, self.language_code)
        return tuple(twin for twin in twins if label in self.names(twin))

    def masked(self, text: str, names) -> Tuple[str, int]:
        """``text`` with ``names`` masked (:func:`~mcqa_probes.knowledge.text.mask_names`) and, in English,
        the article before a mask written ``a(n)``: "An ___ of wind and percussion" would rule out every
        choice that does not start with a vowel. Returns the count of masks too."""
        masked, hits = mask_names(text, names, MASK, self.language)
        if hits and self.english:
            masked = _ARTICLE_BEFORE_MASK.sub(r"\1(n)\2", masked)
        return masked, hits

    def usable_definition(self, concept_id: str) -> str:
        """The definition with the concept's own names masked, and those of the classes equivalent to it
        (:meth:`answer_names`: Brick's *CRAH* is equivalent to *Computer Room Air Handler*, whose
        definition "A computer room air handler (CRAH) uses fans ..." named it before 2026-12-07); ''
        when too little is left."""
        found = self._usable_definition.get(concept_id)
        if found is None:
            concept = self.graph[concept_id]
            masked, _ = self.masked(concept.definition, self.answer_names(concept))
            found = masked if content_words(masked, MASK) >= int(self.settings["min_definition_words"]) else ""
            self._usable_definition[concept_id] = found
        return found

    def says_nothing(self, text: str, concept: Concept) -> bool:
        """Whether ``text`` has no content word once the concept's label is masked ("A hospital.",
        "___ is a ___." once an answer is masked too): as a question's context it tells nothing. A
        synonym is information (*ss oligo*: "A single stranded oligonucleotide."). The function words
        are English's and the template language's ("Un hôpital.")."""
        return not content_words(mask_names(text, with_bare_names(concept.lemmas[:1]), MASK, self.language)[0], MASK,
                                 language_frames(self.template_language).function_words)

    def repeats_term(self, concept_id: str) -> bool:
        """Whether the concept's definition only repeats its label (:meth:`says_nothing`)."""
        found = self._repeats_term.get(concept_id)
        if found is None:
            concept = self.graph[concept_id]
            found = self._repeats_term[concept_id] = (bool(concept.definition.strip())
                                                      and self.says_nothing(concept.definition, concept))
        return found

    def choice_renderer(self, probe: str) -> Callable[[Concept], str]:
        kind = self.template_kind(probe)
        if kind == "definitions":
            return lambda concept: self.usable_definition(concept.id)
        if kind == "synonymy":
            return lambda concept: surface(_second_name(self.spellings(concept)))
        return lambda concept: surface(self.spellings(concept)[0])

    # ------------------------------------------------------------------ who is asked
    def askable(self, probe: str) -> List[str]:
        ids = self.graph.ids(self.settings["pos"])
        if probe == "definitions":
            return [c for c in ids if self.usable_definition(c)]
        if probe == "synonymy":
            graph = self.graph
            return [c for c in ids if len(graph[c].lemmas) > 1 and len(self.spellings(graph[c])) > 1]
        if probe == "hypernymy":
            return [c for c in ids if self.graph.hypernyms(c)]
        if probe == "hyponymy":
            return [c for c in ids if self.graph.hyponyms(c)]
        raise KeyError(f"not a probe kind: {probe!r}")

    def concepts_to_ask(self, probe: str) -> List[str]:
        """The askable concepts, at most ``max_concepts`` of them: a fixed choice by a hash of the id
        (the same whatever the number of workers, the seed or the other probes). With a cap, the
        definitions probe checks its (costly) definition test only on concepts in hash order until
        the cap is reached, so a source of 500,000 concepts is not masked whole."""
        kind = self.kind(probe)
        limit = int(self.settings.get("max_concepts") or 0)
        if kind == "definitions" and limit:
            candidates = [c for c in self.graph.ids(self.settings["pos"]) if self.graph[c].definition]
            if len(candidates) > limit:
                self.summary["askable"] = len(candidates)        # with a definition; usable ones are asked
                found, examined = [], 0
                for concept_id in sorted(candidates, key=lambda c: _rank(probe, c)):
                    examined += 1
                    if self.usable_definition(concept_id):
                        found.append(concept_id)
                        if len(found) == limit:
                            break
                self._count_unusable(examined - len(found))
                return sorted(found)
            found = [c for c in candidates if self.usable_definition(c)]
            self.summary["askable"] = len(candidates)            # as with a cap: the unusable ones are
            self._count_unusable(len(candidates) - len(found))   # counted apart, the usable ones asked
            return found
        found = self.askable(kind)
        self.summary["askable"] = len(found)
        # hypernymy: a concept whose every ancestor is too general (min_answer_depth: the root) has
        # no answer; it is neither counted as askable nor given one of the max_concepts places
        answerable = (lambda c: bool(self.answers(kind, c, None))) if kind == "hypernymy" else None
        if limit and len(found) > limit:
            ordered = sorted(found, key=lambda c: _rank(probe, c))
            if answerable is not None:
                picked = []
                for concept_id in ordered:
                    if answerable(concept_id):
                        picked.append(concept_id)
                        if len(picked) == limit:
                            break
                if not picked:
                    self.summary["parents_all_roots"] = len(found)
                return sorted(picked)
            return sorted(ordered[:limit])
        if answerable is not None:
            with_parent = len(found)
            found = [c for c in found if answerable(c)]
            self.summary["askable"] = len(found)
            if with_parent and not found:
                # concepts have parents, but every one is a root (too general to be an answer)
                self.summary["parents_all_roots"] = with_parent
        return found

    def _count_unusable(self, count: int) -> None:
        """Definitions that say too little once the concept's own names are masked ("3-pyridylcarbinol.",
        "Carbodiimide."): not asked, and counted in the validity summary."""
        if count:
            self.summary["unusable_definition"] = count

    def answer_pool(self, probe: str, concepts: Optional[List[str]] = None) -> Dict[str, List[str]]:
        """The paper's answer pool for random distractors (the answers of the concepts asked), unless it
        has too few distinct concepts to fill the questions (a small relation): then the concepts of
        the answers' branches of the hierarchy (:meth:`answer_branches`: the wholes' branch for part_of,
        not the skills and occupations beside it, which a choice-only model would rule out at sight),
        else every concept; the summary says which."""
        pools = super().answer_pool(probe, concepts)
        needed = int(self.settings["min_answer_pool"])
        if sum(len(set(members)) for members in pools.values()) < needed:
            branches = self.answer_branches({answer for members in pools.values() for answer in members}, needed)
            if branches is not None:
                self.summary["random_distractors_from_answer_branches"] = 1
                return branches
            self.summary["random_distractors_from_all_concepts"] = 1
            return self.random_pools
        return pools

    def answer_branches(self, answers: Set[str], needed: int) -> Optional[Dict[str, List[str]]]:
        """Every concept under the answers' ancestors at the shallowest depth that leaves some concepts
        out (the roots' level, or under a single root its children's, ...), the answers themselves and
        those above that depth included, by part of speech; None when no depth leaves concepts out
        with at least ``needed`` concepts in."""
        isa, pos = self.isa, set(self.settings["pos"])
        total = len(self.base.ids(pos))
        for level in range(4):
            heads = {found for answer in answers for found in (answer, *isa.ancestors(answer))
                     if isa.depth(found) == level or (found == answer and isa.depth(answer) < level)}
            members = heads.union(*map(isa.descendants, heads)) if heads else set()
            members = {c for c in members if c in self.base and self.base[c].pos in pos}
            if len(members) < needed:
                return None
            if len(members) < total:
                pools: Dict[str, List[str]] = {}
                for concept in sorted(members):
                    pools.setdefault(self.base[concept].pos, []).append(concept)
                return pools
        return None

    # ------------------------------------------------------------------ exactly one correct answer
    def entailed(self, concept_id: str) -> FrozenSet[str]:
        """Everything ``concept relation ?`` holds for, over the relation's closure and every isa
        parent on both sides (see the module docstring). The closure is taken even for a relation
        the source does not declare transitive (its questions ask one hop only): a concept two
        ``adjacent_to`` steps away is then no distractor, so a reader who takes every relation as
        transitive still finds one correct answer per question."""
        found = self._entailed.get(concept_id)
        if found is not None:
            return found
        view, isa, graph = self.graph, self.isa, self.base
        # the relations the relation's property chains go through (OBO transitive_over /
        # holds_over_chain, OWL propertyChainAxiom): their links are followed too (see
        # mcqa_probes.knowledge.entailment.chain_relations)
        through = [(other, bool(graph.relation_info.get(other, {}).get("symmetric")))
                   for other in view.info.get("through", ())]

        def objects(source: str):
            """The relation's objects, with those the source's axioms entail (never answers)."""
            found = [*view.hypernyms(source), *view.implied_hypernyms(source)]
            for other, symmetric in through:
                found.extend((*graph.related(source, other), *graph.implied_related(source, other)))
                if symmetric:
                    found.extend(graph.inverse_related(source, other))
            return found

        result = _closure({concept_id} | set(isa.ancestors(concept_id)), objects, isa.ancestors)
        if view.info.get("symmetric"):
            # the same rules read from the other side: y is related to a kind of the concept (or to
            # a kind of something related to it), so, the relation being symmetric, that kind of y
            # is related to the concept (knife related to cutting board, bread knife a kind of
            # knife: 'cutting board' is related to 'bread knife' too)
            result |= _closure({concept_id} | set(isa.descendants(concept_id)), objects, isa.descendants)
        for inverse in view.info.get("inverses", ()):
            # x S y for S the inverse of the relation (OBO inverse_of, owl:inverseOf) is y relation x to a
            # reader, though OWL entails nothing so between classes: "'river' has part" never offers a
            # river mouth (part_of a river), nor an estuary, a kind of it, nor for a kind of river
            def subjects(target: str, inverse: str = inverse):
                return [*graph.inverse_related(target, inverse), *graph.implied_subjects(target, inverse)]

            result |= _closure({concept_id} | set(isa.descendants(concept_id)), subjects, isa.descendants)
        found = self._entailed[concept_id] = frozenset(result)
        return found

    def objects_reached(self, concept_id: str) -> FrozenSet[str]:
        """What the concept is linked to by the relation's own steps (from it and its ancestors, over
        the relation's closure; for a relation that chains, a concept reached passes on its ancestors'
        links, but no is-a step on the object's side is taken: *claw* part_of *tarsus*, a kind of *leg
        segment*, which is part_of *leg*, reaches *leg*, not *leg segment*, whose kinds include the
        femur). A kind of one of them is no wrong answer (:meth:`valid_for`): *string* part_of *chordophone* makes a harpsichord, a kind of
        chordophone, no wrong answer to what a string is part of. OWL entails nothing so (some
        chordophone has the string, not every kind), but a reader takes it for a right answer. (The
        kinds are tested through a candidate's ancestors: a set of every kind would be as large as
        the ontology for a whole near its root.)

        An ancestor's link that is its definition's restriction (``definition_fillers``: GO's
        *regulation of immune system process* = regulation that regulates some *immune system
        process*), to a class above what the concept's own links reach, is not followed: the concept
        falls under the defined class because of its own link (*regulation of T cell antigen
        processing* regulates *T cell antigen processing*, an immune system process), and no reader
        takes *B cell mediated immunity* for what it regulates. (Was: every kind of the fillers of
        *regulation of biological process*'s line were no wrong answers, and GO's `regulates` probe
        kept 10 of its 457 concepts.) A link an ancestor states (*wheel* part_of *land vehicle*) is
        followed still: a front wheel is part of a car too, to a reader."""
        found = self._objects_reached.get(concept_id)
        if found is None:
            view, isa = self.graph, self.isa
            fillers = self.base.definition_fillers

            # a relation that chains: the links a kind inherits from its ancestors are followed too (the
            # claw is then part of the leg, as OWL entails); a symmetric one (skos:related) would reach
            # near every concept through its neighbours' broader concepts
            inherited = chains(view.info)
            # an implied link to the relation's range says "some member of it": the range's kinds
            # stay wrong answers (the range and its ancestors are correct ones: entailed)
            ranges = self.base.relation_ranges.get(view.relation, frozenset())

            def links(linked: str):
                return [*view.hypernyms(linked), *(other for other in view.implied_hypernyms(linked) if other not in ranges)]

            def objects(source: str):
                found = []
                for linked in ((source, *isa.ancestors(source)) if inherited else (source,)):
                    found.extend(links(linked))
                return found

            own = links(concept_id)
            reached = _closure(set(own), objects, lambda concept: ()) | set(own)
            above_own = reached.union(*map(isa.ancestors, reached)) if fillers else frozenset()
            # the ancestors' links, but those that only restate through a defined class what the
            # concept's own links say
            start = [other for ancestor in sorted(isa.ancestors(concept_id)) for other in links(ancestor)
                     if not (other in above_own and other in fillers.get(ancestor, ()))]
            found = self._objects_reached[concept_id] = frozenset(
                reached | set(start) | _closure(set(start), objects, lambda concept: ()))
        return found

    def answer_names(self, answer: Concept) -> Tuple[str, ...]:
        """What names an answer in a context: its names and those of the concepts that mean the same
        (:meth:`equivalents`: *chordophone* names the answer *string instrument*, its equivalent class)."""
        found = self._answer_names.get(answer.id)
        if found is None:
            others = [name for other in sorted(self.equivalents(answer.id)) for name in self.graph[other].lemmas]
            found = self._answer_names[answer.id] = with_bare_names(tuple(dict.fromkeys([*answer.lemmas, *others])))
        return found

    def equivalents(self, concept_id: str) -> FrozenSet[str]:
        """The concepts that mean the same as this one: each a kind of the other over the closures
        (``owl:equivalentClass`` between named classes, OBO ``equivalent_to``, ``skos:exactMatch``
        between two concepts of the source). One's definition defines the other and one's names
        name the other, so none is a wrong answer in the definitions or synonymy probe."""
        found = self._equivalents.get(concept_id)
        if found is None:
            ancestors = self.isa.ancestors
            found = self._equivalents[concept_id] = frozenset(
                other for other in ancestors(concept_id) if other != concept_id and concept_id in ancestors(other))
        return found

    def excluded_hypernymy(self, concept_id: str) -> FrozenSet[str]:
        """Every concept that is no valid distractor of an (is-a) hypernymy question about the concept,
        whatever its answer (an ancestor): the concept, its ancestors and every concept that shares a
        name with one of them (a concept sharing a name with the answer shares it with an ancestor)."""
        found = self._excluded.get(concept_id)
        if found is None:
            ancestors = set(self.isa.ancestors(concept_id))
            for twin in self.label_namesakes(concept_id):       # the ancestors of a concept named alike
                ancestors.update(self.isa.ancestors(twin))
            found = self._excluded[concept_id] = frozenset(
                {concept_id, *ancestors, *self.namesakes(concept_id)}.union(*map(self.namesakes, ancestors)))
        return found

    def valid_for(self, probe: str, concept_id: str, answer_id: str) -> Callable[[str], bool]:
        if probe == "hypernymy" and self.relation is None:
            # the tests below, over the closures, as one set (the answer is an ancestor)
            excluded = self.excluded_hypernymy(concept_id)
            return lambda other: other not in excluded
        names, known = self.names, self._names.get
        blocked = names(concept_id) | names(answer_id)
        relation = self.relation is not None
        equivalents = self.equivalents(concept_id)
        if equivalents:         # their names are the concept's names too
            blocked = blocked.union(*map(names, equivalents))
        tax = self.isa
        # a concept labelled alike: its correct answers are correct for a reader too (label_namesakes)
        twins = self.label_namesakes(concept_id)
        asked = (concept_id, *twins)
        entailed = self.entailed(concept_id) if relation else frozenset()
        reached = self.objects_reached(concept_id) if relation else frozenset()
        if relation and twins:
            entailed = entailed.union(*map(self.entailed, twins))
            reached = reached.union(*map(self.objects_reached, twins))
        ancestors = tax.ancestors(concept_id) if probe == "hypernymy" and not relation else frozenset()
        answer_definition = self.usable_definition(answer_id) if probe == "definitions" else ""
        names_term = (mention_test(self.answer_names(self.graph[concept_id]), self.language)
                      if probe == "definitions" else None)

        # a distractor named like a correct answer (a synonym of another ancestor) is a correct answer too
        named_like_correct = relation or probe in ("hypernymy", "hyponymy")

        def correct(other: str) -> bool:
            """``other`` is a correct answer too (by id: over the closures; for a relation, a kind of
            what its steps reach is one to a reader: :meth:`objects_reached`)."""
            if relation:
                return other in entailed or not reached.isdisjoint(tax.ancestors(other))
            if probe == "hypernymy":
                return other in ancestors
            return probe == "hyponymy" and any(tax.is_ancestor(one, other) for one in asked)

        def valid(other: str) -> bool:
            if other == concept_id or other == answer_id or not blocked.isdisjoint(known(other) or names(other)):
                return False
            if other in equivalents:
                return False
            if named_like_correct and any(correct(twin) for twin in self.namesakes(other)):
                return False
            if probe == "definitions":
                # a definition that names the asked term is not its definition (the right one has
                # its own names masked): such a distractor would give the answer away
                definition = self.usable_definition(other)
                return bool(definition) and definition != answer_definition and not names_term(definition)
            if relation:
                return not correct(other)
            if other in ancestors:
                return False
            if probe == "hyponymy" and any(tax.is_ancestor(one, other) for one in asked):
                return False
            return True

        return valid

    # ------------------------------------------------------------------ one question
    def question_text(self, probe, concept_id, answer_id, chain, template_id, index, variant):
        kind, template_kind = self.kind(probe), self.template_kind(probe)
        concept = self.graph[concept_id]
        term = self._terms.get(concept_id)
        if term is None:
            term = self._terms[concept_id] = surface(self.spellings(concept)[0])
        answer = self.graph[answer_id]
        own_answer = None
        context = ""
        summary = self.summary
        if kind != "definitions" and template_kind != "synonymy" and self._label_key(concept_id) == self._label_key(
                answer_id):
            # two concepts labelled alike, one the other's parent (NAICS's 11111 and 111110, *Soybean
            # Farming*) or related to it: "what is 'Soybean Farming' an example of?" -> *Soybean Farming*
            summary["answer_is_the_term"] = summary.get("answer_is_the_term", 0) + 1
            return None
        if template_kind == "synonymy":
            names = self.spellings(concept)[1:]
            own_answer = surface(names[index % len(names)])       # index counts every variant
        if template_kind == "definitions" and mentions(concept.definition, self.answer_names(concept),
                                                       self.language):
            summary["definition_names_its_concept"] = summary.get("definition_names_its_concept", 0) + 1
        example = None
        if template_id.split("+")[0].startswith("ctx"):
            example = self._example_context(kind, concept, answer, (index + variant))
            if example is _DROPPED:
                return None
            if example is None:
                # the source has example sentences, but not for this concept (or none that still
                # shows the term once the answer is masked): the definition frames instead
                own = ontology_template_ids(template_kind, bool(self.settings["definition_context"]))
                template_id = own[int(hashlib.sha1(template_id.encode("utf-8")).hexdigest(), 16) % len(own)]
        if example is not None:     # the paper's frames around an example sentence
            sentence, form = example
            if kind != "definitions":
                template_id = self._template_not_naming(template_kind, template_id, self.answer_names(answer))
            stem = render_example_stem(kind, template_id, sentence=sentence, word=form, language=self.template_language)
            context = sentence
        else:
            definition = ""
            if template_id.split("+")[0] != NO_CONTEXT:
                definition = concept.definition
                if not definition.strip():
                    return self._without_context(probe, template_id, concept_id, answer_id, chain, index, variant)
                if kind != "definitions":
                    if self.repeats_term(concept_id):
                        # "Where 'hospital' is defined as 'A hospital.'" tells nothing: asked without it
                        summary["definition_repeats_term"] = summary.get("definition_repeats_term", 0) + 1
                        return self._without_context(probe, template_id, concept_id, answer_id, chain, index,
                                                     variant)
                    masked, hits = self.masked(definition, self.answer_names(answer))
                    if hits:
                        if self.settings["leakage"] == "drop":
                            summary["leakage_dropped"] = summary.get("leakage_dropped", 0) + 1
                            return None
                        if self.says_nothing(masked, concept):
                            # nothing left but the mask and the term ("A ___." for 'city hall', answer
                            # 'building'): asked without it, as a definition that only repeats the term
                            summary["definition_repeats_term"] = summary.get("definition_repeats_term", 0) + 1
                            return self._without_context(probe, template_id, concept_id, answer_id, chain, index,
                                                         variant)
                        summary["leakage_masked"] = summary.get("leakage_masked", 0) + 1
                        definition = masked
                context = definition
            if kind != "definitions":
                template_id = self._template_not_naming(template_kind, template_id,
                                                        self.answer_names(answer) if own_answer is None
                                                        else (own_answer,))
            relation_name = ""
            if self.relation is not None:
                relation_name = relation_wording(self.graph.info["name"], self.template_language,
                                                 self.graph.info.get("name_language"))
            stem = render_ontology_stem(template_kind, template_id, word=term, definition=definition,
                                        relation=relation_name, language=self.template_language)
        if kind in ("hypernymy", "hyponymy"):
            inner, outer = (answer, concept) if kind == "hypernymy" else (concept, answer)
            names_inner = mention_test(inner.lemmas, self.language)
            if any(names_inner(name.replace("_", " ")) for name in outer.lemmas):
                summary["answer_named_in_term"] = summary.get("answer_named_in_term", 0) + 1
            elif kind == "hyponymy":
                # the kind named inside its grouping class (HPO's *Nausea and vomiting* over *Nausea*,
                # *Aplasia/Hypoplasia of X* over *Hypoplasia of X*): kept, counted
                names_answer = mention_test(answer.lemmas, self.language)
                if any(names_answer(name.replace("_", " ")) for name in concept.lemmas):
                    summary["answer_named_in_grouping_term"] = summary.get("answer_named_in_grouping_term", 0) + 1
        elif template_kind == "synonymy" and (mentions(own_answer, (term,), self.language)
                                              or mentions(term, (own_answer,), self.language)):
            # a synonym that holds the term or is held in it (*ribose* for *D-ribose*): a reader picks
            # the choice that shares its words; kept, counted (the question-to-choice control measures it)
            summary["synonym_shares_term"] = summary.get("synonym_shares_term", 0) + 1
        if template_kind == "synonymy" and self.labels_another(concept_id, own_answer):
            # *legionellosis*, an exact synonym of *Legionnaires' disease* and its parent's label: the
            # source says both; kept (as WordNet's lemma of two synsets), counted
            summary["synonym_labels_another"] = summary.get("synonym_labels_another", 0) + 1
        notes = {
            "concept_id": concept_id,
            "answer_id": answer_id,
            "term": term,
            "hops": len(chain) - 1,
            "chain": "=>".join(chain) if kind == "hypernymy" else "<=".join(chain if kind == "hyponymy" else (concept_id,)),
            "relation": self.relation_name if self.relation is not None else _RELATIONS[kind],
            "pos": concept.pos,
            "context": context,
            "template": template_id,
            "cluster_key": f"{probe}:{concept_id}",
            "source": self.base.source,
            "version": self.base.version,
        }
        if context != concept.definition and context and kind != "definitions" and MASK in context:
            notes["leakage"] = "masked"
        return stem, notes, own_answer

    def _label_key(self, concept_id: str) -> str:
        """The :meth:`choice_key` of the concept's label as its questions show it (made once)."""
        found = self._label_keys.get(concept_id)
        if found is None:
            found = self._label_keys[concept_id] = self.choice_key(surface(self.spellings(self.graph[concept_id])[0]))
        return found

    def _example_context(self, kind: str, concept: Concept, answer: Concept, turn: int):
        """The ``(example sentence, term as written there)`` that the paper's frames quote, the
        ``turn``-th of the concept's, or None when it has none. A sentence that names the answer of an
        ISA question ("A knife is a cutting tool ...") gets the definition's treatment (``leakage``:
        masked and counted, or the question dropped: :data:`_DROPPED`); None when the term is no
        longer in it once masked (a hyponym *bread knife* in an example of *knife*)."""
        usable = self.contexts().get(concept.id)
        if not usable:
            return None
        sentence, form = usable[turn % len(usable)]
        if kind == "definitions":
            return sentence, form
        masked, hits = self.masked(sentence, self.answer_names(answer))
        if not hits:
            return sentence, form
        summary = self.summary
        if self.settings["leakage"] == "drop":
            summary["example_leakage_dropped"] = summary.get("example_leakage_dropped", 0) + 1
            return _DROPPED
        form = find_surface_form(concept, masked, self.graph.irregular_forms)
        if form is None:
            summary["example_leakage_reframed"] = summary.get("example_leakage_reframed", 0) + 1
            return None
        summary["example_leakage_masked"] = summary.get("example_leakage_masked", 0) + 1
        return masked, form

    def _template_not_naming(self, template_kind: str, template_id: str, names) -> str:
        """``template_id``, or where its own words name the answer (``Which choice names one type of``,
        answer *Name*) the next template of the probe, in order, that does not: a stem that shares its
        answer's word would point at it (a function word does not: alanine's *A* and the article).
        Counted in the validity summary; kept if every one does."""
        key = (template_kind, tuple(names))
        naming = self._naming_templates.get(key)
        if naming is None:
            frames = every_frame_words(template_kind, self.template_language)
            # almost no answer is named by any template: one test of all their words first
            named = mentions(" | ".join(words for _, words in frames), key[1], self.language)
            naming = self._naming_templates[key] = frozenset(
                each for each, words in frames if named and mentions(words, key[1], self.language))
        if template_id not in naming:
            return template_id
        context_id = template_id.split("+")[0]
        order = (template_ids(template_kind) if context_id.startswith("ctx")
                 else ontology_template_ids(template_kind, context_id != NO_CONTEXT))
        start = order.index(template_id)
        for other in order[start + 1:] + order[:start]:
            if other not in naming:
                self.summary["template_names_answer"] = self.summary.get("template_names_answer", 0) + 1
                return other
        return template_id

    def _without_context(self, probe, template_id, concept_id, answer_id, chain, index, variant):
        return self.question_text(probe, concept_id, answer_id, chain, f"{NO_CONTEXT}+{template_id.split('+')[1]}",
                                  index, variant)

    def family_type(self, family: Family) -> str:
        """``inverse`` for the family of a relation probe that follows the relation backwards."""
        return "inverse" if family.name == "hyponym" and self.relation is not None else family.name

    def family_label(self, family: Family) -> str:
        """A question's id names the family as its ``notes.distractor_type`` does: ``inverse1`` in a
        relation probe (not ``hyponym1``)."""
        if family.name == "hyponym" and self.relation is not None:
            return "inverse" if family.depth is None else f"inverse{family.depth}"
        return family.label

    def choice_id_notes(self, notes, choice_ids: List[str]) -> None:
        """The source's ids: ``choice_ids`` and ``distractor_ids`` (the choices but the answer)."""
        notes["choice_ids"] = choice_ids
        answer_id = notes["answer_id"]
        notes["distractor_ids"] = [c for c in choice_ids if c != answer_id]


_RELATIONS = {
    "definitions": Relation.DEF.value,
    "synonymy": Relation.LEMMA.value,
    "hypernymy": Relation.ISA_UP.value,
    "hyponymy": Relation.ISA_DOWN.value,
}
