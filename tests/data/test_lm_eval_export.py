"""bin/export_lm_eval: the probes as lm-evaluation-harness 0.4.13 tasks. lm-eval's TaskManager loads the exported
YAML files; every document gives our text, choices and gold index (and our PromptBuilder's requests); on a
tiny random GPT-2, lm-eval's simple_evaluate gives the accuracy our scorer gives on the same file."""
import json
import logging

import pytest
import yaml

from mcqa_probes.common import cli
from mcqa_probes.common.io import holds_lines
from mcqa_probes.data import lm_eval_export
from mcqa_probes.data.causal_prompts import PromptBuilder
from mcqa_probes.data.lm_eval_export import choices_of, context_of, export_lm_eval, requests
from mcqa_probes.data.question import read_questions
from tests import causal_models
from tests.conftest import FIXTURES, load_bin

tiny_causal = causal_models.tiny_causal  # the session fixture: a tiny random causal LM per family
PROBES = FIXTURES / "probes"
SPLITS = {"test": "test_docs", "dev": "validation_docs", "train": "training_docs"}


def write_jsonl(path, records):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records), encoding="utf-8")


def odd_probes(root):
    """Probes that test the templates' edges: stems with outer and inner whitespace, int labels, labels and keys
    with spaces around them, quotes and non-ASCII text, 3 to 7 choices, no dev/train files, varying extras."""
    write_jsonl(root / "ints" / "test.jsonl", [
        {"id": "i1", "question": {"stem": "  Which one\n is a 'dog'? ", "choices": [
            {"label": 1, "text": 'a "cat"'}, {"label": 2, "text": "café dog — ‘yes’"},
            {"label": 3, "text": "  spaced  "}]},
         "answerKey": 2, "notes": {"hops": 1}},
        {"id": "i2", "question": {"stem": "Seven choices:", "choices": [
            {"label": k, "text": f"choice {k}{{{{ not jinja }}}}"} for k in range(1, 8)]}, "answerKey": 7},
    ])
    write_jsonl(root / "spaces" / "test.jsonl", [
        {"id": "s1", "question": {"stem": "Tabs\tand trailing newline\n", "choices": [
            {"label": " A", "text": "x"}, {"label": "B ", "text": "y"}, {"label": "C", "text": "z"},
            {"label": "D", "text": "w"}]}, "answerKey": "B", "notes": {"source": "t", "extra": [1, 2]}},
        {"id": "s2", "question": {"stem": "Last?", "choices": [
            {"label": "A", "text": "first"}, {"label": "B", "text": "second"}, {"label": "C", "text": "third"}]},
         "answerKey": " C "},
    ])
    write_jsonl(root / "spaces" / "dev.jsonl", [
        {"id": "s3", "question": {"stem": "Dev", "choices": [{"label": "A", "text": "a"}, {"label": "B", "text": "b"}]},
         "answerKey": "A"},
    ])
    return root


@pytest.fixture(scope="module")
def hf_datasets_cache(tmp_path_factory):
    """lm-eval loads the files with HuggingFace datasets: its cache in a temporary directory."""
    import datasets.config

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path_factory.mktemp("hf_datasets"))
        yield


@pytest.fixture(scope="module")
def exported(tmp_path_factory, hf_datasets_cache):
    """(tasks dir, lm-eval TaskManager over it) for the fixture probes."""
    from lm_eval.tasks import TaskManager

    logging.getLogger("lm_eval").setLevel(logging.ERROR)
    out = tmp_path_factory.mktemp("lm_eval_tasks")
    export = export_lm_eval(PROBES, out)
    assert sorted(export.tasks) == ["wordnetqa_dictionary_cloze", "wordnetqa_dictionary_letters",
                                    "wordnetqa_hypernymy_cloze", "wordnetqa_hypernymy_letters"]
    # the built-in tasks are not indexed (16 s); lm_eval's command line adds them, our names are new there
    return out, TaskManager(include_path=str(out), include_defaults=False)


def our_builder(prompt_format):
    return PromptBuilder(prompt_format=prompt_format)


def assert_documents_are_our_questions(task, prompt_format, probe_dir):
    """Every split's documents, in order: our questions' text, choices, gold index and requests."""
    builder = our_builder(prompt_format)
    for split, docs_method in SPLITS.items():
        path = probe_dir / f"{split}.jsonl"
        if not holds_lines(path):                               # no file, or an empty one: no split
            assert getattr(task, docs_method)() is None
            continue
        questions = list(read_questions(path))
        docs = list(getattr(task, docs_method)())
        assert len(docs) == len(questions), (task.task_name, split)
        for doc, question in zip(docs, questions):
            assert task.doc_to_text(doc) == context_of(question, prompt_format)
            assert task.doc_to_choice(doc) == choices_of(question, prompt_format)
            assert task.doc_to_target(doc) == question.answer_index
            instances = task.construct_requests(doc, task.doc_to_text(doc), metadata=(task.task_name, 0, 1))
            theirs = [tuple(instance.arguments) for instance in instances]
            assert theirs == requests(question, prompt_format) == builder.prompt(question).requests


def test_the_exported_tasks_and_groups_load_in_lm_eval(exported):
    out, manager = exported
    assert manager.all_groups == ["wordnetqa", "wordnetqa_cloze", "wordnetqa_letters"]
    loaded = manager.load(["wordnetqa"])
    assert loaded["group_map"] == {
        "wordnetqa": ["wordnetqa_cloze", "wordnetqa_letters"],
        "wordnetqa_cloze": ["wordnetqa_dictionary_cloze", "wordnetqa_hypernymy_cloze"],
        "wordnetqa_letters": ["wordnetqa_dictionary_letters", "wordnetqa_hypernymy_letters"],
    }
    for name, task in loaded["tasks"].items():
        _, probe, prompt_format = name.split("_")
        config = yaml.safe_load((out / f"{name}.yaml").read_text(encoding="utf-8"))
        assert config["dataset_kwargs"]["data_files"] == {
            split: str((PROBES / probe / f"{split}.jsonl").resolve()) for split in SPLITS}
        assert (task.OUTPUT_TYPE, task.config.target_delimiter) == ("multiple_choice", " ")
        assert sorted(task.aggregation()) == ["acc", "acc_norm"]
        assert_documents_are_our_questions(task, prompt_format, PROBES / probe)
    assert (config["test_split"], config["validation_split"], config["training_split"]) == ("test", "dev", "train")


def test_splits_of_different_shapes_are_read_from_copies_and_empty_splits_count_as_none(tmp_path, hf_datasets_cache):
    """A probe built from an ontology writes notes.leakage only on the questions it masked: a train
    split holding some beside a test split holding none (HuggingFace datasets takes the first file's
    shape: it cannot cast the train file) is read from copies; an empty dev file is no split, a probe
    with an empty test file is left out, and a directory where every test file is empty is an error."""
    from lm_eval.tasks import TaskManager

    def question(number, notes):
        return {"id": f"q{number}", "question": {"stem": f"Stem {number}", "choices": [
            {"label": "A", "text": f"yes {number}"}, {"label": "B", "text": "no"}]}, "answerKey": "A", "notes": notes}

    probes = tmp_path / "probes"
    write_jsonl(probes / "part_of" / "test.jsonl", [question(1, {"hops": 1})])
    write_jsonl(probes / "part_of" / "train.jsonl", [question(2, {"hops": 1, "leakage": "definition masked"}),
                                                     question(3, {"hops": 2})])
    (probes / "part_of" / "dev.jsonl").write_text("\n")
    write_jsonl(probes / "tiny" / "train.jsonl", [question(4, {"hops": 1})])
    (probes / "tiny" / "test.jsonl").write_text("")
    export = export_lm_eval(probes, tmp_path / "tasks", group="onto")
    assert export.left_out == {"tiny": "its test.jsonl has no question (a probe too small to fill its test split)"}
    (probe,) = export.probes
    assert probe.copied and probe.counts == {"test": 1, "train": 2}
    config = yaml.safe_load((tmp_path / "tasks" / "onto_part_of_cloze.yaml").read_text(encoding="utf-8"))
    assert config["dataset_kwargs"]["data_files"] == {
        split: str((tmp_path / "tasks" / "data" / "onto" / "part_of" / f"{split}.jsonl").resolve())
        for split in ("test", "train")}
    assert "validation_split" not in config
    loaded = TaskManager(include_path=str(tmp_path / "tasks"), include_defaults=False).load(["onto"])["tasks"]
    assert sorted(loaded) == ["onto_part_of_cloze", "onto_part_of_letters"]
    for name, task in loaded.items():
        assert_documents_are_our_questions(task, name.rsplit("_", 1)[1], probes / "part_of")
    # splits of one shape: the probe files themselves
    same = tmp_path / "same"
    write_jsonl(same / "part_of" / "test.jsonl", [question(1, {"hops": 1})])
    write_jsonl(same / "part_of" / "train.jsonl", [question(2, {"hops": 3})])
    assert not export_lm_eval(same, tmp_path / "same_tasks").probes[0].copied
    # a key null in one split and missing in another: two shapes too
    nulls = tmp_path / "nulls"
    write_jsonl(nulls / "p" / "test.jsonl", [question(1, {"hops": 1})])
    write_jsonl(nulls / "p" / "dev.jsonl", [dict(question(2, {"hops": 1}), source=None)])
    assert export_lm_eval(nulls, tmp_path / "null_tasks").probes[0].copied
    (probes / "part_of" / "test.jsonl").write_text("")
    with pytest.raises(cli.InputError, match="no probe has a question in its test.jsonl \\(part_of, tiny\\)"):
        export_lm_eval(probes, tmp_path / "none")


def test_get_task_dict_and_the_format_groups(exported):
    from lm_eval.tasks import get_task_dict

    _, manager = exported
    tasks = get_task_dict(["wordnetqa_letters", "wordnetqa_dictionary_cloze"], manager)
    names = sorted(str(getattr(key, "group_name", key)) for key in tasks)
    assert names == ["wordnetqa_dictionary_cloze", "wordnetqa_letters"]
    groups = [key for key in tasks if not isinstance(key, str)]
    assert sorted(tasks[groups[0]]) == ["wordnetqa_dictionary_letters", "wordnetqa_hypernymy_letters"]


def test_whitespace_labels_quotes_and_any_number_of_choices_survive_the_templates(tmp_path, hf_datasets_cache):
    from lm_eval.tasks import TaskManager

    probes = odd_probes(tmp_path / "probes")
    export = export_lm_eval(probes, tmp_path / "tasks", group="odd")
    manager = TaskManager(include_path=str(tmp_path / "tasks"), include_defaults=False)
    loaded = manager.load(["odd"])["tasks"]
    assert sorted(loaded) == sorted(export.tasks) == ["odd_ints_cloze", "odd_ints_letters", "odd_spaces_cloze",
                                                      "odd_spaces_letters"]
    for name, task in loaded.items():
        _, probe, prompt_format = name.split("_")
        assert_documents_are_our_questions(task, prompt_format, probes / probe)
    ints = yaml.safe_load((tmp_path / "tasks" / "odd_ints_letters.yaml").read_text(encoding="utf-8"))
    assert "validation_split" not in ints and "training_split" not in ints and ints["test_split"] == "test"
    spaces = yaml.safe_load((tmp_path / "tasks" / "odd_spaces_cloze.yaml").read_text(encoding="utf-8"))
    assert spaces["validation_split"] == "dev" and "training_split" not in spaces
    seven = list(read_questions(probes / "ints" / "test.jsonl"))[1]
    assert context_of(seven, "letters").endswith("\nG. choice 7{{ not jinja }}\nAnswer:")


def test_lm_evals_accuracy_equals_our_scorers_on_a_tiny_model(exported, tiny_causal):
    """simple_evaluate with HFLM on the exported cloze and letters tasks of one probe: lm-eval's acc and acc_norm
    are the accuracies of our scorer's summed log-probabilities (and per-character ones) on the same file."""
    from lm_eval.evaluator import simple_evaluate

    from mcqa_probes.models.causal_lm_scoring import CausalLmScorer
    from mcqa_probes.testing.lm_eval_reference import make_hflm

    _, manager = exported
    model, tokenizer = causal_models.load(tiny_causal("gpt2", max_positions=512))  # no prompt truncated
    scorer = CausalLmScorer(model, tokenizer, batch_size=8)
    names = ["wordnetqa_hypernymy_cloze", "wordnetqa_hypernymy_letters"]
    results = simple_evaluate(model=make_hflm(model, tokenizer, batch_size=8), tasks=names, task_manager=manager,
                              bootstrap_iters=0, log_samples=True)
    questions = list(read_questions(PROBES / "hypernymy" / "test.jsonl"))
    for name in names:
        prompt_format = name.rsplit("_", 1)[1]
        builder = our_builder(prompt_format)
        correct = correct_norm = 0
        samples = sorted(results["samples"][name], key=lambda sample: sample["doc_id"])
        assert len(samples) == len(questions)
        for question, sample in zip(questions, samples):
            ours = [answer.logprob for answer in scorer.loglikelihood(builder.prompt(question).requests)]
            theirs = [float(response[0][0]) for response in sample["resps"]]
            assert max(abs(a - b) for a, b in zip(ours, theirs)) <= 1e-4
            lengths = [len(choice) for choice in choices_of(question, prompt_format)]
            correct += causal_models.argmax(ours) == question.answer_index
            correct_norm += causal_models.argmax([s / n for s, n in zip(ours, lengths)]) == question.answer_index
        metrics = results["results"][name]
        assert metrics["acc,none"] == pytest.approx(correct / len(questions), abs=1e-12)
        assert metrics["acc_norm,none"] == pytest.approx(correct_norm / len(questions), abs=1e-12)
    assert scorer.truncated_requests == 0


def load_command():
    return load_bin("export_lm_eval")


def test_the_command_prints_what_it_wrote_and_the_lm_eval_command_line(tmp_path, capsys):
    status = cli.run(load_command().main, [str(PROBES), "--out", str(tmp_path / "tasks"), "--formats", "cloze",
                                           "--probes", "hypernymy"])
    assert status == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "tasks").iterdir()) == [
        "wordnetqa.yaml", "wordnetqa_cloze.yaml", "wordnetqa_hypernymy_cloze.yaml"]
    assert "probe hypernymy: 12 test, 12 dev, 12 train questions" in out
    assert "task  wordnetqa_hypernymy_cloze" in out and str(tmp_path / "tasks" / "wordnetqa_cloze.yaml") in out
    assert out.strip().splitlines()[-1] == (f"run: lm_eval --model hf --model_args pretrained=MODEL --include_path "
                                            f"{tmp_path / 'tasks'} --tasks wordnetqa")


@pytest.mark.parametrize("setup, arguments, message", [
    (None, ["{tmp}/missing"], "{tmp}/missing: no such directory"),
    ("no_test", ["{tmp}/probes"],
     "{tmp}/probes/broken/test.jsonl: no such file (every probe directory needs a test.jsonl)"),
    ("bad_line", ["{tmp}/probes"], "{tmp}/probes/broken/test.jsonl, line 1:"),
    ("too_many", ["{tmp}/probes"], "broken: questions with 27 choices, but the letters format has 26 letters"),
    ("ad_hoc", ["{tmp}/probes"], "{tmp}/probes/broken/test.jsonl, line 1: the lm-eval tasks read the full form"),
    (None, [str(PROBES), "--probes", "nope"], "no such probe directory"),
    (None, [str(PROBES), "--group", "a b"], "group 'a b': use letters, digits"),
])
def test_bad_input_is_one_error_line(tmp_path, capsys, setup, arguments, message):
    broken = tmp_path / "probes" / "broken"
    broken.mkdir(parents=True)
    if setup == "no_test":
        write_jsonl(broken / "dev.jsonl", [{"question": "q", "choices": ["a", "b"], "answerKey": "A"}])
    elif setup == "bad_line":
        (broken / "test.jsonl").write_text('{"question": {"stem": "q"}}\n', encoding="utf-8")
    elif setup == "too_many":
        choices = [{"label": str(k), "text": f"c{k}"} for k in range(27)]
        write_jsonl(broken / "test.jsonl", [{"question": {"stem": "q", "choices": choices}, "answerKey": "0"}])
    elif setup == "ad_hoc":  # our reader takes it, the templates do not
        write_jsonl(broken / "test.jsonl", [{"question": "q", "choices": ["a", "b"], "answerKey": "A"}])
    argv = [a.replace("{tmp}", str(tmp_path)) for a in arguments] + ["--out", str(tmp_path / "tasks")]
    assert cli.run(load_command().main, argv) == cli.BAD_INPUT
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message.replace("{tmp}", str(tmp_path)) in lines[0]
    assert not (tmp_path / "tasks").exists()  # nothing written


def test_the_templates_are_our_default_cloze_template():
    """The cloze Jinja template is our PromptBuilder's default template with the stem as a Jinja expression."""
    from mcqa_probes.data.causal_prompts import DEFAULT_TEMPLATE

    assert lm_eval_export.CLOZE_TEXT == DEFAULT_TEMPLATE.replace("{stem}", "{{question.stem}}")
    assert PromptBuilder().template == DEFAULT_TEMPLATE
