"""The ``csqa`` reader: both layouts, unlabeled test files, SANITY mode."""
import pytest
from allennlp.data import DatasetReader

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.data.dataset_readers.csqa import CsqaReader
from tests.conftest import FIXTURES

CSQA = FIXTURES / "csqa"


def test_registered_under_its_own_name():
    assert DatasetReader.by_name("csqa") is CsqaReader
    import allennlp_models.mc.dataset_readers.commonsenseqa  # noqa: F401  (what `allennlp` imports at start-up)

    assert DatasetReader.by_name("commonsenseqa") is not CsqaReader  # allennlp-models' reader untouched


def test_both_layouts_same_instances(tiny_bert):
    reader = CsqaReader(transformer_model_name=tiny_bert)
    original = list(reader.read(CSQA / "dev_original.jsonl"))
    flattened = list(reader.read(CSQA / "dev_hf.jsonl"))
    assert [i["label"].sequence_index for i in original] == [0, 1, 2, 3, 4] * 2
    for a, b in zip(original, flattened):
        assert a["metadata"].metadata == b["metadata"].metadata
        assert [[t.text for t in f.tokens] for f in a["alternatives"]] == [[t.text for t in f.tokens] for f in b["alternatives"]]
    assert original[0]["metadata"]["question_concept"] == "milk"
    assert len(original[0]["alternatives"]) == 5


def test_unlabeled_test_file(tiny_bert):
    reader = CsqaReader(transformer_model_name=tiny_bert, require_answer_key=False)
    instances = list(reader.read(CSQA / "test_hf_no_answers.jsonl"))
    assert len(instances) == 3 and all("label" not in i.fields for i in instances)
    with pytest.raises(ValueError, match="labelled"):
        CsqaReader(transformer_model_name=tiny_bert, require_answer_key=False, sanity=True)


def test_sanity_mode(tiny_bert):
    plain = list(CsqaReader(transformer_model_name=tiny_bert).read(CSQA / "dev_original.jsonl"))
    sane = list(CsqaReader(transformer_model_name=tiny_bert, sanity=True, sanity_seed=7).read(CSQA / "dev_original.jsonl"))
    for a, b in zip(plain, sane):
        gold = a["label"].sequence_index
        assert b["label"].sequence_index == gold and len(b["alternatives"]) == 5
        assert b["metadata"]["choices"][gold] == a["metadata"]["choices"][gold]
        assert b["metadata"]["sanity"]["seed"] == 7
    assert any(a["metadata"]["choices"] != b["metadata"]["choices"] for a, b in zip(plain, sane))


# ---------------------------------------------------------------- batched path == per-pair reference
from mcqa_probes.data.commonsenseqa import sanity_questions  # noqa: E402
from mcqa_probes.data.dataset_readers.mcqa import TRUNCATION_STRATEGIES  # noqa: E402
from mcqa_probes.data.question import read_questions  # noqa: E402
from tests.data.dataset_readers.test_mcqa import assert_same_instances, per_pair  # noqa: E402


@pytest.mark.parametrize("model", ["tiny_bert", "tiny_roberta"])
@pytest.mark.parametrize("truncation", TRUNCATION_STRATEGIES)
@pytest.mark.parametrize("max_length", [256, 8])
def test_batched_reading_equals_per_pair_reference(request, model, truncation, max_length):
    settings = dict(transformer_model_name=request.getfixturevalue(model), max_length=max_length, truncation=truncation)
    for path in sorted(CSQA.glob("*.jsonl")):
        labelled = "no_answers" not in path.name
        fast = CsqaReader(batch_size=3, require_answer_key=labelled, **settings)
        reference = CsqaReader(require_answer_key=labelled, **settings)
        assert_same_instances(list(fast.read(path)), per_pair(reference, path))
        assert fast.truncated_pairs == reference.truncated_pairs
        assert (fast.truncated_pairs > 0) == (max_length < 256)
        if labelled:
            sane = CsqaReader(batch_size=3, sanity=True, sanity_seed=5, **settings)
            questions = sanity_questions(read_questions(path), seed=5)
            assert_same_instances(list(sane.read(path)), per_pair(reference, path, questions))
