"""Masked-LM candidate scoring, shared by the oLMpics MC-MLM probes and WinoVenti.

Two pieces:

* :func:`candidate_token_id` maps an answer word to ONE vocabulary id in the tokenizer's
  *word-initial* form: ``"Ġyounger"`` for byte-level BPE (RoBERTa, GPT-2), ``"▁younger"`` for
  SentencePiece (ALBERT, XLM-R), plain ``"younger"`` for WordPiece (BERT). It tokenizes the word
  with a leading space, which every family turns into its word-initial piece (the [MASK] in a
  sentence is preceded by a space, and RoBERTa's ``<mask>`` absorbs that space). A word that
  is not a single known piece raises :class:`CandidateNotSinglePieceError`.
* :class:`MaskedLmHead` splits a HuggingFace ``*ForMaskedLM`` model into its encoder, the head's
  hidden layer (``transform``: dense + activation + LayerNorm) and its output layer (decoder
  weight, tied to the input embeddings in BERT/RoBERTa, and bias), and scores K candidate ids
  at the mask position of every example of a batch in one forward:
  ``logit[b, k] = transform(h[b, mask_b]) · W[cand[b, k]] + bias[cand[b, k]]``, which equals
  ``model(...).logits[b, mask_b, cand[b, k]]`` without computing the other |V| - K logits.

The output layer can be *untied* (:meth:`MaskedLmHead.untie_decoder`): the decoder weight is
cloned into a separate parameter, so training the head cannot move the input embeddings.
"""
import logging
from typing import List, Optional

import torch

logger = logging.getLogger(__name__)


# The candidate-word mapping is a tokenizer matter (readers use it): it lives with the data.
from mcqa_probes.data.candidates import (  # noqa: E402,F401
    CandidateNotSinglePieceError, candidate_token_id, word_initial_pieces,
)


class _RobertaTransform(torch.nn.Module):
    """RoBERTa's ``lm_head`` hidden layer: dense, gelu, layer_norm (as RobertaLMHead.forward)."""

    def __init__(self, lm_head: torch.nn.Module):
        super().__init__()
        self.dense, self.layer_norm = lm_head.dense, lm_head.layer_norm

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        from transformers.activations import gelu

        return self.layer_norm(gelu(self.dense(features)))


class _SequentialTransform(torch.nn.Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = torch.nn.ModuleList(layers)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            features = layer(features)
        return features


def _split(model):
    """(encoder, transform, decoder Linear/Embedding-like module, bias or None) of a masked LM."""
    if hasattr(model, "cls") and hasattr(getattr(model.cls, "predictions", None), "transform"):  # BERT family
        predictions = model.cls.predictions
        return model.base_model, predictions.transform, predictions.decoder, predictions.bias
    if hasattr(model, "lm_head") and hasattr(model.lm_head, "dense") and hasattr(model.lm_head, "layer_norm"):
        head = model.lm_head  # RoBERTa, XLM-R, CamemBERT, Longformer
        return model.base_model, _RobertaTransform(head), head.decoder, getattr(head, "bias", None)
    if hasattr(model, "vocab_transform") and hasattr(model, "vocab_projector"):  # DistilBERT
        transform = _SequentialTransform(model.vocab_transform, model.activation, model.vocab_layer_norm)
        return model.base_model, transform, model.vocab_projector, None
    if hasattr(model, "predictions") and hasattr(model.predictions, "dense"):  # ALBERT
        p = model.predictions
        transform = _SequentialTransform(p.dense, p.activation, p.LayerNorm)
        return model.base_model, transform, p.decoder, getattr(p, "bias", None)
    raise ValueError(
        f"{type(model).__name__}: unknown masked-LM head layout (supported: BERT, RoBERTa/XLM-R, "
        "DistilBERT, ALBERT families)"
    )


class MaskedLmHead(torch.nn.Module):
    """A HuggingFace masked LM seen as encoder -> head hidden layer -> output layer, scoring K ids.

    ``masked_lm`` stays a submodule (its state dict keys are the HF ones), so archives reload it
    from the model name and then restore every weight.
    """

    def __init__(self, masked_lm: torch.nn.Module):
        super().__init__()
        self.masked_lm = masked_lm
        encoder, transform, decoder, bias = _split(masked_lm)
        # Plain attributes (not submodules) so parameters are registered once, under masked_lm.
        object.__setattr__(self, "_encoder", encoder)
        object.__setattr__(self, "_transform", transform)
        object.__setattr__(self, "_decoder", decoder)
        object.__setattr__(self, "_bias_param", bias if bias is not None else getattr(decoder, "bias", None))
        self.untied_decoder_weight: Optional[torch.nn.Parameter] = None

    # -- parts ---------------------------------------------------------------------------
    @property
    def encoder(self) -> torch.nn.Module:
        return self._encoder

    @property
    def transform(self) -> torch.nn.Module:
        return self._transform

    def transform_parameters(self) -> List[torch.nn.Parameter]:
        return list(self._transform.parameters())

    @property
    def input_embeddings(self) -> torch.nn.Module:
        return self.masked_lm.get_input_embeddings()

    @property
    def decoder_weight(self) -> torch.Tensor:
        return self.untied_decoder_weight if self.untied_decoder_weight is not None else self._decoder.weight

    @property
    def decoder_bias(self) -> Optional[torch.Tensor]:
        return self._bias_param

    def decoder_is_tied(self) -> bool:
        return self.untied_decoder_weight is None and self._decoder.weight is self.input_embeddings.weight

    def untie_decoder(self) -> None:
        """Give the output layer its own copy of the (tied) decoder weight."""
        if self.untied_decoder_weight is None:
            self.untied_decoder_weight = torch.nn.Parameter(self._decoder.weight.detach().clone())

    # -- scoring -------------------------------------------------------------------------
    def hidden_at(self, input_ids, attention_mask, mask_positions, token_type_ids=None) -> torch.Tensor:
        """Encoder states at one position per example: (batch, hidden)."""
        arguments = {"input_ids": input_ids, "attention_mask": attention_mask}
        if token_type_ids is not None:
            arguments["token_type_ids"] = token_type_ids
        states = self._encoder(**arguments)[0]
        rows = torch.arange(states.size(0), device=states.device)
        return states[rows, mask_positions]

    def candidate_logits(self, hidden: torch.Tensor, candidate_ids: torch.Tensor) -> torch.Tensor:
        """Masked-LM logits of ``candidate_ids`` (batch, K) from states at the mask (batch, hidden)."""
        transformed = self._transform(hidden)
        safe_ids = candidate_ids.clamp(min=0)
        rows = self.decoder_weight[safe_ids]  # (batch, K, hidden)
        logits = torch.einsum("bh,bkh->bk", transformed, rows)
        if self._bias_param is not None:
            logits = logits + self._bias_param[safe_ids]
        return logits

    def forward(self, input_ids, attention_mask, mask_positions, candidate_ids, token_type_ids=None):
        hidden = self.hidden_at(input_ids, attention_mask, mask_positions, token_type_ids)
        return self.candidate_logits(hidden, candidate_ids)


def load_masked_lm(name: str):
    """``AutoModelForMaskedLM`` for a name or directory (``minilm`` resolves to the offline copy)."""
    from transformers import AutoModelForMaskedLM

    from mcqa_probes.resources.pretrained import resolve_transformer_name

    return AutoModelForMaskedLM.from_pretrained(resolve_transformer_name(name))
