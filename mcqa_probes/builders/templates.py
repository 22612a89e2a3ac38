"""GEN (TACL paper, Table 2): question templates and answer renderings for WordNetQA.

A stem with a context is a *context frame* (it introduces the probed word through its example
sentence ``s``) joined to a *question frame* (which asks about the word ``w`` as it appears in
``s``); every context frame combines with every question frame of a probe, so each probe has
``len(CONTEXT_FRAMES) × len(question frames)`` templates, named ``"<context id>+<question id>"``.
Synonymy gives a definition instead of a context, so its templates are whole stems.

Choices are rendered as in the released WordNetQA files: ISA answers as
``lemma (or alt1, alt2), defined as 'gloss'`` (verbs: ``lemma event, defined as ...``), synonymy
answers as the synset's lemma set, definition answers as the gloss.

:func:`find_surface_form` locates a lemma of a synset in one of its example sentences (inflected
forms included: "the sexes", "she grimaced"), which is the word the question asks about.
"""
import re
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from mcqa_probes.knowledge.graph import Concept

# ---------------------------------------------------------------------------------------- frames
#: Context frames: a clause that quotes the example sentence ``{s}``; a comma and a question frame follow.
CONTEXT_FRAMES: Dict[str, str] = {
    "ctx0": "As used in the sentence '{s}'",
    "ctx1": "In the example '{s}'",
    "ctx2": "Judging from the usage '{s}'",
    "ctx3": "Taking '{s}' as the context",
    "ctx4": "When someone writes '{s}'",
    "ctx5": "Going by the phrase '{s}'",
    "ctx6": "Within the sentence '{s}'",
    "ctx7": "Reading the words '{s}'",
}

#: Question frames per probe, about the word ``{w}`` as it appears in the context.
QUESTION_FRAMES: Dict[str, Dict[str, str]] = {
    "definitions": {
        "def0": "the word '{w}' most nearly means",
        "def1": "'{w}' is best explained as",
        "def2": "which of these gives the meaning of '{w}'?",
        "def3": "the sense of '{w}' is closest to",
        "def4": "what is meant by '{w}'?",
        "def5": "the intended meaning of '{w}' is",
    },
    "hypernymy": {
        "hyper0": "'{w}' refers to a kind of",
        "hyper1": "'{w}' can be classified as a type of",
        "hyper2": "which broader category does '{w}' belong to?",
        "hyper3": "'{w}' is a more specific form of",
        "hyper4": "the concept '{w}' falls under",
        "hyper5": "what is '{w}' an example of?",
    },
    "hyponymy": {
        "hypo0": "which of these is a particular kind of '{w}'?",
        "hypo1": "a more specific kind of '{w}' is",
        "hypo2": "which choice names one type of '{w}'?",
        "hypo3": "one specific variety of '{w}' would be",
        "hypo4": "which of the following counts as a special case of '{w}'?",
        "hypo5": "'{w}' has as one of its subtypes",
    },
}

#: Synonymy stems (no context sentence; ``{d}`` is the gloss).
SYNONYMY_FRAMES: Dict[str, str] = {
    "syn0": "Which word or words share the meaning '{d}'?",
    "syn1": "What can be called '{d}'? Pick the matching set of words.",
    "syn2": "The meaning '{d}' is expressed by which of these terms?",
    "syn3": "Which entry lists the words for '{d}'?",
    "syn4": "Which words carry the sense '{d}'?",
    "syn5": "Someone wants to say '{d}'. Which words could they use?",
}


def template_ids(probe: str) -> List[str]:
    """All template ids of a probe, in a fixed order."""
    if probe == "synonymy":
        return sorted(SYNONYMY_FRAMES)
    if probe not in QUESTION_FRAMES:
        raise KeyError(f"no templates for probe {probe!r}")
    return [f"{c}+{q}" for c in sorted(CONTEXT_FRAMES) for q in sorted(QUESTION_FRAMES[probe])]


def render_stem(probe: str, template_id: str, *, sentence: str = "", word: str = "", definition: str = "") -> str:
    if probe == "synonymy":
        return SYNONYMY_FRAMES[template_id].format(d=_clean(definition))
    context_id, question_id = template_id.split("+")
    context = CONTEXT_FRAMES[context_id].format(s=_clean(sentence))
    return f"{context}, {QUESTION_FRAMES[probe][question_id].format(w=word)}"


def _clean(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------------------------------- choices
def surface(lemma: str) -> str:
    return lemma.replace("_", " ")


def lemma_set(concept: Concept) -> List[str]:
    """The lemmas as words, without case-insensitive repeats ("victorian", "Victorian")."""
    seen, words = set(), []
    for lemma in concept.lemmas:
        word = surface(lemma)
        if word.lower() not in seen:
            seen.add(word.lower())
            words.append(word)
    return words


def isa_choice(concept: Concept, max_alternatives: int = 2) -> str:
    """``lemma (or alt1, alt2), defined as 'gloss'``; verbs read ``lemma (...) event, defined as ...``."""
    words = lemma_set(concept)
    text = words[0]
    if len(words) > 1:
        text += " (or " + ", ".join(words[1 : 1 + max_alternatives]) + ")"
    if concept.pos == "v":
        text += " event"
    return f"{text}, defined as '{_clean(concept.definition)}'"


def synonymy_choice(concept: Concept) -> str:
    return ", ".join(lemma_set(concept))


def definition_choice(concept: Concept) -> str:
    return _clean(concept.definition)


CHOICE_RENDERERS = {
    "definitions": definition_choice,
    "synonymy": synonymy_choice,
    "hypernymy": isa_choice,
    "hyponymy": isa_choice,
}


# ---------------------------------------------------------------------------------------- surface forms
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:['.\-][A-Za-z0-9]+)*")
_VOWELS = "aeiou"


def inflections(word: str, pos: str, irregular: Mapping[str, Sequence[str]] = None) -> Tuple[str, ...]:
    """Regular English inflections of a (lower-case) base form, plus WordNet's irregular ones."""
    forms = {word}
    if pos == "n":
        forms.update((word + "s", word + "es"))
        if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
            forms.add(word[:-1] + "ies")
    elif pos == "v":
        forms.update((word + "s", word + "es", word + "ed", word + "d", word + "ing"))
        if word.endswith("e"):
            forms.add(word[:-1] + "ing")
        if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
            forms.update((word[:-1] + "ies", word[:-1] + "ied"))
        if len(word) > 2 and word[-1] not in _VOWELS + "wxy" and word[-2] in _VOWELS and word[-3] not in _VOWELS:
            forms.update((word + word[-1] + "ed", word + word[-1] + "ing"))
    elif pos in ("a", "s"):
        forms.update((word + "er", word + "est", word + "r", word + "st"))
    if irregular:
        forms.update(irregular.get(f"{'a' if pos == 's' else pos}:{word}", ()))
    return tuple(forms)


def find_surface_form(
    concept: Concept, sentence: str, irregular: Mapping[str, Sequence[str]] = None
) -> Optional[str]:
    """The words of ``sentence`` that spell one of ``concept``'s lemmas (any word may be inflected).

    Lemmas are tried in order (the synset's first lemma first); the first match wins. Returns the
    matched span as written in the sentence, or None.
    """
    spans = [(match.group(0), match.start(), match.end()) for match in _TOKEN.finditer(sentence)]
    lowered = [token.lower() for token, _, _ in spans]
    for lemma in concept.lemmas:
        words = [w for w in re.split(r"[_ ]+", lemma.lower()) if w]
        if not words:
            continue
        options = [set(inflections(word, concept.pos, irregular)) for word in words]
        width = len(words)
        for start in range(len(lowered) - width + 1):
            if all(lowered[start + k] in options[k] for k in range(width)):
                return sentence[spans[start][1] : spans[start + width - 1][2]]
    return None


def contexts(concept: Concept, irregular: Mapping[str, Sequence[str]] = None) -> List[Tuple[str, str]]:
    """``(example sentence, surface form)`` for every example that contains one of the lemmas."""
    found = []
    for example in concept.examples:
        form = find_surface_form(concept, example, irregular)
        if form is not None:
            found.append((example, form))
    return found
