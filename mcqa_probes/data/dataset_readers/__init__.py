from mcqa_probes.data.dataset_readers.mcqa import McqaReader
from mcqa_probes.data.dataset_readers.olmpics_mlm import OlmpicsMlmReader  # noqa: F401
from mcqa_probes.data.dataset_readers.mcqa_words import McqaWordsReader  # noqa: F401
from mcqa_probes.data.dataset_readers.csqa import CsqaReader  # noqa: F401
from mcqa_probes.data.dataset_readers.winoventi import WinoVentiReader  # noqa: F401

__all__ = ["McqaReader"]
