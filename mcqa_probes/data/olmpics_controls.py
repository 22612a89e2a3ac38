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

The word lists are the paper's probes'. For any other file (:func:`control_words`) they are inferred
from the stems of all its splits together (train and dev get the same words), a word counting as
template language only when it is in at least ``min_fraction`` of the stems and in
:data:`MIN_STEMS` of them (an argument of a small file would otherwise pass: one stem of four is
25%); a warning names the inferred words, and a NO LANG. control that leaves no argument in any stem
is an error (the file's template cannot be told from its arguments), not a file of bare masks.
"""
import json
import logging
import random
import re
from collections import Counter
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence

from mcqa_probes.data.question import Choice, MultipleChoiceQuestion, read_questions
from mcqa_probes.common.io import atomic_open

logger = logging.getLogger(__name__)

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


#: an inferred template word is in at least this many stems (and ``min_fraction`` of them)
MIN_STEMS = 2


def _stem_words(questions: Iterable[MultipleChoiceQuestion]) -> "tuple[Counter, int]":
    """(lower-cased word -> number of stems holding it, numbers and [MASK] left out; number of stems)."""
    counts: Counter = Counter()
    total = 0
    for question in questions:
        total += 1
        counts.update({t.lower() for t in _TOKENS.findall(question.stem) if _is_word(t) and t != MASK and not t.isdigit()})
    return counts, total


def infer_language_words(questions: Iterable[MultipleChoiceQuestion], min_fraction: float = 0.15,
                         min_stems: int = MIN_STEMS) -> FrozenSet[str]:
    """Template words: lower-cased words in at least ``min_fraction`` of the stems and in at least
    ``min_stems`` of them (numbers excluded)."""
    counts, total = _stem_words(questions)
    return frozenset(w for w, c in counts.items() if c >= min_stems and c / total >= min_fraction)


def infer_key_words(questions: Iterable[MultipleChoiceQuestion], count: int = 3) -> FrozenSet[str]:
    """PERTURBED LANG.'s key words of an unknown probe: its ``count`` most frequent template words (in at
    least half of the stems, common function words left out; ties alphabetical), else "and" and "than"."""
    counts, total = _stem_words(questions)
    frequent = sorted((w for w, c in counts.items() if w not in _COMMON and c >= MIN_STEMS and c / total >= 0.5),
                      key=lambda w: (-counts[w], w))
    return frozenset(frequent[:count]) or frozenset({"and", "than"})


def control_words(control: str, probe: Optional[str], *question_sets: Iterable[MultipleChoiceQuestion]) -> FrozenSet[str]:
    """The words a control acts on: the paper's lists for an oLMpics ``probe``, else inferred from
    every given file's stems together (a warning names them)."""
    if control not in CONTROLS:
        raise ValueError(f"control: expected one of {CONTROLS}, got {control!r}")
    known = (PROBE_LANGUAGE_WORDS if control == "nolang" else PROBE_KEY_WORDS).get(probe) if probe else None
    if known is not None:
        return known
    pooled = [question for questions in question_sets for question in questions]
    if control == "nolang":
        words = infer_language_words(pooled) | _COMMON
        shown = sorted(words - _COMMON)
    else:
        words = shown = infer_key_words(pooled)
    logger.warning("%s control: %s is not one of the oLMpics probes (%s); its %s words are inferred from %d stems: "
                   "%s", control, repr(probe) if probe else "the file", ", ".join(sorted(PROBE_LANGUAGE_WORDS)),
                   "template" if control == "nolang" else "key", len(pooled), ", ".join(sorted(shown)) or "none")
    return words


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
    words: Optional[FrozenSet[str]] = None,
) -> List[MultipleChoiceQuestion]:
    """The control version of a whole file's questions (``probe`` picks the word lists).

    ``answer_map`` (NO LANG.): pass :func:`pooled_answer_map` of the probe's train and dev files
    (``{}`` = open answer set, answers kept); ``None`` decides on ``questions`` alone. ``words``: the
    control's words (:func:`control_words` of every split); ``None`` decides on ``questions`` alone.
    A NO LANG. control that leaves no argument in any stem raises ValueError.
    """
    words = control_words(control, probe, questions) if words is None else words
    if control == "nolang":
        mapping = answer_map if answer_map is not None else nonsense_answer_map(questions)
        transformed = [no_language(q, words, mapping) for q in questions]
        if transformed and not any(_is_word(t) for q in transformed for t in _TOKENS.findall(q.stem) if t != MASK):
            raise ValueError(f"nolang control: no word of any of the {len(transformed)} stems is left as an argument "
                             f"(the language words take them all: {', '.join(sorted(words - _COMMON)[:12]) or 'none'}"
                             f"{' ...' if len(words - _COMMON) > 12 else ''}); the control cannot tell this probe's "
                             "template from its arguments (--probe names an oLMpics probe's word lists)")
        return transformed
    rng = random.Random(seed)
    return [perturbed_language(q, words, rng) for q in questions]


def transform_file(source, target, control: str, probe: Optional[str] = None, seed: int = 0,
                   answer_map: Optional[Dict[str, str]] = None, pool: Optional[Sequence] = None) -> int:
    """Write the control version of a jsonl file; returns the number of questions.

    Without ``answer_map`` the NO LANG. answer mapping is decided on ``source`` pooled with the
    files in ``pool`` (default: its other splits next to it, :func:`sibling_splits`); so are the
    inferred words of a file that is not an oLMpics probe's.
    """
    questions = list(read_questions(source))
    probe = probe or probe_from_path(source)
    others = [list(read_questions(other)) for other in (sibling_splits(source) if pool is None else list(pool))]
    if answer_map is None and control == "nolang":
        answer_map = pooled_answer_map(questions, *others)
    try:
        transformed = apply_control(questions, control, probe, seed, answer_map,
                                    words=control_words(control, probe, questions, *others))
    except ValueError as error:
        raise ValueError(f"{source}: {error}") from None
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(target, "w", encoding="utf-8") as handle:
        for question in transformed:
            handle.write(json.dumps(question.to_json()) + "\n")
    return len(transformed)
