"""Locate WordNet 3.0 and open it with NLTK's reader (plain Python, no torch).

Search order:

1. an explicit ``path`` argument, else the ``MCQA_WORDNET_DIR`` environment variable. Either an
   NLTK data root (holding ``corpora/wordnet``), an NLTK ``wordnet`` corpus directory, or a
   directory of Princeton dict files (``data.noun``, ``index.noun``, ...);
2. NLTK's standard data locations (``nltk.data.path``, e.g. ``~/nltk_data``);
3. Debian's ``/usr/share/wordnet`` (packages ``wordnet-base`` + ``wordnet-sense-index``),
   assembled into an NLTK-readable directory in the cache (copied, since NLTK refuses corpus
   paths that resolve outside its data path, with the ``lexnames`` file NLTK needs added).
"""
import os
import shutil
from pathlib import Path
from typing import List, Optional

from mcqa_probes.resources.cache import cache_dir
from mcqa_probes.resources.errors import MissingResourceError
import hashlib
import warnings

DEBIAN_WORDNET_DIR = Path("/usr/share/wordnet")
INSTALL_HINT = "apt-get install wordnet-base wordnet-sense-index (as root; bin/setup does it)"
_DICT_FILES = ["data.noun", "index.noun", "data.verb", "index.verb", "data.adj", "index.adj", "data.adv", "index.adv"]
_OPTIONAL_FILES = ["index.sense", "noun.exc", "verb.exc", "adj.exc", "adv.exc", "cntlist.rev", "sents.vrb", "frames.vrb"]

#: The 45 lexicographer files of WordNet 3.0, in their standard order (lexnames file).
LEXNAMES = [
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event",
    "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object",
    "noun.person", "noun.phenomenon", "noun.plant", "noun.possession", "noun.process",
    "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance", "noun.time",
    "verb.body", "verb.change", "verb.cognition", "verb.communication", "verb.competition",
    "verb.consumption", "verb.contact", "verb.creation", "verb.emotion", "verb.motion",
    "verb.perception", "verb.possession", "verb.social", "verb.stative", "verb.weather", "adj.ppl",
]
_LEXNAME_POS = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}


def lexnames_text() -> str:
    return "".join(
        f"{index:02d}\t{name}\t{_LEXNAME_POS[name.split('.')[0]]}\n" for index, name in enumerate(LEXNAMES)
    )


def _is_dict_dir(path: Path) -> bool:
    return all((path / name).is_file() for name in _DICT_FILES)


def _nltk_root_for(path: Path) -> Optional[Path]:
    """If ``path`` is (or holds) an NLTK-readable wordnet corpus, return its NLTK data root."""
    if _is_dict_dir(path / "corpora" / "wordnet") and (path / "corpora" / "wordnet" / "lexnames").is_file():
        return path
    if _is_dict_dir(path) and (path / "lexnames").is_file() and path.parent.name == "corpora":
        return path.parent.parent
    return None


def assemble(source: Path, target_root: Path) -> Path:
    """Copy Princeton dict files from ``source`` into ``<target_root>/corpora/wordnet`` (+ lexnames).

    Written to a temporary directory and renamed, so an interrupted run leaves nothing half-made.
    """
    final = target_root / "corpora" / "wordnet"
    if _is_dict_dir(final) and (final / "lexnames").is_file():
        return target_root
    final.parent.mkdir(parents=True, exist_ok=True)
    temporary = final.parent / f".wordnet.tmp{os.getpid()}"
    if temporary.exists():
        shutil.rmtree(temporary)
    temporary.mkdir()
    for name in _DICT_FILES + _OPTIONAL_FILES + ["lexnames"]:
        if (source / name).is_file():
            shutil.copyfile(source / name, temporary / name)
    if not (temporary / "lexnames").is_file():
        (temporary / "lexnames").write_text(lexnames_text())
    if final.exists():
        shutil.rmtree(final)
    os.replace(temporary, final)
    return target_root


def candidate_locations(path: Optional[str] = None) -> List[Path]:
    found = []
    explicit = path or os.environ.get("MCQA_WORDNET_DIR")
    if explicit:
        found.append(Path(explicit))
    try:
        import nltk

        found.extend(Path(p) for p in nltk.data.path)
    except ImportError:  # pragma: no cover
        pass
    found.append(DEBIAN_WORDNET_DIR)
    return found


def find_wordnet_root(path: Optional[str] = None) -> Path:
    """Return an NLTK data root whose ``corpora/wordnet`` holds WordNet 3.0 (see module docstring)."""
    explicit = path or os.environ.get("MCQA_WORDNET_DIR")
    if explicit:
        candidate = Path(explicit).expanduser()
        root = _nltk_root_for(candidate)
        if root is not None:
            return root
        for source in (candidate, candidate / "dict", candidate / "corpora" / "wordnet"):
            if _is_dict_dir(source):
                return assemble(source, cache_dir() / "nltk_data" / f"explicit-{_slug(source)}")
        raise MissingResourceError(
            f"WordNet dict files (data.noun, index.noun, ...) in {candidate}", [candidate], INSTALL_HINT
        )
    try:
        import nltk

        for data_root in nltk.data.path:
            root = _nltk_root_for(Path(data_root))
            if root is not None:
                return root
    except ImportError:  # pragma: no cover
        pass
    if _is_dict_dir(DEBIAN_WORDNET_DIR):
        return assemble(DEBIAN_WORDNET_DIR, cache_dir() / "nltk_data")
    raise MissingResourceError("WordNet 3.0", candidate_locations(path), INSTALL_HINT)


def _slug(path: Path) -> str:

    return hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:10]


def _reader_class():
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class EnglishWordNetReader(WordNetCorpusReader):
        """NLTK's reader without the Open Multilingual WordNet set-up: with no OMW reader, NLTK 3.10
        still maps every sense key of the corpus onto "wordnet" 3.0 at start-up (``map_wn``, about
        4 s), a mapping only the multilingual functions use."""

        def map_wn(self, version="wordnet"):
            if self._omw_reader is None:
                return None
            return super().map_wn(version)

    return EnglishWordNetReader


def load_wordnet(path: Optional[str] = None):
    """Open WordNet with NLTK's ``WordNetCorpusReader`` (no ``nltk.download``)."""
    import nltk

    WordNetCorpusReader = _reader_class()

    root = find_wordnet_root(path)
    # NLTK only opens corpora under one of its data paths ("Security Violation ... Unauthorized path").
    if str(root) not in nltk.data.path:
        nltk.data.path.append(str(root))

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The multilingual functions are not available")
        return WordNetCorpusReader(str(root / "corpora" / "wordnet"), None)

