"""Robust knowledge across prompts, from item records (plain Python: no torch).

An item record is one question answered by one model (``mcqa_probes.metrics.item_records``): its
``correct`` and ``chosen`` per prompt (``"mcqa"``, ``"mlm"``, ``"cloze/sum"``, ``"cloze/chars"``,
``"cloze/pmi"``, ``"letters/rot0"`` .. ``"letters/rot4"``, ``"choice_only"``, ...), its semantic
``cluster`` and its ``id``. A single prompt's accuracy hides how much the way of asking moves a
model; this module says which questions a model answers right **however it is asked**:

* **known under every prompt** (``robust``): a question is known when it is right under every one of
  the *knowledge prompts* that were run on it (:func:`knowledge_prompts`: every prompt but the
  controls, ``choice_only...``, and ``cloze/mean``, the fourth cloze normalisation, which the card's
  range across prompts leaves out too; ``prompts=`` picks others). ``robust_accuracy`` is the share
  of questions known; a question that lacks one of the group's knowledge prompts is left out of it
  (``robust_questions`` counts the questions it is over);
* per cluster: ``robust_cluster_accuracy``, the share of semantic clusters whose every question is
  known (the strict cluster accuracy of robust knowledge), beside each prompt's own strict cluster
  accuracy (``cluster_accuracy``); a question without a cluster key is a cluster of its own;
* the **agreement matrix**: for two prompts, the share of the questions asked under both that they
  answer the same (the same chosen choice), over every prompt of the records, controls included;
* **at least k of n rotations** (OpenCompass's CircularEval): for the lettered prompt asked under n
  rotations (``letters/rot0`` .. ``letters/rot<n-1>``), the share of questions right under at least
  k of them, k = 1 .. n (k = n is circular accuracy). Questions asked under different numbers of
  rotations (different numbers of choices) are kept apart, by n.

Prompts derived from others rather than ways of asking (:data:`DERIVED_PREFIXES`: the PriDe-debiased
lettered prompt ``letters/pride/rot<r>``, :func:`mcqa_probes.metrics.item_records.add_pride_prompts`)
are left out of all of these (:func:`asked_prompts`).

A prompt name may carry a qualifier after `` @`` (``bin/prompt_sweep`` names the prompts of its
second and later combinations so: ``cloze/sum @5-shot``); the rules above read the name before it
(``choice_only @letters`` is a control), and each qualifier's rotations are counted apart
(``at least k`` keyed ``"5 @5-shot"``).

:func:`robust_knowledge` computes these for one group of records (one model, section and probe);
:func:`robust_by_group` for every group of a list of records.
"""
import re
from collections import OrderedDict
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

#: prompts that are controls, not ways of asking the question (a prefix match)
CONTROL_PREFIXES = ("choice_only",)
#: prompts derived from other prompts' scores, not ways of asking (a prefix match): left out of every number here
DERIVED_PREFIXES = ("letters/pride/",)
#: ways of asking left out of "known under every prompt" by default
NOT_ROBUST = ("cloze/mean",)
#: the order prompts are shown in (then any other name, alphabetically)
PROMPT_ORDER = ("mcqa", "mlm", "cloze/sum", "cloze/mean", "cloze/chars", "cloze/pmi", "letters")
ROTATION = re.compile(r"^letters/rot(\d+)$")

GroupKey = Tuple[str, str, str]


QUALIFIER = " @"


def base_prompt(prompt: str) -> str:
    """The prompt's name without its qualifier (``cloze/sum @5-shot`` -> ``cloze/sum``)."""
    return prompt.split(QUALIFIER, 1)[0]


def qualifier(prompt: str) -> str:
    return prompt.split(QUALIFIER, 1)[1] if QUALIFIER in prompt else ""


def is_control(prompt: str) -> bool:
    return base_prompt(prompt).startswith(CONTROL_PREFIXES)


def prompt_sort_key(prompt: str) -> Tuple[bool, str, int, int, str]:
    """Where ``prompt`` goes among others: :data:`PROMPT_ORDER`, the rotations by number, the rest by
    name, the controls last."""
    rotation = ROTATION.match(prompt)
    if rotation:
        return (len(PROMPT_ORDER), int(rotation.group(1)), prompt)
    if is_control(prompt):
        return (len(PROMPT_ORDER) + 2, 0, prompt)
    if prompt in PROMPT_ORDER:
        return (PROMPT_ORDER.index(prompt), 0, prompt)
    return (len(PROMPT_ORDER) + 1, 0, prompt)


def ordered_prompts(prompts: Iterable[str]) -> List[str]:
    return sorted(set(prompts), key=prompt_sort_key)


def is_derived(prompt: str) -> bool:
    return base_prompt(prompt).startswith(DERIVED_PREFIXES)


def asked_prompts(prompts: Iterable[str]) -> List[str]:
    """:func:`ordered_prompts` without the derived ones (:data:`DERIVED_PREFIXES`): the ways of asking."""
    return [p for p in ordered_prompts(prompts) if not is_derived(p)]


def knowledge_prompts(prompts: Iterable[str]) -> List[str]:
    """The prompts that count for "known under every prompt": all but the controls and :data:`NOT_ROBUST`."""
    return [p for p in ordered_prompts(prompts) if not is_control(p) and base_prompt(p) not in NOT_ROBUST]


def rotation_prompts(prompts: Iterable[str]) -> List[str]:
    """``letters/rot<r>`` prompts, by rotation."""
    return [p for p in ordered_prompts(prompts) if ROTATION.match(base_prompt(p))]


def group_key(record: Dict[str, Any]) -> GroupKey:
    return (str(record.get("model")), str(record.get("section")), str(record.get("probe")))


def cluster_of(record: Dict[str, Any]) -> Tuple[str, str]:
    """The record's semantic cluster; a question without one is its own cluster."""
    cluster = record.get("cluster")
    return ("cluster", str(cluster)) if cluster not in (None, "") else ("question", str(record.get("id")))


def _share(right: int, total: int) -> Optional[float]:
    return right / total if total else None


def question_known(record: Dict[str, Any], prompts: Sequence[str]) -> Optional[bool]:
    """Right under every one of ``prompts``; None when the record lacks one of them."""
    correct = record.get("correct") or {}
    if not prompts or any(p not in correct for p in prompts):
        return None
    return all(bool(correct[p]) for p in prompts)


def agreement_matrix(records: Sequence[Dict[str, Any]], prompts: Sequence[str]) -> Dict[str, Any]:
    """For every two ``prompts``: the share of the questions asked under both whose chosen choice is the
    same (``matrix``, None where no question has both) and how many questions that is (``counts``)."""
    matrix: List[List[Optional[float]]] = []
    counts: List[List[int]] = []
    for first in prompts:
        shares, sizes = [], []
        for second in prompts:
            same = total = 0
            for record in records:
                chosen = record.get("chosen") or {}
                if first in chosen and second in chosen:
                    total += 1
                    same += chosen[first] == chosen[second]
            shares.append(_share(same, total))
            sizes.append(total)
        matrix.append(shares)
        counts.append(sizes)
    return {"prompts": list(prompts), "matrix": matrix, "counts": counts}


def circular_counts(records: Sequence[Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    """Per number of rotations n (a string key; ``"n @qualifier"`` for a qualified lettered prompt):
    ``questions`` asked under n rotations and ``at_least`` (k = 1 .. n as string keys): the share of
    them right under at least k rotations."""
    tallies: Dict[Tuple[str, int], List[int]] = {}
    for record in records:
        correct = record.get("correct") or {}
        by_qualifier: Dict[str, List[str]] = {}
        for prompt in rotation_prompts(correct):
            by_qualifier.setdefault(qualifier(prompt), []).append(prompt)
        for extra, rotations in by_qualifier.items():
            right = sum(bool(correct[p]) for p in rotations)
            tallies.setdefault((extra, len(rotations)), []).append(right)
    return {(f"{n}{QUALIFIER}{extra}" if extra else str(n)):
            {"questions": len(rights), "at_least": {str(k): sum(r >= k for r in rights) / len(rights)
                                                    for k in range(1, n + 1)}}
            for (extra, n), rights in sorted(tallies.items())}


def robust_knowledge(records: Sequence[Dict[str, Any]], prompts: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """The robust-knowledge numbers of one group of records (one model, section and probe).

    Returns ``questions``; ``prompts`` (every prompt of the records but the derived ones, in order) with ``accuracy``,
    ``counts`` and ``cluster_accuracy`` (strict) per prompt; ``robust_prompts`` (``prompts`` given, else
    :func:`knowledge_prompts`); ``robust_questions`` (those asked under every robust prompt),
    ``robust_known``, ``robust_accuracy``, ``clusters`` (clusters of those questions),
    ``robust_cluster_accuracy``; ``agreement`` (:func:`agreement_matrix`); ``circular``
    (:func:`circular_counts`); ``per_question`` (``id``, ``cluster``, ``known``: True / False / None)
    and ``per_cluster`` (cluster key -> ``questions``, ``known``, ``all_known``)."""
    records = list(records)
    every = asked_prompts(p for record in records for p in (record.get("correct") or {}))
    robust = list(prompts) if prompts is not None else knowledge_prompts(every)
    accuracy: Dict[str, Optional[float]] = {}
    counts: Dict[str, int] = {}
    cluster_accuracy: Dict[str, Optional[float]] = {}
    for prompt in every:
        answered = [r for r in records if prompt in (r.get("correct") or {})]
        counts[prompt] = len(answered)
        accuracy[prompt] = _share(sum(bool(r["correct"][prompt]) for r in answered), len(answered))
        clusters: "OrderedDict[Tuple[str, str], bool]" = OrderedDict()
        for r in answered:
            key = cluster_of(r)
            clusters[key] = clusters.get(key, True) and bool(r["correct"][prompt])
        cluster_accuracy[prompt] = _share(sum(clusters.values()), len(clusters))
    per_question, per_cluster = [], OrderedDict()
    for record in records:
        known = question_known(record, robust)
        key = cluster_of(record)
        per_question.append({"id": record.get("id"), "cluster": record.get("cluster"), "known": known})
        if known is None:
            continue
        entry = per_cluster.setdefault(key, {"cluster": key[1] if key[0] == "cluster" else None,
                                             "questions": 0, "known": 0})
        entry["questions"] += 1
        entry["known"] += known
    for entry in per_cluster.values():
        entry["all_known"] = entry["known"] == entry["questions"]
    asked = [q for q in per_question if q["known"] is not None]
    known_count = sum(bool(q["known"]) for q in asked)
    return {
        "questions": len(records),
        "prompts": every,
        "accuracy": accuracy,
        "counts": counts,
        "cluster_accuracy": cluster_accuracy,
        "robust_prompts": robust,
        "robust_questions": len(asked),
        "robust_known": known_count,
        "robust_accuracy": _share(known_count, len(asked)),
        "clusters": len(per_cluster),
        "robust_cluster_accuracy": _share(sum(e["all_known"] for e in per_cluster.values()), len(per_cluster)),
        "agreement": agreement_matrix(records, every),
        "circular": circular_counts(records),
        "per_question": per_question,
        "per_cluster": [{"key": f"{kind}:{name}", **entry} for (kind, name), entry in per_cluster.items()],
    }


def robust_by_group(records: Iterable[Dict[str, Any]], prompts: Optional[Sequence[str]] = None,
                    per_item: bool = True) -> "OrderedDict[GroupKey, Dict[str, Any]]":
    """:func:`robust_knowledge` of every (model, section, probe) of ``records``, in the order the groups
    first appear; ``per_item=False`` leaves out ``per_question`` and ``per_cluster``."""
    groups: "OrderedDict[GroupKey, List[Dict[str, Any]]]" = OrderedDict()
    for record in records:
        groups.setdefault(group_key(record), []).append(record)
    results: "OrderedDict[GroupKey, Dict[str, Any]]" = OrderedDict()
    for key, members in groups.items():
        result = robust_knowledge(members, prompts)
        if not per_item:
            result.pop("per_question")
            result.pop("per_cluster")
        results[key] = result
    return results
