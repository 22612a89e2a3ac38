"""The probe report card of one or more models (``allennlp probe-report``, ``bin/report_card``).

One command runs every probe family the model type and the given data allow, and writes one page
(``report.html``, ``report.json``, ``report.md``; rendered by :mod:`mcqa_probes.reports.card`):

* :mod:`.models` -- what a MODEL argument is (a ``transformer_mcqa`` archive or a masked LM) and
  its fingerprint (so finished sections are reused only for the same model);
* one module per section, each a thin layer over the command it summarizes:
  :mod:`.wordnetqa` (``allennlp predict`` + ``bin/probe_report``, ``bin/artifact_audit``,
  ``bin/inoculate``), :mod:`.olmpics` (``bin/zero_shot``, ``bin/olmpics_suite`` /
  ``bin/learning_curve``, ``allennlp evaluate`` for the MC-QA probes), :mod:`.winoventi`
  (``bin/winoventi_eval``), :mod:`.commonsenseqa` (``allennlp evaluate`` and ``bin/csqa_sanity``);
* :mod:`.card` -- runs the sections (reusing finished ones) and writes the page.
"""
