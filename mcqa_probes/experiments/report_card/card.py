"""Run the registered sections of a report card for every model and write the page.

``build_report_card(["runs/x/model.tar.gz", "minilm"], "card", CardInputs(...))`` writes into
``card/``: ``report.json`` (every number, the summary and the tables as shown, commands, versions,
data sha256), and from it ``report.md`` and ``report.html`` (self-contained; both rendered from
templates over report.json, :mod:`mcqa_probes.reports.card.render`), ``figures/``, the item records
of every model and section (``items/<model>/<section>.jsonl``, and a control's that a section's
``shared`` kept: :func:`write_control_items`) and from them ``items.html``.

The card knows no section by name: it runs every :class:`.section.ReportSection` registered (in
``order``), each model through the same steps (``why_absent``, ``key_parts``, ``run``), then each
section's ``shared``, ``tables`` and ``summary``. Each (model, section) result is kept in
``sections/<model>/<section>.json`` with a key made of the model's fingerprint, the section's key
parts (data sha256, options) and :data:`SECTION_VERSION`; a re-run with the same directory reuses
every section whose key is unchanged (the page marks it "reused") and recomputes the others. The
model facts a section asks for (``model_facts``) are computed once per model and kept in
``sections/<model>/<fact>.json`` with its fingerprint.
"""
import datetime
import json
import platform
import subprocess
import time
from collections import OrderedDict
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from mcqa_probes.common.device import describe, resolve_cuda_device
from mcqa_probes.common.io import write_json, write_text
from mcqa_probes.metrics.determinism import DETERMINISM_SEED, combine_rescored
from mcqa_probes.metrics.item_records import item_file, write_item_records
from mcqa_probes.experiments.report_card.causal_lm import load_causal_lm_model
from mcqa_probes.experiments.report_card.inputs import BOOTSTRAP, CardInputs, absent, section_key
from mcqa_probes.experiments.report_card.models import CardModel, MODEL_FACTS, classify_all, slug
from mcqa_probes.experiments.report_card.section import ReportSection, SectionContext, registered_sections
from mcqa_probes.reports.card.render import render_html, render_markdown
from mcqa_probes.reports.card.tables import summary_table
from mcqa_probes.reports.item_browser import read_records, write_item_browser
from mcqa_probes.training.evaluation import load_archived_model

#: bump when what a section stores changes (its numbers or its reading): stored sections with another version are recomputed
SECTION_VERSION = 6
#: archives kept loaded at once (each section loads the archives it needs through its context)
LOADED_ARCHIVES = 2


def _load(path: Path) -> Optional[Dict[str, Any]]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _figures_exist(out: Path, result: Dict[str, Any]) -> bool:
    return all((out / figure["path"]).is_file() for figure in result.get("figures") or [])


class ArchiveLoader:
    """The page's archives (and causal LMs, :func:`.causal_lm.load_causal_lm_model`): loaded on a
    section's request (``context.archive(model)``), at most :data:`LOADED_ARCHIVES` kept loaded (the
    least recently used is dropped)."""

    def __init__(self, inputs: CardInputs, keep: int = LOADED_ARCHIVES):
        self.inputs, self.keep = inputs, keep
        self.loaded: "OrderedDict[str, Any]" = OrderedDict()

    def determinism_results(self, model: CardModel) -> List[Dict[str, Any]]:
        """The determinism audits of ``model`` so far (none when it is not loaded)."""
        loaded = self.loaded.get(model.location)
        return list(getattr(loaded.model, "determinism_results", [])) if loaded is not None else []

    def __call__(self, model: CardModel):
        if model.location not in self.loaded:
            self.loaded[model.location] = (load_causal_lm_model(model, self.inputs) if model.is_causal else
                                           load_archived_model(model.location, self.inputs.cuda_device, self.inputs.precision))
            self.loaded[model.location].model.audit_determinism(self.inputs.determinism_check, DETERMINISM_SEED)
            while len(self.loaded) > self.keep:
                self.loaded.popitem(last=False)
        self.loaded.move_to_end(model.location)
        return self.loaded[model.location]


def model_fact(name: str, model: CardModel, out: Path) -> Any:
    """A fact of :data:`MODEL_FACTS` about ``model``, kept with its fingerprint (loading a model costs)."""
    path = out / "sections" / slug(model.label) / f"{name}.json"
    stored = _load(path)
    if stored and stored.get("fingerprint") == model.fingerprint and "fact" in stored:
        return stored["fact"]
    fact = MODEL_FACTS[name](model)
    write_json(path, {"fingerprint": model.fingerprint, "fact": fact})
    return fact


def model_facts(sections: Sequence[ReportSection], models: Sequence[CardModel], inputs: CardInputs,
                out: Path) -> Dict[str, Dict[str, Any]]:
    """Per model label, the facts asked for by the sections that run for it."""
    facts: Dict[str, Dict[str, Any]] = {}
    for model in models:
        wanted = [name for section in sections if not section.why_absent(model, inputs) for name in section.model_facts]
        facts[model.label] = {name: model_fact(name, model, out) for name in dict.fromkeys(wanted)}
    return facts


def run_section(name: str, section: ReportSection, model: CardModel, inputs: CardInputs, out: Path,
                context: SectionContext, loader: Optional[ArchiveLoader] = None) -> Dict[str, Any]:
    """One model's section: absent (with the reason), reused from ``sections/`` or computed and stored."""
    reason = section.why_absent(model, inputs)
    if reason:
        return absent(reason)
    parts = section.key_parts(model, inputs)
    if inputs.determinism_check:
        parts = {**parts, "determinism_check": inputs.determinism_check}
    key = section_key(name, SECTION_VERSION, model.fingerprint, parts)
    store = out / "sections" / slug(model.label) / f"{name}.json"
    stored = _load(store)
    if (stored and stored.get("key") == key and _figures_exist(out, stored["result"])
            and (not stored["result"].get("items") or (out / stored["result"]["items"]).is_file())):
        context.progress(f"{model.label} / {name}: reused ({store})")
        return dict(stored["result"], reused=True)
    context.progress(f"{model.label} / {name}: running")
    started = time.perf_counter()
    audits_before = len(loader.determinism_results(model)) if loader is not None else 0
    result = section.run(model, inputs, context)
    result["seconds"] = round(time.perf_counter() - started, 1)
    if result["status"] == "done" and context.items:
        path = item_file(out, slug(model.label), name)
        write_item_records(path, context.items)
        result["items"] = str(path.relative_to(out))
    if result["status"] == "done" and inputs.determinism_check and loader is not None:
        audit = combine_rescored(loader.determinism_results(model)[audits_before:])
        if audit is not None:  # none of its questions re-scored (a masked LM's scorers): no line, not a line of zeros
            result["determinism"] = audit
    if result["status"] == "done":
        write_json(store, {"key": key, "result": result})
    context.progress(f"{model.label} / {name}: done in {result['seconds']} s")
    return result


def versions() -> Dict[str, str]:
    found = {"python": platform.python_version(), "platform": platform.platform()}
    for package in ("mcqa_probes", "allennlp", "torch", "transformers", "tokenizers", "matplotlib", "jinja2", "ray"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "not installed"
    commit = _git_commit()
    if commit:
        found["mcqa_probes"] += f" (git {commit})"
    return found


def _git_commit() -> Optional[str]:
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


def _summary(sections: List[Dict[str, Any]], registered: Dict[str, ReportSection],
             entries: List[Dict[str, Any]]) -> Dict[str, Any]:
    rows = [row for section in sections for row in registered[section["id"]].summary(section, entries)]
    notes = ["Accuracy % of each model with its 95% interval [low, high]: a bootstrap over semantic clusters "
             f"({BOOTSTRAP['samples']} resamples; a question without a cluster key is a cluster of its own). "
             "A causal LM's choice-only control has one (its answers per question are kept); Choice-Only-GloVe "
             "and the papers' numbers have none. Details, tables and figures "
             "in each section below."]
    not_run = [s["title"] for s in sections if not any(e["status"] == "done" for e in s["models"].values())]
    if not_run:
        notes.append("Not run for any model: " + "; ".join(not_run) + " (the reasons are in their sections).")
    return summary_table(rows, entries, notes)


def write_control_items(out: Path, name: str, records: Sequence[Dict[str, Any]], models: Sequence[CardModel]) -> List[str]:
    """The item records a section's ``shared`` kept (the answers of its controls, e.g. Choice-Only-GloVe:
    records whose ``model`` is none of the page's models) written as a model's are,
    ``items/<control>/<name>.jsonl`` (:func:`~mcqa_probes.metrics.item_records.item_file`), one file per
    control. A file of section ``name`` left by an earlier run in a directory that is neither a page
    model's nor a model's of this ``out`` (no ``sections/<dir>/``) is a control's that has no records
    now: removed. Returns the controls' labels, in order."""
    taken = {slug(model.label) for model in models}
    by_label: Dict[str, List[Dict[str, Any]]] = {}
    for record in records:
        by_label.setdefault(record["model"], []).append(record)
    for label, mine in by_label.items():
        if slug(label) in taken:
            raise ValueError(f"{name}: the control {label!r} has the name of a model of the page; relabel the model")
        write_item_records(item_file(out, slug(label), name), mine)
    written = {slug(label) for label in by_label}
    for path in sorted((out / "items").glob(f"*/{name}.jsonl")):
        folder = path.parent.name
        if folder not in written and folder not in taken and not (out / "sections" / folder).is_dir():
            path.unlink()
    return list(by_label)


def write_item_page(out: Path, models: Sequence[CardModel], controls: Sequence[str] = ()) -> Optional[Dict[str, Any]]:
    """``items.html`` (:mod:`mcqa_probes.reports.item_browser`) from the item records of the page's models
    and of the ``controls`` the sections wrote (``<out>/items/<label>/*.jsonl``); what report.json says
    of it, or None when there are none."""
    labels = [model.label for model in models] + [label for label in controls]
    files = [path for label in labels for path in sorted((out / "items" / slug(label)).glob("*.jsonl"))]
    records, sources = read_records(files) if files else ([], [])
    if not records:
        return None
    write_item_browser(records, out / "items.html", "Item browser: " + ", ".join(labels), sources,
                       back_link="report.html")
    return {"page": "items.html", "records": len(records),
            "questions": len({(r["section"], r["probe"], r["id"]) for r in records}),
            "files": [str(path.relative_to(out)) for path in files]}


def build_report_card(model_arguments: Sequence[str], out, inputs: CardInputs = CardInputs(),
                      command: str = "", progress: Callable[[str], None] = print, quiet: bool = False) -> Dict[str, Any]:
    """Compute (or reuse) every registered section for every model and write report.json, then
    report.md and report.html from it, into ``out``; returns the report object. ``progress``: the
    one-line messages (a section running, reused, done); each section's questions show on a
    progress bar on stderr named ``model / section / probe`` (:mod:`mcqa_probes.common.progress`),
    none with ``quiet``."""
    if not model_arguments:
        raise ValueError("probe-report: give at least one MODEL")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    inputs = CardInputs(**{**inputs.to_json(), "cuda_device": resolve_cuda_device(inputs.cuda_device)})
    models = classify_all(model_arguments)
    registered = dict(registered_sections())
    facts = model_facts(list(registered.values()), models, inputs, out)
    entries: List[Dict[str, Any]] = [{**model.to_json(), "masked_lm_head": None, **facts[model.label],
                                      **({"score": inputs.causal_score} if model.is_causal else {})} for model in models]
    loader = ArchiveLoader(inputs)
    controls: List[str] = []  # the controls whose item records the sections' shared() wrote
    sections: List[Dict[str, Any]] = []
    data: Dict[str, str] = {}
    commands = [command] if command else []
    for name, section in registered.items():
        page: Dict[str, Any] = {"id": name, "title": section.title, "models": {}, "shared": {}, "figures": [],
                                "commands": [], "data": {}}
        for model in models:
            context = SectionContext(out, f"figures/{slug(model.label)}/",
                                     {fact: facts[model.label].get(fact) for fact in section.model_facts},
                                     progress, loader, f"{model.label} / {name}", quiet)
            result = run_section(name, section, model, inputs, out, context, loader)
            page["models"][model.label] = result
            if result["status"] == "done":
                data.update(result["data"])
                commands += result["commands"]
                page["figures"] += result["figures"]
        shared = SectionContext(out, "figures/shared/", {}, progress, loader, name, quiet,
                                item_labels=[m.label for m in models] + controls)
        section.shared(page, inputs, shared)
        controls += [label for label in write_control_items(out, name, shared.items, models) if label not in controls]
        commands += page["commands"]
        data.update(page["data"])
        page["tables"] = section.tables(page, entries)
        sections.append(page)
    report = {
        "title": "Probe report card: " + ", ".join(m.label for m in models),
        "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": command,
        "device": describe(inputs.cuda_device, inputs.precision),
        "inputs": inputs.to_json(),
        "models": entries,
        "bootstrap": BOOTSTRAP,
        "summary": _summary(sections, registered, entries),
        "sections": sections,
        "commands": list(dict.fromkeys(commands)),
        "versions": versions(),
        "data": data,
        "item_browser": write_item_page(out, models, controls),
    }
    write_json(out / "report.json", report, indent=1)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))  # the pages show exactly report.json
    write_text(out / "report.md", render_markdown(report))
    write_text(out / "report.html", render_html(report, out))
    return report
