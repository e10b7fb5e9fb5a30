"""Compiled exact solver for LAG (cgt.games.lag), all four goals.

Why a separate statement of the rules: the pure-Python alpha-beta could not solve the size-3
board under ``goal=standard`` in ten minutes; most of its time goes into the readable
module's Python move generation and object counting. Here a position is two uint64 bitboards
(bit ``i`` is cell ``i`` of :func:`cgt.boards.hexhex.hex_board`, the game's own numbering;
cells at size 4, 61 at size 5) and a side to move, and move generation is table look-ups and a small flood
fill under numba. It is a second, independent statement of the rules: tests compare it move
for move and result for result with the readable module on random positions, and value for
value with :mod:`solvers.retrograde`.

The rules as the kernel states them (the decisions are the readable module's):

* ``k`` = the mover's objects (maximal hex-connected groups, counted by a flood fill over the
  precomputed neighbour masks); ``k = 0`` (no pieces) means no legal move.
* A piece moves exactly ``k`` cells in one of four directions: the mover's two forward
  directions always, the two along the row (E, W) only if the mover's objects after the move
  are fewer than ``k``. Destinations come from a table ``dest[side, cell, slot, k]`` (-1: off
  the board); a destination holding an own piece is illegal, one holding an opponent piece is
  a capture. A piece can only *merge* if its target touches another own piece (otherwise it
  lands isolated and the count cannot drop), so the flood fill after a move runs only then.
* Far-row goals: the player who has just moved (the one not to move) wins if one of their
  pieces is on the far row (and, for ``far-row-one-object``, they have exactly one object);
  such a position is a loss for the player to move and has no move.
* No legal move ends the game: ``standard`` and the far-row goals' fallback give the win to
  the player to move when their objects are at most the opponent's (fewer wins, a tie goes
  to the player who ended the game); ``strict`` gives it to them iff they have one object.

Search
------
Negamax alpha-beta, fail-soft, as :mod:`solvers.alphabeta` (read its docstring on scores and
bounds). LAG is acyclic (proofs/lag.py gives a potential that every move raises), so there is
no repetition handling: every result is path-independent and may be stored.

* Scores are for the player to move. Value mode uses -1/1 (LAG has no draws, so with the
  window (-1, 1) every node result is exact); remoteness mode uses mate-distance scores
  ``BIG - r`` / ``-(BIG - r)``, with windows widened one step per ply so bounds stay exact.
* Transposition table: one uint64 array, buckets of two 3-word slots (key word 0: white
  bitboard with the side to move in bit 63 and an occupancy bit 62; key word 1: black
  bitboard; word 2: score, bound flag EXACT/LOWER/UPPER, best move, log2 of the subtree's
  node count). The FULL key is verified on every probe. Slot 0 is work-preferred (the
  bigger subtree stays, the loser is demoted to slot 1), slot 1 always-replace. Capacity is
  fixed by ``tt_entries``.
* Move ordering: the table move first, then captures and merges, then the history heuristic
  (moves that caused cut-offs), by insertion sort.
* Symmetry: the left-right mirror (the only symmetry LAG keeps). A position is keyed by the
  smaller of itself and its mirror image (bitboards mirrored by byte-chunk lookup tables);
  the best move is stored in the key's frame and mapped back on probe.
* A node budget (``nodes_per_call`` per kernel call) stops a search cleanly; nothing computed
  under an aborted search is stored, so calling again resumes with everything the table kept.
  :func:`solve_lag` uses that for progress reports and bounded attempts.

Kernel move codes are ``from * 64 + to``; the Python API converts them to the game's
``(from, to)`` moves.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM cttz intrinsic

from cgt.errors import ParameterError, PositionError
from cgt.protocol import Game, Outcome
from solvers.result import MoveValue, SolveResult
from solvers.retrograde import best_move_values

#: Numba scalars in the signatures of compiled functions (numba ignores annotations and
#: numpy's stubs do not model numba's integer typing, so for mypy they are Any).
U64 = Any
I64 = Any

GOAL_CODES = {"standard": 0, "strict": 1, "far-row-one-object": 2, "far-row": 3}
G_STANDARD, G_STRICT, G_FAR_ROW_ONE_OBJECT, G_FAR_ROW = 0, 1, 2, 3

#: Score of a win at the end of the game (remoteness 0), as in solvers.alphabeta.
BIG = 1 << 30
#: Beyond every score: the full window is (-INFINITY, INFINITY).
INFINITY = BIG + 2
EXACT, LOWER, UPPER = 0, 1, 2
#: Largest board: 37 cells (size 4) fit a uint64 with bits 62 and 63 free for the table key.
MAX_CELLS = 62
#: Deepest search path (plies). Each move raises the potential of proofs/lag.py, which
#: bounds games far below this on the boards in reach; a deeper path aborts with an error.
DEFAULT_MAX_PLY = 1024
#: Default node budget of one kernel call (progress is reported between calls).
DEFAULT_NODES_PER_CALL = 20_000_000

# Indices into the control array ``ctl`` (int64): configuration, then statistics, then the
# history table at HISTORY (2 sides x 64 x 64 move codes).
C_GOAL = 0
C_REMOTENESS = 1
C_SYMMETRY = 2
C_BUCKET_MASK = 3
C_MAX_PLY = 4
C_CHUNKS = 5
C_NODE_LIMIT = 6
S_NODES = 8
S_PROBES = 9
S_HITS = 10
S_STORES = 11
S_NEW_STORES = 12
S_MAX_PLY = 13
S_ABORTED = 14  # 1: node budget exhausted, 2: path deeper than C_MAX_PLY
HISTORY = 32
MOVE_CODES = 64 * 64
CTL_LENGTH = HISTORY + 2 * MOVE_CODES
#: History counts are capped so that ordering keys keep the capture/merge classes apart.
HISTORY_CAP = (1 << 40) - 1
#: Ordering bonuses (higher first): a capture, a merge (objects after < before).
CAPTURE_BONUS = 1 << 42
MERGE_BONUS = 1 << 41
TABLE_MOVE_KEY = 1 << 50

SLOT_WORDS = 3
BUCKET_WORDS = 2 * SLOT_WORDS

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U255 = np.uint64(255)
_OCCUPIED = np.uint64(1 << 62)
_SIDE_BIT = np.uint64(1 << 63)
_SCORE_MASK = np.uint64(0xFFFFFFFF)
_HASH_A = np.uint64(0x9E3779B97F4A7C15)
_HASH_B = np.uint64(0xC2B2AE3D27D4EB4F)
_HASH_C = np.uint64(0x165667B19E3779F9)


# ------------------------------------------------------------------------- bit helpers
@njit(cache=True, inline="always")
def _low_bit(x: U64) -> U64:
    return x & (~x + _U1)


@njit(cache=True, inline="always")
def _bit_index(low: U64) -> I64:
    return np.int64(trailing_zeros(low))  # type: ignore[call-arg]


@njit(cache=True)
def count_objects(mask: U64, nbr: np.ndarray) -> I64:
    """Number of maximal connected groups of the cells of ``mask`` (flood fill on bits)."""
    count = 0
    while mask != _U0:
        group = _low_bit(mask)
        frontier = group
        while frontier != _U0:
            grown = _U0
            while frontier != _U0:
                low = _low_bit(frontier)
                grown |= nbr[_bit_index(low)]
                frontier ^= low
            frontier = grown & mask & ~group
            group |= frontier
        mask &= ~group
        count += 1
    return count


@njit(cache=True, inline="always")
def _mirror(mask: U64, mirror_tables: np.ndarray, chunks: I64) -> U64:
    out = _U0
    for c in range(chunks):
        out |= mirror_tables[c, (mask >> np.uint64(8 * c)) & _U255]
    return out


# ------------------------------------------------------------------------- the rules
@njit(cache=True)
def goal_reached(
    white: U64, black: U64, side: I64, goal: I64, far: np.ndarray, nbr: np.ndarray
) -> bool:
    """True if the player who has just moved (not ``side``) has met a far-row goal."""
    if goal < G_FAR_ROW_ONE_OBJECT:
        return False
    last = black if side == 0 else white
    if last & far[1 - side] == _U0:
        return False
    return goal == G_FAR_ROW or count_objects(last, nbr) == 1


@njit(cache=True)
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
    mask = own
    while mask != _U0:
        low = _low_bit(mask)
        mask ^= low
        source = _bit_index(low)
        rest = own ^ low
        for slot in range(4):
            target = dest[side, source, slot, k]
            if target < 0:
                continue  # would leave the board
            target_bit = _U1 << np.uint64(target)
            if own & target_bit != _U0:
                continue  # may not land on an own piece
            merges = False
            if rest & nbr[target] != _U0:  # only a landing next to own pieces can merge
                merges = count_objects(rest | target_bit, nbr) < k
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


@njit(cache=True)
def end_score(own: U64, opp: U64, goal: I64, nbr: np.ndarray) -> I64:
    """+1 / -1: result for the player to move (pieces ``own``), who has no legal move."""
    mine = count_objects(own, nbr)
    if goal == G_STRICT:
        return 1 if mine == 1 else -1
    # fewer objects wins; on equal counts the player who has no legal move wins
    return 1 if mine <= count_objects(opp, nbr) else -1


@njit(cache=True)
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
    if goal_reached(white, black, side, goal, far, nbr):
        return -1  # the opponent has just reached their goal
    own = white if side == 0 else black
    opp = black if side == 0 else white
    k = count_objects(own, nbr)
    if generate_moves(own, opp, side, k, dest, nbr, moves, order) > 0:
        return 0
    return end_score(own, opp, goal, nbr)


@njit(cache=True)
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
    if goal_reached(white, black, side, goal, far, nbr):
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


# ------------------------------------------------------------------ transposition table
@njit(cache=True, inline="always")
def _bucket_base(key_white: U64, key_black: U64, bucket_mask: I64) -> I64:
    h = key_white * _HASH_A ^ key_black * _HASH_B
    h ^= h >> np.uint64(31)
    h *= _HASH_C
    return np.int64((h >> np.uint64(24)) & np.uint64(bucket_mask)) * BUCKET_WORDS


@njit(cache=True, inline="always")
def _pack(flag: I64, score: I64, move: I64, work: I64) -> U64:
    log2_work = 0
    while work > 1 and log2_work < 63:
        work >>= 1
        log2_work += 1
    return (
        np.uint64(score + BIG)
        | (np.uint64(flag) << np.uint64(32))
        | (np.uint64(move) << np.uint64(34))
        | (np.uint64(log2_work) << np.uint64(48))
    )


@njit(cache=True, inline="always")
def _score_of(data: U64) -> I64:
    return np.int64(data & _SCORE_MASK) - BIG


@njit(cache=True, inline="always")
def _flag_of(data: U64) -> I64:
    return np.int64((data >> np.uint64(32)) & np.uint64(3))


@njit(cache=True, inline="always")
def _move_of(data: U64) -> I64:
    return np.int64((data >> np.uint64(34)) & np.uint64(4095))


@njit(cache=True, inline="always")
def _work_of(data: U64) -> U64:
    return data >> np.uint64(48)


@njit(cache=True)
def _store(
    tt: np.ndarray,
    base: I64,
    key_word: U64,
    key_black: U64,
    flag: I64,
    score: I64,
    move: I64,
    work: I64,
    ctl: np.ndarray,
) -> None:
    """Record a result in its bucket: slot 0 work-preferred, slot 1 always-replace."""
    ctl[S_STORES] += 1
    data = _pack(flag, score, move, work)
    second = base + SLOT_WORDS
    if tt[base] == key_word and tt[base + 1] == key_black:
        tt[base + 2] = data
        return
    if not (tt[second] == key_word and tt[second + 1] == key_black):
        ctl[S_NEW_STORES] += 1
    if tt[base] == _U0 or _work_of(data) >= _work_of(tt[base + 2]):
        if tt[base] != _U0:  # demote the old slot-0 entry to the always-replace slot
            tt[second] = tt[base]
            tt[second + 1] = tt[base + 1]
            tt[second + 2] = tt[base + 2]
        tt[base] = key_word
        tt[base + 1] = key_black
        tt[base + 2] = data
    else:
        tt[second] = key_word
        tt[second + 1] = key_black
        tt[second + 2] = data


@njit(cache=True, inline="always")
def _toward_root(score: I64, remoteness: I64) -> I64:
    """Score one ply further from the end (as seen by the same player)."""
    if remoteness == 0 or score == 0:
        return score
    return score - 1 if score > 0 else score + 1


@njit(cache=True, inline="always")
def _toward_leaf(bound: I64, remoteness: I64) -> I64:
    """Inverse of ``_toward_root`` for window bounds."""
    if remoteness == 0 or bound == 0:
        return bound
    return bound + 1 if bound > 0 else bound - 1


# ------------------------------------------------------------------------- search
@njit(cache=True)
def search(
    white: U64,
    black: U64,
    side: I64,
    alpha: I64,
    beta: I64,
    ply: I64,
    nbr: np.ndarray,
    dest: np.ndarray,
    far: np.ndarray,
    mirror_tables: np.ndarray,
    mirror_cell: np.ndarray,
    ctl: np.ndarray,
    moves: np.ndarray,
    order: np.ndarray,
    tt: np.ndarray,
) -> I64:
    """Fail-soft negamax score of the position for ``side`` within (alpha, beta).

    Returns 0 with ``ctl[S_ABORTED]`` set when the node budget or the ply limit runs out;
    nothing computed after that is stored.
    """
    ctl[S_NODES] += 1
    if ctl[S_NODES] > ctl[C_NODE_LIMIT]:
        ctl[S_ABORTED] = 1
        return 0
    if ply > ctl[S_MAX_PLY]:
        ctl[S_MAX_PLY] = ply
    remoteness = ctl[C_REMOTENESS]
    goal = ctl[C_GOAL]
    win = BIG if remoteness != 0 else 1
    if goal_reached(white, black, side, goal, far, nbr):
        return -win
    # table key: the smaller of the position and its mirror image
    key_white = white
    key_black = black
    mirrored = False
    if ctl[C_SYMMETRY] != 0:
        chunks = ctl[C_CHUNKS]
        mirror_white = _mirror(white, mirror_tables, chunks)
        if mirror_white <= white:
            mirror_black = _mirror(black, mirror_tables, chunks)
            if mirror_white < white or mirror_black < black:
                key_white = mirror_white
                key_black = mirror_black
                mirrored = True
    key_word = key_white | _OCCUPIED
    if side != 0:
        key_word |= _SIDE_BIT
    base = _bucket_base(key_word, key_black, ctl[C_BUCKET_MASK])
    ctl[S_PROBES] += 1
    table_move = np.int64(-1)
    for at in (base, base + SLOT_WORDS):
        if tt[at] == key_word and tt[at + 1] == key_black:
            ctl[S_HITS] += 1
            data = tt[at + 2]
            stored_flag = _flag_of(data)
            stored = _score_of(data)
            if (
                stored_flag == EXACT
                or (stored_flag == LOWER and stored >= beta)
                or (stored_flag == UPPER and stored <= alpha)
            ):
                return stored
            table_move = _move_of(data)
            if mirrored:
                table_move = mirror_cell[table_move >> 6] * 64 + mirror_cell[table_move & 63]
            break
    if ply >= ctl[C_MAX_PLY]:
        ctl[S_ABORTED] = 2
        return 0
    own = white if side == 0 else black
    opp = black if side == 0 else white
    k = count_objects(own, nbr)
    count = generate_moves(own, opp, side, k, dest, nbr, moves[ply], order[ply])
    if count == 0:
        return end_score(own, opp, goal, nbr) * win
    max_score = BIG - 1 if remoteness != 0 else 1
    # ordering: table move, then captures and merges, then history; insertion sort, highest
    # key first
    history = HISTORY + side * MOVE_CODES
    for i in range(count):
        m = moves[ply, i]
        if m == table_move:
            order[ply, i] = TABLE_MOVE_KEY
        else:
            order[ply, i] += min(ctl[history + m], HISTORY_CAP)
    for i in range(1, count):
        m = moves[ply, i]
        key = order[ply, i]
        j = i - 1
        while j >= 0 and order[ply, j] < key:
            moves[ply, j + 1] = moves[ply, j]
            order[ply, j + 1] = order[ply, j]
            j -= 1
        moves[ply, j + 1] = m
        order[ply, j + 1] = key
    original_alpha = alpha
    nodes_before = ctl[S_NODES]
    best = -INFINITY
    best_move = np.int64(-1)
    for i in range(count):
        m = moves[ply, i]
        source_bit = _U1 << np.uint64(m >> 6)
        target_bit = _U1 << np.uint64(m & 63)
        child_own = own ^ source_bit ^ target_bit
        child_opp = opp & ~target_bit
        if side == 0:
            child_white = child_own
            child_black = child_opp
        else:
            child_white = child_opp
            child_black = child_own
        child_score = search(
            child_white,
            child_black,
            1 - side,
            -_toward_leaf(beta, remoteness),
            -_toward_leaf(alpha, remoteness),
            ply + 1,
            nbr,
            dest,
            far,
            mirror_tables,
            mirror_cell,
            ctl,
            moves,
            order,
            tt,
        )
        if ctl[S_ABORTED] != 0:
            return 0
        score = _toward_root(-child_score, remoteness)
        if score > best:
            best = score
            best_move = m
            if best > alpha:
                alpha = best
                if best >= beta or best >= max_score:
                    break
    if best >= max_score:  # nothing can beat it: exact whatever the window
        flag = EXACT
    elif best >= beta:
        flag = LOWER
        ctl[history + best_move] += 1
    elif best <= original_alpha:
        flag = UPPER
    else:
        flag = EXACT
    stored_move = best_move
    if mirrored:
        stored_move = mirror_cell[best_move >> 6] * 64 + mirror_cell[best_move & 63]
    _store(tt, base, key_word, key_black, flag, best, stored_move, ctl[S_NODES] - nodes_before, ctl)
    return best


# --------------------------------------------------------------------- Python side
ProgressCallback = Callable[[dict[str, Any]], None]


class SearchBudgetExceeded(Exception):
    """The search ran out of its time budget before proving the value (not a user error)."""

    def __init__(self, nodes: int, seconds: float) -> None:
        super().__init__(f"no result within the budget: {nodes} nodes in {seconds:.1f} s")
        self.nodes = nodes
        self.seconds = seconds


class LagKernel:
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
    ) -> None:
        if game.name != "lag":
            raise ParameterError(f"the compiled LAG kernel cannot solve {game.name!r}")
        if getattr(game, "allow_backward", False) or not getattr(
            game, "sideways_needs_merge", True
        ):
            raise ParameterError("the compiled LAG kernel supports only the standard LAG rules")
        if not isinstance(tt_entries, int) or tt_entries < 2:
            raise ParameterError(f"tt_entries must be an integer >= 2, got {tt_entries!r}")
        board = game.board  # type: ignore[attr-defined]
        if board.size > MAX_CELLS:
            raise ParameterError(
                f"the compiled LAG kernel handles boards up to {MAX_CELLS} cells, "
                f"got {board.size} (size {board.n})"
            )
        self.game = game
        self.board = board
        self.remoteness = remoteness
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
        self.mirror_tables = np.zeros((self.chunks, 256), dtype=np.uint64)
        for chunk in range(self.chunks):
            for byte in range(256):
                image = 0
                for bit in range(8):
                    cell = 8 * chunk + bit
                    if byte >> bit & 1 and cell < cells:
                        image |= 1 << mirror[cell]
                self.mirror_tables[chunk, byte] = image
        self.mirror_cell = np.arange(64, dtype=np.int64)
        self.mirror_cell[:cells] = mirror
        buckets = 1 << ((tt_entries // 2).bit_length() - 1)
        self.capacity = 2 * buckets
        self.tt = np.zeros(buckets * BUCKET_WORDS, dtype=np.uint64)
        self.ctl = np.zeros(CTL_LENGTH, dtype=np.int64)
        self.ctl[C_GOAL] = GOAL_CODES[game.goal]  # type: ignore[attr-defined]
        self.ctl[C_REMOTENESS] = 1 if remoteness else 0
        self.ctl[C_SYMMETRY] = 1 if symmetry else 0
        self.ctl[C_BUCKET_MASK] = buckets - 1
        self.ctl[C_MAX_PLY] = max_ply
        self.ctl[C_CHUNKS] = self.chunks
        self.moves_buffer = np.zeros((max_ply + 1, 4 * cells), dtype=np.int64)
        self.order_buffer = np.zeros((max_ply + 1, 4 * cells), dtype=np.int64)

    @property
    def approx_bytes(self) -> int:
        """Memory of the transposition table."""
        return int(self.tt.nbytes)

    def stat(self, index: int) -> int:
        return int(self.ctl[index])

    def table_stats(self) -> dict[str, int]:
        return {
            "capacity": self.capacity,
            "bytes": self.approx_bytes,
            "probes": self.stat(S_PROBES),
            "hits": self.stat(S_HITS),
            "stores": self.stat(S_STORES),
            "new_stores": self.stat(S_NEW_STORES),
            "max_ply": self.stat(S_MAX_PLY),
        }

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
        if goal_reached(white, black, side, goal, self.far, self.nbr):
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

    def score(
        self,
        position: Any,
        alpha: int = -INFINITY,
        beta: int = INFINITY,
        *,
        nodes_per_call: int = DEFAULT_NODES_PER_CALL,
        max_seconds: float | None = None,
        progress: ProgressCallback | None = None,
    ) -> int:
        """Fail-soft score of ``position`` in the window, searched in slices of at most
        ``nodes_per_call`` nodes (results of finished subtrees stay in the table, so each
        slice resumes); :class:`SearchBudgetExceeded` after ``max_seconds``."""
        white, black, side = self.check_position(position)
        started = time.perf_counter()
        while True:
            self.ctl[S_ABORTED] = 0
            self.ctl[C_NODE_LIMIT] = self.ctl[S_NODES] + nodes_per_call
            value = search(
                white,
                black,
                side,
                alpha,
                beta,
                0,
                self.nbr,
                self.dest,
                self.far,
                self.mirror_tables,
                self.mirror_cell,
                self.ctl,
                self.moves_buffer,
                self.order_buffer,
                self.tt,
            )
            aborted = int(self.ctl[S_ABORTED])
            if aborted == 0:
                return int(value)
            if aborted == 2:
                raise RuntimeError(f"LAG search path deeper than {int(self.ctl[C_MAX_PLY])} plies")
            elapsed = time.perf_counter() - started
            if progress is not None:
                progress(
                    {
                        "phase": "search",
                        "nodes": self.stat(S_NODES),
                        "positions": self.stat(S_NEW_STORES),
                        "tt_hits": self.stat(S_HITS),
                        "seconds": round(elapsed, 3),
                    }
                )
            if max_seconds is not None and elapsed > max_seconds:
                raise SearchBudgetExceeded(self.stat(S_NODES), elapsed)

    def decode(self, score: int) -> tuple[Outcome, int | None]:
        """Outcome and remoteness (None in value mode) of an exact score."""
        if score == 0:
            return Outcome.DRAW, None
        outcome = Outcome.WIN if score > 0 else Outcome.LOSS
        if not self.remoteness:
            return outcome, None
        return outcome, BIG - abs(score)

    def value(self, position: Any, **budget: Any) -> tuple[Outcome, int | None]:
        """Exact outcome and remoteness (None in value mode) of ``position``."""
        return self.decode(self.score(position, **budget))

    def _toward_root(self, score: int) -> int:
        return int(_toward_root(score, 1 if self.remoteness else 0))

    def principal_variation(self, position: Any, score: int, max_length: int = 200) -> list[str]:
        """One perfect line: at each step the first move whose child keeps the value (in
        value mode any winning move, so the line need not be the shortest)."""
        game = self.game
        line: list[str] = []
        while len(line) < max_length and self.result(position) is None:
            for move in self.moves(position):
                child = game.play(position, move)
                child_score = self.score(child)
                if self._toward_root(-child_score) == score:
                    line.append(game.move_name(position, move))
                    position, score = child, child_score
                    break
            else:  # cannot happen when score is the exact value of position
                raise AssertionError("no move keeps the value of the position")
        return line

    def solve(
        self,
        position: Any,
        *,
        principal_variation: bool = True,
        compile_seconds: float = 0.0,
        max_seconds: float | None = None,
        progress: ProgressCallback | None = None,
    ) -> SolveResult:
        """Value of ``position`` and of each of its moves (each child solved as a root)."""
        game = self.game
        started = time.perf_counter()
        nodes_before = self.stat(S_NODES)
        stores_before = self.stat(S_NEW_STORES)
        move_values: list[MoveValue] = []
        terminal = self.result(position)
        if terminal is not None:
            outcome = terminal
            remoteness: int | None = 0 if self.remoteness else None
            best_score = 0
        else:
            scores = []
            for move in self.moves(position):
                remaining = None
                if max_seconds is not None:
                    remaining = max_seconds - (time.perf_counter() - started)
                child_score = self.score(
                    game.play(position, move), max_seconds=remaining, progress=progress
                )
                score = self._toward_root(-child_score)
                scores.append(score)
                move_values.append(
                    MoveValue(move, game.move_name(position, move), *self.decode(score))
                )
                if progress is not None:
                    progress(
                        {
                            "phase": "root move",
                            "move": game.move_name(position, move),
                            "outcome": move_values[-1].outcome.label,
                            "nodes": self.stat(S_NODES),
                            "seconds": round(time.perf_counter() - started, 3),
                        }
                    )
            best_score = max(scores)
            outcome, remoteness = self.decode(best_score)
        search_seconds = time.perf_counter() - started
        nodes = self.stat(S_NODES) - nodes_before
        line = (
            self.principal_variation(position, best_score)
            if principal_variation and terminal is None
            else []
        )
        best = best_move_values(move_values, outcome, remoteness)
        return SolveResult(
            game=game.name,
            params=dict(game.parameters),
            position=game.render(position),
            solver="compiled",
            outcome=outcome,
            remoteness=remoteness,
            moves=move_values,
            best_moves=[m.name for m in best],
            principal_variation=line,
            positions=self.stat(S_NEW_STORES) - stores_before,
            seconds=search_seconds,
            extra={
                "nodes": nodes,
                "search_seconds": round(search_seconds, 4),
                "nodes_per_second": round(nodes / search_seconds) if search_seconds else 0,
                "compile_seconds": round(compile_seconds, 3),
                "remoteness_mode": self.remoteness,
                "tt": self.table_stats(),
            },
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
    max_seconds: float | None = None,
    progress: ProgressCallback | None = None,
) -> SolveResult:
    """Solve a LAG position exactly with the compiled kernel: the root value and the value
    of every root move (each child solved as its own root with a full window).

    ``remoteness=False`` gives win/loss only and prunes far more; ``True`` gives exact
    remoteness. ``symmetry`` keys positions by the smaller of them and their mirror image.
    ``seconds`` excludes compilation, reported as ``extra["compile_seconds"]``.
    ``max_seconds`` bounds the search (:class:`SearchBudgetExceeded` when it runs out).
    """
    compile_seconds = warm_up()
    kernel = LagKernel(game, remoteness=remoteness, tt_entries=tt_entries, symmetry=symmetry)
    if position is None:
        position = game.initial_position()
    kernel.check_position(position)
    result = kernel.solve(
        position,
        principal_variation=principal_variation,
        compile_seconds=compile_seconds,
        max_seconds=max_seconds,
        progress=progress,
    )
    result.extra["symmetry"] = symmetry
    return result
