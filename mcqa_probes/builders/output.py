"""Writing probe files (atomically via :mod:`mcqa_probes.common.io`, byte-reproducibly) and their
statistics (paper Table 4)."""
import json
import os
from collections import Counter
from typing import Callable, Dict, Iterable, List, Optional, Union

from mcqa_probes.builders.probe_question import ProbeQuestion
from mcqa_probes.common.io import BackgroundWriter, json_text, write_parts

PathLike = Union[str, os.PathLike]


#: ``json.dumps(value, ensure_ascii=False)`` without re-creating the encoder per line or checking
#: for cycles (a question is a tree): the same bytes, a fifth less time
_encode_line = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


#: where one question ends and the next begins in ``orjson``'s compact text of a list of questions:
#: a question is an object whose first key is ``id``, and no object inside one has that first key
#: (inside a string, the quotes would be escaped)
_BETWEEN, _BETWEEN_LINES = b'},{"id":', b'}\n{"id":'


def jsonl_bytes(questions: Iterable[ProbeQuestion], int_labels: bool = False, compact: bool = False) -> bytes:
    """The jsonl text of ``questions``, one per line. The standard library's spacing
    (``{"id": "x", ...}``, WordNet's and GCIDE's files, byte-identical to earlier builds), or with
    ``compact`` orjson's (``{"id":"x",...}``: the same values, written three to five times faster;
    the probes of a user's knowledge source)."""
    return b"".join(_jsonl_parts(questions, int_labels, compact))


def _jsonl_parts(questions: Iterable[ProbeQuestion], int_labels: bool, compact: bool) -> List[object]:
    """:func:`jsonl_bytes` as the pieces (bytes or views of them) that make it, in order: a file of
    70 MB is written and hashed without copying it twice more."""
    if compact:
        questions = questions if isinstance(questions, list) else list(questions)
        parts: List[object] = []
        for start in range(0, len(questions), _CHUNK):
            parts.extend(_compact_chunk(questions[start:start + _CHUNK], int_labels))
        return parts
    values = [q.to_json(int_labels=int_labels) for q in questions]
    if not values:
        return []
    return [("\n".join([_encode_line(value) for value in values]) + "\n").encode("utf-8")]


#: questions encoded per ``orjson`` call: their dicts, and orjson's text before the newlines go in, are
#: freed before the next chunk's are made, so that memory is used again (a whole file in one call
#: touched fresh memory for all of them: twice the page faults, a third more time on so.obo's hypernymy)
_CHUNK = 128


def _compact_chunk(questions: List[ProbeQuestion], int_labels: bool) -> List[object]:
    """The compact jsonl lines of ``questions`` (:func:`jsonl_bytes`), as pieces."""
    import orjson   # lazy: only the builds from a knowledge source need it

    values = [q.to_json(int_labels=int_labels) for q in questions]
    # the chunk's list in one call (faster than one call per question), then cut into lines between the
    # questions (a newline inside a string is escaped: the text has none but the ones put between them)
    text = orjson.dumps(values).replace(_BETWEEN, _BETWEEN_LINES)
    if text.count(b"\n") == len(values) - 1:
        return [memoryview(text)[1:-1], b"\n"]         # without the list's brackets
    return [orjson.dumps(value, option=orjson.OPT_APPEND_NEWLINE) for value in values]


def write_questions(path: PathLike, questions: Iterable[ProbeQuestion], int_labels: bool = False,
                    compact: bool = False, writer: Optional[BackgroundWriter] = None,
                    then: Optional[Callable[[str], None]] = None) -> Optional[str]:
    """Write one ``mcqa`` jsonl file (see :func:`jsonl_bytes`); returns its sha256. With ``writer``,
    the text is made here and written on the writer's thread, ``then(sha256)`` once it is (returns None)."""
    parts = _jsonl_parts(questions, int_labels, compact)
    if writer is None:
        return write_parts(path, parts)
    writer.write_parts(path, parts, then or (lambda digest: None))
    return None


def read_manifest(directory: PathLike) -> Dict[str, object]:
    """``<directory>/manifest.json`` as a build wrote it; ``{}`` when there is none or it is no JSON object."""
    try:
        with open(os.path.join(os.fspath(directory), "manifest.json"), encoding="utf-8") as handle:
            manifest = json.load(handle)
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def write_json(path: PathLike, value) -> str:
    data = json_text(value, indent=2, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return write_parts(path, [data])


def _sorted_counter(counter: Counter) -> Dict[str, int]:
    return {str(key): counter[key] for key in sorted(counter, key=lambda k: (str(type(k)), k))}


def probe_stats(splits: Dict[str, List[ProbeQuestion]]) -> Dict[str, object]:
    """The paper's Table 4 columns (and a little more) for one probe."""
    names = sorted(splits)
    # one pass over the questions, split by split: their gold pairs, hops, families, clusters, concepts
    pairs: Counter = Counter()
    clusters: Counter = Counter()
    family: Counter = Counter()
    hops: Counter = Counter()
    unique_hops: Counter = Counter()
    concepts = set()
    per_split = {}
    for name in names:
        split_pairs, split_concepts = set(), set()
        for q in splits[name]:
            notes = q.notes
            pair = (q.stem, q.choices[q.answer_index])
            question_hops = notes.get("hops", 0)
            if pair not in pairs:
                unique_hops[question_hops] += 1
            pairs[pair] += 1
            split_pairs.add(pair)
            split_concepts.add(q.concept)
            clusters[q.cluster_key] += 1
            depth = notes.get("distractor_hops")
            family[notes.get("distractor_type", "") + (str(depth) if depth is not None else "")] += 1
            hops[question_hops] += 1
        concepts |= split_concepts
        per_split[name] = {"questions": len(splits[name]), "unique_questions": len(split_pairs),
                           "concepts": len(split_concepts)}
    total = sum(len(splits[name]) for name in names)
    return {
        "unique_questions": len(pairs),
        "questions": total,
        "unique_questions_with_perturbations": sum(1 for count in pairs.values() if count > 1),
        "clusters": len(clusters),
        "average_cluster_size": round(total / len(clusters), 2) if clusters else 0.0,
        "concepts": len(concepts),
        "questions_by_hops": _sorted_counter(hops),
        "unique_questions_by_hops": _sorted_counter(unique_hops),
        "questions_by_distractor_family": _sorted_counter(family),
        "splits": per_split,
    }
