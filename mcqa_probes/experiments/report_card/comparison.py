"""The page-level section over the item records of every model (issue 29): the paired comparison of
every pair of models (:mod:`mcqa_probes.reports.compare`, when the page has two or more), the
calibration of each model per probe (:mod:`mcqa_probes.metrics.calibration`, with a reliability
diagram per model) and the determinism audit's line per model (``--determinism-check N``; a model none
of whose questions was re-scored is "not run", never a line of zeros). It reads what the other sections
wrote (``items/<model>/<section>.jsonl``, ``sections/<model>/<section>.json``) for the page's models and
the controls whose records the sections kept (``items/Choice-Only-GloVe/wordnetqa.jsonl``: compared and
calibrated as a model is), so it runs after them (order 200). docs/compare.md says what each number means.
"""
import json
import shlex
from pathlib import Path
from typing import Any, Dict, List, Optional

from mcqa_probes.common.io import sha256_file
from mcqa_probes.experiments.report_card.inputs import CardInputs, done
from mcqa_probes.experiments.report_card.models import CardModel, slug
from mcqa_probes.experiments.report_card.section import ReportSection, SectionContext
from mcqa_probes.metrics.calibration import calibration_rows
from mcqa_probes.metrics.determinism import combine_rescored
from mcqa_probes.metrics.item_records import read_item_records
from mcqa_probes.reports.card.tables import column, count_cell, make_table, percent_cell, points_cell, text_cell
from mcqa_probes.reports.compare import calibration_by_probe, compare_records
from mcqa_probes.reports.figures import reliability_diagram

NAME = "comparison"


def _page_records(out: Path, labels: List[str]) -> List[Dict[str, Any]]:
    records: List[Dict[str, Any]] = []
    for label in labels:
        for path in sorted((out / "items" / slug(label)).glob("*.jsonl")):
            records += [r for r in read_item_records(path) if r["model"] == label]
    return records


def _determinism(out: Path, label: str) -> Optional[Dict[str, Any]]:
    """The determinism audits of ``label``'s sections combined; None when no question was re-scored (a
    section stored by an older card may hold an audit of 0 questions: not an audit)."""
    found = []
    for path in sorted((out / "sections" / slug(label)).glob("*.json")):
        try:
            result = json.loads(path.read_text(encoding="utf-8")).get("result") or {}
        except (OSError, ValueError, AttributeError):
            continue
        if result.get("determinism"):
            found.append(result["determinism"])
    return combine_rescored(found)


def reading(label: str, records: List[Dict[str, Any]], calibrated: Dict[str, Any], compare: Optional[Dict[str, Any]],
            audit: Optional[Dict[str, Any]]) -> str:
    """One line per model: its item records, the range of its ECE, its paired comparisons (how many
    differ at Holm-adjusted p < 0.05) and its determinism audit."""
    if not records:
        return f"no item records of {label}"
    parts = [f"{label}: {len(records)} questions with item records on {len(calibrated)} probes"]
    eces = [value["ece"] for value in calibrated.values() if value.get("ece") is not None]
    if eces:
        parts.append(f"ECE {min(eces):.3f}" + (f" to {max(eces):.3f}" if max(eces) > min(eces) else ""))
    mine = [c for c in (compare or {}).get("comparisons", []) if label in (c["model_a"], c["model_b"])]
    if mine:
        parts.append(f"{sum(c['p_holm'] < 0.05 for c in mine)} of {len(mine)} paired comparisons differ "
                     "(Holm-adjusted p < 0.05)")
    if audit:
        parts.append(f"determinism: {audit['changed_answers']} of {audit['questions']} answers changed at batch size 1 "
                     f"(largest score difference {audit['max_score_difference']:.3g})")
    return "; ".join(parts)


def _curves(probe: str, found: Dict[str, Any]) -> Dict[str, Any]:
    """The reliability diagram's lines of one probe: the primary prompt's, and PriDe's beside the raw
    lettered prompt's where it was run."""
    pride = found.get("pride")
    if not pride:
        return {probe: found["bins"]}
    return {probe: found["bins"], f"{probe} {pride['raw_prompt']}": pride["raw"]["bins"],
            f"{probe} {pride['prompt']} (PriDe)": pride["debiased"]["bins"]}


@ReportSection.register(NAME)
class ComparisonSection(ReportSection, title="Paired comparison, calibration and determinism (item records)",
                        order=200):

    def why_absent(self, model: CardModel, inputs: CardInputs) -> Optional[str]:
        if not any((inputs.probes_dir, inputs.olmpics_dir, inputs.winoventi_tsv, inputs.csqa_dev)):
            return "no item records: no probe data given (--probes-dir, --olmpics-dir, --winoventi-tsv, --csqa-dev)"
        return None

    def key_parts(self, model: CardModel, inputs: CardInputs) -> Dict[str, Any]:
        return {}

    def run(self, model: CardModel, inputs: CardInputs, context: SectionContext) -> Dict[str, Any]:
        return done({}, "", [], {})  # the numbers are the page's: shared()

    def shared(self, section: Dict[str, Any], inputs: CardInputs, context: SectionContext) -> None:
        models = list(section["models"])
        labels = models + [label for label in context.item_labels if label not in models]  # then the controls
        records = _page_records(context.out, labels)
        shared: Dict[str, Any] = {"calibration": {}, "determinism": {}, "determinism_not_run": []}
        if len({r["model"] for r in records}) >= 2:
            shared["compare"] = compare_records(records, [m for m in labels if any(r["model"] == m for r in records)])
        calibrations = calibration_by_probe(records, labels)
        for label in labels:
            mine = [r for r in records if r["model"] == label]
            table = calibrations[label]
            shared["calibration"][label] = table
            if table:
                figure = reliability_diagram({name: bins for probe, value in table.items()
                                              for name, bins in _curves(probe, value).items()},
                                             context.out / "figures" / "shared" / f"reliability_{slug(label)}.png",
                                             title=f"{label}: reliability")
                section["figures"].append({"path": context.relative(figure),
                                           "caption": f"{label}: accuracy against confidence, equal-mass bins"})
            if label not in section["models"]:
                continue  # a control: compared and calibrated, nothing else
            audit = _determinism(context.out, label)
            if audit is not None:
                shared["determinism"][label] = audit
            elif getattr(inputs, "determinism_check", 0):
                shared["determinism_not_run"].append(label)
            entry = section["models"][label]
            if entry.get("status") == "done":  # the page's numbers: recomputed on every run from the records
                entry["results"] = {"questions": len(mine), "probes": len(table)}
                entry["reading"] = reading(label, mine, table, shared.get("compare"), audit)
                entry["commands"] = [f"bin/probe_compare {shlex.quote(str(context.out / 'items'))}"]
                entry["data"] = {str(path): sha256_file(path)
                                 for path in sorted((context.out / "items" / slug(label)).glob("*.jsonl"))}
                section["data"].update(entry["data"])
        if shared.get("compare"):
            section["commands"].append(f"bin/probe_compare {shlex.quote(str(context.out / 'items'))}")
        section["shared"] = shared

    def tables(self, section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        shared = section.get("shared") or {}
        tables = []
        compare = shared.get("compare")
        notes = ["Each model's answer is its primary prompt's (the column's). docs/compare.md: what each number means "
                 "and when to trust it."]
        if compare and compare.get("comparisons"):
            columns = [column(h, "label") for h in ("A", "B", "probe", "cell")] + [
                column("n", "control"), column("A − B", "model", "accuracy difference in points, 95% paired cluster "
                                                                 "bootstrap interval"),
                column("A only / B only", "label", "questions one model gets right and the other wrong"),
                column("p", "control", "McNemar's exact test"), column("p Holm", "control", "Holm-adjusted over the page"),
                column("p BH", "control", "Benjamini-Hochberg-adjusted over the page"),
                column("MDD", "control", "minimum detectable difference (points; alpha 0.05, power 0.8)"),
                column("n for 5 pts", "control", "questions needed to detect 5 points")]
            rows = []
            for c in compare["comparisons"]:
                difference = points_cell(100 * c["difference"])
                difference["text"] += f" [{100 * c['ci_low']:+.1f}, {100 * c['ci_high']:+.1f}]"
                rows.append([text_cell(c["model_a"]), text_cell(c["model_b"]), text_cell(f"{c['section']}/{c['probe']}"),
                             text_cell(c["cell"]), count_cell(c["questions"]), difference,
                             text_cell(f"{c['a_only']} / {c['b_only']}"), text_cell(f"{c['p_mcnemar']:.3g}"),
                             text_cell(f"{c['p_holm']:.3g}"), text_cell(f"{c['p_bh']:.3g}"),
                             text_cell("–" if c["mdd"] is None else f"{100 * c['mdd']:.1f}"),
                             count_cell(c["questions_for_5_points"])])
            tables.append(make_table("Paired comparison of the models (the same questions)", columns, rows, notes))
        else:
            tables.append(make_table("Paired comparison of the models", [column("", "label")],
                                     [[text_cell("needs item records of two or more models on the same questions")]]))
        rows = [[text_cell(label), text_cell(probe), text_cell(prompt), count_cell(v["questions"]),
                 percent_cell(v["accuracy"]), percent_cell(v["confidence"]), text_cell(f"{v['ece']:.3f}"),
                 text_cell(f"{v['brier']:.3f}")]
                for label, table in (shared.get("calibration") or {}).items() for probe, found in table.items()
                for prompt, v in calibration_rows(found)]
        if rows:
            tables.append(make_table("Calibration of the choice probabilities", [
                column("model", "label"), column("probe", "label"),
                column("prompt", "label", "the model's own prompt; where PriDe was run (every rotation of the lettered "
                                          "prompt), the lettered prompt before and after the letter prior is removed"),
                column("n", "control"),
                column("accuracy", "model"), column("confidence", "model", "mean probability of the chosen choice"),
                column("ECE", "model", "expected calibration error, 10 equal-mass bins"),
                column("Brier", "model", "multi-class Brier score")], rows))
        audits = {label: a for label, a in (shared.get("determinism") or {}).items() if a.get("questions")}
        not_run = shared.get("determinism_not_run") or []
        if audits or not_run:
            rows = [[text_cell(label), count_cell(a["questions"]), text_cell(f"{a['max_score_difference']:.3g}"),
                     count_cell(a["changed_answers"])] for label, a in audits.items()]
            rows += [[text_cell(label), text_cell("not run"), text_cell("–"), text_cell("–")] for label in not_run]
            tables.append(make_table("Determinism audit (questions re-scored at batch size 1)", [
                column("model", "label"), column("questions", "control"),
                column("largest score difference", "model"), column("changed answers", "model")], rows,
                ["not run: none of the model's questions was re-scored (the audit re-scores what the archives and "
                 "causal LMs score; a masked LM's scorers are not audited)"] if not_run else []))
        return tables
