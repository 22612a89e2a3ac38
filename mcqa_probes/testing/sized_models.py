"""Random-weight checkpoints of REAL sizes, built on the machine (no download): what ``bin/gpu_selftest``
measures speed and memory on.

Throughput and memory do not depend on the weights, only on the architecture and the tokens, so a
random BERT-base is as good as ``bert-base-uncased`` for timing. The tokenizer is a real one that
ships with the package: the uncased WordPiece vocabulary of BERT / the offline MiniLM
(``data/wordpiece_vocab.txt``, 30,522 pieces), so questions have realistic lengths.

Sizes (:data:`ENCODER_SIZES`, :data:`CAUSAL_SIZES`): ``bert-base`` (110M parameters), ``bert-large``
(335M), ``llama-135m`` (SmolLM2-135M's shape), ``llama-1b`` (TinyLlama-1.1B's shape: hidden 2048,
22 layers, grouped-query attention with 4 key/value heads; 1.03B parameters with this vocabulary).
``tiny`` builds the tests' tiny models instead (:mod:`mcqa_probes.testing.tiny_models`), for the
self-test's CPU mode.
"""
from pathlib import Path
from typing import Optional

from mcqa_probes.testing.tiny_models import make_tiny_bert, make_tiny_causal_lm

VOCABULARY = Path(__file__).resolve().parent / "data" / "wordpiece_vocab.txt"

ENCODER_SIZES = {
    "bert-base": dict(hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072),
    "bert-large": dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096),
}
CAUSAL_SIZES = {
    "llama-135m": dict(hidden_size=576, num_hidden_layers=30, num_attention_heads=9, num_key_value_heads=3,
                       intermediate_size=1536, tie_word_embeddings=True),
    "llama-1b": dict(hidden_size=2048, num_hidden_layers=22, num_attention_heads=32, num_key_value_heads=4,
                     intermediate_size=5632, tie_word_embeddings=False),
}


def wordpiece_tokenizer(directory: Path, causal: bool = False):
    """The packaged WordPiece tokenizer saved in ``directory``. ``causal``: a fast tokenizer that puts
    ``[CLS]`` (its BOS) in front of every text and nothing after it, as Llama's tokenizer does with
    ``<s>``."""
    from transformers import BertTokenizerFast, PreTrainedTokenizerFast

    bert = BertTokenizerFast(vocab_file=str(VOCABULARY), do_lower_case=True)
    if not causal:
        bert.save_pretrained(str(directory))
        return bert
    from tokenizers import processors

    backend = bert.backend_tokenizer
    backend.post_processor = processors.TemplateProcessing(
        single="[CLS] $A", pair="[CLS] $A $B", special_tokens=[("[CLS]", bert.cls_token_id)])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, bos_token="[CLS]", eos_token="[SEP]",
                                        unk_token="[UNK]", pad_token="[PAD]", mask_token="[MASK]")
    tokenizer.save_pretrained(str(directory))
    return tokenizer


def make_sized_encoder(directory, size: str = "bert-base", seed: int = 0) -> Path:
    """A random ``BertForMaskedLM`` of ``size`` (or ``tiny``) in ``directory``: an MCQA encoder and a masked LM."""
    import torch
    from transformers import BertConfig, BertForMaskedLM

    directory = Path(directory)
    if size == "tiny":
        return make_tiny_bert(directory, seed=seed)
    if size not in ENCODER_SIZES:
        raise ValueError(f"encoder size: expected one of {sorted(ENCODER_SIZES)} or 'tiny', got {size!r}")
    directory.mkdir(parents=True, exist_ok=True)
    tokenizer = wordpiece_tokenizer(directory)
    torch.manual_seed(seed)
    config = BertConfig(vocab_size=len(tokenizer), **ENCODER_SIZES[size])
    BertForMaskedLM(config).save_pretrained(str(directory))
    return directory


def make_sized_causal_lm(directory, size: str = "llama-1b", seed: int = 0, device: Optional[str] = None) -> Path:
    """A random ``LlamaForCausalLM`` of ``size`` (or ``tiny``) in ``directory``, saved in bf16 (half the
    disk; it loads in the precision asked for). ``device``: where to initialise it (a GPU initialises a
    billion parameters in a second; the CPU takes tens of seconds)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    directory = Path(directory)
    if size == "tiny":
        return make_tiny_causal_lm(directory, family="llama", seed=seed)
    if size not in CAUSAL_SIZES:
        raise ValueError(f"causal LM size: expected one of {sorted(CAUSAL_SIZES)} or 'tiny', got {size!r}")
    directory.mkdir(parents=True, exist_ok=True)
    tokenizer = wordpiece_tokenizer(directory, causal=True)
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(tokenizer), max_position_embeddings=2048, bos_token_id=tokenizer.bos_token_id,
                         eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                         **CAUSAL_SIZES[size])
    with torch.device(device or "cpu"):
        model = LlamaForCausalLM(config)
    model.to(torch.bfloat16).save_pretrained(str(directory))
    return directory
