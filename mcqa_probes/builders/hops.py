"""ISA closures over a :class:`KnowledgeGraph` (TACL paper §3.1).

* ``HOPS(c, r)``: every concept reachable from ``c`` along ``isa↑`` (r = up) or ``isa↓`` (r = down),
  with its hop count (length of the *shortest* path) and that path (the ``chain`` in ``notes``),
  up to ``max_hops``;
* ``SISTER_ℓ(c)``: the other children ``c̃ ≠ c`` of each parent of ``c`` (ℓ = 1), plus their
  descendants up to ``ℓ − 1`` levels (ℓ > 1);
* the unbounded ancestor set of ``c``, used to reject a distractor that would be a second correct
  answer (a hypernym of ``c`` at any depth, or — seen from the other side — a hyponym of ``c``).

Results are memoised per concept; iteration is over sorted ids, so every result has one order.
"""
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Tuple

from mcqa_probes.knowledge.graph import KnowledgeGraph, parents_first, reachable

Chain = Tuple[str, ...]


class Taxonomy:
    """Memoised ISA closures over one graph."""

    def __init__(self, graph: KnowledgeGraph, max_hops: int = 5):
        if max_hops < 1:
            raise ValueError(f"max_hops must be at least 1, got {max_hops}")
        self.graph = graph
        self.max_hops = max_hops
        self._up_paths: Dict[Tuple[str, int], Dict[str, Chain]] = {}
        self._down_levels: Dict[str, Tuple[int, List[List[str]]]] = {}
        self._ancestors: Dict[str, FrozenSet[str]] = {}
        self._depth: Dict[str, int] = {}
        self._sisters: Dict[Tuple[str, int], Dict[str, Chain]] = {}
        self._layers: Dict[Tuple[str, int], Dict[str, Chain]] = {}
        self._up_levels: Dict[Tuple[str, int], List[List[str]]] = {}
        self._niece_paths: Dict[Tuple[str, int], Dict[str, Chain]] = {}
        self._implied = bool(getattr(graph, "has_implied", lambda: False)())
        self._families: Dict[Tuple[str, int], Dict[str, Chain]] = {}
        self._family_layers: Dict[Tuple[str, int], Tuple[List[str], Dict[str, int]]] = {}
        self._descendants: Dict[str, FrozenSet[str]] = {}
        self._pool_parent_lists: Dict[str, Optional[List[str]]] = {}

    # ------------------------------------------------------------------ closures
    def _bfs(self, concept: str, step, limit: int) -> Dict[str, Chain]:
        """Shortest paths from ``concept`` (breadth first; ties broken by sorted ids)."""
        paths: Dict[str, Chain] = {concept: (concept,)}
        frontier = [concept]
        for _ in range(limit):
            following = []
            for node in frontier:
                for neighbour in sorted(step(node)):
                    if neighbour not in paths:
                        paths[neighbour] = paths[node] + (neighbour,)
                        following.append(neighbour)
            if not following:
                break
            frontier = following
        del paths[concept]
        return paths

    def up(self, concept: str, max_hops: int = None) -> Dict[str, Chain]:
        """``HOPS(c, ↑)``: ancestor → shortest chain ``(c, ..., ancestor)``; hops = ``len(chain) - 1``."""
        limit = self.max_hops if max_hops is None else max_hops
        key = (concept, limit)
        if key not in self._up_paths:
            self._up_paths[key] = self._bfs(concept, self.graph.hypernyms, limit)
        return self._up_paths[key]

    def down(self, concept: str, max_hops: int = None) -> Dict[str, Chain]:
        """``HOPS(c, ↓)``: descendant → shortest chain ``(c, ..., descendant)`` (not memoised)."""
        return self._bfs(concept, self.graph.hyponyms, self.max_hops if max_hops is None else max_hops)

    def down_levels(self, concept: str, max_hops: int) -> List[List[str]]:
        """Descendants by exact (shortest) distance: ``levels[k-1]`` = sorted ids at ``k`` hops."""
        cached = self._down_levels.get(concept)
        if cached is None or cached[0] < max_hops:
            limit = max(max_hops, self.max_hops)
            seen = {concept}
            levels: List[List[str]] = []
            frontier = [concept]
            for _ in range(limit):
                following = sorted({child for node in frontier for child in self.graph.hyponyms(node)} - seen)
                if not following:
                    break
                seen.update(following)
                levels.append(following)
                frontier = following
            cached = self._down_levels[concept] = (limit, levels)
        return cached[1][:max_hops]

    def up_levels(self, concept: str, max_hops: int) -> List[List[str]]:
        """Ancestors by exact (shortest) distance: ``levels[k-1]`` = sorted ids at ``k`` hops (memoised)."""
        key = (concept, max_hops)
        found = self._up_levels.get(key)
        if found is None:
            found = self._up_levels[key] = self._compute_up_levels(concept, max_hops)
        return found

    def _compute_up_levels(self, concept: str, max_hops: int) -> List[List[str]]:
        limit = max(max_hops, self.max_hops)
        levels: List[List[str]] = [[] for _ in range(limit)]
        for ancestor, chain in self.up(concept, limit).items():
            levels[len(chain) - 2].append(ancestor)
        levels = levels[:max_hops]
        while levels and not levels[-1]:
            levels.pop()
        return [sorted(level) for level in levels]

    def ancestors(self, concept: str) -> FrozenSet[str]:
        """All ancestors at any depth (``isa↑*``), without ``concept`` itself; over a graph whose source
        has logical axioms, the parents they entail too (``implied_hypernyms``: an intersection's
        named class, an equivalent class), which may form cycles."""
        found = self._ancestors.get(concept)
        if found is None and self._implied:
            up, implied = self.graph.hypernyms, self.graph.implied_hypernyms
            found = self._ancestors[concept] = frozenset(reachable(concept, lambda c: (*up(c), *implied(c))))
        if found is None:
            up, memo = self.graph.hypernyms, self._ancestors
            for node in parents_first(concept, up, memo):
                collected = set()
                for parent in up(node):
                    collected.add(parent)
                    collected.update(memo[parent])
                memo[node] = frozenset(collected)
            found = memo[concept]
        return found

    def is_ancestor(self, ancestor: str, concept: str) -> bool:
        return ancestor in self.ancestors(concept)

    def depth(self, concept: str) -> int:
        """Length of the shortest ``isa↑`` path to a root (a root has depth 0)."""
        found = self._depth.get(concept)
        if found is None:
            up, memo = self.graph.hypernyms, self._depth
            for node in parents_first(concept, up, memo):
                parents = up(node)
                memo[node] = 1 + min(memo[parent] for parent in parents) if parents else 0
            found = memo[concept]
        return found

    # ------------------------------------------------------------------ sisters
    def sisters(self, concept: str, level: int) -> Dict[str, Chain]:
        """``SISTER_ℓ(c)``: sister → chain ``(c, parent, sister, ...)``, ℓ = ``level`` ≥ 1.

        Excludes ``c`` itself and its own ancestors/descendants (possible under multiple inheritance).
        """
        if level < 1:
            raise ValueError(f"sister level must be at least 1, got {level}")
        key = (concept, level)
        if key in self._sisters:
            return self._sisters[key]
        found: Dict[str, Chain] = {}
        for parent in sorted(self.graph.hypernyms(concept)):
            for sister in sorted(self.graph.hyponyms(parent)):
                if sister == concept:
                    continue
                if sister not in found:
                    found[sister] = (concept, parent, sister)
                if level > 1:
                    for niece, chain in self._nieces(sister, level - 1).items():
                        if niece not in found and niece != concept:
                            found[niece] = (concept, parent) + (sister,) + chain[1:]
        mine = self.ancestors(concept)
        result = self._sisters[key] = {
            other: chain
            for other, chain in sorted(found.items())
            if other not in mine and concept not in self.ancestors(other)
        }
        return result

    def _nieces(self, sister: str, limit: int) -> Dict[str, Chain]:
        """``HOPS(sister, ↓)`` up to ``limit``, memoised: the children of a parent are the sisters of
        each other, so every one of them asks for the descendants of all the others."""
        key = (sister, limit)
        found = self._niece_paths.get(key)
        if found is None:
            found = self._niece_paths[key] = self._bfs(sister, self.graph.hyponyms, limit)
        return found

    # ------------------------------------------------------------------ sister pools, shared per parent
    def sister_pool(self, concept: str, level: int) -> Sequence[str]:
        """The ids of :meth:`sister_layer`, sorted: what the distractor sampler draws from, made from
        the parents' families (every child and their descendants, built once per parent). A concept
        with one parent reads its parent's family without itself, its ancestors and its descendants,
        in place: a parent with k children costs k, not k² (a flat hierarchy); one with several
        parents takes the union of their families (set operations). A relation view's pools are
        :meth:`sister_layer`'s."""
        parents = self._pool_parents(concept)
        if parents is None:
            return list(self.sister_layer(concept, level))
        ancestors, descendants = self.ancestors(concept), self.descendants(concept)
        if len(parents) == 1:
            keys, positions = self._family_layer(parents[0], level)
            gone = {positions[other] for other in (concept, *ancestors) if other in positions}
            if len(descendants) < len(positions):
                gone.update(positions[other] for other in descendants if other in positions)
            else:        # a concept high up: its descendants outnumber the family
                gone.update(position for other, position in positions.items() if other in descendants)
            return _Without(keys, sorted(gone)) if gone else keys
        left_out = (concept, *ancestors, *descendants)
        # several parents: the union of their families' layers (what sisters() walks, one parent
        # after another), less what an earlier level of any of them holds
        members = set().union(*(self._family(parent, level) for parent in parents))
        if level > 1:
            members.difference_update(*(self._family(parent, level - 1) for parent in parents))
        members.difference_update(left_out)
        return sorted(members)

    def sister_chain(self, concept: str, level: int, other: str) -> Chain:
        """The chain of ``other`` in :meth:`sister_layer` (``other`` from :meth:`sister_pool`): from
        the first parent, in sorted order, whose family holds it (as :meth:`sisters` finds it first)."""
        parents = self._pool_parents(concept)
        if parents is None:
            return self.sister_layer(concept, level)[other]
        for parent in parents:
            tail = self._family(parent, level).get(other)
            if tail is not None:
                return (concept,) + tail
        raise KeyError(other)

    def _pool_parents(self, concept: str) -> Optional[List[str]]:
        """The sorted parents of a concept whose sister pools are read from its parents' families:
        any concept of an is-a hierarchy with a parent (not a relation view, whose ancestors may be
        its direct links only)."""
        found = self._pool_parent_lists.get(concept, ())
        if found == ():
            parents = self.graph.hypernyms(concept) if type(self) is Taxonomy else ()
            found = self._pool_parent_lists[concept] = sorted(parents) if parents else None
        return found

    def _family(self, parent: str, level: int) -> Dict[str, Chain]:
        """Every child of ``parent`` and its descendants up to ``level - 1`` hops, each with the tail
        ``(parent, child, ...)`` of the path from the first child, in sorted order, that reaches it: as
        :meth:`sisters` finds them for any one child, save that child's own descendants."""
        key = (parent, level)
        found = self._families.get(key)
        if found is None:
            found = {}
            for sister in sorted(self.graph.hyponyms(parent)):
                if sister not in found:
                    found[sister] = (parent, sister)
                if level > 1:
                    for niece, chain in self._nieces(sister, level - 1).items():
                        if niece not in found:
                            found[niece] = (parent, sister) + chain[1:]
            self._families[key] = found
        return found

    def _family_layer(self, parent: str, level: int) -> Tuple[List[str], Dict[str, int]]:
        """The sorted ids first reached at ``level`` in the parent's family, and their positions."""
        key = (parent, level)
        found = self._family_layers.get(key)
        if found is None:
            ids = set(self._family(parent, level))
            if level > 1:
                ids -= set(self._family(parent, level - 1))
            keys = sorted(ids)
            found = self._family_layers[key] = (keys, {other: i for i, other in enumerate(keys)})
        return found

    def descendants(self, concept: str) -> FrozenSet[str]:
        """Every concept below ``concept`` (``isa↓*``, and the implied children of :meth:`ancestors`),
        memoised: exactly the concepts that have ``concept`` among their ancestors."""
        found = self._descendants.get(concept)
        if found is None:
            down = self.graph.hyponyms
            implied = self.graph.implied_hyponyms if self._implied else (lambda c: ())
            found = self._descendants[concept] = frozenset(reachable(concept, lambda c: (*down(c), *implied(c))))
        return found

    def sister_layer(self, concept: str, level: int) -> Dict[str, Chain]:
        """``SISTER_ℓ(c) \\ SISTER_{ℓ-1}(c)``: the sisters first reached at depth ℓ."""
        key = (concept, level)
        found = self._layers.get(key)
        if found is None:
            current = self.sisters(concept, level)
            if level == 1:
                found = current
            else:
                previous = self.sisters(concept, level - 1)
                found = {other: chain for other, chain in current.items() if other not in previous}
            self._layers[key] = found
        return found


class _Without(Sequence):
    """A sorted list with a few of its items left out (their positions, ascending), read in place: the
    sister pool of one child is its parent's family without the child and its descendants."""

    def __init__(self, items: List[str], gone: List[int]):
        self.items, self.gone = items, gone

    def __len__(self) -> int:
        return len(self.items) - len(self.gone)

    def __getitem__(self, index: int) -> str:
        if not 0 <= index < len(self):
            raise IndexError(index)
        for position in self.gone:          # skip every gap at or before the index reached so far
            if position <= index:
                index += 1
            else:
                break
        return self.items[index]

    def __iter__(self) -> Iterator[str]:
        gone = set(self.gone)
        return (item for position, item in enumerate(self.items) if position not in gone)


def chain_text(chain: Chain, direction: str) -> str:
    """``a=>b=>c`` for an upward chain, ``a<=b<=c`` for a downward one (the released notation)."""
    return ("=>" if direction == "up" else "<=").join(chain)


def sister_chain_text(chain: Chain) -> str:
    """``c=>parent<=sister[<=niece]``: up to the shared parent, then down."""
    return chain[0] + "=>" + "<=".join(chain[1:])
