"""Canonical values of Domineering boards, computed on bitmasks (the engine's fast road).

The generic :class:`cgt.algebra.values.ValueCalculator` reaches positions through the game
protocol (named tuples, symmetry images cell by cell); profiling 5x5 showed three quarters of
the time there and a quarter in the algebra. This module keeps the same theory -- a board is
the sum of its connected regions, each region is looked up by a symmetry-normalised key, a
region's value is ``{Left options | Right options}`` -- on plain integers:

* A board is ``(rows, cols, empty)`` with ``empty`` a bitmask of free cells, cell
  ``rank * cols + file`` (as :mod:`cgt.games.domineering`; which end is "up" does not matter
  here, because flipping top and bottom keeps every domino's direction).
* Regions are found by bit-parallel flood fill (a whole run of a row per step, by the carry of
  an addition) and cut to their bounding box. Boards with more rows than columns are computed
  as their transpose (value ``-G``), so that the long side lies along the rows.
* Keys: the four images that keep vertical dominoes vertical (identity, both mirrors, the
  half turn) give equal values; the four transposed images exchange the players, so they give
  the negative value (``G`` and ``-G``). A region is stored under the smallest packed image
  among those with no more rows than columns, with a flag saying whether the stored board is
  its transpose.
* Regions without a move for either player (single cells, or shapes on which no domino fits)
  are 0 and never enter the tables.

Everything is checked against the protocol road in ``tests/test_algebra_domineering_values.py``
on random boards.

The compiled road (:mod:`cgt.games.domineering_kernel`, numba) runs the same method, algebra
included, five to twenty times faster; :class:`DomineeringValues` hands boards to it unless told
not to (``compiled=False``, the readable road the tests compare it with). Its one cost is
bringing numba and the compiled code into the process (about half a second, half a minute
the first time after install, when numba compiles it), more than a small board's whole value
on this road, so by default (``compiled=None``) it is used for boards of
:data:`COMPILED_FROM_CELLS` free cells or more, and for every board once it is loaded.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache
from typing import Any

from cgt.algebra.game import ZERO_ID, add_id, canonical_id, negate_id, number_id
from cgt.errors import ParameterError, PositionError
from cgt.progress import Progress

MAX_CELLS = 62  # the compiled road's boards fit int64 bitmasks (as domineering_kernel.MAX_CELLS)
_SHAPE_BITS = 5  # rows and cols are packed in 5 bits each in a key
_MAX_SIDE = (1 << _SHAPE_BITS) - 1
_KEY_SHIFT = 2 * _SHAPE_BITS  # a board's free cells sit above its packed shape in a key


#: With ``compiled=None``, boards with at least this many free cells go to the compiled road
#: (a 4 x 5 board costs the readable road about as much as loading the compiled one).
COMPILED_FROM_CELLS = 20

_TABLE_BITS = 12
_PROGRESS_EVERY = 4096  # expansions between two progress reports on the readable road  # rows up to this width are mapped through tables of 2**width entries


class _ComputedRows:
    """Row images computed on demand, for rows too wide for a table (a 1 x 31 strip must not
    build a table of 2**31 entries)."""

    __slots__ = ("image",)

    def __init__(self, image: Callable[[int], int]) -> None:
        self.image = image

    def __getitem__(self, row: int) -> int:
        return self.image(row)


RowMap = tuple[int, ...] | _ComputedRows


def _row_map(
    width: int, step: Callable[[list[int], int], int], image: Callable[[int], int]
) -> RowMap:
    """``image`` on ``width``-bit rows: a tuple for narrow rows, else computed on demand.

    The tuple is filled by ``step(table, x)``, which builds entry ``x`` from entry ``x >> 1``
    (a few integer operations each), because a fresh process builds these tables during its
    first canonical form and building them cell by cell cost more than a 2 x 8 board's value.
    """
    if width > _TABLE_BITS:
        return _ComputedRows(image)
    table = [0] * (1 << width)
    for x in range(1, 1 << width):
        table[x] = step(table, x)
    return tuple(table)


@cache
def _reverse_table(width: int) -> RowMap:
    """``[x]``: the ``width``-bit row ``x`` read right to left (the left-right mirror)."""
    top = width - 1
    return _row_map(
        width,
        lambda table, x: (table[x >> 1] >> 1) | ((x & 1) << top),
        lambda x: int(format(x, f"0{width}b")[::-1], 2),
    )


@cache
def _spread_table(width: int, height: int) -> RowMap:
    """``[x]``: row ``x`` of a ``width``-wide board as column 0 of the transposed board.

    The transpose of a ``height`` x ``width`` board is ``width`` x ``height``; cell ``(r, c)``
    goes to ``(c, r)``, i.e. bit ``c`` of row 0 goes to bit ``c * height``.
    """
    return _row_map(
        width,
        lambda table, x: (table[x >> 1] << height) | (x & 1),
        lambda x: sum(1 << (c * height) for c in range(width) if x >> c & 1),
    )


Geometry = tuple[int, int, int, int, int]


@cache
def _geometry(rows: int, cols: int) -> Geometry:
    """``(full, row_mask, not_last_file, first_file, top_rank_shift)`` of a board shape."""
    full = (1 << (rows * cols)) - 1
    row_mask = (1 << cols) - 1
    last_file = sum(1 << (r * cols + cols - 1) for r in range(rows))
    first_file = sum(1 << (r * cols) for r in range(rows))
    return full, row_mask, full & ~last_file, first_file, (rows - 1) * cols


def normal_key(rows: int, cols: int, empty: int) -> tuple[int, bool]:
    """``(key, transposed)``: the smallest packed image of a board among its upright ones.

    A board's eight images are four of its own shape and four of the transposed shape. The key
    is taken among those with no more rows than columns (all eight when square), a choice that
    depends only on the set of images, so every image of a board gets the same key; a board
    with more rows than columns is transposed once instead of packing all eight images.
    ``transposed`` is True when the key's image is a transpose, whose value is the negative
    of the board's. Keys of boards of different shapes differ (the shape is in the low bits).
    """
    if rows < cols:
        return _upright_key(rows, cols, empty), False
    key_of_transpose = _upright_key(cols, rows, _transpose(rows, cols, empty))
    if rows > cols:
        return key_of_transpose, True
    key = _upright_key(rows, cols, empty)
    return (key, False) if key <= key_of_transpose else (key_of_transpose, True)


def _upright_key(height: int, width: int, packed: int) -> int:
    """The smallest packed image among the four that keep rows as rows (mirrors, half turn).

    The half turn reverses all ``height * width`` bits, done on the binary digits as a string;
    the vertical flip is the half turn of the left-right mirror, the only image built row by
    row. ``packed`` is not 0 (regions have cells).
    """
    reverse = _reverse_table(width)
    row_mask = (1 << width) - 1
    cells = height * width
    mirrored = 0
    for shift in range(0, cells, width):
        mirrored |= reverse[(packed >> shift) & row_mask] << shift
    half_turn = int(bin(packed)[:1:-1], 2) << (cells - packed.bit_length())
    flipped = int(bin(mirrored)[:1:-1], 2) << (cells - mirrored.bit_length())
    best = min(packed, mirrored, half_turn, flipped)
    return (best << _KEY_SHIFT) | (height << _SHAPE_BITS) | width


def _transpose(rows: int, cols: int, empty: int) -> int:
    """The free cells of the ``cols`` x ``rows`` transpose of a board."""
    spread = _spread_table(cols, rows)
    row_mask = (1 << cols) - 1
    packed = 0
    for r in range(rows):
        packed |= spread[(empty >> (r * cols)) & row_mask] << r
    return packed


def region_masks(rows: int, cols: int, empty: int) -> list[int]:
    """Masks of the connected regions of free cells where some domino fits.

    Regions where neither player can place a domino (single cells and the like) are 0 in any
    sum, so they are left out.
    """
    not_last_file = _geometry(rows, cols)[2]
    out = []
    remaining = empty
    while remaining:
        region = remaining & -remaining
        # rightward growth runs along a whole row at once: adding the region's cells to the
        # row's free cells carries through each run of free cells it touches; the last file is
        # left out of the addition so that a carry never runs on into the next row
        runs = remaining & not_last_file
        while True:
            grown = (
                region | (region << cols) | (region >> cols) | ((region >> 1) & not_last_file)
            ) & remaining
            grown |= ((runs + (grown & not_last_file)) ^ runs) & remaining
            if grown == region:
                break
            region = grown
        remaining &= ~region
        if region & (region >> cols) or region & (region >> 1) & not_last_file:
            out.append(region)
    return out


def crop(rows: int, cols: int, region: int) -> tuple[int, int, int]:
    """``(rows, cols, empty)`` of the bounding box of the free cells ``region``."""
    row_mask = (1 << cols) - 1
    low_rank = ((region & -region).bit_length() - 1) // cols
    height = (region.bit_length() - 1) // cols - low_rank + 1
    region >>= low_rank * cols
    files = 0
    for r in range(0, height * cols, cols):
        files |= region >> r
    files &= row_mask
    low_file = (files & -files).bit_length() - 1
    width = files.bit_length() - low_file
    if width == cols:
        return height, cols, region  # only whole ranks to cut: the rows keep their packing
    region >>= low_file
    narrow_mask = (1 << width) - 1
    packed = 0
    shift = 0
    for r in range(0, height * cols, cols):
        packed |= ((region >> r) & narrow_mask) << shift
        shift += width
    return height, width, packed


def _domino_packing(pairs: int, step: int) -> int:
    """Most disjoint dominoes along one axis: ``pairs`` marks the first cell of every domino
    that fits, the second cell being ``step`` bits higher. Taking the lowest domino first
    and dropping the two that overlap it is optimal on each line (a path)."""
    count = 0
    while pairs:
        low = pairs & -pairs  # the lowest domino of its line: none below it overlaps it
        pairs &= ~(low | (low << step))  # it and the one that would share its upper cell
        count += 1
    return count


def _note_on_stderr(text: str) -> None:
    """Long waits are announced on stderr (never stdout, which may carry JSON)."""
    print(f"cgt: {text}", file=sys.stderr, flush=True)


class DomineeringValues:
    """Canonical value ids of Domineering boards, sharing a table of regions between calls.

    ``raw`` maps a board exactly as met (shape and mask, packed) to its value id; ``region_table``
    maps a region's normal key to the value id of the image that key packs. ``expanded``
    counts regions whose options were generated (for benchmarks).

    ``compiled``: True sends every board that fits (up to 62 cells) to the compiled road,
    False none, None (the default) the large ones and, once it is loaded, all (see the module
    docstring).
    """

    def __init__(
        self,
        compiled: bool | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.raw: dict[int, int] = {}
        self.region_table: dict[int, int] = {}
        self._expanded = 0
        self.compiled = compiled
        #: Called now and then with counts (``expanded`` regions...) during long values.
        self.progress = progress
        self._kernel: Any = None  # a KernelValues once a board has gone to the compiled road

    @property
    def expanded(self) -> int:
        """Regions whose options were generated, on either road (for benchmarks)."""
        return self._expanded + (0 if self._kernel is None else self._kernel.expanded)

    def _use_compiled(self, rows: int, cols: int, empty: int) -> bool:
        if self.compiled is False or rows * cols > MAX_CELLS:
            return False
        if self.compiled is None and bin(empty).count("1") < COMPILED_FROM_CELLS:
            # loaded already? (looked up, not imported: importing it brings in numba)
            kernel = sys.modules.get("cgt.games.domineering_kernel")
            return kernel is not None and bool(kernel.is_loaded())
        return True

    @staticmethod
    def fits(rows: int, cols: int) -> bool:
        """True when the shape packs into this module's keys (sides up to 31)."""
        return 0 < rows <= _MAX_SIDE and 0 < cols <= _MAX_SIDE

    def value_id(self, rows: int, cols: int, empty: int) -> int:
        """Value id of the board ``rows`` x ``cols`` whose free cells are ``empty``."""
        if not self.fits(rows, cols):
            raise ParameterError(
                f"boards up to {_MAX_SIDE} x {_MAX_SIDE} only, got {rows} x {cols}"
            )
        if empty >> (rows * cols) or empty < 0:
            raise PositionError(f"free-cell mask {empty:#x} does not fit a {rows} x {cols} board")
        if self._use_compiled(rows, cols, empty):
            if self._kernel is None:
                from cgt.games import domineering_kernel

                domineering_kernel.load(note=_note_on_stderr)
                self._kernel = domineering_kernel.KernelValues(progress=self.progress)
            return int(self._kernel.value_id(rows, cols, empty))
        if rows > cols:
            # the same work on the transpose (value -G) runs along the longer side, where a
            # region's rows are filled in one step (see region_masks)
            return negate_id(self._board(cols, rows, _transpose(rows, cols, empty)))
        return self._board(rows, cols, empty)

    def _board(self, rows: int, cols: int, empty: int) -> int:
        """Value id of a board: the sum of its regions'; every board is remembered as met."""
        found = self.raw.get((empty << _KEY_SHIFT) | (rows << _SHAPE_BITS) | cols)
        if found is not None:
            return found
        return self._new_board(rows, cols, empty, _geometry(rows, cols))

    def _new_board(self, rows: int, cols: int, empty: int, geometry: Geometry) -> int:
        """A board missing from ``raw``: the sum of its regions' values.

        :func:`region_masks` and :func:`crop` written out in place, because this runs once
        for every new child of every expanded region, the engine's most frequent step.
        """
        shape = (rows << _SHAPE_BITS) | cols
        raw = self.raw
        not_last_file = geometry[2]
        value = -1  # no region yet
        runs = empty & not_last_file
        remaining = empty
        while remaining:
            region = remaining & -remaining
            while True:  # flood fill, as in region_masks (within ``empty``: regions are apart)
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
            if region == empty:
                # the board is one region, just missed in ``raw``: go to the region table
                _, row_mask, _, first_file, top_shift = geometry
                if (
                    empty & row_mask
                    and empty >> top_shift
                    and empty & first_file
                    and empty & (first_file << (cols - 1))
                ):  # touches all four sides: already cut
                    value = self._new_region(rows, cols, empty, geometry)
                else:
                    value = self._region(*crop(rows, cols, empty))
                break
            # the same region recurs beside many different other regions
            part_key = (region << _KEY_SHIFT) | shape
            part = raw.get(part_key)
            if part is None:
                part = self._region(*crop(rows, cols, region))
                raw[part_key] = part
            value = part if value < 0 else add_id(value, part)
        if value < 0:
            value = ZERO_ID
        raw[(empty << _KEY_SHIFT) | shape] = value
        return value

    def _region(self, rows: int, cols: int, empty: int) -> int:
        """Value id of a connected region cut to its bounding box."""
        found = self.raw.get((empty << _KEY_SHIFT) | (rows << _SHAPE_BITS) | cols)
        if found is not None:
            return found
        return self._new_region(rows, cols, empty, _geometry(rows, cols))

    def _new_region(self, rows: int, cols: int, empty: int, geometry: Geometry) -> int:
        """A region missing from ``raw``: look up its symmetry class, or expand its options."""
        shape = (rows << _SHAPE_BITS) | cols
        raw = self.raw
        key, transposed = normal_key(rows, cols, empty)
        found = self.region_table.get(key)
        if found is not None:
            value = negate_id(found) if transposed else found
            raw[(empty << _KEY_SHIFT) | shape] = value
            return value
        vertical = empty & (empty >> cols)  # lower cell of each vertical domino that fits
        horizontal = empty & (empty >> 1) & geometry[2]  # left cell of each horizontal one
        if not vertical or not horizontal:
            # Only one player can ever move here, and moving never gives the other a move:
            # the value is the integer count of the longest run of moves, the most dominoes
            # that fit at once (``{n|} = n + 1``). Those dominoes all lie along one axis, so
            # they pack greedily from one end of each line.
            value = number_id(_domino_packing(vertical, cols) - _domino_packing(horizontal, 1))
            self.region_table[key] = negate_id(value) if transposed else value
            raw[(empty << _KEY_SHIFT) | shape] = value
            return value
        self._expanded += 1
        if self.progress is not None and not self._expanded % _PROGRESS_EVERY:
            self.progress({"expanded": self._expanded, "regions": len(self.region_table)})
        left = []
        while vertical:
            low = vertical & -vertical
            vertical ^= low
            child = empty ^ (low | (low << cols))
            found = raw.get((child << _KEY_SHIFT) | shape)
            if found is None:
                found = self._new_board(rows, cols, child, geometry)
            left.append(found)
        right = []
        while horizontal:
            low = horizontal & -horizontal
            horizontal ^= low
            child = empty ^ (low | (low << 1))
            found = raw.get((child << _KEY_SHIFT) | shape)
            if found is None:
                found = self._new_board(rows, cols, child, geometry)
            right.append(found)
        value = canonical_id(left, right)
        self.region_table[key] = negate_id(value) if transposed else value
        raw[(empty << _KEY_SHIFT) | shape] = value
        return value
