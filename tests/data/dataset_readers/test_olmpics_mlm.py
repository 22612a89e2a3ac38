import pytest
from transformers import AutoTokenizer

import mcqa_probes  # noqa: F401
from mcqa_probes.data.dataset_readers.olmpics_mlm import OlmpicsMlmReader
from mcqa_probes.data.question import McqaFormatError
from mcqa_probes.models.masked_lm_scoring import CandidateNotSinglePieceError, candidate_token_id
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
