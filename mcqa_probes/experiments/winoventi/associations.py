"""WinoVenti §2.2 generic associations for any masked LM, and their Jaccard similarity (Table 4).

For a target noun, the model fills the affirmative templates "The [ENTITY] is [MASK]." and
"The [ENTITY] is [MASK]," and their negations "The [ENTITY] is not [MASK]." / "... not [MASK],".
For each punctuation variant, the *generic associations at k* are the words in both the top-k of
the affirmative and the top-k of the negated template; a noun's associations at k are the union
over the two variants (footnote 2: "a simple set S of two templates"). Top-k lists are nested, so
associations are cumulative in k, as in Table 3.

Only *words* compete for the top-k (``words_only``, default): vocabulary pieces that are one
word in word-initial form under the same rule as MC-MLM candidates
(:func:`~mcqa_probes.models.masked_lm_scoring.candidate_token_id`: ``Ġword`` for byte-level BPE,
``▁word`` for SentencePiece, ``word`` for WordPiece) and are alphabetic - so punctuation,
sub-word continuations and special tokens never become associations, and every association
can be scored by the adversarial filter. Words are compared lower-cased across models.

Jaccard similarity of two models at k: ``|A ∩ B| / |A ∪ B|`` over the sets of (noun, word) pairs,
on the nouns both models were run on.
"""
import math
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

import torch

from mcqa_probes.reports.tables import format_number, text_table
from mcqa_probes.data.candidates import CandidateNotSinglePieceError, candidate_token_id
from mcqa_probes.experiments.winoventi.scoring import MaskedLm

AFFIRMATIVE_TEMPLATES = ("The {noun} is [MASK].", "The {noun} is [MASK],")
NEGATED_TEMPLATES = ("The {noun} is not [MASK].", "The {noun} is not [MASK],")
KS = (1, 3, 5, 8)


def word_token_ids(tokenizer) -> List[int]:
    """Ids of pieces that are a whole alphabetic word in word-initial form (the MC-MLM candidate rule)."""
    special = set(tokenizer.all_special_ids)
    ids = []
    for token_id in range(len(tokenizer)):
        if token_id in special:
            continue
        word = tokenizer.convert_tokens_to_string([tokenizer.convert_ids_to_tokens(token_id)]).strip()
        if not word.isalpha():
            continue
        try:
            if candidate_token_id(tokenizer, word) == token_id:
                ids.append(token_id)
        except CandidateNotSinglePieceError:
            continue
    return ids


def top_words(lm: MaskedLm, texts: Sequence[str], k: int, allowed_ids: Optional[Sequence[int]] = None,
              batch_size: int = 32, progress: Optional[Callable] = None) -> List[List[str]]:
    """The k highest-scoring words at the mask of each text (restricted to ``allowed_ids``)."""
    logits = lm.mask_logits(texts, batch_size=batch_size, progress=progress)
    if allowed_ids is not None:
        allowed = torch.as_tensor(list(allowed_ids), dtype=torch.long)
        top = logits[:, allowed].topk(min(k, len(allowed)), dim=1).indices
        ids = allowed[top]
    else:
        ids = logits.topk(k, dim=1).indices
    tokenizer = lm.tokenizer
    return [[tokenizer.convert_tokens_to_string([tokenizer.convert_ids_to_tokens(i)]).strip() for i in row.tolist()]
            for row in ids]


def mine_associations(lm: MaskedLm, nouns: Sequence[str], ks: Sequence[int] = KS, words_only: bool = True,
                      batch_size: int = 32, progress: Optional[Callable] = None) -> List[Dict]:
    """One record per noun: ``{"noun", "associations": {"1": [...], "3": [...], ...}, "top": {template: words}}``."""
    ks = sorted(set(int(k) for k in ks))
    depth = ks[-1]
    allowed = word_token_ids(lm.tokenizer) if words_only else None
    templates = list(AFFIRMATIVE_TEMPLATES) + list(NEGATED_TEMPLATES)
    texts = [template.format(noun=noun) for noun in nouns for template in templates]
    tops = top_words(lm, texts, depth, allowed, batch_size, progress)
    records = []
    for index, noun in enumerate(nouns):
        block = tops[index * len(templates):(index + 1) * len(templates)]
        top = dict(zip(templates, block))  # keyed by template; the text is template.format(noun=noun)
        associations = {}
        for k in ks:
            words: Dict[str, None] = {}
            for affirmative, negated in zip(AFFIRMATIVE_TEMPLATES, NEGATED_TEMPLATES):
                negated_top = set(top[negated][:k])
                for word in top[affirmative][:k]:
                    if word in negated_top:
                        words.setdefault(word, None)
            associations[str(k)] = list(words)
        records.append({"model": lm.name, "noun": noun, "associations": associations, "top": top})
    return records


def association_set(records: Iterable[Dict], k: int, nouns: Optional[Set[str]] = None) -> Set[Tuple[str, str]]:
    """(noun, word) pairs at k, lower-cased (optionally only for the given lower-cased nouns)."""
    pairs = set()
    for record in records:
        noun = record["noun"].lower()
        if nouns is not None and noun not in nouns:
            continue
        for word in record["associations"].get(str(k), []):
            pairs.add((noun, word.lower()))
    return pairs


def jaccard(a: Set, b: Set) -> float:
    """|A ∩ B| / |A ∪ B| (NaN when both are empty)."""
    union = a | b
    return len(a & b) / len(union) if union else math.nan


def jaccard_table(models: Dict[str, List[Dict]], ks: Sequence[int] = (1, 3, 5), reference: Optional[str] = None
                  ) -> List[Dict]:
    """Table 4: each model's Jaccard similarity to ``reference`` (default: the first model) per k."""
    names = list(models)
    reference = reference or names[0]
    rows = []
    for name in names:
        shared = {r["noun"].lower() for r in models[name]} & {r["noun"].lower() for r in models[reference]}
        row = {"model": name, "reference": reference, "nouns": len(shared)}
        for k in ks:
            row[str(k)] = jaccard(association_set(models[name], k, shared), association_set(models[reference], k, shared))
        rows.append(row)
    return rows


def format_jaccard_table(rows: Sequence[Dict], ks: Sequence[int] = (1, 3, 5)) -> str:
    width = max([len("Model name")] + [len(r["model"]) for r in rows]) + 2
    widths, align = [width] + [9] * len(ks) + [8], "<" + ">" * (len(ks) + 1)
    table = [[r["model"]] + [format_number(r[str(k)], digits=2) for k in ks] + [r["nouns"]] for r in rows]
    lines = [f"Jaccard similarity of generic associations with respect to {rows[0]['reference']}" if rows else "",
             text_table(table, widths, align, gaps="", header=[["Model name"] + [f"k = {k}" for k in ks] + ["nouns"]])]
    return "\n".join(lines)
