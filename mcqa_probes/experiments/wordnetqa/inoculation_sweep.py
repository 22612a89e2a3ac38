"""The inoculation sweep (TACL paper §4.2, Figure 4): for each dosage k, learning rate and add-some
ratio, continue training a base archive on k probe examples, record probe dev/test accuracy and
the original-task accuracy before/after (inoculation cost), pick the best-aggregate model
M*^{a,k} per k, and draw probe (solid) and original (dashed) accuracy against k.

With ``causal_model`` the model inoculated is a pretrained causal LM instead of an MCQA archive
(training_config/inoculate_causal.jsonnet: LoRA adapters or every weight, the probe and the
original task read as causal-LM prompts); everything else is the same sweep.

Resumable, in parallel: the grid runner (:mod:`mcqa_probes.experiments.grid`) skips a run whose
``trials/<run>/result.json`` holds the same settings and runs the others, serially or on Ray.
"""
import json
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence

from mcqa_probes.common.configs import config_file
from mcqa_probes.common.device import config_environment, resolve_cuda_device
from mcqa_probes.common.environment import environment
from mcqa_probes.common.io import holds_lines, write_csv, write_json, write_text
from mcqa_probes.data.archives import archive_reader_settings
from mcqa_probes.experiments.grid import Trial, config_variables, describe_metrics, run_grid
from mcqa_probes.reports import figures
from mcqa_probes.reports.tables import markdown_table
from mcqa_probes.training.evaluation import evaluate_file, load_archived_model

CONFIG = config_file("inoculate.jsonnet")
CAUSAL_CONFIG = config_file("inoculate_causal.jsonnet")
COLUMNS = ["k", "lr", "add_some", "seed", "probe_dev_accuracy", "probe_test_accuracy", "orig_accuracy_before",
           "orig_accuracy_after", "inoculation_cost", "aggregate_accuracy", "best_for_k", "run_dir"]


@dataclass
class SweepSettings:
    #: the MCQA archive to inoculate (None with ``causal_model``; made absolute: each run's archive
    #: loads it by the path in its config)
    base_archive: Optional[str]
    probe_dir: str
    orig_dev: str
    out: str
    dosages: Sequence[int] = (100, 250, 500, 1000, 2000, 3000)
    lrs: Sequence[float] = (1e-5, 3e-5)
    add_some: Sequence[int] = (0,)
    orig_train: Optional[str] = None
    #: the transformer the base archive's reader tokenizes with (None: the archive's own, read from
    #: its config: :func:`~mcqa_probes.data.archives.archive_reader_settings`)
    model_name: Optional[str] = None
    epochs: int = 3
    seed: int = 13
    #: several seeds: one run per seed at every grid point (run names end in ``_s<seed>``);
    #: None = the single ``seed``
    seeds: Optional[Sequence[int]] = None
    batch_size: int = 8
    #: the base archive's reader's word-piece limit and truncation (None: the archive's own)
    max_length: Optional[int] = None
    truncation: Optional[str] = None
    #: read at most this many probe dev / test and original dev questions (None = all)
    dev_max: Optional[int] = None
    #: read at most this many original dev questions (None = ``dev_max``)
    orig_dev_max: Optional[int] = None
    #: the config trained at every grid point (None: inoculate.jsonnet, or inoculate_causal.jsonnet
    #: with ``causal_model``)
    config: Optional[str] = None
    #: a causal LM (name or directory, e.g. ``smollm2``) to inoculate instead of ``base_archive``
    causal_model: Optional[str] = None
    #: causal LMs: ``lora`` (adapters only) or ``full``; the adapters' rank; ``cloze`` or ``letters``
    probe_type: str = "lora"
    lora_rank: int = 8
    prompt_format: str = "cloze"
    extra_env: Dict[str, str] = field(default_factory=dict)
    #: GPU for training and scoring (None: the GPU when there is one, -1: the CPU)
    cuda_device: Optional[int] = None
    #: autocast precision of the probe test-set scoring (training: the config's USE_AMP)
    precision: str = "fp32"

    def __post_init__(self):
        if (self.base_archive is None) == (self.causal_model is None):
            raise ValueError("inoculation: give either a base archive (an MCQA model) or a causal LM, not "
                             f"{'both' if self.base_archive else 'neither'}")
        if self.base_archive is not None:
            # each run's config names it (from_archive): its model.tar.gz loads it again from anywhere
            self.base_archive = os.path.abspath(self.base_archive)
        if any(self.add_some) and not self.orig_train:
            raise ValueError("add-some inoculation needs --orig-train (the original task's training file)")
        if self.config is None:
            self.config = str(CAUSAL_CONFIG if self.causal_model else CONFIG)
        if self.base_archive is not None and None in (self.model_name, self.max_length, self.truncation):
            # the archive goes on training: its questions must become the word pieces it was trained on
            archived = archive_reader_settings(self.base_archive)
            self.model_name = self.model_name or archived["transformer_model_name"]  # bin/inoculate: the same
            self.max_length = self.max_length or int(archived["max_length"])
            self.truncation = self.truncation or archived["truncation"]

    def model_variables(self) -> Dict[str, str]:
        """The config variables that say which model is inoculated."""
        if self.causal_model:
            return {"MODEL_NAME": self.causal_model, "PROBE_TYPE": self.probe_type, "LORA_RANK": str(self.lora_rank),
                    "LORA_ALPHA": str(2 * self.lora_rank), "PROMPT_FORMAT": self.prompt_format}
        return {"MODEL_NAME": self.model_name, "BASE_ARCHIVE": str(self.base_archive),
                "MAX_LENGTH": str(self.max_length), "TRUNCATION": self.truncation}


def run_name(k: int, lr: float, add_some: int, seed: Optional[int] = None) -> str:
    return f"k{k}_lr{lr:g}_add{add_some}" + ("" if seed is None else f"_s{seed}")


def point_name(settings: SweepSettings, point: Dict) -> str:
    """The run's name: seeds appear in it when the sweep has a ``seeds`` axis."""
    return run_name(point["k"], point["lr"], point["add_some"], point["seed"] if settings.seeds else None)


def grid(settings: SweepSettings) -> Iterator[Dict]:
    for k in settings.dosages:
        for lr in settings.lrs:
            for add_some in settings.add_some:
                for seed in settings.seeds or (settings.seed,):
                    yield {"k": int(k), "lr": float(lr), "add_some": int(add_some), "seed": int(seed)}


def _evaluate(archive: Path, data_file: Path, batch_size: int, cuda_device: int = -1, precision: str = "fp32") -> float:
    """The archive's accuracy on ``data_file`` (its validation reader; the one evaluation loop)."""
    loaded = load_archived_model(str(archive), cuda_device, precision)
    metrics = evaluate_file(loaded.model, loaded.reader, str(data_file), batch_size)
    return float(metrics["accuracy"])


def run_one(settings: SweepSettings, point: Dict, reuse: bool = True) -> Dict:
    """Train (or, with ``reuse``, reuse) one inoculation run; return its result row."""
    run_dir = Path(settings.out) / "runs" / point_name(settings, point)
    result_file = run_dir / "result.json"
    if reuse and result_file.is_file():
        return json.loads(result_file.read_text())
    if run_dir.exists():  # an interrupted run: start it again
        shutil.rmtree(run_dir)
    cuda_device = resolve_cuda_device(settings.cuda_device)
    probe_dir = Path(settings.probe_dir)
    orig_dev_max = settings.orig_dev_max or settings.dev_max
    variables = {
        **settings.model_variables(),
        "PROBE_TRAIN": str(probe_dir / "train.jsonl"), "PROBE_DEV": str(probe_dir / "dev.jsonl"),
        "ORIG_DEV": str(settings.orig_dev), "DOSAGE": str(point["k"]), "LR": repr(point["lr"]),
        "ADD_SOME": str(point["add_some"]), "EPOCHS": str(settings.epochs), "SEED": str(point.get("seed", settings.seed)),
        "BATCH_SIZE": str(settings.batch_size),
        **({"ORIG_TRAIN": str(settings.orig_train)} if settings.orig_train else {}),
        **({"DEV_MAX": str(settings.dev_max)} if settings.dev_max else {}),
        **({"ORIG_DEV_MAX": str(orig_dev_max)} if orig_dev_max else {}),
        **config_environment(cuda_device),
        **settings.extra_env,
    }
    if point["add_some"] and not settings.orig_train:
        raise ValueError("add-some inoculation needs --orig-train (the original task's training file)")
    from allennlp.commands.train import train_model_from_file

    with environment(variables):
        train_model_from_file(settings.config, str(run_dir))
    metrics = json.loads((run_dir / "metrics.json").read_text())
    test_file = probe_dir / "test.jsonl"
    row = {
        **point,
        "probe_dev_accuracy": metrics.get("best_validation_accuracy"),
        "probe_test_accuracy": (_evaluate(run_dir / "model.tar.gz", test_file, 32, cuda_device, settings.precision)
                                if holds_lines(test_file) else None),   # a missing or empty split: none
        "orig_accuracy_before": metrics["orig_accuracy_before"],
        "orig_accuracy_after": metrics["orig_accuracy"],
        "inoculation_cost": metrics["inoculation_cost"],
        "aggregate_accuracy": metrics.get("aggregate_accuracy"),
        "run_dir": str(run_dir),
    }
    write_json(result_file, row, indent=2, sort_keys=True)
    return row


def mark_best(rows: List[Dict]) -> List[Dict]:
    """M*^{a,k}: per dosage k (and seed), the run with the best aggregate accuracy (ties: first in
    grid order)."""
    best: Dict[tuple, Dict] = {}
    for row in rows:
        key = (row["k"], row.get("seed"))
        current = best.get(key)
        if current is None or (row["aggregate_accuracy"] or 0) > (current["aggregate_accuracy"] or 0):
            best[key] = row
    for row in rows:
        row["best_for_k"] = row is best[(row["k"], row.get("seed"))]
    return rows


def _fmt(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "**best**" if value else ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def write_tables(rows: List[Dict], out: Path) -> None:
    write_csv(out / "inoculation.csv", ([row.get(c) for c in COLUMNS] for row in rows), header=COLUMNS,
              lineterminator="\n")
    shown = [c for c in COLUMNS if c != "run_dir"]
    lines = ["# Inoculation sweep", "",
             "Accuracies are fractions; inoculation cost is in points (original accuracy before − after, ×100; "
             "positive = worse). `best` marks M*^{a,k}, the best aggregate AVG(probe dev, original) per k.", "",
             markdown_table(shown, [[_fmt(row.get(c)) for c in shown] for row in rows])]
    write_text(out / "inoculation.md", "\n".join(lines) + "\n")


def plot(rows: List[Dict], out: Path, title: str = "Inoculation") -> Path:
    return figures.inoculation_curves(rows, out / "inoculation_curves.png", title=title)


def sweep_trial(settings: SweepSettings, point: Dict) -> Dict:
    """One grid trial: train the run afresh (the grid runner decides what is finished)."""
    return run_one(settings, point, reuse=False)


def sweep_trials(settings: SweepSettings) -> List:
    """The sweep as grid trials (id ``k<k>_lr<lr>_add<a>``; spec: settings, point, config environment)."""


    described = {key: value for key, value in asdict(settings).items() if key != "out"}
    variables = config_variables(settings.config)
    return [
        Trial(point_name(settings, p), sweep_trial, {"settings": settings, "point": p},
              spec={"settings": described, "point": p, "config_environment": variables},
              label=f"k={p['k']},lr={p['lr']:g},add_some={p['add_some']}"
              + (f",seed={p['seed']}" if settings.seeds else ""))
        for p in grid(settings)
    ]


def run_sweep(settings: SweepSettings, progress=None, grid_options=None) -> List[Dict]:
    """Run (or resume) the sweep on the grid runner (``grid_options``: workers, Ray address, resources;
    default serial), then write the tables and the figure. Each run's result is
    ``OUT/trials/<run>/result.json`` (log: ``trial.log`` beside it); it trains in ``OUT/runs/<run>``.
    A failed run is left out of the tables and raises :class:`~mcqa_probes.experiments.grid.GridFailed`
    after they are written. ``progress`` is unused (the runner prints a line per finished run)."""

    trials = sweep_trials(settings)
    report = run_grid(trials, Path(settings.out), grid_options,
                      describe=describe_metrics("probe_dev_accuracy", "orig_accuracy_after"))
    results = report.results()
    rows = [results[t.id] for t in trials if t.id in results]
    rows = mark_best(rows)
    out = Path(settings.out)
    write_tables(rows, out)
    model = f" of {Path(settings.causal_model).name}" if settings.causal_model else ""
    plot(rows, out, title=f"Inoculation{model} on {Path(settings.probe_dir).name}")
    report.raise_for_failures()
    return rows
