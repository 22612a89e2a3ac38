"""Masked-LM candidate scoring, shared by the oLMpics MC-MLM probes and WinoVenti.

Two pieces:

* :func:`candidate_token_id` maps an answer word to ONE vocabulary id in the tokenizer's
  *word-initial* form: ``"Ġyounger"`` for byte-level BPE (RoBERTa, GPT-2), ``"▁younger"`` for
  SentencePiece (ALBERT, XLM-R), plain ``"younger"`` for WordPiece (BERT). It tokenizes the word
  with a leading space, which every family turns into its word-initial piece (the [MASK] in a
  sentence is preceded by a space, and RoBERTa's ``<mask>`` absorbs that space). A word that
  is not a single known piece raises :class:`CandidateNotSinglePieceError`.
* :class:`MaskedLmHead` sees a HuggingFace ``*ForMaskedLM`` model as its encoder (``base_model``)
  followed by its own masked-LM head, and scores K candidate ids at the mask position of every
  example of a batch in one forward. The scores are exactly the model's own masked-LM logits,
  ``model(...).logits[b, mask_b, cand[b, k]]``, for every architecture family
  ``AutoModelForMaskedLM`` loads:

  - for the known head layouts the head is split into its hidden layer (``transform``: dense +
    activation + LayerNorm) and its output layer, whose rows are the model's
    ``get_output_embeddings()`` weight (tied to the input embeddings in most families) and bias.
    ``logit[b, k] = transform(h[b, mask_b]) · W[cand[b, k]] + bias[cand[b, k]]`` is then computed
    for the K candidate rows only, without the other |V| - K logits. Layouts: BERT family
    (``cls.predictions``: BERT, BigBird, ERNIE, ...), MobileBERT (``cls.predictions`` whose
    output layer is ``transform(h) @ concat(decoder.weight.T, dense.weight)``: a 128-wide
    decoder tied to the embeddings plus a ``dense`` block for the remaining hidden columns),
    RoBERTa family (``lm_head``: RoBERTa, XLM-R, CamemBERT, Longformer, MPNet, ...),
    DistilBERT (``vocab_transform``/``vocab_projector``), ALBERT (``predictions``) and ELECTRA
    generators (``generator_predictions``/``generator_lm_head``).
  - every layout is checked once when the head is built: its full-vocabulary logits on a few
    random hidden states must equal what the model's OWN head module computes from them (the
    head is run by swapping the encoder's output for those states). A model whose layout is
    unknown, or does not pass that check, is scored by running its own head on the mask states
    and gathering the K ids (:meth:`MaskedLmHead.vocabulary_logits`) - exact by construction,
    only less frugal.

The output layer can be *untied* (:meth:`MaskedLmHead.untie_decoder`): the output-embedding
weight is cloned into a separate parameter (``untied_decoder_weight``), so training the head
cannot move the input embeddings. :meth:`MaskedLmHead.output_layer_parameters` and
:meth:`MaskedLmHead.transform_parameters` list what the ``linear`` and ``mlp`` probes train.

:meth:`MaskedLmHead.vocabulary_logits` (full |V| logits at given states) is what the
pseudo-log-likelihood scoring of multi-piece candidates uses
(:mod:`mcqa_probes.models.pseudo_log_likelihood`).
"""
import logging
from typing import List, NamedTuple, Optional

import torch

from mcqa_probes.resources.pretrained import resolve_transformer_name

logger = logging.getLogger(__name__)


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


class _Layout(NamedTuple):
    """A masked-LM head as ``logits = transform(h) @ [output.weight | extra_columns.T].T + output.bias``."""

    family: str
    transform: torch.nn.Module
    output: torch.nn.Module  # a Linear-like module: weight (V, E), bias (V) or None
    extra_columns: Optional[torch.nn.Parameter] = None  # MobileBERT's dense.weight: (H - E, V)


def _layout(model) -> Optional[_Layout]:
    """The head layout of a known masked-LM family, else None (then the model's own head is run)."""
    predictions = getattr(getattr(model, "cls", None), "predictions", None)
    if predictions is not None and hasattr(predictions, "transform") and hasattr(predictions, "decoder"):
        dense = getattr(predictions, "dense", None)
        if isinstance(dense, torch.nn.Linear) and dense.in_features == predictions.decoder.out_features:
            # MobileBERT: transform(h) @ cat([decoder.weight.T, dense.weight]) + decoder.bias
            return _Layout("mobilebert", predictions.transform, predictions.decoder, dense.weight)
        return _Layout("bert", predictions.transform, predictions.decoder)
    head = getattr(model, "lm_head", None)
    if head is not None and all(hasattr(head, a) for a in ("dense", "layer_norm", "decoder")):
        return _Layout("roberta", _RobertaTransform(head), head.decoder)
    if all(hasattr(model, a) for a in ("vocab_transform", "activation", "vocab_layer_norm", "vocab_projector")):
        transform = _SequentialTransform(model.vocab_transform, model.activation, model.vocab_layer_norm)
        return _Layout("distilbert", transform, model.vocab_projector)
    predictions = getattr(model, "predictions", None)
    if predictions is not None and all(hasattr(predictions, a) for a in ("dense", "activation", "LayerNorm", "decoder")):
        transform = _SequentialTransform(predictions.dense, predictions.activation, predictions.LayerNorm)
        return _Layout("albert", transform, predictions.decoder)
    if hasattr(model, "generator_predictions") and hasattr(model, "generator_lm_head"):
        return _Layout("electra", model.generator_predictions, model.generator_lm_head)
    return None


class _ModuleMode:
    """Context: a module in eval mode, its previous train/eval flags restored afterwards."""

    def __init__(self, module: torch.nn.Module):
        self.module = module

    def __enter__(self):
        self.modes = [(m, m.training) for m in self.module.modules()]
        self.module.eval()

    def __exit__(self, *exc):
        for module, mode in self.modes:
            module.training = mode


class MaskedLmHead(torch.nn.Module):
    """A HuggingFace masked LM seen as encoder -> head hidden layer -> output layer, scoring K ids.

    ``masked_lm`` stays a submodule (its state dict keys are the HF ones), so archives reload it
    from the model name and then restore every weight. ``family`` names the head layout used
    for the K-candidate path, or is ``"own_head"`` when the model's own head module is run.
    """

    def __init__(self, masked_lm: torch.nn.Module, check_layout: bool = True):
        super().__init__()
        self.masked_lm = masked_lm
        output = masked_lm.get_output_embeddings()
        layout = _layout(masked_lm)
        if layout is not None:
            output = layout.output
        if output is None or not hasattr(output, "weight"):
            raise ValueError(f"{type(masked_lm).__name__}: no output embeddings (is it a *ForMaskedLM model?)")
        # Plain attributes (not submodules) so parameters are registered once, under masked_lm.
        object.__setattr__(self, "_encoder", masked_lm.base_model)
        object.__setattr__(self, "_layout", layout)
        object.__setattr__(self, "_output", output)
        self._output_name = next(name for name, module in masked_lm.named_modules() if module is output)
        self.untied_decoder_weight: Optional[torch.nn.Parameter] = None
        if layout is not None and check_layout and not self._layout_matches_own_head():
            logger.warning("%s: the %s head layout does not reproduce the model's own logits; "
                           "scoring with the model's own head instead", type(masked_lm).__name__, layout.family)
            object.__setattr__(self, "_layout", None)

    # -- parts ---------------------------------------------------------------------------
    @property
    def family(self) -> str:
        return self._layout.family if self._layout is not None else "own_head"

    @property
    def encoder(self) -> torch.nn.Module:
        return self._encoder

    @property
    def transform(self) -> Optional[torch.nn.Module]:
        """The head's hidden layer (None when the model's own head is run)."""
        return self._layout.transform if self._layout is not None else None

    def transform_parameters(self) -> List[torch.nn.Parameter]:
        """The head's hidden-layer parameters (the ``mlp`` probe trains them with the output layer)."""
        if self._layout is not None:
            return list(self._layout.transform.parameters())
        # own head: every parameter outside the encoder that is not the output layer
        excluded = {id(p) for p in self._encoder.parameters()} | {id(p) for p in self._output.parameters()}
        return [p for p in self.masked_lm.parameters() if id(p) not in excluded]

    def output_layer_parameters(self) -> List[torch.nn.Parameter]:
        """The output layer's parameters: its weight (the untied copy once untied), bias, extra columns."""
        parameters = [self.untied_decoder_weight if self.untied_decoder_weight is not None else self._output.weight]
        if self.decoder_bias is not None:
            parameters.append(self.decoder_bias)
        if self._layout is not None and self._layout.extra_columns is not None:
            parameters.append(self._layout.extra_columns)
        return parameters

    @property
    def input_embeddings(self) -> torch.nn.Module:
        return self.masked_lm.get_input_embeddings()

    @property
    def decoder_weight(self) -> torch.Tensor:
        """The output-embedding weight (V, E) - the untied copy once untied."""
        return self.untied_decoder_weight if self.untied_decoder_weight is not None else self._output.weight

    @property
    def decoder_bias(self) -> Optional[torch.Tensor]:
        return getattr(self._output, "bias", None)

    def decoder_is_tied(self) -> bool:
        return self.untied_decoder_weight is None and self._output.weight is self.input_embeddings.weight

    def untie_decoder(self) -> None:
        """Give the output layer its own copy of the (tied) output-embedding weight."""
        if self.untied_decoder_weight is None:
            self.untied_decoder_weight = torch.nn.Parameter(self._output.weight.detach().clone())

    # -- scoring -------------------------------------------------------------------------
    def hidden_at(self, input_ids, attention_mask, positions, token_type_ids=None) -> torch.Tensor:
        """Encoder states at one position per example: (batch, hidden)."""
        arguments = {"input_ids": input_ids, "attention_mask": attention_mask}
        if token_type_ids is not None:
            arguments["token_type_ids"] = token_type_ids
        states = self._encoder(**arguments)[0]
        rows = torch.arange(states.size(0), device=states.device)
        return states[rows, positions]

    def _output_rows(self, ids: torch.Tensor) -> torch.Tensor:
        rows = self.decoder_weight[ids]
        if self._layout.extra_columns is not None:
            rows = torch.cat([rows, self._layout.extra_columns.t()[ids]], dim=-1)
        return rows

    def candidate_logits(self, hidden: torch.Tensor, candidate_ids: torch.Tensor) -> torch.Tensor:
        """Masked-LM logits of ``candidate_ids`` (batch, K; -1 = padding) from states at the mask (batch, hidden)."""
        safe_ids = candidate_ids.clamp(min=0)
        if self._layout is None:
            return self.vocabulary_logits(hidden).gather(1, safe_ids)
        transformed = self._layout.transform(hidden)
        rows = self._output_rows(safe_ids)  # (batch, K, hidden)
        logits = torch.einsum("bh,bkh->bk", transformed, rows.to(transformed.dtype))
        if self.decoder_bias is not None:
            logits = logits + self.decoder_bias[safe_ids]
        return logits

    def vocabulary_logits(self, hidden: torch.Tensor) -> torch.Tensor:
        """Masked-LM logits over the whole vocabulary from encoder states: (N, hidden) -> (N, |V|)."""
        if self._layout is None:
            return self.own_head_logits(hidden)
        transformed = self._layout.transform(hidden)
        weight = self.decoder_weight
        if self._layout.extra_columns is not None:
            weight = torch.cat([weight, self._layout.extra_columns.t()], dim=-1)
        return torch.nn.functional.linear(transformed, weight, self.decoder_bias)

    def own_head_logits(self, hidden: torch.Tensor) -> torch.Tensor:
        """The model's OWN head on encoder states (N, hidden) -> (N, |V|).

        The model is run on a one-token dummy input with a hook that replaces its encoder's
        output by ``hidden``; whatever the head does after the encoder is then the model's code.
        The untied output weight, if any, is substituted with ``torch.func.functional_call``.
        """
        states = hidden.unsqueeze(0)

        def swap(module, args, output):
            output["last_hidden_state"] = states
            return output

        dummy = {"input_ids": torch.zeros((1, 1), dtype=torch.long, device=hidden.device),
                 "attention_mask": torch.ones((1, 1), dtype=torch.long, device=hidden.device), "return_dict": True}
        handle = self._encoder.register_forward_hook(swap)
        try:
            if self.untied_decoder_weight is None:
                output = self.masked_lm(**dummy)
            else:
                output = torch.func.functional_call(
                    self.masked_lm, {f"{self._output_name}.weight": self.untied_decoder_weight},
                    args=(), kwargs=dummy, tie_weights=False, strict=False,
                )
        finally:
            handle.remove()
        return output.logits[0]

    def _layout_matches_own_head(self) -> bool:
        """Do the layout's logits equal the model's own head on random states? (run once, eval mode)"""
        size = getattr(self.masked_lm.config, "hidden_size", None)
        parameter = next(self.masked_lm.parameters())
        if size is None or parameter.device.type == "meta":
            return True
        generator = torch.Generator().manual_seed(0)  # the global torch RNG is left alone
        hidden = torch.randn(4, size, generator=generator).to(parameter.device, parameter.dtype)
        with torch.no_grad(), _ModuleMode(self.masked_lm):
            try:
                theirs = self.own_head_logits(hidden).float()
            except Exception as error:  # the own head cannot be run this way: trust the layout
                logger.debug("%s: own-head check skipped (%s)", type(self.masked_lm).__name__, error)
                return True
            try:
                ours = self.vocabulary_logits(hidden).float()
            except RuntimeError:  # shapes that do not fit: not this model's layout
                return False
        scale = max(1.0, float(theirs.abs().max()))
        return ours.shape == theirs.shape and bool((ours - theirs).abs().max() <= 1e-4 * scale)

    def forward(self, input_ids, attention_mask, mask_positions, candidate_ids, token_type_ids=None):
        hidden = self.hidden_at(input_ids, attention_mask, mask_positions, token_type_ids)
        return self.candidate_logits(hidden, candidate_ids)


def load_masked_lm(name: str):
    """``AutoModelForMaskedLM`` for a name or directory (``minilm`` resolves to the offline copy)."""
    from transformers import AutoModelForMaskedLM


    return AutoModelForMaskedLM.from_pretrained(resolve_transformer_name(name))
