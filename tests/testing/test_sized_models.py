"""Random-weight models of real sizes for bin/gpu_selftest: the sizes are the real ones, the packaged
tokenizer is BERT's WordPiece vocabulary, and a built causal LM loads and scores like any other."""
import pytest
import torch

from mcqa_probes.models.causal_lm_scoring import CausalLmScorer
from mcqa_probes.testing.sized_models import (
    CAUSAL_SIZES, ENCODER_SIZES, VOCABULARY, make_sized_causal_lm, wordpiece_tokenizer,
)


def _parameters(model_class, config_class, **config):
    with torch.device("meta"):
        model = model_class(config_class(vocab_size=30522, **config))
    return sum(p.numel() for p in model.parameters())


@pytest.mark.parametrize("size, low, high", [("bert-base", 105e6, 115e6), ("bert-large", 330e6, 340e6)])
def test_encoder_sizes_are_berts(size, low, high):
    from transformers import BertConfig, BertModel

    assert low <= _parameters(BertModel, BertConfig, **ENCODER_SIZES[size]) <= high


@pytest.mark.parametrize("size, low, high", [("llama-135m", 120e6, 140e6), ("llama-1b", 0.95e9, 1.1e9)])
def test_causal_sizes(size, low, high):
    from transformers import LlamaConfig, LlamaForCausalLM

    assert low <= _parameters(LlamaForCausalLM, LlamaConfig, **CAUSAL_SIZES[size]) <= high


def test_the_packaged_vocabulary_is_berts_uncased_wordpiece(tmp_path):
    assert len(VOCABULARY.read_text(encoding="utf-8").splitlines()) == 30522
    tokenizer = wordpiece_tokenizer(tmp_path / "encoder")
    assert tokenizer.tokenize("A sparrow is a kind of bird") == ["a", "sparrow", "is", "a", "kind", "of", "bird"]
    causal = wordpiece_tokenizer(tmp_path / "causal", causal=True)
    ids = causal("a sparrow")["input_ids"]
    assert ids[0] == causal.bos_token_id == causal.convert_tokens_to_ids("[CLS]")
    assert causal.convert_ids_to_tokens(ids[1:]) == ["a", "sparrow"]  # BOS in front, nothing after (as Llama)


def test_a_built_causal_lm_loads_in_fp32_and_scores(tmp_path):
    directory = make_sized_causal_lm(tmp_path / "llama", "llama-135m")
    scorer = CausalLmScorer.from_pretrained(str(directory))
    assert next(scorer.model.parameters()).dtype == torch.float32  # saved in bf16, loaded as asked
    assert sum(p.numel() for p in scorer.model.parameters()) > 120e6
    context, continuation = scorer.encode_pair("a sparrow is a kind of", " bird")
    assert context[0] == scorer.tokenizer.bos_token_id and len(continuation) == 1
    answer = scorer.loglikelihood([("a sparrow is a kind of", " bird")])[0]
    assert answer.tokens == 1 and answer.logprob < 0
