"""Canonical values of Domineering boards, computed on bitmasks (the engine's fast road).

The generic :class:`cgt.algebra.values.ValueCalculator` reaches positions through the game
protocol (named tuples, symmetry images cell by cell); profiling 5x5 showed three quarters of
the time there and a quarter in the algebra. This module keeps the same theory -- a board is
the sum of its connected regions, each region is looked up by a symmetry-normalised key, a
region's value is ``{Left options | Right options}`` -- on plain integers:

* A board is ``(rows, cols, empty)`` with ``empty`` a bitmask of free cells, cell
  ``rank * cols + file`` (as :mod:`cgt.games.domineering`; which end is "up" does not matter
  here, because flipping top and bottom keeps every domino's direction).
* Regions are found by bit-parallel flood fill and cut to their bounding box.
* Keys: the four images that keep vertical dominoes vertical (identity, both mirrors, the
  half turn) give equal values; the four transposed images exchange the players, so they give
  the negative value (``G`` and ``-G``). A region is stored under the smallest of its eight
  packed images, with a flag saying whether the stored board is its transpose.
* Regions without a move for either player (single cells, or shapes on which no domino fits)
  are 0 and never enter the tables.

Everything is checked against the protocol road in ``tests/test_algebra_domineering_values.py``
on random boards.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from cgt.algebra.game import ZERO_ID, add_id, canonical_id, negate_id
from cgt.errors import ParameterError, PositionError

_SHAPE_BITS = 5  # rows and cols are packed in 5 bits each in a key
_MAX_SIDE = (1 << _SHAPE_BITS) - 1


_TABLE_BITS = 12  # rows up to this width are mapped through tables of 2**width entries


class _ComputedRows:
    """Row images computed on demand, for rows too wide for a table (a 1 x 31 strip must not
    build a table of 2**31 entries)."""

    __slots__ = ("image",)

    def __init__(self, image: Callable[[int], int]) -> None:
        self.image = image

    def __getitem__(self, row: int) -> int:
        return self.image(row)


RowMap = tuple[int, ...] | _ComputedRows


def _row_map(width: int, image: Callable[[int], int]) -> RowMap:
    """``image`` on ``width``-bit rows: a plain tuple (fast indexing) for narrow rows."""
    if width <= _TABLE_BITS:
        return tuple(image(x) for x in range(1 << width))
    return _ComputedRows(image)


@cache
def _reverse_table(width: int) -> RowMap:
    """``[x]``: the ``width``-bit row ``x`` read right to left (the left-right mirror)."""
    return _row_map(width, lambda x: int(format(x, f"0{width}b")[::-1], 2))


@cache
def _spread_table(width: int, height: int) -> RowMap:
    """``[x]``: row ``x`` of a ``width``-wide board as column 0 of the transposed board.

    The transpose of a ``height`` x ``width`` board is ``width`` x ``height``; cell ``(r, c)``
    goes to ``(c, r)``, i.e. bit ``c`` of row 0 goes to bit ``c * height``.
    """
    return _row_map(width, lambda x: sum(1 << (c * height) for c in range(width) if x >> c & 1))


@cache
def _geometry(rows: int, cols: int) -> tuple[int, int, int, int, int]:
    """``(full, row_mask, not_last_file, first_file, top_rank_shift)`` of a board shape."""
    full = (1 << (rows * cols)) - 1
    row_mask = (1 << cols) - 1
    last_file = sum(1 << (r * cols + cols - 1) for r in range(rows))
    first_file = sum(1 << (r * cols) for r in range(rows))
    return full, row_mask, full & ~last_file, first_file, (rows - 1) * cols


def _rows_of(rows: int, cols: int, empty: int) -> list[int]:
    row_mask = (1 << cols) - 1
    return [(empty >> (r * cols)) & row_mask for r in range(rows)]


def normal_key(rows: int, cols: int, empty: int) -> tuple[int, bool]:
    """``(key, transposed)``: the smallest packed image of a board among its eight.

    ``transposed`` is True when that image is a transpose, whose value is the negative of the
    board's. Keys of boards of different shapes differ (the shape is packed in the low bits).
    """
    row_list = _rows_of(rows, cols, empty)
    best = -1
    best_transposed = False
    for height, width, lines, transposed in (
        (rows, cols, row_list, False),
        (cols, rows, _transposed_rows(rows, cols, row_list), True),
    ):
        reverse = _reverse_table(width)
        # pack the rows bottom-up and top-down, plain and mirrored, in one pass
        up = down = up_mirrored = down_mirrored = 0
        top = (height - 1) * width
        for r, line in enumerate(lines):
            mirrored = reverse[line]
            shift, opposite = r * width, top - r * width
            up |= line << shift
            down |= line << opposite
            up_mirrored |= mirrored << shift
            down_mirrored |= mirrored << opposite
        packed = min(up, down, up_mirrored, down_mirrored)
        key = (packed << (2 * _SHAPE_BITS)) | (height << _SHAPE_BITS) | width
        if best < 0 or key < best:
            best, best_transposed = key, transposed
    return best, best_transposed


def _transposed_rows(rows: int, cols: int, row_list: list[int]) -> list[int]:
    """Rows of the ``cols`` x ``rows`` transpose of a board given by its rows."""
    spread = _spread_table(cols, rows)
    packed = 0
    for r, row in enumerate(row_list):
        packed |= spread[row] << r
    return _rows_of(cols, rows, packed)


def region_masks(rows: int, cols: int, empty: int) -> list[int]:
    """Masks of the connected regions of free cells where some domino fits.

    Regions where neither player can place a domino (single cells and the like) are 0 in any
    sum, so they are left out.
    """
    full, _, not_last_file, _, _ = _geometry(rows, cols)
    not_first_file = (not_last_file << 1) & full
    out = []
    remaining = empty
    while remaining:
        region = remaining & -remaining
        while True:
            grown = (
                region
                | (region << cols)
                | (region >> cols)
                | ((region << 1) & not_first_file)
                | ((region >> 1) & not_last_file)
            ) & remaining
            if grown == region:
                break
            region = grown
        remaining &= ~region
        if region & (region >> cols) or region & (region >> 1) & not_last_file:
            out.append(region)
    return out


def crop(rows: int, cols: int, region: int) -> tuple[int, int, int]:
    """``(rows, cols, empty)`` of the bounding box of the free cells ``region``."""
    _, row_mask, _, first_file, top_shift = _geometry(rows, cols)
    if (
        region & row_mask
        and region >> top_shift
        and region & first_file
        and region & (first_file << (cols - 1))
    ):
        return rows, cols, region  # touches all four sides: already cut
    lines = [(region >> (r * cols)) & row_mask for r in range(rows)]
    used = [r for r, line in enumerate(lines) if line]
    low_rank, high_rank = used[0], used[-1]
    files = 0
    for line in lines:
        files |= line
    low_file = (files & -files).bit_length() - 1
    width = files.bit_length() - low_file
    packed = 0
    for k, r in enumerate(range(low_rank, high_rank + 1)):
        packed |= (lines[r] >> low_file) << (k * width)
    return high_rank - low_rank + 1, width, packed


class DomineeringValues:
    """Canonical value ids of Domineering boards, sharing a table of regions between calls.

    ``raw`` maps a board exactly as met (shape and mask, packed) to its value id; ``region_table``
    maps a region's normal key to the value id of the image that key packs. ``expanded``
    counts regions whose options were generated (for benchmarks).
    """

    def __init__(self) -> None:
        self.raw: dict[int, int] = {}
        self.region_table: dict[int, int] = {}
        self.expanded = 0

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
        return self._board(rows, cols, empty)

    def _board(self, rows: int, cols: int, empty: int) -> int:
        """Value id of a board: the sum of its regions'; every board is remembered as met."""
        found = self.raw.get((empty << (2 * _SHAPE_BITS)) | (rows << _SHAPE_BITS) | cols)
        return found if found is not None else self._new_board(rows, cols, empty)

    def _new_board(self, rows: int, cols: int, empty: int) -> int:
        shape = (rows << _SHAPE_BITS) | cols
        raw = self.raw
        masks = region_masks(rows, cols, empty)
        if not masks:
            value = ZERO_ID
        elif len(masks) == 1 and masks[0] == empty:
            cut = crop(rows, cols, empty)
            # the board itself was just missed in ``raw``: go straight to the region table
            value = (
                self._new_region(*cut) if cut[0] == rows and cut[1] == cols else self._region(*cut)
            )
        else:
            value = ZERO_ID
            for mask in masks:
                # the same region recurs beside many different other regions
                part_key = (mask << (2 * _SHAPE_BITS)) | shape
                part = raw.get(part_key)
                if part is None:
                    part = self._region(*crop(rows, cols, mask))
                    raw[part_key] = part
                value = add_id(value, part)
        raw[(empty << (2 * _SHAPE_BITS)) | shape] = value
        return value

    def _region(self, rows: int, cols: int, empty: int) -> int:
        """Value id of a connected region cut to its bounding box."""
        found = self.raw.get((empty << (2 * _SHAPE_BITS)) | (rows << _SHAPE_BITS) | cols)
        return found if found is not None else self._new_region(rows, cols, empty)

    def _new_region(self, rows: int, cols: int, empty: int) -> int:
        """A region missing from ``raw``: look up its symmetry class, or expand its options."""
        shape = (rows << _SHAPE_BITS) | cols
        key, transposed = normal_key(rows, cols, empty)
        found = self.region_table.get(key)
        if found is not None:
            value = negate_id(found) if transposed else found
            self.raw[(empty << (2 * _SHAPE_BITS)) | shape] = value
            return value
        self.expanded += 1
        raw = self.raw
        not_last_file = _geometry(rows, cols)[2]
        left = []
        vertical = empty & (empty >> cols)  # lower cell of each vertical domino that fits
        while vertical:
            low = vertical & -vertical
            vertical ^= low
            child = empty & ~(low | (low << cols))
            found = raw.get((child << (2 * _SHAPE_BITS)) | shape)
            left.append(found if found is not None else self._new_board(rows, cols, child))
        right = []
        horizontal = empty & (empty >> 1) & not_last_file
        while horizontal:
            low = horizontal & -horizontal
            horizontal ^= low
            child = empty & ~(low | (low << 1))
            found = raw.get((child << (2 * _SHAPE_BITS)) | shape)
            right.append(found if found is not None else self._new_board(rows, cols, child))
        value = canonical_id(left, right)
        self.region_table[key] = negate_id(value) if transposed else value
        raw[(empty << (2 * _SHAPE_BITS)) | shape] = value
        return value
