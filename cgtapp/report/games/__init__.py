"""One module per seed game: its designer's questions and its sections, each a function of
the stored results. :data:`REPORTS` maps a registry name to the game's report."""

from __future__ import annotations

from cgtapp.report.document import GameReport

#: Registry name -> module of its report, in the order of the index.
MODULES = {
    "control": "control",
    "lag": "lag",
    "interleave": "interleave",
    "super-nonnect": "super_nonnect",
    "entropy": "entropy",
}


def reports() -> dict[str, GameReport]:
    """Registry name -> the game's report, in the order of the index."""
    import importlib

    return {
        game: importlib.import_module(f"cgtapp.report.games.{module}").REPORT
        for game, module in MODULES.items()
    }
