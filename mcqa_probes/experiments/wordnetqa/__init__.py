"""WordNetQA / DictionaryQA experiments (Richardson & Sabharwal, TACL 2020): the inoculation sweep
(§4.2, Figure 4) and the artifact audit of partial-input and task-specific baselines (§4.1, Table 7)."""
