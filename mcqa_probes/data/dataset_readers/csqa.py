"""The ``csqa`` dataset reader: CommonsenseQA (both layouts) with the paper's SANITY mode.

Registered as ``csqa``, not ``commonsenseqa``: allennlp-models already registers a reader named
``commonsenseqa`` (``allennlp_models.mc``, a TransformerMCReader for the original layout only), and
``register(..., exist_ok=True)`` would silently replace it for every user of allennlp-models.
"""
from typing import Iterable

from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance

from mcqa_probes.data.commonsenseqa import answer_pool, sanity_question
from mcqa_probes.data.dataset_readers.mcqa import McqaReader
from mcqa_probes.data.question import read_numbered_questions


@DatasetReader.register("csqa")
class CsqaReader(McqaReader):
    """CommonsenseQA as transformer (question, choice) pairs: the ``mcqa`` reader plus SANITY mode.

    Reads the original layout (``question.question_concept``, ``question.choices`` list, letter
    labels) and the HuggingFace flattened one (``question`` string, ``question_concept``,
    ``choices: {label: [...], text: [...]}``); ``question_concept`` is kept in ``metadata``. Test
    files without answers: ``require_answer_key: false``. Every ``mcqa`` parameter applies.

    # Parameters

    sanity : `bool`, optional (default = `False`)
        SANITY mode (Talmor et al. 2019, §5): every distractor is replaced by a random answer
        concept of another question of the same file (drawn without replacement, never equal to
        the gold answer). The gold choice keeps its position and label; K is unchanged; the
        replaced distractors are kept in ``metadata["sanity"]``. Needs labelled files.
    sanity_seed : `int`, optional (default = `0`)
        Seed of the draw; each question uses ``Random(f"{sanity_seed}:{id}")``, so results do
        not depend on file order or sharding.
    """

    def __init__(self, sanity: bool = False, sanity_seed: int = 0, **kwargs) -> None:
        super().__init__(**kwargs)
        if sanity and not self.require_answer_key:
            raise ValueError("dataset_reader.sanity needs labelled data (require_answer_key: true)")
        self.sanity = sanity
        self.sanity_seed = sanity_seed

    def _read(self, file_path: str) -> Iterable[Instance]:
        path = cached_path(file_path)
        numbered = read_numbered_questions(path, require_answer_key=self.require_answer_key)
        if self.sanity:  # the pool is the whole file's answers: read it all first
            numbered = list(numbered)
            pool = answer_pool([question for _, question in numbered])
            numbered = ((line, sanity_question(question, pool, self.sanity_seed)) for line, question in numbered)
        # batched tokenization, as the mcqa reader (``batch_size`` questions per tokenizer call)
        yield from self._read_numbered(numbered, str(path), file_path)
