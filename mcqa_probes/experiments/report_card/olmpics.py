"""The oLMpics section (Talmor et al. 2020): zero-shot accuracy of a masked LM on the MC-MLM probes
(``bin/zero_shot``), accuracy of an MCQA archive on the MC-QA probes (``allennlp evaluate``), and the
MLP learning curves with WS / MAX of a given ``bin/olmpics_suite`` or ``bin/learning_curve`` run.

Every accuracy of a model has its 95% interval: the released questions have no cluster key, so the
bootstrap resamples questions. The learning curves come from result files without per-question
data: no interval.

The data are the released files under ``olmpics_dir`` (``<probe file>_dev.jsonl``); the probes and
their MC-MLM / MC-QA setup are :data:`mcqa_probes.experiments.olmpics.suite.PROBES`.

A causal LM answers both kinds zero-shot (:mod:`.causal_lm`, the ``causal_lm_mc`` reader): an MC-MLM
stem with its ``[MASK]`` filled by each choice is scored as a whole sentence, an MC-QA question as
a cloze prompt (``--causal-template``); no question is skipped.
"""
import json
import shlex
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from mcqa_probes.common.io import sha256_file
from mcqa_probes.experiments.olmpics.suite import PROBES
from mcqa_probes.experiments.olmpics.zero_shot import build
from mcqa_probes.experiments.report_card.causal_lm import causal_command, causal_key, causal_notes, causal_scores
from mcqa_probes.experiments.report_card.inputs import CardInputs, bootstrap_intervals, chance, done, first_questions
from mcqa_probes.experiments.report_card.models import CardModel, slug
from mcqa_probes.experiments.report_card.section import ReportSection, SectionContext
from mcqa_probes.data.question import cluster_key
from mcqa_probes.reports.card.tables import (
    best_reference, column, grid_table, interval_of, make_table, percent_cell, ran_models, reference_columns,
    reference_tables, summary_row, text_cell,
)
from mcqa_probes.training.evaluation import accuracy, answer_instances, answer_questions, item_records

MULTI_TOKEN = "skip"  # as the suite: a question with a multi-piece choice is skipped and counted


def probe_files(inputs: CardInputs, setup: str) -> Dict[str, Tuple[str, Path]]:
    """probe -> (title, dev file) for the probes of ``setup`` (``mc_mlm`` / ``mc_qa``) present in olmpics_dir."""
    if not inputs.olmpics_dir:
        return {}
    root = Path(inputs.olmpics_dir)
    return {probe: (title, root / f"{prefix}_dev.jsonl") for probe, title, prefix, kind, _ in PROBES
            if kind == setup and (root / f"{prefix}_dev.jsonl").is_file()}


def _setups(model: CardModel) -> Tuple[str, ...]:
    """The setups a model answers: an archive MC-QA, a masked LM MC-MLM, a causal LM both."""
    return ("mc_mlm", "mc_qa") if model.is_causal else ("mc_qa",) if model.is_mcqa else ("mc_mlm",)


def _files(inputs: CardInputs, model: CardModel) -> Dict[str, Tuple[str, str, Path]]:
    """probe -> (setup, title, dev file) of the probes ``model`` answers."""
    return {probe: (setup, title, path) for setup in _setups(model) for probe, (title, path) in probe_files(inputs, setup).items()}


def _answered(answers, title: str, setup: str, path: Path, questions) -> Dict[str, Any]:
    return {"title": title, "setup": setup, "accuracy": accuracy(answers), "count": len(answers),
            "intervals": {"accuracy": bootstrap_intervals((a.correct, cluster_key(a.metadata)) for a in answers).get("accuracy")},
            "chance": chance(questions), "file": str(path)}


def reading(model: CardModel, results: Dict[str, Any], head: Optional[Dict] = None) -> str:
    above = [p for p, r in results.items() if r["accuracy"] > r["chance"] + 0.05]
    what = ("MC-MLM / MC-QA probes zero-shot (score " + next(iter(results.values()))["score"] + ")" if model.is_causal
            else "MC-QA probes" if model.is_mcqa else "MC-MLM probes zero-shot")
    text = (f"{model.label} is more than 5 points above chance on {len(above)} of {len(results)} {what}"
            + (f" ({', '.join(results[p]['title'].lower() for p in above)})" if above else ""))
    if head is not None and not head.get("trained"):
        text += ("; its masked-LM head is untrained (random weights), so these zero-shot numbers say nothing about "
                 "what the encoder knows")
    return text + "."


#: the paper's rows shown beside the models, per setup (every row is in references.json)
REFERENCES = {
    "olmpics_zero_shot": lambda r: r["model"] in ("RoBERTa-large", "BERT-large", "Random", "Majority vote"),
    "olmpics_mcqa": lambda r: r["model"] in ("RoBERTa-large", "BERT-large", "ESIM-Baseline", "Random"),
}
#: (setup, table title, reference metric, references.json section)
SETUPS = (("mc_mlm", "MC-MLM probes: zero-shot accuracy %", "zero_shot", "olmpics_zero_shot"),
          ("mc_qa", "MC-QA probes: accuracy % (not trained on the probe)", "max", "olmpics_mcqa"))


def _probes_of(section: Dict[str, Any], setup: str) -> Dict[str, Dict[str, Any]]:
    """probe -> {title, chance, stem (released file stem, as the reference rows name it)} of ``setup``."""
    probes: Dict[str, Dict[str, Any]] = {}
    for entry in section["models"].values():
        for probe, result in (entry.get("results") or {}).items():
            if result.get("setup") == setup and probe not in probes:
                probes[probe] = {"title": result["title"], "chance": result["chance"],
                                 "stem": Path(result["file"]).name.rsplit("_dev.jsonl", 1)[0]}
    return probes


@ReportSection.register("olmpics")
class OlmpicsSection(ReportSection, title="oLMpics (Talmor et al. 2020)", order=20, model_facts=("masked_lm_head",)):
    """Zero-shot MC-MLM accuracy of a masked LM, MC-QA accuracy of an archive, given learning curves."""

    def why_absent(self, model: CardModel, inputs: CardInputs) -> Optional[str]:
        if not inputs.olmpics_dir:
            return "no --olmpics-dir given (the released oLMpics files, <probe>_dev.jsonl)"
        if not _files(inputs, model):
            what = ("MC-QA probe files (conjunction_filt4_dev.jsonl, composition_v2_dev.jsonl)" if model.is_mcqa
                    else "MC-MLM probe files (e.g. number_comparison_age_compare_masked_dev.jsonl)")
            if model.is_causal:
                what = "MC-MLM or MC-QA probe files (e.g. number_comparison_age_compare_masked_dev.jsonl)"
            kind = {"mcqa": "multiple-choice QA archive", "causal_lm": "causal LM"}.get(model.kind, "masked LM")
            return f"{inputs.olmpics_dir} has no {what} for a {kind}"
        return None

    def key_parts(self, model: CardModel, inputs: CardInputs) -> Dict[str, Any]:
        return {"files": {p: sha256_file(f) for p, (_, _, f) in _files(inputs, model).items()},
                "max_questions": inputs.max_questions, "precision": inputs.precision, "multi_token": MULTI_TOKEN,
                **causal_key(model, inputs)}

    def run(self, model: CardModel, inputs: CardInputs, context: SectionContext) -> Dict[str, Any]:
        files = {probe: (title, path) for probe, (_, title, path) in _files(inputs, model).items()}
        results: Dict[str, Any] = {}
        commands: List[str] = []
        limit = inputs.max_questions or None
        if model.is_causal:  # the causal_lm_mc reader: MC-MLM stems as whole sentences, MC-QA as cloze prompts
            loaded = context.archive(model)
            for probe, (setup, title, path) in _files(inputs, model).items():
                questions = first_questions(path, limit)
                with context.progress_bar(probe):
                    answers = answer_questions(loaded.model, loaded.reader, questions, inputs.batch_size)
                context.add_items(item_records(answers, model.label, "olmpics", probe))
                results[probe] = dict(_answered(answers, title, setup, path, questions), score=loaded.score)
                commands.append(causal_command(model, path, inputs))
        elif model.is_mcqa:
            loaded = context.archive(model)
            for probe, (title, path) in files.items():
                questions = first_questions(path, limit)
                with context.progress_bar(probe):
                    answers = answer_questions(loaded.model, loaded.reader, questions, inputs.batch_size)
                context.add_items(item_records(answers, model.label, "olmpics", probe))
                results[probe] = _answered(answers, title, "mc_qa", path, questions)
                source = str(path)
                if limit:
                    source = f"{path.stem}_{limit}.jsonl"
                    commands.append(f"head -n {limit} {shlex.quote(str(path))} > {source}")
                commands.append(f"allennlp evaluate {shlex.quote(model.location)} {source}")
        else:
            # bin/zero_shot's reader and model (its seeded head), its questions and its prediction loop
            reader, scorer = build(model.location, cuda_device=inputs.cuda_device, precision=inputs.precision,
                                   multi_token=MULTI_TOKEN)
            for probe, (title, path) in files.items():
                instances = list(reader.read(str(path)))[:limit]
                with context.progress_bar(probe):
                    answers = answer_instances(scorer, instances, inputs.batch_size)
                context.add_items(item_records(answers, model.label, "olmpics", probe))
                results[probe] = dict(_answered(answers, title, "mc_mlm", path, first_questions(path, limit)),
                                      skipped_multi_piece=reader.skipped_questions)
                commands.append(f"bin/zero_shot --model {shlex.quote(model.location)} --data {shlex.quote(str(path))}"
                                + (f" --limit {limit}" if limit else "") + f" --multi-token {MULTI_TOKEN}"
                                + f" --precision {inputs.precision}")
        data = {str(path): sha256_file(path) for _, path in files.values()}
        return done(results, reading(model, results, context.facts.get("masked_lm_head")), commands, data)

    def shared(self, section: Dict[str, Any], inputs: CardInputs, context: SectionContext) -> None:
        if not inputs.olmpics_curves:
            return
        section["shared"]["learning_curves"] = curves = learning_curves(inputs)
        for curve in curves:
            path = context.copy_figure(curve["figure"], f"learning_curve_{slug(curve['probe'])}_{slug(curve['model'])}.png")
            if path:
                section["figures"].append({"path": path, "caption": f"{curve['title']}: {curve['model']} learning curve"})

    def tables(self, section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        tables = []
        for setup, title, metric, reference_section in SETUPS:
            probes = _probes_of(section, setup)
            if not probes:
                continue
            ran = [m for m in models if any(r.get("setup") == setup for r in
                                            (section["models"].get(m["label"], {}).get("results") or {}).values())]
            labels = {}
            for probe, info in probes.items():
                cited = reference_tables(reference_section, info["stem"])
                labels[probe] = f"{info['title']} ({', '.join(cited)})" if cited else info["title"]
            specs = [(labels[p], lambda r, p=p: percent_cell((r.get(p) or {}).get("accuracy"), interval_of(r.get(p) or {}, "accuracy")),
                      (p, (metric, "accuracy"))) for p in probes]
            sub = dict(section, models={m["label"]: section["models"][m["label"]] for m in ran})
            stems = {info["stem"]: p for p, info in probes.items()}
            references = []
            for ref in reference_columns(reference_section, list(stems), REFERENCES[reference_section]):
                values = {(stems[s], m): v for (s, m), v in ref["values"].items()}
                if values:
                    references.append(dict(ref, values=values))
            notes = ["Accuracy % with its 95% interval (bootstrap over questions: the released files have no cluster "
                     "key); chance = mean 1/K over the questions scored. Row labels name the paper's table."]
            if setup == "mc_qa":
                notes.append("The paper's columns are the MAX of its MC-QA learning curve (the model fine-tuned on the "
                             "probe's training set): an upper reference, not a like-for-like number.")
            if setup == "mc_mlm" and any(m.get("kind") == "masked_lm" for m in ran):
                notes.append("Questions whose choices are several word pieces for the model are skipped (as in the "
                             "paper); counts in report.json.")
            scores = causal_scores(ran)
            if scores:
                notes.append("A causal LM scores " + ("the sentence with each choice in the [MASK]'s place"
                                                      if setup == "mc_mlm" else "each choice after the question (cloze)")
                             + ": no question is skipped. " + causal_notes(scores)[0])
            by_label = {labels[p]: percent_cell(probes[p]["chance"]) for p in probes}
            table = grid_table(title, specs, sub, ran,
                               [(column("chance", "control", tooltip="mean 1/K over the questions scored"),
                                 lambda label: by_label[label])], references, notes)
            if table:
                tables.append(table)
        curves = section.get("shared", {}).get("learning_curves", [])
        if curves:
            rows = [[text_cell(c["title"]), text_cell(c["model"]), text_cell(c["curve"]), percent_cell(c.get("zero_shot")),
                     percent_cell(c.get("WS")), percent_cell(c.get("MAX"))] for c in curves]
            columns = [column("probe", "label"), column("model", "label"), column("curve", "label"),
                       column("zero-shot %", "model"), column("WS %", "model"), column("MAX %", "model")]
            tables.append(make_table("Learning curves (WS / MAX)", columns, rows,
                                     [f"From {curves[0]['source']}: a result file without per-question data, so no "
                                      "interval."]))
        return tables

    def summary(self, section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        rows = []
        for setup, _, metric, reference_section in SETUPS:
            for probe, info in _probes_of(section, setup).items():
                cells = {}
                for model in ran_models(section, models):
                    result = (section["models"][model["label"]]["results"] or {}).get(probe)
                    if result and result.get("setup") == setup:
                        cells[model["label"]] = percent_cell(result["accuracy"], interval_of(result, "accuracy"))
                what = "zero-shot" if setup == "mc_mlm" else "MC-QA"
                rows.append(summary_row(f"oLMpics: {info['title'].lower()} ({what})", cells, None,
                                        percent_cell(info["chance"]), best_reference(reference_section, info["stem"], metric)))
        return rows


# ---------------------------------------------------------------------------- shared: learning curves
def learning_curves(inputs: CardInputs) -> List[Dict[str, Any]]:
    """WS / MAX of the MLP learning curves of a ``bin/olmpics_suite`` directory (``suite.json``: every
    model row of every probe) or of one ``bin/learning_curve`` directory (``summary.json``)."""
    if not inputs.olmpics_curves:
        return []
    root = Path(inputs.olmpics_curves)
    titles = {probe: title for probe, title, *_ in PROBES}
    rows: List[Dict[str, Any]] = []
    suite = root / "suite.json"
    if suite.is_file():
        for probe, models in json.loads(suite.read_text()).items():
            for label, row in models.items():
                curve = row.get("mlp") or row.get("curve") or {}
                tag = label.replace("/", "_")
                figure = next((f for f in (root / probe / tag / "mlp" / "learning_curve.png",
                                           root / probe / tag / "mc_qa" / "learning_curve.png") if f.is_file()), None)
                rows.append({"probe": probe, "title": titles.get(probe, probe), "model": label,
                             "curve": "MLP" if "mlp" in row else "MC-QA", "zero_shot": row.get("zero_shot"),
                             "WS": curve.get("WS"), "MAX": curve.get("MAX"), "source": str(suite),
                             "figure": str(figure) if figure else None})
        return rows
    summary = root / "summary.json"
    if summary.is_file():
        data = json.loads(summary.read_text())
        full = data.get("full") or {}
        figure = root / "learning_curve.png"
        rows.append({"probe": root.name, "title": titles.get(root.name, root.name), "model": "(learning curve)",
                     "curve": "full", "zero_shot": None, "WS": full.get("WS"), "MAX": full.get("MAX"),
                     "source": str(summary), "figure": str(figure) if figure.is_file() else None,
                     "paper_comparable": data.get("paper_comparable")})
        return rows
    raise FileNotFoundError(f"--olmpics-curves {root}: neither suite.json (bin/olmpics_suite) nor summary.json "
                            "(bin/learning_curve) in it")
