"""The report card reads the result directories it is given (bin/inoculate, bin/olmpics_suite /
bin/learning_curve, bin/artifact_audit) instead of recomputing them, and shows their numbers."""
import json

import pytest

from mcqa_probes.experiments.report_card import olmpics, wordnetqa
from mcqa_probes.experiments.report_card.inputs import CardInputs
from mcqa_probes.reports.card.tables import table_text
from tests.conftest import FIXTURES

PROBES = str(FIXTURES / "probes")


def sweep_rows():
    rows = []
    for k, lr, dev, after in ((50, 1e-5, 0.40, 0.70), (50, 3e-5, 0.55, 0.66), (100, 1e-5, 0.62, 0.69)):
        rows.append({"k": k, "lr": lr, "add_some": 0, "seed": None, "probe_dev_accuracy": dev, "probe_test_accuracy": None,
                     "orig_accuracy_before": 0.72, "orig_accuracy_after": after,
                     "inoculation_cost": round(100 * (0.72 - after), 4), "aggregate_accuracy": (dev + after) / 2,
                     "run_dir": f"runs/k{k}"})
    return rows


def test_inoculation_sweep_directory_is_read_and_shown(tmp_path):
    from mcqa_probes.experiments.wordnetqa.inoculation_sweep import mark_best, plot, write_tables

    out = tmp_path / "sweeps" / "hypernymy"
    out.mkdir(parents=True)
    rows = mark_best(sweep_rows())
    write_tables(rows, out)
    plot(rows, out)
    sweeps = wordnetqa.inoculation_sweeps(CardInputs(inoculation_dir=str(tmp_path / "sweeps")))
    assert [s["name"] for s in sweeps] == ["hypernymy"] and sweeps[0]["figure"].endswith("inoculation_curves.png")
    best = sweeps[0]["best"]
    assert [(r["k"], r["lr"], r["probe_dev_accuracy"]) for r in best] == [(50, 3e-5, 0.55), (100, 1e-5, 0.62)]
    section = {"id": "wordnetqa", "models": {}, "shared": {"probes": [], "inoculation": sweeps}}
    table = wordnetqa.WordNetQaSection().tables(section, [])[0]
    assert table_text(table)[1][3:] == ["55.0", "72.0", "66.0", "+6.0"]
    assert not any("low" in cell for row in table["rows"] for cell in row)  # a result file: no interval
    assert "no interval" in table["notes"][0]
    with pytest.raises(FileNotFoundError, match="no inoculation.csv"):
        wordnetqa.inoculation_sweeps(CardInputs(inoculation_dir=str(tmp_path / "sweeps" / "hypernymy" / "nothing")))


def test_suite_and_learning_curve_directories(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "suite.json").write_text(json.dumps({"age_comparison": {
        "roberta-large": {"zero_shot": 0.98, "mlp": {"WS": 0.981, "MAX": 1.0}},
        "Baseline": {"mlp": {"WS": 0.5, "MAX": 0.51}, "zero_shot": 0.5}}}))
    rows = olmpics.learning_curves(CardInputs(olmpics_curves=str(suite)))
    assert [(r["model"], r["WS"], r["MAX"], r["zero_shot"]) for r in rows] == [
        ("roberta-large", 0.981, 1.0, 0.98), ("Baseline", 0.5, 0.51, 0.5)]
    table = olmpics.OlmpicsSection().tables({"id": "olmpics", "models": {}, "shared": {"learning_curves": rows}}, [])[0]
    assert table_text(table)[1] == ["AGE COMPARISON", "roberta-large", "MLP", "98.0", "98.1", "100.0"]
    single = tmp_path / "age_comparison"
    single.mkdir()
    (single / "summary.json").write_text(json.dumps({"full": {"WS": 0.7, "MAX": 0.8}, "paper_comparable": False}))
    (row,) = olmpics.learning_curves(CardInputs(olmpics_curves=str(single)))
    assert (row["WS"], row["MAX"], row["paper_comparable"]) == (0.7, 0.8, False)
    with pytest.raises(FileNotFoundError, match="neither suite.json"):
        olmpics.learning_curves(CardInputs(olmpics_curves=str(tmp_path)))


def test_choice_only_control_from_an_audit_directory(tmp_path):
    (tmp_path / "artifact_audit.json").write_text(json.dumps({"probes": {
        "hypernymy": {"results": {"choice_only": {"dev": 0.332, "test": 0.31}}, "splits": {"sizes": {"train": 3000}}},
        "dictionary": {"results": {"choice_only": {"dev": 0.2, "test": 0.19}}, "splits": {"sizes": {"train": 3000}}}}}))
    control = wordnetqa.choice_only_control(CardInputs(probes_dir=PROBES, audit_dir=str(tmp_path)), tmp_path / "card")
    assert control["hypernymy"]["test"] == 0.31 and control["dictionary"]["dev"] == 0.2
    assert {c["source"] for c in control.values()} == {str(tmp_path / "artifact_audit.json")}
    assert not (tmp_path / "card" / "controls").exists()  # nothing trained
    with pytest.raises(FileNotFoundError, match="no artifact_audit.json"):
        wordnetqa.choice_only_control(CardInputs(probes_dir=PROBES, audit_dir=str(tmp_path / "none")), tmp_path)
    assert control["hypernymy"]["items"] is None  # an audit without per-question answers
    assert wordnetqa.control_item_records(CardInputs(probes_dir=PROBES, audit_dir=str(tmp_path)), control) == []
    assert control["hypernymy"]["records"] == 0


def test_choice_only_control_records_from_an_audit_directory(tmp_path):
    """The audit's per-question answers (bin/artifact_audit's items_<split>.jsonl) of the questions the
    page's models answer become the control's item records; another build's question of the same id is
    left out; a probe whose run kept none says so under the table; the card writes them as a model's."""
    from mcqa_probes.data.dataset_readers.question_reader import QuestionReader
    from mcqa_probes.data.question import read_questions
    from mcqa_probes.experiments.report_card.card import write_control_items
    from mcqa_probes.experiments.report_card.models import classify
    from mcqa_probes.experiments.wordnetqa.artifact_audit import trial_items_file
    from mcqa_probes.metrics.item_records import item_record, read_item_records, write_item_records

    (tmp_path / "artifact_audit.json").write_text(json.dumps({"probes": {
        probe: {"results": {"choice_only": {"dev": 0.5, "test": 0.5}}, "splits": {"sizes": {"train": 12}}}
        for probe in ("hypernymy", "dictionary")}}))
    questions = list(read_questions(f"{PROBES}/hypernymy/test.jsonl"))
    records = []
    for number, question in enumerate(questions):  # right on every even question
        chosen = question.answer_index if number % 2 == 0 else (question.answer_index + 1) % len(question.choices)
        scores = [1.0 if j == chosen else 0.0 for j in range(len(question.choices))]
        records.append(item_record("Choice-Only-GloVe", "artifact_audit", "hypernymy/test",
                                   QuestionReader.question_metadata(question), {"choice_only": scores}, "choice_only"))
    other = dict(records[0], id=records[1]["id"], probe="other")  # another question under an id of the page
    write_item_records(trial_items_file(tmp_path, "hypernymy", "choice_only", "test"), records[2:] + [other])
    inputs = CardInputs(probes_dir=PROBES, audit_dir=str(tmp_path), max_questions=5)
    control = wordnetqa.choice_only_control(inputs, tmp_path / "card")
    found = wordnetqa.control_item_records(inputs, control)
    # the first 5 questions are the page's: questions 2, 3, 4 have records (0 and 1 none, "other" is not question 1)
    assert [r["id"] for r in found] == [q.id for q in questions[2:5]]
    assert [r["correct"]["choice_only"] for r in found] == [True, False, True]
    assert {(r["model"], r["section"], r["probe"]) for r in found} == {("Choice-Only-GloVe", "wordnetqa", "hypernymy")}
    assert (control["hypernymy"]["records"], control["dictionary"]["records"]) == (3, 0)
    assert control["dictionary"]["items"] is None
    result = {"instance_accuracy": 0.5, "cluster_accuracy": 0.3, "cluster_delta": -20.0, "questions": 5, "chance": 0.2}
    section = {"id": "wordnetqa", "models": {"m": {"status": "done", "results": {"hypernymy": result, "dictionary": result}}},
               "shared": {"probes": ["hypernymy", "dictionary"], "split": "test", "choice_only": control}}
    table = wordnetqa.WordNetQaSection().tables(section, [{"label": "m", "kind": "mcqa", "location": "m"}])[0]
    footnote = next(f["text"] for f in table["footnotes"] if "never sees the question" in f["text"])
    source = tmp_path / "artifact_audit.json"
    # records for 3 of the page's 5 questions: the cell is the audit's own accuracy, and the footnote says so
    assert (f"hypernymy: 12 training questions, from {source}, scored on its own run's test questions, not the "
            "page's; dictionary") in footnote
    assert "page" not in control["hypernymy"]
    assert (f"dictionary: 12 training questions, from {source}, scored on its own run's test questions, not the "
            "page's, no item records (its run kept no answers per question: bin/artifact_audit with a new --out)") in footnote
    # the card writes them as a model's records; a control with none left from an earlier run is removed
    out = tmp_path / "card"
    stale = out / "items" / "Old-Control" / "wordnetqa.jsonl"
    write_item_records(stale, [dict(found[0], model="Old-Control")])
    assert write_control_items(out, "wordnetqa", found, [classify("minilm")]) == ["Choice-Only-GloVe"]
    assert read_item_records(out / "items" / "Choice-Only-GloVe" / "wordnetqa.jsonl") == found
    assert not stale.exists()
    with pytest.raises(ValueError, match="name of a model of the page"):
        write_control_items(out, "wordnetqa", [dict(found[0], model="minilm")], [classify("minilm")])
    # records for every question of the page: the control's cell is its accuracy on them (3 of 5 right,
    # 60.0), not the audit's over its own sample (50.0), and the footnote has nothing to add
    write_item_records(trial_items_file(tmp_path, "hypernymy", "choice_only", "test"), records)
    control = wordnetqa.choice_only_control(inputs, tmp_path / "card")
    wordnetqa.control_item_records(inputs, control)
    assert control["hypernymy"]["page"] == 0.6 and control["hypernymy"]["test"] == 0.5
    section["shared"]["choice_only"] = control
    table = wordnetqa.WordNetQaSection().tables(section, [{"label": "m", "kind": "mcqa", "location": "m"}])[0]
    footnote = next(f["text"] for f in table["footnotes"] if "never sees the question" in f["text"])
    assert f"hypernymy: 12 training questions, from {source}; dictionary" in footnote
    assert wordnetqa.control_accuracy(control["hypernymy"], "test") == 0.6 and "60.0" in json.dumps(table)
    assert wordnetqa.control_accuracy(control["dictionary"], "test") == 0.5         # no records: the audit's own


def test_an_archives_reading_is_given_its_margins_over_the_control_once(tmp_path):
    """"m is best on hypernymy (45.0%)" where Choice-Only-GloVe, which never sees the question, gets
    70.0: the reading says so (was: the best probe named without the control)."""
    from mcqa_probes.experiments.report_card.section import SectionContext

    (tmp_path / "audit").mkdir()
    (tmp_path / "audit" / "artifact_audit.json").write_text(json.dumps({"probes": {
        "hypernymy": {"results": {"choice_only": {"dev": 0.6, "test": 0.7}}, "splits": {"sizes": {"train": 12}}}}}))
    result = {"instance_accuracy": 0.45, "cluster_accuracy": 0.3, "cluster_delta": -20.0, "questions": 5, "chance": 0.2}
    section = {"id": "wordnetqa", "commands": [], "shared": {},
               "models": {"m": {"status": "done", "results": {"hypernymy": result},
                                "reading": "m is best on hypernymy (45.0%, chance 20%)."}}}
    inputs = CardInputs(probes_dir=PROBES, audit_dir=str(tmp_path / "audit"))
    for _ in range(2):                  # a card run again reads it anew, no margin twice
        wordnetqa.WordNetQaSection().shared(section, inputs, SectionContext(tmp_path / "card"))
        assert section["models"]["m"]["reading"] == (
            "m is best on hypernymy (45.0%, chance 20%); against Choice-Only-GloVe (the question hidden), "
            "in points: hypernymy -25.0.")
    causal = {"hypernymy": dict(result, score="sum", choice_only={"accuracy": 0.45, "flagged": False})}
    from mcqa_probes.experiments.report_card.models import classify
    text = wordnetqa.reading(classify("smollm2"), causal)
    assert text.endswith("; against its choice-only control (the question hidden), in points: hypernymy +0.0.")
