"""Compiled retrograde analysis of Entropy (cgt.games.entropy) over a perfectly ranked,
packed position space.

Why not the generic solvers: Entropy's graph has cycles (endless play is a draw), so a
depth-first search needs the path-dependent draw handling of :mod:`solvers.alphabeta`, and
:mod:`solvers.retrograde` keeps a Python dictionary entry per position. Here every placement
of ``k1`` O pieces and ``k2`` S pieces on the ``m x n`` board (plus the side to move) has an
integer index, so the whole space is two flat numpy arrays and no key is ever stored:
"dense" retrograde analysis.

Rules
-----
A second, independent statement of the rules on uint64 bitboards (cell ``rank * width +
file`` as in the game module): queen slides of pieces that have a friendly neighbour; while
the mover has isolated pieces only slides after which none of them is isolated; no legal
slide means a pass; the goal is checked for both players after every move (both at once: a
draw; neither can move and nobody has won: a draw); ``goal=disable`` drops the "touches an
enemy" half of the goal. Moves come out in the order of :meth:`Entropy.real_moves`. Tests
compare both statements move for move on random positions.

Perfect ranking
---------------
A placement is ranked with the combinatorial number system (colex order): the O set among
all ``N`` cells (``C(N, k1)`` ranks), then the S set among the ``N - k1`` cells O leaves free
(``C(N - k1, k2)`` ranks); the side to move is the most significant digit. With ``symmetry``
the O set is replaced by its class under the board's symmetries (8 on a square, 4 on a
rectangle): a table over all O ranks gives the class and a symmetry taking the set to the
class representative (its smallest-rank image). Positions are ``(side, class, S rank)``;
when the representative has a non-trivial stabiliser, only the S set of smallest rank among
the stabiliser's images is canonical, the other indices are marked :data:`DUPLICATE` and
never used. That keeps the index a cheap arithmetic function and the space about 1/8 (1/4)
of the full one.

Retrograde
----------
The space is a plug-in of the engine's packed retrograde by levels
(:mod:`solvers.engine_levels`, :mod:`solvers.levels`: scan, levels, frontier, parallel
rounds, values), which asks this module only what is Entropy's: the ranking
(:func:`levels_unrank`, with Gosper's next-combination step within a (side, O class) block,
:func:`levels_successor`), the scan of one index (:func:`levels_scan`: a duplicate, the end
of the game, or the number of moves, a forced pass counting as one) and the parents of a
decided child (:func:`child_updates`): un-moves (a piece of the player who just moved slides
back along a queen ray over empty cells; the parent is kept when that slide is legal there:
the piece had a friendly neighbour and every isolated piece of the mover is resolved by it)
and an un-pass (same placement, the other side to move, kept when that side has no real
move).

With symmetry, a decided child whose placement no symmetry fixes (nearly all of them)
generates un-moves from itself only and maps each parent to its canonical index; one such
un-move stands for as many of the parent's moves as the parent's stabiliser has elements,
so the counter drops by that weight (proof in :func:`child_updates`). A child that some
symmetry fixes generates un-moves from every distinct image and keeps the parents that are
canonical: then every (canonical parent, move) pair into its class is found exactly once.

Every index of the space is solved, reachable from the start or not; positions with other
piece counts are a different space.
"""

from __future__ import annotations

import sys
import time
from math import comb
from typing import Any

import numpy as np
from numba import njit

from cgt.errors import ParameterError, PositionError, unpack_position
from cgt.protocol import Game, Outcome
from solvers.engine_levels import (  # the value codes, for this module's readers too
    DUPLICATE as DUPLICATE,
)
from solvers.engine_levels import (
    SCAN_DRAW,
    SCAN_DUPLICATE,
    SCAN_LOSS,
    SCAN_WIN,
    UNRESOLVED,
    UPDATE_SCALE,
)
from solvers.engine_levels import TERMINAL_DRAW as TERMINAL_DRAW
from solvers.engine_levels import WIN_BASE as WIN_BASE
from solvers.kernel_base import compile_once
from solvers.kernel_table import I64, U64, popcount
from solvers.kernel_table import cell_bit as _bit
from solvers.kernel_table import lowest_cell as _low
from solvers.kernels.packed import PackedSummary, packed_solver
from solvers.kernels.plugin import KernelPlugin
from solvers.levels import LevelsRules, LevelsSpace, index_bytes
from solvers.levels import RetrogradeBudgetExceeded as RetrogradeBudgetExceeded
from solvers.memory import require_memory
from solvers.playout import PlayoutRules, int_words, plug_in
from solvers.ranking import cells_of, colex_rank

#: Kernel move code of the pass; a slide is ``64 * from + to``.
KERNEL_PASS = -1
#: Not a terminal position (terminal codes are the Outcome values -1, 0, 1).
NOT_TERMINAL = 2
#: Room for every move code list.
MOVE_BUFFER = 64 * 64
#: Working room of :func:`child_updates` (uint64): the images of a child's placement.
SCRATCH_WORDS = 16
#: Words of a scan state: O cells, S cells, side, compressed S set, free cells, class, S rank.
SCAN_WORDS = 7

# indices into the configuration array ``cfg`` (int64)
C_CELLS = 0
C_K1 = 1
C_K2 = 2
C_NEEDS_ENEMY = 3
C_CLASSES = 4
C_S_RANKS = 5
C_SYMMETRIES = 6
CFG_LENGTH = 8

_U0 = np.uint64(0)
_U1 = np.uint64(1)


@njit(cache=True)
def transform_mask(mask: U64, perm_row: np.ndarray) -> U64:
    """Image of a cell set under one symmetry (``perm_row[c]``: image of cell c)."""
    out = _U0
    while mask != _U0:
        out |= _bit(perm_row[_low(mask)])
        mask &= mask - _U1
    return out


# ------------------------------------------------------------------------------- rules
@njit(cache=True)
def goal_met(mine: U64, theirs: U64, king: np.ndarray, needs_enemy: I64) -> bool:
    """No piece of ``mine`` touches a friend and (standard goal) each touches an enemy."""
    m = mine
    while m != _U0:
        cell = _low(m)
        m &= m - _U1
        if king[cell] & mine != _U0:
            return False
        if needs_enemy != 0 and king[cell] & theirs == _U0:
            return False
    return True


@njit(cache=True, inline="always")
def _isolated(mine: U64, occupied: U64, king: np.ndarray) -> U64:
    iso = _U0
    m = mine
    while m != _U0:
        cell = _low(m)
        m &= m - _U1
        if king[cell] & occupied == _U0:
            iso |= _bit(cell)
    return iso


@njit(cache=True, inline="always")
def _all_touch(cells: U64, occupied: U64, king: np.ndarray) -> bool:
    while cells != _U0:
        if king[_low(cells)] & occupied == _U0:
            return False
        cells &= cells - _U1
    return True


@njit(cache=True)
def generate_moves(
    mine: U64,
    occupied: U64,
    king: np.ndarray,
    rays: np.ndarray,
    ray_len: np.ndarray,
    out: np.ndarray,
) -> I64:
    """Real moves (``64 * from + to``) of the player owning ``mine``, in the readable
    module's order (source cells ascending, then its rays, nearest target first); 0 means
    the player must pass."""
    iso = _isolated(mine, occupied, king)
    count = 0
    m = mine
    while m != _U0:
        source = _low(m)
        m &= m - _U1
        if king[source] & mine == _U0:
            continue  # no friendly neighbour: this piece may not move
        for d in range(8):
            for j in range(ray_len[source, d]):
                target = rays[source, d, j]
                target_bit = _bit(target)
                if occupied & target_bit != _U0:
                    break
                if iso != _U0 and not _all_touch(iso, occupied ^ _bit(source) ^ target_bit, king):
                    continue
                out[count] = 64 * source + target
                count += 1
    return count


@njit(cache=True)
def has_move(
    mine: U64, occupied: U64, king: np.ndarray, rays: np.ndarray, ray_len: np.ndarray
) -> bool:
    """Whether the player owning ``mine`` has a real move (not only the pass)."""
    iso = _isolated(mine, occupied, king)
    m = mine
    while m != _U0:
        source = _low(m)
        m &= m - _U1
        if king[source] & mine == _U0:
            continue
        if iso == _U0:
            if king[source] & ~occupied != _U0:  # an empty neighbour is a first queen step
                return True
            continue
        for d in range(8):
            for j in range(ray_len[source, d]):
                target_bit = _bit(rays[source, d, j])
                if occupied & target_bit != _U0:
                    break
                if _all_touch(iso, occupied ^ _bit(source) ^ target_bit, king):
                    return True
    return False


@njit(cache=True)
def terminal_code(
    o_cells: U64,
    s_cells: U64,
    side: I64,
    king: np.ndarray,
    rays: np.ndarray,
    ray_len: np.ndarray,
    needs_enemy: I64,
) -> I64:
    """Outcome value (1 win, -1 loss, 0 draw) for the player to move of a finished game,
    :data:`NOT_TERMINAL` otherwise."""
    o_won = goal_met(o_cells, s_cells, king, needs_enemy)
    s_won = goal_met(s_cells, o_cells, king, needs_enemy)
    if o_won and s_won:
        return 0
    if o_won or s_won:
        winner = 0 if o_won else 1
        return 1 if winner == side else -1
    occupied = o_cells | s_cells
    if not has_move(o_cells, occupied, king, rays, ray_len) and not has_move(
        s_cells, occupied, king, rays, ray_len
    ):
        return 0
    return NOT_TERMINAL


# ----------------------------------------------------------------------------- ranking
@njit(cache=True, inline="always")
def rank_set(mask: U64, binom: np.ndarray) -> I64:
    """Colex rank of a cell set among the sets of its size: sum of C(c_i, i + 1)."""
    rank = 0
    i = 1
    while mask != _U0:
        rank += binom[_low(mask), i]
        i += 1
        mask &= mask - _U1
    return rank


@njit(cache=True)
def unrank_set(rank: I64, size: I64, cells: I64, binom: np.ndarray) -> U64:
    """The cell set of ``size`` cells among ``0..cells-1`` with colex rank ``rank``."""
    mask = _U0
    cell = cells - 1
    for i in range(size, 0, -1):
        while binom[cell, i] > rank:
            cell -= 1
        rank -= binom[cell, i]
        mask |= _bit(cell)
        cell -= 1
    return mask


@njit(cache=True, inline="always")
def compress(mask: U64, free: U64) -> U64:
    """``mask`` (a subset of ``free``) renumbered as positions among the cells of ``free``."""
    out = _U0
    while mask != _U0:
        cell = _low(mask)
        mask &= mask - _U1
        out |= _bit(popcount(free & (_bit(cell) - _U1)))
    return out


@njit(cache=True, inline="always")
def expand(compact: U64, free: U64) -> U64:
    """Inverse of :func:`compress`: bit i of ``compact`` is the i-th cell of ``free``."""
    out = _U0
    while compact != _U0 and free != _U0:
        low = free & (~free + _U1)
        if compact & _U1 != _U0:
            out |= low
        compact >>= _U1
        free ^= low
    return out


@njit(cache=True)
def build_classes(
    cfg: np.ndarray,
    perm: np.ndarray,
    binom: np.ndarray,
    class_of: np.ndarray,
    sym_of: np.ndarray,
    rep_mask: np.ndarray,
    stab: np.ndarray,
) -> I64:
    """Symmetry classes of the O sets: for every O rank its class and a symmetry taking it to
    the class representative (the image of smallest rank); for every class the
    representative and the bit set of the non-identity symmetries fixing it. Returns the
    number of classes."""
    cells = cfg[C_CELLS]
    k1 = cfg[C_K1]
    symmetries = cfg[C_SYMMETRIES]
    classes = 0
    for rank in range(binom[cells, k1]):
        o_cells = unrank_set(rank, k1, cells, binom)
        best = rank
        best_sym = 0
        for g in range(1, symmetries):
            image = rank_set(transform_mask(o_cells, perm[g]), binom)
            if image < best:
                best = image
                best_sym = g
        if best == rank:
            fixing = 0
            for g in range(1, symmetries):
                if transform_mask(o_cells, perm[g]) == o_cells:
                    fixing |= 1 << g
            class_of[rank] = classes
            rep_mask[classes] = o_cells
            stab[classes] = fixing
            classes += 1
        else:
            class_of[rank] = class_of[best]
        sym_of[rank] = best_sym
    return classes


@njit(cache=True, inline="always")
def _rank_in_class(
    cls: I64, s_cells: U64, s_rank: I64, free: U64, cfg: np.ndarray, perm: np.ndarray,
    binom: np.ndarray, stab: np.ndarray,
) -> tuple[I64, I64]:  # fmt: skip
    """Canonical S rank of a position whose O set is its class representative (``free``:
    the cells that set leaves), given the rank ``s_rank`` of its own S set, and the order of
    its stabiliser (the symmetries mapping the placement onto itself, identity included)."""
    order = 1
    fixing = stab[cls]
    if fixing != 0:
        for h in range(1, cfg[C_SYMMETRIES]):
            if fixing >> h & 1:
                image_s = transform_mask(s_cells, perm[h])
                if image_s == s_cells:
                    order += 1
                    continue
                image = rank_set(compress(image_s, free), binom)
                if image < s_rank:
                    s_rank = image
    return s_rank, order


@njit(cache=True)
def canonical_index_and_stabiliser(
    o_cells: U64,
    s_cells: U64,
    side: I64,
    full: U64,
    cfg: np.ndarray,
    perm: np.ndarray,
    binom: np.ndarray,
    class_of: np.ndarray,
    sym_of: np.ndarray,
    rep_mask: np.ndarray,
    stab: np.ndarray,
) -> tuple[I64, I64]:
    """Index of the canonical image of a position and the order of the position's
    stabiliser (the symmetries mapping its placement onto itself, the identity included)."""
    o_rank = rank_set(o_cells, binom)
    cls = np.int64(class_of[o_rank])
    g = sym_of[o_rank]
    if g != 0:
        s_cells = transform_mask(s_cells, perm[g])
    free = full & ~rep_mask[cls]
    s_rank, order = _rank_in_class(
        cls, s_cells, rank_set(compress(s_cells, free), binom), free, cfg, perm, binom, stab
    )
    return (side * cfg[C_CLASSES] + cls) * cfg[C_S_RANKS] + s_rank, order


@njit(cache=True)
def canonical_index(
    o_cells: U64,
    s_cells: U64,
    side: I64,
    full: U64,
    cfg: np.ndarray,
    perm: np.ndarray,
    binom: np.ndarray,
    class_of: np.ndarray,
    sym_of: np.ndarray,
    rep_mask: np.ndarray,
    stab: np.ndarray,
) -> I64:
    """Index of the canonical image of a position (the position itself without symmetry)."""
    return canonical_index_and_stabiliser(
        o_cells, s_cells, side, full, cfg, perm, binom, class_of, sym_of, rep_mask, stab
    )[0]


@njit(cache=True)
def index_if_canonical(
    o_cells: U64,
    s_cells: U64,
    side: I64,
    full: U64,
    cfg: np.ndarray,
    perm: np.ndarray,
    binom: np.ndarray,
    class_of: np.ndarray,
    rep_mask: np.ndarray,
    stab: np.ndarray,
) -> I64:
    """Index of a position that is its class's canonical position, -1 for any other."""
    cls = np.int64(class_of[rank_set(o_cells, binom)])
    if rep_mask[cls] != o_cells:
        return -1
    free = full & ~o_cells
    s_rank = rank_set(compress(s_cells, free), binom)
    fixing = stab[cls]
    if fixing != 0:
        for h in range(1, cfg[C_SYMMETRIES]):
            if (fixing >> h & 1) and rank_set(
                compress(transform_mask(s_cells, perm[h]), free), binom
            ) < s_rank:
                return -1
    return (side * cfg[C_CLASSES] + cls) * cfg[C_S_RANKS] + s_rank


@njit(cache=True)
def position_of(
    index: I64, full: U64, cfg: np.ndarray, binom: np.ndarray, rep_mask: np.ndarray
) -> tuple[U64, U64, I64]:
    """(O cells, S cells, side to move) of an index (the inverse of the ranking)."""
    s_ranks = cfg[C_S_RANKS]
    block = index // s_ranks
    s_rank = index - block * s_ranks
    side = block // cfg[C_CLASSES]
    o_cells = rep_mask[block - side * cfg[C_CLASSES]]
    free_count = cfg[C_CELLS] - cfg[C_K1]
    s_cells = expand(unrank_set(s_rank, cfg[C_K2], free_count, binom), full & ~o_cells)
    return o_cells, s_cells, side


# ------------------------------------------------------------- the levels retrograde's hooks
# The hooks of solvers.engine_levels (docs/engine.md, "A ranked space"); ``tables`` is
# EntropySpace.tables().
@njit(cache=True, inline="always")
def levels_unrank(index: I64, tables: Any, state: np.ndarray) -> None:
    """The scan state of ``index``: (O cells, S cells, side, compressed S set, free cells,
    class, S rank)."""
    full, cfg, _, _, _, _, binom, _, _, rep_mask, _ = tables
    s_ranks = cfg[C_S_RANKS]
    block = index // s_ranks
    s_rank = index - block * s_ranks
    side = block // cfg[C_CLASSES]
    cls = block - side * cfg[C_CLASSES]
    o_cells = rep_mask[cls]
    free = full & ~o_cells
    compact = unrank_set(s_rank, cfg[C_K2], cfg[C_CELLS] - cfg[C_K1], binom)
    state[0] = o_cells
    state[1] = expand(compact, free)
    state[2] = side
    state[3] = compact
    state[4] = free
    state[5] = cls
    state[6] = s_rank


@njit(cache=True, inline="always")
def levels_successor(state: np.ndarray, tables: Any) -> bool:
    """The next S set of the same (side, O class) block in colex order (Gosper's
    next-combination step); False at the block's end."""
    cfg = tables[1]
    s_rank = np.int64(state[6])
    if s_rank + 1 >= cfg[C_S_RANKS]:
        return False
    compact = state[3]
    lowest = compact & (~compact + _U1)
    ripple = compact + lowest
    compact = (((ripple ^ compact) >> np.uint64(2)) // lowest) | ripple
    state[1] = expand(compact, state[4])
    state[3] = compact
    state[6] = s_rank + 1
    return True


@njit(cache=True, inline="always")
def levels_scan(index: I64, state: np.ndarray, tables: Any, moves: np.ndarray) -> I64:
    """A non-canonical index is a duplicate (its S set is not the smallest among the images
    under the O class representative's stabiliser); else the end of the game or the number
    of moves (a forced pass counts as one)."""
    _, cfg, king, rays, ray_len, perm, binom, _, _, _, stab = tables
    o_cells = state[0]
    s_cells = state[1]
    side = np.int64(state[2])
    fixing = stab[np.int64(state[5])]
    if fixing != 0:
        free = state[4]
        s_rank = np.int64(state[6])
        for h in range(1, cfg[C_SYMMETRIES]):
            if fixing >> h & 1:
                image = compress(transform_mask(s_cells, perm[h]), free)
                if rank_set(image, binom) < s_rank:
                    return SCAN_DUPLICATE
    code = terminal_code(o_cells, s_cells, side, king, rays, ray_len, cfg[C_NEEDS_ENEMY])
    if code == NOT_TERMINAL:
        mine = o_cells if side == 0 else s_cells
        count = generate_moves(mine, o_cells | s_cells, king, rays, ray_len, moves)
        return count if count > 0 else 1
    if code == 0:
        return SCAN_DRAW
    return SCAN_WIN if code == 1 else SCAN_LOSS


@njit(cache=True, inline="always")
def _slide_was_legal(
    parent_mine: U64, parent_occupied: U64, occupied: U64, king: np.ndarray
) -> bool:
    """Whether the un-moved slide was legal in the parent: every piece of the mover that
    was isolated there touches a piece after it (the sliding piece had a friend, checked
    before)."""
    rest = parent_mine
    while rest != _U0:
        cell = _low(rest)
        rest &= rest - _U1
        if king[cell] & parent_occupied == _U0 and king[cell] & occupied == _U0:
            return False
    return True


@njit(cache=True)
def _updates_from_every_image(
    o_cells: U64,
    s_cells: U64,
    mover: I64,
    weight: I64,
    full: U64,
    cfg: np.ndarray,
    king: np.ndarray,
    rays: np.ndarray,
    ray_len: np.ndarray,
    perm: np.ndarray,
    binom: np.ndarray,
    class_of: np.ndarray,
    rep_mask: np.ndarray,
    stab: np.ndarray,
    value: np.ndarray,
    out: np.ndarray,
    count: I64,
    scratch: np.ndarray,
) -> I64:
    """Parents of a child with a non-trivial stabiliser: un-moves from every distinct image
    of the child, keeping the parents that are canonical, so each (canonical parent, move
    into the child's class) pair is found once (see :func:`child_updates`)."""
    symmetries = cfg[C_SYMMETRIES]
    images_o = scratch[:8]
    images_s = scratch[8:16]
    distinct = 0
    for g in range(symmetries):
        image_o = transform_mask(o_cells, perm[g]) if g else o_cells
        image_s = transform_mask(s_cells, perm[g]) if g else s_cells
        seen = False
        for i in range(distinct):
            if images_o[i] == image_o and images_s[i] == image_s:
                seen = True
                break
        if not seen:
            images_o[distinct] = image_o
            images_s[distinct] = image_s
            distinct += 1
    for i in range(distinct):
        image_o = images_o[i]
        image_s = images_s[i]
        # S moved, so every parent keeps this O set: it must be a representative
        if mover == 1 and rep_mask[class_of[rank_set(image_o, binom)]] != image_o:
            continue
        occupied = image_o | image_s
        mine = image_o if mover == 0 else image_s
        # un-pass: same placement, the mover had no real move
        parent = index_if_canonical(
            image_o, image_s, mover, full, cfg, perm, binom, class_of, rep_mask, stab
        )
        if (
            parent >= 0
            and value[parent] == UNRESOLVED
            and not has_move(mine, occupied, king, rays, ray_len)
        ):
            out[count] = parent * UPDATE_SCALE + weight
            count += 1
        # un-moves: a piece of the mover slides back from b to a
        m = mine
        while m != _U0:
            b = _low(m)
            m &= m - _U1
            b_bit = _bit(b)
            for d in range(8):
                for j in range(ray_len[b, d]):
                    a = rays[b, d, j]
                    a_bit = _bit(a)
                    if occupied & a_bit != _U0:
                        break
                    parent_mine = mine ^ b_bit ^ a_bit
                    if king[a] & parent_mine == _U0:
                        continue  # the piece on a had no friend: it could not move
                    if mover == 0:
                        parent = index_if_canonical(
                            parent_mine, image_s, 0, full, cfg, perm, binom, class_of,
                            rep_mask, stab,
                        )  # fmt: skip
                    else:
                        parent = index_if_canonical(
                            image_o, parent_mine, 1, full, cfg, perm, binom, class_of,
                            rep_mask, stab,
                        )  # fmt: skip
                    if parent < 0 or value[parent] != UNRESOLVED:
                        continue  # not canonical, or decided (terminal parents too)
                    if _slide_was_legal(parent_mine, occupied ^ b_bit ^ a_bit, occupied, king):
                        out[count] = parent * UPDATE_SCALE + weight
                        count += 1
    return count


@njit(cache=True)
def child_updates(
    index: I64,
    child_loses: bool,
    full: U64,
    cfg: np.ndarray,
    king: np.ndarray,
    rays: np.ndarray,
    ray_len: np.ndarray,
    perm: np.ndarray,
    binom: np.ndarray,
    class_of: np.ndarray,
    sym_of: np.ndarray,
    rep_mask: np.ndarray,
    stab: np.ndarray,
    value: np.ndarray,
    out: np.ndarray,
    count: I64,
    scratch: np.ndarray,
) -> I64:
    """Append to ``out[count:]`` one update ``parent * UPDATE_SCALE + weight`` per un-move
    (or un-pass) of the decided child ``index`` into a canonical parent that is still
    unresolved; ``weight`` 0 means "the parent wins" (the child loses), else the number of
    the parent's moves the update accounts for. Only reads ``value``; ``scratch`` (16
    uint64) is working room for the child's images. Returns the new length.

    Why one un-move can stand for several moves. Let G be the symmetry group, C the child
    with a trivial stabiliser (its images g(C), g in G, are pairwise distinct) and P a
    canonical parent with stabiliser S (a subgroup of G). The parent's moves into the
    class of C are the pairs (P, m) with P.m = g(C) for some g; g is unique because the
    images of C are distinct, so they number M = sum over g of moves(P -> g(C)). The
    un-moves generated from C alone that land in P's class are the pairs (Q, m') with Q an
    image of P and Q.m' = C. For every h in G, h maps the moves P -> h^-1(C) one to one
    onto the moves h(P) -> C, so sum over h in G of moves(h(P) -> C) = M; and h(P) = Q for
    exactly |S| elements h (one coset of S) for each of the |G| / |S| images Q. Hence the
    un-moves from C into P's class number M / |S|: each stands for |S| moves of P, the
    weight, and the counter drops by M in total, as when every move is counted once. (A
    win needs only one losing child, so its weight is irrelevant.) An un-pass keeps the
    placement, so the parent's stabiliser is C's, trivial here: weight 1.

    A child with a non-trivial stabiliser falls back to un-moves from every distinct image,
    keeping canonical parents only: there each (canonical parent, move) pair into the
    class is found exactly once, weight 1. Without symmetry G is trivial and both agree.
    """
    classes = cfg[C_CLASSES]
    s_ranks = cfg[C_S_RANKS]
    block = index // s_ranks
    child_side = block // classes
    cls = block - child_side * classes
    o_cells = rep_mask[cls]
    free = full & ~o_cells
    compact = unrank_set(index - block * s_ranks, cfg[C_K2], cfg[C_CELLS] - cfg[C_K1], binom)
    s_cells = expand(compact, free)
    mover = 1 - child_side  # every move and pass hands the turn over
    fixing = stab[cls]
    if fixing != 0:  # O set symmetric: is the whole placement?
        for h in range(1, cfg[C_SYMMETRIES]):
            if fixing >> h & 1 and transform_mask(s_cells, perm[h]) == s_cells:
                return _updates_from_every_image(
                    o_cells, s_cells, mover, 0 if child_loses else 1, full, cfg, king,
                    rays, ray_len, perm, binom, class_of, rep_mask, stab, value, out, count,
                    scratch,
                )  # fmt: skip
    occupied = o_cells | s_cells
    mine = o_cells if mover == 0 else s_cells
    # un-pass: same placement (canonical as the child is), the mover had no real move
    parent = index + (mover - child_side) * classes * s_ranks
    if value[parent] == UNRESOLVED and not has_move(mine, occupied, king, rays, ray_len):
        out[count] = parent * UPDATE_SCALE + (0 if child_loses else 1)
        count += 1
    # S un-moves keep the O set (the representative) and the block: only the S rank
    # changes, and the compressed S set changes by the two cells b and a. O un-moves keep
    # the S set: its images under every symmetry serve all of them.
    parent_block = (mover * classes + cls) * s_ranks
    s_images = scratch[:8]
    if mover == 0:
        for g in range(cfg[C_SYMMETRIES]):
            s_images[g] = transform_mask(s_cells, perm[g])
    m = mine
    while m != _U0:
        b = _low(m)
        m &= m - _U1
        b_bit = _bit(b)
        for d in range(8):
            for j in range(ray_len[b, d]):
                a = rays[b, d, j]
                a_bit = _bit(a)
                if occupied & a_bit != _U0:
                    break
                parent_mine = mine ^ b_bit ^ a_bit
                if king[a] & parent_mine == _U0:
                    continue  # the piece on a had no friend: it could not move
                if mover == 0:
                    o_rank = rank_set(parent_mine, binom)
                    parent_cls = np.int64(class_of[o_rank])
                    parent_s = s_images[sym_of[o_rank]]
                    parent_free = full & ~rep_mask[parent_cls]
                    s_rank, order = _rank_in_class(
                        parent_cls, parent_s, rank_set(compress(parent_s, parent_free), binom),
                        parent_free, cfg, perm, binom, stab,
                    )  # fmt: skip
                    parent = parent_cls * s_ranks + s_rank  # side 0
                else:
                    parent_compact = (
                        compact
                        ^ _bit(popcount(free & (b_bit - _U1)))
                        ^ _bit(popcount(free & (a_bit - _U1)))
                    )
                    s_rank, order = _rank_in_class(
                        cls, parent_mine, rank_set(parent_compact, binom), free, cfg, perm,
                        binom, stab,
                    )  # fmt: skip
                    parent = parent_block + s_rank
                if value[parent] != UNRESOLVED:
                    continue  # decided (terminal parents too)
                if _slide_was_legal(parent_mine, occupied ^ b_bit ^ a_bit, occupied, king):
                    out[count] = parent * UPDATE_SCALE + (0 if child_loses else order)
                    count += 1
    return count


@njit(cache=True, inline="always")
def levels_parents(
    index: I64,
    child_loses: bool,
    tables: Any,
    value: np.ndarray,
    out: np.ndarray,
    count: I64,
    scratch: np.ndarray,
) -> I64:
    """The un-moves of a decided child: :func:`child_updates`."""
    full, cfg, king, rays, ray_len, perm, binom, class_of, sym_of, rep_mask, stab = tables
    return child_updates(
        index, child_loses, full, cfg, king, rays, ray_len, perm, binom, class_of, sym_of,
        rep_mask, stab, value, out, count, scratch,
    )  # fmt: skip


# --------------------------------------------------------------------- Python side
class EntropySpace(LevelsSpace):
    """The ranked position space of one Entropy game (its board, piece counts and goal),
    its rule tables and, after :meth:`solve`, every position's value.

    ``symmetry`` ranks O sets by symmetry class (8 symmetries on a square board, 4 on a
    rectangle); without it every placement has its own index.
    """

    def __init__(self, game: Game[Any, Any], *, symmetry: bool = True) -> None:
        if game.name != "entropy":
            raise ParameterError(f"the compiled Entropy kernel cannot solve {game.name!r}")
        super().__init__()
        board = game.board  # type: ignore[attr-defined]
        cells = board.size
        if cells > 64:
            raise ParameterError(f"the compiled Entropy kernel needs m*n <= 64, got {cells} cells")
        self.game = game
        self.board = board
        self.symmetry = symmetry
        self.k1, self.k2 = game.piece_counts  # type: ignore[attr-defined]
        self.cells = cells
        self.full = np.uint64((1 << cells) - 1)
        self.king = np.array(board.king_mask, dtype=np.uint64)
        longest = max(board.width, board.height) - 1
        self.rays = np.zeros((cells, 8, max(longest, 1)), dtype=np.int64)
        self.ray_len = np.zeros((cells, 8), dtype=np.int64)
        for c in range(cells):
            for d, ray in enumerate(board.rays[c]):
                self.ray_len[c, d] = len(ray)
                self.rays[c, d, : len(ray)] = ray
        symmetry_ids = board.symmetry_ids if symmetry else (0,)
        self.perm = np.array([board.symmetries[s] for s in symmetry_ids], dtype=np.int64)
        self.binom = np.array([[comb(n, k) for k in range(65)] for n in range(65)], dtype=np.int64)
        self.o_ranks = comb(cells, self.k1)
        self.s_ranks = comb(cells - self.k1, self.k2)
        self.cfg = np.zeros(CFG_LENGTH, dtype=np.int64)
        self.cfg[C_CELLS] = cells
        self.cfg[C_K1] = self.k1
        self.cfg[C_K2] = self.k2
        self.cfg[C_NEEDS_ENEMY] = 1 if game.goal == "standard" else 0  # type: ignore[attr-defined]
        self.cfg[C_S_RANKS] = self.s_ranks
        self.cfg[C_SYMMETRIES] = len(symmetry_ids)
        self.classes = 0
        self.class_of = np.zeros(0, dtype=np.int32)
        self.sym_of = np.zeros(0, dtype=np.int8)
        self.rep_mask = np.zeros(0, dtype=np.uint64)
        self.stab = np.zeros(0, dtype=np.int64)
        self._moves = np.zeros(MOVE_BUFFER, dtype=np.int64)

    # ---------------------------------------------------------------- sizes
    def max_moves(self) -> int:
        """An upper bound on the legal moves of a position (counters must hold it)."""
        per_cell = max(int(self.ray_len[c].sum()) for c in range(self.cells))
        return max(self.k1, self.k2) * per_cell

    def estimated_classes(self) -> int:
        """Classes of O sets: exact without symmetry, the orbit-counting bound with it."""
        return -(-self.o_ranks // int(self.cfg[C_SYMMETRIES]))

    def bytes_needed(self, classes: int | None = None) -> int:
        """Bytes of the arrays: value (2) and counter (1 or 2) per index, the class tables
        (int32 + int8 per O rank, uint64 + int64 per class)."""
        if classes is None:
            classes = self.o_ranks if not self.symmetry else self.estimated_classes()
        per_index = index_bytes(self.max_moves())
        return 2 * classes * self.s_ranks * per_index + 5 * self.o_ranks + 16 * classes

    def check_memory(self) -> None:
        """Refuse before allocating anything when the arrays cannot fit."""
        require_memory(
            self.bytes_needed(),
            f"packed Entropy retrograde ({self.cells} cells, {self.k1}+{self.k2} pieces, "
            f"about {2 * self.estimated_classes() * self.s_ranks:,} indices)",
            "use fewer pieces or a smaller board",
        )

    # ---------------------------------------------------------------- tables
    def build_tables(self) -> None:
        started = time.perf_counter()
        cpu = time.process_time()
        self.class_of = np.zeros(self.o_ranks, dtype=np.int32)
        self.sym_of = np.zeros(self.o_ranks, dtype=np.int8)
        rep_mask = np.zeros(self.o_ranks, dtype=np.uint64)
        stab = np.zeros(self.o_ranks, dtype=np.int64)
        self.classes = int(
            build_classes(
                self.cfg, self.perm, self.binom, self.class_of, self.sym_of, rep_mask, stab
            )
        )
        self.rep_mask = rep_mask[: self.classes].copy()
        self.stab = stab[: self.classes].copy()
        self.cfg[C_CLASSES] = self.classes
        self.seconds["tables"] = time.perf_counter() - started
        self.cpu_seconds["tables"] = time.process_time() - cpu

    @property
    def size(self) -> int:
        """Indices in the ranked space (canonical or not)."""
        return 2 * self.classes * self.s_ranks

    # ---------------------------------------------------------------- positions
    def check_position(self, position: Any) -> tuple[int, int, int]:
        o_cells, s_cells, side = unpack_position(
            position, 3, "an Entropy position is (O, S, player)"
        )
        if not all(isinstance(v, int) for v in (o_cells, s_cells, side)) or side not in (0, 1):
            raise PositionError(f"an Entropy position holds two bitboards and 0/1: {position!r}")
        if o_cells < 0 or s_cells < 0 or (o_cells | s_cells) >> self.cells or o_cells & s_cells:
            raise PositionError(f"not a placement on the {self.cells}-cell board: {position!r}")
        counts = (o_cells.bit_count(), s_cells.bit_count())
        if counts != (self.k1, self.k2):
            raise PositionError(
                f"position has {counts[0]} O and {counts[1]} S pieces; this space has "
                f"{self.k1} and {self.k2}"
            )
        return o_cells, s_cells, side

    def moves(self, position: Any) -> list[tuple[int, int]]:
        """Legal moves by the compiled generator, as the game's moves (pass: ``(-1, -1)``)."""
        o_cells, s_cells, side = self.check_position(position)
        mine = o_cells if side == 0 else s_cells
        count = generate_moves(
            np.uint64(mine),
            np.uint64(o_cells | s_cells),
            self.king,
            self.rays,
            self.ray_len,
            self._moves,
        )
        if count == 0:
            return [(-1, -1)]
        return [(int(code) // 64, int(code) % 64) for code in self._moves[:count]]

    def result_code(self, position: Any) -> Outcome | None:
        """The end-of-game result by the compiled rules (``None``: the game goes on)."""
        o_cells, s_cells, side = self.check_position(position)
        code = terminal_code(
            np.uint64(o_cells),
            np.uint64(s_cells),
            side,
            self.king,
            self.rays,
            self.ray_len,
            self.cfg[C_NEEDS_ENEMY],
        )
        return None if code == NOT_TERMINAL else Outcome(int(code))

    def index(self, position: Any) -> int:
        """Index of the canonical image of ``position`` (needs :meth:`build_tables`)."""
        o_cells, s_cells, side = self.check_position(position)
        return int(
            canonical_index(
                np.uint64(o_cells),
                np.uint64(s_cells),
                side,
                self.full,
                self.cfg,
                self.perm,
                self.binom,
                self.class_of,
                self.sym_of,
                self.rep_mask,
                self.stab,
            )
        )

    def position(self, index: int) -> tuple[int, int, int]:
        """The canonical position of an index."""
        if not 0 <= index < self.size:
            raise PositionError(f"index {index} outside 0..{self.size - 1}")
        o_cells, s_cells, side = position_of(index, self.full, self.cfg, self.binom, self.rep_mask)
        return int(o_cells), int(s_cells), int(side)

    # ---------------------------------------------------------------- solving
    def tables(self) -> tuple[Any, ...]:
        """The levels hooks' ``tables`` (after :meth:`build_tables`)."""
        return (
            self.full, self.cfg, self.king, self.rays, self.ray_len, self.perm, self.binom,
            self.class_of, self.sym_of, self.rep_mask, self.stab,
        )  # fmt: skip

    def levels_rules(self) -> LevelsRules:
        """This space for the levels retrograde (:mod:`solvers.levels`)."""
        if not self.classes:
            self.build_tables()
        max_moves = self.max_moves()
        return LevelsRules(
            game=self.game,
            what="Entropy",
            index=self.index,
            position=self.position,
            size=self.size,
            tables=self.tables(),
            state_words=SCAN_WORDS,
            max_moves=max_moves,
            # a child with a symmetric placement un-moves from each of its (at most 8) images
            max_updates=8 * (max_moves + 1),
            unrank=levels_unrank,
            successor=levels_successor,
            scan=levels_scan,
            parents=levels_parents,
            scratch_words=SCRATCH_WORDS,
        )

    def solve_summary(self, compile_seconds: float) -> PackedSummary:
        """What the result says of the solve (after :meth:`solve`)."""
        return PackedSummary(
            positions=int(self.stats["positions"]),
            bytes_used=self.bytes_needed(self.classes),
            extra={
                "method": "packed retrograde",
                "symmetry": self.symmetry,
                "ranked_indices": self.size,
                "symmetry_classes_of_o_sets": self.classes,
                "compile_seconds": round(compile_seconds, 3),
                "cpu_seconds_per_phase": {k: round(v, 3) for k, v in self.cpu_seconds.items()},
                **{k: v for k, v in self.stats.items() if k not in ("positions",)},
            },
        )

    # ---------------------------------------------------------------- storing
    def ranking_meta(self) -> dict[str, Any]:
        """How indices are ranked, for :mod:`solvers.ranking` to index a stored solution
        without this module (the class representatives' O ranks, ascending, and the
        symmetries as cell permutations)."""
        if not self.classes:
            self.build_tables()
        representatives = [colex_rank(cells_of(int(mask))) for mask in self.rep_mask]
        return {
            "scheme": "entropy",
            "cells": self.cells,
            "pieces": [self.k1, self.k2],
            "classes": self.classes,
            "s_ranks": self.s_ranks,
            "symmetries": self.perm.tolist(),
            "class_representatives": representatives,
        }


@compile_once
def warm_up() -> None:
    """Compile (or load from numba's disk cache) every kernel once per process."""
    from cgt.games.entropy import Entropy

    for symmetry in (False, True):
        space = EntropySpace(Entropy(width=2, height=2, setup="S./.O O"), symmetry=symmetry)
        space.solve()
        root = space.game.initial_position()
        space.moves(root)
        space.result_code(root)
        space.position(space.index(root))


def open_space(
    game: Game[Any, Any], position: Any, symmetry: bool
) -> tuple[EntropySpace, tuple[int, int, int]]:
    """The ranked space of ``game``'s piece counts and ``position`` (default: the start),
    checked against it."""
    space = EntropySpace(game, symmetry=symmetry)
    if position is None:
        position = game.initial_position()
    return space, space.check_position(position)


solve_entropy = packed_solver(
    "solve_entropy",
    open_space,
    warm_up,
    """Solve ``position`` (default: the start) by packed retrograde analysis of the whole
    ranked space of its piece counts: the value and remoteness of the root and of every
    root move; ``symmetry`` ranks O sets by their symmetry class. Remoteness comes free
    with the levels. :class:`RetrogradeBudgetExceeded` after ``max_seconds``.""",
)


# ------------------------------------------------------------------ playout plug-in
# The compiled playout interface of solvers.playout (read its docstring): a state is (O
# cells, S cells, side to move); a move code is ``64 * from + to`` as in the retrograde, or
# :data:`PLAYOUT_PASS` when the mover has no slide.

#: Playout move code of the forced pass.
PLAYOUT_PASS = MOVE_BUFFER


@njit(cache=True)
def playout_final(state: np.ndarray, tables: Any) -> I64:
    king, rays, ray_len, cfg = tables
    side = np.int64(state[2])
    return terminal_code(state[0], state[1], side, king, rays, ray_len, cfg[C_NEEDS_ENEMY])


@njit(cache=True)
def playout_generate(state: np.ndarray, tables: Any, out: np.ndarray) -> I64:
    king, rays, ray_len, cfg = tables
    side = np.int64(state[2])
    if (
        terminal_code(state[0], state[1], side, king, rays, ray_len, cfg[C_NEEDS_ENEMY])
        != NOT_TERMINAL
    ):
        return 0
    mine = state[0] if side == 0 else state[1]
    count = generate_moves(mine, state[0] | state[1], king, rays, ray_len, out)
    if count == 0:
        out[0] = PLAYOUT_PASS
        return 1
    return count


@njit(cache=True)
def playout_play(state: np.ndarray, code: I64, tables: Any, child: np.ndarray) -> None:
    side = np.int64(state[2])
    child[:] = state
    child[2] = np.uint64(1 - side)
    if code != PLAYOUT_PASS:
        child[side] ^= _bit(code >> 6) | _bit(code & 63)


@njit(cache=True)
def playout_mover(state: np.ndarray, tables: Any) -> I64:
    return np.int64(state[2])


def playout_rules(game: Game[Any, Any]) -> PlayoutRules:
    """Entropy's playout interface (boards up to 64 cells, both goals) on the retrograde's
    move generator and end rule. Endless play is a draw: a playout longer than
    ``max_plies`` is scored one."""
    from cgt.games.entropy import PASS

    space = EntropySpace(game)
    tables = (space.king, space.rays, space.ray_len, space.cfg)

    def encode(position: Any) -> np.ndarray:
        o_cells, s_cells, side = position
        if o_cells & s_cells or (o_cells | s_cells) >> space.cells:
            raise PositionError(f"not a position of this board: {position!r}")
        return np.array([o_cells, s_cells, side], dtype=np.uint64)

    return plug_in(
        sys.modules[__name__],
        game,
        words=3,
        alternating=True,
        max_moves=space.max_moves() + 1,
        tables=tables,
        encode=encode,
        decode=int_words,
        code_of=lambda position, move: PLAYOUT_PASS if move == PASS else 64 * move[0] + move[1],
        move_of=lambda position, code: PASS if code == PLAYOUT_PASS else (code >> 6, code & 63),
        max_plies=8 * space.cells,
    )


def levels_rules(game: Game[Any, Any]) -> LevelsRules:
    """Entropy's ranked space (with symmetry classes) for the levels retrograde."""
    return EntropySpace(game).levels_rules()


PLUGIN = KernelPlugin(
    "entropy", solve_entropy, packed=True, playout=playout_rules, levels=levels_rules
)
