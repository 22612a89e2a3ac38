"""Zero-shot MC-MLM evaluation: a pretrained masked LM scores the choices, nothing is trained.

``bin/zero_shot --model roberta-large --data number_comparison_age_compare_masked_dev.jsonl``
builds the ``olmpics_mlm`` reader and a ``masked_lm_mc`` model with ``probe_type: zero_shot``
from the model name, and runs allennlp's ``evaluate`` loop over the file - no training run and no
archive. (Offline, ``minilm`` has no trained MLM head, so its zero-shot numbers are meaningless;
a tiny random model or a user's own masked LM directory works the same way.)
"""
import time
from typing import Any, Dict, List, Optional

from allennlp.data import Instance, Vocabulary

from mcqa_probes.common.device import describe, place_model, resolve_cuda_device
from mcqa_probes.data.dataset_readers.olmpics_mlm import OlmpicsMlmReader
from mcqa_probes.metrics.determinism import DETERMINISM_SEED, audit_fields
from mcqa_probes.metrics.item_records import ItemSink
from mcqa_probes.models.masked_lm_mc import MaskedLmMc
from mcqa_probes.training.evaluation import answer_instances, item_records
from mcqa_probes.training.evaluation import predict_instances  # noqa: F401  (the one prediction loop)


def build(model_name: str, skip_multi_piece: bool = False, probe_type: str = "zero_shot",
          cuda_device: Optional[int] = None, precision: str = "fp32", multi_token: Optional[str] = None,
          pll_batch_size: int = 256):
    """(reader, model) for a pretrained masked LM, the model in eval mode on ``cuda_device``
    (``None``: the GPU when there is one; -1: the CPU), scoring in ``precision``.
    ``multi_token`` (``reject``, ``skip``, ``pll``, ``pll_word_l2r``; ``skip_multi_piece`` is the
    older spelling of ``skip``): what a multi-piece choice does to its question; PLL forwards take
    at most ``pll_batch_size`` masked copies."""
    import torch

    torch.manual_seed(0)  # weights missing from a checkpoint (the MiniLM's MLM head): the same draw on every load
    reader = OlmpicsMlmReader(model_name, multi_token=multi_token,
                              skip_multi_piece_candidates=True if skip_multi_piece else None)
    model = MaskedLmMc(Vocabulary(), transformer_model_name=model_name, probe_type=probe_type, precision=precision,
                       pll_batch_size=pll_batch_size)
    place_model(model, resolve_cuda_device(cuda_device), precision)
    model.eval()
    return reader, model


def zero_shot_evaluate(
    model_name: str,
    data_path: str,
    batch_size: int = 64,
    limit: Optional[int] = None,
    skip_multi_piece: bool = False,
    cuda_device: Optional[int] = None,
    precision: str = "fp32",
    multi_token: Optional[str] = None,
    items: Optional[ItemSink] = None,
    determinism_check: int = 0,
) -> Dict[str, Any]:
    """Accuracy of the pretrained masked LM's choice on a labelled MC-MLM file, scored on
    ``cuda_device`` (``None``: the GPU when there is one) in ``precision``; ``multi_token``
    as in :func:`build` (``pll_scored``: questions scored by pseudo-log-likelihood).

    ``items``: the questions' item records (prompt ``mlm``) are added to ``items.records``.
    ``determinism_check`` N: N questions drawn at random (seeded) are re-scored alone at batch size 1:
    ``determinism_questions``, ``determinism_max_score_difference``, ``determinism_changed_answers``."""
    start = time.perf_counter()
    cuda_device = resolve_cuda_device(cuda_device)
    reader, model = build(model_name, skip_multi_piece, cuda_device=cuda_device, precision=precision,
                          multi_token=multi_token)
    # The reader names file, line and word of a multi-piece candidate (or skips and counts it).
    instances: List[Instance] = list(reader.read(data_path))
    skipped = reader.skipped_questions
    instances = instances[: limit or None]
    model.audit_determinism(determinism_check, DETERMINISM_SEED)
    answers = answer_instances(model, instances, batch_size)  # the metrics' reset re-scores the audit's questions
    correct = sum(int(answer.correct) for answer in answers)
    if items is not None:
        items.records += item_records(answers, items.model, items.section, items.probe)
    audit = audit_fields(model.determinism_results[-1] if model.determinism_results else None) \
        if determinism_check else {}
    return {
        "model": model_name,
        "data": str(data_path),
        "accuracy": correct / len(answers) if answers else float("nan"),
        "count": len(answers),
        "skipped_multi_piece": skipped,
        "multi_token": reader.multi_token,
        "pll_scored": sum(int("candidate_pieces" in i.fields and i["candidate_pieces"].tensor.size(1) > 1)
                          for i in instances),
        **audit,
        "device": describe(cuda_device, precision),
        "seconds": time.perf_counter() - start,
    }
