"""Compatibility layer: allennlp 2.10.1 on Python 3.11 + torch 2.13 + transformers 4.57.

allennlp 2.10.1 (2022) predates this stack. Each fix below is small, names the error it
prevents, and is a no-op where the installed libraries do not need it. No allennlp source
file is edited: fixes are applied by an import hook when the affected module is imported.

Why an import hook in a separate top-level module: the ``allennlp`` console script imports
``allennlp.commands`` (and through it ``allennlp.data`` -> torchvision, and
``allennlp.training.optimizers`` -> ``transformers.AdamW``) BEFORE it imports plugins such as
``mcqa_probes``. ``bin/setup`` therefore writes ``mcqa_probes_compat.pth`` into the virtual
environment's site-packages; Python executes its ``import mcqa_probes_compat`` line at start-up.
Importing this module is cheap (no torch, no allennlp): it only registers the hook.

The fixes (see ``FIXES``):

1. ``torchvision`` -- allennlp imports it at module level for its vision components only.
   PyPI's torchvision wheels are CUDA builds that fail beside the CPU torch
   ("operator torchvision::nms does not exist"), and without it:
   "ModuleNotFoundError: No module named 'torchvision'". When torchvision is missing or does
   not import, a placeholder module is provided whose attributes raise a clear ImportError
   when a vision component is actually used.
2. ``transformers.AdamW`` -- removed in transformers 4.50; allennlp subclasses it at import
   ("AttributeError: module transformers has no attribute AdamW"). Before
   ``allennlp.training.optimizers`` runs, an AdamW built on ``torch.optim.AdamW`` (accepting
   ``correct_bias=True``) is added to transformers when it lacks one.
3. ``cached_transformers.get_tokenizer`` passes ``add_special_tokens=`` to
   ``AutoTokenizer.from_pretrained``; since transformers 4.34 this raises
   "AttributeError: add_special_tokens conflicts with the method add_special_tokens". The
   keyword never changed the tokenizer object, so it is dropped before the call.
4. ``reduce_on_plateau`` passes ``verbose=`` to ``torch.optim.lr_scheduler.ReduceLROnPlateau``,
   which torch 2.x rejects ("TypeError: ... unexpected keyword argument 'verbose'"). The
   scheduler is built without it.
5. ``allennlp_models.rc.tools.narrativeqa`` calls ``nltk.download`` at import when punkt is
   missing (slow and noisy offline). ``nltk.download`` is a quiet no-op while that module imports.

And two lines every ``allennlp`` command printed before its work, dropped by :func:`quiet_start_up`
(installed with the hook): setuptools' ``pkg_resources is deprecated as an API`` warning (the
``rouge`` package that ``allennlp_models`` imports uses ``pkg_resources``; a warnings filter for
that one message) and allennlp's INFO lines ``Plugin allennlp_models available`` / ``Plugin
mcqa_probes.plugin available`` (a logging filter on ``allennlp.common.plugins``; its errors stay).
"""
import importlib.abc
import importlib.machinery
import importlib.util
import logging
import sys
import threading
import types
import warnings
from typing import Callable, Dict, List, Optional, Tuple

logger = logging.getLogger(__name__)

__all__ = ["install", "installed", "FIXES", "applied", "write_pth", "quiet_start_up"]

#: Names of the fixes that were actually applied in this process (for tests and diagnostics).
applied: List[str] = []


# --------------------------------------------------------------------------------------
# 1. torchvision placeholder
# --------------------------------------------------------------------------------------
_TORCHVISION_MESSAGE = (
    "torchvision is not usable in this environment (it is missing, or PyPI's CUDA build failed "
    "to import beside the CPU torch). allennlp's vision components need it; mcqa_probes does not. "
    "Install a torchvision build that matches torch {torch} to use them."
)


class _UnavailableModule(types.ModuleType):
    """A module whose attributes raise ImportError when used (and which answers submodules)."""

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        try:
            import torch

            version = torch.__version__
        except Exception:  # pragma: no cover - torch always present in this project
            version = "?"
        raise ImportError(_TORCHVISION_MESSAGE.format(torch=version) + f" (needed: {self.__name__}.{name})")


class _PlaceholderLoader(importlib.abc.Loader):
    def create_module(self, spec):
        module = _UnavailableModule(spec.name)
        module.__path__ = []  # a package, so submodules import too
        module.__mcqa_probes_placeholder__ = True
        return module

    def exec_module(self, module):
        if "torchvision" not in applied:
            applied.append("torchvision")


# --------------------------------------------------------------------------------------
# 2. transformers.AdamW
# --------------------------------------------------------------------------------------
def _ensure_transformers_adamw() -> None:
    import transformers

    try:
        getattr(transformers, "AdamW")
        return
    except (AttributeError, ImportError, RuntimeError):
        pass
    import torch

    class AdamW(torch.optim.AdamW):
        """``transformers.AdamW`` replacement (removed in transformers 4.50).

        Only ``correct_bias=True`` (the default, and what torch's AdamW does) is supported.
        """

        def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-6, weight_decay=0.0,
                     correct_bias=True, no_deprecation_warning=False):
            if not correct_bias:
                raise ValueError(
                    "huggingface_adamw with correct_bias=False is not supported with transformers>=4.50; "
                    "use the 'adamw' optimizer instead."
                )
            super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)

    AdamW.__module__ = "transformers"
    setattr(sys.modules["transformers"], "AdamW", AdamW)
    applied.append("transformers.AdamW")


# --------------------------------------------------------------------------------------
# 3. get_tokenizer(add_special_tokens=...)
# --------------------------------------------------------------------------------------
def _tokenizer_kwarg_conflicts() -> bool:
    import transformers

    return hasattr(transformers.PreTrainedTokenizerBase, "add_special_tokens") and tuple(
        int(p) for p in transformers.__version__.split(".")[:2]
    ) >= (4, 34)


def _patch_get_tokenizer(module) -> None:
    if not _tokenizer_kwarg_conflicts():
        return
    original = getattr(module, "get_tokenizer", None)
    if original is None or getattr(original, "__mcqa_probes_fixed__", False):
        return

    import functools  # lazy: this module runs at every interpreter start-up (.pth); only a patch being applied needs it

    @functools.wraps(original)
    def get_tokenizer(model_name: str, **kwargs):
        kwargs.pop("add_special_tokens", None)
        return original(model_name, **kwargs)

    get_tokenizer.__mcqa_probes_fixed__ = True
    module.get_tokenizer = get_tokenizer
    applied.append("get_tokenizer.add_special_tokens")


# --------------------------------------------------------------------------------------
# 4. ReduceLROnPlateau(verbose=...)
# --------------------------------------------------------------------------------------
def _plateau_rejects_verbose() -> bool:
    import inspect  # lazy: this module runs at every interpreter start-up (.pth); only a patch being applied needs it

    import torch

    return "verbose" not in inspect.signature(torch.optim.lr_scheduler.ReduceLROnPlateau.__init__).parameters


def _patch_reduce_on_plateau(module) -> None:
    if not _plateau_rejects_verbose():
        return
    import functools  # lazy: this module runs at every interpreter start-up (.pth); only a patch being applied needs it
    import inspect  # lazy: this module runs at every interpreter start-up (.pth); only a patch being applied needs it

    import torch

    cls = getattr(module, "ReduceOnPlateauLearningRateScheduler", None)
    if cls is None:
        return
    original = cls.__init__
    if getattr(original, "__mcqa_probes_fixed__", False):
        return
    signature = inspect.signature(original)

    @functools.wraps(original)
    def __init__(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self")
        verbose = arguments.pop("verbose", False)
        if verbose:
            logger.info("reduce_on_plateau: 'verbose' is ignored with torch %s", torch.__version__)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(**arguments)
        module._PyTorchLearningRateSchedulerWrapper.__init__(self, scheduler)

    __init__.__mcqa_probes_fixed__ = True
    cls.__init__ = __init__
    applied.append("reduce_on_plateau.verbose")


# --------------------------------------------------------------------------------------
# 5. nltk.download during allennlp_models.rc.tools.narrativeqa import
# --------------------------------------------------------------------------------------
_saved_download: Dict[str, Callable] = {}


def _silence_nltk_download() -> None:
    import nltk

    _saved_download["download"] = nltk.download

    def download(*args, **kwargs):
        logger.debug("nltk.download%s skipped while allennlp_models imports (offline)", args)
        return False

    nltk.download = download
    applied.append("nltk.download")


def _restore_nltk_download(_module=None) -> None:
    import nltk

    if "download" in _saved_download:
        nltk.download = _saved_download.pop("download")


# --------------------------------------------------------------------------------------
# The import hook
# --------------------------------------------------------------------------------------
#: module name -> (before exec, after exec) hooks.
FIXES: Dict[str, Tuple[Optional[Callable[[], None]], Optional[Callable[[types.ModuleType], None]]]] = {
    "allennlp.training.optimizers": (_ensure_transformers_adamw, None),
    "allennlp.common.cached_transformers": (None, _patch_get_tokenizer),
    "allennlp.training.learning_rate_schedulers.pytorch_lr_schedulers": (None, _patch_reduce_on_plateau),
    "allennlp_models.rc.tools.narrativeqa": (_silence_nltk_download, _restore_nltk_download),
}


class _HookedLoader(importlib.abc.Loader):
    def __init__(self, loader, before, after):
        self._loader = loader
        self._before = before
        self._after = after

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        if self._before is not None:
            self._before()
        try:
            self._loader.exec_module(module)
        finally:
            # Runs even when the import failed (restoring nltk.download); patches check
            # that what they patch exists.
            if self._after is not None:
                self._after(sys.modules.get(module.__name__, module))

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _TorchvisionLoader(importlib.abc.Loader):
    """Runs the real torchvision; if it fails to import, falls back to the placeholder."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        try:
            self._loader.exec_module(module)
        except Exception as error:  # e.g. RuntimeError: operator torchvision::nms does not exist
            logger.warning("torchvision failed to import (%s); using a placeholder", error)
            for name in [n for n in sys.modules if n == "torchvision" or n.startswith("torchvision.")]:
                del sys.modules[name]
            placeholder = _PlaceholderLoader().create_module(module.__spec__)
            sys.modules["torchvision"] = placeholder
            _PlaceholderLoader().exec_module(placeholder)


class _CompatFinder(importlib.abc.MetaPathFinder):
    def __init__(self):
        self._busy = threading.local()

    def _real_spec(self, fullname, path, target):
        busy = getattr(self._busy, "names", None)
        if busy is None:
            busy = self._busy.names = set()
        if fullname in busy:
            return None
        busy.add(fullname)
        try:
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(fullname, path, target)
                if spec is not None:
                    return spec
            return None
        finally:
            busy.discard(fullname)

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "torchvision" or fullname.startswith("torchvision."):
            parent = sys.modules.get("torchvision")
            if fullname != "torchvision" and getattr(parent, "__mcqa_probes_placeholder__", False):
                return importlib.machinery.ModuleSpec(fullname, _PlaceholderLoader(), is_package=True)
            if fullname != "torchvision":
                return None
            spec = self._real_spec(fullname, path, target)
            if spec is None:
                return importlib.machinery.ModuleSpec(fullname, _PlaceholderLoader(), is_package=True)
            if spec.loader is not None:
                spec.loader = _TorchvisionLoader(spec.loader)
            return spec
        if fullname not in FIXES:
            return None
        spec = self._real_spec(fullname, path, target)
        if spec is None or spec.loader is None:
            return spec
        before, after = FIXES[fullname]
        spec.loader = _HookedLoader(spec.loader, before, after)
        return spec


_finder: Optional[_CompatFinder] = None
#: the start-up noise :func:`quiet_start_up` drops
PKG_RESOURCES_WARNING = r"pkg_resources is deprecated as an API"
PLUGIN_LOGGER = "allennlp.common.plugins"


def _not_plugin_available(record: logging.LogRecord) -> bool:
    return not (record.levelno == logging.INFO and record.msg == "Plugin %s available")


def quiet_start_up() -> None:
    """Drop the ``pkg_resources`` deprecation warning and allennlp's "Plugin ... available" INFO
    lines (idempotent; a warning or log line about anything else is untouched)."""
    warnings.filterwarnings("ignore", message=PKG_RESOURCES_WARNING, category=UserWarning)
    plugin_logger = logging.getLogger(PLUGIN_LOGGER)
    if _not_plugin_available not in plugin_logger.filters:
        plugin_logger.addFilter(_not_plugin_available)


def install() -> None:
    """Register the import hook (idempotent). Fixes for modules already imported are applied now."""
    global _finder
    if _finder is None:
        _finder = _CompatFinder()
        sys.meta_path.insert(0, _finder)
        quiet_start_up()
    # Modules imported before the hook existed (e.g. ``import allennlp`` before mcqa_probes).
    for name, (before, after) in FIXES.items():
        if name in sys.modules and after is not None and before is None:
            after(sys.modules[name])


def installed() -> bool:
    return _finder is not None and _finder in sys.meta_path


PTH_NAME = "mcqa_probes_compat.pth"


def write_pth(site_packages: Optional[str] = None) -> str:
    """Write the start-up file that activates this layer in every Python process of the venv."""
    import os  # lazy: runs at every interpreter start-up (.pth); only bin/setup writes the file
    import sysconfig  # lazy: as above

    directory = site_packages or sysconfig.get_paths()["purelib"]
    target = os.path.join(directory, PTH_NAME)
    content = "import mcqa_probes_compat; mcqa_probes_compat.install()\n"
    if os.path.exists(target) and open(target).read() == content:
        return target
    temporary = target + ".tmp"
    with open(temporary, "w") as handle:
        handle.write(content)
    os.replace(temporary, target)
    return target
