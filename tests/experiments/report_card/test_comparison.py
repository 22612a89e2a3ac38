"""The card's item records and the page-level comparison section, recomputed from the records: a
tiny archive and a tiny causal LM on the fixture probes, with the determinism audit on, and the
archive's Choice-Only-GloVe control compared with it question by question."""
import json

import pytest
from statsmodels.stats.contingency_tables import mcnemar

from mcqa_probes.experiments.report_card.comparison import ComparisonSection
from mcqa_probes.experiments.report_card.inputs import CardInputs
from mcqa_probes.experiments.report_card.section import SectionContext
from mcqa_probes.metrics.calibration import brier_score, expected_calibration_error
from mcqa_probes.metrics.determinism import EMPTY
from mcqa_probes.metrics.item_records import read_item_records
from mcqa_probes.reports.card.tables import table_text
from tests.causal_models import tiny_causal  # noqa: F401
from tests.experiments.report_card.test_card import ENV, archive, probes  # noqa: F401
from tests.test_cli import run


@pytest.fixture(scope="module")
def page(archive, probes, tiny_causal, tmp_path_factory):  # noqa: F811
    out = tmp_path_factory.mktemp("compare_card")
    causal = tiny_causal("gpt2", 512)
    result = run(["probe-report", str(archive), causal, "--out", str(out), "--probes-dir", str(probes),
                  "--max-questions", "6", "--control-epochs", "1", "--cuda-device", "-1", "--determinism-check", "3"],
                 env=ENV)
    assert result.returncode == 0, result.stderr[-4000:]
    return out, json.loads((out / "report.json").read_text())


def test_items_recompute_the_comparison_calibration_and_determinism(page):
    out, report = page
    labels = [m["label"] for m in report["models"]]
    records = {label: read_item_records(out / "items" / label / "wordnetqa.jsonl") for label in labels}
    archive_label, causal_label = labels
    assert {r["primary"] for r in records[archive_label]} == {"mcqa"}
    causal = records[causal_label][0]
    assert {"cloze/sum", "cloze/chars", "cloze/pmi", "choice_only", "letters/rot0"} <= set(causal["scores"])
    shared = next(s for s in report["sections"] if s["id"] == "comparison")["shared"]
    comparison = next(c for c in shared["compare"]["comparisons"] if c["probe"] == "hypernymy" and c["cell"] == "all")
    a = {r["id"]: r["correct"][r["primary"]] for r in records[archive_label] if r["probe"] == "hypernymy"}
    b = {r["id"]: r["correct"][r["primary"]] for r in records[causal_label] if r["probe"] == "hypernymy"}
    assert len(a) == len(b) == comparison["questions"] == 6
    a_only = sum(a[k] and not b[k] for k in a)
    b_only = sum(b[k] and not a[k] for k in a)
    assert (comparison["a_only"], comparison["b_only"]) == (a_only, b_only)
    assert comparison["difference"] == pytest.approx((sum(a.values()) - sum(b.values())) / 6)
    assert comparison["p_mcnemar"] == pytest.approx(mcnemar([[0, a_only], [b_only, 0]], exact=True).pvalue)
    mine = [r for r in records[causal_label] if r["probe"] == "hypernymy"]
    calibration = shared["calibration"][causal_label]["wordnetqa/hypernymy"]
    assert calibration["ece"] == pytest.approx(expected_calibration_error(mine))
    assert calibration["brier"] == pytest.approx(brier_score(mine))
    for label in labels:
        line = shared["determinism"][label]
        assert line["questions"] >= 3 and line["changed_answers"] >= 0
    titles = [t["title"] for t in next(s for s in report["sections"] if s["id"] == "comparison")["tables"]]
    assert any("Paired comparison" in t for t in titles) and any("Determinism" in t for t in titles)


def test_the_choice_only_glove_control_has_item_records_on_the_same_questions(page):
    out, report = page
    archive_label = report["models"][0]["label"]
    control = next(s for s in report["sections"] if s["id"] == "wordnetqa")["shared"]["choice_only"]
    records = read_item_records(out / "items" / "Choice-Only-GloVe" / "wordnetqa.jsonl")
    archive = {(r["probe"], r["id"]): r for r in read_item_records(out / "items" / archive_label / "wordnetqa.jsonl")}
    for probe in ("hypernymy", "dictionary"):
        mine = [r for r in records if r["probe"] == probe]
        assert control[probe]["records"] == len(mine) == 6
        assert all(r["model"] == "Choice-Only-GloVe" and r["primary"] == "choice_only" for r in mine)
        # the control's accuracy on the page is that of its records
        assert sum(r["correct"]["choice_only"] for r in mine) / 6 == pytest.approx(control[probe]["test"])
        # the questions the archive answered: the same ids, choices, gold and cluster
        for r in mine:
            twin = archive[(probe, r["id"])]
            assert (r["choices"], r["gold"], r["cluster"]) == (twin["choices"], twin["gold"], twin["cluster"])
    comparison = next(s for s in report["sections"] if s["id"] == "comparison")
    pairs = {(c["model_a"], c["model_b"], c["probe"]) for c in comparison["shared"]["compare"]["comparisons"]
             if c["cell"] == "all"}
    assert {(archive_label, "Choice-Only-GloVe", "hypernymy"), (archive_label, "Choice-Only-GloVe", "dictionary")} <= pairs
    assert "wordnetqa/hypernymy" in comparison["shared"]["calibration"]["Choice-Only-GloVe"]
    assert "Choice-Only-GloVe" not in comparison["models"]  # a control, not a model of the page
    assert "items/Choice-Only-GloVe/wordnetqa.jsonl" in report["item_browser"]["files"]
    assert "Choice-Only-GloVe" in (out / "items.html").read_text()


def test_determinism_of_zero_questions_is_not_run(tmp_path):
    """A section stored with an audit of no question (what the card stored for a model it never
    re-scored) is "not run" in the table, not a row of zeros; a real audit is shown."""
    for label, audit in (("masked", EMPTY), ("archive", {"questions": 3, "max_score_difference": 1e-7,
                                                         "changed_answers": 0})):
        (tmp_path / "sections" / label).mkdir(parents=True)
        (tmp_path / "sections" / label / "olmpics.json").write_text(json.dumps({"result": {"determinism": audit}}))
    section = {"id": "comparison", "data": {}, "figures": [], "commands": [],
               "models": {label: {"status": "done"} for label in ("masked", "archive")}}
    ComparisonSection().shared(section, CardInputs(determinism_check=3), SectionContext(tmp_path))
    assert list(section["shared"]["determinism"]) == ["archive"] and section["shared"]["determinism_not_run"] == ["masked"]
    table = next(t for t in ComparisonSection().tables(section, []) if t["title"].startswith("Determinism"))
    assert table_text(table)[1:] == [["archive", "3", "1e-07", "0"], ["masked", "not run", "–", "–"]]
    # without --determinism-check, no line and no "not run"
    ComparisonSection().shared(section, CardInputs(), SectionContext(tmp_path))
    assert section["shared"]["determinism_not_run"] == []
