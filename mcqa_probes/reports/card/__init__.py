"""The report card page (plain Python): the paper reference rows shipped as package data
(:mod:`.references`), the tables as data (:mod:`.tables`: cells with their intervals, columns with
their kind, footnotes) and the two Jinja2 templates over ``report.json`` (:mod:`.render`,
``templates/report.html.j2`` and ``templates/report.md.j2``). The numbers are computed by the
sections of :mod:`mcqa_probes.experiments.report_card`."""
