"""The ``masked_lm_mc`` model: oLMpics MC-MLM, a masked LM scoring K candidate words at [MASK]."""
import logging
from typing import Any, Dict, List, Optional

import torch
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model

from mcqa_probes.common.configs import one_of
from mcqa_probes.models.masked_lm_scoring import MaskedLmHead, load_masked_lm
from mcqa_probes.models.transformer_choice_model import TransformerChoiceModel
from mcqa_probes.models.pseudo_log_likelihood import pseudo_log_likelihoods

logger = logging.getLogger(__name__)

PROBE_TYPES = ("zero_shot", "mlp", "linear", "full")


@Model.register("masked_lm_mc")
class MaskedLmMc(TransformerChoiceModel):
    """MC-MLM (Talmor et al. 2020, §2.2): ``p = softmax over the K candidate ids of FF_MLM(h_mask)``.

    Any HuggingFace masked LM (BERT, RoBERTa, DistilBERT, ALBERT, MobileBERT, ELECTRA families;
    any other ``AutoModelForMaskedLM`` through its own head). One batched forward encodes all
    examples; the head is applied to the mask position only and its output layer is evaluated
    for the K candidate ids only (equal to the model's own logits at the mask, gathered; see
    :mod:`mcqa_probes.models.masked_lm_scoring`). Loss: cross-entropy over the K candidates.
    Use with the ``olmpics_mlm`` reader.

    Multi-piece choices (reader ``multi_token: pll | pll_word_l2r``, which adds the
    ``candidate_pieces`` / ``candidate_piece_groups`` fields): a question with any multi-piece
    choice is scored by the pseudo-log-likelihood of each choice in context (sum of the
    log-probabilities of its pieces, each masked in turn; see
    :mod:`mcqa_probes.models.pseudo_log_likelihood`); the masked copies of all such questions
    of a batch go through the encoder in chunks of ``pll_batch_size``. Questions whose choices
    are all single pieces keep the logits above.

    # Parameters

    transformer_model_name : `str`, optional (default = `"minilm"`)
        The masked LM (a parameter of the base,
        :class:`~mcqa_probes.models.transformer_choice_model.TransformerChoiceModel`). NOTE: the
        offline ``minilm`` has no trained MLM head (transformers initialises it randomly), so its
        zero-shot scores are meaningless; its ``mlp``/``linear`` learning curves are fine (the head is trained).
    probe_type : `str`, optional (default = `"mlp"`)
        * ``zero_shot``: nothing is trainable (evaluate with ``bin/zero_shot``, no training run).
        * ``mlp`` (the paper's MLP_MLM): the pre-trained head trains - its hidden layer
          (dense + LayerNorm), its output layer and bias. The encoder AND the input embeddings stay
          frozen: the output layer's weight, tied to the input embeddings in BERT/RoBERTa, is
          *untied* (cloned into ``head.untied_decoder_weight``) so training it cannot move the
          embeddings (the original oLMpics code trained the tied matrix and so the embeddings).
        * ``linear`` (the paper's LINEAR): only the head's output layer (untied copy + bias; for
          MobileBERT also its ``dense`` block of output columns) trains.
        * ``full``: every weight trains (output layer stays tied to the embeddings).
        Frozen parts run in eval mode (no dropout) and without gradients.
    pll_batch_size : `int`, optional (default = `256`)
        Most masked copies (PLL scoring of multi-piece choices) in one forward pass.
    """

    item_prompt = "mlm"

    def __init__(self, vocab: Vocabulary, probe_type: str = "mlp", pll_batch_size: int = 256, **kwargs) -> None:
        super().__init__(vocab, **kwargs)
        self.probe_type = one_of(probe_type, PROBE_TYPES, "model.probe_type")
        self.pll_batch_size = int(pll_batch_size)
        self.head = MaskedLmHead(load_masked_lm(self.transformer_model_name))
        config = self.head.masked_lm.config
        self._use_type_ids = self.uses_type_ids(config)
        self._pad_id = getattr(config, "pad_token_id", None) or 0
        for parameter in self.head.parameters():
            parameter.requires_grad = probe_type == "full"
        if probe_type in ("mlp", "linear"):
            self.head.untie_decoder()
            trainable = self.head.output_layer_parameters()  # untied weight, bias (MobileBERT: + dense block)
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
                (self.head.transform or self.head.masked_lm).eval()
        return self

    def forward(  # type: ignore[override]
        self,
        tokens: TextFieldTensors,
        mask_position: torch.Tensor,
        candidate_ids: torch.Tensor,
        label: Optional[torch.Tensor] = None,
        metadata: Optional[List[Dict[str, Any]]] = None,
        candidate_pieces: Optional[torch.Tensor] = None,
        candidate_piece_groups: Optional[torch.Tensor] = None,
        **extra,
    ) -> Dict[str, Any]:
        pieces = tokens["tokens"]
        type_ids = pieces.get("type_ids") if self._use_type_ids else None
        candidate_ids = candidate_ids.long()
        with self.autocast():
            logits = self.score_candidates(pieces["token_ids"], pieces["mask"].long(), mask_position.long(),
                                           candidate_ids, type_ids, candidate_pieces, candidate_piece_groups)
        return self.choice_output(logits, candidate_ids >= 0, label, metadata)

    def score_candidates(self, token_ids, attention_mask, mask_position, candidate_ids, type_ids=None,
                         candidate_pieces=None, candidate_piece_groups=None) -> torch.Tensor:
        """(batch, K) scores: logits at the mask, or PLL sums for questions with a multi-piece choice."""
        encoder_grad = torch.is_grad_enabled() and not self.encoder_frozen
        multi = None
        if candidate_pieces is not None:
            multi = ((candidate_pieces >= 0).sum(dim=-1) > 1).any(dim=-1)
        if multi is None or not bool(multi.any()):  # every choice is one piece: one forward, logits
            with torch.set_grad_enabled(encoder_grad):
                hidden = self.head.hidden_at(token_ids, attention_mask, mask_position, type_ids)
            return self.head.candidate_logits(hidden, candidate_ids)
        select = lambda t, rows: t[rows] if t is not None else None  # noqa: E731
        scores = torch.zeros(candidate_ids.shape, dtype=torch.float32, device=candidate_ids.device)
        single = ~multi
        if bool(single.any()):
            with torch.set_grad_enabled(encoder_grad):
                hidden = self.head.hidden_at(token_ids[single], attention_mask[single], mask_position[single],
                                             select(type_ids, single))
            scores[single] = self.head.candidate_logits(hidden, candidate_ids[single]).float()
        scores[multi] = pseudo_log_likelihoods(
            self.head, token_ids[multi], attention_mask[multi], mask_position[multi],
            candidate_pieces[multi].long(), candidate_piece_groups[multi].long(), select(type_ids, multi),
            pad_id=self._pad_id, max_batch=self.pll_batch_size, encoder_grad=encoder_grad,
        )
        return scores

