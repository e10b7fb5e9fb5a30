"""The Python side shared by the compiled kernels: root values, every root move's value, a
principal variation, the node budget and progress reports, and the
:class:`~solvers.result.SolveResult`.

A kernel subclass supplies :meth:`CompiledKernel.check_position`, :meth:`CompiledKernel.moves`
(the compiled move generator, in the game's moves) and :meth:`CompiledKernel._search` (one
compiled search from a position with an empty path, which stops once ``ctl[S_NODES]`` passes
``ctl[S_NODE_LIMIT]``). Everything else is here, so that each kernel module holds only its
game's rules and search loop.

Budget and progress: without ``max_seconds`` or ``progress`` a search is one compiled call.
With either, it runs in slices of about :data:`SLICE_SECONDS` (a node budget per call, sized
from the measured speed); a slice that runs out stores nothing on its unfinished path, so the
next slice resumes from everything the table kept. Between slices the progress callback gets
``{"phase": "search", "nodes", "positions", "seconds"}`` and the deadline is checked
(:class:`SearchBudgetExceeded`).
"""

from __future__ import annotations

import functools
import inspect
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np

from cgt.errors import ParameterError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.budget import SearchBudgetExceeded, check_max_seconds
from solvers.kernel_table import (
    BIG,
    INFINITY,
    NO_NODE_LIMIT,
    S_ABORTED,
    S_HITS,
    S_MAX_PLY,
    S_NEW_STORES,
    S_NODE_LIMIT,
    S_NODES,
    S_OVERFLOW,
    S_PROBES,
    S_REPETITIONS,
    S_STORES,
    toward_root_py,
)
from solvers.result import MoveValue, SolveResult
from solvers.retrograde import best_move_values

#: Target wall time of one budgeted compiled call (progress and deadline granularity).
SLICE_SECONDS = 0.5
#: Node budget of the first budgeted call, and the bounds of later ones.
FIRST_SLICE_NODES = 1 << 18
MIN_SLICE_NODES = 1 << 14
MAX_SLICE_NODES = 1 << 30


class CompiledKernel(ABC):
    """Tables and search state of one game's compiled kernel.

    Keep one instance to solve many positions of the same game: the table carries over.
    Subclasses set ``game``, ``remoteness``, ``max_ply``, ``ctl`` (int64 control array with
    the statistics at the indices of :mod:`solvers.kernel_table`), ``tt`` and ``capacity``.
    """

    game: Game[Any, Any]
    remoteness: bool
    max_ply: int
    ctl: np.ndarray
    tt: np.ndarray
    capacity: int
    #: the search that runs (``dfpn``: proof-number search)
    method: str = "alphabeta"

    # budget of the current solve (see the module docstring); None: unbounded, silent
    _deadline: float | None = None
    _progress: Progress | None = None
    _started: float = 0.0
    _slice_nodes: int = FIRST_SLICE_NODES

    def solve_extra(self) -> dict[str, Any]:
        """What a solve by this kernel records in ``SolveResult.extra`` besides the common
        options (a kernel's own statistics)."""
        return {}

    @abstractmethod
    def check_position(self, position: Any) -> Any:
        """The position as kernel arguments; :class:`~cgt.errors.PositionError` if it is
        not one of this game's positions."""

    @abstractmethod
    def moves(self, position: Any) -> list[Any]:
        """Legal moves of ``position`` as the game's moves, by the compiled generator."""

    @abstractmethod
    def _search(self, position: Any, alpha: int, beta: int) -> int:
        """One compiled search of ``position`` with an empty path, within the node budget
        ``ctl[S_NODE_LIMIT]`` (``ctl[S_ABORTED]`` set when it runs out)."""

    def terminal_outcome(self, position: Any) -> Outcome | None:
        """Outcome for the player to move if the game is over at ``position``, else None.
        Default: normal play, no legal move loses."""
        return None if self.moves(position) else Outcome.LOSS

    @property
    def approx_bytes(self) -> int:
        """Memory of the transposition table (32 bytes per slot)."""
        return int(self.tt.nbytes)

    def stat(self, index: int) -> int:
        return int(self.ctl[index])

    def table_stats(self) -> dict[str, int]:
        return {
            "capacity": self.capacity,
            "bytes": self.approx_bytes,
            "probes": self.stat(S_PROBES),
            "hits": self.stat(S_HITS),
            "stores": self.stat(S_STORES),
            "new_stores": self.stat(S_NEW_STORES),
        }

    # ---------------------------------------------------------------- budget
    def set_budget(
        self, max_seconds: float | None = None, progress: Progress | None = None
    ) -> None:
        """Bound the following searches to ``max_seconds`` from now and report progress to
        ``progress`` (None and None: one unbounded compiled call per search)."""
        check_max_seconds(max_seconds)
        self._slice_nodes = FIRST_SLICE_NODES
        self._started = time.perf_counter()
        self._deadline = None if max_seconds is None else self._started + max_seconds
        self._progress = progress

    def elapsed(self) -> float:
        return time.perf_counter() - self._started

    def check_deadline(self) -> None:
        """:class:`SearchBudgetExceeded` if the budget's deadline has passed."""
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise SearchBudgetExceeded(self.stat(S_NODES), self.elapsed())

    def report(self, event: dict[str, Any]) -> None:
        if self._progress is not None:
            self._progress(event)

    def score(self, position: Any, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
        """Score of ``position`` by a search with an empty path (exact for a full window),
        in budgeted slices when a budget or a progress callback is set."""
        budgeted = self._deadline is not None or self._progress is not None
        while True:
            self.ctl[S_ABORTED] = 0
            nodes_before = self.stat(S_NODES)
            entries_before = self.stat(S_NEW_STORES)
            self.ctl[S_NODE_LIMIT] = nodes_before + self._slice_nodes if budgeted else NO_NODE_LIMIT
            slice_started = time.perf_counter()
            value = self._search(position, alpha, beta)
            if self.ctl[S_OVERFLOW]:
                self.ctl[S_OVERFLOW] = 0
                raise ParameterError(f"search path longer than {self.max_ply} plies; raise max_ply")
            if not self.ctl[S_ABORTED]:
                return int(value)
            # a slice ran out: size the next one from the measured speed, report, check.
            # A slice that wrote no new table entry may be redoing the same unstorable work
            # (results flagged by a repetition, or a path deeper than the slice): double it,
            # so that every search ends.
            seconds = max(time.perf_counter() - slice_started, 1e-6)
            rate = (self.stat(S_NODES) - nodes_before) / seconds
            if self.stat(S_NEW_STORES) == entries_before:
                self._slice_nodes *= 2
            else:
                self._slice_nodes = int(
                    min(max(rate * SLICE_SECONDS, MIN_SLICE_NODES), MAX_SLICE_NODES)
                )
            self.report(
                {
                    "phase": "search",
                    "nodes": self.stat(S_NODES),
                    "positions": self.stat(S_NEW_STORES),
                    "tt_hits": self.stat(S_HITS),
                    "seconds": round(self.elapsed(), 3),
                }
            )
            self.check_deadline()

    def bounded_score(
        self, position: Any, alpha: int, beta: int, max_nodes: int | None
    ) -> int | None:
        """Score of ``position`` in the window (``alpha``, ``beta``) (fail-soft: a score at or
        below ``alpha`` is an upper bound, at or above ``beta`` a lower bound), or None when
        the search needs more than ``max_nodes`` nodes (None: no limit). A small budget asks
        whether the table already knows the answer; the strategy extraction
        (:mod:`solvers.strategy`) keeps the move proven with the fewest nodes."""
        self.ctl[S_ABORTED] = 0
        limit = NO_NODE_LIMIT if max_nodes is None else self.stat(S_NODES) + max_nodes
        self.ctl[S_NODE_LIMIT] = limit
        value = self._search(position, alpha, beta)
        if self.ctl[S_OVERFLOW]:
            self.ctl[S_OVERFLOW] = 0
            raise ParameterError(f"search path longer than {self.max_ply} plies; raise max_ply")
        return None if self.ctl[S_ABORTED] else int(value)

    # ---------------------------------------------------------------- values
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
            self.check_deadline()
            child = self.game.play(position, move)
            score = self._child_score(position, child, self.score(child))
            scores.append((move, score))
            if self._progress is not None:
                self.report(
                    {
                        "phase": "root move",
                        "move": self.game.move_name(position, move),
                        "outcome": self.decode(score)[0].label,
                        "nodes": self.stat(S_NODES),
                        "seconds": round(self.elapsed(), 3),
                    }
                )
        return scores

    def principal_variation(self, position: Any, score: int, max_length: int = 200) -> list[str]:
        """One line that keeps the value: at each step the first move whose child, solved
        as a root, has the position's score one ply later (in value mode any winning move,
        so the line need not be the shortest)."""
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
        self,
        position: Any,
        *,
        principal_variation: bool = True,
        compile_seconds: float = 0.0,
        max_seconds: float | None = None,
        progress: Progress | None = None,
        move_values: bool = True,
    ) -> SolveResult:
        """Root value and the value of every root move (each solved as its own root with a
        full window); ``seconds`` excludes compilation. :class:`SearchBudgetExceeded` when
        ``max_seconds`` runs out first.

        ``move_values=False``: the root's value alone, by one search of the root, with no
        move values and no line. A won root then needs one winning move proved, not every
        move's exact value: on size-4 Control positions 14 plies in, 10 to 200 times fewer
        nodes (what a frontier job needs)."""
        game = self.game
        self.check_position(position)
        self.set_budget(max_seconds, progress)
        started = time.perf_counter()
        nodes_before = self.stat(S_NODES)
        stores_before = self.stat(S_NEW_STORES)
        terminal = self.terminal_outcome(position)
        values: list[MoveValue] = []
        if terminal is not None:
            outcome = terminal
            remoteness: int | None = 0 if self.remoteness else None
            best_score = 0
        elif not move_values:
            best_score = self.score(position)
            outcome, remoteness = self.decode(best_score)
            principal_variation = False
        else:
            scores = self.child_scores(position)
            best_score = max(score for _, score in scores)
            outcome, remoteness = self.decode(best_score)
            values = [
                MoveValue(move, game.move_name(position, move), *self.decode(score))
                for move, score in scores
            ]
        search_seconds = time.perf_counter() - started
        nodes = self.stat(S_NODES) - nodes_before
        line = (
            self.principal_variation(position, best_score)
            if principal_variation and terminal is None
            else []
        )
        self.set_budget()
        best = best_move_values(values, outcome, remoteness)
        return SolveResult(
            game=game.name,
            params=dict(game.parameters),
            position=game.render(position),
            solver="compiled",
            outcome=outcome,
            remoteness=remoteness,
            moves=values,
            best_moves=[m.name for m in best],
            principal_variation=line,
            positions=self.stat(S_NEW_STORES) - stores_before,
            seconds=time.perf_counter() - started,
            extra={
                "nodes": nodes,
                "search_seconds": round(search_seconds, 4),
                "nodes_per_second": round(nodes / search_seconds) if search_seconds else None,
                "compile_seconds": round(compile_seconds, 3),
                "remoteness_mode": self.remoteness,
                "tt": self.table_stats(),
                "repetition_cutoffs": self.stat(S_REPETITIONS),
                "max_ply": self.stat(S_MAX_PLY),
            },
        )


def run_solve(
    kernel: CompiledKernel,
    game: Game[Any, Any],
    position: Any,
    *,
    compile_seconds: float,
    principal_variation: bool,
    max_seconds: float | None,
    progress: Progress | None,
    symmetry: bool,
    move_values: bool = True,
) -> SolveResult:
    """The tail every ``solve_<game>`` entry point shares: default position, input checks,
    the solve, and the options recorded in ``extra`` (with the search that ran and the
    kernel's own :meth:`~CompiledKernel.solve_extra`)."""
    check_max_seconds(max_seconds)
    if position is None:
        position = game.initial_position()
    result = kernel.solve(
        position,
        principal_variation=principal_variation,
        compile_seconds=compile_seconds,
        max_seconds=max_seconds,
        progress=progress,
        move_values=move_values,
    )
    result.extra["symmetry"] = symmetry
    result.extra["method"] = kernel.method
    result.extra.update(kernel.solve_extra())
    return result


def search_solve(
    make_kernel: Callable[..., CompiledKernel],
    warm_up: Callable[[], float],
    game: Game[Any, Any],
    position: Any = None,
    *,
    remoteness: bool = False,
    tt_entries: int = 1 << 22,
    symmetry: bool = True,
    principal_variation: bool = True,
    move_values: bool = True,
    max_seconds: float | None = None,
    progress: Progress | None = None,
    **options: Any,
) -> SolveResult:
    """The body of a search kernel's ``solve_<game>`` (the uniform signature of
    :mod:`solvers.kernels`): compile or load first (``warm_up``, reported as
    ``extra["compile_seconds"]``), then ``make_kernel(game, remoteness=, tt_entries=,
    symmetry=, **options)`` solves ``position`` (default: the start)."""
    compile_seconds = warm_up()
    kernel = make_kernel(
        game, remoteness=remoteness, tt_entries=tt_entries, symmetry=symmetry, **options
    )
    return run_solve(
        kernel,
        game,
        position,
        compile_seconds=compile_seconds,
        principal_variation=principal_variation,
        max_seconds=max_seconds,
        progress=progress,
        symmetry=symmetry,
        move_values=move_values,
    )


def kernel_solver(
    name: str,
    body: Callable[..., SolveResult],
    doc: str,
    *,
    tt_entries: int = 1 << 22,
    **options: Any,
) -> KernelSolver:
    """A kernel's entry point ``name`` with the uniform signature of :mod:`solvers.kernels`
    (its table size by default ``tt_entries``) and the kernel's own ``options`` with their
    defaults, as :func:`inspect.signature` shows them: ``body(game, position, **every
    option, given or its default)`` solves; an option the signature does not name is a
    :class:`TypeError`."""

    def solve(game: Game[Any, Any], position: Any = None, **given: Any) -> SolveResult:
        unknown = sorted(set(given) - set(uniform.parameters))
        if unknown:
            raise TypeError(f"{name}() got an unexpected keyword argument {unknown[0]!r}")
        return body(game, position, **{**defaults, **given})

    common = list(inspect.signature(search_solve).parameters.values())[2:-1]
    own = [
        inspect.Parameter(option, inspect.Parameter.KEYWORD_ONLY, default=default)
        for option, default in options.items()
    ]
    uniform = inspect.Signature(
        [p.replace(default=tt_entries) if p.name == "tt_entries" else p for p in common] + own,
        return_annotation=SolveResult,
    )
    keyword = inspect.Parameter.KEYWORD_ONLY
    defaults = {p.name: p.default for p in uniform.parameters.values() if p.kind is keyword}
    solve.__signature__ = uniform  # type: ignore[attr-defined]
    solve.__name__ = solve.__qualname__ = name
    solve.__doc__ = doc
    return solve


def search_solver(
    name: str,
    make_kernel: Callable[..., CompiledKernel],
    warm_up: Callable[[], float],
    doc: str,
    *,
    tt_entries: int = 1 << 22,
    **options: Any,
) -> KernelSolver:
    """A search kernel's entry point ``name``: :func:`search_solve` with ``make_kernel`` and
    ``warm_up`` bound (:func:`kernel_solver`: the uniform signature, the table size by
    default ``tt_entries``, the kernel's own ``options``)."""
    body = functools.partial(search_solve, make_kernel, warm_up)
    return kernel_solver(name, body, doc, tt_entries=tt_entries, **options)


def compile_once(build: Callable[[], object]) -> Callable[[], float]:
    """A kernel module's ``warm_up``: ``build`` compiles (or loads from the disk cache)
    every compiled function the kernel uses, once per process; each call returns the
    seconds the first one took, so a solve reports its compile time apart."""
    seconds: list[float] = []

    def warm_up() -> float:
        if not seconds:
            started = time.perf_counter()
            build()
            seconds.append(time.perf_counter() - started)
        return seconds[0]

    warm_up.__doc__ = build.__doc__
    return warm_up


#: The uniform entry point of every kernel (see :data:`solvers.kernels.KERNELS`).
KernelSolver = Callable[..., SolveResult]
