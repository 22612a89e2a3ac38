"""The CommonsenseQA section (Talmor et al. 2019): accuracy of an MCQA archive on the dev file, and in
SANITY mode (§5: every distractor replaced by a random answer of another question) -- the numbers of
``allennlp evaluate`` on the file and on ``bin/csqa_sanity``'s output.
"""
import shlex
from pathlib import Path
from typing import Any, Dict, Optional

from mcqa_probes.common.io import sha256_file
from mcqa_probes.experiments.report_card.inputs import CardInputs, absent, done
from mcqa_probes.experiments.report_card.models import CardModel

SANITY_SEED = 0


def why_absent(model: CardModel, inputs: CardInputs) -> Optional[str]:
    if not model.is_mcqa:
        return (f"{model.label} is a masked LM; CommonsenseQA needs a multiple-choice QA model fine-tuned on it "
                "(training_config/csqa_bert.jsonnet) and its model.tar.gz")
    if not inputs.csqa_dev:
        return "no --csqa-dev given (the CommonsenseQA dev file, original or HuggingFace layout)"
    if not Path(inputs.csqa_dev).is_file():
        return f"--csqa-dev {inputs.csqa_dev}: no such file"
    return None


def key_parts(inputs: CardInputs) -> Dict[str, Any]:
    return {"dev": sha256_file(inputs.csqa_dev), "max_questions": inputs.max_questions,
            "precision": inputs.precision, "sanity_seed": SANITY_SEED}


def run(model: CardModel, inputs: CardInputs, out: Path, figure_prefix: str) -> Dict[str, Any]:
    reason = why_absent(model, inputs)
    if reason:
        return absent(reason)
    import itertools

    from mcqa_probes.common.device import resolve_cuda_device
    from mcqa_probes.data.commonsenseqa import sanity_questions
    from mcqa_probes.data.question import read_questions
    from mcqa_probes.experiments.report_card.answers import accuracy, answer_questions, load_archive_model

    loaded = load_archive_model(model.location, resolve_cuda_device(inputs.cuda_device), inputs.precision)
    limit = inputs.max_questions or None
    questions = list(read_questions(inputs.csqa_dev))
    sanity = sanity_questions(questions, SANITY_SEED)  # the pool of answers is the whole file's
    plain = answer_questions(loaded, list(itertools.islice(questions, limit)), inputs.batch_size)
    controlled = answer_questions(loaded, list(itertools.islice(sanity, limit)), inputs.batch_size)
    results = {"accuracy": accuracy(plain), "sanity_accuracy": accuracy(controlled), "count": len(plain),
               "chance": sum(1 / len(q.choices) for q in questions[: len(plain)]) / len(plain), "file": inputs.csqa_dev}
    dev = shlex.quote(inputs.csqa_dev)
    commands = [f"bin/csqa_sanity {dev} csqa_dev_sanity.jsonl --seed {SANITY_SEED}"]
    if limit:
        commands += [f"head -n {limit} {dev} > csqa_dev_{limit}.jsonl",
                     f"head -n {limit} csqa_dev_sanity.jsonl > csqa_dev_sanity_{limit}.jsonl",
                     f"allennlp evaluate {shlex.quote(model.location)} csqa_dev_{limit}.jsonl",
                     f"allennlp evaluate {shlex.quote(model.location)} csqa_dev_sanity_{limit}.jsonl"]
    else:
        commands += [f"allennlp evaluate {shlex.quote(model.location)} {dev}",
                     f"allennlp evaluate {shlex.quote(model.location)} csqa_dev_sanity.jsonl"]
    reading = (f"{model.label} answers {100 * results['accuracy']:.1f}% of {results['count']} CommonsenseQA dev "
               f"questions (chance {100 * results['chance']:.0f}%) and {100 * results['sanity_accuracy']:.1f}% once the "
               "distractors are random answers (SANITY): "
               + ("the distractors, not the questions, make it hard" if results["sanity_accuracy"] - results["accuracy"] > 0.2
                  else "it gains little from easy distractors"))
    return done(results, reading + ".", commands, {inputs.csqa_dev: sha256_file(inputs.csqa_dev)})
