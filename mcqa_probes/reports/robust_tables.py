"""The tables of robust knowledge across prompts (plain Python), for the report card and ``bin/prompt_sweep``.

From :func:`mcqa_probes.metrics.robust_knowledge.robust_by_group` results (one per model, section and
probe) and per-model agreement matrices, as :mod:`mcqa_probes.reports.card.tables` dicts (the card
renders them; :func:`markdown` writes them for ``sweep.md``):

* :func:`known_table` -- a row per (model, probe): the questions, each prompt's accuracy, the share
  known under every prompt and the share of clusters whose every question is known;
* :func:`circular_table` -- a row per (model, probe, n rotations): right under at least k of n;
* :func:`agreement_table` -- one model's agreement matrix between prompts.
"""
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from mcqa_probes.metrics.robust_knowledge import ordered_prompts
from mcqa_probes.reports.card.tables import (Table, column, count_cell, make_table, percent_cell, table_text,
                                             text_cell)
from mcqa_probes.reports.tables import markdown_table

GroupKey = Tuple[str, str, str]

KNOWN_NOTE = ("Accuracy % of each prompt over the questions asked that way; 'every prompt': the share of the "
              "questions right under every prompt that was run on them (the controls and cloze/mean left out; the "
              "prompts are named under the table), over the questions asked under all of them; 'clusters': the share "
              "of semantic clusters whose every question is known under every prompt.")
CIRCULAR_NOTE = ("OpenCompass's CircularEval: the lettered prompt asked under every cyclic rotation of the choices; "
                 "'≥ k': the share of questions right under at least k of the n rotations (n of n: circular "
                 "accuracy).")
AGREEMENT_NOTE = ("The share % of the questions asked under both prompts that the two answer the same (the same "
                  "choice, right or wrong), over every probe of the page.")


def probe_label(key: GroupKey) -> str:
    model, section, probe = key
    return f"{section}/{probe}"


def known_table(groups: Mapping[GroupKey, Dict[str, Any]], title: str = "Known under every prompt") -> Optional[Table]:
    """A row per group: model, probe, N, each prompt's accuracy, every prompt, clusters. None without groups."""
    if not groups:
        return None
    prompts = ordered_prompts(p for result in groups.values() for p in result["prompts"])
    columns = [column("model", "label"), column("probe", "label"), column("N", "control"),
               *[column(p, "control") for p in prompts],
               column("every prompt", "model", tooltip="right under every prompt that was run (controls and "
                                                       "cloze/mean left out)"),
               column("clusters", "model", tooltip="clusters whose every question is known under every prompt")]
    rows = []
    robust_sets = []
    for key, result in groups.items():
        rows.append([text_cell(key[0]), text_cell(probe_label(key)), count_cell(result["questions"]),
                     *[percent_cell(result["accuracy"].get(p)) for p in prompts],
                     percent_cell(result["robust_accuracy"]), percent_cell(result["robust_cluster_accuracy"])])
        if result["robust_prompts"] not in robust_sets:
            robust_sets.append(result["robust_prompts"])
    notes = [KNOWN_NOTE] + ["Every prompt = " + ", ".join(s) + "." for s in robust_sets]
    return make_table(title, columns, rows, notes)


def circular_table(groups: Mapping[GroupKey, Dict[str, Any]],
                   title: str = "At least k of n rotations (CircularEval)") -> Optional[Table]:
    """A row per (group, n): questions, right under at least k = 1 .. n rotations. None without rotations."""
    entries = [(key, n, entry) for key, result in groups.items() for n, entry in result["circular"].items()]
    if not entries:
        return None
    widest = max(len(entry["at_least"]) for _, _, entry in entries)
    columns = [column("model", "label"), column("probe", "label"), column("rotations", "label"),
               column("N", "control"), *[column(f"≥ {k}", "model") for k in range(1, widest + 1)]]
    rows = []
    for key, n, entry in entries:
        shares = [entry["at_least"].get(str(k)) for k in range(1, widest + 1)]
        rows.append([text_cell(key[0]), text_cell(probe_label(key)), text_cell(n), count_cell(entry["questions"]),
                     *[percent_cell(share) for share in shares]])
    return make_table(title, columns, rows, [CIRCULAR_NOTE])


def agreement_table(model: str, agreement: Dict[str, Any]) -> Optional[Table]:
    """One model's agreement matrix (:func:`mcqa_probes.metrics.robust_knowledge.agreement_matrix`)."""
    prompts = agreement["prompts"]
    if len(prompts) < 2:
        return None
    columns = [column("", "label"), *[column(p, "model") for p in prompts]]
    rows = [[text_cell(first), *[percent_cell(share) for share in agreement["matrix"][i]]]
            for i, first in enumerate(prompts)]
    return make_table(f"Agreement between prompts: {model}", columns, rows, [AGREEMENT_NOTE])


def markdown(tables: Sequence[Optional[Table]]) -> str:
    """The tables as markdown (a ``###`` heading each, then the table and its notes)."""
    parts: List[str] = []
    for table in tables:
        if table is None:
            continue
        header, *rows = table_text(table)
        align = "".join("l" if c["kind"] == "label" else "r" for c in table["columns"])
        parts.append(f"### {table['title']}\n\n{markdown_table(header, rows, align=align)}\n\n"
                     + "".join(f"{note}\n" for note in table["notes"]))
    return "\n".join(parts)
