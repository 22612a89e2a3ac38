"""The report card end to end, as a user runs it (``allennlp probe-report`` in a subprocess) on
fixtures: a tiny transformer_mcqa archive and the offline MiniLM as a masked LM. Its numbers must
equal those of the commands it summarizes, every section must be present or explained, every
accuracy with per-question data must carry its interval, a re-run must reuse the finished sections,
and the page must render in headless Chromium at 1280 px with its tables holding report.json's cells
and none wider than the window."""
import json
import re
import shutil
import subprocess
import sys

import pytest

from tests.conftest import DATA, FIXTURES, ROOT
from tests.test_cli import run

OLMPICS = FIXTURES / "olmpics"
WINOVENTI = FIXTURES / "winoventi" / "winoventi_small.tsv"
REGISTRY = FIXTURES / "winoventi" / "registry_small.tsv"
CSQA = FIXTURES / "csqa" / "dev_original.jsonl"
ENV = {"GLOVE_FILE": str(FIXTURES / "glove" / "tiny_glove.txt")}


@pytest.fixture(scope="module")
def archive(tmp_path_factory, tiny_bert):
    out = tmp_path_factory.mktemp("card_run") / "tiny_mcqa"
    result = run(["train", "training_config/roberta_probe.jsonnet", "-s", str(out)],
                 env={"MODEL_NAME": tiny_bert, "EPOCHS": "2", "BATCH_SIZE": "4", "LR": "1e-3",
                      "TRAIN_DATA": str(DATA / "wordnetqa_hypernymy.jsonl"), "DEV_DATA": str(DATA / "dictionary_qa.jsonl")})
    assert result.returncode == 0, result.stderr[-3000:]
    return out / "model.tar.gz"


@pytest.fixture(scope="module")
def probes(tmp_path_factory):
    root = tmp_path_factory.mktemp("probes")
    for probe, source in (("hypernymy", "wordnetqa_hypernymy.jsonl"), ("dictionary", "dictionary_qa.jsonl")):
        (root / probe).mkdir()
        for split in ("train", "dev", "test"):
            shutil.copyfile(DATA / source, root / probe / f"{split}.jsonl")
    return root


def card_command(archive, probes, out):
    return ["probe-report", str(archive), "minilm", "--out", str(out), "--probes-dir", str(probes),
            "--olmpics-dir", str(OLMPICS), "--winoventi-tsv", str(WINOVENTI), "--winoventi-registry", str(REGISTRY),
            "--csqa-dev", str(CSQA), "--max-questions", "0", "--control-epochs", "1", "--cuda-device", "-1"]


@pytest.fixture(scope="module")
def card(archive, probes, tmp_path_factory):
    out = tmp_path_factory.mktemp("card")
    result = run(card_command(archive, probes, out), env=ENV)
    assert result.returncode == 0, result.stderr[-4000:]
    report = json.loads((out / "report.json").read_text())
    return {"out": out, "report": report, "stdout": result.stdout, "stderr": result.stderr}


def section(report, name):
    return next(s for s in report["sections"] if s["id"] == name)


def test_every_section_present_or_explained(card):
    report = card["report"]
    assert [s["id"] for s in report["sections"]] == ["wordnetqa", "olmpics", "winoventi", "commonsenseqa",
                                                      "robust_knowledge", "comparison"]
    status = {(s["id"], label): entry["status"] for s in report["sections"] for label, entry in s["models"].items()}
    assert status == {
        ("wordnetqa", "tiny_mcqa"): "done", ("wordnetqa", "minilm"): "absent",
        ("olmpics", "tiny_mcqa"): "done", ("olmpics", "minilm"): "done",
        ("winoventi", "tiny_mcqa"): "absent", ("winoventi", "minilm"): "done",
        ("commonsenseqa", "tiny_mcqa"): "done", ("commonsenseqa", "minilm"): "absent",
        ("robust_knowledge", "tiny_mcqa"): "absent", ("robust_knowledge", "minilm"): "absent",
        ("comparison", "tiny_mcqa"): "done", ("comparison", "minilm"): "done",
    }
    # the two models answered no question in common (an archive and a masked LM): the archive is compared with
    # its Choice-Only-GloVe control only (their item records on the WordNetQA questions)
    comparison = section(report, "comparison")
    pairs = {(c["model_a"], c["model_b"], c["section"]) for c in comparison["shared"]["compare"]["comparisons"]}
    assert pairs == {("tiny_mcqa", "Choice-Only-GloVe", "wordnetqa")}
    assert comparison["tables"][0]["title"] == "Paired comparison of the models (the same questions)"
    for s in report["sections"]:
        for label, entry in s["models"].items():
            if entry["status"] == "absent":
                assert "masked LM" in entry["reason"] or "multiple-choice QA archive" in entry["reason"]
                assert f"{label}: not run: {entry['reason']}" in card["stdout"]
            else:
                assert entry["reading"] and entry["commands"] and entry["data"]
    assert "MC-QA probe" in section(report, "olmpics")["models"]["tiny_mcqa"]["reading"]


def test_the_report_names_an_archives_transformer(card, tiny_bert):
    models = {entry["label"]: entry for entry in card["report"]["models"]}
    assert (models["tiny_mcqa"]["model_type"], models["tiny_mcqa"]["transformer"]) == ("transformer_mcqa", tiny_bert)
    assert models["minilm"]["transformer"] is None                              # a masked LM: no archive


def test_wordnetqa_numbers_equal_predict_and_probe_report(card, archive, probes, tmp_path):
    from mcqa_probes.reports.probe_report import probe_report

    results = section(card["report"], "wordnetqa")["models"]["tiny_mcqa"]["results"]
    assert sorted(results) == ["dictionary", "hypernymy"]
    for probe in results:
        predictions = tmp_path / f"{probe}.jsonl"
        result = run(["predict", str(archive), str(probes / probe / "test.jsonl"), "--predictor", "mcqa", "--silent",
                      "--output-file", str(predictions)])
        assert result.returncode == 0, result.stderr[-3000:]
        expected = probe_report(str(predictions), str(tmp_path / probe))
        for key in ("questions", "clusters", "instance_accuracy", "cluster_accuracy", "cluster_delta", "breakdown"):
            assert results[probe][key] == expected[key], (probe, key)
        intervals = expected["intervals"]  # bin/probe_report's bootstrap over semantic clusters
        assert results[probe]["intervals"] == {
            "instance_accuracy": [intervals["accuracy_low"], intervals["accuracy_high"]],
            "cluster_accuracy": [intervals["cluster_accuracy_low"], intervals["cluster_accuracy_high"]]}
    # the control: Choice-Only-GloVe computed on each probe's train
    control = section(card["report"], "wordnetqa")["shared"]["choice_only"]
    assert sorted(control) == ["dictionary", "hypernymy"] and all(c["source"] == "computed" for c in control.values())


def test_olmpics_winoventi_csqa_numbers_equal_their_commands(card, archive, tmp_path):
    from mcqa_probes.data.winoventi import read_registry, read_winoventi
    from mcqa_probes.experiments.olmpics.zero_shot import zero_shot_evaluate
    from mcqa_probes.experiments.winoventi.evaluate import evaluate_model

    report = card["report"]
    zero_shot = section(report, "olmpics")["models"]["minilm"]["results"]
    assert "age_comparison" in zero_shot
    for probe, result in zero_shot.items():
        expected = zero_shot_evaluate("minilm", result["file"], multi_token="skip", cuda_device=-1)
        assert (result["accuracy"], result["count"]) == (expected["accuracy"], expected["count"])
    row = evaluate_model("minilm", read_winoventi(WINOVENTI), read_registry(REGISTRY), cuda_device=-1)
    card_row = section(report, "winoventi")["models"]["minilm"]["results"]
    for subset in ("all", "individual", "intersection"):
        numbers = {k: v for k, v in card_row[subset].items() if k != "intervals"}
        assert numbers == pytest.approx(row[subset], nan_ok=True)
    # CommonsenseQA: allennlp evaluate on the file and on bin/csqa_sanity's output
    sanity = tmp_path / "sanity.jsonl"
    subprocess.run([sys.executable, str(ROOT / "bin" / "csqa_sanity"), str(CSQA), str(sanity)], check=True,
                   capture_output=True)
    csqa = section(report, "commonsenseqa")["models"]["tiny_mcqa"]["results"]
    for data, key in ((CSQA, "accuracy"), (sanity, "sanity_accuracy")):
        metrics = tmp_path / f"{key}.json"
        result = run(["evaluate", str(archive), str(data), "--output-file", str(metrics)])
        assert result.returncode == 0, result.stderr[-3000:]
        assert csqa[key] == pytest.approx(json.loads(metrics.read_text())["accuracy"])


def test_untrained_head_and_paper_rows_on_the_page(card):
    from mcqa_probes.reports.card.references import reference_rows

    report = card["report"]
    minilm = next(m for m in report["models"] if m["label"] == "minilm")
    assert minilm["masked_lm_head"]["trained"] is False and minilm["masked_lm_head"]["missing_count"] > 0
    table = section(report, "winoventi")["tables"][0]
    assert table["columns"][1] == dict(table["columns"][1], header="minilm †", kind="model", model="minilm")
    assert "untrained" in section(report, "winoventi")["models"]["minilm"]["reading"]
    roberta = next(i for i, c in enumerate(table["columns"]) if c["header"] == "RoBERTa-large (paper)")
    assert table["columns"][roberta]["kind"] == "reference"
    expected = {r["metric"]: r["value"] for r in reference_rows("winoventi", model="RoBERTa-large")}
    assert table["rows"][0][roberta]["text"] == f"{expected['generic_all']:.1f}"
    assert table["rows"][1][roberta]["text"] == f"{expected['exception_all']:.1f}"
    footnote = next(f["text"] for f in table["footnotes"] if f["mark"] == table["columns"][roberta]["mark"])
    assert footnote.startswith("Do & Pavlick 2021, Table 6: RoBERTa-large") and table["columns"][roberta]["tooltip"] == footnote


def test_compact_headers_with_footnotes(card):
    """No header of the page is longer than 30 characters; every reference column has a numbered mark
    whose footnote names the paper and table, and the same text as tooltip."""
    from mcqa_probes.reports.card.tables import superscript

    report = card["report"]
    tables = [report["summary"]] + [t for s in report["sections"] for t in s["tables"]]
    kinds = set()
    for table in tables:
        for c in table["columns"]:
            kinds.add(c["kind"])
            assert len(c["header"]) <= 30, c["header"]
            if c["kind"] == "reference" and table is not report["summary"]:
                note = next(f["text"] for f in table["footnotes"] if f["mark"] == c["mark"])
                assert c["header"].endswith(" (paper)") and re.match(r"[^,:]+ (19|20)\d\d[,:]", note), note
                assert re.search(r"Tables? \d|text \(", note), note  # the table(s), or the part of the text
                assert c["tooltip"] == note
        assert [f["mark"] for f in table["footnotes"]] == [superscript(i + 1) for i in range(len(table["footnotes"]))]
    assert kinds == {"label", "model", "control", "reference"}


def test_summary_first_with_models_controls_chance_and_best(card):
    report = card["report"]
    summary = report["summary"]
    assert [c["header"] for c in summary["columns"]] == ["probe", "tiny_mcqa", "minilm †", "control", "chance",
                                                         "best in paper"]
    rows = {row[0]["text"]: row for row in summary["rows"]}
    assert list(rows)[:2] == ["WordNetQA: hypernymy", "WordNetQA: dictionary"]
    assert {"oLMpics: age comparison (zero-shot)", "WinoVenti: exception prompts", "CommonsenseQA: dev"} <= set(rows)
    hypernymy = rows["WordNetQA: hypernymy"]
    results = section(report, "wordnetqa")["models"]["tiny_mcqa"]["results"]["hypernymy"]
    assert hypernymy[1]["value"] == pytest.approx(100 * results["instance_accuracy"])
    control = section(report, "wordnetqa")["shared"]["choice_only"]["hypernymy"]["test"]
    assert hypernymy[3]["text"] == f"{100 * control:.1f} (Choice-Only-GloVe)"
    assert hypernymy[4]["text"] == "20.0"  # five choices
    assert hypernymy[5]["text"].startswith("87.7 RoBERTa-large")  # Table 7, inoculated, test
    markdown, html = (card["out"] / "report.md").read_text(), (card["out"] / "report.html").read_text()
    assert markdown.index("## Summary") < min(markdown.index(f"## {s['title']}") for s in report["sections"])
    assert html.index('<h2 id="summary">') < min(html.index(f'<h2 id="{s["id"]}">') for s in report["sections"])


def test_intervals_on_every_accuracy_with_per_question_data(card):
    """Model cells of accuracies show "x [low, high]" with low <= x <= high (report.json keeps the
    numbers); controls and the papers' numbers have none."""
    report = card["report"]
    tables = [report["summary"]] + [t for s in report["sections"] for t in s["tables"]]
    with_interval = 0
    for table in tables:
        for row in table["rows"]:
            for c, cell in zip(table["columns"], row):
                if "low" in cell:
                    assert c["kind"] == "model" and cell["low"] <= cell["value"] <= cell["high"]
                    assert cell["text"] == f"{cell['value']:.1f} [{cell['low']:.1f}, {cell['high']:.1f}]"
                    with_interval += 1
                elif c["kind"] == "model" and "%" in row[0]["text"] and "Δ" not in row[0]["text"]:
                    assert cell["text"] == "–", (table["title"], row[0]["text"])
    assert with_interval >= 20
    hypernymy = section(report, "wordnetqa")["models"]["tiny_mcqa"]["results"]["hypernymy"]
    for key in ("instance_accuracy", "cluster_accuracy"):
        low, high = hypernymy["intervals"][key]
        assert 0 <= low <= hypernymy[key] <= high <= 1
    csqa = section(report, "commonsenseqa")["models"]["tiny_mcqa"]["results"]
    assert csqa["clustered"] == csqa["count"]  # clusters: question_concept
    assert set(csqa["intervals"]) == {"accuracy", "sanity_accuracy"}
    winoventi = section(report, "winoventi")["models"]["minilm"]["results"]
    assert set(winoventi["all"]["intervals"]) == {"generic", "exception"}
    assert report["bootstrap"]["samples"] == 1000 and report["bootstrap"]["level"] == 0.95


def test_page_renders_in_chromium_with_the_json_tables_and_fits_1280_px(card):
    from mcqa_probes.reports.browser import inspect_page
    from mcqa_probes.reports.card.tables import table_text

    out, report = card["out"], card["report"]
    page = inspect_page(out / "report.html", out / "report.png", width=1280)
    figures = sum(len(s["figures"]) for s in report["sections"])
    assert figures >= 1 and page["images"] == figures and page["broken_images"] == []
    expected = [table_text(report["summary"])] + [table_text(t) for s in report["sections"] for t in s["tables"]]
    shown = page["tables"][: len(expected)]
    assert shown == expected
    assert page["viewport_width"] == 1280 and page["page_width"] <= 1280
    assert page["table_widths"] and max(page["table_widths"]) <= 1280, page["table_widths"]
    assert (out / "report.png").stat().st_size > 10_000
    markdown = (out / "report.md").read_text()
    assert all(f"| {' | '.join(row)} |" in markdown for table in expected for row in table)


def test_second_run_reuses_finished_sections(card, archive, probes):
    out = card["out"]
    stored = {p: p.read_bytes() for p in (out / "sections").rglob("*.json")}
    result = run(card_command(archive, probes, out), env=ENV)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads((out / "report.json").read_text())
    done = [(s["id"], label) for s in report["sections"] for label, e in s["models"].items() if e["status"] == "done"]
    assert done and all(section(report, sid)["models"][label].get("reused") for sid, label in done)
    assert ": running" not in result.stderr and result.stderr.count(": reused") == len(done)
    assert {p: p.read_bytes() for p in (out / "sections").rglob("*.json")} == stored
    for s in report["sections"]:  # same numbers
        assert s["tables"] == section(card["report"], s["id"])["tables"]


def test_progress_names_model_section_and_probe_on_stderr(card):
    """Issue 30.2: every section's questions on a progress line (one line a minute at most, and one at
    the end, when stderr is not a terminal) naming model / section / probe; none on stdout."""
    stderr = card["stderr"]
    for name in ("tiny_mcqa / wordnetqa / hypernymy", "tiny_mcqa / wordnetqa / dictionary", "tiny_mcqa / olmpics / \\S+",
                 "minilm / olmpics / \\S+", "minilm / winoventi / prompts", "tiny_mcqa / commonsenseqa / dev",
                 "tiny_mcqa / commonsenseqa / SANITY", "wordnetqa / Choice-Only-GloVe control"):
        assert re.search(rf"^{name}: \d+/\d+ questions, ", stderr, re.M), (name, stderr[-3000:])
    assert " questions/s" not in card["stdout"]


def test_quiet_card_writes_no_progress(archive, probes, tmp_path):
    result = run(card_command(archive, probes, tmp_path) + ["--quiet"], env=ENV)
    assert result.returncode == 0, result.stderr[-3000:]
    assert " questions, " not in result.stderr and ": running" not in result.stderr
    assert "written:" in result.stdout
