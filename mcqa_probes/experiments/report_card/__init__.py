"""The probe report card of one or more models (``allennlp probe-report``, ``bin/report_card``).

One command runs every registered section the model type and the given data allow, and writes one
page (``report.json``, and from it ``report.html`` and ``report.md``; rendered by
:mod:`mcqa_probes.reports.card`): a summary table first (per probe, each model's accuracy with its
95% interval, the control, chance and the paper's best model), then one part per section.

* :mod:`.section` -- the :class:`~.section.ReportSection` interface (``why_absent``, ``key_parts``,
  ``run``, ``shared``, ``tables``, ``summary``) and what a section is given (:class:`~.section.SectionContext`);
  adding a section is adding a file here (see :mod:`.section`);
* :mod:`.models` -- what a MODEL argument is (a ``transformer_mcqa`` archive or a masked LM), its
  fingerprint (so finished sections are reused only for the same model) and the model facts a
  section may ask for;
* :mod:`.inputs` -- the command's options, the shape of a section result and the bootstrap intervals;
* one module per section, named after it, each a thin layer over the command it summarizes:
  :mod:`.wordnetqa` (``allennlp predict`` + ``bin/probe_report``, ``bin/artifact_audit``,
  ``bin/inoculate``), :mod:`.olmpics` (``bin/zero_shot``, ``bin/olmpics_suite`` /
  ``bin/learning_curve``, ``allennlp evaluate`` for the MC-QA probes), :mod:`.winoventi`
  (``bin/winoventi_eval``), :mod:`.commonsenseqa` (``allennlp evaluate`` and ``bin/csqa_sanity``);
  archives are loaded and answered through :mod:`mcqa_probes.training.evaluation`;
* :mod:`.card` -- runs the registered sections (reusing finished ones) and writes the page.
"""
