"""causal_zero_shot_evaluate: accuracy, strict cluster accuracy and the choice-only flag against the model's
own logits by hand."""
import json

import pytest

from mcqa_probes.data.dataset_readers.causal_lm_mc import CausalLmMcReader
from mcqa_probes.data.question import read_questions
from mcqa_probes.experiments.causal_lm.zero_shot import build, causal_zero_shot_evaluate, choice_only_flag
from tests.causal_models import argmax, hand_scores, load, tiny_causal  # noqa: F401
from tests.conftest import FIXTURES

HYPERNYMY = FIXTURES / "probes" / "hypernymy" / "dev.jsonl"


def hand_answers(directory, scorer, path, limit):
    lm, _ = load(directory)
    instances = list(CausalLmMcReader().read(str(path)))[:limit]
    scores = [hand_scores(lm, scorer, i["metadata"]["prompt"], i["metadata"]["choices"]) for i in instances]
    return instances, scores


def test_accuracy_cluster_accuracy_and_scores_equal_the_hand_computation(tiny_causal):
    directory = tiny_causal("gpt2", 512)
    built = build(directory, "chars", cuda_device=-1)
    result = causal_zero_shot_evaluate(directory, str(HYPERNYMY), "chars", limit=5, cuda_device=-1, built=built)
    instances, scores = hand_answers(directory, built[1].scorer, HYPERNYMY, 5)
    gold = [i["label"].label for i in instances]
    right = [argmax(s["chars"]) == g for s, g in zip(scores, gold)]
    assert result["count"] == 5 and result["accuracy"] == pytest.approx(sum(right) / 5)
    for name in ("sum", "mean", "chars", "pmi"):
        assert result[f"accuracy_{name}"] == pytest.approx(sum(argmax(s[name]) == g for s, g in zip(scores, gold)) / 5)
    assert result["choice_only_accuracy"] == pytest.approx(
        sum(argmax(s["neutral_chars"]) == g
            for s, g in zip(scores, gold)) / 5)
    clusters = {}
    for instance, is_right in zip(instances, right):  # a cluster is right when all its questions are
        key = instance["metadata"]["notes"]["synset_id"]
        clusters[key] = clusters.get(key, True) and is_right
    assert result["strict_cluster_accuracy"] == pytest.approx(sum(clusters.values()) / len(clusters))
    assert (result["score"], result["prompt_format"], result["device"]) == ("chars", "cloze", "cpu, fp32")
    assert "acc_norm" in result["score_description"] and "letter" not in result["score_description"]
    assert result["chance"] == pytest.approx(0.2)  # five choices each
    json.dumps(result)  # one JSON line
    # the letters format scores each choice's letter, and says so
    lettered = causal_zero_shot_evaluate(directory, str(HYPERNYMY), "chars", limit=2, cuda_device=-1,
                                         prompt_format="letters")
    assert lettered["prompt_format"] == "letters"
    assert lettered["score_description"].endswith("of the choice's letter after the lettered list")


def write_with_answers(path, questions, answers):
    with open(path, "w") as handle:
        for question, answer in zip(questions, answers):
            handle.write(json.dumps({"id": question.id, "question": {"stem": question.stem, "choices": [
                {"label": c.label, "text": c.text} for c in question.choices]},
                "answerKey": question.choices[answer].label}) + "\n")


def test_choice_only_accuracy_far_above_chance_is_flagged(tiny_causal, tmp_path):
    directory = tiny_causal("llama", 512)
    built = build(directory, "sum", cuda_device=-1)
    _, scores = hand_answers(directory, built[1].scorer, HYPERNYMY, 4)
    questions = list(read_questions(str(HYPERNYMY)))[:4]
    giveaway, hidden = tmp_path / "giveaway.jsonl", tmp_path / "hidden.jsonl"
    write_with_answers(giveaway, questions, [argmax(s["neutral"]) for s in scores])  # the choices alone answer
    write_with_answers(hidden, questions, [min(range(5), key=s["neutral"].__getitem__) for s in scores])
    flagged = causal_zero_shot_evaluate(directory, str(giveaway), built=built, cuda_device=-1)
    assert flagged["choice_only_accuracy"] == 1.0
    assert flagged["flag"]["points_above_chance"] == 80.0 and flagged["flag"]["margin"] == 0.25
    clean = causal_zero_shot_evaluate(directory, str(hidden), built=built, cuda_device=-1)
    assert clean["choice_only_accuracy"] == 0.0 and "flag" not in clean
    strict = causal_zero_shot_evaluate(directory, str(giveaway), built=built, cuda_device=-1, flag_margin=0.9)
    assert "flag" not in strict


def test_choice_only_flag_rule():
    assert choice_only_flag(0.75, 0.5) is not None  # 25 points above chance: flagged (as the audit, >=)
    assert choice_only_flag(0.74, 0.5) is None
    assert choice_only_flag(None, 0.5) is None and choice_only_flag(float("nan"), 0.5) is None
