"""The artifact audit carves a missing dev/test split by whole semantic clusters (issue 12.9)."""
import json

import pytest

from mcqa_probes.experiments.wordnetqa.artifact_audit import clusters_of, format_table, prepare_splits
from mcqa_probes.data.question import cluster_key


def question(i, cluster, key="synset"):
    data = {"id": f"q{i}", "answerKey": "A",
            "question": {"stem": f"stem {i}", "choices": [{"label": "A", "text": "a"}, {"label": "B", "text": "b"}]}}
    if key == "synset":
        data["notes"] = {"synset_id": cluster, "gold_synset": f"w{cluster}.n.01"}
    else:
        data["question_concept"] = f"concept{cluster}"
    return data


def write_probe(tmp_path, key="synset", clusters=10, per_cluster=4):
    directory = tmp_path / "probe"
    directory.mkdir()
    lines = [json.dumps(question(c * per_cluster + j, c, key)) for j in range(per_cluster) for c in range(clusters)]
    (directory / "train.jsonl").write_text("\n".join(lines) + "\n")
    return directory


def keys(path):
    return {cluster_key(json.loads(line)) for line in open(path) if line.strip()}


@pytest.mark.parametrize("key", ["synset", "concept"])
def test_no_cluster_is_in_train_and_a_carved_split(tmp_path, key):
    splits = prepare_splits(write_probe(tmp_path, key), tmp_path / "out", dev_size=8, test_size=6)
    paths = splits["paths"]
    train, dev, test = keys(paths["train"]), keys(paths["dev"]), keys(paths["test"])
    assert not (train & dev) and not (train & test) and not (dev & test)
    assert splits["sizes"] == {"dev": 8, "test": 8, "train": 24}  # 2 clusters each (6 rounds up to 8)
    assert splits["carved"] == {"dev": {"questions": 8, "clusters": 2}, "test": {"questions": 8, "clusters": 2}}
    assert "by whole semantic clusters" in splits["sources"]["dev"]


def test_questions_without_a_key_are_their_own_cluster(tmp_path):
    records = [(json.dumps(data), data) for data in
               ({k: v for k, v in question(i, 0).items() if k != "notes"} for i in range(3))]
    assert [len(c) for c in clusters_of(records)] == [1, 1, 1]


def test_report_says_how_the_splits_were_carved(tmp_path):
    splits = prepare_splits(write_probe(tmp_path), tmp_path / "out", dev_size=4, test_size=4)
    report = {"models": ["random"], "settings": {"seed": 0, "epochs": 1, "glove_file": None, "flag_margin": 0.25},
              "probes": {"probe": {"splits": splits, "results": {"random": {"dev": 0.5, "test": 0.5,
                                                                            "dev_chance": 0.5, "test_chance": 0.5}}}}}
    text = format_table(report)
    assert "Held out of train by whole semantic clusters" in text and "probe dev (4 questions, 1 clusters)" in text


def test_too_few_clusters_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="leaves no training question"):
        prepare_splits(write_probe(tmp_path, clusters=2), tmp_path / "out", dev_size=3, test_size=3)


# ---------------------------------------------------------------------------- the cap on dev / test (--eval-max)
def write_split(directory, name, sizes, first=1000):
    """``name``.jsonl with one cluster per entry of ``sizes`` (cluster ids from ``first``), interleaved."""
    lines, number = [], 0
    for j in range(max(sizes)):
        for c, size in enumerate(sizes):
            if j < size:
                lines.append(json.dumps(question(10000 + number, first + c)))
                number += 1
    (directory / f"{name}.jsonl").write_text("\n".join(lines) + "\n")
    return lines


def counts(path):
    found = {}
    for line in open(path):
        key = cluster_key(json.loads(line))
        found[key] = found.get(key, 0) + 1
    return found


SIZES = [1, 2, 3, 4, 5, 6, 7, 8] * 5  # 40 clusters, 180 questions


def test_a_given_dev_larger_than_the_cap_is_cut_to_whole_clusters(tmp_path):
    probe = write_probe(tmp_path)
    dev_lines = write_split(probe, "dev", SIZES)
    write_split(probe, "test", SIZES, first=2000)
    splits = prepare_splits(probe, tmp_path / "out", eval_max=50)
    whole = {str(1000 + c): size for c, size in enumerate(SIZES)}
    kept = counts(splits["paths"]["dev"])
    assert kept and all(whole[key] == n for key, n in kept.items())  # no cluster split
    used = splits["eval"]["dev"]
    assert used == {"questions": sum(kept.values()), "clusters": len(kept), "of_questions": 180, "of_clusters": 40,
                    "max": 50, "seed": "0:dev"}
    assert 50 - 8 < used["questions"] <= 50 and splits["sizes"]["dev"] == used["questions"]
    # the kept lines are the file's own lines, in file order
    written = open(splits["paths"]["dev"]).read().splitlines()
    assert written == [line for line in dev_lines if line in set(written)]
    source = splits["sources"]["dev"]
    assert "of the 180 questions of" in source and "whole semantic clusters" in source
    assert splits["eval"]["test"]["questions"] <= 50 and splits["eval"]["test"]["of_questions"] == 180


def test_the_cap_is_seeded_and_deterministic(tmp_path):
    probe = write_probe(tmp_path)
    write_split(probe, "dev", SIZES)
    write_split(probe, "test", SIZES, first=2000)
    first = prepare_splits(probe, tmp_path / "a", eval_max=50)
    again = prepare_splits(probe, tmp_path / "b", eval_max=50)
    for name in ("train", "dev", "test"):
        assert open(first["paths"][name], "rb").read() == open(again["paths"][name], "rb").read()
    samples = {frozenset(counts(prepare_splits(probe, tmp_path / f"s{seed}", seed=seed, eval_max=50)["paths"]["dev"]))
               for seed in range(4)}
    assert len(samples) > 1  # another seed, another sample


def test_eval_max_0_keeps_every_question_and_a_small_file_is_kept_whole(tmp_path):
    probe = write_probe(tmp_path)
    dev_lines = write_split(probe, "dev", SIZES)
    write_split(probe, "test", SIZES, first=2000)
    for cap in (0, 180, 1000):
        splits = prepare_splits(probe, tmp_path / f"out{cap}", eval_max=cap)
        assert open(splits["paths"]["dev"]).read().splitlines() == dev_lines
        assert splits["eval"]["dev"]["questions"] == splits["eval"]["dev"]["of_questions"] == 180
        assert splits["sources"]["dev"] == str(probe / "dev.jsonl")


def test_a_carved_split_is_carved_at_most_at_the_cap(tmp_path):
    splits = prepare_splits(write_probe(tmp_path, clusters=30), tmp_path / "out", dev_size=40, test_size=4, eval_max=8)
    assert splits["carved"]["dev"] == {"questions": 8, "clusters": 2} and splits["sizes"]["dev"] == 8
    assert splits["eval"]["dev"]["carved"] and splits["eval"]["dev"]["max"] == 8


def test_the_output_states_the_cap(tmp_path, capsys):
    from tests.bin.test_artifact_audit import load_cli

    probe = write_probe(tmp_path)
    write_split(probe, "dev", SIZES)
    write_split(probe, "test", [3] * 10, first=2000)
    out = tmp_path / "audit"
    assert load_cli().main(["--probe-dir", str(probe), "--models", "random", "--out", str(out),
                            "--eval-max", "50", "--workers", "1"]) == 0
    printed = capsys.readouterr()
    report = json.loads((out / "artifact_audit.json").read_text())
    assert report["settings"]["eval_max"] == 50
    used = report["probes"]["probe"]["splits"]["eval"]
    dev = f"dev {used['dev']['questions']} of 180 questions ({used['dev']['clusters']} of 40 clusters)"
    assert used["dev"]["questions"] < 180 and used["test"]["questions"] == 30
    for text in (printed.out, (out / "artifact_audit.md").read_text()):
        assert "Dev / test used (at most 50 questions each, a seeded sample of whole semantic clusters" in text
        assert f"probe: {dev}, test all 30 questions (10 clusters)" in text
    assert f"probe: {dev}, test all 30 questions (10 clusters)" in printed.err  # the progress line, before training
    assert report["probes"]["probe"]["results"]["random"]["dev_chance"] == 0.5


def test_the_default_cap_applies_to_run_audit_and_the_command_line(tmp_path, capsys):
    import inspect

    from mcqa_probes.experiments.wordnetqa.artifact_audit import DEFAULT_EVAL_MAX, run_audit
    from tests.bin.test_artifact_audit import load_cli

    assert DEFAULT_EVAL_MAX == 2000
    assert inspect.signature(run_audit).parameters["eval_max"].default == DEFAULT_EVAL_MAX
    probe = write_probe(tmp_path)
    write_split(probe, "dev", [3, 4] * 350)  # 2,450 questions in 700 clusters
    write_split(probe, "test", [2] * 100, first=5000)
    out = tmp_path / "audit"
    assert load_cli().main(["--probe-dir", str(probe), "--models", "random", "--out", str(out), "--workers", "1"]) == 0
    report = json.loads((out / "artifact_audit.json").read_text())
    used = report["probes"]["probe"]["splits"]["eval"]
    assert report["settings"]["eval_max"] == 2000 and 1996 < used["dev"]["questions"] <= 2000
    assert used["dev"]["of_questions"] == 2450 and used["test"]["questions"] == used["test"]["of_questions"] == 200
    assert sum(counts(report["probes"]["probe"]["splits"]["paths"]["dev"]).values()) == used["dev"]["questions"]
    assert "at most 2,000 questions each" in capsys.readouterr().out


# ---------------------------------------------------------------------------- reading the probe files once
def test_records_keep_the_lines_as_written_and_errors_name_file_and_line(tmp_path):
    from mcqa_probes.common.io import McqaFormatError
    from mcqa_probes.experiments.wordnetqa.artifact_audit import read_records

    data = question(1, 7)
    data["question"]["stem"] = "line\u2028separator and é"  # a raw U+2028 is not a JSON line break
    line = json.dumps(data, ensure_ascii=False)
    path = tmp_path / "a.jsonl"
    path.write_bytes(("\ufeff" + line + "\r\n\n" + json.dumps(question(2, 7)) + "\n").encode("utf-8"))
    records = read_records(path)
    assert [r[0] for r in records] == [line, json.dumps(question(2, 7))]
    assert records[0][1] == data and len(clusters_of(records)) == 1
    path.write_text(json.dumps(question(1, 7)) + "\n" + json.dumps({"id": "x", "question": {"stem": "s"}}) + "\n")
    with pytest.raises(McqaFormatError, match=r"a\.jsonl, line 2: expected \"choices\" to be a list"):
        read_records(path)
    path.write_text(json.dumps(question(1, 7)) + "\n{not json\n")
    with pytest.raises(McqaFormatError, match=r"a\.jsonl, line 2: invalid JSON"):
        read_records(path)
