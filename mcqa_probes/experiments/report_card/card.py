"""Run the sections of a report card for every model and write the page.

``build_report_card(["runs/x/model.tar.gz", "minilm"], "card", CardInputs(...))`` writes into
``card/``: ``report.json`` (every number, the tables as shown, commands, versions, data sha256),
``report.md``, ``report.html`` (self-contained) and ``figures/``. Each (model, section) result is
kept in ``sections/<model>/<section>.json`` with a key made of the model's fingerprint, the data
files' sha256 and the options; a re-run with the same directory reuses every section whose key is
unchanged (the page marks it "reused") and recomputes the others.
"""
import datetime
import json
import platform
import re
import shutil
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from mcqa_probes.experiments.report_card import commonsenseqa, olmpics, winoventi, wordnetqa
from mcqa_probes.experiments.report_card.inputs import CardInputs, absent, section_key
from mcqa_probes.experiments.report_card.models import CardModel, classify_all, masked_lm_head
from mcqa_probes.common.io import write_json, write_text
from mcqa_probes.reports.card.render import render_html, render_markdown, section_tables

#: bump when a section's numbers change meaning: stored sections with another version are recomputed
SECTION_VERSION = 1

#: (id, title, runner module, key parts of the inputs)
SECTIONS = [
    ("wordnetqa", "WordNetQA / DictionaryQA (Richardson & Sabharwal 2020)", wordnetqa, lambda m, i: wordnetqa.key_parts(i)),
    ("olmpics", "oLMpics (Talmor et al. 2020)", olmpics, olmpics.key_parts),
    ("winoventi", "WinoVenti (Do & Pavlick 2021)", winoventi, lambda m, i: winoventi.key_parts(i)),
    ("commonsenseqa", "CommonsenseQA (Talmor et al. 2019)", commonsenseqa, lambda m, i: commonsenseqa.key_parts(i)),
]


def slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_") or "model"


def _load(path: Path) -> Optional[Dict[str, Any]]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _figures_exist(out: Path, result: Dict[str, Any]) -> bool:
    return all((out / path).is_file() for path in (result.get("figures") or {}).values())


def _head(model: CardModel, out: Path) -> Optional[Dict[str, Any]]:
    """The masked-LM head check of a masked LM, kept with its fingerprint (loading a model costs)."""
    if model.is_mcqa:
        return None
    path = out / "sections" / slug(model.label) / "masked_lm_head.json"
    stored = _load(path)
    if stored and stored.get("fingerprint") == model.fingerprint:
        return stored["head"]
    head = masked_lm_head(model.location)
    write_json(path, {"fingerprint": model.fingerprint, "head": head})
    return head


def run_section(section_id: str, runner, key_parts: Callable, model: CardModel, inputs: CardInputs, out: Path,
                head: Optional[Dict[str, Any]], progress: Callable[[str], None]) -> Dict[str, Any]:
    """One model's section: absent (with the reason), reused from ``sections/`` or computed and stored."""
    reason = runner.why_absent(model, inputs)
    if reason:
        return absent(reason)
    key = section_key(section_id, SECTION_VERSION, model.fingerprint, key_parts(model, inputs))
    store = out / "sections" / slug(model.label) / f"{section_id}.json"
    stored = _load(store)
    if stored and stored.get("key") == key and _figures_exist(out, stored["result"]):
        progress(f"{model.label} / {section_id}: reused ({store})")
        return dict(stored["result"], reused=True)
    progress(f"{model.label} / {section_id}: running")
    started = time.perf_counter()
    prefix = f"figures/{slug(model.label)}/"
    extra = {"head": head} if section_id in ("olmpics", "winoventi") else {}
    result = runner.run(model, inputs, out, prefix, **extra)
    result["seconds"] = round(time.perf_counter() - started, 1)
    write_json(store, {"key": key, "result": result})
    progress(f"{model.label} / {section_id}: done in {result['seconds']} s")
    return result


def _drop_closed_log_handlers() -> None:
    """allennlp's train_model (the Choice-Only control) leaves logging handlers on files it closed;
    later warnings would print "--- Logging error ---" tracebacks."""
    import logging

    for logger in [logging.getLogger()] + [logging.getLogger(n) for n in list(logging.root.manager.loggerDict)]:
        for handler in list(getattr(logger, "handlers", [])):
            stream = getattr(handler, "stream", None)
            if stream is not None and getattr(stream, "closed", False):
                logger.removeHandler(handler)


def _copy_figure(source: Optional[str], out: Path, name: str) -> Optional[str]:
    if not source:
        return None
    target = out / "figures" / "shared" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return str(target.relative_to(out))


def _shared(section: Dict[str, Any], inputs: CardInputs, out: Path, progress) -> None:
    """The parts of a section that do not depend on the page's models (controls, given result directories)."""
    ran = any(entry["status"] == "done" for entry in section["models"].values())
    if section["id"] == "wordnetqa" and ran:
        section["shared"]["choice_only"] = wordnetqa.choice_only_control(inputs, out, progress)
        _drop_closed_log_handlers()
        section["shared"]["inoculation"] = sweeps = wordnetqa.inoculation_sweeps(inputs)
        for sweep in sweeps:
            path = _copy_figure(sweep["figure"], out, f"inoculation_{slug(sweep['name'])}.png")
            if path:
                section["figures"].append({"path": path, "caption": f"Inoculation curves: {sweep['name']} (Figure 4 layout)"})
    if section["id"] == "olmpics" and inputs.olmpics_curves:
        section["shared"]["learning_curves"] = curves = olmpics.learning_curves(inputs)
        for curve in curves:
            path = _copy_figure(curve["figure"], out, f"learning_curve_{slug(curve['probe'])}_{slug(curve['model'])}.png")
            if path:
                section["figures"].append({"path": path, "caption": f"{curve['title']}: {curve['model']} learning curve"})
    if section["id"] == "wordnetqa":
        section["probes"] = [p for p in wordnetqa.probe_files(inputs)]


def versions() -> Dict[str, str]:
    from importlib import metadata

    found = {"python": platform.python_version(), "platform": platform.platform()}
    for package in ("mcqa_probes", "allennlp", "torch", "transformers", "tokenizers", "matplotlib", "ray"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "not installed"
    commit = _git_commit()
    if commit:
        found["mcqa_probes"] += f" (git {commit})"
    return found


def _git_commit() -> Optional[str]:
    import subprocess

    root = Path(__file__).resolve().parents[3]
    if not (root / ".git").exists():
        return None
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (commit + ("+changes" if dirty else "")) if commit else None


def build_report_card(model_arguments: Sequence[str], out, inputs: CardInputs = CardInputs(),
                      command: str = "", progress: Callable[[str], None] = print) -> Dict[str, Any]:
    """Compute (or reuse) every section for every model and write report.json, report.md and
    report.html into ``out``; returns the report object."""
    from mcqa_probes.common.device import describe, resolve_cuda_device

    if not model_arguments:
        raise ValueError("probe-report: give at least one MODEL")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    inputs = CardInputs(**{**inputs.to_json(), "cuda_device": resolve_cuda_device(inputs.cuda_device)})
    models = classify_all(model_arguments)
    entries: List[Dict[str, Any]] = []
    heads: Dict[str, Optional[Dict[str, Any]]] = {}
    for model in models:
        heads[model.label] = _head(model, out)
        entries.append(dict(model.to_json(), masked_lm_head=heads[model.label]))
    sections = []
    data: Dict[str, str] = {}
    commands = [command] if command else []
    for section_id, title, runner, key_parts in SECTIONS:
        section: Dict[str, Any] = {"id": section_id, "title": title, "models": {}, "shared": {}, "figures": []}
        for model in models:
            result = run_section(section_id, runner, key_parts, model, inputs, out, heads[model.label], progress)
            section["models"][model.label] = result
            if result["status"] == "done":
                data.update(result["data"])
                commands += result["commands"]
                for name, path in result["figures"].items():
                    section["figures"].append({"path": path, "caption": f"{model.label}: {name} (accuracy by ISA hops × distractor family, Figure 3 layout)"})
        _shared(section, inputs, out, progress)
        for control in section["shared"].get("choice_only", {}).values():
            if control.get("command"):
                commands.append(control["command"])
        for sweep in section["shared"].get("inoculation", []):
            data[sweep["table"]] = sweep["sha256"]
        section["tables"] = section_tables(section, entries)
        sections.append(section)
    report = {
        "title": "Probe report card: " + ", ".join(m.label for m in models),
        "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": command,
        "device": describe(inputs.cuda_device, inputs.precision),
        "inputs": inputs.to_json(),
        "models": entries,
        "sections": sections,
        "commands": list(dict.fromkeys(commands)),
        "versions": versions(),
        "data": data,
    }
    write_json(out / "report.json", report, indent=1)
    write_text(out / "report.md", render_markdown(report))
    write_text(out / "report.html", render_html(report, out))
    return report
