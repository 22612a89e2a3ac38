"""The training configs shipped with the package: one place that finds them.

The jsonnet files live in ``mcqa_probes/training_config/`` (package data, so a non-editable
``pip install .`` has them too); the checkout's top-level ``training_config`` is a link to that
folder, so ``allennlp train training_config/roberta_probe.jsonnet`` works from the repository root.
Drivers find a config with ``config_file(name)``, wherever the package is installed.

:func:`one_of` is the one check of a config key (or option) that takes one of a few values.
"""
from pathlib import Path
from typing import Any, Collection, Type

CONFIG_DIR = Path(__file__).resolve().parents[1] / "training_config"


def config_file(name: str) -> Path:
    """The path of a shipped config (``"roberta_probe.jsonnet"``); a clear error if there is none."""
    path = CONFIG_DIR / name
    if not path.is_file():
        shipped = sorted(p.name for p in CONFIG_DIR.glob("*.jsonnet"))
        raise FileNotFoundError(f"no shipped config {name!r} in {CONFIG_DIR} (shipped: {', '.join(shipped)})")
    return path


def one_of(value: Any, allowed: Collection[Any], key: str, error: Type[Exception] = ValueError) -> Any:
    """``value`` when it is one of ``allowed``; else ``error("KEY: expected one of ALLOWED, got 'VALUE'")``
    (``key`` names the config key, e.g. ``model.pooling``)."""
    if value not in allowed:
        raise error(f"{key}: expected one of {allowed}, got {value!r}")
    return value
