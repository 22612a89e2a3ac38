"""WinoVenti §2.4 adversarial filtering, for any masked LM.

A (noun, generic association, exception association) triple passes when the model, given only the
neutral template "The [NOUN] is [MASK].", gives the generic a higher probability than the
exception at the mask (strictly; softmax is monotone, so the logits are compared). Triples with a
word that is not one vocabulary piece of the model are reported as ``multi_piece`` (not passed).
The result, written in the ``associativebias_registry.tsv`` layout, is a model's "Individual"
subset for :mod:`.evaluate`; a ``multi_piece`` triple has no flag there (:func:`as_registry`; an
empty cell: not known, neither pass nor fail).
"""
from typing import Callable, Dict, List, Optional, Sequence

from mcqa_probes.data.winoventi import Registry, Triple
from mcqa_probes.data.candidates import CandidateNotSinglePieceError
from mcqa_probes.experiments.winoventi.scoring import MaskedLm

NEUTRAL_TEMPLATE = "The {noun} is [MASK]."


def adversarial_filter(lm: MaskedLm, triples: Sequence[Triple], template: str = NEUTRAL_TEMPLATE,
                       batch_size: int = 64, progress: Optional[Callable] = None) -> List[Dict]:
    """One result per triple: ``{"triple", "status": pass|fail|multi_piece, "generic_logit", "exception_logit"}``."""
    instances, positions, results = [], [], []
    for triple in triples:
        noun, generic, exception = triple
        result: Dict = {"triple": tuple(triple), "status": "multi_piece", "generic_logit": None, "exception_logit": None}
        try:
            instances.append(lm.reader.text_to_instance(template.format(noun=noun), [generic, exception]))
            positions.append(len(results))
        except CandidateNotSinglePieceError as error:
            result["multi_piece_word"] = error.word
        results.append(result)
    chunk = max(batch_size * 8, 1)
    starts = range(0, len(instances), chunk)
    logits: List[List[float]] = []
    for start in (progress(starts) if progress else starts):
        logits += lm.candidate_logits(instances[start:start + chunk], batch_size)
    for position, (generic_logit, exception_logit) in zip(positions, logits):
        results[position].update(generic_logit=generic_logit, exception_logit=exception_logit,
                                 status="pass" if generic_logit > exception_logit else "fail")
    return results


def filter_flags(results: Sequence[Dict]) -> Dict[Triple, bool]:
    return {tuple(r["triple"]): r["status"] == "pass" for r in results}


def as_registry(model_name: str, results: Sequence[Dict]) -> Registry:
    """The flags of the scored triples as one registry column; a ``multi_piece`` triple (not scorable)
    has none: :func:`~mcqa_probes.data.winoventi.write_registry` writes it as an empty cell (not
    known), never as ``False`` (failed the filter)."""
    return Registry([model_name], {model_name: filter_flags([r for r in results if r["status"] != "multi_piece"])})


def summary(results: Sequence[Dict]) -> Dict[str, int]:
    counts = {"pass": 0, "fail": 0, "multi_piece": 0}
    for r in results:
        counts[r["status"]] += 1
    return counts
