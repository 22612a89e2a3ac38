"""oLMpics language controls (Talmor et al. 2020, §3.3), plain Python over question files.

* NO LANGUAGE (``nolang``): every input token is removed except ``[MASK]`` and the task's
  *arguments* (the tokens the answer depends on): "A 15 year old person age is [MASK] than a 16
  year old person ." -> "15 [MASK] 16". The template ("language") words of each probe are listed in
  :data:`PROBE_LANGUAGE_WORDS`; for unknown files they are inferred as the words that occur in at
  least ``min_fraction`` of the stems (:func:`infer_language_words`). Numbers are always kept.
  When the file has a small fixed answer set (at most 10 distinct answers, as in the MC-MLM
  probes) the answers are replaced by nonsense words as in the paper: the sorted answer
  vocabulary is mapped in order to blah, ya, foo, ... (so older -> blah, younger -> ya).
  Open answer sets (taxonomy conjunction, MC-QA probes) are arguments and are kept. The choice
  between the two is made once for a probe, on the pooled answers of its train and dev files
  (:func:`pooled_answer_map`), so a small dev sample of an open-set probe (a handful of distinct
  answers) keeps its real answers like its train file, and both files map a word the same way.
* PERTURBED LANGUAGE (``perturbed``): the probe's key words (:data:`PROBE_KEY_WORDS`, e.g.
  "age" and "than" in Age Comparison, "and" in Property Conjunction) are replaced, occurrence by
  occurrence, by seeded random draws from the paper's 10 nonsense words; the rest is unchanged.
"""
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence

from mcqa_probes.data.question import Choice, MultipleChoiceQuestion, read_questions
from mcqa_probes.common.io import atomic_open

NONSENSE_WORDS = ("blah", "ya", "foo", "snap", "woo", "boo", "da", "wee", "foe", "fee")
MASK = "[MASK]"
CONTROLS = ("nolang", "perturbed")

#: oLMpics file-name prefixes -> probe names (docs/formats.md).
FILE_PROBES = {
    "number_comparison_age_compare_masked": "age_comparison",
    "size_comparison": "objects_comparison",
    "antonym_synonym_negation": "antonym_negation",
    "coffee_cats_quantifiers": "always_never",
    "hypernym_conjunction": "taxonomy_conjunction",
    "compositional_comparison": "multihop_composition",
    "conjunction_filt4": "property_conjunction",
    "composition_v2": "encyclopedic_composition",
}

_COMMON = {"a", "an", "the", "is", "are", "was", "of", "to", "in", "at", "and", "it", "he", "she"}
PROBE_LANGUAGE_WORDS: Dict[str, FrozenSet[str]] = {
    name: frozenset(words) | _COMMON
    for name, words in {
        "age_comparison": {"year", "old", "person", "age", "than", "me", "if", "i", "am"},
        "objects_comparison": {"size", "usually", "much", "than"},
        "antonym_negation": {"really", "ready", "very"},
        "always_never": {"has", "have", "than", "contains", "dish", "with", "part", "diet", "placed", "some", "'s"},
        "taxonomy_conjunction": {"both", "type"},
        "multihop_composition": {"when", "comparing", "year", "old", "oldest", "youngest"},
        "property_conjunction": {"what", "related", "usually", "located", "used", "for", "has", "part", "property",
                                 "can", "be", "made", "capable", "cause", "may", "desires", "desire", "have"},
        "encyclopedic_composition": {"when", "did", "band", "where", "played", "first", "form", "who", "that",
                                     "spouse", "actor", "company", "located", "established", "headquarters"},
    }.items()
}

#: Key words replaced in PERTURBED LANG. (the paper names "age"/"than" and "and").
PROBE_KEY_WORDS: Dict[str, FrozenSet[str]] = {
    "age_comparison": frozenset({"age", "than"}),
    "objects_comparison": frozenset({"size", "than"}),
    "antonym_negation": frozenset({"really"}),
    "always_never": frozenset({"has", "have", "contains", "than", "diet", "placed"}),
    "taxonomy_conjunction": frozenset({"and", "both", "type"}),
    "multihop_composition": frozenset({"comparing", "and", "oldest", "youngest"}),
    "property_conjunction": frozenset({"and"}),
    "encyclopedic_composition": frozenset({"band", "played", "first", "form", "spouse", "actor", "company",
                                           "headquarters", "established"}),
}

_WORD = r"[\w'\u0300-\u036f]+"  # combining accents stay inside words (Kovac\u030cevic\u0301)
_TOKENS = re.compile(r"\[MASK\]|" + _WORD + r"|[^\w\s]")


def probe_from_path(path) -> Optional[str]:
    """The probe name of an oLMpics file (``..._train.jsonl`` / ``..._dev.jsonl``), or None."""
    stem = Path(path).name.split(".")[0]
    stem = re.sub(r"_(train|dev|test)$", "", stem)
    return FILE_PROBES.get(stem, stem if stem in PROBE_LANGUAGE_WORDS else None)


def _is_word(token: str) -> bool:
    return any(ch.isalnum() for ch in token)


def infer_language_words(questions: Iterable[MultipleChoiceQuestion], min_fraction: float = 0.15) -> FrozenSet[str]:
    """Template words: lower-cased words in at least ``min_fraction`` of the stems (numbers excluded)."""
    counts: Counter = Counter()
    total = 0
    for question in questions:
        total += 1
        counts.update({t.lower() for t in _TOKENS.findall(question.stem) if _is_word(t) and t != MASK})
    return frozenset(w for w, c in counts.items() if total and c / total >= min_fraction and not w.isdigit())


def nonsense_answer_map(questions: Iterable[MultipleChoiceQuestion], max_answers: int = 10) -> Optional[Dict[str, str]]:
    """answer word -> nonsense word for a fixed answer set (sorted order), or None for open sets."""
    answers = sorted({c.text.strip() for q in questions for c in q.choices})
    if len(answers) > min(max_answers, len(NONSENSE_WORDS)):
        return None
    return dict(zip(answers, NONSENSE_WORDS))


def pooled_answer_map(*question_sets: Iterable[MultipleChoiceQuestion], max_answers: int = 10) -> Dict[str, str]:
    """The answer -> nonsense mapping decided on all the given files together (train + dev).

    ``{}`` when the pooled answer set is open: :func:`apply_control` then keeps every answer,
    whatever the answers of one file alone would suggest.
    """
    pooled = [question for questions in question_sets for question in questions]
    return nonsense_answer_map(pooled, max_answers) or {}


def sibling_splits(path) -> List[Path]:
    """The other splits of an oLMpics file (``X_train.jsonl`` -> existing ``X_dev.jsonl``, ``X_test.jsonl``)."""
    path = Path(path)
    match = re.match(r"^(.*)_(train|dev|test)(\..*)$", path.name)
    if not match:
        return []
    prefix, split, suffix = match.groups()
    return [path.with_name(f"{prefix}_{other}{suffix}") for other in ("train", "dev", "test")
            if other != split and path.with_name(f"{prefix}_{other}{suffix}").is_file()]


def _copy(question: MultipleChoiceQuestion, stem: str, choices: List[Choice], control: str) -> MultipleChoiceQuestion:
    extras = dict(question.extras)
    extras["control"] = control
    return MultipleChoiceQuestion(question.id, stem, choices, question.answer_index, extras)


def no_language(
    question: MultipleChoiceQuestion,
    language_words: FrozenSet[str],
    answer_map: Optional[Dict[str, str]] = None,
) -> MultipleChoiceQuestion:
    """NO LANG.: keep [MASK] and the argument tokens; map answers through ``answer_map`` if given."""
    kept = [
        t for t in _TOKENS.findall(question.stem)
        if t == MASK or (_is_word(t) and (t.isdigit() or t.lower() not in language_words))
    ]
    choices = [Choice(c.label, answer_map.get(c.text.strip(), c.text) if answer_map else c.text) for c in question.choices]
    return _copy(question, " ".join(kept), choices, "nolang")


def perturbed_language(question: MultipleChoiceQuestion, key_words: FrozenSet[str], rng: random.Random) -> MultipleChoiceQuestion:
    """PERTURBED LANG.: each key-word occurrence becomes a random nonsense word."""
    def replace(match: "re.Match") -> str:
        return rng.choice(NONSENSE_WORDS) if match.group(0).lower() in key_words else match.group(0)

    stem = re.sub(_WORD, replace, question.stem)
    return _copy(question, stem, list(question.choices), "perturbed")


def apply_control(
    questions: Sequence[MultipleChoiceQuestion],
    control: str,
    probe: Optional[str] = None,
    seed: int = 0,
    answer_map: Optional[Dict[str, str]] = None,
) -> List[MultipleChoiceQuestion]:
    """The control version of a whole file's questions (``probe`` picks the word lists).

    ``answer_map`` (NO LANG.): pass :func:`pooled_answer_map` of the probe's train and dev files
    (``{}`` = open answer set, answers kept); ``None`` decides on ``questions`` alone.
    """
    if control == "nolang":
        words = PROBE_LANGUAGE_WORDS.get(probe) if probe else None
        if words is None:
            words = infer_language_words(questions) | _COMMON
        mapping = answer_map if answer_map is not None else nonsense_answer_map(questions)
        return [no_language(q, words, mapping) for q in questions]
    if control == "perturbed":
        keys = PROBE_KEY_WORDS.get(probe) if probe else None
        if keys is None:
            keys = frozenset(sorted(infer_language_words(questions, 0.5) - _COMMON)[:3]) or frozenset({"and", "than"})
        rng = random.Random(seed)
        return [perturbed_language(q, keys, rng) for q in questions]
    raise ValueError(f"control: expected one of {CONTROLS}, got {control!r}")


def transform_file(source, target, control: str, probe: Optional[str] = None, seed: int = 0,
                   answer_map: Optional[Dict[str, str]] = None, pool: Optional[Sequence] = None) -> int:
    """Write the control version of a jsonl file; returns the number of questions.

    Without ``answer_map`` the NO LANG. answer mapping is decided on ``source`` pooled with the
    files in ``pool`` (default: its other splits next to it, :func:`sibling_splits`).
    """
    questions = list(read_questions(source))
    probe = probe or probe_from_path(source)
    if answer_map is None and control == "nolang":
        others = sibling_splits(source) if pool is None else list(pool)
        answer_map = pooled_answer_map(questions, *(read_questions(other) for other in others))
    transformed = apply_control(questions, control, probe, seed, answer_map)
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(target, "w", encoding="utf-8") as handle:
        for question in transformed:
            handle.write(json.dumps(question.to_json()) + "\n")
    return len(transformed)
