"""The figures of the package, and the one place that selects matplotlib's backend and saves
figures (atomically, via :mod:`mcqa_probes.common.io`).

matplotlib is imported lazily (inside the functions), so ``mcqa_probes.reports`` stays importable
without it and without torch / allennlp / transformers.

* :func:`pyplot` -- ``matplotlib.pyplot`` with the non-interactive ``Agg`` backend selected;
* :func:`save_figure` -- save a figure atomically (format from the file extension) and close it;
* the figures: :func:`breakdown_heatmap` (TACL Figure 3 style: accuracy by hops × distractor),
  :func:`learning_curves` (oLMpics curves with controls), :func:`inoculation_curves` (TACL
  Figure 4), :func:`age_sweep_grid` (oLMpics Figure 3 value sweep).
"""
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Union

from mcqa_probes.common.io import write_with

PathLike = Union[str, Path]


def pyplot():
    """``matplotlib.pyplot``, with the ``Agg`` backend (no display needed) selected."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(figure, path: PathLike, dpi: int = 100, close: bool = True) -> Path:
    """Write ``figure`` to ``path`` atomically (format from the extension, default png)."""
    path = Path(path)
    fmt = path.suffix.lstrip(".").lower() or "png"
    write_with(path, lambda target: figure.savefig(target, dpi=dpi, format=fmt))
    if close:
        pyplot().close(figure)
    return path


def breakdown_heatmap(grid: Dict, path: PathLike, title: str = "Accuracy by hops × distractor") -> Optional[Path]:
    """Heat map of a probe report's ``breakdown`` (rows: ISA hops k, columns: distractor family@depth
    k'); each cell shows accuracy % and the number of questions. None when there are no cells."""
    if not grid["rows"]:
        return None
    plt = pyplot()
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
    return save_figure(figure, path, dpi=120)


def learning_curves(curves: Dict[str, Dict[int, float]], path: PathLike, title: str = "", main: str = "full") -> Path:
    """Accuracy (%) against training size N (log scale): ``main`` solid with dots, the controls dashed."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(6, 4))
    for variant, curve in curves.items():
        sizes = sorted(curve)
        axis.plot(sizes, [100 * curve[s] for s in sizes], marker="o" if variant == main else "x",
                  linestyle="-" if variant == main else "--", label=variant)
    axis.set_xscale("log")
    axis.set_xlabel("training examples (N)")
    axis.set_ylabel("dev accuracy (%)")
    axis.set_title(title)
    axis.grid(alpha=0.3)
    axis.legend()
    figure.tight_layout()
    return save_figure(figure, path, dpi=100)


def inoculation_curves(rows: Sequence[Dict], path: PathLike, title: str = "Inoculation") -> Path:
    """Probe dev (solid) and original-task (dashed) accuracy against dosage k for the rows marked
    ``best_for_k`` (averaged over seeds when there are several); a dotted line for the original
    accuracy before inoculation."""
    plt = pyplot()
    best = sorted((r for r in rows if r["best_for_k"]), key=lambda r: r["k"])
    figure, axis = plt.subplots(figsize=(6, 4))
    ks = sorted({r["k"] for r in best})

    def mean(key, k):
        values = [r[key] for r in best if r["k"] == k]
        return 100 * sum(values) / len(values)

    axis.plot(ks, [mean("probe_dev_accuracy", k) for k in ks], "o-", label="probe (dev)")
    axis.plot(ks, [mean("orig_accuracy_after", k) for k in ks], "s--", label="original task")
    if best:
        axis.axhline(100 * best[0]["orig_accuracy_before"], color="grey", linestyle=":", label="original, before")
    axis.set_xscale("log")
    axis.set_xticks(ks, [str(k) for k in ks])
    axis.set_xlabel("number of probe examples k")
    axis.set_ylabel("accuracy %")
    axis.set_ylim(0, 100)
    axis.set_title(title + "\n(best aggregate model per k)", fontsize=11)
    axis.legend()
    figure.tight_layout()
    return save_figure(figure, path, dpi=120)


def age_sweep_grid(values: List[int], older: Dict, accuracy: float, path: PathLike, title: str = "") -> Path:
    """The value-pair grid of an age sweep: ``older[(a, b)]`` True (blue) / False (white); equal
    values grey."""
    plt = pyplot()
    import numpy

    image = numpy.zeros((len(values), len(values)))
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            image[i, j] = 0.5 if a == b else (1.0 if older[(a, b)] else 0.0)
    figure, axis = plt.subplots(figsize=(6, 5.5))
    axis.imshow(image, cmap="Blues", vmin=0, vmax=1, origin="lower")
    ticks = list(range(0, len(values), max(1, len(values) // 10)))
    axis.set_xticks(ticks, [values[t] for t in ticks])
    axis.set_yticks(ticks, [values[t] for t in ticks])
    axis.set_xlabel("value 2")
    axis.set_ylabel("value 1")
    axis.set_title((title + "\n" if title else "") + f"blue: 'older', white: 'younger'  (acc. {100 * accuracy:.0f}%)")
    figure.tight_layout()
    return save_figure(figure, path, dpi=100)


def prompt_sweep_figure(rows: Sequence[Dict], path: PathLike, title: str = "Prompt sweep") -> Path:
    """Accuracy of every prompt combination, one row of points per file: colour = format, marker =
    number of shots; a vertical tick at chance; a grey bar spans the file's range."""
    plt = pyplot()
    files = list(dict.fromkeys(row["file"] for row in rows))
    shots = sorted({row["shots"] for row in rows})
    markers = dict(zip(shots, "osD^vP*X"))
    colours = {"cloze": "tab:blue", "letters": "tab:orange"}
    figure, axis = plt.subplots(figsize=(7, 0.6 * len(files) + 1.6))
    for y, name in enumerate(files):
        own = [row for row in rows if row["file"] == name]
        values = [100 * row["accuracy"] for row in own]
        axis.plot([min(values), max(values)], [y, y], color="lightgrey", linewidth=6, solid_capstyle="round", zorder=1)
        axis.plot([100 * own[0]["chance"]] * 2, [y - 0.3, y + 0.3], color="black", linewidth=1, zorder=2)
        for row in own:
            axis.scatter(100 * row["accuracy"], y, color=colours.get(row["format"], "grey"),
                         marker=markers[row["shots"]], zorder=3, s=40)
    for prompt_format, colour in colours.items():
        if any(row["format"] == prompt_format for row in rows):
            axis.scatter([], [], color=colour, marker="o", label=prompt_format)
    for count in shots:
        axis.scatter([], [], color="grey", marker=markers[count], label=f"{count}-shot")
    axis.set_yticks(range(len(files)), files)
    axis.invert_yaxis()
    axis.set_xlim(0, 100)
    axis.set_xlabel("accuracy % (black tick: chance)")
    axis.set_title(title)
    axis.legend(loc="lower right", fontsize="small", ncol=2)
    figure.tight_layout()
    return save_figure(figure, path, dpi=120)


def reliability_diagram(curves: Dict[str, Sequence[Dict]], path: PathLike, title: str = "Reliability") -> Path:
    """Accuracy against mean confidence per equal-mass bin (:func:`mcqa_probes.metrics.calibration.reliability`),
    one line per probe (``curves``: probe -> bins), and the diagonal of a calibrated model."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(4.5, 4.5))
    axis.plot([0, 1], [0, 1], color="grey", linestyle=":", label="calibrated")
    for name, bins in curves.items():
        if bins:
            axis.plot([b["confidence"] for b in bins], [b["accuracy"] for b in bins], marker="o", label=name)
    axis.set_xlim(0, 1)
    axis.set_ylim(0, 1)
    axis.set_xlabel("mean confidence (probability of the chosen choice)")
    axis.set_ylabel("accuracy")
    axis.set_title(title)
    axis.legend(fontsize=7)
    figure.tight_layout()
    return save_figure(figure, path)
