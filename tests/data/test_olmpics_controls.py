import random

from mcqa_probes.data.olmpics_controls import (
    NONSENSE_WORDS,
    PROBE_KEY_WORDS,
    PROBE_LANGUAGE_WORDS,
    apply_control,
    infer_language_words,
    no_language,
    nonsense_answer_map,
    perturbed_language,
    probe_from_path,
    transform_file,
)
from mcqa_probes.data.question import Choice, MultipleChoiceQuestion, read_questions
from tests.conftest import FIXTURES

AGE = "A 24 year old person age is [MASK] than a 55 year old person ."


def question(stem, choices=("younger", "older"), answer=0):
    return MultipleChoiceQuestion("q", stem, [Choice(l, t) for l, t in zip("ABCDE", choices)], answer)


def test_probe_names_from_file_names():
    assert probe_from_path("x/number_comparison_age_compare_masked_dev.jsonl") == "age_comparison"
    assert probe_from_path("conjunction_filt4_train.jsonl") == "property_conjunction"
    assert probe_from_path("other.jsonl") is None


def test_no_language_keeps_mask_and_arguments_and_maps_answers_as_in_the_paper():
    answers = nonsense_answer_map([question(AGE)])
    assert answers == {"older": "blah", "younger": "ya"}  # the paper: "blah" for older, "ya" for younger
    control = no_language(question(AGE), PROBE_LANGUAGE_WORDS["age_comparison"], answers)
    assert control.stem == "24 [MASK] 55"
    assert [c.text for c in control.choices] == ["ya", "blah"]
    assert control.answer_index == 0 and control.extras["control"] == "nolang"
    taxonomy = question("A ferry and a floatplane are both a type of [MASK].", ("vehicle", "airplane", "boat"))
    assert no_language(taxonomy, PROBE_LANGUAGE_WORDS["taxonomy_conjunction"]).stem == "ferry floatplane [MASK]"
    size = question("The size of a feather is usually much [MASK] than the size of a nail .", ("smaller", "larger"))
    assert no_language(size, PROBE_LANGUAGE_WORDS["objects_comparison"]).stem == "feather [MASK] nail"


def test_open_answer_sets_are_kept():
    many = [question("A x and a y are both a type of [MASK]", (f"w{i}", f"v{i}")) for i in range(6)]
    assert nonsense_answer_map(many) is None
    assert [c.text for c in apply_control(many, "nolang", "taxonomy_conjunction")[0].choices] == ["w0", "v0"]


def test_perturbed_language_replaces_only_key_words_with_nonsense():
    control = perturbed_language(question(AGE), PROBE_KEY_WORDS["age_comparison"], random.Random(0))
    words = control.stem.split()
    original = AGE.split()
    changed = [(o, w) for o, w in zip(original, words) if o != w]
    assert [o for o, _ in changed] == ["age", "than"]
    assert all(w in NONSENSE_WORDS for _, w in changed)
    assert [c.text for c in control.choices] == ["younger", "older"]
    conjunction = question("what is located at hand and used for writing", ("pen", "spoon", "computer"))
    perturbed = perturbed_language(conjunction, PROBE_KEY_WORDS["property_conjunction"], random.Random(3))
    assert perturbed.stem.split()[:5] == ["what", "is", "located", "at", "hand"]
    assert perturbed.stem.split()[5] in NONSENSE_WORDS
    # seeded: the same draws again
    again = perturbed_language(conjunction, PROBE_KEY_WORDS["property_conjunction"], random.Random(3))
    assert again.stem == perturbed.stem


def test_inferred_language_words_for_unknown_files():
    questions = [question(f"A {a} year old person is [MASK] than a {b} year old person .") for a, b in
                 [(15, 16), (20, 31), (44, 38), (70, 25)]]
    words = infer_language_words(questions)
    assert {"year", "old", "person", "than"} <= words and "15" not in words
    assert apply_control(questions, "nolang")[1].stem == "20 [MASK] 31"


def test_transform_file_round_trip(tmp_path):
    source = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl"
    target = tmp_path / "nolang.jsonl"
    count = transform_file(source, target, "nolang")
    transformed = list(read_questions(target))
    assert count == len(transformed) == len(list(read_questions(source)))
    assert all(q.stem.count("[MASK]") == 1 and len(q.stem.split()) == 3 for q in transformed)
    assert {c.text for q in transformed for c in q.choices} == {"blah", "ya"}
