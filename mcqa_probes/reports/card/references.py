"""The papers' own numbers that the report card prints next to a model's numbers (plain Python).

The rows live in ``references.json`` next to this module (package data). Each row is one number
from one table of one paper, exactly as printed (percent, or a count for the ``n_*`` metrics):

    {"paper": "olmpics2020", "table": "Table 2", "section": "olmpics_zero_shot",
     "probe": "number_comparison_age_compare_masked", "model": "RoBERTa-large",
     "setting": "MC-MLM, zero-shot", "metric": "zero_shot", "value": 98,
     "label": "RoBERTa-L", "probe_name": "Age comparison (AGE-COMPARE)"}

``model`` is the model's name in the paper's text, ``label`` the row label printed in the table,
``probe`` the project's probe id (a WordNetQA/DictionaryQA probe name, the released oLMpics file
stem, ``winoventi`` or ``commonsenseqa``) and ``note`` says anything a reader of the number should
know (an unclear cell, a number quoted in the text rather than a table, ...).

* :func:`load_references` -- the whole document, validated (a broken row is a ``ValueError``
  naming its index and the problem); the packaged file is read once;
* :func:`reference_rows` -- the rows of one section, optionally of one probe / metric / model;
* :func:`paper_citation` / :func:`row_citation` -- ``"Talmor et al. 2020, Table 2"``.
"""
import copy
import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

REFERENCES_FILE = Path(__file__).with_name("references.json")

SECTIONS = ("wordnetqa", "olmpics_zero_shot", "olmpics_curve", "olmpics_mcqa", "winoventi", "commonsenseqa")
METRICS = frozenset({
    "accuracy", "cluster_accuracy", "cluster_delta", "zero_shot", "ws", "max",
    "generic_all", "exception_all", "generic_individual", "exception_individual", "n_individual",
    "generic_intersection", "exception_intersection", "n_intersection", "sanity_accuracy",
})
REQUIRED_KEYS = ("paper", "table", "section", "probe", "model", "setting", "metric", "value")
OPTIONAL_KEYS = ("label", "probe_name", "note")
PAPER_KEYS = ("title", "authors", "year")

#: the oLMpics probe ids of :data:`mcqa_probes.experiments.olmpics.suite.PROBES` -> released file stem
#: (the rows use the stem; :func:`reference_rows` accepts either)
OLMPICS_PROBE_STEMS = {
    "always_never": "coffee_cats_quantifiers",
    "age_comparison": "number_comparison_age_compare_masked",
    "objects_comparison": "size_comparison",
    "antonym_negation": "antonym_synonym_negation",
    "property_conjunction": "conjunction_filt4",
    "taxonomy_conjunction": "hypernym_conjunction",
    "encyclopedic_composition": "composition_v2",
    "multihop_composition": "compositional_comparison",
}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _nonempty_string(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


def _row_problem(row: Any, papers: Dict[str, Any]) -> Optional[str]:
    """What is wrong with one row, or None."""
    if not isinstance(row, dict):
        return f"not an object but {type(row).__name__}"
    missing = [key for key in REQUIRED_KEYS if key not in row]
    if missing:
        return "missing key(s) " + ", ".join(repr(key) for key in missing)
    unknown = sorted(set(row) - set(REQUIRED_KEYS) - set(OPTIONAL_KEYS))
    if unknown:
        return "unknown key(s) " + ", ".join(repr(key) for key in unknown)
    for key in REQUIRED_KEYS[:-1] + tuple(k for k in OPTIONAL_KEYS if k in row):
        if not _nonempty_string(row[key]):
            return f"{key!r} must be a non-empty string, got {row[key]!r}"
    if row["paper"] not in papers:
        return f"unknown paper {row['paper']!r} (papers: {', '.join(sorted(papers))})"
    if row["section"] not in SECTIONS:
        return f"unknown section {row['section']!r} (sections: {', '.join(SECTIONS)})"
    if row["metric"] not in METRICS:
        return f"unknown metric {row['metric']!r} (metrics: {', '.join(sorted(METRICS))})"
    if not _is_number(row["value"]):
        return f"'value' must be a number, got {row['value']!r}"
    return None


def validate_references(document: Any, source: str = "references") -> Dict[str, Any]:
    """``document`` itself when it is a well-formed references document, else a ``ValueError``
    naming ``source``, the row index and the problem."""
    if not isinstance(document, dict):
        raise ValueError(f"{source}: the top level must be an object with 'papers' and 'rows'")
    papers, rows = document.get("papers"), document.get("rows")
    if not isinstance(papers, dict) or not papers:
        raise ValueError(f"{source}: 'papers' must be a non-empty object")
    for key, paper in papers.items():
        if not isinstance(paper, dict) or any(field not in paper for field in PAPER_KEYS):
            raise ValueError(f"{source}: paper {key!r} needs {', '.join(PAPER_KEYS)}")
    if not isinstance(rows, list):
        raise ValueError(f"{source}: 'rows' must be a list")
    seen: Dict[tuple, int] = {}
    for index, row in enumerate(rows):
        problem = _row_problem(row, papers)
        if problem is None:
            identity = tuple(row[key] for key in REQUIRED_KEYS[:-1])
            if identity in seen:
                problem = f"duplicates row {seen[identity]} (same paper, table, section, probe, model, setting, metric)"
            seen.setdefault(identity, index)
        if problem is not None:
            raise ValueError(f"{source}: row {index}: {problem}")
    return document


def _read(path: Path) -> Dict[str, Any]:
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON: {error}") from None
    return validate_references(document, str(path))


@lru_cache(maxsize=1)
def _packaged() -> Dict[str, Any]:
    return _read(REFERENCES_FILE)


def load_references(path: Optional[Union[str, Path]] = None) -> Dict[str, Any]:
    """The validated references document (``papers``, ``notes``, ``rows``): the packaged
    ``references.json``, read once, or ``path`` (read every time). A copy: callers may change it."""
    document = _packaged() if path is None else _read(Path(path))
    return copy.deepcopy(document)


def reference_rows(section: str, probe: Optional[str] = None, metric: Optional[str] = None, *,
                   model: Optional[str] = None, references: Optional[Dict[str, Any]] = None) -> List[Dict[str, Any]]:
    """The rows of ``section`` in file order, optionally only those of ``probe`` (for oLMpics the
    file stem or the suite's probe id), ``metric`` and ``model`` (case-insensitive). ``references``:
    a document from :func:`load_references` (default: the packaged one)."""
    if section not in SECTIONS:
        raise ValueError(f"unknown section {section!r} (sections: {', '.join(SECTIONS)})")
    if metric is not None and metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r} (metrics: {', '.join(sorted(METRICS))})")
    if probe is not None:
        probe = OLMPICS_PROBE_STEMS.get(probe, probe)
    rows = (references if references is not None else _packaged())["rows"]
    return [dict(row) for row in rows
            if row["section"] == section
            and (probe is None or row["probe"] == probe)
            and (metric is None or row["metric"] == metric)
            and (model is None or row["model"].lower() == model.lower())]


def paper_citation(paper_key: str, table: Optional[str] = None, *,
                   references: Optional[Dict[str, Any]] = None) -> str:
    """``"Talmor et al. 2020"``, or with ``table`` ``"Talmor et al. 2020, Table 2"``."""
    papers = (references if references is not None else _packaged())["papers"]
    if paper_key not in papers:
        raise ValueError(f"unknown paper {paper_key!r} (papers: {', '.join(sorted(papers))})")
    paper = papers[paper_key]
    short = paper.get("short") or f"{paper['authors']} {paper['year']}"
    return f"{short}, {table}" if table else short


def row_citation(row: Dict[str, Any], *, references: Optional[Dict[str, Any]] = None) -> str:
    """The citation of one reference row: its paper and table."""
    return paper_citation(row["paper"], row["table"], references=references)
