"""Temporarily set environment variables (the configs read their overrides from the environment)."""
import contextlib
import os
from typing import Dict, Optional


@contextlib.contextmanager
def environment(values: Optional[Dict[str, Optional[str]]] = None, **more: Optional[str]):
    """Set each variable (``None`` unsets it) for the duration of the ``with`` block, then restore."""
    wanted = {**(values or {}), **more}
    saved = {key: os.environ.get(key) for key in wanted}

    def apply(settings):
        for key, value in settings.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = str(value)

    try:
        apply(wanted)
        yield
    finally:
        apply(saved)
