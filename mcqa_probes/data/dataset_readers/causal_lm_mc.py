"""The ``causal_lm_mc`` dataset reader: every probe file as causal-LM prompts (for the ``causal_lm_mc`` model)."""
import logging
from typing import Any, Dict, Iterable, List, Optional

from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance
from allennlp.data.fields import LabelField, MetadataField

from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.data.causal_prompts import (
    DEFAULT_LETTERS_TEMPLATE, DEFAULT_MASK_STRING, DEFAULT_NEUTRAL_PROMPT, DEFAULT_TARGET_DELIMITER, DEFAULT_TEMPLATE,
    FewShotSampler, PromptBuilder, rotate,
)
from mcqa_probes.data.dataset_readers.question_reader import QuestionReader
from mcqa_probes.data.dataset_readers.winoventi import prompt_question, read_prompts
from mcqa_probes.data.question import MultipleChoiceQuestion, read_numbered_questions
from mcqa_probes.data.winoventi import PairSubset

logger = logging.getLogger(__name__)

FILE_FORMATS = ("auto", "jsonl", "winoventi")
ROTATIONS = ("none", "cyclic")


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
    letters_template : `str`, optional (default = `"Question: {stem}\n{choices}Answer:"`)
        The context of ``prompt_format: letters``; ``{choices}`` becomes ``A. first\nB. second\n...``.
    rotations : `str`, optional (default = `"none"`)
        ``cyclic``: every question is read K times (K = its number of choices), its choices rotated
        by 0..K-1 places, so the gold answer sits at every position (the position-bias control of
        ``prompt_format: letters``, the only format that shows the choices' order; metadata
        ``rotation``, ``rotations``, ``question_key``). ``none``: once, as written.
    shots : `int`, optional (default = `0`)
        Solved examples before each question, drawn from ``shots_from`` (seeded by ``shots_seed`` and
        the question's id, so the same for every run and worker), never from the question's own
        semantic cluster nor the question itself; in the question's format.
    shots_from : `str`, optional (default = `None`)
        The labelled question file the examples come from (e.g. the probe's train.jsonl).
    shots_seed : `int`, optional (default = `1234`)
    chat_template : `bool`, optional (default = `False`)
        Contexts are user turns rendered by the model's chat template (instruct models), the
        continuation without the target delimiter (lm-evaluation-harness's ``--apply_chat_template``).
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
        letters_template: str = DEFAULT_LETTERS_TEMPLATE,
        rotations: str = "none",
        shots: int = 0,
        shots_from: Optional[str] = None,
        shots_seed: int = 1234,
        chat_template: bool = False,
        **kwargs,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        try:
            self.prompts = PromptBuilder(template, target_delimiter, neutral_prompt, mask_string, prompt_format,
                                         hide_question, letters_template=letters_template, chat=chat_template)
        except ValueError as error:
            raise ValueError(f"dataset_reader.{error}") from None
        if rotations not in ROTATIONS:
            raise ValueError(f"dataset_reader.rotations: expected one of {ROTATIONS}, got {rotations!r}")
        if rotations != "none" and prompt_format != "letters":
            raise ValueError(f"dataset_reader.rotations: {rotations} rotations control the position of lettered "
                             f"choices (prompt_format: letters); a {prompt_format} prompt does not show the choices' "
                             "order, so every rotation would score the same")
        if int(shots) < 0 or (int(shots) > 0 and not shots_from):
            raise ValueError(f"dataset_reader.shots: {shots} examples need dataset_reader.shots_from (a labelled "
                             "question file)" if int(shots) > 0 else f"dataset_reader.shots: expected >= 0, got {shots}")
        self.rotations = rotations
        self.shots = FewShotSampler(shots_from, int(shots), int(shots_seed)) if int(shots) > 0 else None
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
                yield from self.text_to_instances(question)
            except McqaFormatError as error:
                raise McqaFormatError(error.reason, path, number) from None

    def _read_winoventi(self, path: str) -> Iterable[Instance]:
        for prompt in read_prompts(self, path, self.pair_subset, self.check_pairs):
            try:
                yield from self.text_to_instances(prompt_question(prompt))
            except (McqaFormatError, ValueError) as error:
                raise McqaFormatError(str(getattr(error, "reason", error)), path, prompt.line) from None

    def text_to_instances(self, question: MultipleChoiceQuestion) -> Iterable[Instance]:
        """The instances of a question: one, or one per rotation (``rotations: cyclic``)."""
        if self.rotations == "none":
            yield self.question_to_instance(question)
            return
        count = len(question.choices)
        for rotation in range(count):
            yield self.question_to_instance(rotate(question, rotation),
                                            {"rotation": rotation, "rotations": count, "question_key": question.id})

    def question_to_instance(self, question: MultipleChoiceQuestion,
                             extra: Optional[Dict[str, Any]] = None) -> Instance:
        """The instance of a question (``text_to_instance`` of the base also takes a stem and choice texts)."""
        metadata: Dict[str, Any] = self.question_metadata(question)
        shots = self.shots.examples_for(question) if self.shots is not None else ()
        metadata["prompt"] = self.prompts.prompt(question, shots)
        if shots:
            metadata["shots"] = [shot.id for shot in shots]
        metadata.update(extra or {})
        fields: Dict[str, Any] = {"metadata": MetadataField(metadata)}
        if question.answer_index is not None:
            fields["label"] = LabelField(question.answer_index, skip_indexing=True)
        return Instance(fields)
