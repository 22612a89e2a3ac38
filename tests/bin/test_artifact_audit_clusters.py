"""The artifact audit carves a missing dev/test split by whole semantic clusters (issue 12.9)."""
import json

import pytest

from mcqa_probes.experiments.wordnetqa.artifact_audit import clusters_of, format_table, prepare_splits
from mcqa_probes.metrics.probe_records import cluster_key


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
    lines = [json.dumps({k: v for k, v in question(i, 0).items() if k != "notes"}) for i in range(3)]
    assert [len(c) for c in clusters_of(lines)] == [1, 1, 1]


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
