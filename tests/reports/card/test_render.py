"""The report card page from report.json: tables as data (cells with intervals, columns with their
kind, numbered footnotes), the two Jinja2 templates showing the same tables, the summary first, and
the page fitting a 1280-px window in headless Chromium."""
import configparser
import json
import struct
import zlib
from html.parser import HTMLParser

import pytest

from mcqa_probes.reports.card.references import reference_rows
from mcqa_probes.reports.card.render import render_html, render_markdown
from mcqa_probes.reports.card.tables import (
    column, grid_table, make_table, percent_cell, reference_columns, summary_row, summary_table, table_text, text_cell,
)
from tests.conftest import ROOT


def tiny_png() -> bytes:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes((40, 90, 200)) * 30 for _ in range(20))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 30, 20, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


PROBES = ["definitions", "synonymy", "hypernymy", "hyponymy", "dictionary"]
MODELS = [{"label": "roberta_large_inoculated_probe", "kind": "mcqa", "location": "runs/a/model.tar.gz", "masked_lm_head": None},
          {"label": "minilm_synonymy_one_epoch", "kind": "mcqa", "location": "runs/b/model.tar.gz", "masked_lm_head": None},
          {"label": "minilm", "kind": "masked_lm", "location": "minilm",
           "masked_lm_head": {"trained": False, "missing_count": 6}}]


def results(shift):
    return {p: {"instance_accuracy": 0.4 + shift + i / 50, "cluster_accuracy": 0.2 + shift,
                "intervals": {"instance_accuracy": [0.35 + shift + i / 50, 0.45 + shift + i / 50],
                              "cluster_accuracy": [0.1 + shift, 0.3 + shift]}} for i, p in enumerate(PROBES)}


def wordnetqa_like(out):
    """A section as the card writes it: three models (one absent), accuracy rows with intervals,
    a control column and the paper's columns (RoBERTa-large, BERT-large, ESIM, Choice-Only, humans)."""
    section = {"id": "wordnetqa", "title": "WordNetQA / DictionaryQA (Richardson & Sabharwal 2020)",
               "models": {MODELS[0]["label"]: {"status": "done", "results": results(0.3), "reading": "Reads well.",
                                               "notes": []},
                          MODELS[1]["label"]: {"status": "done", "results": results(0.0), "reading": "Reads less well.",
                                               "notes": ["a note"], "reused": True},
                          "minilm": {"status": "absent", "reason": "minilm is a masked LM"}},
               "figures": [{"path": "figures/heat.png", "caption": "a heat map"}], "shared": {}}
    (out / "figures").mkdir(parents=True, exist_ok=True)
    (out / "figures" / "heat.png").write_bytes(tiny_png())
    keep = lambda r: (r["table"] == "Table 8" and r["model"] in ("RoBERTa-large", "BERT-large")) or (  # noqa: E731
        (r["setting"] or "").endswith("(test)") and r["model"] in ("RoBERTa-large", "BERT-large", "ESIM-GloVe",
                                                                    "Choice-Only-GloVe", "Human"))
    specs = []
    for probe in PROBES:
        specs += [(f"{probe}: accuracy %", lambda r, p=probe: percent_cell(r[p]["instance_accuracy"],
                                                                          r[p]["intervals"]["instance_accuracy"]),
                   (probe, "accuracy")),
                  (f"{probe}: strict cluster accuracy %", lambda r, p=probe: percent_cell(r[p]["cluster_accuracy"],
                                                                                         r[p]["intervals"]["cluster_accuracy"]),
                   (probe, "cluster_accuracy"))]
    control = (column("Choice-Only-GloVe (control)", "control", footnote="Choice-Only-GloVe, trained here."),
               lambda label: percent_cell(0.31) if "accuracy %" in label and "cluster" not in label else text_cell())
    table = grid_table("Instance and strict cluster accuracy", specs, section, MODELS, [control],
                       reference_columns("wordnetqa", PROBES, keep), ["Accuracy % with its 95% interval."])
    section["tables"] = [table, make_table("A | table with a pipe", [column("k", "label"), column("value", "model")],
                                           [[text_cell("1"), percent_cell(0.5)]])]
    return section


def report_in(out):
    section = wordnetqa_like(out)
    rows = [summary_row(f"WordNetQA: {p}", {m["label"]: percent_cell(section["models"][m["label"]]["results"][p]["instance_accuracy"],
                                                                      section["models"][m["label"]]["results"][p]["intervals"]["instance_accuracy"])
                                            for m in MODELS[:2]},
                        dict(percent_cell(0.31), text="31.0 (Choice-Only-GloVe)"), percent_cell(0.2),
                        {"paper": "tacl2020", "table": "Table 7", "model": "RoBERTa-large", "value": 89.3,
                         "setting": "inoculated (test)"}) for p in PROBES]
    report = {"title": "Probe report card: test", "created": "2026-01-01 00:00 UTC", "command": "allennlp probe-report x",
              "device": "cpu, fp32", "models": MODELS, "summary": summary_table(rows, MODELS, ["A summary note."]),
              "sections": [section], "commands": ["allennlp probe-report x", "bin/probe_report p.jsonl --out r"],
              "versions": {"mcqa_probes": "0.1.0", "jinja2": "3.1.6"}, "data": {"probes/hypernymy/test.jsonl": "ab" * 32}}
    return json.loads(json.dumps(report))  # what report.json holds


class Tables(HTMLParser):
    """Every <table> of a page as rows of cell texts, and the attributes of its header cells."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.headers, self.cell = [], [], None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []
            if tag == "th":
                self.headers.append(dict(attrs))

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.tables[-1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def markdown_tables(text):
    """Every table of a markdown text as rows of cell texts (the rule line dropped)."""
    tables, current = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            if current is None:
                current = []
                tables.append(current)
            if set(line) <= set("|-: "):
                continue
            cells = line.strip()[1:-1].replace("\\|", "\0").split(" | ")
            current.append([c.strip().replace("\0", "|") for c in cells])
        else:
            current = None
    return tables


def test_cells_columns_and_footnotes():
    cell = percent_cell(0.48625, [0.441, 0.5304])
    assert cell == {"text": "48.6 [44.1, 53.0]", "value": pytest.approx(48.625), "low": pytest.approx(44.1),
                    "high": pytest.approx(53.04), "ci": "[44.1, 53.0]"}
    assert percent_cell(0.5) == {"text": "50.0", "value": 50.0} and percent_cell(None)["text"] == "–"
    table = make_table("t", [column("", "label"), column("a", "reference", footnote="first"),
                             column("b", "reference", footnote="second"), column("c", "control", footnote="first")],
                       [[text_cell("x"), text_cell("1"), text_cell("2"), text_cell("3")]])
    assert [c["mark"] for c in table["columns"]] == ["", "¹", "²", "¹"]  # one mark per distinct text
    assert table["footnotes"] == [{"mark": "¹", "text": "first"}, {"mark": "²", "text": "second"}]
    assert table["columns"][1]["tooltip"] == "first" and "footnote" not in table["columns"][1]
    assert table_text(table) == [["", "a¹", "b²", "c¹"], ["x", "1", "2", "3"]]
    with pytest.raises(ValueError, match="a row of 1 cells for 4 columns"):
        make_table("t", table["columns"], [[text_cell("x")]])


def test_compact_reference_columns():
    """One short column per (paper, model); the paper, tables and settings go to the footnote."""
    keep = lambda r: r["model"] in ("RoBERTa-large", "BERT-large") and "inoculated" in r["setting"]  # noqa: E731
    columns = reference_columns("wordnetqa", ["hypernymy"], keep)
    assert [c["column"]["header"] for c in columns] == ["BERT-large (paper)", "RoBERTa-large (paper)"]
    roberta = columns[1]
    assert roberta["column"]["kind"] == "reference"
    assert roberta["column"]["footnote"] == (
        "Richardson & Sabharwal 2020: RoBERTa-large; Table 7: inoculated (science model fine-tuned on 3k probe "
        "examples) (dev); Table 8: inoculated (dev); not shown: inoculated (science model fine-tuned on 3k probe "
        "examples) (test): 87.7.")  # the test row repeats the dev row's (probe, metric): its number is named
    dev = reference_rows("wordnetqa", "hypernymy", "accuracy", model="RoBERTa-large")
    assert roberta["values"] == {("hypernymy", "accuracy"): next(r["value"] for r in dev if "inoculated" in r["setting"]),
                                 ("hypernymy", "cluster_accuracy"): 54.0, ("hypernymy", "cluster_delta"): -23.2}
    single = reference_columns("winoventi", None, lambda r: r["model"] == "Human")
    assert single[0]["column"]["footnote"] == "Do & Pavlick 2021, Table 6: Human, human annotators."


def test_html_and_markdown_show_report_json_tables_identically(tmp_path):
    report = report_in(tmp_path)
    html, markdown = render_html(report, tmp_path), render_markdown(report)
    expected = [table_text(report["summary"])] + [table_text(t) for t in report["sections"][0]["tables"]]
    parser = Tables()
    parser.feed(html)
    assert parser.tables[: len(expected)] == expected
    assert markdown_tables(markdown)[: len(expected)] == expected
    assert "| A \\| table" not in markdown and "|---|---:|" in markdown
    # footnotes and notes in both; the tooltip on the header in html
    for table in [report["summary"], *report["sections"][0]["tables"]]:
        for footnote in table["footnotes"]:
            assert f"- {footnote['mark']} {footnote['text']}" in markdown
            assert f'<span class="mark">{footnote["mark"]}</span> {footnote["text"].replace("&", "&amp;")}' in html
    titles = [h.get("title") for h in parser.headers]
    assert any(t and t.startswith("Richardson & Sabharwal 2020: RoBERTa-large") for t in titles)
    # intervals set apart in html, the figure embedded, the readings, the absent model and its reason
    assert '48.0 <span class="ci">[43.0, 53.0]</span>' in html and "48.0 [43.0, 53.0]" in markdown
    assert 'src="data:image/png;base64,' in html and "![a heat map](figures/heat.png)" in markdown
    for text in ("Reads well.", "not run: minilm is a masked LM", "(reused"):
        assert text in html and text in markdown
    # the section's BERT-large, RoBERTa-large, ESIM, Choice-Only, Human, and the summary's "best in paper"
    assert html.count('<th class="reference"') == 6


def test_summary_comes_first(tmp_path):
    report = report_in(tmp_path)
    html, markdown = render_html(report, tmp_path), render_markdown(report)
    for text, summary, section in ((html, '<h2 id="summary">', '<h2 id="wordnetqa">'), (markdown, "## Summary", "## WordNetQA")):
        assert text.index(summary) < text.index(section)
    parser = Tables()
    parser.feed(html)
    assert parser.tables[0][0] == ["probe", "roberta_large_inoculated_probe", "minilm_synonymy_one_epoch", "control",
                                   "chance", "best in paper"]
    assert parser.tables[0][1] == ["WordNetQA: definitions", "70.0 [65.0, 75.0]", "40.0 [35.0, 45.0]",
                                   "31.0 (Choice-Only-GloVe)", "20.0", "89.3 RoBERTa-large¹"]
    assert report["summary"]["footnotes"] == [{"mark": "¹", "text": "Richardson & Sabharwal 2020, Table 7: RoBERTa-large, "
                                                                     "inoculated (test)"}]


def test_page_fits_1280_px_in_chromium(tmp_path):
    """Three models with long names, five probes and five reference columns: no table wider than the
    window, no broken image."""
    from mcqa_probes.reports.browser import inspect_page

    report = report_in(tmp_path)
    (tmp_path / "report.html").write_text(render_html(report, tmp_path))
    page = inspect_page(tmp_path / "report.html", tmp_path / "report.png", width=1280)
    assert page["broken_images"] == [] and page["images"] == 1
    assert page["viewport_width"] == 1280 and page["page_width"] <= 1280
    assert len(page["table_widths"]) == 5 and max(page["table_widths"]) <= 1280, page["table_widths"]
    assert page["tables"][1] == table_text(report["sections"][0]["tables"][0])


def test_templates_are_package_data():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    assert "reports/card/templates/*.j2" in config["options.package_data"]["mcqa_probes"].split()
    templates = ROOT / "mcqa_probes" / "reports" / "card" / "templates"
    assert sorted(p.name for p in templates.glob("*.j2")) == ["items.html.j2", "report.html.j2", "report.md.j2"]


def test_each_model_kind_is_named_on_the_page():
    from mcqa_probes.reports.card.render import model_kind

    assert model_kind(MODELS[0]) == "multiple-choice QA archive"
    assert model_kind(MODELS[2]) == "masked LM"
    assert model_kind({"label": "smollm2", "kind": "causal_lm", "score": "pmi"}) == "causal LM, zero-shot, score pmi"
