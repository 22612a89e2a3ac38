"""The WinoVenti section's item records (issue 29), on a card of the fixture TSV only: the offline MiniLM
(a masked LM) and a tiny random GPT-2 (a causal LM), with the determinism audit on. One record per scored
prompt per model, in the section's numbers; the paired comparison and the item browser take them; and the
masked LM, whose scorers the audit does not re-score, is "not run" in the determinism table, not a row of
zeros."""
import json
import os

import pytest

from mcqa_probes.data.winoventi import read_winoventi
from mcqa_probes.experiments.report_card.card import build_report_card
from mcqa_probes.experiments.report_card.inputs import CardInputs
from mcqa_probes.metrics.item_records import read_item_records
from mcqa_probes.reports.card.tables import table_text
from tests.causal_models import tiny_causal  # noqa: F401
from tests.experiments.report_card.test_card import REGISTRY, WINOVENTI, section


@pytest.fixture(scope="module")
def card(tiny_causal, tmp_path_factory):  # noqa: F811
    out = tmp_path_factory.mktemp("winoventi_card")
    causal = tiny_causal("gpt2", 512)
    inputs = CardInputs(probes_dir=None, winoventi_tsv=str(WINOVENTI), winoventi_registry=str(REGISTRY),
                        cuda_device=-1, batch_size=4, determinism_check=2)  # WinoVenti only (no default probes/)
    report = build_report_card(["minilm", causal], out, inputs, progress=lambda line: None, quiet=True)
    return {"out": out, "report": report, "labels": ["minilm", os.path.basename(causal)]}


def records_of(card, label):
    return read_item_records(card["out"] / "items" / label / "winoventi.jsonl")


def test_one_record_per_scored_prompt_in_the_sections_numbers(card):
    prompts = {p.id: p for p in read_winoventi(WINOVENTI)}
    winoventi = section(card["report"], "winoventi")
    for label, primary in zip(card["labels"], ("mlm", "cloze/sum")):
        records = records_of(card, label)
        assert records and len({r["id"] for r in records}) == len(records) <= len(prompts)
        for record in records:
            prompt = prompts[record["id"]]
            assert record["section"] == "winoventi" and record["primary"] == primary
            assert record["probe"] == ("generic" if prompt.is_generic else "exception")
            assert record["choices"] == [prompt.generic, prompt.exception]  # the associative, then the alternative
            assert record["choices"][record["gold"]] == prompt.target
            assert record["cluster"] == f"{prompt.word}|{prompt.generic}|{prompt.exception}"
            assert record["concept"] == prompt.word and record["hops"] is None
        # the two prompts of a pair are one cluster
        by_pair = {}
        for record in records:
            by_pair.setdefault(prompts[record["id"]].pair_index, set()).add(record["cluster"])
        assert all(len(clusters) == 1 for clusters in by_pair.values())
        # the section's generic / exception accuracy over All pairs, from the records
        every = winoventi["models"][label]["results"]["all"]
        for probe in ("generic", "exception"):
            mine = [r["correct"][r["primary"]] for r in records if r["probe"] == probe]
            assert 100 * sum(mine) / len(mine) == pytest.approx(every[probe])
    causal = records_of(card, card["labels"][1])[0]
    assert {"cloze/sum", "cloze/mean", "cloze/chars", "cloze/pmi", "choice_only"} <= set(causal["scores"])


def test_comparison_and_item_browser_take_the_records(card):
    out, report = card["out"], card["report"]
    masked, causal = card["labels"]
    shared = section(report, "comparison")["shared"]
    found = {(c["probe"], c["cell"]): c for c in shared["compare"]["comparisons"] if c["section"] == "winoventi"}
    assert set(found) == {("generic", "all"), ("exception", "all")}
    for probe in ("generic", "exception"):
        a = {r["id"]: r["correct"][r["primary"]] for r in records_of(card, masked) if r["probe"] == probe}
        b = {r["id"]: r["correct"][r["primary"]] for r in records_of(card, causal) if r["probe"] == probe}
        both = set(a) & set(b)
        comparison = found[(probe, "all")]
        assert (comparison["model_a"], comparison["model_b"]) == (masked, causal)
        assert comparison["questions"] == len(both) > 0
        assert (comparison["a_only"], comparison["b_only"]) == (sum(a[k] and not b[k] for k in both),
                                                                sum(b[k] and not a[k] for k in both))
    assert set(shared["calibration"][masked]) == {"winoventi/generic", "winoventi/exception"}
    browser = report["item_browser"]
    assert browser["records"] == len(records_of(card, masked)) + len(records_of(card, causal))
    assert (out / "items.html").is_file() and f"items/{masked}/winoventi.jsonl" in browser["files"]


def test_a_model_without_re_scored_questions_is_not_run_not_zeros(card):
    out, report = card["out"], card["report"]
    masked, causal = card["labels"]
    stored = json.loads((out / "sections" / masked / "winoventi.json").read_text())["result"]
    assert "determinism" not in stored  # the masked LM's scorers are not audited: nothing to report
    assert json.loads((out / "sections" / causal / "winoventi.json").read_text())["result"]["determinism"]["questions"] == 2
    comparison = section(report, "comparison")
    assert masked not in comparison["shared"]["determinism"]
    assert comparison["shared"]["determinism_not_run"] == [masked]
    table = next(t for t in comparison["tables"] if t["title"].startswith("Determinism"))
    rows = {row[0]: row for row in table_text(table)[1:]}
    assert rows[masked] == [masked, "not run", "–", "–"]
    assert int(rows[causal][1]) >= 2  # the causal LM's audit: questions re-scored
    assert "determinism" not in comparison["models"][masked]["reading"]
