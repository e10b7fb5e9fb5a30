"""What the ranked retrograde (:mod:`solvers.engine_sweep`) uses where a ranking leaves an
optional function out: records in the layout of :mod:`solvers.store` (docs/engine.md,
"Ranked retrograde"), and stubs that let the template compile on its own (an empty space).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.engine_defaults import final_remoteness as final_remoteness  # the searches' default
from solvers.kernel_table import I64
from solvers.store import DRAW, LOSS, OUTCOME_SHIFT, REMOTENESS_MASK, WIN

#: A rank that names no stored record: the position is evaluated whenever it is met.
TRANSIENT = -1
#: A rank that is outside the space (a tier not kept): the solve stops and says so.
OUTSIDE = -2


@njit(cache=True, inline="always")
def record_of(result: I64, remoteness: I64, state: np.ndarray, tables: object) -> I64:
    """The :mod:`solvers.store` record of a result (1 win, 0 draw, -1 loss for the mover)."""
    if result == 0:
        return np.int64(DRAW << OUTCOME_SHIFT)
    field = WIN if result > 0 else LOSS
    return np.int64(field << OUTCOME_SHIFT) | remoteness


@njit(cache=True, inline="always")
def record_value(record: I64) -> tuple[I64, I64]:
    """(result for the mover, remoteness) of a solved :mod:`solvers.store` record."""
    field = record >> OUTCOME_SHIFT
    if field == DRAW:
        return np.int64(0), np.int64(0)
    return (np.int64(1) if field == WIN else np.int64(-1)), record & REMOTENESS_MASK


@njit(cache=True, inline="always")
def record_mover(record: I64) -> I64:
    """The mover a record keeps, -1 where it keeps none (then the engine asks ``mover``)."""
    return np.int64(-1)


@njit(cache=True, inline="always")
def children_key(state: np.ndarray, tables: object) -> I64:
    """No position shares its stored children's fold with another (-1)."""
    return np.int64(-1)


# ------------------------------------------------------------------ the template's stubs
@njit(cache=True, inline="always")
def unplugged_rank(state: np.ndarray, tables: object) -> I64:
    return np.int64(OUTSIDE)


@njit(cache=True, inline="always")
def unplugged_unrank(index: I64, tables: object, state: np.ndarray) -> None:
    state[0] = np.uint64(index)
