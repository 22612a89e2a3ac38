"""The ``olmpics_mlm`` dataset reader: oLMpics MC-MLM questions (one [MASK], one choice word or phrase)."""
import logging
import re
from typing import Any, Dict, Iterable, List, Optional, Tuple

import torch
from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance
from allennlp.data.fields import LabelField, MetadataField, TensorField, TextField
from allennlp.data.token_indexers import PretrainedTransformerIndexer, SingleIdTokenIndexer
from allennlp.data.tokenizers import PretrainedTransformerTokenizer, Token

from mcqa_probes.data.dataset_readers.question_reader import QuestionReader
from mcqa_probes.data.question import MultipleChoiceQuestion, read_numbered_questions
from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.data.candidates import (
    PLL_MODES, CandidateNotSinglePieceError, candidate_pieces, candidate_token_id, resolve_multi_token,
)
from mcqa_probes.resources.pretrained import resolve_transformer_name

logger = logging.getLogger(__name__)

_WORDS = re.compile(r"[\w']+|[^\w\s]")


@DatasetReader.register("olmpics_mlm")
class OlmpicsMlmReader(QuestionReader):
    """Reads oLMpics-style MC-MLM jsonl (``stem`` with exactly one ``[MASK]``; word choices).

    Each question becomes: ``tokens`` (the stem with ``[MASK]`` replaced by the model's own mask
    token, with the model's special tokens), ``mask_position`` (index of the mask piece),
    ``candidate_ids`` (one vocabulary id per choice, in the tokenizer's word-initial form:
    ``Ġword`` for byte-level BPE, ``▁word`` for SentencePiece, ``word`` for WordPiece; padded with
    -1 when questions of a batch have different K), ``label`` (gold choice index) and
    ``metadata`` (id, stem, choices, labels, extras). MC-QA probes use the ``mcqa`` reader.
    With ``multi_token: pll | pll_word_l2r`` every instance also has ``candidate_pieces``
    (K, P: the word-initial piece ids of each choice, padded with -1; ``candidate_ids`` then
    holds the first piece of a multi-piece choice) and ``candidate_piece_groups`` (K, P: the
    masking groups of :func:`~mcqa_probes.models.pseudo_log_likelihood.candidate_pieces`).

    # Parameters

    transformer_model_name : `str`, optional (default = `"minilm"`)
        HuggingFace name or local directory (``minilm`` = the offline all-MiniLM-L6-v2).
    mask_string : `str`, optional (default = `"[MASK]"`)
        The mask as written in the data files.
    max_length : `int`, optional (default = `128`)
        Word pieces kept (special tokens included); a mask beyond it is an error.
    multi_token : `str`, optional (default = `"reject"`)
        What a choice that is several vocabulary pieces does to its question: ``reject`` (an
        error naming the file, line and word), ``skip`` (skipped and counted in
        ``skipped_questions``), ``pll`` / ``pll_word_l2r`` (the question is scored by
        pseudo-log-likelihood, see :mod:`mcqa_probes.models.pseudo_log_likelihood`; counted in
        ``multi_piece_questions``).
    skip_multi_piece_candidates : `bool`, optional (default = `None`)
        The older spelling: true = ``multi_token: skip``, false = ``reject`` (or the PLL mode
        given in ``multi_token``).
    word_tokens : `bool`, optional (default = `False`)
        Also emit ``words``: the stem as lower-cased word tokens (``[MASK]`` kept as one token)
        indexed in the ``glove_tokens`` namespace, for the ``mlm_baseline`` model.
    require_answer_key : `bool`, optional (default = `True`)
    """

    def __init__(
        self,
        transformer_model_name: str = "minilm",
        mask_string: str = "[MASK]",
        max_length: int = 128,
        multi_token: Optional[str] = None,
        skip_multi_piece_candidates: Optional[bool] = None,
        word_tokens: bool = False,
        require_answer_key: bool = True,
        tokenizer_kwargs: Optional[Dict[str, Any]] = None,
        **kwargs,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        self.transformer_model_name = transformer_model_name
        resolved = resolve_transformer_name(transformer_model_name)
        self._tokenizer = PretrainedTransformerTokenizer(
            resolved, add_special_tokens=True, max_length=max_length, tokenizer_kwargs=tokenizer_kwargs
        )
        self.hf_tokenizer = self._tokenizer.tokenizer
        if self.hf_tokenizer.mask_token is None:
            raise ValueError(f"dataset_reader.transformer_model_name: {transformer_model_name} has no mask token")
        self._token_indexers = {"tokens": PretrainedTransformerIndexer(resolved, tokenizer_kwargs=tokenizer_kwargs)}
        self._word_indexers = {"glove": SingleIdTokenIndexer(namespace="glove_tokens", lowercase_tokens=True)}
        self.mask_string = mask_string
        self.max_length = max_length
        self.multi_token = resolve_multi_token(multi_token, skip_multi_piece_candidates, self.default_multi_token,
                                               "dataset_reader.multi_token")
        self.skip_multi_piece_candidates = self.multi_token == "skip"
        self.multi_piece_questions = 0
        self.word_tokens = word_tokens
        self.require_answer_key = require_answer_key
        self.skipped_questions = 0
        self._candidate_cache: Dict[str, int] = {}
        self._pieces_cache: Dict[str, Tuple[List[int], List[int]]] = {}

    #: ``multi_token`` when neither it nor ``skip_multi_piece_candidates`` is given
    default_multi_token = "reject"

    # ------------------------------------------------------------------ reading
    def _read(self, file_path: str) -> Iterable[Instance]:
        path = str(cached_path(file_path))
        self.skipped_questions = 0
        self.multi_piece_questions = 0
        for number, question in self.shard_iterable(read_numbered_questions(path, require_answer_key=self.require_answer_key)):
            try:
                yield self.text_to_instance(question)
            except CandidateNotSinglePieceError as error:
                if not self.skip_multi_piece_candidates:
                    raise McqaFormatError(f"question {question.id}: {error}", path, number) from None
                self.skipped_questions += 1
            except McqaFormatError as error:
                raise McqaFormatError(error.reason, path, number) from None
        if self.skipped_questions:
            logger.warning("%s: skipped %d questions with multi-piece candidates", file_path, self.skipped_questions)

    # ------------------------------------------------------------------ instances
    def candidate_id(self, word: str) -> int:
        """Vocabulary id of an answer word (word-initial form); CandidateNotSinglePieceError if none."""
        if word not in self._candidate_cache:
            self._candidate_cache[word] = candidate_token_id(self.hf_tokenizer, word)
        return self._candidate_cache[word]

    def candidate_pieces(self, word: str) -> Tuple[List[int], List[int]]:
        """(piece ids, masking groups) of an answer word for PLL scoring (cached)."""
        if word not in self._pieces_cache:
            self._pieces_cache[word] = candidate_pieces(self.hf_tokenizer, word, self.multi_token)
        return self._pieces_cache[word]

    def stem_tokens(self, stem: str) -> Tuple[List[Token], int]:
        """Word pieces of the stem (special tokens added) and the index of the mask piece."""
        count = stem.count(self.mask_string)
        if count != 1:
            raise McqaFormatError(f"expected exactly one {self.mask_string} in the stem, found {count}: {stem!r}")
        text = stem.replace(self.mask_string, self.hf_tokenizer.mask_token)
        tokens = self._tokenizer.tokenize(text)
        mask_id = self.hf_tokenizer.mask_token_id
        positions = [i for i, token in enumerate(tokens) if token.text_id == mask_id]
        if len(positions) != 1:
            raise McqaFormatError(
                f"the mask is not one piece within max_length={self.max_length} after tokenization: {stem!r}"
            )
        return tokens, positions[0]

    def word_tokens_of(self, stem: str) -> List[Token]:
        before, _, after = stem.partition(self.mask_string)
        words = [Token(w) for w in _WORDS.findall(before)] + [Token("[mask]")] + [Token(w) for w in _WORDS.findall(after)]
        return words

    def question_to_instance(self, question: MultipleChoiceQuestion) -> Instance:
        tokens, mask_position = self.stem_tokens(question.stem)
        fields: Dict[str, Any] = {
            "tokens": TextField(tokens, self._token_indexers),
            "mask_position": TensorField(torch.tensor(mask_position, dtype=torch.long)),
        }
        if self.multi_token in PLL_MODES:
            pieces = [self.candidate_pieces(choice.text) for choice in question.choices]
            width = max(len(ids) for ids, _ in pieces)
            if len(tokens) - 1 + width > self.max_length:
                raise McqaFormatError(f"the stem with its longest choice ({width} pieces) exceeds "
                                      f"max_length={self.max_length}: {question.stem!r}")
            if width > 1:
                self.multi_piece_questions += 1
            candidate_ids = [ids[0] for ids, _ in pieces]
            padded = [(ids + [-1] * (width - len(ids)), groups + [-1] * (width - len(ids))) for ids, groups in pieces]
            fields["candidate_pieces"] = TensorField(torch.tensor([p for p, _ in padded]), padding_value=-1)
            fields["candidate_piece_groups"] = TensorField(torch.tensor([g for _, g in padded]), padding_value=-1)
        else:
            candidate_ids = [self.candidate_id(choice.text) for choice in question.choices]
        fields["candidate_ids"] = TensorField(torch.tensor(candidate_ids, dtype=torch.long), padding_value=-1)
        if self.word_tokens:
            fields["words"] = TextField(self.word_tokens_of(question.stem), self._word_indexers)
        if question.answer_index is not None:
            fields["label"] = LabelField(question.answer_index, skip_indexing=True)
        fields["metadata"] = MetadataField(self.question_metadata(question))
        return Instance(fields)

    def apply_token_indexers(self, instance: Instance) -> None:  # tokens are indexed at creation
        pass
