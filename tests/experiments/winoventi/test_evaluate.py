"""WinoVenti scoring against hand-computed logits, the Table-6 report, the adversarial filter."""
import math

import pytest
import torch
from transformers import AutoModelForMaskedLM, AutoTokenizer

from mcqa_probes.data.winoventi import read_registry, read_winoventi
from mcqa_probes.experiments.winoventi.adversarial_filter import adversarial_filter, summary
from mcqa_probes.experiments.winoventi.evaluate import evaluate_model, format_table, score_prompts, subset_accuracy
from mcqa_probes.experiments.winoventi.scoring import MaskedLm
from tests.conftest import FIXTURES
from tests.experiments.winoventi.conftest import boosted_copy

TSV = FIXTURES / "winoventi" / "winoventi_small.tsv"
REGISTRY = FIXTURES / "winoventi" / "registry_small.tsv"


def hand_logits(model_dir, text, words, mask_piece):
    """The full masked-LM forward, then the logits of the words' pieces at the mask."""
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForMaskedLM.from_pretrained(model_dir).eval()
    encoded = tokenizer(text.replace("[MASK]", tokenizer.mask_token), return_tensors="pt")
    position = encoded["input_ids"][0].tolist().index(tokenizer.mask_token_id)
    with torch.no_grad():
        logits = model(**encoded).logits[0, position]
    return [logits[tokenizer.convert_tokens_to_ids(mask_piece + w)].item() for w in words]


@pytest.mark.parametrize("family, piece", [("bert", ""), ("roberta", "Ġ")])
def test_scores_equal_hand_computed_logits(family, piece, wv_bert, wv_roberta):
    model_dir = wv_bert if family == "bert" else wv_roberta
    prompts = read_winoventi(TSV)
    scores = score_prompts(MaskedLm(model_dir), prompts)
    assert scores["multi_piece_words"] == ["soggy"]  # reported, not truncated
    assert sorted(scores["skipped_lines"]) == [6, 11]  # both prompts of the sponge pair
    for prompt in prompts:
        if prompt.word == "sponge":
            continue
        expected = hand_logits(model_dir, prompt.masked_prompt, [prompt.generic, prompt.exception], piece)
        assert scores["logits"][prompt.line] == pytest.approx(expected, abs=1e-4)
        gold = 0 if prompt.is_generic else 1
        assert scores["correct"][prompt.line] == (expected[gold] > expected[1 - gold])


def test_table6_with_a_hand_set_preference(wv_bert, tmp_path):
    # +20 on every generic outcome: generic prompts right, exception prompts wrong, whatever the context
    biased = boosted_copy(wv_bert, tmp_path / "biased", {"hot": 20, "fresh": 20, "bright": 20, "empty": 20})
    prompts = read_winoventi(TSV)
    registry = read_registry(REGISTRY)
    row = evaluate_model(biased, prompts, registry, registry_name="model-a")
    assert row["all"] == {"generic": 100.0, "exception": 0.0, "n": 4, "generic_prompts": 4, "exception_prompts": 4}
    assert row["individual"]["n"] == 3 and row["individual_source"] == "registry:model-a"  # kettle, bread, cup
    assert row["intersection"]["n"] == 2  # kettle, cup (sponge passes but is multi-piece)
    assert row["skipped_prompts"] == 2
    # no registry column: Individual comes from the model's own filter, which every triple passes
    computed = evaluate_model(biased, prompts, registry)
    assert computed["individual_source"].startswith("computed") and computed["individual"]["n"] == 4
    table = format_table([row, computed])
    assert "Generic  Exceptn" in table and "100.0      0.0" in table and "multi-piece outcome words [soggy]" in table


def test_subset_accuracy_counts_pairs():
    prompts = read_winoventi(TSV)
    correct = {p.line: p.is_generic for p in prompts if p.word != "lamp"}
    result = subset_accuracy(prompts, correct, {0, 1, 2})
    assert result["n"] == 2 and result["generic"] == 100.0 and result["exception"] == 0.0
    assert math.isnan(subset_accuracy(prompts, {}, None)["generic"])


def test_adversarial_filter_prefers_the_generic(wv_roberta, tmp_path):
    biased = boosted_copy(wv_roberta, tmp_path / "filter", {"cold": 20, "stale": -20})
    triples = [("kettle", "hot", "cold"), ("bread", "fresh", "stale"), ("sponge", "dry", "soggy")]
    results = adversarial_filter(MaskedLm(biased), triples)
    assert [r["status"] for r in results] == ["fail", "pass", "multi_piece"]
    assert results[2]["multi_piece_word"] == "soggy"
    assert summary(results) == {"pass": 1, "fail": 1, "multi_piece": 1}
    expected = hand_logits(biased, "The bread is [MASK].", ["fresh", "stale"], "Ġ")
    assert [results[1]["generic_logit"], results[1]["exception_logit"]] == pytest.approx(expected, abs=1e-4)
