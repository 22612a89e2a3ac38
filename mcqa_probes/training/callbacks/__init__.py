from mcqa_probes.training.callbacks.inoculation_cost import InoculationCost

__all__ = ["InoculationCost"]
