"""Where the explorer's values come from: the stored solution when there is one, otherwise a
solve on demand within a time budget.

Everything goes through :class:`ValueSource.values`, which answers "value, remoteness and every
move's value of this position" as :class:`PositionValues` (the moves as the shared
:class:`solvers.result.MoveValue`), the same answer ``cgt query`` and ``cgt solve`` print.
Stored solutions are read by :func:`stored_values` (the lookup of ``cgt query``); a small
retrograde solution is kept in memory so that clicking through a small board solves it once.
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
#: Seconds a position whose solve ran out of budget is answered "not solved" at once; asked
#: again later it is looked up (a solution may have been stored meanwhile) and solved again.
FAILED_SECONDS = 60.0


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
    """Value and move values of ``position`` from the stored solutions, or ``None`` when
    nothing stored holds it.

    The one lookup behind ``cgt query`` (:func:`solvers.query.query_position`): a packed
    solution first, then the database's rows. A missing database file means nothing is
    stored (it is never created here). A position stored without all of its moves (a search
    keeps only some) comes back with the moves it has; :class:`ValueSource` then solves it.
    """
    from solvers.database import default_path
    from solvers.query import NotStoredError, query_position

    path = database_path if database_path is not None else default_path()
    if not path.is_file():
        return None
    try:
        answer = query_position(game, position, path)
    except NotStoredError:
        return None
    return PositionValues(answer.outcome, answer.remoteness, answer.moves, "stored", answer.source)


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
        #: answers given from elsewhere and kept for good (the reports' stored results)
        self.known: dict[Hashable, PositionValues] = {}
        self._solution: Any = None  # a RetrogradeSolution of a small board, once found
        #: set once a retrograde solve found more positions than it may keep
        self._too_big_for_memory = False
        #: positions whose solve ran out of budget -> (why, when): asked again within
        #: FAILED_SECONDS, they fail at once
        self._failed: OrderedDict[Hashable, tuple[str, float]] = OrderedDict()

    def cached(self, position: Any) -> PositionValues | None:
        """The answer if it is already known (no solving, no file access)."""
        key = self.game.key(position)
        return self.known.get(key) or self._answers.get(key)

    def lookup(self, position: Any) -> PositionValues | None:
        """The answer when it needs no solve: known already, in a stored solution (with
        every move), or in the small board kept in memory; ``None`` otherwise.

        Takes milliseconds, so many lookups may run at once (each in its own thread)."""
        key = self.game.key(position)
        found = self.known.get(key) or self._answers.get(key)
        if found is not None:
            return found
        found = stored_values(self.game, position, self.database_path)
        if found is not None and not self.complete(position, found):
            found = None  # a search kept only some moves: solve for the others
        failed = self._failed.get(key)
        if found is None and failed is not None:
            if time.monotonic() - failed[1] < FAILED_SECONDS:
                raise NotSolved(failed[0])
            self._failed.pop(key, None)
        solution = self._solution
        if found is None and solution is not None and position in solution:
            found = PositionValues(
                solution.outcome(position),
                solution.remoteness(position),
                solution.move_values(position),
                "solved",
                "retrograde",
            )
        if found is not None:
            self._remember(key, found)
        return found

    def complete(self, position: Any, found: PositionValues) -> bool:
        """True when ``found`` has the value of every legal move of ``position``."""
        return self.game.result(position) is not None or len(found.moves) == len(
            self.game.moves(position)
        )

    def _remember(self, key: Hashable, found: PositionValues) -> None:
        self._answers[key] = found
        if len(self._answers) > CACHED_ANSWERS:
            self._answers.popitem(last=False)

    def values(self, position: Any) -> PositionValues:
        """Value, remoteness and every move's value of ``position``: :meth:`lookup`, else a
        solve (one at a time: the machine has few cores).

        Raises :class:`NotSolved` when neither a stored solution nor a solve within the budget
        answers.
        """
        found = self.lookup(position)
        if found is not None:
            return found
        key = self.game.key(position)
        with self._lock:
            found = self.lookup(position)  # solved meanwhile by another request?
            if found is None:
                try:
                    found = self._solve(position)
                except NotSolved as exc:
                    stored = stored_values(self.game, position, self.database_path)
                    if stored is None:
                        self._failed[key] = (str(exc), time.monotonic())
                        if len(self._failed) > CACHED_ANSWERS:
                            self._failed.popitem(last=False)
                        raise
                    found = stored  # the value is known, some moves' values are not
                self._remember(key, found)
        return found

    def advice(self) -> str:
        """How to explore the board anyway: only a packed kernel stores a whole board (a
        ``--save`` of any other solver keeps the positions of one solve, and the pure-Python
        retrograde takes minutes on boards the kernels solve in seconds)."""
        import shlex

        from solvers.saved import stores_packed

        if not stores_packed(self.game):
            return "a larger --budget may solve it"
        params = "".join(
            f" -p {shlex.quote(f'{key}={value}')}"
            for key, value in self.game.parameters.items()
            if value is not None
        )
        return f"store the whole board with: cgt solve {self.game.name}{params} --solver compiled --save"

    def _solve(self, position: Any) -> PositionValues:
        from solvers.api import AUTO_MAX_POSITIONS_BEFORE_KERNEL, compiled_solver_names, solve
        from solvers.budget import SearchBudgetExceeded
        from solvers.retrograde import PositionLimitExceeded, retrograde

        started = time.perf_counter()
        has_kernel = self.game.name in compiled_solver_names()
        # as "cgt solve" does: a game with a compiled kernel hands over to it sooner
        limit = AUTO_MAX_POSITIONS_BEFORE_KERNEL if has_kernel else IN_MEMORY_POSITIONS
        try:
            if not self._too_big_for_memory:
                try:
                    solution = retrograde(
                        self.game,
                        position,
                        max_positions=limit,
                        max_seconds=self.max_seconds,
                    )
                except PositionLimitExceeded:
                    # too big to keep: search each position on its own from now on
                    self._too_big_for_memory = True
                else:
                    if self._solution is None or len(solution) >= len(self._solution):
                        self._solution = solution
                    return from_result(solution.result(position), "solved")
            remaining = self.max_seconds - (time.perf_counter() - started)
            if remaining <= 0:
                raise SearchBudgetExceeded(0, self.max_seconds, "positions")
            # "auto" goes to the kernel and falls back to alpha-beta on a board the kernel
            # does not take (Control beyond size 4)
            solver = "auto" if has_kernel else "alphabeta"
            result = solve(self.game, position, solver=solver, max_seconds=remaining)
            return from_result(result, "solved")
        except SearchBudgetExceeded:
            raise NotSolved(
                f"not solved within {self.max_seconds:g} s (no stored solution of "
                f"{self.game.label()} holds this position; {self.advice()})"
            ) from None
        except CGTError as exc:  # a solver refusing the board (too big for its tables)
            raise NotSolved(f"not solved: {exc}") from None


class StrategyValueSource(ValueSource):
    """Values from a winning strategy file first ("play through the proof"), then as
    :class:`ValueSource`: where the winner is to move, the file's move (a win, ranked by the
    file's rank when it has one); where the loser is to move and every move leads into the
    strategy, every move (a loss). The file is taken as written: ``cgt check --strategy``
    says whether it holds."""

    def __init__(
        self,
        game: Game[Any, Any],
        strategy: Any,
        database_path: Path | None = None,
        max_seconds: float = 10.0,
    ) -> None:
        super().__init__(game, database_path, max_seconds)
        if strategy.game.name != game.name or strategy.game.parameters != game.parameters:
            raise CGTError(
                f"strategy file {strategy.path} is for {strategy.game.label()}, not {game.label()}"
            )
        self.strategy = strategy
        self.solver = f"strategy file {strategy.path.name}"

    def from_strategy(self, position: Any) -> PositionValues | None:
        game, strategy = self.game, self.strategy
        if game.result(position) is not None:
            return None
        if game.to_move(position) == strategy.winner:
            move = strategy.move_for(position)
            if move is None:
                return None
            rank = strategy.rank_of(position)
            name = game.move_name(position, move)
            return PositionValues(
                Outcome.WIN,
                rank,
                [MoveValue(move, name, Outcome.WIN, rank)],
                "strategy",
                self.solver,
            )
        moves = []
        for move, child in game.children(position):
            finished = game.result(child) is not None
            if not finished and game.to_move(child) == strategy.winner:
                if strategy.move_for(child) is None:
                    return None  # a reply the strategy does not answer: not in the proof
            elif not finished:
                return None  # the loser moves again: left to the other sources
            rank = 0 if finished else strategy.rank_of(child)
            remoteness = None if rank is None else rank + 1
            moves.append(MoveValue(move, game.move_name(position, move), Outcome.LOSS, remoteness))
        longest = [m.remoteness for m in moves if m.remoteness is not None]
        remoteness = max(longest) if longest and len(longest) == len(moves) else None
        return PositionValues(Outcome.LOSS, remoteness, moves, "strategy", self.solver)

    def lookup(self, position: Any) -> PositionValues | None:
        return self.from_strategy(position) or super().lookup(position)
