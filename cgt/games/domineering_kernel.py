"""Compiled canonical values of Domineering boards (numba): the engine's fastest road.

The same theory as :mod:`cgt.games.domineering_values` (the readable bitmask road, which
tests compare this one with): a board is the sum of its connected regions; a region is looked
up by a symmetry-normalised key, else its value is ``{Left options | Right options}`` reduced
to canonical form. Here the algebra runs compiled too, on a table of its own:

* Forms are interned in flat arrays (``options`` holds each form's Left then Right option
  ids); equal canonical forms get one id, so equality is ``==`` on ids, as in
  :mod:`cgt.algebra.game`.
* Numbers are float64, exact for every dyadic this road meets (denominators up to ``2**32``
  and sizes far below ``2**20``; :func:`number_form` refuses others). Sums and comparisons
  with numbers use number translation and number avoidance, as the Python algebra does.
* Comparisons and sums are cached in a direct-mapped table (a lost entry is recomputed);
  boards, regions and numbers in open-addressing tables. Tables start small; a full one
  raises ``MemoryError`` before writing anything, and the Python side
  (:class:`KernelValues`) enlarges it and calls again, finding the finished work by lookup.
  The same way, a call stops after :data:`SLICE_REGIONS` expansions (:class:`SliceDone`) so
  that Python can report progress and handle Ctrl-C, which compiled code cannot.

Results come back to Python as ids of :mod:`cgt.algebra.game`'s table, rebuilt option by option
(only the forms under the answer, a handful even for large boards).

Why the recursion is written the way it is: numba's on-disk cache breaks on recursive
functions called with argument types other than those they recurse with (numba issue 6061;
a cached call site that passes a literal such as ``0`` specialises the callee anew and the
reloaded code then segfaults). Every recursive call here passes ``int64`` variables or the
same arrays, never literals, and region and board values are one self-recursive function
(:func:`_value`, with a flag) instead of two mutually recursive ones.

Loading: the compiled code comes from numba's cache in ``__pycache__`` (compiled once, about
half a minute, on first use after install). :func:`load` brings it into the process, which
costs about a quarter of a second; callers that time values (the benchmark) call it first,
as importing a compiled extension module is done before timing one.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from cgt.algebra.budget import active_budget
from cgt.algebra.game import intern_canonical, table_size
from cgt.progress import Progress

I64 = Any
"""An int64 of the compiled code: Python ints from callers, numpy int64 inside (mypy cannot
tell them apart usefully, as in :mod:`solvers.kernel_table`)."""

#: Boards up to this many cells fit the kernel's int64 bitmasks (flood fill adds masks).
MAX_CELLS = 62

Tables = namedtuple(
    "Tables",
    [
        "counts",  # int64[8]: see the _COUNT_* indices
        "forms",  # int64[G, 4]: per form, the _START, _LEFT, _RIGHT and _NEGATIVE columns
        "number",  # float64[G]: the number a form is, NaN when it is not a number
        "options",  # int64[O]: Left options then Right options of each form, sorted
        "form_slots",  # int64[S]: id + 1 of the form interned in each slot, 0 empty
        "cache",  # int64[C, 4]: (g << 31 | h) + 1 of a comparison G <= H and its result,
        # then (g << 31 | h) + 1 of a sum G + H and its id
        "numbers",  # int64[M, 3]: map from (x * 2**32, 1) to the id of the number x
        "boards",  # int64[M, 3]: map from (free cells, rows * 32 + cols) to a board's value
        "regions",  # int64[M, 3]: map from a region's normal key and shape to its value
    ],
)

_COUNT_FORMS = 0
_COUNT_OPTIONS = 1
_COUNT_EXPANDED = 2
_COUNT_ZERO = 3  # id of the form 0
_COUNT_MAP = 4  # entries of map k at index 4 + k
_COUNT_STOP = 7  # a call stops (SliceDone) when this many regions are expanded; 0: never

#: Regions a call expands before it hands control back to Python (see SliceDone): a few
#: tenths of a second of work on 5 x 6, so Ctrl-C and progress reports get a turn.
SLICE_REGIONS = 20_000


class SliceDone(Exception):
    """Raised by the kernel after :data:`SLICE_REGIONS` expansions. Like a full table it
    leaves the tables consistent, so calling again goes on where the call stopped; between
    the two, Python handles Ctrl-C and reports progress (compiled code does neither)."""


_NUMBERS, _BOARDS, _REGIONS = 0, 1, 2
#: Columns of ``forms``: index of the first option in ``options``, counts of Left and Right
#: options, and id + 1 of the form's negative (0 while unknown).
_START, _LEFT, _RIGHT, _NEGATIVE = 0, 1, 2, 3
_NUMBER_SCALE = 2.0**32  # numbers are keyed by x * 2**32, exact for their denominators
_GOLDEN = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer


def new_tables(bits: int = 10) -> Tables:
    """Empty tables with ``2**bits`` slots for boards and caches, fewer for the rest.

    They start small and grow when one fills (:meth:`KernelValues._grow`) rather than being
    made large once: a hash table touches its pages at random, and the first touch of every
    page of a large ``np.zeros`` array costs a page fault (that made a 2 x 12 strip ten times
    slower than its work).
    """
    maps = 1 << bits
    caches = 1 << bits
    forms = 1 << max(bits - 3, 2)
    tables = Tables(
        counts=np.zeros(8, np.int64),
        forms=np.zeros((forms, 4), np.int64),
        number=np.zeros(forms, np.float64),
        options=np.zeros(8 * forms, np.int64),
        form_slots=np.zeros(2 * forms, np.int64),
        cache=np.zeros((caches, 4), np.int64),
        numbers=np.zeros((1 << 8, 3), np.int64),
        boards=np.zeros((maps, 3), np.int64),
        regions=np.zeros((maps >> 2, 3), np.int64),
    )
    return tables


# ------------------------------------------------------------------ hash tables
@njit(cache=True, inline="always")
def _mix(h: I64) -> I64:
    h = (h ^ (h >> 31)) * _GOLDEN
    return h ^ (h >> 29)


@njit(cache=True)
def _map_slot(table: np.ndarray, first: I64, second: I64) -> I64:
    """The slot of key ``(first, second)`` in a map: its own, or the empty one where it
    would go. A slot is a row ``(first, second, value)``: one cache line, one page."""
    mask = table.shape[0] - 1
    slot = _mix(first * _GOLDEN + second) & mask
    while True:
        found = table[slot, 1]
        if found == 0 or (found == second and table[slot, 0] == first):
            return slot
        slot = (slot + 1) & mask


@njit(cache=True)
def _map_get(table: np.ndarray, first: I64, second: I64) -> I64:
    """The value stored under ``(first, second)``, or -1."""
    slot = _map_slot(table, first, second)
    if table[slot, 1] == 0:
        return -1
    return table[slot, 2]


@njit(cache=True)
def _map_put(
    table: np.ndarray, counts: np.ndarray, which: I64, first: I64, second: I64, value: I64
) -> None:
    slot = _map_slot(table, first, second)
    if table[slot, 1] == 0:
        if 2 * (counts[_COUNT_MAP + which] + 1) > table.shape[0]:
            raise MemoryError("kernel map full")
        counts[_COUNT_MAP + which] += 1
        table[slot, 0] = first
        table[slot, 1] = second
    table[slot, 2] = value


@njit(cache=True)
def _rehash_map(old: np.ndarray, new: np.ndarray) -> None:
    for i in range(old.shape[0]):
        if old[i, 1] != 0:
            slot = _map_slot(new, old[i, 0], old[i, 1])
            new[slot, 0] = old[i, 0]
            new[slot, 1] = old[i, 1]
            new[slot, 2] = old[i, 2]


@njit(cache=True)
def _rehash_cache(old: np.ndarray, new: np.ndarray) -> None:
    mask = new.shape[0] - 1
    for i in range(old.shape[0]):
        for column in (0, 2):
            if old[i, column] != 0:
                slot = _mix(old[i, column] - 1) & mask
                new[slot, column] = old[i, column]
                new[slot, column + 1] = old[i, column + 1]


# ------------------------------------------------------------------ the form table
@njit(cache=True)
def _sorted_unique(values: np.ndarray, count: I64) -> np.ndarray:
    out = np.sort(values[:count])
    kept = 0
    for i in range(out.size):
        if kept == 0 or out[i] != out[kept - 1]:
            out[kept] = out[i]
            kept += 1
    return out[:kept].copy()


@njit(cache=True)
def simplest_number_between(lo: float, hi: float) -> float:
    """The simplest dyadic strictly between ``lo`` and ``hi`` (infinite: unbounded)."""
    if lo < 0.0 and hi > 0.0:
        return 0.0
    if lo >= 0.0:
        candidate = np.floor(lo) + 1.0
        if candidate < hi:
            return candidate
    if hi <= 0.0:
        candidate = np.ceil(hi) - 1.0
        if candidate > lo:
            return candidate
    denominator = 2.0
    while True:
        numerator = np.floor(lo * denominator) + 1.0
        if numerator / denominator < hi:
            return numerator / denominator
        denominator *= 2.0


@njit(cache=True)
def _number_span(t: Tables, left: np.ndarray, right: np.ndarray) -> tuple[bool, float, float]:
    """``(every option is a number, largest Left one, smallest Right one)``; the bounds are
    infinite when a side is empty, and meaningless when not every option is a number."""
    lo = -np.inf
    hi = np.inf
    for g in left:
        x = t.number[g]
        if x != x:
            return False, lo, hi
        lo = max(lo, x)
    for g in right:
        x = t.number[g]
        if x != x:
            return False, lo, hi
        hi = min(hi, x)
    return True, lo, hi


@njit(cache=True)
def _same_form(t: Tables, g: I64, left: np.ndarray, right: np.ndarray) -> bool:
    if t.forms[g, _LEFT] != left.size or t.forms[g, _RIGHT] != right.size:
        return False
    start = t.forms[g, _START]
    for i in range(left.size):
        if t.options[start + i] != left[i]:
            return False
    start += left.size
    for i in range(right.size):  # noqa: SIM110 (plain loops: compiled code, no generators)
        if t.options[start + i] != right[i]:
            return False
    return True


@njit(cache=True)
def _form_hash(left: np.ndarray, right: np.ndarray) -> I64:
    h = left.size * 1000003 + right.size
    for i in range(left.size):
        h = (h ^ left[i]) * _GOLDEN
    h = (h ^ 0x5BD1E995) * _GOLDEN
    for i in range(right.size):
        h = (h ^ right[i]) * _GOLDEN
    return _mix(h)


@njit(cache=True)
def intern(t: Tables, left: np.ndarray, right: np.ndarray) -> I64:
    """Id of the canonical form ``{left | right}`` (sorted, distinct option ids)."""
    slots = t.form_slots
    mask = slots.size - 1
    slot = _form_hash(left, right) & mask
    while slots[slot] != 0:
        g = slots[slot] - 1
        if _same_form(t, g, left, right):
            return g
        slot = (slot + 1) & mask
    g = t.counts[_COUNT_FORMS]
    start = t.counts[_COUNT_OPTIONS]
    if (
        g + 1 >= t.forms.shape[0]
        or 2 * (g + 1) > slots.size
        or start + left.size + right.size > t.options.size
    ):
        raise MemoryError("kernel form table full")
    t.forms[g, _START] = start
    t.forms[g, _LEFT] = left.size
    t.forms[g, _RIGHT] = right.size
    t.options[start : start + left.size] = left
    t.options[start + left.size : start + left.size + right.size] = right
    numbers, lo, hi = _number_span(t, left, right)
    # a canonical form whose options are numbers, each Left one below each Right one, is
    # the canonical form of the simplest number between them
    t.number[g] = simplest_number_between(lo, hi) if numbers and lo < hi else np.nan
    t.counts[_COUNT_FORMS] = g + 1
    t.counts[_COUNT_OPTIONS] = start + left.size + right.size
    slots[slot] = g + 1
    return g


@njit(cache=True)
def _rehash_forms(t: Tables, slots: np.ndarray) -> None:
    """Every form's id into ``slots``, an empty interning table larger than the old one."""
    mask = slots.size - 1
    for g in range(t.counts[_COUNT_FORMS]):
        start = t.forms[g, _START]
        middle = start + t.forms[g, _LEFT]
        end = middle + t.forms[g, _RIGHT]
        slot = _form_hash(t.options[start:middle], t.options[middle:end]) & mask
        while slots[slot] != 0:
            slot = (slot + 1) & mask
        slots[slot] = g + 1


@njit(cache=True)
def number_form(t: Tables, x: float) -> I64:
    """Id of the canonical form of the dyadic number ``x``."""
    scaled = x * _NUMBER_SCALE
    if np.floor(scaled) != scaled or abs(x) >= 2.0**20:
        raise ValueError("number out of the kernel's exact range")
    key = np.int64(scaled)
    found = _map_get(t.numbers, key, np.int64(1))
    if found >= 0:
        return found
    empty = np.empty(0, np.int64)
    one = np.empty(1, np.int64)
    if x == 0.0:
        g = intern(t, empty, empty)
    elif np.floor(x) == x:
        if x > 0.0:
            one[0] = number_form(t, x - 1.0)
            g = intern(t, one, empty)
        else:
            one[0] = number_form(t, x + 1.0)
            g = intern(t, empty, one)
    else:
        denominator = 2.0
        while np.floor(x * denominator) != x * denominator:
            denominator *= 2.0
        other = np.empty(1, np.int64)
        one[0] = number_form(t, x - 1.0 / denominator)
        other[0] = number_form(t, x + 1.0 / denominator)
        g = intern(t, one, other)
    _map_put(t.numbers, t.counts, _NUMBERS, key, np.int64(1), g)
    return g


# ------------------------------------------------------------------ the operations
@njit(cache=True)
def le(t: Tables, g: I64, h: I64) -> bool:
    """``G <= H``: no ``G^L >= H`` and no ``H^R <= G``."""
    if g == h:
        return True
    key = (g << 31) | h
    slot = _mix(key) & (t.cache.shape[0] - 1)
    if t.cache[slot, 0] == key + 1:
        return t.cache[slot, 1] == 1
    x, y = t.number[g], t.number[h]
    result = True
    if x == x and y == y:
        result = x <= y
    else:
        if y != y:
            # H^R <= G; for a number G this alone decides (number avoidance)
            start = t.forms[h, _START] + t.forms[h, _LEFT]
            for i in range(t.forms[h, _RIGHT]):
                if le(t, t.options[start + i], g):
                    result = False
                    break
        if result and x != x:
            start = t.forms[g, _START]
            for i in range(t.forms[g, _LEFT]):
                if le(t, h, t.options[start + i]):
                    result = False
                    break
    t.cache[slot, 0] = key + 1
    t.cache[slot, 1] = 1 if result else 0
    return result


@njit(cache=True)
def negate(t: Tables, g: I64) -> I64:
    """Id of ``-G``."""
    if t.forms[g, _NEGATIVE] != 0:
        return t.forms[g, _NEGATIVE] - 1
    x = t.number[g]
    if x == x:
        result = number_form(t, -x)
    else:
        start = t.forms[g, _START]
        nl, nr = t.forms[g, _LEFT], t.forms[g, _RIGHT]
        left = np.empty(nr, np.int64)
        right = np.empty(nl, np.int64)
        for i in range(nr):
            left[i] = negate(t, t.options[start + nl + i])
        for i in range(nl):
            right[i] = negate(t, t.options[start + i])
        result = intern(t, np.sort(left), np.sort(right))
    t.forms[g, _NEGATIVE] = result + 1
    t.forms[result, _NEGATIVE] = g + 1
    return result


@njit(cache=True)
def _undominated(t: Tables, options: np.ndarray, for_left: bool) -> np.ndarray:
    """The options no other one dominates (Left: none above; Right: none below), sorted."""
    if options.size < 2:
        return options
    kept = np.empty(options.size, np.int64)
    count = 0
    for a in options:
        dominated = False
        for i in range(count):
            if le(t, a, kept[i]) if for_left else le(t, kept[i], a):
                dominated = True
                break
        if not dominated:
            remaining = 0
            for i in range(count):
                b = kept[i]
                if not (le(t, b, a) if for_left else le(t, a, b)):
                    kept[remaining] = b
                    remaining += 1
            kept[remaining] = a
            count = remaining + 1
    return np.sort(kept[:count])


@njit(cache=True)
def _pending(t: Tables, x: I64, x_below: I64, left: np.ndarray, right: np.ndarray) -> bool:
    """``X <= G`` (``x_below`` 1) or ``G <= X`` (0) for ``G = {left | right}``, a form not
    yet canonical, so not in the table (one function for both: see the module docstring)."""
    start = t.forms[x, _START]
    nl = t.forms[x, _LEFT]
    if x_below == 1:  # X <= G: no G^R <= X, no X^L >= G
        for gr in right:
            if le(t, gr, x):
                return False
        flipped = np.int64(0)
        for i in range(nl):  # noqa: SIM110 (plain loops: compiled code, no generators)
            if _pending(t, t.options[start + i], flipped, left, right):
                return False
        return True
    for gl in left:  # G <= X: no G^L >= X, no X^R <= G
        if le(t, x, gl):
            return False
    flipped = np.int64(1)
    for i in range(t.forms[x, _RIGHT]):
        if _pending(t, t.options[start + nl + i], flipped, left, right):
            return False
    return True


@njit(cache=True)
def _replace(
    options: np.ndarray, index: I64, t: Tables, source: I64, offset: I64, count: I64
) -> np.ndarray:
    """``options`` without entry ``index``, with ``count`` options of form ``source`` (from its
    ``offset``-th) added, sorted and distinct."""
    merged = np.empty(options.size - 1 + count, np.int64)
    k = 0
    for i in range(options.size):
        if i != index:
            merged[k] = options[i]
            k += 1
    start = t.forms[source, _START] + offset
    for i in range(count):
        merged[k] = t.options[start + i]
        k += 1
    return _sorted_unique(merged, k)


@njit(cache=True)
def canonical(t: Tables, left_in: np.ndarray, right_in: np.ndarray) -> I64:
    """Id of the canonical form of ``{left_in | right_in}`` (canonical option ids, any order):
    delete dominated options, bypass reversible ones, until neither applies."""
    left = _sorted_unique(left_in, left_in.size)
    right = _sorted_unique(right_in, right_in.size)
    numbers, lo, hi = _number_span(t, left, right)
    if numbers and lo < hi:
        return number_form(t, simplest_number_between(lo, hi))
    below = np.int64(1)
    above = np.int64(0)
    while True:
        left = _undominated(t, left, True)
        right = _undominated(t, right, False)
        changed = False
        for i in range(left.size):
            gl = left[i]
            start = t.forms[gl, _START] + t.forms[gl, _LEFT]
            for j in range(t.forms[gl, _RIGHT]):
                glr = t.options[start + j]
                if _pending(t, glr, below, left, right):  # G^LR <= G: G^L reverses
                    left = _replace(left, i, t, glr, 0, t.forms[glr, _LEFT])
                    changed = True
                    break
            if changed:
                break
        if not changed:
            for i in range(right.size):
                gr = right[i]
                start = t.forms[gr, _START]
                for j in range(t.forms[gr, _LEFT]):
                    grl = t.options[start + j]
                    if _pending(t, grl, above, left, right):  # G^RL >= G: G^R reverses
                        right = _replace(
                            right, i, t, grl, t.forms[grl, _LEFT], t.forms[grl, _RIGHT]
                        )
                        changed = True
                        break
                if changed:
                    break
        if not changed:
            return intern(t, left, right)


@njit(cache=True)
def add(t: Tables, g: I64, h: I64) -> I64:
    """Id of ``G + H``."""
    if g > h:
        g, h = h, g
    if g == t.counts[_COUNT_ZERO]:
        return h
    key = (g << 31) | h
    slot = _mix(key) & (t.cache.shape[0] - 1)
    if t.cache[slot, 2] == key + 1:
        return t.cache[slot, 3]
    x, y = t.number[g], t.number[h]
    if x == x and y == y:
        result = number_form(t, x + y)
    elif x == x or y == y:
        # number translation: for G not a number and a number X, G + X is
        # {G^L + X | G^R + X}, already canonical (written here, not in a helper, because
        # the helper and add would recurse into each other: see the module docstring)
        other, number = (h, g) if x == x else (g, h)
        start = t.forms[other, _START]
        nl, nr = t.forms[other, _LEFT], t.forms[other, _RIGHT]
        left = np.empty(nl, np.int64)
        right = np.empty(nr, np.int64)
        for i in range(nl):
            left[i] = add(t, t.options[start + i], number)
        for i in range(nr):
            right[i] = add(t, t.options[start + nl + i], number)
        result = intern(t, _sorted_unique(left, nl), _sorted_unique(right, nr))
    else:
        gs, hs = t.forms[g, _START], t.forms[h, _START]
        gl, gr = t.forms[g, _LEFT], t.forms[g, _RIGHT]
        hl, hr = t.forms[h, _LEFT], t.forms[h, _RIGHT]
        left = np.empty(gl + hl, np.int64)
        right = np.empty(gr + hr, np.int64)
        for i in range(gl):
            left[i] = add(t, t.options[gs + i], h)
        for i in range(hl):
            left[gl + i] = add(t, g, t.options[hs + i])
        for i in range(gr):
            right[i] = add(t, t.options[gs + gl + i], h)
        for i in range(hr):
            right[gr + i] = add(t, g, t.options[hs + hl + i])
        result = canonical(t, left, right)
    t.cache[slot, 2] = key + 1
    t.cache[slot, 3] = result
    return result


# ------------------------------------------------------------------ Domineering boards
@njit(cache=True)
def _not_last_file(rows: I64, cols: I64) -> I64:
    mask = 0
    for r in range(rows):
        mask |= ((1 << (cols - 1)) - 1) << (r * cols)
    return mask


@njit(cache=True)
def _reverse_bits(row: I64, width: I64) -> I64:
    out = 0
    for c in range(width):
        if row >> c & 1:
            out |= 1 << (width - 1 - c)
    return out


@njit(cache=True)
def _upright_key(height: I64, width: I64, packed: I64) -> I64:
    """The smallest of the four images that keep rows as rows (mirrors and half turn)."""
    row_mask = (1 << width) - 1
    mirrored = 0
    flipped = 0
    half_turn = 0
    for r in range(height):
        row = (packed >> (r * width)) & row_mask
        reverse = _reverse_bits(row, width)
        mirrored |= reverse << (r * width)
        flipped |= row << ((height - 1 - r) * width)
        half_turn |= reverse << ((height - 1 - r) * width)
    return min(min(packed, mirrored), min(flipped, half_turn))


@njit(cache=True)
def _transpose(rows: I64, cols: I64, packed: I64) -> I64:
    out = 0
    for r in range(rows):
        for c in range(cols):
            if packed >> (r * cols + c) & 1:
                out |= 1 << (c * rows + r)
    return out


@njit(cache=True)
def _crop(rows: I64, cols: I64, region: I64) -> tuple[I64, I64, I64]:
    """``(rows, cols, cells)`` of the bounding box of ``region``."""
    low_rank = 64
    high_rank = -1
    low_file = 64
    high_file = -1
    for r in range(rows):
        row = (region >> (r * cols)) & ((1 << cols) - 1)
        if row:
            low_rank = min(low_rank, r)
            high_rank = r
            for c in range(cols):
                if row >> c & 1:
                    low_file = min(low_file, c)
                    high_file = max(high_file, c)
    height = high_rank - low_rank + 1
    width = high_file - low_file + 1
    packed = 0
    for r in range(height):
        row = (region >> ((r + low_rank) * cols + low_file)) & ((1 << width) - 1)
        packed |= row << (r * width)
    return height, width, packed


@njit(cache=True)
def _domino_packing(pairs: I64, step: I64) -> I64:
    """Most disjoint dominoes along one axis (greedy from the low end of each line)."""
    count = 0
    while pairs:
        low = pairs & -pairs
        pairs &= ~(low | (low << step))
        count += 1
    return count


@njit(cache=True)
def _value(t: Tables, rows: I64, cols: I64, empty: I64, is_region: I64) -> I64:
    """Value id of a board (``is_region`` 0: any free cells) or of a region (1: connected,
    cut to its bounding box, some domino fits)."""
    shape = rows * 32 + cols
    found = _map_get(t.boards, empty, shape)
    if found >= 0:
        return found
    not_last_file = _not_last_file(rows, cols)
    if is_region == 0:
        total = t.counts[_COUNT_ZERO]
        runs = empty & not_last_file
        remaining = empty
        as_region = np.int64(1)
        while remaining:
            region = remaining & -remaining
            while True:  # flood fill; rightward along a row's run by the carry of an addition
                grown = (
                    region | (region << cols) | (region >> cols) | ((region >> 1) & not_last_file)
                ) & empty
                grown |= ((runs + (grown & not_last_file)) ^ runs) & empty
                if grown == region:
                    break
                region = grown
            remaining ^= region
            if not (region & (region >> cols) or region & (region >> 1) & not_last_file):
                continue  # no domino fits: 0
            height, width, packed = _crop(rows, cols, region)
            total = add(t, total, _value(t, height, width, packed, as_region))
        _map_put(t.boards, t.counts, _BOARDS, empty, shape, total)
        return total
    # a region: its symmetry class, or its options
    key = _upright_key(rows, cols, empty)
    key_shape = shape
    transposed = False
    if rows >= cols:
        other = _upright_key(cols, rows, _transpose(rows, cols, empty))
        if rows > cols or other < key:
            key, key_shape, transposed = other, cols * 32 + rows, True
    found = _map_get(t.regions, key, key_shape)
    if found >= 0:
        value = negate(t, found) if transposed else found
        _map_put(t.boards, t.counts, _BOARDS, empty, shape, value)
        return value
    if 0 < t.counts[_COUNT_STOP] <= t.counts[_COUNT_EXPANDED]:
        raise SliceDone("kernel slice done")
    vertical = empty & (empty >> cols)
    horizontal = empty & (empty >> 1) & not_last_file
    vertical_moves = vertical != 0
    horizontal_moves = horizontal != 0
    if vertical == 0 or horizontal == 0:
        # one player only, and moving never gives the other a move: an integer
        value = number_form(
            t, float(_domino_packing(vertical, cols) - _domino_packing(horizontal, 1))
        )
    else:
        as_board = np.int64(0)
        left = np.empty(64, np.int64)
        count = 0
        while vertical:
            low = vertical & -vertical
            vertical ^= low
            left[count] = _value(t, rows, cols, empty ^ (low | (low << cols)), as_board)
            count += 1
        right = np.empty(64, np.int64)
        right_count = 0
        while horizontal:
            low = horizontal & -horizontal
            horizontal ^= low
            right[right_count] = _value(t, rows, cols, empty ^ (low | (low << 1)), as_board)
            right_count += 1
        value = canonical(t, left[:count], right[:right_count])
    _map_put(
        t.regions, t.counts, _REGIONS, key, key_shape, negate(t, value) if transposed else value
    )
    if vertical_moves and horizontal_moves:
        # counted once the region is stored: a retry after the tables grow finds it there
        t.counts[_COUNT_EXPANDED] += 1
    _map_put(t.boards, t.counts, _BOARDS, empty, shape, value)
    return value


@njit(cache=True)
def board_value(t: Tables, rows: I64, cols: I64, empty: I64) -> I64:
    """Kernel id of the value of a ``rows`` x ``cols`` board whose free cells are ``empty``."""
    if t.counts[_COUNT_FORMS] == 0:  # new tables: the form 0 first, every sum starts there
        t.counts[_COUNT_ZERO] = number_form(t, 0.0)
    as_board = np.int64(0)
    return _value(t, rows, cols, empty, as_board)


# ------------------------------------------------------------------ the Python side
class KernelValues:
    """Canonical value ids (of :mod:`cgt.algebra.game`'s table) of Domineering boards,
    computed by the compiled kernel, with tables shared between calls (``bits``: their
    starting size, see :func:`new_tables`)."""

    def __init__(
        self,
        bits: int = 10,
        progress: Progress | None = None,
        slice_regions: int = SLICE_REGIONS,
    ) -> None:
        self.tables = new_tables(bits)
        self._python_ids: dict[int, int] = {}
        self.progress = progress
        self.slice_regions = slice_regions

    @property
    def expanded(self) -> int:
        """Regions whose options were generated (for benchmarks)."""
        return int(self.tables.counts[_COUNT_EXPANDED])

    def value_id(self, rows: int, cols: int, empty: int) -> int:
        """Value id of the board (``rows * cols`` up to :data:`MAX_CELLS`; checked by the
        caller)."""
        return self.python_id(self.run(board_value, rows, cols, empty))

    def run(self, function: Callable[..., Any], *args: int) -> Any:
        """``function(tables, *args)`` for a kernel function, the tables growing as needed,
        in slices of :attr:`slice_regions` expansions (progress reported between them)."""
        while True:
            counts = self.tables.counts
            counts[_COUNT_STOP] = counts[_COUNT_EXPANDED] + self.slice_regions
            try:
                return function(self.tables, *args)
            except SliceDone:
                # back in Python: a pending Ctrl-C is raised here, with the tables kept
                if self.progress is not None:
                    self.progress(kernel_counts(self))
                self._check_budget(0)
            except MemoryError:
                # A table filled up. What was finished is all in the tables (nothing is
                # written before the check that fails), so they grow and the call starts
                # again, finding the finished work by lookup. Growing at most quadruples
                # them: the active budget is asked first (the 6x6 board grew to 20.5 GB).
                self._check_budget(3 * sum(table.nbytes for table in self.tables))
                self._grow()

    def _check_budget(self, extra_bytes: int) -> None:
        """Ask the active budget (:mod:`cgt.algebra.budget`) whether to go on, counting this
        road's forms with the Python table's."""
        budget = active_budget()
        if budget is not None:
            forms = table_size() + int(self.tables.counts[_COUNT_FORMS])
            budget.check(forms, extra_bytes, "enlarging the compiled road's tables")

    def _grow(self) -> None:
        """Enlarge every table at least a quarter full (ids are kept)."""
        t = self.tables
        counts = t.counts
        changes: dict[str, np.ndarray] = {}
        for name, which in (("numbers", _NUMBERS), ("boards", _BOARDS), ("regions", _REGIONS)):
            old = getattr(t, name)
            if 4 * (counts[_COUNT_MAP + which] + 1) >= old.shape[0]:
                new = np.zeros((4 * old.shape[0], 3), np.int64)
                _rehash_map(old, new)
                changes[name] = new
        boards = changes.get("boards", t.boards).shape[0]
        if t.cache.shape[0] < boards:  # the caches keep pace with the boards met
            changes["cache"] = np.zeros((boards, 4), np.int64)
            _rehash_cache(t.cache, changes["cache"])
        forms = int(counts[_COUNT_FORMS])
        if 4 * (forms + 1) >= t.forms.shape[0]:
            size = 4 * t.forms.shape[0]
            for name in ("forms", "number"):
                old = getattr(t, name)
                new = np.zeros((size, *old.shape[1:]), old.dtype)
                new[:forms] = old[:forms]
                changes[name] = new
        used = int(counts[_COUNT_OPTIONS])
        if 4 * used >= t.options.size or used + 4096 > t.options.size:
            new = np.zeros(4 * t.options.size, np.int64)
            new[:used] = t.options[:used]
            changes["options"] = new
        if 4 * (forms + 1) >= t.form_slots.size:
            size = 4 * t.form_slots.size
            while size < 4 * (forms + 1):
                size *= 2
            changes["form_slots"] = np.zeros(size, np.int64)
        self.tables = t._replace(**changes)
        if "form_slots" in changes:
            _rehash_forms(self.tables, self.tables.form_slots)

    def python_id(self, kernel_id: int) -> int:
        """The Python table's id of a kernel form, rebuilt from its options (each form once)."""
        t = self.tables
        forms, all_options, numbers = t.forms, t.options, t.number
        ids = self._python_ids
        stack = [kernel_id]
        while stack:
            g = stack[-1]
            if g in ids:
                stack.pop()
                continue
            start, nl, nr, _ = forms[g].tolist()
            options = all_options[start : start + nl + nr].tolist()
            missing = [o for o in options if o not in ids]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            x = numbers.item(g)
            ids[g] = intern_canonical(
                [ids[o] for o in options[:nl]],
                [ids[o] for o in options[nl:]],
                None if x != x else Fraction(*x.as_integer_ratio()),
            )
        return ids[kernel_id]


_loaded = False


def is_loaded() -> bool:
    """True once :func:`load` has run in this process."""
    return _loaded


def compiled_before() -> bool:
    """True when numba's on-disk cache holds this kernel (else :func:`load` compiles it)."""
    try:
        # where numba itself will look (its __pycache__ choice or a user-wide fallback)
        index = Path(getattr(board_value, "_cache")._cache_file._index_path)  # noqa: B009
    except AttributeError:  # another numba version: its default place and name
        line = board_value.py_func.__code__.co_firstlineno
        folder = Path(__file__).parent / "__pycache__"
        return (
            next(folder.glob(f"{Path(__file__).stem}.board_value-{line}.py*.nbi"), None) is not None
        )
    return index.exists()


def load(note: Callable[[str], None] | None = None) -> None:
    """Bring the compiled code into this process (from numba's cache; compiles on the first
    use after install, and then says so through ``note`` first, as that takes about half a
    minute), so that the first value is not charged with it: every compiled
    function is called once, the growth of the tables included. Nothing reaches the Python
    table of forms (:meth:`KernelValues.python_id` is not called): a later value is built
    there from scratch, as it would be without this."""
    global _loaded
    if _loaded:
        return
    if note is not None and not compiled_before():
        note("compiling the Domineering kernel (once; about 30 s, cached on disk afterwards)")
    values = KernelValues()
    values.run(board_value, 2, 8, (1 << 16) - 1)
    values.tables = values.tables._replace(form_slots=np.zeros(4, np.int64))
    values._grow()  # too small an interning table: rehashes the forms
    _loaded = True


def kernel_counts(values: KernelValues) -> dict[str, Any]:
    """Table sizes of a kernel run (for benchmarks and tests)."""
    counts = values.tables.counts
    return {
        "forms": int(counts[_COUNT_FORMS]),
        "expanded": int(counts[_COUNT_EXPANDED]),
        "boards": int(counts[_COUNT_MAP + _BOARDS]),
        "regions": int(counts[_COUNT_MAP + _REGIONS]),
    }
