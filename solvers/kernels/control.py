"""Compiled exact solver for Control (cgt.games.control), both control rules.

Why a separate statement of the rules: the readable module spends microseconds per move
generation in Python; here a position is two uint64 bitboards and a side to move and the
whole move generation is some hundred bit operations under numba. Tests check this statement
against the readable one on random positions.

Padded layout
-------------
Inside the kernel, cell ``(q, r)`` of the size-``n`` board (axial coordinates, ``m = n - 1``)
is bit ``(r + m) * W + (q + m)`` with row stride ``W = 2n``: a (2n-1) x 2n grid whose last
column is never a cell. There every direction is one constant shift (E +1, W -1, NE -W+1,
NW -W, SW +W-1, SE +W) and the padding column stops wrap-around, so the six "my neighbour in
direction d is white" bitboards are six shifts, and the vote counts of every cell at once are
two 6-input bit-sliced adders compared by a bit-sliced ``>``. Under ``sight`` each direction's
"the first piece I see that way is white" bitboard is a flood along that direction through
empty cells. The padded grid needs ``(2n-1) * 2n <= 64`` bits: sizes up to 4 (size 5, 61
cells, is far beyond exact solving anyway). Padded cells keep the row-major order of the
game's cell numbering, so moves come out in the readable module's order.

Moves inside the kernel are ``padded cell`` for a placement and ``64 + padded cell`` for a
removal (:data:`KERNEL_REMOVAL`); the Python API converts them to the game's moves.

Search
------
Negamax alpha-beta, fail-soft, exactly as :mod:`solvers.alphabeta` (read its docstring):

* scores are for the player to move; value mode uses -1/0/1, remoteness mode mate-distance
  scores ``BIG - r`` / ``-(BIG - r)``; windows passed down are widened by one step so bounds
  stay exact;
* the transposition table is one uint64 array in 64-byte buckets of two slots: FULL key
  (white mask, black mask) plus side to move verified on every probe, bound flag
  EXACT/LOWER/UPPER, score, best move and log2 of the subtree's node count; slot 0 is
  work-preferred, slot 1 always-replace; capacity fixed by ``tt_entries``. A node probes
  each child's entry itself and calls the search only for children that entry does not
  settle (about half are settled; each still counts as one node, so node counts and table
  statistics are those of a call per child: a node is one visit of a position, a call
  entered or a child settled by its entry, ``ctl[S_SETTLED]`` of them). With a table far
  bigger than the caches a probe is a wait for memory, about half a node's time on size 4;
  so before counting the replies, a node computes every child's key and prefetches its
  bucket (``llvm.prefetch``), and the visits find most buckets already in the cache;
* enhanced transposition cut-off (ETC, ``etc=True``, adjacent rule): before its first
  search call a node reads the entries of all its remaining children. One that refutes the
  child (the child's score at most the child's alpha) cuts the node off at once, counted as
  the one child visit it replaces (``ctl[S_ETC_CUTOFFS]``); one that says the child cannot
  raise alpha moves that child to the end of the order, where a cut-off may spare its
  visit. It is done lazily (not at a node its first child's entry already decides, the
  common case on size 4). It saves whole subtrees at some cost in nodes per second, since
  the probes of children never visited are work no node count shows; both are measured on
  benchmarks/TUNING.md;
* move ordering: table move first, searched before the other moves are even ordered (it
  often cuts off alone), then (``mobility_ordering``, default) the moves that leave the
  opponent the fewest replies, ties by the history heuristic: every cut-off (a win found
  too, the common cut-off in value mode; an ETC cut-off; a move leaving no reply) credits
  its move with the square of the bit length of the work it took (:func:`_credit`): in
  value mode most cut-offs are wins, so crediting fail-highs alone would leave almost no
  history. A child with no reply is a win found without searching, which is why the
  fewest replies go first. The moves are picked one at a time (selection of the smallest
  key, the position in the list breaking ties: the order of a stable sort) because most
  nodes cut off after the first move. What each of these choices gains or costs, in value
  mode and under ``sight``, is on benchmarks/TUNING.md;
* incremental control (adjacent rule): each node receives the bit-sliced vote counts of
  both players from its parent (a placement adds one vote around its cell, a removal takes
  one away: a 3-bit bit-sliced increment on the six neighbours), so the node's move
  generation does not recompute the twelve shifted boards and the two adders; a child's
  reply count is two popcounts of masks prepared once per node (see "replies" in
  :func:`search`); under ``sight`` a move changes whole rays and the counts are recomputed;
* the compiled functions run without NRT reference counting (``solvers.kernels.table.
  compiled``): with it, every recursive call paid an atomic incref and decref per array
  argument, some 40% of a node's time;
* a node budget (``ctl[S_NODE_LIMIT]``) stops the search cleanly for
  :mod:`solvers.kernels.base`'s progress reports and ``max_seconds``;
* symmetry: positions with at most ``symmetry_pieces`` pieces are keyed by their canonical
  image (smallest (white, black) over the 12 board symmetries); the stored best move is
  kept in the canonical frame and mapped back on probe. The choice depends only on the
  position, so each position has one key. The 12 images travel down the search path in
  ``path``, each move setting or clearing one bit per image (the root's come from
  byte-chunk lookup tables) instead of transforming both boards at every node; the parent
  computes a child's images and key in one pass and passes the key down. Only nodes with at
  most ``symmetry_pieces + 1`` pieces keep images (a removal back under that count rebuilds
  them from its few pieces), so a small threshold costs nothing deep in the tree; the
  default is by board size where measured (:data:`DEFAULT_SYMMETRY_PIECES`);
* the recursive call takes three arrays (numba passes each as some seven machine words):
  the board tables with the search path after them (``T_PATH``), the control array with the
  per-ply move lists after it (``FRAMES``), and the table;
* ``control=adjacent`` is acyclic (the potential argument of the claim control.termination),
  so the plain search is exact. Under ``control=sight`` cycles exist: a position repeated on
  the current path scores DRAW, and results that depended on such a cut-off are flagged and
  never stored, as in :mod:`solvers.alphabeta` (same GHI argument: the root value is exact,
  so every root move is searched as its own root with an empty path). Why a repetition may
  score a draw: a player who can force a win can do it by a line that never repeats (the
  retrograde attractor strictly shortens the distance to the end), and a player who cannot
  force a win can avoid losing for ever, which a finite search sees as a repetition. Checked
  against retrograde on every size-2 position and on size-3 positions near the end, and
  against depth-bounded proofs over the readable rules on size 3 (tests/test_kernels_control.py).
  Size 3 is solved in value mode (White wins after all 12 openings); exact remoteness under
  sight stores so little that it did not finish in 420 s.

``method="dfpn"`` replaces alpha-beta by depth-first proof-number search (win/loss only,
adjacent rule only): :func:`dfpn` with the shared machinery of
:mod:`solvers.kernels.proof_numbers` (table with least-work replacement, enhanced
transposition cutoff, children initialised to (1, replies), the 1 + epsilon trick; that
module's docstring says why graph-history interaction cannot arise here). Its nodes and time
against alpha-beta on the same positions: ``benchmarks/DFPN.md``.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM cttz intrinsic

from cgt.boards.hexhex import HexBoard
from cgt.errors import ParameterError, PositionError
from cgt.progress import Progress
from cgt.protocol import Game
from solvers.kernels.base import CompiledKernel, run_solve
from solvers.kernels.plugin import KernelPlugin
from solvers.kernels.table import (
    _U0,
    _U1,
    _U255,
    BIG,
    EXACT,
    I64,
    INFINITY,
    LOWER,
    S_ABORTED,
    S_HITS,
    S_MAX_PLY,
    S_NODE_LIMIT,
    S_NODES,
    S_OVERFLOW,
    S_PROBES,
    S_REPETITIONS,
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
    store,
    toward_leaf,
    toward_root,
)
from solvers.kernels.table import prefetch as _prefetch
from solvers.playout import DEFAULT_MAX_PLIES, PlayoutRules, mask_words, plug_in, words_mask
from solvers.result import SolveResult

#: Kernel move code of a removal of the piece on padded cell ``p``: ``KERNEL_REMOVAL + p``.
KERNEL_REMOVAL = 64
#: Room for every move code (placements 0..63, removals 64..127).
MOVE_CODES = 128
#: Largest board whose padded grid fits in 64 bits.
MAX_SIZE = 4
#: Search methods: negamax alpha-beta (values, remoteness, cycles) or df-pn (win/loss only).
METHODS = ("alphabeta", "dfpn")
#: Deepest search path (plies); a deeper path raises instead of overflowing buffers.
DEFAULT_MAX_PLY = 4096
#: Default symmetry reduction by board size: canonical keys for positions with at most this
#: many pieces. On a board whose positions transpose rarely into symmetric images the 12
#: images kept per node cost more time than the transpositions they find save
#: (benchmarks/TUNING.md). Sizes not listed: every count.
DEFAULT_SYMMETRY_PIECES = {4: 12}
#: Every piece count (more than any board has cells).
ALL_PIECES = 64


def default_symmetry_pieces(size: int) -> int:
    """The default ``symmetry_pieces`` of a size-``size`` board."""
    return DEFAULT_SYMMETRY_PIECES.get(size, ALL_PIECES)


# indices into the control array ``ctl`` (int64): configuration, then statistics, then the
# history table (2 sides x MOVE_CODES) at HISTORY
C_STRIDE = 0
C_SIGHT = 1
C_PERIMETER_OPENING = 2
C_REMOTENESS = 3
C_SYMMETRY_PIECES = 4
C_BUCKET_MASK = 5
C_MAX_PLY = 6
C_CHUNKS = 7
C_RAY_STEPS = 8
C_MOBILITY = 9
#: 1: enhanced transposition cut-offs (probe every child's entry before searching any).
C_ETC = 10
#: Statistics of this kernel beyond solvers.kernels.table's: children settled by their
#: table entry without a search call (each counted as a node), and enhanced
#: transposition cut-offs (ETC) among them.
S_SETTLED = 26
S_ETC_CUTOFFS = 27
HISTORY = 32
#: History counts saturate here in ordering keys (room for a mobility count above).
HISTORY_CAP = (1 << 24) - 1
CTL_LENGTH = HISTORY + 2 * MOVE_CODES
#: The per-ply move lists (see FRAME_WIDTH) follow the control words in the same array.
FRAMES = CTL_LENGTH
#: Added to the order key of a child whose table entry says it cannot raise alpha: last.
REFUTED_LAST = 1 << 45

# indices into the geometry array ``geo`` (uint64)
G_VALID = 0
G_PERIMETER = 1

# the search's read-only board tables, one uint64 array ``tables``: the geometry above (so
# that ``tables`` serves as ``geo``), the neighbour mask of every padded cell (the adjacent
# rule's incremental counts), the image bit of every padded cell under every symmetry (the
# incremental canonical keys), and every move code's image under every symmetry and back
T_NBR = 2
T_SYM_BITS = T_NBR + 64
T_PERM = T_SYM_BITS + 12 * 64
T_PERM_BACK = T_PERM + 12 * MOVE_CODES
TABLES_LENGTH = T_PERM_BACK + 12 * MOVE_CODES
#: The search path (see PATH_WIDTH) follows the board tables in the same array.
T_PATH = TABLES_LENGTH
#: ``path[ply * PATH_WIDTH:]``: white, black, then the images of (white, black) under the
#: 12 symmetries.
PATH_IMAGES = 2
PATH_WIDTH = PATH_IMAGES + 24
#: ``frames[ply * FRAME_WIDTH:]``: the moves of the node at ``ply``, their order keys, then
#: the children's table keys (white, black, symmetry) by the moves' original index.
FRAME_WIDTH = 5 * MOVE_CODES
#: Prefetch every child's table bucket while ordering the moves.
PREFETCH = True


# ------------------------------------------------------------------------- bit helpers
@njit(cache=True, inline="always")
def _shift(x: U64, delta: I64) -> U64:
    """Bit c of the result is bit c + delta of x (the neighbour of c at offset delta)."""
    if delta >= 0:
        return x >> np.uint64(delta)
    return x << np.uint64(-delta)


@njit(cache=True, inline="always")
def _transform(mask: U64, symmetry: I64, sym_tables: np.ndarray, chunks: I64) -> U64:
    out = _U0
    for k in range(chunks):
        out |= sym_tables[symmetry, k, (mask >> np.uint64(8 * k)) & _U255]
    return out


@compiled
def canonical(white: U64, black: U64, sym_tables: np.ndarray, chunks: I64) -> tuple[U64, U64, I64]:
    """Smallest (white, black) image over the 12 symmetries and the symmetry giving it."""
    best_w = white
    best_b = black
    best_s = 0
    for s in range(1, 12):
        tw = _transform(white, s, sym_tables, chunks)
        if tw > best_w:
            continue
        tb = _transform(black, s, sym_tables, chunks)
        if tw < best_w or tb < best_b:
            best_w = tw
            best_b = tb
            best_s = s
    return best_w, best_b, best_s


# ------------------------------------------------------------------------- the rules
@njit(cache=True, inline="always")
def _seen(pieces: U64, empty: U64, delta: I64, sight: I64, steps: I64) -> U64:
    """Cells whose vote in direction ``delta`` goes to ``pieces``: the neighbour that way
    is one of them (adjacent), or the first piece that way is (sight: flood through empty)."""
    seen = _shift(pieces, delta)
    if sight != 0:
        for _ in range(steps):
            seen |= _shift(seen & empty, delta)
    return seen


@njit(cache=True, inline="always")
def _count6(a: U64, b: U64, c: U64, d: U64, e: U64, f: U64) -> tuple[U64, U64, U64]:
    """Bit-sliced sum of six one-bit boards: (bit 0, bit 1, bit 2) of every cell's count."""
    s1 = a ^ b ^ c
    c1 = (a & b) | (c & (a ^ b))
    s2 = d ^ e ^ f
    c2 = (d & e) | (f & (d ^ e))
    ones = s1 ^ s2
    c3 = s1 & s2
    twos = c1 ^ c2 ^ c3
    fours = (c1 & c2) | (c3 & (c1 ^ c2))
    return ones, twos, fours


@njit(cache=True, inline="always")
def _greater(x0: U64, x1: U64, x2: U64, y0: U64, y1: U64, y2: U64) -> U64:
    """Cells where the 3-bit count x exceeds the 3-bit count y (bit-sliced)."""
    eq2 = ~(x2 ^ y2)
    eq1 = ~(x1 ^ y1)
    return (x2 & ~y2) | (eq2 & ((x1 & ~y1) | (eq1 & x0 & ~y0)))


@compiled
def control_masks(own: U64, opp: U64, geo: np.ndarray, ctl: np.ndarray) -> tuple[U64, U64]:
    """(cells ``own`` controls, cells ``opp`` controls), every cell at once."""
    stride = ctl[C_STRIDE]
    sight = ctl[C_SIGHT]
    steps = ctl[C_RAY_STEPS]
    empty = geo[G_VALID] & ~(own | opp)
    d_e = np.int64(1)
    d_w = np.int64(-1)
    d_ne = 1 - stride
    d_nw = -stride
    d_sw = stride - 1
    d_se = stride
    o0, o1, o2 = _count6(
        _seen(own, empty, d_e, sight, steps),
        _seen(own, empty, d_w, sight, steps),
        _seen(own, empty, d_ne, sight, steps),
        _seen(own, empty, d_nw, sight, steps),
        _seen(own, empty, d_sw, sight, steps),
        _seen(own, empty, d_se, sight, steps),
    )
    p0, p1, p2 = _count6(
        _seen(opp, empty, d_e, sight, steps),
        _seen(opp, empty, d_w, sight, steps),
        _seen(opp, empty, d_ne, sight, steps),
        _seen(opp, empty, d_nw, sight, steps),
        _seen(opp, empty, d_sw, sight, steps),
        _seen(opp, empty, d_se, sight, steps),
    )
    valid = geo[G_VALID]
    return _greater(o0, o1, o2, p0, p1, p2) & valid, _greater(p0, p1, p2, o0, o1, o2) & valid


@compiled
def generate_moves(
    white: U64, black: U64, side: I64, geo: np.ndarray, ctl: np.ndarray, out: np.ndarray
) -> I64:
    """Write the legal moves into ``out`` (placements then removals, in cell order, as the
    readable module lists them) and return how many."""
    occupied = white | black
    count = 0
    if occupied == _U0 and side == 0 and ctl[C_PERIMETER_OPENING] == 1:
        placements = geo[G_PERIMETER]
        removals = _U0
    else:
        if side == 0:
            own = white
            opp = black
        else:
            own = black
            opp = white
        own_controls, opp_controls = control_masks(own, opp, geo, ctl)
        placements = geo[G_VALID] & ~occupied & ~opp_controls
        removals = opp & own_controls
    while placements:
        out[count] = trailing_zeros(placements)  # type: ignore[call-arg]
        count += 1
        placements &= placements - _U1
    while removals:
        out[count] = KERNEL_REMOVAL + trailing_zeros(removals)  # type: ignore[call-arg]
        count += 1
        removals &= removals - _U1
    return count


@compiled
def count_moves(white: U64, black: U64, side: I64, geo: np.ndarray, ctl: np.ndarray) -> I64:
    """Number of legal moves (as generate_moves, without listing them)."""
    occupied = white | black
    if occupied == _U0 and side == 0 and ctl[C_PERIMETER_OPENING] == 1:
        return popcount(geo[G_PERIMETER])
    if side == 0:
        own = white
        opp = black
    else:
        own = black
        opp = white
    own_controls, opp_controls = control_masks(own, opp, geo, ctl)
    return popcount(geo[G_VALID] & ~occupied & ~opp_controls) + popcount(opp & own_controls)


@njit(cache=True, inline="always")
def _child(white: U64, black: U64, side: I64, move: I64) -> tuple[U64, U64]:
    """Boards after ``side`` plays the kernel move ``move``."""
    if move >= KERNEL_REMOVAL:
        bit = _U1 << np.uint64(move - KERNEL_REMOVAL)
        if side == 0:
            return white, black & ~bit
        return white & ~bit, black
    bit = _U1 << np.uint64(move)
    if side == 0:
        return white | bit, black
    return white, black | bit


# ------------------------------------------------------------------------- the search
#: The table's store inlined into the search (one call and some twenty words of arguments
#: fewer per node).
_store = njit(cache=True, inline="always")(store.py_func)


@compiled
def vote_counts(
    own: U64, opp: U64, geo: np.ndarray, ctl: np.ndarray
) -> tuple[U64, U64, U64, U64, U64, U64]:
    """Bit-sliced vote counts of every cell: (own bit 0, 1, 2, opponent bit 0, 1, 2)."""
    stride = ctl[C_STRIDE]
    sight = ctl[C_SIGHT]
    steps = ctl[C_RAY_STEPS]
    empty = geo[G_VALID] & ~(own | opp)
    d_ne = 1 - stride
    d_sw = stride - 1
    o0, o1, o2 = _count6(
        _seen(own, empty, 1, sight, steps),
        _seen(own, empty, -1, sight, steps),
        _seen(own, empty, d_ne, sight, steps),
        _seen(own, empty, -stride, sight, steps),
        _seen(own, empty, d_sw, sight, steps),
        _seen(own, empty, stride, sight, steps),
    )
    p0, p1, p2 = _count6(
        _seen(opp, empty, 1, sight, steps),
        _seen(opp, empty, -1, sight, steps),
        _seen(opp, empty, d_ne, sight, steps),
        _seen(opp, empty, -stride, sight, steps),
        _seen(opp, empty, d_sw, sight, steps),
        _seen(opp, empty, stride, sight, steps),
    )
    return o0, o1, o2, p0, p1, p2


@njit(cache=True, inline="always")
def _add(x0: U64, x1: U64, x2: U64, cells: U64) -> tuple[U64, U64, U64]:
    """Bit-sliced counts plus one on ``cells`` (a piece placed next to them)."""
    c0 = x0 & cells
    c1 = x1 & c0
    return x0 ^ cells, x1 ^ c0, x2 ^ c1


@njit(cache=True, inline="always")
def _subtract(x0: U64, x1: U64, x2: U64, cells: U64) -> tuple[U64, U64, U64]:
    """Bit-sliced counts minus one on ``cells`` (each at least one there)."""
    b0 = ~x0 & cells
    b1 = ~x1 & b0
    return x0 ^ cells, x1 ^ b0, x2 ^ b1


@njit(cache=True, inline="always")
def _child_counts(
    o0: U64,
    o1: U64,
    o2: U64,
    p0: U64,
    p1: U64,
    p2: U64,
    move: I64,
    tables: np.ndarray,
) -> tuple[U64, U64, U64, U64, U64, U64]:
    """Adjacent rule: the mover's and the opponent's vote counts after the mover plays
    ``move`` (a placement adds one own vote around the cell, a removal takes one opponent
    vote away): only the six neighbours change."""
    if move >= KERNEL_REMOVAL:
        p0, p1, p2 = _subtract(p0, p1, p2, tables[T_NBR + move - KERNEL_REMOVAL])
    else:
        o0, o1, o2 = _add(o0, o1, o2, tables[T_NBR + move])
    return o0, o1, o2, p0, p1, p2


@njit(cache=True, inline="always")
def _images(
    path: np.ndarray,
    images: I64,
    child_images: I64,
    tables: np.ndarray,
    move: I64,
    side: I64,
    reduce: bool,
    child_w: U64,
    child_b: U64,
    write: bool,
) -> tuple[U64, U64, I64]:
    """The table key of the child (``child_w``, ``child_b``) after ``move`` and the
    symmetry giving it: its smallest image (canonical()) when ``reduce``, else the child
    itself. Its images are the parent's (at ``path[images:]``) with one bit set or cleared
    each; ``write`` stores them at ``path[child_images:]`` for the child's own children."""
    removal = move >= KERNEL_REMOVAL
    cell = move - KERNEL_REMOVAL if removal else move
    white_changes = (side == 0) != removal
    key_w = child_w
    key_b = child_b
    key_sym = 0
    for s in range(12):
        bit = tables[T_SYM_BITS + 64 * s + cell]
        w = path[images + 2 * s]
        b = path[images + 2 * s + 1]
        if removal:
            if white_changes:
                w &= ~bit
            else:
                b &= ~bit
        elif white_changes:
            w |= bit
        else:
            b |= bit
        if write:
            path[child_images + 2 * s] = w
            path[child_images + 2 * s + 1] = b
        if reduce and (w < key_w or (w == key_w and b < key_b)):
            key_w = w
            key_b = b
            key_sym = s
    return key_w, key_b, key_sym


@njit(cache=True, inline="always")
def _fill_images(path: np.ndarray, at: I64, tables: np.ndarray, white: U64, black: U64) -> None:
    """The 12 images of (``white``, ``black``) from scratch at ``path[at:]``, one table
    word per piece and symmetry: for a node whose parent kept no images (it had more
    pieces than the symmetry threshold allows), cheap for the few pieces it has."""
    for s in range(12):
        path[at + 2 * s] = _U0
        path[at + 2 * s + 1] = _U0
    for colour in range(2):
        pieces = white if colour == 0 else black
        while pieces:
            cell: I64 = trailing_zeros(pieces)  # type: ignore[call-arg]
            for s in range(12):
                path[at + 2 * s + colour] |= tables[T_SYM_BITS + 64 * s + cell]
            pieces &= pieces - _U1


@njit(cache=True, inline="always")
def _entry(tt: np.ndarray, k0: U64, k1: U64, side: I64, ctl: np.ndarray) -> tuple[I64, I64]:
    """(bound flag, score) of the key's table entry; flag 0 when the table has none."""
    return entry_of(tt, k0, k1, side, ctl[C_BUCKET_MASK])


@njit(cache=True, inline="always")
def _credit(ctl: np.ndarray, at: I64, work: I64) -> None:
    """History heuristic (:func:`solvers.kernels.table.credit`) over this kernel's counts."""
    credit(ctl, at, work, HISTORY, 2 * MOVE_CODES, HISTORY_CAP)


@compiled
def root_key(
    white: U64, black: U64, sym_tables: np.ndarray, ctl: np.ndarray, path: np.ndarray
) -> tuple[U64, U64, I64]:
    """Fill the root's row of the search path (the position and its 12 images) and return
    its table key and the symmetry giving it (what a parent passes to :func:`search`)."""
    chunks = ctl[C_CHUNKS]
    path[0] = white
    path[1] = black
    for s in range(12):
        path[PATH_IMAGES + 2 * s] = _transform(white, s, sym_tables, chunks)
        path[PATH_IMAGES + 2 * s + 1] = _transform(black, s, sym_tables, chunks)
    if ctl[C_SYMMETRY_PIECES] < 0 or popcount(white | black) > ctl[C_SYMMETRY_PIECES]:
        return white, black, 0
    return canonical(white, black, sym_tables, chunks)


@compiled
def search(
    white: U64,
    black: U64,
    side: I64,
    alpha: I64,
    beta: I64,
    ply: I64,
    kw: U64,
    kb: U64,
    sym: I64,
    o0: U64,
    o1: U64,
    o2: U64,
    p0: U64,
    p1: U64,
    p2: U64,
    tables: np.ndarray,
    ctl: np.ndarray,
    tt: np.ndarray,
) -> tuple[I64, bool]:
    """Fail-soft negamax score of the position for ``side`` and whether it is flagged
    (depended on a repetition cut-off or an exhausted node budget, hence never stored).

    ``kw``, ``kb``: the position's table key (its canonical image when symmetry applies,
    ``sym`` the symmetry giving it), computed by the parent together with the images in
    ``path`` (:func:`root_key` at the root). ``o*``/``p*``: the bit-sliced vote counts of the
    player to move and of the opponent (:func:`vote_counts`), kept incrementally from the
    parent under the adjacent rule; the sight rule recomputes them here (a move changes the
    rays through its cell). Few array arguments on purpose: numba passes every array as
    some seven words, and this call runs once per node."""
    ctl[S_NODES] += 1
    if ctl[S_NODES] > ctl[S_NODE_LIMIT]:
        ctl[S_ABORTED] = 1
        return 0, True
    if ply > ctl[S_MAX_PLY]:
        ctl[S_MAX_PLY] = ply
    # the search path lives in ``tables`` after the board tables, the move lists in ``ctl``
    # after the control words: two array arguments fewer per call
    path = tables
    frames = ctl
    remoteness = ctl[C_REMOTENESS]
    sight = ctl[C_SIGHT]
    row = T_PATH + ply * PATH_WIDTH
    if sight != 0:
        for p in range(row - 2 * PATH_WIDTH, T_PATH - 1, -2 * PATH_WIDTH):  # same side to move
            if path[p] == white and path[p + 1] == black:
                ctl[S_REPETITIONS] += 1
                return 0, True
    occupied = white | black
    base = bucket_base(kw, kb, side, ctl[C_BUCKET_MASK])
    table_move: I64 = -1
    for at in (base, base + SLOT_WORDS):
        if holds(tt, at, kw, kb, side):
            ctl[S_HITS] += 1
            data = tt[at + 2]
            stored_flag = entry_flag(data)
            stored = entry_score(data)
            if (
                stored_flag == EXACT
                or (stored_flag == LOWER and stored >= beta)
                or (stored_flag == UPPER and stored <= alpha)
            ):
                return stored, False
            table_move = np.int64(tables[T_PERM_BACK + sym * MOVE_CODES + entry_move(data)])
            break
    if ply >= ctl[C_MAX_PLY]:
        ctl[S_OVERFLOW] = 1
        return 0, True
    if side == 0:
        own = white
        opp = black
    else:
        own = black
        opp = white
    if sight != 0:
        o0, o1, o2, p0, p1, p2 = vote_counts(own, opp, tables, ctl)
    valid = tables[G_VALID]
    # legal moves from the counts (generate_moves, without recomputing the control masks)
    frame = FRAMES + ply * FRAME_WIDTH
    mine = _greater(o0, o1, o2, p0, p1, p2)
    theirs = _greater(p0, p1, p2, o0, o1, o2)
    if occupied == _U0 and side == 0 and ctl[C_PERIMETER_OPENING] == 1:
        placements = tables[G_PERIMETER]
        removals = _U0
    else:
        placements = valid & ~occupied & ~theirs
        removals = opp & mine
    count = 0
    while placements:
        frames[frame + count] = trailing_zeros(placements)  # type: ignore[call-arg]
        count += 1
        placements &= placements - _U1
    while removals:
        frames[frame + count] = KERNEL_REMOVAL + trailing_zeros(removals)  # type: ignore[call-arg]
        count += 1
        removals &= removals - _U1
    if count == 0:  # normal play: no legal move loses
        return (-BIG if remoteness else -1), False
    max_score = BIG - 1 if remoteness else 1
    # ordering: the table move first, searched before the others are even ordered (it
    # often cuts off alone); then, with mobility ordering, the moves leaving the opponent
    # fewest replies (a reply-less child is a win nothing beats: return at once), ties and
    # plain ordering by history (moves that caused cut-offs).
    history = HISTORY + side * MOVE_CODES
    mobility = ctl[C_MOBILITY]
    keys = frame + MOVE_CODES
    cached = keys + MOVE_CODES  # children's keys (white, black, symmetry) by move index
    start = 0
    if table_move >= 0:
        for i in range(count):
            if frames[frame + i] == table_move:
                frames[frame + i] = frames[frame]
                frames[frame] = table_move
                start = 1
                break
    path[row] = white
    path[row + 1] = black
    symmetry_pieces = ctl[C_SYMMETRY_PIECES]
    # the children's piece count: every move adds or removes one piece
    pieces = popcount(occupied)
    original_alpha = alpha
    nodes_before = ctl[S_NODES]
    best = -INFINITY
    best_move: I64 = -1
    best_flagged = False
    any_flagged = False
    child_alpha = -toward_leaf(beta, remoteness)
    prefetch = PREFETCH and sight == 0
    etc_done = False
    etc_cutoff = False
    i = 0
    while i < count:
        if i == start:  # order the moves after the table move (once: start is passed)
            # replies (adjacent rule): every move gives me one vote more than now (a placement)
            # or the opponent one fewer (a removal) on the six neighbours of its cell and
            # changes no other count. On such a neighbour I then control it iff my votes >= the
            # opponent's now (tip_mine), and the opponent loses control iff its votes are mine
            # plus one now (tip_theirs). So the opponent's replies in the child are the cells it
            # may place on now (opp_places) minus the neighbours that tip to me (and the placed
            # cell), plus my pieces it may remove now (opp_removes) minus the neighbours that
            # tip away from it: two popcounts per move instead of recounting every cell.
            opp_places = valid & ~occupied & ~mine
            opp_removes = own & theirs
            tip_mine = ~theirs
            plus0 = ~o0  # my counts plus one (at most 6 + 1: three bits suffice)
            plus1 = o1 ^ o0
            plus2 = o2 ^ (o1 & o0)
            tip_theirs = ~((p0 ^ plus0) | (p1 ^ plus1) | (p2 ^ plus2))
            if prefetch:
                # every child's key, kept for the visit, and its table bucket on its way
                # while the replies below are counted: the buckets are far apart in memory,
                # and a visit that finds its bucket in the cache skips a long wait
                for k in range(start, count):
                    m = frames[frame + k]
                    child_w, child_b = _child(white, black, side, m)
                    if (pieces - 1 if m >= KERNEL_REMOVAL else pieces + 1) <= symmetry_pieces:
                        ckw, ckb, child_sym = _images(
                            path,
                            row + PATH_IMAGES,
                            0,
                            tables,
                            m,
                            side,
                            True,
                            child_w,
                            child_b,
                            False,
                        )
                    else:
                        ckw = child_w
                        ckb = child_b
                        child_sym = 0
                    frames[cached + k] = np.int64(ckw)
                    frames[cached + MOVE_CODES + k] = np.int64(ckb)
                    frames[cached + 2 * MOVE_CODES + k] = child_sym
                    _prefetch(tt, bucket_base(ckw, ckb, 1 - side, ctl[C_BUCKET_MASK]))  # type: ignore[call-arg]
            for k in range(start, count):
                m = frames[frame + k]
                key = -min(ctl[history + m], HISTORY_CAP)
                if mobility != 0:
                    if sight != 0:
                        child_w, child_b = _child(white, black, side, m)
                        replies = count_moves(child_w, child_b, 1 - side, tables, ctl)
                    elif m >= KERNEL_REMOVAL:  # see "replies" above; the cell stays mine
                        around = tables[T_NBR + m - KERNEL_REMOVAL]
                        replies = popcount(opp_places & ~(around & tip_mine)) + popcount(
                            opp_removes & ~(around & tip_theirs)
                        )
                    else:  # the placed piece's cell is no longer empty
                        around = tables[T_NBR + m]
                        taken = _U1 << np.uint64(m)
                        replies = popcount(opp_places & ~(around & tip_mine) & ~taken) + popcount(
                            opp_removes & ~(around & tip_theirs)
                        )
                    if replies == 0:
                        _credit(ctl, history + m, 1)
                        _store(
                            tt,
                            base,
                            kw,
                            kb,
                            side,
                            EXACT,
                            max_score,
                            np.int64(tables[T_PERM + sym * MOVE_CODES + m]),
                            ctl[S_NODES] - nodes_before + 1,
                            ctl,
                        )
                        return max_score, False
                    key += replies * (HISTORY_CAP + 1)
                # the position breaks ties: the order of a stable sort, with unique keys
                frames[keys + k] = key * MOVE_CODES + k
        if i >= start:  # selection: a cut-off after a move or two leaves the rest unsorted
            chosen = i
            smallest = frames[keys + i]
            for k in range(i + 1, count):
                if frames[keys + k] < smallest:
                    smallest = frames[keys + k]
                    chosen = k
            m = frames[frame + chosen]
            frames[frame + chosen] = frames[frame + i]
            frames[frame + i] = m
            frames[keys + chosen] = frames[keys + i]
            frames[keys + i] = smallest
        m = frames[frame + i]
        # the key computed while ordering (the low bits of the order key: the move's index
        # then), or computed now together with the child's images
        from_cache = prefetch and i >= start
        index = frames[keys + i] & (MOVE_CODES - 1)
        i += 1
        child_w, child_b = _child(white, black, side, m)
        child_pieces = pieces - 1 if m >= KERNEL_REMOVAL else pieces + 1
        reduce = child_pieces <= symmetry_pieces
        # the child keeps its 12 images in the path iff its own children may be keyed by
        # symmetry (at most symmetry_pieces + 1 pieces); they come from this node's images
        # when this node keeps them, else (a removal back under the threshold) from scratch
        child_images = row + PATH_WIDTH + PATH_IMAGES
        keep_images = child_pieces <= symmetry_pieces + 1
        if from_cache:
            ckw = np.uint64(frames[cached + index])
            ckb = np.uint64(frames[cached + MOVE_CODES + index])
            child_sym = frames[cached + 2 * MOVE_CODES + index]
        elif keep_images and pieces <= symmetry_pieces + 1:
            ckw, ckb, child_sym = _images(
                path,
                row + PATH_IMAGES,
                child_images,
                tables,
                m,
                side,
                reduce,
                child_w,
                child_b,
                True,
            )
        else:
            ckw = child_w
            ckb = child_b
            child_sym = 0
        # about half the children are settled by their table entry alone: probe here and
        # skip the call for those (counted as the node the call would have been, with the
        # same statistics; under sight the call checks repetitions first)
        child_beta = -toward_leaf(alpha, remoteness)
        settled = False
        child_score = 0
        flagged = False
        if sight == 0 and ctl[S_NODES] < ctl[S_NODE_LIMIT]:
            stored_flag, stored = _entry(tt, ckw, ckb, 1 - side, ctl)
            if (
                stored_flag == EXACT
                or (stored_flag == LOWER and stored >= child_beta)
                or (stored_flag == UPPER and stored <= child_alpha)
            ):
                settled = True
                child_score = stored
                ctl[S_NODES] += 1
                ctl[S_SETTLED] += 1
                ctl[S_HITS] += 1
                if ply + 1 > ctl[S_MAX_PLY]:
                    ctl[S_MAX_PLY] = ply + 1
        if not settled and from_cache and not etc_done:
            etc_done = True
            if ctl[C_ETC] != 0 and ctl[S_NODES] < ctl[S_NODE_LIMIT]:
                # enhanced transposition cut-off, before the first search call (a node
                # decided by its first child's entry needs none): every remaining child's
                # entry, its bucket fetched while the replies were counted. A child whose
                # entry refutes it cuts this node off at once (one node: the child visit
                # it replaces); a child whose entry says it cannot raise alpha goes last,
                # where a cut-off may spare its visit.
                etc_alpha = -toward_leaf(beta, remoteness)
                for k in range(i, count):
                    other = frames[keys + k] & (MOVE_CODES - 1)  # keep this child's ckw, ckb
                    other_w = np.uint64(frames[cached + other])
                    other_b = np.uint64(frames[cached + MOVE_CODES + other])
                    stored_flag, stored = _entry(tt, other_w, other_b, 1 - side, ctl)
                    if stored_flag != 0 and stored_flag != LOWER and stored <= etc_alpha:
                        ctl[S_NODES] += 1
                        ctl[S_HITS] += 1
                        ctl[S_SETTLED] += 1
                        ctl[S_ETC_CUTOFFS] += 1
                        if ply + 1 > ctl[S_MAX_PLY]:
                            ctl[S_MAX_PLY] = ply + 1
                        # the node's result as after searching that child
                        best = toward_root(-stored, remoteness)
                        best_move = frames[frame + k]
                        best_flagged = False
                        etc_cutoff = True
                        break
                    if stored_flag != 0 and stored_flag != UPPER and stored >= child_beta:
                        frames[keys + k] += REFUTED_LAST
                if etc_cutoff:
                    break
        if not settled:
            if not keep_images:
                pass
            elif pieces > symmetry_pieces + 1:
                _fill_images(path, child_images, tables, child_w, child_b)
            elif from_cache:  # its own children need its images
                _images(
                    path,
                    row + PATH_IMAGES,
                    child_images,
                    tables,
                    m,
                    side,
                    reduce,
                    child_w,
                    child_b,
                    True,
                )
            c0, c1, c2, d0, d1, d2 = _child_counts(o0, o1, o2, p0, p1, p2, m, tables)
            child_score, flagged = search(
                child_w,
                child_b,
                1 - side,
                child_alpha,
                child_beta,
                ply + 1,
                ckw,
                ckb,
                child_sym,
                d0,  # the opponent moves next: its counts first
                d1,
                d2,
                c0,
                c1,
                c2,
                tables,
                ctl,
                tt,
            )
        if ctl[S_OVERFLOW] != 0 or ctl[S_ABORTED] != 0:
            return 0, True
        score = toward_root(-child_score, remoteness)
        any_flagged = any_flagged or flagged
        if score > best:
            best = score
            best_move = m
            best_flagged = flagged
            if best > alpha:
                alpha = best
                if best >= beta or best >= max_score:
                    break
    if best >= beta or best >= max_score:  # a cut-off: credit the move (history)
        _credit(ctl, history + best_move, ctl[S_NODES] - nodes_before)
    if best >= max_score:  # nothing can beat it: exact whatever the window
        flag = EXACT
        result_flagged = best_flagged
    elif best >= beta:
        flag = LOWER
        result_flagged = best_flagged
    elif best <= original_alpha:
        flag = UPPER
        result_flagged = any_flagged
    else:
        flag = EXACT
        result_flagged = any_flagged
    if not result_flagged:
        _store(
            tt,
            base,
            kw,
            kb,
            side,
            flag,
            best,
            np.int64(tables[T_PERM + sym * MOVE_CODES + best_move]),
            ctl[S_NODES] - nodes_before,
            ctl,
        )
    return best, result_flagged


# --------------------------------------------------------------- proof-number search
# The df-pn shared by the kernels (table, child choice, thresholds, first numbers) lives in
# solvers.kernels.proof_numbers, whose docstring gives the features and the answer to the
# graph-history problem; imported here rather than at the top so that this section stays
# separate from the alpha-beta code.
from solvers.kernels.proof_numbers import (  # noqa: E402
    PN_INFINITY,
    child_thresholds,
    leaf_numbers,
    probe,
    summarize,
    table_base,
)
from solvers.kernels.proof_numbers import store as pn_store  # noqa: E402

#: A proof (as a disproof number) or a disproof (as a proof number).
DFPN_INFINITY = PN_INFINITY
#: Weak proof numbers (max, not sum) at the opponent's nodes? No: the sum searched
#: fewer nodes on size 3 (solvers.kernels.proof_numbers).
DFPN_WEAK = False


#: df-pn keys positions by their canonical image only up to this many pieces: it computes
#: the key of every child at every visit (12 images each, no incremental images as in the
#: alpha-beta), which made symmetry on every position most of a node's time on size 4.
DFPN_SYMMETRY_PIECES = 6


@njit(cache=True, inline="always")
def _key(white: U64, black: U64, sym_tables: np.ndarray, ctl: np.ndarray) -> tuple[U64, U64]:
    """Table key: the canonical image of positions with few pieces, else the position."""
    if popcount(white | black) <= min(ctl[C_SYMMETRY_PIECES], DFPN_SYMMETRY_PIECES):
        kw, kb, _ = canonical(white, black, sym_tables, ctl[C_CHUNKS])
        return kw, kb
    return white, black


@compiled
def dfpn(
    white: U64,
    black: U64,
    side: I64,
    proof_threshold: I64,
    disproof_threshold: I64,
    ply: I64,
    geo: np.ndarray,
    sym_tables: np.ndarray,
    ctl: np.ndarray,
    move_buffer: np.ndarray,
    numbers: np.ndarray,
    tt: np.ndarray,
) -> tuple[I64, I64]:
    """Depth-first proof-number search (solvers.kernels.proof_numbers) of "the player to
    move wins" within the thresholds: returns (proof number, disproof number);
    (0, INF) proved, (INF, 0) disproved. Only the acyclic rule (``adjacent``): every number
    in the table is then a function of the position alone (no graph-history interaction).

    The node probes every child's entry before it searches any (enhanced transposition
    cutoff: a child lost for its mover proves the node at once); a child not in the table
    starts at (1, its reply count). Its children's numbers stay in ``numbers[ply]`` while
    the node is on the path, so a table entry replaced meanwhile costs time, not results.
    """
    ctl[S_NODES] += 1
    if ctl[S_NODES] > ctl[S_NODE_LIMIT]:  # out of budget: the caller stores nothing
        ctl[S_ABORTED] = 1
        return 1, 1
    if ply > ctl[S_MAX_PLY]:
        ctl[S_MAX_PLY] = ply
    kw, kb = _key(white, black, sym_tables, ctl)
    base = table_base(tt, kw, kb, side)
    ctl[S_PROBES] += 1
    pn, dn, found = probe(tt, base, kw, kb, side)
    if found:
        ctl[S_HITS] += 1
        if pn >= proof_threshold or dn >= disproof_threshold:
            return pn, dn
    if ply >= ctl[C_MAX_PLY]:
        ctl[S_OVERFLOW] = 1
        return 1, 1
    count = generate_moves(white, black, side, geo, ctl, move_buffer[ply])
    if count == 0:  # no move: the player to move loses
        pn_store(tt, base, kw, kb, side, DFPN_INFINITY, 0, 1, ctl)
        return DFPN_INFINITY, 0
    nodes_before = ctl[S_NODES]
    for i in range(count):  # every child's numbers before any descent (ETC)
        child_w, child_b = _child(white, black, side, np.int64(move_buffer[ply, i]))
        ckw, ckb = _key(child_w, child_b, sym_tables, ctl)
        cpn, cdn, cfound = probe(tt, table_base(tt, ckw, ckb, 1 - side), ckw, ckb, 1 - side)
        if not cfound:
            cpn, cdn = leaf_numbers(count_moves(child_w, child_b, 1 - side, geo, ctl), 0)
        if cdn == 0:  # the child is lost for its mover: this node is won
            pn_store(tt, base, kw, kb, side, 0, DFPN_INFINITY, 1, ctl)
            return 0, DFPN_INFINITY
        numbers[ply, 0, i] = cpn
        numbers[ply, 1, i] = cdn
    while True:
        pn, dn, best, second = summarize(numbers, ply, count, DFPN_WEAK)
        if pn >= proof_threshold or dn >= disproof_threshold:
            break
        child_proof, child_disproof = child_thresholds(
            proof_threshold, disproof_threshold, dn, numbers[ply, 0, best], second
        )
        child_w, child_b = _child(white, black, side, np.int64(move_buffer[ply, best]))
        cpn, cdn = dfpn(
            child_w,
            child_b,
            1 - side,
            child_proof,
            child_disproof,
            ply + 1,
            geo,
            sym_tables,
            ctl,
            move_buffer,
            numbers,
            tt,
        )
        if ctl[S_OVERFLOW] != 0 or ctl[S_ABORTED] != 0:
            return 1, 1
        numbers[ply, 0, best] = cpn
        numbers[ply, 1, best] = cdn
    pn_store(tt, base, kw, kb, side, pn, dn, ctl[S_NODES] - nodes_before, ctl)
    return pn, dn


# --------------------------------------------------------------------- Python side
class ControlKernel(CompiledKernel):
    """Board tables, transposition table and search state for one Control game.

    Keep one instance to solve many positions of the same game: the table carries over.
    ``symmetry_pieces`` < 0 turns symmetry off.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        remoteness: bool = False,
        tt_entries: int = 1 << 22,
        symmetry_pieces: int | None = None,
        mobility_ordering: bool = True,
        method: str = "alphabeta",
        max_ply: int = DEFAULT_MAX_PLY,
        etc: bool = True,
    ) -> None:
        if method not in METHODS:
            raise ParameterError(f"unknown search method {method!r} ({'|'.join(METHODS)})")
        if method == "dfpn" and remoteness:
            raise ParameterError("dfpn proves wins and losses only: use remoteness=False")
        if game.name != "control":
            raise ParameterError(f"the compiled Control kernel cannot solve {game.name!r}")
        board: HexBoard = game.board  # type: ignore[attr-defined]
        rule = game.rule  # type: ignore[attr-defined]
        if board.n > MAX_SIZE:
            raise ParameterError(
                f"the compiled Control kernel handles sizes up to {MAX_SIZE}, got size {board.n}"
            )
        if callable(rule):
            raise ParameterError("the compiled Control kernel supports only the named rules")
        if method == "dfpn" and rule == "sight":
            raise ParameterError("dfpn needs an acyclic game: use method=alphabeta for sight")
        self.method = method
        self.game = game
        self.board = board
        self.remoteness = remoteness
        self.max_ply = max_ply
        m = board.n - 1
        stride = 2 * board.n
        #: padded bit of every cell of the game's numbering
        self.padded = [(r + m) * stride + (q + m) for q, r in board.coords]
        self.cell_of_padded = {p: c for c, p in enumerate(self.padded)}
        top = max(self.padded) + 1
        chunks = (top + 7) // 8
        self.geo = np.array(
            [self.to_padded(board.full_mask), self.to_padded(board.perimeter_mask)],
            dtype=np.uint64,
        )
        alphabeta_plies = max_ply + 1 if method == "alphabeta" else 1
        self.tables = np.zeros(T_PATH + alphabeta_plies * PATH_WIDTH, dtype=np.uint64)
        self.tables[:T_NBR] = self.geo
        for c, p in enumerate(self.padded):
            self.tables[T_NBR + p] = self.to_padded(board.neighbour_mask[c])
            for s in range(12):
                image = self.padded[board.symmetries[s][c]]
                self.tables[T_SYM_BITS + 64 * s + p] = np.uint64(1) << np.uint64(image)
                for offset in (0, KERNEL_REMOVAL):
                    self.tables[T_PERM + s * MOVE_CODES + offset + p] = offset + image
                    self.tables[T_PERM_BACK + s * MOVE_CODES + offset + image] = offset + p
        self.sym_tables = np.zeros((12, chunks, 256), dtype=np.uint64)
        for s in range(12):
            for k in range(chunks):
                for v in range(256):
                    mask = self.from_padded((v << (8 * k)) & int(self.geo[G_VALID]))
                    self.sym_tables[s, k, v] = self.to_padded(board.transform_mask(mask, s))
        self.tt, self.capacity, bucket_mask = new_table(tt_entries)
        self.ctl = np.zeros(FRAMES + alphabeta_plies * FRAME_WIDTH, dtype=np.int64)
        self.ctl[C_STRIDE] = stride
        self.ctl[C_SIGHT] = 1 if rule == "sight" else 0
        self.ctl[C_PERIMETER_OPENING] = 1 if game.opening == "perimeter" else 0  # type: ignore[attr-defined]
        self.ctl[C_REMOTENESS] = 1 if remoteness else 0
        self.ctl[C_SYMMETRY_PIECES] = (
            default_symmetry_pieces(board.n) if symmetry_pieces is None else symmetry_pieces
        )
        self.ctl[C_BUCKET_MASK] = bucket_mask
        self.ctl[C_MAX_PLY] = max_ply
        self.ctl[C_CHUNKS] = chunks
        self.ctl[C_RAY_STEPS] = 2 * m
        self.ctl[C_MOBILITY] = 1 if mobility_ordering else 0
        self.ctl[C_ETC] = 1 if etc else 0
        dfpn_plies = max_ply + 1 if method == "dfpn" else 1
        self.move_buffer = np.zeros((dfpn_plies, MOVE_CODES), dtype=np.int16)
        self.numbers = np.zeros((dfpn_plies, 2, MOVE_CODES), dtype=np.int64)
        #: the search path, a view of ``tables`` after the board tables
        self.path = self.tables[T_PATH:]

    # ---------------------------------------------------------------- conversions
    def to_padded(self, mask: int) -> int:
        return sum(1 << self.padded[c] for c in self.board.cells_of(mask))

    def from_padded(self, mask: int) -> int:
        cells = self.cell_of_padded
        return sum(1 << cells[p] for p in self.board.cells_of(mask) if p in cells)

    def check_position(self, position: Any) -> tuple[np.uint64, np.uint64, int]:
        """The position as kernel arguments; :class:`PositionError` if it is not one (the
        kernel plays the game as played: a position with fixed cells is refused)."""
        if isinstance(position, tuple) and len(position) == 4:
            raise PositionError(
                "the compiled Control kernel does not handle fixed cells ('#', 'w', 'b'); "
                "use solver=retrograde or solver=alphabeta"
            )
        try:
            white, black, side = position
        except (TypeError, ValueError):
            raise PositionError(
                f"a Control position is (white, black, player), got {position!r}"
            ) from None
        if not all(isinstance(v, int) for v in (white, black, side)):
            raise PositionError(f"a Control position holds three ints, got {position!r}")
        full = self.board.full_mask
        if side not in (0, 1):
            raise PositionError(f"player to move must be 0 or 1, got {side!r}")
        if white < 0 or black < 0 or white & ~full or black & ~full:
            raise PositionError(f"bitboards go beyond the size-{self.board.n} board: {position!r}")
        if white & black:
            raise PositionError(f"a cell holds both colours in {position!r}")
        return np.uint64(self.to_padded(white)), np.uint64(self.to_padded(black)), side

    def to_game_move(self, code: int) -> int:
        from cgt.games.control import REMOVAL

        if code >= KERNEL_REMOVAL:
            return REMOVAL + self.cell_of_padded[code - KERNEL_REMOVAL]
        return self.cell_of_padded[code]

    # ---------------------------------------------------------------- kernel calls
    def moves(self, position: Any) -> list[int]:
        """Legal moves of ``position`` as the game's moves, by the compiled generator."""
        white, black, side = self.check_position(position)
        out = np.zeros(MOVE_CODES, dtype=np.int16)
        count = generate_moves(white, black, side, self.geo, self.ctl, out)
        return [self.to_game_move(int(c)) for c in out[:count]]

    def _search(self, position: Any, alpha: int, beta: int) -> int:
        white, black, side = self.check_position(position)
        if self.method == "dfpn":  # a proof or disproof is the exact -1/1 value
            pn, _ = dfpn(
                white,
                black,
                side,
                DFPN_INFINITY,
                DFPN_INFINITY,
                0,
                self.geo,
                self.sym_tables,
                self.ctl,
                self.move_buffer,
                self.numbers,
                self.tt,
            )
            return 1 if pn == 0 else -1
        own, opp = (white, black) if side == 0 else (black, white)
        # numba boxes uint64 results as Python ints: back to uint64 (an int64 argument
        # would retype the whole search)
        o0, o1, o2, p0, p1, p2 = (np.uint64(c) for c in vote_counts(own, opp, self.geo, self.ctl))
        kw, kb, sym = root_key(white, black, self.sym_tables, self.ctl, self.path)
        nodes_before = self.ctl[S_NODES]
        value, _ = search(
            white,
            black,
            side,
            alpha,
            beta,
            0,
            np.uint64(kw),
            np.uint64(kb),
            sym,
            o0,
            o1,
            o2,
            p0,
            p1,
            p2,
            self.tables,
            self.ctl,
            self.tt,
        )
        # every node probes the table once: counted here, not at every node
        self.ctl[S_PROBES] += self.ctl[S_NODES] - nodes_before
        return int(value)


_COMPILE_SECONDS: float | None = None


def warm_up() -> float:
    """Compile (or load from numba's disk cache) every kernel once per process and return
    the seconds it took; later calls return the first measurement."""
    global _COMPILE_SECONDS
    if _COMPILE_SECONDS is None:
        from cgt.games.control import Control

        started = time.perf_counter()
        for rule in ("adjacent", "sight"):
            kernel = ControlKernel(Control(size=2, control=rule), remoteness=True, tt_entries=64)
            kernel.moves((0, 0, 0))
            kernel.score((0, 0, 0))
        ControlKernel(Control(size=2), tt_entries=64, method="dfpn").score((0, 0, 0))
        _COMPILE_SECONDS = time.perf_counter() - started
    return _COMPILE_SECONDS


def solve_control(
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
    symmetry_pieces: int | None = None,
    method: str = "alphabeta",
    mobility_ordering: bool = True,
) -> SolveResult:
    """Solve a Control position exactly with the compiled kernel: the root value and the
    value of every root move (each solved as its own root with a full window).

    ``remoteness=False`` gives -1/0/1 values and prunes far more; ``True`` gives exact
    remoteness. ``symmetry`` keys positions with at most ``symmetry_pieces`` pieces by their
    canonical image (default: :func:`default_symmetry_pieces`). ``method="dfpn"`` (proof-number search, win/loss only, adjacent rule)
    explores far fewer positions on big boards. ``max_seconds`` bounds the search
    (:class:`~solvers.kernels.base.SearchBudgetExceeded`), ``progress`` hears about it every
    half second. ``seconds`` excludes compilation, reported as ``extra["compile_seconds"]``.
    """
    compile_seconds = warm_up()
    if symmetry_pieces is not None and (
        not isinstance(symmetry_pieces, int) or symmetry_pieces < 0
    ):
        raise ParameterError(f"symmetry_pieces must be an integer >= 0, got {symmetry_pieces!r}")
    kernel = ControlKernel(
        game,
        remoteness=remoteness,
        tt_entries=tt_entries,
        symmetry_pieces=symmetry_pieces if symmetry else -1,
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
# The compiled playout interface of solvers.playout (read its docstring). The search above
# needs the padded grid in one word (sizes up to 4); the designers play sizes 5 to 9, so the
# playouts state the rule cell by cell: a state is the white words, the black words (cell
# ``c`` is bit ``c % 64`` of word ``c // 64``, the game's numbering) and the side to move;
# a cell's voters are read along its six rays (the first cell of each under ``adjacent``,
# the first piece under ``sight``). Move codes: the cell for a placement,
# :data:`PLAYOUT_REMOVAL` + the cell for a removal, in the readable module's order.

#: Playout move code of a removal of the piece on cell ``c``: ``PLAYOUT_REMOVAL + c``.
PLAYOUT_REMOVAL = 1024
# cfg: cells, words per colour, sight (0/1), perimeter opening (0/1)
P_CELLS, P_WORDS, P_SIGHT, P_PERIMETER = 0, 1, 2, 3


@njit(cache=True, inline="always")
def _has(state: np.ndarray, offset: I64, cell: I64) -> bool:
    return (state[offset + (cell >> 6)] >> np.uint64(cell & 63)) & _U1 != _U0


@njit(cache=True, inline="always")
def _cell_control(state: np.ndarray, voters: np.ndarray, cell: I64, own: I64, opp: I64) -> I64:
    """1 if the pieces at word offset ``own`` control ``cell``, -1 if those at ``opp`` do,
    else 0."""
    votes = 0
    for d in range(6):
        for j in range(voters.shape[2]):
            x = voters[cell, d, j]
            if x < 0:
                break
            if _has(state, own, x):
                votes += 1
                break
            if _has(state, opp, x):
                votes -= 1
                break
    return 1 if votes > 0 else (-1 if votes < 0 else 0)


@njit(cache=True)
def _playout_control(state: np.ndarray, tables: Any, side: I64) -> None:
    """``control[c]``: 1 if the mover controls cell c, -1 if the opponent does, else 0."""
    cfg, voters, _perimeter, control, _ = tables
    own = 0 if side == 0 else cfg[P_WORDS]
    opp = cfg[P_WORDS] - own
    for c in range(cfg[P_CELLS]):
        control[c] = _cell_control(state, voters, c, own, opp)


@njit(cache=True)
def playout_generate(state: np.ndarray, tables: Any, out: np.ndarray) -> I64:
    cfg, _voters, perimeter, control, _ = tables
    words = cfg[P_WORDS]
    side = np.int64(state[2 * words])
    count = 0
    if side == 0 and cfg[P_PERIMETER] == 1:
        empty = True
        for k in range(2 * words):
            if state[k] != _U0:
                empty = False
        if empty:
            for i in range(perimeter.shape[0]):
                out[i] = perimeter[i]
            return perimeter.shape[0]
    _playout_control(state, tables, side)
    own = 0 if side == 0 else words
    opp = words - own
    cells = cfg[P_CELLS]
    for c in range(cells):
        if control[c] >= 0 and not _has(state, own, c) and not _has(state, opp, c):
            out[count] = c
            count += 1
    for c in range(cells):
        if control[c] > 0 and _has(state, opp, c):
            out[count] = PLAYOUT_REMOVAL + c
            count += 1
    return count


@njit(cache=True)
def playout_final(state: np.ndarray, tables: Any) -> I64:
    return -1  # normal play: the player with no move loses


@njit(cache=True)
def playout_play(state: np.ndarray, code: I64, tables: Any, child: np.ndarray) -> None:
    words = tables[0][P_WORDS]
    side = np.int64(state[2 * words])
    child[:] = state
    if code >= PLAYOUT_REMOVAL:
        cell = code - PLAYOUT_REMOVAL
        at = (0 if side == 1 else words) + (cell >> 6)
        child[at] &= ~(_U1 << np.uint64(cell & 63))
    else:
        at = (0 if side == 0 else words) + (code >> 6)
        child[at] |= _U1 << np.uint64(code & 63)
    child[2 * words] = np.uint64(1 - side)


@njit(cache=True)
def playout_mover(state: np.ndarray, tables: Any) -> I64:
    return np.int64(state[2 * tables[0][P_WORDS]])


def playout_rules(game: Game[Any, Any]) -> PlayoutRules:
    """Control's playout interface (both named rules, both openings, every size)."""
    from cgt.games.control import REMOVAL

    if game.name != "control" or callable(game.rule):  # type: ignore[attr-defined]
        raise ParameterError("the Control playouts support only the named rules")
    board: HexBoard = game.board  # type: ignore[attr-defined]
    cells = board.size
    words = (cells + 63) // 64
    sight = game.control == "sight"  # type: ignore[attr-defined]
    reach = max(1, max(len(ray) for rays in board.rays for ray in rays)) if sight else 1
    voters = np.full((cells, 6, reach), -1, dtype=np.int64)
    for c in range(cells):
        for d, ray in enumerate(board.rays[c]):
            voters[c, d, : min(reach, len(ray))] = ray[:reach]
    cfg = np.array([cells, words, int(sight), int(game.opening == "perimeter")], np.int64)  # type: ignore[attr-defined]
    tables = (
        cfg,
        voters,
        np.array(board.perimeter, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(2 * cells, dtype=np.int64),
    )

    def encode(position: Any) -> np.ndarray:
        if not isinstance(position, tuple) or len(position) != 3:
            raise PositionError("the Control playouts take (white, black, player) positions")
        white, black, side = position
        return np.array(
            [*mask_words(white, words), *mask_words(black, words), side], dtype=np.uint64
        )

    def decode(state: np.ndarray) -> Any:
        return (words_mask(state[:words]), words_mask(state[words : 2 * words]), int(state[-1]))

    def code_of(position: Any, move: int) -> int:
        return PLAYOUT_REMOVAL + move - REMOVAL if move >= REMOVAL else move

    def move_of(position: Any, code: int) -> int:
        return REMOVAL + code - PLAYOUT_REMOVAL if code >= PLAYOUT_REMOVAL else code

    return plug_in(
        sys.modules[__name__],
        game,
        words=2 * words + 1,
        alternating=True,
        max_moves=2 * cells,
        tables=tables,
        encode=encode,
        decode=decode,
        code_of=code_of,
        move_of=move_of,
        max_plies=DEFAULT_MAX_PLIES if game.acyclic else 4 * cells,
    )


PLUGIN = KernelPlugin(
    "control",
    solve_control,
    kernel_class=ControlKernel,
    methods=("alphabeta", "dfpn"),
    playout=playout_rules,
)
