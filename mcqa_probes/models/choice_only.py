"""The ``choice_only`` model: a partial-input baseline that never sees the question."""
import torch
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model

from mcqa_probes.models.choice_scorer_base import ChoiceScorer


@Model.register("choice_only")
class ChoiceOnly(ChoiceScorer):
    """Choice-Only (Richardson & Sabharwal 2020 §4.1, after Poliak et al.'s hypothesis-only NLI
    baseline): ``α_i = Wᵀ r_{c_i}`` with ``r_{c_i} = max(BiLSTM(EMBED(c_i)))``; the question field is
    accepted (same reader as the other models) and ignored. A score well above chance means the
    answers alone give the gold away (an annotation artifact of the probe).

    # Parameters

    text_field_embedder : `TextFieldEmbedder`
    encoder : `Seq2SeqEncoder`, optional (default = `None`)
        The BiLSTM; ``None`` max-pools the embeddings directly.
    dropout : `float`, optional (default = `0.0`)
    initializer : `InitializerApplicator`, optional
    """

    item_prompt = "choice_only"

    def __init__(self, vocab: Vocabulary, **kwargs) -> None:  # the config keys of ChoiceScorer (allennlp reads them there)
        super().__init__(vocab, **kwargs)
        self.choice_weight = torch.nn.Linear(self.representation_dim, 1)
        self.apply_initializer()

    def score_choices(self, question: TextFieldTensors, choices: TextFieldTensors, choice_mask) -> torch.Tensor:
        represented, _ = self.encode(choices, num_wrapping_dims=1)
        return self.choice_weight(represented).squeeze(-1)
