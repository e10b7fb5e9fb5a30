"""Proof that a stored Entropy solution is right: the retrograde equations at every position.

A packed solution (:mod:`solvers.store`: one uint16 record per ranked index, outcome for the
player to move in bits 14-15, remoteness in bits 0-13) labels every position of a ranked
space. If every label satisfies the game's equations,

* a finished game has its result (remoteness 0);
* a win in ``r`` has a child lost in ``r - 1`` and no child lost sooner;
* a loss in ``r`` has only won children, the slowest won in ``r - 1``;
* a draw has no lost child and some drawn child;

then every label is the true value (by induction on remoteness: a position labelled won or
lost in ``r`` is truly so because its children's labels of smaller remoteness are; a position
truly won or lost in ``r`` cannot carry any other label because its children's true values
are already their labels; what is left is neither, so it is drawn, endless play being a
draw). This module checks the equations at EVERY index of the space, GamesCrafters' check
after a solve.

Independence from the solver
----------------------------
The solver (:mod:`solvers.kernels.entropy`) decides positions backwards, generating parents
by un-moves over ray tables. This checker goes forwards and shares none of its code: its
geometry comes from board coordinates (neighbour sets and slides by bit shifts); a move's
legality under isolation uses the fact that a move resolves an isolated piece exactly when
its target touches it (the isolated piece touches nothing, so neither the vacated cell nor
any other change can); the canonical index of a child is the smallest ``(O rank, S rank)``
over every image of the placement under the board's symmetries, with its own tables of O
set classes, checked against the ranking the store describes in its meta. Tests compare
its moves and results with the readable rules (:mod:`cgt.games.entropy`) position by
position.

Work is split into chunks of consecutive blocks (a block: one side to move and one class of
O sets, every S set), each checked in parallel over the blocks (numba ``prange``); after each
chunk the totals go to a checkpoint file next to the store, so a rerun continues where an
interrupted one stopped and reaches the same totals.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM cttz intrinsic

from cgt.errors import CGTError
from cgt.games.entropy import Entropy
from cgt.progress import Progress
from solvers.kernel_table import I64, U64, popcount

# The record encoding of :mod:`solvers.store`.
OUTCOME_SHIFT = 14
REMOTENESS_MASK = (1 << OUTCOME_SHIFT) - 1
NOT_A_POSITION = 0
WIN = 1
LOSS = 2
DRAW = 3

# per-block counters
K_POSITIONS = 0  # canonical indices checked
K_NON_CANONICAL = 1  # indices that are no position (a symmetric image of another)
K_INCONSISTENT = 2  # indices whose record breaks an equation
K_WINS = 3
K_LOSSES = 4
K_DRAWS = 5
K_TERMINAL = 6  # finished games among the positions
K_MOVES = 7  # children looked up
COUNT_NAMES = (
    "positions",
    "non_canonical_indices",
    "inconsistent",
    "wins",
    "losses",
    "draws",
    "terminal",
    "moves",
)
N_COUNTS = len(COUNT_NAMES)

#: Room for the children of one position (7 pieces times 16 queen targets on 5x5).
MAX_CHILDREN = 4096
#: ``o_class`` entries: the class of an O set's smallest image, shifted, and the bit set of the
#: symmetries taking the O set to it.
CLASS_SHIFT = 8
SYMS_MASK = (1 << CLASS_SHIFT) - 1
#: Inconsistent indices kept per chunk for the certificate.
KEEP_BAD = 8

_U0 = np.uint64(0)
_U1 = np.uint64(1)


class EquationCheckError(CGTError):
    """The stored solution cannot be checked (its ranking is not the one this checker
    derives, or its length does not match the space)."""


# --------------------------------------------------------------------------- geometry
#: The eight king directions as (file step, rank step).
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def dihedral_permutations(width: int, height: int) -> np.ndarray:
    """Cell permutations of the rectangle's symmetry group (8 on a square, 4 otherwise),
    identity first, from coordinates: optional transpose (square only), then optional
    mirror of files and of ranks."""
    perms = []
    for transpose in (False, True) if width == height else (False,):
        for flip_file in (False, True):
            for flip_rank in (False, True):
                row = []
                for cell in range(width * height):
                    f, r = cell % width, cell // width
                    if transpose:
                        f, r = r, f
                    if flip_file:
                        f = width - 1 - f
                    if flip_rank:
                        r = height - 1 - r
                    row.append(r * width + f)
                perms.append(row)
    return np.array(perms, dtype=np.int64)


@dataclass
class Geometry:
    """Bit-shift description of the board: for each direction the shift of a cell set one
    step that way and the cells from which that step stays on the board."""

    width: int
    height: int
    cells: int
    full: np.uint64
    shift: np.ndarray  # uint64 shift amount per direction
    up: np.ndarray  # int64: 1 when the step shifts left (towards higher cells)
    inside: np.ndarray  # uint64 cells whose step in the direction stays on the board
    neighbours: np.ndarray  # uint64 king neighbours of every cell (spread of one cell)
    perms: np.ndarray  # int64 [symmetry, cell]
    images: np.ndarray  # uint64 [symmetry, byte chunk, byte]: image of a byte of a set

    @classmethod
    def of(cls, width: int, height: int) -> Geometry:
        cells = width * height
        if cells > 64:
            raise EquationCheckError(f"the equation checker needs at most 64 cells, got {cells}")
        shift = np.zeros(8, dtype=np.uint64)
        up = np.zeros(8, dtype=np.int64)
        inside = np.zeros(8, dtype=np.uint64)
        for d, (df, dr) in enumerate(DIRECTIONS):
            amount = dr * width + df
            shift[d], up[d] = abs(amount), int(amount > 0)
            inside[d] = sum(
                1 << c
                for c in range(cells)
                if 0 <= c % width + df < width and 0 <= c // width + dr < height
            )
        geometry = cls(
            width,
            height,
            cells,
            np.uint64((1 << cells) - 1),
            shift,
            up,
            inside,
            np.zeros(cells, dtype=np.uint64),
            dihedral_permutations(width, height),
            np.zeros(0, dtype=np.uint64),
        )
        for c in range(cells):
            geometry.neighbours[c] = spread(_U1 << np.uint64(c), shift, up, inside)
        chunks = (cells + 7) // 8
        images = np.zeros((len(geometry.perms), chunks, 256), dtype=np.uint64)
        for g, row in enumerate(geometry.perms):
            for chunk in range(chunks):
                for byte in range(256):
                    image = 0
                    for bit in range(8):
                        cell = 8 * chunk + bit
                        if byte >> bit & 1 and cell < cells:
                            image |= 1 << int(row[cell])
                    images[g, chunk, byte] = image
        geometry.images = images
        return geometry


@njit(cache=True, inline="always")
def _low(mask: U64) -> I64:
    return np.int64(trailing_zeros(mask))  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def step(cells: U64, d: I64, shift: np.ndarray, up: np.ndarray, inside: np.ndarray) -> U64:
    """``cells`` moved one step in direction ``d`` (cells that would leave the board drop)."""
    x = cells & inside[d]
    return x << shift[d] if up[d] else x >> shift[d]


@njit(cache=True)
def spread(cells: U64, shift: np.ndarray, up: np.ndarray, inside: np.ndarray) -> U64:
    """Every cell next to one of ``cells`` (king steps)."""
    out = _U0
    for d in range(8):
        out |= step(cells, d, shift, up, inside)
    return out


@njit(cache=True)
def moves_from(
    movable: U64,
    occupied: U64,
    isolated: U64,
    shift: np.ndarray,
    up: np.ndarray,
    inside: np.ndarray,
    neighbours: np.ndarray,
    sources: np.ndarray,
    targets: np.ndarray,
) -> I64:
    """The real moves of a player into ``sources``/``targets`` (cell numbers); returns
    their number (0: the player must pass). ``movable``: the player's pieces that touch a
    friend (only they may move); ``isolated``: the player's pieces that touch no piece.

    A movable piece slides like a queen over empty cells. While the player has isolated
    pieces, a move is legal only if it leaves none isolated: an isolated piece touches
    neither the vacated cell nor any other occupied cell, so it is resolved exactly when
    it touches the target."""
    count = 0
    while movable != _U0:
        source = movable & (~movable + _U1)
        movable ^= source
        for d in range(8):
            target = step(source, d, shift, up, inside)
            while target != _U0 and target & occupied == _U0:
                cell = _low(target)
                if isolated & ~neighbours[cell] == _U0:
                    sources[count] = _low(source)
                    targets[count] = cell
                    count += 1
                target = step(target, d, shift, up, inside)
    return count


@njit(cache=True)
def forward_moves(
    mine: U64,
    theirs: U64,
    shift: np.ndarray,
    up: np.ndarray,
    inside: np.ndarray,
    neighbours: np.ndarray,
    sources: np.ndarray,
    targets: np.ndarray,
) -> I64:
    """The real moves of the player owning ``mine`` (see :func:`moves_from`)."""
    occupied = mine | theirs
    return moves_from(
        mine & spread(mine, shift, up, inside),
        occupied,
        mine & ~spread(occupied, shift, up, inside),
        shift,
        up,
        inside,
        neighbours,
        sources,
        targets,
    )


@njit(cache=True)
def result_for_mover(
    o_cells: U64,
    s_cells: U64,
    side: I64,
    o_spread: U64,
    s_spread: U64,
    needs_enemy: I64,
    mover_moves: I64,
    shift: np.ndarray,
    up: np.ndarray,
    inside: np.ndarray,
    neighbours: np.ndarray,
    sources: np.ndarray,
    targets: np.ndarray,
) -> I64:
    """The finished game's record outcome (:data:`WIN`, :data:`LOSS`, :data:`DRAW`) for the
    player to move, 0 while the game goes on. ``o_spread``, ``s_spread``: the cells next to
    each side's pieces; ``mover_moves``: how many real moves the player to move has.

    A side has reached the goal when none of its pieces touches a friend (its set misses
    its own spread) and, under the standard goal, each touches an enemy (its set lies in
    the enemy's spread)."""
    o_won = o_cells & o_spread == _U0 and (needs_enemy == 0 or o_cells & ~s_spread == _U0)
    s_won = s_cells & s_spread == _U0 and (needs_enemy == 0 or s_cells & ~o_spread == _U0)
    if o_won and s_won:
        return DRAW
    if o_won or s_won:
        return WIN if (0 if o_won else 1) == side else LOSS
    if mover_moves > 0:
        return 0
    other, mine = (s_cells, o_cells) if side == 0 else (o_cells, s_cells)
    if forward_moves(other, mine, shift, up, inside, neighbours, sources, targets) == 0:
        return DRAW  # neither player can ever move again and nobody has won
    return 0


# ---------------------------------------------------------------------------- ranking
@njit(cache=True, inline="always")
def rank_of(mask: U64, binom: np.ndarray) -> I64:
    """Colex rank of a set among the sets of its size (sum of C(c_i, i), i from 1)."""
    rank = 0
    i = 1
    while mask != _U0:
        rank += binom[_low(mask), i]
        i += 1
        mask &= mask - _U1
    return rank


@njit(cache=True, inline="always")
def rank_within(cells: U64, free: U64, binom: np.ndarray) -> I64:
    """Colex rank of ``cells`` renumbered as positions among the cells of ``free``."""
    rank = 0
    i = 1
    while cells != _U0:
        low = cells & (~cells + _U1)
        rank += binom[popcount(free & (low - _U1)), i]
        i += 1
        cells ^= low
    return rank


@njit(cache=True, inline="always")
def image_of(mask: U64, g: I64, images: np.ndarray) -> U64:
    """Image of a cell set under symmetry ``g`` (one table look-up per byte)."""
    out = _U0
    chunk = 0
    while mask != _U0:
        out |= images[g, chunk, mask & np.uint64(255)]
        mask >>= np.uint64(8)
        chunk += 1
    return out


@njit(cache=True)
def build_o_classes(
    cells: I64,
    k1: I64,
    binom: np.ndarray,
    images: np.ndarray,
    least_rank: np.ndarray,
    least_syms: np.ndarray,
) -> None:
    """For every O set (visited in colex order: the k1-subsets as increasing integers, by
    Gosper's step) the smallest rank among its images and the symmetries reaching it."""
    symmetries = images.shape[0]
    mask = (_U1 << np.uint64(k1)) - _U1
    for rank in range(binom[cells, k1]):
        best = rank
        syms = 1
        for g in range(1, symmetries):
            image = rank_of(image_of(mask, g, images), binom)
            if image < best:
                best = image
                syms = 1 << g
            elif image == best:
                syms |= 1 << g
        least_rank[rank] = best
        least_syms[rank] = syms
        if rank + 1 < binom[cells, k1]:
            lowest = mask & (~mask + _U1)
            ripple = mask + lowest
            mask = (((ripple ^ mask) >> np.uint64(2)) // lowest) | ripple


@njit(cache=True, inline="always")
def index_in_class(
    cls: I64,
    syms: I64,
    s_cells: U64,
    side: I64,
    classes: I64,
    s_ranks: I64,
    free: U64,
    binom: np.ndarray,
    images: np.ndarray,
) -> I64:
    """Index of a placement whose O set is taken to class ``cls``'s representative
    (leaving ``free``) exactly by the symmetries in ``syms``: the smallest S rank among
    those images."""
    best = np.int64(-1)
    g = 0
    while syms != 0:
        if syms & 1:
            image = s_cells if g == 0 else image_of(s_cells, g, images)
            rank = rank_within(image, free, binom)
            if best < 0 or rank < best:
                best = rank
        syms >>= 1
        g += 1
    return (side * classes + cls) * s_ranks + best


@njit(cache=True, inline="always")
def index_from_entry(
    entry: I64,
    s_images: np.ndarray,
    side: I64,
    full: U64,
    classes: I64,
    s_ranks: I64,
    binom: np.ndarray,
    rep_mask: np.ndarray,
) -> I64:
    """Index of the smallest (O rank, S rank) among the symmetric images of a placement,
    from its O set's ``o_class`` entry (class, symmetries taking the O set there) and its
    S set's images (``s_images[g]``: under symmetry ``g``)."""
    cls = entry >> CLASS_SHIFT
    syms = entry & SYMS_MASK
    free = full & ~rep_mask[cls]
    best = np.int64(-1)
    g = 0
    while syms != 0:
        if syms & 1:
            rank = rank_within(s_images[g], free, binom)
            if best < 0 or rank < best:
                best = rank
        syms >>= 1
        g += 1
    return (side * classes + cls) * s_ranks + best


# ---------------------------------------------------------------------------- checking
@njit(cache=True, inline="always")
def _judge(
    record: I64,
    terminal: I64,
    children: I64,
    lost: I64,
    fastest_loss: I64,
    won: I64,
    slowest_win: I64,
    drawn: I64,
    missing: I64,
) -> bool:
    """Whether a position's record satisfies the equations, given its own result
    (``terminal``, 0 if the game goes on) and the records of its children (``lost``: how
    many the opponent loses, the fastest in ``fastest_loss``; ``won``: how many the
    opponent wins, the slowest in ``slowest_win``; ``drawn``; ``missing``: children with
    no record)."""
    outcome = record >> OUTCOME_SHIFT
    remoteness = record & REMOTENESS_MASK
    if terminal != 0:
        return outcome == terminal and remoteness == 0
    if missing != 0 or children == 0:
        return False
    if outcome == WIN:
        return lost > 0 and remoteness == fastest_loss + 1
    if outcome == LOSS:
        return won == children and remoteness == slowest_win + 1
    if outcome == DRAW:
        return remoteness == 0 and lost == 0 and drawn > 0
    return False  # a position without a record


@njit(cache=True, parallel=True)
def check_blocks(
    first_block: I64,
    last_block: I64,
    records: np.ndarray,
    k2: I64,
    needs_enemy: I64,
    classes: I64,
    s_ranks: I64,
    full: U64,
    shift: np.ndarray,
    up: np.ndarray,
    inside: np.ndarray,
    neighbours: np.ndarray,
    binom: np.ndarray,
    images: np.ndarray,
    o_class: np.ndarray,
    rep_mask: np.ndarray,
    rep_rank: np.ndarray,
    counts: np.ndarray,
    first_bad: np.ndarray,
) -> None:
    """Check every index of blocks ``first_block..last_block-1`` (block ``b``: side
    ``b // classes`` to move, O set the representative of class ``b % classes``, S sets in
    colex order) against ``records``; block ``b``'s counters go to
    ``counts[b - first_block]`` and its first inconsistent index to ``first_bad`` (-1:
    none). Blocks are independent, so they run in parallel."""
    for offset in prange(last_block - first_block):
        block = first_block + offset
        sources = np.empty(MAX_CHILDREN, dtype=np.int64)
        targets = np.empty(MAX_CHILDREN, dtype=np.int64)
        child = np.empty(MAX_CHILDREN, dtype=np.int64)
        tally = np.zeros(N_COUNTS, dtype=np.int64)
        bad = np.int64(-1)
        side = block // classes
        cls = block - side * classes
        o_cells = rep_mask[cls]
        free = full & ~o_cells
        fixing = o_class[rep_rank[cls]] & SYMS_MASK  # the symmetries fixing the O set
        symmetries = images.shape[0]
        s_images = np.empty(8, dtype=np.uint64)
        o_spread = spread(o_cells, shift, up, inside)
        if side == 0:  # the o_class entry of every O set one O move away, by (from, to)
            moved_entry = np.zeros(64 * 64, dtype=np.int64)
            m = o_cells
            while m != _U0:
                source = _low(m)
                m &= m - _U1
                f = free
                while f != _U0:
                    target = _low(f)
                    f &= f - _U1
                    moved = o_cells ^ (_U1 << np.uint64(source)) ^ (_U1 << np.uint64(target))
                    moved_entry[64 * source + target] = o_class[rank_of(moved, binom)]
        free_cells = np.empty(64, dtype=np.int64)
        n_free = 0
        f = free
        while f != _U0:
            free_cells[n_free] = _low(f)
            n_free += 1
            f &= f - _U1
        compact = (_U1 << np.uint64(k2)) - _U1
        base = block * s_ranks
        for s_rank in range(s_ranks):
            index = base + s_rank
            s_cells = _U0
            c = compact
            while c != _U0:
                s_cells |= _U1 << np.uint64(free_cells[_low(c)])
                c &= c - _U1
            if s_rank + 1 < s_ranks:  # Gosper: the next k2-subset in colex order
                lowest = compact & (~compact + _U1)
                ripple = compact + lowest
                compact = (((ripple ^ compact) >> np.uint64(2)) // lowest) | ripple
            record = np.int64(records[index])
            if fixing != 1:
                own = index_in_class(
                    cls, fixing, s_cells, side, classes, s_ranks, free, binom, images
                )
                if own != index:  # a symmetric image of a smaller index: no position
                    tally[K_NON_CANONICAL] += 1
                    if record != NOT_A_POSITION:
                        tally[K_INCONSISTENT] += 1
                        if bad < 0:
                            bad = index
                    continue
            tally[K_POSITIONS] += 1
            outcome = record >> OUTCOME_SHIFT
            if outcome == WIN:
                tally[K_WINS] += 1
            elif outcome == LOSS:
                tally[K_LOSSES] += 1
            elif outcome == DRAW:
                tally[K_DRAWS] += 1
            s_spread = spread(s_cells, shift, up, inside)
            occupied = o_cells | s_cells
            mine = o_cells if side == 0 else s_cells
            mine_spread = o_spread if side == 0 else s_spread
            count = moves_from(
                mine & mine_spread, occupied, mine & ~(o_spread | s_spread), shift, up, inside,
                neighbours, sources, targets,
            )  # fmt: skip
            terminal = result_for_mover(
                o_cells, s_cells, side, o_spread, s_spread, needs_enemy, count, shift, up,
                inside, neighbours, sources[count:], targets[count:],
            )  # fmt: skip
            children = 0
            if terminal != 0:
                tally[K_TERMINAL] += 1
            elif count == 0:  # the pass: same placement, the other side to move
                child[0] = base + s_rank + (1 - 2 * side) * classes * s_ranks
                children = 1
            elif side == 0:  # O moved: a new O set, ranked through its class
                for g in range(symmetries):
                    s_images[g] = s_cells if g == 0 else image_of(s_cells, g, images)
                for i in range(count):
                    child[i] = index_from_entry(
                        moved_entry[64 * sources[i] + targets[i]], s_images, 1, full, classes,
                        s_ranks, binom, rep_mask,
                    )  # fmt: skip
                children = count
            else:  # S moved: the O set stays the representative
                for i in range(count):
                    moved = (
                        s_cells ^ (_U1 << np.uint64(sources[i])) ^ (_U1 << np.uint64(targets[i]))
                    )
                    child[i] = index_in_class(
                        cls, fixing, moved, 0, classes, s_ranks, free, binom, images
                    )
                children = count
            lost = won = drawn = missing = 0
            fastest_loss = np.int64(1 << 30)
            slowest_win = np.int64(-1)
            for i in range(children):  # the look-ups, apart so the loads overlap
                child_record = np.int64(records[child[i]])
                child_outcome = child_record >> OUTCOME_SHIFT
                distance = child_record & REMOTENESS_MASK
                if child_outcome == LOSS:
                    lost += 1
                    fastest_loss = min(fastest_loss, distance)
                elif child_outcome == WIN:
                    won += 1
                    slowest_win = max(slowest_win, distance)
                elif child_outcome == DRAW:
                    drawn += 1
                else:
                    missing += 1
            tally[K_MOVES] += children
            if not _judge(
                record, terminal, children, lost, fastest_loss, won, slowest_win, drawn,
                missing,
            ):  # fmt: skip
                tally[K_INCONSISTENT] += 1
                if bad < 0:
                    bad = index
        for k in range(N_COUNTS):
            counts[offset, k] = tally[k]
        first_bad[offset] = bad


# ------------------------------------------------------------------------- Python side
@dataclass
class EquationReport:
    """Totals of a check (over the chunks done so far)."""

    counts: dict[str, int]
    indices: int
    indices_checked: int
    chunks: int
    chunks_done: int
    seconds: float
    sessions: int
    inconsistent_examples: list[int] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.chunks_done == self.chunks

    @property
    def inconsistent(self) -> int:
        return self.counts["inconsistent"]

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.counts,
            "indices": self.indices,
            "indices_checked": self.indices_checked,
            "complete": self.complete,
            "chunks": self.chunks,
            "chunks_done": self.chunks_done,
            "seconds": round(self.seconds, 1),
            "sessions": self.sessions,
            "inconsistent_examples": self.inconsistent_examples,
        }


class EquationChecker:
    """The forward rules and ranking of one Entropy game (board, piece counts, goal), built
    without the solver's code; :meth:`check` runs the equations over a record array."""

    def __init__(self, game: Entropy) -> None:
        self.game = game
        self.geometry = Geometry.of(game.width, game.height)
        self.k1, self.k2 = game.piece_counts
        self.needs_enemy = 1 if game.goal == "standard" else 0
        cells = self.geometry.cells
        self.binom = np.array([[comb(n, k) for k in range(65)] for n in range(65)], dtype=np.int64)
        o_sets = comb(cells, self.k1)
        self.least_rank = np.zeros(o_sets, dtype=np.int64)
        self.least_syms = np.zeros(o_sets, dtype=np.uint8)
        build_o_classes(
            cells, self.k1, self.binom, self.geometry.images, self.least_rank, self.least_syms
        )
        self.rep_rank = np.flatnonzero(self.least_rank == np.arange(o_sets)).astype(np.int64)
        self.classes = int(self.rep_rank.size)
        self.class_of = np.full(o_sets, -1, dtype=np.int64)
        self.class_of[self.rep_rank] = np.arange(self.classes)
        self.o_class = (self.class_of[self.least_rank] << CLASS_SHIFT) | self.least_syms
        self.rep_mask = np.array(
            [_unrank(int(r), self.k1, self.binom) for r in self.rep_rank], dtype=np.uint64
        )
        self.s_ranks = comb(cells - self.k1, self.k2)
        self.blocks = 2 * self.classes
        self.size = self.blocks * self.s_ranks
        self._sources = np.empty(MAX_CHILDREN, dtype=np.int64)
        self._targets = np.empty(MAX_CHILDREN, dtype=np.int64)

    # ------------------------------------------------------------- single positions
    def moves(self, position: tuple[int, int, int]) -> list[tuple[int, int]]:
        """The forward generator's real moves of the player to move (empty: a pass)."""
        o_cells, s_cells, side = position
        mine, theirs = (o_cells, s_cells) if side == 0 else (s_cells, o_cells)
        g = self.geometry
        count = forward_moves(
            np.uint64(mine), np.uint64(theirs), g.shift, g.up, g.inside, g.neighbours,
            self._sources, self._targets,
        )  # fmt: skip
        return [(int(self._sources[i]), int(self._targets[i])) for i in range(count)]

    def result(self, position: tuple[int, int, int]) -> int:
        """The record outcome of a finished game for the player to move, 0 otherwise."""
        o_cells, s_cells, side = position
        g = self.geometry
        count = len(self.moves(position))
        o_spread = spread(np.uint64(o_cells), g.shift, g.up, g.inside)
        s_spread = spread(np.uint64(s_cells), g.shift, g.up, g.inside)
        return int(
            result_for_mover(
                np.uint64(o_cells), np.uint64(s_cells), side, o_spread, s_spread,
                self.needs_enemy, count, g.shift, g.up, g.inside, g.neighbours, self._sources,
                self._targets,
            )
        )  # fmt: skip

    def index(self, position: tuple[int, int, int]) -> int:
        """Index of the canonical image of a position."""
        o_cells, s_cells, side = position
        images = self.geometry.images
        s_images = np.array(
            [image_of(np.uint64(s_cells), g, images) for g in range(images.shape[0])],
            dtype=np.uint64,
        )
        entry = self.o_class[rank_of(np.uint64(o_cells), self.binom)]
        return int(
            index_from_entry(
                entry, s_images, side, self.geometry.full, self.classes, self.s_ranks,
                self.binom, self.rep_mask,
            )
        )  # fmt: skip

    def position(self, index: int) -> tuple[int, int, int]:
        """The placement an index stands for."""
        block, s_rank = divmod(index, self.s_ranks)
        side, cls = divmod(block, self.classes)
        o_cells = int(self.rep_mask[cls])
        free = [c for c in range(self.geometry.cells) if not o_cells >> c & 1]
        compact = _unrank(s_rank, self.k2, self.binom)
        s_cells = sum(1 << free[i] for i in range(len(free)) if compact >> i & 1)
        return o_cells, s_cells, side

    # ------------------------------------------------------------- the ranking
    def ranking_mismatch(self, meta: dict[str, Any]) -> str | None:
        """Why a store's ranking (the kernel's ``ranking_meta``) differs from this
        checker's, or ``None`` when they agree."""
        expected = {
            "cells": self.geometry.cells,
            "pieces": [self.k1, self.k2],
            "classes": self.classes,
            "s_ranks": self.s_ranks,
        }
        for key, value in expected.items():
            if key in meta and meta[key] != value:
                return f"{key} is {meta[key]!r}, the checker's ranking has {value!r}"
        if "symmetries" in meta:
            theirs = sorted(tuple(row) for row in meta["symmetries"])
            ours = sorted(tuple(int(c) for c in row) for row in self.geometry.perms)
            if theirs != ours:
                return "the symmetries differ"
        if "class_representatives" in meta and [int(r) for r in self.rep_rank] != list(
            meta["class_representatives"]
        ):
            return "the classes' representatives differ"
        return None

    # ------------------------------------------------------------- the check
    def chunk_blocks(self, target_indices: int = 1 << 22) -> int:
        """Blocks per chunk: about ``target_indices`` indices, at least two (one per core)."""
        return max(2, target_indices // max(self.s_ranks, 1))

    def check(
        self,
        records: np.ndarray,
        *,
        checkpoint: Path | None = None,
        identity: dict[str, Any] | None = None,
        progress: Progress | None = None,
        chunk_blocks: int | None = None,
        stop_after_chunks: int | None = None,
        max_seconds: float | None = None,
    ) -> EquationReport:
        """Check the equations at every index of ``records`` (uint16, one per index).

        ``checkpoint``: a JSON file of the chunks done and their totals, rewritten after
        each chunk; a rerun with the same ``identity`` (what the records are: a store's
        size, date and meta) and chunk size continues after the last chunk it holds.
        ``stop_after_chunks`` stops after that many chunks of this call (an interruption,
        for tests), ``max_seconds`` before the first chunk that starts later than that; the
        report then says how far the check got (``complete`` false). Ctrl-C stops after
        the chunk under way is recorded."""
        if records.shape != (self.size,):
            raise EquationCheckError(
                f"the records hold {records.size:,} indices; this space has {self.size:,}"
            )
        per_chunk = chunk_blocks or self.chunk_blocks()
        chunks = -(-self.blocks // per_chunk)
        state: dict[str, Any] = {
            "identity": identity or {},
            "chunk_blocks": per_chunk,
            "chunks": chunks,
            "chunks_done": 0,
            "counts": [0] * N_COUNTS,
            "seconds": 0.0,
            "sessions": 0,
            "inconsistent_examples": [],
        }
        resumed = _read_checkpoint(checkpoint, state)
        if resumed is not None:
            state = resumed
        state["sessions"] += 1
        g = self.geometry
        counts = np.zeros((per_chunk, N_COUNTS), dtype=np.int64)
        first_bad = np.zeros(per_chunk, dtype=np.int64)
        done_here = 0
        session_seconds = 0.0
        try:
            while state["chunks_done"] < chunks:
                if stop_after_chunks is not None and done_here >= stop_after_chunks:
                    break
                if max_seconds is not None and session_seconds >= max_seconds:
                    break
                started = time.perf_counter()
                first = state["chunks_done"] * per_chunk
                last = min(self.blocks, first + per_chunk)
                check_blocks(
                    first, last, records, self.k2, self.needs_enemy, self.classes, self.s_ranks,
                    g.full, g.shift, g.up, g.inside, g.neighbours, self.binom, g.images,
                    self.o_class, self.rep_mask, self.rep_rank, counts, first_bad,
                )  # fmt: skip
                used = last - first
                totals = counts[:used].sum(axis=0)
                state["counts"] = [int(a + b) for a, b in zip(state["counts"], totals, strict=True)]
                bad = [int(i) for i in first_bad[:used] if i >= 0]
                room = KEEP_BAD - len(state["inconsistent_examples"])
                state["inconsistent_examples"] += bad[: max(room, 0)]
                state["chunks_done"] += 1
                spent = time.perf_counter() - started
                state["seconds"] += spent
                session_seconds += spent
                done_here += 1
                _write_checkpoint(checkpoint, state)
                if progress is not None:
                    done = state["chunks_done"]
                    rate = done_here * per_chunk * self.s_ranks / max(session_seconds, 1e-9)
                    progress(
                        {
                            "chunks": f"{done}/{chunks}",
                            "indices": min(done * per_chunk, self.blocks) * self.s_ranks,
                            "of": self.size,
                            "inconsistent": state["counts"][K_INCONSISTENT],
                            "eta_s": round((chunks - done) * per_chunk * self.s_ranks / rate)
                            if rate
                            else None,
                        }
                    )
        except KeyboardInterrupt:
            done = min(state["chunks_done"] * per_chunk, self.blocks) * self.s_ranks
            sys.stderr.write(
                f"equations: interrupted after {state['chunks_done']} of {chunks} chunks "
                f"({done:,} of {self.size:,} indices); run again to continue\n"
            )
            raise
        return self._report(state)

    def _report(self, state: dict[str, Any]) -> EquationReport:
        done_blocks = min(state["chunks_done"] * state["chunk_blocks"], self.blocks)
        return EquationReport(
            counts=dict(zip(COUNT_NAMES, state["counts"], strict=True)),
            indices=self.size,
            indices_checked=done_blocks * self.s_ranks,
            chunks=state["chunks"],
            chunks_done=state["chunks_done"],
            seconds=state["seconds"],
            sessions=state["sessions"],
            inconsistent_examples=state["inconsistent_examples"],
        )


def _unrank(rank: int, size: int, binom: np.ndarray) -> int:
    """The set of ``size`` cells with colex rank ``rank`` (the greedy inverse of
    :func:`rank_of`)."""
    mask = 0
    for i in range(size, 0, -1):
        cell = i - 1
        while binom[cell + 1, i] <= rank:
            cell += 1
        rank -= int(binom[cell, i])
        mask |= 1 << cell
    return mask


def checkpoint_path(store: Path) -> Path:
    """Where the checker keeps its progress for a store file: beside it."""
    return store.with_name(store.name + ".equations.json")


def store_identity(path: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """What a checkpoint must match to be resumed: the store's size, date and meta."""
    stat = path.stat()
    digest = hashlib.sha256(json.dumps(meta, sort_keys=True, default=str).encode()).hexdigest()
    return {"path": str(path), "bytes": stat.st_size, "mtime_ns": stat.st_mtime_ns, "meta": digest}


def _read_checkpoint(path: Path | None, fresh: dict[str, Any]) -> dict[str, Any] | None:
    """The saved state when it belongs to the same records and chunking, else ``None``."""
    if path is None or not path.exists():
        return None
    try:
        saved = json.loads(path.read_text())
    except (OSError, ValueError):
        return None  # unreadable: start again (the file is rewritten after the first chunk)
    same = all(saved.get(k) == fresh[k] for k in ("identity", "chunk_blocks", "chunks"))
    return saved if same and len(saved.get("counts", [])) == N_COUNTS else None


def _write_checkpoint(path: Path | None, state: dict[str, Any]) -> None:
    if path is None:
        return
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(json.dumps(state, indent=1))
        os.replace(partial, path)
    except OSError as exc:
        raise EquationCheckError(f"cannot write the checkpoint {path}: {exc.strerror}") from None


def load_records(stored: Any, progress: Progress | None = None) -> np.ndarray:
    """Every record of an open :class:`solvers.store.PackedSolution` in one array (huge
    pages: the check looks children up at random over gigabytes), block by block."""
    from solvers.memory import require_memory, zeroed_array

    count = len(stored)
    require_memory(2 * count, f"the {count:,} records of {stored.path}")
    records = zeroed_array(count, np.uint16)
    for first, block in stored.iter_blocks():
        records[first : first + block.size] = block
        if progress is not None:
            progress({"phase": "load", "records": first + block.size, "of": count})
    return records
