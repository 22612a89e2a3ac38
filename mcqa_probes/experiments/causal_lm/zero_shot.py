"""Zero-shot evaluation of a causal LM on any probe file: nothing trains, no archive.

``bin/zero_shot --model smollm2 --data fixtures/probes/hypernymy/dev.jsonl`` builds the
``causal_lm_mc`` reader and model from the model name and runs the one evaluation loop
(:func:`~mcqa_probes.training.evaluation.evaluate_instances`, allennlp's ``evaluate``) over the
file: question jsonl files (cloze prompts), oLMpics MC-MLM files (the choice put in the sentence,
the sentence scored) and WinoVenti TSVs (the sentence with the target word against the sentence
with the incorrect word).

The result states which normalisation ``accuracy`` is (``score``: sum = lm-evaluation-harness's
``acc``, chars = ``acc_norm``, mean, pmi) and gives the accuracy under every other one beside it;
with the choice-only control (on by default) also ``choice_only_accuracy``: every choice scored
after the neutral prompt alone, the question hidden. A control far above chance is flagged, by the
artifact audit's rule (:func:`~mcqa_probes.experiments.wordnetqa.artifact_audit.find_flags`:
``flag_margin`` = 0.25, i.e. 25 points above chance, chance = the mean of 1/number of choices): the
choices alone then give the answer away.
"""
import time
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Tuple

from allennlp.data import Instance, Vocabulary

from mcqa_probes.common.device import describe, place_model, resolve_cuda_device
from mcqa_probes.data.causal_prompts import DEFAULT_TEMPLATE
from mcqa_probes.data.dataset_readers.causal_lm_mc import CausalLmMcReader
from mcqa_probes.metrics.determinism import DETERMINISM_SEED, EMPTY, audit_fields
from mcqa_probes.metrics.item_records import ItemSink
from mcqa_probes.metrics.probe_records import chance_level
from mcqa_probes.models.causal_lm_mc import SCORES, CausalLmMc
from mcqa_probes.training.evaluation import evaluate_instances

#: the artifact audit's default ``--flag-margin``: a partial-input accuracy this far above chance is flagged
FLAG_MARGIN = 0.25

#: metrics of the ``causal_lm_mc`` model copied into the result when present
PASSED_METRICS = (
    "accuracy_sum", "accuracy_mean", "accuracy_chars", "accuracy_pmi", "choice_only_accuracy",
    "cluster_delta", "generic_accuracy", "exception_accuracy", "strict_accuracy", "generic_count", "exception_count",
    "circular_accuracy", "rstd", "debiased_accuracy",
)


@dataclass
class PromptSettings:
    """How questions are asked (the ``causal_lm_mc`` reader's keys): ``prompt_format`` (``auto`` =
    cloze for questions, sentences for MC-MLM stems; ``letters``), ``rotations`` (``none`` /
    ``cyclic``), ``shots`` solved examples from ``shots_from`` (seeded by ``shots_seed``),
    ``chat_template``."""

    prompt_format: str = "auto"
    rotations: str = "none"
    shots: int = 0
    shots_from: Optional[str] = None
    shots_seed: int = 1234
    chat_template: bool = False

    def reader_keys(self) -> Dict[str, Any]:
        return {"prompt_format": self.prompt_format, "rotations": self.rotations, "shots": self.shots,
                "shots_from": self.shots_from, "shots_seed": self.shots_seed, "chat_template": self.chat_template}

    def describe(self) -> Dict[str, Any]:
        return {"rotations": self.rotations, "shots": self.shots, "chat_template": self.chat_template}


def build(model_name: str, score: str = "sum", template: Optional[str] = None, batch_size: int = 32,
          cuda_device: Optional[int] = None, precision: str = "fp32", choice_only_control: bool = True,
          hide_question: bool = False, prompt_format: str = "auto", dtype: Optional[str] = None,
          prompts: Optional[PromptSettings] = None) -> Tuple[CausalLmMcReader, CausalLmMc]:
    """(reader, model) for a causal LM name or directory (``smollm2`` = the offline SmolLM2), the model
    in eval mode on ``cuda_device`` (``None``: the GPU when there is one; -1: the CPU), scoring in
    ``precision``. ``template`` (with ``{stem}``) is the cloze context of question files; ``prompts``
    the format, rotations, few-shot and chat settings (``prompt_format`` alone without it)."""
    if score not in SCORES:
        raise ValueError(f"score: expected one of {sorted(SCORES)}, got {score!r}")
    prompts = prompts or PromptSettings(prompt_format=prompt_format)
    reader = CausalLmMcReader(template=template or DEFAULT_TEMPLATE, hide_question=hide_question,
                              **prompts.reader_keys())
    model = CausalLmMc(Vocabulary(), model_name, score=score, choice_only_control=choice_only_control,
                       batch_size=batch_size, dtype=dtype, precision=precision)
    place_model(model, resolve_cuda_device(cuda_device), precision)
    model.eval()
    return reader, model


def first_questions(instances: Iterable[Instance], limit: Optional[int]) -> List[Instance]:
    """The instances of the first ``limit`` questions (every rotation of a rotated question); stops
    reading there (a probe file can hold tens of thousands of questions)."""
    if not limit:
        return list(instances)
    kept, keys = [], set()
    for instance in instances:
        metadata = instance["metadata"].metadata
        key = metadata.get("question_key", metadata.get("id", len(kept)))
        if key not in keys:
            if len(keys) == limit:
                break
            keys.add(key)
        kept.append(instance)
    return kept


def prompt_format_of(instances: List[Instance]) -> str:
    """``cloze``, ``sentence``, or ``mixed (N cloze, M sentence)``."""
    counts: Dict[str, int] = {}
    for instance in instances:
        kind = instance["metadata"]["prompt"].format
        counts[kind] = counts.get(kind, 0) + 1
    if len(counts) == 1:
        return next(iter(counts))
    return "mixed (" + ", ".join(f"{counts[k]} {k}" for k in sorted(counts)) + ")"


def choice_only_flag(accuracy: Optional[float], chance: float, margin: float = FLAG_MARGIN) -> Optional[Dict[str, Any]]:
    """The flag of a choice-only accuracy ``margin`` or more above chance (the audit's rule), else None."""
    if accuracy is None or accuracy != accuracy or accuracy - chance < margin:
        return None
    return {"model": "choice-only control", "accuracy": accuracy, "chance": chance, "margin": margin,
            "points_above_chance": round(100 * (accuracy - chance), 1),
            "message": f"choice-only accuracy {100 * accuracy:.1f}% is {100 * (accuracy - chance):.1f} points above "
                       f"chance ({100 * chance:.1f}%): the choices alone give answers away"}


def causal_zero_shot_evaluate(
    model_name: str,
    data_path: str,
    score: str = "sum",
    template: Optional[str] = None,
    batch_size: int = 32,
    limit: Optional[int] = None,
    cuda_device: Optional[int] = None,
    precision: str = "fp32",
    choice_only_control: bool = True,
    prompt_format: str = "auto",
    flag_margin: float = FLAG_MARGIN,
    dtype: Optional[str] = None,
    built: Optional[Tuple[CausalLmMcReader, CausalLmMc]] = None,
    prompts: Optional[PromptSettings] = None,
    items: Optional[ItemSink] = None,
    determinism_check: int = 0,
) -> Dict[str, Any]:
    """Zero-shot accuracy of a causal LM on a labelled probe file (the first ``limit`` questions),
    scored by ``score`` on ``cuda_device`` (``None``: the GPU when there is one) in ``precision``.

    Returns ``model``, ``data``, ``accuracy`` (under ``score``), ``count``, ``score`` (and
    ``score_description``), ``prompt_format``, ``template``, ``accuracy_sum/mean/chars`` (and
    ``accuracy_pmi`` and ``choice_only_accuracy`` with the control), ``chance``,
    ``strict_cluster_accuracy`` when the file has clusters, the WinoVenti accuracies on a TSV,
    ``flag`` when the choice-only accuracy is ``flag_margin`` or more above chance, ``device``,
    ``seconds``. ``built``: a (reader, model) of :func:`build` to reuse (its own settings win).

    ``items``: the item records of the questions (:mod:`mcqa_probes.metrics.item_records`: every prompt
    the model scored, every rotation) are added to ``items.records``. ``determinism_check`` N: N
    questions drawn at random (seeded, :data:`DETERMINISM_SEED`) are re-scored alone at batch size 1
    (:mod:`mcqa_probes.metrics.determinism`): ``determinism_questions``,
    ``determinism_max_score_difference``, ``determinism_changed_answers``.
    """
    start = time.perf_counter()
    cuda_device = resolve_cuda_device(cuda_device)
    prompts = prompts or PromptSettings(prompt_format=prompt_format)
    reader, model = built or build(model_name, score, template, batch_size, cuda_device, precision,
                                   choice_only_control, dtype=dtype, prompts=prompts)
    instances: List[Instance] = first_questions(reader.read(data_path), limit)
    unlabelled = sum(1 for instance in instances if "label" not in instance.fields)
    if not instances or unlabelled:
        raise ValueError(f"{data_path}: {'no questions' if not instances else f'{unlabelled} questions without an answer'}"
                         " to evaluate (zero-shot accuracy needs labelled questions)")
    if items is not None:
        model.keep_items(items.model, items.section, items.probe)
    model.audit_determinism(determinism_check, DETERMINISM_SEED)
    try:
        metrics = evaluate_instances(model, instances, batch_size)
    finally:
        kept = model.take_items() if items is not None else []
        model.audit_determinism(0)
    if items is not None:
        items.records += kept
    # the expected accuracy of uniform guessing, as the artifact audit's chance
    chance = chance_level(len(instance["metadata"]["prompt"].requests) for instance in instances)
    questions = len({instance["metadata"].metadata.get("question_key", i) for i, instance in enumerate(instances)})
    result: Dict[str, Any] = {
        "model": model_name,
        "data": str(data_path),
        "accuracy": metrics["accuracy"],
        "count": questions,
        "score": model.score,
        # in the letters format each choice is scored by its letter (" A", " B", ...) after the list
        "score_description": (f"{SCORES[model.score]}, of the choice's letter after the lettered list"
                              if prompt_format_of(instances) == "letters" else SCORES[model.score]),
        "prompt_format": prompt_format_of(instances),
        "template": reader.prompts.letters_template if reader.prompts.prompt_format == "letters" else reader.prompts.template,
        "chance": chance,
    }
    result.update(prompts.describe())
    if prompts.rotations != "none":
        result["asked"] = len(instances)  # every rotation of every question
    result.update({key: metrics[key] for key in PASSED_METRICS if key in metrics})
    result.update({key: value for key, value in metrics.items() if key.startswith(("accuracy_rotation_", "letter_prior_"))})
    if determinism_check:
        result.update(audit_fields({key: metrics[f"determinism_{key}"] for key in EMPTY if f"determinism_{key}" in metrics}))
    if "cluster_accuracy" in metrics:
        result["strict_cluster_accuracy"] = metrics["cluster_accuracy"]
    flag = choice_only_flag(result.get("choice_only_accuracy"), chance, flag_margin)
    if flag is not None:
        result["flag"] = flag
    result["truncated_requests"] = model.scorer.truncated_requests
    result["device"] = describe(cuda_device, model.precision)
    result["seconds"] = time.perf_counter() - start
    return result
