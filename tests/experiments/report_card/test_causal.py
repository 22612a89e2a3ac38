"""The report card of a causal LM (kind ``causal_lm``), on a tiny random GPT-2 next to a tiny
transformer_mcqa archive on one page: every section runs zero-shot for the causal LM, its numbers
equal those of the ``causal_lm_mc`` model through :mod:`mcqa_probes.training.evaluation` on the same
files (every normalisation; the choice-only control = the reader with ``hide_question``), every
number of its column says its normalisation, and the page shows both models."""
import json
import os

import pytest
from allennlp.data import Vocabulary

from mcqa_probes.data.dataset_readers.causal_lm_mc import CausalLmMcReader
from mcqa_probes.experiments.causal_lm.zero_shot import causal_zero_shot_evaluate
from mcqa_probes.experiments.report_card.card import build_report_card
from mcqa_probes.experiments.report_card.causal_lm import FLAG_MARGIN
from mcqa_probes.experiments.report_card.inputs import CAUSAL_SCORES, CardInputs
from mcqa_probes.experiments.report_card.models import CAUSAL_LM, MASKED_LM, classify
from mcqa_probes.models.causal_lm_mc import SCORES, CausalLmMc
from mcqa_probes.reports.card.tables import table_text
from mcqa_probes.training.evaluation import evaluate_file
from tests.causal_models import tiny_causal  # noqa: F401
from tests.conftest import FIXTURES
from tests.experiments.report_card.test_card import CSQA, OLMPICS, WINOVENTI, archive, probes, section  # noqa: F401


@pytest.fixture(scope="module")
def causal_dir(tiny_causal):  # noqa: F811
    return tiny_causal("gpt2", max_positions=512)


@pytest.fixture(scope="module")
def card(archive, probes, causal_dir, tmp_path_factory):  # noqa: F811
    out = tmp_path_factory.mktemp("causal_card")
    inputs = CardInputs(probes_dir=str(probes), olmpics_dir=str(OLMPICS), winoventi_tsv=str(WINOVENTI),
                        csqa_dev=str(CSQA), max_questions=0, control_epochs=1, cuda_device=-1, batch_size=4)
    with pytest.MonkeyPatch.context() as patch:  # the archive's Choice-Only-GloVe control
        patch.setenv("GLOVE_FILE", str(FIXTURES / "glove" / "tiny_glove.txt"))
        report = build_report_card([str(archive), causal_dir], out, inputs, command="test", progress=lambda line: None)
    return {"out": out, "report": report, "label": os.path.basename(causal_dir)}


def metrics_of(causal_dir, path, score="sum", hide_question=False, **model_options):
    model = CausalLmMc(Vocabulary(), transformer_model_name=causal_dir, score=score, **model_options).eval()
    return evaluate_file(model, CausalLmMcReader(hide_question=hide_question), str(path), batch_size=3)


def test_causal_lm_kind(causal_dir, tiny_causal):  # noqa: F811
    assert CAUSAL_SCORES == tuple(SCORES)
    for family in ("gpt2", "llama"):
        model = classify(tiny_causal(family, max_positions=512) if family == "gpt2" else tiny_causal(family))
        assert model.kind == CAUSAL_LM and model.is_causal and model.fingerprint.startswith("dir:")
    assert classify("minilm").kind == MASKED_LM


def test_every_section_runs_for_the_causal_lm(card):
    report, label = card["report"], card["label"]
    probing = ("wordnetqa", "olmpics", "winoventi", "commonsenseqa")
    status = {s["id"]: s["models"][label]["status"] for s in report["sections"]}
    assert {name: status[name] for name in probing} == dict.fromkeys(probing, "done")
    assert status["robust_knowledge"] == "done"  # from the item records the probing sections wrote
    assert next(m for m in report["models"] if m["label"] == label)["score"] == "sum"
    for s in report["sections"]:
        if s["id"] not in probing:
            continue
        entry = s["models"][label]
        assert "score sum" in entry["reading"] and entry["commands"] and entry["data"]
        for table in s["tables"]:  # the causal column names its normalisation
            assert any(c["header"] == f"{label} · sum" for c in table["columns"]), table["title"]


def test_wordnetqa_numbers_equal_the_causal_lm_mc_model(card, probes, causal_dir):  # noqa: F811
    results = section(card["report"], "wordnetqa")["models"][card["label"]]["results"]
    assert sorted(results) == ["dictionary", "hypernymy"]
    for probe, result in results.items():
        path = probes / probe / "test.jsonl"
        for score in SCORES:
            expected = metrics_of(causal_dir, path, score, choice_only_control=True)
            assert result["by_score"][score]["accuracy"] == pytest.approx(expected["accuracy"]), (probe, score)
            low, high = result["by_score"][score]["intervals"]["accuracy"]
            assert low <= result["by_score"][score]["accuracy"] <= high
        sums = metrics_of(causal_dir, path, "sum", choice_only_control=True)
        assert result["instance_accuracy"] == pytest.approx(sums["accuracy"])
        assert result["cluster_accuracy"] == pytest.approx(sums["cluster_accuracy"])
        # the control: the same LM with the question hidden (hide_question), = the model's choice_only_accuracy
        hidden = metrics_of(causal_dir, path, "sum", hide_question=True)
        control = result["choice_only"]
        assert control["accuracy"] == pytest.approx(hidden["accuracy"]) == pytest.approx(sums["choice_only_accuracy"])
        assert control["flagged"] == (control["accuracy"] >= result["chance"] + FLAG_MARGIN)
        assert set(result["breakdown"]) and result["intervals"]["instance_accuracy"]
        # the lettered prompt beside the cloze ones, and the range across them
        letters = causal_zero_shot_evaluate(causal_dir, str(path), "sum", prompt_format="letters", cuda_device=-1)
        assert result["by_score"]["letters"]["accuracy"] == pytest.approx(letters["accuracy"])
        shown = [result["by_score"][name]["accuracy"] for name in ("sum", "chars", "pmi", "letters")]
        assert result["prompt_range"]["range"] == pytest.approx(max(shown) - min(shown))
        assert result["prompt_range"]["high"] == pytest.approx(max(shown))


def test_olmpics_winoventi_csqa_numbers_equal_the_causal_lm_mc_model(card, causal_dir):
    report, label = card["report"], card["label"]
    olmpics = section(report, "olmpics")["models"][label]["results"]
    assert {r["setup"] for r in olmpics.values()} == {"mc_mlm", "mc_qa"}
    for probe, result in olmpics.items():
        assert result["accuracy"] == pytest.approx(metrics_of(causal_dir, result["file"])["accuracy"]), probe
    winoventi = section(report, "winoventi")["models"][label]["results"]["all"]
    expected = metrics_of(causal_dir, WINOVENTI)
    assert winoventi["generic"] == pytest.approx(100 * expected["generic_accuracy"])
    assert winoventi["exception"] == pytest.approx(100 * expected["exception_accuracy"])
    assert winoventi["n"] > 0 and 0 <= winoventi["strict"] <= min(winoventi["generic"], winoventi["exception"]) + 1e-9
    csqa = section(report, "commonsenseqa")["models"][label]["results"]
    assert csqa["accuracy"] == pytest.approx(metrics_of(causal_dir, CSQA)["accuracy"])


def test_cache_key_includes_the_score(card, archive, probes, causal_dir):  # noqa: F811
    """A re-run with another --causal-score recomputes the causal LM's sections and reuses the archive's."""
    inputs = CardInputs(**{**card["report"]["inputs"], "causal_score": "chars"})
    lines = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GLOVE_FILE", str(FIXTURES / "glove" / "tiny_glove.txt"))
        report = build_report_card([str(archive), causal_dir], card["out"], inputs, progress=lines.append)
    label = card["label"]
    assert all(f"{label} / {s}: running" in lines for s in ("wordnetqa", "olmpics", "winoventi", "commonsenseqa"))
    assert all(f"tiny_mcqa / {s}: reused" in " ".join(lines) for s in ("wordnetqa", "olmpics", "commonsenseqa"))
    hypernymy = section(report, "wordnetqa")["models"][label]["results"]["hypernymy"]
    assert hypernymy["score"] == "chars" and hypernymy["instance_accuracy"] == hypernymy["by_score"]["chars"]["accuracy"]
    assert next(m for m in report["models"] if m["label"] == label)["score"] == "chars"


def test_page_shows_the_archive_and_the_causal_lm(card):
    from mcqa_probes.reports.browser import inspect_page

    out, report, label = card["out"], card["report"], card["label"]
    report = json.loads((out / "report.json").read_text())  # the last run's page
    summary = report["summary"]
    headers = [c["header"] for c in summary["columns"]]
    assert headers[:3] == ["probe", "tiny_mcqa", f"{label} · {next(m for m in report['models'] if m['label'] == label)['score']}"]
    rows = {row[0]["text"]: row for row in summary["rows"]}
    hypernymy = rows["WordNetQA: hypernymy"]
    assert hypernymy[1]["ci"] and hypernymy[2]["ci"]  # both models, with their intervals
    assert "(Choice-Only-GloVe)" in hypernymy[3]["text"] and f"(choice-only, {label})" in hypernymy[3]["text"]
    table = section(report, "wordnetqa")["tables"][0]
    text = table_text(table)
    assert "RoBERTa-large 0-shot (paper)" in [h.rstrip("¹²³⁴⁵⁶⁷⁸⁹⁰") for h in text[0]]
    labels = [row[0] for row in text[1:]]
    assert "hypernymy: choice-only (question hidden) %" in labels and "hypernymy: accuracy, pmi %" in labels
    assert "hypernymy: range across prompts (points)" in labels
    assert "hypernymy: accuracy, letters (A. B. ... listed) %" in labels
    page = inspect_page(out / "report.html", out / "report.png", width=1280)
    assert page["tables"][: len(report["sections"][0]["tables"]) + 1][0] == table_text(summary)
    assert page["page_width"] <= 1280 and max(page["table_widths"]) <= 1280
