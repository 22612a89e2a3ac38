"""Probes built from a user's ontology flow through what works on the WordNet probes, unchanged:
`allennlp train` and `evaluate` of an MCQA model, `bin/zero_shot` of a causal LM under every prompt
format, and the report card, which shows the relation probe and names the source."""
import json
import runpy

import pytest

from mcqa_probes.builders.ontology_build import build_ontology_probes
from mcqa_probes.experiments.report_card.card import build_report_card
from mcqa_probes.experiments.report_card.inputs import CardInputs
from mcqa_probes.knowledge.source import load_source
from tests.causal_models import tiny_causal  # noqa: F401
from tests.conftest import FIXTURES, ROOT
from tests.experiments.report_card.test_card import section
from tests.test_cli import run


@pytest.fixture(scope="module")
def vehicle_probes(tmp_path_factory):
    out = tmp_path_factory.mktemp("vehicle_probes")
    graph = load_source(FIXTURES / "ontologies" / "vehicles.obo", relations=["part_of"])
    build_ontology_probes(out, graph, relations=["part_of"])
    return out


def test_the_card_shows_every_probe_of_the_build_and_names_its_source(vehicle_probes, tiny_causal,  # noqa: F811
                                                                      tmp_path):
    causal_dir = tiny_causal("gpt2", max_positions=512)
    inputs = CardInputs(probes_dir=str(vehicle_probes), olmpics_dir=None, winoventi_tsv=None, csqa_dev=None,
                        max_questions=0, cuda_device=-1, batch_size=4)
    report = build_report_card([causal_dir], tmp_path, inputs, command="test", progress=lambda line: None)
    wordnetqa = section(report, "wordnetqa")
    assert wordnetqa["shared"]["probes"] == ["definitions", "synonymy", "hypernymy", "hyponymy", "part_of"]
    results = next(iter(wordnetqa["models"].values()))["results"]
    test_lines = (vehicle_probes / "part_of" / "test.jsonl").read_text().splitlines()
    assert results["part_of"]["questions"] == len(test_lines)
    notes = " ".join(n for table in wordnetqa["tables"] for n in table["notes"])
    assert "Probes built from vo 2026-11-01 (vehicles.obo)" in notes
    assert "(paper)" not in json.dumps(wordnetqa["tables"])          # WordNet's numbers are not this source's
    # nor in the summary at the top, whose rows are named after the source
    rows = {row[0]["text"]: row for row in report["summary"]["rows"]}
    assert [name for name in rows if name.startswith("vo: ")] == [
        "vo: definitions", "vo: synonymy", "vo: hypernymy", "vo: hyponymy", "vo: part_of"]
    assert not any(name.startswith("WordNetQA") for name in rows)
    assert all(rows[f"vo: {probe}"][-1]["text"] == "–" for probe in ("definitions", "hypernymy"))
    page = (tmp_path / "report.html").read_text()
    assert "vehicles.obo" in page and "part_of" in page


@pytest.mark.parametrize("prompt_format", ["cloze", "letters"])
def test_zero_shot_scores_an_ontology_probe_under_every_prompt_format(vehicle_probes, tiny_causal, prompt_format,  # noqa: F811
                                                                     capsys):
    main = runpy.run_path(str(ROOT / "bin" / "zero_shot"), run_name="bin_script")["main"]
    data = vehicle_probes / "hypernymy" / "test.jsonl"
    assert main(["--model", tiny_causal("gpt2", 512), "--data", str(data), "--format", prompt_format,
                 "--cuda-device", "-1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["count"] == len(data.read_text().splitlines())
    assert 0 <= result["accuracy"] <= 1 and "strict_cluster_accuracy" in result and "choice_only_accuracy" in result


def test_allennlp_trains_and_evaluates_on_ontology_probes(vehicle_probes, tiny_bert, tmp_path):
    result = run(["train", "training_config/roberta_probe.jsonnet", "-s", str(tmp_path / "run")],
                 env={"MODEL_NAME": tiny_bert, "EPOCHS": "1", "BATCH_SIZE": "4", "LR": "1e-3",
                      "TRAIN_DATA": str(vehicle_probes / "part_of" / "train.jsonl"),
                      "DEV_DATA": str(vehicle_probes / "part_of" / "dev.jsonl")})
    assert result.returncode == 0, result.stderr[-3000:]
    evaluated = run(["evaluate", str(tmp_path / "run" / "model.tar.gz"), str(vehicle_probes / "part_of" / "test.jsonl"),
                     "--output-file", str(tmp_path / "metrics.json")])
    assert evaluated.returncode == 0, evaluated.stderr[-3000:]
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert 0 <= metrics["accuracy"] <= 1 and "cluster_accuracy" in metrics
    assert any(key.startswith("_breakdown/") for key in metrics)


def test_a_probe_whose_split_is_empty_is_not_scored_and_the_card_says_so(vehicle_probes, tiny_causal,  # noqa: F811
                                                                        tmp_path):
    """A relation probe too small to fill every split (its test.jsonl empty): the card goes on."""
    import shutil

    probes = tmp_path / "probes"
    shutil.copytree(vehicle_probes, probes)
    (probes / "part_of" / "test.jsonl").write_text("")
    (probes / "sinónimo").mkdir()  # a probe directory the manifest does not list: not scored, and said so
    manifest = json.loads((probes / "manifest.json").read_text())  # a probe the build left out: said so too
    manifest["skipped_probes"] = {"located_in": "no concept has a located_in link with valid distractors"}
    (probes / "manifest.json").write_text(json.dumps(manifest))
    shutil.copy(probes / "hypernymy" / "test.jsonl", probes / "sinónimo" / "test.jsonl")
    inputs = CardInputs(probes_dir=str(probes), olmpics_dir=None, winoventi_tsv=None, csqa_dev=None,
                        max_questions=3, cuda_device=-1, batch_size=4)
    report = build_report_card([tiny_causal("gpt2", max_positions=512)], tmp_path / "card", inputs, command="test",
                               progress=lambda line: None)
    wordnetqa = section(report, "wordnetqa")
    assert wordnetqa["shared"]["probes"] == ["definitions", "synonymy", "hypernymy", "hyponymy"]
    notes = " ".join(n for table in wordnetqa["tables"] for n in table["notes"])
    assert "Not scored: part_of (no question in the test split" in notes
    assert "Not scored either: sinónimo (a directory with test.jsonl that manifest.json does not list)" in notes
    assert ("Left out by the build (no probe files): located_in (no concept has a located_in link with valid "
            "distractors).") in notes


def test_a_split_empty_for_every_probe_is_said_so_not_taken_for_missing_files(vehicle_probes, tiny_causal,  # noqa: F811
                                                                             tmp_path):
    import shutil

    probes = tmp_path / "probes"
    shutil.copytree(vehicle_probes, probes)
    for probe in ("definitions", "synonymy", "hypernymy", "hyponymy", "part_of"):
        (probes / probe / "test.jsonl").write_text("")
    inputs = CardInputs(probes_dir=str(probes), olmpics_dir=None, winoventi_tsv=None, csqa_dev=None,
                        max_questions=3, cuda_device=-1, batch_size=4)
    report = build_report_card([tiny_causal("gpt2", max_positions=512)], tmp_path / "card", inputs, command="test",
                               progress=lambda line: None)
    (entry,) = section(report, "wordnetqa")["models"].values()
    assert entry["status"] == "absent"
    assert entry["reason"] == ("no questions: the test.jsonl of every probe (definitions, synonymy, hypernymy, "
                               "hyponymy, part_of) is empty (too few concepts to fill the split); --split dev or "
                               "train scores another")


def test_the_choice_only_control_leaves_out_a_probe_with_an_empty_split(vehicle_probes, tmp_path, monkeypatch):
    """The control trains on a probe's train split and is scored on its dev and test: a probe with an
    empty one gets none, the others theirs (was: the whole card stopped at the empty file)."""
    import shutil

    from mcqa_probes.experiments.report_card.wordnetqa import choice_only_control

    monkeypatch.setenv("GLOVE_FILE", str(FIXTURES / "glove" / "tiny_glove.txt"))
    probes = tmp_path / "probes"
    shutil.copytree(vehicle_probes, probes)
    (probes / "synonymy" / "train.jsonl").write_text("")
    inputs = CardInputs(probes_dir=str(probes), olmpics_dir=None, winoventi_tsv=None, csqa_dev=None, split="dev",
                        max_questions=3, cuda_device=-1, batch_size=4, control_epochs=1, control_max_train=20)
    control = choice_only_control(inputs, tmp_path / "card", progress=lambda line: None, quiet=True)
    assert sorted(control) == ["definitions", "hypernymy", "hyponymy", "part_of"]
    assert all(0 <= entry["dev"] <= 1 and entry["source"] == "computed" for entry in control.values())


def test_a_choice_only_glove_control_far_above_chance_is_flagged_on_the_card():
    """Choice-Only-GloVe at 65.5% on a 5-way probe (chance 20%) gives the answer away: its cell is
    flagged as the causal LM's own control is, and as bin/artifact_audit flags it (was: shown bare);
    44.9% (24.9 points above chance) is not."""
    from mcqa_probes.experiments.report_card.causal_lm import FLAG
    from mcqa_probes.experiments.report_card.wordnetqa import glove_control_cell, probe_chance

    section = {"models": {"smollm2": {"status": "done", "results": {"part_of": {"chance": 0.2}}}}}
    models = [{"label": "smollm2"}]
    chance = probe_chance(section, models, "part_of")
    assert chance == 0.2 and probe_chance(section, models, "hypernymy") is None
    flagged = glove_control_cell({"test": 0.655}, "test", chance)
    assert flagged["text"].endswith(FLAG) and "points above chance" in flagged["tooltip"]
    assert FLAG not in glove_control_cell({"test": 0.449}, "test", chance)["text"]
    assert FLAG not in glove_control_cell({"test": 0.655}, "test", None)["text"]     # no chance known: no verdict
