"""``report.html`` and ``report.md`` of a report card: two Jinja2 templates over report.json (plain Python).

The report (the object written to ``report.json``: summary, sections with their tables, commands,
versions, data sha256) is the single source; ``templates/report.html.j2`` and
``templates/report.md.j2`` (package data) lay the same content out as a self-contained page and as
markdown. The tables are :mod:`.tables` dicts: each cell's ``text`` is shown as is, column ``kind``
picks the style (model / control / reference), ``mark`` and ``footnotes`` the numbered notes and
``tooltip`` the ``title`` attribute. Figures are embedded as data URIs read from the page's
directory.
"""
import base64
import functools
from pathlib import Path
from typing import Any, Dict

TEMPLATES = Path(__file__).with_name("templates")


@functools.lru_cache(maxsize=2)
def environment(kind: str):
    """The Jinja2 environment of ``html`` (autoescaped) or ``md`` templates."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=kind == "html",
                             trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.filters["md_cell"] = md_cell
    env.filters["main_text"] = main_text
    env.filters["column_text"] = column_text
    env.filters["model_kind"] = model_kind
    return env


#: how the page names each kind of model (report.json's ``models[].kind``)
MODEL_KINDS = {"mcqa": "multiple-choice QA archive", "masked_lm": "masked LM", "causal_lm": "causal LM"}


def model_kind(model: Dict[str, Any]) -> str:
    """A model's kind as the page says it (a causal LM with the score its accuracies are under)."""
    text = MODEL_KINDS.get(model.get("kind"), str(model.get("kind")))
    if model.get("kind") == "causal_lm" and model.get("score"):
        text += f", zero-shot, score {model['score']}"
    return text


def md_cell(text: Any) -> str:
    """A markdown table cell: pipes escaped, no line breaks."""
    return " ".join(str(text).split()).replace("|", "\\|")


def main_text(cell: Dict[str, Any]) -> str:
    """A cell's text without its interval (the html page sets the interval apart)."""
    text, ci = cell["text"], cell.get("ci")
    return text[: len(text) - len(ci)].rstrip() if ci and text.endswith(ci) else text


def column_text(column: Dict[str, Any]) -> str:
    """A column's header as shown: the header and its footnote mark."""
    return column["header"] + column.get("mark", "")


def data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")


def render_markdown(report: Dict[str, Any]) -> str:
    return environment("md").get_template("report.md.j2").render(report=report)


def render_html(report: Dict[str, Any], out_dir: Path) -> str:
    """One self-contained page: every figure embedded as a data URI (read from ``out_dir``)."""
    figures = [figure["path"] for section in report["sections"] for figure in section.get("figures", [])]
    images = {path: data_uri(Path(out_dir) / path) for path in figures}
    return environment("html").get_template("report.html.j2").render(report=report, images=images)
