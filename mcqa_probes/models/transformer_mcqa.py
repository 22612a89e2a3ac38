"""The ``transformer_mcqa`` model: one score per (question, choice) pair from any HF encoder."""
import logging
from typing import Any, Dict, List, Optional

import torch
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.nn import util

from mcqa_probes.common.configs import one_of
from mcqa_probes.models.transformer_choice_model import TransformerChoiceModel
from mcqa_probes.resources.pretrained import resolve_transformer_name

logger = logging.getLogger(__name__)

POOLING = ("first_token", "pooler", "mean")


@Model.register("transformer_mcqa")
class TransformerMcqa(TransformerChoiceModel):
    """Multiple-choice QA with a pretrained transformer (BERT, RoBERTa, ... any ``AutoModel``).

    Each choice is encoded as ``[CLS] question [SEP] choice [SEP]`` (built by the ``mcqa``
    reader); the pooled vector goes through dropout and a linear layer to one logit; a softmax
    over the choices gives per-choice probabilities; training minimises cross-entropy over the
    choices. Padded choices (no word pieces) are masked out.

    # Parameters

    transformer_model_name : `str`, optional (default = `"minilm"`)
        The encoder (a parameter of the base,
        :class:`~mcqa_probes.models.transformer_choice_model.TransformerChoiceModel`).
    pooling : `str`, optional (default = `"first_token"`)
        ``first_token`` ([CLS] / <s> hidden state, as in the TACL paper), ``pooler`` (the model's
        pooler output, e.g. BERT's tanh layer), or ``mean`` (mean over word pieces).
    dropout : `float`, optional (default = `0.1`)
    train_transformer : `bool`, optional (default = `True`)
        Set to false to freeze the encoder and train only the choice scorer.
    cluster_key, precision
        As in every :class:`~mcqa_probes.models.multiple_choice_model.MultipleChoiceModel`.

    Metrics: ``accuracy``; on probe files also ``cluster_accuracy``, ``cluster_delta`` (points) and
    ``_breakdown/hops=K/FAMILY@DEPTH`` cells (Figure 3).
    """

    def __init__(self, vocab: Vocabulary, pooling: str = "first_token", dropout: float = 0.1,
                 train_transformer: bool = True, **kwargs) -> None:
        super().__init__(vocab, **kwargs)
        one_of(pooling, POOLING, "model.pooling")
        from transformers import AutoModel

        name = resolve_transformer_name(self.transformer_model_name)
        if pooling == "pooler":
            self.encoder = AutoModel.from_pretrained(name)
        else:
            # No pooler when it is not used (BERT/RoBERTa-style models): no dead parameters.
            try:
                self.encoder = AutoModel.from_pretrained(name, add_pooling_layer=False)
            except TypeError:
                self.encoder = AutoModel.from_pretrained(name)
        for parameter in self.encoder.parameters():
            parameter.requires_grad = train_transformer
        config = self.encoder.config
        self._use_type_ids = self.uses_type_ids(config)
        self.pooling = pooling
        self.dropout = torch.nn.Dropout(dropout)
        self.choice_scorer = torch.nn.Linear(config.hidden_size, 1)

    def forward(  # type: ignore[override]
        self,
        alternatives: TextFieldTensors,
        label: Optional[torch.IntTensor] = None,
        metadata: Optional[List[Dict[str, Any]]] = None,
    ) -> Dict[str, torch.Tensor]:
        tokens = alternatives["tokens"]
        token_ids = tokens["token_ids"]
        batch_size, num_choices, length = token_ids.shape
        mask = tokens["mask"]
        flat_mask = mask.reshape(-1, length)
        arguments = {"input_ids": token_ids.reshape(-1, length), "attention_mask": flat_mask.long()}
        if self._use_type_ids and "type_ids" in tokens:
            arguments["token_type_ids"] = tokens["type_ids"].reshape(-1, length)
        # Padded choices (all-zero mask) are skipped: only real rows go through the encoder.
        choice_mask = mask.any(dim=-1)
        real = choice_mask.reshape(-1)
        if not bool(real.all()):
            arguments = {key: value[real] for key, value in arguments.items()}
        with self.autocast():
            output = self.encoder(**arguments)
            if self.pooling == "first_token":
                pooled = output.last_hidden_state[:, 0]
            elif self.pooling == "pooler":
                pooled = output.pooler_output
            else:
                pooled = util.masked_mean(output.last_hidden_state, arguments["attention_mask"].bool().unsqueeze(-1), 1)
            scores = self.choice_scorer(self.dropout(pooled)).squeeze(-1)
        if not bool(real.all()):
            full = scores.new_zeros(batch_size * num_choices, dtype=scores.dtype)
            full[real] = scores
            scores = full
        logits = scores.reshape(batch_size, num_choices)
        return self.choice_output(logits, choice_mask, label, metadata)

