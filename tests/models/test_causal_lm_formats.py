"""Lettered multiple choice, rotations, few-shot and chat prompts through the causal_lm_mc reader and model,
on tiny random causal LMs, against lm-evaluation-harness's HFLM on the same requests."""
import pytest
import torch
from allennlp.data import Vocabulary

from mcqa_probes.data.dataset_readers.causal_lm_mc import CausalLmMcReader
from mcqa_probes.models.causal_lm_mc import CausalLmMc
from mcqa_probes.models.causal_lm_scoring import CausalLmScorer
from mcqa_probes.testing.lm_eval_reference import lm_eval_loglikelihood, make_hflm
from mcqa_probes.training.evaluation import evaluate_instances
from tests.causal_models import argmax, load, tiny_causal  # noqa: F401
from tests.conftest import FIXTURES

PROBE = FIXTURES / "probes" / "hypernymy" / "dev.jsonl"
TRAIN = FIXTURES / "probes" / "hypernymy" / "train.jsonl"
CSQA = FIXTURES / "csqa" / "dev_hf.jsonl"


def _accuracy_from_lm_eval(model, tokenizer, instances, chat=None):
    """An independent accuracy: lm-eval's log-likelihoods of each instance's requests, argmax vs gold."""
    right = 0
    for instance in instances:
        requests = instance["metadata"]["prompt"].requests
        if chat is not None:
            requests = [(chat(context), continuation) for context, continuation in requests]
        scores = [logprob for logprob, _ in lm_eval_loglikelihood(model, tokenizer, requests, batch_size=8)]
        right += argmax(scores) == instance["label"].label
    return right / len(instances)


@pytest.mark.parametrize("family", ["gpt2", "llama"])
def test_letters_accuracy_equals_lm_eval_and_takes_one_row_per_question(tiny_causal, family):
    directory = tiny_causal(family, 512)
    model = CausalLmMc(Vocabulary(), directory, choice_only_control=True)
    instances = list(CausalLmMcReader(prompt_format="letters").read(str(CSQA)))
    metrics = evaluate_instances(model, instances, batch_size=4)
    lm, tokenizer = load(directory)
    assert metrics["accuracy"] == pytest.approx(_accuracy_from_lm_eval(lm, tokenizer, instances))
    scorer = model.scorer
    pairs = scorer.encode_pairs([r for i in instances for r in i["metadata"]["prompt"].requests])
    groups = {}
    for index, (context, continuation) in enumerate(pairs):
        groups.setdefault(tuple(context), []).append((index, list(continuation)))
    rows = scorer._rows(groups)
    assert len(rows) == len(instances)  # one forward row per question: the letters follow the one context


def _letter_prior_model(directory, bias):
    """The tiny Llama with its last hidden state zeroed and an output layer that is only a bias: every
    position predicts the same distribution, so the prior of each letter is known."""
    lm, tokenizer = load(directory)
    with torch.no_grad():
        lm.model.norm.weight.zero_()
        head = torch.nn.Linear(lm.config.hidden_size, lm.config.vocab_size, bias=True)
        head.weight.zero_()
        head.bias.zero_()
        for letter, value in bias.items():
            for token in tokenizer(f" {letter}", add_special_tokens=False)["input_ids"][-1:]:
                head.bias[token] = value
    lm.lm_head = head
    return lm, tokenizer


def test_rotations_on_a_model_whose_letter_prior_is_known(tiny_causal):
    lm, tokenizer = _letter_prior_model(tiny_causal("llama", 512), {"A": 5.0, "B": 1.0})
    model = CausalLmMc(Vocabulary(), tiny_causal("llama", 512))
    model.lm, model._scorer = lm, CausalLmScorer(lm, tokenizer)
    instances = list(CausalLmMcReader(prompt_format="letters", rotations="cyclic").read(str(PROBE)))
    assert len(instances) == 5 * 12  # every question under its 5 rotations
    metrics = evaluate_instances(model, instances, batch_size=8)
    assert metrics["accuracy"] == pytest.approx(0.2)  # it always says A: right once in five rotations
    assert metrics["circular_accuracy"] == 0.0 and metrics["rstd"] == pytest.approx(0.4)
    assert [metrics[f"accuracy_rotation_{r}"] for r in range(5)] == pytest.approx(
        [sum((q.label + r) % 5 == 0 for q in [i["label"] for i in instances[::5]]) / 12 for r in range(5)])
    prior = [metrics[f"letter_prior_{letter}"] for letter in "ABCDE"]
    expected = torch.softmax(torch.tensor([5.0, 1.0, 0.0, 0.0, 0.0]), 0).tolist()
    assert prior == pytest.approx(expected, abs=1e-4)  # the letter prior, recovered from the rotations
    assert metrics["cluster_accuracy"] == 0.0  # strict over rotations: no cluster is right under all of them


def test_few_shot_prompts_score_as_lm_eval_and_never_show_the_cluster(tiny_causal):
    directory = tiny_causal("gpt2", 1024)
    reader = CausalLmMcReader(shots=2, shots_from=str(TRAIN), shots_seed=3)
    instances = list(reader.read(str(PROBE)))
    clusters = {}
    for line in TRAIN.read_text().splitlines():
        import json

        row = json.loads(line)
        clusters[row["id"]] = row["notes"]["synset_id"]
    for instance in instances:
        metadata = instance["metadata"].metadata
        assert len(metadata["shots"]) == 2
        assert all(clusters[shot] != metadata["notes"]["synset_id"] for shot in metadata["shots"])
        assert metadata["prompt"].context.count("Question:") == 3
    model = CausalLmMc(Vocabulary(), directory)
    metrics = evaluate_instances(model, instances, batch_size=4)
    lm, tokenizer = load(directory)
    assert metrics["accuracy"] == pytest.approx(_accuracy_from_lm_eval(lm, tokenizer, instances))
    again = [i["metadata"]["shots"] for i in CausalLmMcReader(shots=2, shots_from=str(TRAIN), shots_seed=3)
             .read(str(PROBE))]
    assert again == [i["metadata"]["shots"] for i in instances]


CHAT = ("{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
        "{% if add_generation_prompt %}<|assistant|>{% endif %}")


def test_chat_template_renders_the_user_turn_as_lm_eval_does(tiny_causal):
    directory = tiny_causal("llama", 512)
    model = CausalLmMc(Vocabulary(), directory)
    model.scorer.tokenizer.chat_template = CHAT
    instances = list(CausalLmMcReader(chat_template=True, prompt_format="letters").read(str(CSQA)))
    lm, tokenizer = load(directory)
    tokenizer.chat_template = CHAT
    hflm = make_hflm(lm, tokenizer)
    context = instances[0]["metadata"]["prompt"].requests[0][0]
    assert model.scorer.chat_context(context) == hflm.apply_chat_template([{"role": "user", "content": context}])
    assert model.scorer.chat_context(context).endswith("Answer:<|end|><|assistant|>")
    assert instances[0]["metadata"]["prompt"].requests[0][1] == "A"  # no target delimiter after a chat turn
    metrics = evaluate_instances(model, instances, batch_size=4)
    assert metrics["accuracy"] == pytest.approx(
        _accuracy_from_lm_eval(lm, tokenizer, instances, chat=model.scorer.chat_context))


def test_a_model_without_a_chat_template_is_a_clear_error(tiny_causal):
    model = CausalLmMc(Vocabulary(), tiny_causal("gpt2"))
    instances = list(CausalLmMcReader(chat_template=True).read(str(PROBE)))[:2]
    with pytest.raises(ValueError, match="no chat template"):
        evaluate_instances(model, instances, batch_size=2)
