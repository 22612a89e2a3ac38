"""The ``causal_lm_mc`` dataset reader: every probe file as causal-LM prompts (for the ``causal_lm_mc`` model)."""
import logging
from typing import Any, Dict, Iterable, List, Optional

from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance
from allennlp.data.fields import LabelField, MetadataField

from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.data.causal_prompts import (
    DEFAULT_MASK_STRING, DEFAULT_NEUTRAL_PROMPT, DEFAULT_TARGET_DELIMITER, DEFAULT_TEMPLATE, PromptBuilder,
)
from mcqa_probes.data.dataset_readers.question_reader import QuestionReader
from mcqa_probes.data.dataset_readers.winoventi import prompt_question
from mcqa_probes.data.question import MultipleChoiceQuestion, read_numbered_questions
from mcqa_probes.data.winoventi import PairSubset, read_winoventi

logger = logging.getLogger(__name__)

FILE_FORMATS = ("auto", "jsonl", "winoventi")


@DatasetReader.register("causal_lm_mc")
class CausalLmMcReader(QuestionReader):
    """Reads every file of the ``mcqa`` family, oLMpics MC-MLM files and WinoVenti TSVs as prompts.

    Nothing is tokenized here: each instance carries its (context, continuation) requests in
    ``metadata["prompt"]`` (:class:`~mcqa_probes.data.causal_prompts.CausalPrompt`) and the model's
    scorer tokenizes them (lm-evaluation-harness's split), so one reader serves every causal LM.
    Fields: ``metadata`` (the shared question metadata of
    :class:`~mcqa_probes.data.dataset_readers.question_reader.QuestionReader`: id, question, choices,
    labels, answer_index, num_real_choices, every extra key of the line such as ``notes``; and
    ``prompt``) and ``label`` (the gold choice index) when the answer is known.

    * Question files (JSON lines, :mod:`mcqa_probes.data.question`): *cloze* prompts, ``template``
      filled with the stem, each choice as ``target_delimiter + choice``.
    * A stem with ``mask_string`` (oLMpics MC-MLM files): the choice is put in the sentence and the
      whole sentence is scored (``prompt_format: auto`` decides per question).
    * WinoVenti TSVs (``file_format: auto`` recognises ``.tsv``): the sentence with Associative
      Bias o_g against the sentence with Alternative o_e; the gold choice is ``target``; metadata has
      ``test_type`` (1 generic, 2 exception), ``pair_index``, ``word`` and the file ``line``.

    # Parameters

    template : `str`, optional (default = `"Question: {stem}\\nAnswer:"`)
        The cloze context; ``{stem}`` is replaced by the question.
    target_delimiter : `str`, optional (default = `" "`)
        Put between the context and each choice.
    neutral_prompt : `str`, optional (default = `"Answer:"`)
        The context of the choice-only requests (``pmi``'s denominator and the control).
    hide_question : `bool`, optional (default = `False`)
        The choice-only control: every choice is scored after ``neutral_prompt`` alone.
    prompt_format : `str`, optional (default = `"auto"`)
        ``cloze``, ``sentence`` (every stem must have one mask) or ``auto`` (by the stem).
    mask_string : `str`, optional (default = `"[MASK]"`)
    file_format : `str`, optional (default = `"auto"`)
        ``jsonl``, ``winoventi`` or ``auto`` (``.tsv`` files are WinoVenti).
    require_answer_key : `bool`, optional (default = `True`)
    subset, registry_path, subset_model, intersection_models, intersection_all_columns, check_pairs
        WinoVenti's subsets, as in the ``winoventi`` reader (``individual`` needs ``subset_model``:
        a registry column, since no model name is known here).
    """

    def __init__(
        self,
        template: str = DEFAULT_TEMPLATE,
        target_delimiter: str = DEFAULT_TARGET_DELIMITER,
        neutral_prompt: str = DEFAULT_NEUTRAL_PROMPT,
        hide_question: bool = False,
        prompt_format: str = "auto",
        mask_string: str = DEFAULT_MASK_STRING,
        file_format: str = "auto",
        require_answer_key: bool = True,
        subset: str = "all",
        registry_path: Optional[str] = None,
        subset_model: Optional[str] = None,
        intersection_models: Optional[List[str]] = None,
        intersection_all_columns: bool = False,
        check_pairs: bool = True,
        **kwargs,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        try:
            self.prompts = PromptBuilder(template, target_delimiter, neutral_prompt, mask_string, prompt_format,
                                         hide_question)
        except ValueError as error:
            raise ValueError(f"dataset_reader.{error}") from None
        if file_format not in FILE_FORMATS:
            raise ValueError(f"dataset_reader.file_format: expected one of {FILE_FORMATS}, got {file_format!r}")
        self.pair_subset = PairSubset.from_config(subset, registry_path, subset_model, intersection_models,
                                                  intersection_all_columns, needs_subset_model=True)
        self.file_format = file_format
        self.require_answer_key = require_answer_key
        self.check_pairs = check_pairs

    @property
    def hide_question(self) -> bool:
        return self.prompts.hide_question

    def _read(self, file_path: str) -> Iterable[Instance]:
        path = str(cached_path(file_path))
        is_tsv = self.file_format == "winoventi" or (self.file_format == "auto" and path.lower().endswith(".tsv"))
        if is_tsv:
            yield from self._read_winoventi(path)
            return
        for number, question in self.shard_iterable(read_numbered_questions(path,
                                                                            require_answer_key=self.require_answer_key)):
            try:
                yield self.text_to_instance(question)
            except McqaFormatError as error:
                raise McqaFormatError(error.reason, path, number) from None

    def _read_winoventi(self, path: str) -> Iterable[Instance]:
        prompts = read_winoventi(path, check_pairs=self.check_pairs)
        selected = self.pair_subset.select(prompts, open_path=cached_path)
        for prompt in self.shard_iterable(prompts):
            if selected is not None and prompt.pair_index not in selected:
                continue
            try:
                yield self.text_to_instance(prompt_question(prompt))
            except (McqaFormatError, ValueError) as error:
                raise McqaFormatError(str(getattr(error, "reason", error)), path, prompt.line) from None

    def question_to_instance(self, question: MultipleChoiceQuestion) -> Instance:
        """The instance of a question (``text_to_instance`` of the base also takes a stem and choice texts)."""
        metadata: Dict[str, Any] = self.question_metadata(question)
        metadata["prompt"] = self.prompts.prompt(question)
        fields: Dict[str, Any] = {"metadata": MetadataField(metadata)}
        if question.answer_index is not None:
            fields["label"] = LabelField(question.answer_index, skip_indexing=True)
        return Instance(fields)
