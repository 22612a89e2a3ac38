"""The training configs shipped with the package: one place that finds them.

The jsonnet files live in ``mcqa_probes/training_config/`` (package data, so a non-editable
``pip install .`` has them too); the checkout's top-level ``training_config`` is a link to that
folder, so ``allennlp train training_config/roberta_probe.jsonnet`` works from the repository root.
Drivers find a config with ``config_file(name)``, wherever the package is installed.
"""
from pathlib import Path

CONFIG_DIR = Path(__file__).resolve().parents[1] / "training_config"


def config_file(name: str) -> Path:
    """The path of a shipped config (``"roberta_probe.jsonnet"``); a clear error if there is none."""
    path = CONFIG_DIR / name
    if not path.is_file():
        shipped = sorted(p.name for p in CONFIG_DIR.glob("*.jsonnet"))
        raise FileNotFoundError(f"no shipped config {name!r} in {CONFIG_DIR} (shipped: {', '.join(shipped)})")
    return path
