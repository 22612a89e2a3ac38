"""The paper reference rows of the report card: spot checks against the papers' printed numbers,
the shape of every row, and the validation of a broken file."""
import configparser
import json

import pytest

from mcqa_probes.reports.card import references
from mcqa_probes.reports.card.references import (
    METRICS, SECTIONS, load_references, paper_citation, reference_rows, row_citation,
)
from tests.conftest import ROOT


def value(section, probe, metric, model, setting=None, table=None):
    rows = [r for r in reference_rows(section, probe, metric, model=model)
            if (setting is None or r["setting"] == setting) and (table is None or r["table"] == table)]
    assert len(rows) == 1, rows
    return rows[0]["value"]


# --- numbers as printed in the papers ------------------------------------------------------------------

def test_winoventi_table6():
    assert value("winoventi", "winoventi", "generic_all", "RoBERTa-large") == 81.3
    assert value("winoventi", "winoventi", "exception_all", "RoBERTa-large") == 29.2
    assert value("winoventi", "winoventi", "n_individual", "RoBERTa-large") == 994
    assert value("winoventi", "winoventi", "exception_intersection", "RoBERTa-large") == 17.5
    assert value("winoventi", "winoventi", "generic_all", "BERT-large") == 89.8
    assert value("winoventi", "winoventi", "n_individual", "BERT-large") == 2176
    assert value("winoventi", "winoventi", "exception_all", "Human") == 90.2
    assert {r["table"] for r in reference_rows("winoventi", metric="generic_all")} == {"Table 6"}


def test_commonsenseqa_bert_large_by_split():
    assert value("commonsenseqa", "commonsenseqa", "accuracy", "BERT-large", "random split (test)") == 55.9
    assert value("commonsenseqa", "commonsenseqa", "accuracy", "BERT-large", "question-concept split (test)") == 63.6
    assert value("commonsenseqa", "commonsenseqa", "accuracy", "GPT", "random split (test)") == 45.5
    assert value("commonsenseqa", "commonsenseqa", "accuracy", "Human") == 88.9


def test_olmpics_tables():
    age = "number_comparison_age_compare_masked"
    assert value("olmpics_zero_shot", age, "zero_shot", "RoBERTa-large") == 98
    assert value("olmpics_zero_shot", age, "zero_shot", "BERT-WWM") == 70
    assert value("olmpics_curve", age, "ws", "RoBERTa-large") == 98
    assert value("olmpics_curve", age, "max", "BERT-base") == 50
    assert value("olmpics_zero_shot", "size_comparison", "zero_shot", "RoBERTa-large") == 84
    assert value("olmpics_curve", "size_comparison", "max", "RoBERTa-large") == 91
    assert value("olmpics_zero_shot", "antonym_synonym_negation", "zero_shot", "RoBERTa-large") == 75
    assert value("olmpics_curve", "compositional_comparison", "max", "BERT-WWM") == 65
    assert value("olmpics_mcqa", "conjunction_filt4", "max", "RoBERTa-large") == 87
    assert value("olmpics_mcqa", "composition_v2", "max", "ESIM-Baseline") == 54
    assert value("olmpics_zero_shot", "coffee_cats_quantifiers", "accuracy", "Majority vote") == 35.5
    # the table each oLMpics probe's numbers come from
    tables = {r["probe"]: r["table"] for s in ("olmpics_zero_shot", "olmpics_curve", "olmpics_mcqa")
              for r in reference_rows(s)}
    assert tables == {"number_comparison_age_compare_masked": "Table 2", "size_comparison": "Table 3",
                      "coffee_cats_quantifiers": "Table 5", "antonym_synonym_negation": "Table 7",
                      "conjunction_filt4": "Table 8", "hypernym_conjunction": "Table 9",
                      "composition_v2": "Table 10", "compositional_comparison": "Table 11"}


def test_olmpics_suite_probe_ids_resolve_to_file_stems():
    by_id = reference_rows("olmpics_zero_shot", "age_comparison", "zero_shot", model="roberta-large")
    assert by_id == reference_rows("olmpics_zero_shot", "number_comparison_age_compare_masked", "zero_shot",
                                   model="RoBERTa-large")
    assert len(by_id) == 1


def test_wordnetqa_tables_7_and_8():
    zero_shot, inoculated = "zero-shot, science-trained", "inoculated (science model fine-tuned on 3k probe examples)"
    assert value("wordnetqa", "definitions", "accuracy", "RoBERTa-large", f"{zero_shot} (test)") == 77.1
    assert value("wordnetqa", "hypernymy", "accuracy", "RoBERTa-large", f"{zero_shot} (test)") == 71.0
    assert value("wordnetqa", "dictionary", "accuracy", "RoBERTa-large", f"{inoculated} (dev)") == 80.0
    assert value("wordnetqa", "hyponymy", "accuracy", "BERT-large", f"{inoculated} (test)") == 88.0
    assert value("wordnetqa", "synonymy", "accuracy", "Choice-Only-RoBERTa",
                 "baseline, trained on the probe (3k examples) (test)") == 40.1
    assert value("wordnetqa", "hypernymy", "accuracy", "Human") == 96
    assert value("wordnetqa", "definitions", "cluster_accuracy", "RoBERTa-large") == 75.0
    assert value("wordnetqa", "hyponymy", "cluster_delta", "RoBERTa-large") == -44.4
    assert {r["table"] for r in reference_rows("wordnetqa", metric="cluster_accuracy")} == {"Table 8"}
    assert {r["table"] for r in reference_rows("wordnetqa", metric="accuracy")} == {"Table 7"}
    assert not reference_rows("wordnetqa", "dictionary", "cluster_accuracy")  # Table 8 is WordNetQA only


# --- every row ---------------------------------------------------------------------------------------------

def test_every_row_is_cited_and_well_formed():
    document = load_references()
    assert set(document["papers"]) == {"tacl2020", "olmpics2020", "csqa2019", "winoventi2021"}
    for row in document["rows"]:
        assert row["table"].strip() and row["metric"] in METRICS and row["section"] in SECTIONS
        assert isinstance(row["value"], (int, float)) and not isinstance(row["value"], bool)
        if row["metric"].startswith("n_"):
            assert isinstance(row["value"], int) and row["value"] > 0
        elif row["metric"] != "cluster_delta":
            assert 0 <= row["value"] <= 100, row
        assert row_citation(row).startswith(document["papers"][row["paper"]]["short"] + ", ")


def test_every_section_has_rows_and_a_large_model():
    for section in SECTIONS:
        models = {r["model"].lower() for r in reference_rows(section)}
        # CommonsenseQA (2019) predates RoBERTa: its strongest model is BERT-large
        assert ("bert-large" if section == "commonsenseqa" else "roberta-large") in models, section


def test_citations():
    assert paper_citation("olmpics2020", "Table 2") == "Talmor et al. 2020, Table 2"
    assert paper_citation("tacl2020") == "Richardson & Sabharwal 2020"
    with pytest.raises(ValueError, match="unknown paper"):
        paper_citation("nope")


def test_loaded_document_is_a_copy():
    load_references()["rows"].clear()
    reference_rows("winoventi")[0]["value"] = -1
    assert value("winoventi", "winoventi", "generic_all", "RoBERTa-large") == 81.3
    assert load_references()["rows"]


def test_unknown_section_or_metric_is_an_error():
    with pytest.raises(ValueError, match="unknown section"):
        reference_rows("olmpics")
    with pytest.raises(ValueError, match="unknown metric"):
        reference_rows("winoventi", metric="generic")


# --- validation ---------------------------------------------------------------------------------------------

GOOD_ROW = {"paper": "p", "table": "Table 1", "section": "winoventi", "probe": "winoventi", "model": "RoBERTa-large",
            "setting": "zero-shot", "metric": "generic_all", "value": 81.3}


def write(tmp_path, rows):
    path = tmp_path / "references.json"
    path.write_text(json.dumps({"papers": {"p": {"title": "T", "authors": "A", "year": 2021}}, "rows": rows}))
    return path


def test_a_good_file_loads_from_a_path(tmp_path):
    document = load_references(write(tmp_path, [GOOD_ROW]))
    assert document["rows"] == [GOOD_ROW]
    assert reference_rows("winoventi", references=document)[0]["value"] == 81.3


@pytest.mark.parametrize("change, message", [
    ({"value": "81.3"}, "row 1: 'value' must be a number"),
    ({"value": True}, "row 1: 'value' must be a number"),
    ({"value": float("nan")}, "row 1: 'value' must be a number"),
    ({"metric": "f1"}, "row 1: unknown metric 'f1'"),
    ({"section": "olmpics"}, "row 1: unknown section"),
    ({"paper": "q"}, "row 1: unknown paper 'q'"),
    ({"table": ""}, "row 1: 'table' must be a non-empty string"),
    ({"colour": "red"}, "row 1: unknown key"),
    ({"model": "RoBERTa-large", "value": 1.0, "setting": "zero-shot"}, "row 1: duplicates row 0"),
])
def test_a_broken_row_names_its_index_and_problem(tmp_path, change, message):
    path = write(tmp_path, [GOOD_ROW, {**GOOD_ROW, **change}])
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        load_references(path)


def test_a_missing_key_is_named(tmp_path):
    row = dict(GOOD_ROW)
    del row["value"]
    with pytest.raises(ValueError, match="row 0: missing key\\(s\\) 'value'"):
        load_references(write(tmp_path, [row]))


def test_bad_json_and_bad_top_level(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_references(path)
    path.write_text("[]")
    with pytest.raises(ValueError, match="top level"):
        load_references(path)


# --- shipped as package data -------------------------------------------------------------------------------

def test_references_json_is_package_data():
    assert references.REFERENCES_FILE.is_file()
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    patterns = config["options.package_data"]["mcqa_probes"].split()
    assert "reports/card/*.json" in patterns
