"""The ``esim_mcqa`` model: ESIM (Chen et al. 2017) scoring every (question, choice) pair."""
from typing import Optional

import torch
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import FeedForward, MatrixAttention, Seq2SeqEncoder, TextFieldEmbedder
from allennlp.nn import InitializerApplicator
from allennlp_models.pair_classification.models.esim import ESIM

from mcqa_probes.models.choice_scorer_base import ChoiceScorer


def _map_text_field(text: TextFieldTensors, function) -> TextFieldTensors:
    return {name: {key: function(tensor) for key, tensor in inner.items()} for name, inner in text.items()}


@Model.register("esim_mcqa")
class EsimMcqa(ChoiceScorer):
    """ESIM for multiple choice (as in the oLMpics / OpenBookQA science baselines, for any number
    of choices): the question is the ESIM premise and each choice a hypothesis; allennlp-models'
    pair-classification ``ESIM`` (encoder, token-wise attention, enhancement, projection,
    inference encoder, avg+max pooling, feed-forward) runs once over all (question, choice) pairs
    of the batch and its ``output_logit`` gives ONE logit per pair, i.e. α_i = ESIM(q, c_i).
    Padding choices (batches mixing K) are skipped.

    The arguments are those of allennlp-models' ``esim`` model; ``output_logit`` must end in one
    unit (``output_dims: 1``).

    # Parameters

    text_field_embedder : `TextFieldEmbedder`
    encoder : `Seq2SeqEncoder`
        Input encoding (BiLSTM) of question and choice tokens.
    matrix_attention : `MatrixAttention`
        Token-wise similarity (``dot_product`` in ESIM).
    projection_feedforward : `FeedForward`
        Projects the enhanced [a; ã; a-ã; a*ã] (4 × encoder output) down.
    inference_encoder : `Seq2SeqEncoder`
        Composition BiLSTM.
    output_feedforward : `FeedForward`
        Over [avg_q; max_q; avg_c; max_c] (4 × inference encoder output).
    output_logit : `FeedForward`
        Down to one score per pair.
    dropout : `float`, optional (default = `0.5`)
    initializer : `InitializerApplicator`, optional
    """

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        encoder: Seq2SeqEncoder,
        matrix_attention: MatrixAttention,
        projection_feedforward: FeedForward,
        inference_encoder: Seq2SeqEncoder,
        output_feedforward: FeedForward,
        output_logit: FeedForward,
        dropout: float = 0.5,
        initializer: Optional[InitializerApplicator] = None,
        **kwargs,
    ) -> None:
        super().__init__(vocab, text_field_embedder, None, 0.0, None, **kwargs)
        if output_logit.get_output_dim() != 1:
            raise ValueError(f"model.output_logit: expected output_dims 1 (one logit per choice), "
                             f"got {output_logit.get_output_dim()}")
        self.pair_model = ESIM(
            vocab,
            text_field_embedder,
            encoder,
            matrix_attention,
            projection_feedforward,
            inference_encoder,
            output_feedforward,
            output_logit,
            dropout=dropout,
            initializer=initializer or InitializerApplicator(),
        )

    def score_choices(self, question: TextFieldTensors, choices: TextFieldTensors, choice_mask) -> torch.Tensor:
        batch_size, num_choices = choice_mask.shape
        real = choice_mask.reshape(-1)
        pairs_question = _map_text_field(question, lambda t: t.repeat_interleave(num_choices, dim=0)[real])
        pairs_choice = _map_text_field(choices, lambda t: t.reshape(batch_size * num_choices, *t.shape[2:])[real])
        pair_logits = self.pair_model(premise=pairs_question, hypothesis=pairs_choice)["label_logits"].squeeze(-1)
        scores = pair_logits.new_zeros(batch_size * num_choices)
        scores[real] = pair_logits
        return scores.reshape(batch_size, num_choices)
