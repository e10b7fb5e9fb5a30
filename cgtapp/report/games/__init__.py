"""One module per seed game: its designer's questions and its sections, each a function of
the stored results. :data:`REPORTS` maps a registry name to the game's report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cgt.protocol import Game
from cgtapp.report.data import Stored
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


#: A position of a stored result with the value of each of its moves for the player making it
#: (``{"move", "outcome", "remoteness"}``), and the stored result it comes from.
KnownPosition = tuple[str, list[dict[str, Any]], Stored]


def known_positions(game: Game[Any, Any], out_dir: Path) -> list[KnownPosition]:
    """The positions of ``game`` (its parameters exactly) whose every move's value the stored
    results under ``out_dir`` hold: what a game's report module lists with its own
    ``known_positions`` (none when it has none)."""
    import importlib

    if game.name not in MODULES:
        return []
    module = importlib.import_module(f"cgtapp.report.games.{MODULES[game.name]}")
    listed = getattr(module, "known_positions", None)
    return [] if listed is None else list(listed(game, out_dir))
