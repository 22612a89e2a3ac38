"""The ``causal_lm_mc`` reader and model against an independent computation from the model's own logits,
the choice-only control against ``hide_question``, the predictor, and ``is_causal_lm``."""
import pytest
from allennlp.data import Vocabulary

from mcqa_probes.data.dataset_readers.causal_lm_mc import CausalLmMcReader
from mcqa_probes.data.dataset_readers.question_reader import QuestionReader
from mcqa_probes.models.causal_lm_loading import is_causal_lm
from mcqa_probes.models.causal_lm_mc import CausalLmMc
from mcqa_probes.training.evaluation import evaluate_instances, predict_instances
from tests.causal_models import argmax, hand_loglikelihood, hand_scores, load, tiny_causal  # noqa: F401
from tests.conftest import FIXTURES

FILES = {
    "hypernymy": FIXTURES / "probes" / "hypernymy" / "dev.jsonl",
    "olmpics_mlm": FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl",
    "winoventi": FIXTURES / "winoventi" / "winoventi_small.tsv",
    "csqa": FIXTURES / "csqa" / "dev_hf.jsonl",
}
NAMES = ("sum", "mean", "chars", "pmi")


def read(reader, name, count=4):
    instances = list(reader.read(str(FILES[name])))
    if name == "winoventi":  # as many generic (test_type 1) as exception (2) prompts
        return [i for t in (1, 2) for i in [i for i in instances if i["metadata"]["test_type"] == t][: count // 2]]
    return instances[:count]


@pytest.mark.parametrize("family", ["gpt2", "llama"])
@pytest.mark.parametrize("name", sorted(FILES))
def test_scores_and_accuracy_equal_the_model_logits_by_hand(family, name, tiny_causal):
    directory = tiny_causal(family, 512)  # long enough: no request is cut
    instances = read(CausalLmMcReader(), name)
    model = CausalLmMc(Vocabulary(), directory, score="sum", choice_only_control=True).eval()
    lm, _ = load(directory)
    gold = [instance["label"].label for instance in instances]
    by_hand = [hand_scores(lm, model.scorer, i["metadata"]["prompt"], i["metadata"]["choices"]) for i in instances]
    expected_format = "cloze" if name in ("hypernymy", "csqa") else "sentence"
    assert {i["metadata"]["prompt"].format for i in instances} == {expected_format}
    for score in NAMES:
        model.score = score
        predicted = predict_instances(model, instances, batch_size=4)
        for row, hand in zip(predicted["logits"], by_hand):
            assert row == pytest.approx(hand[score], abs=2e-4)
        assert predicted["best"] == [argmax(hand[score]) for hand in by_hand]
    model.score = "sum"
    metrics = evaluate_instances(model, instances, batch_size=3)
    for score in NAMES:
        hand_accuracy = sum(argmax(h[score]) == g for h, g in zip(by_hand, gold)) / len(gold)
        assert metrics[f"accuracy_{score}"] == pytest.approx(hand_accuracy)
    assert metrics["accuracy"] == metrics["accuracy_sum"]
    assert metrics["choice_only_accuracy"] == pytest.approx(
        sum(argmax(h["neutral"]) == g for h, g in zip(by_hand, gold)) / len(gold))
    assert model.scorer.truncated_requests == 0
    if name == "winoventi":  # a prompt is right when its target sentence scores strictly higher
        for kind, test_type in (("generic", 1), ("exception", 2)):
            rows = [(h, g) for h, g, i in zip(by_hand, gold, instances) if i["metadata"]["test_type"] == test_type]
            expected = sum(h["sum"][g] > h["sum"][1 - g] for h, g in rows) / len(rows)
            assert metrics[f"{kind}_accuracy"] == pytest.approx(expected)


@pytest.mark.parametrize("family, name, score", [("gpt2", "hypernymy", "sum"), ("gpt2", "csqa", "mean"),
                                                 ("llama", "olmpics_mlm", "chars")])
def test_choice_only_control_equals_scoring_with_hide_question(family, name, score, tiny_causal):
    directory = tiny_causal(family, 512)
    model = CausalLmMc(Vocabulary(), directory, score=score, choice_only_control=True).eval()
    control = evaluate_instances(model, read(CausalLmMcReader(), name, 6), batch_size=4)["choice_only_accuracy"]
    hidden_instances = read(CausalLmMcReader(hide_question=True), name, 6)
    model.choice_only_control = False
    hidden = evaluate_instances(model, hidden_instances, batch_size=4)
    assert hidden["accuracy"] == pytest.approx(control)
    lm, _ = load(directory)
    gold = [i["label"].label for i in hidden_instances]
    by_hand = []
    for instance in hidden_instances:
        choices = instance["metadata"]["choices"]
        sums, counts = zip(*(hand_loglikelihood(lm, model.scorer, "Answer:", " " + text) for text in choices))
        by_hand.append({"sum": sums, "mean": [s / n for s, n in zip(sums, counts)],
                        "chars": [s / len(text) for s, text in zip(sums, choices)]}[score])
    assert control == pytest.approx(sum(argmax(h) == g for h, g in zip(by_hand, gold)) / len(gold))


def test_reader_is_a_question_reader_with_the_shared_metadata():
    reader = CausalLmMcReader(template="Q: {stem}\nA:")
    assert isinstance(reader, QuestionReader)
    instance = reader.text_to_instance("A trumpet is a kind of", ["tulip", "brass", "oak"], 1)
    metadata = instance["metadata"].metadata
    assert (metadata["choices"], metadata["labels"], metadata["answer_index"], metadata["num_real_choices"]) == (
        ["tulip", "brass", "oak"], ["A", "B", "C"], 1, 3)
    assert metadata["prompt"].requests == [("Q: A trumpet is a kind of\nA:", " " + c) for c in ["tulip", "brass", "oak"]]
    assert instance["label"].label == 1
    [first] = read(CausalLmMcReader(), "hypernymy", 1)
    assert first["metadata"]["notes"]  # extra keys of the line reach the metadata (cluster keys)
    wv = read(CausalLmMcReader(), "winoventi", 2)[0]["metadata"]
    assert {"test_type", "pair_index", "word", "line"} <= set(wv)


def test_predictor_answers_adhoc_questions_with_loglikelihoods(tiny_causal):
    from mcqa_probes.predictors.mcqa import McqaPredictor

    directory = tiny_causal("gpt2", 512)
    model = CausalLmMc(Vocabulary(), directory, score="mean").eval()
    predictor = McqaPredictor(model, CausalLmMcReader())
    question = {"question": "A trumpet is a kind of", "choices": ["tulip", "brass instrument", "oak"]}
    output = predictor.predict_json(question)
    lm, _ = load(directory)
    hand = [hand_loglikelihood(lm, model.scorer, "Question: A trumpet is a kind of\nAnswer:", " " + c)
            for c in question["choices"]]
    assert output["score"] == "mean" and output["prompt_format"] == "cloze"
    assert output["loglikelihood"] == pytest.approx([s for s, _ in hand], abs=2e-4)
    assert output["continuation_tokens"] == [n for _, n in hand]
    assert output["choice_scores"] == pytest.approx([s / n for s, n in hand], abs=2e-4)
    best = argmax([s / n for s, n in hand])
    assert (output["best_choice_index"], output["best_choice_text"]) == (best, question["choices"][best])
    assert len(output["probabilities"]) == 3 and sum(output["probabilities"]) == pytest.approx(1.0)
    [full] = predictor.predict_batch_json([{"question": {"stem": "A trumpet is a kind of", "choices": [
        {"label": "x", "text": "tulip"}, {"label": "y", "text": "brass"}]}, "answerKey": "y"}])
    assert full["labels"] == ["x", "y"] and full["correct"] == (full["best_choice_index"] == 1)


def test_is_causal_lm_reads_the_family_from_the_config(tiny_causal, tiny_bert, tmp_path):
    assert is_causal_lm(tiny_causal("gpt2")) and is_causal_lm(tiny_causal("llama"))
    assert not is_causal_lm(tiny_bert)
    assert is_causal_lm("smollm2") and not is_causal_lm("minilm")  # the offline short names, nothing read
    with pytest.raises(OSError, match="not a model directory \\(no config.json\\)") as error:
        is_causal_lm(str(tmp_path))  # no config.json
    assert "\n" not in str(error.value)
    (tmp_path / "tokenizer_config.json").write_text("{}")  # a tokenizer alone: no config to read
    with pytest.raises(OSError, match="cannot read the model's config") as error:
        is_causal_lm(str(tmp_path))
    assert "\n" not in str(error.value)
