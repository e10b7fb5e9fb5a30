"""Analysis reports: for each seed game, the report its designer would read, act on and
publish, written as Markdown with figures from stored results.

Modules: :mod:`~cgtapp.report.data` (the stored results and their provenance),
:mod:`~cgtapp.report.analysis` (the computations that produce them), :mod:`~cgtapp.report.figures`
and :mod:`~cgtapp.report.tables` (the building blocks), :mod:`~cgtapp.report.document` (the page
frame shared by every game), :mod:`cgtapp.report.games` (one module per game) and
:mod:`~cgtapp.report.build` (writing the pages and the index).
"""

from __future__ import annotations
