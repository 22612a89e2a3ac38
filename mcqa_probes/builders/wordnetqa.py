"""WordNetQA (TACL paper §3.1): definitions, synonymy, hypernymy and hyponymy questions.

For each probe:

1. **Askable concepts.** Noun and verb synsets (the parts of speech with an ISA hierarchy) that
   have an example sentence in which one of their lemmas can be found (the context frame quotes
   it). Synonymy asks with the gloss, not a context, but keeps the same concept set (the paper's
   WordNetQA concepts are the synsets with example sentences) and, as in Table 2
   (``word(c, w1), word(c, w2)``), needs at least two distinct lemmas.
2. **GEN.** Unique (question, answer) pairs: definitions → the gloss; synonymy → the lemma set;
   hypernymy → every ``c' ∈ HOPS(c, ↑)`` up to ``max_hops`` (except too-general roots, see
   ``min_answer_depth``); hyponymy → up to ``max_hyponym_answers`` members of ``HOPS(c, ↓)``, spread
   over hop levels. ``variants`` unique questions per answer use different templates (and example
   sentences when the synset has several).
3. **Perturbations** (§3.1.1). Each unique question is asked with several distractor sets, one per
   distractor family (:mod:`mcqa_probes.builders.distractors`): always ``random``, plus up to
   ``max_perturbations - 1`` other families that have a valid member.
4. **Exactly one correct answer.** A distractor is rejected when it is the target itself, would
   also be correct (hypernymy: an ancestor of ``c`` at any depth; hyponymy: a descendant of ``c``),
   shares a lemma with the target or the answer (synonymy: a shared synonym; definitions: another
   sense of the same word), has the same gloss, or renders to the same text as another choice.

All questions about one concept in one probe form its semantic cluster (``cluster_key``).
"""
import random
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from mcqa_probes.builders.distractors import RANDOM, DistractorSampler, probe_families
from mcqa_probes.builders.draws import sample, shuffle
from mcqa_probes.builders.hops import Taxonomy, chain_text
from mcqa_probes.builders.probe_question import ProbeQuestion
from mcqa_probes.builders.templates import CHOICE_RENDERERS, contexts, render_stem, template_ids
from mcqa_probes.knowledge.graph import Concept, KnowledgeGraph, Relation

WORDNET_PROBES = ("definitions", "synonymy", "hypernymy", "hyponymy")

#: Defaults; every key can be overridden through ``settings``.
DEFAULT_SETTINGS: Dict[str, object] = {
    "max_hops": 5,
    "max_distractor_hops": 4,
    "sister_levels": [1, 2],
    "num_choices": 5,
    "pos": ["n", "v"],
    "variants": {"definitions": 2, "synonymy": 2, "hypernymy": 1, "hyponymy": 1},
    "max_hyponym_answers": 2,
    # ISA answers at least this deep (shortest path to a root): nouns skip entity / physical entity /
    # abstraction / object ... (depth ≤ 3), which are "correct" for almost every noun
    "min_answer_depth": {"n": 4, "v": 0},
    "max_perturbations": 4,
    "synonymy_min_lemmas": 1,
    # Choice-only control: ISA answers are more general (hypernymy) or more specific (hyponymy) than
    # concepts at large, so random distractors for the ISA probes are drawn from the probe's own
    # answer pool (concepts that are answers of some question), and a distractor family (sisters,
    # up/down) supplies at most this many distractors, the rest being such random answers.
    "isa_random_from_answers": True,
    "max_family_distractors": {"definitions": 4, "synonymy": 4, "hypernymy": 2, "hyponymy": 2},
}

RELATIONS = {
    "definitions": Relation.DEF.value,
    "synonymy": Relation.LEMMA.value,
    "hypernymy": Relation.ISA_UP.value,
    "hyponymy": Relation.ISA_DOWN.value,
}
ID_TAGS = {"definitions": "def", "synonymy": "syn", "hypernymy": "hypernym", "hyponymy": "hyponym"}

Progress = Callable[..., Iterable]


def _no_progress(iterable, **_kwargs):
    return iterable


def merged_settings(settings: Optional[dict] = None, defaults: Optional[dict] = None) -> dict:
    """``settings`` over ``defaults`` (the WordNet defaults unless given): a dict value updates the
    default's dict, any other value replaces it."""
    merged = {key: (dict(value) if isinstance(value, dict) else value)
              for key, value in (DEFAULT_SETTINGS if defaults is None else defaults).items()}
    for key, value in (settings or {}).items():
        if isinstance(merged.get(key), dict) and isinstance(value, dict):
            merged[key].update(value)
        else:
            merged[key] = value
    return merged


def _lower_lemmas(concept: Concept) -> frozenset:
    return frozenset(lemma.lower().replace("_", " ") for lemma in concept.lemmas)


class _Memo(dict):
    """A dict that makes a missing value with ``make(key)`` (and keeps it)."""

    def __init__(self, make: Callable[[str], str]):
        super().__init__()
        self.make = make

    def __missing__(self, key: str) -> str:
        value = self[key] = self.make(key)
        return value


def _gloss_key(concept: Concept) -> str:
    return " ".join(concept.definition.lower().split())


class WordNetQABuilder:
    """Builds the questions of the four WordNetQA probes over one graph (shared closures)."""

    def __init__(self, graph: KnowledgeGraph, settings: Optional[dict] = None, progress: Progress = _no_progress):
        self.graph = graph
        self.settings = merged_settings(settings)
        self.progress = progress
        self.taxonomy = Taxonomy(graph, max(int(self.settings["max_hops"]), int(self.settings["max_distractor_hops"])))
        pos = list(self.settings["pos"])
        self.random_pools = {p: graph.ids([p]) for p in sorted(set(pos))}
        self.sampler = DistractorSampler(self.taxonomy, self.random_pools)
        self._lemmas: Dict[str, frozenset] = {}
        self._contexts: Optional[Dict[str, List[Tuple[str, str]]]] = None

    # ------------------------------------------------------------------ concepts
    def lemmas(self, concept_id: str) -> frozenset:
        found = self._lemmas.get(concept_id)
        if found is None:
            found = self._lemmas[concept_id] = _lower_lemmas(self.graph[concept_id])
        return found

    def contexts(self) -> Dict[str, List[Tuple[str, str]]]:
        """Askable concepts → their ``(example, surface form)`` contexts (sorted by id)."""
        if self._contexts is None:
            found = {}
            for concept_id in self.progress(self.graph.ids(self.settings["pos"]), desc="contexts"):
                usable = contexts(self.graph[concept_id], self.graph.irregular_forms)
                if usable:
                    found[concept_id] = usable
            self._contexts = found
        return self._contexts

    # ------------------------------------------------------------------ GEN
    def answers(self, probe: str, concept_id: str, rng: random.Random) -> List[Tuple[str, Tuple[str, ...]]]:
        """``(answer concept, chain)`` pairs of one concept, in a fixed order."""
        settings = self.settings
        if probe in ("definitions", "synonymy"):
            return [(concept_id, (concept_id,))]
        max_hops = int(settings["max_hops"])
        if probe == "hypernymy":
            depth_limit = settings["min_answer_depth"]
            found = []
            for ancestor, chain in self.taxonomy.up(concept_id, max_hops).items():
                if self.taxonomy.depth(ancestor) >= int(depth_limit.get(self.graph[ancestor].pos, 0)):
                    found.append((ancestor, chain))
            return sorted(found, key=lambda item: (len(item[1]), item[0]))
        if probe == "hyponymy":
            levels = self.taxonomy.down_levels(concept_id, max_hops)
            limit = settings["max_hyponym_answers"]
            picked: List[str] = []
            if limit is None:
                picked = [c for level in levels for c in level]
            else:
                # one per hop level in turn (1, 2, ..., 1, 2, ...) so that answers spread over hops
                remaining = [list(level) for level in levels]
                while len(picked) < int(limit) and any(remaining):
                    for level in remaining:
                        if level and len(picked) < int(limit):
                            picked.append(level.pop(rng.randrange(len(level))))
            return [(c, tuple(reversed(self.taxonomy.up(c, max_hops)[concept_id]))) for c in picked]
        raise KeyError(f"not a WordNetQA probe: {probe!r}")

    def answer_pool(self, probe: str, concepts: Optional[List[str]] = None) -> Dict[str, List[str]]:
        """pos -> the answers of the ISA probe (of ``concepts``, by default every askable concept),
        each listed as often as it is an answer (sorted).

        Drawing random distractors uniformly from this list gives them the same distribution as
        the gold answers, so a choice-only model cannot learn which concepts tend to be answers
        (very general concepts such as *person* are the answer of thousands of questions).
        """
        pools: Dict[str, List[str]] = {}
        max_hops = int(self.settings["max_hops"])
        depth_limit = self.settings["min_answer_depth"]
        for concept_id in self.askable(probe) if concepts is None else concepts:
            if probe == "hypernymy":
                candidates = [a for a in self.taxonomy.up(concept_id, max_hops)
                              if self.taxonomy.depth(a) >= int(depth_limit.get(self.graph[a].pos, 0))]
            else:
                candidates = [c for level in self.taxonomy.down_levels(concept_id, max_hops) for c in level]
            for candidate in candidates:
                pools.setdefault(self.graph[candidate].pos, []).append(candidate)
        return {pos: sorted(members) for pos, members in sorted(pools.items())}

    def askable(self, probe: str) -> List[str]:
        ids = sorted(self.contexts())
        if probe == "synonymy":
            minimum = int(self.settings["synonymy_min_lemmas"])
            ids = [c for c in ids if len(self.lemmas(c)) >= minimum]
        return ids

    def valid_for(self, probe: str, concept_id: str, answer_id: str) -> Callable[[str], bool]:
        """The test a distractor must pass for this (concept, answer): no second correct answer."""
        graph, tax = self.graph, self.taxonomy
        blocked_lemmas = self.lemmas(concept_id) | self.lemmas(answer_id)
        blocked_glosses = {_gloss_key(graph[concept_id]), _gloss_key(graph[answer_id])}
        minimum = int(self.settings["synonymy_min_lemmas"])

        def valid(other: str) -> bool:
            if other in (concept_id, answer_id):
                return False
            if self.lemmas(other) & blocked_lemmas or _gloss_key(graph[other]) in blocked_glosses:
                return False
            if probe == "hypernymy" and tax.is_ancestor(other, concept_id):
                return False
            if probe == "hyponymy" and tax.is_ancestor(concept_id, other):
                return False
            if probe == "synonymy" and len(self.lemmas(other)) < minimum:
                return False
            return True

        return valid

    # ------------------------------------------------------------------ what another source changes
    def kind(self, probe: str) -> str:
        """Which of the four WordNetQA probes ``probe`` is built as (a relation probe over an ontology
        is built as hypernymy over that relation)."""
        if probe not in WORDNET_PROBES:
            raise KeyError(f"not a WordNetQA probe: {probe!r} (expected one of {', '.join(WORDNET_PROBES)})")
        return probe

    def choice_key(self, text: str) -> str:
        """What two choices of one question may not share: their text in lower case."""
        return text.lower()

    def choice_renderer(self, probe: str) -> Callable[[Concept], str]:
        return CHOICE_RENDERERS[self.kind(probe)]

    def probe_templates(self, probe: str) -> List[str]:
        return template_ids(self.kind(probe))

    def families(self, probe: str):
        return probe_families(self.kind(probe), self.settings["sister_levels"], int(self.settings["max_distractor_hops"]))

    def concepts_to_ask(self, probe: str) -> List[str]:
        return self.askable(self.kind(probe))

    def question_text(self, probe: str, concept_id: str, answer_id: str, chain: Tuple[str, ...], template_id: str,
                      index: int, variant: int) -> Optional[Tuple[str, Dict[str, object], Optional[str]]]:
        """``(stem, notes, answer text or None for the rendered answer)`` of one question, or None to
        drop it. WordNet: a context frame around an example sentence of the concept."""
        concept = self.graph[concept_id]
        usable = self.contexts()[concept_id]
        sentence, form = usable[(index + variant) % len(usable)]
        stem = render_stem(probe, template_id, sentence=sentence, word=form, definition=concept.definition)
        notes = {
            "surface_form": form,
            "gold_synset": concept_id,
            "answer_synset": answer_id,
            "chain": chain_text(chain, "up") if probe == "hypernymy" else chain_text(
                chain if probe == "hyponymy" else (concept_id, concept_id), "down"
            ),
            "hops": len(chain) - 1,
            "pos": concept.pos,
            "relation": RELATIONS[probe],
            "synset_id": concept.number,
            "cluster": f"{probe}:{concept_id}",
            "context": sentence if probe != "synonymy" else "",
            "template": template_id,
            "source": self.graph.source,
            "version": self.graph.version,
        }
        return stem, notes, None

    def family_notes(self, notes: Dict[str, object], family, selection, choice_ids: List[str]) -> None:
        """Add what the distractors are to ``notes`` (``choice_ids``: the concepts of the choices, in order)."""
        notes["distractor_type"] = self.family_type(family)
        if family != RANDOM:
            notes["distractor_hops"] = family.depth
        notes["distractor_chain"] = ";".join(selection.chains)
        notes["random_distractors"] = selection.from_random
        notes["other_distractors"] = selection.from_family
        self.choice_id_notes(notes, choice_ids)

    def family_label(self, family) -> str:
        """The family's part of a question's id (``sister1``, ``hyponym2``): its label."""
        return family.label

    def family_type(self, family) -> str:
        """``notes.distractor_type`` of a family: its name."""
        return family.name

    def choice_id_notes(self, notes: Dict[str, object], choice_ids: List[str]) -> None:
        """The concepts of the choices in ``notes`` (WordNet: ``distractor_synsets``, the released name)."""
        notes["distractor_synsets"] = choice_ids

    # ------------------------------------------------------------------ one probe
    def build(self, probe: str, rng: random.Random) -> List[ProbeQuestion]:
        kind = self.kind(probe)
        settings = self.settings
        render = self.choice_renderer(probe)
        families = self.families(probe)
        templates = self.probe_templates(probe)
        variants = int(settings["variants"].get(probe, settings["variants"].get(kind, 1)))
        max_perturbations = settings["max_perturbations"]
        count = int(settings["num_choices"]) - 1
        graph = self.graph
        # concept -> its choice text, and that text's key (two choices may not share one: choice_key):
        # made on first use and read by the dicts' own lookup (the builds' most frequent call)
        text_of = _Memo(lambda concept_id: render(graph[concept_id])).__getitem__
        choice_key = self.choice_key
        key_of = _Memo(lambda concept_id: choice_key(text_of(concept_id))).__getitem__

        max_family = settings["max_family_distractors"]
        max_family = int(max_family.get(kind, count)) if isinstance(max_family, dict) else int(max_family)
        self.summary = {"concepts": 0, "no_valid_distractors": 0}
        to_ask = self.concepts_to_ask(probe)
        use_answer_pool = kind in ("hypernymy", "hyponymy") and settings["isa_random_from_answers"]
        self.sampler.random_pools = self.answer_pool(kind, to_ask) if use_answer_pool else self.random_pools
        self.sampler.max_from_family = max_family
        questions: List[ProbeQuestion] = []
        with_pools: Dict[str, list] = {}
        getrandbits = rng.getrandbits
        summary, answers, valid_for = self.summary, self.answers, self.valid_for
        question_text, perturbations, family_notes = self.question_text, self._perturbations, self.family_notes
        family_label = self.family_label
        chosen_count = min(variants, len(templates))
        for concept_id in self.progress(to_ask, desc=f"{probe}"):
            concept = graph[concept_id]
            cluster_key = f"{probe}:{concept_id}"
            prefix = f"{probe}-{concept.number}-"
            pos = concept.pos
            index = 0
            made_before = len(questions)
            for answer_id, chain in answers(kind, concept_id, rng):
                answer_text = text_of(answer_id)
                valid = valid_for(kind, concept_id, answer_id)
                for variant, template_id in enumerate(sample(getrandbits, templates, chosen_count)):
                    made = question_text(probe, concept_id, answer_id, chain, template_id, index, variant)
                    if made is None:
                        continue
                    stem, base_notes, own_answer = made
                    shown_answer = answer_text if own_answer is None else own_answer
                    seen_sets = set()
                    found = perturbations(rng, families, max_perturbations, concept_id, pos, valid, key_of,
                                          choice_key(shown_answer), count, with_pools)
                    if not found:
                        summary["no_valid_distractors"] += 1
                    for family, selection in found:
                        ids = selection.ids
                        key = frozenset(ids)
                        if key in seen_sets:
                            continue
                        seen_sets.add(key)
                        choices = [shown_answer, *map(text_of, ids)]
                        order = list(range(len(choices)))
                        shuffle(getrandbits, order)
                        notes = dict(base_notes)
                        family_notes(notes, family, selection, [ids[i - 1] if i else answer_id for i in order])
                        questions.append(ProbeQuestion(f"{prefix}{index}-{family_label(family)}", probe, stem,
                                                       [choices[i] for i in order], order.index(0), concept_id,
                                                       cluster_key, notes))
                    index += 1
            summary["concepts"] += len(questions) > made_before     # asked: one question kept at least
        return questions

    def _perturbations(self, rng, families, max_perturbations, concept_id, pos, valid, key_of, answer_key, count,
                       with_pools):
        """``(family, selection)`` for random plus up to ``max_perturbations - 1`` other families
        (``with_pools``: a dict, kept by the caller for one probe, of each concept's families that have
        candidates)."""
        if concept_id not in with_pools:     # pools memoised
            with_pools[concept_id] = [f for f in families if f.name != "random" and self.sampler.pool(concept_id, f)]
        others = list(with_pools[concept_id])
        shuffle(rng.getrandbits, others)
        wanted = len(others) if max_perturbations is None else int(max_perturbations) - 1
        found = []
        selection = self.sampler.select(rng, concept_id, pos, RANDOM, valid, key_of, [answer_key], count)
        if selection is not None:
            found.append((RANDOM, selection))
        taken = 0
        for family in others:
            if taken >= wanted:
                break
            selection = self.sampler.select(rng, concept_id, pos, family, valid, key_of, [answer_key], count)
            if selection is not None:
                found.append((family, selection))
                taken += 1
        return sorted(found, key=lambda item: item[0].sort_key)
