"""The probes as lm-evaluation-harness tasks: one YAML task per probe and prompt format, and groups (plain Python).

``export_lm_eval(probes_dir, tasks_dir)`` reads a directory of probes (``<probe>/test.jsonl``, and
``dev.jsonl`` / ``train.jsonl`` where present: what ``bin/build_probes`` writes) and writes, for
every probe and format, ``<group>_<probe>_<format>.yaml``; then ``<group>_<format>.yaml`` (the
group of a format's tasks, with ``acc`` and ``acc_norm`` over all their questions) and
``<group>.yaml`` (the group of those groups). An lm-evaluation-harness user then runs::

    lm_eval --model hf --model_args pretrained=MODEL --include_path TASKS_DIR --tasks wordnetqa

The tasks read the probe files as they are (``dataset_path: json``, the files' absolute paths in
``dataset_kwargs.data_files``; splits test, dev -> validation, train -> training). An empty
``dev.jsonl`` / ``train.jsonl`` (a probe too small to fill it) counts as none; a probe with an empty
``test.jsonl`` is left out (:attr:`Export.left_out`). HuggingFace ``datasets`` gives a task's splits
the shape of its first file, so where a probe's splits differ in their keys (a probe built from an
ontology writes ``notes.leakage`` only on the questions it masked, which a small split may not
hold), the task reads copies of its files in ``TASKS_DIR/data/<group>/<probe>/`` that keep only what the
templates read (``id``, ``question``, ``answerKey``). Their Jinja
templates give lm-eval exactly our requests (:func:`requests`):

* **cloze**: context ``Question: {stem}\\nAnswer:`` (our default cloze template), each choice
  ``" " + text``;
* **letters**: context ``Question: {stem}\\nA. {choice 0}\\nB. {choice 1}\\n...\\nAnswer:``, each
  choice ``" " + letter`` (lm-eval's commonsense_qa prompt, for any number of choices up to 26).

The gold index is the position of the choice whose label equals ``answerKey``, both compared as
trimmed strings, as :mod:`mcqa_probes.data.question` reads them. Every file is read with
:func:`~mcqa_probes.data.question.question_from_json` before anything is written, so a malformed file
is an error here, with its line, and not inside lm-eval.
"""
import json
import os
import shlex
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import yaml

from mcqa_probes.common.cli import InputError
from mcqa_probes.common.io import McqaFormatError, holds_lines, read_jsonl, write_text
from mcqa_probes.data.causal_prompts import DEFAULT_TARGET_DELIMITER, DEFAULT_TEMPLATE
from mcqa_probes.data.question import MultipleChoiceQuestion, question_from_json

PathLike = Union[str, os.PathLike]

FORMATS = ("cloze", "letters")
DEFAULT_GROUP = "wordnetqa"
LETTERS = string.ascii_uppercase
#: (probe file stem, lm-eval config key), the test split first: it is required, the others are optional
SPLITS = (("test", "test_split"), ("dev", "validation_split"), ("train", "training_split"))
METRICS = ("acc", "acc_norm")
TASK_VERSION = 1.0
HEADER = "# lm-evaluation-harness config written by mcqa_probes' bin/export_lm_eval (see its docs/causal_lm.md).\n"

# ------------------------------------------------------------------ the Jinja templates lm-eval renders
#: ``{{question.stem}}`` as our reader keeps it (not stripped)
_STEM = "{{question.stem}}"
CLOZE_TEXT = DEFAULT_TEMPLATE.replace("{stem}", _STEM)
CLOZE_CHOICES = "{{question.choices|map(attribute='text')|list}}"
LETTERS_TEXT = ("Question: " + _STEM + "{% for choice in question.choices %}\n{{'" + LETTERS
                + "'[loop.index0]}}. {{choice.text}}{% endfor %}\nAnswer:")
LETTERS_CHOICES = "{{'" + LETTERS + "'[:question.choices|length]|list}}"
#: the index of the choice whose label is the answerKey (labels and key compared as trimmed strings)
GOLD_INDEX = ("{% for choice in question.choices %}{% if choice.label|string|trim == answerKey|string|trim %}"
              "{{loop.index0}}{% endif %}{% endfor %}")
TEMPLATES = {"cloze": (CLOZE_TEXT, CLOZE_CHOICES), "letters": (LETTERS_TEXT, LETTERS_CHOICES)}


# ------------------------------------------------------------------ the same prompts in Python
def cloze_context(question: MultipleChoiceQuestion) -> str:
    return DEFAULT_TEMPLATE.replace("{stem}", question.stem)


def letters_context(question: MultipleChoiceQuestion) -> str:
    """``Question: {stem}\\nA. {choice 0}\\nB. {choice 1}\\n...\\nAnswer:``."""
    check_letters(question)
    lines = "".join(f"\n{letter}. {choice.text}" for letter, choice in zip(LETTERS, question.choices))
    return f"Question: {question.stem}{lines}\nAnswer:"


def check_letters(question: MultipleChoiceQuestion) -> None:
    if len(question.choices) > len(LETTERS):
        raise InputError(f"question {question.id}: {len(question.choices)} choices, but the letters format has "
                         f"{len(LETTERS)} letters")


def choices_of(question: MultipleChoiceQuestion, prompt_format: str) -> List[str]:
    """What lm-eval's ``doc_to_choice`` gives: the choice texts (cloze) or letters."""
    if prompt_format == "letters":
        check_letters(question)
        return list(LETTERS[:len(question.choices)])
    return [choice.text for choice in question.choices]


def context_of(question: MultipleChoiceQuestion, prompt_format: str) -> str:
    """What lm-eval's ``doc_to_text`` gives."""
    return letters_context(question) if prompt_format == "letters" else cloze_context(question)


def requests(question: MultipleChoiceQuestion, prompt_format: str) -> List[Tuple[str, str]]:
    """The ``(context, continuation)`` requests lm-eval makes of a question in a format, in choice order."""
    check_format(prompt_format)
    context = context_of(question, prompt_format)
    return [(context, DEFAULT_TARGET_DELIMITER + choice) for choice in choices_of(question, prompt_format)]


def check_format(prompt_format: str) -> str:
    if prompt_format not in FORMATS:
        raise InputError(f"prompt format: expected one of {FORMATS}, got {prompt_format!r}")
    return prompt_format


# ------------------------------------------------------------------ the YAML files
def task_name(group: str, probe: str, prompt_format: str) -> str:
    return f"{group}_{probe}_{prompt_format}"


def task_config(name: str, data_files: Dict[str, str], prompt_format: str) -> Dict[str, Any]:
    """One lm-eval task: a probe's files (``{"test": path, "dev": path, "train": path}``) in a format."""
    text, choices = TEMPLATES[check_format(prompt_format)]
    config: Dict[str, Any] = {"task": name, "dataset_path": "json", "dataset_kwargs": {"data_files": dict(data_files)}}
    for split, key in SPLITS:
        if split in data_files:
            config[key] = split
    config.update({
        "output_type": "multiple_choice",
        "doc_to_text": text,
        "doc_to_choice": choices,
        "doc_to_target": GOLD_INDEX,
        "target_delimiter": DEFAULT_TARGET_DELIMITER,
        "metric_list": [{"metric": metric, "aggregation": "mean", "higher_is_better": True} for metric in METRICS],
        "metadata": {"version": TASK_VERSION},
    })
    return config


def group_config(name: str, members: Sequence[str], aggregate: bool) -> Dict[str, Any]:
    """A group of tasks or groups; ``aggregate``: acc and acc_norm over all the members' questions."""
    config: Dict[str, Any] = {"group": name, "task": list(members)}
    if aggregate:
        config["aggregate_metric_list"] = [{"metric": metric, "aggregation": "mean", "weight_by_size": True}
                                           for metric in METRICS]
    config["metadata"] = {"version": TASK_VERSION}
    return config


class _Dumper(yaml.SafeDumper):
    """Block style; the templates (strings with a newline or a quote) double-quoted on one line."""


def _represent_text(dumper: yaml.SafeDumper, value: str) -> Any:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"' if "\n" in value or "'" in value else None)


_Dumper.add_representer(str, _represent_text)


def yaml_text(config: Dict[str, Any]) -> str:
    text = yaml.dump(config, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=1 << 30)
    if yaml.safe_load(text) != config:  # what lm-eval will read back
        raise AssertionError(f"YAML round trip changed the config of {config.get('task') or config.get('group')}")
    return HEADER + text


# ------------------------------------------------------------------ reading the probes, writing the tasks
@dataclass
class ProbeFiles:
    """A probe's files and the number of questions of each split."""

    name: str
    files: Dict[str, str]
    counts: Dict[str, int]
    max_choices: int
    #: per split, the key paths (and value types) of its lines: splits of one shape load in lm-eval
    shapes: Dict[str, frozenset] = field(default_factory=dict)
    #: the task reads copies of the files (its splits differ in shape), in ``TASKS_DIR/data/<group>/<probe>/``
    copied: bool = False


@dataclass
class Export:
    """What :func:`export_lm_eval` wrote: ``tasks`` maps each task name to its YAML file, ``groups`` each group."""

    tasks_dir: str
    group: str
    formats: Tuple[str, ...]
    probes: List[ProbeFiles]
    tasks: Dict[str, str] = field(default_factory=dict)
    #: the probes not exported, each with the reason (an empty test split)
    left_out: Dict[str, str] = field(default_factory=dict)
    groups: Dict[str, str] = field(default_factory=dict)

    def lm_eval_command(self, model: str = "MODEL") -> str:
        return (f"lm_eval --model hf --model_args pretrained={model} --include_path {shlex.quote(self.tasks_dir)} "
                f"--tasks {self.group}")


def probe_dirs(probes_dir: PathLike, names: Optional[Sequence[str]] = None) -> List[Path]:
    """The probe directories of ``probes_dir`` (every subdirectory, or those named), sorted."""
    root = Path(probes_dir)
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such directory (expected a directory of probes, e.g. the output of "
                                f"bin/build_probes)")
    if names:
        directories = [root / name for name in names]
        for directory in directories:
            if not directory.is_dir():
                raise FileNotFoundError(f"{directory}: no such probe directory")
    else:
        directories = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
        if not directories:
            raise FileNotFoundError(f"{root}: no probe directories in it (expected <probe>/test.jsonl)")
    return directories


def check_full_form(data: Dict[str, Any]) -> None:
    """The layout the templates read (our reader also takes others: the ad-hoc and flattened forms)."""
    question = data.get("question")
    choices = question.get("choices") if isinstance(question, dict) else None
    if (not isinstance(choices, list) or "answerKey" not in data
            or not all(isinstance(choice, dict) and "label" in choice for choice in choices)):
        raise McqaFormatError('the lm-eval tasks read the full form {"question": {"stem": ..., "choices": '
                              '[{"label": ..., "text": ...}, ...]}, "answerKey": ...}')


def read_probe(directory: Path) -> ProbeFiles:
    """A probe's split files (``test.jsonl`` required; an empty dev / train file counts as none, an
    empty test file gives no ``test`` entry), each read in full with our reader (and
    :func:`check_full_form`)."""
    files: Dict[str, str] = {}
    counts: Dict[str, int] = {}
    shapes: Dict[str, frozenset] = {}
    max_choices = 0
    for split, _ in SPLITS:
        path = directory / f"{split}.jsonl"
        if not path.is_file() and split == "test":
            raise FileNotFoundError(f"{path}: no such file (every probe directory needs a test.jsonl)")
        if not holds_lines(path):
            continue
        count = 0
        shape: set = set()
        for number, data in read_jsonl(path, what="question"):
            try:
                question = question_from_json(data, default_id=f"line-{number}")
                check_full_form(data)
            except McqaFormatError as error:
                raise McqaFormatError(error.reason, str(path), number) from None
            count += 1
            max_choices = max(max_choices, len(question.choices))
            _add_shape(shape, data, "")
        files[split] = os.path.abspath(path)
        counts[split] = count
        shapes[split] = frozenset(shape)
    return ProbeFiles(directory.name, files, counts, max_choices, shapes)


def _add_shape(shape: set, value: Any, path: str) -> None:
    """The key paths of a JSON value with their value types (``NoneType`` for a null: a key that is
    null in one split and missing in another is two shapes to lm-eval's loader)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            _add_shape(shape, inner, f"{path}.{key}")
    elif isinstance(value, list):
        for inner in value:
            _add_shape(shape, inner, path + "[]")
    else:
        shape.add((path, type(value).__name__))


def copy_for_lm_eval(probe: ProbeFiles, out: Path, group: str) -> None:
    """Point ``probe``'s task at copies of its files that keep what the templates read (``id``,
    ``question``, ``answerKey``): one shape for every split (``out/data/<group>/<probe>/``: two groups
    exported into one folder keep their own)."""
    for split, path in list(probe.files.items()):
        lines = [json.dumps({key: data[key] for key in ("id", "question", "answerKey") if key in data},
                            ensure_ascii=False) + "\n" for _, data in read_jsonl(path, what="question")]
        probe.files[split] = os.path.abspath(write_text(out / "data" / group / probe.name / f"{split}.jsonl",
                                                        "".join(lines)))
    probe.copied = True


def _check_name(name: str, what: str) -> str:
    allowed = set(string.ascii_letters + string.digits + "_-.")
    if not name or not set(name) <= allowed:
        raise InputError(f"{what} {name!r}: use letters, digits, '_', '-' or '.' (it becomes an lm-eval task name)")
    return name


def export_lm_eval(probes_dir: PathLike, tasks_dir: PathLike, *, group: str = DEFAULT_GROUP,
                   formats: Sequence[str] = FORMATS, probes: Optional[Sequence[str]] = None) -> Export:
    """Write the lm-eval tasks of the probes of ``probes_dir`` into ``tasks_dir`` (see the module doc)."""
    _check_name(group, "group")
    formats = tuple(dict.fromkeys(check_format(f) for f in formats))
    if not formats:
        raise InputError("formats: at least one of cloze, letters")
    directories = probe_dirs(probes_dir, probes)
    for directory in directories:
        _check_name(directory.name, "probe directory")
    read = [read_probe(directory) for directory in directories]
    left_out = {probe.name: "its test.jsonl has no question (a probe too small to fill its test split)"
                for probe in read if "test" not in probe.files}
    read = [probe for probe in read if "test" in probe.files]
    if not read:
        raise InputError(f"{probes_dir}: no probe has a question in its test.jsonl ({', '.join(left_out)}); lm-eval "
                         f"scores a task's test split")
    for probe in read:
        if "letters" in formats and probe.max_choices > len(LETTERS):
            raise InputError(f"{probe.name}: questions with {probe.max_choices} choices, but the letters format has "
                             f"{len(LETTERS)} letters (export only --formats cloze)")
    out = Path(tasks_dir)
    out.mkdir(parents=True, exist_ok=True)
    result = Export(os.path.abspath(out), group, formats, read, left_out=left_out)
    for probe in read:
        if len(set(probe.shapes.values())) > 1:
            copy_for_lm_eval(probe, out, group)
    for prompt_format in formats:
        members = []
        for probe in read:
            name = task_name(group, probe.name, prompt_format)
            result.tasks[name] = str(write_text(out / f"{name}.yaml",
                                                yaml_text(task_config(name, probe.files, prompt_format))))
            members.append(name)
        name = f"{group}_{prompt_format}"
        result.groups[name] = str(write_text(out / f"{name}.yaml", yaml_text(group_config(name, members, True))))
    subgroups = [f"{group}_{prompt_format}" for prompt_format in formats]
    result.groups[group] = str(write_text(out / f"{group}.yaml", yaml_text(group_config(group, subgroups, False))))
    return result
