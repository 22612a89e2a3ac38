"""The card's item records and the page-level comparison section, recomputed from the records: a
tiny archive and a tiny causal LM on the fixture probes, with the determinism audit on."""
import json

import pytest
from statsmodels.stats.contingency_tables import mcnemar

from mcqa_probes.metrics.calibration import brier_score, expected_calibration_error
from mcqa_probes.metrics.item_records import read_item_records
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
