"""What a report card is computed from (the command's options), and the shape of a section result.

A section's ``run`` returns :func:`absent` (with the reason the section cannot run for this model
and data) or :func:`done` (its numbers, a one-line reading, figures, the equivalent commands and
the sha256 of every data file it read). :func:`first_questions` reads a file as ``allennlp
evaluate`` does, up to ``--max-questions``; :func:`bootstrap_intervals` gives the 95% intervals of
an accuracy from per-question correctness, resampling semantic clusters.
"""
import itertools
from dataclasses import asdict, dataclass
from typing import Any, Dict, Iterable, List, Optional, Tuple

from mcqa_probes.common.io import sha256_json
from mcqa_probes.data.causal_prompts import DEFAULT_TEMPLATE
from mcqa_probes.data.question import read_questions
from mcqa_probes.metrics.probe_records import BOOTSTRAP_SAMPLES, ClusterTally, chance_level

#: The probe files looked for under --probes-dir, in the paper's order.
WORDNETQA_PROBES = ("definitions", "synonymy", "hypernymy", "hyponymy", "dictionary")
#: a causal LM's normalisations (the keys of the causal_lm_mc model's SCORES; a test checks they agree)
CAUSAL_SCORES = ("sum", "mean", "chars", "pmi")


@dataclass(frozen=True)
class CardInputs:
    """The options of ``allennlp probe-report`` (``bin/report_card``)."""

    #: directory of bin/build_probes output: <probe>/{train,dev,test}.jsonl
    probes_dir: Optional[str] = "probes"
    #: which split of each probe the MCQA model answers
    split: str = "test"
    #: oLMpics data directory (<probe>_dev.jsonl / _train.jsonl as released)
    olmpics_dir: Optional[str] = None
    #: a bin/olmpics_suite or bin/learning_curve output directory (WS / MAX learning curves)
    olmpics_curves: Optional[str] = None
    #: a WinoVenti TSV (winoventi_bert_large_final.tsv layout)
    winoventi_tsv: Optional[str] = None
    #: the associative-bias registry TSV (Individual from its columns, and the Intersection)
    winoventi_registry: Optional[str] = None
    #: CommonsenseQA dev file (labelled; original or HuggingFace layout)
    csqa_dev: Optional[str] = None
    #: a bin/artifact_audit output directory (its Choice-Only-GloVe results are used)
    audit_dir: Optional[str] = None
    #: a bin/inoculate output directory (or a directory of several)
    inoculation_dir: Optional[str] = None
    #: the first N questions of each file (0: all); WinoVenti: the first N pairs
    max_questions: int = 500
    #: Choice-Only-GloVe control: at most this many training questions of the probe
    control_max_train: int = 1000
    #: Choice-Only-GloVe control: training epochs
    control_epochs: int = 3
    #: questions per forward pass
    batch_size: int = 32
    #: -1 = CPU; None = the GPU when there is one
    cuda_device: Optional[int] = None
    #: fp32, bf16 or fp16 (autocast; scores in fp32)
    precision: str = "fp32"
    #: a causal LM's normalisation of a choice's log-likelihood: sum, mean, chars or pmi (the others are shown beside)
    causal_score: str = "sum"
    #: a causal LM's cloze prompt of a question ({stem} is the question)
    causal_template: str = DEFAULT_TEMPLATE
    #: re-score this many random questions (seeded) of every scored file alone and report the differences (0: no audit)
    determinism_check: int = 0

    def to_json(self) -> Dict[str, Any]:
        return asdict(self)


def section_key(*parts: Any) -> str:
    """A stable hash of what a section's numbers depend on (model fingerprint, data sha256, options)."""
    return sha256_json(list(parts))


#: how every interval on the card is computed (kept in report.json)
BOOTSTRAP = {"samples": BOOTSTRAP_SAMPLES, "level": 0.95, "seed": 0,
             "unit": "semantic cluster (a question without a cluster key is a cluster of its own)"}


def bootstrap_intervals(answers: Iterable[Tuple[bool, Optional[str]]]) -> Dict[str, List[float]]:
    """95% intervals (fractions) of instance accuracy (``accuracy``) and strict cluster accuracy
    (``cluster_accuracy``) over (correct, cluster key) per question: a percentile bootstrap that
    resamples semantic clusters (:meth:`mcqa_probes.metrics.probe_records.ClusterTally.intervals`)."""
    tally = ClusterTally()
    for correct, cluster in answers:
        tally.add(correct, cluster)
    if not tally.questions:
        return {}
    found = tally.intervals(BOOTSTRAP["samples"], BOOTSTRAP["level"], BOOTSTRAP["seed"])
    return {"accuracy": [found["accuracy_low"], found["accuracy_high"]],
            "cluster_accuracy": [found["cluster_accuracy_low"], found["cluster_accuracy_high"]]}


def first_questions(path, limit: Optional[int]) -> List[Any]:
    """The first ``limit`` questions of a labelled file (all with ``limit`` 0 or None), as
    ``allennlp evaluate`` reads them."""
    return list(itertools.islice(read_questions(path), limit or None))


def chance(questions: List[Any]) -> float:
    """Mean 1/K over ``questions`` (NaN for none)."""
    return chance_level(len(q.choices) for q in questions)


def absent(reason: str) -> Dict[str, Any]:
    """A section that does not run for this model / data, and why."""
    return {"status": "absent", "reason": reason}


def done(results: Dict[str, Any], reading: str, commands: List[str], data: Dict[str, str],
         figures: Optional[List[Dict[str, str]]] = None, notes: Optional[List[str]] = None) -> Dict[str, Any]:
    """A finished section: ``results`` (every number; an accuracy's 95% interval is in the same
    dict under ``intervals[<its key>]``, same unit), a one-line ``reading``, the equivalent
    ``commands``, the ``data`` files' sha256, ``figures`` (``{"path": relative to the page,
    "caption": ...}``) and ``notes`` shown under its reading."""
    return {"status": "done", "results": results, "reading": reading, "commands": commands, "data": data,
            "figures": figures or [], "notes": notes or []}
