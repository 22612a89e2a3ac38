"""All 8 oLMpics probes for one model, and the per-probe tables in the paper's layout.

MC-MLM probes (Tables 2, 3, 5, 7, 9, 10 layout)::

    Model      Zero-shot | MLP_MLM WS  MAX | LINEAR WS  MAX | LANGSENSE pert  nolang

MC-QA probes (Tables 8, 11 layout)::

    Model      LEARNCURVE WS  MAX | LANGSENSE pert  nolang

Per model: zero-shot (MC-MLM only, ``bin/zero_shot`` logic), the MLP_MLM learning curve with
both language controls, the LINEAR curve; MC-QA probes: the fine-tuned ``transformer_mcqa``
curve with both controls. The ``Baseline`` row: MLM-BASELINE (MC-MLM) or ESIM-GloVe (MC-QA)
learning curves; on MC-MLM probes also its zero-shot column, as in the paper's tables: the
untrained baseline (random FF_MLM, so about chance) scored on dev, mean over the seeds
(:mod:`mcqa_probes.experiments.olmpics.baseline_zero_shot`). MC-QA tables have no zero-shot column.
Every curve is a resumable :func:`run_learning_curve` under ``out/<probe>/``;
the numbers go to ``out/suite.json`` (rows of several models accumulate) and the tables are
rendered from it (``--render-only``).
"""
import json
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence

from mcqa_probes.metrics.learning_curve import PAPER_SIZES
from mcqa_probes.common.configs import CONFIG_DIR
from mcqa_probes.common.environment import environment
from mcqa_probes.common.io import write_json
from mcqa_probes.reports.tables import format_number, text_row, text_table
from mcqa_probes.experiments.olmpics.learning_curves import run_learning_curve
from mcqa_probes.common.device import resolve_cuda_device
from mcqa_probes.experiments.olmpics.zero_shot import zero_shot_evaluate
from mcqa_probes.experiments.olmpics.baseline_zero_shot import untrained_accuracy
from mcqa_probes.experiments.grid import GridFailed, GridReport

CONFIGS = CONFIG_DIR

#: (probe, title, file prefix, setup, K) in the paper's order.
PROBES = [
    ("always_never", "ALWAYS-NEVER", "coffee_cats_quantifiers", "mc_mlm", 5),
    ("age_comparison", "AGE COMPARISON", "number_comparison_age_compare_masked", "mc_mlm", 2),
    ("objects_comparison", "OBJECTS COMPARISON", "size_comparison", "mc_mlm", 2),
    ("antonym_negation", "ANTONYM NEGATION", "antonym_synonym_negation", "mc_mlm", 2),
    ("property_conjunction", "PROPERTY CONJUNCTION", "conjunction_filt4", "mc_qa", 3),
    ("taxonomy_conjunction", "TAXONOMY CONJUNCTION", "hypernym_conjunction", "mc_mlm", 3),
    ("encyclopedic_composition", "ENCYC. COMPOSITION", "composition_v2", "mc_qa", 3),
    ("multihop_composition", "MULTI-HOP COMPOSITION", "compositional_comparison", "mc_mlm", 3),
]
BASELINE = "Baseline"


def _percent(value: Optional[float]) -> str:
    return format_number(value, digits=0, scale=100)


def render_tables(results: Dict[str, Dict[str, Dict[str, Any]]], probes: Optional[Iterable[str]] = None) -> str:
    """The per-probe tables; missing numbers print as '-'."""
    wanted = set(probes) if probes else None
    blocks: List[str] = []
    for probe, title, _prefix, setup, k in PROBES:
        if wanted is not None and probe not in wanted:
            continue
        rows = results.get(probe, {})
        names = [n for n in rows if n != BASELINE] + ([BASELINE] if BASELINE in rows else [])
        width = max([10] + [len(n) for n in names])
        chance = f"random is {100 / k:.0f}%"
        if setup == "mc_mlm":
            widths, gaps = [width, 5, 5, 5, 5, 5, 5, 6], ["  ", " | ", " ", " | ", " ", " | ", " "]
            spans = text_row(["Model", "Zero", "MLP_MLM", "LINEAR", "LANGSENSE"], [width, 5, 11, 11, 12], "<>^^^",
                             ["  ", " | ", " | ", " | "])
            header = ["", "shot", "WS", "MAX", "WS", "MAX", "pert", "nolang"]
        else:
            widths, gaps = [width, 5, 5, 5, 6], ["  ", " ", " | ", " "]
            spans = text_row(["Model", "LEARNCURVE", "LANGSENSE"], [width, 11, 12], "<^^", ["  ", " | "])
            header = ["", "WS", "MAX", "pert", "nolang"]
        table = []
        for name in names or ["(no results)"]:
            row = rows.get(name, {})
            curve = row.get("mlp" if setup == "mc_mlm" else "curve", {}) or {}
            sense = row.get("langsense", {}) or {}
            if setup == "mc_mlm":
                linear = row.get("linear", {}) or {}
                numbers = [row.get("zero_shot"), curve.get("WS"), curve.get("MAX"), linear.get("WS"), linear.get("MAX")]
            else:
                numbers = [curve.get("WS"), curve.get("MAX")]
            numbers += [sense.get("perturbed"), sense.get("nolang")]
            table.append([name] + [_percent(n) for n in numbers])
        lines = [f"{title} ({'MC-MLM' if setup == 'mc_mlm' else 'MC-QA'}, K={k}, {chance})", spans,
                 text_table(table, widths, "<" + ">" * (len(widths) - 1), gaps, header=[header])]
        short = sorted({size for name in names for part in ("mlp", "linear", "curve")
                        for size in ((rows.get(name, {}).get(part) or {}).get("missing_sizes") or [])})
        if short:
            lines.append(f"(training file smaller than N = {', '.join(map(str, short))}: those points were not run, "
                         "WS / MAX over the sizes run; not comparable to the paper)")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _curve(config: Path, train: Path, dev: Path, out: Path, controls: Sequence[str], probe: str, failures=None,
           **options):
    """The curve's (full summary, language sensitivity); with a ``failures`` list, a variant with failed
    runs is left out (shown as '-': the whole curve when the full variant failed, else only that
    control's language sensitivity) and the grid report goes to the list."""

    try:
        summary = run_learning_curve(str(config), str(train), str(dev), out, controls=controls, probe=probe, **options)
    except GridFailed as failure:
        if failures is None:
            raise
        failures.append(failure.report)
        failed = {outcome.id.split("/")[0] for outcome in failure.report.failed}
        written = Path(out) / "summary.json"  # the finished runs' outputs, written before the failure
        if "full" in failed or not written.is_file():
            return None, {}
        summary = json.loads(written.read_text())
        if "full" not in summary:
            return None, {}
        return summary["full"], {variant: value for variant, value in summary.get("language_sensitivity", {}).items()
                                 if variant not in failed}
    return summary["full"], summary.get("language_sensitivity", {})


def run_suite(
    model: str,
    data_dir,
    out,
    sizes: Sequence[int] = PAPER_SIZES,
    seeds: int = 3,
    probes: Optional[Sequence[str]] = None,
    dev_limit: Optional[int] = None,
    overrides: Optional[Dict[str, Any]] = None,
    baselines: bool = True,
    label: Optional[str] = None,
    cuda_device: Optional[int] = None,
    precision: str = "fp32",
    grid_options=None,
) -> Dict[str, Any]:
    """Run (or resume) every curve for ``model`` and return the accumulated results.

    Each curve's runs go through the grid runner (``grid_options``: workers, Ray address,
    resources; default serial). A curve with failed runs shows '-' (a failed control: its LANGSENSE only); the other curves still run,
    then :class:`~mcqa_probes.experiments.grid.GridFailed` lists every failed run and its log.

    Zero-shot scoring and every training run use ``cuda_device`` (``None``: the GPU when there is
    one) and ``precision``."""

    cuda_device = resolve_cuda_device(cuda_device)

    data_dir, out = Path(data_dir), Path(out)
    out.mkdir(parents=True, exist_ok=True)
    results_file = out / "suite.json"
    results = json.loads(results_file.read_text()) if results_file.exists() else {}
    label = label or model
    failures: List[Any] = []
    options = dict(sizes=sizes, seeds=seeds, dev_limit=dev_limit, overrides=overrides,
                   cuda_device=cuda_device, precision=precision, grid_options=grid_options, failures=failures)
    for probe, _title, prefix, setup, _k in PROBES:
        if probes and probe not in probes:
            continue
        train, dev = data_dir / f"{prefix}_train.jsonl", data_dir / f"{prefix}_dev.jsonl"
        row: Dict[str, Any] = {}
        tag = label.replace("/", "_")
        with environment(MODEL_NAME=model):
            if setup == "mc_mlm":
                row["zero_shot"] = None
                with environment(PROBE_TYPE="mlp"):
                    row["mlp"], row["langsense"] = _curve(CONFIGS / "olmpics_mc_mlm.jsonnet", train, dev,
                                                          out / probe / tag / "mlp", ["perturbed", "nolang"], probe, **options)
                # on the dev questions the curves are scored on (the --dev-limit sample), as the baseline's
                sample = out / probe / tag / "mlp" / "data" / "full" / "dev.jsonl"
                row["zero_shot"] = zero_shot_evaluate(model, str(sample if sample.is_file() else dev),
                                                      skip_multi_piece=True, cuda_device=cuda_device,
                                                      precision=precision)["accuracy"]
                with environment(PROBE_TYPE="linear"):
                    row["linear"], _ = _curve(CONFIGS / "olmpics_mc_mlm.jsonnet", train, dev,
                                              out / probe / tag / "linear", [], probe, **options)
            else:
                row["curve"], row["langsense"] = _curve(CONFIGS / "olmpics_mc_qa.jsonnet", train, dev,
                                                        out / probe / tag / "mc_qa", ["perturbed", "nolang"], probe, **options)
            results.setdefault(probe, {})[label] = row
            if baselines:
                config = "olmpics_mlm_baseline.jsonnet" if setup == "mc_mlm" else "esim_glove.jsonnet"
                curve, sense = _curve(CONFIGS / config, train, dev, out / probe / BASELINE, ["nolang"], probe, **options)
                key = "mlp" if setup == "mc_mlm" else "curve"
                results[probe][BASELINE] = {key: curve, "langsense": {"nolang": sense.get("nolang")}}
                if setup == "mc_mlm":  # the untrained MLM-BASELINE (random FF_MLM), as the paper's tables

                    sample = out / probe / BASELINE / "data" / "full" / "dev.jsonl"  # the curves' dev (dev_limit)
                    results[probe][BASELINE]["zero_shot"] = untrained_accuracy(
                        str(CONFIGS / config), str(sample if sample.is_file() else dev), overrides, seeds,
                        cuda_device if cuda_device is not None else -1)
        write_json(results_file, results, end="")
    if failures:

        raise GridFailed(GridReport([o for report in failures for o in report.outcomes]))
    return results
