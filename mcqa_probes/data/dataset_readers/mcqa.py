"""The ``mcqa`` dataset reader: every multiple-choice jsonl file as transformer (question, choice) pairs."""
import logging
from itertools import islice
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance
from allennlp.data.fields import IndexField, ListField, MetadataField, TextField
from allennlp.data.token_indexers import PretrainedTransformerIndexer
from allennlp.data.tokenizers import PretrainedTransformerTokenizer, Token

from mcqa_probes.data.archives import TOKENIZING_DEFAULTS
from mcqa_probes.data.dataset_readers.question_reader import QuestionReader
from mcqa_probes.common.collector import collector_paused
from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.data.question import (
    Choice, MultipleChoiceQuestion, read_numbered_questions,
)
from mcqa_probes.resources.pretrained import resolve_transformer_name

logger = logging.getLogger(__name__)

TRUNCATION_STRATEGIES = ("longest_first", "question_start", "question_end", "choice_end")


@DatasetReader.register("mcqa")
class McqaReader(QuestionReader):
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
    tokenizer_kwargs : `Dict[str, Any]`, optional (default = `None`)
        Passed to the HuggingFace tokenizer (``AutoTokenizer.from_pretrained``).
    batch_size : `int`, optional (default = `128`)
        How many questions are tokenized together: the file is read lazily, this many questions
        at a time, and all their stems and choice texts go through ONE call of the fast
        tokenizer before the instances are built (several times faster than pair by pair; the
        instances are the same). Only memory depends on it. Slow (Python) tokenizers are read
        pair by pair.
    """

    def __init__(
        self,
        transformer_model_name: str = TOKENIZING_DEFAULTS["transformer_model_name"],
        max_length: int = TOKENIZING_DEFAULTS["max_length"],
        truncation: str = TOKENIZING_DEFAULTS["truncation"],
        pad_choices_to: Optional[int] = None,
        hide_question: bool = False,
        require_answer_key: bool = True,
        tokenizer_kwargs: Optional[Dict[str, Any]] = None,
        batch_size: int = 128,
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
        if batch_size < 1:
            raise ValueError(f"dataset_reader.batch_size: expected a positive number of questions, got {batch_size}")
        self.batch_size = batch_size
        self.truncated_pairs = 0
        self._backend = _plain_backend(self._tokenizer.tokenizer)

    # ------------------------------------------------------------------ reading
    def _read(self, file_path: str) -> Iterable[Instance]:
        path = cached_path(file_path)
        self.say_cap(path, file_path)
        numbered = read_numbered_questions(path, require_answer_key=self.require_answer_key)
        yield from self._read_numbered(numbered, str(path), file_path)

    def _read_numbered(
        self, numbered: Iterable[Tuple[int, MultipleChoiceQuestion]], path: str, file_path: str
    ) -> Iterator[Instance]:
        """The instances of ``(line number, question)`` pairs, ``batch_size`` questions per
        tokenizer call (lazily: one batch in memory at a time)."""
        remaining = iter(self.shard_iterable(numbered))
        while True:
            batch = list(islice(remaining, self.batch_size))
            if not batch:
                break
            for line, question in batch:
                self._check_choices(question, path, line)
            yield from self.batch_to_instances([question for _, question in batch])
        if self.truncated_pairs:
            logger.info("%s: %d (question, choice) pairs truncated to %d pieces (%s)",
                        file_path, self.truncated_pairs, self.max_length, self.truncation)

    # ------------------------------------------------------------------ instances
    def _check_choices(self, question: MultipleChoiceQuestion, path: Optional[str] = None,
                       line: Optional[int] = None) -> None:
        if self.pad_choices_to is not None and len(question.choices) > self.pad_choices_to:
            raise McqaFormatError(
                f"question {question.id}: {len(question.choices)} choices but pad_choices_to={self.pad_choices_to}",
                path, line,
            )

    def _choice_list(self, question: MultipleChoiceQuestion) -> List[Choice]:
        choice_list: List[Choice] = list(question.choices)
        if self.pad_choices_to is not None:
            self._check_choices(question)
            choice_list += [Choice(f"pad{i}", "") for i in range(len(choice_list), self.pad_choices_to)]
        return choice_list

    def _cut(self, question_length: int, choice_length: int) -> Tuple[int, int, int]:
        """What :meth:`_truncate` keeps, from lengths only: ``question[start:end]`` and
        ``choice[:choice_end]``. Counts the pair in ``truncated_pairs`` when it is cut."""
        budget = self.max_length - (self._pair_overhead if question_length else self._single_overhead)
        excess = question_length + choice_length - budget
        if excess <= 0:
            return 0, question_length, choice_length
        self.truncated_pairs += 1
        start, kept, choice = 0, question_length, choice_length
        if self.truncation == "question_start":
            cut = min(excess, kept)
            start, kept, excess = cut, kept - cut, excess - cut
        elif self.truncation == "question_end":
            cut = min(excess, kept)
            kept, excess = kept - cut, excess - cut
        elif self.truncation == "choice_end":
            cut = min(excess, max(choice - 1, 0))
            choice, excess = choice - cut, excess - cut
        if excess > 0:  # longest_first: one piece at a time from the longer side, the question on ties
            if not kept:
                choice -= excess
            else:
                gap = min(excess, abs(kept - choice))  # first the longer side down to the shorter
                if kept >= choice:
                    kept -= gap
                else:
                    choice -= gap
                excess -= gap
                kept -= (excess + 1) // 2  # then alternately, the question first
                choice -= excess // 2
        return start, start + kept, choice

    def batch_to_instances(self, questions: Sequence[MultipleChoiceQuestion]) -> List[Instance]:
        """The instances of several questions; their stems and choice texts are tokenized in one
        call of the fast tokenizer. Same instances as :meth:`text_to_instance` one by one.

        Token objects are shared, not copied: a question's tokens by its sequences (one per
        choice), a text's by its repetitions in the batch, the special tokens by all (allennlp
        shares those too). Nothing mutates Tokens; copy one before changing it."""
        if self._backend is None:  # a slow (Python) tokenizer: nothing to batch
            return [self._per_pair_instance(question) for question in questions]
        with collector_paused():
            return self._batch_to_instances(questions)

    def _batch_to_instances(self, questions: Sequence[MultipleChoiceQuestion]) -> List[Instance]:
        choice_lists = [self._choice_list(question) for question in questions]
        position: Dict[str, int] = {}
        for question, choice_list in zip(questions, choice_lists):
            if not self.hide_question:
                position.setdefault(question.stem, len(position))
            for choice in choice_list:
                if choice.text:
                    position.setdefault(choice.text, len(position))
        pieces = [_pieces(encoding) for encoding in self._backend.encode_batch(list(position), add_special_tokens=False)]
        built: Dict[Tuple[str, int], List[Token]] = {}  # Token lists by (text, type id), shared

        def tokens(text: str, type_id: int) -> List[Token]:
            key = (text, type_id)
            if key not in built:
                built[key] = _tokens(pieces[position[text]], type_id) if text else []
            return built[key]

        t = self._tokenizer
        pair_start, pair_mid, pair_end = t.sequence_pair_start_tokens, t.sequence_pair_mid_tokens, t.sequence_pair_end_tokens
        single_start, single_end = t.single_sequence_start_tokens, t.single_sequence_end_tokens
        first, second, single = (t.sequence_pair_first_token_type_id, t.sequence_pair_second_token_type_id,
                                 t.single_sequence_token_type_id)
        instances = []
        for question, choice_list in zip(questions, choice_lists):
            stem = [] if self.hide_question else tokens(question.stem, first)
            sequences = []
            for choice in choice_list:
                choice_length = len(pieces[position[choice.text]][0]) if choice.text else 0
                start, end, choice_end = self._cut(len(stem), choice_length)
                if end > start:
                    sequences.append(pair_start + stem[start:end] + pair_mid
                                     + tokens(choice.text, second)[:choice_end] + pair_end)
                else:
                    sequences.append(single_start + tokens(choice.text, single)[:choice_end] + single_end)
            instances.append(self._instance(question, choice_list, sequences))
        return instances

    def _instance(self, question: MultipleChoiceQuestion, choice_list: List[Choice],
                  sequences: List[List[Token]]) -> Instance:
        alternatives = ListField([TextField(sequence, self._token_indexers) for sequence in sequences])
        fields: Dict[str, Any] = {"alternatives": alternatives}
        if question.answer_index is not None:
            fields["label"] = IndexField(question.answer_index, alternatives)
        fields["metadata"] = MetadataField(self.question_metadata(question, choice_list))
        return Instance(fields)

    # ------------------------------------------------------------------ the per-pair reference
    # Tokenizes each text with the allennlp tokenizer, then truncates and adds the special tokens
    # pair by pair. Slow; kept as the reference the batched path is tested (and benchmarked)
    # against, and used for slow tokenizers.
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

    def _per_pair_instance(self, question: MultipleChoiceQuestion) -> Instance:
        choice_list = self._choice_list(question)
        stem = [] if self.hide_question else self._tokenizer.tokenize(question.stem)  # once per question
        return self._instance(question, choice_list, [self.pair_tokens(stem, c.text) for c in choice_list])

    # ------------------------------------------------------------------ one question
    def question_to_instance(self, question: MultipleChoiceQuestion) -> Instance:
        return self.batch_to_instances([question])[0]


_Pieces = Tuple[List[int], List[str], List[Tuple[int, int]]]


def _pieces(encoding: Any) -> _Pieces:
    """Ids, texts and offsets of the pieces of one text, without special tokens (as allennlp's
    ``tokenize`` with ``add_special_tokens=False``: it drops every piece the tokenizer marks as
    special)."""
    ids, texts, offsets = encoding.ids, encoding.tokens, encoding.offsets
    mask = encoding.special_tokens_mask
    if 1 in mask:
        kept = [i for i, special in enumerate(mask) if not special]
        ids, texts, offsets = [ids[i] for i in kept], [texts[i] for i in kept], [offsets[i] for i in kept]
    return ids, texts, offsets


def _tokens(pieces: _Pieces, type_id: int) -> List[Token]:
    """allennlp Tokens as the allennlp tokenizer makes them (offsets None where empty), with
    ``type_id`` as ``add_special_tokens`` sets it; positional arguments: Token's order."""
    ids, texts, offsets = pieces
    return [
        Token(text, start, end, None, None, None, None, None, piece, type_id) if start < end
        else Token(text, None, None, None, None, None, None, None, piece, type_id)
        for piece, text, (start, end) in zip(ids, texts, offsets)
    ]


def _plain_backend(tokenizer: Any) -> Any:
    """A copy of a fast tokenizer's backend without truncation or padding (None for slow ones)."""
    if not getattr(tokenizer, "is_fast", False):
        return None
    from tokenizers import Tokenizer

    backend = Tokenizer.from_str(tokenizer.backend_tokenizer.to_str())
    backend.no_truncation()
    backend.no_padding()
    return backend
