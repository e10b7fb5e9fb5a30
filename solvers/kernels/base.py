"""The Python side shared by the compiled kernels: root values, every root move's value, a
principal variation and the :class:`~solvers.result.SolveResult`.

A kernel subclass supplies :meth:`CompiledKernel.moves` (the compiled move generator, in the
game's moves) and :meth:`CompiledKernel._search` (one search from a position with an empty
path). Everything else is here, so that each kernel module holds only its game's rules.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from cgt.errors import ParameterError
from cgt.protocol import Game, Outcome
from solvers.kernels.table import (
    BIG,
    INFINITY,
    S_HITS,
    S_MAX_PLY,
    S_NEW_STORES,
    S_NODES,
    S_OVERFLOW,
    S_PROBES,
    S_REPETITIONS,
    S_STORES,
    toward_root_py,
)
from solvers.result import MoveValue, SolveResult
from solvers.retrograde import best_move_values


class CompiledKernel(ABC):
    """Tables and search state of one game's compiled kernel.

    Keep one instance to solve many positions of the same game: the table carries over.
    Subclasses set ``game``, ``remoteness``, ``max_ply``, ``ctl`` (int64 control array with
    the statistics at the indices of :mod:`solvers.kernels.table`), ``tt`` and ``capacity``.
    """

    game: Game[Any, Any]
    remoteness: bool
    max_ply: int
    ctl: np.ndarray
    tt: np.ndarray
    capacity: int

    @abstractmethod
    def moves(self, position: Any) -> list[Any]:
        """Legal moves of ``position`` as the game's moves, by the compiled generator."""

    @abstractmethod
    def _search(self, position: Any, alpha: int, beta: int) -> int:
        """Compiled search of ``position`` with an empty path."""

    @property
    def approx_bytes(self) -> int:
        """Memory of the transposition table (32 bytes per slot)."""
        return int(self.tt.nbytes)

    def stat(self, index: int) -> int:
        return int(self.ctl[index])

    def score(self, position: Any, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
        """Score of ``position`` by a search with an empty path (exact for a full window)."""
        value = self._search(position, alpha, beta)
        if self.ctl[S_OVERFLOW]:
            self.ctl[S_OVERFLOW] = 0
            raise ParameterError(f"search path longer than {self.max_ply} plies; raise max_ply")
        return int(value)

    def decode(self, score: int) -> tuple[Outcome, int | None]:
        """Outcome and remoteness (None in value mode or for a draw) of an exact score."""
        if score == 0:
            return Outcome.DRAW, None
        outcome = Outcome.WIN if score > 0 else Outcome.LOSS
        if not self.remoteness:
            return outcome, None
        return outcome, BIG - abs(score)

    def value(self, position: Any) -> tuple[Outcome, int | None]:
        """Exact outcome (and remoteness in remoteness mode) of ``position``."""
        return self.decode(self.score(position))

    def _child_score(self, position: Any, child: Any, child_score: int) -> int:
        """A child's score seen by the mover of ``position`` (players need not alternate)."""
        game = self.game
        same = game.to_move(child) == game.to_move(position)
        return toward_root_py(child_score if same else -child_score, self.remoteness)

    def child_scores(self, position: Any) -> list[tuple[Any, int]]:
        """(game move, exact score for the mover) of every legal move, each child solved as
        its own root with a full window."""
        scores = []
        for move in self.moves(position):
            child = self.game.play(position, move)
            scores.append((move, self._child_score(position, child, self.score(child))))
        return scores

    def principal_variation(self, position: Any, score: int, max_length: int = 200) -> list[str]:
        """One line that keeps the value: at each step the first move whose child, solved
        as a root, has the position's score one ply later."""
        game = self.game
        line: list[str] = []
        seen: set[Any] = set()
        while len(line) < max_length and position not in seen:
            seen.add(position)
            for move in self.moves(position):
                child = game.play(position, move)
                child_score = self.score(child)
                if self._child_score(position, child, child_score) == score:
                    line.append(game.move_name(position, move))
                    position, score = child, child_score
                    break
            else:
                break  # terminal
        return line

    def solve(
        self, position: Any, *, principal_variation: bool = True, compile_seconds: float = 0.0
    ) -> SolveResult:
        """Root value and the value of every root move (each solved as its own root with a
        full window); ``seconds`` excludes compilation."""
        game = self.game
        started = time.perf_counter()
        scores = self.child_scores(position)
        if scores:
            best_score = max(score for _, score in scores)
            outcome, remoteness = self.decode(best_score)
            move_values = [
                MoveValue(move, game.move_name(position, move), *self.decode(score))
                for move, score in scores
            ]
        else:  # no legal move: the player to move has lost (normal play)
            best_score = -BIG if self.remoteness else -1
            outcome, remoteness = Outcome.LOSS, (0 if self.remoteness else None)
            move_values = []
        search_seconds = time.perf_counter() - started
        nodes = self.stat(S_NODES)
        line = self.principal_variation(position, best_score) if principal_variation else []
        best = best_move_values(move_values, outcome, remoteness)
        return SolveResult(
            game=game.name,
            params=dict(game.parameters),
            position=game.render(position),
            solver="compiled",
            outcome=outcome,
            remoteness=remoteness,
            moves=move_values,
            best_moves=[m.name for m in best],
            principal_variation=line,
            positions=self.stat(S_NEW_STORES),
            seconds=time.perf_counter() - started,
            extra={
                "nodes": nodes,
                "search_seconds": round(search_seconds, 4),
                "nodes_per_second": round(nodes / search_seconds) if search_seconds else None,
                "compile_seconds": round(compile_seconds, 3),
                "tt": {
                    "capacity": self.capacity,
                    "bytes": self.approx_bytes,
                    "probes": self.stat(S_PROBES),
                    "hits": self.stat(S_HITS),
                    "stores": self.stat(S_STORES),
                    "new_stores": self.stat(S_NEW_STORES),
                },
                "repetition_cutoffs": self.stat(S_REPETITIONS),
                "max_ply": self.stat(S_MAX_PLY),
            },
        )
