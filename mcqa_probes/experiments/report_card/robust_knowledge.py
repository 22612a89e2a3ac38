"""The card's section "Robust knowledge across prompts": what a causal LM knows however it is asked.

Computed from the item records the other sections wrote (``<out>/items/<model>/<section>.jsonl``,
:mod:`mcqa_probes.metrics.item_records`) by :mod:`mcqa_probes.metrics.robust_knowledge`: per model
and probe each prompt's accuracy beside the share of questions known under every prompt (cloze sum,
chars, PMI and every rotation of the lettered prompt, where run) and of clusters whose every
question is, the "at least k of n rotations" accuracy (CircularEval) and, per model, the agreement
matrix between prompts. It runs for causal LMs with item records (an archive or a masked LM answers
under one prompt, so "every prompt" would be its accuracy) and comes last on the page (``order`` 90),
after the sections that write the records. The numbers are recomputed from the records on every run of the
card (in :meth:`RobustKnowledgeSection.shared`: reading records is cheap), so they always match the
records next to the page.
"""
import shlex
from pathlib import Path
from typing import Any, Dict, List

from mcqa_probes.common.io import sha256_file
from mcqa_probes.experiments.report_card.inputs import absent, done
from mcqa_probes.experiments.report_card.models import slug
from mcqa_probes.experiments.report_card.section import ReportSection
from mcqa_probes.metrics.item_records import read_item_records
from mcqa_probes.metrics.robust_knowledge import agreement_matrix, asked_prompts, robust_by_group
from mcqa_probes.reports.robust_tables import agreement_table, circular_table, known_table


def model_records(out: Path, label: str) -> List[Dict[str, Any]]:
    """The item records the card kept for ``label`` (every section, in file-name order)."""
    folder = Path(out) / "items" / slug(label)
    records: List[Dict[str, Any]] = []
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        records += read_item_records(path)
    return records


def reading(label: str, groups: Dict[tuple, Dict[str, Any]]) -> str:
    """One line: per probe, the primary prompt's accuracy and the share known under every prompt."""
    parts = []
    for (_, section, probe), result in groups.items():
        if result["robust_accuracy"] is None:
            continue
        primary = result.get("primary")
        single = result["accuracy"].get(primary) if primary else None
        parts.append(f"{probe} {100 * result['robust_accuracy']:.1f}%"
                     + (f" (vs {100 * single:.1f}% under {primary})" if single is not None else ""))
    if not parts:
        return f"no item records of {label} under several prompts"
    return f"{label} is right under every prompt on " + ", ".join(parts)


@ReportSection.register("robust_knowledge")
class RobustKnowledgeSection(ReportSection, title="Robust knowledge across prompts", order=90):

    def why_absent(self, model, inputs):
        if model.is_causal:
            return None
        kind = "a masked LM" if model.kind == "masked_lm" else "a multiple-choice QA archive"
        return (f"{model.label} is {kind}: it answers each question under one prompt, so known under every prompt "
                "is its accuracy (the item browser shows its answers)")

    def key_parts(self, model, inputs):
        return {}  # the numbers are recomputed from the records by shared() on every run

    def run(self, model, inputs, context):
        folder = Path(context.out) / "items" / slug(model.label)
        records = model_records(context.out, model.label)
        if not records:
            return absent(f"no item records of {model.label} in {folder}")
        groups = robust_by_group(records, per_item=False)
        data = {str(path): sha256_file(path) for path in sorted(folder.glob("*.jsonl"))}
        return done({"groups": len(groups), "records": len(records)}, reading(model.label, groups),
                    [f"bin/item_browser {shlex.quote(str(folder))} --out {shlex.quote(str(Path(context.out) / 'items.html'))}"],
                    data)

    def shared(self, section, inputs, context):
        groups_out, agreements = [], {}
        for label, entry in section["models"].items():
            if entry.get("status") != "done":
                continue
            records = model_records(context.out, label)
            groups = robust_by_group(records, per_item=False)
            for key, result in groups.items():
                members = [r for r in records if (r["model"], r["section"], r["probe"]) == key]
                result["primary"] = members[0]["primary"] if members else None
                groups_out.append({"key": list(key), **result})
            prompts = asked_prompts(p for r in records for p in r["correct"])
            agreements[label] = agreement_matrix(records, prompts)
            entry.pop("reused", None)  # recomputed from the records on every run
            entry["results"] = {"groups": len(groups), "records": len(records)}
            entry["reading"] = reading(label, groups)
            section["data"].update(entry.get("data") or {})
        section["shared"] = {"groups": groups_out, "agreement": agreements}

    def tables(self, section, models):
        shared = section.get("shared") or {}
        groups = {tuple(g["key"]): g for g in shared.get("groups", [])}
        tables = [known_table(groups), circular_table(groups)]
        tables += [agreement_table(label, matrix) for label, matrix in shared.get("agreement", {}).items()]
        return [t for t in tables if t is not None]
