"""§2.2 association mining on tiny models with hand-set preferences, and Jaccard (Table 4)."""
import math

from mcqa_probes.experiments.winoventi.associations import (
    association_set, format_jaccard_table, jaccard, jaccard_table, mine_associations, word_token_ids,
)
from mcqa_probes.experiments.winoventi.scoring import MaskedLm
from tests.experiments.winoventi.conftest import boosted_copy

NOUNS = ["kettle", "bread", "lamp"]


def test_jaccard():
    assert jaccard({1, 2, 3}, {2, 3, 4}) == 0.5
    assert jaccard({1}, {1}) == 1.0 and jaccard({1}, {2}) == 0.0
    assert math.isnan(jaccard(set(), set()))


def test_mining_two_models_hand_checked(wv_bert, wv_roberta, tmp_path):
    # The boosts dominate the random logits in every context, so for every noun and template the
    # top-3 words are the boosted ones, in boost order: BERT [empty, hot, dark], RoBERTa [empty, cold, hot].
    bert = boosted_copy(wv_bert, tmp_path / "b", {"empty": 30, "hot": 20, "dark": 10})
    roberta = boosted_copy(wv_roberta, tmp_path / "r", {"empty": 30, "cold": 20, "hot": 10})
    mined = {name: mine_associations(MaskedLm(path), NOUNS, ks=(1, 3))
             for name, path in [("bert", bert), ("roberta", roberta)]}
    for record in mined["bert"]:
        assert record["associations"] == {"1": ["empty"], "3": ["empty", "hot", "dark"]}
        assert record["top"]["The {noun} is not [MASK]."] == ["empty", "hot", "dark"]
    assert mined["roberta"][1]["associations"]["3"] == ["empty", "cold", "hot"]  # "Ġcold" -> "cold"
    assert association_set(mined["bert"], 1) == {("kettle", "empty"), ("bread", "empty"), ("lamp", "empty")}
    rows = jaccard_table(mined, ks=(1, 3))
    assert rows[0]["1"] == 1.0 and rows[0]["3"] == 1.0  # the reference with itself
    assert rows[1]["1"] == 1.0  # both: {empty} per noun
    assert rows[1]["3"] == 0.5  # per noun {empty, hot} shared of {empty, hot, dark, cold}: 6 / 12
    assert "roberta" in format_jaccard_table(rows, (1, 3)) and "0.50" in format_jaccard_table(rows, (1, 3))


def test_only_whole_words_compete(wv_bert, tmp_path):
    # a boosted sub-word piece and a boosted punctuation mark are not associations (words_only)
    biased = boosted_copy(wv_bert, tmp_path / "w", {"##a": 40, ".": 35, "cold": 30}, tokenizer_words=False)
    lm = MaskedLm(biased)
    ids = set(word_token_ids(lm.tokenizer))
    vocab = lm.tokenizer.get_vocab()
    assert vocab["cold"] in ids and vocab["##a"] not in ids and vocab["."] not in ids and vocab["[MASK]"] not in ids
    assert mine_associations(lm, ["lamp"], ks=(1,))[0]["associations"]["1"] == ["cold"]
    raw = mine_associations(lm, ["lamp"], ks=(1,), words_only=False)[0]
    assert raw["associations"]["1"] == ["##a"]
