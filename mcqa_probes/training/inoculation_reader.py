"""The ``inoculation`` dataset reader: a dose of k probe examples, optionally mixed with original-task
examples ("add-some" inoculation, TACL paper §4.2), as pure config."""
import random
from typing import Iterable, List, Optional

from allennlp.data import DatasetReader, Instance
from allennlp.data.fields import MetadataField

SELECTIONS = ("first", "random")


@DatasetReader.register("inoculation")
class InoculationReader(DatasetReader):
    """Wraps another reader for the TRAINING data of an inoculation run.

    Reads the probe train file with ``base_reader``, keeps a dose of ``dosage`` examples (the
    first k, or k drawn at random with ``seed``), and with ``add_some`` = a adds a·k examples of
    the original task's train file (drawn with ``seed``, at most ``max_original``), shuffled in
    with the probe examples. Each instance's metadata gets ``inoculation_source`` = ``probe`` or
    ``original``. Use the plain base reader as ``validation_dataset_reader`` (the dose applies to
    training data only).

    # Parameters

    base_reader : `DatasetReader`
        E.g. ``{"type": "mcqa", "transformer_model_name": ...}``.
    dosage : `int`, optional (default = `None` = all)
        k, the number of probe examples (the paper uses 100, 250, 500, 1000, 2000, 3000).
    selection : `str`, optional (default = `"first"`)
        ``first`` k or ``random`` k.
    original_data_path : `str`, optional
        The original task's TRAIN file, needed when ``add_some`` > 0.
    add_some : `int`, optional (default = `0`)
        Mix ratio a ∈ {0, 1, 2}: a·k original examples per k probe examples.
    max_original : `int`, optional (default = `3000`)
    seed : `int`, optional (default = `13`)
    """

    def __init__(
        self,
        base_reader: DatasetReader,
        dosage: Optional[int] = None,
        selection: str = "first",
        original_data_path: Optional[str] = None,
        add_some: int = 0,
        max_original: int = 3000,
        seed: int = 13,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        if selection not in SELECTIONS:
            raise ValueError(f"dataset_reader.selection: expected one of {SELECTIONS}, got {selection!r}")
        if dosage is not None and dosage <= 0:
            raise ValueError(f"dataset_reader.dosage: expected a positive number of examples, got {dosage}")
        if add_some < 0:
            raise ValueError(f"dataset_reader.add_some: expected 0, 1, 2, ..., got {add_some}")
        if add_some and not original_data_path:
            raise ValueError("dataset_reader.original_data_path: required when add_some > 0")
        self.base_reader = base_reader
        self.dosage = dosage
        self.selection = selection
        self.original_data_path = original_data_path
        self.add_some = add_some
        self.max_original = max_original
        self.seed = seed

    @staticmethod
    def _tag(instance: Instance, source: str) -> Instance:
        metadata = dict(instance["metadata"].metadata) if "metadata" in instance.fields else {}
        metadata["inoculation_source"] = source
        instance.add_field("metadata", MetadataField(metadata))
        return instance

    def dose(self, file_path: str) -> List[Instance]:
        probe = list(self.base_reader.read(file_path))
        rng = random.Random(self.seed)
        if self.dosage is not None and self.dosage < len(probe):
            probe = probe[: self.dosage] if self.selection == "first" else rng.sample(probe, self.dosage)
        chosen = [self._tag(i, "probe") for i in probe]
        if self.add_some:
            original = list(self.base_reader.read(self.original_data_path))
            wanted = min(self.add_some * len(chosen), self.max_original, len(original))
            chosen += [self._tag(i, "original") for i in rng.sample(original, wanted)]
            rng.shuffle(chosen)
        return chosen

    def _read(self, file_path: str) -> Iterable[Instance]:
        yield from self.dose(file_path)

    def text_to_instance(self, *args, **kwargs) -> Instance:  # type: ignore[override]
        return self.base_reader.text_to_instance(*args, **kwargs)
