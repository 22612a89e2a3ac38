"""The ``mlm_baseline`` model: oLMpics MLM-BASELINE (§2.3), GloVe of the first 20 tokens -> FF_MLM."""
from typing import Any, Dict, List, Optional

import torch
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import TextFieldEmbedder
from allennlp.nn import util

from mcqa_probes.models.multiple_choice_model import MultipleChoiceModel
from mcqa_probes.resources.pretrained import resolve_transformer_name


def masked_lm_hidden_size(config) -> int:
    """The width of a masked LM's head input (``hidden_size``; ``dim`` for DistilBERT-style configs)."""
    for name in ("hidden_size", "dim", "d_model"):
        value = getattr(config, name, None)
        if isinstance(value, int) and value > 0:
            return value
    raise ValueError(f"{type(config).__name__} has no hidden size: set mlm_baseline's hidden_dim")


@Model.register("mlm_baseline")
class MlmBaseline(MultipleChoiceModel):
    """A non-contextual lower bound for MC-MLM (Talmor et al. 2020, §2.3).

    The first ``num_tokens`` (20) word tokens of the stem (``[MASK]`` included, as one token) are
    embedded with 50-d GloVe, concatenated into one ``num_tokens * 50`` = 1000-d vector (zero-padded
    when the stem is shorter), and passed through a randomly initialised FF_MLM shaped like a
    masked-LM head: dense -> GELU -> LayerNorm -> output layer over the tokenizer vocabulary,
    evaluated only for the K candidate ids (the same ids as ``masked_lm_mc``, so the same K-way
    softmax and cross-entropy). Use with ``olmpics_mlm`` (``word_tokens: true``).

    # Parameters

    text_field_embedder : `TextFieldEmbedder`
        For the ``words`` field (GloVe 50d, normally ``trainable: false``).
    transformer_model_name : `str`, optional (default = `"minilm"`)
        Whose vocabulary the candidate ids index (the reader's); gives the output layer's size.
    num_tokens : `int`, optional (default = `20`)
    hidden_dim : `int`, optional (default = `None`)
        FF_MLM hidden size. By default the masked LM's own ``hidden_size`` (read from the config of
        ``transformer_model_name``: 1024 for large models), since the paper passes the 1000-d GloVe
        input through FF_MLM "exactly like in MC-MLM". A smaller value makes CPU runs faster (the
        output layer has vocabulary x hidden_dim weights) but is not the paper's head.
    dropout : `float`, optional (default = `0.1`)
    """

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        transformer_model_name: str = "minilm",
        num_tokens: int = 20,
        hidden_dim: Optional[int] = None,
        dropout: float = 0.1,
        **kwargs,
    ) -> None:
        super().__init__(vocab, **kwargs)
        from transformers import AutoConfig


        self.text_field_embedder = text_field_embedder
        self.num_tokens = num_tokens
        lm_config = AutoConfig.from_pretrained(resolve_transformer_name(transformer_model_name))
        output_size = lm_config.vocab_size
        if hidden_dim is None:
            hidden_dim = masked_lm_hidden_size(lm_config)
        self.hidden_dim = hidden_dim
        input_dim = num_tokens * text_field_embedder.get_output_dim()
        self.dense = torch.nn.Linear(input_dim, hidden_dim)
        self.layer_norm = torch.nn.LayerNorm(hidden_dim)
        self.dropout = torch.nn.Dropout(dropout)
        self.output_weight = torch.nn.Parameter(torch.randn(output_size, hidden_dim) * 0.02)
        self.output_bias = torch.nn.Parameter(torch.zeros(output_size))

    def encode(self, words: TextFieldTensors) -> torch.Tensor:
        """(batch, num_tokens * dim): the first tokens' vectors, concatenated, zero-padded."""
        embedded = self.text_field_embedder(words)
        mask = util.get_text_field_mask(words).unsqueeze(-1).to(embedded.dtype)
        embedded = (embedded * mask)[:, : self.num_tokens]
        missing = self.num_tokens - embedded.size(1)
        if missing > 0:
            embedded = torch.nn.functional.pad(embedded, (0, 0, 0, missing))
        return embedded.reshape(embedded.size(0), -1)

    def forward(  # type: ignore[override]
        self,
        words: TextFieldTensors,
        candidate_ids: torch.Tensor,
        label: Optional[torch.Tensor] = None,
        metadata: Optional[List[Dict[str, Any]]] = None,
        **extra,
    ) -> Dict[str, Any]:
        candidate_ids = candidate_ids.long()
        safe = candidate_ids.clamp(min=0)
        with self.autocast():
            hidden = self.layer_norm(torch.nn.functional.gelu(self.dense(self.dropout(self.encode(words)))))
            logits = torch.einsum("bh,bkh->bk", hidden, self.output_weight[safe]) + self.output_bias[safe]
        return self.choice_output(logits, candidate_ids >= 0, label, metadata)

