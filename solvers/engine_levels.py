"""The engine's packed retrograde by levels, written once; :mod:`solvers.engine_build` compiles
a copy per game (the Python side is :mod:`solvers.levels`).

This module is a template, like :mod:`solvers.engine_search`: the block between the
``plug-in`` markers binds a game's ranked space (docs/engine.md, "A ranked space"), here stubs
(a space whose every index is a duplicate).

* ``unrank(index, tables, state)``: writes the position of ``index`` into ``state`` (uint64
  words, as many as the plug-in's ``state_words``, laid out as it likes);
* ``successor(state, tables) -> bool``: moves ``state`` on to the next index (the state
  ``unrank`` would write for it), where the plug-in can do that faster than ranking afresh;
  False when it cannot (optional: never);
* ``scan(index, state, tables, moves) -> int``: the position's number of legal moves (at
  least 1, a forced pass counting as one), or minus its ``value`` code: :data:`SCAN_WIN` /
  :data:`SCAN_LOSS` for a finished game the player to move has won / lost,
  :data:`SCAN_DRAW` for one drawn, :data:`SCAN_DUPLICATE` for an index that names no
  position of its own (the ranking's non-canonical indices); ``moves`` is room for
  ``max_moves`` int64;
* ``parents(index, child_loses, tables, value, out, count, scratch) -> int``: for the decided
  position ``index`` (lost for its mover when ``child_loses``), appends to ``out[count:]``
  ``parent * UPDATE_SCALE + weight`` for every un-move into a parent whose ``value`` is still
  :data:`UNRESOLVED`, and returns the new count. ``weight`` is 0 for "the parent wins" (the
  child loses), else how many of the parent's moves this un-move stands for (1 without
  symmetry; with symmetry classes, the order of the parent's stabiliser when the child has
  none, so that the weights into a parent add up to its number of moves). Reads ``value``
  only; ``scratch`` is ``scratch_words`` uint64 of working room.

The hooks are given ``inline="always"`` and must not allocate: the functions below run
without numba's reference counting (which would count references atomically, from every
thread, at each unpacking of ``tables``).

The retrograde (cyclic games: what is never decided is a draw)
------------------------------------------------------------
``value`` (uint16) per index: :data:`UNRESOLVED`, :data:`DUPLICATE`, :data:`TERMINAL_DRAW`, or
``WIN_BASE + 2 r`` (the player to move wins in ``r`` plies) / ``WIN_BASE + 2 r + 1`` (loses in
``r``); ``counter`` the moves of an undecided position not yet known to be good for the
opponent.

1. :func:`scan_indices`, parallel: every thread scans a contiguous range of indices.
2. By levels: :func:`generate_updates` turns the positions decided at remoteness ``r`` into
   updates, in parallel (each thread a slice of the frontier, its own part of ``out``,
   ``value`` only read); :func:`apply_updates`, serial, applies them: a parent is a win at
   ``r + 1`` from a losing child, a loss at ``r + 1`` when its counter reaches zero, and the
   parents decided form the next frontier. So the remoteness is exact (fastest win, slowest
   loss) and the values do not depend on the number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.kernel_table import I64

#: ``value`` codes below the decided ones.
UNRESOLVED = 0
DUPLICATE = 1
TERMINAL_DRAW = 2
#: First decided code: ``WIN_BASE + 2 r`` win in r plies, ``WIN_BASE + 2 r + 1`` loss in r.
WIN_BASE = 4
#: Largest remoteness a uint16 value can hold.
MAX_REMOTENESS = (65535 - WIN_BASE - 1) // 2
#: What ``scan`` returns for an index that is not a position, a finished game drawn, won
#: and lost by the player to move (minus the value code it gets).
SCAN_DUPLICATE = -DUPLICATE
SCAN_DRAW = -TERMINAL_DRAW
SCAN_WIN = -WIN_BASE
SCAN_LOSS = -(WIN_BASE + 1)
#: An update is ``parent * UPDATE_SCALE + weight`` (weight 0: the parent wins).
UPDATE_SCALE = 16

#: The hooks this template binds: required, optional (solvers.engine_build).
PLUG_IN_HOOKS = (("unrank", "scan", "parents"), ("successor",))

# isort: split
# <plug-in>
from solvers.engine_defaults import successor  # noqa: E402

NRT = False


@njit(cache=True, inline="always")
def unrank(index, tables, state):  # type: ignore[no-untyped-def]
    state[0] = index


@njit(cache=True, inline="always")
def scan(index, state, tables, moves):  # type: ignore[no-untyped-def]
    return SCAN_DUPLICATE


@njit(cache=True, inline="always")
def parents(index, child_loses, tables, value, out, count, scratch):  # type: ignore[no-untyped-def]
    return count


# </plug-in>


@njit(cache=True, parallel=True, _nrt=False)  # type: ignore[call-overload]
def scan_indices(
    first: I64,
    last: I64,
    tables: object,
    value: np.ndarray,
    counter: np.ndarray,
    states: np.ndarray,
    moves: np.ndarray,
) -> None:
    """The initial scan of indices ``first..last-1``: a finished game's value at remoteness
    0 (or a duplicate's mark), the number of moves elsewhere. Thread ``t`` takes the ``t``-th
    of ``states.shape[0]`` equal ranges, ranking its first index and stepping on by
    ``successor``; each writes only its own indices."""
    slices = states.shape[0]
    span = last - first
    for t in prange(slices):
        state = states[t]
        buffer = moves[t]
        begin = first + span * t // slices
        end = first + span * (t + 1) // slices
        ready = False
        for index in range(begin, end):
            if not (ready and successor(state, tables)):
                unrank(index, tables, state)
                ready = True
            code = scan(index, state, tables, buffer)
            if code > 0:
                counter[index] = code
            else:
                value[index] = -code


@njit(cache=True, parallel=True, _nrt=False)  # type: ignore[call-overload]
def generate_updates(
    frontier: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    level: I64,
    tables: object,
    value: np.ndarray,
    out: np.ndarray,
    written: np.ndarray,
    room: I64,
    scratch: np.ndarray,
) -> None:
    """Phase one of a propagation round, in parallel: slice ``t`` runs through
    ``frontier[starts[t]:ends[t]]`` (positions decided at remoteness ``level``) and writes
    their updates to its own part of ``out`` (``out.size // slices`` entries), stopping
    while at least ``room`` entries (the most one child can produce) are free. Only reads
    ``value``, so the slices cannot race; ``starts[t]`` and ``written[t]`` report how far
    each got."""
    slices = starts.size
    part = out.size // slices
    loss_code = WIN_BASE + 2 * level + 1
    for t in prange(slices):
        row = scratch[t]
        base = t * part
        count = base
        position = starts[t]
        end = ends[t]
        while position < end and count <= base + part - room:
            index = np.int64(frontier[position])
            position += 1
            count = parents(
                index, np.int64(value[index]) == loss_code, tables, value, out, count, row
            )
        starts[t] = position
        written[t] = count - base


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def apply_updates(
    out: np.ndarray,
    written: np.ndarray,
    level: I64,
    value: np.ndarray,
    counter: np.ndarray,
    decided: np.ndarray,
) -> I64:
    """Phase two, serial: apply the updates of every slice (a win decides the parent, a
    weight counts that many of its moves; the last one decides a loss) and write the
    parents decided now, at remoteness ``level + 1``, to ``decided``. Returns how many.
    The order of updates cannot change a value: a parent whose moves are all counted has
    no losing child, so within a level it is either won or lost, never both."""
    part = out.size // written.size
    win_code = WIN_BASE + 2 * (level + 1)
    count = 0
    for t in range(written.size):
        for i in range(t * part, t * part + written[t]):
            update = out[i]
            parent = update // UPDATE_SCALE
            weight = update - parent * UPDATE_SCALE
            if value[parent] != UNRESOLVED:
                continue
            if weight == 0:
                value[parent] = win_code
            else:
                left = np.int64(counter[parent]) - weight
                counter[parent] = left
                if left != 0:
                    continue
                value[parent] = win_code + 1
            decided[count] = parent
            count += 1
    return count
