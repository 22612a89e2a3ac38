"""Multi-piece MC-MLM candidates: PLL / PLL-word-l2r scores, against a by-hand loop and minicons."""
import functools
import json
import math

import pytest
import torch
from allennlp.data import Batch, Vocabulary
from transformers import AutoModelForMaskedLM, AutoTokenizer

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.data.dataset_readers.olmpics_mlm import OlmpicsMlmReader
from mcqa_probes.models.masked_lm_mc import MaskedLmMc
from mcqa_probes.data.candidates import candidate_pieces, resolve_multi_token
from tests.conftest import FIXTURES, ROOT
from tests.mlm_families import FAMILIES, tiny_mlm  # noqa: F401
from tests.olmpics_models import olmpics_bert  # noqa: F401
from tests.experiments.winoventi.conftest import wv_bert  # noqa: F401

# question 0: all candidates single pieces (scored as today); 1 and 2: some multi-piece ones
QUESTIONS = [
    ("A bird [MASK] has a fish .", ["always", "never", "sometimes"], 1),
    ("The [MASK] is red and blue .", ["bluebird", "tree", "redoak"], 0),
    ("A sparrow is a kind of [MASK] in the tree .", ["oak sparrow", "animal", "zzq-bird"], 1),
    ("A 15 year old person is [MASK] than a 16 year old person .", ["younger", "older"], 0),
]
VARIANTS = [("pll", "original"), ("pll_word_l2r", "within_word_l2r")]


def tensors(model, instances):
    batch = Batch(instances)
    batch.index_instances(model.vocab)
    return batch.as_tensor_dict()


def scores(directory, mode, questions=QUESTIONS, **model_kwargs):
    reader = OlmpicsMlmReader(directory, multi_token=mode)
    model = MaskedLmMc(Vocabulary(), transformer_model_name=directory, probe_type="zero_shot", **model_kwargs).eval()
    with torch.no_grad():
        logits = model(**tensors(model, [reader.text_to_instance(*q) for q in questions]))["logits"]
    return [logits[row, : len(q[1])].tolist() for row, q in enumerate(questions)]


@functools.lru_cache(maxsize=None)
def load(directory):
    return AutoTokenizer.from_pretrained(directory), AutoModelForMaskedLM.from_pretrained(directory).eval()


def hand_pll(directory, stem, word, l2r):
    """PLL of ``word`` in ``stem`` by hand: one full HF forward per masked copy of the sentence."""
    tokenizer, model = load(directory)
    before, after = stem.split("[MASK]")
    prefix = tokenizer(before.rstrip(), add_special_tokens=True)["input_ids"][:-1]  # [CLS] ... (no [SEP])
    encoded = tokenizer(" " + word, add_special_tokens=False)
    pieces, words = encoded["input_ids"], encoded.word_ids()
    sentence = tokenizer(before.rstrip() + " " + word + " " + after.strip())["input_ids"]
    assert sentence[len(prefix):len(prefix) + len(pieces)] == pieces
    total = 0.0
    for i in range(len(pieces)):
        copy = list(sentence)
        for j in range(i, len(pieces)):
            if j == i or (l2r and words[j] == words[i]):
                copy[len(prefix) + j] = tokenizer.mask_token_id
        with torch.no_grad():
            logits = model(torch.tensor([copy])).logits[0, len(prefix) + i]
        total += float(logits.log_softmax(-1)[pieces[i]])
    return total


@pytest.mark.parametrize("mode", ["pll", "pll_word_l2r"])
@pytest.mark.parametrize("family", ["bert", "roberta"])
def test_pll_equals_a_by_hand_loop(family, mode, tiny_mlm):
    directory = tiny_mlm(family)
    ours = scores(directory, mode, pll_batch_size=4)
    single = scores(directory, "reject", [QUESTIONS[0], QUESTIONS[3]])
    assert ours[0] == single[0] and ours[3] == single[1]  # all-single-piece questions: today's logits
    for row in (1, 2):
        stem, words, _ = QUESTIONS[row]
        expected = [hand_pll(directory, stem, w, mode == "pll_word_l2r") for w in words]
        assert ours[row] == pytest.approx(expected, abs=1e-4), (family, mode, row)


def test_word_l2r_groups_pieces_by_word(tiny_mlm):
    tokenizer = AutoTokenizer.from_pretrained(tiny_mlm("bert"))
    ids, groups = candidate_pieces(tokenizer, "oak sparrowz", "pll_word_l2r")
    assert tokenizer.convert_ids_to_tokens(ids) == ["oak", "sparrow", "##z"]
    assert groups == [0, 1, 1]
    assert candidate_pieces(tokenizer, "oak sparrowz", "pll")[1] == [0, 1, 2]
    assert candidate_pieces(tokenizer, "tree", "pll") == ([tokenizer.convert_tokens_to_ids("tree")], [0])
    # the variants differ exactly where a word has several pieces
    directory = tiny_mlm("bert")
    pll, l2r = scores(directory, "pll"), scores(directory, "pll_word_l2r")
    assert pll[1][1] == pytest.approx(l2r[1][1], abs=1e-6)  # "tree": one piece
    assert abs(pll[1][0] - l2r[1][0]) > 1e-4  # "bluebird": blue ##b ##i ##r ##d


@pytest.mark.parametrize("mode,metric", VARIANTS)
@pytest.mark.parametrize("family", FAMILIES)
def test_pll_matches_minicons(family, mode, metric, tiny_mlm):
    from minicons import scorer  # the test-only reference, installed by bin/setup
    directory = tiny_mlm(family)
    ours = scores(directory, mode, pll_batch_size=7)
    tokenizer = AutoTokenizer.from_pretrained(directory)
    reference = scorer.MaskedLMScorer(AutoModelForMaskedLM.from_pretrained(directory), "cpu", tokenizer=tokenizer)
    for row in (1, 2):
        stem, words, _ = QUESTIONS[row]
        before, after = stem.split("[MASK]")
        # the candidate in context, its pieces masked (stimulus given with its leading space, so that
        # byte-level BPE sees the word-initial form as in the sentence)
        expected = reference.conditional_score(
            [before.rstrip()] * len(words), [" " + w for w in words], [" " + after.strip()] * len(words),
            separator="", reduction=lambda x: x.sum(0).item(), PLL_metric=metric,
        )
        assert ours[row] == pytest.approx(expected, abs=1e-4), (family, mode, row)


def test_masked_copies_are_batched_in_chunks(tiny_mlm):
    directory = tiny_mlm("bert")
    reader = OlmpicsMlmReader(directory, multi_token="pll")
    instances = [reader.text_to_instance(*q) for q in QUESTIONS]
    copies = sum(int((i["candidate_pieces"].tensor >= 0).sum()) for i in instances[1:3])
    results = {}
    for max_batch in (1, 5, 1000):
        model = MaskedLmMc(Vocabulary(), transformer_model_name=directory, probe_type="zero_shot",
                           pll_batch_size=max_batch).eval()
        calls = []
        model.head.encoder.register_forward_hook(lambda module, args, output: calls.append(1))
        with torch.no_grad():
            results[max_batch] = model(**tensors(model, instances))["logits"]
        # one forward for the two all-single-piece questions, then ceil(copies / max_batch)
        assert len(calls) == 1 + math.ceil(copies / max_batch)
    assert torch.allclose(results[1], results[1000], atol=1e-5)
    assert torch.allclose(results[5], results[1000], atol=1e-5)


def test_bf16_autocast_returns_fp32_scores(tiny_mlm):
    directory = tiny_mlm("bert")
    reader = OlmpicsMlmReader(directory, multi_token="pll")
    model = MaskedLmMc(Vocabulary(), transformer_model_name=directory, probe_type="zero_shot", precision="bf16").eval()
    with torch.no_grad():
        logits = model(**tensors(model, [reader.text_to_instance(*q) for q in QUESTIONS]))["logits"]
    assert logits.dtype == torch.float32
    fp32 = scores(directory, "pll")
    assert logits[1, :3].tolist() == pytest.approx(fp32[1], abs=0.5)


def test_mlp_probe_on_multi_piece_questions_trains_the_head_only(tiny_mlm):
    directory = tiny_mlm("roberta")
    reader = OlmpicsMlmReader(directory, multi_token="pll_word_l2r")
    model = MaskedLmMc(Vocabulary(), transformer_model_name=directory, probe_type="mlp", pll_batch_size=6)
    before = {k: v.clone() for k, v in model.head.encoder.state_dict().items()}
    untied = model.head.untied_decoder_weight.detach().clone()
    optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
    model.train()
    loss = model(**tensors(model, [reader.text_to_instance(*q) for q in QUESTIONS[1:3]]))["loss"]
    loss.backward()
    optimizer.step()
    assert all(torch.equal(v, model.head.encoder.state_dict()[k]) for k, v in before.items())
    assert not torch.equal(untied, model.head.untied_decoder_weight)


def test_multi_token_option_and_its_older_spelling():
    assert resolve_multi_token(None, None) == "reject"
    assert resolve_multi_token(None, True) == "skip"
    assert resolve_multi_token("pll", False) == "pll"
    assert resolve_multi_token(None, None, default="skip") == "skip"
    with pytest.raises(ValueError):
        resolve_multi_token("pll", True)
    with pytest.raises(ValueError):
        resolve_multi_token("sum", None)


def bin_main(name):
    """``main`` of a bin/ script, loaded in-process."""
    import runpy

    return runpy.run_path(str(ROOT / "bin" / name), run_name="bin_script")["main"]


def test_bin_zero_shot_scores_multi_piece_questions(olmpics_bert, capsys):
    from mcqa_probes.common.io import McqaFormatError

    main = bin_main("zero_shot")
    arguments = ["--model", olmpics_bert, "--data", str(FIXTURES / "olmpics" / "multi_piece_candidate.jsonl"),
                 "--cuda-device", "-1"]
    with pytest.raises(McqaFormatError, match="zzqxyounger"):  # reject, the default
        main(arguments)
    for mode, count, pll in (("skip", 2, 0), ("pll", 3, 1), ("pll_word_l2r", 3, 1)):
        capsys.readouterr()
        assert main(arguments + ["--multi-token", mode]) == 0
        result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert (result["count"], result["pll_scored"], result["multi_token"]) == (count, pll, mode)


def test_winoventi_scores_multi_piece_outcomes_by_pll(wv_bert):
    from mcqa_probes.data.winoventi import read_winoventi
    from mcqa_probes.experiments.winoventi.evaluate import evaluate_model, score_prompts
    from mcqa_probes.experiments.winoventi.scoring import MaskedLm

    prompts = read_winoventi(FIXTURES / "winoventi" / "winoventi_small.tsv")
    skipped = score_prompts(MaskedLm(wv_bert, cuda_device=-1), prompts)
    assert skipped["multi_piece_words"] == ["soggy"] and len(skipped["skipped_lines"]) == 2
    for mode in ("pll", "pll_word_l2r"):
        lm = MaskedLm(wv_bert, cuda_device=-1, multi_token=mode)
        scored = score_prompts(lm, prompts)
        assert scored["skipped_lines"] == [] and scored["multi_piece_words"] == []
        for prompt in prompts:
            if prompt.line in skipped["skipped_lines"]:  # the sponge pair: PLL of both outcomes
                expected = [hand_pll(wv_bert, prompt.masked_prompt, w, mode == "pll_word_l2r")
                            for w in (prompt.generic, prompt.exception)]
                assert scored["logits"][prompt.line] == pytest.approx(expected, abs=1e-4)
            else:  # single-piece pairs: the same logits as before
                assert scored["logits"][prompt.line] == pytest.approx(skipped["logits"][prompt.line], abs=1e-6)
        row = evaluate_model(wv_bert, prompts, compute_individual=False, lm=lm)
        assert row["skipped_prompts"] == 0 and row["scored_prompts"] == len(prompts)


def test_bin_winoventi_eval_multi_token(wv_bert, tmp_path):
    main = bin_main("winoventi_eval")
    out = tmp_path / "rows.json"
    arguments = ["--model", wv_bert, "--tsv", str(FIXTURES / "winoventi" / "winoventi_small.tsv"),
                 "--no-compute-individual", "--cuda-device", "-1", "--json", str(out)]
    for mode, skipped in (("skip", 2), ("pll_word_l2r", 0)):
        assert main(arguments + ["--multi-token", mode]) == 0
        assert json.loads(out.read_text())[0]["skipped_prompts"] == skipped


@pytest.mark.parametrize("mode", ["pll", "pll_word_l2r"])
def test_bench_multi_token_agrees_with_minicons(mode, wv_bert):
    import minicons.scorer  # noqa: F401  (the test-only reference, installed by bin/setup)
    from mcqa_probes.experiments.olmpics.bench_pll import bench_multi_token

    result = bench_multi_token(wv_bert, str(FIXTURES / "winoventi" / "winoventi_small.tsv"), mode, cuda_device=-1)
    assert result["examples"] == 2  # the two sponge prompts ("soggy" is several pieces)
    assert result["all_same"] and result["max_abs_diff"] < 1e-4


def test_training_config_with_multi_token_pll(olmpics_bert, tmp_path, monkeypatch):
    from allennlp.commands.train import train_model_from_file

    data = str(FIXTURES / "olmpics" / "multi_piece_candidate.jsonl")
    for name, value in {"MODEL_NAME": olmpics_bert, "PROBE_TYPE": "linear", "MULTI_TOKEN": "pll_word_l2r",
                        "PLL_BATCH_SIZE": "4", "EPOCHS": "1", "BATCH_SIZE": "2", "LR": "0.01"}.items():
        monkeypatch.setenv(name, value)
    overrides = json.dumps({"train_data_path": data, "validation_data_path": data})
    model = train_model_from_file(str(ROOT / "training_config" / "olmpics_mc_mlm.jsonnet"), str(tmp_path / "run"),
                                  overrides=overrides)
    assert model.pll_batch_size == 4
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert 0.0 <= metrics["validation_accuracy"] <= 1.0
