"""Probe builders: knowledge graph → multiple-choice questions → jsonl. Plain Python (no torch)."""
