"""Super Nonnect (cgt.games.super_nonnect) as a plug-in of the engine (docs/engine.md), every
shape up to 128 cells (hex7: 49, square 3 x 3: 81): its rules on bitboards, for the engine's
alpha-beta and df-pn (:mod:`solvers.engine`) and the Monte-Carlo player.

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
and only the others flood the board (:func:`_joined`: a flood from each neighbour, which
stops when they meet or one runs out, not a flood of the whole board).

The plug-in (``playout_*`` below)
---------------------------------
A state is four words: the cut cells (two words, compact numbering), the designated
mini-board + 1 (0: the free first cut) and the player to move; a move code is the compact
cell. The engine's hooks:

* ``key``: (cut words, tag = designated mini-board + 1), without the player to move (the
  game is impartial); positions with at most ``symmetry_cuts`` cuts (default
  :data:`DEFAULT_SYMMETRY_CUTS`) are keyed by their canonical image over the shape's
  symmetries (cells and mini-boards mapped together), so ``move_to_key`` and
  ``move_from_key`` map a cell through that symmetry. Symmetric transpositions arise near
  the start; the images cost every node they are computed at, and a position far into a
  game has no symmetric twin to meet (benchmarks/SUPER_NONNECT_KERNEL.md);
* ``child_key``: the child's cut words and mini-board straight from the cut, without
  playing it;
* ``order``: the replies each cut leaves the opponent (mobility ordering), and a cut
  leaving none, which wins at once.

Every cut removes a cell, so games end and every stored result is a function of the
position alone. :class:`SuperNonnectKernel` is the engine on this plug-in with the kernel's
options; ``method="dfpn"`` runs the engine's proof-number search (:mod:`solvers.engine_dfpn`,
with weak proof numbers: the same cuts in any order meet again) on the same rules and table. Alpha-beta resolves its first choice at every OR node completely, a long proof when
that choice loses, while df-pn moves to the sibling whose proof looks cheapest: on 3x3
revised df-pn proves what alpha-beta leaves open (the benchmark's diagnosis).
"""

from __future__ import annotations

import functools
import sys
from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM cttz intrinsic

from cgt.errors import ParameterError, PositionError, unpack_position
from cgt.games.super_nonnect import SuperNonnectPosition, bits_of
from cgt.protocol import Game
from solvers.engine import EngineKernel
from solvers.kernel_base import CompiledKernel, compile_once, search_solver
from solvers.kernel_table import _U0, _U1, _U255, I64, U64, compiled, popcount
from solvers.kernels.plugin import KernelPlugin
from solvers.playout import PlayoutRules, plug_in

#: Most cells a board may have (two 64-bit words).
MAX_CELLS = 128
MOVE_CODES = 128
DEFAULT_MAX_PLY = 256
DEFAULT_TT_ENTRIES = 1 << 22
#: Alpha-beta keys positions with at most this many cuts by their canonical image
#: (benchmarks/SUPER_NONNECT_KERNEL.md, the symmetry rows).
DEFAULT_SYMMETRY_CUTS = 4
#: ``settings`` (int64, in the plug-in's tables): the rule and the symmetry keys.
R_REVISED = 0
R_SYMMETRY_CUTS = 1
R_SYMMETRIES = 2
CHUNKS = 16  # 8-bit chunks of a 128-bit mask
#: Row ``c`` of the ``neighbours`` array: the neighbour mask of cell ``c`` (two words), its
#: ring (up to RING_CELLS compact cells, a byte each, NO_CELL after the last), then one bit
#: per pattern of uncut ring cells: whether that pattern joins the uncut neighbours.
N_RING = 2
N_JOINED = 3
RING_CELLS = 8
NO_CELL = 255
NEIGHBOUR_WORDS = N_JOINED + (1 << RING_CELLS) // 64


# ------------------------------------------------------------------------- the rules
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


#: A flood inside the uncut cells: (frontier lo, hi, seen lo, hi); none: all zero.
Flood = tuple[U64, U64, U64, U64]


@njit(cache=True, inline="always")
def _seed(lo: U64, hi: U64) -> Flood:
    """A flood from the lowest cell of (lo, hi) (none if it is empty)."""
    if lo != _U0:
        lo &= ~lo + _U1
        hi = _U0
    else:
        hi &= ~hi + _U1
    return lo, hi, lo, hi


@njit(cache=True, inline="always")
def _wave(flood: Flood, rest_lo: U64, rest_hi: U64, neighbours: np.ndarray) -> Flood:
    """The flood one step further inside ``rest``."""
    f_lo, f_hi, s_lo, s_hi = flood
    grow_lo = _U0
    grow_hi = _U0
    d: I64 = 0
    while f_lo != _U0:
        d = trailing_zeros(f_lo)  # type: ignore[call-arg]
        grow_lo |= neighbours[d, 0]
        grow_hi |= neighbours[d, 1]
        f_lo &= f_lo - _U1
    while f_hi != _U0:
        d = 64 + trailing_zeros(f_hi)  # type: ignore[call-arg]
        grow_lo |= neighbours[d, 0]
        grow_hi |= neighbours[d, 1]
        f_hi &= f_hi - _U1
    f_lo = grow_lo & rest_lo & ~s_lo
    f_hi = grow_hi & rest_hi & ~s_hi
    return f_lo, f_hi, s_lo | f_lo, s_hi | f_hi


@njit(cache=True, inline="always")
def _ran_out(flood: Flood) -> bool:
    """Whether a flood (not none) has covered its piece of the board."""
    return flood[0] == _U0 and flood[1] == _U0 and (flood[2] != _U0 or flood[3] != _U0)


@njit(cache=True, inline="always")
def _met(a: Flood, b: Flood) -> tuple[Flood, Flood]:
    """(a, b), or (a and b as one, none) when they share a cell."""
    if (a[2] & b[2]) == _U0 and (a[3] & b[3]) == _U0:
        return a, b
    return (a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]), (_U0, _U0, _U0, _U0)


@compiled
def _joined(c: I64, rest_lo: U64, rest_hi: U64, neighbours: np.ndarray) -> bool:
    """Whether the uncut neighbours of ``c`` lie in one piece of the uncut cells ``rest``
    (``c`` cut); since the uncut cells were connected before the cut (every position of a
    legal game), whether ``rest`` is connected. A flood from each neighbour (up to four; from
    one alone beyond), a step of each in turn: floods that meet become one, the answer is
    yes once one holds every neighbour and no once one runs out of cells first, so the
    search ends near the smallest piece or halfway round ``c`` instead of covering the board
    (benchmarks/SUPER_NONNECT_KERNEL.md)."""
    ends_lo = neighbours[c, 0] & rest_lo
    ends_hi = neighbours[c, 1] & rest_hi
    a = _seed(ends_lo, ends_hi)
    b = _seed(ends_lo & ~a[0], ends_hi & ~a[1])
    c2 = _seed(ends_lo & ~(a[0] | b[0]), ends_hi & ~(a[1] | b[1]))
    d = _seed(ends_lo & ~(a[0] | b[0] | c2[0]), ends_hi & ~(a[1] | b[1] | c2[1]))
    if (ends_lo & ~(a[0] | b[0] | c2[0] | d[0])) != _U0 or (
        ends_hi & ~(a[1] | b[1] | c2[1] | d[1])
    ) != _U0:
        b = c2 = d = (_U0, _U0, _U0, _U0)  # more neighbours than floods (hex): one flood
    while True:
        a = _wave(a, rest_lo, rest_hi, neighbours)
        if b[2] != _U0 or b[3] != _U0:
            b = _wave(b, rest_lo, rest_hi, neighbours)
        if c2[2] != _U0 or c2[3] != _U0:
            c2 = _wave(c2, rest_lo, rest_hi, neighbours)
        if d[2] != _U0 or d[3] != _U0:
            d = _wave(d, rest_lo, rest_hi, neighbours)
        a, b = _met(a, b)
        a, c2 = _met(a, c2)
        a, d = _met(a, d)
        if (ends_lo & ~a[2]) == _U0 and (ends_hi & ~a[3]) == _U0:
            return True
        if _ran_out(a) or _ran_out(b) or _ran_out(c2) or _ran_out(d):
            return False
        b, c2 = _met(b, c2)
        b, d = _met(b, d)
        c2, d = _met(c2, d)


@compiled
def generate_moves(
    cut_lo: U64,
    cut_hi: U64,
    designated: I64,
    full: np.ndarray,
    neighbours: np.ndarray,
    boards: np.ndarray,
    target: np.ndarray,
    settings: np.ndarray,
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
    revised = settings[R_REVISED]
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
                and not _joined(c, rest_lo, rest_hi, neighbours)
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


# ------------------------------------------------------------------------- keys
@njit(cache=True, inline="always")
def _key(
    cut_lo: U64,
    cut_hi: U64,
    designated: I64,
    sym_tables: np.ndarray,
    board_perm: np.ndarray,
    settings: np.ndarray,
) -> tuple[U64, U64, I64, I64]:
    """Table key (cut words, tag = designated mini-board + 1) and the symmetry giving it:
    the canonical image of positions with at most ``settings[R_SYMMETRY_CUTS]`` cuts, else
    the position itself (symmetry 0)."""
    if popcount(cut_lo) + popcount(cut_hi) <= settings[R_SYMMETRY_CUTS]:
        k_lo, k_hi, k_d, sym = canonical(
            cut_lo, cut_hi, designated, sym_tables, board_perm, settings[R_SYMMETRIES]
        )
        return k_lo, k_hi, k_d + 1, sym
    return cut_lo, cut_hi, designated + 1, 0


@njit(cache=True, inline="always")
def _cut(cut_lo: U64, cut_hi: U64, cell: I64) -> tuple[U64, U64]:
    if cell < 64:
        return cut_lo | (_U1 << np.uint64(cell)), cut_hi
    return cut_lo, cut_hi | (_U1 << np.uint64(cell - 64))


# ------------------------------------------------------------------ the plug-in
# ``tables``: (full, neighbours, boards, target, settings, sym_tables, perm, board_perm),
# built by Board below.


@njit(cache=True, inline="always")
def playout_generate(state: np.ndarray, tables: Any, out: np.ndarray) -> I64:
    full, neighbours, boards, target, settings, _, _, _ = tables
    designated = np.int64(state[2]) - 1
    return generate_moves(
        state[0], state[1], designated, full, neighbours, boards, target, settings, out
    )


@njit(cache=True, inline="always")
def playout_final(state: np.ndarray, tables: Any) -> I64:
    return -1  # normal play: the player with no cut loses


@njit(cache=True, inline="always")
def playout_play(state: np.ndarray, code: I64, tables: Any, child: np.ndarray) -> None:
    target = tables[3]
    child[0], child[1] = _cut(state[0], state[1], code)
    child[2] = np.uint64(target[code] + 1)
    child[3] = np.uint64(1) - state[3]


@njit(cache=True, inline="always")
def playout_mover(state: np.ndarray, tables: Any) -> I64:
    return np.int64(state[3])


@njit(cache=True, inline="always")
def playout_key(state: np.ndarray, tables: Any) -> tuple[U64, U64, I64, I64]:
    """The cut cells and the designated mini-board, canonical under the shape's symmetries
    for few cuts; the game is impartial, so the player to move is not part of the key."""
    _, _, _, _, settings, sym_tables, _, board_perm = tables
    return _key(state[0], state[1], np.int64(state[2]) - 1, sym_tables, board_perm, settings)


@njit(cache=True, inline="always")
def playout_child_key(
    state: np.ndarray, code: I64, tables: Any, scratch: np.ndarray
) -> tuple[U64, U64, I64, I64]:
    """The key after cutting ``code``: the cut words and the cell's target, no play."""
    _, _, _, target, settings, sym_tables, _, board_perm = tables
    child_lo, child_hi = _cut(state[0], state[1], code)
    return _key(child_lo, child_hi, target[code], sym_tables, board_perm, settings)


@njit(cache=True, inline="always")
def playout_order(
    state: np.ndarray, tables: Any, moves: np.ndarray, start: I64, count: I64, keys: np.ndarray
) -> I64:
    """Mobility: the replies each cut leaves the opponent; a cut leaving none wins at once."""
    full, neighbours, boards, target, settings, _, _, _ = tables
    counting = moves[:0]  # an empty output: generate_moves only counts
    for k in range(start, count):
        m = moves[k]
        child_lo, child_hi = _cut(state[0], state[1], m)
        replies = generate_moves(
            child_lo, child_hi, target[m], full, neighbours, boards, target, settings, counting
        )
        if replies == 0:
            return k
        keys[k] = replies
    return -1


@njit(cache=True, inline="always")
def playout_move_to_key(code: I64, symmetry: I64, tables: Any) -> I64:
    return np.int64(tables[6][0, symmetry, code])


@njit(cache=True, inline="always")
def playout_move_from_key(code: I64, symmetry: I64, tables: Any) -> I64:
    return np.int64(tables[6][1, symmetry, code])


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


class Board:
    """One game's board in the compiled functions' terms: cells renumbered 0..N-1 (the
    game's bit order), neighbour masks and rings, mini-boards, the symmetries, and the
    plug-in's ``tables``. ``symmetry_cuts``: positions with at most this many cuts are keyed
    by their canonical image (< 0: none)."""

    def __init__(self, game: Game[Any, Any], symmetry_cuts: int) -> None:
        if game.name != "super-nonnect":
            raise ParameterError(f"the compiled Super Nonnect kernel cannot solve {game.name!r}")
        geometry = game.geometry  # type: ignore[attr-defined]
        game_cells = sorted(geometry.cells)
        if len(game_cells) > MAX_CELLS:
            raise ParameterError(
                f"the compiled Super Nonnect kernel handles up to {MAX_CELLS} cells, "
                f"got {len(game_cells)}"
            )
        self.game = game
        #: compact index <-> the game's cell bit
        self.game_cell = game_cells
        self.compact = {c: i for i, c in enumerate(game_cells)}
        self.cells = len(game_cells)
        self.full = self._words(sum(1 << i for i in range(self.cells)))
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
        #: perm[0, s]: a compact cell's image under symmetry s; perm[1, s]: its inverse
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
        self.settings = np.zeros(3, dtype=np.int64)
        self.settings[R_REVISED] = 1 if game.rule == "revised" else 0  # type: ignore[attr-defined]
        self.settings[R_SYMMETRY_CUTS] = symmetry_cuts
        self.settings[R_SYMMETRIES] = len(symmetries)
        self.tables = (
            self.full,
            self.neighbours,
            self.boards,
            self.target,
            self.settings,
            self.sym_tables,
            self.perm,
            self.board_perm,
        )

    @staticmethod
    def _words(mask: int) -> np.ndarray:
        return np.array([mask & (2**64 - 1), mask >> 64], dtype=np.uint64)

    def to_compact(self, mask: int) -> int:
        return sum(1 << self.compact[c] for c in self.game_cell if mask >> c & 1)

    def encode(self, position: Any) -> np.ndarray:
        """The plug-in's state of ``position``; :class:`PositionError` if it is not one."""
        cut, designated, player = unpack_position(
            position, 3, "a Super Nonnect position is (cut, designated, player)"
        )
        if not isinstance(cut, int) or cut < 0 or cut & ~self.game.full_mask:  # type: ignore[attr-defined]
            raise PositionError(f"cut cells go beyond the board: {position!r}")
        if not isinstance(designated, int) or not -1 <= designated < len(self.boards):
            raise PositionError(f"no mini-board {designated!r} on this board")
        if player not in (0, 1):
            raise PositionError(f"no player {player!r}: 0 or 1")
        lo, hi = self._words(self.to_compact(cut))
        return np.array([lo, hi, designated + 1, player], dtype=np.uint64)

    def decode(self, state: np.ndarray) -> SuperNonnectPosition:
        compact = int(state[0]) | int(state[1]) << 64
        cut = sum(1 << c for i, c in enumerate(self.game_cell) if compact >> i & 1)
        return SuperNonnectPosition(cut, int(state[2]) - 1, int(state[3]))

    def rules(self) -> PlayoutRules:
        """The plug-in on this board (docs/engine.md)."""
        return plug_in(
            sys.modules[__name__],
            self.game,
            words=4,
            max_moves=MOVE_CODES,
            alternating=True,
            nrt=False,
            tables=self.tables,
            encode=self.encode,
            decode=self.decode,
            code_of=lambda position, move: self.compact[move],
            move_of=lambda position, code: self.game_cell[code],
        )


def playout_rules(game: Game[Any, Any]) -> PlayoutRules:
    """Super Nonnect's plug-in (every shape up to 128 cells, both rules), symmetry keys for
    positions with at most DEFAULT_SYMMETRY_CUTS cuts."""
    return Board(game, DEFAULT_SYMMETRY_CUTS).rules()


class SuperNonnectKernel(CompiledKernel):
    """The engine (:class:`solvers.engine.EngineKernel`) on the Super Nonnect plug-in, with
    the kernel's options (see the module docstring), or its df-pn (``method="dfpn"``) on the
    same table and statistics.

    ``symmetry_cuts``: positions with at most this many cuts are keyed by their canonical
    image (default: DEFAULT_SYMMETRY_CUTS for alpha-beta, every position for df-pn); < 0
    turns symmetry off. ``mobility_ordering``: the plug-in's ``order`` (replies left to the
    opponent); ``etc``, ``history``: the engine's. ``deepening``: the engine's horizon
    passes (value mode; one ply, that is one cut, deeper each pass), off by default and
    ignored in remoteness mode.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        remoteness: bool = False,
        tt_entries: int = DEFAULT_TT_ENTRIES,
        symmetry_cuts: int | None = None,
        mobility_ordering: bool = True,
        max_ply: int = DEFAULT_MAX_PLY,
        method: str = "alphabeta",
        etc: bool = True,
        deepening: bool = False,
        history: bool = True,
    ) -> None:
        if symmetry_cuts is None:
            symmetry_cuts = DEFAULT_SYMMETRY_CUTS if method == "alphabeta" else MAX_CELLS
        self.board = Board(game, symmetry_cuts)
        self.method = method
        self.engine = EngineKernel(
            self.board.rules(),
            remoteness=remoteness,
            tt_entries=tt_entries,
            max_ply=max_ply,
            ordering=mobility_ordering,
            history="depth" if history else "off",
            etc=etc,
            deepening=(1, 1, self.board.cells) if deepening and not remoteness else None,
            method=method,
            # the same cuts in any order meet again, which summed proof numbers over-count
            weak=True,
        )
        self.game = game
        self.remoteness = remoteness
        self.max_ply = max_ply
        self.ctl = self.engine.ctl
        self.tt = self.engine.tt
        self.capacity = self.engine.capacity
        #: the symmetry tables the keys read (a test plants a wrong symmetry here)
        self.board_perm = self.board.board_perm

    def table_stats(self) -> dict[str, int]:
        return self.engine.table_stats()

    def check_position(self, position: Any) -> np.ndarray:
        return self.board.encode(position)

    def moves(self, position: Any) -> list[Any]:
        return self.engine.moves(position)

    def _search(self, position: Any, alpha: int, beta: int) -> int:
        return self.engine._search(position, alpha, beta)


@compile_once
def warm_up() -> None:
    """Compile (or load from numba's disk cache) the engine on this plug-in and the df-pn
    once per process."""
    from cgt.games.super_nonnect import SuperNonnect

    kernel = SuperNonnectKernel(SuperNonnect(a=1, b=2), remoteness=True, tt_entries=64)
    position = kernel.game.initial_position()
    kernel.moves(position)
    kernel.score(position)
    SuperNonnectKernel(kernel.game, tt_entries=64, method="dfpn").score(position)


def _kernel(game: Game[Any, Any], *, symmetry: bool, **options: Any) -> SuperNonnectKernel:
    return SuperNonnectKernel(game, symmetry_cuts=None if symmetry else -1, **options)


solve_super_nonnect = search_solver(
    "solve_super_nonnect",
    _kernel,
    warm_up,
    """Solve a Super Nonnect position exactly with the compiled kernel: the root value and
    every root move's value; ``method="dfpn"``: proof-number search (win/loss only)
    instead of alpha-beta; ``mobility_ordering``: moves ordered by the replies they leave.""",
    tt_entries=DEFAULT_TT_ENTRIES,
    mobility_ordering=True,
    method="alphabeta",
)


PLUGIN = KernelPlugin(
    "super-nonnect",
    solve_super_nonnect,
    kernel_class=SuperNonnectKernel,
    methods=("alphabeta", "dfpn"),
    playout=playout_rules,
)
