"""Multi-piece MC-MLM candidates: pseudo-log-likelihood (PLL) scoring, batched.

An answer word that is several vocabulary pieces cannot be scored at one [MASK]. The
``multi_token`` option of the ``olmpics_mlm`` / ``winoventi`` readers, ``bin/zero_shot`` and
``bin/winoventi_eval`` says what happens to a question with such a candidate:

* ``reject`` - an error naming the file, line and word (the MC-MLM default);
* ``skip`` - the question is skipped and counted (the WinoVenti default);
* ``pll`` - PLL (Salazar et al. 2020, "Masked Language Model Scoring");
* ``pll_word_l2r`` - PLL-word-l2r (Kauf & Ivanova 2023, "A Better Way to Do Masked Language
  Model Scoring").

How a candidate is scored (``pll``): the [MASK] of the stem is replaced by the candidate's
word-initial pieces ``c_1 .. c_n`` (the same pieces :func:`candidate_pieces` gives: the word
tokenized after a space); then for each piece ``i`` a copy of that sentence with piece ``i``
replaced by the mask token goes through the model, and the candidate's score is

    PLL(c) = sum_i log softmax(logits at position of c_i)[c_i]

(log-softmax over the whole vocabulary, natural log). Only the candidate's pieces are masked
and scored: the context (the rest of the stem) is always visible and contributes nothing else,
so this is the candidate's PLL *conditional on the context* - what minicons'
``MaskedLMScorer.conditional_score(prefix, candidate, suffix, reduction=sum)`` computes with
``PLL_metric="original"`` (and ``"within_word_l2r"`` for the variant); the tests check both to
1e-4. ``pll_word_l2r``: when piece ``i`` is masked, the later pieces of the same word
(``i < j``, same word as the tokenizer's ``word_ids`` count words) are masked too, so a word
is predicted left to right and its later pieces cannot leak into its first ones. A candidate
of one piece gets the same score in both variants: the log-probability at the mask.

Within a question the choices must be comparable: a question whose candidates are all single
pieces is scored exactly as before (the masked-LM logits at the mask, one forward - the same
ranking as log-probabilities), while a question with any multi-piece candidate is scored by PLL
sums for ALL its candidates (a single-piece one gets its log-probability at the mask).

Batching (:func:`pseudo_log_likelihoods`): the masked copies of all candidates of all PLL
questions of a batch are built at once and go through the encoder in chunks of at most
``max_batch`` copies (the fewest forwards memory allows), each chunk padded to its own longest
copy; the head runs at the one scored position per copy only. Under the caller's autocast the
forward runs in bf16/fp16, the log-softmax and the sums in fp32.
"""
from typing import List, Optional, Sequence, Tuple

import torch


def masked_copies(
    token_ids: Sequence[int], mask_position: int, pieces: Sequence[int], groups: Sequence[int], mask_id: int,
) -> Tuple[List[List[int]], List[int]]:
    """The masked copies of one candidate: the stem with its mask replaced by ``pieces``, piece
    ``i`` masked in copy ``i`` (with the later pieces of its group). Returns (copies, positions)."""
    left, right = list(token_ids[:mask_position]), list(token_ids[mask_position + 1:])
    copies, positions = [], []
    for i, group in enumerate(groups):
        filled = [
            mask_id if j == i or (j > i and groups[j] == group) else piece for j, piece in enumerate(pieces)
        ]
        copies.append(left + filled + right)
        positions.append(mask_position + i)
    return copies, positions


def pseudo_log_likelihoods(
    head,
    token_ids: torch.Tensor,
    attention_mask: torch.Tensor,
    mask_positions: torch.Tensor,
    pieces: torch.Tensor,
    groups: torch.Tensor,
    type_ids: Optional[torch.Tensor] = None,
    pad_id: int = 0,
    max_batch: int = 256,
    encoder_grad: bool = False,
) -> torch.Tensor:
    """PLL of every candidate of every example: (batch, K) fp32 (0 for padded candidates).

    ``head`` is a :class:`~mcqa_probes.models.masked_lm_scoring.MaskedLmHead`; ``token_ids``,
    ``attention_mask`` (and ``type_ids``) are the stems (batch, L) with one mask token at
    ``mask_positions``; ``pieces`` / ``groups`` (batch, K, P) the candidates' piece ids and masking
    groups, padded with -1. The encoder runs with gradients only when ``encoder_grad`` (and
    gradients are enabled); the head always follows the ambient grad mode.
    """
    batch, k_max = pieces.shape[:2]
    device = token_ids.device
    lengths = attention_mask.sum(dim=1).tolist()
    positions_list = mask_positions.tolist()
    ids_rows, pieces_rows, groups_rows = token_ids.tolist(), pieces.tolist(), groups.tolist()
    type_rows = type_ids.tolist() if type_ids is not None else None
    copies: List[List[int]] = []
    copy_types: List[List[int]] = []
    positions: List[int] = []
    targets: List[int] = []
    owners: List[int] = []
    for b in range(batch):
        stem = ids_rows[b][: lengths[b]]
        m = positions_list[b]
        mask_id = stem[m]
        for k in range(k_max):
            candidate = [p for p in pieces_rows[b][k] if p >= 0]
            if not candidate:
                continue
            candidate_groups = groups_rows[b][k][: len(candidate)]
            made, where = masked_copies(stem, m, candidate, candidate_groups, mask_id)
            copies += made
            positions += where
            targets += candidate
            owners += [b * k_max + k] * len(candidate)
            if type_rows is not None:
                row = type_rows[b][: lengths[b]]
                copy_types += [row[:m] + [row[m]] * len(candidate) + row[m + 1:]] * len(candidate)
    scores = torch.zeros(batch * k_max, dtype=torch.float32, device=device)
    if not copies:
        return scores.view(batch, k_max)
    order = sorted(range(len(copies)), key=lambda i: -len(copies[i]))  # similar lengths share a chunk
    for start in range(0, len(order), max(1, int(max_batch))):
        chunk = order[start : start + max(1, int(max_batch))]
        width = len(copies[chunk[0]])
        ids = torch.full((len(chunk), width), pad_id, dtype=torch.long)
        mask = torch.zeros((len(chunk), width), dtype=torch.long)
        types = torch.zeros((len(chunk), width), dtype=torch.long) if type_rows is not None else None
        for row, i in enumerate(chunk):
            ids[row, : len(copies[i])] = torch.tensor(copies[i])
            mask[row, : len(copies[i])] = 1
            if types is not None:
                types[row, : len(copies[i])] = torch.tensor(copy_types[i])
        where = torch.tensor([positions[i] for i in chunk], device=device)
        with torch.set_grad_enabled(torch.is_grad_enabled() and encoder_grad):
            hidden = head.hidden_at(ids.to(device), mask.to(device), where,
                                    types.to(device) if types is not None else None)
        log_probs = head.vocabulary_logits(hidden).float().log_softmax(dim=-1)
        target = torch.tensor([targets[i] for i in chunk], device=device)
        picked = log_probs.gather(1, target.unsqueeze(1)).squeeze(1)
        scores = scores.index_add(0, torch.tensor([owners[i] for i in chunk], device=device), picked)
    return scores.view(batch, k_max)
