"""Geometry of the hexhex board (a regular hexagon of hexagonal cells), shared by the hex games.

Cells are pointy-top hexagons in horizontal rows, so the board has a flat edge at the top and
the bottom (docs/rules.md, "Hexhex boards"). Cell ``i`` is numbered row by row from the top,
left to right; :attr:`HexBoard.coords` gives its axial coordinates ``(q, r)`` with ``r`` the row
(``-(n-1)`` at the top) and ``q`` increasing to the right. Positions use bitboards: bit ``i`` of
an int stands for cell ``i``.

The 12 symmetries of the board are numbered so that 0 is the identity, 1..5 are rotations by
60, 120, ... degrees, and 6 is the left-right mirror (the only symmetry LAG keeps, since its
players sit at the top and bottom edges); 7..11 are the mirror followed by a rotation.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from cgt.errors import PositionError

#: The six directions as axial steps: east, north-east, north-west, west, south-west, south-east.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
#: Index of the left-right mirror among the 12 symmetries.
MIRROR_LEFT_RIGHT = 6
#: Largest board side the games accept (397 cells). The games keep symmetry lookup tables
#: whose size grows with the square of the cell count (gigabytes past side 30), and no solver
#: gets anywhere near even side 6; side 12 still draws and plays fine.
MAX_SIZE = 12


class HexBoard:
    """Hexhex board of side ``n`` with ``3n(n-1)+1`` cells. Use :func:`hex_board` to get one."""

    def __init__(self, n: int) -> None:
        if n < 1:
            raise ValueError("a hexhex board needs size >= 1")
        self.n = n
        m = n - 1
        self.rows: list[list[int]] = []
        self.coords: list[tuple[int, int]] = []
        for r in range(-m, m + 1):
            row = []
            for q in range(max(-m, -m - r), min(m, m - r) + 1):
                row.append(len(self.coords))
                self.coords.append((q, r))
            self.rows.append(row)
        self.size = len(self.coords)
        self.index: dict[tuple[int, int], int] = {c: i for i, c in enumerate(self.coords)}
        self.full_mask = (1 << self.size) - 1
        #: neighbours[i][d]: the cell one step from i in direction d, or None off the board.
        self.step: list[list[int | None]] = [
            [self.index.get((q + dq, r + dr)) for dq, dr in DIRECTIONS] for q, r in self.coords
        ]
        self.neighbours: list[tuple[int, ...]] = [
            tuple(j for j in steps if j is not None) for steps in self.step
        ]
        self.neighbour_mask: list[int] = [sum(1 << j for j in nb) for nb in self.neighbours]
        #: rays[i][d]: the cells from i outward in direction d, nearest first (i excluded).
        self.rays: list[list[tuple[int, ...]]] = []
        for i in range(self.size):
            per_direction = []
            for d in range(6):
                ray = []
                j = self.step[i][d]
                while j is not None:
                    ray.append(j)
                    j = self.step[j][d]
                per_direction.append(tuple(ray))
            self.rays.append(per_direction)
        self.perimeter: tuple[int, ...] = tuple(
            i for i in range(self.size) if len(self.neighbours[i]) < 6
        )
        self.perimeter_mask = sum(1 << i for i in self.perimeter)
        self.symmetries: list[tuple[int, ...]] = [self._permutation(s) for s in range(12)]
        self.inverse_symmetries: list[tuple[int, ...]] = [_inverse(p) for p in self.symmetries]

    # ---------------------------------------------------------------- geometry
    def _image(self, q: int, r: int, symmetry: int) -> tuple[int, int]:
        x, y, z = q, r, -q - r  # cube coordinates
        if symmetry >= 6:
            x, y, z = z, y, x  # left-right mirror: (q, r) -> (-q-r, r)
        for _ in range(symmetry % 6):
            x, y, z = -y, -z, -x  # rotation by 60 degrees
        return x, y

    def _permutation(self, symmetry: int) -> tuple[int, ...]:
        return tuple(self.index[self._image(q, r, symmetry)] for q, r in self.coords)

    def lines(self) -> list[tuple[int, ...]]:
        """Every line: maximal straight run of cells along one of the three axes."""
        result = []
        for d in (0, 1, 5):  # E, NE, SE: one direction per axis
            back = (d + 3) % 6
            for i in range(self.size):
                if self.step[i][back] is None:
                    result.append((i, *self.rays[i][d]))
        return result

    def distance(self, a: int, b: int) -> int:
        (q1, r1), (q2, r2) = self.coords[a], self.coords[b]
        return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2

    def center(self, i: int) -> tuple[float, float]:
        """Centre of cell ``i`` in drawing units (unit hexagon radius, y upward)."""
        q, r = self.coords[i]
        return math.sqrt(3) * (q + r / 2), -1.5 * r

    def cell_name(self, i: int) -> str:
        """Name of a cell: row letter from the top (a, b, ...) and position in the row from 1."""
        for row_number, row in enumerate(self.rows):
            if i in row:
                return f"{chr(ord('a') + row_number)}{row.index(i) + 1}"
        raise IndexError(i)

    def cell_by_name(self, name: str) -> int:
        name = name.strip().lower()
        if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
            raise PositionError(f"{name!r} is not a cell name (row letter and number, e.g. c2)")
        row, col = ord(name[0]) - ord("a"), int(name[1:]) - 1
        if not 0 <= row < len(self.rows) or not 0 <= col < len(self.rows[row]):
            raise PositionError(f"cell {name!r} is not on the size-{self.n} board")
        return self.rows[row][col]

    # ----------------------------------------------------------- bitboards
    def transform_mask(self, mask: int, symmetry: int) -> int:
        perm = self.symmetries[symmetry]
        out = 0
        while mask:
            low = mask & -mask
            out |= 1 << perm[low.bit_length() - 1]
            mask ^= low
        return out

    @staticmethod
    def cells_of(mask: int) -> Iterator[int]:
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    # ------------------------------------------------------------ notation
    def parse_cells(self, text: str, symbols: str) -> list[int]:
        """Read the board part of a position string into per-cell indices into ``symbols``.

        ``symbols[0]`` is the empty cell (``.``). Rows go top to bottom separated by ``/``.
        """
        rows = text.strip().split("/")
        if len(rows) != len(self.rows):
            raise PositionError(
                f"expected {len(self.rows)} rows separated by '/' for a size-{self.n} board, got {len(rows)}"
            )
        cells: list[int] = []
        for k, (row_text, row) in enumerate(zip(rows, self.rows)):
            if len(row_text) != len(row):
                raise PositionError(
                    f"row {k + 1} should have {len(row)} cells, got {len(row_text)} ({row_text!r})"
                )
            for ch in row_text:
                if ch not in symbols:
                    raise PositionError(f"unknown cell symbol {ch!r} (expected one of {symbols!r})")
                cells.append(symbols.index(ch))
        return cells

    def render_cells(self, cells: Sequence[int], symbols: str) -> str:
        return "/".join("".join(symbols[cells[i]] for i in row) for row in self.rows)

    def describe(self, cells: Sequence[int], symbols: str) -> str:
        """Multi-line drawing with offset rows for the terminal, and beside each row the names
        of its cells (as moves name them: ``a1`` is the left end of the top row)."""
        width = max(len(r) for r in self.rows)
        name_width = max(len(self.cell_name(i)) for i in range(self.size)) + 1
        lines = []
        for row in self.rows:
            indent = width - len(row)
            drawing = " " * indent + " ".join(symbols[cells[i]] for i in row)
            names = " " * (indent * name_width // 2) + " ".join(
                self.cell_name(i).ljust(name_width - 1) for i in row
            )
            lines.append(f"{drawing:<{2 * width - 1}}    {names.rstrip()}")
        return "\n".join(lines)

    def draw(
        self,
        ax: Any,
        facecolors: Sequence[str] | None = None,
        labels: Sequence[str] | None = None,
        stones: dict[int, str] | None = None,
        edgecolor: str = "#444444",
        fontsize: float = 9,
    ) -> None:
        """Draw the board on a matplotlib Axes: real hexagons, optional fill colours per cell,
        text labels per cell and stones (``{cell: colour}``)."""
        from matplotlib.patches import Circle, RegularPolygon

        for i in range(self.size):
            x, y = self.center(i)
            face = facecolors[i] if facecolors is not None else "#f3e6c8"
            ax.add_patch(
                RegularPolygon(
                    (x, y),
                    numVertices=6,
                    radius=1.0,
                    orientation=0.0,
                    facecolor=face,
                    edgecolor=edgecolor,
                    linewidth=1.0,
                )
            )
            if stones and i in stones:
                colour = stones[i]
                ax.add_patch(
                    Circle((x, y), 0.62, facecolor=colour, edgecolor="#222222", linewidth=1.2)
                )
            if labels is not None and labels[i]:
                text_colour = (
                    "white"
                    if stones and stones.get(i) in ("black", "#000000", "#111111")
                    else "black"
                )
                ax.text(
                    x, y, labels[i], ha="center", va="center", fontsize=fontsize, color=text_colour
                )
        xs = [self.center(i)[0] for i in range(self.size)]
        ys = [self.center(i)[1] for i in range(self.size)]
        ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
        ax.set_ylim(min(ys) - 1.3, max(ys) + 1.3)
        ax.set_aspect("equal")
        ax.axis("off")


def _inverse(permutation: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(permutation)
    for i, image in enumerate(permutation):
        inverse[image] = i
    return tuple(inverse)


@cache
def hex_board(n: int) -> HexBoard:
    """The (shared, immutable) hexhex board of side ``n``."""
    return HexBoard(n)
