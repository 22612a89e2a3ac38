"""Age-comparison value sweep (oLMpics §4.1, Figure 3): fill a template over a grid of two values
and map the zero-shot prediction (``younger`` / ``older``) of a masked LM for every pair.

The correct answer is ``younger`` when the first value is smaller (ages); with ``years=True``
(birth years: "A person born in {a} is [MASK] than me in age, If i was born in {b}.") it flips.
Pairs with equal values are left out of the accuracy (drawn grey).
"""
import csv
from pathlib import Path
from typing import Any, Dict, List, Sequence

AGE_TEMPLATE = "A {a} year old person age is [MASK] than a {b} year old person ."
YEAR_TEMPLATE = "A person born in {a} is [MASK] than me in age, If i was born in {b}."
CHOICES = ("younger", "older")


def parse_values(text: str) -> List[int]:
    """"15:40" (inclusive range), "15:40:5" (with a step) or "15,20,30"."""
    if ":" in text:
        parts = [int(p) for p in text.split(":")]
        start, stop, step = parts[0], parts[1], parts[2] if len(parts) > 2 else 1
        return list(range(start, stop + 1, step))
    return [int(v) for v in text.split(",") if v]


def sweep(model_name: str, values: Sequence[int], template: str = AGE_TEMPLATE, years: bool = False,
          batch_size: int = 64) -> Dict[str, Any]:
    from mcqa_probes.olmpics.zero_shot import build, predict_instances

    reader, model = build(model_name)
    pairs = [(a, b) for a in values for b in values]
    instances = [reader.text_to_instance(template.format(a=a, b=b), list(CHOICES)) for a, b in pairs]
    predictions = predict_instances(model, instances, batch_size)
    grid = {}
    correct = total = 0
    for (a, b), best, logits in zip(pairs, predictions["best"], predictions["logits"]):
        grid[(a, b)] = (CHOICES[best], logits)
        if a != b:
            truth = "younger" if (a < b) != years else "older"
            correct += int(CHOICES[best] == truth)
            total += 1
    return {"values": list(values), "grid": grid, "accuracy": correct / total if total else float("nan"),
            "template": template}


def write_outputs(result: Dict[str, Any], out, title: str = "") -> Dict[str, Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    values = result["values"]
    with open(out / "age_sweep.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["value_1", "value_2", "prediction", "logit_younger", "logit_older"])
        for (a, b), (prediction, logits) in result["grid"].items():
            writer.writerow([a, b, prediction, f"{logits[0]:.4f}", f"{logits[1]:.4f}"])
    image = numpy.zeros((len(values), len(values)))
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            image[i, j] = 0.5 if a == b else (1.0 if result["grid"][(a, b)][0] == "older" else 0.0)
    figure, axis = plt.subplots(figsize=(6, 5.5))
    axis.imshow(image, cmap="Blues", vmin=0, vmax=1, origin="lower")
    ticks = list(range(0, len(values), max(1, len(values) // 10)))
    axis.set_xticks(ticks, [values[t] for t in ticks])
    axis.set_yticks(ticks, [values[t] for t in ticks])
    axis.set_xlabel("value 2")
    axis.set_ylabel("value 1")
    axis.set_title((title + "\n" if title else "") + f"blue: 'older', white: 'younger'  (acc. {100 * result['accuracy']:.0f}%)")
    figure.tight_layout()
    figure.savefig(out / "age_sweep.png", dpi=100)
    plt.close(figure)
    return {"csv": out / "age_sweep.csv", "png": out / "age_sweep.png"}
