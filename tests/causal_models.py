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
