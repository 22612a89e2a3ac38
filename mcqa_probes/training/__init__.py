"""Training additions: inoculation (dosage/add-some data, inoculation-cost callback)."""
from mcqa_probes.training.callbacks.inoculation_cost import InoculationCost
from mcqa_probes.training.inoculation_reader import InoculationReader

__all__ = ["InoculationCost", "InoculationReader"]
