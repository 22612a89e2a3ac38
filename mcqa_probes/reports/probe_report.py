"""Probe report from a predictions file: instance accuracy, strict cluster accuracy and its Δ
(TACL paper Table 8), and accuracy by ISA hops k × distractor family@depth k' (Figure 3) as a
markdown table, JSON and a heat-map PNG."""
import json
from pathlib import Path
from typing import Dict, List, Optional

from mcqa_probes.metrics.probe_records import (
    ProbeRecord, breakdown, cluster_accuracy, instance_accuracy, read_prediction_records,
)
from mcqa_probes.reports.atomic import write_text, write_with

FAMILY_ORDER = ["random", "sister", "hypernym", "hyponym", "up", "down"]


def _column_order(column: str):
    family, _, depth = column.partition("@")
    rank = FAMILY_ORDER.index(family) if family in FAMILY_ORDER else len(FAMILY_ORDER)
    return rank, family, int(depth) if depth.isdigit() else -1


def summarize(records: List[ProbeRecord]) -> Dict:
    instance = instance_accuracy(records)
    cluster = cluster_accuracy(records)
    table = breakdown(records)
    columns = sorted({c for row in table.values() for c in row}, key=_column_order)
    rows = sorted(table, key=int)
    return {
        "questions": len(records),
        "clusters": len({r.cluster if r.cluster is not None else f"__{r.id}" for r in records}),
        "instance_accuracy": instance,
        "cluster_accuracy": cluster,
        "cluster_delta": 100.0 * (cluster - instance),
        "breakdown": {"rows": rows, "columns": columns,
                      "cells": {h: {c: {"correct": v[0], "total": v[1], "accuracy": v[0] / v[1]}
                                    for c, v in table[h].items()} for h in rows}},
    }


def markdown(summary: Dict, title: str = "Probe report") -> str:
    lines = [f"# {title}", "",
             "| questions | clusters | instance accuracy | strict cluster accuracy | Δ (points) |",
             "|---:|---:|---:|---:|---:|",
             f"| {summary['questions']} | {summary['clusters']} | {100 * summary['instance_accuracy']:.1f} | "
             f"{100 * summary['cluster_accuracy']:.1f} | {summary['cluster_delta']:+.1f} |", ""]
    grid = summary["breakdown"]
    if grid["rows"]:
        lines += ["## Accuracy by ISA hops k (rows) × distractor family@depth k' (columns)", "",
                  "Each cell: accuracy % (questions).", "",
                  "| hops | " + " | ".join(grid["columns"]) + " |",
                  "|---:|" + "---:|" * len(grid["columns"])]
        for row in grid["rows"]:
            cells = []
            for column in grid["columns"]:
                cell = grid["cells"][row].get(column)
                cells.append("" if cell is None else f"{100 * cell['accuracy']:.1f} ({cell['total']})")
            lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def heatmap(summary: Dict, path: Path, title: str = "Accuracy by hops × distractor") -> Optional[Path]:
    grid = summary["breakdown"]
    if not grid["rows"]:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy

    values = numpy.full((len(grid["rows"]), len(grid["columns"])), numpy.nan)
    for i, row in enumerate(grid["rows"]):
        for j, column in enumerate(grid["columns"]):
            cell = grid["cells"][row].get(column)
            if cell is not None:
                values[i, j] = 100 * cell["accuracy"]
    figure, axis = plt.subplots(figsize=(1.2 + 0.9 * len(grid["columns"]), 1.2 + 0.6 * len(grid["rows"])))
    image = axis.imshow(numpy.ma.masked_invalid(values), cmap="viridis", vmin=0, vmax=100, aspect="auto")
    axis.set_xticks(range(len(grid["columns"])), grid["columns"], rotation=45, ha="right")
    axis.set_yticks(range(len(grid["rows"])), grid["rows"])
    axis.set_xlabel("distractor family @ depth k'")
    axis.set_ylabel("ISA hops k")
    axis.set_title(title)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            if not numpy.isnan(values[i, j]):
                total = grid["cells"][grid["rows"][i]][grid["columns"][j]]["total"]
                axis.text(j, i, f"{values[i, j]:.0f}\n({total})", ha="center", va="center",
                          color="white" if values[i, j] < 60 else "black", fontsize=7)
    figure.colorbar(image, ax=axis, label="accuracy %")
    figure.tight_layout()
    write_with(path, lambda target: figure.savefig(target, dpi=120, format="png"))
    plt.close(figure)
    return path


def probe_report(predictions: str, out: str, cluster_field: Optional[str] = None, title: Optional[str] = None) -> Dict:
    records = list(read_prediction_records(predictions, cluster_field))
    if not records:
        raise ValueError(f"{predictions}: no predictions")
    summary = summarize(records)
    out_dir = Path(out)
    title = title or f"Probe report: {Path(predictions).name}"
    write_text(out_dir / "report.json", json.dumps(summary, indent=2, sort_keys=True) + "\n")
    write_text(out_dir / "report.md", markdown(summary, title))
    summary["heatmap"] = str(heatmap(summary, out_dir / "breakdown_heatmap.png") or "")
    return summary
