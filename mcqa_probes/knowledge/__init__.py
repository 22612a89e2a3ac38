"""Knowledge sources as triple graphs (TACL paper, Table 1). Plain Python: no torch, no allennlp."""
from mcqa_probes.knowledge.graph import Concept, KnowledgeGraph, Relation

__all__ = ["Concept", "KnowledgeGraph", "Relation"]
