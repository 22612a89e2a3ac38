"""Reports: tables and figures from predictions and experiment results (plain Python + matplotlib)."""
