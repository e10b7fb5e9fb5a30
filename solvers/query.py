"""Answers about solved positions without solving again: the one lookup behind
``cgt query``, the explorer and the reports.

:func:`query_position` reads, in this order, a packed solution of the game and parameters
(:mod:`solvers.store`, indexed in the solution database) that holds the position, then the
positions stored as rows in the database; a position in neither is a
:class:`NotStoredError`. Every answer has the position's value and remoteness and the value
of each of its moves for the player making it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cgt.errors import CGTError
from cgt.protocol import Game, Outcome
from solvers.database import PackedEntry, SolutionDatabase, params_text
from solvers.ranking import Ranking, ranking_from_meta
from solvers.result import MoveValue
from solvers.retrograde import best_move_values
from solvers.store import PackedSolution, StoreError

Value = tuple[Outcome, int | None]


class NotStoredError(CGTError):
    """No stored solution holds the position."""


@dataclass
class QueryAnswer:
    """A stored position's value (``outcome`` for the player to move, ``remoteness`` None
    for draws), every move's value for the player making it, the best moves, and where the
    answer came from (``source``: ``"packed"`` or ``"database"``; ``store``: the file)."""

    game: str
    params: dict[str, Any]
    position: str
    outcome: Outcome
    remoteness: int | None
    moves: list[MoveValue]
    best_moves: list[str]
    source: str
    store: str
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "params": self.params,
            "position": self.position,
            "outcome": self.outcome.label,
            "remoteness": self.remoteness,
            "best_moves": self.best_moves,
            "moves": [m.as_dict() for m in self.moves],
            "source": self.source,
            "store": self.store,
            **self.extra,
        }


class StoredSpace:
    """One packed solution opened for queries: its file and its ranking."""

    def __init__(self, solution: PackedSolution) -> None:
        self.solution = solution
        self.ranking: Ranking = ranking_from_meta(solution.meta["ranking"])

    def value(self, game: Game[Any, Any], position: Any, depth: int = 1) -> Value | None:
        """The stored value of ``position``; a state the space keeps no record of (a game
        over, a pending pass) from the game's result or from its children's values, looked
        at ``depth`` plies deep at most; None when the space does not hold it."""
        index = self.ranking.index(position)
        if index is not None:
            return self.solution.value(index) if index < len(self.solution) else None
        over = game.result(position)
        if over is not None:
            return over, None if over == Outcome.DRAW else 0
        if depth == 0:
            return None
        moves = self.move_values(game, position, depth - 1)
        return value_from_moves(moves) if moves else None

    def move_values(
        self, game: Game[Any, Any], position: Any, depth: int = 1
    ) -> list[MoveValue] | None:
        """Every move's value for the player making it (each child as :meth:`value` with
        ``depth``); None if a child is not held."""
        mover = game.to_move(position)
        values: list[MoveValue] = []
        for move in game.moves(position):
            child = game.play(position, move)
            found = self.value(game, child, depth)
            if found is None:
                return None
            values.append(move_value(game, position, move, mover, child, found))
        return values


def move_value(
    game: Game[Any, Any], position: Any, move: Any, mover: int, child: Any, value: Value
) -> MoveValue:
    """The value of ``move`` for its player, from the value of the ``child`` it leads to."""
    outcome, remoteness = value
    if game.to_move(child) != mover:
        outcome = -outcome
    return MoveValue(
        move,
        game.move_name(position, move),
        outcome,
        None if remoteness is None else remoteness + 1,
    )


def value_from_moves(moves: list[MoveValue]) -> Value:
    """A position's value from its moves' (the winner's fastest win, the loser's slowest
    loss), in the remoteness convention of :mod:`solvers.retrograde`."""
    wins = [m.remoteness or 0 for m in moves if m.outcome == Outcome.WIN]
    if wins:
        return Outcome.WIN, min(wins)
    if any(m.outcome == Outcome.DRAW for m in moves):
        return Outcome.DRAW, None
    return Outcome.LOSS, max(m.remoteness or 0 for m in moves)


_OPEN: dict[tuple[str, int, int], StoredSpace] = {}
_OPEN_LOCK = threading.Lock()


def open_stored(path: Path | str) -> StoredSpace:
    """A packed solution opened once per process (reopened when the file changes)."""
    path = Path(path)
    try:
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = (str(path), 0, 0)  # PackedSolution.open says what is wrong
    with _OPEN_LOCK:
        found = _OPEN.get(key)
        if found is None:
            found = _OPEN[key] = StoredSpace(PackedSolution.open(path))
        return found


def packed_entries(game: Game[Any, Any], database: SolutionDatabase) -> list[PackedEntry]:
    """The packed solutions indexed for ``game`` and its parameters, newest first."""
    return database.packed_solutions(game.name, dict(game.parameters))


def _database(database: SolutionDatabase | Path | str | None) -> SolutionDatabase:
    return database if isinstance(database, SolutionDatabase) else SolutionDatabase(database)


def query_position(
    game: Game[Any, Any],
    position: Any = None,
    database: SolutionDatabase | Path | str | None = None,
) -> QueryAnswer:
    """The stored value of ``position`` (default: the start) of ``game``, with every move's
    value: from a packed solution when one of the game's parameters holds it, else from the
    database's rows. ``database`` is a :class:`SolutionDatabase` or its path (default
    ``$CGT_DB`` or the user cache). Raises :class:`NotStoredError` when nothing stored
    holds the position, and a one-line :class:`CGTError` for a damaged store or database."""
    db = _database(database)
    if position is None:
        position = game.initial_position()
    for entry in packed_entries(game, db):
        space = open_stored(entry.path)
        meta = space.solution.meta
        if meta.get("game") != game.name or params_text(meta.get("params", {})) != params_text(
            game.parameters
        ):
            raise StoreError(
                f"stored solution {entry.path} holds {meta.get('game')} {meta.get('params')}, "
                f"not {game.label()} as the database says"
            )
        value = space.value(game, position)
        if value is None:
            continue
        moves = [] if game.result(position) is not None else space.move_values(game, position)
        return _answer(game, position, value, moves or [], "packed", str(entry.path))
    found = db.lookup(game, position)
    if found is not None:
        return _answer(game, position, found, _database_moves(game, position, db), "database",
                       str(db.path))  # fmt: skip
    raise NotStoredError(
        f"{game.label()}: position {game.render(position)!r} is not in the solution database {db.path} "
        "(solve it with 'cgt solve ... --save')"
    )


def _database_moves(
    game: Game[Any, Any], position: Any, database: SolutionDatabase
) -> list[MoveValue]:
    """The moves whose children the database holds (a search stores only some)."""
    if game.result(position) is not None:
        return []
    mover = game.to_move(position)
    moves = []
    for move in game.moves(position):
        child = game.play(position, move)
        value = database.lookup(game, child)
        if value is not None:
            moves.append(move_value(game, position, move, mover, child, value))
    return moves


def _answer(
    game: Game[Any, Any],
    position: Any,
    value: Value,
    moves: list[MoveValue],
    source: str,
    where: str,
) -> QueryAnswer:
    outcome, remoteness = value
    return QueryAnswer(
        game=game.name,
        params=dict(game.parameters),
        position=game.render(position),
        outcome=outcome,
        remoteness=remoteness,
        moves=moves,
        best_moves=[m.name for m in best_move_values(moves, outcome, remoteness)],
        source=source,
        store=where,
    )
