import pytest

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.data.dataset_readers.mcqa import McqaReader
from mcqa_probes.training.inoculation_reader import InoculationReader
from tests.conftest import DATA

PROBE = str(DATA / "wordnetqa_hypernymy.jsonl")      # 12 questions
ORIGINAL = str(DATA / "dictionary_qa.jsonl")         # 8 questions


@pytest.fixture(scope="module")
def base(tiny_bert):
    return McqaReader(transformer_model_name=tiny_bert)


def sources(instances):
    return [i["metadata"]["inoculation_source"] for i in instances]


def test_first_k(base):
    instances = list(InoculationReader(base, dosage=5).read(PROBE))
    assert [i["metadata"]["id"] for i in instances] == [f"{n}-hypernym-0-1-0" for n in range(5)]
    assert sources(instances) == ["probe"] * 5


def test_random_k_is_seeded(base):
    first = [i["metadata"]["id"] for i in InoculationReader(base, dosage=5, selection="random", seed=3).read(PROBE)]
    again = [i["metadata"]["id"] for i in InoculationReader(base, dosage=5, selection="random", seed=3).read(PROBE)]
    other = [i["metadata"]["id"] for i in InoculationReader(base, dosage=5, selection="random", seed=4).read(PROBE)]
    assert first == again and first != other and len(set(first)) == 5


@pytest.mark.parametrize("add_some, dosage, expected_original", [(1, 3, 3), (2, 3, 6), (2, 5, 8), (1, 4, 2)])
def test_add_some_ratios_and_caps(base, add_some, dosage, expected_original):
    max_original = 2 if (add_some, dosage) == (1, 4) else 3000
    reader = InoculationReader(base, dosage=dosage, add_some=add_some, original_data_path=ORIGINAL, max_original=max_original)
    instances = list(reader.read(PROBE))
    assert sources(instances).count("probe") == dosage
    assert sources(instances).count("original") == expected_original  # a*k, capped by the file (8) / max_original


def test_bad_settings():
    with pytest.raises(ValueError, match="original_data_path"):
        InoculationReader(McqaReader(), add_some=1)
    with pytest.raises(ValueError, match="dataset_reader.dosage"):
        InoculationReader(McqaReader(), dosage=0)


@pytest.mark.parametrize("model", ["tiny_bert", "tiny_roberta"])
def test_batched_base_reader_equals_per_pair_reference(request, model):
    """The dose read through the batched ``mcqa`` reader: the same instances as the per-pair path."""
    from tests.data.dataset_readers.test_mcqa import assert_same_instances, per_pair

    settings = dict(transformer_model_name=request.getfixturevalue(model), max_length=9, truncation="question_start")
    base, reference = McqaReader(batch_size=4, **settings), McqaReader(**settings)
    reader = InoculationReader(base, dosage=5, selection="random", add_some=1, original_data_path=ORIGINAL, seed=2)
    instances = list(reader.read(PROBE))
    expected = {i["metadata"]["id"]: i for i in per_pair(reference, PROBE) + per_pair(reference, ORIGINAL)}
    assert sources(instances).count("probe") == 5 and sources(instances).count("original") == 5
    assert_same_instances(instances, [expected[i["metadata"]["id"]] for i in instances],
                          ignore_metadata=("inoculation_source",))
