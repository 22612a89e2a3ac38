"""Questions as causal-LM prompts: the (context, continuation) requests of each choice (plain Python).

A :class:`CausalPrompt` holds, for one question, the request of every choice and what its score is
normalised by; a causal-LM scorer answers the requests (lm-evaluation-harness's split of work: the
task builds requests, the model answers them). Two formats:

* **cloze** (question files: WordNetQA/DictionaryQA, oLMpics MC-QA, CommonsenseQA, ARC-style): the
  context is the template filled with the stem (default ``Question: {stem}\\nAnswer:``, as
  lm-evaluation-harness writes its tasks), each continuation is ``target_delimiter + choice``
  (default ``" "``). ``chars`` normalises by the length of the choice in characters (lm-eval's
  ``acc_norm``: the delimiter not counted).
* **sentence** (oLMpics MC-MLM files and WinoVenti: a stem with one ``[MASK]``): each choice is put in
  the sentence and the whole sentence is scored (empty context: the model's BOS token, as
  lm-pub-quiz/BEAR score statements). ``chars`` normalises by the sentence's length.

* **letters** (``prompt_format: letters``; lettered multiple choice, lm-evaluation-harness's
  commonsense_qa prompt generalised to any number of choices): the context lists the choices,
  ``Question: {stem}\nA. first\nB. second\n...\nAnswer:`` (``letters_template``; ``{choices}`` is
  the lettered lines), each continuation is ``target_delimiter + letter``: one forward per
  question, the score of a choice is the log-probability of its letter. Its neutral requests list
  the choices without the question (the lettered lines, then ``neutral_prompt``), so the choice-only control sees the
  choices and not the question.

*Few-shot* (``prompt(question, shots)``): each solved example is the same format's context, the
delimiter and its answer (the gold text, letter or sentence), followed by ``"\n\n"``; the
question's context follows the examples (lm-evaluation-harness's ``fewshot_delimiter``). *Chat*
(``chat: true``, for instruct models): the requests keep the plain context, which the scorer renders
as one user turn with the tokenizer's chat template (a generation prompt after it), and the
continuation loses the target delimiter, as lm-evaluation-harness does with
``--apply_chat_template`` (examples collapsed into the one user turn).

Every prompt also carries the *neutral* requests: each choice after ``neutral_prompt`` (default
``Answer:``), i.e. ``log P(choice | "Answer:")``. They are the denominator of the ``pmi`` score
(domain-conditional PMI, Holtzman et al. 2021: ``log P(choice | prompt) - log P(choice | Answer:)``)
and the choice-only control (the question hidden). With ``hide_question`` the prompt's own requests
ARE the neutral ones (the LLM counterpart of Choice-Only-GloVe).
"""
import random
import re
from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, Optional, Sequence, Tuple

from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.data.question import MultipleChoiceQuestion, cluster_key, read_questions

DEFAULT_TEMPLATE = "Question: {stem}\nAnswer:"
DEFAULT_TARGET_DELIMITER = " "
DEFAULT_NEUTRAL_PROMPT = "Answer:"
DEFAULT_MASK_STRING = "[MASK]"
DEFAULT_LETTERS_TEMPLATE = "Question: {stem}\n{choices}Answer:"
PROMPT_FORMATS = ("auto", "cloze", "sentence", "letters")
FEWSHOT_DELIMITER = "\n\n"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Request = Tuple[str, str]


@dataclass
class CausalPrompt:
    """The requests of one question's choices.

    ``requests[k]`` is scored for choice k; ``neutral[k]`` is choice k after the neutral prompt;
    ``chars[k]`` is what the ``chars`` score divides by; ``format`` is ``cloze`` or ``sentence``.
    """

    format: str
    requests: List[Request]
    neutral: List[Request]
    chars: List[int]
    hide_question: bool = False
    context: Optional[str] = None  # the cloze or letters context (None for sentences)
    chat: bool = False  # contexts are user turns, to be rendered by the model's chat template

    def to_json(self) -> Dict[str, Any]:
        return {"format": self.format, "requests": [list(r) for r in self.requests],
                "neutral": [list(r) for r in self.neutral], "chars": list(self.chars),
                "hide_question": self.hide_question, "chat": self.chat}


#: ``{name}`` in a template: the fields a template may name (filled by ``str.replace``, so other
#: braces, e.g. a JSON example, stay as written)
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def check_template(template: str, where: str = "template", fields: Tuple[str, ...] = ("stem",)) -> str:
    """``template`` when it holds ``{stem}`` and names no other field than ``fields`` (a ``{question}``
    or ``{answer}`` would be sent to the model as written)."""
    if "{stem}" not in template:
        raise ValueError(f"{where}: the template must contain {{stem}} (where the question goes), got {template!r}")
    unknown = sorted({name for name in _FIELD.findall(template) if name not in fields})
    if unknown:
        allowed = " and ".join("{" + name + "}" for name in fields)
        hint = ("; the lettered choices go in letters_template" if "choices" in unknown else "")
        raise ValueError(f"{where}: {', '.join('{' + name + '}' for name in unknown)} is not a field of the template "
                         f"(expected {allowed}{hint}; it would be sent to the model as written), got {template!r}")
    return template


def lettered_choices(texts: List[str]) -> str:
    """``A. first\nB. second\n...`` (each line ends with a newline)."""
    if len(texts) > len(LETTERS):
        raise McqaFormatError(f"{len(texts)} choices: lettered multiple choice has {len(LETTERS)} letters")
    return "".join(f"{letter}. {text}\n" for letter, text in zip(LETTERS, texts))


@dataclass
class PromptBuilder:
    """Builds :class:`CausalPrompt` s; its fields are the readers' config keys (see the module doc)."""

    template: str = DEFAULT_TEMPLATE
    target_delimiter: str = DEFAULT_TARGET_DELIMITER
    neutral_prompt: str = DEFAULT_NEUTRAL_PROMPT
    mask_string: str = DEFAULT_MASK_STRING
    prompt_format: str = "auto"
    hide_question: bool = False
    letters_template: str = DEFAULT_LETTERS_TEMPLATE
    chat: bool = False
    counts: Dict[str, int] = field(default_factory=lambda: {"cloze": 0, "sentence": 0, "letters": 0})

    def __post_init__(self):
        check_template(self.template)
        check_template(self.letters_template, "letters_template", ("stem", "choices"))
        if "{choices}" not in self.letters_template:
            raise ValueError(f"letters_template: must contain {{choices}} (where the lettered choices go), got "
                             f"{self.letters_template!r}")
        if self.prompt_format not in PROMPT_FORMATS:
            raise ValueError(f"prompt_format: expected one of {PROMPT_FORMATS}, got {self.prompt_format!r}")
        if not self.mask_string:
            raise ValueError("mask_string: must not be empty")

    def format_of(self, question: MultipleChoiceQuestion) -> str:
        """``sentence`` for a stem with the mask (``auto``), else ``cloze``; a fixed format is checked."""
        masks = question.stem.count(self.mask_string)
        if self.prompt_format in ("cloze", "letters"):
            return self.prompt_format
        if self.prompt_format == "sentence" or masks:
            if masks != 1:
                raise McqaFormatError(f"question {question.id}: expected exactly one {self.mask_string} in the stem "
                                      f"for sentence scoring, found {masks}: {question.stem!r}")
            return "sentence"
        return "cloze"

    @property
    def delimiter(self) -> str:
        """What goes between a context and a continuation (none when a chat template renders the context)."""
        return "" if self.chat else self.target_delimiter

    def neutral_requests(self, question: MultipleChoiceQuestion) -> List[Request]:
        texts = [choice.text for choice in question.choices]
        if self.format_of(question) == "letters":
            context = lettered_choices(texts) + self.neutral_prompt
            return [(context, self.delimiter + letter) for letter in LETTERS[:len(texts)]]
        return [(self.neutral_prompt, self.delimiter + text) for text in texts]

    def context(self, question: MultipleChoiceQuestion, kind: str) -> str:
        if kind == "letters":
            return (self.letters_template.replace("{stem}", question.stem)
                    .replace("{choices}", lettered_choices([choice.text for choice in question.choices])))
        return self.template.replace("{stem}", question.stem)

    def solved(self, question: MultipleChoiceQuestion) -> str:
        """A few-shot example: the question in this builder's format with its answer."""
        if question.answer_index is None:
            raise McqaFormatError(f"few-shot example {question.id}: no answer")
        kind = self.format_of(question)
        answer = question.choices[question.answer_index].text
        if kind == "sentence":
            return question.stem.replace(self.mask_string, answer)
        if kind == "letters":
            answer = LETTERS[question.answer_index]
        return self.context(question, kind) + self.target_delimiter + answer

    def prompt(self, question: MultipleChoiceQuestion, shots: Sequence[MultipleChoiceQuestion] = ()) -> CausalPrompt:
        """The requests of a question, after the solved ``shots`` (raises McqaFormatError without file position)."""
        kind = self.format_of(question)
        self.counts[kind] += 1
        neutral = self.neutral_requests(question)
        texts = [choice.text for choice in question.choices]
        examples = "".join(self.solved(shot) + FEWSHOT_DELIMITER for shot in shots)
        if self.hide_question:
            chars = [len(text) for text in texts]
            return CausalPrompt(kind, list(neutral), neutral, chars, True, neutral[0][0], self.chat)
        if kind in ("cloze", "letters"):
            context = examples + self.context(question, kind)
            answers = list(LETTERS[:len(texts)]) if kind == "letters" else texts
            requests = [(context, self.delimiter + answer) for answer in answers]
            return CausalPrompt(kind, requests, neutral, [len(answer) for answer in answers], False, context, self.chat)
        sentences = [question.stem.replace(self.mask_string, text) for text in texts]
        if self.chat:
            raise McqaFormatError(f"question {question.id}: sentence scoring (a stem with {self.mask_string}) has no "
                                  "user turn for a chat template; use prompt_format cloze or letters")
        return CausalPrompt(kind, [(examples, sentence) for sentence in sentences], neutral,
                            [len(sentence) for sentence in sentences])


def rotate(question: MultipleChoiceQuestion, places: int) -> MultipleChoiceQuestion:
    """The question with its choices moved ``places`` positions on (cyclically): choice j goes to
    position (j + places) mod K, and the answer with it."""
    count = len(question.choices)
    places %= count
    choices = question.choices[count - places:] + question.choices[:count - places]
    answer = None if question.answer_index is None else (question.answer_index + places) % count
    return replace(question, choices=list(choices), answer_index=answer)


class FewShotSampler:
    """Solved examples for few-shot prompts, from a labelled question file.

    ``examples_for(question)`` draws ``shots`` examples with a generator seeded by ``seed`` and the
    question's id (the same examples in every run, whatever the order or the worker), skipping the
    question itself and every example of its semantic cluster (``cluster_key`` of the probe
    metrics: ``notes.cluster_key``, ``notes.synset_id``, ...), so no example gives the answer away.
    """

    def __init__(self, path: str, shots: int, seed: int = 1234):
        self.path, self.shots, self.seed = str(path), int(shots), int(seed)
        self.pool = [q for q in read_questions(self.path) if q.answer_index is not None]
        self.clusters = [_cluster(q) for q in self.pool]
        if not self.pool:
            raise McqaFormatError("shots_from: no labelled questions", self.path)

    def examples_for(self, question: MultipleChoiceQuestion) -> List[MultipleChoiceQuestion]:
        generator = random.Random(f"{self.seed}:{question.id}")
        own = _cluster(question)
        picked: List[MultipleChoiceQuestion] = []
        seen = set()
        while len(picked) < self.shots and len(seen) < len(self.pool):
            index = generator.randrange(len(self.pool))
            if index in seen:
                continue
            seen.add(index)
            candidate = self.pool[index]
            if candidate.id != question.id and (own is None or self.clusters[index] != own):
                picked.append(candidate)
        if len(picked) < self.shots:
            raise McqaFormatError(f"question {question.id}: {self.path} has only {len(picked)} examples outside its "
                                  f"cluster, {self.shots} shots asked")
        return picked


def _cluster(question: MultipleChoiceQuestion) -> Optional[str]:
    return cluster_key(question.extras)
