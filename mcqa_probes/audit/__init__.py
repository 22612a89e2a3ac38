"""Audits of built probes: baselines that reveal annotation artifacts (Table 7, groups 1-2)."""
