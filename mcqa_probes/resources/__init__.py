"""Resource locators (plain Python, no torch): WordNet, GCIDE, GloVe, offline transformers."""
from mcqa_probes.resources.cache import cache_dir
from mcqa_probes.resources.errors import MissingResourceError
from mcqa_probes.resources.gcide import GcideFiles, find_gcide
from mcqa_probes.resources.glove import glove_50d_file
from mcqa_probes.resources.pretrained import minilm_dir, resolve_transformer_name
from mcqa_probes.resources.wordnet import find_wordnet_root, load_wordnet

__all__ = [
    "cache_dir", "MissingResourceError", "GcideFiles", "find_gcide", "glove_50d_file", "minilm_dir",
    "resolve_transformer_name", "find_wordnet_root", "load_wordnet",
]
