"""Benchmark: our causal-LM scoring vs lm-evaluation-harness's ``HFLM.loglikelihood`` (``bin/bench_causal``).

Both sides answer the SAME (context, continuation) requests (the ``causal_lm_mc`` reader's prompts
of a probe file: cloze prompts for question files, whole sentences for MC-MLM files and WinoVenti)
with the SAME model object; loading is excluded, tokenization included, and each side is warmed up
on a few requests first. Reported per file: questions, requests, seconds of each side (unrounded:
a few questions on a tiny model take milliseconds), the speed-up, the same in CPU seconds of this
process (steadier than wall time on a shared machine), the share of questions where both pick the
same choice (argmax of the summed log-likelihood, i.e. lm-eval's ``acc``) and the largest absolute difference of a request's log-likelihood. A speed-up is
None only when our time is exactly 0 (a clock too coarse to see the work).
"""
import time
from typing import Any, Dict, List, Optional, Sequence

import torch

from mcqa_probes.common.device import describe, resolve_cuda_device
from mcqa_probes.common.timing import ratio
from mcqa_probes.data.causal_prompts import CausalPrompt, PromptBuilder
from mcqa_probes.data.dataset_readers.winoventi import prompt_question
from mcqa_probes.data.question import read_questions
from mcqa_probes.data.winoventi import read_winoventi
from mcqa_probes.models.causal_lm_scoring import CausalLmScorer
from mcqa_probes.testing.lm_eval_reference import lm_eval_loglikelihood, lm_eval_version, make_hflm

#: the targets of issue 17 (cloze) and 18 (letters: no slower than lm-eval)
TARGET_SPEEDUP = 2.0
TARGET_SPEEDUP_LETTERS = 1.0
TARGET_SAME_CHOICES = 0.995


def read_prompts(path: str, limit: Optional[int] = None, builder: Optional[PromptBuilder] = None) -> List[CausalPrompt]:
    """The prompts of the first ``limit`` questions of a probe file (jsonl, or a WinoVenti TSV)."""
    builder = builder or PromptBuilder()
    if str(path).endswith(".tsv"):
        questions = [prompt_question(prompt) for prompt in read_winoventi(path, check_pairs=False)]
    else:
        questions = list(read_questions(path))
    return [builder.prompt(question) for question in questions[:limit]]


def _choices(prompts: Sequence[CausalPrompt], scores: Sequence[float]) -> List[int]:
    picked, offset = [], 0
    for prompt in prompts:
        count = len(prompt.requests)
        block = list(scores[offset:offset + count])
        picked.append(max(range(count), key=lambda k: block[k]))
        offset += count
    return picked


def bench_file(scorer: CausalLmScorer, hflm: Any, path: str, limit: Optional[int] = None,
               builder: Optional[PromptBuilder] = None) -> Dict[str, Any]:
    prompts = read_prompts(path, limit, builder)
    requests = [request for prompt in prompts for request in prompt.requests]
    warm = requests[: min(8, len(requests))]
    scorer.loglikelihood(warm)
    lm_eval_loglikelihood(None, None, warm, hflm=hflm)
    start, cpu = time.perf_counter(), time.process_time()
    ours = scorer.loglikelihood(requests)
    ours_seconds, ours_cpu = time.perf_counter() - start, time.process_time() - cpu
    start, cpu = time.perf_counter(), time.process_time()
    theirs = lm_eval_loglikelihood(None, None, requests, hflm=hflm)
    theirs_seconds, theirs_cpu = time.perf_counter() - start, time.process_time() - cpu
    our_scores = [answer.logprob for answer in ours]
    their_scores = [logprob for logprob, _ in theirs]
    same = sum(a == b for a, b in zip(_choices(prompts, our_scores), _choices(prompts, their_scores)))
    formats = sorted({prompt.format for prompt in prompts})
    return {
        "data": str(path), "format": "+".join(formats), "questions": len(prompts), "requests": len(requests),
        "ours_seconds": ours_seconds, "lm_eval_seconds": theirs_seconds,
        "speedup": ratio(theirs_seconds, ours_seconds),
        "ours_cpu_seconds": ours_cpu, "lm_eval_cpu_seconds": theirs_cpu,
        "cpu_speedup": ratio(theirs_cpu, ours_cpu),
        "same_choices": same / len(prompts) if prompts else 1.0,
        "max_abs_diff": max((abs(a - b) for a, b in zip(our_scores, their_scores)), default=0.0),
        "greedy_agree": sum(a.greedy == b for a, (_, b) in zip(ours, theirs)) / max(1, len(requests)),
    }


def bench_causal(model_name: str, data_paths: Sequence[str], limit: Optional[int] = 500, batch_size: int = 32,
                 lm_eval_batch_size: int = 32, precision: str = "fp32", cuda_device: Optional[int] = -1,
                 threads: int = 0, progress=None, prompt_format: str = "auto") -> Dict[str, Any]:
    """Ours vs lm-eval on each file; returns ``{"model", "device", ..., "files": [per-file results]}``.
    ``prompt_format`` ``letters``: lettered prompts (one forward per question on both sides: lm-eval's
    one-token cache groups a question's letters)."""
    builder = PromptBuilder(prompt_format=prompt_format)
    if threads:
        torch.set_num_threads(threads)
    cuda_device = resolve_cuda_device(cuda_device)
    start = time.perf_counter()
    scorer = CausalLmScorer.from_pretrained(model_name, cuda_device=cuda_device, batch_size=batch_size,
                                            precision=precision)
    load_seconds = time.perf_counter() - start
    hflm = make_hflm(scorer.model, scorer.tokenizer, batch_size=lm_eval_batch_size)
    if precision != "fp32":  # the same autocast on lm-eval's side
        hflm.mixed_precision_dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}[precision]
    files = []
    for path in data_paths:
        result = bench_file(scorer, hflm, path, limit, builder)
        files.append(result)
        if progress is not None:
            progress(result)
    return {
        "model": model_name, "device": describe(cuda_device, precision), "threads": torch.get_num_threads(),
        "scorer": scorer.description, "batch_size": batch_size, "lm_eval_batch_size": lm_eval_batch_size,
        "lm_eval": lm_eval_version(), "load_seconds": load_seconds, "files": files,
    }
