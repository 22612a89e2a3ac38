"""WinoVenti (§3.1, Table 6) for a causal LM: the sentence with the target word against the sentence
with the incorrect word, each scored whole by the LM (``causal_lm_mc`` reader and model).

A prompt is right when its target sentence has the strictly higher score (ties are wrong, as at the
masked LM's mask). The row is the masked LMs' Table-6 row (:func:`~mcqa_probes.experiments.winoventi.
evaluate.evaluate_model`): generic / exception accuracy over All, Individual and Intersection pairs;
no prompt is skipped (a causal LM scores an outcome word of any number of tokens). Individual comes
from the model's registry column when it has one, else from the adversarial filter (§2.4) run with
the causal LM: a triple passes when "The [NOUN] is <generic>." scores strictly higher than
"The [NOUN] is <exception>.".
"""
from typing import Any, Dict, List, Optional, Sequence, Tuple

from mcqa_probes.data.winoventi import Registry, WinoVentiPrompt, unique_triples
from mcqa_probes.data.dataset_readers.causal_lm_mc import CausalLmMcReader
from mcqa_probes.data.dataset_readers.winoventi import prompt_question
from mcqa_probes.experiments.causal_lm.zero_shot import build
from mcqa_probes.experiments.winoventi.adversarial_filter import NEUTRAL_TEMPLATE
from mcqa_probes.experiments.winoventi.evaluate import PromptScorer, evaluate_prompts
from mcqa_probes.models.causal_lm_mc import CausalLmMc
from mcqa_probes.training.evaluation import predict_instances


def strictly_first(row: Sequence[float], gold: int) -> bool:
    return row[gold] > row[1 - gold]


def score_prompts(reader: CausalLmMcReader, model: CausalLmMc, prompts: Sequence[WinoVentiPrompt],
                  batch_size: int = 32) -> Dict[str, Any]:
    """``{"correct": {line: bool}, "logits": {line: [o_g score, o_e score]}}`` (the model's ``score``)."""
    questions = [prompt_question(prompt) for prompt in prompts]
    instances = [reader.text_to_instance(question) for question in questions]
    logits = predict_instances(model, instances, batch_size)["logits"] if instances else []
    correct = {p.line: strictly_first(row, q.answer_index) for p, q, row in zip(prompts, questions, logits)}
    return {"correct": correct, "logits": {p.line: row for p, row in zip(prompts, logits)}}


def causal_filter_flags(reader: CausalLmMcReader, model: CausalLmMc, prompts: Sequence[WinoVentiPrompt],
                        batch_size: int = 32, template: str = NEUTRAL_TEMPLATE) -> Dict[Tuple, bool]:
    """The adversarial filter with a causal LM: ``triple -> passed`` (generic sentence strictly higher)."""
    triples = list(unique_triples(prompts))
    instances = [reader.text_to_instance(template.format(noun=noun), [generic, exception])
                 for noun, generic, exception in triples]
    logits = predict_instances(model, instances, batch_size)["logits"] if instances else []
    return {tuple(triple): strictly_first(row, 0) for triple, row in zip(triples, logits)}


class CausalLmScorer(PromptScorer):
    """A causal LM (``causal_lm_mc`` reader and model): each prompt's two sentences scored whole;
    the adversarial filter with "The [NOUN] is <word>."; the row says the ``score``."""

    filter_source = "computed (adversarial filter with the causal LM, 'The [NOUN] is <word>.')"

    def __init__(self, reader: CausalLmMcReader, model: CausalLmMc):
        self.reader, self.model = reader, model

    def score_prompts(self, prompts, batch_size, progress=None):  # progress: predict_instances reports its own
        return score_prompts(self.reader, self.model, prompts, batch_size)

    def filter_flags(self, prompts, batch_size):
        return causal_filter_flags(self.reader, self.model, prompts, batch_size)

    def row_extra(self) -> Dict[str, Any]:
        return {"score": self.model.score}


def evaluate_causal_model(model_name: str, prompts: Sequence[WinoVentiPrompt], registry: Optional[Registry] = None, *,
                          built: Optional[Tuple[CausalLmMcReader, CausalLmMc]] = None, score: str = "sum",
                          cuda_device: Optional[int] = None, precision: str = "fp32", batch_size: int = 32,
                          **options: Any) -> Dict[str, Any]:
    """A causal LM's Table-6 row (the keys of the masked LMs' row, plus ``score``; :func:`evaluate_prompts`,
    ``options`` as there), scored on ``cuda_device`` (``None``: the GPU when there is one) in ``precision``
    (both ignored when ``built`` is given)."""
    reader, model = built or build(model_name, score, batch_size=batch_size, cuda_device=cuda_device,
                                   precision=precision, choice_only_control=False, prompt_format="sentence")
    return evaluate_prompts(CausalLmScorer(reader, model), model_name, prompts, registry, batch_size=batch_size,
                            **options)


def causal_rows_note(rows: List[Dict[str, Any]]) -> List[str]:
    """One line per causal-LM row: the score its accuracies are under."""
    return [f"{r['model']}: causal LM, each prompt's two sentences scored whole ({r['score']} of their log-probabilities)"
            for r in rows if "score" in r]
