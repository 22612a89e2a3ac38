"""What the sections share for a causal LM (kind ``causal_lm``: ``smollm2``, a causal LM name or
directory): zero-shot scoring with the ``causal_lm_mc`` model and reader, nothing trained.

:func:`load_causal_lm_model` builds what ``context.archive(model)`` gives a section for a causal LM
(the page's loader calls it once per page): the ``causal_lm_mc`` model (``--causal-score``, the
choice-only requests on), its reader (``--causal-template``) and the reader with the question
hidden (``hide_question``: the choice-only control, the LLM counterpart of Choice-Only-GloVe). So
a section answers questions with the same :func:`mcqa_probes.training.evaluation.answer_questions`
for an archive and a causal LM.

Every request's log-likelihood depends only on the request (the scorer's rows are independent), so
the model's scorer remembers its answers (:class:`RememberingScorer`): the accuracy under each
normalisation (:func:`answers_by_score`, the model's ``score`` switched) and the choice-only
control cost one pass over the requests and the neutral requests, and give per-question
correctness (bootstrap intervals) for each.
"""
import contextlib
import shlex
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from allennlp.data import Vocabulary

from mcqa_probes.common.device import place_model
from mcqa_probes.data.causal_prompts import DEFAULT_TEMPLATE
from mcqa_probes.data.dataset_readers.causal_lm_mc import CausalLmMcReader
from mcqa_probes.experiments.report_card.inputs import CardInputs, bootstrap_intervals
from mcqa_probes.experiments.report_card.models import CardModel
from mcqa_probes.data.question import cluster_key
from mcqa_probes.models.causal_lm_mc import SCORES, CausalLmMc
from mcqa_probes.reports.card.tables import percent_cell, points_cell, text_cell
from mcqa_probes.training.evaluation import Answer, accuracy, answer_questions

#: the normalisations reported beside the model's own ``--causal-score``
BESIDE = ("sum", "chars", "pmi")
#: the lettered prompt (``prompt_format: letters``, scored by the letters' log-probability) beside the cloze ones
LETTERS = "letters"
#: a control this far above chance (fraction) is flagged, as bin/artifact_audit flags a partial-input model
FLAG_MARGIN = 0.25
FLAG = "⚑"
CONTROL = "choice-only"


class RememberingScorer:
    """A :class:`~mcqa_probes.models.causal_lm_scoring.CausalLmScorer` that answers each distinct
    request once and remembers it (the answers do not depend on the batch a request is in)."""

    def __init__(self, scorer: Any):
        self.scorer = scorer
        self.answers: Dict[Tuple[str, str], Any] = {}

    def loglikelihood(self, requests) -> List[Any]:
        requests = [tuple(request) for request in requests]
        todo = list(dict.fromkeys(r for r in requests if r not in self.answers))
        if todo:
            self.answers.update(zip(todo, self.scorer.loglikelihood(todo)))
        return [self.answers[request] for request in requests]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.scorer, name)


@dataclass
class LoadedCausalLm:
    """A causal LM as the sections use it: ``model`` and ``reader`` as a loaded archive's, and
    ``hide_reader`` (the choice-only control); ``score`` is the page's ``--causal-score``."""

    model: CausalLmMc
    reader: CausalLmMcReader
    hide_reader: CausalLmMcReader
    score: str
    template: str
    letters_reader: Optional[CausalLmMcReader] = None


def load_causal_lm_model(model: CardModel, inputs: CardInputs) -> LoadedCausalLm:
    """The ``causal_lm_mc`` model of ``model`` (eval mode, on ``cuda_device``, in ``precision``)
    scored by ``inputs.causal_score``, the choice-only requests on, and its two readers."""
    lm = CausalLmMc(Vocabulary(), transformer_model_name=model.location, score=inputs.causal_score,
                    choice_only_control=True, batch_size=inputs.batch_size)
    place_model(lm, inputs.cuda_device, inputs.precision)
    lm.eval()
    lm._scorer = RememberingScorer(lm.scorer)  # after place_model: the precision is the scorer's own
    return LoadedCausalLm(lm, CausalLmMcReader(template=inputs.causal_template),
                          CausalLmMcReader(template=inputs.causal_template, hide_question=True),
                          inputs.causal_score, inputs.causal_template, CausalLmMcReader(prompt_format="letters"))


@contextlib.contextmanager
def scored_by(model: CausalLmMc, score: str) -> Iterator[None]:
    """``model`` turns its choices' log-likelihoods into logits by ``score`` inside the block."""
    kept = model.score
    model.score = score
    try:
        yield
    finally:
        model.score = kept


def control_score(score: str) -> str:
    """The normalisation of the choice-only control: the model's own (``sum`` for ``pmi``, whose
    neutral prompt is the control's prompt: every PMI score would be 0)."""
    return "sum" if score == "pmi" else score


def answers_by_score(loaded: LoadedCausalLm, questions: Sequence[Any], batch_size: int,
                     scores: Sequence[str] = tuple(SCORES)) -> Dict[str, List[Answer]]:
    """Per normalisation (and ``choice_only``: the question hidden, :func:`control_score`; and
    ``letters``: the lettered prompt, scored by the letters' log-probabilities), the model's answers
    to ``questions`` (:func:`~mcqa_probes.training.evaluation.answer_questions`)."""
    found = {}
    for score in scores:
        with scored_by(loaded.model, score):
            found[score] = answer_questions(loaded.model, loaded.reader, questions, batch_size)
    if loaded.letters_reader is not None:
        with scored_by(loaded.model, "sum"):
            found[LETTERS] = answer_questions(loaded.model, loaded.letters_reader, questions, batch_size)
    with scored_by(loaded.model, control_score(loaded.score)):
        found[CONTROL] = answer_questions(loaded.model, loaded.hide_reader, questions, batch_size)
    return found


def accuracy_result(answers: Sequence[Answer]) -> Dict[str, Any]:
    """Accuracy and its 95% interval (bootstrap over semantic clusters) of ``answers``."""
    return {"accuracy": accuracy(answers),
            "intervals": {"accuracy": bootstrap_intervals((a.correct, cluster_key(a.metadata)) for a in answers).get("accuracy")}}


def causal_results(found: Dict[str, List[Answer]], score: str, chance: float) -> Dict[str, Any]:
    """What a causal LM's result adds to a probe's: ``score``, ``by_score`` (accuracy and interval per
    normalisation) and ``choice_only`` (the control: accuracy, interval, its normalisation and
    ``flagged`` when at least :data:`FLAG_MARGIN` above chance)."""
    control = dict(accuracy_result(found[CONTROL]), score=control_score(score))
    control["flagged"] = bool(control["accuracy"] >= chance + FLAG_MARGIN)
    by_score = {name: accuracy_result(answers) for name, answers in found.items() if name != CONTROL}
    return {"score": score, "by_score": by_score, "choice_only": control, "prompt_range": prompt_range(by_score)}


def prompt_range(by_score: Dict[str, Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The lowest and highest accuracy over the prompts shown (cloze under sum / chars / pmi, letters):
    the spread one number would hide."""
    shown = {name: result["accuracy"] for name, result in by_score.items()
             if name in (*BESIDE, LETTERS) and result.get("accuracy") == result.get("accuracy")}
    if len(shown) < 2:
        return None
    low, high = min(shown, key=shown.get), max(shown, key=shown.get)
    return {"low": shown[low], "high": shown[high], "lowest": low, "highest": high, "range": shown[high] - shown[low]}


def causal_key(model: CardModel, inputs: CardInputs) -> Dict[str, Any]:
    """What a causal LM's numbers depend on besides its weights and the data (part of the cache key)."""
    return {"causal_score": inputs.causal_score, "causal_template": inputs.causal_template} if model.is_causal else {}


def causal_command(model: CardModel, path: Any, inputs: CardInputs) -> str:
    """The command that prints the same accuracies (every normalisation and the choice-only control)."""
    return (f"bin/causal_probe_table --model {shlex.quote(model.location)}"
            + f" --limit {inputs.max_questions} {shlex.quote(str(path))}"
            + ("" if inputs.causal_template == DEFAULT_TEMPLATE else f"  # with the template {inputs.causal_template!r}"))


def control_cell(result: Dict[str, Any]) -> Dict[str, Any]:
    """The choice-only control of a probe result as a cell (flagged when far above chance)."""
    control = (result or {}).get("choice_only")
    if not control:
        return percent_cell(None)
    cell = percent_cell(control["accuracy"], (control.get("intervals") or {}).get("accuracy"))
    if control.get("flagged"):
        cell["text"] += f" {FLAG}"
        cell["tooltip"] = f"{100 * FLAG_MARGIN:.0f}+ points above chance: the choices give the answer away"
    return cell


def by_score_cell(result: Dict[str, Any], score: str) -> Dict[str, Any]:
    found = ((result or {}).get("by_score") or {}).get(score)
    if not found:
        return percent_cell(None)
    return percent_cell(found["accuracy"], (found.get("intervals") or {}).get("accuracy"))


def causal_rows(prefix: str, get, score: Optional[str]) -> List[Tuple[str, Any, None]]:
    """Row specs (:func:`mcqa_probes.reports.card.tables.grid_table`) of a causal LM's extra numbers:
    accuracy under the normalisations beside ``score``, and the choice-only control."""
    rows = [(f"{prefix}accuracy, {name} %", lambda r, name=name: by_score_cell(get(r), name), None)
            for name in BESIDE if name != score]
    rows.append((f"{prefix}accuracy, letters (A. B. ... listed) %", lambda r: by_score_cell(get(r), LETTERS), None))
    rows.append((f"{prefix}range across prompts (points)", lambda r: range_cell(get(r)), None))
    rows.append((f"{prefix}choice-only (question hidden) %", lambda r: control_cell(get(r)), None))
    return rows


def range_cell(result: Dict[str, Any]) -> Dict[str, Any]:
    found = (result or {}).get("prompt_range")
    if not found:
        return text_cell()
    cell = points_cell(100 * found["range"])
    cell["tooltip"] = (f"lowest {100 * found['low']:.1f}% ({found['lowest']}), highest {100 * found['high']:.1f}% "
                       f"({found['highest']})")
    return cell


def causal_notes(scores: Sequence[str]) -> List[str]:
    """Notes naming each normalisation shown and the control (under a table with a causal LM)."""
    shown = list(dict.fromkeys([*scores, *BESIDE]))
    return (["Causal LM (zero-shot, nothing trained): the column header names the normalisation of its accuracy; "
             + "; ".join(f"{name} = {SCORES[name]}" for name in shown)
             + "; letters = the choices listed as A. B. ... and the letters' log-probabilities compared (lm-evaluation-"
               "harness's commonsense_qa prompt); range across prompts = highest minus lowest of these accuracies."]
            + [f"Choice-only: the same LM scoring each choice after the neutral prompt alone (the question hidden; "
               f"the LLM counterpart of Choice-Only-GloVe); {FLAG} = {100 * FLAG_MARGIN:.0f} or more points above "
               "chance (as bin/artifact_audit flags), the choices alone give the answer away."])


def causal_scores(models: Sequence[Dict[str, Any]]) -> List[str]:
    """The ``--causal-score`` of the page's causal LMs (report.json model entries)."""
    return list(dict.fromkeys(m["score"] for m in models if m.get("kind") == "causal_lm" and m.get("score")))


def reading_suffix(found: Dict[str, Any]) -> str:
    """``"; choice-only control flagged on hypernymy"`` for the probes whose control is far above chance."""
    flagged = [probe for probe, result in found.items() if (result.get("choice_only") or {}).get("flagged")]
    if not flagged:
        return f"; no choice-only control is {100 * FLAG_MARGIN:.0f} points above chance" if found else ""
    return f"; the choice-only control (question hidden) is {100 * FLAG_MARGIN:.0f}+ points above chance on " + ", ".join(flagged)
