"""The WordNetQA / DictionaryQA section (Richardson & Sabharwal 2020): per probe, instance accuracy,
strict cluster accuracy and Δ (Table 8), the hops × distractor-family heat map (Figure 3), the
Choice-Only control beside it, and the inoculation curves (Figure 4) of a given sweep.

The per-probe numbers are those of ``allennlp predict ... --predictor mcqa`` followed by
``bin/probe_report`` on the first ``max_questions`` questions of ``<probes_dir>/<probe>/<split>.jsonl``
(the same records and the same :func:`mcqa_probes.reports.probe_report.summarize`). The control
and the inoculation sweep do not depend on the page's models: they are computed (or read) once.
"""
import csv
import json
import shlex
from pathlib import Path
from typing import Any, Dict, List, Optional

from mcqa_probes.common.io import sha256_file
from mcqa_probes.experiments.report_card.answers import answer_questions, first_questions, load_archive_model
from mcqa_probes.experiments.report_card.inputs import WORDNETQA_PROBES, CardInputs, absent, done
from mcqa_probes.experiments.report_card.models import CardModel
from mcqa_probes.metrics.probe_records import record_from
from mcqa_probes.reports.probe_report import heatmap, summarize

def probe_files(inputs: CardInputs) -> Dict[str, Path]:
    """The probe files present under ``probes_dir`` (``<probe>/<split>.jsonl``), in the paper's order."""
    if not inputs.probes_dir:
        return {}
    root = Path(inputs.probes_dir)
    return {p: root / p / f"{inputs.split}.jsonl" for p in WORDNETQA_PROBES if (root / p / f"{inputs.split}.jsonl").is_file()}


def why_absent(model: CardModel, inputs: CardInputs) -> Optional[str]:
    if not model.is_mcqa:
        return (f"{model.label} is a masked LM; the WordNetQA / DictionaryQA probes need a multiple-choice QA "
                "model: fine-tune one (allennlp train training_config/roberta_probe.jsonnet, see the README's "
                "main job) and give its model.tar.gz")
    if not probe_files(inputs):
        return (f"no probe files: {inputs.probes_dir or '--probes-dir'}/<probe>/{inputs.split}.jsonl not found "
                f"for any of {', '.join(WORDNETQA_PROBES)}; build them with bin/build_probes --out "
                f"{inputs.probes_dir or 'probes'}")
    return None


def key_parts(inputs: CardInputs) -> Dict[str, Any]:
    return {"files": {p: sha256_file(f) for p, f in probe_files(inputs).items()}, "max_questions": inputs.max_questions,
            "precision": inputs.precision}


def _commands(model: CardModel, probe: str, path: Path, inputs: CardInputs) -> List[str]:
    source = str(path)
    lines = []
    if inputs.max_questions:
        source = f"{probe}_{inputs.split}_{inputs.max_questions}.jsonl"
        lines.append(f"head -n {inputs.max_questions} {shlex.quote(str(path))} > {source}")
    predictions = f"{probe}_predictions.jsonl"
    lines.append(f"allennlp predict {shlex.quote(model.location)} {source} --predictor mcqa --silent "
                 f"--output-file {predictions}")
    lines.append(f"bin/probe_report {predictions} --out report_{probe}")
    return lines


def run(model: CardModel, inputs: CardInputs, out: Path, figure_prefix: str) -> Dict[str, Any]:
    reason = why_absent(model, inputs)
    if reason:
        return absent(reason)
    from mcqa_probes.common.device import resolve_cuda_device

    loaded = load_archive_model(model.location, resolve_cuda_device(inputs.cuda_device), inputs.precision)
    results: Dict[str, Any] = {}
    figures: Dict[str, str] = {}
    commands: List[str] = []
    data: Dict[str, str] = {}
    for probe, path in probe_files(inputs).items():
        questions = first_questions(path, inputs.max_questions)
        answers = answer_questions(loaded, questions, inputs.batch_size)
        summary = summarize([record_from(a.metadata, a.correct) for a in answers])
        summary["file"] = str(path)
        summary["chance"] = sum(1 / len(q.choices) for q in questions) / len(questions)
        results[probe] = summary
        figure = heatmap(summary, out / f"{figure_prefix}wordnetqa_{probe}.png",
                         title=f"{model.label}: {probe} (accuracy by hops × distractor)")
        if figure is not None:
            figures[probe] = str(figure.relative_to(out))
        commands += _commands(model, probe, path, inputs)
        data[str(path)] = sha256_file(path)
    return done(results, reading(model, results), commands, data, figures)


def reading(model: CardModel, results: Dict[str, Any]) -> str:
    ranked = sorted(results, key=lambda p: results[p]["instance_accuracy"], reverse=True)
    best, worst = ranked[0], ranked[-1]
    delta = sum(results[p]["cluster_delta"] for p in results) / len(results)
    text = (f"{model.label} is best on {best} ({100 * results[best]['instance_accuracy']:.1f}%, chance "
            f"{100 * results[best]['chance']:.0f}%)")
    if worst != best:
        text += f" and worst on {worst} ({100 * results[worst]['instance_accuracy']:.1f}%)"
    text += (f"; strict cluster accuracy is {abs(delta):.1f} points {'below' if delta < 0 else 'above'} instance "
             "accuracy on average, so what it knows about a concept does not survive all of its perturbations"
             if delta < 0 else f"; strict cluster accuracy is {delta:+.1f} points from instance accuracy on average")
    return text + "."


# ---------------------------------------------------------------------------- shared: controls and inoculation
def choice_only_control(inputs: CardInputs, out: Path, progress=print) -> Dict[str, Any]:
    """Choice-Only-GloVe accuracy per probe: read from ``audit_dir``'s ``artifact_audit.json`` where it
    has the probe, else trained on the probe's train file (``bin/artifact_audit --models choice_only``,
    at most ``control_max_train`` questions; finished runs are reused) and scored on its dev / test."""
    files = probe_files(inputs)
    control: Dict[str, Any] = {}
    if inputs.audit_dir:
        audit_file = Path(inputs.audit_dir) / "artifact_audit.json"
        if not audit_file.is_file():
            raise FileNotFoundError(f"--audit-dir {inputs.audit_dir}: no artifact_audit.json (run bin/artifact_audit)")
        audit = json.loads(audit_file.read_text())
        for probe, entry in (audit.get("probes") or {}).items():
            result = (entry.get("results") or {}).get("choice_only")
            if probe in files and result:
                control[probe] = {"dev": result["dev"], "test": result["test"], "source": str(audit_file),
                                  "train_questions": (entry.get("splits") or {}).get("sizes", {}).get("train")}
    todo = [p for p in files if p not in control and (Path(inputs.probes_dir) / p / "train.jsonl").is_file()]
    if todo:
        from mcqa_probes.experiments.wordnetqa.artifact_audit import run_audit

        target = out / "controls" / "choice_only"
        progress(f"Choice-Only-GloVe control on {', '.join(todo)} (trained on each probe's train; reused when done)")
        report = run_audit([_control_probe_dir(inputs, p, out / "controls" / "probes") for p in todo], target,
                           models=("choice_only",), max_train=inputs.control_max_train, epochs=inputs.control_epochs,
                           cuda_device=inputs.cuda_device, progress=progress)
        for probe in todo:
            entry = report["probes"][probe]
            result = entry["results"].get("choice_only")
            if result:
                control[probe] = {"dev": result["dev"], "test": result["test"], "source": "computed",
                                  "train_questions": entry["splits"]["sizes"]["train"],
                                  "command": f"bin/artifact_audit --probe-dir {out / 'controls' / 'probes' / probe} "
                                             f"--models choice_only --max-train {inputs.control_max_train} --epochs {inputs.control_epochs} "
                                             f"--out {target}"}
    return control


def _control_probe_dir(inputs: CardInputs, probe: str, root: Path) -> Path:
    """The control's probe directory: the probe's train file, and as dev and test the first
    ``max_questions`` questions of its dev / test files (the questions the models answer)."""
    from mcqa_probes.common.io import write_text

    source, target = Path(inputs.probes_dir) / probe, root / probe
    for split in ("train", "dev", "test"):
        path = source / f"{split}.jsonl"
        if not path.is_file():
            continue
        limit = None if split == "train" else inputs.max_questions or None
        with open(path, encoding="utf-8") as handle:
            lines = [line for line in handle if line.strip()][:limit]
        text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
        existing = target / path.name
        if not existing.is_file() or existing.read_text(encoding="utf-8") != text:
            write_text(existing, text)  # rewritten only when it changes: the audit's runs are then reused
    return target


def _number(text: str) -> Any:
    if text in ("", None):
        return None
    if text in ("True", "False"):
        return text == "True"
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def inoculation_sweeps(inputs: CardInputs) -> List[Dict[str, Any]]:
    """The sweeps under ``inoculation_dir`` (each directory with an ``inoculation.csv`` written by
    ``bin/inoculate``): the best run per dosage k (M*^{a,k}) and the sweep's figure."""
    if not inputs.inoculation_dir:
        return []
    root = Path(inputs.inoculation_dir)
    tables = sorted(root.glob("inoculation.csv")) + sorted(root.glob("*/inoculation.csv"))
    if not tables:
        raise FileNotFoundError(f"--inoculation-dir {root}: no inoculation.csv in it or its subdirectories "
                                "(run bin/inoculate --out DIR)")
    sweeps = []
    for table in tables:
        with open(table, newline="", encoding="utf-8") as handle:
            rows = [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(handle)]
        best = [r for r in rows if r.get("best_for_k")] or rows
        figure = table.parent / "inoculation_curves.png"
        sweeps.append({"name": table.parent.name, "table": str(table), "sha256": sha256_file(table),
                       "best": sorted(best, key=lambda r: (r.get("k") or 0, r.get("seed") or 0)),
                       "figure": str(figure) if figure.is_file() else None})
    return sweeps
