"""WinoVenti evaluation (§3.1) and the Table-6 report.

A model is right on a prompt when P(target) > P(incorrect) at the mask (strictly). Accuracy is
reported on generic prompts (test_type 1) and exception prompts (test_type 2) for three subsets of
pairs: **All**, **Individual** (pairs whose triple passes the model's own adversarial filter: its
registry column, or flags computed by :mod:`.adversarial_filter`) and **Intersection** (pairs
passing the filter of every Table-6 model: the 12 registry columns of
:data:`~mcqa_probes.data.winoventi.TABLE6_MODELS`; ``intersection_models="all"`` for every column). Pairs whose o_g or o_e is several word pieces for the
model are not scorable at one mask: they are counted and listed, never truncated.
"""
import logging
import math
from typing import Any, Callable, Dict, List, Optional, Sequence, Set

from mcqa_probes.data.winoventi import (
    TABLE6_MODELS, Registry, Triple, WinoVentiPrompt, individual_pairs, intersection_models as resolve_intersection_models,
    intersection_pairs, registry_column, unique_triples,
)
from mcqa_probes.data.candidates import CandidateNotSinglePieceError
from mcqa_probes.experiments.winoventi.scoring import MaskedLm
from mcqa_probes.experiments.winoventi.adversarial_filter import adversarial_filter, filter_flags
from mcqa_probes.reports.tables import format_number, text_table

logger = logging.getLogger(__name__)

PAPER_TABLE6 = {  # model: (All generic, All exception, Individual generic, Individual exception, N, Int. generic, Int. exception)
    "bert-base-cased": (83.0, 23.1, 89.3, 16.7, 1871, 96.0, 8.3),
    "bert-large-cased-whole-word-masking": (89.8, 18.4, 89.8, 18.4, 2176, 97.4, 11.4),
    "roberta-base": (79.5, 27.2, 87.3, 18.8, 1801, 95.6, 12.7),
    "roberta-large": (81.3, 29.2, 91.1, 18.9, 994, 95.6, 17.5),
}


def score_prompts(lm: MaskedLm, prompts: Sequence[WinoVentiPrompt], batch_size: int = 64,
                  progress: Optional[Callable] = None) -> Dict[str, Any]:
    """Per-prompt correctness: ``correct[line] -> bool`` and the multi-piece pairs left out.

    Returns ``{"correct": {line: bool}, "logits": {line: [o_g, o_e]}, "skipped_lines": [...],
    "multi_piece_words": [...]}``.
    """
    instances, scored, skipped, words = [], [], [], set()
    for prompt in prompts:
        try:
            instances.append(lm.reader.prompt_to_instance(prompt))
            scored.append(prompt)
        except CandidateNotSinglePieceError as error:
            skipped.append(prompt.line)
            words.add(error.word)
    logits: List[List[float]] = []
    chunk = max(batch_size * 8, 1)
    starts = range(0, len(instances), chunk)
    for start in (progress(starts) if progress else starts):
        logits += lm.candidate_logits(instances[start:start + chunk], batch_size)
    correct, by_line = {}, {}
    for prompt, row in zip(scored, logits):
        gold = 0 if prompt.target == prompt.generic else 1
        correct[prompt.line] = row[gold] > row[1 - gold]
        by_line[prompt.line] = row
    if skipped:
        logger.warning("%s: %d prompts not scored, outcome words of several pieces: %s",
                       lm.name, len(skipped), ", ".join(sorted(words)))
    return {"correct": correct, "logits": by_line, "skipped_lines": skipped, "multi_piece_words": sorted(words)}


def subset_accuracy(prompts: Sequence[WinoVentiPrompt], correct: Dict[int, bool],
                    pairs: Optional[Set[int]] = None) -> Dict[str, float]:
    """Generic / exception accuracy (%) over the scorable pairs of a subset (``None`` = all); N = pairs."""
    right = {1: 0, 2: 0}
    total = {1: 0, 2: 0}
    scored_pairs = set()
    for prompt in prompts:
        if (pairs is not None and prompt.pair_index not in pairs) or prompt.line not in correct:
            continue
        total[prompt.test_type] += 1
        right[prompt.test_type] += int(correct[prompt.line])
        scored_pairs.add(prompt.pair_index)
    percent = lambda t: 100.0 * right[t] / total[t] if total[t] else math.nan  # noqa: E731
    return {"generic": percent(1), "exception": percent(2), "n": len(scored_pairs),
            "generic_prompts": total[1], "exception_prompts": total[2]}


class PromptScorer:
    """What the Table-6 evaluation (:func:`evaluate_prompts`) asks of a model, masked or causal: the
    per-prompt results and, for Individual, the model's own adversarial filter.

    A subclass gives :meth:`score_prompts` and :meth:`filter_flags`; ``filter_source`` names how its
    filter runs (the row's ``individual_source``) and :meth:`row_extra` adds keys to the row."""

    filter_source = ""

    def score_prompts(self, prompts: Sequence[WinoVentiPrompt], batch_size: int,
                      progress: Optional[Callable] = None) -> Dict[str, Any]:
        """``{"correct": {line: bool}, "logits": {line: [o_g, o_e]}}``, optionally with ``skipped_lines``
        and ``multi_piece_words``; ``progress`` wraps an iterable of chunks where the scorer has them."""
        raise NotImplementedError

    def filter_flags(self, prompts: Sequence[WinoVentiPrompt], batch_size: int) -> Dict[Triple, bool]:
        """``triple -> passed`` of the model's own adversarial filter over the prompts' triples."""
        raise NotImplementedError

    def row_extra(self) -> Dict[str, Any]:
        return {}


class MaskedLmScorer(PromptScorer):
    """A masked LM: P(target) > P(incorrect) at the mask; filter with "The [NOUN] is [MASK]."."""

    filter_source = "computed (adversarial filter, 'The [NOUN] is [MASK].')"

    def __init__(self, lm: MaskedLm):
        self.lm = lm

    def score_prompts(self, prompts, batch_size, progress=None):
        return score_prompts(self.lm, prompts, batch_size, progress)

    def filter_flags(self, prompts, batch_size):
        return filter_flags(adversarial_filter(self.lm, unique_triples(prompts), batch_size=batch_size))


def evaluate_prompts(scorer: PromptScorer, model_name: str, prompts: Sequence[WinoVentiPrompt],
                     registry: Optional[Registry] = None, registry_name: Optional[str] = None,
                     intersection_models: Optional[Sequence[str]] = None, compute_individual: bool = True,
                     batch_size: int = 64, progress: Optional[Callable] = None) -> Dict[str, Any]:
    """One model's Table-6 row (:func:`table6_row`) from ``scorer``: the one evaluation of masked and
    causal LMs alike.

    Individual flags come from ``registry`` (column ``registry_name``, or the model name matched
    by :func:`registry_column`); otherwise, with ``compute_individual``, from the scorer's own
    adversarial filter over the prompts' triples (§2.4, neutral template).
    """
    scores = scorer.score_prompts(prompts, batch_size, progress)
    return table6_row(model_name, prompts, scores, registry, registry_name, intersection_models,
                      own_flags=(lambda: scorer.filter_flags(prompts, batch_size)) if compute_individual else None,
                      own_flags_source=scorer.filter_source, **scorer.row_extra())


def evaluate_model(model_name: str, prompts: Sequence[WinoVentiPrompt], registry: Optional[Registry] = None, *,
                   lm: Optional[MaskedLm] = None, cuda_device: Optional[int] = None, precision: str = "fp32",
                   multi_token: str = "skip", batch_size: int = 64, **options: Any) -> Dict[str, Any]:
    """A masked LM's Table-6 row (:func:`evaluate_prompts`; ``options``: ``registry_name``,
    ``intersection_models``, ``compute_individual``, ``progress``), scored on ``cuda_device``
    (``None``: the GPU when there is one) in ``precision`` (both ignored when ``lm`` is given: it
    was placed when loaded)."""
    lm = lm or MaskedLm(model_name, cuda_device=cuda_device, precision=precision, multi_token=multi_token)
    return evaluate_prompts(MaskedLmScorer(lm), model_name, prompts, registry, batch_size=batch_size, **options)


def table6_row(model_name: str, prompts: Sequence[WinoVentiPrompt], scores: Dict[str, Any],
               registry: Optional[Registry] = None, registry_name: Optional[str] = None,
               intersection_models: Optional[Sequence[str]] = None,
               own_flags: Optional[Callable[[], Dict[Triple, bool]]] = None, own_flags_source: str = "",
               **extra: Any) -> Dict[str, Any]:
    """One model's Table-6 row from its per-prompt results ``scores`` (``correct``: line -> right;
    optionally ``skipped_lines`` and ``multi_piece_words``), for masked and causal LMs alike.

    Individual flags come from ``registry`` (column ``registry_name``, or the model name matched by
    :func:`registry_column`), else from ``own_flags()`` (the model's own adversarial filter, named by
    ``own_flags_source``); Intersection needs ``registry``. ``extra`` keys (e.g. ``score``) are added.
    The per-prompt results are kept for the caller under ``correct`` (line -> right) and ``logits``
    (line -> [o_g score, o_e score]; {} when ``scores`` has none): pop both before printing the row."""
    correct = scores["correct"]
    row: Dict[str, Any] = {
        "model": model_name,
        **extra,
        "prompts": len(prompts),
        "scored_prompts": len(correct),
        "skipped_prompts": len(scores.get("skipped_lines", ())),
        "multi_piece_words": scores.get("multi_piece_words", []),
        "all": subset_accuracy(prompts, correct),
    }
    column = None
    if registry is not None:
        column = registry_name if registry_name in registry.flags else registry_column(registry, registry_name or model_name)
    flags = None
    if column is not None:
        flags = registry.flags[column]
        row["individual_source"] = f"registry:{column}"
    elif own_flags is not None:
        flags = own_flags()
        row["individual_source"] = own_flags_source
    if flags is not None:
        row["individual"] = subset_accuracy(prompts, correct, individual_pairs(prompts, flags))
    if registry is not None:
        used = resolve_intersection_models(registry, intersection_models)
        row["intersection"] = subset_accuracy(prompts, correct, intersection_pairs(prompts, registry, used))
        row["intersection_models"] = used
    row["correct"] = correct
    row["logits"] = scores.get("logits", {})
    return row


def format_table(rows: Sequence[Dict[str, Any]], total_pairs: Optional[int] = None) -> str:
    """The rows in the layout of the paper's Table 6 (accuracy %, N = pairs)."""
    name_width = max([len("Model name")] + [len(str(r["model"])) for r in rows]) + 1
    widths = [name_width, 8, 8, 8, 8, 6, 6, 8, 8]
    gaps = [" ", " ", "  ", " ", " ", "  ", " ", " "]
    header = [["", "All", "", "Individual", "", "", "Intersection", "", ""],
              ["Model name", "Generic", "Exceptn", "Generic", "Exceptn", "N", "N", "Generic", "Exceptn"]]
    table = []
    for r in rows:
        a, i, x = r["all"], r.get("individual", {}), r.get("intersection", {})
        table.append([r["model"], format_number(a["generic"]), format_number(a["exception"]),
                      format_number(i.get("generic")), format_number(i.get("exception")), format_number(i.get("n"), 0),
                      format_number(x.get("n"), 0), format_number(x.get("generic")), format_number(x.get("exception"))])
    lines = [text_table(table, widths, "<" + ">" * 8, gaps, header=header, rule="-")]
    notes = []
    for r in rows:
        note = f"{r['model']}: scored {r['scored_prompts']}/{r['prompts']} prompts (All N = {r['all']['n']} pairs)"
        if r["skipped_prompts"]:
            words = r["multi_piece_words"]
            shown = ", ".join(words[:12]) + (f", ... ({len(words)} words)" if len(words) > 12 else "")
            note += f"; {r['skipped_prompts']} prompts skipped: multi-piece outcome words [{shown}]"
        if "individual_source" in r:
            note += f"; Individual from {r['individual_source']}"
        if "intersection_models" in r:
            used = r["intersection_models"]
            note += ("; Intersection over the 12 Table-6 models" if used == list(TABLE6_MODELS)
                     else f"; Intersection over {len(used)} registry columns: {', '.join(used)}")
        notes.append(note)
    return "\n".join(lines + [""] + notes)
