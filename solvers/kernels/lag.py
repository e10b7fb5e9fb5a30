"""Compiled exact solver for LAG (cgt.games.lag), all four goals.

Why a separate statement of the rules: the pure-Python alpha-beta spends its time in the
readable module's Python move generation and object counting, far too slow for size 3
(benchmarks/TUNING.md). Here a position is two uint64 bitboards (bit ``i`` is cell ``i`` of
:func:`cgt.boards.hexhex.hex_board`, the game's own numbering: 37 cells at size 4, 61 at
size 5) and a side to move, and move generation is table look-ups and a small flood fill
under numba. It is a second, independent statement of the rules: tests compare it move for
move and result for result with the readable module on random positions, and value for
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
Alpha-beta is the engine's (:mod:`solvers.engine`, docs/engine.md): this module is its
plug-in for LAG (``playout_*``: the rules above, and the Monte-Carlo player's too) and
:class:`LagKernel`, the engine with LAG's options. LAG is acyclic (proofs/lag.py gives a
potential that every move raises) and has no draws, so every result may be stored and value
mode's scores are -1/1, with 0 free for a horizon pass's "unknown".

* Key: the left-right mirror (the only symmetry LAG keeps). A position with at most
  ``symmetry_pieces`` pieces (default :func:`default_symmetry_pieces`: every count; on
  size 3 the mirror images meet all the way down) is keyed by the smaller of itself and its
  mirror image (bitboards mirrored by byte-chunk lookup tables), the side to move as the
  tag; a child's key comes from the parent's boards (``playout_child_key``), and the best
  move is stored in the key's frame.
* Ordering hint: captures and merges first, the kinds the generator knows at no cost
  (``playout_order``); the engine puts the table move before them and the history
  heuristic between equal hints.
* Horizon passes in value mode (``deepening=(first, step, last)``, default by board size
  :func:`default_deepening`): bounds ``first``, ``first + step``, ... up to ``last``, then
  one unbounded search. Why: with scores -1/1 and no bound a plain search dives into the
  first move's subtree, however deep, before it looks at a sibling that wins at once. Where
  every opening needs the full depth (size 3) deep passes cost more than they save, while on
  larger boards they pay: the last bound is by board size (benchmarks/LAG_KERNEL.md).
* Tier tables (``tiers=``, :mod:`solvers.kernels.lag_tiers`): a position of a solved tier
  ends the search there, ``playout_final`` and ``playout_final_remoteness`` reading its
  record.
* Proof-number search (``method="dfpn"``) is the engine's too (:mod:`solvers.engine_dfpn`)
  on the same plug-in and table: a new child starts at (1, its replies) (the plug-in says
  so: its ordering hint is a move's kind, not a reply count), with summed proof numbers.
  It reads the tier tables as alpha-beta does, through ``generate`` and ``final``.

Kernel move codes are ``from * 64 + to``; the Python API converts them to the game's
``(from, to)`` moves.
"""

from __future__ import annotations

import sys
from typing import Any, Literal

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM cttz intrinsic

from cgt.boards.hexhex import MIRROR_LEFT_RIGHT
from cgt.errors import ParameterError, PositionError, unpack_position
from cgt.protocol import Game, Outcome
from solvers.engine import EngineKernel
from solvers.kernel_base import SearchBudgetExceeded, compile_once, search_solver
from solvers.kernel_table import (
    _U0,
    _U1,
    _U255,
    I64,
    U64,
    compiled,
    popcount,
)
from solvers.kernels.plugin import KernelPlugin
from solvers.kernels.tier_index import binomial_table, locate
from solvers.playout import PlayoutRules, int_words, plug_in

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

#: The configuration words ``cfg`` of the plug-in's tables: the goal's code, the most
#: pieces a position keyed by its mirror image may have (-1: no symmetry), the bitboards'
#: bytes, 1 when tier tables are probed, and the positions they answered (a statistic).
CFG_GOAL = 0
CFG_SYMMETRY_PIECES = 1
CFG_CHUNKS = 2
CFG_PROBE = 3
CFG_TIER_HITS = 4
CFG_LENGTH = 5
#: Ordering bonuses of the move generator's keys: a capture, a merge (objects after < before).
CAPTURE_BONUS = 1 << 42
MERGE_BONUS = 1 << 41
#: Every piece count (more than any board has cells): symmetry everywhere.
ALL_PIECES = 64
#: Move codes (``from * 64 + to``) are below this.
MOVE_CODES = 64 * 64

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


# ------------------------------------------------------------------------- keys
@njit(cache=True, inline="always")
def _child_key(
    white: U64, black: U64, pieces: I64, mirror_tables: np.ndarray, cfg: np.ndarray
) -> tuple[U64, U64, I64]:
    """Table key of a position of ``pieces`` pieces and 1 if it is the mirror image: the
    smaller of the position and its mirror, where ``pieces <= cfg[CFG_SYMMETRY_PIECES]``."""
    if pieces > cfg[CFG_SYMMETRY_PIECES]:
        return white, black, 0
    chunks = cfg[CFG_CHUNKS]
    mirror_white = _mirror(white, mirror_tables, chunks)
    if mirror_white > white:
        return white, black, 0
    mirror_black = _mirror(black, mirror_tables, chunks)
    if mirror_white < white or mirror_black < black:
        return mirror_white, mirror_black, 1
    return white, black, 0


@njit(cache=True, inline="always")
def _lag_child(white: U64, black: U64, side: I64, move: I64) -> tuple[U64, U64]:
    """Boards after ``side`` plays the move ``move`` (``from * 64 + to``)."""
    source_bit = _U1 << np.uint64(move >> 6)
    target_bit = _U1 << np.uint64(move & 63)
    if side == 0:
        return white ^ source_bit ^ target_bit, black & ~target_bit
    return white & ~target_bit, black ^ source_bit ^ target_bit


# --------------------------------------------------------------------- the engine plug-in
# LAG's rules as the engine's plug-in (docs/engine.md) and the Monte-Carlo player's: a state
# is (white, black, side to move); a move code is ``from * 64 + to``.
# ``tables``: (dest, nbr, far, cfg, mirror_tables, mirror_cell, the tier tables' records,
# offsets, binomials and colour flip, then scratch: the generator's order keys, move codes,
# each code's kind and the position they were noted for).
#: The ordering hint's classes (smaller first): capture and merge, capture, merge, other.
HINT_OTHER = 3


@njit(cache=True, inline="always")
def playout_final(state: np.ndarray, tables: Any) -> I64:
    nbr, far, cfg = tables[1], tables[2], tables[3]
    side = np.int64(state[2])
    reached = goal_score(state[0], state[1], side, cfg[CFG_GOAL], far, nbr)
    if reached != 0:
        return reached
    record = _tier_record(state, tables)
    if record != 0:
        return 1 if record >> TIER_OUTCOME_SHIFT == TIER_WIN else -1
    own = state[0] if side == 0 else state[1]
    opp = state[1] if side == 0 else state[0]
    return end_score(own, opp, cfg[CFG_GOAL], nbr)


@njit(cache=True, inline="always")
def playout_final_remoteness(state: np.ndarray, tables: Any) -> I64:
    """The remoteness the tier tables record for a position they answer; 0 at a real end."""
    return _tier_record(state, tables) & TIER_REMOTENESS_MASK


@njit(cache=True, inline="always")
def _tier_record(state: np.ndarray, tables: Any) -> I64:
    """The tier tables' record of the state (0: none, or no tables probed)."""
    cfg = tables[3]
    if cfg[CFG_PROBE] == 0:
        return 0
    records, offsets, binom, flip_cell = tables[6], tables[7], tables[8], tables[9]
    index, _ = locate(state[0], state[1], np.int64(state[2]), binom, offsets, flip_cell)
    return np.int64(records[index]) if index >= 0 else 0


@njit(cache=True, inline="always")
def playout_generate(state: np.ndarray, tables: Any, out: np.ndarray) -> I64:
    """The legal moves; none where a far-row goal ended the game, or where the tier tables
    answer (``final`` reads the record then)."""
    nbr, far, cfg = tables[1], tables[2], tables[3]
    side = np.int64(state[2])
    if goal_score(state[0], state[1], side, cfg[CFG_GOAL], far, nbr) != 0:
        return 0  # a far-row goal ended the game
    if _tier_record(state, tables) != 0:
        cfg[CFG_TIER_HITS] += 1  # a statistic, the one word the plug-in writes
        return 0
    return _generate_noting_kinds(state, tables, out)


@njit(cache=True, inline="always")
def _generate_noting_kinds(state: np.ndarray, tables: Any, out: np.ndarray) -> I64:
    """The moves of a position that goes on, and each one's kind (2 a capture, 1 a merge)
    noted by its code for :func:`playout_order`, with the position it belongs to."""
    dest, nbr, order, kinds, noted = tables[0], tables[1], tables[10], tables[12], tables[13]
    side = np.int64(state[2])
    own = state[0] if side == 0 else state[1]
    opp = state[1] if side == 0 else state[0]
    count = generate_moves(own, opp, side, count_objects(own, nbr), dest, nbr, out, order)
    for i in range(count):
        kinds[out[i]] = order[i] // MERGE_BONUS
    for w in range(3):
        noted[w] = state[w]
    return count


@njit(cache=True, inline="always")
def playout_play(state: np.ndarray, code: I64, tables: Any, child: np.ndarray) -> None:
    side = np.int64(state[2])
    white, black = _lag_child(state[0], state[1], side, code)
    child[0] = white
    child[1] = black
    child[2] = np.uint64(1 - side)


@njit(cache=True, inline="always")
def playout_mover(state: np.ndarray, tables: Any) -> I64:
    return np.int64(state[2])


@njit(cache=True, inline="always")
def playout_key(state: np.ndarray, tables: Any) -> tuple[U64, U64, I64, I64]:
    """The smaller of the position and its mirror image (:func:`_child_key`), the side to
    move as the tag, and 1 when the key is the mirror image."""
    white, black = state[0], state[1]
    kw, kb, mirrored = _child_key(white, black, popcount(white | black), tables[4], tables[3])
    return kw, kb, np.int64(state[2]), mirrored


@njit(cache=True, inline="always")
def playout_child_key(
    state: np.ndarray, code: I64, tables: Any, scratch: np.ndarray
) -> tuple[U64, U64, I64, I64]:
    """The child's key from the boards alone (its piece count from the move's kind)."""
    side = np.int64(state[2])
    white, black = _lag_child(state[0], state[1], side, code)
    kw, kb, mirrored = _child_key(white, black, popcount(white | black), tables[4], tables[3])
    return kw, kb, 1 - side, mirrored


@njit(cache=True, inline="always")
def playout_order(
    state: np.ndarray, tables: Any, moves: np.ndarray, start: I64, count: I64, keys: np.ndarray
) -> I64:
    """Captures and merges first (a capture first of all), by the kinds the generator noted
    (a move code has no room for its kind in the table's entry); where it has generated for
    another position since (the table move's subtree), the moves are generated again."""
    kinds, noted = tables[12], tables[13]
    if noted[0] != state[0] or noted[1] != state[1] or noted[2] != state[2]:
        _generate_noting_kinds(state, tables, tables[11])
    for i in range(start, count):
        keys[i] = HINT_OTHER - kinds[moves[i]]
    return -1


@njit(cache=True, inline="always")
def playout_move_to_key(code: I64, symmetry: I64, tables: Any) -> I64:
    """The move in the mirror image's cells when the key is the mirror image."""
    if symmetry == 0:
        return code
    mirror_cell = tables[5]
    return mirror_cell[code >> 6] * 64 + mirror_cell[code & 63]


@njit(cache=True, inline="always")
def playout_move_from_key(code: I64, symmetry: I64, tables: Any) -> I64:
    return playout_move_to_key(code, symmetry, tables)  # the mirror is its own inverse


# --------------------------------------------------------------------- Python side
class LagTables:
    """The compiled rules' tables of one LAG game: destinations, neighbours, far rows, the
    mirror, and the configuration word array ``cfg`` (``CFG_*``)."""

    def __init__(self, game: Game[Any, Any], symmetry_pieces: int) -> None:
        if game.name != "lag":
            raise ParameterError(f"the compiled LAG kernel cannot solve {game.name!r}")
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
        self.board = board
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
        mirror = board.symmetries[MIRROR_LEFT_RIGHT]
        self.mirror_tables = image_tables(mirror)
        self.mirror_cell = np.arange(64, dtype=np.int64)
        self.mirror_cell[:cells] = mirror
        self.cfg = np.zeros(CFG_LENGTH, dtype=np.int64)
        self.cfg[CFG_GOAL] = goal_code(game.goal, game.goal_check)  # type: ignore[attr-defined]
        self.cfg[CFG_SYMMETRY_PIECES] = symmetry_pieces
        self.cfg[CFG_CHUNKS] = (cells + 7) // 8
        # no tier tables: arrays of the types the probed ones have (one compiled search)
        self.tier_records = np.zeros(1, dtype=np.uint16)
        self.tier_offsets = np.full((cells + 1, cells + 1), -1, dtype=np.int64)
        self.binom = binomial_table()
        self.flip_cell = np.zeros(0, dtype=np.int64)
        self.order_scratch = np.zeros(4 * cells, dtype=np.int64)
        self.code_scratch = np.zeros(4 * cells, dtype=np.int64)
        self.kinds = np.zeros(MOVE_CODES, dtype=np.int64)
        self.noted = np.full(3, np.uint64(2), dtype=np.uint64)  # no position (side 2)

    def boards(self, position: Any) -> tuple[np.uint64, np.uint64, int]:
        """The position as the compiled functions' arguments; :class:`PositionError` if it is
        not one."""
        white, black, side = unpack_position(
            position, 3, "a LAG position is (white, black, player)"
        )
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

    def encode(self, position: Any) -> np.ndarray:
        white, black, side = self.boards(position)
        return np.array([white, black, side], dtype=np.uint64)

    def tables(self) -> tuple[np.ndarray, ...]:
        """The plug-in's ``tables`` (the module's comment above the plug-in)."""
        return (
            self.dest,
            self.nbr,
            self.far,
            self.cfg,
            self.mirror_tables,
            self.mirror_cell,
            self.tier_records,
            self.tier_offsets,
            self.binom,
            self.flip_cell,
            self.order_scratch,
            self.code_scratch,
            self.kinds,
            self.noted,
        )

    def rules(self, game: Game[Any, Any]) -> PlayoutRules:
        """The plug-in (:class:`~solvers.playout.PlayoutRules`) on these tables."""
        return plug_in(
            sys.modules[__name__],
            game,
            words=3,
            alternating=True,
            max_moves=4 * self.board.size,
            move_codes=64 * self.board.size,  # from * 64 + to, below every table move
            tables=self.tables(),
            encode=self.encode,
            decode=int_words,
            code_of=lambda position, move: 64 * move[0] + move[1],
            move_of=lambda position, code: (code >> 6, code & 63),
            nrt=False,
            # df-pn starts a new child at (1, its replies): the order hint is a move's kind
            extra={"first_numbers": "replies"},
        )


class LagKernel(EngineKernel):
    """LAG's search: the engine (:mod:`solvers.engine`) on the plug-in above, alpha-beta or
    (``method="dfpn"``) proof-number search; the transposition table and the engine's stack
    are kept across solves.

    Options: ``symmetry``/``symmetry_pieces`` (the mirror key, for positions of at most that
    many pieces), ``etc``, ``deepening`` (value mode's horizon passes ``(first, step,
    last)``, by board size by default, None for one unbounded search), ``tiers`` (tier tables
    to probe).
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
        if symmetry_pieces is None:
            symmetry_pieces = default_symmetry_pieces(game.board.n)  # type: ignore[attr-defined]
        self.lag = LagTables(game, symmetry_pieces if symmetry else -1)
        self.board = self.lag.board
        if deepening == "default":
            deepening = default_deepening(self.board.n)
        if deepening is not None and (len(deepening) != 3 or min(deepening) < 1):
            raise ParameterError(
                f"deepening is (first ply bound, step, last bound), all >= 1: {deepening!r}"
            )
        super().__init__(
            self.lag.rules(game),
            remoteness=remoteness,
            tt_entries=tt_entries,
            max_ply=max_ply,
            etc=etc,
            deepening=None if remoteness else deepening,
            method=method,
        )
        cells = self.board.size
        self.moves_buffer = np.zeros((max_ply + 1, 4 * cells), dtype=np.int64)
        self.order_buffer = np.zeros((max_ply + 1, 4 * cells), dtype=np.int64)
        if tiers is not None:
            self.probe(tiers)

    def probe(self, tiers: Any) -> None:
        """Read positions of the complete tiers of ``tiers`` (a
        :class:`~solvers.kernels.lag_tiers.LagTiers` of the same board and goal) instead of
        searching them. Only complete tiers are probed: a record there is final. The engine
        takes a position they answer as a finished game (``generate`` gives no move),
        ``final`` reads its result and ``final_remoteness`` its remoteness."""
        params = ("size", "goal", "goal_check")
        theirs = {p: tiers.game.parameters[p] for p in params}
        ours = {p: self.game.parameters[p] for p in params}
        if theirs != ours:
            raise ParameterError(f"tier tables of {theirs} cannot answer for {ours}")
        lag = self.lag
        lag.tier_records = tiers.table
        lag.flip_cell = tiers.flip_cell
        lag.tier_offsets = np.full_like(tiers.offsets, -1)
        for w, b in tiers.complete:
            lag.tier_offsets[w, b] = tiers.offsets[w, b]
        lag.cfg[CFG_PROBE] = 1 if tiers.complete else 0
        self.rules.tables = lag.tables()

    @property
    def tier_hits(self) -> int:
        """Positions answered by the tier tables so far."""
        return int(self.lag.cfg[CFG_TIER_HITS])

    def solve_extra(self) -> dict[str, Any]:
        return {"tier_hits": self.tier_hits}

    # ---------------------------------------------------------------- the compiled rules
    def check_position(self, position: Any) -> tuple[np.uint64, np.uint64, int]:
        """The position as the compiled functions' arguments; :class:`PositionError` if it
        is not one."""
        return self.lag.boards(position)

    def moves(self, position: Any) -> list[tuple[int, int]]:
        """Legal moves of ``position`` as the game's ``(from, to)`` moves (compiled rules)."""
        white, black, side = self.lag.boards(position)
        goal = int(self.lag.cfg[CFG_GOAL])
        if goal_score(white, black, side, goal, self.lag.far, self.lag.nbr) != 0:
            return []
        own, opp = (white, black) if side == 0 else (black, white)
        k = count_objects(own, self.lag.nbr)
        count = generate_moves(
            own,
            opp,
            side,
            k,
            self.lag.dest,
            self.lag.nbr,
            self.moves_buffer[0],
            self.order_buffer[0],
        )
        return [(int(c) >> 6, int(c) & 63) for c in self.moves_buffer[0, :count]]

    def perft(self, position: Any, depth: int) -> int:
        """Move sequences of exactly ``depth`` plies from ``position`` (compiled rules)."""
        white, black, side = self.lag.boards(position)
        if not 0 <= depth < self.moves_buffer.shape[0]:
            raise ParameterError(f"perft depth must be 0..{self.moves_buffer.shape[0] - 1}")
        lag = self.lag
        goal = int(lag.cfg[CFG_GOAL])
        return int(
            perft(
                white,
                black,
                side,
                depth,
                goal,
                lag.dest,
                lag.nbr,
                lag.far,
                self.moves_buffer,
                self.order_buffer,
            )
        )

    def result(self, position: Any) -> Outcome | None:
        """Outcome for the player to move if the game is over (compiled rules), else None."""
        white, black, side = self.lag.boards(position)
        lag = self.lag
        value = game_result(
            white,
            black,
            side,
            int(lag.cfg[CFG_GOAL]),
            lag.dest,
            lag.nbr,
            lag.far,
            self.moves_buffer[0],
            self.order_buffer[0],
        )
        return None if value == 0 else Outcome(int(value))

    def terminal_outcome(self, position: Any) -> Outcome | None:
        """LAG's end is not plain normal play (object counts, far-row goals)."""
        return self.result(position)

    def _search(self, position: Any, alpha: int, beta: int) -> int:
        if self.method == "alphabeta" and not self.remoteness:
            # scores are -1 and 1 (0: unknown in a horizon pass), so (-1, 1) is the full
            # window, and with it a child's entry that says -1 cuts its parent off (ETC)
            alpha, beta = max(alpha, -1), min(beta, 1)
        return super()._search(position, alpha, beta)


@compile_once
def warm_up() -> None:
    """Compile (or load from numba's disk cache) every kernel function and the engine's
    search for LAG once per process."""
    from cgt.games.lag import Lag

    game = Lag(size=2, setup="BB/.../WW W")
    for remoteness in (False, True):
        kernel = LagKernel(game, remoteness=remoteness, tt_entries=64)
        position = game.initial_position()
        kernel.moves(position)
        kernel.result(position)
        kernel.score(position)
        kernel.perft(position, 2)
    LagKernel(game, tt_entries=64, method="dfpn").score(game.initial_position())
    objects_after(np.uint64(3), 0, 2, kernel.lag.dest, kernel.lag.nbr)


solve_lag = search_solver(
    "solve_lag",
    LagKernel,
    warm_up,
    """Solve a LAG position exactly with the compiled kernel: the root value and the value
    of every root move (each child solved as its own root with a full window). ``tiers``:
    solved tier tables (:class:`~solvers.kernels.lag_tiers.LagTiers`) to probe;
    ``method="dfpn"``: proof-number search (win/loss only); ``symmetry`` keys positions by
    the smaller of them and their mirror image; ``extra["method"]`` is the search that ran.""",
    method="alphabeta",
    tiers=None,
)


def playout_rules(game: Game[Any, Any]) -> PlayoutRules:
    """LAG's plug-in (any goal, boards up to 64 cells): the Monte-Carlo player's rules and
    the engine's."""
    return LagTables(game, default_symmetry_pieces(game.board.n)).rules(game)  # type: ignore[attr-defined]


__all__ = ["LagKernel", "SearchBudgetExceeded", "playout_rules", "solve_lag", "warm_up"]


PLUGIN = KernelPlugin(
    "lag",
    solve_lag,
    kernel_class=LagKernel,
    methods=("alphabeta", "dfpn"),
    tier_module="solvers.kernels.lag_tiers",
    playout=playout_rules,
)
