"""Synthetic item records of a realistic shape, for the item browser's tests and benchmark (plain Python).

:func:`synthetic_records` makes ``probes`` x ``questions`` x ``models`` records through the one record
builder (:func:`mcqa_probes.metrics.item_records.item_record`): WordNetQA-like questions (5 choices,
hops 1-3, four distractor families, clusters of 1-4 questions, a concept each); the first model an
MCQA archive (``mcqa``), the others causal LMs under the four cloze normalisations, five rotations of
the lettered prompt and the choice-only control. Scores are seeded pseudo-random numbers, so the same
arguments give the same records.
"""
import random
from typing import Any, Dict, List, Sequence

from mcqa_probes.metrics.item_records import item_record, letters_prompt

FAMILIES = ("random", "sister", "hypernym", "hyponym")
CAUSAL_PROMPTS = ("cloze/sum", "cloze/mean", "cloze/chars", "cloze/pmi", *(letters_prompt(r) for r in range(5)),
                  "choice_only")
WORDS = ("trumpet", "violin", "oak", "sparrow", "granite", "tulip", "copper", "falcon", "maple", "cello", "basalt",
         "heron", "lily", "brass", "willow")


def synthetic_records(questions: int = 2000, probes: Sequence[str] = ("definitions", "synonymy", "hypernymy",
                                                                       "hyponymy", "dictionary"),
                      models: Sequence[str] = ("archive", "smollm2", "qwen"), seed: int = 0) -> List[Dict[str, Any]]:
    """``len(probes) * questions * len(models)`` records (see the module docstring)."""
    rng = random.Random(seed)
    metadata: List[tuple] = []
    for probe in probes:
        cluster, left = 0, 0
        for number in range(questions):
            if left == 0:
                cluster, left = cluster + 1, rng.randint(1, 4)
            left -= 1
            word = WORDS[cluster % len(WORDS)]
            concept = f"{word}{cluster}.n.0{1 + cluster % 3}"
            metadata.append((probe, {
                "id": f"{probe}-{number}", "question": f"In 'the {word} number {number}', {word} is a kind of",
                "choices": [f"{WORDS[(cluster + k) % len(WORDS)]} choice {k}, a longer gloss of some words"
                            for k in range(5)],
                "answer_index": rng.randrange(5),
                "notes": {"hops": 1 + number % 3, "distractor_family": FAMILIES[number % 4], "cluster_key": concept,
                          "gold_synset": concept}}))
    records = []
    for index, model in enumerate(models):
        for probe, meta in metadata:
            skill = 0.3 + 0.2 * index
            gold = meta["answer_index"]

            def scores() -> List[float]:
                values = [rng.gauss(-20.0, 3.0) for _ in range(5)]
                if rng.random() < skill:
                    values[gold] = max(values) + rng.random()
                return values

            prompts = {"mcqa": scores()} if index == 0 else {prompt: scores() for prompt in CAUSAL_PROMPTS}
            records.append(item_record(model, "wordnetqa", probe, meta, prompts, "mcqa" if index == 0 else "cloze/sum"))
    return records
