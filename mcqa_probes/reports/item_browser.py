"""The item browser: one self-contained offline HTML page over item records (plain Python: no torch).

``write_item_browser(records, "card/items.html")`` writes a page that shows, question by question,
what every model did: the choices with each model's score and probability under every prompt, the
chosen and the gold choice, the question's semantic cluster and its siblings (the other questions of
the cluster), and whether each model was right. Filters: model, probe, hops, distractor family,
right / wrong (under the primary prompt, one prompt, or every prompt: robust knowledge,
:mod:`mcqa_probes.metrics.robust_knowledge`), "A right, B wrong" for two models, a concept search and
a cluster. The page needs no server and no network: the JavaScript (plain, no library) and the data
are inline. The report card writes it next to ``report.html`` from ``<out>/items/``;
``bin/item_browser RECORDS... --out items.html`` from any item files.

The data (:func:`browser_data`) is grouped per question, so a question's text and choices are stored
once however many models answered it, and each model's answer is a short array (the prompts it was
asked under, by index into one list, the outcomes as a string, the chosen choices, the scores rounded
to :data:`SCORE_DIGITS` decimals; probabilities only where they are not the softmax of the scores).
The page parses it once, builds typed-array indexes (probe, hops, family, cluster, and per model and
prompt the outcome of every question), filters by one pass over them and renders only the visible
page of questions, so it stays responsive at 5 probes x 2,000 questions x 3 models.

The filters are also the page's URL fragment (``items.html#probe=wordnetqa/hypernymy&outcome=wrong``,
keys :data:`FILTER_KEYS`), so a view can be linked, and a test can load one. The same records give a
byte-identical page (no time stamp; questions, models and prompts in the order of first appearance,
prompts in :func:`~mcqa_probes.metrics.robust_knowledge.prompt_sort_key` order).
"""
import json
import math
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from mcqa_probes.common.io import PathLike, write_text
from mcqa_probes.metrics.item_records import read_item_records, record_key, softmax
from mcqa_probes.metrics.robust_knowledge import ordered_prompts, robust_by_group

#: the page's template (package data, beside the report card's)
TEMPLATE = "items.html.j2"
#: decimals kept of each score
SCORE_DIGITS = 3
#: how far the given probabilities may be from the softmax of the scores to be left out (recomputed by the page)
PROBABILITY_TOLERANCE = 1e-6
#: the URL-fragment keys of the filters (``#key=value&...``)
FILTER_KEYS = ("model", "probe", "hops", "family", "outcome", "under", "a", "b", "concept", "cluster", "page", "size")
#: questions per page unless the fragment says ``size=``
PAGE_SIZE = 25
FORMAT_VERSION = 1


class ItemBrowserError(ValueError):
    """Records that do not fit together (the same question with other choices, a record twice)."""


def _score(value: float) -> Optional[float]:
    if value is None or not math.isfinite(value):
        return None  # -inf (a choice the model cannot produce) and NaN: JSON has no such numbers
    rounded = round(float(value), SCORE_DIGITS)
    return 0.0 if rounded == 0 else rounded


def _probabilities(scores: Sequence[float], given: Sequence[float]) -> Optional[List[float]]:
    """None when ``given`` is the softmax of ``scores`` (the page recomputes it), else ``given`` (rounded)."""
    expected = softmax([float(s) for s in scores])
    if len(expected) == len(given) and all(abs(a - float(b)) <= PROBABILITY_TOLERANCE for a, b in zip(expected, given)):
        return None
    return [round(float(p), 6) for p in given]


def question_key(record: Mapping[str, Any]) -> Tuple[str, str, str]:
    """(section, probe, id): one question, whichever model answered it."""
    return (record["section"], record["probe"], record["id"])


def browser_data(records: Sequence[Mapping[str, Any]], title: str = "Item browser",
                 sources: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """The page's data (JSON-able, compact) from item records (:mod:`mcqa_probes.metrics.item_records`).

    ``sources``: per record, where it was read (a file name), for the error of a record given twice
    or of one question with other choices for another model. :class:`ItemBrowserError` then."""
    models: List[str] = []
    probes: List[Tuple[str, str]] = []
    families: List[str] = []
    clusters: Dict[Tuple[int, str], int] = {}
    questions: List[list] = []
    question_index: Dict[Tuple[str, str, str], int] = {}
    seen: Dict[tuple, int] = {}

    def where(position: int) -> str:
        return f" ({sources[position]})" if sources else ""

    for position, record in enumerate(records):
        key = record_key(record)
        if key in seen:
            raise ItemBrowserError(f"record {key} given twice{where(seen[key])}{where(position)}")
        seen[key] = position
        if record["model"] not in models:
            models.append(record["model"])
        probe = (record["section"], record["probe"])
        if probe not in probes:
            probes.append(probe)
        family = record.get("distractor_family")
        if family is not None and family not in families:
            families.append(family)
        qkey = question_key(record)
        if qkey not in question_index:
            cluster = record.get("cluster")
            cluster_id = -1
            if cluster not in (None, ""):
                cluster_id = clusters.setdefault((probes.index(probe), str(cluster)), len(clusters))
            question_index[qkey] = len(questions)
            questions.append([probes.index(probe), record["id"], record.get("question", ""), list(record["choices"]),
                              record.get("gold"), cluster_id, record.get("hops"),
                              -1 if family is None else families.index(family), record.get("concept"), position])
        else:
            first = questions[question_index[qkey]]
            if list(record["choices"]) != first[3] or record.get("gold") != first[4]:
                raise ItemBrowserError(
                    f"question {qkey} has other choices or another gold answer for model {record['model']!r}"
                    f"{where(position)} than for the model first seen with it{where(first[9])}")
    prompts = ordered_prompts(p for record in records for p in record["scores"])
    prompt_index = {p: i for i, p in enumerate(prompts)}
    robust = {}
    for (model, section, probe), result in robust_by_group(records).items():
        members = [r for r in records if (r["model"], r["section"], r["probe"]) == (model, section, probe)]
        for record, entry in zip(members, result["per_question"]):
            robust[record_key(record)] = "-" if entry["known"] is None else ("1" if entry["known"] else "0")
    prompt_sets: List[List[int]] = []
    answers: List[List[Any]] = [[None] * len(questions) for _ in models]
    for record in records:
        asked = sorted((prompt_index[p] for p in record["scores"]), key=lambda i: i)
        if asked not in prompt_sets:
            prompt_sets.append(asked)
        names = [prompts[i] for i in asked]
        correct = record.get("correct") or {}
        entry = [prompt_sets.index(asked), prompt_index[record["primary"]],
                 "".join("1" if correct.get(p) else "0" for p in names), robust[record_key(record)],
                 [int(record["chosen"][p]) for p in names],
                 [[_score(s) for s in record["scores"][p]] for p in names]]
        given = [_probabilities(record["scores"][p], (record.get("probabilities") or {}).get(p, [])) for p in names]
        if any(p is not None for p in given):
            entry.append(given)
        answers[models.index(record["model"])][question_index[question_key(record)]] = entry
    for question in questions:
        question.pop()  # the position of the record it was first seen in (for the errors above)
    cluster_names = [name for (_, name) in sorted(clusters, key=clusters.get)]
    return {"version": FORMAT_VERSION, "title": title, "models": models,
            "probes": [f"{section}/{probe}" for section, probe in probes],
            "prompts": prompts, "families": families, "clusters": cluster_names, "prompt_sets": prompt_sets,
            "questions": questions, "answers": answers, "page_size": PAGE_SIZE}


def data_json(data: Mapping[str, Any]) -> str:
    """The data as compact JSON safe inside ``<script type="application/json">``."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_item_browser(records: Sequence[Mapping[str, Any]], title: str = "Item browser",
                        sources: Optional[Sequence[str]] = None, back_link: Optional[str] = None) -> str:
    """The page (HTML text); ``back_link``: a page to link back to (the card's ``report.html``)."""
    from mcqa_probes.reports.card.render import environment  # lazy: jinja2, only when a page is rendered

    data = browser_data(records, title, sources)
    return environment("html").get_template(TEMPLATE).render(
        title=title, data=data_json(data), back_link=back_link, questions=len(data["questions"]),
        records=len(records), models=data["models"], filter_keys=FILTER_KEYS)


def write_item_browser(records: Sequence[Mapping[str, Any]], path: PathLike, title: str = "Item browser",
                       sources: Optional[Sequence[str]] = None, back_link: Optional[str] = None) -> Path:
    """Write the page atomically (:func:`mcqa_probes.common.io.write_text`)."""
    return write_text(path, render_item_browser(records, title, sources, back_link))


def item_files(paths: Iterable[PathLike]) -> List[Path]:
    """Item files: each path as given, a directory searched for ``*.jsonl`` (sorted). A missing path is
    ``FileNotFoundError``; a directory without one is ``ItemBrowserError``."""
    files: List[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(path.rglob("*.jsonl"))
            if not found:
                raise ItemBrowserError(f"{path}: no item files (*.jsonl) in the directory")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such item file or directory")
    return files


def read_records(paths: Iterable[PathLike]) -> Tuple[List[Dict[str, Any]], List[str]]:
    """The records of item files (:func:`item_files`) and, per record, its file and line."""
    records: List[Dict[str, Any]] = []
    sources: List[str] = []
    for file in item_files(paths):
        found = read_item_records(file)
        lines = [number for number, raw in enumerate(file.read_bytes().splitlines(), start=1) if raw.strip()]
        records += found
        sources += [f"{file}, line {line}" for line in lines[: len(found)]]
    return records, sources


def item_browser_from_files(paths: Iterable[PathLike], out: PathLike, title: str = "Item browser",
                            back_link: Optional[str] = None) -> Dict[str, Any]:
    """Read item files and write the page; ``{"path", "records", "questions", "models"}``."""
    records, sources = read_records(paths)
    if not records:
        raise ItemBrowserError("no item records in " + ", ".join(str(p) for p in paths))
    path = write_item_browser(records, out, title, sources, back_link)
    return {"path": str(path), "records": len(records),
            "questions": len({question_key(r) for r in records}),
            "models": list(dict.fromkeys(r["model"] for r in records))}
