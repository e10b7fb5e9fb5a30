"""Endgame databases of LAG by piece-count tiers: the engine's ranked retrograde
(:mod:`solvers.engine_sweep`) over LAG's rules, independent of the alpha-beta search.

Why tiers: LAG never repeats a position. A capture removes a piece, so it leads to a lower
*tier* ``(white pieces, black pieces)``; inside a tier every move is either forward (the sum
of both sides' advancement rises) or sideways with the mover's object count strictly falling
(advancement unchanged, the opponent's objects unchanged). So a tier's values depend only on
the tier itself and on the tiers one capture below it, and inside a tier the play graph has
no cycle. Tiers are solved lower tiers first, each by the engine's memoised depth-first pass
over its range of ranks, the tier's own array as the memo: every position is evaluated once,
from the values of all of its children (no pruning, nothing borrowed from the alpha-beta
search); a path longer than ``max_ply`` would mean a cycle and stops with an error. This
module gives the engine the tiers as a ranked space (:class:`solvers.sweep.RankedSpace`):
the rules (``ranked_generate``, ``ranked_final``; LAG's plug-in's ``play`` and ``mover``) and
the ranking (``ranked_rank``, ``ranked_unrank``).

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

Both run in the engine's compiled slices bounded by a node budget (:mod:`solvers.sweep`),
report progress between slices and can be interrupted (Ctrl-C) at any time: every record
written is final, so nothing is lost; a tier directory (:meth:`LagTiers.save`) keeps them
across processes.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from cgt.errors import CGTError, ParameterError, PositionError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.budget import check_max_seconds
from solvers.engine_sweep_defaults import OUTSIDE
from solvers.kernel_table import _U0, _U1, I64, U64
from solvers.kernels.lag import (
    CFG_GOAL,
    LagTables,
    _lag_child,
    count_objects,
    end_score,
    generate_moves,
    goal_score,
    playout_mover,
    playout_play,
)
from solvers.kernels.packed import PackedSummary, packed_solve_result
from solvers.kernels.tier_index import (
    binomial_table,
    colex_unrank,
    flip_table,
    locate,
    map_cells,
    next_combination,
)
from solvers.memory import require_memory
from solvers.result import MoveValue, SolveResult
from solvers.retrograde import follow_best_moves
from solvers.store import LOSS, OUTCOME_SHIFT, REMOTENESS_MASK, WIN
from solvers.sweep import OutsideSpaceError, RankedSpace, SweepEngine, ranked_rules

Tier = tuple[int, int]

#: Deepest path of the depth-first pass (plies). Every move raises the potential of
#: proofs/lag.py, so a path is far shorter on every board in reach; a longer one is a bug.
DEFAULT_MAX_PLY = 1024


class TierError(CGTError):
    """A tier directory or a tier request that cannot be used (the message says why)."""


@contextmanager
def _within_kept_tiers() -> Iterator[None]:
    """The engine's refusal to leave the ranked space, said in the tiers' terms."""
    try:
        yield
    except OutsideSpaceError:
        raise TierError(
            "a capture leads to a tier that is not kept: solve lower tiers first"
        ) from None


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


# ------------------------------------------------------------- the ranked plug-in
# LAG's rules (solvers.kernels.lag) over the tiers' ranking, for the engine's ranked
# retrograde (solvers.engine_sweep). A state is (white, black, side to move), a move code
# ``from * 64 + to``, as in LAG's playout plug-in, whose ``play`` and ``mover`` these are.
# ``tables``: (dest, nbr, far, cfg, the generator's order keys, binomials, offsets, colour
# flip, one row per kept tier (first index, w, b, positions), then the decoding's scratch).
R_GOAL = 0  # the kernel's goal code (goal, far-row check)
R_BROKEN = 1  # test hook: 1 flips the end-of-game score (a deliberately wrong rule)
R_LENGTH = 2


@njit(cache=True, inline="always")
def ranked_generate(state: np.ndarray, tables: Any, out: np.ndarray) -> I64:
    """The legal moves; none where a far-row goal ended the game."""
    dest, nbr, far, cfg, order = tables[0], tables[1], tables[2], tables[3], tables[4]
    side = np.int64(state[2])
    if goal_score(state[0], state[1], side, cfg[R_GOAL], far, nbr) != 0:
        return 0
    own = state[0] if side == 0 else state[1]
    opp = state[1] if side == 0 else state[0]
    return generate_moves(own, opp, side, count_objects(own, nbr), dest, nbr, out, order)


@njit(cache=True, inline="always")
def ranked_final(state: np.ndarray, tables: Any) -> I64:
    """The result of a finished position for the player to move (every end is a win or a
    loss)."""
    nbr, far, cfg = tables[1], tables[2], tables[3]
    side = np.int64(state[2])
    reached = goal_score(state[0], state[1], side, cfg[R_GOAL], far, nbr)
    if reached != 0:
        return reached
    own = state[0] if side == 0 else state[1]
    opp = state[1] if side == 0 else state[0]
    score = end_score(own, opp, cfg[R_GOAL], nbr)
    return -score if cfg[R_BROKEN] != 0 else score


ranked_play = playout_play
ranked_mover = playout_mover


@njit(cache=True, inline="always")
def ranked_rank(state: np.ndarray, tables: Any) -> I64:
    """The position's index in the flat array (its colour-swapped image's where its tier is
    kept swapped); OUTSIDE when its tier is not kept."""
    binom, offsets, flip_cell = tables[5], tables[6], tables[7]
    index, _ = locate(state[0], state[1], np.int64(state[2]), binom, offsets, flip_cell)
    return index if index >= 0 else np.int64(OUTSIDE)


@njit(cache=True, inline="always")
def ranked_child_rank(state: np.ndarray, code: I64, tables: Any, scratch: np.ndarray) -> I64:
    """The child's rank from the boards after the move (no state written)."""
    side = np.int64(state[2])
    white, black = _lag_child(state[0], state[1], side, code)
    index, _ = locate(white, black, 1 - side, tables[5], tables[6], tables[7])
    return index if index >= 0 else np.int64(OUTSIDE)


# the decoding cache (``tables[10]``): the last index decoded, its tier row, White's set,
# Black's rank and set among the free cells' places, Black's set on the board
U_INDEX, U_TIER, U_WHITE, U_BLACK_RANK, U_COMPRESSED, U_BLACK = range(6)
U_LENGTH = 6


@njit(cache=True, inline="always")
def _new_white(white: U64, cells: I64, free: np.ndarray) -> None:
    """The free cells left by ``white``, in increasing order."""
    n_free = 0
    for cell in range(cells):
        if (white >> np.uint64(cell)) & _U1 == _U0:
            free[n_free] = cell
            n_free += 1


#: Farthest step forward that :func:`ranked_unrank` takes by successors (a range skips the
#: positions its depth-first pass has solved) rather than decoding whole.
STEP_LIMIT = 64


@njit(cache=True, inline="always")
def ranked_unrank(index: I64, tables: Any, state: np.ndarray) -> None:
    """The position of ``index``, as its tier keeps it. A range is decoded in order, so an
    index a little after the last one decoded (``tables[10]``, with its free cells in
    ``tables[9]``) is reached by successors: the next Black set (Gosper's hack on the free
    cells' places), or the next White set; any other index is decoded whole."""
    binom, offsets, rows, free, last = tables[5], tables[6], tables[8], tables[9], tables[10]
    cells = offsets.shape[0] - 1
    tier = last[U_TIER]
    previous = last[U_INDEX]
    if (
        tier >= 0
        and previous <= index < rows[tier, 0] + rows[tier, 3]
        and index - previous <= STEP_LIMIT
    ):
        pair = (previous - rows[tier, 0]) >> 1
        target = (index - rows[tier, 0]) >> 1
        if pair < target:
            w = rows[tier, 1]
            b = rows[tier, 2]
            black_sets = binom[cells - w, b]
            compressed = np.uint64(last[U_COMPRESSED])
            black_rank = last[U_BLACK_RANK]
            while pair < target:
                if black_rank + 1 < black_sets:
                    compressed = next_combination(compressed)
                    black_rank += 1
                else:
                    white = next_combination(np.uint64(last[U_WHITE])) if w > 0 else _U0
                    _new_white(white, cells, free)
                    last[U_WHITE] = np.int64(white)
                    compressed = (_U1 << np.uint64(b)) - _U1
                    black_rank = 0
                pair += 1
            last[U_BLACK_RANK] = black_rank
            last[U_COMPRESSED] = np.int64(compressed)
            last[U_BLACK] = np.int64(map_cells(compressed, free))
    else:
        tier = 0
        while index >= rows[tier, 0] + rows[tier, 3]:
            tier += 1
        w = rows[tier, 1]
        b = rows[tier, 2]
        black_sets = binom[cells - w, b]
        pair = (index - rows[tier, 0]) >> 1
        white_rank = pair // black_sets
        white = colex_unrank(white_rank, w, cells, binom)
        _new_white(white, cells, free)
        black_rank = pair - white_rank * black_sets
        compressed = colex_unrank(black_rank, b, cells - w, binom)
        last[U_TIER] = tier
        last[U_WHITE] = np.int64(white)
        last[U_BLACK_RANK] = black_rank
        last[U_COMPRESSED] = np.int64(compressed)
        last[U_BLACK] = np.int64(map_cells(compressed, free))
    last[U_INDEX] = index
    state[0] = np.uint64(last[U_WHITE])
    state[1] = np.uint64(last[U_BLACK])
    state[2] = np.uint64((index - rows[last[U_TIER], 0]) & 1)


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
        self.complete: set[Tier] = set()
        self.tier_stats: dict[Tier, dict[str, Any]] = {}
        #: seconds per solved tier, by name (what :func:`packed_solve_result` reports)
        self.seconds: dict[str, float] = {}
        cfg = np.zeros(R_LENGTH, dtype=np.int64)
        cfg[R_GOAL] = rules.cfg[CFG_GOAL]
        cfg[R_BROKEN] = 1 if broken_end_score else 0
        tier_rows = np.array(
            [[self.offsets[w, b], w, b, tier_positions(cells, w, b)] for w, b in self.tiers]
            or [[0, 0, 0, 0]],
            dtype=np.int64,
        )
        plug = ranked_rules(
            game,
            sys.modules[__name__],
            words=3,
            max_moves=4 * cells,
            tables=(
                rules.dest,
                rules.nbr,
                rules.far,
                cfg,
                np.zeros(4 * cells, dtype=np.int64),
                self.binom,
                self.offsets,
                self.flip_cell,
                tier_rows,
                np.zeros(cells, dtype=np.int64),
                np.full(U_LENGTH, -1, dtype=np.int64),
            ),
            encode=rules.encode,
            code_of=lambda position, move: 64 * move[0] + move[1],
            move_of=lambda position, code: (code >> 6, code & 63),
            alternating=True,
            nrt=False,
        )
        #: the tiers as a ranked space of the engine's retrograde, and the engine on it
        self.space = RankedSpace(
            plug, total, ranked_rank, ranked_unrank, child_rank=ranked_child_rank
        )
        self.engine = SweepEngine(self.space, self.table, max_ply=max_ply)

    @property
    def deadline(self) -> float | None:
        """``time.perf_counter`` time after which a solve stops (None: no limit)."""
        return self.engine.deadline

    @deadline.setter
    def deadline(self, value: float | None) -> None:
        self.engine.deadline = value

    @property
    def _slice_nodes(self) -> int:
        return self.engine.slice_nodes

    @_slice_nodes.setter
    def _slice_nodes(self, value: int) -> None:
        self.engine.slice_nodes = value

    @property
    def started(self) -> float:
        return self.engine.started

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
        todo = self.tiers if tiers is None else self.kept(tiers)
        for tier in todo:
            if tier in self.complete:
                continue
            w, b = tier
            if self.offsets[w, b] < 0:
                raise TierError(f"tier {tier} is not kept")
            started = time.perf_counter()
            nodes_before = self.engine.nodes
            first = int(self.offsets[w, b])
            last = first + tier_positions(self.cells, w, b)
            event = {"phase": f"tier {w}+{b}", "tier": [w, b]}
            with _within_kept_tiers():
                self.engine.solve_range(first, last, progress=progress, event=event)
            self.complete.add(tier)
            self.tier_stats[tier] = self._statistics(tier, time.perf_counter() - started)
            self.tier_stats[tier]["evaluated"] = self.engine.nodes - nodes_before
            self.seconds[f"tier {w}+{b}"] = self.tier_stats[tier]["seconds"]
            if save_to is not None:
                self.save_tier(save_to, tier)
            if progress is not None:
                progress({"phase": f"tier {w}+{b} solved", **self.tier_stats[tier]})
        return {tier: self.tier_stats[tier] for tier in todo}

    def solve_from(self, position: Any, progress: Progress | None = None) -> tuple[Outcome, int]:
        """Solve every position reachable from ``position`` (each evaluated from all its
        children) and return its value."""
        self.index(position)  # its tier must be kept
        state = self.space.rules.encode(position)
        with _within_kept_tiers():
            self.engine.solve_root(state, progress)
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
    summary = PackedSummary(
        positions=tables.positions,
        bytes_used=tables.bytes,
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
    result = packed_solve_result(
        game,
        position,
        tables,
        summary,
        remoteness=remoteness,
        principal_variation=principal_variation,
        started=started,
        solve_seconds=time.perf_counter() - started,
    )
    result.solver = "tiers"
    return result


def ranked_space(game: Game[Any, Any]) -> RankedSpace:
    """The tiers below ``game``'s start as a ranked space of the engine's retrograde."""
    white, black, _side = game.initial_position()
    return LagTiers(game, tiers_below(white.bit_count(), black.bit_count())).space
