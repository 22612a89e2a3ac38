"""The report card page (plain Python + matplotlib): the paper reference rows shipped as package data
(:mod:`.references`) and the rendering of a card's numbers into tables, ``report.html`` and
``report.md`` (:mod:`.render`). The numbers are computed by
:mod:`mcqa_probes.experiments.report_card`."""
