"""WordNet as a triple graph (TACL paper, Table 1): synsets → :class:`Concept`, hypernym links → ``isa↑``.

Two ways in, both giving the same :class:`KnowledgeGraph`:

* :func:`graph_from_nltk` / :func:`load_wordnet_graph`: NLTK's ``WordNetCorpusReader`` over the real
  WordNet 3.0 (located by :func:`mcqa_probes.resources.load_wordnet`, never downloaded);
* :func:`graph_from_description`: a small hand-written description (the test fixtures under
  ``fixtures/wordnet_mini/``), so the probe builders can be tested on synsets whose hypernym chains,
  sisters and glosses are known by heart.

Every synset of the requested parts of speech goes into the graph (distractors and ISA answers may
be synsets without example sentences); which synsets can be *asked about* (they need an example
sentence for the context frame, paper §3.1) is the probe builders' decision.

Plain Python: no torch, no allennlp.
"""
import json
import os
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Sequence, Union

from mcqa_probes.knowledge.graph import Concept, KnowledgeGraph
from mcqa_probes.resources.wordnet import load_wordnet

#: Parts of speech that have an ISA hierarchy in WordNet (adjectives and adverbs have none).
ISA_POS = ("n", "v")

#: ``Concept.number`` = pos digit × 10⁸ + byte offset (offsets repeat across the pos data files):
#: ``dog.n.01`` → 102084071, the usual "WordNet 3.0 synset id" form.
POS_DIGITS = {"n": 1, "v": 2, "a": 3, "s": 3, "r": 4}

Progress = Callable[..., Iterable]


def _no_progress(iterable, **_kwargs):
    return iterable


def graph_from_nltk(
    reader,
    pos: Sequence[str] = ISA_POS,
    instances: bool = False,
    version: Optional[str] = None,
    progress: Progress = _no_progress,
) -> KnowledgeGraph:
    """Convert an NLTK ``WordNetCorpusReader`` into a :class:`KnowledgeGraph`.

    ``instances``: also follow instance-hypernym links (``Mississippi isa↑ river``). Off by default:
    the probes ask for a "type of", which instances are not.
    """
    if version is None:
        try:
            version = str(reader.get_version())
        except Exception:  # pragma: no cover - very old NLTK
            version = "unknown"
    graph = KnowledgeGraph(source="wordnet", version=version)
    synsets = []
    totals = {"n": 82115, "v": 13767, "a": 18156, "s": 10693, "r": 3621}  # WordNet 3.0, for the bar only
    for tag in pos:
        for synset in progress(reader.all_synsets(tag), desc=f"wordnet synsets ({tag})", total=totals.get(tag)):
            graph.add(
                Concept(
                    id=synset.name(),
                    pos=synset.pos(),
                    lemmas=tuple(synset.lemma_names()),
                    definition=synset.definition(),
                    examples=tuple(synset.examples()),
                    number=POS_DIGITS.get(synset.pos(), 9) * 10**8 + synset.offset(),
                    attributes=(("lexname", synset.lexname()),),
                )
            )
            synsets.append(synset)
    for synset in synsets:
        parents = list(synset.hypernyms())
        if instances:
            parents += synset.instance_hypernyms()
        for parent in parents:
            if parent.name() in graph:
                graph.add_isa(synset.name(), parent.name())
    exceptions = getattr(reader, "_exception_map", {}) or {}
    irregular: Dict[str, set] = {}
    for tag in sorted({"a" if tag == "s" else tag for tag in pos}):
        for inflected, bases in sorted(exceptions.get(tag, {}).items()):
            for base in bases:
                irregular.setdefault(f"{tag}:{base}", set()).add(inflected)
    graph.irregular_forms = {key: tuple(sorted(forms)) for key, forms in sorted(irregular.items())}
    return graph


def load_wordnet_graph(
    path: Optional[str] = None,
    pos: Sequence[str] = ISA_POS,
    instances: bool = False,
    progress: Progress = _no_progress,
) -> KnowledgeGraph:
    """Open WordNet (see :func:`mcqa_probes.resources.load_wordnet`) and convert it."""

    return graph_from_nltk(load_wordnet(path), pos=pos, instances=instances, progress=progress)


def graph_from_description(description: Union[str, os.PathLike, Mapping[str, Any]]) -> KnowledgeGraph:
    """Build a graph from a JSON description (a path or an already-parsed mapping)::

        {"source": "wordnet", "version": "mini",
         "synsets": [{"id": "dog.n.01", "lemmas": ["dog", "domestic_dog"], "definition": "...",
                      "examples": ["the dog barked"], "hypernyms": ["canine.n.02"], "number": 7}, ...],
         "irregular_forms": {"v:run": ["ran"]}}

    ``pos`` defaults to the second field of the id; ``number`` to the position in the list.
    """
    if not isinstance(description, Mapping):
        with open(description, encoding="utf-8") as handle:
            description = json.load(handle)
    graph = KnowledgeGraph(source=description.get("source", "wordnet"), version=str(description.get("version", "mini")))
    entries = description.get("synsets")
    if not isinstance(entries, list):
        raise ValueError('a WordNet description needs a "synsets" list')
    for number, entry in enumerate(entries):
        try:
            concept_id = entry["id"]
            graph.add(
                Concept(
                    id=concept_id,
                    pos=entry.get("pos", concept_id.split(".")[-2] if concept_id.count(".") >= 2 else "n"),
                    lemmas=tuple(entry["lemmas"]),
                    definition=entry["definition"],
                    examples=tuple(entry.get("examples", ())),
                    number=entry.get("number", number),
                )
            )
        except KeyError as error:
            raise ValueError(f"synset entry {number} ({entry.get('id', '?')}) lacks {error}") from None
    for entry in entries:
        for parent in entry.get("hypernyms", ()):
            graph.add_isa(entry["id"], parent)
    graph.irregular_forms = {
        key: tuple(forms) for key, forms in sorted(description.get("irregular_forms", {}).items())
    }
    return graph
