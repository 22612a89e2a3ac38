"""Zero-shot causal-LM scoring of one probe file in N shards, as grid trials (``bin/causal_shards``).

:func:`score_in_shards` cuts the file's questions (the first ``limit``) into ``shards`` contiguous
slices by question index (shard i holds questions ``[i*N//shards, (i+1)*N//shards)``:
deterministic), and scores each slice as one trial of :func:`~mcqa_probes.experiments.grid.run_grid`,
so ``workers`` / ``gpus_per_trial`` / ``address`` (Ray) and resumption come from the grid runner: a
shard whose ``result.json`` holds the same spec (model, file and its sha256, slice, score, template,
batch size, precision, control) is reused, any other shard is scored again.

A trial reads its slice with the ``causal_lm_mc`` reader, builds the ``causal_lm_mc`` model and runs
the one prediction loop (:func:`~mcqa_probes.training.evaluation.predict_instances`), collecting
the model's per-choice outputs; it writes ``predictions.jsonl`` in its trial directory (atomic): per
question ``index``, ``id``, ``best`` (under ``score``), ``gold``, the per-choice ``loglikelihood`` and
continuation ``tokens``, ``chars`` (what the ``chars`` score divides by) and, with the choice-only
control, ``choice_only_loglikelihood`` / ``choice_only_tokens`` (each choice after the neutral prompt
alone). The driver then merges the shards into ``<out>/predictions.jsonl`` in file order and
computes ``<out>/metrics.json`` from the merged predictions with the model's own definitions:
``accuracy`` (under ``score``), ``accuracy_sum`` / ``_mean`` / ``_chars`` (and ``_pmi`` and
``choice_only_accuracy`` with the control), strict cluster accuracy and the hops × distractor cells
(:class:`~mcqa_probes.metrics.probe_metrics.ProbeMetrics`, over the whole file: clusters may
straddle shards), WinoVenti's generic / exception / strict accuracy: the numbers of one unsharded
``allennlp evaluate`` run, whatever the number of shards.

``items`` (model, section, probe) and ``determinism_check`` N (what ``bin/zero_shot --shards`` passes
for ``--items-file`` and ``--determinism-check``) make each shard also write the item records of its
questions (``items.jsonl`` in its trial directory, :mod:`mcqa_probes.metrics.item_records`) and
re-score alone, at batch size 1, those of its questions that one unsharded run's audit would draw
(:func:`mcqa_probes.metrics.determinism.draw`, seed ``determinism_seed``); the driver returns the
shards' records in file order (``items``) and the shards' audits combined into one result
(``determinism``: the questions, the largest score difference and the changed answers of the whole
run's draw). With either, the shards are cut at batch boundaries (every shard but the last holds a
multiple of ``batch_size`` questions; a file of fewer batches than shards leaves shards empty), so
that every question is scored in the very batch it has in one unsharded run: its scores, records and
audit are the unsharded run's bit for bit (on the same device and kernels).
"""
import itertools
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from allennlp.data import Vocabulary

from mcqa_probes.common.device import place_model, resolve_cuda_device
from mcqa_probes.common.io import read_jsonl_values, sha256_file, write_json, write_jsonl
from mcqa_probes.data.causal_prompts import DEFAULT_TEMPLATE
from mcqa_probes.data.dataset_readers.causal_lm_mc import CausalLmMcReader
from mcqa_probes.experiments.causal_lm.zero_shot import FLAG_MARGIN, choice_only_flag
from mcqa_probes.experiments.grid import GridOptions, Trial, describe_metrics, run_grid
from mcqa_probes.metrics.determinism import audit_fields, combine, draw
from mcqa_probes.metrics.item_records import read_item_records, write_item_records
from mcqa_probes.metrics.probe_metrics import ProbeMetrics
from mcqa_probes.metrics.probe_records import chance_level
from mcqa_probes.models.causal_lm_mc import SCORES, CausalLmMc
from mcqa_probes.training.evaluation import Answer, gold_index, item_records, predict_instances

PREDICTIONS = "predictions.jsonl"
METRICS = "metrics.json"
ITEMS = "items.jsonl"


def shard_bounds(count: int, shards: int, step: int = 1) -> List[range]:
    """The question indices of each shard: ``shards`` contiguous slices of ``range(count)``, cut at
    multiples of ``step`` (the batch size: each shard then scores whole batches of one unsharded run)."""
    if int(shards) < 1:
        raise ValueError(f"shards: expected a positive number, got {shards}")
    if int(step) < 1:
        raise ValueError(f"shards: expected a positive step, got {step}")
    blocks = -(-count // step)
    return [range(min(count, i * blocks // shards * step), min(count, (i + 1) * blocks // shards * step))
            for i in range(shards)]


def read_instances(data_path: str, template: Optional[str] = None, limit: Optional[int] = None,
                   hide_question: bool = False) -> List[Any]:
    """The first ``limit`` instances of a probe file, as the ``causal_lm_mc`` reader builds them."""
    reader = CausalLmMcReader(template=template or DEFAULT_TEMPLATE, hide_question=hide_question, check_pairs=False)
    return list(itertools.islice(reader.read(str(data_path)), limit or None))


def score_shard(model_name: str, data_path: str, start: int, stop: int, out_file: str, score: str = "sum",
                template: Optional[str] = None, batch_size: int = 32, precision: str = "fp32",
                cuda_device: Optional[int] = None, choice_only_control: bool = True,
                items: Optional[Sequence[str]] = None, determinism_picks: Optional[Sequence[int]] = None,
                determinism_seed: int = 0) -> Dict[str, Any]:
    """One trial: questions ``[start, stop)`` of the file scored; their predictions written to ``out_file``,
    with ``items`` (model, section, probe) their item records to ``items.jsonl`` beside it; the questions
    ``determinism_picks`` (indices in the file) re-scored alone (the result's ``determinism``)."""
    instances = read_instances(data_path, template, stop)[start:stop]
    model = CausalLmMc(Vocabulary(), model_name, score=score, choice_only_control=choice_only_control,
                       batch_size=batch_size)
    place_model(model, resolve_cuda_device(cuda_device), precision)
    model.eval()
    if determinism_picks is not None:
        model.audit_determinism(0, determinism_seed, picks=[index - start for index in determinism_picks])
    outputs: List[Dict[str, Any]] = []

    def collect(module, inputs, output):  # the per-choice outputs of each forward of the one loop
        outputs.append({key: output[key].detach().float().cpu() for key in
                        ("loglikelihood", "continuation_tokens", "choice_only_loglikelihood") if key in output})

    handle = model.register_forward_hook(collect)
    try:
        predicted = predict_instances(model, instances, batch_size)
    finally:
        handle.remove()
    rows = {key: [row for batch in outputs for row in batch[key].tolist()] for key in outputs[0]} if outputs else {}
    records = []
    for offset, instance in enumerate(instances):
        metadata = instance["metadata"].metadata
        prompt, count = metadata["prompt"], len(metadata["choices"])
        record = {"index": start + offset, "id": metadata.get("id"), "best": int(predicted["best"][offset]),
                  "gold": gold_index(instance) if "label" in instance.fields else None,
                  "score": score, "format": prompt.format,
                  "loglikelihood": rows["loglikelihood"][offset][:count],
                  "tokens": [int(t) for t in rows["continuation_tokens"][offset][:count]],
                  "chars": list(prompt.chars)}
        if choice_only_control:
            record["choice_only_loglikelihood"] = rows["choice_only_loglikelihood"][offset][:count]
            record["choice_only_tokens"] = [len(tokens) for _, tokens in model.scorer.encode_pairs(prompt.neutral)]
        records.append(record)
    write_jsonl(out_file, records)
    right = sum(r["best"] == r["gold"] for r in records)
    result = {"questions": len(records), "start": start, "stop": stop, "correct": right,
              "accuracy": right / len(records) if records else None, "predictions": str(out_file)}
    if items is not None:  # the records the unsharded run keeps (its model's _observe), by the one writer
        answers = [Answer(int(best), gold_index(instance), dict(instance["metadata"].metadata), scores)
                   for best, scores, instance in zip(predicted["best"], predicted["prompt_scores"], instances)
                   if "label" in instance.fields]
        write_item_records(Path(out_file).parent / ITEMS, item_records(answers, *items))
    if determinism_picks is not None:
        result["determinism"] = model.determinism_results[-1] if determinism_picks else None
    return result


def _argmax(values: Sequence[float]) -> int:
    return max(range(len(values)), key=values.__getitem__)


def choice_scores(record: Dict[str, Any], choices: Sequence[str]) -> Dict[str, List[float]]:
    """Every score of one question's choices (``causal_lm_mc``'s definitions), and the control's."""
    sums, tokens = record["loglikelihood"], record["tokens"]
    scores = {"sum": list(sums), "mean": [s / max(1, n) for s, n in zip(sums, tokens)],
              "chars": [s / max(1, c) for s, c in zip(sums, record["chars"])]}
    if "choice_only_loglikelihood" in record:
        neutral = record["choice_only_loglikelihood"]
        scores["pmi"] = [s - z for s, z in zip(sums, neutral)]
        scores["control"] = {
            "sum": list(neutral), "pmi": list(neutral),
            "mean": [z / max(1, n) for z, n in zip(neutral, record["choice_only_tokens"])],
            "chars": [z / max(1, len(text)) for z, text in zip(neutral, choices)],
        }[record["score"]]
    return scores


def merged_metrics(records: Sequence[Dict[str, Any]], metadata: Sequence[Dict[str, Any]]) -> Dict[str, Any]:
    """The metrics of one unsharded run, from the merged predictions and the instances' metadata."""
    labelled = [(r, m) for r, m in zip(records, metadata) if r["gold"] is not None]
    if not labelled:
        return {"count": 0}
    metrics: Dict[str, Any] = {"count": len(labelled)}
    metrics["accuracy"] = sum(r["best"] == r["gold"] for r, _ in labelled) / len(labelled)
    probe = ProbeMetrics()
    probe.update([r["best"] for r, _ in labelled], [r["gold"] for r, _ in labelled], [m for _, m in labelled])
    metrics.update(probe.get_metric(reset=True))
    right: Dict[str, int] = {}
    winoventi = {1: [0, 0], 2: [0, 0]}
    for record, meta in labelled:
        scores = choice_scores(record, meta["choices"])
        for name, values in scores.items():
            right[name] = right.get(name, 0) + int(_argmax(values) == record["gold"])
        kind = int(meta.get("test_type", 0) or 0)
        if kind in winoventi:  # right when the gold choice scores strictly higher (ties are wrong)
            values, gold = scores[record["score"]], record["gold"]
            winoventi[kind][0] += int(all(values[gold] > v for k, v in enumerate(values) if k != gold))
            winoventi[kind][1] += 1
    for name in [n for n in SCORES if n in right]:
        metrics[f"accuracy_{name}"] = right[name] / len(labelled)
    if "control" in right:
        metrics["choice_only_accuracy"] = right["control"] / len(labelled)
    (g_right, g_total), (e_right, e_total) = winoventi[1], winoventi[2]
    if g_total or e_total:
        metrics["generic_accuracy"] = g_right / g_total if g_total else 0.0
        metrics["exception_accuracy"] = e_right / e_total if e_total else 0.0
        metrics["strict_accuracy"] = (g_right + e_right) / (g_total + e_total)
        metrics["generic_count"], metrics["exception_count"] = float(g_total), float(e_total)
    return metrics


def headline(metrics: Dict[str, Any], instances: Sequence[Any], flag_margin: float = FLAG_MARGIN) -> Dict[str, Any]:
    """The keys of an unsharded ``bin/zero_shot`` line that merged ``metrics`` give: ``accuracy``,
    ``count``, ``chance`` (the expected accuracy of uniform guessing), ``strict_cluster_accuracy`` on
    files with clusters and ``flag`` when the choice-only accuracy is ``flag_margin`` or more above chance."""
    chance = chance_level(len(instance["metadata"]["prompt"].requests) for instance in instances)
    found: Dict[str, Any] = {"accuracy": metrics.get("accuracy"), "count": metrics["count"], "chance": chance}
    if "cluster_accuracy" in metrics:
        found["strict_cluster_accuracy"] = metrics["cluster_accuracy"]
    flag = choice_only_flag(metrics.get("choice_only_accuracy"), chance, flag_margin)
    if flag is not None:
        found["flag"] = flag
    return found


def score_in_shards(model_name: str, data_path: str, out_dir: str, shards: int, score: str = "sum",
                    template: Optional[str] = None, batch_size: int = 32, precision: str = "fp32",
                    cuda_device: Optional[int] = None, workers: Optional[int] = None, gpus_per_trial: float = 0.0,
                    address: Optional[str] = None, limit: Optional[int] = None, choice_only_control: bool = True,
                    cpus_per_trial: Optional[float] = None, quiet: bool = False,
                    items: Optional[Sequence[str]] = None, determinism_check: int = 0,
                    determinism_seed: int = 0, flag_margin: float = FLAG_MARGIN) -> Dict[str, Any]:
    """Score ``data_path`` in ``shards`` grid trials under ``out_dir`` and merge them; returns
    ``{"predictions", "metrics" (also in metrics.json), "grid" (the run's summary), "summary"}``, and
    ``items`` (the item records, file order) with ``items`` = (model, section, probe), ``determinism``
    (also in the summary, as ``determinism_questions`` / ``_max_score_difference`` /
    ``_changed_answers``) with ``determinism_check`` N > 0 (module docstring).

    ``workers`` <= 1 runs the shards serially in this process, more on Ray (``None``: the
    machine's cores, or GPUs / ``gpus_per_trial``); a failing shard raises
    :class:`~mcqa_probes.experiments.grid.GridFailed` after the others finished (run again to resume)."""
    if score not in SCORES:
        raise ValueError(f"score: expected one of {sorted(SCORES)}, got {score!r}")
    if score == "pmi" and not choice_only_control:
        raise ValueError("score 'pmi' needs the choice-only requests: choice_only_control=True")
    started = time.perf_counter()
    out = Path(out_dir)
    data_path = str(Path(data_path).resolve()) if "://" not in str(data_path) else str(data_path)
    instances = read_instances(data_path, template, limit)
    if not instances:
        raise ValueError(f"{data_path}: no questions to score")
    exact = items is not None or bool(determinism_check)
    bounds = shard_bounds(len(instances), int(shards), batch_size if exact else 1)
    picks = draw(len(instances), determinism_check, determinism_seed) if determinism_check else None
    digest = sha256_file(data_path) if "://" not in data_path else None
    trials = []
    for number, indices in enumerate(bounds):
        trial_id = f"shard-{number:03d}-of-{len(bounds):03d}"
        kwargs = {"model_name": model_name, "data_path": data_path, "start": indices.start, "stop": indices.stop,
                  "out_file": str(out / "trials" / trial_id / PREDICTIONS), "score": score, "template": template,
                  "batch_size": batch_size, "precision": precision, "cuda_device": cuda_device,
                  "choice_only_control": choice_only_control}
        if items is not None:
            kwargs["items"] = [str(part) for part in items]
        if picks is not None:
            kwargs.update(determinism_picks=[i for i in picks if i in indices], determinism_seed=determinism_seed)
        spec = {key: value for key, value in kwargs.items() if key not in ("out_file", "cuda_device")}
        spec.update(function="score_shard", data_sha256=digest)
        trials.append(Trial(trial_id, score_shard, kwargs, spec=spec, label=f"{trial_id} [{indices.start}:"
                            f"{indices.stop})", num_cpus=1, num_gpus=gpus_per_trial or 0.0))
    options = GridOptions(workers=workers, address=address, cpus_per_trial=cpus_per_trial,
                          gpus_per_trial=gpus_per_trial or 0.0, quiet=quiet)
    report = run_grid(trials, out, options, describe=describe_metrics("accuracy"))
    report.raise_for_failures()
    records: List[Dict[str, Any]] = []
    for trial, indices in zip(trials, bounds):
        shard = read_jsonl_values(trial.kwargs["out_file"], what="shard prediction")
        if [r["index"] for r in shard] != list(indices):
            raise ValueError(f"{trial.kwargs['out_file']}: expected the predictions of questions "
                             f"[{indices.start}, {indices.stop}); delete {Path(trial.kwargs['out_file']).parent} "
                             "and run again")
        records.extend(shard)
    metadata = [instance["metadata"].metadata for instance in instances]
    for record, meta in zip(records, metadata):
        if record["id"] != meta.get("id"):
            raise ValueError(f"shard predictions out of step with {data_path}: question {record['index']} is "
                             f"{meta.get('id')!r}, the shard has {record['id']!r} (delete {out / 'trials'} and "
                             "run again)")
    write_jsonl(out / PREDICTIONS, records)
    metrics = merged_metrics(records, metadata)
    seconds = round(time.perf_counter() - started, 1)
    summary = {"model": model_name, "data": data_path, "questions": len(records), "shards": len(bounds),
               "score": score, "template": template or DEFAULT_TEMPLATE, "precision": precision,
               "choice_only_control": choice_only_control, **headline(metrics, instances, flag_margin),
               "metrics": metrics,
               "grid": {"run": report.count("done"), "reused": report.count("skipped"), "seconds": seconds}}
    found: Dict[str, Any] = {}
    if picks is not None:
        results = report.results()
        found["determinism"] = audit = combine(results[trial.id].get("determinism") for trial in trials)
        summary.update(audit_fields(audit))
    write_json(out / METRICS, summary)
    if items is not None:
        found["items"] = [record for trial in trials
                          for record in read_item_records(Path(trial.kwargs["out_file"]).parent / ITEMS)]
    return {"predictions": str(out / PREDICTIONS), "metrics": metrics, "grid": summary["grid"],
            "summary": summary, **found}


__all__ = ["score_in_shards", "headline", "score_shard", "shard_bounds", "merged_metrics", "choice_scores", "read_instances"]
