"""DISTR (TACL paper §3.1): distractor families and the sampler that fills a 5-way question.

Families (a *perturbation* of a question uses one of them, topped up with random concepts):

* ``random``: 4 concepts of the same part of speech drawn at random;
* ``sister`` ℓ (ℓ = 1, 2): ``SISTER_ℓ(c) \\ SISTER_{ℓ-1}(c)`` (ℓ = 1: the sisters; ℓ = 2: their children);
* ``hypernym`` k' (1..4): ancestors of ``c`` at exactly k' hops (``HOPS(c, ↑)``);
* ``hyponym`` k' (1..4): descendants of ``c`` at exactly k' hops (``HOPS(c, ↓)``).

Which families a probe uses (paper §3.1): hypernymy draws from ``HOPS(c, ↓)`` and sisters,
hyponymy symmetrically from ``HOPS(c, ↑)`` and sisters, definitions and synonymy from all of them
(with the same depth limits). A candidate is kept only if the probe's validity test accepts it
(no second correct answer, see :mod:`mcqa_probes.builders.wordnetqa`) and its rendered text
differs from every choice already taken.
"""
import functools
import random
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence

from mcqa_probes.builders.draws import below, shuffle
from mcqa_probes.builders.hops import Taxonomy, chain_text, sister_chain_text


@dataclass(frozen=True, order=True)
class Family:
    name: str                 # random | sister | hypernym | hyponym
    depth: Optional[int] = None

    @functools.cached_property
    def label(self) -> str:
        """``random``, ``sister1``, ``hyponym2``, ... (made once: every question's id has it)."""
        return self.name if self.depth is None else f"{self.name}{self.depth}"

    @functools.cached_property
    def sort_key(self):
        """The dataclass order as a plain tuple (cheaper to compare than the dataclass)."""
        return (self.name, -1 if self.depth is None else self.depth)


RANDOM = Family("random")


def probe_families(probe: str, sister_levels: Sequence[int] = (1, 2), max_distractor_hops: int = 4) -> List[Family]:
    """The distractor families of a probe, random first."""
    sisters = [Family("sister", level) for level in sister_levels]
    up = [Family("hypernym", k) for k in range(1, max_distractor_hops + 1)]
    down = [Family("hyponym", k) for k in range(1, max_distractor_hops + 1)]
    if probe == "hypernymy":
        return [RANDOM] + sisters + down
    if probe == "hyponymy":
        return [RANDOM] + sisters + up
    if probe in ("definitions", "synonymy"):
        return [RANDOM] + sisters + up + down
    raise KeyError(f"no distractor families for probe {probe!r}")


@dataclass
class Selection:
    """The distractors of one perturbation: ids, where each came from, and its chain."""

    family: Family
    ids: List[str]
    from_family: List[str]
    from_random: List[str]
    chains: List[str]


class DistractorSampler:
    """Draws distractor concepts for a target concept, family by family (deterministic given ``rng``)."""

    #: a family pool larger than this is sampled by index instead of being shuffled whole
    SHUFFLE_LIMIT = 64
    RANDOM_TRIES = 200

    def __init__(self, taxonomy: Taxonomy, random_pools: Dict[str, List[str]]):
        self.taxonomy = taxonomy
        self.random_pools = random_pools
        #: at most this many distractors come from a non-random family (the rest are random)
        self.max_from_family: Optional[int] = None

    @property
    def taxonomy(self) -> Taxonomy:
        return self._taxonomy

    @taxonomy.setter
    def taxonomy(self, taxonomy: Taxonomy) -> None:
        self._taxonomy = taxonomy
        self._pools: Dict[tuple, List[str]] = {}      # the pools depend only on the taxonomy

    def pool(self, concept: str, family: Family) -> Sequence[str]:
        """Sorted candidate ids of a family (before the validity test; memoised, not to be changed)."""
        key = (concept, family.name, family.depth)
        found = self._pools.get(key)
        if found is None:
            found = self._pools[key] = self._pool(concept, family)
        return found

    def _pool(self, concept: str, family: Family) -> Sequence[str]:
        tax = self.taxonomy
        if family.name == "sister":
            return tax.sister_pool(concept, family.depth)
        if family.name == "hypernym":
            levels = tax.up_levels(concept, family.depth)
            return levels[family.depth - 1] if len(levels) >= family.depth else []
        if family.name == "hyponym":
            levels = tax.down_levels(concept, family.depth)
            return levels[family.depth - 1] if len(levels) >= family.depth else []
        return []

    def chain(self, concept: str, family: Family, other: str) -> str:
        tax = self.taxonomy
        if family.name == "sister":
            return sister_chain_text(tax.sister_chain(concept, family.depth, other))
        if family.name == "hypernym":
            return chain_text(tax.up(concept, max(family.depth, tax.max_hops))[other], "up")
        if family.name == "hyponym":
            return chain_text(tuple(reversed(tax.up(other, max(family.depth, tax.max_hops))[concept])), "down")
        return ""

    def _candidates(self, rng: random.Random, pool: Sequence[str]):
        if len(pool) <= self.SHUFFLE_LIMIT:
            order = list(pool)
            shuffle(rng.getrandbits, order)
            yield from order
        else:
            seen = set()
            getrandbits, size = rng.getrandbits, len(pool)
            for _ in range(self.SHUFFLE_LIMIT):
                index = below(getrandbits, size)
                if index not in seen:
                    seen.add(index)
                    yield pool[index]

    def select(
        self,
        rng: random.Random,
        concept: str,
        pos: str,
        family: Family,
        valid: Callable[[str], bool],
        key_of: Callable[[str], str],
        taken_keys: Sequence[str],
        count: int = 4,
    ) -> Optional[Selection]:
        """Up to ``count`` valid members of ``family``, topped up with random valid concepts.

        ``key_of(candidate)`` is the key of its choice's text (the builder's ``choice_key``: the text in
        lower case for WordNet): no two choices (``taken_keys``, the answer's, included) may have the
        same. Returns None when a non-random family has no valid member, or when not enough random
        concepts can be found.
        """
        taken = set(taken_keys)
        chosen: List[str] = []
        from_family: List[str] = []
        chains: List[str] = []

        def accept(candidate: str) -> bool:
            """Take a candidate that is new, valid and whose text differs from every choice's."""
            if candidate in chosen or not valid(candidate):
                return False
            text = key_of(candidate)
            if text in taken:
                return False
            taken.add(text)
            chosen.append(candidate)
            return True

        if family.name != "random":
            wanted = min(count, self.max_from_family or count)
            for candidate in self._candidates(rng, self.pool(concept, family)):
                if accept(candidate):
                    from_family.append(candidate)
                    chains.append(self.chain(concept, family, candidate))
                    if len(chosen) == wanted:
                        break
            if not from_family:
                return None
        randoms = self.random_pools.get(pos, [])
        from_random: List[str] = []
        if randoms and len(chosen) < count:
            size, getrandbits = len(randoms), rng.getrandbits
            bits = size.bit_length()
            tries = 0
            while len(chosen) < count and tries < self.RANDOM_TRIES:
                tries += 1
                index = getrandbits(bits)              # below(getrandbits, size), written out
                while index >= size:
                    index = getrandbits(bits)
                if accept(randoms[index]):
                    from_random.append(randoms[index])
        if len(chosen) < count:
            return None
        return Selection(family, chosen, from_family, from_random, chains)
