"""MC-MLM candidate words → ONE vocabulary id each, in the tokenizer's word-initial form.

``"Ġyounger"`` for byte-level BPE (RoBERTa, GPT-2), ``"▁younger"`` for SentencePiece (ALBERT,
XLM-R), plain ``"younger"`` for WordPiece (BERT): the word is tokenized with a leading space, which
every family turns into its word-initial piece (the [MASK] in a sentence is preceded by a space,
and RoBERTa's ``<mask>`` absorbs that space). A word that is not a single known piece raises
:class:`CandidateNotSinglePieceError` (never silently truncated). Used by the ``olmpics_mlm`` and
``winoventi`` readers and by the masked-LM scoring (``mcqa_probes.models.masked_lm_scoring``).

A multi-piece candidate is handled by the ``multi_token`` mode (:data:`MULTI_TOKEN_MODES`): its
pieces and masking groups come from :func:`candidate_pieces`, the scoring itself from
:mod:`mcqa_probes.models.pseudo_log_likelihood`.
"""
from typing import List, Optional, Sequence, Tuple


class CandidateNotSinglePieceError(ValueError):
    """An answer word is not one vocabulary piece of the tokenizer (in word-initial form)."""

    def __init__(self, word: str, pieces: Sequence[str], reason: str = ""):
        self.word, self.pieces = word, list(pieces)
        reason = reason or f"is {len(self.pieces)} pieces {self.pieces}"
        super().__init__(f"candidate {word!r} {reason}; MC-MLM needs a single vocabulary piece")


def word_initial_pieces(tokenizer, word: str) -> List[str]:
    """The pieces of ``word`` as it appears after a space (its word-initial form)."""
    return tokenizer.tokenize(" " + word.strip())


def candidate_token_id(tokenizer, word: str) -> int:
    """The single vocabulary id of ``word`` in word-initial form, or CandidateNotSinglePieceError."""
    if not word.strip():
        raise CandidateNotSinglePieceError(word, [], "is empty")
    pieces = word_initial_pieces(tokenizer, word)
    if len(pieces) != 1:
        raise CandidateNotSinglePieceError(word, pieces)
    token_id = tokenizer.convert_tokens_to_ids(pieces[0])
    if token_id is None or (tokenizer.unk_token_id is not None and token_id == tokenizer.unk_token_id):
        raise CandidateNotSinglePieceError(word, pieces, "is not in the vocabulary (unknown token)")
    return int(token_id)


MULTI_TOKEN_MODES = ("reject", "skip", "pll", "pll_word_l2r")
PLL_MODES = ("pll", "pll_word_l2r")


def check_multi_token(mode: str, where: str = "multi_token") -> str:
    if mode not in MULTI_TOKEN_MODES:
        raise ValueError(f"{where}: expected one of {MULTI_TOKEN_MODES}, got {mode!r}")
    return mode


def resolve_multi_token(multi_token: Optional[str], skip_multi_piece: Optional[bool], default: str = "reject",
                        where: str = "multi_token") -> str:
    """``multi_token`` with the older boolean ``skip_multi_piece_candidates`` as an alias.

    ``skip_multi_piece=True`` means ``skip``; ``False`` means ``reject`` unless ``multi_token``
    names a PLL mode. Both given and contradicting each other is an error.
    """
    if multi_token is not None:
        check_multi_token(multi_token, where)
    if skip_multi_piece is None:
        return multi_token or default
    if skip_multi_piece:
        if multi_token not in (None, "skip"):
            raise ValueError(f"{where}={multi_token!r} contradicts skip_multi_piece_candidates=true")
        return "skip"
    if multi_token == "skip":
        raise ValueError(f"{where}='skip' contradicts skip_multi_piece_candidates=false")
    return multi_token if multi_token in PLL_MODES else "reject"


def candidate_pieces(tokenizer, word: str, mode: str = "pll") -> Tuple[List[int], List[int]]:
    """(piece ids, masking groups) of ``word`` in its word-initial form (tokenized after a space).

    Groups: ``pll`` gives every piece its own group; ``pll_word_l2r`` gives the pieces of one word
    (the tokenizer's ``word_ids``; whitespace words for a slow tokenizer) the same group. A word
    with an unknown piece, or empty, raises :class:`CandidateNotSinglePieceError`.
    """
    word = word.strip()
    if not word:
        raise CandidateNotSinglePieceError(word, [], "is empty")
    encoded = tokenizer(" " + word, add_special_tokens=False)
    ids = list(encoded["input_ids"])
    if len(ids) <= 1:
        return [candidate_token_id(tokenizer, word)], [0]
    if tokenizer.unk_token_id is not None and tokenizer.unk_token_id in ids:
        raise CandidateNotSinglePieceError(word, tokenizer.convert_ids_to_tokens(ids), "has an unknown piece")
    if mode != "pll_word_l2r":
        return ids, list(range(len(ids)))
    try:
        groups = list(encoded.word_ids())
    except (ValueError, AttributeError):  # slow tokenizer: words are what whitespace separates
        groups = [i for i, part in enumerate(word.split()) for _ in tokenizer.tokenize(" " + part)]
    if len(groups) != len(ids) or any(g is None for g in groups):
        groups = list(range(len(ids)))
    return ids, groups
