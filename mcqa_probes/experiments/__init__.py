"""Experiment drivers, grouped by paper; each a thin layer over library functions, run by ``bin/``.

* :mod:`.grid` - the one grid runner (serial, or trials on local / cluster Ray), resumable;
* :mod:`.wordnetqa` - WordNetQA / DictionaryQA (TACL 2020): inoculation sweep, artifact audit;
* :mod:`.olmpics` - oLMpics (TACL 2020): zero-shot MC-MLM, learning curves, the 8-probe suite,
  the age sweep, the MC-MLM benchmarks;
* :mod:`.winoventi` - WinoVenti (Do & Pavlick 2021): Table 6 evaluation, associations, the
  adversarial filter, exception fine-tuning.

CommonsenseQA needs no driver of its own: its data tools (question-concept split, SANITY mode) are
part of the data model (``mcqa_probes/data/commonsenseqa.py``, ``bin/csqa_split``, ``bin/csqa_sanity``)
and it trains with ``training_config/csqa_*.jsonnet``.

Drivers run allennlp with this project's registered components, so importing any of them
registers them (:func:`mcqa_probes.components.register`, an explicit call), in the main process
and in Ray workers alike.
"""
from mcqa_probes.components import register

register()
