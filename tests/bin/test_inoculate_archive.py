"""bin/inoculate --base-archive on probes built from a user's ontology: the grid goes on training the
archive with the reader it was trained with (its transformer, word-piece limit and truncation, read
from its config when --model-name is not given), so the inoculation cost is measured from the
archive's own accuracy."""
import csv
import json
import runpy
import shutil
import sys

import pytest
from allennlp.commands.train import train_model_from_file

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.common import cli
from mcqa_probes.builders.ontology_build import build_ontology_probes
from mcqa_probes.knowledge.source import load_source
from mcqa_probes.training.evaluation import evaluate_file, load_archived_model
from tests.bin.test_model_names import LOADED, command, error_lines
from tests.conftest import DATA, FIXTURES, ROOT
from tests.data.test_archives import write_archive
from tests.models.test_transformer_mcqa import write_config

ORIGINAL = DATA / "dictionary_qa.jsonl"


@pytest.fixture(scope="module")
def base_and_probes(tmp_path_factory, tiny_bert):
    directory = tmp_path_factory.mktemp("inoculate_archive")
    graph = load_source(FIXTURES / "ontologies" / "vehicles.obo", relations=["part_of"])
    build_ontology_probes(directory / "probes", graph, relations=["part_of"])
    config = write_config(directory, tiny_bert, train_file="dictionary_qa.jsonl")  # max_length 64
    train_model_from_file(str(config), str(directory / "base"))
    return directory


def test_the_archive_is_inoculated_with_the_reader_it_was_trained_with(base_and_probes, tiny_bert):
    out = base_and_probes / "sweep"
    main = runpy.run_path(str(ROOT / "bin" / "inoculate"), run_name="bin_script")["main"]
    archive = base_and_probes / "base" / "model.tar.gz"
    assert main(["--base-archive", str(archive), "--probe-dir", str(base_and_probes / "probes" / "hypernymy"),
                 "--orig-dev", str(ORIGINAL), "--dosages", "4,8", "--lrs", "1e-3", "--epochs", "1",
                 "--batch-size", "4", "--workers", "1", "--cuda-device", "-1", "--out", str(out)]) == 0
    with open(out / "inoculation.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["k"] for row in rows] == ["4", "8"]
    loaded = load_archived_model(str(archive))
    before = evaluate_file(loaded.model, loaded.reader, str(ORIGINAL), 8)["accuracy"]
    assert all(float(row["orig_accuracy_before"]) == pytest.approx(before) for row in rows)
    for row in rows:
        base_reader = json.loads((out / "runs" / f"k{row['k']}_lr0.001_add0" / "config.json").read_text()
                                 )["dataset_reader"]["base_reader"]
        assert (base_reader["transformer_model_name"], base_reader["max_length"], base_reader["truncation"]) == (
            tiny_bert, 64, "longest_first")


def test_a_probe_whose_test_split_is_empty_is_inoculated_and_scored_on_dev_only(base_and_probes, tmp_path):
    """A probe too small to fill its test split (bin/build_probes writes it empty, with a note): the
    run is kept, its test accuracy left blank, as for a probe without a test.jsonl."""
    probe = tmp_path / "hypernymy"
    shutil.copytree(base_and_probes / "probes" / "hypernymy", probe)
    (probe / "test.jsonl").write_text("")
    main = runpy.run_path(str(ROOT / "bin" / "inoculate"), run_name="bin_script")["main"]
    out = tmp_path / "sweep"
    assert main(["--base-archive", str(base_and_probes / "base" / "model.tar.gz"), "--probe-dir", str(probe),
                 "--orig-dev", str(ORIGINAL), "--dosages", "4", "--lrs", "1e-3", "--epochs", "1", "--batch-size", "4",
                 "--workers", "1", "--cuda-device", "-1", "--out", str(out)]) == 0
    with open(out / "inoculation.csv") as handle:
        (row,) = list(csv.DictReader(handle))
    assert row["probe_test_accuracy"] == "" and float(row["probe_dev_accuracy"]) >= 0


def test_a_base_archive_that_cannot_be_read_whose_transformer_has_moved_or_another_model_name_is_one_line(
        base_and_probes, tmp_path):
    """Each one line before torch loads: allennlp loads an archive's transformer by the name in its
    config (a moved directory cannot be named instead), and another transformer's word pieces are
    not the archive's (an index error, or a run that means nothing)."""
    common = ["--probe-dir", base_and_probes / "probes" / "hypernymy", "--orig-dev", ORIGINAL, "--out", tmp_path / "out"]
    not_an_archive = tmp_path / "model.tar.gz"
    not_an_archive.write_text("no archive")
    moved = write_archive(tmp_path / "moved.tar.gz", {
        "dataset_reader": {"type": "mcqa", "transformer_model_name": str(tmp_path / "gone")}})
    trained = base_and_probes / "base" / "model.tar.gz"
    for archive, extra, expected in [
            (not_an_archive, [], f"{not_an_archive}: not a readable model archive (.tar.gz): "),
            (moved, [], f"{moved}: the transformer it was trained with cannot be loaded here ({tmp_path / 'gone'}: "),
            (trained, ["--model-name", "minilm"], f"--model-name minilm: the archive {trained} was trained with ")]:
        result = command([sys.executable, "-c", LOADED, ROOT / "bin" / "inoculate", "--base-archive", archive, *extra,
                          *common])
        lines = error_lines(result)
        assert len(lines) == 1 and lines[0].startswith(f"error: {expected}"), result.stderr[-3000:]
        assert json.loads(result.stdout.strip().splitlines()[-1]) == {"status": cli.BAD_INPUT, "loaded": []}
    assert not (tmp_path / "out").exists()


def test_a_relative_base_archive_is_named_absolutely_so_the_inoculated_archive_loads_anywhere(
        base_and_probes, tmp_path, monkeypatch):
    """Each run's config names the base archive (from_archive): given relative to the directory the
    sweep ran in, its model.tar.gz would load only from there."""
    main = runpy.run_path(str(ROOT / "bin" / "inoculate"), run_name="bin_script")["main"]
    monkeypatch.chdir(base_and_probes)
    out = tmp_path / "sweep"
    assert main(["--base-archive", "base/model.tar.gz", "--probe-dir", "probes/hypernymy", "--orig-dev", str(ORIGINAL),
                 "--dosages", "4", "--lrs", "1e-3", "--epochs", "1", "--batch-size", "4", "--workers", "1",
                 "--cuda-device", "-1", "--out", str(out)]) == 0
    run = out / "runs" / "k4_lr0.001_add0"
    assert json.loads((run / "config.json").read_text())["model"]["archive_file"] == str(
        base_and_probes / "base" / "model.tar.gz")
    monkeypatch.chdir(tmp_path)  # elsewhere
    loaded = load_archived_model(str(run / "model.tar.gz"))
    assert evaluate_file(loaded.model, loaded.reader, str(ORIGINAL), 8)["accuracy"] >= 0
