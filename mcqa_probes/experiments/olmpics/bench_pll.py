"""Benchmark: batched PLL scoring of multi-piece MC-MLM choices vs minicons (``bin/bench_mlm --multi-token``).

Both sides use the SAME model object and the same questions: those of the file with at least one
choice of several word pieces for the model (an MC-MLM jsonl, or a WinoVenti TSV whose prompts
become 2-choice questions). Ours: ``olmpics_mlm`` reader with ``multi_token`` + ``masked_lm_mc``
(all masked copies of a batch of questions in chunks of ``pll_batch_size``; tokenization
included in the timing). minicons (a test/bench-only reference, ``pip install minicons``): one
``MaskedLMScorer.conditional_score`` call per question with its K choices as the batch, the
choice in context (prefix, " " + choice, rest of the stem; ``separator=""``),
``reduction=sum`` and ``PLL_metric`` ``original`` / ``within_word_l2r`` - the same scores
(checked: ``max_abs_diff``) and choices. Loading (and minicons' vocabulary table) is excluded.
"""
import time
from typing import Any, Dict, List, Optional

import torch

from mcqa_probes.common.device import describe, resolve_cuda_device
from mcqa_probes.common.timing import ratio
from mcqa_probes.data.question import MultipleChoiceQuestion, read_questions
from mcqa_probes.experiments.olmpics.zero_shot import build, predict_instances
from mcqa_probes.data.dataset_readers.winoventi import prompt_question
from mcqa_probes.data.winoventi import read_winoventi

MINICONS_METRIC = {"pll": "original", "pll_word_l2r": "within_word_l2r"}


def read_bench_questions(data_path: str) -> List[MultipleChoiceQuestion]:
    """MC-MLM questions of a jsonl file, or the prompts of a WinoVenti TSV as 2-choice questions."""
    if str(data_path).endswith(".tsv"):

        return [prompt_question(p) for p in read_winoventi(data_path, check_pairs=False)]
    return list(read_questions(data_path))


def bench_multi_token(
    model_name: str,
    data_path: str,
    multi_token: str = "pll",
    limit: int = 200,
    batch_size: int = 64,
    pll_batch_size: int = 256,
    threads: int = 0,
    cuda_device: Optional[int] = -1,
    precision: str = "fp32",
) -> Dict[str, Any]:
    try:
        from minicons import scorer
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise SystemExit(f"bin/bench_mlm --multi-token needs minicons (pip install minicons): {error}")
    if multi_token not in MINICONS_METRIC:
        raise ValueError(f"multi_token: expected one of {sorted(MINICONS_METRIC)}, got {multi_token!r}")
    if threads:
        torch.set_num_threads(threads)
    cuda_device = resolve_cuda_device(cuda_device)
    reader, model = build(model_name, cuda_device=cuda_device, precision=precision, multi_token=multi_token,
                          pll_batch_size=pll_batch_size)
    questions = [
        q for q in read_bench_questions(data_path)
        if any(len(reader.candidate_pieces(c.text)[0]) > 1 for c in q.choices)
    ][:limit]
    if not questions:
        raise ValueError(f"{data_path}: no question has a multi-piece choice for {model_name}")
    device = "cpu" if cuda_device < 0 else f"cuda:{cuda_device}"
    reference = scorer.MaskedLMScorer(model.head.masked_lm, device, tokenizer=reader.hf_tokenizer)
    model.eval()

    start = time.perf_counter()
    instances = [reader.text_to_instance(q) for q in questions]
    ours = predict_instances(model, instances, batch_size)
    ours_seconds = time.perf_counter() - start

    theirs: List[List[float]] = []
    metric = MINICONS_METRIC[multi_token]
    start = time.perf_counter()
    for question in questions:
        before, after = question.stem.split("[MASK]")
        words = [c.text.strip() for c in question.choices]
        theirs.append(reference.conditional_score(
            [before.rstrip()] * len(words), [" " + w for w in words], [after] * len(words),
            separator="", reduction=lambda x: x.sum(0).item(), PLL_metric=metric,
        ))
    theirs_seconds = time.perf_counter() - start
    best_theirs = [max(range(len(row)), key=row.__getitem__) for row in theirs]
    agree = sum(int(a == b) for a, b in zip(ours["best"], best_theirs))
    difference = max(abs(a - b) for row_a, row_b in zip(ours["logits"], theirs) for a, b in zip(row_a, row_b))
    return {
        "model": model_name,
        "data": str(data_path),
        "multi_token": multi_token,
        "examples": len(questions),
        "masked_copies": sum(int((i["candidate_pieces"].tensor >= 0).sum()) for i in instances),
        "ours_examples_per_s": ratio(len(questions), ours_seconds),
        "minicons_examples_per_s": ratio(len(questions), theirs_seconds),
        "speedup": ratio(theirs_seconds, ours_seconds),
        "max_abs_diff": difference,
        "same_choices": agree,
        "all_same": agree == len(questions),
        "device": describe(cuda_device, precision),
        "threads": torch.get_num_threads(),
    }
