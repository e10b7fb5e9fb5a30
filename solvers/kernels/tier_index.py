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
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from solvers.kernels.table import _U0, _U1, I64, U64, compiled, popcount


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


@compiled
def next_combination(x: U64) -> U64:
    """The next larger integer with as many set bits (Gosper's hack: colex order)."""
    low = x & (~x + _U1)
    ripple = x + low
    return (((ripple ^ x) >> np.uint64(2)) // low) | ripple
