"""The ``question_to_choice`` model: the task-specific BiLSTM max-out MCQA baseline."""

import torch
from allennlp.data import TextFieldTensors
from allennlp.models import Model

from mcqa_probes.models.choice_scorer_base import AttentionChoiceScorer


@Model.register("question_to_choice")
class QuestionToChoice(AttentionChoiceScorer):
    """Question-to-Choice (Mihaylov et al. 2018, the BiLSTM max-out model after Conneau et al.
    2017; Richardson & Sabharwal 2020 §4.1, Table 7 group 2): ``α_i = ATT(r_q, r_{c_i})`` with a
    learned attention between the max-pooled question and choice encodings (one shared BiLSTM).

    # Parameters

    text_field_embedder : `TextFieldEmbedder`
    matrix_attention : `MatrixAttention`
        ATT, e.g. ``{"type": "linear", "combination": "x,y,x-y,x*y", "tensor_1_dim": 2h,
        "tensor_2_dim": 2h}`` (the original ``linear_extended`` scorer) or ``{"type": "bilinear",
        "matrix_1_dim": 2h, "matrix_2_dim": 2h}``.
    encoder : `Seq2SeqEncoder`, optional (default = `None`)
    dropout : `float`, optional (default = `0.0`)
    initializer : `InitializerApplicator`, optional
    """

    def score_choices(self, question: TextFieldTensors, choices: TextFieldTensors, choice_mask) -> torch.Tensor:
        question_vector, _ = self.encode(question)
        choice_vectors, _ = self.encode(choices, num_wrapping_dims=1)
        return self.matrix_attention(question_vector.unsqueeze(1), choice_vectors).squeeze(1)
