"""WinoVenti Intersection = the 12 models of Table 6, not every registry column (issue 12.2).

``registry_table6.tsv`` has the released registry's 15 model columns; bread fails only the
``DistilBERT`` column and lamp only ``allenai/longformer-large-4096`` (neither is a Table 6 model),
cup fails ``albert-xxlarge-v2`` (a Table 6 model).
"""
import pytest

from mcqa_probes.data.dataset_readers.winoventi import WinoVentiReader
from mcqa_probes.data.winoventi import (
    ALL_COLUMNS, NOT_IN_TABLE6, TABLE6_MODELS, intersection_models, intersection_pairs, read_registry, read_winoventi,
)
from mcqa_probes.experiments.winoventi.evaluate import evaluate_model, format_table
from tests.conftest import FIXTURES

WV = FIXTURES / "winoventi"
TSV = WV / "winoventi_small.tsv"
REGISTRY15 = WV / "registry_table6.tsv"


def test_the_mapping_names_12_table6_models_and_3_other_columns():
    registry = read_registry(REGISTRY15)
    assert len(TABLE6_MODELS) == 12 and len(set(TABLE6_MODELS.values())) == 12
    assert sorted(list(TABLE6_MODELS) + list(NOT_IN_TABLE6)) == sorted(registry.models)
    assert TABLE6_MODELS["distilbert-base-cased"] == "DistilBERT" and "DistilBERT" in NOT_IN_TABLE6


def test_intersection_defaults_to_the_table6_models():
    prompts = read_winoventi(TSV)
    registry = read_registry(REGISTRY15)
    # kettle 0, bread 1, lamp 2, sponge 4 pass all 12; cup fails ALBERT-xxlarge
    assert intersection_pairs(prompts, registry) == {0, 1, 2, 4}
    assert intersection_models(registry) == list(TABLE6_MODELS)
    assert intersection_pairs(prompts, registry, ALL_COLUMNS) == {0, 4}
    assert intersection_pairs(prompts, registry, ["DistilBERT"]) == {0, 2, 3, 4}


def test_registry_of_other_models_uses_its_columns_and_partial_table6_is_an_error():
    prompts = read_winoventi(TSV)
    other = read_registry(WV / "registry_small.tsv")  # model-a, model-b
    assert intersection_models(other) == ["model-a", "model-b"]
    partial = read_registry(REGISTRY15)
    partial.flags.pop("roberta-large")
    partial.models.remove("roberta-large")
    with pytest.raises(KeyError, match="roberta-large"):
        intersection_pairs(prompts, partial)
    with pytest.raises(ValueError):
        intersection_models(partial, "everything")


def test_reader_intersection_default_and_all_columns_option(wv_bert):
    table6 = WinoVentiReader(wv_bert, subset="intersection", registry_path=str(REGISTRY15))
    words = [i["metadata"]["word"] for i in table6.read(str(TSV))]
    assert sorted(set(words)) == ["bread", "kettle", "lamp"]  # sponge: multi-piece outcome, skipped
    every = WinoVentiReader(wv_bert, subset="intersection", registry_path=str(REGISTRY15),
                            intersection_all_columns=True)
    assert sorted({i["metadata"]["word"] for i in every.read(str(TSV))}) == ["kettle"]
    with pytest.raises(ValueError):
        WinoVentiReader(wv_bert, subset="intersection", registry_path=str(REGISTRY15),
                        intersection_all_columns=True, intersection_models=["roberta-base"])


def test_table6_row_says_which_models_the_intersection_used(wv_bert):
    prompts = read_winoventi(TSV)
    registry = read_registry(REGISTRY15)
    row = evaluate_model(wv_bert, prompts, registry, registry_name="bert-base-cased")
    assert row["intersection"]["n"] == 3 and row["intersection_models"] == list(TABLE6_MODELS)
    assert "Intersection over the 12 Table-6 models" in format_table([row])
    every = evaluate_model(wv_bert, prompts, registry, registry_name="bert-base-cased", intersection_models="all")
    assert every["intersection"]["n"] == 1 and len(every["intersection_models"]) == 15
