"""Write files atomically (temp file in the same directory, then rename)."""
import os
from pathlib import Path
from typing import Callable, Union


def write_text(path: Union[str, Path], text: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp{os.getpid()}")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
    return path


def write_with(path: Union[str, Path], writer: Callable[[str], None]) -> Path:
    """``writer(temporary_path)`` writes the file (e.g. matplotlib's savefig); then it is renamed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".tmp{os.getpid()}.{path.name}")
    writer(str(temporary))
    os.replace(temporary, path)
    return path
