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
The engine's alpha-beta (:mod:`solvers.engine_search`, the same for every game; its
docstring says how it searches) on Control's plug-in (:func:`engine_generate` and the
functions after it). What the plug-in gives the engine:

* incremental control (adjacent rule): a state carries the bit-sliced vote counts of both
  colours, and a move updates them on the six neighbours of its cell (a placement adds one
  vote, a removal takes one away: a 3-bit bit-sliced increment), so move generation never
  recomputes the twelve shifted boards and the two adders; under ``sight`` a move changes
  whole rays and the counts are recomputed;
* ordering hints (``mobility_ordering``, default): the replies a move leaves the
  opponent, two popcounts of masks prepared once per node (:func:`engine_order`); a move
  that leaves no reply is a win found without a visit, which is why the fewest replies go
  first. Ties go by history, and a cut-off credits its move with the nodes it took
  (``history="work"``, the C reference's choice: on the ten positions of
  benchmarks/CONTROL_REFERENCE.md 2.6 times fewer nodes than the square of their bit
  length, ``history="depth"``);
* symmetry: positions with at most ``symmetry_pieces`` pieces are keyed by their canonical
  image (smallest (white, black) over the 12 board symmetries); the best move is kept in
  the canonical frame (:func:`engine_move_to_key`). The 12 images travel in the state, each
  move setting or clearing one bit per image, instead of transforming both boards at every
  node, and only while the position has at most ``symmetry_pieces + 1`` pieces, so a small
  threshold costs nothing deep in the tree (the default is by board size where measured:
  :data:`DEFAULT_SYMMETRY_PIECES`); a child's key comes from the parent's images without
  playing the move (:func:`engine_child_key`);
* ``control=adjacent`` is acyclic (the potential argument of the claim control.termination).
  Under ``control=sight`` positions repeat: the engine scores a repetition on the path a
  draw and stores nothing that depended on one (the first three state words name the
  position; why that is exact is in the engine's docstring). Checked against retrograde on
  every size-2 position and on size-3 positions near the end, and against depth-bounded
  proofs over the readable rules on size 3 (tests/test_kernels_control.py).

``method="dfpn"`` replaces alpha-beta by the engine's depth-first proof-number search
(:mod:`solvers.engine_dfpn`, win/loss only, adjacent rule only) with the shared machinery of
:mod:`solvers.proof_numbers` (table with least-work replacement, enhanced
transposition cutoff, the 1 + epsilon trick; that module's docstring says why
graph-history interaction cannot arise here). A new child starts at (a proof number from the
moves the mover keeps, the replies it leaves), both counted by :func:`engine_order` without
playing the move. Its nodes and time against alpha-beta on the same positions:
``benchmarks/DFPN.md``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM cttz intrinsic

from cgt.boards.hexhex import HexBoard
from cgt.errors import ParameterError, PositionError, unpack_position
from cgt.protocol import Game
from solvers.engine import METHODS, EngineKernel
from solvers.engine_dfpn import HINT_PROOF_SHIFT
from solvers.kernel_base import compile_once, search_solver
from solvers.kernel_table import (
    _U0,
    _U1,
    I64,
    U64,
    compiled,
    no_wrap,
    popcount,
)
from solvers.kernels.plugin import KernelPlugin
from solvers.playout import DEFAULT_MAX_PLIES, PlayoutRules, mask_words, plug_in, words_mask

#: Kernel move code of a removal of the piece on padded cell ``p``: ``KERNEL_REMOVAL + p``.
KERNEL_REMOVAL = 64
#: Room for every move code (placements 0..63, removals 64..127).
MOVE_CODES = 128
#: Largest board whose padded grid fits in 64 bits.
MAX_SIZE = 4
#: Deepest search path (plies); a deeper path raises instead of overflowing buffers.
DEFAULT_MAX_PLY = 4096
#: Default symmetry reduction by board size: canonical keys for positions with at most this
#: many pieces. On a board whose positions transpose rarely into symmetric images the 12
#: images kept per node cost more time than the transpositions they find save
#: (benchmarks/TUNING.md). Sizes not listed: every count.
DEFAULT_SYMMETRY_PIECES = {4: 12}
#: Every piece count (more than any board has cells).
ALL_PIECES = 64
#: df-pn's first proof number of a child: 1 + this many per move the mover would keep
#: (:func:`engine_order`; the factor is measured in benchmarks/TUNING.md)
PROOF_PER_OWN_MOVE = 2


def default_symmetry_pieces(size: int) -> int:
    """The default ``symmetry_pieces`` of a size-``size`` board."""
    return DEFAULT_SYMMETRY_PIECES.get(size, ALL_PIECES)


# indices into the rules' configuration ``config`` (int64; ``tables[1]`` of the plug-in and
# the df-pn's control array, whose statistics sit at solvers.kernel_table's S_* indices)
C_STRIDE = 0
C_SIGHT = 1
C_PERIMETER_OPENING = 2
C_SYMMETRY_PIECES = 4
C_MAX_PLY = 6
C_RAY_STEPS = 8
C_MOBILITY = 9
#: 1: ``engine_order``'s hints carry a first proof number for df-pn (:func:`engine_order`)
C_FIRST_PROOF = 10
CONFIG_LENGTH = 32

# indices into the geometry array ``geo`` (uint64)
G_VALID = 0
G_PERIMETER = 1

# the read-only board tables, one uint64 array: the geometry above (so that it serves as
# ``geo``), the neighbour mask of every padded cell (the adjacent rule's incremental
# counts), the image bit of every padded cell under every symmetry (the incremental
# canonical keys), and every move code's image under every symmetry and back
T_NBR = 2
T_SYM_BITS = T_NBR + 64
T_PERM = T_SYM_BITS + 12 * 64
T_PERM_BACK = T_PERM + 12 * MOVE_CODES
TABLES_LENGTH = T_PERM_BACK + 12 * MOVE_CODES


# ------------------------------------------------------------------------- bit helpers
@njit(cache=True, inline="always")
def _shift(x: U64, delta: I64) -> U64:
    """Bit c of the result is bit c + delta of x (the neighbour of c at offset delta)."""
    if delta >= 0:
        return x >> np.uint64(delta)
    return x << np.uint64(-delta)


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


@njit(cache=True, inline="always")
def _listed(placements: U64, removals: U64, out: np.ndarray) -> I64:
    """Write the placements then the removals into ``out`` in cell order (the readable
    module's order) and return how many."""
    count = 0
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
def generate_moves(
    white: U64, black: U64, side: I64, geo: np.ndarray, ctl: np.ndarray, out: np.ndarray
) -> I64:
    """Write the legal moves into ``out`` (placements then removals, in cell order, as the
    readable module lists them) and return how many."""
    occupied = white | black
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
    return _listed(placements, removals, out)


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


# ------------------------------------------------------------------------- vote counts
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


# ------------------------------------------------------------------ the engine plug-in
# The rules above as the engine's plug-in (docs/engine.md; the search is
# solvers/engine_search.py, shared by every game). ``tables`` is (the board tables: geometry,
# neighbour masks, symmetry bits and move permutations, T_* above; the configuration: the
# C_* words above). A state is E_WORDS uint64 words: white, black and the side to move (what
# names the position), then the bit-sliced vote counts of white's pieces and of black's
# (adjacent rule: kept move by move, a placement adds one vote around its cell and a
# removal takes one away), whether the images are kept, and the images of (white, black)
# under the 12 board symmetries, kept move by move (one bit set or cleared in each) while
# the position has at most ``symmetry_pieces + 1`` pieces, so that the canonical key of a
# position with few pieces is the smallest of 12 pairs.
E_WHITE, E_BLACK, E_SIDE = 0, 1, 2
#: white's counts (bit 0, 1, 2), then black's
E_COUNTS = 3
E_IMAGES_KEPT = 9
E_IMAGES = 10
E_WORDS = E_IMAGES + 24


@njit(cache=True, inline="always")
def _mover_counts(state: np.ndarray, tables: Any) -> tuple[U64, U64, U64, U64, U64, U64]:
    """The mover's and the opponent's bit-sliced vote counts: kept in the state under the
    adjacent rule, counted afresh under sight (a move changes whole rays)."""
    board, cfg = tables
    side = np.int64(state[E_SIDE])
    own = state[no_wrap(side)]
    opp = state[no_wrap(1 - side)]
    if cfg[C_SIGHT] != 0:
        return vote_counts(own, opp, board, cfg)
    o = E_COUNTS + 3 * side
    p = E_COUNTS + 3 * (1 - side)
    return (
        state[no_wrap(o)],
        state[no_wrap(o + 1)],
        state[no_wrap(o + 2)],
        state[no_wrap(p)],
        state[no_wrap(p + 1)],
        state[no_wrap(p + 2)],
    )


@njit(cache=True, inline="always")
def engine_generate(state: np.ndarray, tables: Any, out: np.ndarray) -> I64:
    """Placements then removals in cell order (the readable module's order)."""
    board, cfg = tables
    white = state[E_WHITE]
    black = state[E_BLACK]
    side = np.int64(state[E_SIDE])
    occupied = white | black
    if occupied == _U0 and side == 0 and cfg[C_PERIMETER_OPENING] == 1:
        placements = board[G_PERIMETER]
        removals = _U0
    else:
        o0, o1, o2, p0, p1, p2 = _mover_counts(state, tables)
        placements = board[G_VALID] & ~occupied & ~_greater(p0, p1, p2, o0, o1, o2)
        removals = state[no_wrap(1 - side)] & _greater(o0, o1, o2, p0, p1, p2)
    return _listed(placements, removals, out)


@njit(cache=True, inline="always")
def engine_final(state: np.ndarray, tables: Any) -> I64:
    return -1  # normal play: no legal move loses


@njit(cache=True, inline="always")
def engine_mover(state: np.ndarray, tables: Any) -> I64:
    return np.int64(state[E_SIDE])


@njit(cache=True, inline="always")
def _keeps_images(pieces: I64, cfg: np.ndarray) -> bool:
    return pieces <= cfg[C_SYMMETRY_PIECES] + 1


@njit(cache=True, inline="always")
def _image_after(
    state: np.ndarray, board: np.ndarray, s: I64, cell: I64, changed: I64, removal: bool
) -> tuple[U64, U64]:
    """Symmetry ``s``'s image of the position (white, black) after the move on ``cell``, from
    the image the state keeps: the cell's image set or cleared on the changed colour."""
    image = board[no_wrap(T_SYM_BITS + 64 * s + cell)]
    w = state[no_wrap(E_IMAGES + 2 * s)]
    b = state[no_wrap(E_IMAGES + 2 * s + 1)]
    if changed == 0:
        w = w & ~image if removal else w | image
    else:
        b = b & ~image if removal else b | image
    return w, b


@njit(cache=True, inline="always")
def engine_play(state: np.ndarray, code: I64, tables: Any, child: np.ndarray) -> None:
    board, cfg = tables
    side = np.int64(state[E_SIDE])
    removal = code >= KERNEL_REMOVAL
    cell = code - KERNEL_REMOVAL if removal else code
    bit = _U1 << np.uint64(cell)
    changed = 1 - side if removal else side  # the colour whose board changes
    for w in range(E_IMAGES_KEPT):
        child[no_wrap(w)] = state[no_wrap(w)]
    child[no_wrap(changed)] = (
        state[no_wrap(changed)] & ~bit if removal else state[no_wrap(changed)] | bit
    )
    child[E_SIDE] = np.uint64(1 - side)
    if cfg[C_SIGHT] == 0:  # one vote more (placement) or fewer (removal) around the cell
        at = E_COUNTS + 3 * changed
        around = board[no_wrap(T_NBR + cell)]
        if removal:
            x0, x1, x2 = _subtract(
                state[no_wrap(at)], state[no_wrap(at + 1)], state[no_wrap(at + 2)], around
            )
        else:
            x0, x1, x2 = _add(
                state[no_wrap(at)], state[no_wrap(at + 1)], state[no_wrap(at + 2)], around
            )
        child[no_wrap(at)] = x0
        child[no_wrap(at + 1)] = x1
        child[no_wrap(at + 2)] = x2
    pieces = popcount(child[E_WHITE] | child[E_BLACK])
    if not _keeps_images(pieces, cfg):
        child[E_IMAGES_KEPT] = _U0
    elif state[E_IMAGES_KEPT] != _U0:
        for s in range(12):
            w, b = _image_after(state, board, s, cell, changed, removal)
            child[no_wrap(E_IMAGES + 2 * s)] = w
            child[no_wrap(E_IMAGES + 2 * s + 1)] = b
        child[E_IMAGES_KEPT] = _U1
    else:
        fill_images(child, tables)


@njit(cache=True)
def fill_images(state: np.ndarray, tables: Any) -> None:
    """The 12 images of the position from scratch, one table word per piece and symmetry
    (a root, or a removal back under the symmetry threshold: few pieces)."""
    board = tables[0]
    for s in range(12):
        state[no_wrap(E_IMAGES + 2 * s)] = _U0
        state[no_wrap(E_IMAGES + 2 * s + 1)] = _U0
    for colour in range(2):
        pieces = state[no_wrap(colour)]
        while pieces:
            cell: I64 = trailing_zeros(pieces)  # type: ignore[call-arg]
            for s in range(12):
                state[no_wrap(E_IMAGES + 2 * s + colour)] |= board[
                    no_wrap(T_SYM_BITS + 64 * s + cell)
                ]
            pieces &= pieces - _U1
    state[E_IMAGES_KEPT] = _U1


@njit(cache=True, inline="always")
def engine_key(state: np.ndarray, tables: Any) -> tuple[U64, U64, I64, I64]:
    """The smallest image of a position with at most ``symmetry_pieces`` pieces (the images
    are kept then), else the position; the tag is the side to move."""
    cfg = tables[1]
    white = state[E_WHITE]
    black = state[E_BLACK]
    side = np.int64(state[E_SIDE])
    if popcount(white | black) > cfg[C_SYMMETRY_PIECES] or state[E_IMAGES_KEPT] == _U0:
        return white, black, side, np.int64(0)
    key_w = white
    key_b = black
    key_s = 0
    for s in range(1, 12):
        w = state[no_wrap(E_IMAGES + 2 * s)]
        b = state[no_wrap(E_IMAGES + 2 * s + 1)]
        if w < key_w or (w == key_w and b < key_b):
            key_w = w
            key_b = b
            key_s = s
    return key_w, key_b, side, np.int64(key_s)


@njit(cache=True, inline="always")
def engine_child_key(
    state: np.ndarray, code: I64, tables: Any, scratch: np.ndarray
) -> tuple[U64, U64, I64, I64]:
    """A child's key from this position's images, one bit changed in each (no copy of the
    state); a child that needs its images from scratch is played out."""
    board, cfg = tables
    side = np.int64(state[E_SIDE])
    removal = code >= KERNEL_REMOVAL
    cell = code - KERNEL_REMOVAL if removal else code
    bit = _U1 << np.uint64(cell)
    changed = 1 - side if removal else side
    white = state[E_WHITE]
    black = state[E_BLACK]
    if changed == 0:
        white = white & ~bit if removal else white | bit
    else:
        black = black & ~bit if removal else black | bit
    pieces = popcount(white | black)
    if pieces > cfg[C_SYMMETRY_PIECES]:
        return white, black, 1 - side, np.int64(0)
    if state[E_IMAGES_KEPT] == _U0:
        engine_play(state, code, tables, scratch)
        return engine_key(scratch, tables)
    key_w = white
    key_b = black
    key_s = 0
    for s in range(1, 12):
        w, b = _image_after(state, board, s, cell, changed, removal)
        if w < key_w or (w == key_w and b < key_b):
            key_w = w
            key_b = b
            key_s = s
    return key_w, key_b, 1 - side, np.int64(key_s)


@njit(cache=True, inline="always")
def engine_order(
    state: np.ndarray, tables: Any, moves: np.ndarray, start: I64, count: I64, keys: np.ndarray
) -> I64:
    """The replies each move leaves the opponent (fewest first; with ``mobility`` off, no
    hint), and a move that leaves none: a win at once.

    Adjacent rule: a move gives me one vote more (a placement) or the opponent one fewer (a
    removal) on the six neighbours of its cell and changes no other count. On such a
    neighbour I then control it iff my votes >= the opponent's now (``tip_mine``), and the
    opponent loses control iff its votes are mine plus one now (``tip_theirs``). So the
    opponent's replies in the child are the cells it may place on now minus the neighbours
    that tip to me (and the placed cell), plus my pieces it may remove now minus the
    neighbours that tip away from it: two popcounts per move. Under sight a move changes
    whole rays: the child's replies are counted.

    For df-pn (``C_FIRST_PROOF``, adjacent rule only) a hint also carries the child's first
    proof number above bit ``HINT_PROOF_SHIFT`` (solvers.engine_dfpn): 1 +
    :data:`PROOF_PER_OWN_MOVE` x the moves I would have after the move if I moved again
    (:func:`_own_moves_after`). The opponent wins the child by leaving me no move, so the
    fewer I keep, the nearer its proof; against the unit proof number this is what the
    child's own expansion would show one ply early."""
    board, cfg = tables
    first_proof = cfg[C_FIRST_PROOF] != 0
    if cfg[C_MOBILITY] == 0:
        for k in range(start, count):
            keys[no_wrap(k)] = 0
        return -1
    side = np.int64(state[E_SIDE])
    own = state[no_wrap(side)]
    opp = state[no_wrap(1 - side)]
    occupied = own | opp
    o0, o1, o2, p0, p1, p2 = _mover_counts(state, tables)
    mine = _greater(o0, o1, o2, p0, p1, p2)
    theirs = _greater(p0, p1, p2, o0, o1, o2)
    opp_places = board[G_VALID] & ~occupied & ~mine
    opp_removes = own & theirs
    tip_mine = ~theirs
    plus0 = ~o0  # my counts plus one (at most 6 + 1: three bits suffice)
    plus1 = o1 ^ o0
    plus2 = o2 ^ (o1 & o0)
    tip_theirs = ~((p0 ^ plus0) | (p1 ^ plus1) | (p2 ^ plus2))
    for k in range(start, count):
        m = moves[no_wrap(k)]
        if cfg[C_SIGHT] != 0:
            white, black = _child(state[E_WHITE], state[E_BLACK], side, m)
            replies = count_moves(white, black, 1 - side, board, cfg)
        elif m >= KERNEL_REMOVAL:  # the cell stays mine
            around = board[no_wrap(T_NBR + m - KERNEL_REMOVAL)]
            replies = popcount(opp_places & ~(around & tip_mine)) + popcount(
                opp_removes & ~(around & tip_theirs)
            )
        else:  # the placed piece's cell is no longer empty
            around = board[no_wrap(T_NBR + m)]
            taken = _U1 << np.uint64(m)
            replies = popcount(opp_places & ~(around & tip_mine) & ~taken) + popcount(
                opp_removes & ~(around & tip_theirs)
            )
        if replies == 0:
            return k
        if first_proof:
            empty = board[G_VALID] & ~occupied
            own_moves = _own_moves_after(m, empty, opp, mine, theirs, tip_theirs, board)
            keys[no_wrap(k)] = replies | ((1 + PROOF_PER_OWN_MOVE * own_moves) << HINT_PROOF_SHIFT)
        else:
            keys[no_wrap(k)] = replies
    return -1


@njit(cache=True, inline="always")
def _own_moves_after(
    move: I64, empty: U64, opp: U64, mine: U64, theirs: U64, tip_theirs: U64, board: np.ndarray
) -> I64:
    """The moves the mover would have after its ``move`` (adjacent rule) if it moved again.
    Around the move's cell the mover's votes gain one on the opponent's (a placement adds its
    piece's vote, a removal takes the opponent's away), so a cell there becomes the mover's
    where its votes were at least the opponent's (not ``theirs``) and stops being the
    opponent's where those were one more (``tip_theirs``); the cell itself is taken by a
    placement, emptied by a removal."""
    removal = move >= KERNEL_REMOVAL
    cell = move - KERNEL_REMOVAL if removal else move
    bit = _U1 << np.uint64(cell)
    around = board[no_wrap(T_NBR + cell)]
    mine_after = mine | (around & ~theirs)
    theirs_after = theirs & ~(around & tip_theirs)
    if removal:
        empty |= bit
        opp &= ~bit
    else:
        empty &= ~bit
    return popcount(empty & ~theirs_after) + popcount(opp & mine_after)


@njit(cache=True, inline="always")
def engine_move_to_key(code: I64, symmetry: I64, tables: Any) -> I64:
    return np.int64(tables[0][no_wrap(T_PERM + symmetry * MOVE_CODES + code)])


@njit(cache=True, inline="always")
def engine_move_from_key(code: I64, symmetry: I64, tables: Any) -> I64:
    return np.int64(tables[0][no_wrap(T_PERM_BACK + symmetry * MOVE_CODES + code)])


# --------------------------------------------------------------------- Python side
class ControlBoard:
    """The padded layout of one Control game and its conversions (positions, moves), the
    board tables and the rules' configuration: the Python side of the plug-in.

    Apart from the kernel so that the plug-in's conversions (``encode``, ``decode``, ...),
    which outlive a kernel in ``engine_rules``, hold no reference to it: a kernel dropped
    frees its table at once, not at the next run of the cycle collector. ``first_proof``:
    the ``order`` hints carry df-pn's first proof numbers too (a df-pn kernel's plug-in)."""

    def __init__(
        self,
        game: Game[Any, Any],
        symmetry_pieces: int | None,
        mobility_ordering: bool,
        max_ply: int,
        first_proof: bool = False,
    ) -> None:
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
        self.board = board
        m = board.n - 1
        stride = 2 * board.n
        #: padded bit of every cell of the game's numbering
        self.padded = [(r + m) * stride + (q + m) for q, r in board.coords]
        self.cell_of_padded = {p: c for c, p in enumerate(self.padded)}
        self.geo = np.array(
            [self.to_padded(board.full_mask), self.to_padded(board.perimeter_mask)],
            dtype=np.uint64,
        )
        self.board_tables = np.zeros(TABLES_LENGTH, dtype=np.uint64)
        self.board_tables[:T_NBR] = self.geo
        for c, p in enumerate(self.padded):
            self.board_tables[T_NBR + p] = self.to_padded(board.neighbour_mask[c])
            for s in range(12):
                image = self.padded[board.symmetries[s][c]]
                self.board_tables[T_SYM_BITS + 64 * s + p] = np.uint64(1) << np.uint64(image)
                for offset in (0, KERNEL_REMOVAL):
                    self.board_tables[T_PERM + s * MOVE_CODES + offset + p] = offset + image
                    self.board_tables[T_PERM_BACK + s * MOVE_CODES + offset + image] = offset + p
        # the rules' configuration (the C_* words), read by the plug-in and the df-pn
        config = np.zeros(CONFIG_LENGTH, dtype=np.int64)
        config[C_STRIDE] = stride
        config[C_SIGHT] = 1 if rule == "sight" else 0
        config[C_PERIMETER_OPENING] = 1 if game.opening == "perimeter" else 0  # type: ignore[attr-defined]
        config[C_SYMMETRY_PIECES] = (
            default_symmetry_pieces(board.n) if symmetry_pieces is None else symmetry_pieces
        )
        config[C_MAX_PLY] = max_ply
        config[C_RAY_STEPS] = 2 * m
        config[C_MOBILITY] = 1 if mobility_ordering else 0
        config[C_FIRST_PROOF] = 1 if first_proof else 0
        self.config = config

    def engine_rules(self, game: Game[Any, Any]) -> PlayoutRules:
        """The engine's plug-in (the compiled functions above, this board's conversions)."""
        return PlayoutRules(
            game=game,
            words=E_WORDS,
            max_moves=MOVE_CODES,
            tables=(self.board_tables, self.config),
            final=engine_final,
            generate=engine_generate,
            play=engine_play,
            mover=engine_mover,
            key=engine_key,
            child_key=engine_child_key,
            order=engine_order,
            move_to_key=engine_move_to_key,
            move_from_key=engine_move_from_key,
            encode=self.encode,
            decode=self.decode_state,
            code_of=self.code_of,
            move_of=self.move_of,
            alternating=True,
            identity_words=3,
            nrt=False,
            max_plies=DEFAULT_MAX_PLIES if game.acyclic else 4 * self.board.size,
        )

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
        white, black, side = unpack_position(
            position, 3, "a Control position is (white, black, player)"
        )
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

    def encode(self, position: Any) -> np.ndarray:
        """The plug-in's state of ``position``: boards, side, vote counts, images."""
        white, black, side = self.check_position(position)
        state = np.zeros(E_WORDS, dtype=np.uint64)
        state[E_WHITE], state[E_BLACK], state[E_SIDE] = white, black, side
        counts = vote_counts(white, black, self.geo, self.config)  # white's, then black's
        state[E_COUNTS : E_COUNTS + 6] = [np.uint64(c) for c in counts]
        fill_images(state, self.rules_tables())
        return state

    def rules_tables(self) -> tuple[np.ndarray, np.ndarray]:
        return self.board_tables, self.config

    def decode_state(self, state: np.ndarray) -> tuple[int, int, int]:
        return (
            self.from_padded(int(state[E_WHITE])),
            self.from_padded(int(state[E_BLACK])),
            int(state[E_SIDE]),
        )

    def to_game_move(self, code: int) -> int:
        from cgt.games.control import REMOVAL

        if code >= KERNEL_REMOVAL:
            return REMOVAL + self.cell_of_padded[code - KERNEL_REMOVAL]
        return self.cell_of_padded[code]

    def to_kernel_move(self, move: int) -> int:
        from cgt.games.control import REMOVAL

        if move >= REMOVAL:
            return KERNEL_REMOVAL + self.padded[move - REMOVAL]
        return self.padded[move]

    def code_of(self, position: Any, move: Any) -> int:
        return self.to_kernel_move(move)

    def move_of(self, position: Any, code: int) -> int:
        return self.to_game_move(code)


class ControlKernel(ControlBoard, EngineKernel):
    """Board tables, transposition table and search state for one Control game: the engine
    (:mod:`solvers.engine`) on Control's plug-in above, or (``method="dfpn"``) the
    proof-number search.

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
        history: str = "work",
    ) -> None:
        # the board apart, its data shared: the plug-in's conversions bind to it, not here
        board = ControlBoard(
            game, symmetry_pieces, mobility_ordering, max_ply, first_proof=method == "dfpn"
        )
        vars(self).update(vars(board))
        EngineKernel.__init__(
            self,
            board.engine_rules(game),
            remoteness=remoteness,
            tt_entries=tt_entries,
            max_ply=max_ply,
            method=method,
            etc=etc,
            history=history,
        )


@compile_once
def warm_up() -> None:
    """Compile (or load from numba's disk cache) every kernel once per process."""
    from cgt.games.control import Control

    for rule in ("adjacent", "sight"):
        kernel = ControlKernel(Control(size=2, control=rule), remoteness=True, tt_entries=64)
        kernel.moves((0, 0, 0))
        kernel.score((0, 0, 0))
    ControlKernel(Control(size=2), tt_entries=64, method="dfpn").score((0, 0, 0))


def _kernel(
    game: Game[Any, Any], *, symmetry: bool, symmetry_pieces: int | None = None, **options: Any
) -> ControlKernel:
    if symmetry_pieces is not None and (
        not isinstance(symmetry_pieces, int) or symmetry_pieces < 0
    ):
        raise ParameterError(f"symmetry_pieces must be an integer >= 0, got {symmetry_pieces!r}")
    return ControlKernel(game, symmetry_pieces=symmetry_pieces if symmetry else -1, **options)


solve_control = search_solver(
    "solve_control",
    _kernel,
    warm_up,
    """Solve a Control position exactly with the compiled kernel: the root value and the
    value of every root move (each solved as its own root with a full window).

    ``remoteness=False`` gives -1/0/1 values and prunes far more; ``True`` gives exact
    remoteness. ``symmetry`` keys positions with at most ``symmetry_pieces`` pieces by their
    canonical image (default: :func:`default_symmetry_pieces`). ``method="dfpn"``
    (proof-number search, win/loss only, adjacent rule) explores far fewer positions on big
    boards; ``mobility_ordering`` orders moves by the replies they leave.""",
    symmetry_pieces=None,
    method="alphabeta",
    mobility_ordering=True,
)


def engine_rules(game: Game[Any, Any]) -> PlayoutRules:
    """Control's plug-in of the engine's exact search (sizes up to :data:`MAX_SIZE`)."""
    return ControlKernel(game, tt_entries=2, max_ply=1).rules


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
    """Control's playout interface (both named rules, both openings, every size): the
    engine's plug-in up to size :data:`MAX_SIZE` (a playout ply costs a search node), the
    cell-by-cell statement above beyond."""
    from cgt.games.control import REMOVAL

    if game.name != "control" or callable(game.rule):  # type: ignore[attr-defined]
        raise ParameterError("the Control playouts support only the named rules")
    board: HexBoard = game.board  # type: ignore[attr-defined]
    if board.n <= MAX_SIZE:
        return engine_rules(game)
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
    methods=METHODS,
    playout=playout_rules,
    engine=engine_rules,
)
