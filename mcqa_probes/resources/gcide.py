"""Locate GCIDE (the Collaborative International Dictionary of English) in dictd format.

Search order: an explicit ``path`` (a directory holding ``gcide.index`` and ``gcide.dict.dz`` or
``gcide.dict``), the ``MCQA_GCIDE_DIR`` environment variable, then Debian's ``/usr/share/dictd``
(package ``dict-gcide``, GCIDE 0.48).
"""
import os
from pathlib import Path
from typing import NamedTuple, Optional

from mcqa_probes.resources.errors import MissingResourceError
import gzip

DEBIAN_DICTD_DIR = Path("/usr/share/dictd")
INSTALL_HINT = "apt-get install dict-gcide (as root; bin/setup does it)"


class GcideFiles(NamedTuple):
    index: Path
    dictionary: Path  # gcide.dict.dz (dictzip, readable with gzip) or plain gcide.dict


def _in(directory: Path) -> Optional[GcideFiles]:
    index = directory / "gcide.index"
    for name in ("gcide.dict.dz", "gcide.dict"):
        if index.is_file() and (directory / name).is_file():
            return GcideFiles(index, directory / name)
    return None


def find_gcide(path: Optional[str] = None) -> GcideFiles:
    explicit = path or os.environ.get("MCQA_GCIDE_DIR")
    looked = []
    for directory in ([Path(explicit).expanduser()] if explicit else []) + ([] if explicit else [DEBIAN_DICTD_DIR]):
        looked.append(directory)
        found = _in(directory)
        if found is not None:
            return found
    raise MissingResourceError("GCIDE dictd files (gcide.index + gcide.dict.dz)", looked, INSTALL_HINT)


def dictionary_bytes(files: GcideFiles) -> bytes:
    """The whole dictionary body (dictzip files are gzip-compatible)."""
    if files.dictionary.suffix == ".dz":
        with gzip.open(files.dictionary, "rb") as handle:
            return handle.read()
    return files.dictionary.read_bytes()
