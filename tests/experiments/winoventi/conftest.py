"""Tiny masked LMs whose vocabulary holds the WinoVenti fixture words (random weights, built once)."""
import pytest

WORDS = ("the a is not it as in of to into this that was left sat unused heard whistled baked bread morning "
         "last month plugged unplugged washed poured tea cup lamp kettle sponge sun sink hot cold fresh stale "
         "bright dark empty full dry ada ben cleo dan eve").split()


def boosted_copy(source: str, target, boosts, tokenizer_words=True) -> str:
    """Copy of a tiny masked LM with ``boosts[word]`` added to the output bias of ``word``'s
    word-initial piece: a hand-set preference that dominates the random logits (|logit| < 1)."""
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    from mcqa_probes.data.candidates import candidate_token_id

    tokenizer = AutoTokenizer.from_pretrained(source)
    model = AutoModelForMaskedLM.from_pretrained(source)
    bias = model.cls.predictions.bias if hasattr(model, "cls") else model.lm_head.bias
    for word, value in boosts.items():
        token_id = candidate_token_id(tokenizer, word) if tokenizer_words else tokenizer.convert_tokens_to_ids(word)
        bias.data[token_id] += value
    model.save_pretrained(str(target))
    tokenizer.save_pretrained(str(target))
    return str(target)


@pytest.fixture(scope="session")
def wv_bert(tmp_path_factory) -> str:
    from mcqa_probes.testing import make_tiny_bert

    return str(make_tiny_bert(tmp_path_factory.mktemp("wv_bert"), words=WORDS))


@pytest.fixture(scope="session")
def wv_roberta(tmp_path_factory) -> str:
    from mcqa_probes.testing import make_tiny_roberta

    return str(make_tiny_roberta(tmp_path_factory.mktemp("wv_roberta"), words=WORDS, seed=1))
