"""Tiny BERT, RoBERTa (and DistilBERT, ALBERT, MobileBERT, ELECTRA) checkpoints with random weights and a small vocabulary.

Also tiny CAUSAL LMs (:func:`make_tiny_causal_lm`): GPT-2 (byte-level BPE, no BOS added by the
tokenizer, ``<|endoftext|>`` as BOS/EOS) and Llama (byte-level BPE whose tokenizer adds ``<s>`` in
front of every text, as Llama's does), for the causal-LM scoring tests.

Built in a few seconds from word lists, saved with ``save_pretrained`` so that every code path
that takes a HuggingFace name or directory (AutoModel, AutoTokenizer, allennlp's
PretrainedTransformer* classes) can be tested offline. The masked-LM head is included
(``*ForMaskedLM``), so the same directory serves MCQA and MC-MLM tests.
"""
import os
from pathlib import Path
from typing import Iterable, Optional

DEFAULT_WORDS = (
    "the a an is of in to and or was as it for with on at by be this that which what who best "
    "defined kind type word sentence concept example person year old than younger older bigger "
    "smaller bird fish rock tool poem boat tree flower color blue red seven quickly always never "
    "sometimes often rarely trumpet oak sparrow hammer sonnet violin salmon canoe tulip sprint "
    "granite lantern brass instrument plant animal water ice gas air milk cold cut paper train "
    "station snow boots question answer yes no not can has have"
).split()

_SIZES = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
              max_position_embeddings=128)


def _seeded(seed: int):
    import torch

    torch.manual_seed(seed)


def _write_wordpiece_tokenizer(directory: Path, words: Optional[Iterable[str]], lowercase: bool):
    """The tiny WordPiece vocabulary (special tokens, words, characters, ##letters) and its tokenizer."""
    from transformers import BertTokenizerFast

    directory.mkdir(parents=True, exist_ok=True)
    vocabulary = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    seen = set(vocabulary)
    for word in list(words or DEFAULT_WORDS) + list("abcdefghijklmnopqrstuvwxyz0123456789.,;:'\"?!()-"):
        word = word.lower() if lowercase else word
        if word not in seen:
            seen.add(word)
            vocabulary.append(word)
    for letter in "abcdefghijklmnopqrstuvwxyz":
        vocabulary.append("##" + letter)
    (directory / "vocab.txt").write_text("\n".join(vocabulary) + "\n")
    tokenizer = BertTokenizerFast(vocab_file=str(directory / "vocab.txt"), do_lower_case=lowercase)
    tokenizer.save_pretrained(str(directory))
    return tokenizer


def make_tiny_bert(directory, words: Optional[Iterable[str]] = None, seed: int = 0, lowercase: bool = True) -> Path:
    """A BERT-style (WordPiece) masked LM in ``directory``; returns the path."""
    from transformers import BertConfig, BertForMaskedLM

    directory = Path(directory)
    tokenizer = _write_wordpiece_tokenizer(directory, words, lowercase)
    _seeded(seed)
    config = BertConfig(vocab_size=len(tokenizer), type_vocab_size=2, **_SIZES)
    BertForMaskedLM(config).save_pretrained(str(directory))
    return directory


#: masked-LM families :func:`make_tiny_masked_lm` builds (all but RoBERTa on the tiny WordPiece vocabulary)
TINY_FAMILIES = ("bert", "roberta", "distilbert", "albert", "mobilebert", "electra")


def _tiny_config(family: str, vocab_size: int):
    import transformers

    common = dict(vocab_size=vocab_size, pad_token_id=0, max_position_embeddings=128)
    if family == "bert":
        return transformers.BertConfig(type_vocab_size=2, **{**_SIZES, **common})
    if family == "distilbert":
        return transformers.DistilBertConfig(dim=32, n_layers=2, n_heads=2, hidden_dim=37, **common)
    if family == "albert":  # factorised embeddings: 16-wide output layer, hidden 32
        return transformers.AlbertConfig(embedding_size=16, hidden_size=32, num_hidden_layers=2,
                                         num_attention_heads=2, intermediate_size=37, type_vocab_size=2,
                                         bos_token_id=2, eos_token_id=3, **common)
    if family == "mobilebert":  # 16-wide decoder (tied) + dense block for the other 16 of hidden 32
        return transformers.MobileBertConfig(embedding_size=16, hidden_size=32, num_hidden_layers=2,
                                             num_attention_heads=2, intermediate_size=37, intra_bottleneck_size=16,
                                             num_feedforward_networks=2, type_vocab_size=2, **common)
    if family == "electra":  # generator: 16-wide embeddings, hidden 32
        return transformers.ElectraConfig(embedding_size=16, hidden_size=32, num_hidden_layers=2,
                                          num_attention_heads=2, intermediate_size=37, type_vocab_size=2, **common)
    raise ValueError(f"unknown tiny family {family!r} (expected one of {TINY_FAMILIES})")


def make_tiny_masked_lm(directory, family: str = "bert", words: Optional[Iterable[str]] = None, seed: int = 0,
                        lowercase: bool = True) -> Path:
    """A tiny random ``*ForMaskedLM`` of ``family`` (see :data:`TINY_FAMILIES`) in ``directory``.

    RoBERTa gets its byte-level BPE (:func:`make_tiny_roberta`); every other family uses the tiny
    WordPiece tokenizer of :func:`make_tiny_bert` (a BERT-style tokenizer works for all of them).
    Small configs (hidden 32, 2 layers; ALBERT, MobileBERT and ELECTRA with 16-wide embeddings, so
    their output layers differ from the hidden size): a second or two to build.
    """
    if family == "roberta":
        return make_tiny_roberta(directory, words=words, seed=seed)
    if family == "bert":
        return make_tiny_bert(directory, words=words, seed=seed, lowercase=lowercase)
    from transformers import AutoModelForMaskedLM

    config_of = _tiny_config  # raises for an unknown family before anything is written
    directory = Path(directory)
    config_of(family, 10)
    tokenizer = _write_wordpiece_tokenizer(directory, words, lowercase)
    _seeded(seed)
    model = AutoModelForMaskedLM.from_config(config_of(family, len(tokenizer)))
    model.save_pretrained(str(directory))
    return directory


def make_tiny_roberta(directory, words: Optional[Iterable[str]] = None, seed: int = 0) -> Path:
    """A RoBERTa-style (byte-level BPE, leading-space "Ġword" pieces) masked LM in ``directory``."""
    from tokenizers import ByteLevelBPETokenizer
    from transformers import RobertaConfig, RobertaForMaskedLM, RobertaTokenizerFast

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    word_list = list(words or DEFAULT_WORDS)
    corpus = [" ".join(word_list)] * 3 + [" " + w for w in word_list]
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(
        corpus, vocab_size=256 + 5 + 10 * len(word_list), min_frequency=1,
        special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"], show_progress=False,
    )
    bpe.save_model(str(directory))
    tokenizer = RobertaTokenizerFast(
        vocab_file=str(directory / "vocab.json"), merges_file=str(directory / "merges.txt")
    )
    tokenizer.save_pretrained(str(directory))
    _seeded(seed)
    config = RobertaConfig(
        vocab_size=tokenizer.vocab_size if hasattr(tokenizer, "vocab_size") else len(tokenizer),
        type_vocab_size=1, pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id, **{**_SIZES, "max_position_embeddings": 130},
    )
    RobertaForMaskedLM(config).save_pretrained(str(directory))
    return directory


#: causal-LM families :func:`make_tiny_causal_lm` builds
TINY_CAUSAL_FAMILIES = ("gpt2", "llama")


def _byte_level_bpe(directory: Path, words, special_tokens):
    from tokenizers import ByteLevelBPETokenizer

    word_list = list(words or DEFAULT_WORDS)
    corpus = [" ".join(word_list)] * 3 + [" " + w for w in word_list] + [w.capitalize() for w in word_list]
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(corpus, vocab_size=256 + len(special_tokens) + 10 * len(word_list), min_frequency=1,
                            special_tokens=list(special_tokens), show_progress=False)
    bpe.save_model(str(directory))
    return bpe


def make_tiny_causal_lm(directory, family: str = "gpt2", words: Optional[Iterable[str]] = None, seed: int = 0,
                        max_positions: int = 128) -> Path:
    """A tiny random causal LM of ``family`` (:data:`TINY_CAUSAL_FAMILIES`) in ``directory``.

    ``gpt2``: ``GPT2LMHeadModel`` (learned absolute positions, tied output layer) with a GPT-2
    tokenizer (no special token added to texts; ``<|endoftext|>`` is BOS, EOS and the
    lm-evaluation-harness prefix of an empty context). ``llama``: ``LlamaForCausalLM`` (rotary
    positions, RMSNorm, grouped-query attention, untied output layer) with a fast tokenizer that
    puts ``<s>`` in front of every text. Hidden 32, 2 layers, a few hundred tokens: about a second.
    """
    import transformers

    if family not in TINY_CAUSAL_FAMILIES:
        raise ValueError(f"unknown tiny causal family {family!r} (expected one of {TINY_CAUSAL_FAMILIES})")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    if family == "gpt2":
        _byte_level_bpe(directory, words, ["<|endoftext|>"])
        tokenizer = transformers.GPT2TokenizerFast(vocab_file=str(directory / "vocab.json"),
                                                   merges_file=str(directory / "merges.txt"))
        config = transformers.GPT2Config(vocab_size=len(tokenizer), n_positions=max_positions, n_embd=32, n_layer=2,
                                         n_head=2, bos_token_id=tokenizer.bos_token_id,
                                         eos_token_id=tokenizer.eos_token_id)
    else:
        bpe = _byte_level_bpe(directory, words, ["<s>", "</s>", "<unk>"])
        tokenizer = transformers.LlamaTokenizerFast(tokenizer_object=bpe._tokenizer, bos_token="<s>",
                                                    eos_token="</s>", unk_token="<unk>", add_bos_token=True,
                                                    add_eos_token=False, legacy=False)
        config = transformers.LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=37,
                                          num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                                          max_position_embeddings=max_positions, tie_word_embeddings=False,
                                          bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id)
    for name in ("vocab.json", "merges.txt"):
        (directory / name).unlink(missing_ok=True)
    tokenizer.save_pretrained(str(directory))
    _seeded(seed)
    model = transformers.AutoModelForCausalLM.from_config(config)
    # random weights give near-uniform distributions; a larger output scale makes choices differ clearly
    with __import__("torch").no_grad():
        model.get_output_embeddings().weight.mul_(8.0)
    model.save_pretrained(str(directory))
    return directory


if __name__ == "__main__":  # pragma: no cover - manual use: python -m mcqa_probes.testing.tiny_models DIR
    import sys

    target = Path(sys.argv[1] if len(sys.argv) > 1 else "tiny_models")
    print(make_tiny_bert(target / "bert"), make_tiny_roberta(target / "roberta"), sep=os.linesep)
