"""GEN for ontologies: question templates that need no example sentence.

Ontologies rarely have example sentences, so the paper's context frames (which quote one) cannot
introduce the probed term. Here the context, when the concept has a definition, is the definition
itself ("Where 'x' is defined as '...'"), joined to a question frame in the paper's style; without
a definition the question frame stands alone. Where a source does have example sentences, the
builder uses the paper's own frames (:mod:`mcqa_probes.builders.templates`) as for WordNet.

Template ids read ``<context id>+<question id>`` (``none`` when there is no context), as for WordNet.
The definitions probe asks for the meaning of the term (no context: the definition is the answer);
the synonymy probe asks for another name of the term; a relation probe asks along any named relation
with its readable name as a verb phrase ``{r}`` (:func:`relation_phrase`: "is part of", "has part").

These are the English templates; a source read in French, German, Spanish or Dutch is asked in
that language's (:mod:`.template_languages`, the same ids: :func:`language_frames`).
"""
import functools
import re
from typing import Dict, List, Optional, Tuple

from mcqa_probes.builders.template_languages import LANGUAGE_FRAMES, RELATION_NAMES, LanguageFrames
from mcqa_probes.builders.templates import CONTEXT_FRAMES as PAPER_CONTEXT_FRAMES
from mcqa_probes.builders.templates import QUESTION_FRAMES as PAPER_QUESTION_FRAMES
from mcqa_probes.builders.templates import template_ids as paper_template_ids

#: Context frames: the term ``{w}`` with its definition ``{d}``; a comma and a question frame follow.
DEFINITION_CONTEXT_FRAMES: Dict[str, str] = {
    "dctx0": "Where '{w}' is defined as '{d}'",
    "dctx1": "Taking '{w}' to mean '{d}'",
    "dctx2": "Given the definition '{d}' for '{w}'",
}
NO_CONTEXT = "none"

QUESTION_FRAMES: Dict[str, Dict[str, str]] = {
    "definitions": {
        "odef0": "what does the term '{w}' mean?",
        "odef1": "the term '{w}' is best defined as",
        "odef2": "which of these is the definition of '{w}'?",
        "odef3": "'{w}' refers to",
    },
    "synonymy": {
        "osyn0": "which term is another name for '{w}'?",
        "osyn1": "'{w}' is also known as",
        "osyn2": "which of these means the same as '{w}'?",
    },
    "hypernymy": {
        "ohyper0": "'{w}' is a kind of",
        "ohyper1": "which broader category does '{w}' belong to?",
        "ohyper2": "'{w}' is a more specific form of",
        "ohyper3": "what is '{w}' an example of?",
    },
    "hyponymy": {
        "ohypo0": "which of these is a kind of '{w}'?",
        "ohypo1": "a more specific kind of '{w}' is",
        "ohypo2": "which choice names one type of '{w}'?",
    },
    "relation": {
        "orel0": "'{w}' {r}",
        "orel1": "'{w}' {r} which of these?",
        "orel2": "complete the statement: '{w}' {r} ...",
    },
}


def ontology_template_ids(kind: str, with_context: bool) -> List[str]:
    """Template ids of a probe kind (definitions, synonymy, hypernymy, hyponymy, relation)."""
    if kind not in QUESTION_FRAMES:
        raise KeyError(f"no ontology templates for probe kind {kind!r}")
    questions = sorted(QUESTION_FRAMES[kind])
    if not with_context or kind in ("definitions", "synonymy"):
        return [f"{NO_CONTEXT}+{q}" for q in questions]
    return [f"{c}+{q}" for c in sorted(DEFINITION_CONTEXT_FRAMES) for q in questions]


def template_language(language: Optional[str]) -> Optional[str]:
    """The code of the language whose templates ask a source read in ``language`` (``fr-CA`` ->
    ``fr``), or None: English, for English and for a language without templates of its own
    (:data:`~.template_languages.LANGUAGE_FRAMES`)."""
    code = (language or "en").lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGE_FRAMES else None


@functools.lru_cache(maxsize=None)
def language_frames(language: Optional[str]) -> LanguageFrames:
    """The templates of :func:`template_language` (English where it is None)."""
    return LANGUAGE_FRAMES.get(template_language(language), ENGLISH)


def relation_wording(name: str, language: Optional[str] = None, name_language: Optional[str] = None) -> str:
    """A relation's name as a stem says it: in English a verb phrase (:func:`relation_phrase`), quoted
    where the name is in another language that has no templates (``name_language``: ``pt``'s *tem como
    ingrediente* is "is related by 'tem como ingrediente' to"; was "is tem como ingrediente"); in
    another language with templates the name as given, a common relation's in that language
    (``part of`` -> ``partie de``), since those frames quote the relation rather than conjugate it."""
    code = template_language(language)
    if code is None and name_language and name_language.lower().split("-")[0] != "en":
        return f"is related by '{name}' to"
    if code is None:
        return relation_phrase(name)
    return RELATION_NAMES[code].get(" ".join(name.replace("_", " ").split()).lower(), name)


def _start_sentence(text: str) -> str:
    """``text`` with its first letter upper case (after Spanish ``¿``)."""
    head = 2 if text[:1] in "¿¡" else 1
    return text[:head - 1] + text[head - 1:head].upper() + text[head:]


def _join(frames: LanguageFrames, context: str, question: str) -> str:
    return f"{context}{frames.joiner}{question if frames.joiner == ', ' else _start_sentence(question)}"


def render_ontology_stem(kind: str, template_id: str, *, word: str, definition: str = "", relation: str = "",
                         language: Optional[str] = None) -> str:
    """The stem of one question, in ``language``'s templates (:func:`language_frames`); a template
    with a context needs ``definition``."""
    frames = language_frames(language)
    context_id, question_id = template_id.split("+")
    question = frames.question[kind][question_id].format(w=word, r=relation)
    if context_id == NO_CONTEXT:
        return _start_sentence(question)
    return _join(frames, frames.context[context_id].format(w=word, d=" ".join(definition.split())), question)


def render_example_stem(kind: str, template_id: str, *, sentence: str, word: str,
                        language: Optional[str] = None) -> str:
    """The stem of a question in the paper's frames around an example sentence (in English the
    stem :func:`~.templates.render_stem` gives WordNet), in ``language``'s templates."""
    frames = language_frames(language)
    context_id, question_id = template_id.split("+")
    context = frames.example_context[context_id].format(s=" ".join(sentence.split()))
    return _join(frames, context, frames.example_question[kind][question_id].format(w=word))


#: the templates' function words: an answer sharing one (alanine's *A*, *as* the plural of *a*,
#: arsenic's *As*) is not named by the template (the second line: those of the paper's frames)
FUNCTION_WORDS = frozenset("a an as is of to the for where what which does these also more one another same "
                           "best in from by be can would its has when under within".split())

#: the English templates as a :class:`~.template_languages.LanguageFrames` (the others: there)
ENGLISH = LanguageFrames(context=DEFINITION_CONTEXT_FRAMES, question=QUESTION_FRAMES,
                         example_context=PAPER_CONTEXT_FRAMES, example_question=PAPER_QUESTION_FRAMES,
                         function_words=FUNCTION_WORDS)


def frame_words(kind: str, template_id: str, language: Optional[str] = None) -> str:
    """A template's own content words: its frames without the term, the definition (or example
    sentence), the relation's name and the function words (``| choice names | type |``), to find an
    answer that a template would name (:func:`~mcqa_probes.knowledge.text.mentions`); the paper's
    frames around an example sentence (``ctx3+hyper5``) too; in ``language``'s templates."""
    frames = language_frames(language)
    context_id, question_id = template_id.split("+")
    if context_id in frames.example_context:
        text = (f"{frames.example_context[context_id].format(s='')}, "
                f"{frames.example_question[kind][question_id].format(w='')}")
    else:
        text = frames.question[kind][question_id].format(w="", r="")
        if context_id != NO_CONTEXT:
            text = f"{frames.context[context_id].format(w='', d='')}, {text}"
    return _WORD.sub(lambda word: "|" if word.group().lower() in frames.function_words else word.group(), text)


_WORD = re.compile(r"[^\W\d_]+")


@functools.lru_cache(maxsize=None)
def every_frame_words(kind: str, language: Optional[str] = None) -> Tuple[Tuple[str, str], ...]:
    """Every template id of a probe kind, with and without a context (and the paper's frames around
    an example sentence, for the kinds that have them), with its :func:`frame_words`."""
    ids = sorted({*ontology_template_ids(kind, True), *ontology_template_ids(kind, False),
                  *(paper_template_ids(kind) if kind in PAPER_QUESTION_FRAMES else ())})
    return tuple((each, frame_words(kind, each, language)) for each in ids)


#: first words that already make a relation's name a verb phrase ("has part", "contains")
_VERB_STARTS = {"has", "have", "is", "are", "was", "were", "can", "may", "contains", "overlaps", "derives", "includes", "produces", "encodes",
                "regulates", "precedes", "follows", "causes", "occurs", "surrounds", "connects", "composed"}


def relation_phrase(name: str) -> str:
    """A relation's readable name as a verb phrase: ``part of`` -> ``is part of``; a name that starts
    with a verb stays (``has part``, ``develops from``, ``confers resistance to``, ``positively
    regulates``: a verb of the third person, after any adverb in -ly); a name whose second word is the
    verb is said from the verb (the Relation Ontology's ``disease has location`` -> ``has location``,
    ``existence starts during`` -> ``starts during``: the first word names the subject's kind, which
    the term already is); a name written as code reads as words (``isPartOf`` -> ``is part of``)."""
    words = " ".join(_CODE_WORDS.sub(" ", name.replace("_", " ")).split())
    if words and not words.isupper():
        words = " ".join(word if word.isupper() and len(word) > 1 else word.lower() for word in words.split(" "))
    parts = words.lower().split(" ") if words else []
    while len(parts) > 1 and parts[0].endswith("ly"):        # positively regulates, directly precedes
        parts = parts[1:]
    verb_first = bool(parts) and (parts[0] in _VERB_STARTS or _third_person_verb(parts[0]))
    if verb_first:
        return words
    if len(parts) > 1 and (parts[1] in _VERB_STARTS or _third_person_verb(parts[1])):
        written = words.split(" ")
        return " ".join(written[len(written) - len(parts) + 1:])
    return f"is {words}"


#: where a name written as code (``isPartOf``, ``hasTopping``) changes words
_CODE_WORDS = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _third_person_verb(word: str) -> bool:
    """``powers``, ``participates``, ``crosses``, ``employs``: a word in -s that is no plural-looking noun or
    adjective ending (``class``, ``status``, ``continuous``, ``analysis``, ``skos``)."""
    return len(word) > 3 and word.isalpha() and word.endswith("s") and not word.endswith(("ss", "us", "is", "os", "as"))
