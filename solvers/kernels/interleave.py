"""Compiled retrograde analysis of Interleave (cgt.games.interleave) over a perfectly ranked,
packed position space: one sweep of the engine's ranked retrograde (:mod:`solvers.engine_sweep`),
no queue, no key ever stored. This module gives the engine the rules and the ranking
(``ranked_*``, :meth:`InterleaveSpace.ranked_space`).

Why a sweep suffices: stones are only ever added. With the cells of the space ranked as
base-3 digits (0 empty, 1 red, 2 black), placing a stone on the cell of digit ``j`` adds
``3^j`` (Red) or ``2 * 3^j`` (Black) to the rank, so every placement strictly increases the
rank, and one pass from the highest rank down meets every child before its parent. Within a
placement the turn-model state is a few extra values: under ``turns=pass`` the side to move
and whether the last move was a pass (a pass from ``(s, 0)`` leads to ``(1 - s, 1)`` of the
same placement, a pass from ``(s, 1)`` ends the game); the pass-just-made states are
transient (kept nowhere, evaluated from their children when met), so the sweep still meets
every stored child before its parent.

Rules
-----
A second, independent statement of the rules on uint64 bitboards (cell numbering of
:class:`cgt.boards.hexhex.HexBoard`): an empty cell is seen by the first stone on each of its
six rays; a colour may take it when strictly more opponent than own stones see it.
``win=stones``: Red leads with at least as many stones as Black; ``win=groups``: the group
sizes of each colour compared by the cascade, here as size histograms read from the largest
size down (the first size where the counts differ decides; equal histograms tie, and ties go
to Red). ``turns=pass``: moves are the pass, then the open cells in increasing order (the
order of :meth:`Interleave.moves`); two passes in a row end the game, the leader wins.
``turns=loser``: the colour that is behind (Black on a tie) moves, and loses when no cell is
open to it; a player may move twice in a row. Tests compare both statements move for move on
random positions.

Space and ranking
-----------------
A space is fixed by the stones every one of its positions contains (the root's, or none for
the sweep over every setup) and its free cells ``f_0 < f_1 < ...`` (the others): a placement
on the free cells has rank ``sum digit(f_j) 3^j``. Decoding a rank is two table look-ups
(the low and the high digits). ``value`` (uint8) holds per rank and stored state:
0 (not reached), 1 (marked, not yet solved), or ``2 + 2 r`` (the player to
move wins in ``r`` plies) / ``3 + 2 r`` (loses in ``r``). Under ``turns=pass`` only the two
states without a pending pass are stored (``2 * rank + side``); the pass-just-made states are
recomputed from the children when asked for. Under ``turns=loser`` one byte per rank, whose
bit 7 is the side to move (a child's mover tells whether the turn changed hands).

Solving a root: the engine's forward pass in increasing rank marks the stored states
reachable from it (through the transient ones), then the backward sweep solves the marked
ones. The sweep over every setup (:func:`solve_every_setup`) solves every rank without
marking.

Remoteness is exact in the convention of :mod:`solvers.retrograde`: a won position is one ply
more than its fastest winning child, a lost one one ply more than its slowest child. The
graph has no cycles and no draws (every game ends: a placement fills a cell, two passes end
it), so the values are exactly those of the level-by-level retrograde.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros  # LLVM ctlz intrinsic

import solvers.store as store
from cgt.errors import CGTError, ParameterError, PositionError, unpack_position
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.engine_sweep_defaults import TRANSIENT
from solvers.kernel_base import SearchBudgetExceeded, check_max_seconds, compile_once
from solvers.kernel_table import I64, U64, compiled, no_wrap, popcount
from solvers.kernel_table import cell_bit as _bit
from solvers.kernel_table import lowest_cell as _low
from solvers.kernels.packed import PackedSummary, packed_solver
from solvers.kernels.plugin import KernelPlugin
from solvers.memory import require_memory
from solvers.playout import PlayoutRules, plug_in
from solvers.result import MoveValue
from solvers.retrograde import follow_best_moves
from solvers.sweep import RankedSpace, SweepEngine, ranked_rules

#: First solved code: ``SOLVED_BASE + 2 r`` win in r plies, ``SOLVED_BASE + 2 r + 1`` loss.
SOLVED_BASE = 2
#: Bit of a ``turns=loser`` code that holds the side to move (1: Black).
MOVER_BIT = 128
#: Kernel move code of the pass (the game's PASS).
KERNEL_PASS = -1
#: Playout (and ranked plug-in) move code of the pass (turns=pass).
PLAYOUT_PASS = 64
#: Most cells a uint64 bitboard holds.
MAX_CELLS = 64

# indices into the configuration array ``cfg`` (int64)
C_CELLS = 0
C_FREE = 1
C_LOW_SIZE = 2
C_GROUPS = 3
C_LOSER = 4
C_FIXED_RED = 5
C_FIXED_BLACK = 6
CFG_LENGTH = 8

_U0 = np.uint64(0)
_U1 = np.uint64(1)


class SweepBudgetExceeded(SearchBudgetExceeded):
    """The packed sweep ran out of ``max_seconds`` (the kernels' budget error, counted in
    ranks swept rather than nodes searched)."""

    def __init__(self, ranks: int, seconds: float, phase: str) -> None:
        CGTError.__init__(
            self, f"no result within the time budget: {ranks:,} ranks {phase} in {seconds:.1f} s"
        )
        self.nodes = ranks
        self.seconds = seconds


# ------------------------------------------------------------------------------- rules
@compiled
def open_cells(red: U64, black: U64, full: U64, ray_mask: np.ndarray) -> tuple[U64, U64]:
    """(cells Red may take, cells Black may take): empty cells seen by strictly more
    opponent stones than own stones, a cell's seers being the first stone of each ray."""
    red_open = _U0
    black_open = _U0
    occupied = red | black
    empty = full & ~occupied
    while empty != _U0:
        cell = _low(empty)
        empty &= empty - _U1
        # the six rays are disjoint: their first stones are six cells at most, counted by
        # colour at the end; branch-free (the colours are data the predictor cannot guess)
        seers = _U0
        for d in (0, 4, 5):  # E, SW, SE: away to higher cell numbers, nearest lowest
            hits = occupied & ray_mask[cell, d]
            seers |= hits & (~hits + _U1)
        for d in (1, 2, 3):  # NE, NW, W: the nearest is the highest cell number
            hits = occupied & ray_mask[cell, d]
            top = np.uint64(63 - leading_zeros(hits | _U1))  # type: ignore[call-arg]
            seers |= (_U1 << top) & hits
        red_seers = popcount(red & seers)
        black_seers = popcount(black & seers)
        red_open |= np.uint64(black_seers > red_seers) << np.uint64(cell)
        black_open |= np.uint64(red_seers > black_seers) << np.uint64(cell)
    return red_open, black_open


@compiled
def _group_histogram(stones: U64, neighbours: np.ndarray, histogram: np.ndarray) -> None:
    """``histogram[s]`` = number of groups (edge-connected sets) of ``stones`` of size s."""
    for size in range(histogram.size):
        histogram[size] = 0
    remaining = stones
    while remaining != _U0:
        frontier = remaining & (~remaining + _U1)
        group = _U0
        while frontier != _U0:
            group |= frontier
            grown = _U0
            f = frontier
            while f != _U0:
                grown |= neighbours[_low(f)]
                f &= f - _U1
            frontier = grown & stones & ~group
        histogram[popcount(group)] += 1
        remaining &= ~group


@compiled
def _groups_leader(
    red: U64, black: U64, neighbours: np.ndarray, red_hist: np.ndarray, black_hist: np.ndarray
) -> I64:
    """:func:`leader` under ``win=groups``."""
    _group_histogram(red, neighbours, red_hist)
    _group_histogram(black, neighbours, black_hist)
    # the sorted size lists first differ at the largest size whose counts differ: the list
    # with more groups of that size is the larger (the other has a smaller group there, or
    # has run out of groups)
    for size in range(red_hist.size - 1, 0, -1):
        if red_hist[size] != black_hist[size]:
            return 0 if red_hist[size] > black_hist[size] else 1
    return 0


# inlined: under win=stones two popcounts cost less than the call
@njit(cache=True, inline="always")
def leader(
    red: U64,
    black: U64,
    groups: I64,
    neighbours: np.ndarray,
    red_hist: np.ndarray,
    black_hist: np.ndarray,
) -> I64:
    """The colour winning now (0 Red, 1 Black; Red on every tie)."""
    if groups == 0:
        return 0 if popcount(red) >= popcount(black) else 1
    return _groups_leader(red, black, neighbours, red_hist, black_hist)


# --------------------------------------------------------------------------- ranking
@njit(cache=True, inline="always")
def _decode(
    rank: I64,
    cfg: np.ndarray,
    low_red: np.ndarray,
    low_black: np.ndarray,
    high_red: np.ndarray,
    high_black: np.ndarray,
) -> tuple[U64, U64]:
    high = rank // cfg[C_LOW_SIZE]
    low = rank - high * cfg[C_LOW_SIZE]
    red = np.uint64(cfg[C_FIXED_RED]) | low_red[low] | high_red[high]
    black = np.uint64(cfg[C_FIXED_BLACK]) | low_black[low] | high_black[high]
    return red, black


# --------------------------------------------------------------- the ranked plug-in
# Interleave's rules over the space's ranking, for the engine's ranked retrograde
# (solvers.engine_sweep). A state is (red, black, player to move, passes just made, rank of
# the placement); under turns=loser the player to move is :data:`UNKNOWN_MOVER` until asked
# (the leader needs the groups), then read from the placement. A move code is the cell, or
# :data:`PLAYOUT_PASS`. ``tables``: (cfg, full, ray_mask, neighbours, the two group
# histograms, free_index, pow3, the four digit-block masks, then the scratch that keeps
# the open cells and the leader of the last placement asked).
UNKNOWN_MOVER = 2
W_MOVER, W_PASSES, W_RANK = 2, 3, 4
STATE_WORDS = 5


@njit(cache=True, inline="always")
def _open_of(red: U64, black: U64, tables: Any) -> tuple[U64, U64]:
    """``open_cells`` of a placement, kept for the next question about the same one (the
    four states of a placement, and its children's movers, ask in a row)."""
    memo = tables[12]
    if memo[0] != red or memo[1] != black:
        red_open, black_open = open_cells(red, black, tables[1][0], tables[2])
        memo[0] = red
        memo[1] = black
        memo[2] = red_open
        memo[3] = black_open
    return memo[2], memo[3]


@njit(cache=True, inline="always")
def _leader_of(red: U64, black: U64, tables: Any) -> I64:
    """``leader`` of a placement, kept likewise under win=groups (under win=stones the
    count costs less than the look-up)."""
    if tables[0][C_GROUPS] == 0:
        return 0 if popcount(red) >= popcount(black) else 1
    memo = tables[12]
    if memo[4] != red or memo[5] != black:
        lead = leader(red, black, tables[0][C_GROUPS], tables[3], tables[4], tables[5])
        memo[4] = red
        memo[5] = black
        memo[6] = np.uint64(lead)
    return np.int64(memo[6])


@njit(cache=True, inline="always")
def ranked_mover(state: np.ndarray, tables: Any) -> I64:
    if state[W_MOVER] != UNKNOWN_MOVER:
        return np.int64(state[W_MOVER])
    return 1 - _leader_of(state[0], state[1], tables)  # turns=loser: the one behind


@njit(cache=True, inline="always")
def ranked_generate(state: np.ndarray, tables: Any, out: np.ndarray) -> I64:
    count = 0
    if tables[0][C_LOSER] == 0:
        if state[W_PASSES] >= np.uint64(2):
            return 0  # two passes in a row end the game
        out[0] = PLAYOUT_PASS
        count = 1
    red_open, black_open = _open_of(state[0], state[1], tables)
    cells = red_open if ranked_mover(state, tables) == 0 else black_open
    while cells != _U0:
        out[count] = _low(cells)
        count += 1
        cells &= cells - _U1
    return count


@njit(cache=True, inline="always")
def ranked_final(state: np.ndarray, tables: Any) -> I64:
    if tables[0][C_LOSER] != 0:
        return -1  # the loser, to move, has no open cell
    return 1 if _leader_of(state[0], state[1], tables) == np.int64(state[W_MOVER]) else -1


@njit(cache=True, inline="always")
def ranked_play(state: np.ndarray, code: I64, tables: Any, child: np.ndarray) -> None:
    mover = ranked_mover(state, tables)
    for w in range(STATE_WORDS):
        child[w] = state[w]
    if code == PLAYOUT_PASS:
        child[W_MOVER] = np.uint64(1 - mover)
        child[W_PASSES] = state[W_PASSES] + _U1
        return
    child[mover] |= _bit(code)
    child[W_PASSES] = _U0
    child[W_RANK] = state[W_RANK] + np.uint64((mover + 1) * tables[7][tables[6][code]])
    child[W_MOVER] = np.uint64(UNKNOWN_MOVER if tables[0][C_LOSER] != 0 else 1 - mover)


@njit(cache=True, inline="always")
def ranked_rank(state: np.ndarray, tables: Any) -> I64:
    """``2 * rank + side to move`` under turns=pass (a state just after a pass is kept
    nowhere), the placement's rank under turns=loser."""
    if tables[0][C_LOSER] != 0:
        return np.int64(state[W_RANK])
    if state[W_PASSES] != _U0:
        return np.int64(TRANSIENT)
    return 2 * np.int64(state[W_RANK]) + np.int64(state[W_MOVER])


@njit(cache=True, inline="always")
def ranked_child_rank(state: np.ndarray, code: I64, tables: Any, scratch: np.ndarray) -> I64:
    """The rank of the child after ``code``, from the parent's: a placement adds its digit."""
    if code == PLAYOUT_PASS:
        return np.int64(TRANSIENT)
    mover = ranked_mover(state, tables)
    child = np.int64(state[W_RANK]) + (mover + 1) * tables[7][tables[6][code]]
    if tables[0][C_LOSER] != 0:
        return child
    return 2 * child + 1 - mover


@njit(cache=True, inline="always")
def ranked_children_key(state: np.ndarray, tables: Any) -> I64:
    """Under turns=pass a side's placements are the stored children both before and just
    after a pass (the pass, transient, comes first): ``2 * rank + side to move``; -1
    otherwise."""
    if tables[0][C_LOSER] != 0 or state[W_PASSES] >= np.uint64(2):
        return np.int64(-1)
    return 2 * np.int64(state[W_RANK]) + np.int64(state[W_MOVER])


# the scratch's words (``tables[12]``) that keep the last placement decoded
M_RANK, M_LOW, M_HIGH, M_RED, M_BLACK = 7, 8, 9, 10, 11
MEMO_WORDS = 12


@njit(cache=True, inline="always")
def _placement_of(rank: I64, tables: Any) -> tuple[U64, U64]:
    """``_decode`` along a sweep: the placement just decoded again (the other side to
    move), or the one below it by stepping its low and high digit blocks (no division)."""
    memo = tables[12]
    last = np.int64(memo[M_RANK])
    if rank == last:
        return memo[M_RED], memo[M_BLACK]
    cfg = tables[0]
    low = np.int64(memo[M_LOW]) - 1
    high = np.int64(memo[M_HIGH])
    if rank != last - 1 or last < 0:
        high = rank // cfg[C_LOW_SIZE]
        low = rank - high * cfg[C_LOW_SIZE]
    elif low < 0:
        low = cfg[C_LOW_SIZE] - 1
        high -= 1
    at_low, at_high = no_wrap(low), no_wrap(high)
    red = np.uint64(cfg[C_FIXED_RED]) | tables[8][at_low] | tables[10][at_high]
    black = np.uint64(cfg[C_FIXED_BLACK]) | tables[9][at_low] | tables[11][at_high]
    memo[M_RANK] = np.uint64(rank)
    memo[M_LOW] = np.uint64(low)
    memo[M_HIGH] = np.uint64(high)
    memo[M_RED] = red
    memo[M_BLACK] = black
    return red, black


@njit(cache=True, inline="always")
def ranked_unrank(index: I64, tables: Any, state: np.ndarray) -> None:
    loser = tables[0][C_LOSER] != 0
    rank = index if loser else index >> 1
    red, black = _placement_of(rank, tables)
    state[0] = red
    state[1] = black
    # the player to move now, not when asked: every child asks it again
    state[W_MOVER] = np.uint64(1 - _leader_of(red, black, tables) if loser else index & 1)
    state[W_PASSES] = _U0
    state[W_RANK] = np.uint64(rank)


@njit(cache=True, inline="always")
def ranked_record_of(result: I64, remoteness: I64, state: np.ndarray, tables: Any) -> I64:
    """The ``value`` code: ``SOLVED_BASE + 2 r`` won, ``+ 1`` lost (no draws), with the
    player to move in :data:`MOVER_BIT` under turns=loser."""
    code = SOLVED_BASE + 2 * remoteness + (1 if result < 0 else 0)
    if tables[0][C_LOSER] != 0:
        code |= MOVER_BIT * ranked_mover(state, tables)
    return code


@njit(cache=True, inline="always")
def ranked_record_value(record: I64) -> tuple[I64, I64]:
    return (np.int64(-1) if record & 1 else np.int64(1)), (record - SOLVED_BASE) >> 1


@njit(cache=True, inline="always")
def loser_record_value(record: I64) -> tuple[I64, I64]:
    return ranked_record_value(record & (MOVER_BIT - 1))


@njit(cache=True, inline="always")
def loser_record_mover(record: I64) -> I64:
    return record >> 7


@njit(cache=True)
def _count_with_bits(words: np.ndarray, mask: U64) -> I64:
    """How many of ``words`` have a bit of ``mask`` (a loop the compiler vectorises)."""
    count = 0
    for word in words:
        count += (np.uint64(word) & mask) != _U0
    return count


def reached_placements(value: np.ndarray, stride: int, first: int) -> int:
    """Placements from rank ``first`` on with a solved state: a placement's ``stride`` codes
    read as one word, solved when a code has a bit above bit 0 (codes 0 and 1 do not)."""
    words = value[stride * first :].view(np.uint16 if stride == 2 else np.uint8)
    return int(_count_with_bits(words, np.uint64(0xFEFE if stride == 2 else 0xFE)))


# --------------------------------------------------------------------- Python side
@cache
def _record_of_code(loser: bool) -> np.ndarray:
    """The :mod:`solvers.store` record of every ``value`` byte (under ``turns=loser`` its
    mover bit is not part of the code); unreached placements are not positions."""
    codes = np.arange(256)
    return store.win_loss_records(codes & (MOVER_BIT - 1) if loser else codes, SOLVED_BASE)


class InterleaveSpace:
    """The ranked space of one Interleave game (board, win condition, turn model) above a
    set of fixed stones: every placement on the other cells, its rule tables and, after a
    solve, the values."""

    def __init__(self, game: Game[Any, Any], fixed_red: int = 0, fixed_black: int = 0) -> None:
        if game.name != "interleave":
            raise ParameterError(f"the compiled Interleave kernel cannot solve {game.name!r}")
        board = game.board  # type: ignore[attr-defined]
        cells = board.size
        if cells > MAX_CELLS:
            raise ParameterError(
                f"the compiled Interleave kernel needs at most {MAX_CELLS} cells, got {cells}"
            )
        if fixed_red & fixed_black or (fixed_red | fixed_black) >> cells:
            raise PositionError("fixed stones must be disjoint cells of the board")
        self.game = game
        self.board = board
        self.cells = cells
        self.loser = game.turns == "loser"  # type: ignore[attr-defined]
        self.groups = game.win == "groups"  # type: ignore[attr-defined]
        self.fixed_red = fixed_red
        self.fixed_black = fixed_black
        fixed = fixed_red | fixed_black
        self.free_cells = [c for c in range(cells) if not fixed >> c & 1]
        self.free = len(self.free_cells)
        self.ranks = 3**self.free
        self.states_stored = 1 if self.loser else 2
        self.full = np.uint64((1 << cells) - 1)
        # each ray as a cell set; the nearest stone on it is its lowest cell for the
        # directions that go down the board or east, its highest otherwise
        self.ray_mask = np.zeros((cells, 6), dtype=np.uint64)
        for c in range(cells):
            for d, ray in enumerate(board.rays[c]):
                if ray and (ray[0] > c) != (d == 0 or d >= 4):
                    raise AssertionError("hexhex cell numbering is not row by row")
                self.ray_mask[c, d] = sum(1 << cell for cell in ray)
        self.neighbours = np.array(board.neighbour_mask, dtype=np.uint64)
        self.free_index = np.full(cells, -1, dtype=np.int64)
        for j, c in enumerate(self.free_cells):
            self.free_index[c] = j
        self.value: np.ndarray | None = None
        self._engine: SweepEngine | None = None
        self.seconds: dict[str, float] = {}
        self.stats: dict[str, Any] = {}
        self._red_hist = np.zeros(cells + 1, dtype=np.int64)
        self._black_hist = np.zeros(cells + 1, dtype=np.int64)
        self._tables_built = False

    # ---------------------------------------------------------------- sizes
    def bytes_needed(self) -> int:
        """Bytes of the value array (one byte per rank and stored state) and the decoding
        tables."""
        low_digits = self.free // 2
        tables = 16 * (3**low_digits + 3 ** (self.free - low_digits))
        return self.states_stored * self.ranks + tables

    def check_memory(self) -> None:
        """Refuse before allocating anything when the arrays cannot fit."""
        require_memory(
            self.bytes_needed(),
            f"packed Interleave sweep (3^{self.free} = {self.ranks:,} placements of the "
            f"free cells)",
            "solve a position with more stones on the board, or a smaller board",
        )

    def build_tables(self) -> None:
        """Masks of every low and high digit block (a rank decodes with two look-ups)."""
        if self._tables_built:
            return
        low_digits = self.free // 2
        self.pow3 = np.array([3**j for j in range(self.free)] or [1], dtype=np.int64)
        self.low_red, self.low_black = self._digit_masks(self.free_cells[:low_digits])
        self.high_red, self.high_black = self._digit_masks(self.free_cells[low_digits:])
        self.cfg = np.zeros(CFG_LENGTH, dtype=np.int64)
        self.cfg[C_CELLS] = self.cells
        self.cfg[C_FREE] = self.free
        self.cfg[C_LOW_SIZE] = 3**low_digits
        self.cfg[C_GROUPS] = int(self.groups)
        self.cfg[C_LOSER] = int(self.loser)
        self.cfg[C_FIXED_RED] = self.fixed_red
        self.cfg[C_FIXED_BLACK] = self.fixed_black
        self._tables_built = True

    @staticmethod
    def _digit_masks(cells: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """(red mask, black mask) of every base-3 number over ``cells`` (digit j: cells[j])."""
        red = np.zeros(1, dtype=np.uint64)
        black = np.zeros(1, dtype=np.uint64)
        for c in cells:  # digit j is the next most significant: the block repeats 3 times
            bit = np.uint64(1 << c)
            red = np.concatenate([red, red | bit, red])
            black = np.concatenate([black, black, black | bit])
        return red, black

    def _decode_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return (self.low_red, self.low_black, self.high_red, self.high_black)

    # ---------------------------------------------------------------- positions
    def check_position(self, position: Any) -> tuple[int, int, int, int]:
        """The position as ``(red, black, to_move, passes)``; :class:`PositionError` if it is
        not a position of this space."""
        red, black, mover, passes = unpack_position(
            position, 4, "an Interleave position is (red, black, to_move, passes)"
        )
        if not all(isinstance(v, int) for v in (red, black, mover, passes)):
            raise PositionError(f"an Interleave position holds four integers: {position!r}")
        if red < 0 or black < 0 or red & black or (red | black) >> self.cells:
            raise PositionError(f"not a placement on the {self.cells}-cell board: {position!r}")
        if mover not in (0, 1) or not 0 <= passes <= 2 or (self.loser and passes):
            raise PositionError(f"bad side to move or pass count: {position!r}")
        if red & self.fixed_red != self.fixed_red or black & self.fixed_black != self.fixed_black:
            raise PositionError("the position lacks stones of the solved space's root")
        if self.loser and mover != 1 - self.leader(red, black):
            raise PositionError("under turns=loser the losing player moves")
        return red, black, mover, passes

    def rank(self, red: int, black: int) -> int:
        """Rank of a placement of this space (it holds the fixed stones)."""
        rank = 0
        for j, c in enumerate(self.free_cells):
            if red >> c & 1:
                rank += 3**j
            elif black >> c & 1:
                rank += 2 * 3**j
        return rank

    def open_cells(self, red: int, black: int) -> tuple[int, int]:
        """(cells Red may take, cells Black may take) by the compiled rules."""
        red_open, black_open = open_cells(
            np.uint64(red), np.uint64(black), self.full, self.ray_mask
        )
        return int(red_open), int(black_open)

    def leader(self, red: int, black: int) -> int:
        """The colour winning now by the compiled rules (0 Red, 1 Black)."""
        return int(
            leader(
                np.uint64(red),
                np.uint64(black),
                int(self.groups),
                self.neighbours,
                self._red_hist,
                self._black_hist,
            )
        )

    def moves(self, position: Any) -> list[int]:
        """Legal moves by the compiled rules, in the order of :meth:`Interleave.moves`."""
        red, black, mover, passes = self.check_position(position)
        if passes >= 2:
            return []
        cells = self.open_cells(red, black)[mover]
        placements = [c for c in range(self.cells) if cells >> c & 1]
        return placements if self.loser else [KERNEL_PASS, *placements]

    def terminal_outcome(self, position: Any) -> Outcome | None:
        """The end-of-game result by the compiled rules (``None``: the game goes on)."""
        red, black, mover, passes = self.check_position(position)
        if self.loser:
            return None if self.open_cells(red, black)[mover] else Outcome.LOSS
        if passes < 2:
            return None
        return Outcome.WIN if self.leader(red, black) == mover else Outcome.LOSS

    # ---------------------------------------------------------------- solving
    def ranked_space(self) -> RankedSpace:
        """The space as the engine's ranked space (:mod:`solvers.sweep`): the plug-in above
        over the base-3 ranks, ``value`` codes as records. Every placement raises the rank,
        so a descending sweep meets every child solved."""
        self.build_tables()
        tables = (
            self.cfg,
            np.array([self.full], dtype=np.uint64),
            self.ray_mask,
            self.neighbours,
            self._red_hist,
            self._black_hist,
            self.free_index,
            self.pow3,
            *self._decode_args(),
            np.full(MEMO_WORDS, np.uint64(1 << 63), dtype=np.uint64),  # nothing asked yet
        )
        rules = ranked_rules(
            self.game,
            sys.modules[__name__],
            words=STATE_WORDS,
            max_moves=self.cells + 1,
            tables=tables,
            encode=self.encode,
            decode=self.decode,
            code_of=lambda position, move: PLAYOUT_PASS if move == KERNEL_PASS else move,
            move_of=lambda position, code: KERNEL_PASS if code == PLAYOUT_PASS else code,
            alternating=not self.loser,
            nrt=False,
        )
        return RankedSpace(
            rules,
            self.size,
            ranked_rank,
            ranked_unrank,
            record_of=ranked_record_of,
            record_value=loser_record_value if self.loser else ranked_record_value,
            record_mover=loser_record_mover if self.loser else None,
            child_rank=ranked_child_rank,
            children_key=ranked_children_key,
            record_dtype=np.uint8,
            rising=True,
        )

    def encode(self, position: Any) -> np.ndarray:
        """The ranked plug-in's state of a position of this space."""
        red, black, mover, passes = self.check_position(position)
        return np.array([red, black, mover, passes, self.rank(red, black)], dtype=np.uint64)

    def decode(self, state: np.ndarray) -> Any:
        from cgt.games.interleave import InterleavePosition

        red, black, mover = int(state[0]), int(state[1]), int(state[W_MOVER])
        if mover == UNKNOWN_MOVER:
            mover = 1 - self.leader(red, black)
        return InterleavePosition(red, black, mover, int(state[W_PASSES]))

    def solve(
        self,
        root: Any = None,
        *,
        progress: Progress | None = None,
        max_seconds: float | None = None,
    ) -> None:
        """Solve the placements reachable from ``root`` (a position of the space), or every
        placement when ``root`` is None: the engine's ranked retrograde, a descending
        sweep (after marking what the root reaches)."""
        check_max_seconds(max_seconds)
        self.check_memory()
        started = time.perf_counter()
        engine = SweepEngine(self.ranked_space(), np.zeros(self.size, dtype=np.uint8))
        self.value = engine.records
        self._engine = engine
        if max_seconds is not None:
            engine.deadline = started + max_seconds
        first = 0
        try:
            if root is not None:
                first = engine.mark_reached(self.encode(root), progress) // self.states_stored
                self._budget(max_seconds, started, self.ranks - first, "marked", progress)
                self.seconds["mark"] = time.perf_counter() - started
            phase = time.perf_counter()
            engine.solve_range(
                first * self.states_stored,
                self.size,
                only_marked=root is not None,
                progress=progress,
                event={"phase": "swept"},
            )
        except SearchBudgetExceeded as stopped:
            self.value = None
            raise SweepBudgetExceeded(
                stopped.nodes, time.perf_counter() - started, "swept"
            ) from None
        self._budget(max_seconds, started, self.ranks - first, "swept", progress)
        self.seconds["sweep"] = time.perf_counter() - phase
        reached = self.ranks
        if root is not None:
            reached = reached_placements(self.value, self.states_stored, first)
        self.stats = {"ranks": self.ranks, "placements_solved": reached, "reached": reached}

    def _budget(
        self,
        max_seconds: float | None,
        started: float,
        done: int,
        phase: str,
        progress: Progress | None,
    ) -> None:
        elapsed = time.perf_counter() - started
        if max_seconds is not None and elapsed > max_seconds:
            self.value = None
            raise SweepBudgetExceeded(done, elapsed, phase)
        if progress is not None:
            progress({"phase": phase, "ranks": done, "of": self.ranks})

    # ---------------------------------------------------------------- storing
    def ranking_meta(self) -> dict[str, Any]:
        """How indices are ranked, for :mod:`solvers.ranking` to index a stored solution
        without this module: the free cells (base-3 digits, least significant first), the
        fixed stones, and the stored states per placement (under ``turns=pass`` the two
        without a pending pass, ``2 * rank + side``; under ``turns=loser`` one, ``rank``)."""
        return {
            "scheme": "interleave",
            "cells": self.cells,
            "free_cells": list(self.free_cells),
            "fixed": [self.fixed_red, self.fixed_black],
            "states": self.states_stored,
        }

    def records(self, start: int, stop: int) -> np.ndarray:
        """Stored states ``start..stop-1`` in the record encoding of :mod:`solvers.store`
        (placements the solve did not reach are not positions)."""
        if self.value is None:
            raise ValueError("solve() first")
        return np.take(_record_of_code(self.loser), self.value[start:stop])

    @property
    def size(self) -> int:
        """Stored states of the space (the length of :attr:`value`)."""
        return self.states_stored * self.ranks

    def value_of(self, position: Any) -> tuple[Outcome, int]:
        """Outcome for the player to move and remoteness (no draws in Interleave); a state
        just after a pass, kept nowhere, is evaluated from its solved children."""
        if self.value is None:
            raise ValueError("solve() first")
        terminal = self.terminal_outcome(position)
        if terminal is not None:
            return terminal, 0
        engine = self._engine
        assert engine is not None
        state = self.encode(position)
        index = engine.space.rank_of(state)
        if index == TRANSIENT:
            outcome, remoteness = engine.solve_root(state)
            return outcome, int(remoteness or 0)
        known = engine.space.value_of_record(int(self.value[index]))
        if known is None:
            raise PositionError(
                f"position {self.game.render(position)!r} is not reachable from the solved root"
            )
        return known[0], int(known[1] or 0)

    def move_values(self, position: Any) -> list[MoveValue]:
        """Every legal move of a non-terminal position with its value for the mover."""
        if self.terminal_outcome(position) is not None:
            return []
        values = []
        for move in self.moves(position):
            child = self.game.play(position, move)
            outcome, remoteness = self.value_of(child)
            if child[2] != position[2]:
                outcome = -outcome
            values.append(
                MoveValue(move, self.game.move_name(position, move), outcome, remoteness + 1)
            )
        return values

    def principal_variation(self, position: Any, max_length: int = 200) -> list[str]:
        """One perfect line: the first best move each time, until the game ends."""
        return follow_best_moves(
            self.game, position, self.game.key, self.value_of, self.move_values, max_length
        )

    def solve_summary(self, compile_seconds: float) -> PackedSummary:
        """What the result says of the solve (after :meth:`solve`)."""
        placements = int(self.stats["placements_solved"])
        return PackedSummary(
            positions=placements * (1 if self.loser else 4),
            bytes_used=self.bytes_needed(),
            extra={
                "method": "packed sweep",
                "symmetry": False,
                "ranked_placements": self.ranks,
                "placements_solved": placements,
                "compile_seconds": round(compile_seconds, 3),
            },
        )


@compile_once
def warm_up() -> None:
    """Compile (or load from numba's disk cache) every kernel once per process."""
    from cgt.games.interleave import Interleave

    for turns in ("pass", "loser"):
        for win in ("stones", "groups"):
            game = Interleave(size=2, win=win, turns=turns)
            root = game.initial_position()
            space = InterleaveSpace(game, root.red, root.black)
            space.solve(root)
            space.move_values(root)


def open_space(game: Game[Any, Any], position: Any, symmetry: bool) -> tuple[InterleaveSpace, Any]:
    """The placements of the empty cells of ``position`` (default: the start) above its
    stones, and the position checked. ``symmetry`` is unused: the ranking has no symmetry
    reduction."""
    del symmetry
    if position is None:
        position = game.initial_position()
    try:
        red, black, _, _ = position
    except (TypeError, ValueError):
        raise PositionError(f"not an Interleave position: {position!r}") from None
    space = InterleaveSpace(game, red, black)
    space.check_position(position)
    return space, position


solve_interleave = packed_solver(
    "solve_interleave",
    open_space,
    warm_up,
    """Solve ``position`` (default: the start) by one packed sweep over the placements of
    its empty cells: the value and remoteness of the root and of every root move
    (``symmetry`` is unused: the ranking has no symmetry reduction).
    :class:`SweepBudgetExceeded` after ``max_seconds``.""",
)


# ------------------------------------------------------------------ every setup at once
#: A property of a setup read from its codes: (codes with Red to move, codes with Black to
#: move) under ``turns=pass`` (no pass pending), the same array twice under ``turns=loser``.
SetupPredicate = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _red_wins_red_first(red_moves: np.ndarray, black_moves: np.ndarray) -> np.ndarray:
    return (red_moves & 1) == 0


def _red_wins_black_first(red_moves: np.ndarray, black_moves: np.ndarray) -> np.ndarray:
    return (black_moves & 1) == 1


def _red_wins_loser(codes: np.ndarray, same: np.ndarray) -> np.ndarray:
    return (codes >= MOVER_BIT) == ((codes & 1) == 1)  # Black moves and loses, or Red wins


def _first_player_matters(red_moves: np.ndarray, black_moves: np.ndarray) -> np.ndarray:
    return _red_wins_red_first(red_moves, black_moves) != _red_wins_black_first(
        red_moves, black_moves
    )


def solve_every_setup(
    size: int,
    win: str = "stones",
    turns: str = "pass",
    *,
    progress: Progress | None = None,
    max_seconds: float | None = None,
) -> dict[str, Any]:
    """Solve every placement of the size-``size`` board in one sweep and count, over the pie
    setups (any stones, at least one black), those Red wins: every setup, and the setups up
    to the board's 12 symmetries (by Burnside's lemma: the winner is the same on a whole
    orbit, so the Red-won orbits are the average over the symmetries of the Red-won setups
    each one fixes). Under ``turns=pass`` one sweep answers both ``first`` players, and
    ``first_player_matters`` counts the setups whose winner depends on who moves first."""
    from cgt.games.interleave import Interleave

    game = Interleave(size=size, win=win, turns=turns)
    space = InterleaveSpace(game)
    started = time.perf_counter()
    space.solve(progress=progress, max_seconds=max_seconds)
    sweep_seconds = time.perf_counter() - started
    assert space.value is not None
    predicates: dict[str, SetupPredicate]
    if space.loser:
        predicates = {"loser": _red_wins_loser}
    else:
        predicates = {
            "red first": _red_wins_red_first,
            "black first": _red_wins_black_first,
        }
    counting = time.perf_counter()
    counts: dict[str, dict[str, int]] = {}
    setups, orbits = _burnside_count(space, lambda red_moves, black_moves: red_moves >= 0)
    for label, predicate in predicates.items():
        red_wins, red_won_orbits = _burnside_count(space, predicate)
        counts[label] = {
            "setups": setups,
            "red_wins": red_wins,
            "setups_up_to_symmetry": orbits,
            "red_wins_up_to_symmetry": red_won_orbits,
        }
    if not space.loser:
        matters, matters_orbits = _burnside_count(space, _first_player_matters)
        counts["first_player_matters"] = {
            "setups": matters,
            "setups_up_to_symmetry": matters_orbits,
        }
    return {
        "size": size,
        "win": win,
        "turns": turns,
        "placements": space.ranks,
        "bytes": space.bytes_needed(),
        "seconds_per_phase": {
            **{k: round(v, 3) for k, v in space.seconds.items()},
            "count": round(time.perf_counter() - counting, 3),
        },
        "sweep_seconds": round(sweep_seconds, 3),
        "placements_per_second": round(space.ranks / sweep_seconds) if sweep_seconds else None,
        "counts": counts,
    }


def _burnside_count(space: InterleaveSpace, predicate: SetupPredicate) -> tuple[int, int]:
    """(setups with the property, orbits of them under the 12 symmetries) over the solved
    full space; the property must be the same for every setup of an orbit."""
    assert space.value is not None
    value = space.value
    stride = space.states_stored
    other = stride - 1  # the Black-to-move state under turns=pass, the same one otherwise
    pow3 = np.array([3**j for j in range(space.cells)], dtype=np.int64)

    def holds(ranks: np.ndarray) -> int:
        return int(predicate(value[stride * ranks], value[stride * ranks + other]).sum())

    # the identity fixes every placement: chunks of strided views (no index arrays)
    with_property = 0
    chunk = 1 << 24
    for low in range(0, space.ranks, chunk):
        high = min(space.ranks, low + chunk)
        red_moves = value[stride * low : stride * high : stride]
        black_moves = value[stride * low + other : stride * high : stride]
        with_property += int(predicate(red_moves, black_moves).sum())
    with_property -= holds(_no_black_ranks(pow3))
    orbit_sum = with_property
    for perm in space.board.symmetries[1:]:
        ranks, has_black = _fixed_placements(perm, pow3)
        orbit_sum += holds(ranks[has_black])
    group_order = len(space.board.symmetries)
    if orbit_sum % group_order:
        raise AssertionError("the Burnside sum is not a multiple of the group order")
    return with_property, orbit_sum // group_order


def _fixed_placements(perm: tuple[int, ...], pow3: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ranks of the placements a symmetry fixes (one colour per cycle of the permutation)
    and whether each holds a black stone."""
    seen: set[int] = set()
    cycle_weights = []
    for start in range(len(perm)):
        if start in seen:
            continue
        weight = 0
        cell = start
        while cell not in seen:
            seen.add(cell)
            weight += int(pow3[cell])
            cell = perm[cell]
        cycle_weights.append(weight)
    ranks = np.zeros(1, dtype=np.int64)
    has_black = np.zeros(1, dtype=bool)
    for weight in cycle_weights:
        ranks = np.concatenate([ranks, ranks + weight, ranks + 2 * weight])
        has_black = np.concatenate([has_black, has_black, np.ones_like(has_black)])
    return ranks, has_black


def _no_black_ranks(pow3: np.ndarray) -> np.ndarray:
    """Ranks of the placements with red stones only (every digit 0 or 1)."""
    ranks = np.zeros(1, dtype=np.int64)
    for weight in pow3:
        ranks = np.concatenate([ranks, ranks + weight])
    return ranks


@njit(cache=True)
def _count_by_stones(
    value: np.ndarray,
    stride: I64,
    other: I64,
    loser: bool,
    cells: I64,
    low: I64,
    high: I64,
    totals: np.ndarray,
    red_wins: np.ndarray,
    first_red: np.ndarray,
    first_black: np.ndarray,
) -> None:
    """Tally ranks ``low..high`` by (red stones, black stones): setups, Red's wins and the
    first rank each colour wins. The base-3 digits are counted up like an odometer, so each
    rank costs a step or two instead of ``cells`` divisions."""
    side = cells + 1
    digits = np.zeros(cells, dtype=np.int64)
    rest = low
    reds = 0
    blacks = 0
    for j in range(cells):
        digits[j] = rest % 3
        rest //= 3
        reds += digits[j] == 1
        blacks += digits[j] == 2
    for rank in range(low, high):
        bucket = reds * side + blacks
        code = value[stride * rank]
        if loser:
            red = (code >= MOVER_BIT) == ((code & 1) == 1)
        else:
            red = (code & 1) == 0
        totals[bucket] += 1
        if red:
            red_wins[bucket] += 1
            if first_red[bucket] < 0:
                first_red[bucket] = rank
        elif first_black[bucket] < 0:
            first_black[bucket] = rank
        j = 0
        while j < cells:  # the next rank: add one with carry
            if digits[j] == 1:
                reds -= 1
                blacks += 1
                digits[j] = 2
                break
            if digits[j] == 2:
                blacks -= 1
                digits[j] = 0
                j += 1
                continue
            digits[j] = 1
            reds += 1
            break
    _ = other


def every_setup_by_stones(
    size: int,
    win: str = "stones",
    turns: str = "loser",
    *,
    progress: Progress | None = None,
    max_seconds: float | None = None,
    chunk: int = 1 << 26,
) -> dict[str, Any]:
    """Solve every placement of the size-``size`` board (one sweep) and split the setups by
    their number of red and black stones: per (red, black) count, how many setups there
    are, how many Red wins, and the first setup (lowest rank) each colour wins, as
    ``(red mask, black mask)``. Setups without a black stone are counted too (the pie rule
    forbids them; the split shows why). The split counts every setup; ``pie_setups`` counts
    the pie setups (at least one black stone) also up to the 12 symmetries, as
    :func:`solve_every_setup` does."""
    from cgt.games.interleave import Interleave

    game = Interleave(size=size, win=win, turns=turns)
    space = InterleaveSpace(game)
    space.solve(progress=progress, max_seconds=max_seconds)
    assert space.value is not None
    value = space.value
    stride = space.states_stored
    other = stride - 1
    predicate: SetupPredicate = _red_wins_loser if space.loser else _red_wins_red_first
    cells = space.cells
    side = cells + 1
    totals = np.zeros(side * side, dtype=np.int64)
    red_wins = np.zeros(side * side, dtype=np.int64)
    first_red = np.full(side * side, -1, dtype=np.int64)
    first_black = np.full(side * side, -1, dtype=np.int64)
    for low in range(0, space.ranks, chunk):
        high = min(space.ranks, low + chunk)
        _count_by_stones(
            value,
            stride,
            other,
            space.loser,
            cells,
            low,
            high,
            totals,
            red_wins,
            first_red,
            first_black,
        )
        if progress:
            progress({"phase": "count by stones", "placements": int(high), "of": int(space.ranks)})
    first_rank = {True: first_red, False: first_black}

    def setup_of(rank: int) -> list[int]:
        red = black = 0
        for j in range(cells):
            digit = rank // 3**j % 3
            if digit == 1:
                red |= 1 << space.free_cells[j]
            elif digit == 2:
                black |= 1 << space.free_cells[j]
        return [red, black]

    rows = []
    for bucket in np.flatnonzero(totals):
        r, b = divmod(int(bucket), side)
        rows.append(
            {
                "red_stones": r,
                "black_stones": b,
                "setups": int(totals[bucket]),
                "red_wins": int(red_wins[bucket]),
                "first_red_won": setup_of(int(first_rank[True][bucket]))
                if first_rank[True][bucket] >= 0
                else None,
                "first_black_won": setup_of(int(first_rank[False][bucket]))
                if first_rank[False][bucket] >= 0
                else None,
            }
        )
    setups, orbits = _burnside_count(space, lambda red_moves, black_moves: red_moves >= 0)
    red_setups, red_orbits = _burnside_count(space, predicate)
    return {
        "size": size,
        "win": win,
        "turns": turns,
        "placements": space.ranks,
        "pie_setups": {
            "setups": setups,
            "red_wins": red_setups,
            "setups_up_to_symmetry": orbits,
            "red_wins_up_to_symmetry": red_orbits,
        },
        "by_stones": rows,
    }


# ------------------------------------------------------------ winners setup by setup
#: Bytes of one chunk when the per-setup winners are read out of a solved space: small
#: enough that the temporaries stay a few hundred MB beside the value array.
WINNER_CHUNK_RANKS = 1 << 26


def setup_winners(
    size: int,
    win: str = "stones",
    turns: str = "pass",
    *,
    progress: Progress | None = None,
    max_seconds: float | None = None,
) -> dict[str, np.ndarray]:
    """Solve every placement of the size-``size`` board in one sweep and return, per rank
    (the base-3 ranking of :class:`InterleaveSpace` over every cell), whether Red wins it,
    as bits packed eight to a byte (``np.packbits``, little bit order): under
    ``turns=pass`` one array per first player (``"red first"``, ``"black first"``), under
    ``turns=loser`` one (``"loser"``). The value array is freed before returning, so two
    turn models can be compared one sweep after the other (size 3: 3^19 placements, a
    145 MB bit array each, the sweep's array at most 2.2 GiB)."""
    from cgt.games.interleave import Interleave

    game = Interleave(size=size, win=win, turns=turns)
    space = InterleaveSpace(game)
    space.solve(progress=progress, max_seconds=max_seconds)
    assert space.value is not None
    predicates: dict[str, SetupPredicate] = (
        {"loser": _red_wins_loser}
        if space.loser
        else {"red first": _red_wins_red_first, "black first": _red_wins_black_first}
    )
    stride = space.states_stored
    other = stride - 1
    winners: dict[str, np.ndarray] = {}
    for label, predicate in predicates.items():
        parts = []
        for low in range(0, space.ranks, WINNER_CHUNK_RANKS):
            high = min(space.ranks, low + WINNER_CHUNK_RANKS)
            red_moves = space.value[stride * low : stride * high : stride]
            black_moves = space.value[stride * low + other : stride * high : stride]
            parts.append(predicate(red_moves, black_moves))
            if progress is not None:
                progress({"phase": f"read winners ({label})", "ranks": high, "of": space.ranks})
        winners[label] = np.packbits(np.concatenate(parts), bitorder="little")
        del parts
    space.value = None
    return winners


def placement_of_rank(size: int, rank: int) -> tuple[int, int]:
    """(red, black) bitboards of the placement with this rank over every cell of the board
    (digit j of the base-3 rank is cell j: 0 empty, 1 red, 2 black)."""
    from cgt.boards.hexhex import hex_board

    red = black = 0
    for cell in range(hex_board(size).size):
        rank, digit = divmod(rank, 3)
        if digit == 1:
            red |= 1 << cell
        elif digit == 2:
            black |= 1 << cell
    return red, black


def red_only_ranks(size: int) -> np.ndarray:
    """Ranks of the placements without a black stone (not setups: every setup holds one)."""
    from cgt.boards.hexhex import hex_board

    cells = hex_board(size).size
    return _no_black_ranks(np.array([3**j for j in range(cells)], dtype=np.int64))


# ------------------------------------------------------------------ playout plug-in
# The compiled playout interface of solvers.playout (read its docstring): a state is (red,
# black, player to move, consecutive passes); a move code is the cell, or
# :data:`PLAYOUT_PASS`; the moves come in the readable module's order (the pass first).


@njit(cache=True)
def playout_final(state: np.ndarray, tables: Any) -> I64:
    cfg, _full, _ray_mask, neighbours, red_hist, black_hist = tables
    if cfg[C_LOSER] != 0:
        return -1  # the loser, to move, has no open cell
    lead = leader(state[0], state[1], cfg[C_GROUPS], neighbours, red_hist, black_hist)
    return 1 if lead == np.int64(state[2]) else -1


@njit(cache=True)
def playout_generate(state: np.ndarray, tables: Any, out: np.ndarray) -> I64:
    cfg, full, ray_mask, _neighbours, _red_hist, _black_hist = tables
    count = 0
    if cfg[C_LOSER] == 0:
        if state[3] >= np.uint64(2):
            return 0  # two passes in a row end the game
        out[0] = PLAYOUT_PASS
        count = 1
    red_open, black_open = open_cells(state[0], state[1], full[0], ray_mask)
    cells = red_open if state[2] == _U0 else black_open
    while cells != _U0:
        out[count] = _low(cells)
        count += 1
        cells &= cells - _U1
    return count


@njit(cache=True)
def playout_play(state: np.ndarray, code: I64, tables: Any, child: np.ndarray) -> None:
    cfg, _full, _ray_mask, neighbours, red_hist, black_hist = tables
    mover = np.int64(state[2])
    child[:] = state
    if code == PLAYOUT_PASS:
        child[2] = np.uint64(1 - mover)
        child[3] = state[3] + _U1
        return
    child[mover] |= _bit(code)
    child[3] = _U0
    if cfg[C_LOSER] == 0:
        child[2] = np.uint64(1 - mover)
    else:
        lead = leader(child[0], child[1], cfg[C_GROUPS], neighbours, red_hist, black_hist)
        child[2] = np.uint64(1 - lead)


@njit(cache=True)
def playout_mover(state: np.ndarray, tables: Any) -> I64:
    return np.int64(state[2])


@njit(cache=True, inline="always")
def playout_key(state: np.ndarray, tables: Any) -> tuple[U64, U64, I64, I64]:
    """Red's and Black's stones; the player to move and the passes just made as the tag."""
    return state[0], state[1], np.int64(state[2] * np.uint64(4) + state[3]), np.int64(0)


def playout_rules(game: Game[Any, Any]) -> PlayoutRules:
    """Interleave's playout interface (both win conditions and turn models)."""
    from cgt.games.interleave import PASS, InterleavePosition

    space = InterleaveSpace(game)
    cfg = np.zeros(CFG_LENGTH, dtype=np.int64)
    cfg[C_GROUPS] = int(space.groups)
    cfg[C_LOSER] = int(space.loser)
    tables = (
        cfg,
        np.array([space.full], dtype=np.uint64),
        space.ray_mask,
        space.neighbours,
        np.zeros(space.cells + 1, dtype=np.int64),
        np.zeros(space.cells + 1, dtype=np.int64),
    )

    def encode(position: Any) -> np.ndarray:
        red, black, mover, passes = position
        if red & black or (red | black) >> space.cells:
            raise PositionError(f"not a position of this board: {position!r}")
        return np.array([red, black, mover, passes], dtype=np.uint64)

    def decode(state: np.ndarray) -> Any:
        return InterleavePosition(*(int(w) for w in state))

    return plug_in(
        sys.modules[__name__],
        game,
        words=4,
        max_moves=space.cells + 1,
        alternating=not space.loser,
        tables=tables,
        encode=encode,
        decode=decode,
        code_of=lambda position, move: PLAYOUT_PASS if move == PASS else move,
        move_of=lambda position, code: PASS if code == PLAYOUT_PASS else code,
    )


def ranked_space(game: Game[Any, Any]) -> RankedSpace:
    """The placements above ``game``'s start (its stones fixed) as a ranked space of the
    engine's retrograde."""
    root = game.initial_position()
    return InterleaveSpace(game, root[0], root[1]).ranked_space()


PLUGIN = KernelPlugin(
    "interleave",
    solve_interleave,
    packed=True,
    playout=playout_rules,
    ranked_space=ranked_space,
)
