"""Prompt-sensitivity sweep of a causal LM (``bin/prompt_sweep``): every combination of format,
template and number of shots on every probe file, as grid trials, in one table and one figure.

A combination is one trial of :func:`~mcqa_probes.experiments.grid.run_grid` (serial or Ray,
resumable: a trial whose ``result.json`` holds the same spec is reused): the file's first
``limit`` questions scored zero-shot by :func:`~mcqa_probes.experiments.causal_lm.zero_shot.causal_zero_shot_evaluate`
with its :class:`~mcqa_probes.experiments.causal_lm.zero_shot.PromptSettings`. Lettered prompts
are asked under every cyclic rotation, so their rows carry circular accuracy, RStd and the
debiased accuracy; a cloze score does not depend on the order of the choices, so cloze rows are
asked once. Few-shot examples come from ``shots_from`` (default: the ``train.jsonl`` beside the
file), seeded, never from the question's semantic cluster.

Written under ``out``: ``sweep.csv`` and ``sweep.md`` (one row per combination: accuracy, the
choice-only control, circular accuracy, RStd, debiased accuracy, seconds; per file the range of
accuracy across the combinations, the number a single prompt hides), ``sweep.json`` and
``sweep.png`` (accuracy of every combination per file, by format and shots). Each trial keeps its
item records (:mod:`mcqa_probes.metrics.item_records`) in ``<out>/<trial>/items.jsonl``; from them,
per file, :func:`sweep_robust` gives robust knowledge across the combinations
(:mod:`mcqa_probes.metrics.robust_knowledge`: known under every prompt, at least k of n rotations,
the agreement between prompts), in ``sweep.md`` and ``sweep.json`` (``robust``). A prompt seen
again in a later combination is named with it (``cloze/sum @cloze, 5-shot``).
"""
from collections import OrderedDict
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from mcqa_probes.common.io import sha256_file, write_csv, write_json, write_text
from mcqa_probes.data.causal_prompts import DEFAULT_TEMPLATE
from mcqa_probes.experiments.causal_lm.zero_shot import PromptSettings, build, causal_zero_shot_evaluate
from mcqa_probes.experiments.grid import GridOptions, Trial, run_grid
from mcqa_probes.metrics.item_records import read_item_records
from mcqa_probes.metrics.robust_knowledge import QUALIFIER, agreement_matrix, asked_prompts, robust_by_group
from mcqa_probes.reports import robust_tables
from mcqa_probes.reports.figures import prompt_sweep_figure
from mcqa_probes.reports.tables import format_number, markdown_table

#: a trial's item records, in its directory
ITEMS_FILE = "items.jsonl"

FORMATS = ("cloze", "letters")
COLUMNS = ("file", "format", "template", "shots", "questions", "accuracy", "choice_only_accuracy",
           "circular_accuracy", "rstd", "debiased_accuracy", "seconds")


def sweep_trial(model_name: str, data_path: str, prompt_format: str, template: Optional[str], shots: int,
                shots_from: Optional[str], limit: Optional[int], score: str = "sum", batch_size: int = 32,
                precision: str = "fp32", cuda_device: Optional[int] = None, seed: int = 1234,
                items_file: Optional[str] = None) -> Dict[str, Any]:
    """One combination: the zero-shot result (JSON-able) of ``data_path`` asked that way; its item
    records written to ``items_file`` when given."""
    prompts = PromptSettings(prompt_format="letters" if prompt_format == "letters" else "auto",
                             rotations="cyclic" if prompt_format == "letters" else "none",
                             shots=shots, shots_from=shots_from if shots else None, shots_seed=seed)
    built = build(model_name, score, template, batch_size, cuda_device, precision, prompts=prompts)
    if items_file:
        built[1].items_file, built[1].items_label = items_file, model_name
    return causal_zero_shot_evaluate(model_name, data_path, score, template, batch_size, limit,
                                     cuda_device=cuda_device, precision=precision, prompts=prompts, built=built)


def default_shots_from(data_path: str) -> Optional[str]:
    candidate = Path(data_path).with_name("train.jsonl")
    if candidate.exists():
        return str(candidate)
    stem = Path(data_path).name
    for suffix in ("_dev.jsonl", "_test.jsonl"):  # oLMpics: <probe>_dev.jsonl beside <probe>_train.jsonl
        if stem.endswith(suffix) and Path(data_path).with_name(stem[: -len(suffix)] + "_train.jsonl").exists():
            return str(Path(data_path).with_name(stem[: -len(suffix)] + "_train.jsonl"))
    return None


def file_label(data_path: str) -> str:
    path = Path(data_path)
    return f"{path.parent.name}/{path.stem}" if path.stem in ("train", "dev", "test") else path.stem


def build_trials(model_name: str, data: Sequence[str], formats: Sequence[str], templates: Sequence[Optional[str]],
                 shots: Sequence[int], limit: Optional[int], shots_from: Optional[str] = None, score: str = "sum",
                 batch_size: int = 32, precision: str = "fp32", cuda_device: Optional[int] = None,
                 seed: int = 1234) -> List[Trial]:
    trials = []
    for data_path in data:
        data_path = str(Path(data_path).resolve())
        digest = sha256_file(data_path)
        source = shots_from or default_shots_from(data_path)
        if max(shots) > 0 and source is None:
            raise ValueError(f"{data_path}: few-shot prompts need examples; no train.jsonl beside it, give --shots-from")
        for prompt_format in formats:
            if prompt_format not in FORMATS:
                raise ValueError(f"format: expected one of {FORMATS}, got {prompt_format!r}")
            # a cloze template does not apply to lettered prompts: they are asked once per shots
            for number, template in (enumerate(templates) if prompt_format == "cloze" else [(0, None)]):
                for count in shots:
                    trial_id = f"{file_label(data_path).replace('/', '-')}/{prompt_format}-t{number}-shots{count}"
                    kwargs = {"model_name": model_name, "data_path": data_path, "prompt_format": prompt_format,
                              "template": template, "shots": int(count), "shots_from": source, "limit": limit,
                              "score": score, "batch_size": batch_size, "precision": precision,
                              "cuda_device": cuda_device, "seed": seed}
                    spec = {key: value for key, value in kwargs.items() if key not in ("cuda_device", "batch_size")}
                    spec.update(function="sweep_trial", data_sha256=digest,
                                shots_sha256=sha256_file(source) if count else None)
                    trials.append(Trial(trial_id, sweep_trial, kwargs, spec=spec, label=trial_id))
    return trials


def sweep_rows(trials: Sequence[Trial], results: Dict[str, Any], templates: Sequence[Optional[str]]) -> List[Dict[str, Any]]:
    rows = []
    for trial in trials:
        result = results.get(trial.id)
        if result is None:
            continue
        kwargs = trial.kwargs
        template = kwargs["template"] or (DEFAULT_TEMPLATE if kwargs["prompt_format"] == "cloze" else "letters")
        rows.append({"file": file_label(kwargs["data_path"]), "format": kwargs["prompt_format"],
                     "template": template, "shots": kwargs["shots"], "questions": result["count"],
                     "accuracy": result["accuracy"], "choice_only_accuracy": result.get("choice_only_accuracy"),
                     "circular_accuracy": result.get("circular_accuracy"), "rstd": result.get("rstd"),
                     "debiased_accuracy": result.get("debiased_accuracy"), "seconds": round(result["seconds"], 1),
                     "chance": result["chance"]})
    return rows


def accuracy_ranges(rows: Sequence[Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    """Per file: the lowest and highest accuracy over the combinations, and which they were."""
    ranges: Dict[str, Dict[str, Any]] = {}
    for row in rows:
        entry = ranges.setdefault(row["file"], {"low": row, "high": row})
        if row["accuracy"] < entry["low"]["accuracy"]:
            entry["low"] = row
        if row["accuracy"] > entry["high"]["accuracy"]:
            entry["high"] = row
    return {name: {"low": e["low"]["accuracy"], "high": e["high"]["accuracy"],
                   "range": e["high"]["accuracy"] - e["low"]["accuracy"],
                   "lowest": combination(e["low"]), "highest": combination(e["high"])} for name, e in ranges.items()}


def combination(row: Dict[str, Any]) -> str:
    template = "" if row["template"] in (DEFAULT_TEMPLATE, "letters") else f", template {row['template']!r}"
    return f"{row['format']}, {row['shots']}-shot{template}"


def render_markdown(rows: Sequence[Dict[str, Any]], ranges: Dict[str, Dict[str, Any]], model_name: str) -> str:
    percent = lambda value: format_number(value, 1, scale=100)  # noqa: E731
    table = markdown_table(
        ["file", "format", "template", "shots", "N", "accuracy", "choice-only", "circular", "RStd", "debiased",
         "chance", "seconds"],
        [[r["file"], r["format"], "default" if r["template"] in (DEFAULT_TEMPLATE, "letters") else repr(r["template"]),
          r["shots"], r["questions"], percent(r["accuracy"]), percent(r["choice_only_accuracy"]),
          percent(r["circular_accuracy"]), percent(r["rstd"]), percent(r["debiased_accuracy"]), percent(r["chance"]),
          format_number(r["seconds"])] for r in rows],
        align="lllrrrrrrrrr")
    spread = markdown_table(
        ["file", "lowest accuracy", "highest accuracy", "range (points)"],
        [[name, f"{percent(e['low'])} ({e['lowest']})", f"{percent(e['high'])} ({e['highest']})", percent(e["range"])]
         for name, e in ranges.items()], align="lllr")
    return (f"# Prompt sweep: {model_name}\n\nAccuracy (%) of every combination (score `sum`; lettered prompts asked "
            "under every cyclic rotation: accuracy over all of them, circular = right under all, RStd = spread of "
            "the per-letter recall, debiased = after removing the letter prior; `-`: not applicable to cloze).\n\n"
            f"{table}\n\n## The range across prompts\n\n{spread}\n")


def sweep_robust(out: Path, trials: Sequence[Trial], model_name: str) -> Dict[str, Any]:
    """Robust knowledge per file across the sweep's combinations, from each trial's ``items.jsonl``:
    ``{"groups": [...], "agreement": {...}, "markdown": str}`` (empty groups without item files)."""
    merged: "OrderedDict[tuple, Dict[str, Any]]" = OrderedDict()
    for trial in trials:
        path = Path(out) / trial.id / ITEMS_FILE
        if not path.is_file():
            continue
        kwargs = trial.kwargs
        label = combination({"format": kwargs["prompt_format"], "shots": kwargs["shots"], "template": kwargs["template"]
                             or (DEFAULT_TEMPLATE if kwargs["prompt_format"] == "cloze" else "letters")})
        for record in read_item_records(path):
            key = (file_label(trial.kwargs["data_path"]), record["id"])
            target = merged.setdefault(key, {**record, "model": model_name, "section": "sweep", "probe": key[0],
                                             "scores": {}, "probabilities": {}, "chosen": {}, "correct": {},
                                             "primary": f"{record['primary']}"})
            for prompt in record["scores"]:
                name = prompt if prompt not in target["scores"] else f"{prompt}{QUALIFIER}{label}"
                for field in ("scores", "probabilities", "chosen", "correct"):
                    target[field][name] = record[field][prompt]
    records = list(merged.values())
    groups = robust_by_group(records, per_item=False)
    agreement = agreement_matrix(records, asked_prompts(p for r in records for p in r["correct"])) if records else None
    tables = [robust_tables.known_table(groups), robust_tables.circular_table(groups),
              robust_tables.agreement_table(model_name, agreement) if agreement else None]
    return {"groups": [{"key": list(key), **result} for key, result in groups.items()],
            "agreement": agreement, "markdown": robust_tables.markdown(tables)}


def prompt_sweep(model_name: str, data: Sequence[str], out: str, formats: Sequence[str] = FORMATS,
                 templates: Sequence[Optional[str]] = (None,), shots: Sequence[int] = (0,),
                 limit: Optional[int] = 100, shots_from: Optional[str] = None, score: str = "sum",
                 batch_size: int = 32, precision: str = "fp32", cuda_device: Optional[int] = None, seed: int = 1234,
                 options: Optional[GridOptions] = None) -> Dict[str, Any]:
    """Run (or resume) the sweep; returns ``{"rows", "ranges", "grid"}`` and writes the files (module doc)."""
    trials = build_trials(model_name, data, formats, templates, shots, limit, shots_from, score, batch_size,
                          precision, cuda_device, seed)
    out_path = Path(out)
    for trial in trials:  # not part of the spec: where the trial keeps its records
        trial.kwargs["items_file"] = str(out_path / trial.id / ITEMS_FILE)
    report = run_grid(trials, out_path, options or GridOptions(),
                      describe=lambda result: f"accuracy {100 * result['accuracy']:.1f}%")
    rows = sweep_rows(trials, report.results(), templates)
    ranges = accuracy_ranges(rows)
    robust = sweep_robust(out_path, trials, model_name)
    write_csv(out_path / "sweep.csv", [[row[c] for c in COLUMNS] for row in rows], header=COLUMNS)
    text = render_markdown(rows, ranges, model_name)
    if robust["groups"]:
        text += "\n## Robust knowledge across prompts\n\n" + robust["markdown"]
    write_text(out_path / "sweep.md", text)
    write_json(out_path / "sweep.json", {"model": model_name, "rows": rows, "ranges": ranges,
                                         "robust": {"groups": robust["groups"], "agreement": robust["agreement"]},
                                         "failed": [o.id for o in report.failed]})
    if rows:
        prompt_sweep_figure(rows, out_path / "sweep.png", title=f"Prompt sweep: {model_name}")
    report.raise_for_failures()
    return {"rows": rows, "ranges": ranges, "grid": report.summary()}
