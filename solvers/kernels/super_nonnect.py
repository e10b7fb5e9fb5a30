"""Compiled exact solver for Super Nonnect (cgt.games.super_nonnect), every shape up to 128
cells (hex7: 49, square 3 x 3: 81).

Why a separate statement of the rules: every cut needs a connectivity test of the uncut
cells, slow in Python. Here the cut cells are two uint64 words (cells renumbered 0..N-1 in
the game's bit order, so moves come out in the game's order), the designated mini-board is a
small int, and connectivity is a flood over precomputed neighbour masks. Tests compare this
statement move for move with the readable module.

Rules restated: the next cut is any uncut cell of the designated mini-board (any uncut cell
on the first move); it must leave the uncut cells connected (the empty set counts as
connected, the module's decision); under ``rule=revised`` it must not designate a mini-board
with no uncut cell left. A player with no legal cut loses. The game is impartial, so the key
is (cut cells, designated mini-board) and values are for the player to move.

Connectivity: a cut whose uncut neighbours are joined by uncut cells of its ring (the cells
next to it, and the cells next to two of them that are not next to each other: the
diagonals of the square grid) cannot split the board, since a path through the cut cell can
go round it; one lookup of the ring's pattern (:func:`_locally_joined`) settles most cuts,
and only the others flood the board (:func:`connected`).

Search
------
Negamax alpha-beta, fail-soft, as :mod:`solvers.kernels.control` (read its docstring) without
the cycle logic (every move cuts a cell, so games end and every stored result is a function
of the position alone):

* the table (:mod:`solvers.kernel_table`, full key = cut words and the designated
  mini-board as tag) is probed by the parent for every child it visits: a child settled by
  its entry costs no call and counts as one node (``ctl[S_SETTLED]``), so a node is one
  visit of a position, a call entered or a child settled by its entry;
* ordering: the table move first, searched before the others are ordered; then
  (``mobility_ordering``) the cuts leaving the opponent the fewest replies (a reply-less
  child is a win found without search), ties by history. Every
  child's key is computed and its bucket prefetched before the replies are counted;
* enhanced transposition cut-off (``etc=True``): before its first search call among the
  ordered moves a node reads every remaining child's entry; one that refutes its child cuts
  the node off at once (``ctl[S_ETC_CUTOFFS]``, one node), one that says the child cannot
  raise alpha moves that child last;
* history (``history=True``): every cut-off (a win found, a move leaving no reply, an ETC
  cut-off) credits its move with the square of the bit length of the work it took
  (:func:`solvers.kernel_table.credit`), as Control, and the counts break ties of the
  mobility order. The baseline credited only fail-high cut-offs short of a win, which value
  mode never has. Measured in benchmarks/SUPER_NONNECT_KERNEL.md (the ``no history`` rows):
  in remoteness mode it saves many nodes (hex7 revised); in value mode the evidence is
  mixed (fewer nodes on some positions, more on others);
* symmetry: positions with at most ``symmetry_cuts`` cuts (default
  :data:`DEFAULT_SYMMETRY_CUTS` for alpha-beta) are keyed by their canonical image over the
  shape's symmetries (cells and mini-boards mapped together), the best move stored in the
  canonical frame; the parent computes a child's key and passes it down;
* iterative deepening in value mode (``deepening=True``, off by default): passes stopping at
  one cut more each time; a position at a pass's horizon scores 0, "unknown" (the game has
  no draw), proven results are stored as exact -1/1, and a result short of a proof keeps its
  horizon in the entry (:func:`_decode`) and holds only for passes not deeper.
  Measured in benchmarks/SUPER_NONNECT_KERNEL.md: games on 3x3 last long, each pass costs a
  multiple of the one before and none short of the end proves the hard positions, so it
  costs nodes; kept as an option for that measurement.

Where alpha-beta still loses to df-pn (``method="dfpn"``, :func:`dfpn`) on 3x3 revised:
alpha-beta resolves its first choice at every OR node completely, a long proof when that
choice loses, while df-pn moves to the sibling whose proof looks cheapest; the benchmark's
diagnosis shows the gap child by child.
"""

from __future__ import annotations

import functools
import sys
import time
from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM cttz intrinsic

from cgt.errors import ParameterError, PositionError
from cgt.games.super_nonnect import bits_of
from cgt.progress import Progress
from cgt.protocol import Game
from solvers.kernel_base import CompiledKernel, run_solve
from solvers.kernel_table import (
    _U0,
    _U1,
    _U255,
    BIG,
    EXACT,
    I64,
    LOWER,
    S_ABORTED,
    S_HITS,
    S_MAX_PLY,
    S_NODE_LIMIT,
    S_NODES,
    S_OVERFLOW,
    S_PROBES,
    SLOT_WORDS,
    U64,
    UPPER,
    bucket_base,
    compiled,
    credit,
    entry_flag,
    entry_move,
    entry_of,
    entry_score,
    holds,
    new_table,
    popcount,
    prefetch,
    store,
    toward_leaf,
    toward_root,
)
from solvers.kernels.plugin import KernelPlugin
from solvers.playout import PlayoutRules, plug_in
from solvers.proof_numbers import (
    PN_INFINITY,
    check_method,
    child_thresholds,
    leaf_numbers,
    probe,
    summarize,
    table_base,
)
from solvers.proof_numbers import store as pn_store
from solvers.result import SolveResult

#: Most cells a board may have (two 64-bit words).
MAX_CELLS = 128
MOVE_CODES = 128
DEFAULT_MAX_PLY = 256
#: Alpha-beta keys positions with at most this many cuts by their canonical image. Measured
#: (benchmarks/SUPER_NONNECT_KERNEL.md, the symmetry rows): symmetric transpositions occur
#: near the start (the full solves of 2x3 and hex7 take several times the nodes without
#: symmetry, about the same with keys up to 2, 8 or every count of cuts), while the images
#: cost every node they are computed at (the random 3x3 positions: the same nodes keyed at
#: every count, more time), and a position far into a game has no symmetric twin to meet.
DEFAULT_SYMMETRY_CUTS = 4

# configuration in the control array (statistics at solvers.kernel_table's indices)
C_CELLS = 0
C_REVISED = 1
C_REMOTENESS = 2
C_SYMMETRY_CUTS = 3
C_BUCKET_MASK = 4
C_MAX_PLY = 5
C_SYMMETRIES = 6
C_MOBILITY = 7
C_BOARDS = 8
#: 1: enhanced transposition cut-offs (probe every child's entry before searching any).
C_ETC = 9
#: Cut count at which the current pass of the iterative deepening stops (value mode);
#: NO_HORIZON when the search is not bounded.
C_HORIZON = 10
NO_HORIZON = 1 << 12
#: 1: the history heuristic (every cut-off credits its move by the work it took).
C_HISTORY = 11
#: An entry's score word at least this is a pass's result short of a proof (see _decode).
HORIZON_SCORES = 3
#: Statistics beyond solvers.kernel_table's (the indices of solvers.kernels.control's):
#: children settled by their table entry without a search call (each counted as a node),
#: and enhanced transposition cut-offs among them.
S_SETTLED = 26
S_ETC_CUTOFFS = 27
HISTORY = 32
HISTORY_CAP = (1 << 24) - 1
CTL_LENGTH = HISTORY + MOVE_CODES
CHUNKS = 16  # 8-bit chunks of a 128-bit mask
#: Row ``c`` of the ``neighbours`` array: the neighbour mask of cell ``c`` (two words), its
#: ring (up to RING_CELLS compact cells, a byte each, NO_CELL after the last), then one bit
#: per pattern of uncut ring cells: whether that pattern joins the uncut neighbours.
N_RING = 2
N_JOINED = 3
RING_CELLS = 8
NO_CELL = 255
NEIGHBOUR_WORDS = N_JOINED + (1 << RING_CELLS) // 64
#: ``frames[ply]``: the moves of the node at ``ply``, their order keys, then the children's
#: table keys (lo, hi, tag, symmetry) by the moves' original index.
F_KEYS = MOVE_CODES
F_CHILD_KEYS = 2 * MOVE_CODES
FRAME_WIDTH = 6 * MOVE_CODES
#: Added to the order key of a child whose table entry says it cannot raise alpha: last.
REFUTED_LAST = 1 << 45


# ------------------------------------------------------------------------- the rules
@compiled
def connected(lo: U64, hi: U64, neighbours: np.ndarray) -> bool:
    """Whether the cells of (lo, hi) form one edge-connected piece (empty: yes)."""
    if lo == _U0 and hi == _U0:
        return True
    if lo != _U0:
        seen_lo = lo & (~lo + _U1)
        seen_hi = _U0
    else:
        seen_lo = _U0
        seen_hi = hi & (~hi + _U1)
    frontier_lo = seen_lo
    frontier_hi = seen_hi
    c: I64 = 0
    while frontier_lo != _U0 or frontier_hi != _U0:
        grow_lo = _U0
        grow_hi = _U0
        while frontier_lo != _U0:
            c = trailing_zeros(frontier_lo)  # type: ignore[call-arg]
            grow_lo |= neighbours[c, 0]
            grow_hi |= neighbours[c, 1]
            frontier_lo &= frontier_lo - _U1
        while frontier_hi != _U0:
            c = 64 + trailing_zeros(frontier_hi)  # type: ignore[call-arg]
            grow_lo |= neighbours[c, 0]
            grow_hi |= neighbours[c, 1]
            frontier_hi &= frontier_hi - _U1
        frontier_lo = grow_lo & lo & ~seen_lo
        frontier_hi = grow_hi & hi & ~seen_hi
        seen_lo |= frontier_lo
        seen_hi |= frontier_hi
    return seen_lo == lo and seen_hi == hi


@njit(cache=True, inline="always")
def _locally_joined(c: I64, rest_lo: U64, rest_hi: U64, neighbours: np.ndarray) -> bool:
    """Whether the uncut neighbours of ``c`` are joined by uncut cells of its ring (the
    cells next to it, and the cells next to two of them that are not next to each other:
    the diagonals of a square grid). Then cutting ``c`` keeps the rest connected: a path
    through ``c`` can go round it instead. A lookup of the ring's pattern (``N_RING``,
    ``N_JOINED``), so that most cuts need no flood of the board."""
    ring = neighbours[c, N_RING]
    pattern: I64 = 0
    for j in range(RING_CELLS):
        cell = np.int64((ring >> np.uint64(8 * j)) & _U255)
        if cell == NO_CELL:
            break
        if cell < 64:
            uncut = (rest_lo >> np.uint64(cell)) & _U1
        else:
            uncut = (rest_hi >> np.uint64(cell - 64)) & _U1
        pattern |= np.int64(uncut) << j
    word = neighbours[c, N_JOINED + (pattern >> 6)]
    return (word >> np.uint64(pattern & 63)) & _U1 != _U0


@compiled
def generate_moves(
    cut_lo: U64,
    cut_hi: U64,
    designated: I64,
    full: np.ndarray,
    neighbours: np.ndarray,
    boards: np.ndarray,
    target: np.ndarray,
    ctl: np.ndarray,
    out: np.ndarray,
) -> I64:
    """Write the legal cuts (compact cells, ascending) into ``out``; return how many. With
    ``out`` of length 0 only count them."""
    uncut_lo = full[0] & ~cut_lo
    uncut_hi = full[1] & ~cut_hi
    if designated >= 0:
        cand_lo = uncut_lo & boards[designated, 0]
        cand_hi = uncut_hi & boards[designated, 1]
    else:
        cand_lo = uncut_lo
        cand_hi = uncut_hi
    revised = ctl[C_REVISED]
    count = 0
    for word in range(2):
        cand = cand_lo if word == 0 else cand_hi
        while cand != _U0:
            c = 64 * word + trailing_zeros(cand)  # type: ignore[call-arg]
            cand &= cand - _U1
            bit = _U1 << np.uint64(c - 64 * word)
            if word == 0:
                rest_lo = uncut_lo & ~bit
                rest_hi = uncut_hi
            else:
                rest_lo = uncut_lo
                rest_hi = uncut_hi & ~bit
            # a cell with at most one uncut neighbour is a leaf: cutting it cannot disconnect;
            # nor can a cut whose uncut neighbours are joined around it (_locally_joined)
            near = popcount(neighbours[c, 0] & rest_lo) + popcount(neighbours[c, 1] & rest_hi)
            if (
                near > 1
                and not _locally_joined(c, rest_lo, rest_hi, neighbours)
                and not connected(rest_lo, rest_hi, neighbours)
            ):
                continue
            t = target[c]
            if revised != 0 and (rest_lo & boards[t, 0]) == _U0 and (rest_hi & boards[t, 1]) == _U0:
                continue  # would send the opponent to a fully cut mini-board
            if out.shape[0] > 0:
                out[count] = c
            count += 1
    return count


@njit(cache=True, inline="always")
def _transform(lo: U64, hi: U64, s: I64, sym_tables: np.ndarray) -> tuple[U64, U64]:
    out_lo = _U0
    out_hi = _U0
    for k in range(8):
        v = (lo >> np.uint64(8 * k)) & _U255
        if v != _U0:
            out_lo |= sym_tables[s, k, v, 0]
            out_hi |= sym_tables[s, k, v, 1]
    for k in range(8):
        v = (hi >> np.uint64(8 * k)) & _U255
        if v != _U0:
            out_lo |= sym_tables[s, 8 + k, v, 0]
            out_hi |= sym_tables[s, 8 + k, v, 1]
    return out_lo, out_hi


@compiled
def canonical(
    lo: U64, hi: U64, designated: I64, sym_tables: np.ndarray, board_perm: np.ndarray, count: I64
) -> tuple[U64, U64, I64, I64]:
    """Smallest (designated, hi, lo) image over the symmetries, and the symmetry giving it."""
    best_lo = lo
    best_hi = hi
    best_d = designated
    best_s = 0
    for s in range(1, count):
        d = board_perm[s, designated] if designated >= 0 else -1
        if d > best_d:
            continue
        t_lo, t_hi = _transform(lo, hi, s, sym_tables)
        if d < best_d or t_hi < best_hi or (t_hi == best_hi and t_lo < best_lo):
            best_lo = t_lo
            best_hi = t_hi
            best_d = d
            best_s = s
    return best_lo, best_hi, best_d, best_s


# ------------------------------------------------------------------------- the search
@njit(cache=True, inline="always")
def _key(
    cut_lo: U64,
    cut_hi: U64,
    designated: I64,
    sym_tables: np.ndarray,
    board_perm: np.ndarray,
    ctl: np.ndarray,
) -> tuple[U64, U64, I64, I64]:
    """Table key (cut words, tag = designated mini-board + 1) and the symmetry giving it:
    the canonical image of positions with at most ``ctl[C_SYMMETRY_CUTS]`` cuts, else the
    position itself (symmetry 0)."""
    if popcount(cut_lo) + popcount(cut_hi) <= ctl[C_SYMMETRY_CUTS]:
        k_lo, k_hi, k_d, sym = canonical(
            cut_lo, cut_hi, designated, sym_tables, board_perm, ctl[C_SYMMETRIES]
        )
        return k_lo, k_hi, k_d + 1, sym
    return cut_lo, cut_hi, designated + 1, 0


@njit(cache=True, inline="always")
def _cut(cut_lo: U64, cut_hi: U64, cell: I64) -> tuple[U64, U64]:
    if cell < 64:
        return cut_lo | (_U1 << np.uint64(cell)), cut_hi
    return cut_lo, cut_hi | (_U1 << np.uint64(cell - 64))


@njit(cache=True, inline="always")
def _decode_horizon(flag: I64, score: I64, horizon: I64) -> tuple[I64, I64]:
    """(bound flag, score) of a value-mode entry whose score word holds a pass's result
    short of a proof (a pass's "unknown", score 0, or a bound on it): score + 4 * horizon,
    at least HORIZON_SCORES, beyond the proven -1 and 1. It holds for every pass whose
    horizon is not beyond its own (what a deeper search did not prove, a shallower one does
    not prove either); for a deeper pass flag 0, nothing."""
    stored_horizon = (score + 1) >> 2
    if stored_horizon < horizon:
        return 0, 0
    return flag, score - 4 * stored_horizon


@njit(cache=True, inline="always")
def _decode(data: U64, horizon: I64, remoteness: I64) -> tuple[I64, I64]:
    """(bound flag, score) of an entry's data for a pass stopping at ``horizon`` cuts."""
    flag = entry_flag(data)
    score = entry_score(data)
    if remoteness == 0 and score >= HORIZON_SCORES:
        return _decode_horizon(flag, score, horizon)
    return flag, score


@njit(cache=True, inline="always")
def _entry(tt: np.ndarray, k_lo: U64, k_hi: U64, tag: I64, ctl: np.ndarray) -> tuple[I64, I64]:
    """(bound flag, score) of the key's entry for the current pass (flag 0: none)."""
    flag, score = entry_of(tt, k_lo, k_hi, tag, ctl[C_BUCKET_MASK])
    if flag == 0 or ctl[C_REMOTENESS] != 0 or score < HORIZON_SCORES:
        return flag, score
    return _decode_horizon(flag, score, ctl[C_HORIZON])


#: The root's table key and symmetry (what a parent passes to :func:`search`): :func:`_key`
#: compiled on its own for the Python side.
root_key = compiled(_key.py_func)


@compiled
def search(
    cut_lo: U64,
    cut_hi: U64,
    designated: I64,
    alpha: I64,
    beta: I64,
    ply: I64,
    k_lo: U64,
    k_hi: U64,
    tag: I64,
    sym: I64,
    full: np.ndarray,
    neighbours: np.ndarray,
    boards: np.ndarray,
    target: np.ndarray,
    sym_tables: np.ndarray,
    perm: np.ndarray,
    board_perm: np.ndarray,
    ctl: np.ndarray,
    frames: np.ndarray,
    tt: np.ndarray,
) -> I64:
    """Fail-soft negamax score of the position for the player to move (0 with
    ``ctl[S_ABORTED]`` set when the node budget runs out: nothing is stored then).

    ``k_lo``, ``k_hi``, ``tag``, ``sym``: the position's table key and the symmetry giving
    it, computed by the parent (:func:`root_key` at the root). In value mode a pass of the
    iterative deepening stops at ``ctl[C_HORIZON]`` cuts: a position there scores 0,
    "unknown" (Super Nonnect has no draw, so 0 is never a proven value)."""
    ctl[S_NODES] += 1
    if ctl[S_NODES] > ctl[S_NODE_LIMIT]:
        ctl[S_ABORTED] = 1
        return 0
    if ply > ctl[S_MAX_PLY]:
        ctl[S_MAX_PLY] = ply
    remoteness = ctl[C_REMOTENESS]
    horizon = ctl[C_HORIZON]
    base = bucket_base(k_lo, k_hi, tag, ctl[C_BUCKET_MASK])
    table_move: I64 = -1
    for at in (base, base + SLOT_WORDS):
        if holds(tt, at, k_lo, k_hi, tag):
            ctl[S_HITS] += 1
            data = tt[at + 2]
            stored_flag, stored = _decode(data, horizon, remoteness)
            if (
                stored_flag == EXACT
                or (stored_flag == LOWER and stored >= beta)
                or (stored_flag == UPPER and stored <= alpha)
            ):
                return stored
            table_move = np.int64(perm[1, sym, entry_move(data)])
            break
    if ply >= ctl[C_MAX_PLY]:
        ctl[S_OVERFLOW] = 1
        return 0
    mobility = ctl[C_MOBILITY]
    cuts = popcount(cut_lo) + popcount(cut_hi)
    if cuts >= horizon:  # the pass stops here: unknown, unless the game is over
        if mobility == 0 and (
            generate_moves(
                cut_lo, cut_hi, designated, full, neighbours, boards, target, ctl, frames[ply, :0]
            )
            == 0
        ):
            return -1  # (with mobility ordering the parent saw it had no reply)
        return 0
    moves = frames[ply, :MOVE_CODES]
    count = generate_moves(cut_lo, cut_hi, designated, full, neighbours, boards, target, ctl, moves)
    if count == 0:  # normal play: no legal cut loses
        return -BIG if remoteness else -1
    max_score = BIG - 1 if remoteness else 1
    keys = F_KEYS
    cached = F_CHILD_KEYS  # children's keys (lo, hi, tag, symmetry) by the move's index
    empty_out = frames[ply, :0]
    start = 0
    if table_move >= 0:
        for i in range(count):
            if frames[ply, i] == table_move:
                frames[ply, i] = frames[ply, 0]
                frames[ply, 0] = table_move
                start = 1
                break
    original_alpha = alpha
    nodes_before = ctl[S_NODES]
    best = -(BIG + 2)
    best_move: I64 = -1
    child_alpha = -toward_leaf(beta, remoteness)
    etc_done = ctl[C_ETC] == 0
    symmetry_cuts = ctl[C_SYMMETRY_CUTS]
    i = 0
    while i < count:
        if i == start:  # order the moves after the table move (once: start is passed)
            # every child's key first, kept for the visit, and its table bucket on its way
            # while the replies below are counted (the buckets are far apart in memory)
            for k in range(start, count):
                m = frames[ply, k]
                child_lo, child_hi = _cut(cut_lo, cut_hi, m)
                if cuts + 1 <= symmetry_cuts:
                    c_lo, c_hi, c_d, c_sym = canonical(
                        child_lo, child_hi, target[m], sym_tables, board_perm, ctl[C_SYMMETRIES]
                    )
                else:
                    c_lo, c_hi, c_d, c_sym = child_lo, child_hi, target[m], 0
                frames[ply, cached + k] = np.int64(c_lo)
                frames[ply, cached + MOVE_CODES + k] = np.int64(c_hi)
                frames[ply, cached + 2 * MOVE_CODES + k] = c_d + 1
                frames[ply, cached + 3 * MOVE_CODES + k] = c_sym
                prefetch(tt, bucket_base(c_lo, c_hi, c_d + 1, ctl[C_BUCKET_MASK]))  # type: ignore[call-arg]
            for k in range(start, count):
                m = frames[ply, k]
                key = -min(ctl[HISTORY + m], HISTORY_CAP)
                if mobility != 0:
                    child_lo, child_hi = _cut(cut_lo, cut_hi, m)
                    replies = generate_moves(
                        child_lo,
                        child_hi,
                        target[m],
                        full,
                        neighbours,
                        boards,
                        target,
                        ctl,
                        empty_out,
                    )
                    if replies == 0:  # a win nothing beats
                        if ctl[C_HISTORY] != 0:
                            credit(ctl, HISTORY + m, 1, HISTORY, MOVE_CODES, HISTORY_CAP)
                        store(
                            tt,
                            base,
                            k_lo,
                            k_hi,
                            tag,
                            EXACT,
                            max_score,
                            np.int64(perm[0, sym, m]),
                            ctl[S_NODES] - nodes_before + 1,
                            ctl,
                        )
                        return max_score
                    key += replies * (HISTORY_CAP + 1)
                # the position in the list breaks ties: the order of a stable sort
                frames[ply, keys + k] = key * MOVE_CODES + k
        if i >= start:  # selection: a cut-off after a move or two leaves the rest unsorted
            chosen = i
            smallest = frames[ply, keys + i]
            for k in range(i + 1, count):
                if frames[ply, keys + k] < smallest:
                    smallest = frames[ply, keys + k]
                    chosen = k
            m = frames[ply, chosen]
            frames[ply, chosen] = frames[ply, i]
            frames[ply, i] = m
            frames[ply, keys + chosen] = frames[ply, keys + i]
            frames[ply, keys + i] = smallest
        m = frames[ply, i]
        child_lo, child_hi = _cut(cut_lo, cut_hi, m)
        if i >= start:
            index = frames[ply, keys + i] & (MOVE_CODES - 1)
            c_lo = np.uint64(frames[ply, cached + index])
            c_hi = np.uint64(frames[ply, cached + MOVE_CODES + index])
            c_tag = frames[ply, cached + 2 * MOVE_CODES + index]
            c_sym = frames[ply, cached + 3 * MOVE_CODES + index]
        else:
            c_lo, c_hi, c_tag, c_sym = _key(
                child_lo, child_hi, target[m], sym_tables, board_perm, ctl
            )
        i += 1
        # a child settled by its entry costs no call (counted as the node it replaces)
        child_beta = -toward_leaf(alpha, remoteness)
        stored_flag, stored = _entry(tt, c_lo, c_hi, c_tag, ctl)
        if ctl[S_NODES] < ctl[S_NODE_LIMIT] and (
            stored_flag == EXACT
            or (stored_flag == LOWER and stored >= child_beta)
            or (stored_flag == UPPER and stored <= child_alpha)
        ):
            ctl[S_NODES] += 1
            ctl[S_SETTLED] += 1
            ctl[S_HITS] += 1
            child_score = stored
        else:
            if i > start and not etc_done:
                # enhanced transposition cut-off before the first search call among the
                # ordered moves: a remaining child whose entry refutes it cuts this node off
                # (one node, the visit it replaces); one whose entry says it cannot raise
                # alpha goes last
                etc_done = True
                cutoff = False
                for k in range(i, count):
                    other = frames[ply, keys + k] & (MOVE_CODES - 1)
                    o_flag, o_score = _entry(
                        tt,
                        np.uint64(frames[ply, cached + other]),
                        np.uint64(frames[ply, cached + MOVE_CODES + other]),
                        frames[ply, cached + 2 * MOVE_CODES + other],
                        ctl,
                    )
                    if o_flag != 0 and o_flag != LOWER and o_score <= child_alpha:
                        if ctl[S_NODES] >= ctl[S_NODE_LIMIT]:
                            break
                        ctl[S_NODES] += 1
                        ctl[S_SETTLED] += 1
                        ctl[S_ETC_CUTOFFS] += 1
                        ctl[S_HITS] += 1
                        best = toward_root(-o_score, remoteness)
                        best_move = frames[ply, k]
                        cutoff = True
                        break
                    if o_flag != 0 and o_flag != UPPER and o_score >= child_beta:
                        frames[ply, keys + k] += REFUTED_LAST
                if cutoff:
                    break
            child_score = search(
                child_lo,
                child_hi,
                np.int64(target[m]),
                child_alpha,
                child_beta,
                ply + 1,
                c_lo,
                c_hi,
                c_tag,
                c_sym,
                full,
                neighbours,
                boards,
                target,
                sym_tables,
                perm,
                board_perm,
                ctl,
                frames,
                tt,
            )
            if ctl[S_OVERFLOW] != 0 or ctl[S_ABORTED] != 0:
                return 0
        score = toward_root(-child_score, remoteness)
        if score > best:
            best = score
            best_move = m
            if best > alpha:
                alpha = best
                if best >= beta or best >= max_score:
                    break
    work = ctl[S_NODES] - nodes_before
    if ctl[C_HISTORY] != 0 and (best >= beta or best >= max_score):  # a cut-off: history
        credit(ctl, HISTORY + best_move, work, HISTORY, MOVE_CODES, HISTORY_CAP)
    if best >= max_score:  # nothing can beat it: exact whatever the window
        flag = EXACT
    elif best >= beta:
        flag = LOWER
    elif best <= original_alpha:
        flag = UPPER
    else:
        flag = EXACT
    stored = best
    if remoteness == 0 and best < max_score and (best > -1 or flag == LOWER):
        stored = best + 4 * horizon  # short of a proof: holds up to this pass's horizon
    store(tt, base, k_lo, k_hi, tag, flag, stored, np.int64(perm[0, sym, best_move]), work, ctl)
    return best


# --------------------------------------------------------------- proof-number search
#: Weak proof numbers (max, not sum) at the opponent's nodes? Yes: the same cuts in any
#: order meet again, which the sum over-counts (solvers.proof_numbers).
DFPN_WEAK = True


@compiled
def dfpn(
    cut_lo: U64,
    cut_hi: U64,
    designated: I64,
    proof_threshold: I64,
    disproof_threshold: I64,
    ply: I64,
    full: np.ndarray,
    neighbours: np.ndarray,
    boards: np.ndarray,
    target: np.ndarray,
    sym_tables: np.ndarray,
    board_perm: np.ndarray,
    ctl: np.ndarray,
    move_buffer: np.ndarray,
    numbers: np.ndarray,
    tt: np.ndarray,
) -> tuple[I64, I64]:
    """Depth-first proof-number search (solvers.proof_numbers) of "the player to
    move wins" within the thresholds: (proof number, disproof number), (0, INF) proved,
    (INF, 0) disproved. Every cut removes a cell, so the game is acyclic, and normal play
    has no draw: df-pn decides every position, and its table needs no path information.

    Every child's entry is probed or its replies counted before any descent (enhanced
    transposition cutoff: a child lost for its mover proves the node); a new child starts
    at (1, replies)."""
    ctl[S_NODES] += 1
    if ctl[S_NODES] > ctl[S_NODE_LIMIT]:
        ctl[S_ABORTED] = 1
        return 1, 1
    if ply > ctl[S_MAX_PLY]:
        ctl[S_MAX_PLY] = ply
    k_lo, k_hi, tag, _ = _key(cut_lo, cut_hi, designated, sym_tables, board_perm, ctl)
    base = table_base(tt, k_lo, k_hi, tag)
    ctl[S_PROBES] += 1
    pn, dn, found = probe(tt, base, k_lo, k_hi, tag)
    if found:
        ctl[S_HITS] += 1
        if pn >= proof_threshold or dn >= disproof_threshold:
            return pn, dn
    if ply >= ctl[C_MAX_PLY]:
        ctl[S_OVERFLOW] = 1
        return 1, 1
    count = generate_moves(
        cut_lo, cut_hi, designated, full, neighbours, boards, target, ctl, move_buffer[ply]
    )
    if count == 0:  # normal play: no legal cut loses
        pn_store(tt, base, k_lo, k_hi, tag, PN_INFINITY, 0, 1, ctl)
        return PN_INFINITY, 0
    nodes_before = ctl[S_NODES]
    empty_out = move_buffer[ply, :0]
    for i in range(count):  # every child's numbers before any descent (ETC)
        m = np.int64(move_buffer[ply, i])
        child_lo, child_hi = _cut(cut_lo, cut_hi, m)
        child_d = np.int64(target[m])
        c_lo, c_hi, c_tag, _ = _key(child_lo, child_hi, child_d, sym_tables, board_perm, ctl)
        cpn, cdn, cfound = probe(tt, table_base(tt, c_lo, c_hi, c_tag), c_lo, c_hi, c_tag)
        if not cfound:
            replies = generate_moves(
                child_lo, child_hi, child_d, full, neighbours, boards, target, ctl, empty_out
            )
            cpn, cdn = leaf_numbers(replies, 0)
        if cdn == 0:  # the child is lost for its mover: this node is won
            pn_store(tt, base, k_lo, k_hi, tag, 0, PN_INFINITY, 1, ctl)
            return 0, PN_INFINITY
        numbers[ply, 0, i] = cpn
        numbers[ply, 1, i] = cdn
    while True:
        pn, dn, best, second = summarize(numbers, ply, count, DFPN_WEAK)
        if pn >= proof_threshold or dn >= disproof_threshold:
            break
        child_proof, child_disproof = child_thresholds(
            proof_threshold, disproof_threshold, dn, numbers[ply, 0, best], second
        )
        m = np.int64(move_buffer[ply, best])
        child_lo, child_hi = _cut(cut_lo, cut_hi, m)
        cpn, cdn = dfpn(
            child_lo,
            child_hi,
            np.int64(target[m]),
            child_proof,
            child_disproof,
            ply + 1,
            full,
            neighbours,
            boards,
            target,
            sym_tables,
            board_perm,
            ctl,
            move_buffer,
            numbers,
            tt,
        )
        if ctl[S_OVERFLOW] != 0 or ctl[S_ABORTED] != 0:
            return 1, 1
        numbers[ply, 0, best] = cpn
        numbers[ply, 1, best] = cdn
    pn_store(tt, base, k_lo, k_hi, tag, pn, dn, ctl[S_NODES] - nodes_before, ctl)
    return pn, dn


# --------------------------------------------------------------------- Python side
@functools.cache
def chunk_tables(compact_maps: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """``sym_tables[s, k, v]``: the image under symmetry ``s`` (a map of compact cells) of
    the cells ``8k + bit`` for the bits of ``v``, as two words (once per board)."""
    tables = np.zeros((len(compact_maps), CHUNKS, 256, 2), dtype=np.uint64)
    for s, compact_map in enumerate(compact_maps):
        for k in range(CHUNKS):
            images = [0] * 256
            for v in range(1, 256):
                low = (v & -v).bit_length() - 1
                i = 8 * k + low
                bit = 1 << compact_map[i] if i < len(compact_map) else 0
                images[v] = images[v & (v - 1)] | bit
            tables[s, k, :, 0] = [m & (2**64 - 1) for m in images]
            tables[s, k, :, 1] = [m >> 64 for m in images]
    return tables


@functools.cache
def ring_rows(adjacency: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    """:func:`ring_words` of every cell of a board given as each compact cell's neighbours
    (once per board: the patterns take a tenth of a second on 3x3)."""
    adjacent = {cell: set(near) for cell, near in enumerate(adjacency)}
    return [ring_words(cell, adjacent) for cell in adjacent]


def ring_words(cell: int, adjacent: dict[int, set[int]]) -> list[int]:
    """The ``neighbours`` row of ``cell`` after its mask: the packed ring and the bits of
    the patterns that join its neighbours (see :func:`_locally_joined`)."""
    near = adjacent[cell]
    ring = sorted(near) + sorted(
        d
        for d in adjacent
        if d != cell
        and d not in near
        and any(
            a in adjacent[d] and b in adjacent[d] and b not in adjacent[a]
            for a in near
            for b in near
            if a < b
        )
    )
    if len(ring) > RING_CELLS:
        raise ParameterError(f"cell {cell} has {len(ring)} ring cells, at most {RING_CELLS}")
    packed = sum(c << (8 * j) for j, c in enumerate(ring))
    packed |= sum(NO_CELL << (8 * j) for j in range(len(ring), RING_CELLS))
    joined = [0] * ((1 << RING_CELLS) // 64)
    for pattern in range(1 << len(ring)):
        uncut = {c for j, c in enumerate(ring) if pattern >> j & 1}
        ends = uncut & near
        seen = set(list(ends)[:1])
        frontier = list(seen)
        while frontier:
            for d in adjacent[frontier.pop()] & uncut:
                if d not in seen:
                    seen.add(d)
                    frontier.append(d)
        if ends <= seen:
            joined[pattern >> 6] |= 1 << (pattern & 63)
    return [packed, *joined]


class SuperNonnectKernel(CompiledKernel):
    """Tables and search state for one Super Nonnect game (see the module docstring).

    ``symmetry_cuts``: positions with at most this many cuts are keyed by their canonical
    image (default: DEFAULT_SYMMETRY_CUTS for alpha-beta, every position for df-pn); < 0
    turns symmetry off. ``etc``: enhanced transposition cut-offs. ``deepening``: iterative
    deepening in value mode (alpha-beta), off by default; ``history``: the history heuristic
    breaks ties of the mobility ordering. See the module docstring.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        remoteness: bool = False,
        tt_entries: int = 1 << 22,
        symmetry_cuts: int | None = None,
        mobility_ordering: bool = True,
        max_ply: int = DEFAULT_MAX_PLY,
        method: str = "alphabeta",
        etc: bool = True,
        deepening: bool = False,
        history: bool = True,
    ) -> None:
        if game.name != "super-nonnect":
            raise ParameterError(f"the compiled Super Nonnect kernel cannot solve {game.name!r}")
        check_method(method, remoteness)
        self.method = method
        geometry = game.geometry  # type: ignore[attr-defined]
        game_cells = sorted(geometry.cells)
        if len(game_cells) > MAX_CELLS:
            raise ParameterError(
                f"the compiled Super Nonnect kernel handles up to {MAX_CELLS} cells, "
                f"got {len(game_cells)}"
            )
        self.game = game
        self.remoteness = remoteness
        self.max_ply = max_ply
        #: compact index <-> the game's cell bit
        self.game_cell = game_cells
        self.compact = {c: i for i, c in enumerate(game_cells)}
        cells = len(game_cells)
        self.full = self._words(sum(1 << i for i in range(cells)))
        self.neighbours = np.zeros((MOVE_CODES, NEIGHBOUR_WORDS), dtype=np.uint64)
        self.target = np.zeros(MOVE_CODES, dtype=np.int64)
        rings = ring_rows(
            tuple(
                tuple(sorted(self.compact[d] for d in bits_of(geometry.neighbour_masks[c])))
                for c in game_cells
            )
        )
        for c in game_cells:
            i = self.compact[c]
            self.neighbours[i, :N_RING] = self._words(self.to_compact(geometry.neighbour_masks[c]))
            self.neighbours[i, N_RING:] = rings[i]
            self.target[i] = geometry.target_of[c]
        board_count = len(geometry.board_masks)
        self.boards = np.zeros((board_count, 2), dtype=np.uint64)
        for m, mask in enumerate(geometry.board_masks):
            self.boards[m] = self._words(self.to_compact(mask))
        symmetries = geometry.symmetries
        self.perm = np.zeros((2, len(symmetries), MOVE_CODES), dtype=np.int16)
        self.board_perm = np.zeros((len(symmetries), board_count), dtype=np.int64)
        compact_maps = []
        for s, (cell_map, board_map) in enumerate(symmetries):
            compact_map = tuple(self.compact[cell_map[c]] for c in game_cells)
            compact_maps.append(compact_map)
            for i, image in enumerate(compact_map):
                self.perm[0, s, i] = image
                self.perm[1, s, image] = i
            self.board_perm[s] = board_map
        self.sym_tables = chunk_tables(tuple(compact_maps)).copy()
        self.tt, self.capacity, bucket_mask = new_table(tt_entries)
        self.ctl = np.zeros(CTL_LENGTH, dtype=np.int64)
        self.ctl[C_CELLS] = cells
        self.ctl[C_REVISED] = 1 if game.rule == "revised" else 0  # type: ignore[attr-defined]
        self.ctl[C_REMOTENESS] = 1 if remoteness else 0
        if symmetry_cuts is None:
            symmetry_cuts = DEFAULT_SYMMETRY_CUTS if method == "alphabeta" else MAX_CELLS
        self.ctl[C_SYMMETRY_CUTS] = symmetry_cuts
        self.ctl[C_BUCKET_MASK] = bucket_mask
        self.ctl[C_MAX_PLY] = max_ply
        self.ctl[C_SYMMETRIES] = len(symmetries)
        self.ctl[C_MOBILITY] = 1 if mobility_ordering else 0
        self.ctl[C_BOARDS] = board_count
        self.ctl[C_ETC] = 1 if etc else 0
        self.ctl[C_HISTORY] = 1 if history else 0
        self.ctl[C_HORIZON] = NO_HORIZON
        #: iterative deepening in value mode (alpha-beta): see _search
        self.deepening = deepening and not remoteness
        self._pass_root: tuple[int, int, int] | None = None
        self._pass_horizon = 0
        alphabeta_plies = max_ply + 1 if method == "alphabeta" else 1
        self.frames = np.zeros((alphabeta_plies, FRAME_WIDTH), dtype=np.int64)
        #: df-pn: the move lists and children's (proof, disproof) numbers of the path
        plies = max_ply + 1 if method == "dfpn" else 1
        self.move_buffer = np.zeros((plies, MOVE_CODES), dtype=np.int16)
        self.numbers = np.zeros((plies, 2, MOVE_CODES), dtype=np.int64)

    @staticmethod
    def _words(mask: int) -> np.ndarray:
        return np.array([mask & (2**64 - 1), mask >> 64], dtype=np.uint64)

    def to_compact(self, mask: int) -> int:
        return sum(1 << self.compact[c] for c in self.game_cell if mask >> c & 1)

    def check_position(self, position: Any) -> tuple[np.uint64, np.uint64, int]:
        """The position as kernel arguments; :class:`PositionError` if it is not one."""
        try:
            cut, designated, _ = position
        except (TypeError, ValueError):
            raise PositionError(
                f"a Super Nonnect position is (cut, designated, player), got {position!r}"
            ) from None
        if not isinstance(cut, int) or cut < 0 or cut & ~self.game.full_mask:  # type: ignore[attr-defined]
            raise PositionError(f"cut cells go beyond the board: {position!r}")
        if not isinstance(designated, int) or not -1 <= designated < len(self.boards):
            raise PositionError(f"no mini-board {designated!r} on this board")
        words = self._words(self.to_compact(cut))
        return words[0], words[1], designated

    def moves(self, position: Any) -> list[int]:
        lo, hi, designated = self.check_position(position)
        out = np.zeros(MOVE_CODES, dtype=np.int16)
        count = generate_moves(
            lo, hi, designated, self.full, self.neighbours, self.boards, self.target, self.ctl, out
        )
        return [self.game_cell[int(c)] for c in out[:count]]

    def _search(self, position: Any, alpha: int, beta: int) -> int:
        lo, hi, designated = self.check_position(position)
        if self.method == "dfpn":  # a proof or a disproof is the exact value
            pn, _ = dfpn(
                lo,
                hi,
                designated,
                PN_INFINITY,
                PN_INFINITY,
                0,
                self.full,
                self.neighbours,
                self.boards,
                self.target,
                self.sym_tables,
                self.board_perm,
                self.ctl,
                self.move_buffer,
                self.numbers,
                self.tt,
            )
            return 1 if pn == 0 else -1
        k_lo, k_hi, tag, sym = root_key(
            lo, hi, designated, self.sym_tables, self.board_perm, self.ctl
        )
        root = (int(lo), int(hi), int(designated))
        if not self.deepening:
            return self._pass(lo, hi, designated, alpha, beta, k_lo, k_hi, tag, sym)
        # iterative deepening: passes stopping at one cut more each time, until one proves
        # the value (a pass that ran out of budget resumes at its horizon)
        cells = int(self.ctl[C_CELLS])
        if root != self._pass_root:
            self._pass_root = root
            self._pass_horizon = root[0].bit_count() + root[1].bit_count() + 1
        while True:
            horizon = self._pass_horizon
            self.ctl[C_HORIZON] = horizon if horizon < cells else NO_HORIZON
            value = self._pass(lo, hi, designated, alpha, beta, k_lo, k_hi, tag, sym)
            if self.ctl[S_ABORTED] or self.ctl[S_OVERFLOW] or value != 0 or horizon >= cells:
                return value
            self._pass_horizon = horizon + 1

    def _pass(
        self,
        lo: np.uint64,
        hi: np.uint64,
        designated: int,
        alpha: int,
        beta: int,
        k_lo: np.uint64,
        k_hi: np.uint64,
        tag: int,
        sym: int,
    ) -> int:
        """One compiled alpha-beta search from the root (one pass when deepening)."""
        return int(
            search(
                lo,
                hi,
                designated,
                alpha,
                beta,
                0,
                np.uint64(k_lo),
                np.uint64(k_hi),
                tag,
                sym,
                self.full,
                self.neighbours,
                self.boards,
                self.target,
                self.sym_tables,
                self.perm,
                self.board_perm,
                self.ctl,
                self.frames,
                self.tt,
            )
        )


_COMPILE_SECONDS: float | None = None


def warm_up() -> float:
    """Compile (or load from numba's disk cache) the kernel once per process; seconds taken."""
    global _COMPILE_SECONDS
    if _COMPILE_SECONDS is None:
        from cgt.games.super_nonnect import SuperNonnect

        started = time.perf_counter()
        kernel = SuperNonnectKernel(SuperNonnect(a=1, b=2), remoteness=True, tt_entries=64)
        position = kernel.game.initial_position()
        kernel.moves(position)
        kernel.score(position)
        proof = SuperNonnectKernel(kernel.game, tt_entries=64, method="dfpn")
        proof.score(position)
        _COMPILE_SECONDS = time.perf_counter() - started
    return _COMPILE_SECONDS


def solve_super_nonnect(
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
    mobility_ordering: bool = True,
    method: str = "alphabeta",
) -> SolveResult:
    """Solve a Super Nonnect position exactly with the compiled kernel: the root value and
    every root move's value. ``seconds`` excludes compilation (``extra["compile_seconds"]``);
    ``max_seconds`` bounds the search
    (:class:`~solvers.kernel_base.SearchBudgetExceeded`), ``progress`` hears about it.
    ``method="dfpn"``: proof-number search (win/loss only) instead of alpha-beta.
    """
    compile_seconds = warm_up()
    kernel = SuperNonnectKernel(
        game,
        remoteness=remoteness,
        tt_entries=tt_entries,
        symmetry_cuts=None if symmetry else -1,
        mobility_ordering=mobility_ordering,
        method=method,
    )
    result = run_solve(
        kernel,
        game,
        position,
        compile_seconds=compile_seconds,
        principal_variation=principal_variation,
        move_values=move_values,
        max_seconds=max_seconds,
        progress=progress,
        symmetry=symmetry,
    )
    result.extra["method"] = method
    return result


# ------------------------------------------------------------------ playout plug-in
# The compiled playout interface of solvers.playout (read its docstring): a state is the cut
# cells (two words, compact numbering), the designated mini-board + 1 (0: the free first
# cut) and the player to move; a move code is the compact cell.


@njit(cache=True)
def playout_generate(state: np.ndarray, tables: Any, out: np.ndarray) -> I64:
    full, neighbours, boards, target, ctl, _ = tables
    designated = np.int64(state[2]) - 1
    return generate_moves(
        state[0], state[1], designated, full, neighbours, boards, target, ctl, out
    )


@njit(cache=True)
def playout_final(state: np.ndarray, tables: Any) -> I64:
    return -1  # normal play: the player with no cut loses


@njit(cache=True)
def playout_play(state: np.ndarray, code: I64, tables: Any, child: np.ndarray) -> None:
    target = tables[3]
    child[:] = state
    child[code >> 6] |= _U1 << np.uint64(code & 63)
    child[2] = np.uint64(target[code] + 1)
    child[3] = np.uint64(1) - state[3]


@njit(cache=True)
def playout_mover(state: np.ndarray, tables: Any) -> I64:
    return np.int64(state[3])


@njit(cache=True, inline="always")
def playout_key(state: np.ndarray, tables: Any) -> tuple[U64, U64, I64, I64]:
    """The cut cells and the designated mini-board: the game is impartial, so the player
    to move is not part of the key."""
    return state[0], state[1], np.int64(state[2]), np.int64(0)


def playout_rules(game: Game[Any, Any]) -> PlayoutRules:
    """Super Nonnect's playout interface (every shape up to 128 cells, both rules) on the
    search's move generator."""
    from cgt.games.super_nonnect import SuperNonnectPosition

    kernel = SuperNonnectKernel(game, tt_entries=64, max_ply=1)
    tables = (
        kernel.full,
        kernel.neighbours,
        kernel.boards,
        kernel.target,
        kernel.ctl,
        np.zeros(0, dtype=np.int64),
    )

    def encode(position: Any) -> np.ndarray:
        lo, hi, designated = kernel.check_position(position)
        return np.array([lo, hi, designated + 1, position[2]], dtype=np.uint64)

    def decode(state: np.ndarray) -> Any:
        compact = int(state[0]) | int(state[1]) << 64
        cut = sum(1 << c for i, c in enumerate(kernel.game_cell) if compact >> i & 1)
        return SuperNonnectPosition(cut, int(state[2]) - 1, int(state[3]))

    return plug_in(
        sys.modules[__name__],
        game,
        words=4,
        max_moves=MOVE_CODES,
        alternating=True,
        tables=tables,
        encode=encode,
        decode=decode,
        code_of=lambda position, move: kernel.compact[move],
        move_of=lambda position, code: kernel.game_cell[code],
    )


PLUGIN = KernelPlugin(
    "super-nonnect",
    solve_super_nonnect,
    kernel_class=SuperNonnectKernel,
    methods=("alphabeta", "dfpn"),
    playout=playout_rules,
)
