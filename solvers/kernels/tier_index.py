"""The ranking of LAG's piece-count tiers, shared by the tier retrograde
(:mod:`solvers.kernels.lag_tiers`, which fills the tables) and the alpha-beta kernel
(:mod:`solvers.kernels.lag`, which probes them).

A tier ``(w, b)`` holds every placement of ``w`` White and ``b`` Black pieces on the board's
``cells`` cells, with either side to move. A position's index is
``offsets[w, b] + (colex rank of White's cells among all cells * C(cells - w, b) + colex
rank of Black's cells among the cells White leaves free) * 2 + side to move``, where
``offsets`` gives every kept tier's place in one flat array (-1: not kept). The colex rank
of a set ``c_1 < c_2 < ...`` is ``sum C(c_i, i)``: the number of sets of its size whose
largest differing element is smaller, which is also the order of the sets' bitmasks as
integers (so Gosper's hack, :func:`next_combination`, walks the ranks in order).

Colour symmetry: turning the board upside down (row ``r`` to row ``rows - 1 - r``, each cell
keeping its place in the row) and swapping the colours and the side to move maps LAG onto
itself (forward stays forward, the far rows swap, objects and the goals are the same for the
swapped player). So a tier ``(w, b)`` with ``w < b`` need not be kept: :func:`locate` finds
its positions in the kept tier ``(b, w)``, which halves the tables but for the tiers with
``w == b``.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from solvers.kernel_table import _U0, _U1, I64, U64, compiled, popcount


def binomial_table(largest: int = 64) -> np.ndarray:
    """``C(n, k)`` for ``0 <= k <= n <= largest`` (0 elsewhere), int64."""
    table = np.zeros((largest + 1, largest + 1), dtype=np.int64)
    for n in range(largest + 1):
        for k in range(n + 1):
            table[n, k] = comb(n, k)
    return table


@njit(cache=True, inline="always")
def colex_rank(cells: U64, binom: np.ndarray) -> I64:
    """Colex rank of the set of the bits of ``cells`` among the sets of its size."""
    rank = np.int64(0)
    i = 0
    mask = cells
    while mask != _U0:
        low = mask & (~mask + _U1)
        i += 1
        rank += binom[popcount(low - _U1), i]
        mask ^= low
    return rank


@compiled
def position_index(white: U64, black: U64, binom: np.ndarray, offsets: np.ndarray) -> I64:
    """Index of ``(white, black, White to move)`` in the flat array (add 1 for Black to
    move); -1 when its tier is not kept."""
    w = popcount(white)
    b = popcount(black)
    base = offsets[w, b]
    if base < 0:
        return -1
    cells = offsets.shape[0] - 1
    white_rank = colex_rank(white, binom)
    black_rank = np.int64(0)
    j = 0
    mask = black
    while mask != _U0:
        low = mask & (~mask + _U1)
        below = low - _U1
        j += 1
        black_rank += binom[popcount(below) - popcount(white & below), j]
        mask ^= low
    return base + (white_rank * binom[cells - w, b] + black_rank) * 2


@njit(cache=True, inline="always")
def map_cells(mask: U64, image: np.ndarray) -> U64:
    """The set of the bits of ``mask`` mapped through ``image`` (bit ``i`` to bit
    ``image[i]``): the board turned upside down, or a set of free-cell places deposited on
    the free cells."""
    out = _U0
    rest = mask
    while rest != _U0:
        low = rest & (~rest + _U1)
        out |= _U1 << np.uint64(image[popcount(low - _U1)])
        rest ^= low
    return out


@compiled
def locate(
    white: U64,
    black: U64,
    side: I64,
    binom: np.ndarray,
    offsets: np.ndarray,
    flip_cell: np.ndarray,
) -> tuple[I64, bool]:
    """(index, flipped): the record of ``(white, black, side)`` in the flat array, directly
    or, when its tier is not kept and ``flip_cell`` is not empty, as its colour-swapped
    image in the kept tier ``(b, w)`` (same value, ``flipped`` True); index -1 if neither."""
    index = position_index(white, black, binom, offsets)
    if index >= 0:
        return index + side, False
    if flip_cell.shape[0] == 0:
        return np.int64(-1), False
    index = position_index(map_cells(black, flip_cell), map_cells(white, flip_cell), binom, offsets)
    if index < 0:
        return np.int64(-1), False
    return index + 1 - side, True


def flip_table(rows: list[list[int]] | list[tuple[int, ...]]) -> np.ndarray:
    """``flip_cell`` of a board given by its rows of cells, top to bottom."""
    flip = np.zeros(sum(len(row) for row in rows), dtype=np.int64)
    for r, row in enumerate(rows):
        for place, cell in enumerate(row):
            flip[cell] = rows[len(rows) - 1 - r][place]
    return flip


@compiled
def next_combination(x: U64) -> U64:
    """The next larger integer with as many set bits (Gosper's hack: colex order)."""
    low = x & (~x + _U1)
    ripple = x + low
    return (((ripple ^ x) >> np.uint64(2)) // low) | ripple


@njit(cache=True, inline="always")
def colex_unrank(rank: I64, size: I64, cells: I64, binom: np.ndarray) -> U64:
    """The set of ``size`` of the cells ``0 .. cells - 1`` whose colex rank is ``rank``
    (the inverse of :func:`colex_rank`): its largest cell is the largest ``c`` with
    ``C(c, size) <= rank``, and so on down."""
    mask = _U0
    cell = cells - 1
    for i in range(size, 0, -1):
        while binom[cell, i] > rank:
            cell -= 1
        mask |= _U1 << np.uint64(cell)
        rank -= binom[cell, i]
        cell -= 1
    return mask
