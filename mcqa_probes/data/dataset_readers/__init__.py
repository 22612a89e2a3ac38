from mcqa_probes.data.dataset_readers.mcqa import McqaReader

__all__ = ["McqaReader"]
