"""jsonl → instances: the multiple-choice data model and the dataset readers."""
