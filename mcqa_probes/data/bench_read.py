"""Benchmark of the ``mcqa`` reader (``bin/bench_read``): batched fast tokenization against the
per-pair path it replaced and against one bare call of the fast tokenizer.

Three timings over the same first ``limit`` questions of a file (tokenizer loading excluded):

(a) ``reader``: ``list(reader.read(file))``, the reader as training uses it (JSON parsing, batched
    tokenization, allennlp Instances);
(b) ``per_pair``: the same questions through the per-pair reference path (what the reader did
    before: JSON parsing, the allennlp tokenizer per text, truncation and special tokens per pair);
(c) ``tokenizer_call``: ONE call of the HuggingFace fast tokenizer over the (question, choice)
    pairs (``tokenizer(stems, choices, truncation="longest_first", max_length=max_length)``: HF
    has no ``question_start``, and its ``only_first``/``only_second`` fail on pairs they cannot
    cut enough; the cost is the same), no parsing, no Instances.

Each is run ``repeat`` times and the best time is kept (the machine is shared). The instances of
(a) and (b) are compared (token ids, type ids, offsets, labels, metadata).
"""
import gc
import os
import tempfile
import time
from itertools import islice
from typing import Any, Callable, Dict, List, Optional

from mcqa_probes.common.timing import ratio
from mcqa_probes.data.question import read_numbered_questions, read_questions
from mcqa_probes.data.dataset_readers.mcqa import McqaReader

def instance_key(instance: Any) -> Any:
    """Everything of an mcqa instance that the model sees or reports, as plain data."""
    alternatives = [
        [(t.text, t.text_id, t.type_id, t.idx, t.idx_end) for t in field.tokens]
        for field in instance["alternatives"]
    ]
    label = instance["label"].sequence_index if "label" in instance.fields else None
    return alternatives, label, instance["metadata"].metadata


def _first_lines(data: str, limit: int, directory: str) -> str:
    """A copy of the lines of the first ``limit`` questions of ``data`` (so that every timed path
    reads exactly these)."""
    last = 0
    for line, _ in islice(read_numbered_questions(data, require_answer_key=False), limit):
        last = line
    path = os.path.join(directory, "questions.jsonl")
    with open(data, encoding="utf-8") as source, open(path, "w", encoding="utf-8") as target:
        target.writelines(islice(source, last))
    return path


def _best(function: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
        del result
    return best


def bench(
    model: str,
    data: str,
    limit: int = 1200,
    batch_size: int = 128,
    max_length: int = 256,
    truncation: str = "longest_first",
    repeat: int = 3,
    reader_kwargs: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]:
    """Times (a), (b) and (c) (see the module docstring); returns figures as a dict."""

    if not os.path.isfile(data):
        raise FileNotFoundError(f"--data: no such file {data}")
    settings = dict(transformer_model_name=model, max_length=max_length, truncation=truncation,
                    **(reader_kwargs or {}))
    reader = McqaReader(batch_size=batch_size, **settings)
    reference = McqaReader(**settings)
    with tempfile.TemporaryDirectory() as directory:
        path = _first_lines(data, limit, directory)
        questions = list(read_questions(path, require_answer_key=reader.require_answer_key))
        stems = [q.stem for q in questions for _ in reader._choice_list(q)]
        choices = [c.text for q in questions for c in reader._choice_list(q)]
        tokenizer = reader._tokenizer.tokenizer

        def read() -> List[Any]:
            return list(reader.read(path))

        def per_pair() -> List[Any]:
            return [reference._per_pair_instance(q)
                    for q in read_questions(path, require_answer_key=reference.require_answer_key)]

        def tokenizer_call() -> Any:
            return tokenizer(stems, choices, truncation="longest_first", max_length=max_length)

        tokenizer(stems[:8], choices[:8])  # warm-up (lazy initialisations)
        identical = [instance_key(i) for i in read()] == [instance_key(i) for i in per_pair()]
        seconds = {"reader": _best(read, repeat), "per_pair": _best(per_pair, repeat),
                   "tokenizer_call": _best(tokenizer_call, repeat)}
    count = len(questions)
    return {
        "model": model,
        "data": data,
        "questions": count,
        "pairs": len(choices),
        "batch_size": batch_size,
        "max_length": max_length,
        "truncation": truncation,
        "repeat": repeat,
        "seconds": seconds,
        "questions_per_s": {name: ratio(count, value) for name, value in seconds.items()},
        "speedup_reader_over_per_pair": ratio(seconds["per_pair"], seconds["reader"]),
        "reader_over_tokenizer_call": ratio(seconds["reader"], seconds["tokenizer_call"]),
        "identical": identical,
    }
