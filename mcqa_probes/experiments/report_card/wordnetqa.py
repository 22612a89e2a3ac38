"""The WordNetQA / DictionaryQA section (Richardson & Sabharwal 2020): per probe, instance accuracy,
strict cluster accuracy and Δ (Table 8) with 95% intervals over semantic clusters, the hops ×
distractor-family heat map (Figure 3), the Choice-Only-GloVe control beside it, and the inoculation
curves (Figure 4) of a given sweep. The control's answers to the page's questions are item records
too (model ``Choice-Only-GloVe``: :func:`control_item_records`), so a model is compared with its
control question by question (the comparison section, ``items.html``).

The per-probe numbers are those of ``allennlp predict ... --predictor mcqa`` followed by
``bin/probe_report`` on the first ``max_questions`` questions of ``<probes_dir>/<probe>/<split>.jsonl``
(the same records and the same :func:`mcqa_probes.reports.probe_report.summarize`). The control
and the inoculation sweep do not depend on the page's models: they are computed (or read) once.

A causal LM answers the same questions zero-shot (:mod:`.causal_lm`): the same records and summary
under its ``--causal-score``, the accuracy under the other normalisations and its own choice-only
control (the question hidden) beside them, next to the paper's zero-shot group (Table 7, group 3).
"""
import csv
import json
import logging
import shlex
from pathlib import Path
from typing import Any, Dict, List, Optional

from mcqa_probes.builders.output import read_manifest
from mcqa_probes.common.io import holds_lines, sha256_file, write_text
from mcqa_probes.experiments.report_card.causal_lm import (
    CONTROL as CAUSAL_CONTROL, FLAG, FLAG_MARGIN, LETTERS, answers_by_score, causal_command, causal_key, causal_notes,
    causal_results, causal_rows, causal_scores, control_cell, reading_suffix,
)
from mcqa_probes.experiments.report_card.inputs import (
    WORDNETQA_PROBES, CardInputs, chance, done, first_questions,
)
from mcqa_probes.experiments.report_card.models import CardModel, GLOVE_CONTROL, slug
from mcqa_probes.experiments.report_card.section import McqaSection, ReportSection, SectionContext
from mcqa_probes.experiments.wordnetqa.artifact_audit import forget_run, run_audit, trial_items_file
from mcqa_probes.metrics.item_records import read_item_records
from mcqa_probes.metrics.probe_records import record_from
from mcqa_probes.reports.card.tables import (
    best_reference, column, count_cell, grid_table, interval_of, make_table, percent_cell, points_cell,
    ran_models, reference_columns, summary_row, text_cell,
)
from mcqa_probes.reports.probe_report import heatmap, summarize
from mcqa_probes.training.evaluation import answer_questions, item_records

CONTROL = GLOVE_CONTROL


def _manifest(inputs: CardInputs) -> Dict[str, Any]:
    """``<probes_dir>/manifest.json`` as ``bin/build_probes`` wrote it ({} when there is none)."""
    return read_manifest(inputs.probes_dir) if inputs.probes_dir else {}


def probe_files(inputs: CardInputs) -> Dict[str, Path]:
    """The probe files present under ``probes_dir`` (``<probe>/<split>.jsonl``): the probes its
    manifest lists (a build from a user's ontology has relation probes such as ``part_of``), else
    the paper's, in the paper's order."""
    return {p: path for p, path in _split_files(inputs).items() if holds_lines(path)}


def empty_probe_files(inputs: CardInputs) -> List[str]:
    """The probes whose split file is there but holds no question (a small relation probe built from
    a user's ontology: too few concepts to fill every split); not scored, and said so."""
    return [p for p, path in _split_files(inputs).items() if not holds_lines(path)]


def unlisted_probe_dirs(inputs: CardInputs) -> List[str]:
    """Directories under ``--probes-dir`` with a split file that the card does not score: not in the
    manifest's probes (without a manifest: not one of the paper's); said so under the table."""
    if not inputs.probes_dir or not Path(inputs.probes_dir).is_dir():
        return []
    names = set(_manifest(inputs).get("probes") or WORDNETQA_PROBES)
    return sorted(path.parent.name for path in Path(inputs.probes_dir).glob(f"*/{inputs.split}.jsonl")
                  if path.parent.name not in names and path.is_file())


def _split_files(inputs: CardInputs) -> Dict[str, Path]:
    """``<probes_dir>/<probe>/<split>.jsonl`` of the manifest's probes (else the paper's) that exist."""
    if not inputs.probes_dir:
        return {}
    root = Path(inputs.probes_dir)
    names = _manifest(inputs).get("probes") or WORDNETQA_PROBES
    files = {p: root / p / f"{inputs.split}.jsonl" for p in names}
    return {p: path for p, path in files.items() if path.is_file()}


def probe_source(inputs: CardInputs) -> Optional[Dict[str, str]]:
    """Which knowledge source the probes were built from (the manifest's ``sources``), as
    ``{"text": "WordNet 3.0, GCIDE 0.48", "ontology": bool, "name": the ontology's name}``; None
    without a manifest."""
    sources = _manifest(inputs).get("sources") or {}
    if not sources:
        return None
    parts = []
    for key, entry in sources.items():
        files = ", ".join(Path(f["path"]).name for f in entry.get("files", [])) if entry.get("files") else ""
        version = entry.get("version", "")
        version = "" if version == "unknown" else version          # a source that gives none
        parts.append(f"{entry.get('source', key)} {version}".strip() + (f" ({files})" if files else ""))
    return {"text": "; ".join(parts), "ontology": "ontology" in sources,
            "name": str((sources.get("ontology") or {}).get("source") or "")}


def _commands(model: CardModel, probe: str, path: Path, inputs: CardInputs) -> List[str]:
    source = str(path)
    lines = []
    if inputs.max_questions:
        source = f"{probe}_{inputs.split}_{inputs.max_questions}.jsonl"
        lines.append(f"head -n {inputs.max_questions} {shlex.quote(str(path))} > {shlex.quote(source)}")
    predictions = shlex.quote(f"{probe}_predictions.jsonl")
    lines.append(f"allennlp predict {shlex.quote(model.location)} {shlex.quote(source)} --predictor mcqa --silent "
                 f"--output-file {predictions}")
    lines.append(f"bin/probe_report {predictions} --out {shlex.quote(f'report_{probe}')}")
    return lines


def reading(model: CardModel, results: Dict[str, Any]) -> str:
    text = _reading(model, results)
    if model.is_causal:
        score = next(iter(results.values()))["score"]
        controls = {probe: result["choice_only"]["accuracy"] for probe, result in results.items()
                    if (result.get("choice_only") or {}).get("accuracy") is not None}
        text = (text[:-1] + f" (zero-shot, score {score})" + reading_suffix(results)
                + control_margins(results, controls, "its choice-only control") + ".")
    return text


#: how a reading names the margins over a control (a reading read again is given them anew)
_AGAINST = "; against "


def control_margins(results: Dict[str, Any], controls: Dict[str, Optional[float]], control: str) -> str:
    """``"; against <control> (the question hidden), in points: hypernymy -25.0, part_of +16.0"``: each
    probe's accuracy minus the control's on it, so that a reading's "best on" is read against what
    the choices alone give away."""
    margins = [f"{probe} {100 * (results[probe]['instance_accuracy'] - value):+.1f}"
               for probe, value in controls.items() if probe in results and value is not None]
    return f"{_AGAINST}{control} (the question hidden), in points: " + ", ".join(margins) if margins else ""


def _reading(model: CardModel, results: Dict[str, Any]) -> str:
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


def _reference(row: Dict[str, Any]) -> bool:
    """The paper's rows shown beside the models: RoBERTa-large, BERT-large, ESIM (inoculated), the
    Choice-Only-GloVe baseline and humans on test (Table 7), strict cluster accuracy and Δ of the
    inoculated transformers (Table 8, dev); every row is in references.json."""
    model, setting, table = row["model"], row.get("setting") or "", row["table"]
    if table == "Table 8":
        return model in ("RoBERTa-large", "BERT-large") and "inoculated" in setting
    return setting.endswith("(test)") and (
        (model in ("RoBERTa-large", "BERT-large", "ESIM-GloVe") and "inoculated" in setting)
        or model in (CONTROL, "Human"))


def _zero_shot_reference(row: Dict[str, Any]) -> bool:
    """The paper's zero-shot group beside a causal LM: the science-trained RoBERTa-large without
    probe training (Table 7, group 3, test)."""
    return row["table"] == "Table 7" and row["model"] == "RoBERTa-large" and row.get("setting") == "zero-shot, science-trained (test)"


@ReportSection.register("wordnetqa")
class WordNetQaSection(McqaSection, title="WordNetQA / DictionaryQA (Richardson & Sabharwal 2020)", order=10):
    """Instance and strict cluster accuracy of an MCQA archive on the WordNetQA / DictionaryQA probes."""

    def why_inputs_absent(self, model: CardModel, inputs: CardInputs) -> Optional[str]:
        if not probe_files(inputs):
            empty = empty_probe_files(inputs)
            if empty:  # a source too small to fill the split: every file of it is there, with no question
                return (f"no questions: the {inputs.split}.jsonl of every probe ({', '.join(empty)}) is empty "
                        f"(too few concepts to fill the split); --split "
                        f"{' or '.join(s for s in ('test', 'dev', 'train') if s != inputs.split)} scores another")
            names = _manifest(inputs).get("probes") or WORDNETQA_PROBES
            return (f"no probe files: {inputs.probes_dir or '--probes-dir'}/<probe>/{inputs.split}.jsonl not found "
                    f"for any of {', '.join(names)}; build them with bin/build_probes --out "
                    f"{inputs.probes_dir or 'probes'}")
        return None

    def key_parts(self, model: CardModel, inputs: CardInputs) -> Dict[str, Any]:
        return {"files": {p: sha256_file(f) for p, f in probe_files(inputs).items()},
                "max_questions": inputs.max_questions, "precision": inputs.precision, **causal_key(model, inputs)}

    def run(self, model: CardModel, inputs: CardInputs, context: SectionContext) -> Dict[str, Any]:
        loaded = context.archive(model)
        results: Dict[str, Any] = {}
        figures: List[Dict[str, str]] = []
        commands: List[str] = []
        data: Dict[str, str] = {}
        for probe, path in probe_files(inputs).items():
            questions = first_questions(path, inputs.max_questions)
            with context.progress_bar(probe):
                if model.is_causal:
                    by_score = answers_by_score(loaded, questions, inputs.batch_size)
                    answers = by_score[loaded.score]
                else:
                    answers = answer_questions(loaded.model, loaded.reader, questions, inputs.batch_size)
            context.add_items(item_records(answers, model.label, "wordnetqa", probe)
                              + (item_records(by_score[LETTERS], model.label, "wordnetqa", probe)
                                 if model.is_causal and LETTERS in by_score else []))
            records = [record_from(a.metadata, a.correct) for a in answers]
            summary = summarize(records)  # bin/probe_report's numbers, with its bootstrap over semantic clusters
            found = summary["intervals"]
            summary["intervals"] = {"instance_accuracy": [found["accuracy_low"], found["accuracy_high"]],
                                    "cluster_accuracy": [found["cluster_accuracy_low"], found["cluster_accuracy_high"]]}
            summary["file"] = str(path)
            summary["chance"] = chance(questions)
            if model.is_causal:
                summary.update(causal_results(by_score, loaded.score, summary["chance"]))
            results[probe] = summary
            figure = heatmap(summary, context.figure_path(f"wordnetqa_{probe}.png"),
                             title=f"{model.label}: {probe} (accuracy by hops × distractor)")
            if figure is not None:
                figures.append({"path": context.relative(figure),
                                "caption": f"{model.label}: {probe} (accuracy by ISA hops × distractor family, "
                                           "Figure 3 layout)"})
            commands += [causal_command(model, path, inputs)] if model.is_causal else _commands(model, probe, path, inputs)
            data[str(path)] = sha256_file(path)
        return done(results, reading(model, results), commands, data, figures)

    masked_lm_needs = ("the WordNetQA / DictionaryQA probes need a multiple-choice QA model: fine-tune one (allennlp "
                       "train training_config/roberta_probe.jsonnet, see the README's main job) and give its model.tar.gz")

    def shared(self, section: Dict[str, Any], inputs: CardInputs, context: SectionContext) -> None:
        section["shared"]["probes"] = list(probe_files(inputs))
        section["shared"]["empty"] = empty_probe_files(inputs)
        section["shared"]["unlisted"] = unlisted_probe_dirs(inputs)
        section["shared"]["left_out"] = {str(probe): str(reason) for probe, reason
                                         in (_manifest(inputs).get("skipped_probes") or {}).items()}
        section["shared"]["manifest"] = bool(_manifest(inputs).get("probes"))
        section["shared"]["split"] = inputs.split
        section["shared"]["source"] = probe_source(inputs)
        if not any(entry["status"] == "done" and not _is_causal_result(entry) for entry in section["models"].values()):
            return  # Choice-Only-GloVe is the archives' control (a causal LM brings its own)
        control = section["shared"]["choice_only"] = choice_only_control(inputs, context.out, context.progress,
                                                                           context.quiet)
        _drop_closed_log_handlers()
        context.add_items(control_item_records(inputs, control))  # the card writes items/Choice-Only-GloVe/
        for label, entry in section["models"].items():     # each archive's reading against the control
            if entry["status"] == "done" and not _is_causal_result(entry) and entry.get("reading"):
                controls = {probe: control_accuracy(control[probe], inputs.split) for probe in entry["results"]
                            if probe in control}
                kept = entry["reading"].split(f"{_AGAINST}{CONTROL}")[0].rstrip(".")
                entry["reading"] = kept + control_margins(entry["results"], controls, CONTROL) + "."
        section["commands"] += [c["command"] for c in control.values() if c.get("command")]
        section["shared"]["inoculation"] = sweeps = inoculation_sweeps(inputs)
        for sweep in sweeps:
            section["data"][sweep["table"]] = sweep["sha256"]
            path = context.copy_figure(sweep["figure"], f"inoculation_{slug(sweep['name'])}.png")
            if path:
                section["figures"].append({"path": path, "caption": f"Inoculation curves: {sweep['name']} (Figure 4 layout)"})

    def tables(self, section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        shared = section.get("shared", {})
        probes = shared.get("probes", [])
        control = shared.get("choice_only", {})
        split = shared.get("split", "test")
        specs = []
        control_cells: Dict[str, Any] = {}
        for probe in probes:
            get = lambda r, p=probe: r.get(p) or {}  # noqa: E731
            rows = [(f"{probe}: accuracy %",
                     lambda r, get=get: percent_cell(get(r).get("instance_accuracy"), interval_of(get(r), "instance_accuracy")),
                     (probe, "accuracy")),
                    (f"{probe}: strict cluster accuracy %",
                     lambda r, get=get: percent_cell(get(r).get("cluster_accuracy"), interval_of(get(r), "cluster_accuracy")),
                     (probe, "cluster_accuracy")),
                    (f"{probe}: Δ (points)", lambda r, get=get: points_cell(get(r).get("cluster_delta")), (probe, "cluster_delta")),
                    (f"{probe}: questions", lambda r, get=get: count_cell(get(r).get("questions")), None)]
            if any(_is_causal_result(section["models"][m["label"]]) for m in ran_models(section, models)):
                rows += causal_rows(f"{probe}: ", get, None)
            specs += rows
            if probe in control:
                control_cells[rows[0][0]] = glove_control_cell(control[probe], split, probe_chance(section, models, probe))
        extra = []
        if control:
            where = "; ".join(f"{p}: {c.get('train_questions')} training questions, "
                              + ("computed here" if c["source"] == "computed" else f"from {c['source']}")
                              + ("" if "page" in c else f", scored on its own run's {split} questions, not the page's")
                              + ("" if c.get("records") else ", no item records (" + (
                                  "its run kept no answers per question: bin/artifact_audit with a new --out"
                                  if c.get("items") is None else "none of the page's questions") + ")")
                              for p, c in control.items())
            extra.append((column(f"{CONTROL} (control)", "control",
                                 footnote=f"{CONTROL} never sees the question (trained on the probe's train, scored on the "
                                          f"same questions where its answers to them are kept): far above chance means "
                                          f"the choices give the answer away ({FLAG}: {100 * FLAG_MARGIN:.0f} or "
                                          f"more points above chance, as bin/artifact_audit flags). "
                                          f"{where}. No interval here; its answers per question are item records "
                                          f"(model {CONTROL}: the paired comparison, items.html)."),
                          lambda label: control_cells.get(label, text_cell())))
        source = shared.get("source") or {}
        notes = ["Accuracy and strict cluster accuracy in % with their 95% interval (bootstrap over semantic clusters); "
                 "Δ = cluster − instance accuracy in points (Table 8)."
                 + (f" Probes built from {source['text']}." if source.get("text") else "")
                 + (" The paper's numbers are for WordNet / GCIDE probes, not this source: not shown."
                    if source.get("ontology") else
                    " The paper's numbers are on its own probe files (ours are rebuilt from WordNet 3.0 / GCIDE) and "
                    "have no interval.")
                 + (f" Not scored: {', '.join(shared['empty'])} (no question in the {split} split: a probe too small "
                    f"to fill every split)." if shared.get("empty") else "")
                 + (f" Not scored either: {', '.join(shared['unlisted'])} (a directory with {split}.jsonl that "
                    + ("manifest.json does not list" if shared.get("manifest") else
                       "is not one of the paper's probes, and there is no manifest.json naming the probes")
                    + ")." if shared.get("unlisted") else "")
                 + (" Left out by the build (no probe files): " + "; ".join(
                     f"{probe} ({reason})" for probe, reason in shared["left_out"].items()) + "."
                    if shared.get("left_out") else "")]
        ran = ran_models(section, models)
        references = [] if source.get("ontology") else reference_columns("wordnetqa", probes, _reference)
        scores = causal_scores([m for m in ran if _is_causal_result(section["models"][m["label"]])])
        if scores:
            for ref in ([] if source.get("ontology") else reference_columns("wordnetqa", probes, _zero_shot_reference)):
                ref["column"]["header"] = ref["column"]["header"].replace(" (paper)", " 0-shot (paper)")
                references.append(ref)
            notes += causal_notes(scores)
        table = grid_table("Instance and strict cluster accuracy", specs, section, models, extra, references, notes)
        tables = [table] if table else []
        for sweep in shared.get("inoculation", []):
            rows = [[count_cell(r.get("k")), text_cell(f"{r.get('lr')}"),
                     count_cell(r.get("seed")) if r.get("seed") is not None else text_cell(),
                     percent_cell(r.get("probe_dev_accuracy")), percent_cell(r.get("orig_accuracy_before")),
                     percent_cell(r.get("orig_accuracy_after")), points_cell(r.get("inoculation_cost"))] for r in sweep["best"]]
            columns = [column("k", "label"), column("lr", "label"), column("seed", "label"),
                       *[column(h, "model") for h in ("probe dev %", "original before %", "original after %",
                                                      "inoculation cost (points)")]]
            tables.append(make_table(f"Inoculation: {sweep['name']} (best run per dosage k)", columns, rows,
                                     [f"From {sweep['table']} (bin/inoculate): a result file without per-question "
                                      "data, so no interval."]))
        return tables

    def summary(self, section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        shared = section.get("shared", {})
        control = shared.get("choice_only", {})
        split = shared.get("split", "test")
        source = shared.get("source") or {}
        # probes from a user's ontology: named after it, and the paper's numbers (WordNet's) not beside them
        prefix = f"{source.get('name') or 'ontology'}" if source.get("ontology") else "WordNetQA"
        rows = []
        ran = ran_models(section, models)
        for probe in shared.get("probes", []):
            cells = {}
            chance_cell = None
            for model in ran:
                result = section["models"][model["label"]]["results"].get(probe)
                if result:
                    cells[model["label"]] = percent_cell(result["instance_accuracy"], interval_of(result, "instance_accuracy"))
                    chance_cell = chance_cell or percent_cell(result.get("chance"))
            if not cells:
                continue
            controls = []
            if probe in control:
                glove = glove_control_cell(control[probe], split, probe_chance(section, models, probe))
                controls.append(dict(glove, text=glove["text"] + f" ({CONTROL})"))
            for model in ran:
                result = section["models"][model["label"]]["results"].get(probe) or {}
                if result.get("choice_only"):
                    own = control_cell(result)
                    controls.append(dict(own, text=own["text"] + f" ({CAUSAL_CONTROL}, {model['label']})"))
            control_summary = controls[0] if len(controls) == 1 else (
                {"text": "; ".join(c["text"] for c in controls)} if controls else None)
            best = None if source.get("ontology") else best_reference(
                "wordnetqa", probe, "accuracy", lambda r: (r.get("setting") or "").endswith(f"({split})"))
            rows.append(summary_row(f"{prefix}: {probe}", cells, control_summary, chance_cell, best))
        return rows


def _is_causal_result(entry: Dict[str, Any]) -> bool:
    return entry.get("status") == "done" and any("choice_only" in r for r in (entry.get("results") or {}).values())


def _drop_closed_log_handlers() -> None:
    """allennlp's train_model (the Choice-Only control) leaves logging handlers on files it closed;
    later warnings would print "--- Logging error ---" tracebacks."""
    for logger in [logging.getLogger()] + [logging.getLogger(n) for n in list(logging.root.manager.loggerDict)]:
        for handler in list(getattr(logger, "handlers", [])):
            stream = getattr(handler, "stream", None)
            if stream is not None and getattr(stream, "closed", False):
                logger.removeHandler(handler)


# ---------------------------------------------------------------------------- shared: controls and inoculation
def _items_of(audit: Path, probe: str, split: str) -> Optional[str]:
    path = trial_items_file(audit, probe, "choice_only", split)
    return str(path) if path.is_file() else None


def choice_only_control(inputs: CardInputs, out: Path, progress=print, quiet: bool = False) -> Dict[str, Any]:
    """Choice-Only-GloVe accuracy per probe: read from ``audit_dir``'s ``artifact_audit.json`` where it
    has the probe, else trained on the probe's train file (``bin/artifact_audit --models choice_only``,
    at most ``control_max_train`` questions; finished runs are reused) and scored on its dev / test.
    ``items``: the run's item records of the card's split (:func:`~mcqa_probes.experiments.wordnetqa.
    artifact_audit.trial_items_file`), None where it kept none (an audit run before they were kept; a
    control trained here earlier without them is trained again)."""
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
                                  "train_questions": (entry.get("splits") or {}).get("sizes", {}).get("train"),
                                  "items": _items_of(Path(inputs.audit_dir), probe, inputs.split)}
    # the control trains on the probe's train split and is scored on its dev and test: a probe with an
    # empty one (a source too small to fill it) has no control
    todo = [p for p in files if p not in control
            and all(holds_lines(Path(inputs.probes_dir) / p / f"{split}.jsonl") for split in ("train", "dev", "test"))]
    if todo:
        target = out / "controls" / "choice_only"
        for probe in todo:  # a run finished before its answers were kept is trained again (it is cheap)
            if not _items_of(target, probe, inputs.split):
                forget_run(target, probe, "choice_only")
        progress(f"Choice-Only-GloVe control on {', '.join(todo)} (trained on each probe's train; reused when done)")
        report = run_audit([_control_probe_dir(inputs, p, out / "controls" / "probes") for p in todo], target,
                           models=("choice_only",), max_train=inputs.control_max_train, epochs=inputs.control_epochs,
                           cuda_device=inputs.cuda_device, progress=progress, quiet=quiet,
                           progress_label="wordnetqa / Choice-Only-GloVe control")
        for probe in todo:
            entry = report["probes"][probe]
            result = entry["results"].get("choice_only")
            if result:
                control[probe] = {"dev": result["dev"], "test": result["test"], "source": "computed",
                                  "train_questions": entry["splits"]["sizes"]["train"],
                                  "items": _items_of(target, probe, inputs.split),
                                  "command": f"bin/artifact_audit --probe-dir {shlex.quote(str(out / 'controls' / 'probes' / probe))} "
                                             f"--models choice_only --max-train {inputs.control_max_train} --epochs {inputs.control_epochs} "
                                             f"--out {shlex.quote(str(target))}"}
    return control


def control_item_records(inputs: CardInputs, control: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The Choice-Only-GloVe control's item records on the page's questions: each probe's ``items``
    (:func:`choice_only_control`) kept where the question is one the models answer (the first
    ``max_questions`` of ``<probe>/<split>.jsonl``, the same id, choices and gold), relabelled as the
    page's: model :data:`CONTROL`, section ``wordnetqa``, the probe's name. Sets each probe's
    ``records`` (how many; 0 without ``items``)."""
    files = probe_files(inputs)
    found: List[Dict[str, Any]] = []
    for probe, entry in control.items():
        entry["records"] = 0
        if not entry.get("items") or probe not in files:
            continue
        asked = {q.id: ([c.text for c in q.choices], q.answer_index)
                 for q in first_questions(files[probe], inputs.max_questions)}
        mine = [dict(r, model=CONTROL, section="wordnetqa", probe=probe) for r in read_item_records(entry["items"])
                if asked.get(r["id"]) == (r["choices"], r["gold"])]
        entry["records"] = len(mine)
        if mine and len(mine) == len(asked):    # every question of the page: the control's accuracy on them
            entry["page"] = sum(bool(r["correct"].get(r["primary"])) for r in mine) / len(mine)
        found += mine
    return found


def glove_control_cell(entry: Dict[str, Any], split: str, chance: Optional[float]) -> Dict[str, Any]:
    """Choice-Only-GloVe's accuracy as a cell, flagged (:data:`FLAG`) where it is at least
    :data:`FLAG_MARGIN` above the probe's chance, as ``bin/artifact_audit`` flags it."""
    value = control_accuracy(entry, split)
    cell = percent_cell(value)
    if value is not None and chance is not None and value >= chance + FLAG_MARGIN:
        cell["text"] += f" {FLAG}"
        cell["tooltip"] = f"{100 * FLAG_MARGIN:.0f}+ points above chance: the choices give the answer away"
    return cell


def probe_chance(section: Dict[str, Any], models: List[Dict[str, Any]], probe: str) -> Optional[float]:
    """The chance of a probe's questions, as the models' results give it (None where none ran it)."""
    return next((result["chance"] for model in ran_models(section, models)
                 for result in [section["models"][model["label"]]["results"].get(probe) or {}]
                 if result.get("chance") is not None), None)


def control_accuracy(entry: Dict[str, Any], split: str) -> Optional[float]:
    """The control's accuracy on the page's questions where its item records cover them all
    (:func:`control_item_records`), else on the questions its own run scored (the audit's sample)."""
    return entry.get("page", entry.get(split))


def _control_probe_dir(inputs: CardInputs, probe: str, root: Path) -> Path:
    """The control's probe directory: the probe's train file, and as dev and test the first
    ``max_questions`` questions of its dev / test files (the questions the models answer)."""
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
