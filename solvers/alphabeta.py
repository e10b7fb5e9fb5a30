"""Negamax alpha-beta search with a transposition table, for graphs too big to enumerate.

Scores are for the player to move. With ``remoteness=True`` they are mate-distance scores:
a WIN in r plies scores ``BIG - r``, a LOSS in r plies ``-(BIG - r)``, a DRAW 0, so the
largest score is the winner's fastest win and the loser's slowest loss, and a full-window
search returns the exact value *and* remoteness. Passing a score up one ply moves it one
step towards 0 (the win or loss is one ply further away); windows passed down are widened by
the inverse step, so bounds stay exact. With ``remoteness=False`` the scores are -1/0/1 only,
which prunes far more but tells nothing about remoteness.

Players need not alternate: when ``to_move(child) == to_move(parent)`` the child's score is
used as it is instead of negated, and the window is passed down unchanged.

Cycles and the graph-history interaction (GHI)
----------------------------------------------
A position already on the current search path scores DRAW (endless play is a draw). That
score depends on the path, not on the position, so every result whose computation used such a
cut-off is *flagged* and never stored in the transposition table; the flag goes up to every
ancestor whose value depended on it (a beta cut-off caused by an unflagged child is a valid
lower bound whatever the other children did, so it is not flagged). Hence every table entry is
a true, path-independent value or bound.

Why the value of the root (a search started with an empty path and a full window) is exact
anyway: a repetition leaf scores 0, which is neither a win nor a loss, so by induction every
*win* the search claims (a lower bound > 0) and every *loss* it claims (an upper bound < 0) is
proved by a tree whose leaves are terminal positions or true table entries: such claims are
sound. Conversely suppose the root is truly a WIN in r. Let the rank of a decided position be
its remoteness; along a winning strategy that wins as fast as possible (the attractor of the
winner's terminal wins) each ply strictly lowers the rank, because a winning position has a
child of rank one less and every child of a losing position has a smaller rank. So no
position of that strategy's tree repeats, and the search of that tree below the root never
meets a repetition leaf: it scores the root at least WIN in r, and soundness bounds it by the
truth, so exactly WIN in r. A true LOSS is the opponent's WIN, and a true DRAW can be
claimed neither a win nor a loss. The same argument gives the exact remoteness at the root.
Interior positions of a search may be mis-scored by repetitions (their path-dependent results
are exactly the ones never stored), which is why the per-move values at the root are each
computed by a search with the child as its own root.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.budget import Deadline
from solvers.result import MoveValue, SolveResult
from solvers.retrograde import PROGRESS_INTERVAL, best_move_values
from solvers.tt import EXACT, LOWER, UPPER, TranspositionTable

#: Score of a win at the end of the game (remoteness 0); needs BIG > any remoteness.
BIG = 1 << 30
#: Beyond every score: the full window is (-INFINITY, INFINITY).
INFINITY = BIG + 2
#: Maximum Python recursion depth during a search (one frame per ply of the search path).
RECURSION_LIMIT = 200_000

MoveOrdering = Callable[[Game[Any, Any], Any, Sequence[Any]], Sequence[Any]]


class AlphaBeta:
    """Exact negamax alpha-beta solver with a transposition table.

    ``tt_entries`` bounds the memory (see :attr:`approx_bytes`); a tiny table gives the same
    results, only slower. ``ordering(game, position, moves)`` may reorder the moves; the
    table's best move is always tried first, and without ``ordering`` the rest go by the
    history heuristic (moves that caused cut-offs before come first). ``max_seconds`` bounds
    each :meth:`solve` (:class:`~solvers.budget.SearchBudgetExceeded` when it runs out).
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        tt_entries: int = 1 << 20,
        symmetry: bool = True,
        remoteness: bool = True,
        ordering: MoveOrdering | None = None,
        progress: Progress | None = None,
        max_seconds: float | None = None,
    ) -> None:
        self.game = game
        self.max_seconds = max_seconds
        self._deadline = Deadline(max_seconds)
        self.table = TranspositionTable(tt_entries)
        self.symmetry = symmetry
        self.use_remoteness = remoteness
        self.ordering = ordering
        self.progress = progress
        self._key = game.canonical_key if symmetry else game.key
        if remoteness:
            self._terminal_score = {Outcome.WIN: BIG, Outcome.LOSS: -BIG, Outcome.DRAW: 0}
            self._max_score = BIG - 1  # a non-terminal position wins in one ply at best
        else:
            self._terminal_score = {Outcome.WIN: 1, Outcome.LOSS: -1, Outcome.DRAW: 0}
            self._max_score = 1
        self._path: set[Hashable] = set()
        self._history: dict[Any, int] = {}
        self._best_move: Any = None
        self.nodes = 0
        self.repetitions = 0
        self._started = time.perf_counter()
        self._last_report = self._started

    @property
    def approx_bytes(self) -> int:
        """Approximate memory of the transposition table."""
        return self.table.approx_bytes

    # ------------------------------------------------------------------ scores
    def _toward_root(self, score: int) -> int:
        """Score one ply further from the end (as seen by the same player)."""
        if not self.use_remoteness:
            return score
        if score > 0:
            return score - 1
        if score < 0:
            return score + 1
        return 0

    def _toward_leaf(self, bound: int) -> int:
        """Inverse of :meth:`_toward_root` for window bounds."""
        if not self.use_remoteness:
            return bound
        if bound > 0:
            return bound + 1
        if bound < 0:
            return bound - 1
        return 0

    def decode(self, score: int) -> tuple[Outcome, int | None]:
        """Outcome and remoteness (None when unknown or a draw) of an exact score."""
        if score == 0:
            return Outcome.DRAW, None
        outcome = Outcome.WIN if score > 0 else Outcome.LOSS
        if not self.use_remoteness:
            return outcome, None
        return outcome, BIG - abs(score)

    # ------------------------------------------------------------------ public API
    def value(self, position: Any) -> tuple[Outcome, int | None]:
        """Exact outcome and remoteness of ``position`` for its player to move."""
        return self.decode(self._root_score(position, self._key(position)))

    def solve(self, position: Any = None) -> SolveResult:
        """Solve ``position`` (default: the initial position) with every move's value."""
        game = self.game
        started = time.perf_counter()
        self._started = started
        self._deadline = Deadline(self.max_seconds)
        nodes_before = self.nodes
        stores_before = self.table.new_stores
        if position is None:
            position = game.initial_position()
        values, best_score = self._move_scores(position)
        if values is None:
            outcome = game.result(position)
            assert outcome is not None
            remoteness = 0 if outcome != Outcome.DRAW and self.use_remoteness else None
            move_values: list[MoveValue] = []
        else:
            outcome, remoteness = self.decode(best_score)
            move_values = [
                MoveValue(move, game.move_name(position, move), *self.decode(score))
                for move, score in values
            ]
        best = best_move_values(move_values, outcome, remoteness)
        line = self.principal_variation(position, best_score if values is not None else None)
        return SolveResult(
            game=game.name,
            params=dict(game.parameters),
            position=game.render(position),
            solver="alphabeta",
            outcome=outcome,
            remoteness=remoteness,
            moves=move_values,
            best_moves=[m.name for m in best],
            principal_variation=line,
            positions=self.table.new_stores - stores_before,
            seconds=time.perf_counter() - started,
            extra={
                "nodes": self.nodes - nodes_before,
                "repetition_cutoffs": self.repetitions,
                "symmetry": self.symmetry,
                "tt": self.table.stats(),
            },
        )

    def principal_variation(
        self, position: Any, score: int | None = None, max_length: int = 200
    ) -> list[str]:
        """One perfect line from ``position``: at each step the first move (table move first)
        whose child, solved as a root, keeps the value. Stops at the end of the game, at a
        repeated position or after ``max_length`` plies (draws and remoteness=False)."""
        game = self.game
        line: list[str] = []
        seen: set[Hashable] = set()
        if score is None:
            score = self._root_score(position, self._key(position))
        while len(line) < max_length:
            key = self._key(position)
            if key in seen or game.result(position) is not None:
                break
            seen.add(key)
            entry = self.table.probe(key)
            moves = self._ordered(position, game.moves(position), entry[2] if entry else None)
            mover = game.to_move(position)
            for move in moves:
                child = game.play(position, move)
                child_score = self._root_score(child, self._key(child))
                same = game.to_move(child) == mover
                if self._toward_root(child_score if same else -child_score) == score:
                    line.append(game.move_name(position, move))
                    position, score = child, child_score
                    break
            else:  # cannot happen when score is the exact value of position
                raise AssertionError("no move keeps the value of the position")
        return line

    # ------------------------------------------------------------------ search
    def _move_scores(self, position: Any) -> tuple[list[tuple[Any, int]] | None, int]:
        """Exact score of every move of ``position`` (each child solved as a root) and the
        best; ``None`` for a terminal position."""
        game = self.game
        outcome = game.result(position)
        if outcome is not None:
            return None, self._terminal_score[outcome]
        mover = game.to_move(position)
        scores = []
        for move in game.moves(position):
            child = game.play(position, move)
            child_score = self._root_score(child, self._key(child))
            same = game.to_move(child) == mover
            scores.append((move, self._toward_root(child_score if same else -child_score)))
        if not scores:
            raise ValueError(
                f"{game.name}: position {game.render(position)!r} has no legal move but "
                "result() says the game is not over"
            )
        best = max(score for _, score in scores)
        best_move = next(move for move, score in scores if score == best)
        self.table.store(self._key(position), EXACT, best, best_move, 0)
        return scores, best

    def _root_score(self, position: Any, key: Hashable) -> int:
        """Exact score of ``position`` by a full-window search with an empty path."""
        entry = self.table.probe(key)
        if entry is not None and entry[0] == EXACT:
            return entry[1]
        self._path = set()
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
        try:
            score, flagged = self._search(position, key, -INFINITY, INFINITY)
        finally:
            sys.setrecursionlimit(old_limit)
            self._path = set()
        if flagged:  # exact anyway at a root (see the module docstring), so keep it
            self.table.store(key, EXACT, score, self._best_move, 0)
        return score

    def _ordered(self, position: Any, moves: Sequence[Any], first: Any) -> list[Any]:
        if self.ordering is not None:
            ordered = list(self.ordering(self.game, position, moves))
        else:
            history = self._history
            ordered = (
                sorted(moves, key=lambda move: -history.get(move, 0)) if history else list(moves)
            )
        if first is not None and first in ordered:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered

    def _search(self, position: Any, key: Hashable, alpha: int, beta: int) -> tuple[int, bool]:
        """Fail-soft negamax: ``(score, flagged)``; flagged means path-dependent."""
        self.nodes += 1
        if not self.nodes & 4095:
            self._deadline.check(self.nodes, "nodes searched")
            if self.progress is not None:
                self._report()
        if key in self._path:
            self.repetitions += 1
            return 0, True
        game = self.game
        outcome = game.result(position)
        if outcome is not None:
            self._best_move = None
            return self._terminal_score[outcome], False
        table = self.table
        entry = table.probe(key)
        table_move = None
        if entry is not None:
            flag, score, table_move = entry
            if (
                flag == EXACT
                or (flag == LOWER and score >= beta)
                or (flag == UPPER and score <= alpha)
            ):
                self._best_move = table_move
                return score, False
        moves = game.moves(position)
        if not moves:
            raise ValueError(
                f"{game.name}: position {game.render(position)!r} has no legal move but "
                "result() says the game is not over"
            )
        mover = game.to_move(position)
        original_alpha = alpha
        nodes_before = self.nodes
        best = -INFINITY
        best_move = None
        best_flagged = False
        any_flagged = False
        key_of = self._key
        toward_root = self._toward_root
        toward_leaf = self._toward_leaf
        self._path.add(key)
        try:
            for move in self._ordered(position, moves, table_move):
                child = game.play(position, move)
                child_key = key_of(child)
                if game.to_move(child) == mover:
                    child_score, flagged = self._search(
                        child, child_key, toward_leaf(alpha), toward_leaf(beta)
                    )
                    score = toward_root(child_score)
                else:
                    child_score, flagged = self._search(
                        child, child_key, -toward_leaf(beta), -toward_leaf(alpha)
                    )
                    score = toward_root(-child_score)
                any_flagged = any_flagged or flagged
                if score > best:
                    best, best_move, best_flagged = score, move, flagged
                    if best > alpha:
                        alpha = best
                        if best >= beta or best >= self._max_score:
                            break
        finally:
            self._path.discard(key)

        if best >= self._max_score:  # nothing can beat it: exact whatever the window
            bound, flagged = EXACT, best_flagged
        elif best >= beta:
            bound, flagged = LOWER, best_flagged
            self._history[best_move] = self._history.get(best_move, 0) + 1
        elif best <= original_alpha:
            bound, flagged = UPPER, any_flagged
        else:
            bound, flagged = EXACT, any_flagged
        if not flagged:
            table.store(key, bound, best, best_move, self.nodes - nodes_before)
        self._best_move = best_move
        return best, flagged

    def _report(self) -> None:
        now = time.perf_counter()
        if now - self._last_report < PROGRESS_INTERVAL or self.progress is None:
            return
        self._last_report = now
        self.progress(
            {
                "phase": "search",
                "nodes": self.nodes,
                "positions": self.table.new_stores,
                "tt_hits": self.table.hits,
                "depth": len(self._path),
                "seconds": round(now - self._started, 3),
            }
        )
