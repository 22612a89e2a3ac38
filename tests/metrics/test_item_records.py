"""Item records: the one writer and reader of the per-question format."""
import json
import math

import numpy
import pytest

from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.data.causal_prompts import rotate
from mcqa_probes.data.question import Choice, MultipleChoiceQuestion
from mcqa_probes.metrics.item_records import (
    KEYS, first_max, item_file, item_record, merge_records, pride_prompt, read_item_files, read_item_records, softmax,
    unrotate, write_item_records,
)
from mcqa_probes.metrics.rotations import RotationTally

METADATA = {"id": "q1", "question": "A sparrow is a kind of", "choices": ["fish", "bird", "rock"], "answer_index": 1,
            "num_real_choices": 3, "notes": {"hops": 2, "distractor_type": "sister", "gold_synset": "sparrow.n.01",
                                             "synset_id": 7}}


def test_softmax_and_first_max_by_hand():
    probabilities = softmax([0.0, math.log(3.0)])
    assert probabilities == pytest.approx([0.25, 0.75])
    assert softmax([float("-inf"), 1.0]) == [0.0, 1.0]
    assert softmax([1000.0, 1000.0]) == [0.5, 0.5]  # stable
    assert first_max([1.0, 3.0, 3.0]) == 1
    assert first_max([float("nan"), 2.0]) == 1


def test_record_fields_from_metadata():
    record = item_record("m", "wordnetqa", "hypernymy", METADATA, {"mcqa": [0.0, 2.0, 1.0]}, "mcqa")
    assert list(record) == list(KEYS)
    assert record["id"] == "q1" and record["gold"] == 1 and record["choices"] == ["fish", "bird", "rock"]
    assert record["cluster"] == "7"  # notes.synset_id (the cluster key rule), not the concept
    assert record["concept"] == "sparrow.n.01"
    assert record["hops"] == 2 and record["distractor_family"] == "sister"
    assert record["chosen"] == {"mcqa": 1} and record["correct"] == {"mcqa": True}
    assert record["probabilities"]["mcqa"] == pytest.approx(softmax([0.0, 2.0, 1.0]))
    # a probe built from an ontology names its concept by the source's id
    ontology = dict(METADATA, notes={"hops": 1, "concept_id": "SO:0000704", "answer_id": "SO:0000001"})
    assert item_record("m", "wordnetqa", "hypernymy", ontology, {"mcqa": [0.0, 2.0, 1.0]}, "mcqa")["concept"] == "SO:0000704"


def test_rotated_instance_goes_back_to_file_order():
    question = MultipleChoiceQuestion("q1", "stem", [Choice("A", "fish"), Choice("B", "bird"), Choice("C", "rock")], 1)
    shown = rotate(question, 1)  # [rock, fish, bird], answer 2
    metadata = {"id": "q1", "question_key": "q1", "rotation": 1, "question": "stem",
                "choices": [c.text for c in shown.choices], "answer_index": shown.answer_index}
    scores_shown = [0.3, 0.1, 0.9]  # rock, fish, bird
    record = item_record("m", "s", "p", metadata, {"letters/rot1": unrotate(scores_shown, 1)}, "letters/rot1")
    assert record["choices"] == ["fish", "bird", "rock"] and record["gold"] == 1
    assert record["scores"]["letters/rot1"] == [0.1, 0.9, 0.3]
    assert record["correct"]["letters/rot1"] is True


def test_merge_and_round_trip(tmp_path):
    a = item_record("m", "s", "p", METADATA, {"cloze/sum": [1.0, 0.5, 0.0]}, "cloze/sum")
    b = item_record("m", "s", "p", METADATA, {"letters/rot0": [0.0, 0.5, 1.0]}, "letters/rot0")
    merged = merge_records([a, b])
    assert len(merged) == 1 and set(merged[0]["scores"]) == {"cloze/sum", "letters/rot0"}
    assert merged[0]["primary"] == "cloze/sum"
    path = item_file(tmp_path, "m", "s")
    assert write_item_records(path, [a, b]) == 1
    assert path == tmp_path / "items" / "m" / "s.jsonl"
    back = read_item_records(path)
    assert back == merged
    assert read_item_files([tmp_path]) == merged
    assert [json.loads(line) for line in path.read_text().splitlines()] == merged


def test_bad_lines_name_file_and_line(tmp_path):
    good = item_record("m", "s", "p", METADATA, {"mcqa": [0.0, 2.0, 1.0]}, "mcqa")
    path = tmp_path / "bad.jsonl"
    bad = dict(good, gold=5)
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(McqaFormatError, match=r"bad.jsonl, line 2: item record: 'gold'"):
        read_item_records(path)
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n")
    with pytest.raises(McqaFormatError, match=r"line 2: .*duplicate"):
        read_item_records(path)
    short = dict(good, scores={"mcqa": [1.0]})
    path.write_text(json.dumps(short) + "\n")
    with pytest.raises(McqaFormatError, match=r"line 1: .*scores\['mcqa'\] must be 3 numbers"):
        read_item_records(path)
    with pytest.raises(ValueError, match="primary"):
        item_record("m", "s", "p", METADATA, {"mcqa": [0.0, 1.0, 2.0]}, "mlm")


@pytest.mark.parametrize("change, message", [
    (lambda r: r["correct"].update(mcqa=not r["correct"]["mcqa"]), r"correct\['mcqa'\] is (true|false), but choice 1"),
    (lambda r: r["chosen"].update(mcqa=0), r"chosen\['mcqa'\] is 0, but the highest of its scores is choice 1"),
    (lambda r: r["scores"].update(mcqa=[0.0, float("nan"), 1.0]), r"scores\['mcqa'\] must be numbers, not NaN"),
    (lambda r: r["scores"].update(mcqa=[0.0, float("inf"), 1.0]), r"scores\['mcqa'\] must be numbers, not NaN or \+Infinity"),
], ids=["correct-flipped", "chosen-not-the-best", "nan", "infinity"])
def test_a_record_that_contradicts_itself_is_an_error(tmp_path, change, message):
    """A record whose answer does not follow from its own scores and gold (edited by hand, another tool's
    export) would give impossible numbers (accuracy 0 at confidence 100): refused, naming the line."""
    good = item_record("m", "s", "p", METADATA, {"mcqa": [0.0, 2.0, 1.0]}, "mcqa")
    ruled_out = item_record("m", "s", "p", dict(METADATA, id="q2"), {"mcqa": [float("-inf"), 2.0, 1.0]}, "mcqa")
    bad = json.loads(json.dumps(dict(good, id="q3")))
    change(bad)
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in (good, ruled_out, bad)))
    with pytest.raises(McqaFormatError, match=r"items.jsonl, line 3: item record: " + message):
        read_item_records(path)
    path.write_text("".join(json.dumps(record) + "\n" for record in (good, ruled_out)))
    assert [r["chosen"]["mcqa"] for r in read_item_records(path)] == [1, 1]  # a -inf score is a choice ruled out


def test_records_from_prediction_lines(tmp_path):
    from mcqa_probes.metrics.item_records import records_from_predictions

    lines = [
        # an archive's line: scores are the log of the probabilities
        {"id": "q1", "question": "A sparrow is a kind of", "choices": ["fish", "bird", "rock"], "labels": ["A", "B", "C"],
         "probabilities": [0.2, 0.5, 0.3], "best_choice_index": 1, "answer_index": 1, "correct": True,
         "notes": {"hops": 2, "distractor_type": "sister", "gold_synset": "sparrow.n.01"}},
        # unlabelled: no record
        {"id": "", "question": "Pick", "choices": ["a", "b"], "probabilities": [0.5, 0.5], "best_choice_index": 0},
        # a causal LM's line: its choice_scores under its score, lettered; no id: line-<n>
        {"id": "", "question": "Which?", "choices": ["x", "y"], "probabilities": [0.27, 0.73], "answer_index": 0,
         "choice_scores": [-3.0, -2.0], "score": "chars", "prompt_format": "letters"},
        {"id": "", "question": "Which?", "choices": ["x", "y"], "probabilities": [0.73, 0.27], "answer_index": 0,
         "choice_scores": [-2.0, -3.0], "score": "pmi", "prompt_format": "cloze"},
    ]
    path = tmp_path / "dev.predictions.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    archive, letters, cloze = records_from_predictions(path, "m")
    assert (archive["section"], archive["probe"], archive["primary"]) == ("predict", "dev", "mcqa")
    assert archive["scores"]["mcqa"] == pytest.approx([math.log(0.2), math.log(0.5), math.log(0.3)])
    assert archive["probabilities"]["mcqa"] == pytest.approx([0.2, 0.5, 0.3])
    assert archive["correct"] == {"mcqa": True} and archive["cluster"] == "sparrow.n.01" and archive["hops"] == 2
    assert (letters["id"], letters["primary"], letters["chosen"], letters["correct"]) == (
        "line-3", "letters/rot0", {"letters/rot0": 1}, {"letters/rot0": False})
    assert (cloze["id"], cloze["primary"], cloze["scores"]) == ("line-4", "cloze/pmi", {"cloze/pmi": [-2.0, -3.0]})
    write_item_records(tmp_path / "items.jsonl", [archive, letters, cloze])
    assert read_item_records(tmp_path / "items.jsonl") == [archive, letters, cloze]
    path.write_text(json.dumps({"id": "q", "question": "x", "answer_index": 0}) + "\n")
    with pytest.raises(McqaFormatError, match="'choices' and 'probabilities'") as error:
        records_from_predictions(path, "m")
    assert str(error.value).startswith(f"{path}, line 1: ")


def pride_case(questions=8, size=4, seed=0):
    """A lettered prompt asked under every cyclic rotation by a model with a letter prior (A pulls, D
    pushes) and some knowledge (+1.5 on the gold), as the model's records come (one per rotation, the
    choices shown rotated), merged; plus one question asked under one rotation only. Returns the merged
    records, the letters' scores by position ``shown[q, r, p]`` and the gold indices (file order)."""
    rng = numpy.random.default_rng(seed)
    bias = numpy.array([2.0, 0.5, 0.0, -1.0][:size])
    shown, golds, records = numpy.zeros((questions, size, size)), [], []
    for q in range(questions + 1):
        gold = q % size
        question = MultipleChoiceQuestion(f"q{q}", f"stem {q}", [Choice("ABCD"[k], f"c{q}{k}") for k in range(size)], gold)
        for r in range(size if q < questions else 1):
            rotated = rotate(question, r)
            scores = bias + 1.5 * (numpy.arange(size) == rotated.answer_index) + rng.normal(0, 0.7, size)
            if q < questions:
                shown[q, r] = scores
            metadata = {"id": f"q{q}", "question_key": f"q{q}", "rotation": r, "question": f"stem {q}",
                        "choices": [c.text for c in rotated.choices], "answer_index": rotated.answer_index}
            records.append(item_record("m", "s", "p", metadata, {f"letters/rot{r}": unrotate(list(scores), r)},
                                       f"letters/rot{r}"))
        golds.append(gold)
    return merge_records(records), shown, golds[:questions]


def pride_by_numpy(shown):
    """PriDe computed independently: log-softmax over the letters; the prior of each position estimated on
    the calibration subset (every question asked under all rotations): per question the softmax of its
    mean log-probability over the rotations, averaged over the questions; then the observed probability
    divided by the prior and renormalised; back in the file's order (choice j is shown at (j + r) mod K)."""
    logprobs = shown - numpy.log(numpy.exp(shown).sum(axis=-1, keepdims=True))
    mean = logprobs.mean(axis=1)
    prior = (numpy.exp(mean) / numpy.exp(mean).sum(axis=-1, keepdims=True)).mean(axis=0)
    debiased = numpy.exp(logprobs) / prior
    debiased /= debiased.sum(axis=-1, keepdims=True)
    size = shown.shape[-1]
    order = (numpy.arange(size)[None, :] + numpy.arange(size)[:, None]) % size  # [r, j] -> position of choice j
    return numpy.stack([[debiased[q, r, order[r]] for r in range(size)] for q in range(len(shown))]), prior


def test_pride_probabilities_are_an_independent_computation_of_pride(tmp_path):
    records, shown, golds = pride_case()
    expected, prior = pride_by_numpy(shown)
    assert prior[0] > 0.4 and prior[3] < 0.15  # the letter prior of the case is real
    complete, lone = records[:-1], records[-1]
    assert set(lone["scores"]) == {"letters/rot0"}  # asked once: no prior to remove, no PriDe prompt
    for q, record in enumerate(complete):
        for r in range(4):
            name = pride_prompt(r)
            assert record["probabilities"][name] == pytest.approx(list(expected[q, r]), abs=1e-12), (q, r)
            assert record["chosen"][name] == int(numpy.argmax(expected[q, r]))
            assert record["correct"][name] == (record["chosen"][name] == golds[q])
    # the same answers as the debiased_accuracy metric, whose prior is estimated the same way
    tally = RotationTally()
    for q in range(len(shown)):
        for r in range(4):
            tally.add(f"q{q}", r, (golds[q] + r) % 4, list(shown[q, r]))
    debiased = sum(r["correct"][pride_prompt(k)] for r in complete for k in range(4)) / (4 * len(complete))
    assert debiased == pytest.approx(tally.metrics()["debiased_accuracy"])
    raw = sum(r["correct"]["letters/rot0"] for r in complete) / len(complete)
    assert sum(r["correct"][pride_prompt(0)] for r in complete) / len(complete) > raw  # the prior cost answers
    # through the one writer and reader, unchanged (written once, merged again: the same numbers)
    write_item_records(tmp_path / "items.jsonl", records)
    assert read_item_records(tmp_path / "items.jsonl") == records
