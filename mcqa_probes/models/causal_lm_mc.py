"""The ``causal_lm_mc`` model: a causal LM (GPT-2, Llama, Qwen, Mistral, OLMo, SmolLM2, ...) answering
multiple-choice questions by the log-likelihood of each choice: zero-shot, or fine-tuned (LoRA or all
weights) on the same scores."""
import contextlib
import logging
from typing import Any, Dict, Iterator, List, Optional, Sequence

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.models import Model
from allennlp.training.metrics import CategoricalAccuracy
from transformers.pytorch_utils import Conv1D

from mcqa_probes.metrics.item_records import letters_prompt, unrotate
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

#: probe type -> which LM weights train (and are saved in archives)
PROBE_TYPES: Dict[str, str] = {
    "zero_shot": "none: the LM is frozen and archives keep none of its weights",
    "lora": "LoRA adapters (PEFT) injected into the LM's projections; archives keep only the adapters",
    "full": "every weight of the LM; archives keep them all",
}

#: the projections LoRA adapts by default, those the model has (the output layer never): attention and MLP
#: of Llama-like models (Llama, Qwen, Mistral, OLMo, SmolLM2, Gemma), of GPT-2 (``Conv1D``: c_attn, c_proj,
#: c_fc), of OPT / Phi (out_proj, dense, fc1, fc2; Phi-3's fused qkv_proj, gate_up_proj) and of GPT-NeoX /
#: Falcon (query_key_value, dense, dense_h_to_4h, dense_4h_to_h)
DEFAULT_LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj",
                        "c_attn", "c_proj", "c_fc", "out_proj", "fc1", "fc2", "qkv_proj", "gate_up_proj",
                        "query_key_value", "dense", "dense_h_to_4h", "dense_4h_to_h")


@Model.register("causal_lm_mc")
class CausalLmMc(MultipleChoiceModel):
    """Multiple choice with a causal LM, zero-shot or fine-tuned; use with the ``causal_lm_mc`` reader.

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

    ``probe_type`` (:data:`PROBE_TYPES`) says what trains. ``zero_shot`` (the default): nothing, the
    LM stays in eval mode, and archives keep none of its weights (they are reloaded from
    ``transformer_model_name``). ``lora``: LoRA adapters (PEFT, injected in place into the LM's
    projections) are the only trainable weights, and archives keep only them (state-dict keys with
    ``lora_``); loading rebuilds the LM from its name, injects the adapters from these keys and
    loads their weights. ``full``: every LM weight trains and is saved. In training (``lora`` /
    ``full`` in train mode) the choices' scores come from the scorer's differentiable path
    (:meth:`~mcqa_probes.models.causal_lm_scoring.CausalLmScorer.loglikelihood_tensors`, the same
    numbers), and the loss is cross-entropy over the ``score`` logits: an untrained ``lora`` model
    (LoRA's B starts at zero) scores exactly as ``zero_shot``.

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
    probe_type : `str`, optional (default = `"zero_shot"`)
        ``zero_shot``, ``lora`` or ``full`` (:data:`PROBE_TYPES`). ``lora`` and ``full`` train on one
        device (no ``device_map``).
    lora_rank : `int`, optional (default = `8`)
        LoRA's rank r (``lora`` only, as are the next three).
    lora_alpha : `int`, optional (default = `16`)
        LoRA's scaling numerator (the update is scaled by ``lora_alpha / lora_rank``).
    lora_dropout : `float`, optional (default = `0.0`)
        Dropout on the adapters' input, in train mode.
    lora_target_modules : `List[str]`, optional (default = `None`)
        Names of the ``Linear`` / ``Conv1D`` modules to adapt (matched on the last part of their
        name); by default those of :data:`DEFAULT_LORA_TARGETS` the model has (attention and MLP
        projections). A name the model does not have is an error.
    """

    # which LM weights an archive lacks is the probe type's business: see _drop_lm_weights / _forgive_lm_weights
    authorized_missing_keys: List[str] = []

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
        probe_type: str = "zero_shot",
        lora_rank: int = 8,
        lora_alpha: int = 16,
        lora_dropout: float = 0.0,
        lora_target_modules: Optional[List[str]] = None,
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
        if probe_type not in PROBE_TYPES:
            raise ConfigurationError(f"model.probe_type: expected one of {sorted(PROBE_TYPES)}, got {probe_type!r}")
        if probe_type != "zero_shot" and device_map is not None:
            raise ConfigurationError(f"model.probe_type {probe_type!r} with model.device_map {device_map!r}: "
                                     "fine-tuning runs on one device (the trainer's cuda_device); drop device_map")
        if probe_type == "lora" and (int(lora_rank) < 1 or float(lora_dropout) < 0 or float(lora_dropout) >= 1):
            raise ConfigurationError(f"model.lora_rank / model.lora_dropout: expected a rank >= 1 and a dropout in "
                                     f"[0, 1), got {lora_rank} and {lora_dropout}")
        self.probe_type = probe_type
        self.transformer_model_name = transformer_model_name
        self.score = score
        self.choice_only_control = bool(choice_only_control) or score == "pmi"
        self.device_map = device_map
        lm, tokenizer = load_causal_lm(transformer_model_name, dtype=dtype, device_map=device_map)
        if probe_type == "lora":
            inject_lora(lm, lora_rank, lora_alpha, lora_dropout, lora_target_modules)
        for name, parameter in lm.named_parameters():
            parameter.requires_grad = probe_type == "full" or (probe_type == "lora" and "lora_" in name)
        if device_map is None:
            self.lm = lm  # a submodule: allennlp's cuda_device moves it
        else:
            object.__setattr__(self, "lm", lm)  # accelerate placed it: keep it out of .to()/.cuda()
        self._register_state_dict_hook(_drop_lm_weights)
        self.register_load_state_dict_post_hook(_forgive_lm_weights)
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
        if getattr(self, "probe_type", "zero_shot") == "zero_shot" and isinstance(getattr(self, "lm", None),
                                                                                 torch.nn.Module):
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
        if self.training and self.probe_type != "zero_shot":
            logprobs, counts = self._scorer.loglikelihood_tensors(requests)  # differentiable, the same numbers
            logprobs = logprobs.float()
        else:
            answers = self._scorer.loglikelihood(requests)
            logprobs = torch.tensor([answer.logprob for answer in answers], dtype=torch.float)
            counts = [answer.tokens for answer in answers]
        size, width = len(prompts), max(len(prompt.requests) for prompt in prompts)
        chars = torch.ones(size, width)
        choice_chars = torch.ones(size, width)
        mask = torch.zeros(size, width, dtype=torch.bool)
        main, control_slots, position = [], [], 0  # (answer index, b * width + k) of the choices, of the control
        for b, (prompt, row) in enumerate(zip(prompts, metadata)):
            count = len(prompt.requests)
            mask[b, :count] = True
            chars[b, :count] = torch.tensor([max(1, c) for c in prompt.chars], dtype=torch.float)
            choice_chars[b, :count] = torch.tensor([max(1, len(text)) for text in row["choices"]], dtype=torch.float)
            for slots in ([main, control_slots] if self.choice_only_control else [main]):
                slots.extend((position + k, b * width + k) for k in range(count))
                position += count
        counts = torch.tensor(counts, dtype=torch.float)
        sums = _spread(logprobs, main, size, width, 0.0)
        tokens = _spread(counts, main, size, width, 1.0)
        neutral = _spread(logprobs, control_slots, size, width, 0.0)
        neutral_tokens = _spread(counts, control_slots, size, width, 1.0)
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
        output["prompt_scores"] = self._prompt_scores(scores, control, prompts, metadata)
        output["loglikelihood"] = sums.detach().to(device)
        output["continuation_tokens"] = tokens.to(device)
        output["score"] = [self.score] * size
        output["prompt_format"] = [prompt.format for prompt in prompts]
        if control is not None:
            output["choice_only_loglikelihood"] = neutral.detach().to(device)
        return output

    def _prompt_scores(self, scores: Dict[str, torch.Tensor], control: Optional[torch.Tensor], prompts: List[Any],
                       metadata: List[Dict[str, Any]]) -> List[Dict[str, List[float]]]:
        """Per question, its per-choice scores by item-record prompt name (:mod:`mcqa_probes.metrics.item_records`),
        in the file's order (a rotated question's put back): ``cloze/<score>`` for every normalisation
        computed (the model's own first) and ``choice_only`` (the control under ``score``) on a cloze or
        sentence prompt; ``letters/rot<r>`` (the model's ``score``) on a lettered prompt; ``choice_only``
        alone for a reader that hides the question."""
        names = [self.score] + [name for name in scores if name != self.score]
        found = []
        for b, (prompt, row) in enumerate(zip(prompts, metadata)):
            count = len(prompt.requests)
            rotation = int(row.get("rotation", 0) or 0)

            def values(tensor: torch.Tensor) -> List[float]:
                return unrotate(tensor[b, :count].detach().float().tolist(), rotation)

            if prompt.hide_question:
                found.append({"choice_only": values(scores[self.score])})
            elif prompt.format == "letters":
                found.append({letters_prompt(rotation): values(scores[self.score])})
            else:
                entry = {f"cloze/{name}": values(scores[name]) for name in names}
                if control is not None:
                    entry["choice_only"] = values(control)
                found.append(entry)
        return found

    @contextlib.contextmanager
    def batch_of_one(self) -> Iterator[None]:
        """Every request scored in a batch of its own (the scorer's ``batch_size`` 1), past any
        remembering wrapper (the card's), so that the determinism audit really re-scores."""
        outer = self._scorer
        inner = getattr(outer, "scorer", outer)
        size = inner.batch_size
        inner.batch_size, self._scorer = 1, inner
        try:
            yield
        finally:
            inner.batch_size, self._scorer = size, outer

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


def inject_lora(lm: torch.nn.Module, rank: int, alpha: int, dropout: float,
                target_modules: Optional[Sequence[str]] = None) -> List[str]:
    """Inject LoRA adapters (PEFT) in place into ``lm``'s ``target_modules`` (by default those of
    :data:`DEFAULT_LORA_TARGETS` it has) and return the names adapted. ``lm`` stays the same
    transformers object (``base_model``, ``get_output_embeddings`` as before), so the scorer's
    shortcuts still apply; its adapted layers compute ``W x + (alpha / rank) B A x`` with B = 0 at
    first (the model scores as before training)."""
    import peft  # seconds to import: only the lora probe type needs it

    head = lm.get_output_embeddings()
    kinds: Dict[str, set] = {}  # a Linear / Conv1D module's last name -> their types
    for name, module in lm.named_modules():
        if isinstance(module, (torch.nn.Linear, Conv1D)) and module is not head:
            kinds.setdefault(name.rsplit(".", 1)[-1], set()).add(type(module))
    if target_modules is None:
        targets = [name for name in DEFAULT_LORA_TARGETS if name in kinds]
        if not targets:
            raise ConfigurationError(f"model.lora_target_modules: {type(lm).__name__} has none of the default "
                                     f"projections {list(DEFAULT_LORA_TARGETS)}; name its modules, from "
                                     f"{sorted(kinds)}")
    else:
        targets = [str(name) for name in target_modules]
        unknown = [name for name in targets if name not in kinds]
        if not targets or unknown:
            raise ConfigurationError(f"model.lora_target_modules: {type(lm).__name__} has no Linear / Conv1D module "
                                     f"named {unknown or targets}; it has {sorted(kinds)}")
    conv1d = any(Conv1D in kinds[name] for name in targets)  # GPT-2 stores its weights transposed
    config = peft.LoraConfig(r=int(rank), lora_alpha=int(alpha), lora_dropout=float(dropout), target_modules=targets,
                             fan_in_fan_out=conv1d, bias="none")
    peft.inject_adapter_in_model(config, lm)
    return targets


def _spread(values: torch.Tensor, slots: List[Any], size: int, width: int, fill: float) -> torch.Tensor:
    """A ``[size, width]`` tensor of ``fill`` with ``values[i]`` at flat position ``j`` for each ``(i, j)`` of
    ``slots`` (out of place: gradients flow back to ``values``)."""
    spread = torch.full((size * width,), fill, dtype=values.dtype)
    if slots:
        picks, places = (torch.tensor(column, dtype=torch.long) for column in zip(*slots))
        spread = spread.index_put((places,), values[picks])
    return spread.view(size, width)


def _kept_lm_weight(probe_type: str, key: str) -> bool:
    """Does an archive of ``probe_type`` keep the LM weight ``key`` (a key under ``lm.``)?"""
    return probe_type == "full" or (probe_type == "lora" and "lora_" in key)


def _drop_lm_weights(module, state_dict, prefix, local_metadata):
    """Archives keep the LM weights that train, no other: none for ``zero_shot`` (the model reloads
    them from ``transformer_model_name``), the adapters for ``lora``, all for ``full``."""
    for key in [key for key in state_dict if key.startswith(prefix + "lm.")]:
        if not _kept_lm_weight(module.probe_type, key):
            del state_dict[key]
    return state_dict


def _forgive_lm_weights(module, incompatible_keys) -> None:
    """A state dict without the LM weights that archives do not keep loads, strictly or not (allennlp's
    ``load_archive``, the trainer's best-model and checkpoint restores): those keys are not missing;
    any other missing key (an adapter, a ``full`` weight) still is."""
    missing = incompatible_keys.missing_keys
    missing[:] = [key for key in missing if not (key.startswith("lm.") and not _kept_lm_weight(module.probe_type, key))]
