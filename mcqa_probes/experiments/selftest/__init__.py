"""``bin/gpu_selftest``: every GPU path of the toolkit run as its command, timed and checked."""
