"""Tables, ``report.html`` and ``report.md`` of a report card (plain Python).

A report (the object written to ``report.json``) holds per section and per model the numbers of
the commands it summarizes; :func:`section_tables` lays them out with a column per model and the
papers' reference rows as further columns (each headed with its paper and table), and every cell
is one of those numbers through :func:`percent` / :func:`points` / :func:`count`. The tables go
into ``report.json`` too, so the page, the markdown and the JSON show the same cells.
"""
import base64
import html
import math
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from mcqa_probes.reports.card.references import paper_citation, reference_rows
from mcqa_probes.reports.tables import markdown_table

DASH = "–"
#: which reference rows each section shows (the issue's list: RoBERTa-large, BERT-large, ESIM, the
#: baselines, humans), so a table stays readable; every row is in references.json
def _wordnetqa_reference(row: Dict[str, Any]) -> bool:
    model, setting, table = row["model"], row.get("setting") or "", row["table"]
    if table == "Table 8":  # strict cluster accuracy and Δ (dev) of the inoculated transformers
        return model in ("RoBERTa-large", "BERT-large") and "inoculated" in setting
    return setting.endswith("(test)") and (
        (model in ("RoBERTa-large", "BERT-large", "ESIM-GloVe") and "inoculated" in setting)
        or model in ("Choice-Only-GloVe", "Human"))


REFERENCE_FILTERS: Dict[str, Callable[[Dict[str, Any]], bool]] = {
    "wordnetqa": _wordnetqa_reference,
    "olmpics_zero_shot": lambda r: r["model"] in ("RoBERTa-large", "BERT-large", "Random", "Majority vote"),
    "olmpics_mcqa": lambda r: r["model"] in ("RoBERTa-large", "BERT-large", "ESIM-Baseline", "Random"),
    "olmpics_curve": lambda r: r["model"] in ("RoBERTa-large", "BERT-large"),
    "winoventi": lambda r: r["model"] in ("RoBERTa-large", "BERT-large", "Human"),
    "commonsenseqa": lambda r: r["model"] in ("BERT-large", "Human", "Random"),
}
UNTRAINED_MARK = "†"


# ---------------------------------------------------------------------------- cells
def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def percent(fraction: Any) -> str:
    """A fraction as a percentage with one decimal (``0.4862`` -> ``48.6``)."""
    return DASH if _missing(fraction) else f"{100 * fraction:.1f}"


def points(value: Any) -> str:
    """A signed difference in points (``-25.93`` -> ``-25.9``)."""
    return DASH if _missing(value) else f"{value:+.1f}"


def count(value: Any) -> str:
    return DASH if _missing(value) else f"{int(value):d}"


def paper_value(value: Any, metric: str) -> str:
    """A reference number as printed in the paper (percent, or a count for ``n_*``)."""
    if _missing(value):
        return DASH
    return f"{int(value):d}" if metric.startswith("n_") else f"{value:.1f}"


# ---------------------------------------------------------------------------- references
def reference_columns(section: str, probes: Optional[Sequence[str]] = None) -> List[Tuple[str, Dict[Tuple[str, str], Any]]]:
    """(header, {(probe, metric): value}) per (paper, model, setting) of ``section``'s reference rows
    kept by :data:`REFERENCE_FILTERS`, in the file's order; the header names the paper and tables."""
    columns: Dict[Tuple, Dict[Tuple[str, str], Any]] = {}
    tables: Dict[Tuple, List[str]] = {}
    keep = REFERENCE_FILTERS.get(section, lambda row: True)
    for row in reference_rows(section):
        if (probes is not None and row["probe"] not in probes) or not keep(row):
            continue
        key = (row["paper"], row["model"], row.get("setting") or "")
        columns.setdefault(key, {})[(row["probe"], row["metric"])] = row["value"]
        if row["table"] not in tables.setdefault(key, []):
            tables[key].append(row["table"])
    result = []
    for (paper, model, setting), values in columns.items():
        cited = tables[(paper, model, setting)]
        where = cited[0] if len(cited) == 1 else ("Tables " + ", ".join(t.replace("Table ", "") for t in cited)
                                                    if all(t.startswith("Table ") for t in cited) else "; ".join(cited))
        header = f"{model}" + (f", {setting}" if setting else "") + f" [{paper_citation(paper)}, {where}]"
        result.append((header, values))
    return result


def reference_tables(section: str, probe: str) -> List[str]:
    """The tables of the paper that report ``probe`` in ``section`` (for row labels)."""
    return list(dict.fromkeys(row["table"] for row in reference_rows(section, probe)))


# ---------------------------------------------------------------------------- tables
def _model_header(model: Dict[str, Any]) -> str:
    head = model.get("masked_lm_head")
    return model["label"] + (f" {UNTRAINED_MARK}" if head is not None and not head.get("trained") else "")


def _grid(title: str, row_specs: List[Tuple[str, Callable[[Dict], str], Optional[Tuple[str, str]]]],
          section: Dict[str, Any], models: List[Dict[str, Any]], extra: Sequence[Tuple[str, Callable[[str], str]]] = (),
          references: Sequence[Tuple[str, Dict]] = (), notes: Sequence[str] = ()) -> Optional[Dict[str, Any]]:
    """One table: a row per ``row_specs`` (label, cell of a model's results, (probe, metric) of the
    reference rows), a column per model that ran the section, ``extra`` columns (header, cell per
    row label), then the reference columns."""
    ran = [m for m in models if section["models"].get(m["label"], {}).get("status") == "done"]
    if not ran:
        return None
    header = ["", *[_model_header(m) for m in ran], *[h for h, _ in extra], *[h for h, _ in references]]
    rows = []
    for label, cell, reference in row_specs:
        line = [label]
        for model in ran:
            line.append(cell(section["models"][model["label"]]["results"]))
        line += [value(label) for _, value in extra]
        for _, values in references:
            line.append(paper_value(values.get(reference), reference[1]) if reference and reference in values else "")
        rows.append(line)
    return {"title": title, "header": header, "rows": rows, "notes": list(notes)}


def _results_get(*path: str):
    def cell(results: Dict[str, Any]) -> Any:
        value: Any = results
        for part in path:
            if not isinstance(value, dict) or part not in value:
                return None
            value = value[part]
        return value
    return cell


def _wordnetqa_tables(section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    probes = [p for p in section.get("probes", [])]
    control = section.get("shared", {}).get("choice_only", {})
    specs = []
    control_cells: Dict[str, str] = {}
    for probe in probes:
        rows = [(f"{probe}: accuracy %", lambda r, p=probe: percent(_results_get(p, "instance_accuracy")(r)), (probe, "accuracy")),
                (f"{probe}: strict cluster accuracy %", lambda r, p=probe: percent(_results_get(p, "cluster_accuracy")(r)),
                 (probe, "cluster_accuracy")),
                (f"{probe}: Δ (points)", lambda r, p=probe: points(_results_get(p, "cluster_delta")(r)), (probe, "cluster_delta")),
                (f"{probe}: questions", lambda r, p=probe: count(_results_get(p, "questions")(r)), None)]
        specs += rows
        if probe in control:
            control_cells[rows[0][0]] = percent(control[probe]["test"])
    extra = [("Choice-Only-GloVe (control, test)", lambda label: control_cells.get(label, ""))] if control else []
    notes = ["Accuracy and strict cluster accuracy in %; Δ = cluster − instance accuracy in points (TACL Table 8). "
             "Reference columns: the paper's numbers on its own probe files (ours are rebuilt from WordNet 3.0 / GCIDE)."]
    if control:
        notes.append("Choice-Only-GloVe never sees the question: far above chance means the choices give the answer away. "
                     + "; ".join(f"{p}: trained on {c.get('train_questions')} questions ({'from ' + c['source'] if c['source'] != 'computed' else 'computed here'})"
                                 for p, c in control.items()))
    table = _grid("Instance and strict cluster accuracy", specs, section, models, extra,
                  reference_columns("wordnetqa", probes), notes)
    tables = [table] if table else []
    for sweep in section.get("shared", {}).get("inoculation", []):
        rows = [[count(r.get("k")), f"{r.get('lr')}", count(r.get("seed")) if r.get("seed") is not None else "",
                 percent(r.get("probe_dev_accuracy")), percent(r.get("orig_accuracy_before")),
                 percent(r.get("orig_accuracy_after")), points(r.get("inoculation_cost"))] for r in sweep["best"]]
        tables.append({"title": f"Inoculation: {sweep['name']} (best run per dosage k)",
                       "header": ["k", "lr", "seed", "probe dev %", "original before %", "original after %",
                                  "inoculation cost (points)"],
                       "rows": rows, "notes": [f"from {sweep['table']} (bin/inoculate)"]})
    return tables


def _olmpics_tables(section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    tables = []
    for setup, title, metric, section_name in (("mc_mlm", "MC-MLM probes: zero-shot accuracy %", "zero_shot", "olmpics_zero_shot"),
                                               ("mc_qa", "MC-QA probes: accuracy % of the archive (not trained on the probe)", "max", "olmpics_mcqa")):
        probes: Dict[str, str] = {}
        chance: Dict[str, float] = {}
        stems: Dict[str, str] = {}  # probe id -> released file stem (the reference rows use the stem)
        for entry in section["models"].values():
            for probe, result in (entry.get("results") or {}).items():
                if result.get("setup") == setup:
                    probes.setdefault(probe, result["title"])
                    chance.setdefault(probe, result["chance"])
                    stems.setdefault(probe, Path(result["file"]).name.rsplit("_dev.jsonl", 1)[0])
        if not probes:
            continue
        ran = [m for m in models if any(r.get("setup") == setup for r in
                                        (section["models"].get(m["label"], {}).get("results") or {}).values())]
        labels = {}
        for p in probes:
            cited = reference_tables(section_name, stems[p])
            labels[p] = f"{probes[p]} ({stems[p]})" + (f" [{', '.join(cited)}]" if cited else "")
        specs = [(labels[p], lambda r, p=p: percent(_results_get(p, "accuracy")(r)), (p, metric)) for p in probes]
        sub = dict(section, models={m["label"]: section["models"][m["label"]] for m in ran})
        references = [(h, {(p, m): v for p in probes for (s, m), v in values.items() if s == stems[p]})
                      for h, values in reference_columns(section_name, None)]
        references = [(h, v) for h, v in references if v]
        notes = ["Chance = mean 1/K over the questions scored."]
        if setup == "mc_qa":
            notes.append("Reference columns: the paper's MAX of the MC-QA learning curve (the model fine-tuned on the "
                         "probe's training set): an upper reference, not a like-for-like number.")
        if setup == "mc_mlm":
            notes.append("Questions whose choices are several word pieces for the model are skipped (as in the paper); "
                         "counts in report.json.")
        by_label = {labels[p]: percent(chance[p]) for p in probes}
        table = _grid(title, specs, sub, ran, [("chance %", lambda label: by_label[label])], references, notes)
        if table:
            tables.append(table)
    curves = section.get("shared", {}).get("learning_curves", [])
    if curves:
        rows = [[c["title"], c["model"], c["curve"], percent(c.get("zero_shot")), percent(c.get("WS")), percent(c.get("MAX"))]
                for c in curves]
        tables.append({"title": "Learning curves (WS / MAX)", "header": ["probe", "model", "curve", "zero-shot %", "WS %", "MAX %"],
                       "rows": rows, "notes": [f"from {curves[0]['source']}"]})
    return tables


def _winoventi_tables(section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    specs = []
    for subset, name in (("all", "All"), ("individual", "Individual"), ("intersection", "Intersection")):
        specs += [(f"{name}: generic %", lambda r, s=subset: _num(_results_get(s, "generic")(r)), ("winoventi", f"generic_{subset}")),
                  (f"{name}: exception %", lambda r, s=subset: _num(_results_get(s, "exception")(r)), ("winoventi", f"exception_{subset}")),
                  (f"{name}: N pairs", lambda r, s=subset: count(_results_get(s, "n")(r)), ("winoventi", f"n_{subset}"))]
    table = _grid("Generic / exception accuracy (Table 6 layout)", specs, section, models, (),
                  reference_columns("winoventi"), ["A prompt is right when P(target) > P(incorrect) at the [MASK]; N = pairs."])
    return [table] if table else []


def _num(value: Any) -> str:
    """A value already in percent, one decimal."""
    return DASH if _missing(value) else f"{value:.1f}"


def _csqa_tables(section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    specs = [("accuracy %", lambda r: percent(r.get("accuracy")), ("commonsenseqa", "accuracy")),
             ("SANITY accuracy %", lambda r: percent(r.get("sanity_accuracy")), ("commonsenseqa", "sanity_accuracy")),
             ("questions", lambda r: count(r.get("count")), None)]
    table = _grid("CommonsenseQA dev", specs, section, models, (), reference_columns("commonsenseqa"),
                  ["SANITY: every distractor replaced by a random answer of another question (§5)."])
    return [table] if table else []


TABLE_BUILDERS = {"wordnetqa": _wordnetqa_tables, "olmpics": _olmpics_tables, "winoventi": _winoventi_tables,
                  "commonsenseqa": _csqa_tables}


def section_tables(section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    return TABLE_BUILDERS[section["id"]](section, models)


# ---------------------------------------------------------------------------- markdown
def render_markdown(report: Dict[str, Any]) -> str:
    lines = [f"# {report['title']}", "", f"Created {report['created']} by `{report['command']}`.", ""]
    lines += _model_lines(report, markdown=True)
    for section in report["sections"]:
        lines += [f"## {section['title']}", ""]
        for label, entry in section["models"].items():
            if entry["status"] == "done":
                lines += [f"- **{label}**: {entry['reading']}" + (" *(reused)*" if entry.get("reused") else "")]
            else:
                lines += [f"- **{label}**: not run: {entry['reason']}"]
        lines.append("")
        for table in section["tables"]:
            lines += [f"### {table['title']}", "", markdown_table(table["header"], table["rows"]), ""]
            lines += [f"*{note}*" for note in table["notes"]] + [""]
        for figure in section.get("figures", []):
            lines += [f"![{figure['caption']}]({figure['path']})", ""]
    lines += ["## Commands", "", "```bash", *report["commands"], "```", "", "## Versions", ""]
    lines += [markdown_table(["package", "version"], sorted(report["versions"].items())), "", "## Data files", ""]
    lines += [markdown_table(["file", "sha256"], sorted(report["data"].items())), ""]
    return "\n".join(lines)


def _model_lines(report: Dict[str, Any], markdown: bool) -> List[str]:
    lines = []
    for model in report["models"]:
        kind = "multiple-choice QA archive" if model["kind"] == "mcqa" else "masked LM"
        text = f"{model['label']}: {kind} `{model['location']}`"
        head = model.get("masked_lm_head")
        if head is not None and not head.get("trained"):
            text += (f" {UNTRAINED_MARK} its masked-LM head is untrained ({head['missing_count']} weights initialised at random): "
                     "its zero-shot and WinoVenti numbers are those of random weights")
        lines.append(("- " if markdown else "") + text)
    return lines + [""]


# ---------------------------------------------------------------------------- html
STYLE = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.7em;margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0;font-size:.9em}th,td{border:1px solid #ccc;padding:.25em .6em}
th{background:#f3f3f3}tbody th{white-space:nowrap;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}td.ref{color:#555;background:#fafafa}
p.reading{background:#eef6ee;border-left:4px solid #4a4;padding:.4em .8em}p.absent{color:#777;font-style:italic}
p.note{font-size:.85em;color:#555;margin:.2em 0}pre{background:#f6f6f6;padding:.8em;overflow-x:auto;font-size:.85em}
figure{display:inline-block;margin:.5em}figcaption{font-size:.8em;color:#555;text-align:center}
.meta{color:#555;font-size:.9em}.reused{color:#888;font-size:.8em}
"""


def _image(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f"data:image/png;base64,{data}"


def _html_table(table: Dict[str, Any], model_columns: int) -> str:
    esc = html.escape
    head = "".join(f"<th>{esc(h)}</th>" for h in table["header"])
    body = []
    for row in table["rows"]:
        cells = [f"<th>{esc(row[0])}</th>" if table["header"][0] == "" else f"<td>{esc(row[0])}</td>"]
        for index, cell in enumerate(row[1:], start=1):
            classes = ["num"] if cell and (cell[0].isdigit() or cell[0] in "+-–") else []
            if table["header"][0] == "" and index > model_columns:
                classes.append("ref")
            cells.append(f"<td class=\"{' '.join(classes)}\">{esc(cell)}</td>" if classes else f"<td>{esc(cell)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    notes = "".join(f"<p class=\"note\">{esc(n)}</p>" for n in table["notes"])
    return f"<h3>{esc(table['title'])}</h3><table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{notes}"


def render_html(report: Dict[str, Any], out_dir: Path) -> str:
    """One self-contained page: every figure embedded as a data URI (read from ``out_dir``)."""
    esc = html.escape
    parts = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
             f"<title>{esc(report['title'])}</title><style>{STYLE}</style></head><body>",
             f"<h1>{esc(report['title'])}</h1>",
             f"<p class=\"meta\">Created {esc(report['created'])} on {esc(report['device'])}; "
             f"mcqa_probes {esc(report['versions'].get('mcqa_probes', ''))}.</p><ul>"]
    parts += [f"<li>{esc(line)}</li>" for line in _model_lines(report, markdown=False) if line]
    parts.append("</ul>")
    for section in report["sections"]:
        parts.append(f"<h2 id=\"{esc(section['id'])}\">{esc(section['title'])}</h2>")
        for label, entry in section["models"].items():
            if entry["status"] == "done":
                reused = " <span class=\"reused\">(reused from an earlier run)</span>" if entry.get("reused") else ""
                parts.append(f"<p class=\"reading\"><b>{esc(label)}</b>: {esc(entry['reading'])}{reused}</p>")
                for note in entry.get("notes", []):
                    parts.append(f"<p class=\"note\">{esc(note)}</p>")
            else:
                parts.append(f"<p class=\"absent\"><b>{esc(label)}</b>: not run: {esc(entry['reason'])}</p>")
        for note in section.get("notes", []):
            parts.append(f"<p class=\"note\">{esc(note)}</p>")
        for table in section["tables"]:
            model_columns = sum(1 for h in table["header"][1:] if "[" not in h)
            parts.append(_html_table(table, model_columns))
        for figure in section.get("figures", []):
            parts.append(f"<figure><img src=\"{_image(out_dir / figure['path'])}\" alt=\"{esc(figure['caption'])}\">"
                         f"<figcaption>{esc(figure['caption'])}</figcaption></figure>")
    parts.append("<h2 id=\"commands\">Commands</h2><p class=\"note\">This page, and the commands whose numbers it "
                 "shows (run from the same directory):</p>")
    parts.append("<pre>" + esc("\n".join(report["commands"])) + "</pre>")
    parts.append("<h2 id=\"versions\">Versions</h2><table><tbody>"
                 + "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in sorted(report["versions"].items()))
                 + "</tbody></table>")
    parts.append("<h2 id=\"data\">Data files</h2><table><thead><tr><th>file</th><th>sha256</th></tr></thead><tbody>"
                 + "".join(f"<tr><td>{esc(k)}</td><td><code>{esc(v)}</code></td></tr>" for k, v in sorted(report["data"].items()))
                 + "</tbody></table></body></html>")
    return "\n".join(parts)
