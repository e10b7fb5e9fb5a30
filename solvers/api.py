"""The single entry point :func:`solve`, so callers never choose how a game gets solved."""

from __future__ import annotations

from typing import Any

from cgt.errors import ParameterError
from cgt.protocol import Game
from solvers.alphabeta import AlphaBeta
from solvers.result import SolveResult
from solvers.retrograde import PositionLimitExceeded, ProgressCallback, retrograde

SOLVERS = ("auto", "retrograde", "alphabeta")
#: "auto" enumerates at most this many positions before switching to alpha-beta: retrograde
#: keeps every position in memory and enumerates at some 10^4-10^5 positions per second.
AUTO_MAX_POSITIONS = 2_000_000
#: Default transposition-table capacity of alpha-beta (slots).
DEFAULT_TT_ENTRIES = 1 << 20


def solve(
    game: Game[Any, Any],
    position: Any = None,
    *,
    solver: str = "auto",
    symmetry: bool = True,
    remoteness: bool = True,
    progress: ProgressCallback | None = None,
    tt_entries: int | None = None,
    max_positions: int = AUTO_MAX_POSITIONS,
) -> SolveResult:
    """Solve ``position`` (default: the initial position) of ``game`` exactly.

    ``solver``: ``retrograde`` (every reachable position, exact remoteness, cycles as draws),
    ``alphabeta`` (depth-first, memory bounded by ``tt_entries``) or ``auto`` (retrograde when
    the reachable graph has at most ``max_positions`` positions, else alpha-beta).
    ``remoteness=False`` lets alpha-beta prune more; retrograde always knows remoteness.
    """
    if solver not in SOLVERS:
        raise ParameterError(f"unknown solver {solver!r} (solvers: {', '.join(SOLVERS)})")
    if tt_entries is not None and (not isinstance(tt_entries, int) or tt_entries < 2):
        raise ParameterError(f"tt_entries must be an integer >= 2, got {tt_entries!r}")
    if position is None:
        position = game.initial_position()
    if solver in ("auto", "retrograde"):
        limit = max_positions if solver == "auto" else None
        try:
            solution = retrograde(
                game, position, symmetry=symmetry, progress=progress, max_positions=limit
            )
        except PositionLimitExceeded:
            pass  # only in "auto": too big to enumerate, search instead
        else:
            result = solution.result(position)
            result.extra["requested_solver"] = solver
            return result
    searcher = AlphaBeta(
        game,
        tt_entries=tt_entries or DEFAULT_TT_ENTRIES,
        symmetry=symmetry,
        remoteness=remoteness,
        progress=progress,
    )
    result = searcher.solve(position)
    result.extra["requested_solver"] = solver
    return result
