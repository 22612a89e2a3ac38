"""The table formatters of the package (plain Python): every markdown table and every fixed-width
console table is rendered here, so drivers only choose columns and format cell values.

* :func:`markdown_table` -- a GitHub-flavoured markdown table (``| a | b |``, ``|---|---:|``),
  with optional :class:`Section` rows (``| **title** | | |``) between groups of rows;
* :func:`text_row` / :func:`text_table` -- fixed-width console tables: each cell padded to its
  column width (``<`` left, ``>`` right, ``^`` centred, as in ``format``), columns joined by a gap;
* :func:`format_number` -- the one cell formatter for numbers: a missing value (``None`` or NaN)
  prints as :data:`MISSING`.
"""
import math
from dataclasses import dataclass
from typing import Any, Iterable, List, Optional, Sequence, Union

#: What a table shows for a number that does not exist (None or NaN).
MISSING = "-"

#: markdown separator per alignment: "l"/"" (plain ``---``, the renderer's default), "r", "c"
_MARKDOWN_RULES = {"": "---", "l": "---", "r": "---:", "c": ":---:"}


@dataclass(frozen=True)
class Section:
    """A bold group-title row of a markdown table (the other cells left empty)."""
    title: str


def is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def format_number(value: Any, digits: int = 1, scale: float = 1.0, missing: str = MISSING) -> str:
    """``value * scale`` with ``digits`` decimals; ``missing`` for None or NaN."""
    return missing if is_missing(value) else f"{value * scale:.{digits}f}"


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def markdown_table(header: Sequence[Any], rows: Iterable[Union[Sequence[Any], Section]],
                   align: Union[str, Sequence[str]] = "") -> str:
    """Lines of a markdown table, joined with newlines (no final newline).

    ``align``: one letter per column (``"lrr"``) or one for all (``"r"``); ``l``/empty gives
    ``---``, ``r`` gives ``---:``, ``c`` gives ``:---:``. ``None`` cells print empty."""
    header = [_cell(h) for h in header]
    aligns = [align] * len(header) if isinstance(align, str) and len(align) <= 1 else list(align)
    if len(aligns) != len(header):
        raise ValueError(f"markdown_table: {len(header)} columns but alignment {align!r}")
    lines = ["| " + " | ".join(header) + " |", "|" + "".join(_MARKDOWN_RULES[a] + "|" for a in aligns)]
    for row in rows:
        if isinstance(row, Section):
            lines.append(f"| **{row.title}** |" + " |" * (len(header) - 1))
        else:
            lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    return "\n".join(lines)


def text_row(cells: Sequence[Any], widths: Sequence[int], align: Union[str, Sequence[str]] = "<",
             gaps: Union[str, Sequence[str]] = " ") -> str:
    """One fixed-width line: ``cells[i]`` padded to ``widths[i]`` (never cut), aligned ``align[i]``
    (``<``, ``>`` or ``^``; one character for all columns), ``gaps[i]`` between columns i and i+1."""
    count = len(cells)
    aligns = [align] * count if isinstance(align, str) and len(align) == 1 else list(align)
    between = [gaps] * (count - 1) if isinstance(gaps, str) else list(gaps)
    if len(widths) != count or len(aligns) != count or len(between) != max(count - 1, 0):
        raise ValueError("text_row: cells, widths, alignments and gaps do not match")
    parts: List[str] = []
    for index, (cell, width, how) in enumerate(zip(cells, widths, aligns)):
        if index:
            parts.append(between[index - 1])
        parts.append(f"{_cell(cell):{how}{width}}")
    return "".join(parts)


def text_table(rows: Iterable[Sequence[Any]], widths: Sequence[int], align: Union[str, Sequence[str]] = "<",
               gaps: Union[str, Sequence[str]] = " ", header: Optional[Sequence[Sequence[Any]]] = None,
               rule: Optional[str] = None) -> str:
    """A fixed-width table (no final newline): the ``header`` lines (same columns as the rows),
    then a rule of ``rule`` characters as wide as the last header line (if ``rule``), then the rows."""
    lines = [text_row(line, widths, align, gaps) for line in (header or [])]
    if rule and lines:
        lines.append(rule * len(lines[-1]))
    lines += [text_row(row, widths, align, gaps) for row in rows]
    return "\n".join(lines)
