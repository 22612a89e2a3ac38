"""An independent check of the probes of an OWL source against a reasoner's classification.

    from mcqa_probes.knowledge.reasoner_check import check_probes
    result = check_probes("pizza.owl", "probes_pizza")

HermiT (through owlready2; it runs on Java) classifies the source, and every question of the
``hypernymy`` and ``hyponymy`` probes and of the relation probes the build's manifest names is
checked against the classes it infers, which take every axiom into account (defined classes,
universal and cardinality restrictions, domains, disjointness, property chains), not only what the
build reads:

* hypernymy ("'x' is a kind of"): the answer is an inferred ancestor of the concept, and no
  distractor is one (nor the concept itself, nor a class equivalent to it);
* hyponymy ("which is a kind of 'x'?"): the answer is an inferred descendant, and no distractor is one;
* a relation R ("'x' is part of which of these?"): the concept is inferred to be a kind of
  ``R some answer`` and of no ``R some distractor`` (a class for each is classified with the source).

A question about an unsatisfiable class (pizza.owl's *IceCream*, a dessert with a topping, and
``hasTopping``'s domain is Pizza, disjoint from it), or one that offers such a class as a kind of
the concept, is counted apart: such a class is a kind of every class, so for the reasoner every
choice is correct; it is the source's fault. As a wrong answer to "'x' is a kind of" it is checked
as any other.

The source is read with the build's own RDF reader (any syntax it takes, compressed or not) and
handed to owlready2 as N-Triples; the questions' ids are matched to classes with the build's own
identifiers (:func:`mcqa_probes.knowledge.rdf.identifiers_of`). An OBO file has no OWL semantics
here: give its OWL rendering (ROBOT: ``robot convert -i x.obo -o x.owl``). owlready2 is a
verification-only dependency (installed by ``bin/setup``); ``bin/check_entailment`` is the command.
"""
import json
import re
import tempfile
import time
import types
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from mcqa_probes.common.io import read_jsonl
from mcqa_probes.knowledge.identifiers import relation_probe_name
from mcqa_probes.knowledge.ontology import SourceError, inner_suffix
from mcqa_probes.knowledge.rdf import identifiers_of, parse_rdf, relation_id_of

#: the probes whose answers are is-a entailments
IS_A_PROBES = ("hypernymy", "hyponymy")
SPLITS = ("train", "dev", "test")


class Classified:
    """A source classified by HermiT: its classes and object properties by the build's ids, the ids of
    its unsatisfiable classes, and for each ``(relation id, filler id)`` asked for, the class
    ``relation some filler`` that was classified with them (a class under it has the link)."""

    def __init__(self, classes: Dict[str, object], properties: Dict[str, object], unsatisfiable: Set[str],
                 queries: Dict[Tuple[str, str], object]):
        self.classes, self.properties, self.unsatisfiable, self.queries = classes, properties, unsatisfiable, queries
        self._above: Dict[str, Set] = {}

    def above(self, concept_id: str) -> Set:
        """The named classes HermiT puts above the class (equivalent ones included), not itself."""
        import owlready2  # lazy: as below

        if concept_id not in self._above:
            owl_class = self.classes[concept_id]
            found = {a for a in owl_class.ancestors(include_self=True) if isinstance(a, owlready2.ThingClass)}
            found |= {e for e in owl_class.equivalent_to if isinstance(e, owlready2.ThingClass)}
            self._above[concept_id] = found - {owl_class, owlready2.Thing}
        return self._above[concept_id]


def classify_source(path: str, queries: Sequence[Tuple[str, str]] = (),
                    log: Callable[[str], None] = lambda message: None, java_memory_mb: int = 4000) -> Classified:
    """The source classified by HermiT (see :class:`Classified`), with a query class ``R some D`` for each
    ``(R, D)`` of ``queries`` whose relation is an object property and filler a class of the source;
    ``java_memory_mb``: the Java heap HermiT may take."""
    import owlready2  # lazy: the reasoner check is verification only (Java + owlready2)
    import owlready2.reasoning  # lazy: as owlready2
    import rdflib  # lazy: RDF support is needed only for RDF sources

    owlready2.reasoning.JAVA_MEMORY = int(java_memory_mb)

    path = str(path)
    if inner_suffix(path) == ".obo":
        raise SourceError(path, "an OBO file, which the reasoner does not read (expected its OWL rendering, "
                                "e.g. robot convert -i x.obo -o x.owl)")
    graph = parse_rdf(path)
    _, cid = identifiers_of(graph, path)
    # the file alone, as the build reads it: owlready2 would fetch what it imports (offline: fails)
    imports = list(graph.triples((None, rdflib.OWL.imports, None)))
    for triple in imports:
        graph.remove(triple)
    if imports:
        log(f"{len(imports)} owl:imports left out (the build reads the file alone)")
    # an RDFS vocabulary (schema.org): its classes are OWL classes too, and rdfs:subClassOf means the same
    rdfs_classes = {c for c in graph.subjects(rdflib.RDF.type, rdflib.RDFS.Class) if isinstance(c, rdflib.URIRef)}
    rdfs_classes |= {c for pair in graph.subject_objects(rdflib.RDFS.subClassOf) for c in pair
                     if isinstance(c, rdflib.URIRef)}
    for node in rdfs_classes:
        graph.add((node, rdflib.RDF.type, rdflib.OWL.Class))
    world = owlready2.World()
    with tempfile.TemporaryDirectory(prefix="reasoner_check.") as folder:
        triples = Path(folder) / "source.nt"
        graph.serialize(destination=str(triples), format="nt", encoding="utf-8")
        try:
            ontology = world.get_ontology(triples.as_uri()).load(format="ntriples")
        except owlready2.OwlReadyOntologyParsingError as error:
            raise SourceError(path, f"owlready2 cannot load it ({error})") from None
    classes = {cid(rdflib.URIRef(c.iri)): c for c in world.classes()}
    if not classes:
        raise SourceError(path, "no classes for the reasoner (a SKOS thesaurus's concepts are individuals to OWL, "
                                "and skos:broader no subclass axiom): nothing to check (expected an OWL or RDFS source)")
    properties = {relation_id_of(graph, rdflib.URIRef(p.iri), cid): p for p in world.object_properties()}
    made: Dict[Tuple[str, str], object] = {}
    with ontology:
        for number, (relation, filler) in enumerate(sorted(set(queries))):
            if relation in properties and filler in classes:
                query = types.new_class(f"mcqa_probes_query_{number}", (owlready2.Thing,))
                query.equivalent_to = [properties[relation].some(classes[filler])]
                made[(relation, filler)] = query
    start = time.perf_counter()
    try:
        with ontology:
            owlready2.sync_reasoner_hermit(world, infer_property_values=False, debug=0)
    except FileNotFoundError as error:
        raise SourceError(path, f"the reasoner needs Java ({error}; expected 'java' on the PATH)") from None
    except owlready2.OwlReadyInconsistentOntologyError:
        raise SourceError(path, "HermiT finds the ontology inconsistent: every class is a kind of every "
                                "other, so no question can be checked") from None
    except owlready2.OwlReadyJavaError as error:
        text = str(error)
        if "OutOfMemoryError" in text:
            raise SourceError(path, f"HermiT ran out of its {java_memory_mb} MB of Java heap (expected more: "
                                    f"--java-memory; or check fewer probes, --probes hypernymy,hyponymy)") from None
        raise SourceError(path, "HermiT failed: " + java_cause(text)) from None
    unsatisfiable = sorted(cid(rdflib.URIRef(c.iri)) for c in world.inconsistent_classes()
                           if c is not owlready2.Nothing and c not in made.values())
    log(f"HermiT (owlready2 {owlready2.VERSION}) classified {len(classes)} classes in "
        f"{time.perf_counter() - start:.1f} s" + (f"; unsatisfiable: {', '.join(unsatisfiable)}" if unsatisfiable else ""))
    return Classified(classes, properties, set(unsatisfiable), made)


def java_cause(text: str, limit: int = 400) -> str:
    """What a Java failure says, from its exception's own message (not the thread's prelude nor the
    stack), cut at a word with ``...`` (was: the first 300 characters, cut in a word: "...Egg>)'. a"),
    and, for OWL 2 DL's rule on cardinalities, what is expected."""
    flat = " ".join(text.split())
    found = re.search(r"(?:[\w$]+\.)+(\w+(?:Exception|Error)): (.*?)(?= at [\w$.]+\(|$)", flat)
    cause = f"{found.group(1)}: {found.group(2).strip()}" if found else flat
    if len(cause) > limit:
        cause = cause[:limit].rsplit(" ", 1)[0] + " ..."
    if "Non-simple property" in flat:
        cause += (" (expected an OWL 2 DL ontology: a cardinality restriction may not use a property that is "
                  "transitive, has a property chain or a sub-property that has one; put it on a simple sub-property)")
    return cause


def _questions(probes_dir: Path, probe: str) -> Optional[List[Tuple[str, dict]]]:
    """``(file name, question)`` of a probe's split files; None where it has none."""
    paths = [path for split in SPLITS for path in [probes_dir / probe / f"{split}.jsonl"] if path.is_file()]
    if not paths:
        return None
    return [(path.name, question) for path in paths
            for _, question in read_jsonl(path, what="probe question", allow_empty=True)]


def relation_probes(probes_dir: Path) -> Dict[str, str]:
    """``probe folder -> relation id`` of the relation probes the build's manifest names."""
    manifest = probes_dir / "manifest.json"
    if not manifest.is_file():
        return {}
    relations = json.loads(manifest.read_text(encoding="utf-8")).get("sources", {}).get("ontology", {}).get(
        "relations") or {}
    return {relation_probe_name(name): relation for name, relation in relations.items()}


def check_probes(source: str, probes_dir: str, probes: Optional[Sequence[str]] = None, examples: int = 5,
                 log: Callable[[str], None] = lambda message: None,
                 java_memory_mb: int = 4000) -> Dict[str, Dict[str, object]]:
    """Per probe of ``probes`` (default: the is-a probes and the relation probes of the build's
    manifest) found under ``probes_dir``: ``questions``, ``wrong_distractors`` (questions with a
    distractor the reasoner infers correct), ``answers_not_inferred``, ``ids_not_found``,
    ``unsatisfiable`` (questions about a class the reasoner finds unsatisfiable, a kind of every
    class, or offering one as a kind of the concept: not checked; the source's own fault, which the
    build cannot see without a reasoner) and up to ``examples`` faults (see the module docstring)."""
    folder = Path(probes_dir)
    by_relation = relation_probes(folder)
    wanted = list(probes) if probes is not None else [*IS_A_PROBES, *by_relation]
    unknown = [probe for probe in wanted if probe not in IS_A_PROBES and probe not in by_relation]
    if unknown:         # before the reasoner's minutes
        raise SourceError(str(probes_dir), f"--probes {unknown[0]}: neither an is-a probe nor a relation probe of the "
                                           f"build's manifest (expected {', '.join([*IS_A_PROBES, *by_relation])})")
    questions = {probe: found for probe in wanted for found in [_questions(folder, probe)] if found is not None}
    if not questions:
        raise SourceError(str(probes_dir), f"no {' or '.join(wanted)} probe files (expected "
                                           f"<probes-dir>/<probe>/{{train,dev,test}}.jsonl)")
    queries = [(by_relation[probe], filler) for probe, found in questions.items() if probe in by_relation
               for _, question in found for filler in (question["notes"]["answer_id"], *question["notes"]["distractor_ids"])]
    known = classify_source(source, queries, log, java_memory_mb)
    results: Dict[str, Dict[str, object]] = {}
    for probe, found in questions.items():
        relation = by_relation.get(probe)
        tally: Dict[str, object] = {"questions": 0, "wrong_distractors": 0, "answers_not_inferred": 0,
                                    "ids_not_found": 0, "unsatisfiable": 0, "examples": []}
        if relation is not None and relation not in known.properties:
            tally["not_an_object_property"] = relation
        for name, question in found:
            tally["questions"] += 1
            notes = question["notes"]
            concept, answer = notes["concept_id"], notes["answer_id"]
            distractors: List[str] = list(notes["distractor_ids"])
            if any(i not in known.classes for i in (concept, answer, *distractors)) or (
                    relation is not None and relation not in known.properties):
                tally["ids_not_found"] += 1
                continue
            # a class with no possible member is a kind of every class: asked about (hypernymy, a
            # relation) or offered as a kind of the concept (hyponymy), every choice is correct for the reasoner
            if concept in known.unsatisfiable or (probe == "hyponymy" and known.unsatisfiable.intersection(distractors)):
                tally["unsatisfiable"] += 1
                continue
            if probe == "hypernymy":
                entailed = known.classes[answer] in known.above(concept)
                wrong = [d for d in distractors if d == concept or known.classes[d] in known.above(concept)]
            elif probe == "hyponymy":
                entailed = known.classes[concept] in known.above(answer)
                wrong = [d for d in distractors if d == concept or known.classes[concept] in known.above(d)]
            else:       # 'x' R which of these: x is a kind of (R some answer), of no (R some distractor)
                entailed = known.queries[(relation, answer)] in known.above(concept)
                wrong = [d for d in distractors if known.queries[(relation, d)] in known.above(concept)]
            fault = []
            if not entailed:
                tally["answers_not_inferred"] += 1
                fault.append(f"answer {answer} not inferred")
            if wrong:
                tally["wrong_distractors"] += 1
                fault.append(f"distractor(s) {', '.join(wrong)} inferred correct")
            if fault and len(tally["examples"]) < examples:
                tally["examples"].append(f"{name}:{question['id']}: {concept}: {'; '.join(fault)}")
        results[probe] = tally
    return results
