"""The ``causal_lm_mc`` model: a causal LM (GPT-2, Llama, Qwen, Mistral, OLMo, SmolLM2, ...) answering
multiple-choice questions zero-shot, by the log-likelihood of each choice."""
import logging
from typing import Any, Dict, List, Optional

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.models import Model
from allennlp.training.metrics import CategoricalAccuracy

from mcqa_probes.metrics.rotations import RotationTally
from mcqa_probes.models.causal_lm_loading import load_causal_lm
from mcqa_probes.models.causal_lm_scoring import STRATEGIES, CausalLmScorer
from mcqa_probes.models.multiple_choice_model import MultipleChoiceModel

logger = logging.getLogger(__name__)

#: score name -> what it is (reported next to every number)
SCORES: Dict[str, str] = {
    "sum": "sum of the choice's token log-probabilities (lm-evaluation-harness acc)",
    "mean": "mean log-probability per choice token",
    "chars": "sum of log-probabilities / choice length in characters (lm-evaluation-harness acc_norm)",
    "pmi": "log P(choice | prompt) - log P(choice | neutral prompt) (domain-conditional PMI, Holtzman et al. 2021)",
}


@Model.register("causal_lm_mc")
class CausalLmMc(MultipleChoiceModel):
    """Zero-shot multiple choice with a causal LM; use with the ``causal_lm_mc`` reader.

    Each choice's requests (``metadata["prompt"]``, built by the reader) are answered by a
    :class:`~mcqa_probes.models.causal_lm_scoring.CausalLmScorer` (lm-evaluation-harness's
    tokenization; the question encoded once for all its choices; output layer only where a
    choice token is predicted); the choice's score is turned into one logit per choice by
    ``score``. The shared base gives ``accuracy``, strict cluster accuracy, Δ and the
    ``hops × distractor`` cells. Beside them, every forward reports the accuracy under each
    normalisation it can compute for free (``accuracy_sum``, ``accuracy_mean``, ``accuracy_chars``;
    ``accuracy_pmi`` and ``choice_only_accuracy`` when the neutral requests are scored), so the
    number always says which normalisation it is; on WinoVenti files also
    ``generic_accuracy`` / ``exception_accuracy`` (a prompt is right when its target scores
    strictly higher, ties are wrong, as in the paper); with ``rotations: cyclic`` in the reader the
    position-bias metrics of :mod:`mcqa_probes.metrics.rotations` (``accuracy_rotation_<r>``,
    ``circular_accuracy``, ``rstd``, ``debiased_accuracy``; ``accuracy`` and strict cluster accuracy
    then count every rotation, a cluster right only if all its questions are right under every
    rotation). Prompts of a ``chat_template`` reader are rendered by the tokenizer's chat template.
    Nothing trains; the LM's weights are not
    saved in archives (they are reloaded from ``transformer_model_name``).

    # Parameters

    transformer_model_name : `str`, optional (default = `"smollm2"`)
        A causal LM name or directory; ``smollm2`` is the offline SmolLM2-135M-Instruct.
    score : `str`, optional (default = `"sum"`)
        ``sum``, ``mean``, ``chars`` or ``pmi`` (:data:`SCORES`).
    choice_only_control : `bool`, optional (default = `False`)
        Also score every choice after the neutral prompt alone (the question hidden) and report
        ``choice_only_accuracy`` beside ``accuracy`` (always on for ``pmi``, which needs them).
    batch_size : `int`, optional (default = `32`)
        Packed rows (about one question with its choices) per forward pass of the LM.
    dtype : `str`, optional (default = `None`)
        Weights' dtype: ``float32`` (default), ``bfloat16``, ``float16`` or ``auto``.
    device_map : `str`, optional (default = `None`)
        ``auto`` spreads a model larger than one GPU over the GPUs (accelerate); the model then
        stays where accelerate put it (``cuda_device`` does not move it).
    add_bos_token : `bool`, optional (default = `None`)
        Override the tokenizer's own special-token behaviour (lm-evaluation-harness's option).
    max_length : `int`, optional (default = `None`)
        The window (default: the model's); longer requests lose the start of their context.
    strategy : `str`, optional (default = `"auto"`)
        ``auto``, ``packed`` or ``plain`` (:class:`~mcqa_probes.models.causal_lm_scoring.CausalLmScorer`).
    precision : `str`, optional (default = `"fp32"`)
        ``fp32``, ``bf16`` or ``fp16`` autocast.
    """

    authorized_missing_keys = [r"^lm\."]

    def __init__(
        self,
        vocab: Vocabulary,
        transformer_model_name: str = "smollm2",
        score: str = "sum",
        choice_only_control: bool = False,
        batch_size: int = 32,
        dtype: Optional[str] = None,
        device_map: Optional[str] = None,
        add_bos_token: Optional[bool] = None,
        max_length: Optional[int] = None,
        strategy: str = "auto",
        **kwargs,
    ) -> None:
        self._scorer: Optional[CausalLmScorer] = None
        super().__init__(vocab, **kwargs)
        if score not in SCORES:
            raise ConfigurationError(f"model.score: expected one of {sorted(SCORES)}, got {score!r}")
        if strategy not in STRATEGIES:
            raise ConfigurationError(f"model.strategy: expected one of {STRATEGIES}, got {strategy!r}")
        if int(batch_size) < 1:
            raise ConfigurationError(f"model.batch_size: expected a positive number, got {batch_size}")
        self.transformer_model_name = transformer_model_name
        self.score = score
        self.choice_only_control = bool(choice_only_control) or score == "pmi"
        self.device_map = device_map
        lm, tokenizer = load_causal_lm(transformer_model_name, dtype=dtype, device_map=device_map)
        for parameter in lm.parameters():
            parameter.requires_grad = False
        if device_map is None:
            self.lm = lm  # a submodule: allennlp's cuda_device moves it
        else:
            object.__setattr__(self, "lm", lm)  # accelerate placed it: keep it out of .to()/.cuda()
        self._register_state_dict_hook(_drop_lm_weights)
        self._scorer = CausalLmScorer(lm, tokenizer, batch_size=batch_size, precision=self.precision,
                                      max_length=max_length, add_bos_token=add_bos_token, strategy=strategy)
        self._normalised = {name: CategoricalAccuracy() for name in SCORES}
        self._choice_only = CategoricalAccuracy()
        self._winoventi = {1: [0, 0], 2: [0, 0]}  # test_type -> [correct, total]
        self._rotations = RotationTally()
        logger.info("causal_lm_mc: %s scored by %s; %s", transformer_model_name, score, self._scorer.description)

    # precision lives in the scorer (the base class sets it before the scorer exists)
    @property
    def precision(self) -> str:  # type: ignore[override]
        return self._precision

    @precision.setter
    def precision(self, value: str) -> None:
        self._precision = value
        if getattr(self, "_scorer", None) is not None:
            self._scorer.precision = value

    @property
    def scorer(self) -> CausalLmScorer:
        return self._scorer

    def train(self, mode: bool = True):
        super().train(mode)
        if isinstance(getattr(self, "lm", None), torch.nn.Module):
            self.lm.eval()  # zero-shot: never dropout
        return self

    def forward(  # type: ignore[override]
        self,
        metadata: List[Dict[str, Any]],
        label: Optional[torch.Tensor] = None,
        **extra,
    ) -> Dict[str, Any]:
        prompts = [row["prompt"] for row in metadata]
        if self.score == "pmi" and any(prompt.hide_question for prompt in prompts):
            raise ConfigurationError("model.score 'pmi' with dataset_reader.hide_question: the prompt and the neutral "
                                     "prompt are the same, every score would be 0; use sum/mean/chars for the control")
        requests = []
        for prompt in prompts:
            chosen = prompt.requests + (prompt.neutral if self.choice_only_control else [])
            if prompt.chat:
                chosen = [(self._scorer.chat_context(context), continuation) for context, continuation in chosen]
            requests.extend(chosen)
        answers = iter(self._scorer.loglikelihood(requests))
        size, width = len(prompts), max(len(prompt.requests) for prompt in prompts)
        sums = torch.zeros(size, width)
        tokens = torch.ones(size, width)
        chars = torch.ones(size, width)
        neutral = torch.zeros(size, width)
        neutral_tokens = torch.ones(size, width)
        choice_chars = torch.ones(size, width)
        mask = torch.zeros(size, width, dtype=torch.bool)
        for b, (prompt, row) in enumerate(zip(prompts, metadata)):
            count = len(prompt.requests)
            mask[b, :count] = True
            chars[b, :count] = torch.tensor([max(1, c) for c in prompt.chars], dtype=torch.float)
            choice_chars[b, :count] = torch.tensor([max(1, len(text)) for text in row["choices"]], dtype=torch.float)
            for k in range(count):
                answer = next(answers)
                sums[b, k], tokens[b, k] = answer.logprob, answer.tokens
            if self.choice_only_control:
                for k in range(count):
                    answer = next(answers)
                    neutral[b, k], neutral_tokens[b, k] = answer.logprob, answer.tokens
        scores = {"sum": sums, "mean": sums / tokens, "chars": sums / chars}
        control = None
        if self.choice_only_control:
            scores["pmi"] = sums - neutral
            control = {"sum": neutral, "mean": neutral / neutral_tokens, "chars": neutral / choice_chars,
                       "pmi": neutral}[self.score]
        device = label.device if label is not None else torch.device("cpu")
        mask = mask.to(device)
        output = self.choice_output(scores[self.score].to(device), mask, label, metadata)
        if label is not None:
            gold = label.reshape(-1).long()
            floor = torch.finfo(torch.float32).min
            for name, values in scores.items():
                self._normalised[name](values.to(device).masked_fill(~mask, floor), gold)
            if control is not None:
                self._choice_only(control.to(device).masked_fill(~mask, floor), gold)
            self._count_winoventi(output["logits"], gold, metadata)
            self._count_rotations(scores[self.score], gold, metadata, prompts)
        output["loglikelihood"] = sums.to(device)
        output["continuation_tokens"] = tokens.to(device)
        output["score"] = [self.score] * size
        output["prompt_format"] = [prompt.format for prompt in prompts]
        if control is not None:
            output["choice_only_loglikelihood"] = neutral.to(device)
        return output

    def _count_winoventi(self, logits: torch.Tensor, gold: torch.Tensor, metadata: List[Dict[str, Any]]) -> None:
        if not any("test_type" in row for row in metadata):
            return
        gold_logit = logits.gather(1, gold.unsqueeze(1)).squeeze(1)
        others = logits.clone()
        others.scatter_(1, gold.unsqueeze(1), float("-inf"))
        correct = (gold_logit > others.max(dim=1).values).tolist()
        for row, is_right in zip(metadata, correct):
            counts = self._winoventi.get(int(row.get("test_type", 0) or 0))
            if counts is not None:
                counts[0] += int(is_right)
                counts[1] += 1

    def _count_rotations(self, scores: torch.Tensor, gold: torch.Tensor, metadata: List[Dict[str, Any]],
                         prompts: List[Any]) -> None:
        for b, row in enumerate(metadata):
            if "rotation" in row:
                count = len(prompts[b].requests)
                self._rotations.add(row["question_key"], row["rotation"], int(gold[b]), scores[b, :count].tolist())

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        metrics = super().get_metrics(reset)
        names = list(SCORES) if self.choice_only_control else ["sum", "mean", "chars"]
        for name in names:
            metrics[f"accuracy_{name}"] = self._normalised[name].get_metric(reset)
        if self.choice_only_control:
            metrics["choice_only_accuracy"] = self._choice_only.get_metric(reset)
        (g_right, g_total), (e_right, e_total) = self._winoventi[1], self._winoventi[2]
        if g_total or e_total:
            metrics["generic_accuracy"] = g_right / g_total if g_total else 0.0
            metrics["exception_accuracy"] = e_right / e_total if e_total else 0.0
            metrics["strict_accuracy"] = (g_right + e_right) / (g_total + e_total)
            metrics["generic_count"] = float(g_total)
            metrics["exception_count"] = float(e_total)
        metrics.update(self._rotations.metrics())
        if reset:
            for name in SCORES:
                self._normalised[name].reset()
            self._winoventi = {1: [0, 0], 2: [0, 0]}
            self._rotations.reset()
        return metrics


def _drop_lm_weights(module, state_dict, prefix, local_metadata):
    """Archives keep no LM weights: the model reloads them from ``transformer_model_name``."""
    for key in [key for key in state_dict if key.startswith(prefix + "lm.")]:
        del state_dict[key]
    return state_dict
