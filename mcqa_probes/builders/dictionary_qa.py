"""DictionaryQA (TACL paper §3.2): word-sense disambiguation questions from GCIDE.

Each question shows a word in one of its dictionary usage examples and asks for the definition of
the sense it is used in::

    In the phrase 'an offensive war; offensive weapons', what does 'offensive' mean?
      (A) Giving offense; causing displeasure or resentment; displeasing; annoying
      (B) Making the first attack; assailant; aggressive; hence, used in attacking   <- gold
      (C) ...

Distractors are first the *other senses of the same word* (at most ``num_choices - 1``, drawn at
random when there are more), then *random definitions* of other words to reach ``num_choices``.
``notes.sense_choices`` counts the choices that are senses of the word (gold included).

Artifact controls (see docs/wordnetqa.md, "Artifact audit of DictionaryQA", for the audit that motivated each):

* distractors only come from senses that have a usage example, like the gold (the paper's fix:
  without it a choice-only model learned the style of example-less entries);
* every choice is normalised the same way: labels (``[Obs.]``), domain labels (``(Law)``),
  ``-- called also`` comments and a final full stop removed, first letter upper-cased;
* no choice may contain the target word (a definition mentioning the word in the stem would be a
  lexical-overlap cue) and gold and distractor definitions have the same length limits;
* other senses nearly identical to the gold (content-word Jaccard above ``max_sense_overlap``)
  are not used as distractors, so there is exactly one correct answer;
* cross-references ("See ...", "Same as ...", "Pl. of ...") and definitions with lettered
  sub-senses ``(a) ... (b) ...`` are never used.

Settings (``settings`` dict; every key optional):

=========================  =========  =======================================================
key                        default    meaning
=========================  =========  =======================================================
num_choices                5          answer choices per question
max_questions_per_word     1          questions per headword (paper Table 4: cluster size 1)
min_word_senses            2          the word needs this many GCIDE senses (of any kind): a
                                      word with one sense has nothing to disambiguate
max_gold_example_overlap   0          content words (5-letter stems, target word excluded) the
                                      gold definition may share with the stem's example
min_definition_words       2          shortest usable definition (words)
max_definition_words       30         longest usable definition (words)
max_example_words          20         longest usage example in a stem (words)
max_sense_overlap          0.3        drop other-sense distractors this similar to the gold
distractor_example         "usage"    distractors must have: "usage" (inline ``as,`` example),
                                      "any" (usage or quotation), or "none" (no control)
exclude_word_in_choices    True       drop definitions that contain the target word
templates                  all        template ids to draw from (see :data:`TEMPLATES`)
max_questions              None       stop after this many (for quick runs)
=========================  =========  =======================================================
"""
import logging
import random
import re
from typing import Dict, List, Optional, Sequence, Tuple

from mcqa_probes.builders.probe_question import ProbeQuestion
import math

logger = logging.getLogger(__name__)

PROBE = "dictionary"

#: stem templates (our own wording); ``{example}`` is the usage, ``{word}`` the headword
TEMPLATES: Dict[str, str] = {
    "phrase_meaning": "In the phrase '{example}', what does '{word}' mean?",
    "which_sense": "Which sense of '{word}' is intended in '{example}'?",
    "as_used": "As it is used in '{example}', the word '{word}' means",
    "here_refers": "Consider the usage '{example}'. Here '{word}' refers to",
}

DEFAULT_SETTINGS = {
    "num_choices": 5,
    "max_questions_per_word": 1,
    "min_word_senses": 2,
    "max_gold_example_overlap": 0,
    "min_definition_words": 2,
    "max_definition_words": 30,
    "max_example_words": 20,
    "max_sense_overlap": 0.3,
    "distractor_example": "usage",
    "exclude_word_in_choices": True,
    "templates": sorted(TEMPLATES),
    "max_questions": None,
}

_STOP = frozenset("a an the of or to in on by for with and as at from that which who is be being "
                  "any one its it this other not something someone".split())
_WORD_RE = re.compile(r"[a-z]+")
# a leading usage label such as "(fig.)" or "(Colloq.)"
_LABEL_PAREN_RE = re.compile(r"^\([A-Za-z. ]{1,20}\)\s*")
# sense-chaining openers that only make sense next to the previous sense ("Hence, ...")
_LEAD_RE = re.compile(r"^(?:Hence|Also|Specifically|Especially|Esp\.|Fig\.|Figuratively|Thus|So)\s*[,:]?\s+")
_CROSS_REF_RE = re.compile(r"^(?:see|same as|variant of|alt\.|obs\. form|pl\. of|plural of|imp\. of|"
                           r"p\. p\. of|obs\. imp|an obsolete|a variant|of\s+\w+$)", re.IGNORECASE)


def _settings(settings: Optional[dict]) -> dict:
    merged = dict(DEFAULT_SETTINGS)
    for key, value in (settings or {}).items():
        if key not in DEFAULT_SETTINGS:
            raise ValueError(f"unknown DictionaryQA setting {key!r}; known: {sorted(DEFAULT_SETTINGS)}")
        merged[key] = value
    unknown = set(merged["templates"]) - set(TEMPLATES)
    if unknown:
        raise ValueError(f"unknown DictionaryQA template(s) {sorted(unknown)}; known: {sorted(TEMPLATES)}")
    if merged["distractor_example"] not in ("usage", "any", "none"):
        raise ValueError("distractor_example must be 'usage', 'any' or 'none'")
    return merged


def normalise_choice(definition: str) -> str:
    """The one surface form every choice gets: single spaces, no final full stop, capitalised."""
    text = re.sub(r"\s+", " ", definition).strip(" ;:,")
    text = _LABEL_PAREN_RE.sub("", text)
    text = _LEAD_RE.sub("", text)
    text = re.sub(r"\.$", "", text)
    return text[:1].upper() + text[1:]


def _content_words(text: str) -> frozenset:
    return frozenset(w for w in _WORD_RE.findall(text.lower()) if w not in _STOP and len(w) > 2)


def _jaccard(a: frozenset, b: frozenset) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _word_pattern(word: str) -> "re.Pattern":
    """Matches the word or a form sharing its stem ("grow" ~ "grows", "exanthematic" ~ "exanthematous")."""
    stem = word if len(word) <= 4 else word[: len(word) - 2]
    return re.compile(r"(?<![A-Za-z])" + re.escape(stem), re.IGNORECASE)


def _stem_overlap(example: str, definition: str, word: str) -> int:
    """Content words (compared by their first 5 letters) shared by example and definition."""
    target = word.lower()[:5]
    a = {w[:5] for w in _content_words(example)} - {target}
    b = {w[:5] for w in _content_words(definition)} - {target}
    return len(a & b)


def _usable_definition(sense, config: dict) -> bool:
    text = sense.definition
    n_words = len(text.split())
    if n_words < config["min_definition_words"] or n_words > config["max_definition_words"]:
        return False
    if _CROSS_REF_RE.match(text) or "(a)" in text or "(b)" in text:
        return False
    if "[" in text or "]" in text or "{" in text or "\"" in text or "--" in text:
        return False
    if config["exclude_word_in_choices"] and _word_pattern(sense.word).search(text):
        return False
    return True


def _stem_example(sense, config: dict) -> Optional[str]:
    """The usage segments that contain the word, or None when none is usable."""
    pattern = _word_pattern(sense.word)
    for usage in sense.usages:
        usage = re.split(r"(?<=[a-z0-9)])\.\s+(?=[A-Z])", usage)[0]   # drop "Cf. X" / "Eliot" tails
        segments = [re.sub(r"^as,\s+", "", s.strip(" .;:,")) for s in usage.split(";")]
        keep = [s for s in segments
                if s and pattern.search(s) and not any(ch in s for ch in "'\"()[]")]
        if not keep:
            continue
        example = "; ".join(keep)
        if len(example.split()) <= config["max_example_words"] and len(example.split()) >= 2:
            return example
    return None


def _has_required_example(sense, mode: str) -> bool:
    if mode == "usage":
        return bool(sense.usages)
    if mode == "any":
        return sense.has_example
    return True


def build_dictionary_questions(dictionary, rng: random.Random, settings: Optional[dict] = None,
                               progress: bool = False) -> List[ProbeQuestion]:
    """DictionaryQA questions from a parsed GCIDE (:func:`mcqa_probes.knowledge.gcide.load_gcide`).

    ``dictionary`` needs ``.words`` (word → senses in file order), ``.source`` and ``.version``;
    each sense needs ``id``, ``word``, ``headword``, ``pos``, ``definition``, ``usages``,
    ``has_example``. Deterministic for a given ``rng`` seed: words and senses are visited in
    sorted / file order and every random choice goes through ``rng``.
    """
    config = _settings(settings)
    k = config["num_choices"]
    templates = sorted(config["templates"])
    words = sorted(dictionary.words)

    # the pool every distractor is drawn from: usable definitions (with the required example)
    def distractor_ok(sense) -> bool:
        return _has_required_example(sense, config["distractor_example"]) and _usable_definition(sense, config)

    pool: List = []
    seen_definitions = set()
    for word in words:
        for sense in dictionary.words[word]:
            key = normalise_choice(sense.definition).lower()
            if key not in seen_definitions and distractor_ok(sense):
                seen_definitions.add(key)
                pool.append(sense)

    iterator = words
    if progress:
        from tqdm import tqdm

        iterator = tqdm(words, desc="DictionaryQA", unit="word", mininterval=1.0)
    questions: List[ProbeQuestion] = []
    for word in iterator:
        senses = dictionary.words[word]
        if len(senses) < config["min_word_senses"]:
            continue
        golds: List[Tuple[object, str]] = []
        for sense in senses:
            if not sense.usages or not _usable_definition(sense, config):
                continue
            example = _stem_example(sense, config)
            if example is None:
                continue
            if _stem_overlap(example, sense.definition, sense.word) > config["max_gold_example_overlap"]:
                continue
            golds.append((sense, example))
        if not golds:
            continue
        limit = config["max_questions_per_word"]
        if limit is not None and len(golds) > limit:
            golds = [golds[i] for i in sorted(rng.sample(range(len(golds)), limit))]
        for gold, example in golds:
            question = _make_question(gold, example, senses, pool, dictionary, rng, config, templates, k)
            if question is not None:
                questions.append(question)
        if config["max_questions"] is not None and len(questions) >= config["max_questions"]:
            questions = questions[: config["max_questions"]]
            break
    logger.info("DictionaryQA: %d questions from %d words", len(questions), len(words))
    return questions


def _make_question(gold, example: str, senses: Sequence, pool: Sequence, dictionary, rng: random.Random,
                   config: dict, templates: List[str], k: int) -> Optional[ProbeQuestion]:
    gold_text = normalise_choice(gold.definition)
    gold_words = _content_words(gold_text)
    used = {gold_text.lower()}
    # 1) other senses of the same word
    others = []
    for sense in senses:
        if sense is gold or not _has_required_example(sense, config["distractor_example"]):
            continue
        if not _usable_definition(sense, config):
            continue
        text = normalise_choice(sense.definition)
        if text.lower() in used or _jaccard(_content_words(text), gold_words) > config["max_sense_overlap"]:
            continue
        if any(example in usage for usage in sense.usages):   # the stem's example belongs to both
            continue
        used.add(text.lower())
        others.append((sense, text))
    if len(others) > k - 1:
        others = [others[i] for i in sorted(rng.sample(range(len(others)), k - 1))]
    # 2) random definitions of other words
    randoms = []
    word_pattern = _word_pattern(gold.word)
    attempts = 0
    while len(others) + len(randoms) < k - 1:
        attempts += 1
        if attempts > 1000:
            return None
        sense = pool[rng.randrange(len(pool))]
        text = normalise_choice(sense.definition)
        if sense.word == gold.word or text.lower() in used or word_pattern.search(text):
            continue
        used.add(text.lower())
        randoms.append((sense, text))
    choices = [(gold, gold_text)] + others + randoms
    order = list(range(len(choices)))
    rng.shuffle(order)
    choices = [choices[i] for i in order]
    answer_index = order.index(0)
    template = templates[rng.randrange(len(templates))]
    word_form = gold.word
    if gold.headword != gold.word and gold.headword in example and gold.word not in example:
        word_form = gold.headword     # proper nouns keep their capital
    stem = TEMPLATES[template].format(example=example, word=word_form)
    return ProbeQuestion(
        id=f"dictionary-{gold.id}",
        probe=PROBE,
        stem=stem,
        choices=[text for _, text in choices],
        answer_index=answer_index,
        concept=gold.word,
        cluster_key=gold.word,
        notes={
            "gold_synset": gold.id,
            "distractor_synsets": [sense.id for sense, _ in choices],
            "sense_choices": 1 + len(others),
            "word": gold.word,
            "pos": gold.pos,
            "example": example,
            "hops": 0,
            "distractor_hops": 0,
            "chain": "",
            "distractor_chain": "",
            "other_distractors": [],
            "random_distractors": [sense.id for sense, _ in randoms],
            "template": template,
            "source": dictionary.source,
            "version": dictionary.version,
            "cluster_key": gold.word,
        },
    )


# --------------------------------------------------------------------------------------------
# artifact audit


def artifact_audit(questions: Sequence[ProbeQuestion], seed: int = 0) -> Dict[str, float]:
    """How well choice-only heuristics find the gold (chance = 1 / number of choices).

    * ``longest_is_gold`` / ``shortest_is_gold``: the longest / shortest choice (characters);
    * ``max_stem_overlap_is_gold``: the choice sharing most content words with the stem;
    * ``gold_mean_words`` / ``distractor_mean_words``; ``gold_final_period`` /
      ``distractor_final_period``; ``gold_lowercase_start`` / ``distractor_lowercase_start``;
    * ``word_in_choice``: share of choices containing the target word;
    * ``choice_only_unigram``: a choice-only bag-of-words baseline (per-word log-odds of being
      gold, trained on a random half of the questions, accuracy on the other half).

    Ties count fractionally, so a heuristic with no signal scores chance.
    """

    if not questions:
        return {}

    def tie_score(values: List[float], gold: int, best=max) -> float:
        target = best(values)
        winners = [i for i, v in enumerate(values) if v == target]
        return (1.0 / len(winners)) if gold in winners else 0.0

    n = len(questions)
    longest = shortest = overlap = 0.0
    gold_words = dist_words = gold_period = dist_period = gold_lower = dist_lower = 0.0
    word_in = 0
    n_dist = 0
    for q in questions:
        lengths = [len(c) for c in q.choices]
        longest += tie_score(lengths, q.answer_index, max)
        shortest += tie_score(lengths, q.answer_index, min)
        stem_words = _content_words(q.stem)
        overlap += tie_score([len(_content_words(c) & stem_words) for c in q.choices], q.answer_index)
        pattern = _word_pattern(q.notes.get("word", ""))
        for i, choice in enumerate(q.choices):
            if pattern.search(choice):
                word_in += 1
            if i == q.answer_index:
                gold_words += len(choice.split())
                gold_period += choice.endswith(".")
                gold_lower += choice[:1].islower()
            else:
                n_dist += 1
                dist_words += len(choice.split())
                dist_period += choice.endswith(".")
                dist_lower += choice[:1].islower()
    # choice-only unigram baseline
    order = list(range(n))
    random.Random(seed).shuffle(order)
    train = [questions[i] for i in order[: n // 2]]
    test = [questions[i] for i in order[n // 2:]]
    gold_counts: Dict[str, int] = {}
    dist_counts: Dict[str, int] = {}
    for q in train:
        for i, choice in enumerate(q.choices):
            target = gold_counts if i == q.answer_index else dist_counts
            for token in set(_WORD_RE.findall(choice.lower())):
                target[token] = target.get(token, 0) + 1
    n_gold = max(1, len(train))
    n_distractor = max(1, sum(len(q.choices) - 1 for q in train))

    def score(choice: str) -> float:
        total = 0.0
        for token in set(_WORD_RE.findall(choice.lower())):
            g = (gold_counts.get(token, 0) + 1) / (n_gold + 2)
            d = (dist_counts.get(token, 0) + 1) / (n_distractor + 2)
            total += math.log(g / d)
        return total

    unigram = sum(tie_score([score(c) for c in q.choices], q.answer_index) for q in test) / max(1, len(test))
    choices_per_question = sum(len(q.choices) for q in questions) / n
    return {
        "questions": n,
        "chance": 1.0 / choices_per_question,
        "longest_is_gold": longest / n,
        "shortest_is_gold": shortest / n,
        "max_stem_overlap_is_gold": overlap / n,
        "choice_only_unigram": unigram,
        "gold_mean_words": gold_words / n,
        "distractor_mean_words": dist_words / max(1, n_dist),
        "gold_final_period": gold_period / n,
        "distractor_final_period": dist_period / max(1, n_dist),
        "gold_lowercase_start": gold_lower / n,
        "distractor_lowercase_start": dist_lower / max(1, n_dist),
        "word_in_choice": word_in / (n * choices_per_question),
    }
