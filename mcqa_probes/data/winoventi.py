"""WinoVenti (Do & Pavlick 2021): the challenge TSV, its pairs, the registry and the subsets (plain Python).

The released ``winoventi_bert_large_final.tsv`` has a header and 2N rows (N = 2,176): row i
(``test_type`` 1, the *generic* prompt s_g) pairs with row i + N (``test_type`` 2, the *exception*
prompt s_e). Both rows of a pair share (Word, Associative Bias, Alternative) = (noun, generic
outcome o_g, exception outcome o_e) and swap ``target`` / ``incorrect``. A model is right on a
row when P(target) > P(incorrect) at the ``[MASK]``.

``associativebias_registry.tsv`` flags, per model name, which (Word, Associative Bias,
Alternative) triples pass that model's own adversarial filter (§2.4). Table 6's subsets:

* **All** - every pair;
* **Individual** - the pairs whose triple passes the model's own filter (a registry column, or
  flags computed with :mod:`mcqa_probes.experiments.winoventi.adversarial_filter` for a new model);
* **Intersection** - the pairs whose triple passes the filter of every model of Table 6: the 12
  registry columns of :data:`TABLE6_MODELS` (by default), every registry column
  (``models="all"``), or the columns named. The released registry has 15 model columns; three
  are not Table 6 models (:data:`NOT_IN_TABLE6`): ``DistilBERT`` (Table 6's DistilBERT is the cased
  model, column ``distilbert-base-cased``: its 1,628 passing pairs are Table 6's Individual N) and
  the two Longformers. On the released files the 12-model Intersection has 149 pairs (the paper
  reports 94); all 15 columns give 135.

Also the §3.3 fine-tuning splits (:func:`half_exception_split`, :func:`full_exception_split`).
"""
import csv
import random
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.common.io import atomic_open

COLUMNS = ("Word", "Associative Bias", "Alternative", "biased_word_context", "adversarial_word_context",
           "masked_prompt", "target", "incorrect", "test_type")
TRIPLE_COLUMNS = ("Word", "Associative Bias", "Alternative")
GENERIC, EXCEPTION = 1, 2

Triple = Tuple[str, str, str]

#: Registry column -> the model's row in the paper's Table 6: the 12 models whose filters make the
#: Intersection subset (the one place this mapping is written down).
TABLE6_MODELS: Dict[str, str] = {
    "bert-base-cased": "BERT-base",
    "bert-large-cased-whole-word-masking": "BERT-large",
    "roberta-base": "RoBERTa-base",
    "roberta-large": "RoBERTa-large",
    "distilroberta-base": "DistilRoBERTa",
    "distilbert-base-cased": "DistilBERT",
    "squeezebert/squeezebert-uncased": "SqueezeBERT",
    "google/mobilebert-uncased": "MobileBERT",
    "albert-base-v2": "ALBERT-base",
    "albert-large-v2": "ALBERT-large",
    "albert-xlarge-v2": "ALBERT-xlarge",
    "albert-xxlarge-v2": "ALBERT-xxlarge",
}
#: Columns of the released ``associativebias_registry.tsv`` that are not Table 6 models.
NOT_IN_TABLE6 = ("DistilBERT", "allenai/longformer-base-4096", "allenai/longformer-large-4096")
#: ``intersection_pairs(..., models=ALL_COLUMNS)``: every registry column.
ALL_COLUMNS = "all"


@dataclass(frozen=True)
class WinoVentiPrompt:
    """One row of the challenge TSV (``line`` is the 1-based file line, the header being line 1)."""

    line: int
    pair_index: int
    word: str
    generic: str  # Associative Bias, o_g
    exception: str  # Alternative, o_e
    biased_word_context: str
    adversarial_word_context: str
    masked_prompt: str
    target: str
    incorrect: str
    test_type: int

    @property
    def triple(self) -> Triple:
        return (self.word, self.generic, self.exception)

    @property
    def is_generic(self) -> bool:
        return self.test_type == GENERIC

    @property
    def id(self) -> str:
        return f"winoventi-{self.pair_index}-{'generic' if self.is_generic else 'exception'}"


def _open_tsv(path) -> Tuple[List[str], List[Tuple[int, List[str]]]]:
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        try:
            header = next(reader)
        except StopIteration:
            raise McqaFormatError("empty file (expected a header row)", str(path), 1) from None
        rows = [(number, row) for number, row in enumerate(reader, start=2) if any(cell.strip() for cell in row)]
    return header, rows


def read_winoventi(path, check_pairs: bool = True) -> List[WinoVentiPrompt]:
    """The prompts of a WinoVenti TSV in file order, ``pair_index`` = i for rows i and i + N.

    With ``check_pairs`` (default) the pairing is verified: an even number of rows, the first half
    ``test_type`` 1 and the second half 2, equal triples, and target/incorrect swapped. Any
    violation raises :class:`McqaFormatError` naming the file and line. Without it (e.g. a
    fine-tuning split written by :func:`write_winoventi`) ``pair_index`` is the row position.
    """
    header, rows = _open_tsv(path)
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise McqaFormatError(f"missing columns {missing} (expected {list(COLUMNS)})", str(path), 1)
    where = {name: header.index(name) for name in COLUMNS}
    if check_pairs and len(rows) % 2:
        raise McqaFormatError(f"{len(rows)} data rows: WinoVenti needs an even number (row i pairs with i + N)", str(path))
    half = len(rows) // 2
    prompts: List[WinoVentiPrompt] = []
    for position, (number, row) in enumerate(rows):
        if len(row) < len(header):
            raise McqaFormatError(f"expected {len(header)} tab-separated fields, got {len(row)}", str(path), number)
        value = {name: row[where[name]].strip() for name in COLUMNS}
        try:
            test_type = int(value["test_type"])
        except ValueError:
            raise McqaFormatError(f"test_type must be 1 or 2, got {value['test_type']!r}", str(path), number) from None
        if test_type not in (GENERIC, EXCEPTION):
            raise McqaFormatError(f"test_type must be 1 or 2, got {test_type}", str(path), number)
        if value["masked_prompt"].count("[MASK]") != 1:
            raise McqaFormatError("masked_prompt must contain exactly one [MASK]", str(path), number)
        prompts.append(WinoVentiPrompt(
            number, position % half if (half and check_pairs) else position, value["Word"], value["Associative Bias"], value["Alternative"],
            value["biased_word_context"], value["adversarial_word_context"], value["masked_prompt"],
            value["target"], value["incorrect"], test_type,
        ))
    if check_pairs:
        for generic, exception in zip(prompts[:half], prompts[half:]):
            problem = None
            if generic.test_type != GENERIC or exception.test_type != EXCEPTION:
                problem = "test_type must be 1 in the first half and 2 in the second"
            elif generic.triple != exception.triple:
                problem = f"(Word, Associative Bias, Alternative) differ: {generic.triple} vs {exception.triple}"
            elif (generic.target, generic.incorrect) != (exception.incorrect, exception.target):
                problem = "target and incorrect must be swapped between the two prompts"
            elif generic.target != generic.generic:
                problem = "the generic prompt's target must be its Associative Bias"
            if problem:
                raise McqaFormatError(
                    f"pair {generic.pair_index}: lines {generic.line} and {exception.line}: {problem}", str(path), exception.line
                )
    return prompts


def pairs(prompts: Sequence[WinoVentiPrompt]) -> Dict[int, Tuple[WinoVentiPrompt, WinoVentiPrompt]]:
    """pair_index -> (generic prompt, exception prompt)."""
    result: Dict[int, Dict[int, WinoVentiPrompt]] = {}
    for prompt in prompts:
        result.setdefault(prompt.pair_index, {})[prompt.test_type] = prompt
    return {index: (both[GENERIC], both[EXCEPTION]) for index, both in result.items() if len(both) == 2}


def unique_triples(rows: Iterable) -> List[Triple]:
    """Distinct (Word, Associative Bias, Alternative) in first-seen order (prompts or registry keys)."""
    seen: Dict[Triple, None] = {}
    for row in rows:
        seen.setdefault(row.triple if isinstance(row, WinoVentiPrompt) else tuple(row), None)
    return list(seen)


# ---------------------------------------------------------------------- registry and subsets
@dataclass
class Registry:
    """Per-model adversarial-filter flags: ``flags[model][triple] -> bool``; a triple the model could
    not score (a multi-piece word; an empty cell of the registry layout) is absent: not known."""

    models: List[str]
    flags: Dict[str, Dict[Triple, bool]]

    def merged(self, other: "Registry") -> "Registry":
        flags = {**self.flags, **other.flags}
        return Registry(list(dict.fromkeys(self.models + other.models)), flags)


#: registry cells of a triple the model could not score (not known: neither pass nor fail); written as ""
UNKNOWN_CELLS = ("", "na")


def _flag(text: str, path, number: int, column: str) -> Optional[bool]:
    lowered = text.strip().lower()
    if lowered in ("true", "1"):
        return True
    if lowered in ("false", "0"):
        return False
    if lowered in UNKNOWN_CELLS:
        return None
    raise McqaFormatError(f"column {column!r}: expected True/False (or empty: not scorable), got {text!r}",
                          str(path), number)


def read_registry(path) -> Registry:
    """``associativebias_registry.tsv``: Word, Associative Bias, Alternative, then one True/False column per
    model. An empty (or ``NA``) cell - a triple the model could not score, as ``bin/winoventi_filter``
    writes it - leaves the triple out of that model's flags: not known, neither pass nor fail."""
    header, rows = _open_tsv(path)
    if tuple(header[:3]) != TRIPLE_COLUMNS or len(header) < 4:
        raise McqaFormatError(f"expected columns {list(TRIPLE_COLUMNS)} then model names, got {header}", str(path), 1)
    models = header[3:]
    flags: Dict[str, Dict[Triple, bool]] = {model: {} for model in models}
    for number, row in rows:
        if len(row) < len(header):
            raise McqaFormatError(f"expected {len(header)} fields, got {len(row)}", str(path), number)
        triple = (row[0].strip(), row[1].strip(), row[2].strip())
        for model, cell in zip(models, row[3:]):
            flag = _flag(cell, path, number, model)
            if flag is not None:
                flags[model][triple] = flag
    return Registry(models, flags)


def write_registry(registry: Registry, path, triples: Optional[Sequence[Triple]] = None) -> None:
    """Write flags in the registry layout (only the given triples, default: the union); a triple
    without a flag in a column (not scored by that model) gets an empty cell there: not known, as
    :func:`read_registry` reads it back."""
    if triples is None:
        triples = unique_triples(t for model in registry.models for t in registry.flags[model])
    with atomic_open(path, "w", encoding="utf-8") as handle:
        handle.write("\t".join(TRIPLE_COLUMNS + tuple(registry.models)) + "\n")
        for triple in triples:
            cells = [str(registry.flags[m][triple]) if triple in registry.flags[m] else ""
                     for m in registry.models]
            handle.write("\t".join(list(triple) + cells) + "\n")


def individual_pairs(prompts: Sequence[WinoVentiPrompt], flags: Dict[Triple, bool]) -> Set[int]:
    """Pairs whose triple passes one model's filter (a triple missing from ``flags`` does not pass)."""
    return {p.pair_index for p in prompts if flags.get(p.triple, False)}


def intersection_models(registry: Registry, models: Union[None, str, Sequence[str]] = None) -> List[str]:
    """The registry columns an Intersection uses.

    ``None``: the 12 Table-6 models (:data:`TABLE6_MODELS`) when the registry has their columns; a
    registry with none of them (flags of other models, e.g. from ``bin/winoventi_filter``) uses all
    its columns; one with only some of them is an error (name the models, or pass ``"all"``).
    ``"all"`` (:data:`ALL_COLUMNS`): every column. A list: those columns.
    """
    if models is None:
        present = [m for m in TABLE6_MODELS if m in registry.flags]
        if len(present) == len(TABLE6_MODELS):
            return list(TABLE6_MODELS)
        if present:
            absent = [m for m in TABLE6_MODELS if m not in registry.flags]
            raise KeyError(f"the registry lacks the Table 6 models {absent}: name the intersection models "
                           f"or use all columns ({registry.models})")
        return list(registry.models)
    if isinstance(models, str):
        if models != ALL_COLUMNS:
            raise ValueError(f"intersection models: a list of registry columns or {ALL_COLUMNS!r}, got {models!r}")
        return list(registry.models)
    return list(models)


def intersection_pairs(prompts: Sequence[WinoVentiPrompt], registry: Registry,
                       models: Union[None, str, Sequence[str]] = None) -> Set[int]:
    """Pairs whose triple passes the filter of every model (the Table-6 models by default, see
    :func:`intersection_models`)."""
    models = intersection_models(registry, models)
    unknown = [m for m in models if m not in registry.flags]
    if unknown:
        raise KeyError(f"models {unknown} are not in the registry (it has {registry.models})")
    return {p.pair_index for p in prompts if all(registry.flags[m].get(p.triple, False) for m in models)}


def registry_column(registry: Registry, model: str) -> Optional[str]:
    """The registry column for a model name or path (exact, then by last path component), or None."""
    if model in registry.flags:
        return model
    tail = model.rstrip("/").split("/")[-1]
    matches = [m for m in registry.models if m.split("/")[-1] == tail]
    return matches[0] if len(matches) == 1 else None


# ---------------------------------------------------------------------- §3.3 fine-tuning splits
#: the pair subsets of Table 6
SUBSETS = ("all", "individual", "intersection")


@dataclass(frozen=True)
class PairSubset:
    """Which WinoVenti pairs a reader yields (Table 6's All / Individual / Intersection): the readers'
    ``subset``, ``registry_path``, ``subset_model``, ``intersection_models`` and
    ``intersection_all_columns`` config keys, checked once (:meth:`from_config`)."""

    subset: str = "all"
    registry_path: Optional[str] = None
    subset_model: Optional[str] = None
    intersection_models: Union[None, str, Sequence[str]] = None

    @classmethod
    def from_config(cls, subset: str = "all", registry_path: Optional[str] = None, subset_model: Optional[str] = None,
                    intersection_models: Optional[Sequence[str]] = None, intersection_all_columns: bool = False,
                    needs_subset_model: bool = False) -> "PairSubset":
        """The subset of a reader's config keys; a ValueError names the key that is wrong.
        ``needs_subset_model``: Individual needs ``subset_model`` (a reader that knows no model name)."""
        if subset not in SUBSETS:
            raise ValueError(f"dataset_reader.subset: expected one of {SUBSETS}, got {subset!r}")
        if subset != "all" and registry_path is None:
            raise ValueError(f"dataset_reader.subset={subset!r} needs registry_path")
        if needs_subset_model and subset == "individual" and subset_model is None:
            raise ValueError("dataset_reader.subset='individual' needs subset_model (a registry column)")
        if intersection_all_columns and intersection_models is not None:
            raise ValueError("dataset_reader: give intersection_models or intersection_all_columns, not both")
        models = ALL_COLUMNS if intersection_all_columns else intersection_models
        return cls(subset, registry_path, subset_model, models)

    def select(self, prompts: Sequence[WinoVentiPrompt], model_name: Optional[str] = None,
               open_path=str) -> Optional[Set[int]]:
        """The pair indices of the subset (None: all pairs). Individual reads the registry column of
        ``subset_model`` (else ``model_name``); ``open_path`` turns ``registry_path`` into a local path."""
        if self.subset == "all":
            return None
        registry = read_registry(open_path(self.registry_path))
        if self.subset == "intersection":
            return intersection_pairs(prompts, registry, self.intersection_models)
        wanted = self.subset_model or model_name
        column = registry_column(registry, wanted) if wanted else None
        if column is None:
            raise ValueError(f"dataset_reader.subset_model: {wanted!r} is not a column of {self.registry_path} "
                             f"(columns: {registry.models}); compute its flags with bin/winoventi_filter")
        return individual_pairs(prompts, registry.flags[column])


def half_exception_split(prompts: Sequence[WinoVentiPrompt], seed: int = 0
                         ) -> Dict[str, List[WinoVentiPrompt]]:
    """The *half* exception set: train = half the prompts, 50% generic + 50% exception; test = the rest.

    With N pairs: N//2 generic and N//2 exception prompts are drawn independently (seeded) for
    training; the test set holds the other N - N//2 of each (1,088 + 1,088 each for N = 2,176).
    """
    rng = random.Random(seed)
    generic = [p for p in prompts if p.is_generic]
    exception = [p for p in prompts if not p.is_generic]
    train_g = set(rng.sample(range(len(generic)), len(generic) // 2))
    train_e = set(rng.sample(range(len(exception)), len(exception) // 2))
    train = [p for i, p in enumerate(generic) if i in train_g] + [p for i, p in enumerate(exception) if i in train_e]
    test = [p for i, p in enumerate(generic) if i not in train_g] + [p for i, p in enumerate(exception) if i not in train_e]
    return {"train": train, "test": test}


def full_exception_split(prompts: Sequence[WinoVentiPrompt], seed: int = 0, test_fraction: float = 0.2
                         ) -> Dict[str, List[WinoVentiPrompt]]:
    """The *full* exception set: train on exception prompts only (80%), test on the held-out 20%.

    Returns ``train`` (exceptions), ``test_exception`` (held-out exceptions, 435 of 2,176),
    ``test_generic`` (every generic prompt) and ``test_mixed`` (the held-out exceptions plus as
    many generic prompts, drawn seeded: 870 for the real set).
    """
    rng = random.Random(seed)
    generic = [p for p in prompts if p.is_generic]
    exception = [p for p in prompts if not p.is_generic]
    held = set(rng.sample(range(len(exception)), int(len(exception) * test_fraction)))
    test_exception = [p for i, p in enumerate(exception) if i in held]
    mixed_generic = rng.sample(generic, min(len(test_exception), len(generic)))
    return {
        "train": [p for i, p in enumerate(exception) if i not in held],
        "test_exception": test_exception,
        "test_generic": generic,
        "test_mixed": sorted(mixed_generic, key=lambda p: p.line) + test_exception,
    }


def write_winoventi(prompts: Iterable[WinoVentiPrompt], path) -> int:
    """Write prompts in the TSV layout (header + rows, any order; pairing not implied)."""
    count = 0
    with atomic_open(path, "w", encoding="utf-8") as handle:
        handle.write("\t".join(COLUMNS) + "\n")
        for p in prompts:
            cells = [p.word, p.generic, p.exception, p.biased_word_context, p.adversarial_word_context,
                     p.masked_prompt, p.target, p.incorrect, str(p.test_type)]
            handle.write("\t".join(cells) + "\n")
            count += 1
    return count


def read_triples(path) -> List[Triple]:
    """Distinct (Word, Associative Bias, Alternative) of any TSV with those columns (challenge set or registry)."""
    header, rows = _open_tsv(path)
    missing = [c for c in TRIPLE_COLUMNS if c not in header]
    if missing:
        raise McqaFormatError(f"missing columns {missing}", str(path), 1)
    where = [header.index(c) for c in TRIPLE_COLUMNS]
    return unique_triples(tuple(row[i].strip() for i in where) for _, row in rows)


def read_nouns(path) -> List[str]:
    """Target nouns: the ``Word`` column of a WinoVenti/registry TSV, or one noun per line of a text file."""
    with open(path, encoding="utf-8") as handle:
        first = handle.readline().rstrip("\n").split("\t")
    if "Word" in first:
        return list(dict.fromkeys(t[0] for t in read_triples(path)))
    with open(path, encoding="utf-8") as handle:
        return list(dict.fromkeys(line.strip() for line in handle if line.strip() and not line.startswith("#")))
