"""The ``mcqa`` dataset reader: every multiple-choice jsonl file as transformer (question, choice) pairs."""
import logging
from typing import Any, Dict, Iterable, List, Optional, Union

from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance
from allennlp.data.fields import IndexField, ListField, MetadataField, TextField
from allennlp.data.token_indexers import PretrainedTransformerIndexer
from allennlp.data.tokenizers import PretrainedTransformerTokenizer, Token

from mcqa_probes.data.question import as_question, Choice, MultipleChoiceQuestion, read_questions
from mcqa_probes.resources.pretrained import resolve_transformer_name

logger = logging.getLogger(__name__)

TRUNCATION_STRATEGIES = ("longest_first", "question_start", "question_end", "choice_end")


@DatasetReader.register("mcqa")
class McqaReader(DatasetReader):
    """Reads multiple-choice JSON lines (WordNetQA/DictionaryQA, oLMpics, CommonsenseQA, ARC-style).

    Each choice becomes one ``[CLS] question [SEP] choice [SEP]`` sequence (the model's own
    special tokens, e.g. ``<s> q </s></s> c </s>`` for RoBERTa) in the ``alternatives`` ListField;
    the gold choice is the ``label`` IndexField; ``metadata`` keeps id, stem, choice texts and
    labels, and every extra key of the line (``notes``, ``question_concept``, ...).

    Every argument is optional; the defaults work offline.

    # Parameters

    transformer_model_name : `str`, optional (default = `"minilm"`)
        HuggingFace model name or local directory; ``minilm`` is the offline all-MiniLM-L6-v2.
    max_length : `int`, optional (default = `256`)
        Maximum length in word pieces of one (question, choice) sequence, special tokens included.
    truncation : `str`, optional (default = `"longest_first"`)
        What is cut when a pair is longer than ``max_length``: ``longest_first`` (remove pieces
        from the end of the longer of question/choice, one at a time), ``question_start`` (drop
        the beginning of the question: keeps the end of a stem such as "... is best defined as"),
        ``question_end`` (drop the end of the question), ``choice_end`` (drop the end of the choice).
    pad_choices_to : `int`, optional (default = `None`)
        Pad questions with fewer choices to this many with empty answers (science sets mix 4-
        and 5-way questions). A question with more choices is an error.
    hide_question : `bool`, optional (default = `False`)
        Drop the question: each sequence is ``[CLS] choice [SEP]`` (the choice-only control).
    require_answer_key : `bool`, optional (default = `True`)
        Whether every line must have an ``answerKey`` (set to false for unlabeled test files).
    """

    def __init__(
        self,
        transformer_model_name: str = "minilm",
        max_length: int = 256,
        truncation: str = "longest_first",
        pad_choices_to: Optional[int] = None,
        hide_question: bool = False,
        require_answer_key: bool = True,
        tokenizer_kwargs: Optional[Dict[str, Any]] = None,
        **kwargs,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        if truncation not in TRUNCATION_STRATEGIES:
            raise ValueError(f"dataset_reader.truncation: expected one of {TRUNCATION_STRATEGIES}, got {truncation!r}")
        self.transformer_model_name = transformer_model_name
        resolved = resolve_transformer_name(transformer_model_name)
        self._tokenizer = PretrainedTransformerTokenizer(
            resolved, add_special_tokens=False, tokenizer_kwargs=tokenizer_kwargs
        )
        self._token_indexers = {
            "tokens": PretrainedTransformerIndexer(resolved, tokenizer_kwargs=tokenizer_kwargs)
        }
        special_pair = self._tokenizer.add_special_tokens([Token("a")], [Token("b")])
        self._pair_overhead = len(special_pair) - 2
        special_single = self._tokenizer.add_special_tokens([Token("a")])
        self._single_overhead = len(special_single) - 1
        if max_length <= self._pair_overhead + 2:
            raise ValueError(f"dataset_reader.max_length: {max_length} is too small for question + choice")
        self.max_length = max_length
        self.truncation = truncation
        self.pad_choices_to = pad_choices_to
        self.hide_question = hide_question
        self.require_answer_key = require_answer_key
        self.truncated_pairs = 0

    # ------------------------------------------------------------------ reading
    def _read(self, file_path: str) -> Iterable[Instance]:
        path = cached_path(file_path)
        for question in self.shard_iterable(read_questions(path, require_answer_key=self.require_answer_key)):
            yield self.text_to_instance(question)
        if self.truncated_pairs:
            logger.info("%s: %d (question, choice) pairs truncated to %d pieces (%s)",
                        file_path, self.truncated_pairs, self.max_length, self.truncation)

    # ------------------------------------------------------------------ instances
    def _truncate(self, question: List[Token], choice: List[Token]):
        budget = self.max_length - (self._single_overhead if not question else self._pair_overhead)
        excess = len(question) + len(choice) - budget
        if excess <= 0:
            return question, choice
        self.truncated_pairs += 1
        if self.truncation == "question_start":
            cut = min(excess, len(question))
            question = question[cut:]
            excess -= cut
        elif self.truncation == "question_end":
            cut = min(excess, len(question))
            question = question[: len(question) - cut]
            excess -= cut
        elif self.truncation == "choice_end":
            cut = min(excess, max(len(choice) - 1, 0))
            choice = choice[: len(choice) - cut]
            excess -= cut
        # longest_first (and whatever the chosen strategy could not remove)
        question, choice = list(question), list(choice)
        while excess > 0:
            if len(question) >= len(choice) and question:
                question.pop()
            else:
                choice.pop()
            excess -= 1
        return question, choice

    def pair_tokens(self, stem: Union[str, List[Token]], choice_text: str) -> List[Token]:
        """``[CLS] question [SEP] choice [SEP]``; ``stem`` may be given already tokenized."""
        if self.hide_question:
            question: List[Token] = []
        else:
            question = self._tokenizer.tokenize(stem) if isinstance(stem, str) else stem
        choice = self._tokenizer.tokenize(choice_text) if choice_text else []
        question, choice = self._truncate(question, choice)
        if not question:
            return self._tokenizer.add_special_tokens(choice)
        return self._tokenizer.add_special_tokens(question, choice)

    def text_to_instance(  # type: ignore[override]
        self,
        question: Union[MultipleChoiceQuestion, str],
        choices: Optional[List[str]] = None,
        answer_index: Optional[int] = None,
    ) -> Instance:
        """Build an instance from a :class:`MultipleChoiceQuestion`, or from a stem and choice texts."""
        question = as_question(question, choices, answer_index)
        choice_list: List[Choice] = list(question.choices)
        if self.pad_choices_to is not None:
            if len(choice_list) > self.pad_choices_to:
                raise ValueError(
                    f"question {question.id}: {len(choice_list)} choices but pad_choices_to={self.pad_choices_to}"
                )
            choice_list += [Choice(f"pad{i}", "") for i in range(len(choice_list), self.pad_choices_to)]
        stem = [] if self.hide_question else self._tokenizer.tokenize(question.stem)  # once per question
        alternatives = ListField(
            [TextField(self.pair_tokens(stem, c.text), self._token_indexers) for c in choice_list]
        )
        fields: Dict[str, Any] = {"alternatives": alternatives}
        if question.answer_index is not None:
            fields["label"] = IndexField(question.answer_index, alternatives)
        metadata = {
            "id": question.id,
            "question": question.stem,
            "choices": [c.text for c in choice_list],
            "labels": [c.label for c in choice_list],
            "answer_index": question.answer_index,
            "num_real_choices": len(question.choices),
        }
        metadata.update(question.extras)
        fields["metadata"] = MetadataField(metadata)
        return Instance(fields)
