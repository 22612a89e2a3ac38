"""Where prepared resources are cached (``$MCQA_PROBES_CACHE``, default ``~/.cache/mcqa_probes``)."""
import os
from pathlib import Path


def cache_dir() -> Path:
    root = os.environ.get("MCQA_PROBES_CACHE")
    if root:
        return Path(root).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mcqa_probes"
