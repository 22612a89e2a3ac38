"""The ``mcqa_words`` dataset reader: multiple-choice jsonl files as word-level question / choices fields."""
from typing import Any, Dict, Iterable, List, Optional

from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance
from allennlp.data.fields import IndexField, ListField, MetadataField, TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer, TokenIndexer
from allennlp.data.tokenizers import LettersDigitsTokenizer, Token, Tokenizer

from mcqa_probes.data.dataset_readers.question_reader import QuestionReader
from mcqa_probes.data.question import MultipleChoiceQuestion, read_questions


@DatasetReader.register("mcqa_words")
class McqaWordsReader(QuestionReader):
    """Reads the same multiple-choice JSON lines as the ``mcqa`` reader, for word-level models
    (GloVe / ELMo baselines: choice-only, choice-to-choice, question-to-choice, ESIM, VecSimilarity).

    Fields: ``question`` (a TextField of the stem), ``choices`` (a ListField of one TextField per
    choice, any number of choices; a batch with 4- and 5-way questions is padded with empty
    choices, which the models mask out), ``label`` (IndexField into ``choices``, when the line has
    an ``answerKey``) and ``metadata`` (id, question, choices, labels, answer_index,
    num_real_choices, and every extra key of the line such as ``notes``).

    # Parameters

    tokenizer : `Tokenizer`, optional (default = `{"type": "letters_digits"}`)
        Word tokenizer for stems and choices. Configs always name it; ``letters_digits`` (runs of
        letters, runs of digits, single punctuation marks) and ``whitespace`` need no model
        download (``spacy`` would want ``en_core_web_sm``).
    token_indexers : `Dict[str, TokenIndexer]`, optional (default = `{"tokens": {"type": "single_id", "lowercase_tokens": true}}`)
        Lowercasing is done here (GloVe 6B is uncased). Add ``elmo_characters`` for ELMo.
    max_question_tokens : `int`, optional (default = `None`)
        Keep only the last this-many question tokens (stems end with the cue, e.g. "... is best
        described as"). ``None`` keeps everything.
    max_choice_tokens : `int`, optional (default = `None`)
        Keep only the first this-many tokens of each choice.
    require_answer_key : `bool`, optional (default = `True`)
        Whether every line must have an ``answerKey`` (false for unlabeled files).
    """

    def __init__(
        self,
        tokenizer: Optional[Tokenizer] = None,
        token_indexers: Optional[Dict[str, TokenIndexer]] = None,
        max_question_tokens: Optional[int] = None,
        max_choice_tokens: Optional[int] = None,
        require_answer_key: bool = True,
        **kwargs,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        self._tokenizer = tokenizer or LettersDigitsTokenizer()
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer(lowercase_tokens=True)}
        self.max_question_tokens = max_question_tokens
        self.max_choice_tokens = max_choice_tokens
        self.require_answer_key = require_answer_key

    def _read(self, file_path: str) -> Iterable[Instance]:
        path = cached_path(file_path)
        for question in self.shard_iterable(read_questions(path, require_answer_key=self.require_answer_key)):
            yield self.text_to_instance(question)

    def tokenize_question(self, text: str) -> List[Token]:
        tokens = self._tokenizer.tokenize(text)
        if self.max_question_tokens is not None and len(tokens) > self.max_question_tokens:
            tokens = tokens[len(tokens) - self.max_question_tokens :]
        return tokens

    def tokenize_choice(self, text: str) -> List[Token]:
        tokens = self._tokenizer.tokenize(text)
        if self.max_choice_tokens is not None:
            tokens = tokens[: self.max_choice_tokens]
        return tokens

    def question_to_instance(self, question: MultipleChoiceQuestion) -> Instance:
        choice_fields = ListField(
            [TextField(self.tokenize_choice(c.text), self._token_indexers) for c in question.choices]
        )
        fields: Dict[str, Any] = {
            "question": TextField(self.tokenize_question(question.stem), self._token_indexers),
            "choices": choice_fields,
        }
        if question.answer_index is not None:
            fields["label"] = IndexField(question.answer_index, choice_fields)
        fields["metadata"] = MetadataField(self.question_metadata(question))
        return Instance(fields)
