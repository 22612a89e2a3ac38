"""Probe report from a predictions file: instance accuracy, strict cluster accuracy and its Δ
(TACL paper Table 8), each with its 95% interval from a bootstrap over semantic clusters, and
accuracy by ISA hops k × distractor family@depth k' (Figure 3) as a markdown table, JSON and a
heat-map PNG."""
from pathlib import Path
from typing import Dict, List, Optional

from mcqa_probes.metrics.probe_records import ProbeRecord, breakdown, cluster_tally, read_prediction_records
from mcqa_probes.common.io import write_json, write_text
from mcqa_probes.reports.figures import breakdown_heatmap
from mcqa_probes.reports.tables import markdown_table

FAMILY_ORDER = ["random", "sister", "hypernym", "hyponym", "up", "down"]


def _column_order(column: str):
    family, _, depth = column.partition("@")
    rank = FAMILY_ORDER.index(family) if family in FAMILY_ORDER else len(FAMILY_ORDER)
    return rank, family, int(depth) if depth.isdigit() else -1


def summarize(records: List[ProbeRecord]) -> Dict:
    tally = cluster_tally(records)  # the same counting as the allennlp cluster_accuracy metric
    table = breakdown(records)
    columns = sorted({c for row in table.values() for c in row}, key=_column_order)
    rows = sorted(table, key=int)
    return {
        "questions": len(records),
        "clusters": tally.clusters,  # a question without a cluster key is its own cluster
        "instance_accuracy": tally.instance_accuracy,
        "cluster_accuracy": tally.cluster_accuracy,
        "cluster_delta": tally.cluster_delta,
        # the same intervals as allennlp evaluate's *_ci_low / *_ci_high metrics
        "intervals": tally.intervals(),
        "breakdown": {"rows": rows, "columns": columns,
                      "cells": {h: {c: {"correct": v[0], "total": v[1], "accuracy": v[0] / v[1]}
                                    for c, v in table[h].items()} for h in rows}},
    }


def with_interval(value: float, low: float, high: float) -> str:
    """A percentage with its interval: ``48.6 [44.1, 53.0]``."""
    return f"{100 * value:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def markdown(summary: Dict, title: str = "Probe report") -> str:
    intervals = summary["intervals"]
    lines = [f"# {title}", "",
             markdown_table(["questions", "clusters", "instance accuracy [95% CI]", "strict cluster accuracy [95% CI]",
                             "Δ (points)"],
                            [[summary["questions"], summary["clusters"],
                              with_interval(summary["instance_accuracy"], intervals["accuracy_low"], intervals["accuracy_high"]),
                              with_interval(summary["cluster_accuracy"], intervals["cluster_accuracy_low"],
                                            intervals["cluster_accuracy_high"]),
                              f"{summary['cluster_delta']:+.1f}"]],
                            align="r"), "",
             "95% intervals: percentile bootstrap over semantic clusters (1,000 resamples; the questions of a "
             "cluster are not independent).", ""]
    grid = summary["breakdown"]
    if grid["rows"]:
        rows = []
        for row in grid["rows"]:
            cells = []
            for column in grid["columns"]:
                cell = grid["cells"][row].get(column)
                cells.append("" if cell is None else f"{100 * cell['accuracy']:.1f} ({cell['total']})")
            rows.append([row] + cells)
        lines += ["## Accuracy by ISA hops k (rows) × distractor family@depth k' (columns)", "",
                  "Each cell: accuracy % (questions).", "",
                  markdown_table(["hops"] + grid["columns"], rows, align="r")]
    return "\n".join(lines) + "\n"


def heatmap(summary: Dict, path: Path, title: str = "Accuracy by hops × distractor") -> Optional[Path]:
    return breakdown_heatmap(summary["breakdown"], path, title)


def probe_report(predictions: str, out: str, cluster_field: Optional[str] = None, title: Optional[str] = None) -> Dict:
    records = list(read_prediction_records(predictions, cluster_field))
    if not records:
        raise ValueError(f"{predictions}: no predictions")
    summary = summarize(records)
    out_dir = Path(out)
    title = title or f"Probe report: {Path(predictions).name}"
    write_json(out_dir / "report.json", summary, indent=2, sort_keys=True)
    write_text(out_dir / "report.md", markdown(summary, title))
    summary["heatmap"] = str(heatmap(summary, out_dir / "breakdown_heatmap.png") or "")
    return summary
