"""bin/zero_shot --items-file (the item records, through the one writer) and --determinism-check N."""
import json
import runpy

import numpy
import pytest

from mcqa_probes.common import cli
from mcqa_probes.metrics.item_records import read_item_records
from tests.causal_models import tiny_causal  # noqa: F401
from tests.conftest import FIXTURES, ROOT
from tests.metrics.test_item_records import pride_by_numpy

HYPERNYMY = FIXTURES / "probes" / "hypernymy" / "dev.jsonl"
MC_MLM = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl"
CAUSAL_PROMPTS = {"cloze/sum", "cloze/mean", "cloze/chars", "cloze/pmi", "choice_only"}


def bin_main(name):
    return runpy.run_path(str(ROOT / "bin" / name), run_name="bin_script")["main"]


def printed(capsys):
    return [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]


def by_probe(records):
    found = {}
    for record in records:
        found.setdefault(record["probe"], []).append(record)
    return found


def test_causal_items_file_holds_every_question_of_every_file_and_gives_the_printed_accuracy(tiny_causal, tmp_path,
                                                                                          capsys):
    directory = tiny_causal("gpt2", 512)
    items = tmp_path / "items.jsonl"
    assert bin_main("zero_shot")(["--model", directory, "--data", str(HYPERNYMY), str(MC_MLM), "--limit", "4",
                                  "--items-file", str(items), "--cuda-device", "-1", "--quiet"]) == 0
    results = printed(capsys)
    records = by_probe(read_item_records(items))
    assert list(records) == ["hypernymy/dev", "number_comparison_age_compare_masked_dev"]
    for result, (probe, mine) in zip(results, records.items()):
        assert len(mine) == result["count"] == 4
        assert {r["model"] for r in mine} == {directory} and {r["section"] for r in mine} == {"zero_shot"}
        assert {r["primary"] for r in mine} == {"cloze/sum"}
        assert all(set(r["scores"]) == CAUSAL_PROMPTS for r in mine)
        for score in ("sum", "mean", "chars", "pmi"):
            right = sum(r["correct"][f"cloze/{score}"] for r in mine)
            assert right / len(mine) == pytest.approx(result[f"accuracy_{score}"]), (probe, score)
        assert sum(r["correct"]["choice_only"] for r in mine) / 4 == pytest.approx(result["choice_only_accuracy"])
        assert "determinism_questions" not in result
    hypernymy = records["hypernymy/dev"]
    assert all(r["cluster"] and r["hops"] is not None for r in hypernymy)


def test_causal_rotations_give_one_record_per_question_with_every_rotation(tiny_causal, tmp_path, capsys):
    directory = tiny_causal("llama", 1024)
    items = tmp_path / "letters.jsonl"
    assert bin_main("zero_shot")(["--model", directory, "--data", str(HYPERNYMY), "--format", "letters",
                                  "--rotations", "cyclic", "--limit", "3", "--items-file", str(items),
                                  "--cuda-device", "-1", "--quiet"]) == 0
    result = printed(capsys)[0]
    records = read_item_records(items)
    rotations = {f"letters/rot{k}" for k in range(5)}
    assert len(records) == 3 and all(set(r["scores"]) == rotations | {f"letters/pride/rot{k}" for k in range(5)}
                                     for r in records)
    for k in range(5):
        assert sum(r["correct"][f"letters/rot{k}"] for r in records) / 3 == pytest.approx(result[f"accuracy_rotation_{k}"])
    # PriDe: the records' debiased answers are the run's debiased_accuracy, their probabilities PriDe
    # recomputed with numpy from the records' own letter scores (position p of rotation r shows choice p - r)
    assert sum(r["correct"][f"letters/pride/rot{k}"] for r in records for k in range(5)) / 15 == \
        pytest.approx(result["debiased_accuracy"])
    shown = numpy.array([[[r["scores"][f"letters/rot{k}"][(p - k) % 5] for p in range(5)] for k in range(5)]
                         for r in records])
    expected, prior = pride_by_numpy(shown)
    assert list(prior) == pytest.approx([result[f"letter_prior_{letter}"] for letter in "ABCDE"], abs=1e-9)
    for record, debiased in zip(records, expected):
        for k in range(5):
            assert record["probabilities"][f"letters/pride/rot{k}"] == pytest.approx(list(debiased[k]), abs=1e-9)


def test_sharded_items_file_and_determinism_check_are_those_of_one_run(tiny_causal, tmp_path, capsys):
    """--shards with --items-file and --determinism-check: the shards (cut at batch boundaries: 10
    questions in batches of 4 give shards [0, 4) and [4, 10), not [0, 5) and [5, 10)) write their
    records and audit their part of the run's draw; the merged items file is byte for byte the unsharded
    run's, the audit line the unsharded run's."""
    directory = tiny_causal("gpt2", 512)
    main = bin_main("zero_shot")
    common = ["--model", directory, "--data", str(HYPERNYMY), str(MC_MLM), "--limit", "10", "--batch-size", "4",
              "--determinism-check", "3", "--cuda-device", "-1", "--quiet"]
    one, sharded, out = tmp_path / "one.jsonl", tmp_path / "sharded.jsonl", tmp_path / "shards"
    assert main(common + ["--items-file", str(one)]) == 0
    whole = printed(capsys)
    assert main(common + ["--items-file", str(sharded), "--shards", "2", "--out", str(out), "--workers", "1"]) == 0
    parts = printed(capsys)
    assert sharded.read_bytes() == one.read_bytes()
    assert len(read_item_records(sharded)) == 20
    audit = ("determinism_questions", "determinism_max_score_difference", "determinism_changed_answers")
    for plain, split in zip(whole, parts):
        assert split["shards"] == 2 and split["questions"] == plain["count"] == 10
        assert {key: split[key] for key in audit} == {key: plain[key] for key in audit}
        assert split["metrics"]["accuracy"] == plain["accuracy"]
    trials = sorted((out / HYPERNYMY.name / "trials").glob("*/result.json"))
    results = [json.loads(path.read_text()) for path in trials]
    assert [(r["result"]["start"], r["result"]["stop"]) for r in results] == [(0, 4), (4, 10)]
    picked = [i for r in results for i in r["spec"]["determinism_picks"]]
    assert len(picked) == 3 and sum(r["result"]["determinism"]["questions"] for r in results
                                    if r["result"]["determinism"]) == 3


def test_causal_determinism_check_agrees_with_a_batch_size_1_run(tiny_causal, tmp_path, capsys):
    """The audit re-scores N of the questions alone: its largest difference is at most the largest
    difference between a whole run in batches and a whole run at batch size 1, its changed answers at
    most the questions whose answer differs between the two runs."""
    directory = tiny_causal("gpt2", 512)
    main = bin_main("zero_shot")
    batched, alone = tmp_path / "batched.jsonl", tmp_path / "alone.jsonl"
    assert main(["--model", directory, "--data", str(HYPERNYMY), "--limit", "6", "--batch-size", "32",
                 "--determinism-check", "3", "--items-file", str(batched), "--cuda-device", "-1", "--quiet"]) == 0
    result = printed(capsys)[0]
    assert result["determinism_questions"] == 3 and isinstance(result["determinism_changed_answers"], int)
    assert 0 <= result["determinism_changed_answers"] <= 3
    assert 0.0 <= result["determinism_max_score_difference"] < 1e-3  # fp32 on the CPU: float noise at most
    assert main(["--model", directory, "--data", str(HYPERNYMY), "--limit", "6", "--batch-size", "1",
                 "--items-file", str(alone), "--cuda-device", "-1", "--quiet"]) == 0
    assert printed(capsys)[0]["accuracy"] == result["accuracy"] or result["determinism_changed_answers"]
    one = {r["id"]: r for r in read_item_records(alone)}
    largest = max(abs(a - b) for r in read_item_records(batched)
                  for a, b in zip(r["scores"]["cloze/sum"], one[r["id"]]["scores"]["cloze/sum"]))
    changed = sum(r["chosen"]["cloze/sum"] != one[r["id"]]["chosen"]["cloze/sum"] for r in read_item_records(batched))
    assert result["determinism_max_score_difference"] <= largest + 1e-9
    assert result["determinism_changed_answers"] <= changed


def test_masked_lm_items_file_and_determinism_check(tiny_bert, tmp_path, capsys):
    items = tmp_path / "mlm.jsonl"
    assert bin_main("zero_shot")(["--model", tiny_bert, "--data", str(MC_MLM), "--items-file", str(items),
                                  "--determinism-check", "2", "--cuda-device", "-1", "--quiet"]) == 0
    result = printed(capsys)[0]
    records = read_item_records(items)
    assert len(records) == result["count"] and {r["primary"] for r in records} == {"mlm"}
    assert {r["probe"] for r in records} == {"number_comparison_age_compare_masked_dev"}
    assert sum(r["correct"]["mlm"] for r in records) / len(records) == pytest.approx(result["accuracy"])
    assert result["determinism_questions"] == 2 and 0 <= result["determinism_changed_answers"] <= 2
    assert 0.0 <= result["determinism_max_score_difference"] < 1e-3


def test_item_and_determinism_options_are_checked_before_the_model_loads(tmp_path, capsys):
    main = bin_main("zero_shot")
    other = tmp_path / "synonymy" / "dev.jsonl"
    other.parent.mkdir()
    other.write_text(HYPERNYMY.read_text())
    same = tmp_path / "hypernymy" / "dev.jsonl"
    same.parent.mkdir()
    same.write_text(HYPERNYMY.read_text())
    model = str(tmp_path / "no_model")  # never loaded: every error below comes first
    assert cli.run(main, ["--model", model, "--data", str(HYPERNYMY), "--determinism-check", "-1"]) == 2
    assert "--determinism-check -1: expected a number of questions >= 0" in capsys.readouterr().err
    assert cli.run(main, ["--model", model, "--data", str(HYPERNYMY), str(same), "--items-file",
                          str(tmp_path / "i.jsonl")]) == 2
    assert "would both be probe 'hypernymy/dev'" in capsys.readouterr().err
    assert cli.run(main, ["--model", model, "--data", str(HYPERNYMY), "--items-file", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    # two split files of two probes are two probes: only the model is wrong here
    assert cli.run(main, ["--model", model, "--data", str(HYPERNYMY), str(other), "--items-file",
                          str(tmp_path / "i.jsonl")]) == 2
    assert "no_model" in capsys.readouterr().err
    assert not (tmp_path / "i.jsonl").exists()


def test_questions_that_share_an_id_get_a_record_each(tiny_causal, tmp_path, capsys):
    """Released files repeat ids: every question keeps its own record, choices and scores."""
    directory = tiny_causal("gpt2", 512)
    lines = HYPERNYMY.read_text().splitlines()[:3]
    shared = json.loads(lines[0])["id"]
    same_id = [json.dumps({**json.loads(line), "id": shared}) for line in lines]
    data = tmp_path / "repeated.jsonl"
    data.write_text("\n".join(same_id) + "\n")
    items = tmp_path / "items.jsonl"
    assert bin_main("zero_shot")(["--model", directory, "--data", str(data), "--items-file", str(items),
                                  "--cuda-device", "-1", "--quiet"]) == 0
    result = printed(capsys)[0]
    records = read_item_records(items)
    assert [r["id"] for r in records] == [shared, f"{shared}#2", f"{shared}#3"]
    assert [r["choices"] for r in records] == [[c["text"] for c in json.loads(line)["question"]["choices"]]
                                               for line in lines]
    assert result["count"] == 3 and sum(r["correct"]["cloze/sum"] for r in records) / 3 == pytest.approx(
        result["accuracy_sum"])
