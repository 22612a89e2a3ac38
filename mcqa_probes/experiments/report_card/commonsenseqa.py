"""The CommonsenseQA section (Talmor et al. 2019): accuracy of an MCQA archive on the dev file, and in
SANITY mode (§5: every distractor replaced by a random answer of another question) -- the numbers of
``allennlp evaluate`` on the file and on ``bin/csqa_sanity``'s output -- each with its 95% interval:
a bootstrap over the questions' ``question_concept`` (the questions about one concept are one
semantic cluster). A causal LM answers the same questions zero-shot (:mod:`.causal_lm`: the
``causal_lm_mc`` model and reader, through the same loop).
"""
import itertools
import shlex
from typing import Any, Dict, List, Optional

from mcqa_probes.common.io import sha256_file
from mcqa_probes.data.commonsenseqa import sanity_questions
from mcqa_probes.data.question import read_questions
from mcqa_probes.experiments.report_card.causal_lm import causal_command, causal_key, causal_notes, causal_scores
from mcqa_probes.experiments.report_card.inputs import CardInputs, bootstrap_intervals, chance, done
from mcqa_probes.experiments.report_card.models import CardModel
from mcqa_probes.experiments.report_card.section import McqaSection, ReportSection, SectionContext, missing_file
from mcqa_probes.data.question import cluster_key
from mcqa_probes.reports.card.tables import (
    best_reference, count_cell, grid_table, interval_of, percent_cell, ran_models, reference_columns, summary_row,
)
from mcqa_probes.training.evaluation import accuracy, answer_questions, item_records

SANITY_SEED = 0
#: the paper's split the dev file is compared with (its BERT-large number on the question-concept
#: split is in the reference column's footnote)
SPLIT = "random split"


def _reference(row: Dict[str, Any]) -> bool:
    return row["model"] in ("BERT-large", "Human", "Random")


def reading(model: CardModel, results: Dict[str, Any]) -> str:
    text = (f"{model.label} answers {100 * results['accuracy']:.1f}% of {results['count']} CommonsenseQA dev "
            f"questions (chance {100 * results['chance']:.0f}%) and {100 * results['sanity_accuracy']:.1f}% once the "
            "distractors are random answers (SANITY): "
            + ("the distractors, not the questions, make it hard" if results["sanity_accuracy"] - results["accuracy"] > 0.2
               else "it gains little from easy distractors"))
    if results.get("score"):
        text += f" (zero-shot, score {results['score']})"
    return text + "."


@ReportSection.register("commonsenseqa")
class CommonsenseQaSection(McqaSection, title="CommonsenseQA (Talmor et al. 2019)", order=40):
    """Accuracy and SANITY accuracy of an MCQA archive on the CommonsenseQA dev file."""

    def why_inputs_absent(self, model: CardModel, inputs: CardInputs) -> Optional[str]:
        return missing_file("--csqa-dev", inputs.csqa_dev, "the CommonsenseQA dev file, original or HuggingFace layout")

    def key_parts(self, model: CardModel, inputs: CardInputs) -> Dict[str, Any]:
        return {"dev": sha256_file(inputs.csqa_dev), "max_questions": inputs.max_questions,
                "precision": inputs.precision, "sanity_seed": SANITY_SEED, **causal_key(model, inputs)}

    def run(self, model: CardModel, inputs: CardInputs, context: SectionContext) -> Dict[str, Any]:
        loaded = context.archive(model)
        limit = inputs.max_questions or None
        questions = list(read_questions(inputs.csqa_dev))
        sanity = sanity_questions(questions, SANITY_SEED)  # the pool of answers is the whole file's
        with context.progress_bar("dev"):
            plain = answer_questions(loaded.model, loaded.reader, list(itertools.islice(questions, limit)), inputs.batch_size)
        with context.progress_bar("SANITY"):
            controlled = answer_questions(loaded.model, loaded.reader, list(itertools.islice(sanity, limit)),
                                          inputs.batch_size)
        context.add_items(item_records(plain, model.label, "commonsenseqa", "dev")
                          + item_records(controlled, model.label, "commonsenseqa", "sanity"))
        intervals = {key: bootstrap_intervals((a.correct, cluster_key(a.metadata)) for a in answers).get("accuracy")
                     for key, answers in (("accuracy", plain), ("sanity_accuracy", controlled))}
        results = {"accuracy": accuracy(plain), "sanity_accuracy": accuracy(controlled), "count": len(plain),
                   "clustered": sum(cluster_key(a.metadata) is not None for a in plain),
                   "chance": chance(questions[: len(plain)]), "file": inputs.csqa_dev, "intervals": intervals}
        dev = shlex.quote(inputs.csqa_dev)
        if model.is_causal:
            results["score"] = loaded.score
            commands = [f"bin/csqa_sanity {dev} csqa_dev_sanity.jsonl --seed {SANITY_SEED}",
                        causal_command(model, inputs.csqa_dev, inputs), causal_command(model, "csqa_dev_sanity.jsonl", inputs)]
            return done(results, reading(model, results), commands, {inputs.csqa_dev: sha256_file(inputs.csqa_dev)})
        commands = [f"bin/csqa_sanity {dev} csqa_dev_sanity.jsonl --seed {SANITY_SEED}"]
        if limit:
            commands += [f"head -n {limit} {dev} > csqa_dev_{limit}.jsonl",
                         f"head -n {limit} csqa_dev_sanity.jsonl > csqa_dev_sanity_{limit}.jsonl",
                         f"allennlp evaluate {shlex.quote(model.location)} csqa_dev_{limit}.jsonl",
                         f"allennlp evaluate {shlex.quote(model.location)} csqa_dev_sanity_{limit}.jsonl"]
        else:
            commands += [f"allennlp evaluate {shlex.quote(model.location)} {dev}",
                         f"allennlp evaluate {shlex.quote(model.location)} csqa_dev_sanity.jsonl"]
        return done(results, reading(model, results), commands, {inputs.csqa_dev: sha256_file(inputs.csqa_dev)})

    masked_lm_needs = ("CommonsenseQA needs a multiple-choice QA model fine-tuned on it (allennlp train "
                       "training_config/csqa_transformer.jsonnet, or csqa_glove.jsonnet) and its model.tar.gz")

    def tables(self, section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        specs = [("accuracy %", lambda r: percent_cell(r.get("accuracy"), interval_of(r, "accuracy")),
                  ("commonsenseqa", "accuracy")),
                 ("SANITY accuracy %", lambda r: percent_cell(r.get("sanity_accuracy"), interval_of(r, "sanity_accuracy")),
                  ("commonsenseqa", "sanity_accuracy")),
                 ("questions", lambda r: count_cell(r.get("count")), None)]
        scores = causal_scores(ran_models(section, models))
        notes = ["SANITY: every distractor replaced by a random answer of another question (§5). Accuracy % with its 95% "
                 "interval (bootstrap over question concepts)."] + (causal_notes(scores)[:1] if scores else [])
        table = grid_table("CommonsenseQA dev", specs, section, models, (), reference_columns("commonsenseqa", None, _reference),
                           notes)
        return [table] if table else []

    def summary(self, section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        ran = ran_models(section, models)
        if not ran:
            return []
        cells, chance_cell = {}, None
        for model in ran:
            results = section["models"][model["label"]]["results"]
            cells[model["label"]] = percent_cell(results.get("accuracy"), interval_of(results, "accuracy"))
            chance_cell = chance_cell or percent_cell(results.get("chance"))
        best = best_reference("commonsenseqa", "commonsenseqa", "accuracy", lambda r: SPLIT in (r.get("setting") or ""))
        return [summary_row("CommonsenseQA: dev", cells, None, chance_cell, best)]
