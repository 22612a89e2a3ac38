"""The ``winoventi`` dataset reader: WinoVenti prompts as MC-MLM instances (candidates o_g, o_e)."""
import logging
from typing import Any, Dict, Iterable, Iterator, List, Optional, Set

from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance

from mcqa_probes.data.dataset_readers.olmpics_mlm import OlmpicsMlmReader
from mcqa_probes.data.question import Choice, MultipleChoiceQuestion
from mcqa_probes.data.winoventi import PairSubset, WinoVentiPrompt, read_winoventi
from mcqa_probes.data.candidates import CandidateNotSinglePieceError

logger = logging.getLogger(__name__)


@DatasetReader.register("winoventi")
class WinoVentiReader(OlmpicsMlmReader):
    """Reads the WinoVenti TSV (Do & Pavlick 2021) for the ``masked_lm_mc`` / ``winoventi_mlm`` models.

    Each row becomes an ``olmpics_mlm`` instance: ``tokens`` (``masked_prompt`` with the model's
    mask token), ``mask_position``, ``candidate_ids`` = [o_g, o_e] (Associative Bias, Alternative)
    in the word-initial single-piece form shared with MC-MLM
    (:func:`~mcqa_probes.data.candidates.candidate_token_id`), ``label`` = the index of
    ``target`` (0 on generic prompts, 1 on exception prompts), and ``metadata`` with ``test_type``,
    ``pair_index``, ``word`` and the file ``line``. Rows are yielded in file order.

    # Parameters

    transformer_model_name : `str`, optional (default = `"minilm"`)
    multi_token : `str`, optional (default = `"skip"`)
        A pair whose o_g or o_e is not one vocabulary piece of the model cannot be scored at one
        mask. ``skip``: both its prompts are skipped (never truncated to the first piece), counted
        in ``skipped_prompts`` and the words listed in ``multi_piece_words`` and in a warning.
        ``reject``: such a row is an error naming file, line and word. ``pll`` /
        ``pll_word_l2r``: its prompts are scored by pseudo-log-likelihood (both outcomes; see
        :mod:`mcqa_probes.models.pseudo_log_likelihood`).
    skip_multi_piece_candidates : `bool`, optional (default = `None`)
        The older spelling: true = ``skip``, false = ``reject``.
    subset : `str`, optional (default = `"all"`)
        ``all``, ``individual`` (pairs whose triple passes ``subset_model``'s filter in
        ``registry_path``) or ``intersection`` (pairs passing the filter of each of the 12 Table-6
        models, :data:`~mcqa_probes.data.winoventi.TABLE6_MODELS`; or of every registry column with
        ``intersection_all_columns``; or of ``intersection_models``). See :mod:`mcqa_probes.data.winoventi`.
    registry_path : `str`, optional (default = `None`)
        ``associativebias_registry.tsv`` or a file in its layout (e.g. written by ``bin/winoventi_filter``).
    subset_model : `str`, optional (default = `None`)
        Registry column for ``individual`` (default: ``transformer_model_name``, matched also by
        its last path component).
    intersection_models : `List[str]`, optional (default = `None`)
    intersection_all_columns : `bool`, optional (default = `False`)
        Intersection over every registry column (the released registry also has ``DistilBERT`` and
        two Longformers, which are not in Table 6) instead of the Table-6 models.
    check_pairs : `bool`, optional (default = `True`)
        Verify that row i pairs with row i + N (false for fine-tuning split files).
    """

    default_multi_token = "skip"  # as the paper: pairs with multi-piece outcomes are left out

    def __init__(
        self,
        transformer_model_name: str = "minilm",
        skip_multi_piece_candidates: Optional[bool] = None,
        subset: str = "all",
        registry_path: Optional[str] = None,
        subset_model: Optional[str] = None,
        intersection_models: Optional[List[str]] = None,
        intersection_all_columns: bool = False,
        check_pairs: bool = True,
        **kwargs,
    ) -> None:
        super().__init__(transformer_model_name=transformer_model_name,
                         skip_multi_piece_candidates=skip_multi_piece_candidates, **kwargs)
        self.pair_subset = PairSubset.from_config(subset, registry_path, subset_model, intersection_models,
                                                  intersection_all_columns)
        self.check_pairs = check_pairs
        self.skipped_prompts = 0
        self.multi_piece_words: Set[str] = set()

    def _read(self, file_path: str) -> Iterable[Instance]:
        path = str(cached_path(file_path))
        self.skipped_prompts, self.multi_piece_words = 0, set()
        for prompt in read_prompts(self, path, self.pair_subset, self.check_pairs, self.transformer_model_name):
            try:
                yield self.prompt_to_instance(prompt)
            except CandidateNotSinglePieceError as error:
                if not self.skip_multi_piece_candidates:
                    raise ValueError(f"{path}, line {prompt.line}: {error}") from None
                self.skipped_prompts += 1
                self.multi_piece_words.add(error.word)
        if self.skipped_prompts:
            logger.warning("%s: skipped %d prompts whose outcome words are several pieces for %s: %s",
                           file_path, self.skipped_prompts, self.transformer_model_name,
                           ", ".join(sorted(self.multi_piece_words)))

    def prompt_to_instance(self, prompt: WinoVentiPrompt) -> Instance:
        question = prompt_question(prompt)
        return self.text_to_instance(question)


def read_prompts(reader: DatasetReader, path: str, pair_subset: PairSubset, check_pairs: bool = True,
                 model_name: Optional[str] = None) -> Iterator[WinoVentiPrompt]:
    """The prompts of a WinoVenti TSV that a reader yields, in file order: the rows of ``path`` (row i
    paired with row i + N when ``check_pairs``), those of the pairs ``pair_subset`` selects (Individual:
    the registry column of ``model_name`` unless the subset names one) and of the reader's shard
    (``reader.shard_iterable``). The one loop of the ``winoventi`` and ``causal_lm_mc`` readers."""
    prompts = read_winoventi(path, check_pairs=check_pairs)
    selected = pair_subset.select(prompts, model_name, cached_path)
    for prompt in reader.shard_iterable(prompts):
        if selected is None or prompt.pair_index in selected:
            yield prompt


def prompt_question(prompt: WinoVentiPrompt) -> MultipleChoiceQuestion:
    """A WinoVenti row as a 2-choice MC-MLM question: choices (o_g, o_e), gold = ``target``."""
    choices = [Choice("generic", prompt.generic), Choice("exception", prompt.exception)]
    if prompt.target == prompt.generic and prompt.incorrect == prompt.exception:
        answer = 0
    elif prompt.target == prompt.exception and prompt.incorrect == prompt.generic:
        answer = 1
    else:
        raise ValueError(f"line {prompt.line}: target/incorrect {prompt.target!r}/{prompt.incorrect!r} are not "
                         f"the Associative Bias/Alternative {prompt.generic!r}/{prompt.exception!r}")
    extras: Dict[str, Any] = {"test_type": prompt.test_type, "pair_index": prompt.pair_index,
                              "word": prompt.word, "line": prompt.line}
    return MultipleChoiceQuestion(prompt.id, prompt.masked_prompt, choices, answer, extras)
