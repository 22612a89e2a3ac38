"""Benchmark: zero-shot MC-MLM through ``masked_lm_mc`` vs transformers' ``fill-mask`` pipeline.

Both sides use the SAME model object (so the same weights, even for a randomly initialised head)
and the same questions. The pipeline is what a user would otherwise write: one call per question
with ``targets=`` the candidates (given as their word-initial vocabulary pieces so both sides score
the same ids), taking the top-scoring target. Our side: ``olmpics_mlm`` reader + batched forward.
"""
import time
from typing import Any, Dict, List, Optional

import torch

from mcqa_probes.common.device import autocast, describe, resolve_cuda_device
from mcqa_probes.common.timing import ratio
from mcqa_probes.data.question import read_questions
from mcqa_probes.experiments.olmpics.zero_shot import build, predict_instances


def bench(model_name: str, data_path: str, limit: int = 200, batch_size: int = 64, threads: int = 0,
          cuda_device: Optional[int] = None, precision: str = "fp32") -> Dict[str, Any]:
    """Both sides on ``cuda_device`` (``None``: the GPU when there is one), in ``precision`` (the
    pipeline's forward runs under the same autocast)."""
    from transformers import pipeline

    if threads:
        torch.set_num_threads(threads)
    cuda_device = resolve_cuda_device(cuda_device)
    reader, model = build(model_name, cuda_device=cuda_device, precision=precision)
    tokenizer = reader.hf_tokenizer
    questions = list(read_questions(data_path))[:limit]

    start = time.perf_counter()
    instances = [reader.text_to_instance(q) for q in questions]
    ours = predict_instances(model, instances, batch_size)["best"]
    ours_seconds = time.perf_counter() - start

    fill_mask = pipeline("fill-mask", model=model.head.masked_lm, tokenizer=tokenizer, device=cuda_device)
    theirs: List[int] = []
    start = time.perf_counter()
    for question in questions:
        ids = [reader.candidate_id(c.text) for c in question.choices]
        pieces = tokenizer.convert_ids_to_tokens(ids)
        text = question.stem.replace("[MASK]", tokenizer.mask_token)
        with torch.no_grad(), autocast(cuda_device, precision):
            predictions = fill_mask(text, targets=pieces, top_k=len(pieces))
        theirs.append(ids.index(predictions[0]["token"]))
    theirs_seconds = time.perf_counter() - start
    agree = sum(int(a == b) for a, b in zip(ours, theirs))
    return {
        "model": model_name,
        "data": str(data_path),
        "device": describe(cuda_device, precision),
        "examples": len(questions),
        "masked_lm_mc_examples_per_s": ratio(len(questions), ours_seconds),
        "fill_mask_examples_per_s": ratio(len(questions), theirs_seconds),
        "speedup": ratio(theirs_seconds, ours_seconds),
        "same_choices": agree,
        "all_same": agree == len(questions),
    }
