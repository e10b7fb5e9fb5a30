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

The search is the negamax of :mod:`solvers.kernels.control` without the cycle logic (every
move cuts a cell, so games end): table move first, then (``mobility_ordering``) the cuts
leaving the opponent the fewest replies (a reply-less child is a win found without search),
ties by history; canonical keys over the shape's symmetries (cells and mini-boards mapped
together) for positions with at most ``symmetry_cuts`` cuts.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM cttz intrinsic

from cgt.errors import ParameterError, PositionError
from cgt.protocol import Game
from solvers.kernels.base import CompiledKernel, run_solve
from solvers.kernels.proof_numbers import (
    PN_INFINITY,
    check_method,
    child_thresholds,
    leaf_numbers,
    probe,
    summarize,
    table_base,
)
from solvers.kernels.proof_numbers import store as pn_store
from solvers.kernels.table import (
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
    entry_flag,
    entry_move,
    entry_score,
    holds,
    new_table,
    popcount,
    store,
    toward_leaf,
    toward_root,
)
from solvers.result import SolveResult
from solvers.retrograde import ProgressCallback

#: Most cells a board may have (two 64-bit words).
MAX_CELLS = 128
MOVE_CODES = 128
DEFAULT_MAX_PLY = 256

# configuration in the control array (statistics at solvers.kernels.table's indices)
C_CELLS = 0
C_REVISED = 1
C_REMOTENESS = 2
C_SYMMETRY_CUTS = 3
C_BUCKET_MASK = 4
C_MAX_PLY = 5
C_SYMMETRIES = 6
C_MOBILITY = 7
C_BOARDS = 8
HISTORY = 32
HISTORY_CAP = (1 << 24) - 1
CTL_LENGTH = HISTORY + MOVE_CODES
CHUNKS = 16  # 8-bit chunks of a 128-bit mask


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
            # a cell with at most one uncut neighbour is a leaf: cutting it cannot disconnect
            near = popcount(neighbours[c, 0] & rest_lo) + popcount(neighbours[c, 1] & rest_hi)
            if near > 1 and not connected(rest_lo, rest_hi, neighbours):
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
@compiled
def search(
    cut_lo: U64,
    cut_hi: U64,
    designated: I64,
    alpha: I64,
    beta: I64,
    ply: I64,
    full: np.ndarray,
    neighbours: np.ndarray,
    boards: np.ndarray,
    target: np.ndarray,
    sym_tables: np.ndarray,
    perm: np.ndarray,
    board_perm: np.ndarray,
    ctl: np.ndarray,
    move_buffer: np.ndarray,
    order_keys: np.ndarray,
    tt: np.ndarray,
) -> I64:
    """Fail-soft negamax score of the position for the player to move (0 with
    ``ctl[S_ABORTED]`` set when the node budget runs out: nothing is stored then)."""
    ctl[S_NODES] += 1
    if ctl[S_NODES] > ctl[S_NODE_LIMIT]:
        ctl[S_ABORTED] = 1
        return 0
    if ply > ctl[S_MAX_PLY]:
        ctl[S_MAX_PLY] = ply
    remoteness = ctl[C_REMOTENESS]
    if popcount(cut_lo) + popcount(cut_hi) <= ctl[C_SYMMETRY_CUTS]:
        k_lo, k_hi, k_d, sym = canonical(
            cut_lo, cut_hi, designated, sym_tables, board_perm, ctl[C_SYMMETRIES]
        )
    else:
        k_lo = cut_lo
        k_hi = cut_hi
        k_d = designated
        sym = 0
    tag = k_d + 1
    base = bucket_base(k_lo, k_hi, tag, ctl[C_BUCKET_MASK])
    ctl[S_PROBES] += 1
    table_move: I64 = -1
    for at in (base, base + SLOT_WORDS):
        if holds(tt, at, k_lo, k_hi, tag):
            ctl[S_HITS] += 1
            data = tt[at + 2]
            stored_flag = entry_flag(data)
            stored = entry_score(data)
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
    count = generate_moves(
        cut_lo, cut_hi, designated, full, neighbours, boards, target, ctl, move_buffer[ply]
    )
    if count == 0:  # normal play: no legal cut loses
        return -BIG if remoteness else -1
    max_score = BIG - 1 if remoteness else 1
    mobility = ctl[C_MOBILITY]
    empty_out = move_buffer[ply, :0]
    start = 0
    for i in range(count):
        m = np.int64(move_buffer[ply, i])
        if m == table_move:
            move_buffer[ply, i] = move_buffer[ply, 0]
            move_buffer[ply, 0] = table_move
            order_keys[ply, i] = order_keys[ply, 0]
            start = 1
            continue
        key = -min(ctl[HISTORY + m], HISTORY_CAP)
        if mobility != 0:
            if m < 64:
                child_lo = cut_lo | (_U1 << np.uint64(m))
                child_hi = cut_hi
            else:
                child_lo = cut_lo
                child_hi = cut_hi | (_U1 << np.uint64(m - 64))
            replies = generate_moves(
                child_lo, child_hi, target[m], full, neighbours, boards, target, ctl, empty_out
            )
            if replies == 0:
                store(
                    tt, base, k_lo, k_hi, tag, EXACT, max_score, np.int64(perm[0, sym, m]), 1, ctl
                )
                return max_score
            key += replies * (HISTORY_CAP + 1)
        order_keys[ply, i] = key
    for i in range(start + 1, count):
        m = move_buffer[ply, i]
        key = order_keys[ply, i]
        j = i - 1
        while j >= start and order_keys[ply, j] > key:
            move_buffer[ply, j + 1] = move_buffer[ply, j]
            order_keys[ply, j + 1] = order_keys[ply, j]
            j -= 1
        move_buffer[ply, j + 1] = m
        order_keys[ply, j + 1] = key
    original_alpha = alpha
    nodes_before = ctl[S_NODES]
    best = -(BIG + 2)
    best_move: I64 = -1
    for i in range(count):
        m = np.int64(move_buffer[ply, i])
        if m < 64:
            child_lo = cut_lo | (_U1 << np.uint64(m))
            child_hi = cut_hi
        else:
            child_lo = cut_lo
            child_hi = cut_hi | (_U1 << np.uint64(m - 64))
        child_score = search(
            child_lo,
            child_hi,
            np.int64(target[m]),
            -toward_leaf(beta, remoteness),
            -toward_leaf(alpha, remoteness),
            ply + 1,
            full,
            neighbours,
            boards,
            target,
            sym_tables,
            perm,
            board_perm,
            ctl,
            move_buffer,
            order_keys,
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
    if best >= max_score:
        flag = EXACT
    elif best >= beta:
        flag = LOWER
        ctl[HISTORY + best_move] += 1
    elif best <= original_alpha:
        flag = UPPER
    else:
        flag = EXACT
    store(
        tt,
        base,
        k_lo,
        k_hi,
        tag,
        flag,
        best,
        np.int64(perm[0, sym, best_move]),
        ctl[S_NODES] - nodes_before,
        ctl,
    )
    return best


# --------------------------------------------------------------- proof-number search
#: Weak proof numbers (max, not sum) at the opponent's nodes? Yes: the same cuts in any
#: order meet again, which the sum over-counts (solvers.kernels.proof_numbers).
DFPN_WEAK = True


@njit(cache=True, inline="always")
def _key(
    cut_lo: U64,
    cut_hi: U64,
    designated: I64,
    sym_tables: np.ndarray,
    board_perm: np.ndarray,
    ctl: np.ndarray,
) -> tuple[U64, U64, I64]:
    """Table key (cut words and tag = designated mini-board + 1): the canonical image of
    positions with few cuts, else the position."""
    if popcount(cut_lo) + popcount(cut_hi) <= ctl[C_SYMMETRY_CUTS]:
        k_lo, k_hi, k_d, _ = canonical(
            cut_lo, cut_hi, designated, sym_tables, board_perm, ctl[C_SYMMETRIES]
        )
        return k_lo, k_hi, k_d + 1
    return cut_lo, cut_hi, designated + 1


@njit(cache=True, inline="always")
def _cut(cut_lo: U64, cut_hi: U64, cell: I64) -> tuple[U64, U64]:
    if cell < 64:
        return cut_lo | (_U1 << np.uint64(cell)), cut_hi
    return cut_lo, cut_hi | (_U1 << np.uint64(cell - 64))


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
    """Depth-first proof-number search (solvers.kernels.proof_numbers) of "the player to
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
    k_lo, k_hi, tag = _key(cut_lo, cut_hi, designated, sym_tables, board_perm, ctl)
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
        c_lo, c_hi, c_tag = _key(child_lo, child_hi, child_d, sym_tables, board_perm, ctl)
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
class SuperNonnectKernel(CompiledKernel):
    """Tables and search state for one Super Nonnect game (see the module docstring).

    ``symmetry_cuts`` < 0 turns symmetry off.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        remoteness: bool = False,
        tt_entries: int = 1 << 22,
        symmetry_cuts: int = MAX_CELLS,
        mobility_ordering: bool = True,
        max_ply: int = DEFAULT_MAX_PLY,
        method: str = "alphabeta",
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
        self.neighbours = np.zeros((MOVE_CODES, 2), dtype=np.uint64)
        self.target = np.zeros(MOVE_CODES, dtype=np.int64)
        for c in game_cells:
            i = self.compact[c]
            self.neighbours[i] = self._words(self.to_compact(geometry.neighbour_masks[c]))
            self.target[i] = geometry.target_of[c]
        board_count = len(geometry.board_masks)
        self.boards = np.zeros((board_count, 2), dtype=np.uint64)
        for m, mask in enumerate(geometry.board_masks):
            self.boards[m] = self._words(self.to_compact(mask))
        symmetries = geometry.symmetries
        self.perm = np.zeros((2, len(symmetries), MOVE_CODES), dtype=np.int16)
        self.board_perm = np.zeros((len(symmetries), board_count), dtype=np.int64)
        self.sym_tables = np.zeros((len(symmetries), CHUNKS, 256, 2), dtype=np.uint64)
        for s, (cell_map, board_map) in enumerate(symmetries):
            compact_map = [self.compact[cell_map[c]] for c in game_cells]
            for i, image in enumerate(compact_map):
                self.perm[0, s, i] = image
                self.perm[1, s, image] = i
            self.board_perm[s] = board_map
            for k in range(CHUNKS):
                for v in range(256):
                    mask = 0
                    for bit in range(8):
                        i = 8 * k + bit
                        if v >> bit & 1 and i < cells:
                            mask |= 1 << compact_map[i]
                    self.sym_tables[s, k, v] = self._words(mask)
        self.tt, self.capacity, bucket_mask = new_table(tt_entries)
        self.ctl = np.zeros(CTL_LENGTH, dtype=np.int64)
        self.ctl[C_CELLS] = cells
        self.ctl[C_REVISED] = 1 if game.rule == "revised" else 0  # type: ignore[attr-defined]
        self.ctl[C_REMOTENESS] = 1 if remoteness else 0
        self.ctl[C_SYMMETRY_CUTS] = symmetry_cuts
        self.ctl[C_BUCKET_MASK] = bucket_mask
        self.ctl[C_MAX_PLY] = max_ply
        self.ctl[C_SYMMETRIES] = len(symmetries)
        self.ctl[C_MOBILITY] = 1 if mobility_ordering else 0
        self.ctl[C_BOARDS] = board_count
        self.move_buffer = np.zeros((max_ply + 1, MOVE_CODES), dtype=np.int16)
        self.order_keys = np.zeros((max_ply + 1, MOVE_CODES), dtype=np.int64)
        #: df-pn: the children's (proof, disproof) numbers of every node on the path
        plies = max_ply + 1 if method == "dfpn" else 1
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
        return int(
            search(
                lo,
                hi,
                designated,
                alpha,
                beta,
                0,
                self.full,
                self.neighbours,
                self.boards,
                self.target,
                self.sym_tables,
                self.perm,
                self.board_perm,
                self.ctl,
                self.move_buffer,
                self.order_keys,
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
    progress: ProgressCallback | None = None,
    mobility_ordering: bool = True,
    method: str = "alphabeta",
) -> SolveResult:
    """Solve a Super Nonnect position exactly with the compiled kernel: the root value and
    every root move's value. ``seconds`` excludes compilation (``extra["compile_seconds"]``);
    ``max_seconds`` bounds the search
    (:class:`~solvers.kernels.base.SearchBudgetExceeded`), ``progress`` hears about it.
    ``method="dfpn"``: proof-number search (win/loss only) instead of alpha-beta.
    """
    compile_seconds = warm_up()
    kernel = SuperNonnectKernel(
        game,
        remoteness=remoteness,
        tt_entries=tt_entries,
        symmetry_cuts=MAX_CELLS if symmetry else -1,
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
