"""Where the explorer's values come from: the stored solution when there is one, otherwise a
solve on demand within a time budget.

Everything goes through :class:`ValueSource.values`, which answers "value, remoteness and every
move's value of this position" in the shared :class:`solvers.result.SolveResult` shape, the
same answer ``cgt query`` and ``cgt solve`` print. Stored solutions are read by
:func:`stored_values`; a small retrograde solution is kept in memory so that clicking through
a small board solves it once.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cgt.errors import CGTError
from cgt.protocol import Game, Outcome
from solvers.result import MoveValue, SolveResult

#: Retrograde keeps at most this many positions in memory for one game (some 100 bytes each
#: plus the game's keys): beyond it each position is searched on its own instead.
IN_MEMORY_POSITIONS = 200_000
#: Answers kept per explorer (a few kilobytes each).
CACHED_ANSWERS = 4096


class NotSolved(CGTError):
    """The position could not be solved within the explorer's time budget."""


@dataclass(frozen=True)
class PositionValues:
    """Value of a position for its player to move and the value of every legal move."""

    outcome: Outcome
    remoteness: int | None
    moves: list[MoveValue]
    #: ``stored`` (read from a stored solution) or ``solved`` (solved by this process).
    source: str
    #: The solver that produced the answer (``retrograde``, ``alphabeta``, a kernel, ...).
    solver: str


def stored_values(
    game: Game[Any, Any], position: Any, database_path: Path | None
) -> PositionValues | None:
    """Value and move values of ``position`` from the solution database, or ``None`` when the
    position or one of its moves' results is not stored there.

    Reads the SQLite database of ``cgt solve --save`` exactly as ``cgt query`` does; a missing
    database file means nothing is stored (it is never created here).
    """
    from solvers.database import SolutionDatabase, default_path

    path = database_path if database_path is not None else default_path()
    if not path.is_file():
        return None
    database = SolutionDatabase(path)
    try:
        found = database.lookup(game, position)
        if found is None:
            return None
        outcome, remoteness = found
        moves: list[MoveValue] = []
        if game.result(position) is None:
            mover = game.to_move(position)
            for move in game.moves(position):
                child = game.play(position, move)
                value = database.lookup(game, child)
                if value is None:
                    return None
                child_outcome = value[0] if game.to_move(child) == mover else -value[0]
                moves.append(
                    MoveValue(
                        move=move,
                        name=game.move_name(position, move),
                        outcome=child_outcome,
                        remoteness=None if value[1] is None else value[1] + 1,
                    )
                )
        return PositionValues(outcome, remoteness, moves, "stored", "database")
    finally:
        database.close()


def from_result(result: SolveResult, source: str) -> PositionValues:
    return PositionValues(result.outcome, result.remoteness, result.moves, source, result.solver)


class ValueSource:
    """Values of one game's positions for the explorer; safe to call from several threads
    (solves run one at a time, each bounded by ``max_seconds``)."""

    def __init__(
        self,
        game: Game[Any, Any],
        database_path: Path | None = None,
        max_seconds: float = 10.0,
    ) -> None:
        self.game = game
        self.database_path = database_path
        self.max_seconds = max_seconds
        self._lock = threading.Lock()
        self._answers: OrderedDict[Hashable, PositionValues] = OrderedDict()
        self._solution: Any = None  # a RetrogradeSolution of a small board, once found
        self._too_big_for_memory = False
        #: positions whose solve ran out of budget: asked again, they fail at once
        self._failed: dict[Hashable, str] = {}

    def cached(self, position: Any) -> PositionValues | None:
        """The answer if it is already known (no solving, no file access)."""
        return self._answers.get(self.game.key(position))

    def values(self, position: Any) -> PositionValues:
        """Value, remoteness and every move's value of ``position``.

        Raises :class:`NotSolved` when neither a stored solution nor a solve within the budget
        answers.
        """
        key = self.game.key(position)
        found = self._answers.get(key)
        if found is not None:
            return found
        if key in self._failed:
            raise NotSolved(self._failed[key])
        with self._lock:  # one solve at a time: the machine has few cores
            found = self._answers.get(key)
            if found is None:
                if key in self._failed:
                    raise NotSolved(self._failed[key])
                try:
                    found = self._compute(position)
                except NotSolved as exc:
                    self._failed[key] = str(exc)
                    raise
                self._answers[key] = found
                if len(self._answers) > CACHED_ANSWERS:
                    self._answers.popitem(last=False)
        return found

    def _compute(self, position: Any) -> PositionValues:
        stored = stored_values(self.game, position, self.database_path)
        if stored is not None:
            return stored
        if self._solution is not None and position in self._solution:
            return from_result(self._solution.result(position), "solved")
        from solvers.api import compiled_solver_names, solve
        from solvers.budget import SearchBudgetExceeded
        from solvers.retrograde import PositionLimitExceeded, retrograde

        started = time.perf_counter()
        try:
            if not self._too_big_for_memory:
                try:
                    solution = retrograde(
                        self.game,
                        position,
                        max_positions=IN_MEMORY_POSITIONS,
                        max_seconds=self.max_seconds,
                    )
                except PositionLimitExceeded:
                    if position == self.game.initial_position():
                        self._too_big_for_memory = True  # its later positions may still fit
                else:
                    if self._solution is None or len(solution) >= len(self._solution):
                        self._solution = solution
                    return from_result(solution.result(position), "solved")
            remaining = self.max_seconds - (time.perf_counter() - started)
            if remaining <= 0:
                raise SearchBudgetExceeded(0, self.max_seconds, "positions")
            solver = "compiled" if self.game.name in compiled_solver_names() else "alphabeta"
            result = solve(self.game, position, solver=solver, max_seconds=remaining)
            return from_result(result, "solved")
        except SearchBudgetExceeded:
            raise NotSolved(
                f"not solved within {self.max_seconds:g} s (no stored solution of "
                f"{self.game.label()} holds this position; solve it with "
                "'cgt solve ... --save' to explore it here)"
            ) from None
