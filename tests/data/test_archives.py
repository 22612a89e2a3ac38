"""An archive's config and its reader's tokenizing settings, read without loading the model."""
import io
import json
import tarfile

import pytest

from mcqa_probes.data.archives import TOKENIZING_DEFAULTS, archive_reader_settings


def write_archive(path, config):
    """A model.tar.gz holding only ``config`` as its config.json (what the reader settings read)."""
    data = json.dumps(config).encode()
    with tarfile.open(path, "w:gz") as tar:
        member = tarfile.TarInfo("config.json")
        member.size = len(data)
        tar.addfile(member, io.BytesIO(data))
    return path


def test_an_archive_is_read_with_its_own_readers_settings_and_the_readers_defaults(tmp_path):
    """What the reader the archive was trained with says (its training reader, an inoculation
    reader's base reader), else its validation reader; a setting its config leaves out is the mcqa
    reader's default, the transformer too."""
    trained = write_archive(tmp_path / "a.tar.gz", {
        "dataset_reader": {"type": "mcqa", "transformer_model_name": "/models/bert", "max_length": 64},
        "model": {"type": "transformer_mcqa"}})
    assert archive_reader_settings(trained) == {"transformer_model_name": "/models/bert", "max_length": 64,
                                                "truncation": "longest_first"}
    inoculated = write_archive(tmp_path / "b.tar.gz", {
        "dataset_reader": {"type": "inoculation", "base_reader": {
            "type": "mcqa", "transformer_model_name": "/models/roberta", "max_length": 96,
            "truncation": "question_start"}},
        "model": {"type": "from_archive"}})
    assert archive_reader_settings(inoculated) == {"transformer_model_name": "/models/roberta", "max_length": 96,
                                                   "truncation": "question_start"}
    training_first = write_archive(tmp_path / "c.tar.gz", {
        "dataset_reader": {"type": "mcqa", "transformer_model_name": "x", "max_length": 32},
        "validation_dataset_reader": {"type": "mcqa", "transformer_model_name": "y", "max_length": 48}})
    assert archive_reader_settings(training_first)["max_length"] == 32
    validation_only = write_archive(tmp_path / "d.tar.gz", {
        "dataset_reader": {"type": "mcqa_words"},
        "validation_dataset_reader": {"type": "mcqa", "transformer_model_name": "y", "max_length": 48}})
    assert archive_reader_settings(validation_only)["transformer_model_name"] == "y"
    defaults = write_archive(tmp_path / "e.tar.gz", {"dataset_reader": {"type": "mcqa", "max_length": 64}})
    assert archive_reader_settings(defaults) == dict(TOKENIZING_DEFAULTS, max_length=64)


def test_the_defaults_are_the_readers():
    """The reader's own defaults are these (an archive whose config leaves one out was read so)."""
    import inspect

    from mcqa_probes.data.dataset_readers.mcqa import McqaReader

    parameters = inspect.signature(McqaReader.__init__).parameters
    assert {key: parameters[key].default for key in TOKENIZING_DEFAULTS} == TOKENIZING_DEFAULTS


def test_an_archive_without_a_transformer_reader_or_no_archive_at_all_is_an_error_naming_it(tmp_path):
    glove = write_archive(tmp_path / "glove.tar.gz", {"dataset_reader": {"type": "mcqa_words"}})
    with pytest.raises(ValueError, match=r"glove\.tar\.gz: none of its readers is an mcqa reader or names a "
                                         r"transformer \(readers: mcqa_words\)"):
        archive_reader_settings(glove)
    (tmp_path / "not.tar.gz").write_text("text")
    with pytest.raises(ValueError, match=r"not\.tar\.gz: not a readable model archive"):
        archive_reader_settings(tmp_path / "not.tar.gz")
    empty = tmp_path / "empty.tar.gz"
    with tarfile.open(empty, "w:gz"):
        pass
    with pytest.raises(ValueError, match=r"empty\.tar\.gz: not an allennlp model archive \(no config.json inside\)"):
        archive_reader_settings(empty)

