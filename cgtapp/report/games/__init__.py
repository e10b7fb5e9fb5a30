"""One module per seed game: its designer's questions and its sections, each a function of
the stored results. Each game declares its report's module (``Game.report_module``)."""

from __future__ import annotations

import importlib

from cgt.registry import game_class, games_in_order
from cgtapp.report.document import GameReport


def reports() -> dict[str, GameReport]:
    """Registry name -> the game's report, in the order of the index (the registry's)."""
    found = {}
    for name in games_in_order():
        module = game_class(name).report_module
        if module is not None:
            found[name] = importlib.import_module(module).REPORT
    return found
