"""Artifact audit of a probe: the partial-input and task-specific baselines of Table 7 (groups 1-2).

Richardson & Sabharwal (2020, §4.1, §5.1) train every baseline directly on ≤ 3k probe questions
and report dev / test accuracy next to random guessing. A partial-input model (one that never sees
the question: Choice-Only, Choice-to-Choice) far above chance means the answer choices alone give
the gold away, i.e. the probe has annotation artifacts.

For each probe directory (``train.jsonl`` and optionally ``dev.jsonl`` / ``test.jsonl``; a missing
dev or test split is carved, seeded, out of train by whole semantic clusters - see
:func:`prepare_splits`; dev and test hold at most :data:`DEFAULT_EVAL_MAX` questions each, a seeded
sample of whole clusters, given or carved), every requested model is trained with its
config in ``training_config/`` (environment overrides: TRAIN_DATA, DEV_DATA, TEST_DATA,
GLOVE_FILE, EPOCHS, SEED) and scored on dev and test. The GloVe file is first cut down to the
words of the probe files (same vectors, much faster to load). Every trained model's answers are kept
per question: ``runs/<probe>/<model>/items_<split>.jsonl`` (:func:`trial_items_file`; item records,
:mod:`mcqa_probes.metrics.item_records`, model = the table row, section ``artifact_audit``, probe
``<probe>/<split>``); the random baseline has none.
"""
import copy
import gzip
import json
import os
import random
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from mcqa_probes.builders.output import read_manifest
from mcqa_probes.data.question import question_from_json, read_questions
from mcqa_probes.data.question import CLUSTER_KEY_FIELDS, cluster_key
from mcqa_probes.common.cli import InputError
from mcqa_probes.common.configs import CONFIG_DIR
from mcqa_probes.common.device import config_environment, resolve_cuda_device, torch_device
from mcqa_probes.common.environment import environment
from mcqa_probes.common.progress import progress as progress_bar
from mcqa_probes.common.io import (
    McqaFormatError, atomic_open, holds_lines, read_jsonl, sha256_file, write_json, write_text,
)
from mcqa_probes.metrics.item_records import write_item_records
from mcqa_probes.metrics.probe_records import chance_level
from mcqa_probes.reports.tables import Section, markdown_table
from mcqa_probes.resources.glove import glove_50d_file
from mcqa_probes.experiments.grid import RESULT_FILE, GridOptions, Trial, config_variables, describe_metrics, run_grid


@dataclass(frozen=True)
class AuditModel:
    """One row of the table: how it is trained and where it goes in the Table 7 layout."""

    key: str
    row: str
    group: int  # 1 = baselines (partial input + VecSimilarity), 2 = task-specific models
    partial_input: bool
    config: Optional[str] = None  # None: the random baseline
    environment: Dict[str, str] = field(default_factory=dict)


MODELS: Dict[str, AuditModel] = {
    m.key: m
    for m in [
        AuditModel("random", "Random", 1, False),
        AuditModel("choice_only", "Choice-Only-GloVe", 1, True, "choice_only_glove.jsonnet"),
        AuditModel("choice_only_transformer", "Choice-Only-{MODEL_NAME}", 1, True, "choice_only_transformer.jsonnet"),
        AuditModel("choice_to_choice", "Choice-to-Choice-GloVe", 1, True, "choice_to_choice_glove.jsonnet"),
        AuditModel("vec_similarity", "Question-to-Choice-VecSimilarity", 1, False, "vec_similarity_glove.jsonnet"),
        AuditModel("question_to_choice", "Question-to-Choice-GloVe", 2, False, "question_to_choice_glove.jsonnet"),
        AuditModel("esim", "ESIM-GloVe (trained on the probe)", 2, False, "esim_glove.jsonnet"),
    ]
}
# Table 7 groups 1-2 with GloVe (ESIM and the transformer choice-only model on request)
DEFAULT_MODELS = ("random", "choice_only", "choice_to_choice", "vec_similarity", "question_to_choice")
GROUP_TITLES = {
    1: "Group 1: Baselines (direct training on the probe)",
    2: "Group 2: Task-Specific (non-transformer) Models",
}


# ---------------------------------------------------------------------------- splits
#: at most this many dev and this many test questions per probe (a seeded sample of whole semantic
#: clusters, see :func:`cap_by_clusters`); 0 = all. Every epoch validates on dev, so a full-size dev
#: (tens of thousands of questions on a full probe build) makes the audit many times slower.
DEFAULT_EVAL_MAX = 2000

#: one question of a probe file: the line as written (copied to the split files unchanged) and its
#: decoded JSON object
Record = Tuple[str, Dict[str, Any]]


def read_records(path: Path) -> List[Record]:
    """The questions of a JSON-lines file as ``(line, decoded object)``, parsed once by
    :func:`~mcqa_probes.common.io.read_jsonl` and validated as questions (errors name file and line)."""
    path = Path(path)
    with open(path, "rb") as handle:
        raw_lines = handle.readlines()  # the lines read_jsonl numbers
    records: List[Record] = []
    for number, data in read_jsonl(path, what="question"):
        try:
            question_from_json(data, default_id=f"line-{number}")
        except McqaFormatError as error:
            raise McqaFormatError(error.reason, str(path), number) from None
        line = raw_lines[number - 1].decode("utf-8").rstrip("\r\n")
        records.append((line.lstrip("\ufeff") if number == 1 else line, data))
    return records


def clusters_of(records: Sequence[Record]) -> List[List[Record]]:
    """The records grouped by semantic cluster, in first-seen order: the cluster key the probe metrics
    use (:data:`~mcqa_probes.metrics.probe_records.CLUSTER_KEY_FIELDS`: ``notes.cluster_key``,
    ``notes.synset_id``, ``notes.gold_synset``, ``question_concept``); a question without one is
    its own cluster."""
    groups: Dict[object, List[Record]] = {}
    for index, record in enumerate(records):
        key = cluster_key(record[1])
        groups.setdefault(("key", key) if key is not None else ("line", index), []).append(record)
    return list(groups.values())


def cap_by_clusters(records: Sequence[Record], cap: int, seed: str) -> Tuple[List[Record], Dict[str, Any]]:
    """At most ``cap`` of ``records`` (``cap`` 0: all), a seeded sample of whole semantic clusters
    (:func:`clusters_of`): the clusters are shuffled with ``random.Random(seed)`` and taken in that
    order up to the first one that would pass the cap (so the sample is a uniform draw of clusters,
    none split, and holds ``cap`` minus less than one cluster; at least one cluster). The kept
    questions stay in file order. Returns them and ``{"questions", "clusters", "of_questions",
    "of_clusters", "max", "seed"}``."""
    clusters = clusters_of(records)
    stated = {"questions": len(records), "clusters": len(clusters), "of_questions": len(records),
              "of_clusters": len(clusters), "max": cap, "seed": seed}
    if not cap or len(records) <= cap:
        return list(records), stated
    order = list(range(len(clusters)))
    random.Random(seed).shuffle(order)
    chosen, count = set(), 0
    for index in order:
        if chosen and count + len(clusters[index]) > cap:
            break
        chosen.add(index)
        count += len(clusters[index])
    kept_ids = {id(record) for index in chosen for record in clusters[index]}
    kept = [record for record in records if id(record) in kept_ids]
    stated.update(questions=len(kept), clusters=len(chosen))
    return kept, stated


def prepare_splits(
    probe_dir: Path, out_dir: Path, max_train: int = 3000, dev_size: int = 300, test_size: int = 300, seed: int = 0,
    eval_max: int = DEFAULT_EVAL_MAX,
) -> Dict[str, object]:
    """Train / dev / test files of a probe. A missing ``dev.jsonl`` / ``test.jsonl`` is carved out
    of ``train.jsonl`` by whole semantic clusters (:func:`clusters_of`; seeded shuffle of the
    clusters, taken until the split has at least the requested size, so it may be larger by
    less than one cluster): no cluster is split, so no concept is in both train and a carved split
    (a question-level shuffle put the same synsets in train and dev and inflated partial-input
    baselines). A given dev / test file with more than ``eval_max`` questions (0: no cap) is cut to
    a seeded sample of its whole clusters (:func:`cap_by_clusters`, seed ``"<seed>:<split>"``), and
    the carved splits are carved at ``min(size, eval_max)``. Train is then shuffled and cut to
    ``max_train`` questions. Writes the three files under ``out_dir`` and returns their paths, sizes
    and provenance (``carved``: clusters per carved split; ``eval``: per dev / test split, the
    questions and clusters used of how many, the cap and its seed)."""
    probe_dir = Path(probe_dir)
    train_file = probe_dir / "train.jsonl"
    if not train_file.is_file():
        raise FileNotFoundError(f"{probe_dir}: no train.jsonl")
    rng = random.Random(seed)
    clusters = clusters_of(read_records(train_file))
    rng.shuffle(clusters)
    total = sum(len(c) for c in clusters)
    sources = {"train": str(train_file)}
    carved: Dict[str, Dict[str, int]] = {}
    evaluation: Dict[str, Dict[str, Any]] = {}
    splits: Dict[str, List[Record]] = {}
    for name, size in (("dev", dev_size), ("test", test_size)):
        given = probe_dir / f"{name}.jsonl"
        if holds_lines(given):     # an empty split (a small probe's): as a missing one
            splits[name], evaluation[name] = cap_by_clusters(read_records(given), eval_max, f"{seed}:{name}")
            sources[name] = str(given)
            if evaluation[name]["questions"] < evaluation[name]["of_questions"]:
                sources[name] = (f"{evaluation[name]['questions']} of the {evaluation[name]['of_questions']} "
                                 f"questions of {given}: a sample of whole semantic clusters "
                                 f"({evaluation[name]['clusters']} of {evaluation[name]['of_clusters']}; "
                                 f"at most {eval_max}, seed {seed}:{name})")
        else:
            size = min(size, eval_max) if eval_max else size
            if total <= size:
                raise ValueError(f"{train_file}: {total} questions, too few to hold out {size} for {name}")
            taken: List[Record] = []
            count = 0
            while clusters and len(taken) < size:
                taken += clusters.pop(0)
                count += 1
            if not clusters:
                raise ValueError(f"{train_file}: holding out {size} questions for {name} by whole clusters "
                                 "leaves no training question")
            total -= len(taken)
            splits[name] = taken
            carved[name] = {"questions": len(taken), "clusters": count}
            evaluation[name] = {"questions": len(taken), "clusters": count, "of_questions": len(taken),
                                "of_clusters": count, "max": eval_max, "seed": str(seed), "carved": True}
            sources[name] = (f"{len(taken)} held out of {train_file} by whole semantic clusters ({count} clusters, "
                             f"key {' / '.join(CLUSTER_KEY_FIELDS)}; seed {seed})")
    train = [record for cluster in clusters for record in cluster]
    known = {question_text(data) for _, data in train}
    overlap = {name: sum(question_text(data) in known for _, data in splits[name]) for name in ("dev", "test")}
    rng.shuffle(train)
    splits["train"] = train[:max_train]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, records in splits.items():
        paths[name] = str(out_dir / f"{name}.jsonl")
        write_text(paths[name], "".join(line + "\n" for line, _ in records))
    return {"paths": paths, "sizes": {k: len(v) for k, v in splits.items()}, "sources": sources, "carved": carved,
            "eval": evaluation, "in_train": overlap}


def question_text(data: Dict[str, Any]) -> Tuple[str, Tuple[str, ...]]:
    """A question's stem and choice texts (what a model sees), to find a dev / test question that
    is also in train under another id."""
    question = data.get("question", {})
    return question.get("stem", ""), tuple(choice.get("text", "") for choice in question.get("choices", []))


def describe_overlap(splits: Dict[str, Any]) -> str:
    """``12 of the 12 dev questions and 12 of the 12 test questions are also in train (...)``, or ``""``."""
    counts = {name: count for name, count in splits.get("in_train", {}).items() if count}
    if not counts:
        return ""
    parts = [f"{count:,} of the {splits['sizes'][name]:,} {name} questions" for name, count in counts.items()]
    verb = "is" if list(counts.values()) == [1] else "are"
    return (f"{' and '.join(parts)} {verb} also in train (the same stem and choices): a model can recall them, so "
            "its accuracy there overstates what it learned")


# ---------------------------------------------------------------------------- embeddings
def probe_words(files: Iterable[str]) -> set:
    """Lower-cased words of stems and choices, tokenized as the GloVe configs do (letters_digits)."""
    from allennlp.data.tokenizers import LettersDigitsTokenizer

    tokenizer = LettersDigitsTokenizer()
    words = set()
    for path in files:
        for question in read_questions(path):
            for text in [question.stem] + [c.text for c in question.choices]:
                words.update(token.text.lower() for token in tokenizer.tokenize(text))
    return words


def glove_subset(glove_file: Path, words: set, target: Path) -> Dict[str, int]:
    """Copy the lines of ``glove_file`` whose word is in ``words`` to ``target`` (GloVe format)."""
    opener = gzip.open if str(glove_file).endswith(".gz") else open
    kept, dimension = 0, 0
    target.parent.mkdir(parents=True, exist_ok=True)
    with opener(glove_file, "rt", encoding="utf-8") as source, atomic_open(target, "w", encoding="utf-8") as sink:
        for line in source:
            word, _, rest = line.partition(" ")
            if word in words:
                sink.write(line if line.endswith("\n") else line + "\n")
                kept += 1
                dimension = dimension or len(rest.split())
    return {"words": len(words), "found": kept, "dimension": dimension}


# ---------------------------------------------------------------------------- running
def split_chance(paths: Dict[str, str]) -> Dict[str, float]:
    """The chance level of each evaluated split (``dev``, ``test``): the accuracy of uniform guessing,
    mean(1/K) over its questions (:func:`~mcqa_probes.metrics.probe_records.chance_level`; NaN for a
    split without questions). What the partial-input models are flagged against, whether or not the
    random baseline ran."""
    return {split: chance_level(len(q.choices) for q in read_questions(paths[split])) for split in ("dev", "test")}


def random_baseline(paths: Dict[str, str], seed: int = 0) -> Dict[str, float]:
    """Uniform random guessing (seeded), and the expected chance accuracy mean(1/K)."""
    generator = random.Random(seed)
    result = {}
    for split in ("dev", "test"):
        questions = list(read_questions(paths[split]))
        hits = sum(generator.randrange(len(q.choices)) == q.answer_index for q in questions)
        result[split] = hits / len(questions)
        result[f"{split}_chance"] = chance_level(len(q.choices) for q in questions)
    return result


#: a trial's per-question answers on a split, in its run directory (:func:`trial_items_file`)
ITEMS_FILE = "items_{split}.jsonl"


def trial_run_dir(out_dir: Path, probe: str, key: str) -> Path:
    """Where the audit in ``out_dir`` trains ``key`` on ``probe`` (its weights, metrics and item files)."""
    return Path(out_dir) / "runs" / probe / key


def trial_items_file(out_dir: Path, probe: str, key: str, split: str) -> Path:
    """The item records of ``key``'s answers to ``probe``'s ``split`` questions in the audit in
    ``out_dir`` (written by :func:`train_and_score`; absent for the random baseline and for runs of
    an audit made before the records were kept)."""
    return trial_run_dir(out_dir, probe, key) / ITEMS_FILE.format(split=split)


def forget_run(out_dir: Path, probe: str, key: str) -> None:
    """Make the next :func:`run_audit` in ``out_dir`` train ``key`` on ``probe`` again instead of reusing
    its finished run (its grid trial's ``result.json`` removed): e.g. a run finished before its item
    records were kept."""
    (Path(out_dir) / "trials" / probe / key / RESULT_FILE).unlink(missing_ok=True)


def train_and_score(
    model: AuditModel,
    paths: Dict[str, str],
    run_dir: Path,
    settings: Dict[str, Optional[str]],
    keep_model: bool = False,
) -> Dict[str, float]:
    """Train ``model`` on paths['train'] (validation on dev, best epoch kept) and score dev and test,
    both on the settings' ``CUDA_DEVICE`` (default -1, the CPU). The answers to each split's questions
    are written as item records to ``run_dir/items_<split>.jsonl`` (model: the table row; section
    ``artifact_audit``; probe ``<probe>/<split>``, the probe being ``run_dir``'s parent's name)."""
    from allennlp.common import Params
    from allennlp.commands.train import train_model
    from allennlp.data import DatasetReader

    from mcqa_probes.training.evaluation import evaluate_file  # lazy: pulls torch and allennlp in, as the imports above

    values = dict(settings)
    values.update(model.environment)
    values.update({"TRAIN_DATA": paths["train"], "DEV_DATA": paths["dev"], "TEST_DATA": paths["test"]})
    started = time.time()
    with environment(values):
        params = Params.from_file(str(CONFIG_DIR / model.config))
        reader_params = copy.deepcopy(params.as_dict(quiet=True)["dataset_reader"])
        params["evaluate_on_test"] = False  # test words still enter the vocabulary; scored below
        trained = train_model(params, run_dir, force=True)
    reader = DatasetReader.from_params(Params(reader_params))
    cuda_device = int(values.get("CUDA_DEVICE") or -1)
    trained.to(torch_device(cuda_device))  # a no_op trainer leaves the model where it was built
    scores: Dict[str, float] = {}
    label, probe = row_name(model, settings), Path(run_dir).parent.name
    for split in ("dev", "test"):  # the one evaluation loop: counted on the open progress bar
        keeps = hasattr(trained, "keep_items")
        if keeps:
            trained.keep_items(label, "artifact_audit", f"{probe}/{split}")
        scores[split] = float(evaluate_file(trained, reader, paths[split], batch_size=64)["accuracy"])
        records = trained.take_items() if keeps else []
        if records:
            write_item_records(Path(run_dir) / ITEMS_FILE.format(split=split), records)
    scores["seconds"] = round(time.time() - started, 1)
    metrics_file = Path(run_dir) / "metrics.json"
    if metrics_file.is_file():
        metrics = json.loads(metrics_file.read_text())
        scores["epochs"] = metrics.get("epoch", -1) + 1
        if "best_epoch" in metrics:
            scores["best_epoch"] = metrics["best_epoch"]
    if not keep_model:
        for pattern in ("*.th", "model.tar.gz", "vocabulary"):
            for path in Path(run_dir).glob(pattern):
                shutil.rmtree(path) if path.is_dir() else path.unlink()
    return scores


def check_probe_dirs(probe_dirs: Sequence[Path], what: str = "probe directory") -> None:
    """Before any work: every probe directory holds ``train.jsonl``, and no two share a name (the
    probe's name is the directory's, and its runs go to ``runs/<name>``). Errors name the
    directories (``what`` says how: e.g. ``--probe-dir``)."""
    seen: Dict[str, Path] = {}
    for probe_dir in probe_dirs:
        probe_dir = Path(probe_dir)
        name = probe_dir.name
        if name in seen:
            raise InputError(f"{what} {seen[name]} and {what} {probe_dir}: both are probe {name!r} (a probe is "
                             f"named by its directory; their runs would share runs/{name}); give the probes "
                             "directories of different names")
        seen[name] = probe_dir
        if not probe_dir.is_dir():
            raise FileNotFoundError(f"{what} {probe_dir}: no such directory (expected a probe directory with "
                                    f"train.jsonl){_why_not_built(probe_dir)}")
        if not (probe_dir / "train.jsonl").is_file():
            raise FileNotFoundError(f"{what} {probe_dir}: no train.jsonl")
        if not holds_lines(probe_dir / "train.jsonl"):
            raise InputError(f"{what} {probe_dir}: its train.jsonl holds no question (a probe too small to train "
                             "the baselines on: leave it out)")


def _why_not_built(probe_dir: Path) -> str:
    """``; the build left it out: <reason>`` where the build's manifest beside it says so, else ``""``."""
    manifest = read_manifest(probe_dir.parent)
    try:
        reason = manifest.get("skipped_probes", {}).get(probe_dir.name)
        built = [str(probe) for probe in manifest.get("probes", [])]
    except (AttributeError, TypeError):         # a manifest of another shape
        return ""
    if reason:
        return f"; the build left it out: {reason}"
    return f"; the build in {probe_dir.parent} wrote {', '.join(built)}" if built else ""


def row_name(model: AuditModel, settings: Dict[str, Optional[str]]) -> str:
    return model.row.replace("{MODEL_NAME}", str(settings.get("MODEL_NAME") or model.environment.get("MODEL_NAME") or "minilm"))


def run_audit(
    probe_dirs: Sequence[Path],
    out_dir: Path,
    models: Sequence[str] = DEFAULT_MODELS,
    max_train: int = 3000,
    dev_size: int = 300,
    test_size: int = 300,
    epochs: Optional[int] = None,
    seed: int = 13,
    glove_file: Optional[Path] = None,
    flag_margin: float = 0.25,
    keep_models: bool = False,
    extra_environment: Optional[Dict[str, str]] = None,
    progress: Callable[[str], None] = print,
    cuda_device: Optional[int] = None,
    precision: str = "fp32",
    grid_options: Optional[GridOptions] = None,
    eval_max: int = DEFAULT_EVAL_MAX,
    quiet: bool = False,
    progress_label: str = "artifact audit",
) -> Dict[str, object]:
    """Run the audit; writes ``artifact_audit.md`` and ``artifact_audit.json`` in ``out_dir`` and
    returns the JSON object. The (probe, model) runs are trials of the grid runner
    (``grid_options``: workers, Ray address, resources; default serial): finished runs are reused
    when re-run with the same out_dir and settings (delete ``trials/<probe>/<model>/result.json``
    to redo one; its log is ``trial.log`` beside it); a failed run is left out of the table and
    raises :class:`~mcqa_probes.experiments.grid.GridFailed` once the table is written. Every model trains and is
    scored on ``cuda_device`` (``None``: the GPU when there is one) in ``precision``. Dev and test
    hold at most ``eval_max`` questions each (0: all), a seeded sample of whole semantic clusters
    (:func:`prepare_splits`); the report says how many were used of how many. The dev and test questions
    the models are scored on show on a progress bar named ``progress_label`` on stderr (serial runs;
    :mod:`mcqa_probes.common.progress`), none with ``quiet``."""
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        raise ValueError(f"unknown model(s) {unknown}; choose from {sorted(MODELS)}")
    check_probe_dirs(probe_dirs)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    settings: Dict[str, Optional[str]] = dict(extra_environment or {})
    settings["SEED"] = str(seed)
    # every run trains and is scored on this device, its model in this precision (CUDA_DEVICE, PRECISION)
    settings.update(config_environment(resolve_cuda_device(cuda_device), precision))
    if epochs is not None:
        settings["EPOCHS"] = str(epochs)
    uses_glove = any(MODELS[m].config and "glove" in MODELS[m].config for m in models)
    if uses_glove and glove_file is None:
        glove_file = Path(os.environ.get("GLOVE_FILE") or glove_50d_file())

    report: Dict[str, object] = {
        "models": [m for m in models],
        "settings": {"max_train": max_train, "dev_size": dev_size, "test_size": test_size, "eval_max": eval_max,
                     "epochs": epochs,
                     "seed": seed, "glove_file": str(glove_file) if glove_file else None, "flag_margin": flag_margin},
        "probes": {},
    }
    trials: List[Trial] = []
    for probe_dir in probe_dirs:
        probe = Path(probe_dir).name
        probe_out = out_dir / "runs" / probe
        splits = prepare_splits(Path(probe_dir), probe_out / "splits", max_train, dev_size, test_size, seed=0,
                                eval_max=eval_max)
        progress(f"{probe}: {describe_eval(splits)}")
        if describe_overlap(splits):
            progress(f"warning: {probe}: {describe_overlap(splits)}")
        paths = splits["paths"]
        entry: Dict[str, object] = {"splits": splits, "chance": split_chance(paths), "results": {}}
        probe_settings = dict(settings)
        if uses_glove:
            subset = probe_out / "glove_subset.txt"
            coverage = glove_subset(Path(glove_file), probe_words(paths.values()), subset)
            entry["glove_coverage"] = coverage
            probe_settings.update({"GLOVE_FILE": str(subset), "EMBEDDING_DIM": str(coverage["dimension"])})
        data = {name: sha256_file(path) for name, path in sorted(paths.items())}
        for key in models:
            config = str(CONFIG_DIR / MODELS[key].config) if MODELS[key].config else None
            trials.append(Trial(
                f"{probe}/{key}", audit_trial,
                {"key": key, "paths": paths, "run_dir": str(trial_run_dir(out_dir, probe, key)),
                 "settings": probe_settings, "seed": seed, "keep_model": keep_models},
                spec={"model": key, "data_sha256": data, "settings": probe_settings, "seed": seed,
                      "glove_file": str(glove_file) if glove_file else None,
                      "config_environment": config_variables(config) if config else {}},
                label=f"{probe} / {key}"))
        report["probes"][probe] = entry
    with progress_bar(progress_label, quiet=quiet):
        grid_report = run_grid(trials, out_dir, grid_options, describe=describe_metrics("dev", "test"))
    for outcome in grid_report.outcomes:
        probe, key = outcome.id.split("/")
        if outcome.status == "failed":
            continue
        result = outcome.result
        if outcome.status == "skipped":
            progress(f"{probe} / {key}: done before (dev {result['dev']:.3f}, test {result['test']:.3f})")
        report["probes"][probe]["results"][key] = result
    report["flags"] = find_flags(report, flag_margin)
    report["flags_not_computed"] = unflagged(report)
    write_json(out_dir / "artifact_audit.json", report, end="")
    write_text(out_dir / "artifact_audit.md", format_table(report))
    grid_report.raise_for_failures()
    return report


def audit_trial(key: str, paths: Dict[str, str], run_dir: str, settings: Dict[str, Optional[str]], seed: int,
                keep_model: bool = False) -> Dict[str, object]:
    """One grid trial: train and score one model on one probe (the random baseline just guesses)."""
    model = MODELS[key]
    if model.config is None:
        result = random_baseline(paths, seed)
    else:
        result = train_and_score(model, paths, Path(run_dir), settings, keep_model)
    result["row"] = row_name(model, settings)
    return result


# ---------------------------------------------------------------------------- reporting
def describe_eval(splits: Dict[str, Any]) -> str:
    """``dev 1,990 of 69,120 questions (664 of 23,040 clusters), test all 2,000 questions (...)``."""
    parts = []
    for name, used in splits.get("eval", {}).items():
        if used.get("carved"):
            parts.append(f"{name} {used['questions']:,} questions ({used['clusters']:,} clusters) held out of train")
        elif used["questions"] < used["of_questions"]:
            parts.append(f"{name} {used['questions']:,} of {used['of_questions']:,} questions "
                         f"({used['clusters']:,} of {used['of_clusters']:,} clusters)")
        else:
            parts.append(f"{name} all {used['of_questions']:,} questions ({used['of_clusters']:,} clusters)")
    return ", ".join(parts)


def chance(entry: Dict[str, object], split: str) -> float:
    """The chance level of a probe's split: computed from its questions (``entry["chance"]``, see
    :func:`split_chance`), else (a report written before it was kept) the random baseline's, else NaN."""
    if split in entry.get("chance", {}):
        return entry["chance"][split]
    if "random" in entry["results"]:
        return entry["results"]["random"][f"{split}_chance"]
    return float("nan")


def unflagged(report: Dict[str, object]) -> List[str]:
    """What :func:`find_flags` could not check: ``<probe> <split>`` (no chance level: a split without
    questions, or a report without it) and ``<probe> <model>`` (a requested partial-input model
    without a result, e.g. a failed run)."""
    missing = []
    partial = [key for key in report["models"] if MODELS[key].partial_input]
    for probe, entry in report["probes"].items():
        if partial:
            missing += [f"{probe} {split} (no chance level)" for split in ("dev", "test")
                        if chance(entry, split) != chance(entry, split)]
        missing += [f"{probe} {key} (no result)" for key in partial if key not in entry["results"]]
    return missing


def find_flags(report: Dict[str, object], margin: float) -> List[Dict[str, object]]:
    """Partial-input models whose dev or test accuracy is ``margin`` or more above chance (the split's
    chance level, :func:`chance`; a split without one is not checked, see :func:`unflagged`)."""
    flags = []
    for probe, entry in report["probes"].items():
        for key, result in entry["results"].items():
            if not MODELS[key].partial_input:
                continue
            for split in ("dev", "test"):
                level = chance(entry, split)
                if level == level and result[split] - level >= margin:
                    flags.append({"probe": probe, "model": result.get("row", key), "split": split,
                                  "accuracy": result[split], "chance": level,
                                  "points_above_chance": round(100 * (result[split] - level), 1)})
    return flags


def format_table(report: Dict[str, object]) -> str:
    """Markdown in the layout of Table 7 (groups 1-2): one column per probe, cells ``dev / test`` (%)."""
    probes = list(report["probes"])
    rows: List[object] = []
    for group in (1, 2):
        keys = [k for k in report["models"] if MODELS[k].group == group]
        if not keys:
            continue
        rows.append(Section(GROUP_TITLES[group]))
        for key in keys:
            cells, name = [], MODELS[key].row
            for probe in probes:
                result = report["probes"][probe]["results"].get(key)
                if result is None:
                    cells.append("-")
                    continue
                name = result.get("row", name)
                cells.append(f"{100 * result['dev']:.1f} / {100 * result['test']:.1f}")
            rows.append([name] + cells)
    lines = [markdown_table(["Model"] + [f"{p} (Dev/Test)" for p in probes], rows)]
    settings = report["settings"]
    sizes = "; ".join(
        f"{p}: train {e['splits']['sizes']['train']}, dev {e['splits']['sizes']['dev']}, test {e['splits']['sizes']['test']}"
        for p, e in report["probes"].items())
    lines += ["", f"Instance-level accuracy (%). Splits: {sizes}. Seed {settings['seed']}, "
              f"epochs {settings['epochs'] or 'config default'}, embeddings {settings['glove_file']}.", ""]
    used = [f"{p}: {describe_eval(e['splits'])}" for p, e in report["probes"].items() if e["splits"].get("eval")]
    if used:
        cap = settings.get("eval_max")
        lines += [f"Dev / test used (at most {cap:,} questions each, a seeded sample of whole semantic clusters; "
                  f"--eval-max 0: all): {'; '.join(used)}." if cap else
                  f"Dev / test used (no cap): {'; '.join(used)}.", ""]
    carved = [f"{p} {name} ({c['questions']} questions, {c['clusters']} clusters)"
              for p, e in report["probes"].items() for name, c in e["splits"].get("carved", {}).items()]
    if carved:
        lines += [f"Held out of train by whole semantic clusters (no cluster in both train and the held-out split): "
                  f"{'; '.join(carved)}.", ""]
    repeated = [f"{p}: {describe_overlap(e['splits'])}" for p, e in report["probes"].items()
                if describe_overlap(e["splits"])]
    if repeated:
        lines += [f"**Warning**: {'; '.join(repeated)}.", ""]
    flags = report.get("flags", [])
    margin = f"{100 * settings['flag_margin']:.0f}"
    missing = unflagged(report)
    checked = any(MODELS[key].partial_input and chance(entry, split) == chance(entry, split)
                  for entry in report["probes"].values() for key in entry["results"] for split in ("dev", "test"))
    if flags:
        lines.append(f"**Flagged** (partial-input model ≥ {margin} points above chance):")
        for flag in flags:
            lines.append(f"- {flag['probe']}: {flag['model']} {flag['split']} {100 * flag['accuracy']:.1f}% vs "
                         f"chance {100 * flag['chance']:.1f}% (+{flag['points_above_chance']})")
    elif not any(MODELS[key].partial_input for key in report["models"]):
        lines.append("No partial-input model (Choice-Only, Choice-to-Choice) was run: artifact flags not computed.")
    elif checked:
        lines.append(f"No partial-input model is {margin} points or more above chance"
                     + (" where checked." if missing else "."))
    if missing:
        lines.append(f"Artifact flags (partial-input model ≥ {margin} points above chance) not computed for: "
                     f"{'; '.join(missing)}.")
    return "\n".join(lines) + "\n"
