"""Age-comparison value sweep (oLMpics §4.1, Figure 3): fill a template over a grid of two values
and map the zero-shot prediction (``younger`` / ``older``) of a masked LM for every pair.

The correct answer is ``younger`` when the first value is smaller (ages); with ``years=True``
(birth years: "A person born in {a} is [MASK] than me in age, If i was born in {b}.") it flips.
Pairs with equal values are left out of the accuracy (drawn grey).

Defaults are Figure 3A's: the §3.1 zero-shot template (:data:`PAPER_TEMPLATE`, "me" is the second
person) over ages 15..105 (:data:`PAPER_VALUES`). The template of the released Age Comparison data
files (:data:`DATA_TEMPLATE`, the one the learning curves train on) is an option.
"""
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence
from mcqa_probes.experiments.olmpics.zero_shot import build, predict_instances
from mcqa_probes.reports import figures
from mcqa_probes.common.io import write_csv

#: The oLMpics paper's zero-shot template (§3.1, Figure 3A).
PAPER_TEMPLATE = "A {a} year old person is [MASK] than me in age, If I am a {b} year old person."
#: The template of the released number_comparison_age_compare_masked_*.jsonl files.
DATA_TEMPLATE = "A {a} year old person age is [MASK] than a {b} year old person ."
AGE_TEMPLATE = PAPER_TEMPLATE  # the default
#: Figure 3A's age range (inclusive), in :func:`parse_values` syntax.
PAPER_VALUES = "15:105"
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
          batch_size: int = 64, cuda_device: Optional[int] = None, precision: str = "fp32") -> Dict[str, Any]:
    """Zero-shot prediction for every (a, b) pair, on ``cuda_device`` (``None``: the GPU when there is one)
    in ``precision``."""

    reader, model = build(model_name, cuda_device=cuda_device, precision=precision)
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

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "age_sweep.csv",
              ([a, b, prediction, f"{logits[0]:.4f}", f"{logits[1]:.4f}"]
               for (a, b), (prediction, logits) in result["grid"].items()),
              header=["value_1", "value_2", "prediction", "logit_younger", "logit_older"])
    older = {pair: prediction == "older" for pair, (prediction, _logits) in result["grid"].items()}
    figures.age_sweep_grid(result["values"], older, result["accuracy"], out / "age_sweep.png", title=title)
    return {"csv": out / "age_sweep.csv", "png": out / "age_sweep.png"}
