"""Compiled exact solver for LAG (cgt.games.lag), all four goals.

Why a separate statement of the rules: the pure-Python alpha-beta could not solve the size-3
board under ``goal=standard`` in ten minutes; most of its time goes into the readable
module's Python move generation and object counting. Here a position is two uint64 bitboards
(bit ``i`` is cell ``i`` of :func:`cgt.boards.hexhex.hex_board`, the game's own numbering:
37 cells at size 4, 61 at size 5) and a side to move, and move generation is table look-ups
and a small flood fill under numba. It is a second, independent statement of the rules: tests compare it move
for move and result for result with the readable module on random positions, and value for
value with :mod:`solvers.retrograde`.

The rules as the kernel states them (the decisions are the readable module's):

* ``k`` = the mover's objects (maximal hex-connected groups, counted by a flood fill over the
  precomputed neighbour masks); ``k = 0`` (no pieces) means no legal move.
* A piece moves exactly ``k`` cells in one of four directions: the mover's two forward
  directions always, the two along the row (E, W) only if the mover's objects after the move
  are fewer than ``k``. Destinations come from a table ``dest[side, cell, slot, k]`` (-1: off
  the board); a destination holding an own piece is illegal, one holding an opponent piece is
  a capture. Whether a move *merges* (lowers the mover's objects) is decided without
  counting the pieces after it (:func:`objects_after`): the source's group becomes the
  groups its other pieces fall into (one unless the source was a cut point, seen from the
  runs of own pieces around it), and the target joins into one the groups next to it; so
  only a lone piece touching any own piece, or a piece touching another group than its
  own, can merge, and only the groups near the source and the target are flooded.
* Far-row goals: a player meets the goal when one of their pieces is on their far row (and,
  for ``far-row-one-object``, they have exactly one object). The player who has just moved
  (the one not to move) wins if they meet it: a loss for the player to move, with no move.
  Otherwise, under ``goal_check=both`` (the default), the player to move wins if *they*
  meet it (the opponent captured their last stray piece): a win, with no move.
* No legal move ends the game: ``standard`` and the far-row goals' fallback give the win to
  the player to move when their objects are at most the opponent's (fewer wins, a tie goes
  to the player who ended the game); ``strict`` gives it to them iff they have one object.

Search
------
Negamax alpha-beta, fail-soft, as :mod:`solvers.alphabeta` (read its docstring on scores and
bounds). LAG is acyclic (proofs/lag.py gives a potential that every move raises), so there is
no repetition handling: every result is path-independent and may be stored.

* Scores are for the player to move. Value mode uses -1/1 (LAG has no draws) and the window
  (-1, 1), which is the full one: a fail-low -1 or a fail-high 1 is the exact value.
  Remoteness mode uses mate-distance scores ``BIG - r`` / ``-(BIG - r)``, with windows
  widened one step per ply so bounds stay exact.
* Iterative deepening (value mode, ``deepening=(first, step, last)``, default by board size
  :func:`default_deepening`): passes with a growing ply bound, ``first``, ``first + step``,
  ... up to ``last``, then one unbounded search. A node at a pass's bound scores 0,
  "unknown" (no draws exist, so 0 is free); a node whose value depends on an unknown scores
  0 too and is never stored, while a 1 or a -1 is a proof whatever the bound (it never rests
  on an unknown) and is stored as EXACT: the table carries every proof into the next pass.
  The driver (:meth:`LagKernel._search`) stops at the first pass that proves the root, or
  that met no bound. Why: with scores -1/1 and no bound the plain search dives into the
  first move's subtree, however deep, before it looks at a sibling that wins at once.
  Where every opening needs the full depth (size 3) deep passes cost more than they save,
  while on larger boards they pay: the last bound is by board size (measured on
  benchmarks/TUNING.md and benchmarks/LAG_KERNEL.md). A pass that a node budget cuts short resumes at its bound.
  History is not credited for a cut-off by an unknown, and an unknown position stores
  nothing (both measured worse: :data:`CREDIT_UNKNOWN`, :data:`STORE_UNKNOWN`).
* Transposition table: the shared one of :mod:`solvers.kernels.table` (buckets of two
  3-word slots, FULL key = white and black bitboards plus the side to move as the tag, bound
  flag EXACT/LOWER/UPPER, score, best move, log2 of the subtree's node count; slot 0
  work-preferred, slot 1 always-replace). Capacity is fixed by ``tt_entries``. A node probes
  each child's entry itself before calling the search on it, and a child its entry settles
  is not called: it counts as one node all the same (a node is one visit of a position, a
  call entered or a child settled by its entry, ``ctl[S_SETTLED]`` of them), as in
  :mod:`solvers.kernels.control`.
* Enhanced transposition cut-off (``etc=True``): before its first search call a node reads
  the entries of all its remaining children (the first child's entry decides most nodes,
  so this is lazy). One that refutes its child cuts the node off at once
  (``ctl[S_ETC_CUTOFFS]``, counted as the one child visit it replaces); one that says its
  child cannot raise alpha sends that child last. The children's keys computed for it are
  kept in the node's frame for the visits; all are computed, and their buckets prefetched
  (``llvm.prefetch``, :data:`PREFETCH`), before the first is probed, and the table move's
  child's bucket is prefetched while the node generates its moves: with a table far bigger
  than the caches a probe is a wait for memory (benchmarks/TUNING.md). Each bound is
  used only in its own direction
  (:func:`_bounds_above`, :func:`_bounds_below`); tests plant loose true bounds to check it.
* Move ordering: the table move first, then captures and merges, then the history
  heuristic, by insertion sort. Every cut-off (a win found, the common cut-off in value
  mode, an ETC cut-off, a fail-high) credits its move with the square of the bit length of
  the work it took (:func:`_credit`, as Control's).
* Symmetry: the left-right mirror (the only symmetry LAG keeps). A position with at most
  ``symmetry_pieces`` pieces (default :func:`default_symmetry_pieces`: every count, which
  measured best: on size 3 the mirror images meet all the way down) is keyed by the smaller
  of itself and its mirror image (bitboards mirrored by byte-chunk lookup tables); the
  parent computes a child's key and passes it down; the best move is stored in the key's
  frame and mapped back on probe.
* Arguments: the per-ply move lists, order keys and children's keys are one array
  (``frames[ply, F_*, child]``).
* A node budget (``ctl[S_NODE_LIMIT]``) stops a search cleanly; nothing computed under an
  aborted search is stored, so calling again resumes with everything the table kept.
  :class:`~solvers.kernels.base.CompiledKernel` uses that for progress reports and
  ``max_seconds`` (root values, root moves, principal variation and the result are its
  shared code too; this module holds only LAG's rules and search loop).

Kernel move codes are ``from * 64 + to``; the Python API converts them to the game's
``(from, to)`` moves.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Literal

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM cttz intrinsic

from cgt.errors import ParameterError, PositionError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.kernels.base import CompiledKernel, SearchBudgetExceeded, run_solve
from solvers.kernels.plugin import KernelPlugin
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
    INFINITY,
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
from solvers.kernels.tier_index import binomial_table, locate
from solvers.playout import PlayoutRules, int_words, plug_in
from solvers.result import SolveResult

GOAL_CODES = {"standard": 0, "strict": 1, "far-row-one-object": 2, "far-row": 3}
G_STANDARD, G_STRICT, G_FAR_ROW_ONE_OBJECT, G_FAR_ROW = 0, 1, 2, 3
#: Flag added to a far-row goal's code when both players are checked after a move
#: (``goal_check=both``); without it only the player who has just moved is.
GOAL_CHECK_BOTH = 4
GOAL_MASK = 3


def goal_code(goal: str, goal_check: str) -> int:
    """The kernel's code for a goal and a far-row check (``ctl[C_GOAL]``)."""
    code = GOAL_CODES[goal]
    if goal_check == "both" and code >= G_FAR_ROW_ONE_OBJECT:
        code |= GOAL_CHECK_BOTH
    return code


# the tier tables' records (solvers.store's layout): bits 14-15 outcome, 0-13 remoteness
TIER_OUTCOME_SHIFT = 14
TIER_REMOTENESS_MASK = (1 << TIER_OUTCOME_SHIFT) - 1
TIER_WIN = 1

#: Largest board: a position is one uint64 per colour.
MAX_CELLS = 64
#: Deepest search path (plies). Each move raises the potential of proofs/lag.py, which
#: bounds games far below this on the boards in reach; a deeper path aborts with an error.
DEFAULT_MAX_PLY = 1024

# Indices into the control array ``ctl`` (int64): configuration, then the statistics and the
# node budget at solvers.kernels.table's indices (16 on), then the history table at HISTORY
# (2 sides x 64 x 64 move codes).
C_GOAL = 0
C_REMOTENESS = 1
#: Positions with at most this many pieces are keyed by the smaller of them and their mirror
#: image; -1: no symmetry.
C_SYMMETRY_PIECES = 2
C_BUCKET_MASK = 3
C_MAX_PLY = 4
C_CHUNKS = 5
#: 1 when the search probes tier tables (endgame databases, :mod:`solvers.kernels.lag_tiers`)
C_PROBE = 6
#: Positions answered by the tier tables instead of searched.
C_TIER_HITS = 7
#: 1: enhanced transposition cut-offs (probe every child's entry before searching any).
C_ETC = 8
#: Value mode, a pass of iterative deepening: nodes at this ply score 0, "unknown"; 0: none.
C_HORIZON = 9
#: Statistics beyond solvers.kernels.table's: children settled by their table entry without
#: a search call (each counted as a node), the enhanced transposition cut-offs among them,
#: and the nodes a deepening pass left unknown at its horizon.
S_SETTLED = 26
S_ETC_CUTOFFS = 27
S_HORIZON = 28
HISTORY = 32
MOVE_CODES = 64 * 64
CTL_LENGTH = HISTORY + 2 * MOVE_CODES
#: History counts are capped so that ordering keys keep the capture/merge classes apart.
HISTORY_CAP = (1 << 40) - 1
#: Ordering bonuses (higher first): a capture, a merge (objects after < before).
CAPTURE_BONUS = 1 << 42
MERGE_BONUS = 1 << 41
TABLE_MOVE_KEY = 1 << 50
#: Credit history for cut-offs by children unknown within a deepening pass's bound? No: it
#: costs nodes (benchmarks/TUNING.md).
CREDIT_UNKNOWN = False
#: Store the best move of a position left unknown by a deepening pass (as a LOWER -INFINITY
#: entry, true and never deciding) to order the next pass? No: such entries push proven
#: ones out of the table, and it costs nodes (benchmarks/TUNING.md).
STORE_UNKNOWN = False
#: Prefetch the table buckets of children about to be probed (the table move's child while
#: the moves are generated; every child's before the ETC probes them).
PREFETCH = True
#: Every piece count (more than any board has cells): symmetry everywhere.
ALL_PIECES = 64
#: Rows of the per-ply frames of the search (``frames[ply, row, child]``): the moves, their
#: order keys, then (filled by the enhanced transposition cut-off) the children's table keys.
F_MOVES = 0
F_ORDER = 1
F_KEY_WHITE = 2
F_KEY_BLACK = 3
F_MIRRORED = 4
F_ROWS = 5

#: Value mode's iterative deepening by board size: (first ply bound, step, last bound), then
#: one unbounded search (module docstring): on size 3, where every opening needs the full
#: depth, deep bounds cost more than they save; on larger boards they pay
#: (benchmarks/LAG_KERNEL.md). Sizes not listed: the largest.
DEFAULT_DEEPENING: dict[int, tuple[int, int, int]] = {2: (2, 2, 8), 3: (2, 2, 8)}
DEEPENING_BEYOND = (2, 2, 16)


def default_deepening(size: int) -> tuple[int, int, int]:
    """The default ``deepening`` of a size-``size`` board."""
    return DEFAULT_DEEPENING.get(size, DEEPENING_BEYOND)


#: Symmetry by board size: positions with at most this many pieces are keyed by the smaller
#: of them and their mirror image (benchmarks/LAG_KERNEL.md). Sizes not listed: every count.
DEFAULT_SYMMETRY_PIECES: dict[int, int] = {}


def default_symmetry_pieces(size: int) -> int:
    """The default ``symmetry_pieces`` of a size-``size`` board."""
    return DEFAULT_SYMMETRY_PIECES.get(size, ALL_PIECES)


# ------------------------------------------------------------------------- bit helpers
def image_tables(permutation: list[int] | tuple[int, ...]) -> np.ndarray:
    """Byte-chunk lookup tables of a cell permutation: ``tables[chunk, byte]`` is the image
    of the cells ``8 * chunk + bit`` of ``byte``, so a bitboard's image is the OR of one
    look-up per byte (:func:`_mirror`)."""
    cells = len(permutation)
    chunks = (cells + 7) // 8
    tables = np.zeros((chunks, 256), dtype=np.uint64)
    for chunk in range(chunks):
        for byte in range(256):
            image = 0
            for bit in range(8):
                cell = 8 * chunk + bit
                if byte >> bit & 1 and cell < cells:
                    image |= 1 << permutation[cell]
            tables[chunk, byte] = image
    return tables


@njit(cache=True, inline="always")
def _low_bit(x: U64) -> U64:
    return x & (~x + _U1)


@njit(cache=True, inline="always")
def _bit_index(low: U64) -> I64:
    return np.int64(trailing_zeros(low))  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def _component(seed: U64, mask: U64, nbr: np.ndarray) -> U64:
    """The cells of ``mask`` connected to the cell ``seed`` (one bit of ``mask``) within
    ``mask``: a flood fill on bits."""
    group = seed
    frontier = seed
    while frontier != _U0:
        grown = _U0
        while frontier != _U0:
            low = _low_bit(frontier)
            grown |= nbr[_bit_index(low)]
            frontier ^= low
        frontier = grown & mask & ~group
        group |= frontier
    return group


@compiled
def count_objects(mask: U64, nbr: np.ndarray) -> I64:
    """Number of maximal connected groups of the cells of ``mask`` (flood fill on bits)."""
    count = 0
    while mask != _U0:
        mask &= ~_component(_low_bit(mask), mask, nbr)
        count += 1
    return count


@njit(cache=True, inline="always")
def _ring_bit(mask: U64, cell: I64, at: I64) -> U64:
    """1 if the neighbour ``cell`` (-1: off the board) holds a cell of ``mask``, shifted to
    bit ``at`` of a ring pattern."""
    if cell < 0:
        return _U0
    return ((mask >> np.uint64(cell)) & _U1) << np.uint64(at)


@njit(cache=True, inline="always")
def _arcs(mask: U64, cell: I64, dest: np.ndarray) -> I64:
    """Runs of cells of ``mask`` around ``cell`` (its six neighbours in cyclic order, each
    next to the one before): cells of one run are connected through each other, so this
    bounds the groups of ``mask`` that touch ``cell`` from above. The neighbours come from
    the one-step destinations, E NE NW W (White's slots 2 0 1 3) and SW SE (Black's 0 1)."""
    pattern = (
        _ring_bit(mask, dest[0, cell, 2, 1], 0)
        | _ring_bit(mask, dest[0, cell, 0, 1], 1)
        | _ring_bit(mask, dest[0, cell, 1, 1], 2)
        | _ring_bit(mask, dest[0, cell, 3, 1], 3)
        | _ring_bit(mask, dest[1, cell, 0, 1], 4)
        | _ring_bit(mask, dest[1, cell, 1, 1], 5)
    )
    if pattern == np.uint64(63):
        return 1
    rotated = ((pattern << _U1) | (pattern >> np.uint64(5))) & np.uint64(63)
    return popcount(pattern & ~rotated)  # the cells that start a run


@njit(cache=True, inline="always")
def _groups_touching(mask: U64, cell: I64, enough: I64, nbr: np.ndarray) -> I64:
    """Groups of ``mask`` next to ``cell``, counted up to ``enough`` (a flood fill each)."""
    near = mask & nbr[cell]
    found = 0
    while near != _U0 and found < enough:
        near &= ~_component(_low_bit(near), mask, nbr)
        found += 1
    return found


@njit(cache=True, inline="always")
def _mirror(mask: U64, mirror_tables: np.ndarray, chunks: I64) -> U64:
    out = _U0
    for c in range(chunks):
        out |= mirror_tables[c, (mask >> np.uint64(8 * c)) & _U255]
    return out


@njit(cache=True, inline="always")
def _parts(own: U64, source: I64, left: U64, dest: np.ndarray, nbr: np.ndarray) -> I64:
    """The groups that ``left``, the rest of the source's group without it, falls into:
    one unless the source was a cut point, which needs more than one run of own pieces
    around it."""
    if _arcs(own, source, dest) <= 1:
        return 1
    return count_objects(left, nbr)


@njit(cache=True, inline="always")
def _objects_after(
    left: U64,
    others: U64,
    parts: I64,
    target: I64,
    k: I64,
    dest: np.ndarray,
    nbr: np.ndarray,
    exact: bool,
) -> I64:
    """The mover's objects after a piece moves to ``target``: of its ``k`` objects the
    source's group becomes ``parts`` groups (``left``, none for a lone piece), and the
    target joins into one the groups next to it, of ``left`` and of the ``others``.
    Not ``exact``: right only as far as it says whether the count is below ``k`` (the
    other groups are counted only until they outnumber the parts the target misses)."""
    near = nbr[target]
    if parts <= 1:
        joined = 1 if left & near != _U0 else 0
    else:
        joined = _groups_touching(left, target, parts, nbr)
    if others & near != _U0:
        enough = MAX_CELLS if exact else parts - joined + 1
        if enough == 1 or _arcs(others, target, dest) == 1:
            joined += 1
        else:
            joined += _groups_touching(others, target, enough, nbr)
    return k - 1 + parts + 1 - joined


@compiled
def objects_after(own: U64, source: I64, target: I64, dest: np.ndarray, nbr: np.ndarray) -> I64:
    """Objects of ``own`` after its piece on ``source`` moves to the free or opponent's cell
    ``target``: the count by which :func:`generate_moves` decides merges, from the source's
    group and the target's neighbours rather than a flood fill of every piece."""
    low = _U1 << np.uint64(source)
    group = _component(low, own, nbr)
    left = group ^ low
    parts = _parts(own, source, left, dest, nbr) if left != _U0 else 0
    k = count_objects(own, nbr)
    return _objects_after(left, own ^ group, parts, target, k, dest, nbr, True)


# ------------------------------------------------------------------------- the rules
@compiled
def meets_goal(pieces: U64, far_row: U64, far_goal: I64, nbr: np.ndarray) -> bool:
    """True if ``pieces`` meet the far-row goal ``far_goal`` toward ``far_row``."""
    if pieces & far_row == _U0:
        return False
    return far_goal == G_FAR_ROW or count_objects(pieces, nbr) == 1


@compiled
def goal_score(
    white: U64, black: U64, side: I64, goal: I64, far: np.ndarray, nbr: np.ndarray
) -> I64:
    """-1 if the player who has just moved (not ``side``) meets a far-row goal; else +1 if
    both players are checked and ``side`` meets it; else 0 (no far-row win)."""
    far_goal = goal & GOAL_MASK
    if far_goal < G_FAR_ROW_ONE_OBJECT:
        return 0
    last = black if side == 0 else white
    if meets_goal(last, far[1 - side], far_goal, nbr):
        return -1
    if goal & GOAL_CHECK_BOTH != 0:
        own = white if side == 0 else black
        if meets_goal(own, far[side], far_goal, nbr):
            return 1
    return 0


@compiled
def generate_moves(
    own: U64,
    opp: U64,
    side: I64,
    k: I64,
    dest: np.ndarray,
    nbr: np.ndarray,
    moves: np.ndarray,
    order: np.ndarray,
) -> I64:
    """Write the legal move codes of the mover (pieces ``own``, ``k`` objects) to ``moves``
    and their ordering keys (capture and merge bonuses) to ``order``; return the count.

    Order: pieces by increasing cell, then forward directions, then E and W, as the
    readable module lists them.
    """
    count = 0
    if k == 0:
        return 0
    group = _U0  # the source's group, kept while the sources stay in it
    mask = own
    while mask != _U0:
        low = _low_bit(mask)
        mask ^= low
        source = _bit_index(low)
        if group & low == _U0:
            group = _component(low, own, nbr)
        left = group ^ low  # what the source leaves of its group
        others = own ^ group
        parts = 0  # the groups ``left`` falls into, found at the first landing that asks
        for slot in range(4):
            target = dest[side, source, slot, k]
            if target < 0:
                continue  # would leave the board
            target_bit = _U1 << np.uint64(target)
            if own & target_bit != _U0:
                continue  # may not land on an own piece
            merges = False
            # a piece of a larger group merges only by touching another group
            if left == _U0 or others & nbr[target] != _U0:
                if left != _U0 and parts == 0:
                    parts = _parts(own, source, left, dest, nbr)
                merges = _objects_after(left, others, parts, target, k, dest, nbr, False) < k
            if slot >= 2 and not merges:
                continue  # sideways only if it reduces the mover's objects
            key = np.int64(0)
            if opp & target_bit != _U0:
                key += CAPTURE_BONUS
            if merges:
                key += MERGE_BONUS
            moves[count] = source * 64 + target
            order[count] = key
            count += 1
    return count


@compiled
def end_score(own: U64, opp: U64, goal: I64, nbr: np.ndarray) -> I64:
    """+1 / -1: result for the player to move (pieces ``own``), who has no legal move."""
    mine = count_objects(own, nbr)
    if goal == G_STRICT:
        return 1 if mine == 1 else -1
    # fewer objects wins; on equal counts the player who has no legal move wins
    return 1 if mine <= count_objects(opp, nbr) else -1


@compiled
def game_result(
    white: U64,
    black: U64,
    side: I64,
    goal: I64,
    dest: np.ndarray,
    nbr: np.ndarray,
    far: np.ndarray,
    moves: np.ndarray,
    order: np.ndarray,
) -> I64:
    """+1 / -1 (win / loss for ``side``) if the game is over, 0 if it goes on."""
    reached = goal_score(white, black, side, goal, far, nbr)
    if reached != 0:
        return reached  # a far-row goal is met
    own = white if side == 0 else black
    opp = black if side == 0 else white
    k = count_objects(own, nbr)
    if generate_moves(own, opp, side, k, dest, nbr, moves, order) > 0:
        return 0
    return end_score(own, opp, goal, nbr)


@compiled
def perft(
    white: U64,
    black: U64,
    side: I64,
    depth: I64,
    goal: I64,
    dest: np.ndarray,
    nbr: np.ndarray,
    far: np.ndarray,
    moves: np.ndarray,
    order: np.ndarray,
) -> I64:
    """Number of move sequences of exactly ``depth`` plies (games ending sooner count 0):
    the classic move-generator check and benchmark. ``moves``/``order`` need ``depth`` rows."""
    if depth == 0:
        return 1
    if goal_score(white, black, side, goal, far, nbr) != 0:
        return 0
    own = white if side == 0 else black
    opp = black if side == 0 else white
    k = count_objects(own, nbr)
    ply = depth - 1
    count = generate_moves(own, opp, side, k, dest, nbr, moves[ply], order[ply])
    if depth == 1:
        return count
    total = 0
    for i in range(count):
        m = moves[ply, i]
        source_bit = _U1 << np.uint64(m >> 6)
        target_bit = _U1 << np.uint64(m & 63)
        child_own = own ^ source_bit ^ target_bit
        child_opp = opp & ~target_bit
        # the recursive call passes exactly the entry's argument types (a literal 0 or 1
        # here would make numba cast, and a cast recursive call crashes when loaded from
        # numba's disk cache: numba issue #6713)
        if side == 0:
            child_white, child_black = child_own, child_opp
        else:
            child_white, child_black = child_opp, child_own
        total += perft(child_white, child_black, 1 - side, ply, goal, dest, nbr, far, moves, order)
    return total


# ------------------------------------------------------------------------- search
@njit(cache=True, inline="always")
def _child_key(
    white: U64, black: U64, pieces: I64, mirror_tables: np.ndarray, ctl: np.ndarray
) -> tuple[U64, U64, I64]:
    """Table key of a position of ``pieces`` pieces and 1 if it is the mirror image: the
    smaller of the position and its mirror, where ``pieces <= ctl[C_SYMMETRY_PIECES]``."""
    if pieces > ctl[C_SYMMETRY_PIECES]:
        return white, black, 0
    chunks = ctl[C_CHUNKS]
    mirror_white = _mirror(white, mirror_tables, chunks)
    if mirror_white > white:
        return white, black, 0
    mirror_black = _mirror(black, mirror_tables, chunks)
    if mirror_white < white or mirror_black < black:
        return mirror_white, mirror_black, 1
    return white, black, 0


@njit(cache=True, inline="always")
def _entry(tt: np.ndarray, k0: U64, k1: U64, side: I64, ctl: np.ndarray) -> tuple[I64, I64]:
    """(bound flag, score) of the key's table entry; flag 0 when the table has none."""
    return entry_of(tt, k0, k1, side, ctl[C_BUCKET_MASK])


@njit(cache=True, inline="always")
def _credit(ctl: np.ndarray, at: I64, work: I64) -> None:
    """History heuristic (:func:`solvers.kernels.table.credit`) over this kernel's counts."""
    credit(ctl, at, work, HISTORY, 2 * MOVE_CODES, HISTORY_CAP)


@njit(cache=True, inline="always")
def _settles(flag: I64, stored: I64, alpha: I64, beta: I64) -> bool:
    """Whether an entry (flag 0: none) decides its position within (alpha, beta)."""
    return (
        flag == EXACT or (flag == LOWER and stored >= beta) or (flag == UPPER and stored <= alpha)
    )


@njit(cache=True, inline="always")
def _bounds_above(flag: I64) -> bool:
    """Whether an entry's score bounds its position's value from above (EXACT, UPPER)."""
    return flag in (EXACT, UPPER)


@njit(cache=True, inline="always")
def _bounds_below(flag: I64) -> bool:
    """Whether an entry's score bounds its position's value from below (EXACT, LOWER)."""
    return flag in (EXACT, LOWER)


@njit(cache=True, inline="always")
def _reorder(frames: np.ndarray, ply: I64, first: I64, count: I64) -> None:
    """Stable insertion sort of the node's children ``first..count-1`` by increasing
    ``frames[ply, F_ORDER]``, carrying each child's move and cached key along."""
    for i in range(first + 1, count):
        j = i
        while j > first and frames[ply, F_ORDER, j - 1] > frames[ply, F_ORDER, j]:
            for row in range(F_ROWS):
                held = frames[ply, row, j]
                frames[ply, row, j] = frames[ply, row, j - 1]
                frames[ply, row, j - 1] = held
            j -= 1


@compiled
def search(
    white: U64,
    black: U64,
    side: I64,
    alpha: I64,
    beta: I64,
    ply: I64,
    key_white: U64,
    key_black: U64,
    mirrored: I64,
    nbr: np.ndarray,
    dest: np.ndarray,
    far: np.ndarray,
    mirror_tables: np.ndarray,
    mirror_cell: np.ndarray,
    ctl: np.ndarray,
    frames: np.ndarray,
    tt: np.ndarray,
    tiers: np.ndarray,
    tier_offsets: np.ndarray,
    binom: np.ndarray,
    flip_cell: np.ndarray,
) -> I64:
    """Fail-soft negamax score of the position for ``side`` within (alpha, beta).

    ``key_white``, ``key_black``: the position's table key (``mirrored`` = 1 if it is the
    mirror image), computed by the parent (:func:`_child_key`). Returns 0 with
    ``ctl[S_ABORTED]`` (node budget) or ``ctl[S_OVERFLOW]`` (ply limit) set when one runs
    out; nothing computed after that is stored. In value mode with ``ctl[C_HORIZON]`` > 0 a
    node at that ply scores 0, "unknown": a pass of iterative deepening (module docstring).
    With ``ctl[C_PROBE]`` set, a position whose piece counts are a kept tier of ``tiers``
    (flat uint16 records of :mod:`solvers.kernels.lag_tiers`, placed by ``tier_offsets``) is
    read, not searched.
    """
    ctl[S_NODES] += 1
    if ctl[S_NODES] > ctl[S_NODE_LIMIT]:
        ctl[S_ABORTED] = 1
        return 0
    if ply > ctl[S_MAX_PLY]:
        ctl[S_MAX_PLY] = ply
    remoteness = ctl[C_REMOTENESS]
    goal = ctl[C_GOAL]
    win = BIG if remoteness != 0 else 1
    reached = goal_score(white, black, side, goal, far, nbr)
    if reached != 0:
        return reached * win
    if ctl[C_PROBE] != 0:
        index, _ = locate(white, black, side, binom, tier_offsets, flip_cell)
        if index >= 0:
            record = np.int64(tiers[index])
            if record != 0:
                ctl[C_TIER_HITS] += 1
                score = win - (record & TIER_REMOTENESS_MASK) if remoteness != 0 else 1
                return score if record >> TIER_OUTCOME_SHIFT == TIER_WIN else -score
    base = bucket_base(key_white, key_black, side, ctl[C_BUCKET_MASK])
    ctl[S_PROBES] += 1
    table_move = np.int64(-1)
    for at in (base, base + SLOT_WORDS):
        if holds(tt, at, key_white, key_black, side):
            ctl[S_HITS] += 1
            data = tt[at + 2]
            stored = entry_score(data)
            if _settles(entry_flag(data), stored, alpha, beta):
                return stored
            table_move = entry_move(data)
            if mirrored != 0:
                table_move = mirror_cell[table_move >> 6] * 64 + mirror_cell[table_move & 63]
            break
    if ply >= ctl[C_MAX_PLY]:
        ctl[S_OVERFLOW] = 1
        return 0
    horizon = ctl[C_HORIZON]
    if horizon != 0 and ply >= horizon:
        ctl[S_HORIZON] += 1
        return 0  # unknown within this pass's bound
    own = white if side == 0 else black
    opp = black if side == 0 else white
    pieces = popcount(white | black)
    if PREFETCH and table_move >= 0:
        # the table move's child is searched first: start loading its table bucket now,
        # while the moves are generated (a probe of a big table is a wait for memory)
        tm_white, tm_black = _lag_child(white, black, side, table_move)
        tm_captured = 1 if opp & (_U1 << np.uint64(table_move & 63)) != _U0 else 0
        tkw, tkb, _ = _child_key(tm_white, tm_black, pieces - tm_captured, mirror_tables, ctl)
        prefetch(tt, bucket_base(tkw, tkb, 1 - side, ctl[C_BUCKET_MASK]))  # type: ignore[call-arg]
    k = count_objects(own, nbr)
    moves = frames[ply, F_MOVES]
    order = frames[ply, F_ORDER]
    count = generate_moves(own, opp, side, k, dest, nbr, moves, order)
    if count == 0:
        return end_score(own, opp, goal, nbr) * win
    max_score = BIG - 1 if remoteness != 0 else 1
    # ordering: table move, then captures and merges, then history; insertion sort, highest
    # key first
    history = HISTORY + side * MOVE_CODES
    for i in range(count):
        m = moves[i]
        if m == table_move:
            order[i] = TABLE_MOVE_KEY
        else:
            order[i] += min(ctl[history + m], HISTORY_CAP)
    for i in range(1, count):
        m = moves[i]
        key = order[i]
        j = i - 1
        while j >= 0 and order[j] < key:
            moves[j + 1] = moves[j]
            order[j + 1] = order[j]
            j -= 1
        moves[j + 1] = m
        order[j + 1] = key
    original_alpha = alpha
    nodes_before = ctl[S_NODES]
    best = -INFINITY
    best_move = np.int64(-1)
    child_alpha = -toward_leaf(beta, remoteness)
    etc_done = ctl[C_ETC] == 0
    cached_from = count  # children from here on have their keys in frames (after ETC)
    i = 0
    while i < count:
        m = moves[i]
        child_white, child_black = _lag_child(white, black, side, m)
        if i >= cached_from:
            child_key_white = np.uint64(frames[ply, F_KEY_WHITE, i])
            child_key_black = np.uint64(frames[ply, F_KEY_BLACK, i])
            child_mirrored = frames[ply, F_MIRRORED, i]
        else:
            captured = 1 if opp & (_U1 << np.uint64(m & 63)) != _U0 else 0
            child_key_white, child_key_black, child_mirrored = _child_key(
                child_white, child_black, pieces - captured, mirror_tables, ctl
            )
        # a child settled by its entry is not called (counted as the node it replaces)
        child_beta = -toward_leaf(alpha, remoteness)
        settled = False
        child_score = np.int64(0)
        if ctl[S_NODES] < ctl[S_NODE_LIMIT]:
            stored_flag, stored = _entry(tt, child_key_white, child_key_black, 1 - side, ctl)
            if _settles(stored_flag, stored, child_alpha, child_beta):
                settled = True
                child_score = stored
                ctl[S_NODES] += 1
                ctl[S_SETTLED] += 1
                ctl[S_HITS] += 1
                if ply + 1 > ctl[S_MAX_PLY]:
                    ctl[S_MAX_PLY] = ply + 1
        if not settled and not etc_done:
            etc_done = True
            if ctl[S_NODES] < ctl[S_NODE_LIMIT]:
                # enhanced transposition cut-off, before the first search call (a node
                # its first child's entry decides needs none): every later child's entry.
                # One that refutes its child cuts this node off at once (one node: the
                # child visit it replaces); one that says its child cannot raise alpha
                # sends that child last, where a cut-off may spare its visit.
                frames[ply, F_KEY_WHITE, i] = np.int64(child_key_white)
                frames[ply, F_KEY_BLACK, i] = np.int64(child_key_black)
                frames[ply, F_MIRRORED, i] = child_mirrored
                late = False
                cut = False
                for j in range(i + 1, count):  # every key first, its bucket on its way
                    other = moves[j]
                    other_white, other_black = _lag_child(white, black, side, other)
                    captured = 1 if opp & (_U1 << np.uint64(other & 63)) != _U0 else 0
                    okw, okb, omirrored = _child_key(
                        other_white, other_black, pieces - captured, mirror_tables, ctl
                    )
                    frames[ply, F_KEY_WHITE, j] = np.int64(okw)
                    frames[ply, F_KEY_BLACK, j] = np.int64(okb)
                    frames[ply, F_MIRRORED, j] = omirrored
                    order[j] = 0
                    if PREFETCH:
                        prefetch(tt, bucket_base(okw, okb, 1 - side, ctl[C_BUCKET_MASK]))  # type: ignore[call-arg]
                for j in range(i + 1, count):
                    other = moves[j]
                    okw = np.uint64(frames[ply, F_KEY_WHITE, j])
                    okb = np.uint64(frames[ply, F_KEY_BLACK, j])
                    stored_flag, stored = _entry(tt, okw, okb, 1 - side, ctl)
                    if _bounds_above(stored_flag):
                        score = toward_root(-stored, remoteness)
                        if score >= beta or score >= max_score:
                            ctl[S_NODES] += 1
                            ctl[S_HITS] += 1
                            ctl[S_SETTLED] += 1
                            ctl[S_ETC_CUTOFFS] += 1
                            if ply + 1 > ctl[S_MAX_PLY]:
                                ctl[S_MAX_PLY] = ply + 1
                            best = score
                            best_move = other
                            cut = True
                            break
                    if _bounds_below(stored_flag) and stored >= child_beta:
                        order[j] = 1
                        late = True
                if cut:
                    break
                cached_from = i
                if late:
                    _reorder(frames, ply, i + 1, count)
        if not settled:
            child_score = search(
                child_white,
                child_black,
                1 - side,
                child_alpha,
                child_beta,
                ply + 1,
                child_key_white,
                child_key_black,
                child_mirrored,
                nbr,
                dest,
                far,
                mirror_tables,
                mirror_cell,
                ctl,
                frames,
                tt,
                tiers,
                tier_offsets,
                binom,
                flip_cell,
            )
            if ctl[S_ABORTED] != 0 or ctl[S_OVERFLOW] != 0:
                return 0
        i += 1
        score = toward_root(-child_score, remoteness)
        if score > best:
            best = score
            best_move = m
            if best > alpha:
                alpha = best
                if best >= beta or best >= max_score:
                    break
    unknown = horizon != 0 and best == 0
    if (best >= beta or best >= max_score) and (CREDIT_UNKNOWN or not unknown):
        # a cut-off: credit the move (history); not one by a child merely unknown within a
        # pass's bound
        _credit(ctl, history + best_move, ctl[S_NODES] - nodes_before)
    if unknown:
        # unknown within this pass: no bound on the value is known, but the best move
        # orders the next pass; LOWER -INFINITY is true and never decides anything
        flag = LOWER
        best_stored: I64 = -INFINITY
    else:
        best_stored = best
        if best >= max_score:  # nothing can beat it: exact whatever the window
            flag = EXACT
        elif best >= beta:
            flag = LOWER
        elif best <= original_alpha:
            flag = UPPER
        else:
            flag = EXACT
    if unknown and not STORE_UNKNOWN:
        return best
    stored_move = best_move
    if mirrored != 0:
        stored_move = mirror_cell[best_move >> 6] * 64 + mirror_cell[best_move & 63]
    store(
        tt,
        base,
        key_white,
        key_black,
        side,
        flag,
        best_stored,
        stored_move,
        ctl[S_NODES] - nodes_before,
        ctl,
    )
    return best


@compiled
def root_key(
    white: U64, black: U64, mirror_tables: np.ndarray, ctl: np.ndarray
) -> tuple[U64, U64, I64]:
    """The root's table key and mirror flag (what a parent passes to :func:`search`)."""
    return _child_key(white, black, popcount(white | black), mirror_tables, ctl)


# --------------------------------------------------------------- proof-number search
#: Weak proof numbers (max, not sum) at the opponent's nodes? No: the sum searched
#: fewer nodes on size 3 (solvers.kernels.proof_numbers).
DFPN_WEAK = False


@njit(cache=True, inline="always")
def _key(white: U64, black: U64, mirror_tables: np.ndarray, ctl: np.ndarray) -> tuple[U64, U64]:
    """Table key (:func:`_child_key`: the smaller of the position and its mirror image
    where symmetry applies)."""
    kw, kb, _ = _child_key(white, black, popcount(white | black), mirror_tables, ctl)
    return kw, kb


@njit(cache=True, inline="always")
def _lag_child(white: U64, black: U64, side: I64, move: I64) -> tuple[U64, U64]:
    """Boards after ``side`` plays the kernel move ``move`` (``from * 64 + to``)."""
    source_bit = _U1 << np.uint64(move >> 6)
    target_bit = _U1 << np.uint64(move & 63)
    if side == 0:
        return white ^ source_bit ^ target_bit, black & ~target_bit
    return white & ~target_bit, black ^ source_bit ^ target_bit


@njit(cache=True, inline="always")
def _first_numbers(
    white: U64,
    black: U64,
    side: I64,
    goal: I64,
    dest: np.ndarray,
    nbr: np.ndarray,
    far: np.ndarray,
    moves_row: np.ndarray,
    order_row: np.ndarray,
) -> tuple[I64, I64]:
    """Numbers of a position not in the table (``side`` to move): its result if the game is
    over there, else (1, legal moves)."""
    reached = goal_score(white, black, side, goal, far, nbr)
    if reached != 0:
        return leaf_numbers(1, reached)
    own = white if side == 0 else black
    opp = black if side == 0 else white
    replies = generate_moves(
        own, opp, side, count_objects(own, nbr), dest, nbr, moves_row, order_row
    )
    if replies == 0:
        return leaf_numbers(0, end_score(own, opp, goal, nbr))
    return leaf_numbers(replies, 0)


@compiled
def dfpn(
    white: U64,
    black: U64,
    side: I64,
    proof_threshold: I64,
    disproof_threshold: I64,
    ply: I64,
    nbr: np.ndarray,
    dest: np.ndarray,
    far: np.ndarray,
    mirror_tables: np.ndarray,
    ctl: np.ndarray,
    moves: np.ndarray,
    order: np.ndarray,
    numbers: np.ndarray,
    tt: np.ndarray,
) -> tuple[I64, I64]:
    """Depth-first proof-number search (solvers.kernels.proof_numbers) of "the player to
    move wins" within the thresholds: (proof number, disproof number), (0, INF) proved,
    (INF, 0) disproved. LAG is acyclic and every end is a win or a loss (a far-row goal, or
    the object counts with ties to the player who ended the game), so df-pn decides every
    position and its table needs no path information.

    Every child's entry is probed, or its end scored, or its replies counted, before any
    descent (enhanced transposition cutoff: a child lost for its mover proves the node);
    a new child starts at (1, replies). ``moves[ply + 1]`` is scratch while counting."""
    ctl[S_NODES] += 1
    if ctl[S_NODES] > ctl[S_NODE_LIMIT]:
        ctl[S_ABORTED] = 1
        return 1, 1
    if ply > ctl[S_MAX_PLY]:
        ctl[S_MAX_PLY] = ply
    goal = ctl[C_GOAL]
    reached = goal_score(white, black, side, goal, far, nbr)
    if reached != 0:
        return leaf_numbers(1, reached)
    kw, kb = _key(white, black, mirror_tables, ctl)
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
    own = white if side == 0 else black
    opp = black if side == 0 else white
    count = generate_moves(
        own, opp, side, count_objects(own, nbr), dest, nbr, moves[ply], order[ply]
    )
    if count == 0:
        pn, dn = leaf_numbers(0, end_score(own, opp, goal, nbr))
        pn_store(tt, base, kw, kb, side, pn, dn, 1, ctl)
        return pn, dn
    nodes_before = ctl[S_NODES]
    for i in range(count):  # every child's numbers before any descent (ETC)
        child_white, child_black = _lag_child(white, black, side, moves[ply, i])
        ckw, ckb = _key(child_white, child_black, mirror_tables, ctl)
        cpn, cdn, cfound = probe(tt, table_base(tt, ckw, ckb, 1 - side), ckw, ckb, 1 - side)
        if not cfound:
            cpn, cdn = _first_numbers(
                child_white,
                child_black,
                1 - side,
                goal,
                dest,
                nbr,
                far,
                moves[ply + 1],
                order[ply + 1],
            )
        if cdn == 0:  # the child is lost for its mover: this node is won
            pn_store(tt, base, kw, kb, side, 0, PN_INFINITY, 1, ctl)
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
        child_white, child_black = _lag_child(white, black, side, moves[ply, best])
        cpn, cdn = dfpn(
            child_white,
            child_black,
            1 - side,
            child_proof,
            child_disproof,
            ply + 1,
            nbr,
            dest,
            far,
            mirror_tables,
            ctl,
            moves,
            order,
            numbers,
            tt,
        )
        if ctl[S_ABORTED] != 0 or ctl[S_OVERFLOW] != 0:
            return 1, 1
        numbers[ply, 0, best] = cpn
        numbers[ply, 1, best] = cdn
    pn_store(tt, base, kw, kb, side, pn, dn, ctl[S_NODES] - nodes_before, ctl)
    return pn, dn


# --------------------------------------------------------------------- Python side
class LagKernel(CompiledKernel):
    """Board tables, transposition table and search state for one LAG game.

    Keep one instance to solve many positions of the same game: the table carries over.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        remoteness: bool = False,
        tt_entries: int = 1 << 22,
        symmetry: bool = True,
        max_ply: int = DEFAULT_MAX_PLY,
        method: str = "alphabeta",
        tiers: Any = None,
        symmetry_pieces: int | None = None,
        etc: bool = True,
        deepening: tuple[int, int, int] | Literal["default"] | None = "default",
    ) -> None:
        if game.name != "lag":
            raise ParameterError(f"the compiled LAG kernel cannot solve {game.name!r}")
        check_method(method, remoteness)
        self.method = method
        if getattr(game, "allow_backward", False) or not getattr(
            game, "sideways_needs_merge", True
        ):
            raise ParameterError("the compiled LAG kernel supports only the standard LAG rules")
        board = game.board  # type: ignore[attr-defined]
        if board.size > MAX_CELLS:
            raise ParameterError(
                f"the compiled LAG kernel handles boards up to {MAX_CELLS} cells, "
                f"got {board.size} (size {board.n})"
            )
        self.tt, self.capacity, bucket_mask = new_table(tt_entries)
        self.game = game
        self.board = board
        self.remoteness = remoteness
        self.max_ply = max_ply
        cells = board.size
        self.nbr = np.array(board.neighbour_mask, dtype=np.uint64)
        # dest[side, cell, slot, k]: slots 0-1 forward (NE, NW for White; SW, SE for Black),
        # 2-3 sideways (E, W); -1 off the board
        directions = ((1, 2, 0, 3), (4, 5, 0, 3))
        self.dest = np.full((2, cells, 4, cells + 1), -1, dtype=np.int64)
        for side in (0, 1):
            for cell in range(cells):
                for slot, direction in enumerate(directions[side]):
                    ray = board.rays[cell][direction]
                    for k in range(1, len(ray) + 1):
                        self.dest[side, cell, slot, k] = ray[k - 1]
        # far[side]: the row the side races to (White: top row, Black: bottom row)
        self.far = np.array(
            [sum(1 << i for i in board.rows[0]), sum(1 << i for i in board.rows[-1])],
            dtype=np.uint64,
        )
        from cgt.boards.hexhex import MIRROR_LEFT_RIGHT

        mirror = board.symmetries[MIRROR_LEFT_RIGHT]
        self.chunks = (cells + 7) // 8
        self.mirror_tables = image_tables(mirror)
        self.mirror_cell = np.arange(64, dtype=np.int64)
        self.mirror_cell[:cells] = mirror
        self.ctl = np.zeros(CTL_LENGTH, dtype=np.int64)
        self.ctl[C_GOAL] = goal_code(game.goal, game.goal_check)  # type: ignore[attr-defined]
        self.ctl[C_REMOTENESS] = 1 if remoteness else 0
        if symmetry_pieces is None:
            symmetry_pieces = default_symmetry_pieces(board.n)
        self.ctl[C_SYMMETRY_PIECES] = symmetry_pieces if symmetry else -1
        self.ctl[C_ETC] = 1 if etc else 0
        if deepening == "default":
            deepening = default_deepening(board.n)
        if deepening is not None and (len(deepening) != 3 or min(deepening) < 1):
            raise ParameterError(
                f"deepening is (first ply bound, step, last bound), all >= 1: {deepening!r}"
            )
        #: value mode: iterative deepening (first ply bound, step, last bound: after it one
        #: unbounded search), None for one plain search
        self.deepening = None if remoteness else deepening
        #: the pass a budget cut short: (position, ply bound), resumed by the next call
        self._pass: tuple[Any, int] | None = None
        self.ctl[C_BUCKET_MASK] = bucket_mask
        self.ctl[C_MAX_PLY] = max_ply
        self.ctl[C_CHUNKS] = self.chunks
        self.moves_buffer = np.zeros((max_ply + 1, 4 * cells), dtype=np.int64)
        self.order_buffer = np.zeros((max_ply + 1, 4 * cells), dtype=np.int64)
        #: the alpha-beta search's per-ply frames (F_* rows)
        alphabeta_plies = max_ply + 1 if method == "alphabeta" else 1
        self.frames = np.zeros((alphabeta_plies, F_ROWS, 4 * cells), dtype=np.int64)
        #: df-pn: the children's (proof, disproof) numbers of every node on the path
        self.numbers = np.zeros((max_ply + 1 if method == "dfpn" else 1, 2, 4 * cells), np.int64)
        self.binom = binomial_table()
        self.tier_records = np.zeros(1, dtype=np.uint16)
        self.tier_offsets = np.full((cells + 1, cells + 1), -1, dtype=np.int64)
        self.flip_cell = np.zeros(0, dtype=np.int64)
        if tiers is not None:
            self.probe(tiers)

    def probe(self, tiers: Any) -> None:
        """Read positions of the complete tiers of ``tiers`` (a
        :class:`~solvers.kernels.lag_tiers.LagTiers` of the same board and goal) instead of
        searching them. Only complete tiers are probed: a record there is final."""
        params = ("size", "goal", "goal_check")
        theirs = {p: tiers.game.parameters[p] for p in params}
        ours = {p: self.game.parameters[p] for p in params}
        if theirs != ours:
            raise ParameterError(f"tier tables of {theirs} cannot answer for {ours}")
        self.tier_records = tiers.table
        self.flip_cell = tiers.flip_cell
        self.tier_offsets = np.full_like(tiers.offsets, -1)
        for w, b in tiers.complete:
            self.tier_offsets[w, b] = tiers.offsets[w, b]
        self.ctl[C_PROBE] = 1 if tiers.complete else 0

    @property
    def tier_hits(self) -> int:
        """Positions answered by the tier tables so far."""
        return int(self.ctl[C_TIER_HITS])

    # ---------------------------------------------------------------- conversions
    def check_position(self, position: Any) -> tuple[np.uint64, np.uint64, int]:
        """The position as kernel arguments; :class:`PositionError` if it is not one."""
        try:
            white, black, side = position
        except (TypeError, ValueError):
            raise PositionError(
                f"a LAG position is (white, black, player), got {position!r}"
            ) from None
        if not all(isinstance(v, int) for v in (white, black, side)):
            raise PositionError(f"a LAG position holds three ints, got {position!r}")
        if side not in (0, 1):
            raise PositionError(f"player to move must be 0 or 1, got {side!r}")
        full = self.board.full_mask
        if white < 0 or black < 0 or white & ~full or black & ~full:
            raise PositionError(f"bitboards go beyond the size-{self.board.n} board: {position!r}")
        if white & black:
            raise PositionError(f"a cell holds both colours in {position!r}")
        return np.uint64(white), np.uint64(black), side

    # ---------------------------------------------------------------- kernel calls
    def moves(self, position: Any) -> list[tuple[int, int]]:
        """Legal moves of ``position`` as the game's ``(from, to)`` moves (compiled rules)."""
        white, black, side = self.check_position(position)
        goal = int(self.ctl[C_GOAL])
        if goal_score(white, black, side, goal, self.far, self.nbr) != 0:
            return []
        own, opp = (white, black) if side == 0 else (black, white)
        k = count_objects(own, self.nbr)
        count = generate_moves(
            own, opp, side, k, self.dest, self.nbr, self.moves_buffer[0], self.order_buffer[0]
        )
        return [(int(c) >> 6, int(c) & 63) for c in self.moves_buffer[0, :count]]

    def perft(self, position: Any, depth: int) -> int:
        """Move sequences of exactly ``depth`` plies from ``position`` (compiled rules)."""
        white, black, side = self.check_position(position)
        if not 0 <= depth < self.moves_buffer.shape[0]:
            raise ParameterError(f"perft depth must be 0..{self.moves_buffer.shape[0] - 1}")
        return int(
            perft(
                white,
                black,
                side,
                depth,
                int(self.ctl[C_GOAL]),
                self.dest,
                self.nbr,
                self.far,
                self.moves_buffer,
                self.order_buffer,
            )
        )

    def result(self, position: Any) -> Outcome | None:
        """Outcome for the player to move if the game is over (compiled rules), else None."""
        white, black, side = self.check_position(position)
        value = game_result(
            white,
            black,
            side,
            int(self.ctl[C_GOAL]),
            self.dest,
            self.nbr,
            self.far,
            self.moves_buffer[0],
            self.order_buffer[0],
        )
        return None if value == 0 else Outcome(int(value))

    def terminal_outcome(self, position: Any) -> Outcome | None:
        """LAG's end is not plain normal play (object counts, far-row goals)."""
        return self.result(position)

    def _search(self, position: Any, alpha: int, beta: int) -> int:
        white, black, side = self.check_position(position)
        if self.method == "dfpn":  # a proof or a disproof is the exact value
            pn, _ = dfpn(
                white,
                black,
                side,
                PN_INFINITY,
                PN_INFINITY,
                0,
                self.nbr,
                self.dest,
                self.far,
                self.mirror_tables,
                self.ctl,
                self.moves_buffer,
                self.order_buffer,
                self.numbers,
                self.tt,
            )
            return 1 if pn == 0 else -1
        kw, kb, mirrored = root_key(white, black, self.mirror_tables, self.ctl)
        if self.remoteness:
            return self._pass_search(white, black, side, alpha, beta, (kw, kb, mirrored))
        # value mode: scores are -1 and 1 (0 for "unknown" in a deepening pass), so the window
        # (-1, 1) is the full one, and with it a fail-low -1 or fail-high 1 is exact
        alpha, beta = max(alpha, -1), min(beta, 1)
        if self.deepening is None:
            return self._pass_search(white, black, side, alpha, beta, (kw, kb, mirrored))
        first, step, last = self.deepening
        bound = first
        if self._pass is not None and self._pass[0] == position:
            bound = self._pass[1]  # resume the pass a node budget cut short
        self._pass = None
        while True:
            self.ctl[C_HORIZON] = bound
            horizon_before = self.ctl[S_HORIZON]
            value = self._pass_search(white, black, side, alpha, beta, (kw, kb, mirrored))
            self.ctl[C_HORIZON] = 0
            if self.ctl[S_ABORTED] or self.ctl[S_OVERFLOW]:
                self._pass = (position, bound)
                return 0
            if value != 0 or self.ctl[S_HORIZON] == horizon_before:
                return value  # proven (a pass that met no horizon searched everything)
            bound = bound + step if 0 < bound < last else 0  # 0: no horizon

    def _pass_search(
        self, white: Any, black: Any, side: int, alpha: int, beta: int, key: tuple[Any, Any, int]
    ) -> int:
        """One compiled search from the root (a deepening pass when ``ctl[C_HORIZON]``)."""
        kw, kb, mirrored = key
        return int(
            search(
                white,
                black,
                side,
                alpha,
                beta,
                0,
                np.uint64(kw),
                np.uint64(kb),
                mirrored,
                self.nbr,
                self.dest,
                self.far,
                self.mirror_tables,
                self.mirror_cell,
                self.ctl,
                self.frames,
                self.tt,
                self.tier_records,
                self.tier_offsets,
                self.binom,
                self.flip_cell,
            )
        )


_COMPILE_SECONDS: float | None = None


def warm_up() -> float:
    """Compile (or load from numba's disk cache) every kernel function once per process and
    return the seconds it took; later calls return the first measurement."""
    global _COMPILE_SECONDS
    if _COMPILE_SECONDS is None:
        from cgt.games.lag import Lag

        started = time.perf_counter()
        game = Lag(size=2, setup="BB/.../WW W")
        for remoteness in (False, True):
            kernel = LagKernel(game, remoteness=remoteness, tt_entries=64)
            position = game.initial_position()
            kernel.moves(position)
            kernel.result(position)
            kernel.score(position)
            kernel.perft(position, 2)
        LagKernel(game, tt_entries=64, method="dfpn").score(game.initial_position())
        _COMPILE_SECONDS = time.perf_counter() - started
    return _COMPILE_SECONDS


def solve_lag(
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
    method: str = "alphabeta",
    tiers: Any = None,
) -> SolveResult:
    """Solve a LAG position exactly with the compiled kernel: the root value and the value
    of every root move (each child solved as its own root with a full window).
    ``tiers``: solved tier tables (:class:`~solvers.kernels.lag_tiers.LagTiers`) to probe.

    ``remoteness=False`` gives win/loss only and prunes far more; ``True`` gives exact
    remoteness. ``symmetry`` keys positions by the smaller of them and their mirror image.
    ``seconds`` excludes compilation, reported as ``extra["compile_seconds"]``.
    ``max_seconds`` bounds the search (:class:`SearchBudgetExceeded` when it runs out),
    ``progress`` hears about it every half second. ``method="dfpn"``: proof-number search
    (win/loss only) instead of alpha-beta.
    """
    compile_seconds = warm_up()
    kernel = LagKernel(
        game,
        remoteness=remoteness,
        tt_entries=tt_entries,
        symmetry=symmetry,
        method=method,
        tiers=tiers,
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
    result.extra["tier_hits"] = kernel.tier_hits
    return result


# ------------------------------------------------------------------ playout plug-in
# The compiled playout interface of solvers.playout (read its docstring): a state is
# (white, black, side to move); a move code is ``from * 64 + to``, as in the search.


@njit(cache=True)
def playout_final(state: np.ndarray, tables: Any) -> I64:
    _dest, nbr, far, cfg, _moves, _order = tables
    side = np.int64(state[2])
    reached = goal_score(state[0], state[1], side, cfg[0], far, nbr)
    if reached != 0:
        return reached
    own = state[0] if side == 0 else state[1]
    opp = state[1] if side == 0 else state[0]
    return end_score(own, opp, cfg[0], nbr)


@njit(cache=True)
def playout_generate(state: np.ndarray, tables: Any, out: np.ndarray) -> I64:
    dest, nbr, far, cfg, _moves, order = tables
    side = np.int64(state[2])
    if goal_score(state[0], state[1], side, cfg[0], far, nbr) != 0:
        return 0  # a far-row goal ended the game
    own = state[0] if side == 0 else state[1]
    opp = state[1] if side == 0 else state[0]
    return generate_moves(own, opp, side, count_objects(own, nbr), dest, nbr, out, order)


@njit(cache=True)
def playout_play(state: np.ndarray, code: I64, tables: Any, child: np.ndarray) -> None:
    side = np.int64(state[2])
    white, black = _lag_child(state[0], state[1], side, code)
    child[0] = white
    child[1] = black
    child[2] = np.uint64(1 - side)


@njit(cache=True)
def playout_mover(state: np.ndarray, tables: Any) -> I64:
    return np.int64(state[2])


def playout_rules(game: Game[Any, Any]) -> PlayoutRules:
    """LAG's playout interface (any goal, boards up to 64 cells) on the search's move
    generator and end rules."""
    kernel = LagKernel(game, tt_entries=64, max_ply=1)
    cells = kernel.board.size
    tables = (
        kernel.dest,
        kernel.nbr,
        kernel.far,
        np.array([kernel.ctl[C_GOAL]], dtype=np.int64),
        np.zeros(4 * cells, dtype=np.int64),
        np.zeros(4 * cells, dtype=np.int64),
    )

    def encode(position: Any) -> np.ndarray:
        white, black, side = kernel.check_position(position)
        return np.array([white, black, side], dtype=np.uint64)

    return plug_in(
        sys.modules[__name__],
        game,
        words=3,
        alternating=True,
        max_moves=4 * cells,
        tables=tables,
        encode=encode,
        decode=int_words,
        code_of=lambda position, move: 64 * move[0] + move[1],
        move_of=lambda position, code: (code >> 6, code & 63),
    )


__all__ = ["LagKernel", "SearchBudgetExceeded", "playout_rules", "solve_lag", "warm_up"]
__all__ = ["LagKernel", "SearchBudgetExceeded", "solve_lag", "warm_up"]


PLUGIN = KernelPlugin(
    "lag",
    solve_lag,
    kernel_class=LagKernel,
    methods=("alphabeta", "dfpn"),
    tier_module="solvers.kernels.lag_tiers",
    playout=playout_rules,
)
