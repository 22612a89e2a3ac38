"""oLMpics learning curves (§3.2) with language controls (§3.3), resumable.

For each variant (``full`` = the original files, plus any of the ``nolang`` / ``perturbed``
controls), each training size N and each seed, an allennlp training run on the first N questions
of a seeded shuffle of the training file (the same questions in every variant) is evaluated on
the dev file; the run's ``best_validation_accuracy`` is the curve point (allennlp validates after
every epoch, as the oLMpics code did). Finished runs leave ``trials/<variant>/n<N>_s<seed>/result.json``
(grid runner, :mod:`mcqa_probes.experiments.grid`) and are not repeated when the command is run again. Outputs in ``out``:

* ``runs.csv``: variant, size, seed, accuracy (one row per run)
* ``curve.csv``: variant, size, mean accuracy over seeds, number of seeds, note (the requested
  sizes that were not run are listed with an empty accuracy)
* ``summary.json``: per variant WS and MAX, and the language sensitivity of each control; the
  requested sizes, the sizes run, ``missing_sizes`` and ``paper_comparable``

A requested size larger than the training file is not run under that name (training on all the
available questions and calling it "2K" would repeat a smaller point): the curve stops at the
available size N, run once and recorded as N, and WS / MAX use only the sizes run (see
:func:`mcqa_probes.metrics.learning_curve.plan_sizes`). Always-Never (1,004 training questions)
gets 62 ... 1000 and 1004; 2000 and 4000 are reported missing and ``paper_comparable`` is false.
* ``learning_curve.png``: the curve (solid) and the controls' curves (dashed)

What trains is the config's business: with ``olmpics_mc_mlm.jsonnet`` and ``PROBE_TYPE=mlp`` the
representations are fixed and only the MLM head trains, as in the paper.
"""
import json
import logging
import random
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from mcqa_probes.data.olmpics_controls import (
    CONTROLS, apply_control, control_words, pooled_answer_map, probe_from_path,
)
from mcqa_probes.data.question import MultipleChoiceQuestion, read_questions
from mcqa_probes.reports import figures
from mcqa_probes.common.io import sha256_file, write_csv, write_json, write_jsonl
from mcqa_probes.metrics.learning_curve import (
    PAPER_SIZES,
    language_sensitivity,
    mean_curve,
    paper_comparable,
    plan_sizes,
    summarize,
    weights_for,
)
from mcqa_probes.common.device import config_environment, resolve_cuda_device
from mcqa_probes.common.environment import environment
import dataclasses
from mcqa_probes.experiments.grid import GridOptions, Trial, config_variables, describe_metrics, run_grid

logger = logging.getLogger(__name__)

FULL = "full"


def _write(questions: Sequence[MultipleChoiceQuestion], path: Path) -> Path:
    write_jsonl(path, (question.to_json() for question in questions))
    return path


def subset_indices(total: int, size: int, seed: int) -> List[int]:
    """The first ``size`` of a seeded shuffle of range(total) (same for every variant)."""
    order = list(range(total))
    random.Random(seed).shuffle(order)
    return order[: min(size, total)]


def default_trainer(config: str, serialization_dir: Path, overrides: Dict[str, Any]) -> float:
    """One allennlp training run; returns its best validation accuracy."""
    from allennlp.commands.train import train_model_from_file


    train_model_from_file(config, str(serialization_dir), overrides=json.dumps(overrides), force=True)
    metrics = json.loads((serialization_dir / "metrics.json").read_text())
    return float(metrics.get("best_validation_accuracy", metrics.get("validation_accuracy")))


def _merge(base: Dict[str, Any], extra: Dict[str, Any]) -> Dict[str, Any]:
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def control_of(path: str, questions, control: str, probe: Optional[str], seed: int, answer_map, words):
    """:func:`apply_control` of one file's questions; its error names the file."""
    try:
        return apply_control(questions, control, probe, seed=seed, answer_map=answer_map, words=words)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None


def prepare_variants(
    train: str, dev: str, out: Path, controls: Sequence[str], probe: Optional[str], dev_limit: Optional[int]
) -> Dict[str, Dict[str, Any]]:
    """Per variant: the transformed training questions and the dev file path."""
    train_questions = list(read_questions(train))
    dev_questions = list(read_questions(dev))
    # NO LANG.: answers mapped to nonsense words or kept, decided once on train + the whole dev file
    answer_map = pooled_answer_map(train_questions, dev_questions)
    every_dev = dev_questions
    if dev_limit and dev_limit < len(dev_questions):
        dev_questions = [dev_questions[i] for i in sorted(subset_indices(len(dev_questions), dev_limit, 0))]
    probe = probe or probe_from_path(train)
    variants: Dict[str, Dict[str, Any]] = {}
    for variant in [FULL, *controls]:
        if variant == FULL:
            train_v, dev_v = train_questions, dev_questions
        else:
            if variant not in CONTROLS:
                raise ValueError(f"control: expected one of {CONTROLS}, got {variant!r}")
            # the words too are decided once, on train + the whole dev file (inferred for an unknown probe)
            words = control_words(variant, probe, train_questions, every_dev)
            train_v = control_of(train, train_questions, variant, probe, 1, answer_map, words)
            dev_v = control_of(dev, dev_questions, variant, probe, 2, answer_map, words)
        dev_path = out / "data" / variant / "dev.jsonl"
        if not dev_path.exists():
            _write(dev_v, dev_path)
        variants[variant] = {"train": train_v, "dev": dev_path}
    return variants


def run_learning_curve(
    config: str,
    train: str,
    dev: str,
    out,
    sizes: Sequence[int] = PAPER_SIZES,
    seeds: int = 3,
    controls: Sequence[str] = (),
    probe: Optional[str] = None,
    overrides: Optional[Dict[str, Any]] = None,
    dev_limit: Optional[int] = None,
    keep_models: bool = False,
    trainer: Callable[[str, Path, Dict[str, Any]], float] = default_trainer,
    progress: bool = True,
    cuda_device: Optional[int] = None,
    precision: str = "fp32",
    grid_options=None,
) -> Dict[str, Any]:
    """Train every (variant, size, seed), then write runs.csv, curve.csv, summary.json and the PNG.

    The runs are trials of the grid runner (``grid_options``: workers, Ray address, resources;
    default serial, in this process): ``out/trials/<variant>/n<N>_s<seed>/result.json`` (and
    ``trial.log``) per finished run, reused when the same run (same data, config, overrides and
    config environment) is asked for again; the model trains in ``out/runs/<variant>/n<N>_s<seed>``.
    A failed run is left out of the outputs, which are written, and then raises
    :class:`~mcqa_probes.experiments.grid.GridFailed` (failed trials and their log files).

    Each run trains and validates on ``cuda_device`` (``None``: the GPU when there is one; the
    config's ``CUDA_DEVICE``) with the model in ``precision`` (the config's ``PRECISION``).
    """

    device_variables = config_environment(resolve_cuda_device(cuda_device), precision)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    requested = sorted({int(s) for s in sizes})
    variants = prepare_variants(train, dev, out, controls, probe, dev_limit)
    available = len(variants[FULL]["train"])
    sizes, missing = plan_sizes(requested, available)
    if missing:
        logger.warning("%s has %d training questions: sizes %s not run; the curve stops at N=%d",
                       train, available, missing, available)


    trials: List[Trial] = []
    for variant in variants:
        dev_sha = sha256_file(variants[variant]["dev"])
        for size in sizes:
            for seed in range(seeds):
                questions = variants[variant]["train"]
                subset = [questions[i] for i in subset_indices(len(questions), size, seed)]
                train_path = _write(subset, out / "data" / variant / f"train_n{size}_s{seed}.jsonl")
                run_overrides = _merge(
                    {
                        "train_data_path": str(train_path),
                        "validation_data_path": str(variants[variant]["dev"]),
                        "random_seed": 13 + seed,
                        "numpy_seed": 13 + seed,
                        "pytorch_seed": 13 + seed,
                    },
                    overrides or {},
                )
                row = {"variant": variant, "size": size, "seed": seed, "train_examples": len(subset)}
                trials.append(Trial(
                    f"{variant}/n{size}_s{seed}", curve_trial,
                    {"trainer": trainer, "config": str(config), "train_dir": str(out / "runs" / variant / f"n{size}_s{seed}" / "allennlp"),
                     "overrides": run_overrides, "variables": device_variables, "keep_models": keep_models, "row": row},
                    spec={"row": row, "config": str(config), "trainer": trainer, "overrides": run_overrides,
                          "variables": device_variables, "config_environment": config_variables(config),
                          "data_sha256": [sha256_file(train_path), dev_sha]},
                    label=f"{out.name} {variant} N={size} seed={seed}"))
    options = grid_options or GridOptions()
    if not progress:
        options = dataclasses.replace(options, quiet=True)
    report = run_grid(trials, out, options, describe=describe_metrics("accuracy"))
    results = report.results()
    rows: List[Dict[str, Any]] = [results[t.id] for t in trials if t.id in results]
    if report.failed:  # the outputs of the finished runs, then the failure
        write_outputs(out, rows, sizes, requested=requested, missing=missing, available=available)
        report.raise_for_failures()
    return write_outputs(out, rows, sizes, requested=requested, missing=missing, available=available)


def curve_trial(trainer: Callable[[str, Path, Dict[str, Any]], float], config: str, train_dir: str,
                overrides: Dict[str, Any], variables: Dict[str, str], keep_models: bool, row: Dict[str, Any]) -> Dict[str, Any]:
    """One grid trial: one training run of the curve; returns its row with the accuracy."""

    train_dir = Path(train_dir)
    with environment(variables):
        accuracy = trainer(config, train_dir, overrides)
    if not keep_models:
        for name in ("model.tar.gz", "best.th"):
            (train_dir / name).unlink(missing_ok=True)
        for checkpoint in train_dir.glob("*_state_e*.th"):
            checkpoint.unlink()
        for checkpoint in train_dir.glob("model_state*.th"):
            checkpoint.unlink()
    return {**row, "accuracy": accuracy}


def curves_from_rows(rows: Sequence[Dict[str, Any]]) -> Dict[str, Dict[int, float]]:
    variants = sorted({r["variant"] for r in rows}, key=lambda v: (v != FULL, v))
    return {v: mean_curve((r["size"], r["seed"], r["accuracy"]) for r in rows if r["variant"] == v) for v in variants}


def write_outputs(
    out: Path,
    rows: Sequence[Dict[str, Any]],
    sizes: Sequence[int],
    requested: Optional[Sequence[int]] = None,
    missing: Sequence[int] = (),
    available: Optional[int] = None,
) -> Dict[str, Any]:
    requested = list(requested) if requested is not None else list(sizes)
    missing = list(missing)
    curves = curves_from_rows(rows)
    stand_in = available if missing and available not in requested else None
    write_csv(out / "runs.csv", ([r["variant"], r["size"], r["seed"], f"{r['accuracy']:.4f}"]
                                 for r in sorted(rows, key=lambda r: (r["variant"], r["size"], r["seed"]))),
              header=["variant", "size", "seed", "accuracy"])
    curve_rows = []
    for variant, curve in curves.items():
        for size, accuracy in curve.items():
            count = sum(1 for r in rows if r["variant"] == variant and r["size"] == size)
            note = f"all {size} training questions (stands in for {missing[0]})" if size == stand_in else ""
            curve_rows.append([variant, size, f"{accuracy:.4f}", count, note])
        for size in missing:
            curve_rows.append([variant, size, "", 0, f"not run: the training file has {available} questions"])
    write_csv(out / "curve.csv", curve_rows, header=["variant", "size", "mean_accuracy", "seeds", "note"])
    summary: Dict[str, Any] = {
        "requested_sizes": requested,
        "sizes": list(sizes),
        "missing_sizes": missing,
        "train_questions": available,
        "paper_comparable": paper_comparable(requested, missing),
        "curves": {v: {str(k): a for k, a in c.items()} for v, c in curves.items()},
    }
    for variant, curve in curves.items():
        summary[variant] = summarize(curve)
        summary[variant]["ws_weights"] = {str(s): w for s, w in zip(sorted(curve), weights_for(len(curve)))}
        summary[variant]["missing_sizes"] = missing
    if FULL in curves:
        full = [curves[FULL][s] for s in sorted(curves[FULL])]
        summary["language_sensitivity"] = {
            v: language_sensitivity(full, [c[s] for s in sorted(c)])
            for v, c in curves.items() if v != FULL and sorted(c) == sorted(curves[FULL])
        }
    write_json(out / "summary.json", summary, end="")
    plot_curves(curves, out / "learning_curve.png", title=out.name)
    return summary


def plot_curves(curves: Dict[str, Dict[int, float]], path: Path, title: str = "") -> Path:
    return figures.learning_curves(curves, path, title=title, main=FULL)


def format_summary(summary: Dict[str, Any]) -> str:
    """Human-readable lines: mean accuracy per size, WS/MAX per variant, LANGSENSE."""
    lines = []
    for variant, curve in summary["curves"].items():
        points = "  ".join(f"{size}:{100 * acc:.1f}" for size, acc in curve.items())
        lines.append(f"{variant:10s} {points}   WS {100 * summary[variant]['WS']:.1f}  MAX {100 * summary[variant]['MAX']:.1f}")
    for control, value in summary.get("language_sensitivity", {}).items():
        lines.append(f"LANGSENSE {control}: {100 * value:.1f}")
    missing = summary.get("missing_sizes") or []
    if missing:
        lines.append(f"not run: sizes {', '.join(map(str, missing))} (the training file has "
                     f"{summary.get('train_questions')} questions; the curve stops there)")
    if not summary.get("paper_comparable"):
        lines.append("(not the paper's 62..4000 curve: WS uses the first weights by position, renormalised over "
                     "the sizes run)")
    return "\n".join(lines)
