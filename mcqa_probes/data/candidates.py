"""MC-MLM candidate words → ONE vocabulary id each, in the tokenizer's word-initial form.

``"Ġyounger"`` for byte-level BPE (RoBERTa, GPT-2), ``"▁younger"`` for SentencePiece (ALBERT,
XLM-R), plain ``"younger"`` for WordPiece (BERT): the word is tokenized with a leading space, which
every family turns into its word-initial piece (the [MASK] in a sentence is preceded by a space,
and RoBERTa's ``<mask>`` absorbs that space). A word that is not a single known piece raises
:class:`CandidateNotSinglePieceError` (never silently truncated). Used by the ``olmpics_mlm`` and
``winoventi`` readers and by the masked-LM scoring (``mcqa_probes.models.masked_lm_scoring``).
"""
from typing import List, Sequence


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
