"""Endgame databases of LAG by piece-count tiers: a compiled retrograde, independent of the
alpha-beta kernel's search.

Why tiers: LAG never repeats a position. A capture removes a piece, so it leads to a lower
*tier* ``(white pieces, black pieces)``; inside a tier every move is either forward (the sum
of both sides' advancement rises) or sideways with the mover's object count strictly falling
(advancement unchanged, the opponent's objects unchanged). So a tier's values depend only on
the tier itself and on the tiers one capture below it, and inside a tier the play graph has
no cycle. Tiers are solved lower tiers first, each by a memoised depth-first pass over its
positions that uses the tier's own array as the memo: every position is evaluated once, from
the values of all of its children (no pruning, nothing borrowed from the alpha-beta search);
a path longer than ``max_ply`` would mean a cycle and stops with an error.

Ranking
-------
A tier's positions are ranked combinatorially (:mod:`solvers.kernels.tier_index`): ``(colex
rank of White's cells among all cells * C(cells - w, b) + colex rank of Black's cells among
the cells White leaves free) * 2 + side to move``. Every tier of a solve lives in one flat
uint16 array with an offset per ``(w, b)`` (-1: not kept), which is also what the
alpha-beta kernel probes (``LagKernel(..., tiers=...)``). By default only the tiers with
``w >= b`` are kept: a position of tier ``(w, b)`` with ``w < b`` is read as its image under
the colour symmetry (board upside down, colours and side to move swapped; same value), which
leaves about 61% of the size-3 space to solve and store.

Record (uint16, :mod:`solvers.store`'s layout)
----------------------------------------------
Bits 14-15: 0 not solved yet, :data:`~solvers.store.WIN` (1) or :data:`~solvers.store.LOSS`
(2) for the player to move; bits 0-13: the remoteness as :mod:`solvers.retrograde` and
:meth:`solvers.kernel_base.CompiledKernel.decode` define it: 0 at the end of the game; a
won position is one ply more than its *fastest* losing child, a lost one one ply more than
its *slowest* child. LAG has no draws: every game ends (proofs/lag.py), and every end is a
win for one side (the rules give the player who cannot move the win or the loss, never a
tie), so every record is a win or a loss.

The rules are the compiled kernel's (:mod:`solvers.kernels.lag`: ``goal_score``,
``generate_moves``, ``end_score``, the object count), which are tested move for move against
the readable module; every goal and far-row check works.

Two ways to fill the records:

* :meth:`LagTiers.solve_tiers`: every position of the named tiers (the endgame databases),
  lower tiers first; each tier's captures must land in tiers already solved.
* :meth:`LagTiers.solve_from`: only the positions reachable from one root, through every
  tier they pass (the memo is the same flat array; untouched pages of it are never
  allocated by the operating system). For a whole board it is *slower* than the full
  tiers (benchmarks/TUNING.md): the reachable positions are spread over the whole array,
  so nearly every page is touched anyway and the depth-first order defeats the cache,
  while a tier sweep reads its children close together. It serves small roots and the
  tests.

Both run in compiled slices bounded by a node budget, report progress between slices and
can be interrupted (Ctrl-C) at any time: every record written is final, so nothing is lost;
a tier directory (:meth:`LagTiers.save`) keeps them across processes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from cgt.errors import CGTError, ParameterError, PositionError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.budget import SearchBudgetExceeded, check_max_seconds
from solvers.kernel_table import _U0, _U1, I64, U64, compiled
from solvers.kernels.lag import (
    CFG_GOAL,
    LagTables,
    count_objects,
    end_score,
    generate_moves,
    goal_score,
    warm_up,
)
from solvers.kernels.packed import packed_solve_result
from solvers.kernels.tier_index import (
    binomial_table,
    colex_rank,
    flip_table,
    locate,
    map_cells,
    next_combination,
)
from solvers.memory import require_memory
from solvers.result import MoveValue, SolveResult
from solvers.retrograde import follow_best_moves
from solvers.store import LOSS, OUTCOME_SHIFT, REMOTENESS_MASK, WIN

Tier = tuple[int, int]

#: Deepest path of the depth-first pass (plies). Every move raises the potential of
#: proofs/lag.py, so a path is far shorter on every board in reach; a longer one is a bug.
DEFAULT_MAX_PLY = 1024
#: Target wall time of one compiled slice (progress and Ctrl-C granularity).
SLICE_SECONDS = 0.5
FIRST_SLICE_NODES = 1 << 16

# indices into the int64 control array
T_NODES = 0  # positions evaluated (records written)
T_NODE_LIMIT = 1
T_ABORTED = 2
T_OVERFLOW = 3
T_MISSING = 4  # a child's tier is not stored
T_MAX_PLY = 5
T_GOAL = 6
T_BROKEN = 7  # test hook: 1 flips the end-of-game score (a deliberately wrong rule)
T_CELLS = 8
CTL_LENGTH = 16

_WIN_RECORD = np.int64(WIN << OUTCOME_SHIFT)
_LOSS_RECORD = np.int64(LOSS << OUTCOME_SHIFT)


class TierError(CGTError):
    """A tier directory or a tier request that cannot be used (the message says why)."""


def tier_positions(cells: int, white: int, black: int) -> int:
    """Positions of tier ``(white, black)`` on a board of ``cells`` cells (both sides to
    move)."""
    if white < 0 or black < 0 or white + black > cells:
        return 0
    return comb(cells, white) * comb(cells - white, black) * 2


def tiers_up_to(total: int, max_white: int, max_black: int) -> list[Tier]:
    """Every tier with ``w + b <= total``, ``w <= max_white``, ``b <= max_black``, lower
    tiers first (a capture lowers ``w + b`` by one)."""
    return [
        (w, s - w)
        for s in range(total + 1)
        for w in range(s + 1)
        if w <= max_white and s - w <= max_black
    ]


def tiers_below(white: int, black: int) -> list[Tier]:
    """Every tier a position with ``white`` and ``black`` pieces can reach, lower first."""
    return tiers_up_to(white + black, white, black)


# ------------------------------------------------------------------------- compiled
@compiled
def solve_position(
    white: U64,
    black: U64,
    side: I64,
    index: I64,
    ply: I64,
    nbr: np.ndarray,
    dest: np.ndarray,
    far: np.ndarray,
    binom: np.ndarray,
    offsets: np.ndarray,
    flip_cell: np.ndarray,
    table: np.ndarray,
    moves: np.ndarray,
    order: np.ndarray,
    ctl: np.ndarray,
) -> I64:
    """Evaluate the position at ``index`` from all of its children (solving unsolved ones
    first), write its record and return it; -1 when the node budget, the ply limit or a
    missing tier stopped it (nothing is written on the stopped path)."""
    ctl[T_NODES] += 1
    if ctl[T_NODES] > ctl[T_NODE_LIMIT]:
        ctl[T_ABORTED] = 1
        return -1
    if ply > ctl[T_MAX_PLY]:
        ctl[T_MAX_PLY] = ply
    goal = ctl[T_GOAL]
    reached = goal_score(white, black, side, goal, far, nbr)
    if reached != 0:
        record = _WIN_RECORD if reached > 0 else _LOSS_RECORD
        table[index] = record
        return record
    if ply >= moves.shape[0] - 1:
        ctl[T_OVERFLOW] = 1
        return -1
    own = white if side == 0 else black
    opp = black if side == 0 else white
    k = count_objects(own, nbr)
    count = generate_moves(own, opp, side, k, dest, nbr, moves[ply], order[ply])
    if count == 0:
        score = end_score(own, opp, goal, nbr)
        if ctl[T_BROKEN] != 0:
            score = -score
        record = _WIN_RECORD if score > 0 else _LOSS_RECORD
        table[index] = record
        return record
    fastest_win = np.int64(REMOTENESS_MASK)
    slowest_loss = np.int64(-1)
    wins = False
    for i in range(count):
        m = moves[ply, i]
        source_bit = _U1 << np.uint64(m >> 6)
        target_bit = _U1 << np.uint64(m & 63)
        child_own = own ^ source_bit ^ target_bit
        child_opp = opp & ~target_bit
        if side == 0:
            child_white = child_own
            child_black = child_opp
        else:
            child_white = child_opp
            child_black = child_own
        child_index, flipped = locate(child_white, child_black, 1 - side, binom, offsets, flip_cell)
        if child_index < 0:
            ctl[T_MISSING] = 1
            return -1
        child = np.int64(table[child_index])
        if child == 0:
            # solve the child as it is kept: its colour-swapped image if flipped (the
            # recursive call gets exactly the entry's argument types, see solve_tier_slice)
            if flipped:
                child_white, child_black = (
                    map_cells(child_black, flip_cell),
                    map_cells(child_white, flip_cell),
                )
                child_side = side
            else:
                child_side = 1 - side
            child = solve_position(
                child_white,
                child_black,
                child_side,
                child_index,
                ply + 1,
                nbr,
                dest,
                far,
                binom,
                offsets,
                flip_cell,
                table,
                moves,
                order,
                ctl,
            )
            if child < 0:
                return -1
        distance = child & REMOTENESS_MASK
        if child >> OUTCOME_SHIFT == LOSS:  # the opponent loses there: a win for us
            wins = True
            if distance < fastest_win:
                fastest_win = distance
        elif distance > slowest_loss:
            slowest_loss = distance
    if wins:
        record = _WIN_RECORD | (fastest_win + 1)
    else:
        record = _LOSS_RECORD | (slowest_loss + 1)
    table[index] = record
    return record


@compiled
def solve_tier_slice(
    w: I64,
    b: I64,
    white: U64,
    nbr: np.ndarray,
    dest: np.ndarray,
    far: np.ndarray,
    binom: np.ndarray,
    offsets: np.ndarray,
    flip_cell: np.ndarray,
    table: np.ndarray,
    moves: np.ndarray,
    order: np.ndarray,
    ctl: np.ndarray,
    free: np.ndarray,
) -> U64:
    """Solve the positions of tier ``(w, b)`` whose White set is ``white`` or later in colex
    order, until the node budget runs out; return the White set to resume from (the
    records already solved are skipped on resuming), or 0 when the tier is done. ``free``
    is scratch space of ``cells`` int64s (the kernels allocate nothing)."""
    cells = offsets.shape[0] - 1
    end = _U1 << np.uint64(cells)
    white_sets = binom[cells, w]
    black_sets = binom[cells - w, b]
    base = offsets[w, b]
    # the rank of the first White set, then +1 per set (colex order is integer order)
    white_rank = colex_rank(white, binom)
    while white_rank < white_sets:
        n_free = 0
        for cell in range(cells):
            if (white >> np.uint64(cell)) & _U1 == _U0:
                free[n_free] = cell
                n_free += 1
        compressed = (_U1 << np.uint64(b)) - _U1
        for black_rank in range(black_sets):
            black = map_cells(compressed, free)
            index = base + (white_rank * black_sets + black_rank) * 2
            for side in range(2):
                # the entry of the recursive solve_position gets exactly the types of its
                # recursive call (int64 side and ply): a cast recursive call crashes when
                # loaded from numba's disk cache (numba issue #6713)
                if table[index + side] == 0 and (
                    solve_position(
                        white,
                        black,
                        side,
                        index + side,
                        np.int64(0),
                        nbr,
                        dest,
                        far,
                        binom,
                        offsets,
                        flip_cell,
                        table,
                        moves,
                        order,
                        ctl,
                    )
                    < 0
                ):
                    return white
            if b > 0:
                compressed = next_combination(compressed)
        white_rank += 1
        if w == 0:
            break
        white = next_combination(white)
        if white >= end:
            break
    return _U0


# --------------------------------------------------------------------- Python side
class LagTiers:
    """The tier arrays of one LAG game (board size and goal) and the compiled solve.

    ``tiers``: the tiers kept (each a ``(white pieces, black pieces)`` pair); a position is
    answered when its tier is kept and solved (or, after :meth:`solve_from`, reached).
    """

    def __init__(
        self,
        game: Game[Any, Any],
        tiers: Iterable[Tier],
        *,
        max_ply: int = DEFAULT_MAX_PLY,
        broken_end_score: bool = False,
        colour_symmetry: bool = True,
    ) -> None:
        if game.name != "lag":
            raise ParameterError(f"LAG tier tables cannot solve {game.name!r}")
        self.game = game
        rules = LagTables(game, symmetry_pieces=-1)  # the compiled rules' board tables
        self.nbr, self.dest, self.far = rules.nbr, rules.dest, rules.far
        self.cells = cells = int(game.board.size)  # type: ignore[attr-defined]
        board = game.board  # type: ignore[attr-defined]
        #: image of every cell when the board is turned upside down (empty: every tier is
        #: kept as it is)
        self.flip_cell = flip_table(board.rows) if colour_symmetry else np.zeros(0, np.int64)
        self.tiers: list[Tier] = self.kept(tiers)
        for w, b in self.tiers:
            if w < 0 or b < 0 or w + b > cells:
                raise ParameterError(f"tier ({w}, {b}) does not fit a board of {cells} cells")
        self.binom = binomial_table()
        self.offsets = np.full((cells + 1, cells + 1), -1, dtype=np.int64)
        total = 0
        for w, b in self.tiers:
            self.offsets[w, b] = total
            total += tier_positions(cells, w, b)
        self.positions = total
        require_memory(2 * total, f"LAG tier tables of {total:,} positions", "ask fewer tiers")
        # np.zeros maps untouched pages lazily: a solve from one root pays only for what
        # it reaches
        self.table = np.zeros(max(total, 1), dtype=np.uint16)
        self.ctl = np.zeros(CTL_LENGTH, dtype=np.int64)
        self.ctl[T_GOAL] = rules.cfg[CFG_GOAL]  # the kernel's goal code (goal, far-row check)
        self.ctl[T_BROKEN] = 1 if broken_end_score else 0
        self.ctl[T_CELLS] = cells
        self.moves = np.zeros((max_ply + 1, 4 * cells), dtype=np.int64)
        self.order = np.zeros((max_ply + 1, 4 * cells), dtype=np.int64)
        self.free_cells = np.zeros(cells, dtype=np.int64)  # scratch of solve_tier_slice
        self.complete: set[Tier] = set()
        self.tier_stats: dict[Tier, dict[str, Any]] = {}
        #: seconds per solved tier, by name (what :func:`packed_solve_result` reports)
        self.seconds: dict[str, float] = {}
        self._slice_nodes = FIRST_SLICE_NODES
        self.started = time.perf_counter()
        #: perf_counter time after which a solve stops (None: no limit)
        self.deadline: float | None = None

    # ---------------------------------------------------------------- lookups
    def kept(self, tiers: Iterable[Tier]) -> list[Tier]:
        """The tiers that hold ``tiers``' positions (with colour symmetry, ``(w, b)`` is
        kept as ``(b, w)`` when ``w < b``), lower tiers first."""
        flip = self.flip_cell.size > 0
        chosen = {(max(w, b), min(w, b)) if flip else (w, b) for w, b in tiers}
        return sorted(chosen, key=lambda t: (t[0] + t[1], t[0]))

    def tier_slice(self, tier: Tier) -> np.ndarray:
        """The records of one tier (a view of the flat array)."""
        w, b = tier
        base = int(self.offsets[w, b])
        if base < 0:
            raise TierError(f"tier {tier} is not kept")
        return self.table[base : base + tier_positions(self.cells, w, b)]

    def index(self, position: Any) -> int:
        """Index of ``position`` in the flat array; :class:`PositionError` if its tier is not
        kept."""
        white, black, side = position
        index, _ = locate(
            np.uint64(white),
            np.uint64(black),
            np.int64(side),
            self.binom,
            self.offsets,
            self.flip_cell,
        )
        if index < 0:
            raise PositionError(
                f"lag: no tier ({white.bit_count()}, {black.bit_count()}) in these tables"
            )
        return int(index)

    def colour_swapped(self, position: Any) -> tuple[int, int, int]:
        """``position`` turned upside down with the colours and the side to move swapped
        (the same value)."""
        white, black, side = position
        flip = self.flip_cell
        return (
            sum(1 << int(flip[c]) for c in range(self.cells) if black >> c & 1),
            sum(1 << int(flip[c]) for c in range(self.cells) if white >> c & 1),
            1 - side,
        )

    def record(self, position: Any) -> int:
        """The record of ``position`` (0: not solved). After :meth:`solve_from` a position
        of a tier with as many White as Black pieces may be solved only as its colour-swapped
        image, which is read then."""
        record = int(self.table[self.index(position)])
        if record == 0 and self.flip_cell.size:
            record = int(self.table[self.index(self.colour_swapped(position))])
        return record

    def value(self, position: Any) -> tuple[Outcome, int]:
        """Outcome for the player to move and remoteness of a solved ``position``."""
        record = self.record(position)
        if record == 0:
            raise PositionError(f"lag: position {self.game.render(position)!r} is not solved")
        outcome = Outcome.WIN if record >> OUTCOME_SHIFT == WIN else Outcome.LOSS
        return outcome, record & REMOTENESS_MASK

    value_of = value

    def move_values(self, position: Any) -> list[MoveValue]:
        """Every legal move of ``position`` (readable rules) with its value for the mover."""
        game = self.game
        if game.result(position) is not None:
            return []
        values = []
        for move in game.moves(position):
            outcome, distance = self.value(game.play(position, move))
            values.append(MoveValue(move, game.move_name(position, move), -outcome, distance + 1))
        return values

    def principal_variation(self, position: Any, max_length: int = 200) -> list[str]:
        """One perfect line: the winner's fastest win against the loser's slowest loss."""
        return follow_best_moves(
            self.game, position, self.game.key, self.value, self.move_values, max_length
        )

    # ---------------------------------------------------------------- solving
    def _run(self, call: Any, progress: Progress | None, event: dict[str, Any]) -> None:
        """Run ``call()`` (one compiled slice, returning whether the work is done) until it
        finishes, in node-budget slices sized from the measured speed; between slices report
        progress and check the deadline (:class:`SearchBudgetExceeded`)."""
        started = time.perf_counter()
        while True:
            self.ctl[T_ABORTED] = 0
            nodes_before = int(self.ctl[T_NODES])
            self.ctl[T_NODE_LIMIT] = nodes_before + self._slice_nodes
            slice_started = time.perf_counter()
            done = call()
            if self.ctl[T_OVERFLOW]:
                raise ParameterError(
                    f"a LAG path longer than {self.moves.shape[0] - 1} plies; raise max_ply"
                )
            if self.ctl[T_MISSING]:
                raise TierError(
                    "a capture leads to a tier that is not kept: solve lower tiers first"
                )
            if done:
                return
            seconds = max(time.perf_counter() - slice_started, 1e-6)
            rate = (int(self.ctl[T_NODES]) - nodes_before) / seconds
            self._slice_nodes = int(min(max(rate * SLICE_SECONDS, 1 << 12), 1 << 28))
            if progress is not None:
                progress(
                    {
                        **event,
                        "positions": int(self.ctl[T_NODES]),
                        "seconds": round(time.perf_counter() - started, 3),
                    }
                )
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise SearchBudgetExceeded(
                    int(self.ctl[T_NODES]), time.perf_counter() - self.started, unit="positions"
                )

    def solve_tiers(
        self,
        tiers: Sequence[Tier] | None = None,
        progress: Progress | None = None,
        save_to: Path | None = None,
    ) -> dict[Tier, dict[str, Any]]:
        """Solve every position of ``tiers`` (default: all kept tiers), lower tiers first;
        return each tier's statistics (positions, wins, losses, largest remoteness,
        seconds). A capture must lead to a kept tier. ``save_to``: a tier directory where
        each tier is written as soon as it is solved (:meth:`save_tier`), so a stopped solve
        keeps every tier it finished."""
        warm_up()
        todo = self.tiers if tiers is None else self.kept(tiers)
        for tier in todo:
            if tier in self.complete:
                continue
            w, b = tier
            if self.offsets[w, b] < 0:
                raise TierError(f"tier {tier} is not kept")
            started = time.perf_counter()
            nodes_before = int(self.ctl[T_NODES])
            state = {"white": np.uint64((1 << w) - 1)}

            def call(w: int = w, b: int = b, state: dict[str, Any] = state) -> bool:
                resume = solve_tier_slice(
                    w,
                    b,
                    state["white"],
                    self.nbr,
                    self.dest,
                    self.far,
                    self.binom,
                    self.offsets,
                    self.flip_cell,
                    self.table,
                    self.moves,
                    self.order,
                    self.ctl,
                    self.free_cells,
                )
                state["white"] = np.uint64(resume)  # numba returns a Python int
                return not self.ctl[T_ABORTED]

            self._run(call, progress, {"phase": f"tier {w}+{b}", "tier": [w, b]})
            self.complete.add(tier)
            self.tier_stats[tier] = self._statistics(tier, time.perf_counter() - started)
            self.tier_stats[tier]["evaluated"] = int(self.ctl[T_NODES]) - nodes_before
            self.seconds[f"tier {w}+{b}"] = self.tier_stats[tier]["seconds"]
            if save_to is not None:
                self.save_tier(save_to, tier)
            if progress is not None:
                progress({"phase": f"tier {w}+{b} solved", **self.tier_stats[tier]})
        return {tier: self.tier_stats[tier] for tier in todo}

    def solve_from(self, position: Any, progress: Progress | None = None) -> tuple[Outcome, int]:
        """Solve every position reachable from ``position`` (each evaluated from all its
        children) and return its value."""
        warm_up()
        index = self.index(position)
        white, black, side = position
        if self.offsets[white.bit_count(), black.bit_count()] < 0:  # kept colour-swapped
            white, black, side = self.colour_swapped(position)

        def call() -> bool:
            record = solve_position(
                np.uint64(white),
                np.uint64(black),
                np.int64(side),
                np.int64(index),
                np.int64(0),
                self.nbr,
                self.dest,
                self.far,
                self.binom,
                self.offsets,
                self.flip_cell,
                self.table,
                self.moves,
                self.order,
                self.ctl,
            )
            return bool(record >= 0)

        if self.table[index] == 0:
            self._run(call, progress, {"phase": "solve from root"})
        return self.value(position)

    def _statistics(self, tier: Tier, seconds: float) -> dict[str, Any]:
        records = self.tier_slice(tier)
        outcomes = records >> OUTCOME_SHIFT
        distances = records & REMOTENESS_MASK
        return {
            "tier": list(tier),
            "positions": int(records.size),
            "wins": int(np.count_nonzero(outcomes == WIN)),
            "losses": int(np.count_nonzero(outcomes == LOSS)),
            "unsolved": int(np.count_nonzero(outcomes == 0)),
            "max_remoteness": int(distances.max()) if records.size else 0,
            "seconds": round(seconds, 3),
            "bytes": int(records.nbytes),
        }

    # ---------------------------------------------------------------- storage
    def meta(self) -> dict[str, Any]:
        return {
            "game": "lag",
            "params": dict(self.game.parameters),
            "cells": self.cells,
            "ranking": "colex(white) * C(cells - w, b) + colex(black among free cells), "
            "times 2 plus side to move",
            "record": "uint16: bits 14-15 outcome (1 win, 2 loss, 0 not solved), 0-13 remoteness",
        }

    def save(self, directory: Path) -> None:
        """Write every complete tier as ``w{w}b{b}.npy`` and a ``tiers.json`` manifest (the
        rules they were solved under and each tier's statistics), so that
        :meth:`load` can take them up in another process."""
        for tier in sorted(self.complete):
            self.save_tier(directory, tier)

    def save_tier(self, directory: Path, tier: Tier) -> None:
        """Write one complete tier and the manifest of every complete tier. The manifest is
        written last and replaced in one step, so a run stopped at any moment leaves a
        directory whose manifest lists only tiers whose files are whole."""
        check_tier_directory(directory)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            w, b = tier
            np.save(directory / f"w{w}b{b}.npy", self.tier_slice(tier))
            listed = set(self.complete)
            manifest_path = directory / "tiers.json"
            stats: dict[str, Any] = {}
            if manifest_path.exists():  # keep the tiers of earlier runs this one does not hold
                earlier = read_manifest(directory)
                if earlier.get("params") != dict(self.game.parameters):
                    raise TierError(
                        f"{manifest_path} holds tiers of {earlier.get('params')}, not "
                        f"{dict(self.game.parameters)}: use another directory"
                    )
                stats.update(earlier["tiers"])
            for w2, b2 in sorted(listed):
                stats[f"{w2},{b2}"] = self.tier_stats.get((w2, b2), {})
            manifest = {**self.meta(), "tiers": dict(sorted(stats.items()))}
            temporary = directory / "tiers.json.tmp"
            temporary.write_text(json.dumps(manifest, indent=1) + "\n")
            temporary.replace(manifest_path)
        except (OSError, ValueError) as exc:
            raise TierError(f"cannot write LAG tier tables to {directory}: {exc}") from None

    def load(self, directory: Path) -> list[Tier]:
        """Take up the complete tiers of ``directory`` that these tables keep; the rules must
        be the same. Returns the tiers loaded."""
        manifest = read_manifest(directory)
        if manifest.get("params") != dict(self.game.parameters):
            raise TierError(
                f"{directory / 'tiers.json'} holds tiers of {manifest.get('params')}, not "
                f"{dict(self.game.parameters)}"
            )
        loaded = []
        for key, stats in manifest.get("tiers", {}).items():
            tier = tuple(int(x) for x in key.split(","))
            if len(tier) != 2 or self.offsets[tier[0], tier[1]] < 0:
                continue
            w, b = tier
            try:
                records = np.load(directory / f"w{w}b{b}.npy")
            except (OSError, ValueError) as exc:
                raise TierError(f"cannot read tier {w}+{b} in {directory}: {exc}") from None
            if records.shape != (tier_positions(self.cells, w, b),) or records.dtype != np.uint16:
                raise TierError(f"{directory}/w{w}b{b}.npy has the wrong shape or type")
            self.tier_slice((w, b))[:] = records
            self.complete.add((w, b))
            self.tier_stats[(w, b)] = stats
            loaded.append((w, b))
        return loaded

    @property
    def bytes(self) -> int:
        return int(self.table.nbytes)


def check_tier_directory(directory: Path) -> None:
    """A tier directory must be a directory (or not exist yet): say so in one line."""
    if directory.exists() and not directory.is_dir():
        raise TierError(f"{directory} is not a directory (LAG tier tables are a directory)")


def read_manifest(directory: Path) -> dict[str, Any]:
    """The ``tiers.json`` manifest of a tier directory."""
    check_tier_directory(directory)
    manifest_path = directory / "tiers.json"
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, ValueError) as exc:
        raise TierError(f"cannot read {manifest_path}: {exc}") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("tiers"), dict):
        raise TierError(f"{manifest_path} is not a manifest of LAG tier tables")
    return manifest


def load_tier_tables(game: Game[Any, Any], directory: Path) -> LagTiers:
    """The complete tiers of ``directory`` as tables to probe from the search
    (``LagKernel(..., tiers=)``); the rules must be those of ``game``."""
    manifest = read_manifest(directory)
    try:
        tiers = [(int(w), int(b)) for w, b in (key.split(",") for key in manifest["tiers"])]
    except ValueError:
        raise TierError(f"{directory / 'tiers.json'} lists a tier that is not w,b") from None
    tables = LagTiers(game, tiers)
    tables.load(directory)
    return tables


def solve_tiers(
    game: Game[Any, Any],
    position: Any = None,
    *,
    remoteness: bool = True,
    principal_variation: bool = True,
    max_seconds: float | None = None,
    progress: Progress | None = None,
    tier_dir: Path | None = None,
    **_search_options: Any,
) -> SolveResult:
    """Solve ``position`` (default: the start) by solving every tier at or below its piece
    counts in full: the endgame databases, then the answer read off them (the root's value,
    every root move's value, a perfect line). Remoteness is always computed;
    ``remoteness=False`` only leaves it out of the result. Search options of the kernels
    (``tt_entries``, ``symmetry``) do not apply and are ignored.

    ``tier_dir``: a tier directory. The tiers already there (solved under the same rules)
    are taken up instead of solved, and each tier solved is written there at once, so a
    solve stopped by ``max_seconds`` or Ctrl-C resumes from its finished tiers."""
    check_max_seconds(max_seconds)
    if position is None:
        position = game.initial_position()
    started = time.perf_counter()
    white, black, _side = position
    tables = LagTiers(game, tiers_below(white.bit_count(), black.bit_count()))
    loaded: list[Tier] = []
    if tier_dir is not None:
        check_tier_directory(tier_dir)
        if (tier_dir / "tiers.json").exists():
            loaded = tables.load(tier_dir)
    if max_seconds is not None:
        tables.deadline = started + max_seconds
    tables.solve_tiers(progress=progress, save_to=tier_dir)
    result = packed_solve_result(
        game,
        position,
        tables,
        remoteness=remoteness,
        principal_variation=principal_variation,
        positions=tables.positions,
        bytes_used=tables.bytes,
        started=started,
        solve_seconds=time.perf_counter() - started,
        extra={
            "method": "tier retrograde (solvers.kernels.lag_tiers)",
            "tiers": len(tables.tiers),
            "tiers_loaded": len(loaded),
            **({"tier_dir": str(tier_dir)} if tier_dir is not None else {}),
            "positions_per_tier": {
                f"{w}+{b}": s["positions"] for (w, b), s in tables.tier_stats.items()
            },
        },
    )
    result.solver = "tiers"
    return result
