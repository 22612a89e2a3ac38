"""The oLMpics section (Talmor et al. 2020): zero-shot accuracy of a masked LM on the MC-MLM probes
(``bin/zero_shot``), accuracy of an MCQA archive on the MC-QA probes (``allennlp evaluate``), and the
MLP learning curves with WS / MAX of a given ``bin/olmpics_suite`` or ``bin/learning_curve`` run.

The data are the released files under ``olmpics_dir`` (``<probe file>_dev.jsonl``); the probes and
their MC-MLM / MC-QA setup are :data:`mcqa_probes.experiments.olmpics.suite.PROBES`.
"""
import json
import shlex
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from mcqa_probes.common.io import sha256_file
from mcqa_probes.experiments.olmpics.suite import PROBES
from mcqa_probes.experiments.report_card.inputs import CardInputs, absent, done
from mcqa_probes.experiments.report_card.models import CardModel

MULTI_TOKEN = "skip"  # as the suite: a question with a multi-piece choice is skipped and counted


def probe_files(inputs: CardInputs, setup: str) -> Dict[str, Tuple[str, Path]]:
    """probe -> (title, dev file) for the probes of ``setup`` (``mc_mlm`` / ``mc_qa``) present in olmpics_dir."""
    if not inputs.olmpics_dir:
        return {}
    root = Path(inputs.olmpics_dir)
    return {probe: (title, root / f"{prefix}_dev.jsonl") for probe, title, prefix, kind, _ in PROBES
            if kind == setup and (root / f"{prefix}_dev.jsonl").is_file()}


def _setup(model: CardModel) -> str:
    return "mc_qa" if model.is_mcqa else "mc_mlm"


def why_absent(model: CardModel, inputs: CardInputs) -> Optional[str]:
    if not inputs.olmpics_dir:
        return "no --olmpics-dir given (the released oLMpics files, <probe>_dev.jsonl)"
    if not probe_files(inputs, _setup(model)):
        what = ("MC-QA probe files (conjunction_filt4_dev.jsonl, composition_v2_dev.jsonl)" if model.is_mcqa
                else "MC-MLM probe files (e.g. number_comparison_age_compare_masked_dev.jsonl)")
        return f"{inputs.olmpics_dir} has no {what} for a {'multiple-choice QA archive' if model.is_mcqa else 'masked LM'}"
    return None


def key_parts(model: CardModel, inputs: CardInputs) -> Dict[str, Any]:
    return {"files": {p: sha256_file(f) for p, (_, f) in probe_files(inputs, _setup(model)).items()},
            "max_questions": inputs.max_questions, "precision": inputs.precision, "multi_token": MULTI_TOKEN}


def chance(path: Path, limit: Optional[int]) -> float:
    from mcqa_probes.experiments.report_card.answers import first_questions

    questions = first_questions(path, limit)
    return sum(1 / len(q.choices) for q in questions) / len(questions)


def run(model: CardModel, inputs: CardInputs, out: Path, figure_prefix: str, head: Optional[Dict] = None) -> Dict[str, Any]:
    reason = why_absent(model, inputs)
    if reason:
        return absent(reason)
    from mcqa_probes.common.device import resolve_cuda_device

    cuda_device = resolve_cuda_device(inputs.cuda_device)
    files = probe_files(inputs, _setup(model))
    results: Dict[str, Any] = {}
    commands: List[str] = []
    limit = inputs.max_questions or None
    if model.is_mcqa:
        from mcqa_probes.experiments.report_card.answers import accuracy, answer_questions, first_questions, load_archive_model

        loaded = load_archive_model(model.location, cuda_device, inputs.precision)
        for probe, (title, path) in files.items():
            answers = answer_questions(loaded, first_questions(path, limit), inputs.batch_size)
            results[probe] = {"title": title, "setup": "mc_qa", "accuracy": accuracy(answers), "count": len(answers),
                              "chance": chance(path, limit), "file": str(path)}
            source = str(path)
            if limit:
                source = f"{path.stem}_{limit}.jsonl"
                commands.append(f"head -n {limit} {shlex.quote(str(path))} > {source}")
            commands.append(f"allennlp evaluate {shlex.quote(model.location)} {source}")
    else:
        from mcqa_probes.experiments.olmpics.zero_shot import zero_shot_evaluate

        for probe, (title, path) in files.items():
            result = zero_shot_evaluate(model.location, str(path), batch_size=inputs.batch_size, limit=limit,
                                        cuda_device=cuda_device, precision=inputs.precision, multi_token=MULTI_TOKEN)
            results[probe] = {"title": title, "setup": "mc_mlm", "accuracy": result["accuracy"], "count": result["count"],
                              "skipped_multi_piece": result["skipped_multi_piece"], "chance": chance(path, limit),
                              "file": str(path)}
            commands.append(f"bin/zero_shot --model {shlex.quote(model.location)} --data {shlex.quote(str(path))}"
                            + (f" --limit {limit}" if limit else "") + f" --multi-token {MULTI_TOKEN}"
                            + f" --precision {inputs.precision}")
    data = {str(path): sha256_file(path) for _, path in files.values()}
    return done(results, reading(model, results, head), commands, data)


def reading(model: CardModel, results: Dict[str, Any], head: Optional[Dict] = None) -> str:
    above = [p for p, r in results.items() if r["accuracy"] > r["chance"] + 0.05]
    what = "MC-QA probe" if model.is_mcqa else "MC-MLM probe zero-shot"
    text = (f"{model.label} is more than 5 points above chance on {len(above)} of {len(results)} {what}s"
            + (f" ({', '.join(results[p]['title'].lower() for p in above)})" if above else ""))
    if head is not None and not head.get("trained"):
        text += ("; its masked-LM head is untrained (random weights), so these zero-shot numbers say nothing about "
                 "what the encoder knows")
    return text + "."


# ---------------------------------------------------------------------------- shared: learning curves
def learning_curves(inputs: CardInputs) -> List[Dict[str, Any]]:
    """WS / MAX of the MLP learning curves of a ``bin/olmpics_suite`` directory (``suite.json``: every
    model row of every probe) or of one ``bin/learning_curve`` directory (``summary.json``)."""
    if not inputs.olmpics_curves:
        return []
    root = Path(inputs.olmpics_curves)
    titles = {probe: title for probe, title, *_ in PROBES}
    rows: List[Dict[str, Any]] = []
    suite = root / "suite.json"
    if suite.is_file():
        for probe, models in json.loads(suite.read_text()).items():
            for label, row in models.items():
                curve = row.get("mlp") or row.get("curve") or {}
                tag = label.replace("/", "_")
                figure = next((f for f in (root / probe / tag / "mlp" / "learning_curve.png",
                                           root / probe / tag / "mc_qa" / "learning_curve.png") if f.is_file()), None)
                rows.append({"probe": probe, "title": titles.get(probe, probe), "model": label,
                             "curve": "MLP" if "mlp" in row else "MC-QA", "zero_shot": row.get("zero_shot"),
                             "WS": curve.get("WS"), "MAX": curve.get("MAX"), "source": str(suite),
                             "figure": str(figure) if figure else None})
        return rows
    summary = root / "summary.json"
    if summary.is_file():
        data = json.loads(summary.read_text())
        full = data.get("full") or {}
        figure = root / "learning_curve.png"
        rows.append({"probe": root.name, "title": titles.get(root.name, root.name), "model": "(learning curve)",
                     "curve": "full", "zero_shot": None, "WS": full.get("WS"), "MAX": full.get("MAX"),
                     "source": str(summary), "figure": str(figure) if figure.is_file() else None,
                     "paper_comparable": data.get("paper_comparable")})
        return rows
    raise FileNotFoundError(f"--olmpics-curves {root}: neither suite.json (bin/olmpics_suite) nor summary.json "
                            "(bin/learning_curve) in it")
