"""Item records: one JSON object per question per model, what a model did with each question
(plain Python: no torch). The one writer (:func:`write_item_records`) and the one reader
(:func:`read_item_records`) of the format; everything that scores questions builds its records
with :func:`item_record` and everything that reads them (the paired comparison, calibration, the
item browser, robust knowledge across prompts) goes through :func:`read_item_records`.

The format (jsonl, one object per line; keys in this order)::

    {"model": "smollm2", "section": "wordnetqa", "probe": "hypernymy", "id": "0-hypernym-0-1-0",
     "question": "In 'she played ...' names a kind of", "choices": ["tulip, ...", ..., "brass, ..."],
     "gold": 4, "cluster": "trumpet.n.01", "hops": 1, "distractor_family": "random",
     "concept": "trumpet.n.01",
     "scores": {"cloze/sum": [-31.2, ...], "cloze/chars": [...], "choice_only": [...], "letters/rot0": [...]},
     "probabilities": {"cloze/sum": [0.01, ...], ...},
     "chosen": {"cloze/sum": 4, ...}, "correct": {"cloze/sum": true, ...},
     "primary": "cloze/sum"}

* ``model``: the model's label on the page (the card's column header; ``bin/zero_shot``: ``--model``).
* ``section``: ``wordnetqa``, ``olmpics``, ``winoventi``, ``commonsenseqa`` (the card's section ids),
  or what the writer was told (``bin/zero_shot``: ``zero_shot``; ``allennlp evaluate``: ``evaluate``;
  ``bin/artifact_audit``: ``artifact_audit``).
* ``probe``: the probe's name in its section (``hypernymy``, an oLMpics file name, ``dev``, ``sanity``,
  WinoVenti's ``generic`` / ``exception``, ``hypernymy/test`` for a split file, ...).
* ``id``: the question's id in its file (unique within model / section / probe: the key of a record).
* ``question``, ``choices``: the stem and the choice texts in the file's order; ``gold``: the gold
  choice's index in ``choices``.
* ``cluster``: the semantic-cluster key (:func:`mcqa_probes.data.question.cluster_key`), or null;
  ``hops``: ISA hops k (int) or null; ``distractor_family``: ``random``, ``sister``, ... or null
  (:func:`mcqa_probes.metrics.probe_records.distractor_family`); ``concept``: the question's concept
  (``notes.gold_synset``, ``notes.concept``, ``question_concept``) or null.
* ``scores``: per prompt, one float per choice, in the order of ``choices`` (higher = more likely;
  a rotated prompt's scores are put back in the file's order); ``probabilities``: per prompt, the
  softmax of its scores; ``chosen``: per prompt, the index of the highest score (the first on a
  tie); ``correct``: per prompt, ``chosen == gold``.
* ``primary``: the prompt whose answer is the model's answer on the page (the one its accuracy is
  reported under); always a key of ``scores``.

Prompt names (:data:`PROMPTS`): ``mcqa`` (a multiple-choice QA archive's logits), ``mlm`` (a masked
LM's scores at the [MASK]), ``cloze/sum``, ``cloze/mean``, ``cloze/chars``, ``cloze/pmi`` (a causal
LM's log-likelihood of each choice after the cloze prompt, under each normalisation; oLMpics MC-MLM
stems are scored as whole sentences and still named ``cloze/...``), ``letters/rot0`` ..
``letters/rot<K-1>`` (the lettered prompt, the letters' log-probabilities, with the choices rotated
r places: ``letters/rot0`` is the file's order), ``choice_only`` (the causal LM's choice-only
control: each choice after the neutral prompt, the question hidden, under the primary normalisation;
and the Choice-Only-GloVe model's logits, model ``Choice-Only-GloVe``).

``letters/pride/rot<r>`` (:func:`pride_prompt`) is not a way of asking but the lettered prompt's
answer under rotation r with the letter prior removed, PriDe-style (Zheng et al. 2023): wherever a
question was asked under all K rotations of the lettered prompt, :func:`merge_records` adds them
(:func:`add_pride_prompts`). The prior of each letter position is estimated on the calibration subset,
the questions of the same model / section / probe asked under all K rotations (with ``rotations:
cyclic``, every question of the run), exactly as the ``debiased_accuracy`` metric estimates it
(:class:`mcqa_probes.metrics.rotations.RotationTally`); the scores are the debiased log-probabilities
of the letters (each letter's log-probability minus its position's log prior, renormalised over the
letters: :func:`mcqa_probes.metrics.rotations.debias`), in the file's order, so that ``probabilities``
are the debiased choice probabilities (the observed probability of each letter divided by its prior,
renormalised) and ``chosen`` / ``correct`` the debiased answer.

Where they are written: next to the metrics of what scored them; the report card writes
``<out>/items/<model>/<section>.jsonl`` for every model and section (:func:`item_file`) and its
Choice-Only-GloVe control's as ``<out>/items/Choice-Only-GloVe/wordnetqa.jsonl``; ``bin/artifact_audit``
``OUT/runs/<probe>/<model>/items_<split>.jsonl`` for every trained baseline;
``bin/zero_shot --items-file`` and ``allennlp evaluate --overrides '{"model.items_file": ...}'``
where they are told; ``bin/probe_report PREDICTIONS --items-file`` turns the lines of ``allennlp
predict --predictor mcqa`` into records (:func:`records_from_predictions`). Floats are written as Python's ``repr`` (the full double), so a record read
back gives the numbers the model computed (in fp32, widened).
"""
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence

from mcqa_probes.common.io import McqaFormatError, PathLike, read_jsonl, write_jsonl
from mcqa_probes.data.question import cluster_key, lookup
from mcqa_probes.metrics.probe_records import distractor_family
from mcqa_probes.metrics.rotations import RotationTally, debias, log_softmax

#: the prompt names of the scoring paths (a ``letters/rot<r>`` for every rotation r)
PROMPTS = ("mcqa", "mlm", "cloze/sum", "cloze/mean", "cloze/chars", "cloze/pmi", "letters/rot0", "choice_only",
           "letters/pride/rot0")

#: the keys of a record, in the order they are written
KEYS = ("model", "section", "probe", "id", "question", "choices", "gold", "cluster", "hops", "distractor_family",
        "concept", "scores", "probabilities", "chosen", "correct", "primary")

#: where a question's concept is looked for, first match wins (a WordNet probe's synset, an
#: ontology probe's ``concept_id``, CommonsenseQA's question concept)
CONCEPT_FIELDS = ("notes.gold_synset", "notes.concept", "notes.concept_id", "question_concept")


@dataclass
class ItemSink:
    """Where a run that is told to keep item records puts them (``bin/zero_shot --items-file``): the
    records' ``model``, ``section`` and ``probe``, and the list they are added to (written afterwards by
    :func:`write_item_records`)."""

    model: str
    section: str
    probe: str
    records: List[Dict[str, Any]] = field(default_factory=list)


def letters_prompt(rotation: int) -> str:
    """The prompt name of the lettered prompt rotated ``rotation`` places (``letters/rot2``)."""
    return f"letters/rot{int(rotation)}"


def pride_prompt(rotation: int) -> str:
    """The prompt name of the PriDe-debiased lettered prompt rotated ``rotation`` places
    (``letters/pride/rot2``; :func:`add_pride_prompts`)."""
    return f"letters/pride/rot{int(rotation)}"


def softmax(scores: Sequence[float]) -> List[float]:
    """The softmax of ``scores`` (stable; a -inf score gets 0; all -inf: uniform)."""
    finite = [s for s in scores if s != float("-inf")]
    if not finite:
        return [1.0 / len(scores)] * len(scores) if scores else []
    top = max(finite)
    weights = [0.0 if s == float("-inf") else math.exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def first_max(scores: Sequence[float]) -> int:
    """The index of the highest score, the first one on a tie (NaN never wins)."""
    best = 0
    for index, score in enumerate(scores):
        if score > scores[best] or (scores[best] != scores[best] and score == score):
            best = index
    return best


def unrotate(scores: Sequence[float], rotation: int) -> List[float]:
    """Scores of a question asked with its choices rotated ``rotation`` places
    (:func:`mcqa_probes.data.causal_prompts.rotate`: choice j shown at (j + r) mod K), back in the
    file's order."""
    count = len(scores)
    return [float(scores[(j + rotation) % count]) for j in range(count)] if count else []


def _int(value: Any) -> Optional[int]:
    try:
        return None if value is None or value == "" or isinstance(value, bool) else int(value)
    except (TypeError, ValueError):
        return None


def _concept(metadata: Mapping[str, Any]) -> Optional[str]:
    for dotted in CONCEPT_FIELDS:
        value = lookup(dict(metadata), dotted)
        if value not in (None, ""):
            return str(value)
    return None


def item_record(model: str, section: str, probe: str, metadata: Mapping[str, Any],
                scores: Mapping[str, Sequence[float]], primary: str,
                cluster_field: Optional[str] = None) -> Dict[str, Any]:
    """The record of one question: ``metadata`` is the instance metadata of the readers
    (``id``, ``question``, ``choices``, ``answer_index``, ``notes``; a rotated instance's choices
    and answer are put back in the file's order from ``rotation``), ``scores`` one list of
    per-choice scores per prompt name, in the file's order, ``primary`` the model's own prompt."""
    if primary not in scores:
        raise ValueError(f"item record: the primary prompt {primary!r} has no scores (prompts: {sorted(scores)})")
    choices = [str(c) for c in metadata.get("choices") or []]
    count = int(metadata.get("num_real_choices") or len(choices))
    choices = choices[:count]
    gold = _int(metadata.get("answer_index"))
    rotation = _int(metadata.get("rotation")) or 0
    if rotation and choices:
        choices = [choices[(j + rotation) % count] for j in range(count)]
        gold = None if gold is None else (gold - rotation) % count
    notes = metadata.get("notes") if isinstance(metadata.get("notes"), dict) else {}
    record: Dict[str, Any] = {
        "model": str(model), "section": str(section), "probe": str(probe),
        "id": str(metadata.get("question_key", metadata.get("id", ""))),
        "question": str(metadata.get("question", "")), "choices": choices, "gold": gold,
        "cluster": cluster_key(dict(metadata), cluster_field), "hops": _int(notes.get("hops")),
        "distractor_family": distractor_family(notes), "concept": _concept(metadata),
        "scores": {}, "probabilities": {}, "chosen": {}, "correct": {}, "primary": primary,
    }
    for prompt, values in scores.items():
        add_prompt(record, prompt, values)
    return record


def add_prompt(record: Dict[str, Any], prompt: str, scores: Sequence[float]) -> Dict[str, Any]:
    """Put one prompt's per-choice ``scores`` (file order) into ``record``, with their
    probabilities, the chosen index and whether it is right."""
    values = [float(s) for s in scores]
    if record["choices"] and len(values) != len(record["choices"]):
        raise ValueError(f"item record {record['id']}: {len(values)} scores under {prompt!r} for "
                         f"{len(record['choices'])} choices")
    record["scores"][prompt] = values
    record["probabilities"][prompt] = softmax(values)
    record["chosen"][prompt] = first_max(values)
    record["correct"][prompt] = record["gold"] is not None and record["chosen"][prompt] == record["gold"]
    return record


def merge_records(records: Iterable[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Records of the same model / section / probe / id (one question scored under several prompts,
    or under every rotation) merged into one, in the order of their first appearance; the first
    record's ``primary`` is kept. Questions asked under every rotation of the lettered prompt get
    their PriDe-debiased prompts (:func:`add_pride_prompts`)."""
    merged: Dict[tuple, Dict[str, Any]] = {}
    for record in records:
        key = record_key(record)
        if key not in merged:
            merged[key] = {**record, **{name: dict(record[name]) for name in ("scores", "probabilities", "chosen",
                                                                             "correct")}}
            continue
        target = merged[key]
        for name in ("scores", "probabilities", "chosen", "correct"):
            target[name].update(record[name])
    return add_pride_prompts(list(merged.values()))


def _rotations(record: Mapping[str, Any]) -> Optional[Dict[int, List[float]]]:
    """The lettered prompt's scores of a record asked under all its K >= 2 rotations, each in the
    letters' order (position p: the choice shown there), else None."""
    count = len(record["choices"])
    names = [letters_prompt(r) for r in range(count)]
    if count < 2 or not all(name in record["scores"] for name in names):
        return None
    return {r: unrotate(record["scores"][name], -r) for r, name in enumerate(names)}


def add_pride_prompts(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Add the PriDe-debiased prompts ``letters/pride/rot<r>`` (see the module docstring) to every
    record (merged: one per question) asked under all K rotations of the lettered prompt; the prior is
    estimated per model / section / probe and number of choices on those records. Other records are
    left as they are. Returns ``records`` (changed in place)."""
    groups: Dict[tuple, List[tuple]] = {}
    for record in records:
        shown = _rotations(record)
        if shown is not None:
            groups.setdefault(record_key(record)[:3], []).append((record, shown))
    for members in groups.values():
        tally = RotationTally()  # the calibration subset: the group's questions asked under every rotation
        for record, shown in members:
            count = len(shown)
            for rotation, scores in shown.items():
                gold = record["gold"] if record["gold"] is not None else 0  # the prior does not read the gold
                tally.add(record["id"], rotation, (gold + rotation) % count, scores)
        prior = tally.prior()
        for record, shown in members:
            for rotation, scores in shown.items():
                debiased = debias(log_softmax(scores), prior[len(scores)])
                add_prompt(record, pride_prompt(rotation), unrotate(debiased, rotation))
    return records


def record_key(record: Mapping[str, Any]) -> tuple:
    """(model, section, probe, id): what identifies a record."""
    return (record["model"], record["section"], record["probe"], record["id"])


def item_file(out: PathLike, model_dir: str, section: str) -> Path:
    """``<out>/items/<model_dir>/<section>.jsonl``: where the card keeps a model's records of a section
    (``model_dir``: the model's directory name, as for ``sections/<model>/``)."""
    return Path(out) / "items" / model_dir / f"{section}.jsonl"


def write_item_records(path: PathLike, records: Iterable[Mapping[str, Any]]) -> int:
    """Write records (merged by :func:`merge_records`), atomically, one JSON object per line with the
    keys in :data:`KEYS` order; returns how many. Every record is checked first (:func:`check_record`)."""
    rows = []
    for number, record in enumerate(merge_records(dict(r) for r in records), start=1):
        check_record(record, None, number)
        rows.append({key: record[key] for key in KEYS})
    write_jsonl(path, rows, ensure_ascii=False)
    return len(rows)


def _fail(message: str, path: Optional[str], line: Optional[int]) -> None:
    raise McqaFormatError(f"item record: {message}", path, line)


def check_record(record: Any, path: Optional[str] = None, line: Optional[int] = None) -> Dict[str, Any]:
    """``record`` if it is a well-formed item record, else :class:`McqaFormatError` naming ``path`` and ``line``."""
    if not isinstance(record, dict):
        _fail(f"expected a JSON object, got {type(record).__name__}", path, line)
    missing = [key for key in KEYS if key not in record]
    if missing:
        _fail(f"missing {', '.join(repr(k) for k in missing)}", path, line)
    for key in ("model", "section", "probe", "id", "primary"):
        if not isinstance(record[key], str):
            _fail(f"{key!r} must be a string", path, line)
    if not isinstance(record["choices"], list) or not record["choices"]:
        _fail("'choices' must be a non-empty list", path, line)
    count = len(record["choices"])
    gold = record["gold"]
    if gold is not None and (not isinstance(gold, int) or isinstance(gold, bool) or not 0 <= gold < count):
        _fail(f"'gold' must be an index into the {count} choices, got {gold!r}", path, line)
    for key in ("scores", "probabilities", "chosen", "correct"):
        if not isinstance(record[key], dict):
            _fail(f"{key!r} must be an object (prompt -> value)", path, line)
    if record["primary"] not in record["scores"]:
        _fail(f"the primary prompt {record['primary']!r} has no scores", path, line)
    for prompt, values in record["scores"].items():
        if (not isinstance(values, list) or len(values) != count
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)):
            _fail(f"scores[{prompt!r}] must be {count} numbers", path, line)
        probabilities = record["probabilities"].get(prompt)
        if not isinstance(probabilities, list) or len(probabilities) != count:
            _fail(f"probabilities[{prompt!r}] must be {count} numbers", path, line)
        if not isinstance(record["chosen"].get(prompt), int) or not 0 <= record["chosen"][prompt] < count:
            _fail(f"chosen[{prompt!r}] must be an index into the {count} choices", path, line)
        if not isinstance(record["correct"].get(prompt), bool):
            _fail(f"correct[{prompt!r}] must be true or false", path, line)
        if any(v != v or v == float("inf") for v in values):  # -inf is a choice ruled out; NaN / +inf is a fault
            _fail(f"scores[{prompt!r}] must be numbers, not NaN or +Infinity", path, line)
        chosen = record["chosen"][prompt]
        if chosen != first_max(values):
            _fail(f"chosen[{prompt!r}] is {chosen}, but the highest of its scores is choice {first_max(values)}",
                  path, line)
        if record["correct"][prompt] != (gold is not None and chosen == gold):
            _fail(f"correct[{prompt!r}] is {str(record['correct'][prompt]).lower()}, but choice {chosen} is chosen "
                  f"and the gold is {gold}", path, line)
    return record


def read_item_records(path: PathLike) -> List[Dict[str, Any]]:
    """The records of an item file, each checked (:func:`check_record`); a bad line is one
    :class:`McqaFormatError` naming the file and the line. Duplicated keys are an error too."""
    records, seen = [], {}
    for number, data in read_jsonl(path, what="item record", allow_empty=True):
        record = check_record(data, str(path), number)
        key = record_key(record)
        if key in seen:
            _fail(f"duplicate record {key} (first on line {seen[key]})", str(path), number)
        seen[key] = number
        records.append(record)
    return records


def read_item_files(paths: Iterable[PathLike]) -> List[Dict[str, Any]]:
    """The records of several item files (a file or a directory, searched for ``*.jsonl``), in order.
    A record of one model / section / probe / id in two files is an error naming both (two runs of one
    model, e.g. under two ``--score``: each needs a label of its own, or its answers would count twice)."""
    records: List[Dict[str, Any]] = []
    found: Dict[tuple, Path] = {}
    for path in paths:
        path = Path(path)
        files = sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]
        for file in files:
            for record in read_item_records(file):
                key = record_key(record)
                if key in found:
                    _fail(f"record {key} is also in {found[key]}: two runs of model {record['model']!r} need a label "
                          "each (bin/zero_shot --items-label, bin/probe_report --model-label, allennlp evaluate's "
                          "model.items_label)", str(file), None)
                found[key] = file
                records.append(record)
    return records


def prediction_prompt(prediction: Mapping[str, Any]) -> str:
    """The prompt name of a line of ``allennlp predict --predictor mcqa``: ``letters/rot0`` or
    ``cloze/<score>`` for a causal LM (its ``score``, ``prompt_format``), ``mcqa`` otherwise."""
    if "choice_scores" not in prediction:
        return "mcqa"
    if prediction.get("prompt_format") == "letters":
        return letters_prompt(0)
    return f"cloze/{prediction.get('score') or 'sum'}"


def prediction_scores(prediction: Mapping[str, Any]) -> List[float]:
    """A prediction line's per-choice scores: a causal LM's ``choice_scores``; otherwise the log of
    ``probabilities`` (the archive's logits up to a constant: the same softmax and the same choice)."""
    if "choice_scores" in prediction:
        return [float(s) for s in prediction["choice_scores"]]
    return [math.log(max(float(p), 1e-300)) for p in prediction["probabilities"]]


def records_from_predictions(path: PathLike, model: str, section: str = "predict", probe: Optional[str] = None,
                             cluster_field: Optional[str] = None) -> List[Dict[str, Any]]:
    """The item records of a predictions file (``allennlp predict ARCHIVE FILE --predictor mcqa``: one
    JSON line per question with ``choices``, ``probabilities``, ``answer_index`` and ``notes`` copied
    from a labelled file), as ``model`` / ``section`` / ``probe`` (default: the file's stem), one per
    labelled line (an unlabelled question has no correctness: left out). The prompt is
    :func:`prediction_prompt`'s, the scores :func:`prediction_scores`'. A line without an id is
    ``line-<n>``. Written by :func:`write_item_records` like every other record."""
    probe = probe or Path(path).name.split(".", 1)[0]
    records, seen = [], {}
    for number, data in read_jsonl(path, what="prediction"):
        if not isinstance(data, dict):
            raise McqaFormatError(f"expected a JSON object, got {type(data).__name__}", str(path), number)
        missing = [key for key in ("choices", "probabilities") if not isinstance(data.get(key), list)]
        if missing:
            raise McqaFormatError(f"expected {' and '.join(repr(k) for k in missing)} (a line of `allennlp predict "
                                  "--predictor mcqa`)", str(path), number)
        if data.get("answer_index") is None:
            continue
        metadata = {**data, "id": str(data.get("id") or f"line-{number}")}
        if metadata["id"] in seen:
            raise McqaFormatError(f"item records: id {metadata['id']!r} again (first on line {seen[metadata['id']]})",
                                  str(path), number)
        seen[metadata["id"]] = number
        prompt = prediction_prompt(data)
        try:
            records.append(item_record(model, section, probe, metadata, {prompt: prediction_scores(data)}, prompt,
                                       cluster_field))
        except ValueError as error:
            raise McqaFormatError(str(error), str(path), number) from None
    return records
