"""The ``choice_to_choice`` model: a partial-input baseline comparing each choice with the others."""

import torch
from allennlp.data import TextFieldTensors
from allennlp.models import Model

from mcqa_probes.models.choice_scorer_base import AttentionChoiceScorer


@Model.register("choice_to_choice")
class ChoiceToChoice(AttentionChoiceScorer):
    """Choice-to-Choice (Mihaylov et al. 2018; Richardson & Sabharwal 2020 §4.1): scores every pair
    of choices with a learned attention ``α_{i,i'} = ATT(r_{c_i}, r_{c_i'})`` and sums what the other
    choices say about each one, ``α_i = Σ_{i' ≠ i} ATT(r_{c_{i'}}, r_{c_i})`` (diagonal and padding
    choices excluded), so the model can learn to single out the choice least (or most) similar to
    the rest. The question is never seen.

    # Parameters

    text_field_embedder : `TextFieldEmbedder`
    matrix_attention : `MatrixAttention`
        ATT, e.g. ``{"type": "linear", "combination": "x,y,x-y,x*y", "tensor_1_dim": 2h,
        "tensor_2_dim": 2h}`` (the original's ``linear_extended``) or ``{"type": "bilinear", ...}``.
    encoder : `Seq2SeqEncoder`, optional (default = `None`)
    dropout : `float`, optional (default = `0.0`)
    initializer : `InitializerApplicator`, optional
    """

    def score_choices(self, question: TextFieldTensors, choices: TextFieldTensors, choice_mask) -> torch.Tensor:
        represented, present = self.encode(choices, num_wrapping_dims=1)
        pair_scores = self.matrix_attention(represented, represented)  # (B, K, K): ATT(r_{c_i'}, r_{c_i})
        num_choices = pair_scores.shape[-1]
        others = present.unsqueeze(-1) & present.unsqueeze(-2)
        others = others & ~torch.eye(num_choices, dtype=torch.bool, device=pair_scores.device)
        return pair_scores.masked_fill(~others, 0.0).sum(dim=1)
