"""Sharded causal-LM scoring (``score_in_shards``, ``bin/causal_shards``) on a tiny random GPT-2: N shards
give the predictions and metrics of one shard and of one plain ``allennlp evaluate`` run; finished
shards are reused; Ray workers give the serial results."""
import json

import pytest
from allennlp.data import Vocabulary

from mcqa_probes.common import cli
from mcqa_probes.experiments.causal_lm.shards import read_instances, score_in_shards, shard_bounds
from mcqa_probes.experiments.grid import start_ray
from mcqa_probes.models.causal_lm_mc import CausalLmMc
from mcqa_probes.training.evaluation import evaluate_instances
from tests import causal_models
from tests.conftest import FIXTURES, load_bin

tiny_causal = causal_models.tiny_causal  # the session fixture: a tiny random causal LM per family

PROBE = FIXTURES / "probes" / "hypernymy" / "dev.jsonl"  # 12 questions in clusters
WINOVENTI = FIXTURES / "winoventi" / "winoventi_small.tsv"
COMPARED = ("accuracy", "accuracy_sum", "accuracy_mean", "accuracy_chars", "accuracy_pmi", "choice_only_accuracy")


def predictions(directory):
    return [json.loads(line) for line in (directory / "predictions.jsonl").read_text().splitlines()]


FLOATS = ("loglikelihood", "choice_only_loglikelihood")


def assert_same_predictions(ours, theirs):
    """Same questions, choices and counts exactly; log-likelihoods to float rounding (the choice-only
    requests of a batch share the neutral prompt's packed row, whose composition depends on the slice)."""
    assert [{k: v for k, v in r.items() if k not in FLOATS} for r in ours] == \
        [{k: v for k, v in r.items() if k not in FLOATS} for r in theirs]
    for a, b in zip(ours, theirs):
        for key in FLOATS:
            assert a[key] == pytest.approx(b[key], abs=1e-4), (a["id"], key)


def trial_pids(directory):
    return {json.loads((path.parent / "result.json").read_text())["id"]: path.read_text().split("pid ")[1].split(",")[0]
            for path in sorted((directory / "trials").glob("*/trial.log"))}


def test_shard_bounds_are_contiguous_and_cover_every_question():
    assert shard_bounds(10, 3) == [range(0, 3), range(3, 6), range(6, 10)]
    assert [len(r) for r in shard_bounds(2, 3)] == [0, 1, 1]
    with pytest.raises(ValueError):
        shard_bounds(5, 0)


def test_shard_bounds_on_batch_boundaries():
    """With a step (the batch size) every shard starts where a batch of one unsharded run starts."""
    assert shard_bounds(10, 2, step=4) == [range(0, 4), range(4, 10)]  # 3 batches: 1 + 2
    assert shard_bounds(12, 3, step=4) == [range(0, 4), range(4, 8), range(8, 12)]
    assert shard_bounds(6, 3, step=4) == [range(0, 0), range(0, 4), range(4, 6)]  # 2 batches for 3 shards
    for count, shards, step in ((37, 4, 5), (100, 7, 32), (3, 5, 2)):
        bounds = shard_bounds(count, shards, step)
        assert [i for r in bounds for i in r] == list(range(count))
        assert all(r.start % step == 0 for r in bounds)
    assert shard_bounds(10, 3, step=1) == shard_bounds(10, 3)


@pytest.mark.parametrize("data", [PROBE, WINOVENTI], ids=["probe", "winoventi"])
def test_three_shards_equal_one_shard_and_one_evaluate_run(tmp_path, tiny_causal, data):
    model_dir = tiny_causal("gpt2")
    one = score_in_shards(model_dir, str(data), str(tmp_path / "one"), 1, workers=1, quiet=True)
    three = score_in_shards(model_dir, str(data), str(tmp_path / "three"), 3, workers=1, quiet=True)
    assert_same_predictions(predictions(tmp_path / "three"), predictions(tmp_path / "one"))
    assert three["metrics"] == one["metrics"]
    records = predictions(tmp_path / "three")
    instances = read_instances(str(data))
    assert [r["index"] for r in records] == list(range(len(instances)))
    assert [r["id"] for r in records] == [i["metadata"].metadata["id"] for i in instances]
    assert all(len(r["loglikelihood"]) == len(r["choice_only_loglikelihood"]) == len(i["metadata"].metadata["choices"])
               for r, i in zip(records, instances))
    assert len({r["best"] for r in records}) > 1 or len(records) < 3  # not a constant answer
    # the same numbers as ONE plain allennlp evaluate run of the model on the file
    model = CausalLmMc(Vocabulary(), model_dir, score="sum", choice_only_control=True)
    reference = evaluate_instances(model, instances)
    for key in COMPARED + tuple(k for k in reference if "strict" in k or k.endswith("_accuracy")):
        assert three["metrics"][key] == pytest.approx(reference[key], abs=1e-12), key
    if data == PROBE:
        assert 0 <= three["metrics"]["cluster_accuracy"] <= three["metrics"]["accuracy"]  # strict: every question of a cluster
    else:
        assert three["metrics"]["generic_count"] + three["metrics"]["exception_count"] == len(records)
    saved = json.loads((tmp_path / "three" / "metrics.json").read_text())
    assert saved["metrics"] == three["metrics"] and saved["shards"] == 3 and saved["questions"] == len(records)


def test_finished_shards_are_reused_and_a_missing_one_is_rescored(tmp_path, tiny_causal):
    model_dir, out = tiny_causal("gpt2"), tmp_path / "out"
    first = score_in_shards(model_dir, str(PROBE), str(out), 3, workers=1, limit=9, quiet=True)
    assert first["grid"] == {**first["grid"], "run": 3, "reused": 0}
    before = predictions(out)
    again = score_in_shards(model_dir, str(PROBE), str(out), 3, workers=1, limit=9, quiet=True)
    assert (again["grid"]["run"], again["grid"]["reused"]) == (0, 3) and predictions(out) == before
    (out / "trials" / "shard-001-of-003" / "result.json").unlink()  # as if killed mid-shard
    resumed = score_in_shards(model_dir, str(PROBE), str(out), 3, workers=1, limit=9, quiet=True)
    assert (resumed["grid"]["run"], resumed["grid"]["reused"]) == (1, 2) and predictions(out) == before
    other = score_in_shards(model_dir, str(PROBE), str(out), 3, workers=1, limit=9, score="chars", quiet=True)
    assert other["grid"]["run"] == 3  # another spec: nothing reused
    assert [r["score"] for r in predictions(out)] == ["chars"] * 9


def test_two_ray_workers_give_the_serial_predictions(tmp_path, tiny_causal):
    model_dir = tiny_causal("gpt2")
    serial = score_in_shards(model_dir, str(PROBE), str(tmp_path / "serial"), 2, workers=1, limit=6, quiet=True)
    ray = start_ray(num_cpus=2)
    try:
        parallel = score_in_shards(model_dir, str(PROBE), str(tmp_path / "ray"), 2, workers=2, limit=6, quiet=True)
    finally:
        ray.shutdown()
    assert_same_predictions(predictions(tmp_path / "ray"), predictions(tmp_path / "serial"))
    assert parallel["metrics"] == serial["metrics"]
    assert len(set(trial_pids(tmp_path / "ray").values())) >= 2  # the shards ran in Ray worker processes


load_command = load_bin


def test_the_command_line(tmp_path, tiny_causal, capsys):
    command = load_command("causal_shards")
    out = tmp_path / "cli"
    arguments = ["--model", tiny_causal("gpt2"), "--data", str(PROBE), "--out", str(out), "--shards", "2",
                 "--workers", "1", "--limit", "6", "--score", "mean", "--cuda-device", "-1", "--flag-margin", "-1"]
    assert cli.run(command.main, arguments) == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert printed["questions"] == 6 and printed["shards"] == 2 and printed["score"] == "mean"
    assert printed["accuracy"] == printed["metrics"]["accuracy_mean"] and printed["count"] == 6
    assert printed["flag"]["margin"] == -1 and printed["flag"]["accuracy"] == printed["metrics"]["choice_only_accuracy"]
    assert printed["metrics"] == json.loads((out / "metrics.json").read_text())["metrics"]
    assert len(predictions(out)) == 6
    # errors are one line naming the problem
    assert cli.run(command.main, ["--data", str(tmp_path / "nope.jsonl"), "--out", str(out)]) == 2
    assert "nope.jsonl" in capsys.readouterr().err
