import pytest
from transformers import AutoTokenizer

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.data.dataset_readers.olmpics_mlm import OlmpicsMlmReader
from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.data.candidates import CandidateNotSinglePieceError, candidate_token_id
from tests.conftest import FIXTURES
from tests.olmpics_models import olmpics_bert, olmpics_roberta  # noqa: F401

OLMPICS = FIXTURES / "olmpics"
AGE_DEV = OLMPICS / "number_comparison_age_compare_masked_dev.jsonl"
STEM = "A 15 year old person is [MASK] than a 16 year old person ."


def test_bert_candidates_are_plain_wordpieces(olmpics_bert):
    tokenizer = AutoTokenizer.from_pretrained(olmpics_bert)
    assert candidate_token_id(tokenizer, "younger") == tokenizer.convert_tokens_to_ids("younger")
    assert candidate_token_id(tokenizer, " older ") == tokenizer.convert_tokens_to_ids("older")
    with pytest.raises(CandidateNotSinglePieceError, match="zzq"):
        candidate_token_id(tokenizer, "zzq")  # z ##z ##q
    with pytest.raises(CandidateNotSinglePieceError):
        candidate_token_id(tokenizer, "younger older")


def test_roberta_candidates_use_the_leading_space_piece(olmpics_roberta):
    tokenizer = AutoTokenizer.from_pretrained(olmpics_roberta)
    vocab = tokenizer.get_vocab()
    assert "Ġyounger" in vocab
    assert candidate_token_id(tokenizer, "younger") == vocab["Ġyounger"]
    assert tokenizer.tokenize("younger") != ["Ġyounger"]  # without the space it is another form
    with pytest.raises(CandidateNotSinglePieceError):
        candidate_token_id(tokenizer, "zzqxyounger")


@pytest.mark.parametrize("model", ["olmpics_bert", "olmpics_roberta"])
def test_instance_fields(model, request):
    directory = request.getfixturevalue(model)
    reader = OlmpicsMlmReader(directory, word_tokens=True)
    tokenizer = reader.hf_tokenizer
    instance = reader.text_to_instance(STEM, ["younger", "older"], 1)
    pieces = [t.text for t in instance["tokens"].tokens]
    position = int(instance["mask_position"].tensor)
    assert pieces[position] == tokenizer.mask_token
    assert pieces[position - 1].lstrip("Ġ") == "is" and pieces[position + 1].lstrip("Ġ") == "than"
    assert instance["candidate_ids"].tensor.tolist() == [candidate_token_id(tokenizer, w) for w in ("younger", "older")]
    assert instance["label"].label == 1
    words = [t.text for t in instance["words"].tokens]
    assert words[:6] == ["A", "15", "year", "old", "person", "is"] and words[6] == "[mask]"


def test_multi_piece_candidate_error_names_file_line_and_word(olmpics_bert):
    path = OLMPICS / "multi_piece_candidate.jsonl"
    with pytest.raises(McqaFormatError) as error:
        list(OlmpicsMlmReader(olmpics_bert).read(path))
    assert error.value.path.endswith("multi_piece_candidate.jsonl") and error.value.line == 2
    assert "zzqxyounger" in str(error.value)
    reader = OlmpicsMlmReader(olmpics_bert, skip_multi_piece_candidates=True)
    assert len(list(reader.read(path))) == 2
    assert reader.skipped_questions == 1


def test_stem_must_have_exactly_one_mask(olmpics_bert):
    reader = OlmpicsMlmReader(olmpics_bert)
    for stem in ("no mask here", "[MASK] and [MASK]"):
        with pytest.raises(McqaFormatError, match="exactly one"):
            reader.text_to_instance(stem, ["younger", "older"])


@pytest.mark.parametrize("model", ["olmpics_bert", "olmpics_roberta"])
def test_every_mc_mlm_fixture_file_loads(model, request):
    reader = OlmpicsMlmReader(request.getfixturevalue(model))
    for name in ("number_comparison_age_compare_masked_train.jsonl", "number_comparison_age_compare_masked_dev.jsonl",
                 "coffee_cats_quantifiers_dev.jsonl", "hypernym_conjunction_dev.jsonl"):
        instances = list(reader.read(OLMPICS / name))
        assert instances and reader.skipped_questions == 0


@pytest.mark.parametrize("mode", ["pll", "pll_word_l2r"])
def test_pll_modes_read_multi_piece_candidates_as_pieces(mode, olmpics_bert):
    path = OLMPICS / "multi_piece_candidate.jsonl"
    reader = OlmpicsMlmReader(olmpics_bert, multi_token=mode)
    tokenizer = reader.hf_tokenizer
    instances = list(reader.read(path))
    assert len(instances) == 3 and reader.skipped_questions == 0 and reader.multi_piece_questions == 1
    pieces = instances[1]["candidate_pieces"].tensor.tolist()
    groups = instances[1]["candidate_piece_groups"].tensor.tolist()
    expected = tokenizer(" zzqxyounger", add_special_tokens=False)["input_ids"]
    assert len(expected) > 1 and pieces[0] == expected
    assert pieces[1] == [candidate_token_id(tokenizer, "older")] + [-1] * (len(expected) - 1)
    assert groups[0] == ([0] * len(expected) if mode == "pll_word_l2r" else list(range(len(expected))))
    assert groups[1][0] == 0 and set(groups[1][1:]) == {-1}
    assert instances[1]["candidate_ids"].tensor.tolist() == [expected[0], candidate_token_id(tokenizer, "older")]
    assert instances[0]["candidate_pieces"].tensor.shape == (2, 1)  # single pieces: width 1


def test_multi_token_option_replaces_the_skip_flag(olmpics_bert):
    path = OLMPICS / "multi_piece_candidate.jsonl"
    for kwargs in ({"multi_token": "skip"}, {"skip_multi_piece_candidates": True}):
        reader = OlmpicsMlmReader(olmpics_bert, **kwargs)
        assert reader.multi_token == "skip" and len(list(reader.read(path))) == 2
    for kwargs in ({}, {"multi_token": "reject"}, {"skip_multi_piece_candidates": False}):
        with pytest.raises(McqaFormatError, match="zzqxyounger"):
            list(OlmpicsMlmReader(olmpics_bert, **kwargs).read(path))
    with pytest.raises(ValueError, match="multi_token"):
        OlmpicsMlmReader(olmpics_bert, multi_token="first_piece")
    with pytest.raises(ValueError, match="contradicts"):
        OlmpicsMlmReader(olmpics_bert, multi_token="pll", skip_multi_piece_candidates=True)
