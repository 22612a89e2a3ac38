"""The card's robust-knowledge section and item page, from item records written by hand (no model runs)."""
import json
from pathlib import Path

from mcqa_probes.experiments.report_card.card import write_item_page
from mcqa_probes.experiments.report_card.models import CardModel
from mcqa_probes.experiments.report_card.robust_knowledge import RobustKnowledgeSection
from mcqa_probes.experiments.report_card.section import SectionContext
from mcqa_probes.metrics.item_records import softmax, write_item_records
from mcqa_probes.reports.card.tables import table_text
from tests.metrics.test_robust_knowledge import RECORDS as BARE


def with_scores(record):
    """The hand-made record with scores that choose what it chose (the metrics test needs none)."""
    scores = {p: [1.0 if j == chosen else 0.0 for j in range(4)] for p, chosen in record["chosen"].items()}
    return dict(record, scores=scores, probabilities={p: softmax(v) for p, v in scores.items()})


RECORDS = [with_scores(r) for r in BARE]


def card_out(tmp_path: Path) -> Path:
    write_item_records(tmp_path / "items" / "m" / "wordnetqa.jsonl", RECORDS)
    synonymy = [with_scores(dict(r, probe="synonymy", correct=dict(r["correct"], **{"cloze/chars": True}),
                                 chosen=dict(r["chosen"], **{"cloze/chars": 0})))
                for r in RECORDS[:4]]  # right under chars (choosing the gold): q2 is still wrong under rotation 1
    write_item_records(tmp_path / "items" / "m" / "olmpics.jsonl", [dict(r, section="olmpics") for r in synonymy])
    return tmp_path


def test_section_tables_recompute_the_numbers_from_the_records(tmp_path):
    out = card_out(tmp_path)
    section = {"id": "robust_knowledge", "data": {}, "models": {"m": {"status": "done", "results": {}, "reading": "x",
                                                         "reused": True},
                                                   "arch": {"status": "absent", "reason": "one prompt"}}}
    RobustKnowledgeSection().shared(section, None, SectionContext(out))
    section = json.loads(json.dumps(section))  # as report.json holds it
    known, circular, agreement = [table_text(t) for t in RobustKnowledgeSection().tables(section, [])]
    assert known[0] == ["model", "probe", "N", "cloze/sum", "cloze/mean", "cloze/chars", "cloze/pmi", "letters/rot0",
                        "letters/rot1", "letters/rot2", "choice_only", "every prompt", "clusters"]
    # files in name order: olmpics.jsonl, then wordnetqa.jsonl
    assert known[1] == ["m", "olmpics/synonymy", "4", "75.0", "50.0", "100.0", "75.0", "75.0", "50.0", "75.0", "50.0",
                        "50.0", "33.3"]
    assert known[2] == ["m", "wordnetqa/hypernymy", "6", "83.3", "66.7", "66.7", "80.0", "83.3", "50.0", "80.0", "50.0",
                        "50.0", "33.3"]
    assert circular[1:] == [["m", "olmpics/synonymy", "3", "4", "75.0", "75.0", "50.0"],
                            ["m", "wordnetqa/hypernymy", "2", "1", "100.0", "0.0", "–"],
                            ["m", "wordnetqa/hypernymy", "3", "5", "80.0", "80.0", "60.0"]]
    # agreement over both probes: sum vs chars differs on q2 of hypernymy and on q4 of synonymy (right under
    # chars there, choosing the gold, where sum chooses 2), so 8 of 10
    assert agreement[0][:3] == ["", "cloze/sum", "cloze/mean"] and agreement[1][3] == "80.0"
    entry = section["models"]["m"]
    assert "reused" not in entry and entry["reading"] == (
        "m is right under every prompt on synonymy 50.0% (vs 75.0% under cloze/sum), "
        "hypernymy 50.0% (vs 83.3% under cloze/sum)")
    assert section["models"]["arch"] == {"status": "absent", "reason": "one prompt"}


def test_the_card_writes_the_item_page_of_its_models(tmp_path):
    out = card_out(tmp_path)
    write_item_records(out / "items" / "elsewhere" / "wordnetqa.jsonl", [dict(r, model="elsewhere") for r in RECORDS])
    model = CardModel(argument="x", label="m", location="x", kind="causal_lm", fingerprint="f")
    found = write_item_page(out, [model])
    assert found == {"page": "items.html", "records": 10, "questions": 10,
                     "files": ["items/m/olmpics.jsonl", "items/m/wordnetqa.jsonl"]}
    html = (out / "items.html").read_text()
    assert '"elsewhere"' not in html and 'href="report.html"' in html
    assert write_item_page(out, [CardModel(argument="y", label="none", location="y", kind="mcqa", fingerprint="g")]) is None


def test_run_and_why_absent(tmp_path):
    out = card_out(tmp_path)
    section = RobustKnowledgeSection()
    causal = CardModel(argument="m", label="m", location="m", kind="causal_lm", fingerprint="f")
    result = section.run(causal, None, SectionContext(out))
    assert result["status"] == "done" and result["results"] == {"groups": 2, "records": 10}
    assert sorted(result["data"]) == [str(out / "items" / "m" / "olmpics.jsonl"), str(out / "items" / "m" / "wordnetqa.jsonl")]
    assert result["reading"].startswith("m is right under every prompt on synonymy 50.0%")
    other = CardModel(argument="z", label="z", location="z", kind="causal_lm", fingerprint="g")
    assert section.run(other, None, SectionContext(out))["status"] == "absent"
    assert section.why_absent(causal, None) is None
    archive = CardModel(argument="a", label="a", location="a", kind="mcqa", fingerprint="h")
    assert "multiple-choice QA archive" in section.why_absent(archive, None)
