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

Every prompt also carries the *neutral* requests: each choice after ``neutral_prompt`` (default
``Answer:``), i.e. ``log P(choice | "Answer:")``. They are the denominator of the ``pmi`` score
(domain-conditional PMI, Holtzman et al. 2021: ``log P(choice | prompt) - log P(choice | Answer:)``)
and the choice-only control (the question hidden). With ``hide_question`` the prompt's own requests
ARE the neutral ones (the LLM counterpart of Choice-Only-GloVe).
"""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.data.question import MultipleChoiceQuestion

DEFAULT_TEMPLATE = "Question: {stem}\nAnswer:"
DEFAULT_TARGET_DELIMITER = " "
DEFAULT_NEUTRAL_PROMPT = "Answer:"
DEFAULT_MASK_STRING = "[MASK]"
PROMPT_FORMATS = ("auto", "cloze", "sentence")

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
    context: Optional[str] = None  # the cloze context (None for sentences)

    def to_json(self) -> Dict[str, Any]:
        return {"format": self.format, "requests": [list(r) for r in self.requests],
                "neutral": [list(r) for r in self.neutral], "chars": list(self.chars),
                "hide_question": self.hide_question}


def check_template(template: str, where: str = "template") -> str:
    if "{stem}" not in template:
        raise ValueError(f"{where}: the template must contain {{stem}} (where the question goes), got {template!r}")
    return template


@dataclass
class PromptBuilder:
    """Builds :class:`CausalPrompt` s; its fields are the readers' config keys (see the module doc)."""

    template: str = DEFAULT_TEMPLATE
    target_delimiter: str = DEFAULT_TARGET_DELIMITER
    neutral_prompt: str = DEFAULT_NEUTRAL_PROMPT
    mask_string: str = DEFAULT_MASK_STRING
    prompt_format: str = "auto"
    hide_question: bool = False
    counts: Dict[str, int] = field(default_factory=lambda: {"cloze": 0, "sentence": 0})

    def __post_init__(self):
        check_template(self.template)
        if self.prompt_format not in PROMPT_FORMATS:
            raise ValueError(f"prompt_format: expected one of {PROMPT_FORMATS}, got {self.prompt_format!r}")
        if not self.mask_string:
            raise ValueError("mask_string: must not be empty")

    def format_of(self, question: MultipleChoiceQuestion) -> str:
        """``sentence`` for a stem with the mask (``auto``), else ``cloze``; a fixed format is checked."""
        masks = question.stem.count(self.mask_string)
        if self.prompt_format == "cloze":
            return "cloze"
        if self.prompt_format == "sentence" or masks:
            if masks != 1:
                raise McqaFormatError(f"question {question.id}: expected exactly one {self.mask_string} in the stem "
                                      f"for sentence scoring, found {masks}: {question.stem!r}")
            return "sentence"
        return "cloze"

    def neutral_requests(self, question: MultipleChoiceQuestion) -> List[Request]:
        return [(self.neutral_prompt, self.target_delimiter + choice.text) for choice in question.choices]

    def prompt(self, question: MultipleChoiceQuestion) -> CausalPrompt:
        """The requests of a question (raises McqaFormatError without file position)."""
        kind = self.format_of(question)
        self.counts[kind] += 1
        neutral = self.neutral_requests(question)
        texts = [choice.text for choice in question.choices]
        if kind == "cloze":
            chars = [len(text) for text in texts]
            if self.hide_question:
                return CausalPrompt(kind, list(neutral), neutral, chars, True, self.neutral_prompt)
            context = self.template.replace("{stem}", question.stem)
            requests = [(context, self.target_delimiter + text) for text in texts]
            return CausalPrompt(kind, requests, neutral, chars, False, context)
        if self.hide_question:
            return CausalPrompt(kind, list(neutral), neutral, [len(text) for text in texts], True, self.neutral_prompt)
        sentences = [question.stem.replace(self.mask_string, text) for text in texts]
        return CausalPrompt(kind, [("", sentence) for sentence in sentences], neutral,
                            [len(sentence) for sentence in sentences])
