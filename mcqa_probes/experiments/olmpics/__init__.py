"""oLMpics experiment drivers (Talmor et al. 2020): zero-shot MC-MLM evaluation, learning curves
with controls, the 8-probe suite and its tables, the age-comparison value sweep, the MC-MLM
benchmark. Library functions here; thin command-line wrappers in ``bin/``. Nothing is registered.
"""
