"""The engine: one compiled exact search for every game with a plug-in.

A game's plug-in states its rules as compiled functions over a state of uint64 words
(docs/engine.md; :class:`solvers.playout.PlayoutRules`): ``generate``, ``final``, ``play`` and
``mover``, which the Monte-Carlo player runs on too, and optional hooks for the exact search
(``key`` with the game's symmetries, ``child_key``, ``order``, ``move_to_key``,
``move_from_key``). The search itself is :mod:`solvers.engine_search`, written once and
compiled per game by :func:`solvers.engine_build.specialise` (cached on disk). A game added in
one file with such a plug-in (``docs/connect_four.py``) gets ``cgt solve --solver compiled``,
the frontier and the explorer with no other file changed.

:class:`EngineKernel` is the Python side: the table and the stack, kept across solves (a
:class:`~solvers.kernel_base.CompiledKernel`: values, move values, principal variation,
budgets and progress), the search's options, and horizon passes (iterative deepening, value
mode of games without draws: passes with a growing ply bound, then one without, stopping at
the first that proves the root).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from cgt.errors import ParameterError
from cgt.protocol import Game, Outcome
from solvers.engine_build import specialise
from solvers.engine_dfpn import (
    C_DRAWS,
    C_FIRST_NUMBERS,
    C_WEAK,
    FIRST_NUMBERS,
    NUMBER_ROWS,
    S_DRAW_SEEN,
)
from solvers.engine_search import (
    C_ALTERNATING,
    C_BUCKET_MASK,
    C_CYCLIC,
    C_ETC,
    C_HISTORY,
    C_HORIZON,
    C_IDENTITY_WORDS,
    C_INDEX_SCALE,
    C_MAX_PLY,
    C_MOVE_CODES,
    C_ORDER,
    C_PREFETCH,
    C_REMOTENESS,
    CHILD_COLUMNS,
    FRAME_COLUMNS,
    HISTORY_DEPTH,
    HISTORY_OFF,
    HISTORY_SHARED,
    HISTORY_WORK,
    S_ETC_CUTOFFS,
    S_IMMEDIATE_WINS,
    S_ROOT_FLAGGED,
    S_SETTLED,
    control_length,
)
from solvers.kernel_base import CompiledKernel, search_solve
from solvers.kernel_table import MAX_MOVE, NO_NODE_LIMIT, S_ABORTED, S_NODE_LIMIT, new_table
from solvers.playout import PlayoutRules
from solvers.proof_numbers import PN_INFINITY
from solvers.result import SolveResult

#: Deepest search path (plies) by default.
DEFAULT_MAX_PLY = 512
#: Default table capacity (slots of 32 bytes).
DEFAULT_TT_ENTRIES = 1 << 21
#: The engine's ``history`` option: what a cut-off credits its move with.
HISTORY_CREDITS = {"off": HISTORY_OFF, "depth": HISTORY_DEPTH, "work": HISTORY_WORK}
#: The templates every game's searches are compiled from, by method.
TEMPLATES = {"alphabeta": "solvers.engine_search", "dfpn": "solvers.engine_dfpn"}
TEMPLATE = TEMPLATES["alphabeta"]
#: Search methods: negamax alpha-beta, or depth-first proof-number search (win/loss/draw
#: by proofs; acyclic games only).
METHODS = tuple(TEMPLATES)


class EngineKernel(CompiledKernel):
    """The engine on one game's plug-in: its table and stack, kept across solves.

    Options: ``ordering`` (the plug-in's ``order`` hints), ``history`` (what a cut-off
    credits its move with: ``depth``, the square of the bit length of the nodes it took, as
    depth squared in chess programs; ``work``, the nodes themselves; ``off``), ``etc``,
    ``prefetch`` (children's keys computed and their buckets prefetched while ordering; it
    lets a node skip the children their entries settle), ``deepening`` (value mode only:
    ``(first, step, last)`` horizons of the passes before the unbounded one; games without
    draws). What each gains is measured on the kernels' benchmark pages.

    ``method="dfpn"``: depth-first proof-number search (:mod:`solvers.engine_dfpn`) instead,
    value mode only, games whose positions cannot repeat; ``first_numbers`` (how a new
    child starts: "replies", "hint" or "unit"; default: the plug-in's
    ``extra["first_numbers"]``, else "hint" where it gives ``order``, else "replies") and
    ``weak`` (weak proof numbers; default: the plug-in's ``extra["weak_proof_numbers"]``,
    else False) are its options
    (benchmarks/DFPN.md)."""

    def __init__(
        self,
        rules: PlayoutRules,
        *,
        remoteness: bool = False,
        tt_entries: int = DEFAULT_TT_ENTRIES,
        max_ply: int = DEFAULT_MAX_PLY,
        ordering: bool = True,
        history: str = "depth",
        etc: bool = True,
        prefetch: bool = True,
        deepening: Sequence[int] | None = None,
        method: str = "alphabeta",
        first_numbers: str | None = None,
        weak: bool | None = None,
    ) -> None:
        game = rules.game
        if method not in TEMPLATES:
            raise ParameterError(f"unknown search method {method!r} ({'|'.join(METHODS)})")
        dfpn = method == "dfpn"
        if dfpn and remoteness:
            raise ParameterError("dfpn proves wins, losses and draws only: use remoteness=False")
        if dfpn and not game.acyclic:
            raise ParameterError(
                f"dfpn needs a game whose positions cannot repeat ({game.name}'s can): "
                "use method=alphabeta"
            )
        if first_numbers is None:  # the plug-in may say its hint is no reply count
            first_numbers = rules.extra.get("first_numbers") or (
                "hint" if rules.order is not None and ordering else "replies"
            )
        if first_numbers not in FIRST_NUMBERS:
            raise ParameterError(
                f"unknown first numbers {first_numbers!r} ({'|'.join(FIRST_NUMBERS)})"
            )
        if first_numbers == "hint" and (rules.order is None or not ordering):
            raise ParameterError(f"the plug-in of {game.name} gives no order hint")
        if not rules.compiled:
            raise ParameterError(f"{game.name} has no compiled plug-in for the engine")
        if rules.key is None and rules.words > 3:
            raise ParameterError(
                f"the plug-in of {game.name} keeps {rules.words} words a state and gives no key"
            )
        if deepening is not None and remoteness:
            raise ParameterError("deepening is for value mode; remoteness needs the full depth")
        move_codes = rules.move_codes or rules.max_moves
        if move_codes > MAX_MOVE:  # the table's move field keeps MAX_MOVE for "no move"
            raise ParameterError(f"move codes up to {move_codes}: the table keeps {MAX_MOVE}")
        self.rules = rules
        self.game = game
        self.remoteness = remoteness
        self.max_ply = max_ply
        self.deepening = tuple(deepening) if deepening is not None else None
        self.method = method
        self.search_module = specialise(TEMPLATES[method], rules.hooks())
        self.tt, self.capacity, bucket_mask = new_table(tt_entries)
        self.ctl = np.zeros(control_length(move_codes), dtype=np.int64)
        ctl = self.ctl
        ctl[C_REMOTENESS] = int(remoteness)
        ctl[C_BUCKET_MASK] = bucket_mask
        ctl[C_MAX_PLY] = max_ply
        if history not in HISTORY_CREDITS:
            raise ParameterError(
                f"history must be one of {', '.join(HISTORY_CREDITS)}, got {history!r}"
            )
        # an impartial game's players have the same moves: one set of counts serves both
        ctl[C_HISTORY] = HISTORY_CREDITS[history] | (HISTORY_SHARED if game.impartial else 0)
        # df-pn asks the plug-in's order only for its hints (and moves that win at once)
        ctl[C_ORDER] = int(ordering and (not dfpn or first_numbers == "hint"))
        ctl[C_FIRST_NUMBERS] = FIRST_NUMBERS.index(first_numbers)
        self.first_numbers = first_numbers
        if weak is None:  # the plug-in may declare that weak numbers search fewer nodes
            weak = bool(rules.extra.get("weak_proof_numbers", False))
        ctl[C_WEAK] = int(weak)
        self.weak = weak
        ctl[C_ETC] = int(etc)
        ctl[C_PREFETCH] = int(prefetch)
        ctl[C_CYCLIC] = int(not game.acyclic)
        ctl[C_ALTERNATING] = int(rules.alternating)
        ctl[C_IDENTITY_WORDS] = rules.identity_words or rules.words
        ctl[C_MOVE_CODES] = move_codes
        ctl[C_INDEX_SCALE] = 1 << max(1, (rules.max_moves - 1).bit_length())
        ctl[S_NODE_LIMIT] = NO_NODE_LIMIT
        rows = max_ply + 1
        # the path: what both methods use, then each method's own (one row for the other)
        alphabeta_rows, dfpn_rows = (1, rows) if dfpn else (rows, 1)
        self.states = np.zeros((rows, rules.words), dtype=np.uint64)
        self.move_stack = np.zeros((rows, rules.max_moves), dtype=np.int64)
        self.order_keys = np.zeros((rows, rules.max_moves), dtype=np.int64)
        self.children = np.zeros((alphabeta_rows, CHILD_COLUMNS * rules.max_moves), dtype=np.int64)
        self.frames = np.zeros((alphabeta_rows, FRAME_COLUMNS), dtype=np.int64)
        self.numbers = np.zeros((dfpn_rows, NUMBER_ROWS, rules.max_moves), dtype=np.int64)
        # the pass a budgeted search stopped in, to resume there: (root, horizon)
        self._pass: tuple[bytes, int] | None = None

    @property
    def approx_bytes(self) -> int:
        return int(self.tt.nbytes)

    def table_stats(self) -> dict[str, int]:
        stats = super().table_stats()
        stats["settled"] = self.stat(S_SETTLED)
        stats["etc_cutoffs"] = self.stat(S_ETC_CUTOFFS)
        stats["immediate_wins"] = self.stat(S_IMMEDIATE_WINS)
        return stats

    def check_position(self, position: Any) -> Any:
        return self.rules.encode(position)

    def _generated(self, position: Any) -> tuple[np.ndarray, np.ndarray, int]:
        state = self.rules.encode(position)
        buffer = np.zeros(self.rules.max_moves, dtype=np.int64)
        return state, buffer, int(self.rules.generate(state, self.rules.tables, buffer))

    def moves(self, position: Any) -> list[Any]:
        _, buffer, count = self._generated(position)
        return [self.rules.move_of(position, int(code)) for code in buffer[:count]]

    def terminal_outcome(self, position: Any) -> Outcome | None:
        state, _, count = self._generated(position)
        return None if count else Outcome(int(self.rules.final(state, self.rules.tables)))

    def _call(self, root: np.ndarray, alpha: int, beta: int, horizon: int) -> int:
        self.ctl[C_HORIZON] = horizon
        return int(
            self.search_module.search(
                root,
                self.rules.tables,
                alpha,
                beta,
                self.ctl,
                self.tt,
                self.states,
                self.move_stack,
                self.order_keys,
                self.children,
                self.frames,
            )
        )

    def _prove(self, root: np.ndarray, question: int) -> bool | None:
        """df-pn of ``question`` at ``root`` (solvers.engine_dfpn): proved, disproved, or
        None when the budget ran out. A draw met in a game searched without questions
        switches the kernel to questions for good, and the search runs again."""
        ctl = self.ctl
        ctl[S_DRAW_SEEN] = 0
        pn, _ = self.search_module.dfpn(
            root,
            question,
            PN_INFINITY,
            PN_INFINITY,
            0,
            self.rules.tables,
            ctl,
            self.tt,
            self.states,
            self.move_stack,
            self.order_keys,
            self.numbers,
        )
        if ctl[S_DRAW_SEEN]:
            ctl[S_DRAW_SEEN] = 0
            ctl[S_ABORTED] = 0
            ctl[C_DRAWS] = 1
            return self._prove(root, question)
        if ctl[S_ABORTED]:
            return None
        return bool(pn == 0)

    def _proof_value(self, root: np.ndarray) -> int:
        """The value of ``root`` by df-pn: 1 if its mover wins, else 0 if it does not lose
        (games that can draw), else -1; 0 with ``S_ABORTED`` when the budget ran out."""
        won = self._prove(root, 0)
        if won is None or won:
            return int(bool(won))
        if not self.ctl[C_DRAWS]:
            return -1
        holds = self._prove(root, 1)
        return 0 if holds is None or holds else -1

    def horizons(self, at_least: int = 0) -> Iterator[int]:
        """The passes' horizons from ``at_least`` on, 0 (none) last; one at a time, since a
        search stops at the first pass that proves its root (a bound may be large)."""
        if self.deepening is not None:
            first, step, last = self.deepening
            step = max(step, 1)
            if at_least > first:
                first += -(-(at_least - first) // step) * step  # the first pass not below it
            yield from range(first, last + 1, step)
        yield 0

    def _search(self, position: Any, alpha: int, beta: int) -> int:
        root = self.rules.encode(position)
        if self.method == "dfpn":
            return self._proof_value(root)
        if not self.remoteness:
            # scores are -1, 0 and 1: a window no wider than (-1, 1) loses nothing (a -1 at
            # or below it, a 1 at or above it, is exact) and lets a child's entry of -1 cut
            # its parent off by ETC, which the full window never does
            alpha, beta = max(alpha, -1), min(beta, 1)
        passes = self.horizons()
        if self._pass is not None and self._pass[0] == root.tobytes():  # resume that pass
            passes = iter([0]) if self._pass[1] == 0 else self.horizons(self._pass[1])
        self._pass = None
        value = 0
        for horizon in passes:
            value = self._call(root, alpha, beta, horizon)
            if self.ctl[S_ABORTED]:  # out of budget: the next call resumes this pass
                self._pass = (root.tobytes(), horizon)
                return 0
            if not self.ctl[S_ROOT_FLAGGED] or horizon == 0:
                return value
        return value


def solve_with_engine(
    rules: PlayoutRules,
    position: Any = None,
    *,
    tt_entries: int = DEFAULT_TT_ENTRIES,
    max_ply: int = DEFAULT_MAX_PLY,
    **options: Any,
) -> SolveResult:
    """Solve ``position`` (default: the start) of ``rules.game`` with the engine, with the
    options of every kernel's entry point (:mod:`solvers.kernels`) and the engine's own
    (:class:`EngineKernel`). ``symmetry`` is recorded: the plug-in's key decides it."""
    method = options.get("method", "alphabeta")

    def warm_up() -> float:  # the engine's copy for this plug-in, imported or compiled
        started = time.perf_counter()
        EngineKernel(rules, tt_entries=64, max_ply=max_ply, method=method)
        return time.perf_counter() - started

    def make_kernel(game: Any, *, symmetry: bool, **engine_options: Any) -> EngineKernel:
        return EngineKernel(rules, max_ply=max_ply, **engine_options)

    return search_solve(
        make_kernel, warm_up, rules.game, position, tt_entries=tt_entries, **options
    )


def engine_solver(playout: Any) -> Any:
    """A kernel entry point (the uniform signature of :mod:`solvers.kernels`) for a game
    whose plug-in gives its playout rules by ``playout(game)``."""

    def solve(game: Game[Any, Any], position: Any = None, **options: Any) -> SolveResult:
        return solve_with_engine(playout(game), position, **options)

    return solve
