"""An allennlp model archive's config, read without loading the model (no torch, no allennlp):
what a command checks before anything heavy loads.

* ``archive_config``: the ``config.json`` inside a ``model.tar.gz``;
* ``archive_reader_settings``: how the archive's ``mcqa`` reader turned its training questions into word pieces
  (``transformer_model_name``, ``max_length``, ``truncation``; :data:`TOKENIZING_DEFAULTS` where its
  config leaves one out). Training the archive further (inoculation) must read alike: another
  tokenizer's ids in the model's embeddings are an index error at best, a run that means nothing at
  worst.
"""
import json
import tarfile
from pathlib import Path
from typing import Any, Dict, Union

#: the ``mcqa`` reader's settings that decide which word pieces a model sees, with their defaults
#: (:class:`~mcqa_probes.data.dataset_readers.mcqa.McqaReader` takes its defaults from here)
TOKENIZING_DEFAULTS: Dict[str, Any] = {"transformer_model_name": "minilm", "max_length": 256,
                                       "truncation": "longest_first"}


def archive_config(archive: Union[str, Path]) -> Dict[str, Any]:
    """The config.json inside an allennlp model archive; an error naming the file when it is none."""
    try:
        with tarfile.open(archive, "r:gz") as tar:
            member = next((m for m in tar.getmembers() if Path(m.name).name == "config.json"), None)
            if member is None:
                raise ValueError(f"{archive}: not an allennlp model archive (no config.json inside)")
            return json.loads(tar.extractfile(member).read().decode("utf-8"))
    except (tarfile.TarError, OSError, EOFError) as error:
        raise ValueError(f"{archive}: not a readable model archive (.tar.gz): {error}") from None


def archive_reader_settings(archive: Union[str, Path]) -> Dict[str, Any]:
    """The :data:`TOKENIZING_DEFAULTS` keys as the reader the archive was trained with has them (its
    training reader, or an inoculation reader's ``base_reader``; else its validation reader), the
    defaults for those its config leaves out; an error naming the archive when none of its readers
    is an ``mcqa`` reader (or names a transformer)."""
    config = archive_config(archive)
    training = config.get("dataset_reader")
    readers = [training, training.get("base_reader") if isinstance(training, dict) else None,
               config.get("validation_dataset_reader")]
    readers = [reader for reader in readers if isinstance(reader, dict)]
    reader = next((r for r in readers if "transformer_model_name" in r or r.get("type") == "mcqa"), None)
    if reader is None:
        raise ValueError(f"{archive}: none of its readers is an mcqa reader or names a transformer (readers: "
                         f"{', '.join(str(r.get('type')) for r in readers) or 'none'}); expected an archive "
                         f"trained on question files by the mcqa reader")
    return {key: reader.get(key, default) for key, default in TOKENIZING_DEFAULTS.items()}
