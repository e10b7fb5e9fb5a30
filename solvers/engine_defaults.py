"""What the engine uses where a plug-in leaves an optional function out (docs/engine.md).

The four rules functions (``generate``, ``final``, ``play``, ``mover``) have no default: the
``unplugged_*`` stubs below only let the engine's template module (:mod:`solvers.engine_search`)
compile on its own, as a game with no move. The other hooks default to "no knowledge": the
key is the state itself, no symmetry, no ordering hint.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.kernel_table import I64, U64

_U0 = np.uint64(0)


@njit(cache=True, inline="always")
def key(state: np.ndarray, tables: object) -> tuple[U64, U64, I64, I64]:
    """(key word 0, key word 1, tag, symmetry) of a state of at most three words whose third
    word (if any) is below 32: the state itself, no symmetry."""
    k0 = state[0]
    k1 = state[1] if state.shape[0] > 1 else _U0
    tag = np.int64(state[2]) if state.shape[0] > 2 else np.int64(0)
    return k0, k1, tag, np.int64(0)


@njit(cache=True, inline="always")
def final_remoteness(state: np.ndarray, tables: object) -> I64:
    """Plies from a finished position to the end of its game: none, it is the end."""
    return np.int64(0)


@njit(cache=True, inline="always")
def move_to_key(code: I64, symmetry: I64, tables: object) -> I64:
    """A move's code in the frame of the table key (no symmetry: itself)."""
    return code


@njit(cache=True, inline="always")
def move_from_key(code: I64, symmetry: I64, tables: object) -> I64:
    """Inverse of :func:`move_to_key`."""
    return code


@njit(cache=True, inline="always")
def order(
    state: np.ndarray, tables: object, moves: np.ndarray, start: I64, count: I64, keys: np.ndarray
) -> I64:
    """No hint: every move's key 0 (the history heuristic alone orders them); no move is
    known to win at once."""
    for k in range(start, count):
        keys[k] = 0
    return -1


@njit(cache=True, inline="always")
def successor(state: np.ndarray, tables: object) -> bool:
    """The packed retrograde's step to the next index (:mod:`solvers.engine_levels`): none,
    every index is ranked afresh."""
    return False


# ------------------------------------------------------------------ the template's stubs
@njit(cache=True, inline="always")
def unplugged_generate(state: np.ndarray, tables: object, out: np.ndarray) -> I64:
    return 0


@njit(cache=True, inline="always")
def unplugged_final(state: np.ndarray, tables: object) -> I64:
    return 0


@njit(cache=True, inline="always")
def unplugged_play(state: np.ndarray, code: I64, tables: object, child: np.ndarray) -> None:
    child[:] = state


@njit(cache=True, inline="always")
def unplugged_mover(state: np.ndarray, tables: object) -> I64:
    return 0


@njit(cache=True, inline="always")
def unplugged_child_key(
    state: np.ndarray, code: I64, tables: object, scratch: np.ndarray
) -> tuple[U64, U64, I64, I64]:
    return key(state, tables)


#: What the templates bind where a plug-in goes (``child_key, final, generate, mover, play``).
UNPLUGGED = (
    unplugged_child_key,
    unplugged_final,
    unplugged_generate,
    unplugged_mover,
    unplugged_play,
)
