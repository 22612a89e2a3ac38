import json
import shutil

import pytest

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.experiments.wordnetqa.artifact_audit import (
    find_flags, forget_run, format_table, prepare_splits, run_audit, trial_items_file)
from mcqa_probes.metrics.item_records import read_item_records
from tests.conftest import DATA, load_bin
from tests.models.glove_baseline_case import TINY_GLOVE


@pytest.fixture
def probe_dir(tmp_path):
    directory = tmp_path / "hypernymy"
    directory.mkdir()
    shutil.copy(DATA / "wordnetqa_hypernymy.jsonl", directory / "train.jsonl")
    return directory


def load_cli():
    return load_bin("artifact_audit")


def test_splits_hold_out_dev_and_test_when_missing(probe_dir, tmp_path):
    splits = prepare_splits(probe_dir, tmp_path / "out", max_train=5, dev_size=2, test_size=3)
    assert splits["sizes"] == {"dev": 2, "test": 4, "train": 5}  # whole clusters of 2 (synset_id)
    ids = {name: {json.loads(l)["id"] for l in open(path)} for name, path in splits["paths"].items()}
    assert not (ids["train"] & ids["dev"]) and not (ids["train"] & ids["test"]) and not (ids["dev"] & ids["test"])
    shutil.copy(DATA / "dictionary_qa.jsonl", probe_dir / "dev.jsonl")
    given = prepare_splits(probe_dir, tmp_path / "out2", dev_size=2, test_size=3)
    assert given["sizes"] == {"dev": 8, "test": 4, "train": 8}
    assert given["sources"]["dev"].endswith("dev.jsonl")


def test_audit_on_a_fixture_probe_writes_table_7_layout(probe_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("HIDDEN", "4")
    out = tmp_path / "audit"
    messages = []
    report = run_audit([probe_dir], out, models=["random", "choice_only", "vec_similarity", "question_to_choice"],
                       dev_size=2, test_size=2, epochs=1, glove_file=TINY_GLOVE, progress=messages.append)
    results = report["probes"]["hypernymy"]["results"]
    assert set(results) == {"random", "choice_only", "vec_similarity", "question_to_choice"}
    assert all(0.0 <= results[m][split] <= 1.0 for m in results for split in ("dev", "test"))
    assert results["random"]["test_chance"] == pytest.approx(0.2)
    assert report["probes"]["hypernymy"]["glove_coverage"]["dimension"] == 6
    table = (out / "artifact_audit.md").read_text()
    lines = table.splitlines()
    assert lines[0] == "| Model | hypernymy (Dev/Test) |"
    order = [l.split("|")[1].strip() for l in lines[2:8]]
    assert order == ["**Group 1: Baselines (direct training on the probe)**", "Random", "Choice-Only-GloVe",
                     "Question-to-Choice-VecSimilarity", "**Group 2: Task-Specific (non-transformer) Models**",
                     "Question-to-Choice-GloVe"]
    assert json.loads((out / "artifact_audit.json").read_text())["probes"]["hypernymy"]["splits"]["sizes"]["train"] == 8
    assert not list((out / "runs" / "hypernymy" / "choice_only").glob("*.th"))  # models not kept by default
    # every trained model's answers per question, as item records whose accuracy is the table's
    sizes = report["probes"]["hypernymy"]["splits"]["sizes"]
    for key in ("choice_only", "vec_similarity", "question_to_choice"):
        for split in ("dev", "test"):
            records = read_item_records(trial_items_file(out, "hypernymy", key, split))
            assert len(records) == sizes[split]
            assert {(r["model"], r["section"], r["probe"]) for r in records} == {
                (results[key]["row"], "artifact_audit", f"hypernymy/{split}")}
            assert sum(r["correct"][r["primary"]] for r in records) / len(records) == pytest.approx(results[key][split])
    assert not trial_items_file(out, "hypernymy", "random", "test").exists()  # it only guesses
    # a second run reuses the finished runs
    messages.clear()
    again = run_audit([probe_dir], out, models=["random", "choice_only"], dev_size=2, test_size=2, epochs=1,
                      glove_file=TINY_GLOVE, progress=messages.append)
    assert messages[0].startswith("hypernymy: dev 2 questions (1 clusters) held out of train")  # the splits used
    assert len(messages) == 3 and all("done before" in m for m in messages[1:])
    assert again["probes"]["hypernymy"]["results"]["choice_only"] == results["choice_only"]
    # a run told to be forgotten (e.g. finished before its item records were kept) is trained again
    trial_items_file(out, "hypernymy", "choice_only", "test").unlink()
    forget_run(out, "hypernymy", "choice_only")
    messages.clear()
    run_audit([probe_dir], out, models=["random", "choice_only"], dev_size=2, test_size=2, epochs=1,
              glove_file=TINY_GLOVE, progress=messages.append)
    assert len(messages) == 2 and "done before" in messages[1] and "random" in messages[1]
    assert len(read_item_records(trial_items_file(out, "hypernymy", "choice_only", "test"))) == sizes["test"]


def test_flags_partial_input_models_far_above_chance():
    def result(dev, test, row):
        return {"dev": dev, "test": test, "row": row}

    report = {
        "models": ["random", "choice_only", "question_to_choice"],
        "settings": {"seed": 1, "epochs": 1, "glove_file": None, "flag_margin": 0.15},
        "probes": {
            "biased": {"splits": {"sizes": {"train": 3, "dev": 1, "test": 1}}, "results": {
                "random": {"dev": 0.2, "test": 0.2, "dev_chance": 0.2, "test_chance": 0.2, "row": "Random"},
                "choice_only": result(0.30, 0.56, "Choice-Only-GloVe"),
                "question_to_choice": result(0.9, 0.9, "Question-to-Choice-GloVe")}},
            "clean": {"splits": {"sizes": {"train": 3, "dev": 1, "test": 1}}, "results": {
                "random": {"dev": 0.2, "test": 0.2, "dev_chance": 0.2, "test_chance": 0.2, "row": "Random"},
                "choice_only": result(0.25, 0.26, "Choice-Only-GloVe"),
                "question_to_choice": result(0.9, 0.9, "Question-to-Choice-GloVe")}},
        },
    }
    flags = find_flags(report, 0.15)
    assert [(f["probe"], f["split"], f["points_above_chance"]) for f in flags] == [("biased", "test", 36.0)]
    report["flags"] = flags
    table = format_table(report)
    assert "| Choice-Only-GloVe | 30.0 / 56.0 | 25.0 / 26.0 |" in table
    assert "- biased: Choice-Only-GloVe test 56.0% vs chance 20.0% (+36.0)" in table


def test_command_line(probe_dir, tmp_path, capsys):
    import torch

    threads = torch.get_num_threads()
    cli = load_cli()
    out = tmp_path / "cli"
    assert cli.main(["--probe-dir", str(probe_dir), "--models", "random", "--out", str(out),
                     "--dev-size", "2", "--test-size", "2"]) == 0
    printed = capsys.readouterr().out
    assert "| Random |" in printed and (out / "artifact_audit.md").is_file()
    with pytest.raises(ValueError, match="unknown model"):
        cli.main(["--probe-dir", str(probe_dir), "--models", "nope", "--out", str(out)])
    torch.set_num_threads(threads)
