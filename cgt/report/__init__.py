"""Analysis reports: for each seed game, the report its designer would read, act on and
publish, written as Markdown with figures from stored results.

Modules: :mod:`~cgt.report.data` (the stored results and their provenance),
:mod:`~cgt.report.analysis` (the computations that produce them), :mod:`~cgt.report.figures`
and :mod:`~cgt.report.tables` (the building blocks), :mod:`~cgt.report.document` (the page
frame shared by every game), :mod:`cgt.report.games` (one module per game) and
:mod:`~cgt.report.build` (writing the pages and the index).
"""

from __future__ import annotations
