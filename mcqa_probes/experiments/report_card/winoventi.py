"""The WinoVenti section (Do & Pavlick 2021, Table 6): generic and exception accuracy of a masked LM
over All pairs, the pairs of its own adversarial filter (Individual) and the pairs every Table-6
model's filter kept (Intersection; needs the registry) -- the numbers of ``bin/winoventi_eval``.
"""
import shlex
from pathlib import Path
from typing import Any, Dict, List, Optional

from mcqa_probes.common.io import sha256_file
from mcqa_probes.experiments.report_card.inputs import CardInputs, absent, done
from mcqa_probes.experiments.report_card.models import CardModel

MULTI_TOKEN = "skip"


def why_absent(model: CardModel, inputs: CardInputs) -> Optional[str]:
    if model.is_mcqa:
        return (f"{model.label} is a multiple-choice QA archive; WinoVenti scores the outcome words at a masked "
                "LM's [MASK]: give the masked LM (its HuggingFace name or directory)")
    if not inputs.winoventi_tsv:
        return "no --winoventi-tsv given (winoventi_bert_large_final.tsv layout)"
    if not Path(inputs.winoventi_tsv).is_file():
        return f"--winoventi-tsv {inputs.winoventi_tsv}: no such file"
    return None


def key_parts(inputs: CardInputs) -> Dict[str, Any]:
    registry = inputs.winoventi_registry
    return {"tsv": sha256_file(inputs.winoventi_tsv), "registry": sha256_file(registry) if registry else None,
            "max_pairs": inputs.max_questions, "precision": inputs.precision, "multi_token": MULTI_TOKEN}


def first_pairs(prompts: List[Any], limit: Optional[int]) -> List[Any]:
    """The prompts of the first ``limit`` pairs (all with 0 / None)."""
    if not limit:
        return list(prompts)
    kept = []
    for pair in dict.fromkeys(p.pair_index for p in prompts):
        if len(kept) == limit:
            break
        kept.append(pair)
    chosen = set(kept)
    return [p for p in prompts if p.pair_index in chosen]


def run(model: CardModel, inputs: CardInputs, out: Path, figure_prefix: str, head: Optional[Dict] = None) -> Dict[str, Any]:
    reason = why_absent(model, inputs)
    if reason:
        return absent(reason)
    from mcqa_probes.common.device import resolve_cuda_device
    from mcqa_probes.data.winoventi import read_registry, read_winoventi, write_winoventi
    from mcqa_probes.experiments.winoventi.evaluate import evaluate_model

    prompts = read_winoventi(inputs.winoventi_tsv)
    chosen = first_pairs(prompts, inputs.max_questions)
    registry = read_registry(inputs.winoventi_registry) if inputs.winoventi_registry else None
    row = evaluate_model(model.location, chosen, registry, batch_size=inputs.batch_size,
                         cuda_device=resolve_cuda_device(inputs.cuda_device), precision=inputs.precision,
                         multi_token=MULTI_TOKEN)
    row.pop("correct")
    notes = []
    if registry is None:
        notes.append("Intersection needs the associative-bias registry (--winoventi-registry)")
    tsv = inputs.winoventi_tsv
    commands = []
    if len(chosen) < len(prompts):
        tsv = f"winoventi_first_{inputs.max_questions}_pairs.tsv"
        commands.append(f"# the first {inputs.max_questions} pairs of {inputs.winoventi_tsv} written to {tsv}")
        if out is not None:
            write_winoventi(chosen, out / tsv)
            tsv = str(out / tsv)
    commands.append(f"bin/winoventi_eval --model {shlex.quote(model.location)} --tsv {shlex.quote(tsv)}"
                    + (f" --registry {shlex.quote(inputs.winoventi_registry)}" if registry else "")
                    + f" --multi-token {MULTI_TOKEN} --precision {inputs.precision}")
    data = {inputs.winoventi_tsv: sha256_file(inputs.winoventi_tsv)}
    if registry is not None:
        data[inputs.winoventi_registry] = sha256_file(inputs.winoventi_registry)
    return done(row, reading(model, row, head), commands, data, notes=notes)


def reading(model: CardModel, row: Dict[str, Any], head: Optional[Dict] = None) -> str:
    every = row["all"]
    gap = every["generic"] - every["exception"]
    text = (f"{model.label} gets {every['generic']:.1f}% of generic and {every['exception']:.1f}% of exception prompts "
            f"right over {every['n']} pairs")
    if gap > 10:
        text += f": {gap:.0f} points worse when the context overrides the usual association"
    elif gap < -10:
        text += f": {-gap:.0f} points better on exceptions than on the usual association"
    else:
        text += ": no strong preference for the associative outcome"
    if head is not None and not head.get("trained"):
        text += " (its masked-LM head is untrained: these numbers are those of random weights)"
    return text + "."
