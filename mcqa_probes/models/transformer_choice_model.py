"""What the multiple-choice models over one pretrained transformer share: its name, the config key
``transformer_model_name``, and whether the model takes token type ids.

Not registered itself. ``transformer_mcqa`` (a score per (question, choice) pair) and
``masked_lm_mc`` (and ``winoventi_mlm``: candidate words at the mask) are its subclasses; each
loads the transformer its own way (:func:`~mcqa_probes.resources.pretrained.resolve_transformer_name`
checks the name first).
"""
from typing import Any

from allennlp.data import Vocabulary

from mcqa_probes.models.multiple_choice_model import MultipleChoiceModel


class TransformerChoiceModel(MultipleChoiceModel):
    """Base of the multiple-choice models over one pretrained transformer.

    A subclass takes its own parameters and ``**kwargs``; allennlp finds ``transformer_model_name``
    (and :class:`MultipleChoiceModel`'s ``cluster_key`` and ``precision``) through the ``**kwargs``,
    so every config key stays where the configs and archives have it. From Python, pass it by name:
    ``MaskedLmMc(vocab, transformer_model_name="minilm", probe_type="zero_shot")``.

    # Parameters

    transformer_model_name : `str`, optional (default = `"minilm"`)
        HuggingFace name or local directory (``minilm`` = the offline all-MiniLM-L6-v2; see
        :mod:`mcqa_probes.resources.pretrained`). Must match the reader's.
    """

    def __init__(self, vocab: Vocabulary, transformer_model_name: str = "minilm", **kwargs) -> None:
        super().__init__(vocab, **kwargs)
        self.transformer_model_name = transformer_model_name

    @staticmethod
    def uses_type_ids(config: Any) -> bool:
        """Whether the transformer (its HuggingFace ``config``) takes token type ids (BERT: yes, RoBERTa: no)."""
        return getattr(config, "type_vocab_size", 0) > 1
