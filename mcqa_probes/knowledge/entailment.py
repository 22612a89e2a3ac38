"""What a source's logical axioms entail beyond its parent edges, into a graph's implied edges.

Two things a checker that reasons over the axioms finds and the parent edges do not say:

* **ranges**: ``C located_in D`` with located_in's range *site* is ``C located_in some site``
  (:func:`range_links`);
* **inverses**: ``C part_of D`` with part_of the inverse of has_part is ``D has_part C`` to a reader
  (:func:`inverse_links`);
* **sub-relations**: ``C member_of D`` with ``member_of`` a sub-relation of ``part_of`` (OWL
  ``rdfs:subPropertyOf``, an OBO Typedef's ``is_a``) is also ``C part_of D``
  (:func:`sub_relation_links`);
* **classification under defined classes**: ``C = G and R some D`` (OBO ``intersection_of``, OWL
  ``owl:equivalentClass [owl:intersectionOf ...]``, unions of named classes among the conjuncts)
  holds for every class under ``G`` that has ``R some D'`` (itself or through an ancestor) with
  ``D'`` under ``D`` and its relation ``R`` or a sub-relation of it: *margherita* (a pizza with
  ``has_topping some mozzarella``) is a *cheesy pizza* (:func:`classify`). This is the structural
  subsumption of the EL profile over named classes: a class outside the source leaves the
  definition out, and nothing is classified under it; a reader gives a definition with a conjunct it
  does not understand (``only``, ``not``, a cardinality) as the part it understands, which covers
  more classes (:attr:`mcqa_probes.knowledge.ontology.SourceData.partial_definitions`).

Both go into the graph's implied edges: they keep second correct answers out of the distractors and
are never asked as answers (:meth:`mcqa_probes.knowledge.graph.KnowledgeGraph.implied_hypernyms`).
"""
from collections import defaultdict
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from mcqa_probes.knowledge.graph import KnowledgeGraph, reachable

Definition = Tuple[str, Sequence[str], Sequence[Tuple[str, str]], Sequence[Sequence[str]]]


def super_relations(relation_parents: Dict[str, List[str]]) -> Dict[str, Set[str]]:
    """``relation -> every relation above it`` (without itself; cycles allowed)."""
    return {relation: reachable(relation, lambda r: relation_parents.get(r, ())) for relation in relation_parents}


def sub_relation_links(links: Iterable[Tuple[str, str, str]], relation_parents: Dict[str, List[str]]
                       ) -> List[Tuple[str, str, str]]:
    """``(subject, super-relation, object)`` for every link whose relation has super-relations."""
    supers = super_relations(relation_parents)
    return sorted({(subject, above, obj) for subject, relation, obj in links for above in supers.get(relation, ())})


def range_links(links: Iterable[Tuple[str, str, str, object]], relation_ranges: Dict[str, List[str]],
                relation_parents: Dict[str, List[str]]) -> List[Tuple[str, str, str, object]]:
    """``(subject, relation, class, line)`` for every link ``subject r object`` whose relation ``r``, or a
    relation above it, has a range: ``coral reef situated_in mangrove`` with situated_in under
    located_in and located_in's range *site* is ``coral reef located_in some site`` (OWL: the object of a
    property is in its range). For the validity closures only: the class and its ancestors are
    correct answers for the subject, never asked."""
    if not relation_ranges:
        return []
    supers = super_relations(relation_parents)
    found = {(subject, above, kind, line) for subject, relation, obj, line in links
             for above in (relation, *sorted(supers.get(relation, ()))) for kind in relation_ranges.get(above, ())
             if kind != obj and kind != subject}
    return sorted(found, key=lambda link: link[:3])


def inverse_links(links: Iterable[Tuple[str, str, str]], inverses: Dict[str, List[str]]) -> List[Tuple[str, str, str]]:
    """``(object, S, subject)`` for every link ``subject R object`` of a relation ``R`` declared the inverse
    of ``S`` (``inverses``: both ways; OBO ``inverse_of``, OWL ``owl:inverseOf``). A reader of "'river'
    has part" takes a *river mouth*, part of a river, for a correct answer, though OWL entails no
    ``has_part`` from ``part_of`` between classes: for the validity closures only, never asked."""
    return sorted({(obj, other, subject) for subject, relation, obj in links for other in inverses.get(relation, ())
                   if obj != subject})


def composition_rules(chains: Dict[str, List[List[str]]], transitive: Iterable[str]
                      ) -> Tuple[Dict[Tuple[object, str], Set[object]], Set[str]]:
    """The property chains and transitive relations as rules ``(left, right) -> results``: a link of
    ``left`` followed by one of ``right`` is a link of each result (``R`` transitive: ``(R, R) -> R``;
    ``R transitive_over S``, the chain ``R S``: ``(R, S) -> R``; ``holds_over_chain P Q`` of ``R``: ``(P,
    Q) -> R``). A chain of three or more goes through the pseudo-relations of its first steps (the tuple
    of them), which a transitive step may repeat (``P Q Q`` is ``P Q`` where ``Q`` is transitive).
    Returns the rules and the relations whose chains have a step that has chains of its own (nested:
    their closure is not walked exactly, :func:`classify`)."""
    transitive = set(transitive)
    rules: Dict[Tuple[object, str], Set[object]] = defaultdict(set)
    for relation in transitive:
        rules[(relation, relation)].add(relation)
    nested: Set[str] = set()
    for result, of_result in chains.items():
        for chain in of_result:
            if len(chain) < 2:
                continue
            if any(step in chains and step != result for step in chain):
                nested.add(result)
            left: object = chain[0]
            for index, step in enumerate(chain[1:], 1):
                target: object = result if index == len(chain) - 1 else tuple(chain[:index + 1])
                rules[(left, step)].add(target)
                if step in transitive:
                    rules[(target, step)].add(target)
                left = target
    return rules, nested


def classify(graph: KnowledgeGraph, definitions: Iterable[Definition], relation_parents: Dict[str, List[str]],
             max_rounds: int = 10, transitive: Iterable[str] = (),
             through: Optional[Dict[str, List[str]]] = None,
             starts: Optional[Dict[str, Set[str]]] = None,
             chains: Optional[Dict[str, List[List[str]]]] = None,
             outside: Iterable[Tuple[str, str, str]] = ()) -> List[Tuple[str, str]]:
    """Add ``X -> C`` to the graph's implied parents for every concept X that a definition of C
    covers (see the module docstring), round after round until nothing new is found (a class
    classified under one definition can fall under another); returns the edges added, sorted.
    ``R some D`` holds over the closure of ``R`` where ``R`` is ``transitive`` or has property
    chains (``through``: :func:`chain_relations`): *hand* ``part_of`` *arm* ``part_of`` *body* is a
    ``part_of some body`` class. ``starts`` (:func:`chain_starts`): the relations such a path may begin
    with, where the chains say (``develops_from`` transitive over ``part_of``: a path from X begins with
    a develops_from link; a part_of link alone makes no develops_from one). ``chains``
    (:func:`relation_chains`): where given, a path is a link of the relation only as the chains and
    transitivity compose it (:func:`composition_rules`: ``holds_over_chain: negatively_regulates
    negatively_regulates`` of ``positively_regulates`` makes no single negatively_regulates link a
    positively_regulates one; was: every *negative regulation of X* of GO classified under *positive
    regulation of X*); a relation whose chains nest keeps the walk over every relation of its chains.
    ``outside``: ``(concept, is_a or relation, target)`` edges to targets the source never defines (a
    filler from another ontology: GO's *CHEBI:…*, *UBERON:…*), which the graph has not: a definition
    that names such a target covers the concepts with an edge to it, as OWL has it (was: the
    definition left out, and a class it covers offered as a wrong answer). No such target is classified."""
    supers = super_relations(relation_parents)
    transitive = set(transitive)
    chained = {relation: (relation, *(through or {}).get(relation, ()))
               for relation in {*transitive, *(through or {})}}
    rules, nested = composition_rules(chains, transitive) if chains is not None else ({}, set())
    outside = [edge for edge in outside if edge[0] in graph]
    named = {target for _, _, target in outside}
    usable = []
    for defined, genus, differentia, unions in definitions:
        unions = [[m for m in union if m in graph or m in named] for union in unions]
        if (defined in graph and all(g in graph or g in named for g in genus)
                and all(d in graph or d in named for _, d in differentia)
                and all(unions) and (genus or differentia or unions)):
            usable.append((defined, list(genus), list(differentia), unions))
    added: List[Tuple[str, str]] = []
    exact = (rules, nested) if chains is not None else None
    for _ in range(max_rounds):
        found = sorted(set(_covered(graph, usable, supers, chained, starts or {}, exact, outside)))
        if not found:
            break
        for child, defined in found:
            graph.add_implied_isa(child, defined)
        added.extend(found)
    return sorted(added)


def _covered(graph: KnowledgeGraph, definitions, supers: Dict[str, Set[str]],
             chained: Dict[str, Tuple[str, ...]], starts: Dict[str, Set[str]], exact=None,
             outside: Sequence[Tuple[str, str, str]] = ()) -> Iterable[Tuple[str, str]]:
    """The ``(X, C)`` pairs one round of :func:`classify` finds (X not yet under C); ``exact``: the
    :func:`composition_rules` and nested relations, to walk a chained relation's closure exactly."""
    ancestors: Dict[str, Set[str]] = {}
    children: Dict[str, List[str]] = defaultdict(list)
    links: Dict[str, List[Tuple[str, str]]] = defaultdict(list)
    subjects: Dict[Tuple[str, str], List[str]] = defaultdict(list)
    for concept in graph.concepts:
        for parent in (*graph.hypernyms(concept), *graph.implied_hypernyms(concept)):
            children[parent].append(concept)
        for relation, obj in graph.links_of(concept):
            links[concept].append((relation, obj))
            subjects[(relation, obj)].append(concept)
    outside_up: Dict[str, List[str]] = defaultdict(list)
    for concept, relation, target in outside:       # to targets the source never defines
        if relation == "is_a":
            outside_up[concept].append(target)
            children[target].append(concept)
        else:
            links[concept].append((relation, target))
            subjects[(relation, target)].append(concept)

    def above(concept: str) -> Set[str]:
        found = ancestors.get(concept)
        if found is None:
            found = ancestors[concept] = reachable(concept, lambda c: (*graph.hypernyms(c), *graph.implied_hypernyms(c),
                                                                       *outside_up.get(c, ())))
        return found

    below_cache: Dict[str, Set[str]] = {}

    def below(concept: str) -> Set[str]:
        found = below_cache.get(concept)
        if found is None:
            found = below_cache[concept] = reachable(concept, lambda c: children.get(c, ())) | {concept}
        return found

    def counts_as(own: str, relation: str) -> bool:
        return own == relation or relation in supers.get(own, ())

    def has_link(concept: str, relation: str, filler: str) -> bool:
        for holder in (concept, *above(concept)):
            for own, obj in links.get(holder, ()):
                if counts_as(own, relation) and (obj == filler or filler in above(obj)):
                    return True
        followed = chained.get(relation)
        if not followed:
            return False
        if exact is not None and relation not in exact[1]:
            return composed_link(concept, relation, filler)
        # a transitive or chained relation: its closure (and that of the relations its chains go
        # through), is-a ancestors on both sides, as the builders' validity walk takes it
        reached: Set[str] = set()
        first = starts.get(relation) or followed        # the first link of the path: one the chains begin with
        frontier = [obj for holder in (concept, *above(concept)) for own, obj in links.get(holder, ())
                    if any(counts_as(own, r) for r in first)]
        while frontier:
            following = []
            for target in frontier:
                if target in reached:
                    continue
                for node in (target, *above(target)):
                    if node == filler:
                        return True
                    if node not in reached:
                        reached.add(node)
                        following.extend(obj for own, obj in links.get(node, ()) if any(counts_as(own, r) for r in followed))
            frontier = following
        return False

    composed: Dict[Tuple[object, str], Tuple[object, ...]] = {}

    def compose(left: object, own: str) -> Tuple[object, ...]:
        """What a derived link of ``left`` followed by a stated link of ``own`` is a link of."""
        found = composed.get((left, own))
        if found is None:
            lefts = (left, *supers.get(left, ())) if isinstance(left, str) else (left,)
            found = composed[(left, own)] = tuple(sorted(
                {t for a in lefts for b in (own, *supers.get(own, ())) for t in exact[0].get((a, b), ())}, key=str))
        return found

    def composed_link(concept: str, relation: str, filler: str) -> bool:
        """Whether a path of stated links from the concept (or an ancestor), is-a ancestors on the
        object side at every step, is a link of ``relation`` to the filler as the rules compose it."""
        seen: Set[Tuple[object, str]] = set()
        frontier = [(own, obj) for holder in (concept, *above(concept)) for own, obj in links.get(holder, ())]
        while frontier:
            following = []
            for state in frontier:
                if state in seen:
                    continue
                seen.add(state)
                kind, target = state
                nodes = (target, *above(target))
                if isinstance(kind, str) and counts_as(kind, relation) and filler in nodes:
                    return True
                for node in nodes:
                    for own, obj in links.get(node, ()):
                        following.extend((made, obj) for made in compose(kind, own) if (made, obj) not in seen)
            frontier = following
        return False

    def holders_of(relation: str, filler: str) -> Set[str]:
        """The concepts a link of the relation (or one under it) goes from to the filler or below it;
        for a transitive or chained relation, on backwards through its closure."""
        followed = chained.get(relation) or (relation,)
        owns = [own for r in followed for own in (r, *relations_under.get(r, ()))]

        def step(node: str) -> Set[str]:
            return {s for own in owns for target in below(node) for s in subjects.get((own, target), ())}

        found = step(filler)
        if relation in chained:
            found |= set().union(*(reachable(h, step) for h in sorted(found))) if found else set()
        return found

    relations_under: Dict[str, List[str]] = defaultdict(list)
    for relation, above_it in supers.items():
        for parent in above_it:
            relations_under[parent].append(relation)
    for defined, genus, differentia, unions in definitions:
        pools = [below(g) for g in genus]
        pools += [set().union(*(below(m) for m in union)) for union in unions]
        for relation, filler in differentia:
            holders = holders_of(relation, filler)
            pools.append(set().union(*(below(h) for h in holders)) if holders else set())
        for concept in sorted(min(pools, key=len)):
            if concept == defined or defined in above(concept) or concept not in graph:
                continue
            mine = above(concept) | {concept}
            if (all(g in mine for g in genus) and all(mine.intersection(union) for union in unions)
                    and all(has_link(concept, relation, filler) for relation, filler in differentia)):
                yield concept, defined



def _relation_names(relation_info: Dict[str, Dict], relation_parents: Dict[str, List[str]]):
    """``(named, below)`` for :func:`chain_starts` and :func:`chain_relations`: ``named(member)`` is the
    relation a chain member stands for (an alias, an OBO Typedef's xref ``BFO:0000050``, is its
    relation), ``below[relation]`` its sub-relations, by those names."""
    alias_of: Dict[str, str] = {}
    for relation, info in sorted(relation_info.items()):
        for alias in info.get("aliases", ()):
            alias_of.setdefault(alias, relation)

    def named(member: str) -> str:
        return member if member in relation_info else alias_of.get(member, member)

    below: Dict[str, Set[str]] = defaultdict(set)
    for relation, supers in super_relations(relation_parents).items():
        for above in supers:
            below[named(above)].add(named(relation))
    return named, below


def chain_starts(relation_info: Dict[str, Dict], relation_parents: Dict[str, List[str]]) -> Dict[str, Set[str]]:
    """``relation -> the relations a path of its closure may begin with`` for each relation with property
    chains: itself and its sub-relations, and the first member of a chain that does not begin with it
    (OBO ``holds_over_chain: P Q``: a path begins with P). ``R transitive_over S`` (the chain R, S)
    begins with R: an S link alone is no R link (was: any link of the chains, so a *neural plate*
    ``part_of`` the neural tube was taken for a ``develops_from`` one and classified under *ectoderm
    derivative*)."""
    named, below = _relation_names(relation_info, relation_parents)
    found: Dict[str, Set[str]] = {}
    for relation, info in relation_info.items():
        own = {relation, *below[relation]}
        chains = [[named(m) for m in chain] for r in own for chain in relation_info.get(r, {}).get("chains", ())]
        if chains:
            found[relation] = own | {chain[0] for chain in chains if chain and chain[0] not in own}
    return found


def relation_chains(relation_info: Dict[str, Dict], relation_parents: Dict[str, List[str]]
                    ) -> Dict[str, List[List[str]]]:
    """``relation -> its property chains`` (OBO ``transitive_over S``: ``[R, S]``; ``holds_over_chain P Q``:
    ``[P, Q]``; OWL ``owl:propertyChainAxiom``), each member by the relation it stands for (an alias, an
    OBO Typedef's xref, is its relation: :func:`_relation_names`)."""
    named, _ = _relation_names(relation_info, relation_parents)
    return {relation: [[named(m) for m in chain] for chain in info["chains"]]
            for relation, info in sorted(relation_info.items()) if info.get("chains")}


def chain_relations(relation_info: Dict[str, Dict], relation_parents: Dict[str, List[str]]) -> Dict[str, List[str]]:
    """``relation -> the other relations whose links its closure follows``, from the property chains
    (OBO ``transitive_over`` / ``holds_over_chain``, OWL ``owl:propertyChainAxiom``): every relation in
    a chain of the relation or of one of its sub-relations, and on through their own chains. A chain
    member named by an alias of a relation (an OBO Typedef's xref, ``BFO:0000050`` for ``part_of``) is
    that relation. Following all of them at every step is more than the chains entail (``x located_in
    y`` with ``located_in`` transitive over ``part_of`` does not need ``x part_of z`` to be a link of
    ``located_in``): the closures this feeds keep wrong answers out, so taking a little more is safe,
    and one walk over the union stays as cheap as the walk over the relation alone."""
    named, below = _relation_names(relation_info, relation_parents)
    chains = {relation: [[named(m) for m in chain] for chain in info.get("chains", ())]
              for relation, info in relation_info.items()}
    through: Dict[str, List[str]] = {}
    for relation in sorted(relation_info):
        family, stack = {relation}, [relation]
        while stack:
            current = stack.pop()
            for member in {m for r in (current, *below[current]) for chain in chains.get(r, ()) for m in chain}:
                for other in (member, *below[member]):
                    if other not in family:
                        family.add(other)
                        stack.append(other)
        if family != {relation}:
            through[relation] = sorted(family - {relation})
    return through
