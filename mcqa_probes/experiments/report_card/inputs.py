"""What a report card is computed from (the command's options), and the shape of a section result.

A section runner returns :func:`absent` (with the reason the section cannot run for this model
and data) or :func:`done` (its numbers, a one-line reading, figures, the equivalent commands and
the sha256 of every data file it read).
"""
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional

from mcqa_probes.common.io import sha256_json

#: The probe files looked for under --probes-dir, in the paper's order.
WORDNETQA_PROBES = ("definitions", "synonymy", "hypernymy", "hyponymy", "dictionary")


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

    def to_json(self) -> Dict[str, Any]:
        return asdict(self)


def section_key(*parts: Any) -> str:
    """A stable hash of what a section's numbers depend on (model fingerprint, data sha256, options)."""
    return sha256_json(list(parts))


def absent(reason: str) -> Dict[str, Any]:
    """A section that does not run for this model / data, and why."""
    return {"status": "absent", "reason": reason}


def done(results: Dict[str, Any], reading: str, commands: List[str], data: Dict[str, str],
         figures: Optional[Dict[str, str]] = None, notes: Optional[List[str]] = None) -> Dict[str, Any]:
    """A finished section: ``results`` (every number), a one-line ``reading``, the equivalent
    ``commands``, the ``data`` files' sha256, ``figures`` (name -> path relative to the page) and
    ``notes`` shown under its table."""
    return {"status": "done", "results": results, "reading": reading, "commands": commands, "data": data,
            "figures": figures or {}, "notes": notes or []}
