"""The ``masked_lm_mc`` model: oLMpics MC-MLM, a masked LM scoring K candidate words at [MASK]."""
import logging
from typing import Any, Dict, List, Optional

import torch
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model

from mcqa_probes.models.masked_lm_scoring import MaskedLmHead, load_masked_lm
from mcqa_probes.models.multiple_choice_model import MultipleChoiceModel

logger = logging.getLogger(__name__)

PROBE_TYPES = ("zero_shot", "mlp", "linear", "full")


@Model.register("masked_lm_mc")
class MaskedLmMc(MultipleChoiceModel):
    """MC-MLM (Talmor et al. 2020, §2.2): ``p = softmax over the K candidate ids of FF_MLM(h_mask)``.

    Any HuggingFace masked LM (BERT, RoBERTa, DistilBERT, ALBERT families). One batched forward
    encodes all examples; the head is applied to the mask position only and its output layer is
    evaluated for the K candidate ids only (equal to gathering the full vocabulary logits).
    Loss: cross-entropy over the K candidates. Use with the ``olmpics_mlm`` reader.

    # Parameters

    transformer_model_name : `str`, optional (default = `"minilm"`)
        Must match the reader's. NOTE: the offline ``minilm`` has no trained MLM head
        (transformers initialises it randomly), so its zero-shot scores are meaningless; its
        ``mlp``/``linear`` learning curves are fine (the head is trained).
    probe_type : `str`, optional (default = `"mlp"`)
        * ``zero_shot``: nothing is trainable (evaluate with ``bin/zero_shot``, no training run).
        * ``mlp`` (the paper's MLP_MLM): the pre-trained head trains - its hidden layer
          (dense + LayerNorm), its output layer and bias. The encoder AND the input embeddings stay
          frozen: the output layer's weight, tied to the input embeddings in BERT/RoBERTa, is
          *untied* (cloned into ``head.untied_decoder_weight``) so training it cannot move the
          embeddings (the original oLMpics code trained the tied matrix and so the embeddings).
        * ``linear`` (the paper's LINEAR): only the head's output layer (untied copy + bias) trains.
        * ``full``: every weight trains (output layer stays tied to the embeddings).
        Frozen parts run in eval mode (no dropout) and without gradients.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        transformer_model_name: str = "minilm",
        probe_type: str = "mlp",
        **kwargs,
    ) -> None:
        super().__init__(vocab, **kwargs)
        if probe_type not in PROBE_TYPES:
            raise ValueError(f"model.probe_type: expected one of {PROBE_TYPES}, got {probe_type!r}")
        self.transformer_model_name = transformer_model_name
        self.probe_type = probe_type
        self.head = MaskedLmHead(load_masked_lm(transformer_model_name))
        config = self.head.masked_lm.config
        self._use_type_ids = getattr(config, "type_vocab_size", 0) > 1
        for parameter in self.head.parameters():
            parameter.requires_grad = probe_type == "full"
        if probe_type in ("mlp", "linear"):
            self.head.untie_decoder()
            trainable = [self.head.untied_decoder_weight]
            if self.head.decoder_bias is not None:
                trainable.append(self.head.decoder_bias)
            if probe_type == "mlp":
                trainable += self.head.transform_parameters()
            for parameter in trainable:
                parameter.requires_grad = True

    @property
    def encoder_frozen(self) -> bool:
        return self.probe_type != "full"

    def train(self, mode: bool = True):
        super().train(mode)
        if self.encoder_frozen:  # fixed representations: no dropout in the frozen encoder
            self.head.encoder.eval()
            if self.probe_type in ("zero_shot", "linear"):
                self.head.transform.eval()
        return self

    def forward(  # type: ignore[override]
        self,
        tokens: TextFieldTensors,
        mask_position: torch.Tensor,
        candidate_ids: torch.Tensor,
        label: Optional[torch.Tensor] = None,
        metadata: Optional[List[Dict[str, Any]]] = None,
        **extra,
    ) -> Dict[str, Any]:
        pieces = tokens["tokens"]
        type_ids = pieces.get("type_ids") if self._use_type_ids else None
        candidate_ids = candidate_ids.long()
        with self.autocast():
            with torch.set_grad_enabled(torch.is_grad_enabled() and not self.encoder_frozen):
                hidden = self.head.hidden_at(
                    pieces["token_ids"], pieces["mask"].long(), mask_position.long(), type_ids
                )
            logits = self.head.candidate_logits(hidden, candidate_ids)
        return self.choice_output(logits, candidate_ids >= 0, label, metadata)

