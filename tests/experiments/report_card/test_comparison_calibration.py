"""The comparison section's calibration of PriDe-debiased probabilities, beside the raw ones, from item
records that carry them (a causal LM's lettered prompt asked under every rotation; no model load)."""
import numpy
import pytest

from mcqa_probes.experiments.report_card.comparison import ComparisonSection
from mcqa_probes.experiments.report_card.inputs import CardInputs
from mcqa_probes.experiments.report_card.section import SectionContext
from mcqa_probes.metrics.calibration import brier_score, expected_calibration_error
from mcqa_probes.metrics.item_records import write_item_records
from mcqa_probes.reports.card.tables import table_text
from tests.metrics.test_item_records import pride_by_numpy, pride_case


def test_the_calibration_table_and_diagram_show_pride_beside_the_raw_lettered_prompt(tmp_path):
    records, shown, golds = pride_case()
    records = [dict(r, model="llm") for r in records]
    write_item_records(tmp_path / "items" / "llm" / "zero_shot.jsonl", records)
    section = {"id": "comparison", "data": {}, "figures": [], "commands": [], "models": {"llm": {"status": "done"}}}
    ComparisonSection().shared(section, CardInputs(), SectionContext(tmp_path))
    found = section["shared"]["calibration"]["llm"]["s/p"]
    complete = records[:-1]
    assert found["ece"] == pytest.approx(expected_calibration_error(records))  # the primary prompt: as before
    pride = found["pride"]
    assert pride["debiased"]["ece"] == pytest.approx(expected_calibration_error(complete, "letters/pride/rot0"))
    assert pride["raw"]["brier"] == pytest.approx(brier_score(complete, "letters/rot0"))
    debiased, _ = pride_by_numpy(shown)
    by_numpy = ((debiased[:, 0] - numpy.eye(4)[golds]) ** 2).sum(axis=1).mean()
    assert pride["debiased"]["brier"] == pytest.approx(by_numpy, abs=1e-12)
    table = next(t for t in ComparisonSection().tables(section, []) if t["title"].startswith("Calibration"))
    rows = table_text(table)[1:]
    assert [row[:4] for row in rows] == [["llm", "s/p", "letters/rot0", "9"], ["llm", "s/p", "letters/rot0", "8"],
                                         ["llm", "s/p", "letters/pride/rot0 (PriDe)", "8"]]
    assert rows[2][6:] == [f"{pride['debiased']['ece']:.3f}", f"{pride['debiased']['brier']:.3f}"]
    assert (tmp_path / "figures" / "shared" / "reliability_llm.png").is_file()
