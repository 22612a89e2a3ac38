"""Lettered multiple choice, rotations and few-shot prompts (plain Python, no model)."""
import pytest

from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.data.causal_prompts import FewShotSampler, PromptBuilder, rotate
from mcqa_probes.data.question import Choice, MultipleChoiceQuestion, cluster_key, read_questions
from tests.conftest import FIXTURES

HYPERNYMY = FIXTURES / "probes" / "hypernymy"


def _question(answer=1, texts=("a bird", "a fish", "a rock"), qid="q", stem="What is a sparrow?"):
    return MultipleChoiceQuestion(qid, stem, [Choice(str(i), t) for i, t in enumerate(texts)], answer)


def test_letters_is_lm_evals_commonsense_qa_prompt():
    question = _question(texts=("ignore", "enforce", "authoritarian", "yell at", "avoid"), answer=3,
                         stem="The sanctions against the school were a punishing blow, and they seemed to what "
                              "the efforts the school had made to change?")
    prompt = PromptBuilder(prompt_format="letters").prompt(question)
    context = ("Question: The sanctions against the school were a punishing blow, and they seemed to what the efforts "
               "the school had made to change?\nA. ignore\nB. enforce\nC. authoritarian\nD. yell at\nE. avoid\nAnswer:")
    assert prompt.format == "letters" and prompt.context == context
    assert prompt.requests == [(context, " A"), (context, " B"), (context, " C"), (context, " D"), (context, " E")]
    # the choice-only control sees the choices, not the question
    assert prompt.neutral[0] == ("A. ignore\nB. enforce\nC. authoritarian\nD. yell at\nE. avoid\nAnswer:", " A")
    assert len(prompt.neutral) == 5


def test_letters_for_any_number_of_choices_and_an_mc_mlm_stem():
    question = _question(texts=("older", "younger"), stem="A 16 year old person age is [MASK] than a 17 year old.")
    prompt = PromptBuilder(prompt_format="letters").prompt(question)
    assert prompt.context == "Question: A 16 year old person age is [MASK] than a 17 year old.\nA. older\nB. younger\nAnswer:"
    assert [c for _, c in prompt.requests] == [" A", " B"]
    assert PromptBuilder().prompt(question).format == "sentence"  # cloze stays the default


def test_rotations_move_the_gold_answer_through_every_position():
    question = _question(answer=1, texts=("w", "x", "y", "z"))
    rotated = [rotate(question, r) for r in range(4)]
    assert [[c.text for c in q.choices] for q in rotated] == [list("wxyz"), list("zwxy"), list("yzwx"), list("xyzw")]
    assert [q.answer_index for q in rotated] == [1, 2, 3, 0]
    assert all(q.choices[q.answer_index].text == "x" for q in rotated)


def test_few_shot_examples_are_solved_in_the_same_format_and_skip_the_own_cluster():
    pool = list(read_questions(HYPERNYMY / "train.jsonl"))
    sampler = FewShotSampler(str(HYPERNYMY / "train.jsonl"), shots=3, seed=7)
    question = pool[0]
    shots = sampler.examples_for(question)
    assert len(shots) == 3 and question.id not in {s.id for s in shots}
    assert all(cluster_key(s.extras) != cluster_key(question.extras) for s in shots)
    assert [s.id for s in FewShotSampler(str(HYPERNYMY / "train.jsonl"), 3, seed=7).examples_for(question)] == \
        [s.id for s in shots]  # seeded by the question's id: the same in every run
    assert [s.id for s in FewShotSampler(str(HYPERNYMY / "train.jsonl"), 3, seed=8).examples_for(question)] != \
        [s.id for s in shots]
    cloze = PromptBuilder().prompt(question, shots[:1])
    first = shots[0]
    solved = f"Question: {first.stem}\nAnswer: {first.choices[first.answer_index].text}\n\n"
    assert cloze.context == solved + f"Question: {question.stem}\nAnswer:"
    letters = PromptBuilder(prompt_format="letters").prompt(question, shots[:1])
    assert letters.context.startswith(f"Question: {first.stem}\nA. ")
    assert f"Answer: {'ABCDE'[first.answer_index]}\n\nQuestion: {question.stem}\nA. " in letters.context


def test_few_shot_needs_enough_examples_outside_the_cluster(tmp_path):
    lines = (HYPERNYMY / "train.jsonl").read_text().splitlines()[:1]
    (tmp_path / "one.jsonl").write_text("\n".join(lines) + "\n")
    question = list(read_questions(HYPERNYMY / "train.jsonl"))[0]
    with pytest.raises(McqaFormatError, match="examples outside its cluster"):
        FewShotSampler(str(tmp_path / "one.jsonl"), 1).examples_for(question)


def test_chat_prompts_drop_the_target_delimiter():
    prompt = PromptBuilder(chat=True).prompt(_question())
    assert prompt.chat and prompt.requests[0] == ("Question: What is a sparrow?\nAnswer:", "a bird")
    assert prompt.neutral[0] == ("Answer:", "a bird")
    with pytest.raises(McqaFormatError, match="chat template"):
        PromptBuilder(chat=True).prompt(_question(stem="a [MASK] sings"))


@pytest.mark.parametrize("prompt_format", ["auto", "cloze", "sentence"])
def test_rotations_are_for_lettered_prompts_only(prompt_format):
    """A cloze or sentence prompt does not show the choices' order: rotating it would score the same
    thing K times and report a uniform letter prior; the reader says so instead."""
    from mcqa_probes.data.dataset_readers.causal_lm_mc import CausalLmMcReader

    with pytest.raises(ValueError, match=f"dataset_reader.rotations: cyclic .* a {prompt_format} prompt does not show"):
        CausalLmMcReader(prompt_format=prompt_format, rotations="cyclic")
    reader = CausalLmMcReader(prompt_format="letters", rotations="cyclic")
    assert [i["metadata"]["rotation"] for i in reader.read(str(HYPERNYMY / "dev.jsonl"))][:5] == [0, 1, 2, 3, 4]


def test_a_template_naming_another_field_is_an_error_and_other_braces_stay_as_written():
    with pytest.raises(ValueError, match=r"^template: \{answer\} is not a field of the template \(expected \{stem\};"):
        PromptBuilder(template="Q: {stem}\nA: {answer}")
    with pytest.raises(ValueError, match=r"\{choices\} is not a field .*the lettered choices go in letters_template"):
        PromptBuilder(template="Q: {stem}\n{choices}A:")
    with pytest.raises(ValueError, match=r"^letters_template: \{options\} is not a field .*\{stem\} and \{choices\}"):
        PromptBuilder(letters_template="Q: {stem}\n{choices}{options}A:")
    question = MultipleChoiceQuestion("q", "a cat is", [Choice("A", "an animal"), Choice("B", "a rock")], 0)
    builder = PromptBuilder(template='{"q": "{stem}"} { } {1} A:')
    assert builder.context(question, "cloze") == '{"q": "a cat is"} { } {1} A:'


def test_zero_shot_refuses_such_a_template_before_the_model_loads(tmp_path):
    import subprocess
    import sys

    from tests.conftest import ROOT

    result = subprocess.run([sys.executable, str(ROOT / "bin" / "zero_shot"), "--model", str(tmp_path / "nowhere"),
                             "--data", str(FIXTURES / "probes" / "hypernymy" / "dev.jsonl"), "--template",
                             "Q: {stem} {question}"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: --template: {question} is not a field of the template (expected {stem}; it would be sent to the model "
        "as written), got 'Q: {stem} {question}'"]
