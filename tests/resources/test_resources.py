import gzip
import os

import numpy
import pytest

from mcqa_probes.resources import MissingResourceError, find_gcide, resolve_transformer_name
from mcqa_probes.resources import wordnet as wordnet_locator
from mcqa_probes.resources.glove import write_glove_text
from mcqa_probes.resources.pretrained import minilm_dir


def make_dict_dir(directory):
    directory.mkdir(parents=True, exist_ok=True)
    for name in wordnet_locator._DICT_FILES:
        (directory / name).write_text("  1 placeholder\n")
    return directory


def test_explicit_princeton_dir_is_assembled_with_lexnames(tmp_path, monkeypatch):
    monkeypatch.setenv("MCQA_PROBES_CACHE", str(tmp_path / "cache"))
    source = make_dict_dir(tmp_path / "dict")
    root = wordnet_locator.find_wordnet_root(str(source))
    corpus = root / "corpora" / "wordnet"
    assert (corpus / "data.noun").is_file() and not (corpus / "data.noun").is_symlink()
    lexnames = (corpus / "lexnames").read_text().splitlines()
    assert len(lexnames) == 45 and lexnames[3] == "03\tnoun.Tops\t1" and lexnames[-1] == "44\tadj.ppl\t3"
    assert str(tmp_path / "cache") in str(root)


def test_environment_variable_and_nltk_root(tmp_path, monkeypatch):
    make_dict_dir(tmp_path / "nltk" / "corpora" / "wordnet")
    (tmp_path / "nltk" / "corpora" / "wordnet" / "lexnames").write_text(wordnet_locator.lexnames_text())
    monkeypatch.setenv("MCQA_WORDNET_DIR", str(tmp_path / "nltk"))
    assert wordnet_locator.find_wordnet_root() == tmp_path / "nltk"


def test_missing_wordnet_says_what_and_how(tmp_path):
    with pytest.raises(MissingResourceError) as error:
        wordnet_locator.find_wordnet_root(str(tmp_path / "nowhere"))
    assert "apt-get install wordnet-base" in str(error.value) and "nowhere" in str(error.value)


def test_gcide_locator(tmp_path):
    with pytest.raises(MissingResourceError, match="apt-get install dict-gcide"):
        find_gcide(str(tmp_path))
    (tmp_path / "gcide.index").write_text("")
    (tmp_path / "gcide.dict").write_text("")
    assert find_gcide(str(tmp_path)).dictionary.name == "gcide.dict"


def test_glove_text_file_from_matrix_and_index(tmp_path):
    import pyarrow
    import pyarrow.parquet as parquet

    vectors = numpy.arange(12, dtype=numpy.float32).reshape(3, 4) / 4
    numpy.save(tmp_path / "v.npy", vectors)
    parquet.write_table(pyarrow.table({"word": ["the", "cat", "sat"]}), tmp_path / "i.parquet")
    target = write_glove_text(tmp_path / "v.npy", tmp_path / "i.parquet", tmp_path / "out" / "g.txt.gz")
    with gzip.open(target, "rt") as handle:
        lines = handle.read().splitlines()
    assert lines == ["the 0 0.25 0.5 0.75", "cat 1 1.25 1.5 1.75", "sat 2 2.25 2.5 2.75"]
    assert not any(name.endswith(".tmp") or ".tmp" in name for name in os.listdir(target.parent))


def test_minilm_short_name_resolves_to_package_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    resolved = resolve_transformer_name("minilm")
    assert resolved == str(minilm_dir()) and os.path.isfile(os.path.join(resolved, "config.json"))
    # hub names (roberta-large) are checked, not mapped: tests/resources/test_model_names.py
