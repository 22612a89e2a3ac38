"""The section interface of the report card: the card runs whatever sections are registered (a test
registers one and finds it on the page), asks for the model facts a section names and nothing else,
reuses a section by its cache key, and every section's tables have short headers."""
import json

import pytest
from allennlp.common import Registrable

from mcqa_probes.experiments.report_card import models as card_models
from mcqa_probes.experiments.report_card.card import build_report_card
from mcqa_probes.experiments.report_card.inputs import CardInputs, bootstrap_intervals, done
from mcqa_probes.experiments.report_card.section import ReportSection, registered_sections
from mcqa_probes.reports.card.tables import grid_table, interval_of, percent_cell, summary_row, table_text

RUNS = []
KEY = {"version": 1}
ANSWERS = [(True, "cat"), (True, "cat"), (False, "dog"), (True, "dog"), (True, None), (False, None)]


@pytest.fixture
def dummy(monkeypatch):
    """A section registered the way a new section file registers itself."""
    monkeypatch.setitem(card_models.MODEL_FACTS, "vocabulary_size", lambda model: {"of": model.label, "size": 42})
    RUNS.clear()

    @ReportSection.register("dummy_probe")
    class DummySection(ReportSection):
        title = "Dummy probe (a test section)"
        order = 5
        model_facts = ("vocabulary_size",)

        def why_absent(self, model, inputs):
            return None if model.label == "minilm" else f"{model.label}: only minilm"

        def key_parts(self, model, inputs):
            return dict(KEY)

        def run(self, model, inputs, context):
            RUNS.append(dict(context.facts))
            accuracy = sum(c for c, _ in ANSWERS) / len(ANSWERS)
            return done({"accuracy": accuracy, "intervals": {"accuracy": bootstrap_intervals(ANSWERS)["accuracy"]}},
                        f"{model.label} answers the dummy probe.", ["echo dummy"], {})

        def tables(self, section, models):
            spec = [("dummy: accuracy %", lambda r: percent_cell(r["accuracy"], interval_of(r, "accuracy")), None)]
            table = grid_table("Dummy table", spec, section, models)
            return [table] if table else []

        def summary(self, section, models):
            result = section["models"]["minilm"]["results"]
            return [summary_row("Dummy: probe", {"minilm": percent_cell(result["accuracy"], interval_of(result, "accuracy"))},
                                None, percent_cell(0.5), None)]

    yield DummySection
    Registrable._registry[ReportSection].pop("dummy_probe")


def test_sections_are_registered_in_page_order():
    names = [name for name, _ in registered_sections()]
    assert names == ["wordnetqa", "olmpics", "winoventi", "commonsenseqa", "robust_knowledge", "comparison"]
    assert all(isinstance(section, ReportSection) and section.title for _, section in registered_sections())


def test_a_registered_section_is_on_the_page(dummy, tmp_path):
    lines = []
    report = build_report_card(["minilm"], tmp_path, CardInputs(probes_dir=None, cuda_device=-1), command="test",
                               progress=lines.append)
    assert [s["id"] for s in report["sections"]] == ["dummy_probe", "wordnetqa", "olmpics", "winoventi", "commonsenseqa",
                                                      "robust_knowledge", "comparison"]
    entry = report["sections"][0]["models"]["minilm"]
    assert entry["status"] == "done" and entry["reading"] == "minilm answers the dummy probe."
    # the page's four sections are absent for a masked LM without data, each saying why
    assert all(s["models"]["minilm"]["status"] == "absent" and s["models"]["minilm"]["reason"] for s in report["sections"][1:])
    # the fact the section named, and only that: the masked-LM head (olmpics / winoventi) was not loaded
    assert RUNS == [{"vocabulary_size": {"of": "minilm", "size": 42}}]
    assert report["models"][0]["vocabulary_size"] == {"of": "minilm", "size": 42}
    assert report["models"][0]["masked_lm_head"] is None
    assert not (tmp_path / "sections" / "minilm" / "masked_lm_head.json").exists()
    # its table, its summary row (first: the summary lists sections in page order), its commands
    table = report["sections"][0]["tables"][0]
    assert table_text(table) == [["", "minilm"], ["dummy: accuracy %", table["rows"][0][1]["text"]]]
    cell = table["rows"][0][1]
    assert cell["value"] == pytest.approx(100 * 4 / 6) and cell["low"] <= cell["value"] <= cell["high"]
    assert report["summary"]["rows"][0][0]["text"] == "Dummy: probe" and report["summary"]["rows"][0][1] == cell
    assert "echo dummy" in report["commands"]
    html, markdown = (tmp_path / "report.html").read_text(), (tmp_path / "report.md").read_text()
    for text in ("Dummy probe (a test section)", "minilm answers the dummy probe.", "Dummy table"):
        assert text in html and text in markdown
    assert f"| dummy: accuracy % | {cell['text']} |" in markdown
    assert f'{cell["value"]:.1f} <span class="ci">{cell["ci"]}</span>' in html
    assert json.loads((tmp_path / "report.json").read_text()) == report
    assert "Not run for any model: WordNetQA" in report["summary"]["notes"][1]


def test_a_section_is_reused_until_its_key_changes(dummy, tmp_path, monkeypatch):
    inputs = CardInputs(probes_dir=None, cuda_device=-1)
    build_report_card(["minilm"], tmp_path, inputs, progress=lambda line: None)
    lines = []
    report = build_report_card(["minilm"], tmp_path, inputs, progress=lines.append)
    assert len(RUNS) == 1 and report["sections"][0]["models"]["minilm"]["reused"] is True
    assert any(line.startswith("minilm / dummy_probe: reused") for line in lines)
    monkeypatch.setitem(KEY, "version", 2)
    report = build_report_card(["minilm"], tmp_path, inputs, progress=lambda line: None)
    assert len(RUNS) == 2 and "reused" not in report["sections"][0]["models"]["minilm"]


def test_bootstrap_resamples_clusters():
    """The same answers are less certain when they come in clusters of one concept."""
    clustered = [(i < 20, f"concept{i // 10}") for i in range(40)]  # two clusters right, two wrong
    alone = [(right, None) for right, _ in clustered]  # every question its own cluster
    wide, narrow = bootstrap_intervals(clustered)["accuracy"], bootstrap_intervals(alone)["accuracy"]
    assert wide[0] <= 0.5 <= wide[1] and narrow[0] <= 0.5 <= narrow[1]
    assert wide[1] - wide[0] > 1.5 * (narrow[1] - narrow[0])
    assert bootstrap_intervals([(True, None)] * 5) == {"accuracy": [1.0, 1.0], "cluster_accuracy": [1.0, 1.0]}
    assert bootstrap_intervals([]) == {}


def fake_results():
    from mcqa_probes.experiments.report_card.inputs import WORDNETQA_PROBES

    wordnetqa = {p: {"instance_accuracy": 0.5, "cluster_accuracy": 0.3, "cluster_delta": -20.0, "questions": 10,
                     "chance": 0.2, "intervals": {"instance_accuracy": [0.4, 0.6], "cluster_accuracy": [0.2, 0.4]}}
                 for p in WORDNETQA_PROBES}
    olmpics = {"age_comparison": {"title": "AGE COMPARISON", "setup": "mc_mlm", "accuracy": 0.5, "count": 10, "chance": 0.5,
                                  "file": "x/number_comparison_age_compare_masked_dev.jsonl", "intervals": {"accuracy": [0.2, 0.8]}}}
    subset = {"generic": 80.0, "exception": 20.0, "n": 5, "intervals": {"generic": [60.0, 100.0], "exception": [0.0, 40.0]}}
    winoventi = {"all": subset, "individual": subset, "intersection": subset}
    csqa = {"accuracy": 0.6, "sanity_accuracy": 0.9, "count": 10, "chance": 0.2,
            "intervals": {"accuracy": [0.3, 0.9], "sanity_accuracy": [0.7, 1.0]}}
    return {"wordnetqa": wordnetqa, "olmpics": olmpics, "winoventi": winoventi, "commonsenseqa": csqa}


@pytest.mark.parametrize("name", ["wordnetqa", "olmpics", "winoventi", "commonsenseqa"])
def test_every_section_has_short_headers_footnotes_and_intervals(name):
    """With every probe of a section answered, its tables' headers stay under 30 characters (the
    paper, table and setting go to the footnotes) and each accuracy shows its interval."""
    section_obj = dict(registered_sections())[name]
    models = [{"label": "model_under_test", "kind": "mcqa", "location": "m", "masked_lm_head": None}]
    section = {"id": name, "models": {"model_under_test": {"status": "done", "results": fake_results()[name]}},
               "shared": {"probes": list(fake_results()["wordnetqa"]), "split": "test",
                          "choice_only": {"hypernymy": {"dev": 0.4, "test": 0.41, "source": "computed", "train_questions": 100}}}}
    tables = section_obj.tables(section, models)
    assert tables
    for table in tables:
        for column in table["columns"]:
            assert len(column["header"]) <= 30, column["header"]
            if column["kind"] in ("reference", "control") and column.get("mark"):
                assert any(f["mark"] == column["mark"] for f in table["footnotes"]) and column["tooltip"]
        assert any(c["kind"] == "reference" for c in table["columns"])
        cells = [cell for row in table["rows"] for cell in row if "low" in cell]
        assert cells and all(cell["low"] <= cell["value"] <= cell["high"] for cell in cells)
    rows = section_obj.summary(section, models)
    assert rows and all(row["cells"]["model_under_test"].get("ci") for row in rows)
    assert all(row["best"] is not None for row in rows)
