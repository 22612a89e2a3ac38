"""An independent check of the is-a probes of an OWL source against a reasoner's classification.

    from mcqa_probes.knowledge.reasoner_check import check_probes
    result = check_probes("pizza.owl", "probes_pizza")

HermiT (through owlready2; it runs on Java) classifies the source, and every question of the
``hypernymy`` and ``hyponymy`` probes is checked against the classes it infers, which take every
axiom into account (defined classes, universal and cardinality restrictions, domains, disjointness),
not only what the build reads:

* hypernymy ("'x' is a kind of"): the answer is an inferred ancestor of the concept, and no
  distractor is one (nor the concept itself, nor a class equivalent to it);
* hyponymy ("which is a kind of 'x'?"): the answer is an inferred descendant, and no distractor is one.

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
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Set

from mcqa_probes.common.io import read_jsonl
from mcqa_probes.knowledge.ontology import SourceError, inner_suffix
from mcqa_probes.knowledge.rdf import identifiers_of, parse_rdf

#: the probes whose answers are is-a entailments
IS_A_PROBES = ("hypernymy", "hyponymy")
SPLITS = ("train", "dev", "test")


def classify_source(path: str, log: Callable[[str], None] = lambda message: None):
    """``(class id -> class, ids of the unsatisfiable classes)``: the source classified by HermiT, its
    classes by the build's ids."""
    import owlready2  # lazy: the reasoner check is verification only (Java + owlready2)
    import rdflib  # lazy: RDF support is needed only for RDF sources

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
    world = owlready2.World()
    with tempfile.TemporaryDirectory(prefix="reasoner_check.") as folder:
        triples = Path(folder) / "source.nt"
        graph.serialize(destination=str(triples), format="nt", encoding="utf-8")
        try:
            ontology = world.get_ontology(triples.as_uri()).load(format="ntriples")
        except owlready2.OwlReadyOntologyParsingError as error:
            raise SourceError(path, f"owlready2 cannot load it ({error})") from None
    start = time.perf_counter()
    try:
        with ontology:
            owlready2.sync_reasoner_hermit(world, infer_property_values=False, debug=0)
    except FileNotFoundError as error:
        raise SourceError(path, f"the reasoner needs Java ({error}; expected 'java' on the PATH)") from None
    except owlready2.OwlReadyInconsistentOntologyError:
        raise SourceError(path, "HermiT finds the ontology inconsistent: every class is a kind of every "
                                "other, so no question can be checked") from None
    classes = {cid(rdflib.URIRef(c.iri)): c for c in world.classes()}
    unsatisfiable = sorted(cid(rdflib.URIRef(c.iri)) for c in world.inconsistent_classes() if c is not owlready2.Nothing)
    log(f"HermiT (owlready2 {owlready2.VERSION}) classified {len(classes)} classes in "
        f"{time.perf_counter() - start:.1f} s" + (f"; unsatisfiable: {', '.join(unsatisfiable)}" if unsatisfiable else ""))
    return classes, set(unsatisfiable)


def _ancestors(owl_class) -> Set:
    """The named classes HermiT puts above ``owl_class`` (equivalent ones included), not itself."""
    import owlready2  # lazy: as above

    found = {a for a in owl_class.ancestors(include_self=True) if isinstance(a, owlready2.ThingClass)}
    found |= {e for e in owl_class.equivalent_to if isinstance(e, owlready2.ThingClass)}
    return found - {owl_class, owlready2.Thing}


def check_probes(source: str, probes_dir: str, probes: Sequence[str] = IS_A_PROBES, examples: int = 5,
                 log: Callable[[str], None] = lambda message: None) -> Dict[str, Dict[str, object]]:
    """Per probe of ``probes`` found under ``probes_dir``: ``questions``, ``wrong_distractors`` (questions
    with a distractor the reasoner infers correct), ``answers_not_inferred``, ``ids_not_found``,
    ``unsatisfiable`` (questions about a class the reasoner finds unsatisfiable, a kind of every
    class, or offering one as a kind of the concept: not checked; the source's own fault, which the
    build cannot see without a reasoner) and
    up to ``examples`` faults (see the module docstring)."""
    classes, unsatisfiable = classify_source(source, log)
    ancestors_cache: Dict[str, Set] = {}

    def above(concept_id: str) -> Set:
        if concept_id not in ancestors_cache:
            ancestors_cache[concept_id] = _ancestors(classes[concept_id])
        return ancestors_cache[concept_id]

    results: Dict[str, Dict[str, object]] = {}
    for probe in probes:
        files = [Path(probes_dir) / probe / f"{split}.jsonl" for split in SPLITS]
        if not any(f.is_file() for f in files):
            continue
        tally: Dict[str, object] = {"questions": 0, "wrong_distractors": 0, "answers_not_inferred": 0,
                                    "ids_not_found": 0, "unsatisfiable": 0, "examples": []}
        for path in (f for f in files if f.is_file()):
            for _, question in read_jsonl(path, what="probe question", allow_empty=True):
                tally["questions"] += 1
                notes = question["notes"]
                concept, answer = notes["concept_id"], notes["answer_id"]
                distractors: List[str] = list(notes["distractor_ids"])
                if any(i not in classes for i in (concept, answer, *distractors)):
                    tally["ids_not_found"] += 1
                    continue
                # a class with no possible member is a kind of every class: asked about (hypernymy) or
                # offered as a kind of the concept (hyponymy), every choice is correct for the reasoner
                if concept in unsatisfiable or (probe == "hyponymy" and unsatisfiable.intersection(distractors)):
                    tally["unsatisfiable"] += 1
                    continue
                if probe == "hypernymy":
                    entailed = classes[answer] in above(concept)
                    wrong = [d for d in distractors if d == concept or classes[d] in above(concept)]
                else:
                    entailed = classes[concept] in above(answer)
                    wrong = [d for d in distractors if d == concept or classes[concept] in above(d)]
                fault = []
                if not entailed:
                    tally["answers_not_inferred"] += 1
                    fault.append(f"answer {answer} not inferred")
                if wrong:
                    tally["wrong_distractors"] += 1
                    fault.append(f"distractor(s) {', '.join(wrong)} inferred correct")
                if fault and len(tally["examples"]) < examples:
                    tally["examples"].append(f"{path.name}:{question['id']}: {concept}: {'; '.join(fault)}")
        results[probe] = tally
    if not results:
        raise SourceError(str(probes_dir), f"no {' or '.join(probes)} probe files (expected "
                                           f"<probes-dir>/<probe>/{{train,dev,test}}.jsonl)")
    return results
