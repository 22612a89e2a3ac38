"""The tables of a report card as data (plain Python): what ``report.json`` holds and both templates
render.

A table is a dict::

    {"title": "Instance and strict cluster accuracy",
     "columns": [{"header": "", "kind": "label"},
                 {"header": "minilm_synonymy", "kind": "model", "model": "minilm_synonymy"},
                 {"header": "Choice-Only-GloVe (control)", "kind": "control", "mark": "¹", "tooltip": "..."},
                 {"header": "RoBERTa-large (paper)", "kind": "reference", "mark": "²", "tooltip": "..."}],
     "rows": [[{"text": "hypernymy: accuracy %"},
               {"text": "48.6 [44.1, 53.0]", "value": 48.6, "low": 44.1, "high": 53.0, "ci": "[44.1, 53.0]"},
               {"text": "31.4", "value": 31.4}, {"text": "87.7", "value": 87.7}]],
     "notes": ["..."],
     "footnotes": [{"mark": "¹", "text": "..."}, {"mark": "²", "text": "Richardson & Sabharwal 2020, Table 7: ..."}]}

``kind`` says what a column is (``label``: the row labels; ``model``: a model of the page;
``control``: a control or chance number computed or read here; ``reference``: a paper's number), so
no renderer guesses it from the header. A header stays short (the model's name); the paper, table
and setting of a reference column are its footnote (numbered marks, ``mark``) and its tooltip.
A cell's ``text`` is what is shown; ``value`` / ``low`` / ``high`` are the number and its 95%
interval in the unit shown (percent for accuracies), and ``ci`` the interval part of ``text``.

* cells: :func:`text_cell`, :func:`percent_cell` (a fraction, with its interval), :func:`number_cell`
  (a number already in percent), :func:`points_cell`, :func:`count_cell`, :func:`paper_cell`;
* :func:`make_table` -- columns, rows and notes into a table, numbering the footnotes;
* :func:`model_columns`, :func:`grid_table` -- a row per quantity, a column per model that ran;
* :func:`reference_columns` -- one compact column per (paper, model) of a section's reference rows;
* :func:`best_reference` -- the paper's best model on a probe (the summary's last column);
* :func:`summary_table` -- the table at the top of the page: a row per probe;
* :func:`table_text` -- a table as the rows of texts a reader sees (header marks included).
"""
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from mcqa_probes.reports.card.references import paper_citation, reference_rows
from mcqa_probes.reports.tables import format_number, is_missing

DASH = "–"
UNTRAINED_MARK = "†"
SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
#: reference rows that are not models (never "the paper's best model")
NOT_MODELS = frozenset({"human", "random", "majority vote", "(all models)"})

Cell = Dict[str, Any]
Column = Dict[str, Any]
Table = Dict[str, Any]


# ---------------------------------------------------------------------------- cells
def text_cell(text: Any = "", tooltip: Optional[str] = None) -> Cell:
    cell: Cell = {"text": "" if text is None else str(text)}
    if tooltip:
        cell["tooltip"] = tooltip
    return cell


def number_cell(value: Any, interval: Optional[Sequence[float]] = None, digits: int = 1) -> Cell:
    """A number already in the unit shown (percent), with its interval ``[low, high]`` (same unit)."""
    if is_missing(value):
        return {"text": DASH}
    cell: Cell = {"text": format_number(value, digits), "value": float(value)}
    if interval is not None and not any(is_missing(v) for v in interval):
        low, high = float(interval[0]), float(interval[1])
        cell["ci"] = f"[{format_number(low, digits)}, {format_number(high, digits)}]"
        cell.update(low=low, high=high, text=f"{cell['text']} {cell['ci']}")
    return cell


def percent_cell(fraction: Any, interval: Optional[Sequence[float]] = None) -> Cell:
    """A fraction shown as a percentage with one decimal (``0.4862`` -> ``48.6``), and its interval
    (fractions) as ``48.6 [44.1, 53.0]``."""
    if is_missing(fraction):
        return {"text": DASH}
    scaled = None if interval is None else [None if is_missing(v) else 100.0 * v for v in interval]
    return number_cell(100.0 * fraction, scaled)


def points_cell(value: Any) -> Cell:
    """A signed difference in points (``-25.93`` -> ``-25.9``)."""
    return {"text": DASH} if is_missing(value) else {"text": f"{value:+.1f}", "value": float(value)}


def count_cell(value: Any) -> Cell:
    return {"text": DASH} if is_missing(value) else {"text": f"{int(value):d}", "value": int(value)}


def paper_cell(value: Any, metric: str) -> Cell:
    """A reference number as printed in the paper (percent, or a count for ``n_*``)."""
    if is_missing(value):
        return {"text": DASH}
    return count_cell(value) if metric.startswith("n_") else number_cell(value)


def interval_of(result: Dict[str, Any], key: str) -> Optional[Sequence[float]]:
    """The interval a section stored for ``result[key]`` (``result["intervals"][key]``), if any."""
    intervals = result.get("intervals") if isinstance(result, dict) else None
    return (intervals or {}).get(key)


# ---------------------------------------------------------------------------- tables
def superscript(number: int) -> str:
    return str(number).translate(SUPERSCRIPTS)


def column(header: str, kind: str, footnote: Optional[str] = None, tooltip: Optional[str] = None, **extra: Any) -> Column:
    """A column: ``header`` (short), ``kind`` (label / model / control / reference), the ``footnote``
    that says what it is (numbered by :func:`make_table`) and its ``tooltip`` (default: the footnote)."""
    result: Column = {"header": header, "kind": kind, **extra}
    if footnote:
        result["footnote"] = footnote
    if tooltip or footnote:
        result["tooltip"] = tooltip or footnote
    return result


def make_table(title: str, columns: Sequence[Column], rows: Iterable[Sequence[Cell]], notes: Sequence[str] = (),
               footnotes: Sequence[str] = ()) -> Table:
    """A table: numbers the columns' footnotes (``mark`` ¹, ², ... in column order, one mark per
    distinct text) and appends ``footnotes`` (texts marked in cells already, in order)."""
    marks: Dict[str, str] = {}
    shown: List[Dict[str, str]] = []

    def mark_of(text: str) -> str:
        if text not in marks:
            marks[text] = superscript(len(marks) + 1)
            shown.append({"mark": marks[text], "text": text})
        return marks[text]

    laid_out = []
    for spec in columns:
        spec = dict(spec)
        note = spec.pop("footnote", None)
        spec["mark"] = mark_of(note) if note else ""
        laid_out.append(spec)
    for text in footnotes:
        mark_of(text)
    rows = [list(row) for row in rows]
    for row in rows:
        if len(row) != len(laid_out):
            raise ValueError(f"table {title!r}: a row of {len(row)} cells for {len(laid_out)} columns")
    return {"title": title, "columns": laid_out, "rows": rows, "notes": list(notes), "footnotes": shown}


def footnote_mark(table: Table, text: str) -> str:
    """The mark of footnote ``text`` in ``table`` (for a cell that refers to it)."""
    return next(f["mark"] for f in table["footnotes"] if f["text"] == text)


def table_text(table: Table) -> List[List[str]]:
    """The table as a reader sees it: the header (with the footnote marks), then each row's texts."""
    return [[c["header"] + c.get("mark", "") for c in table["columns"]],
            *[[cell["text"] for cell in row] for row in table["rows"]]]


def model_header(model: Dict[str, Any]) -> str:
    """A model column's header: its label, with † when its masked-LM head is untrained, and a causal
    LM's normalisation (``smollm2 · sum``): every number in its column is scored that way."""
    head = model.get("masked_lm_head")
    return (model["label"] + (f" {UNTRAINED_MARK}" if head is not None and not head.get("trained") else "")
            + (f" · {model['score']}" if model.get("score") else ""))


def model_columns(models: Sequence[Dict[str, Any]]) -> List[Column]:
    columns = []
    for model in models:
        head = model.get("masked_lm_head")
        untrained = head is not None and not head.get("trained")
        columns.append(column(model_header(model), "model", model=model["label"],
                              tooltip=f"{model['label']}: {model['location']}"
                              + (" († masked-LM head untrained: random weights)" if untrained else "")
                              + (f" (causal LM, zero-shot; score {model['score']})" if model.get("score") else "")))
    return columns


def ran_models(section: Dict[str, Any], models: Sequence[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The page's models for which ``section`` ran."""
    return [m for m in models if section["models"].get(m["label"], {}).get("status") == "done"]


#: (row label, cell of a model's results, (probe, metric or tuple of metrics) of the reference rows)
RowSpec = Tuple[str, Callable[[Dict[str, Any]], Cell], Optional[Tuple[str, Any]]]


def grid_table(title: str, row_specs: Sequence[RowSpec], section: Dict[str, Any], models: Sequence[Dict[str, Any]],
               extra: Sequence[Tuple[Column, Callable[[str], Cell]]] = (),
               references: Sequence[Dict[str, Any]] = (), notes: Sequence[str] = ()) -> Optional[Table]:
    """One table: a row per ``row_specs`` (label, cell of a model's results, (probe, metric) of the
    reference rows), a column per model that ran the section, the ``extra`` columns (column, cell per
    row label: controls, chance), then the ``references`` (:func:`reference_columns`) that have a
    number in some row. None when no model ran the section."""
    ran = ran_models(section, models)
    if not ran:
        return None
    references = [ref for ref in references if any(_reference_value(ref, spec[2]) for spec in row_specs)]
    columns = [column("", "label"), *model_columns(ran), *[spec for spec, _ in extra], *[r["column"] for r in references]]
    rows = []
    for label, cell, reference in row_specs:
        line = [text_cell(label)]
        line += [cell(section["models"][m["label"]]["results"]) for m in ran]
        line += [value(label) for _, value in extra]
        for ref in references:
            found = _reference_value(ref, reference)
            line.append(paper_cell(found[1], found[0]) if found else text_cell())
        rows.append(line)
    return make_table(title, columns, rows, notes)


def _reference_value(reference: Dict[str, Any], key: Optional[Tuple[str, Any]]) -> Optional[Tuple[str, Any]]:
    """(metric, value) of a reference column for a row's (probe, metric); the metric may be a tuple
    of alternatives, the first one the column has wins (a baseline row's ``accuracy``)."""
    if key is None:
        return None
    probe, metrics = key
    for metric in (metrics if isinstance(metrics, tuple) else (metrics,)):
        if (probe, metric) in reference["values"]:
            return metric, reference["values"][(probe, metric)]
    return None


# ---------------------------------------------------------------------------- references
def _tables_phrase(tables: Sequence[str]) -> str:
    if len(tables) == 1:
        return tables[0]
    if all(t.startswith("Table ") for t in tables):
        return "Tables " + ", ".join(t.replace("Table ", "") for t in tables)
    return "; ".join(tables)


def reference_columns(section: str, probes: Optional[Sequence[str]] = None,
                      keep: Callable[[Dict[str, Any]], bool] = lambda row: True) -> List[Dict[str, Any]]:
    """One column per (paper, model) of ``section``'s reference rows kept by ``keep`` (and of
    ``probes``), in the file's order: ``{"column": ..., "values": {(probe, metric): value}}``. The
    header is ``"<model> (paper)"``; the footnote and tooltip give the paper, the table(s) and the
    setting(s). Where two settings of one model report the same (probe, metric), the first one is
    shown and the footnote gives the other's number."""
    groups: Dict[Tuple[str, str], Dict[str, Any]] = {}
    for row in reference_rows(section):
        if (probes is not None and row["probe"] not in probes) or not keep(row):
            continue
        group = groups.setdefault((row["paper"], row["model"]), {"values": {}, "settings": {}, "others": []})
        key = (row["probe"], row["metric"])
        setting = row.get("setting") or ""
        if key in group["values"]:
            group["others"].append(f"{setting}: {row['value']:g}" + (f" ({row['probe']})" if probes is None or len(probes) > 1 else ""))
            continue
        group["values"][key] = row["value"]
        tables = group["settings"].setdefault(setting, [])
        if row["table"] not in tables:
            tables.append(row["table"])
    result = []
    for (paper, model), group in groups.items():
        settings = list(group["settings"].items())
        if len(settings) == 1:
            setting, tables = settings[0]
            text = f"{paper_citation(paper)}, {_tables_phrase(tables)}: {model}" + (f", {setting}" if setting else "")
        else:
            text = f"{paper_citation(paper)}: {model}; " + "; ".join(
                f"{_tables_phrase(tables)}: {setting}" if setting else _tables_phrase(tables) for setting, tables in settings)
        if group["others"]:
            text += "; not shown: " + "; ".join(group["others"])
        result.append({"column": column(f"{model} (paper)", "reference", footnote=text + ".", paper=paper, model=model),
                       "values": group["values"]})
    return result


def reference_tables(section: str, probe: str) -> List[str]:
    """The tables of the paper that report ``probe`` in ``section``."""
    return list(dict.fromkeys(row["table"] for row in reference_rows(section, probe)))


def best_reference(section: str, probe: str, metric: str,
                   where: Callable[[Dict[str, Any]], bool] = lambda row: True) -> Optional[Dict[str, Any]]:
    """The reference row of the paper's best model on (``probe``, ``metric``) among the rows ``where``
    keeps (humans, random and majority baselines are not models); None when there is none."""
    rows = [r for r in reference_rows(section, probe, metric) if r["model"].lower() not in NOT_MODELS and where(r)]
    return max(rows, key=lambda r: r["value"]) if rows else None


def reference_citation(row: Dict[str, Any]) -> str:
    """``"Richardson & Sabharwal 2020, Table 7: RoBERTa-large, inoculated (...) (test)"``."""
    setting = row.get("setting") or ""
    return f"{paper_citation(row['paper'], row['table'])}: {row['model']}" + (f", {setting}" if setting else "")


# ---------------------------------------------------------------------------- summary
def summary_row(probe: str, cells: Dict[str, Cell], control: Optional[Cell] = None, chance: Optional[Cell] = None,
                best: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """One probe of the summary: ``cells`` per model label, the ``control`` (text naming it), the
    ``chance`` level and the ``best`` reference row (:func:`best_reference`)."""
    return {"probe": probe, "cells": cells, "control": control, "chance": chance, "best": best}


def summary_table(rows: Sequence[Dict[str, Any]], models: Sequence[Dict[str, Any]], notes: Sequence[str] = ()) -> Table:
    """The summary at the top of the page: per probe, each model's number (with its interval), the
    control, chance and the paper's best model (footnoted with its paper, table and setting)."""
    shown = [m for m in models if any(m["label"] in row["cells"] for row in rows)]
    citations = list(dict.fromkeys(reference_citation(row["best"]) for row in rows if row["best"]))
    columns = [column("probe", "label"), *model_columns(shown),
               column("control", "control", tooltip="a control computed or read for this page (named in the cell)"),
               column("chance", "control", tooltip="mean 1/K over the questions scored"),
               column("best in paper", "reference", tooltip="the paper's best model on this probe (footnotes)")]
    table = make_table("Summary", columns, [], notes, footnotes=citations)
    for row in rows:
        line = [text_cell(row["probe"])]
        line += [row["cells"].get(m["label"], text_cell(DASH)) for m in shown]
        line.append(row["control"] or text_cell(DASH))
        line.append(row["chance"] or text_cell(DASH))
        best = row["best"]
        if best:
            cite = reference_citation(best)
            cell = number_cell(best["value"])
            cell.update(text=f"{cell['text']} {best['model']}{footnote_mark(table, cite)}", tooltip=cite)
            line.append(cell)
        else:
            line.append(text_cell(DASH))
        table["rows"].append(line)
    return table
