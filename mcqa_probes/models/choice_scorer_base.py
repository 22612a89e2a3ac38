"""Shared machinery of the word-level MCQA baselines (Mihaylov et al. 2018; Richardson & Sabharwal 2020 §4.1).

Notation of the paper: for a token sequence s (the question q or a choice c_i),
``h_s = BiLSTM(EMBED(s))`` and ``r_s = max(h_s)`` (element-wise max over time). A subclass turns
the representations into one score α_i per choice; ``p_i ∝ exp(α_i)`` and training minimises
cross-entropy over the choices. Padded choices (a batch mixing 4- and 5-way questions) are masked.
"""
from typing import Any, Dict, List, Optional, Tuple

import torch
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.modules import MatrixAttention, Seq2SeqEncoder, TextFieldEmbedder
from allennlp.nn import InitializerApplicator, util

from mcqa_probes.models.multiple_choice_model import MultipleChoiceModel


class ChoiceScorer(MultipleChoiceModel):
    """Base class: embeds and encodes question / choices, applies the K-choice softmax and loss.

    Subclasses implement :meth:`score_choices`. Not registered itself.

    # Parameters

    text_field_embedder : `TextFieldEmbedder`
        EMBED(·): GloVe through ``embedding.pretrained_file``, ELMo, or any allennlp embedder.
    encoder : `Seq2SeqEncoder`, optional (default = `None`)
        The BiLSTM of h_s (any Seq2SeqEncoder); ``None`` uses the embeddings as h_s.
    dropout : `float`, optional (default = `0.0`)
        Dropout on the embeddings and on r_s.
    initializer : `InitializerApplicator`, optional
    """

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        encoder: Optional[Seq2SeqEncoder] = None,
        dropout: float = 0.0,
        initializer: Optional[InitializerApplicator] = None,
        **kwargs,
    ) -> None:
        super().__init__(vocab, **kwargs)
        self.text_field_embedder = text_field_embedder
        self.encoder = encoder
        self.dropout = torch.nn.Dropout(dropout) if dropout > 0 else None
        self._initializer = initializer

    def apply_initializer(self) -> None:
        """Call at the end of a subclass constructor (once all its parameters exist)."""
        if self._initializer is not None:
            self._initializer(self)

    @property
    def representation_dim(self) -> int:
        """Size of r_s (2h for a BiLSTM)."""
        return self.encoder.get_output_dim() if self.encoder is not None else self.text_field_embedder.get_output_dim()

    # ------------------------------------------------------------------ encoding
    def _dropout(self, tensor: torch.Tensor) -> torch.Tensor:
        return self.dropout(tensor) if self.dropout is not None else tensor

    def encode_tokens(self, text: TextFieldTensors, num_wrapping_dims: int = 0) -> Tuple[torch.Tensor, torch.Tensor]:
        """h_s for a TextField (``num_wrapping_dims=0``: (B, L, d)) or a ListField of TextFields
        (``num_wrapping_dims=1``: (B, K, L, d)); returns (h_s, token mask)."""
        mask = util.get_text_field_mask(text, num_wrapping_dims=num_wrapping_dims)
        embedded = self._dropout(self.text_field_embedder(text, num_wrapping_dims=num_wrapping_dims))
        if self.encoder is None:
            return embedded, mask
        leading = embedded.shape[:-2]
        flat = embedded.reshape(-1, embedded.shape[-2], embedded.shape[-1])
        encoded = self.encoder(flat, mask.reshape(-1, mask.shape[-1]))
        return encoded.reshape(*leading, encoded.shape[-2], encoded.shape[-1]), mask

    def encode(self, text: TextFieldTensors, num_wrapping_dims: int = 0) -> Tuple[torch.Tensor, torch.Tensor]:
        """r_s = element-wise max over time of h_s: (B, d) or (B, K, d); also returns the mask of
        non-empty sequences ((B,) or (B, K)). Empty (padding) choices get r = 0."""
        encoded, mask = self.encode_tokens(text, num_wrapping_dims)
        present = mask.any(dim=-1)
        pooled = util.masked_max(encoded, mask.unsqueeze(-1), dim=-2)
        pooled = pooled.masked_fill(~present.unsqueeze(-1), 0.0)
        return self._dropout(pooled), present

    # ------------------------------------------------------------------ scoring
    def score_choices(
        self, question: TextFieldTensors, choices: TextFieldTensors, choice_mask: torch.BoolTensor
    ) -> torch.Tensor:
        """α: one unnormalised score per choice, shape (batch, num_choices)."""
        raise NotImplementedError

    def forward(  # type: ignore[override]
        self,
        question: TextFieldTensors,
        choices: TextFieldTensors,
        label: Optional[torch.IntTensor] = None,
        metadata: Optional[List[Dict[str, Any]]] = None,
    ) -> Dict[str, Any]:
        choice_mask = util.get_text_field_mask(choices, num_wrapping_dims=1).any(dim=-1)
        with self.autocast():
            logits = self.score_choices(question, choices, choice_mask)
        return self.choice_output(logits, choice_mask, label, metadata)


class AttentionChoiceScorer(ChoiceScorer):
    """A :class:`ChoiceScorer` whose score is a learned attention ATT(x, y) between encodings
    (shared constructor of ``question_to_choice`` and ``choice_to_choice``). Not registered itself.

    # Parameters

    matrix_attention : `MatrixAttention`
        ATT, e.g. ``{"type": "linear", "combination": "x,y,x-y,x*y", "tensor_1_dim": 2h,
        "tensor_2_dim": 2h}`` (the original ``linear_extended`` scorer) or ``{"type": "bilinear",
        "matrix_1_dim": 2h, "matrix_2_dim": 2h}``; the other parameters as for ``ChoiceScorer``.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        matrix_attention: MatrixAttention,
        encoder: Optional[Seq2SeqEncoder] = None,
        dropout: float = 0.0,
        initializer: Optional[InitializerApplicator] = None,
        **kwargs,
    ) -> None:
        super().__init__(vocab, text_field_embedder, encoder, dropout, initializer, **kwargs)
        self.matrix_attention = matrix_attention
        self.apply_initializer()

