"""The causal-LM scorer against lm-evaluation-harness 0.4.13's HFLM.loglikelihood (the reference), on tiny
random GPT-2 and Llama models: same (context, continuation) requests, same model object, fp32."""
import pytest
import torch

from mcqa_probes.data.causal_prompts import PromptBuilder, rotate
from mcqa_probes.data.dataset_readers.winoventi import prompt_question
from mcqa_probes.data.question import Choice, MultipleChoiceQuestion, read_questions
from mcqa_probes.data.winoventi import read_winoventi
from mcqa_probes.models.causal_lm_scoring import CausalLmScorer, ScoringError
from mcqa_probes.testing.lm_eval_reference import lm_eval_loglikelihood
from tests.causal_models import CAUSAL_FAMILIES, assert_equal_to_lm_eval, load, tiny_causal  # noqa: F401
from tests.conftest import FIXTURES

TOLERANCE = 1e-4


def fixture_prompts():
    """Cloze prompts (probe questions with long choices, CommonsenseQA), sentences (MC-MLM, WinoVenti)."""
    builder = PromptBuilder()
    questions = list(read_questions(FIXTURES / "probes" / "hypernymy" / "dev.jsonl"))[:5]
    questions += list(read_questions(FIXTURES / "csqa" / "dev_hf.jsonl"))[:4]
    questions += list(read_questions(FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl"))[:3]
    questions += [prompt_question(p) for p in read_winoventi(FIXTURES / "winoventi" / "winoventi_small.tsv")[:3]]
    return [builder.prompt(question) for question in questions]


def fixture_requests(tokenizer):
    prompts = fixture_prompts()
    requests = [r for p in prompts for r in p.requests] + [r for p in prompts[:4] for r in p.neutral]
    prefix = tokenizer.decode(tokenizer.bos_token_id)
    requests += [  # lm-eval's corner cases
        ("Answer: ", "bird"),  # trailing space moves into the continuation
        ("Answer:  ", " two spaces"),
        ("", "bird"), ("", " bird is a word"),  # empty context: the BOS/EOS prefix
        ("", prefix + " bird"),  # a continuation that starts with the prefix token itself
        (prefix + "Answer:", " bird"),  # a context that already starts with the prefix string
        ("Question", "?"), ("the", " boat is red"), ("the", " boat is blue"), ("the boat", " is"),
    ]
    return requests


@pytest.fixture(params=CAUSAL_FAMILIES)
def family(request):
    return request.param


def test_scores_equal_lm_evaluation_harness(tiny_causal, family):
    model, tokenizer = load(tiny_causal(family))
    requests = fixture_requests(tokenizer)
    scorer = CausalLmScorer(model, tokenizer, batch_size=5)
    assert (scorer.strategy, scorer.head_mode) == ("packed", "output_layer")  # the fast paths are the ones tested
    ours = scorer.loglikelihood(requests)
    theirs = lm_eval_loglikelihood(model, tokenizer, requests, batch_size=8)
    assert_equal_to_lm_eval(requests, ours, theirs, TOLERANCE)


def test_tokenization_is_lm_evals_split(tiny_causal, family):
    """The split itself (not only the scores): lm-eval's _encode_pair / empty-context rule."""
    from lm_eval.api.instance import Instance  # noqa: F401  (the reference is installed)

    from mcqa_probes.testing.lm_eval_reference import make_hflm

    model, tokenizer = load(tiny_causal(family))
    scorer = CausalLmScorer(model, tokenizer)
    hflm = make_hflm(model, tokenizer)
    for context, continuation in fixture_requests(tokenizer):
        ours = scorer.encode_pair(context, continuation)
        if context == "":
            tokens = hflm.tok_encode(continuation, add_special_tokens=False)
            theirs = ([hflm.prefix_token_id], tokens) if hflm.prefix_token_id != tokens[0] else (tokens[:1], tokens[1:])
        else:
            theirs = hflm._encode_pair(context, continuation)
        assert (list(ours[0]), list(ours[1])) == (list(theirs[0]), list(theirs[1])), (context, continuation)


def test_the_question_is_encoded_once_for_its_choices(tiny_causal):
    model, tokenizer = load(tiny_causal("llama"))
    scorer = CausalLmScorer(model, tokenizer)
    prompt = fixture_prompts()[0]  # 5 long choices after one long question
    pairs = scorer.encode_pairs(prompt.requests)
    one_by_one = sum(len(c) + len(x) - 1 for c, x in pairs)
    rows = scorer._rows({tuple(pairs[0][0]): [(i, list(x)) for i, (_, x) in enumerate(pairs)]})
    assert len(rows) == 1
    context = len(pairs[0][0])
    assert len(rows[0]) == context + sum(len(x) - 1 for _, x in pairs) - _shared_first_pieces(pairs)
    assert len(rows[0]) < one_by_one - 3 * context  # the question appears once, not five times


def test_rotations_after_a_long_few_shot_preamble_share_one_row(tiny_causal, family):
    """Lettered questions under every rotation, after the same solved examples: the preamble is in
    a row once for all rotations of a question (not once per rotation), unrelated questions keep rows
    of their own, and the scores are lm-eval's."""
    model, tokenizer = load(tiny_causal(family))

    def question(name, stem, choices):
        return MultipleChoiceQuestion(name, stem, [Choice(str(i), text) for i, text in enumerate(choices)], 0)

    shots = {"q1": [question("s1", "cat", ["pet", "car", "sun"]), question("s2", "oak", ["tree", "ship", "salt"])],
             "q2": [question("s3", "elm", ["tree", "van", "ice"]), question("s4", "cod", ["fish", "pen", "oil"])]}
    asked = [question("q1", "dog", ["animal", "tool", "sea"]), question("q2", "rose", ["flower", "bus", "tin"])]
    builder = PromptBuilder(prompt_format="letters", letters_template="Q: {stem}\n{choices}A:")
    requests = [request for q in asked for places in range(3)
                for request in builder.prompt(rotate(q, places), shots[q.id]).requests]
    scorer = CausalLmScorer(model, tokenizer, batch_size=4)
    preamble = len(scorer.encode_pair(builder.prompt(asked[0], shots["q1"]).context.split("Q: dog")[0], " x")[0])
    pairs = scorer.encode_pairs(requests)
    contexts = {}
    for index, (context, continuation) in enumerate(pairs):
        contexts.setdefault(tuple(context), []).append((index, list(continuation)))
    assert max(len(context) for context in contexts) < scorer.max_length  # nothing truncated
    scorer.max_row_tokens = preamble + 2  # one rotation alone is longer: the others join by sharing
    assert min(len(context) for context in contexts) > scorer.max_row_tokens
    rows = scorer._rows(contexts)
    assert len(rows) == len(asked)  # one row per question, its three rotations in it
    assert sum(len(row) for row in rows) < sum(len(context) for context in contexts) - 3 * preamble
    ours = scorer.loglikelihood(requests)
    theirs = lm_eval_loglikelihood(model, tokenizer, requests, batch_size=8)
    assert_equal_to_lm_eval(requests, ours, theirs, TOLERANCE)
    unrelated = scorer.encode_pairs([("Q: what is a dog?\nA:", " animal"), ("Q: what is a car?\nA:", " vehicle")])
    assert len(scorer._rows({tuple(c): [(i, list(x))] for i, (c, x) in enumerate(unrelated)})) == 2


def _shared_first_pieces(pairs):
    firsts = [x[0] for _, x in pairs if len(x) > 1]
    return len(firsts) - len(set(firsts))


def test_a_batchs_shared_prefix_runs_once_and_shared_positions_reach_the_output_layer_once(tiny_causal, family,
                                                                                          monkeypatch):
    """Questions of one template (oLMpics composition: years that differ in their last digit): the
    template's opening runs once per batch, a position predicting for several choices goes through the
    output layer once, and the scores are still lm-eval's."""
    model, tokenizer = load(tiny_causal(family))
    names = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Kurt Godel"]
    requests = [(f"Question: when did the band where {name} played first form?\nAnswer:", f" {year}")
                for name in names for year in ("1962", "1964", "1961")]
    scorer = CausalLmScorer(model, tokenizer, batch_size=4)
    assert scorer.share_prefix
    prefixes, head_rows = [], []
    original_cache = scorer._prefix_cache
    monkeypatch.setattr(scorer, "_prefix_cache",
                        lambda ids, copies: prefixes.append(ids.shape[1]) or original_cache(ids, copies))
    head = model.get_output_embeddings()
    handle = head.register_forward_hook(lambda module, inputs, output: head_rows.append(inputs[0].shape[0]))
    try:
        ours = scorer.loglikelihood(requests)
    finally:
        handle.remove()
    template = len(scorer.encode_pair("Question: when did the band where", " x")[0])
    assert prefixes and min(prefixes) >= template - 1  # at least "Question: when did the band where" ran once
    continuation_tokens = sum(a.tokens for a in ours)
    assert sum(head_rows) < continuation_tokens  # "19" and "6" predicted once per question, not per choice
    theirs = lm_eval_loglikelihood(model, tokenizer, requests, batch_size=8)
    assert_equal_to_lm_eval(requests, ours, theirs, TOLERANCE)
    unshared = CausalLmScorer(model, tokenizer, batch_size=4, share_prefix=False).loglikelihood(requests)
    assert max(abs(a.logprob - b.logprob) for a, b in zip(ours, unshared)) <= TOLERANCE


@pytest.mark.parametrize("strategy", ["plain", "packed"])
def test_every_path_equals_lm_eval(tiny_causal, strategy):
    """One request per row, and the model's own full logits (used when the output-layer shortcut does not
    reproduce them), give lm-eval's numbers too."""
    model, tokenizer = load(tiny_causal("gpt2"))
    requests = fixture_requests(tokenizer)
    theirs = lm_eval_loglikelihood(model, tokenizer, requests, batch_size=16)
    for head_mode in ("output_layer", "model_logits"):
        scorer = CausalLmScorer(model, tokenizer, batch_size=4, strategy=strategy)
        scorer.head_mode = head_mode
        ours = scorer.loglikelihood(requests)
        assert max(abs(a.logprob - b[0]) for a, b in zip(ours, theirs)) <= TOLERANCE, (strategy, head_mode)


def test_results_do_not_depend_on_the_batch_size(tiny_causal, family):
    model, tokenizer = load(tiny_causal(family))
    prompts = fixture_prompts()
    requests = [r for p in prompts for r in p.requests]
    results = {}
    for batch_size in (1, 7, 64):
        scorer = CausalLmScorer(model, tokenizer, batch_size=batch_size)
        results[batch_size] = [a.logprob for a in scorer.loglikelihood(requests)]

    def choices(scores):
        picked, offset = [], 0
        for prompt in prompts:
            block = scores[offset:offset + len(prompt.requests)]
            picked.append(block.index(max(block)))
            offset += len(prompt.requests)
        return picked

    for batch_size in (7, 64):
        assert max(abs(a - b) for a, b in zip(results[1], results[batch_size])) <= TOLERANCE
        assert choices(results[batch_size]) == choices(results[1])


def test_long_requests_lose_the_start_of_their_context_as_in_lm_eval(tiny_causal):
    model, tokenizer = load(tiny_causal("gpt2", max_positions=16))
    long_context = "the boat is red and the tree is blue and the bird is a kind of animal that can sing"
    requests = [(long_context, " sparrow"), (long_context, " a red bird with seven old boots"), ("the", " boat")]
    scorer = CausalLmScorer(model, tokenizer)
    assert scorer.max_length == 16
    ours = scorer.loglikelihood(requests)
    assert scorer.truncated_requests == 2
    theirs = lm_eval_loglikelihood(model, tokenizer, requests)
    assert max(abs(a.logprob - b[0]) for a, b in zip(ours, theirs)) <= TOLERANCE


def test_a_soft_capped_output_layer_is_scored_from_the_models_own_logits(tiny_causal, tmp_path):
    """Gemma-2 caps its logits after the output layer (and uses eager attention with an additive mask):
    the output-layer shortcut is detected as wrong and the model's logits are gathered instead."""
    import transformers

    _, tokenizer = load(tiny_causal("llama"))
    config = transformers.Gemma2Config(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=37,
                                       num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, head_dim=8,
                                       final_logit_softcapping=2.0, max_position_embeddings=128,
                                       bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                                       pad_token_id=tokenizer.eos_token_id)
    torch.manual_seed(0)
    model = transformers.Gemma2ForCausalLM(config).eval()
    scorer = CausalLmScorer(model, tokenizer, batch_size=3)
    assert scorer.head_mode == "model_logits" and scorer.strategy == "packed"
    requests = fixture_requests(tokenizer)[:40]
    ours = scorer.loglikelihood(requests)
    theirs = lm_eval_loglikelihood(model, tokenizer, requests)
    assert max(abs(a.logprob - b[0]) for a, b in zip(ours, theirs)) <= TOLERANCE


def test_bf16_autocast_stays_close_and_returns_fp32(tiny_causal):
    model, tokenizer = load(tiny_causal("llama"))
    requests = fixture_requests(tokenizer)[:20]
    exact = CausalLmScorer(model, tokenizer).loglikelihood(requests)
    rough = CausalLmScorer(model, tokenizer, precision="bf16").loglikelihood(requests)
    assert all(isinstance(a.logprob, float) for a in rough)
    assert max(abs(a.logprob - b.logprob) for a, b in zip(exact, rough)) < 0.5


def test_clear_errors(tiny_causal):
    model, tokenizer = load(tiny_causal("gpt2"))
    with pytest.raises(ValueError, match="strategy"):
        CausalLmScorer(model, tokenizer, strategy="fast")
    with pytest.raises(ValueError, match="precision"):
        CausalLmScorer(model, tokenizer, precision="fp8")
    scorer = CausalLmScorer(model, tokenizer)
    with pytest.raises(ScoringError, match="the continuation has no tokens"):
        scorer.loglikelihood([("Answer:", "")])
