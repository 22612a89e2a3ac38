import pytest

import mcqa_probes  # noqa: F401
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
