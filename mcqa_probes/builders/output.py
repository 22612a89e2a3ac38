"""Writing probe files (atomically via :mod:`mcqa_probes.common.io`, byte-reproducibly) and their
statistics (paper Table 4)."""
import json
import os
from collections import Counter
from typing import Dict, Iterable, List, Union

from mcqa_probes.builders.probe_question import ProbeQuestion
from mcqa_probes.common.io import json_text, sha256_bytes, write_bytes

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
    values = [q.to_json(int_labels=int_labels) for q in questions]
    if not values:
        return b""
    if compact:
        import orjson   # lazy: only the builds from a knowledge source need it

        # the whole list at once (one call: the fastest), then cut into lines between the questions
        text = orjson.dumps(values)[1:-1]
        if text.count(_BETWEEN) == len(values) - 1:
            return text.replace(_BETWEEN, _BETWEEN_LINES) + b"\n"
        return b"".join([orjson.dumps(value, option=orjson.OPT_APPEND_NEWLINE) for value in values])
    return ("\n".join([_encode_line(value) for value in values]) + "\n").encode("utf-8")


def write_questions(path: PathLike, questions: Iterable[ProbeQuestion], int_labels: bool = False,
                    compact: bool = False) -> str:
    """Write one ``mcqa`` jsonl file (see :func:`jsonl_bytes`); returns its sha256."""
    data = jsonl_bytes(questions, int_labels, compact)
    write_bytes(path, data)
    return sha256_bytes(data)


def write_json(path: PathLike, value) -> str:
    data = json_text(value, indent=2, sort_keys=True, ensure_ascii=False).encode("utf-8")
    write_bytes(path, data)
    return sha256_bytes(data)


def _sorted_counter(counter: Counter) -> Dict[str, int]:
    return {str(key): counter[key] for key in sorted(counter, key=lambda k: (str(type(k)), k))}


def probe_stats(splits: Dict[str, List[ProbeQuestion]]) -> Dict[str, object]:
    """The paper's Table 4 columns (and a little more) for one probe."""
    questions = [q for name in sorted(splits) for q in splits[name]]
    gold = {id(q): q.gold_pair() for q in questions}
    pairs = Counter(gold.values())
    clusters = Counter(q.cluster_key for q in questions)
    family = Counter(
        q.notes.get("distractor_type", "") + (str(q.notes["distractor_hops"]) if q.notes.get("distractor_hops") is not None else "")
        for q in questions
    )
    hops = Counter(q.notes.get("hops", 0) for q in questions)
    unique_hops = Counter()
    seen = set()
    for q in questions:
        pair = gold[id(q)]
        if pair not in seen:
            seen.add(pair)
            unique_hops[q.notes.get("hops", 0)] += 1
    return {
        "unique_questions": len(pairs),
        "questions": len(questions),
        "unique_questions_with_perturbations": sum(1 for count in pairs.values() if count > 1),
        "clusters": len(clusters),
        "average_cluster_size": round(len(questions) / len(clusters), 2) if clusters else 0.0,
        "concepts": len({q.concept for q in questions}),
        "questions_by_hops": _sorted_counter(hops),
        "unique_questions_by_hops": _sorted_counter(unique_hops),
        "questions_by_distractor_family": _sorted_counter(family),
        "splits": {
            name: {
                "questions": len(splits[name]),
                "unique_questions": len({gold[id(q)] for q in splits[name]}),
                "concepts": len({q.concept for q in splits[name]}),
            }
            for name in sorted(splits)
        },
    }
