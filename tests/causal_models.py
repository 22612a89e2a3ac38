"""Tiny random causal LMs (GPT-2, Llama; Gemma-2 for the soft-capped output layer), built once per session."""
import pytest

from mcqa_probes.testing.tiny_models import TINY_CAUSAL_FAMILIES

CAUSAL_FAMILIES = TINY_CAUSAL_FAMILIES  # gpt2, llama


@pytest.fixture(scope="session")
def tiny_causal(tmp_path_factory):
    """``tiny_causal(family, max_positions=128)`` -> directory of a tiny random causal LM."""
    from mcqa_probes.testing import make_tiny_causal_lm

    built = {}

    def get(family: str, max_positions: int = 128) -> str:
        key = (family, max_positions)
        if key not in built:
            built[key] = str(make_tiny_causal_lm(tmp_path_factory.mktemp(f"causal_{family}_{max_positions}"), family,
                                                 seed=5, max_positions=max_positions))
        return built[key]

    return get


def load(directory):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    return AutoModelForCausalLM.from_pretrained(directory).eval(), AutoTokenizer.from_pretrained(directory)


def hand_loglikelihood(lm, scorer, context: str, continuation: str):
    """``(sum of log-probabilities, number of tokens)`` of ``continuation`` after ``context``: the full model
    run on the whole sequence, log-softmax, the continuation tokens summed (the scorer only splits the
    tokens, as lm-evaluation-harness does)."""
    import torch

    context_ids, continuation_ids = scorer.encode_pair(context, continuation)
    ids = list(context_ids) + list(continuation_ids)
    start = len(context_ids)
    with torch.no_grad():
        logits = lm(torch.tensor([ids])).logits[0]  # every position; those predicting the continuation kept
        logprobs = torch.log_softmax(logits[start - 1: len(ids) - 1].double(), dim=-1)
    total = sum(float(logprobs[k, ids[start + k]]) for k in range(len(continuation_ids)))
    return total, len(continuation_ids)


def hand_scores(lm, scorer, prompt, choices):
    """Every score of one question's choices by hand: ``{"sum", "mean", "chars", "pmi", "neutral": [...]}``."""
    sums, counts = zip(*(hand_loglikelihood(lm, scorer, c, t) for c, t in prompt.requests))
    # acc_norm's length: the choice in characters (cloze), the whole sentence (a stem with the mask)
    lengths = [len(text) if prompt.format == "cloze" else len(sentence)
               for text, (_, sentence) in zip(choices, prompt.requests)]
    neutral = [hand_loglikelihood(lm, scorer, c, t)[0] for c, t in prompt.neutral]
    return {
        "sum": list(sums),
        "mean": [s / n for s, n in zip(sums, counts)],
        "chars": [s / max(1, n) for s, n in zip(sums, lengths)],
        "pmi": [s - z for s, z in zip(sums, neutral)],
        "neutral": neutral,
        "neutral_chars": [z / max(1, len(text)) for z, text in zip(neutral, choices)],
    }


def argmax(values):
    return max(range(len(values)), key=values.__getitem__)


def assert_equal_to_lm_eval(requests, ours, theirs, tolerance):
    """Our Loglikelihood answers against lm-eval's (logprob, greedy) pairs for the same requests:
    every score within ``tolerance``, the same greedy flags, real (negative) log-probabilities."""
    differences = [abs(a.logprob - b[0]) for a, b in zip(ours, theirs)]
    assert max(differences) <= tolerance, [(r, d) for r, d in zip(requests, differences) if d > tolerance]
    assert [a.greedy for a in ours] == [b[1] for b in theirs]
    assert all(a.logprob < 0 and a.tokens >= 1 for a in ours)
