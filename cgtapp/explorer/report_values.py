"""Values the reports already hold: a board solved once for its report (LAG size 3 took the
kernel 38 minutes) opens solved in the explorer, read from the stored result under
``reports/data/`` that the report itself is written from, never solved again.

A game's report module lists them with a function ``known_positions(game, reports_dir)``
giving ``(position string, [{"move", "outcome", "remoteness"}, ...], Stored)`` for each
position whose every move's value its stored results hold (a module without it lists none).
Each is checked against the rules before it is served: it must parse, and its moves must be
exactly the legal moves of the position; one that is not is left out with a warning.
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable
from pathlib import Path
from types import ModuleType
from typing import Any

from cgt.protocol import Game, Outcome
from cgtapp.explorer.values import PositionValues
from cgtapp.report.data import ReportDataError
from solvers.query import value_from_moves
from solvers.result import MoveValue

OUTCOMES = {o.label: o for o in Outcome}


def report_module(game: Game[Any, Any]) -> ModuleType | None:
    """The module of the game's report, the one the game declares (``report_module``)."""
    declared = game.report_module
    return None if declared is None else importlib.import_module(declared)


def report_values(
    game: Game[Any, Any], reports_dir: Path | None
) -> tuple[dict[Hashable, PositionValues], list[str]]:
    """The positions of ``game`` whose values the stored report results hold, by key, and a
    warning for each stored position the rules refuse."""
    if reports_dir is None or not reports_dir.is_dir():
        return {}, []
    module = report_module(game)
    known_positions = getattr(module, "known_positions", None)
    if known_positions is None:
        return {}, []
    try:
        listed = known_positions(game, reports_dir)
    except ReportDataError as exc:
        return {}, [f"stored report results not used: {exc}"]
    known: dict[Hashable, PositionValues] = {}
    warnings = []
    for text, stored_moves, stored in listed:
        where = f"data/{stored.name}.json"
        try:
            position = game.parse(text)
            legal = {game.move_name(position, m): m for m in game.moves(position)}
            by_name = {m["move"]: m for m in stored_moves}
            if set(by_name) != set(legal):
                raise ValueError(f"its moves are not the legal moves {sorted(legal)}")
            moves = [
                MoveValue(legal[name], name, OUTCOMES[m["outcome"]], m["remoteness"])
                for name, m in by_name.items()
            ]
        except Exception as exc:  # any flaw in a stored file: leave the position out
            warnings.append(f"{where}: position {text!r} not used: {exc}")
            continue
        outcome, remoteness = value_from_moves(moves)
        solver = f"report data {where} ({stored.command}, {stored.date}, commit {stored.commit})"
        known[game.key(position)] = PositionValues(outcome, remoteness, moves, "stored", solver)
    return known, warnings
