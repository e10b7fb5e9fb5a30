"""Geometry of rectangular boards of square cells (Entropy, Super Nonnect, Domineering, ...).

Files ``a, b, c, ...`` run left to right and ranks ``1, 2, ...`` bottom to top, chess style.
Cell ``i`` is ``rank * width + file`` (so cell 0 is a1). Position strings list the ranks from
the top (``rank n`` first), rows separated by ``/``.

Symmetries (the dihedral group of the rectangle): 0 identity, 1 rotation by 90 degrees,
2 by 180, 3 by 270, 4 left-right mirror, 5 top-bottom mirror, 6 main-diagonal transpose,
7 anti-diagonal transpose. A non-square board keeps only 0, 2, 4 and 5
(:attr:`SquareBoard.symmetry_ids`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from cgt.errors import PositionError

#: Rook directions then bishop directions, as (file step, rank step).
ORTHOGONAL: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
DIAGONAL: tuple[tuple[int, int], ...] = ((1, 1), (-1, 1), (-1, -1), (1, -1))
KING_DIRECTIONS: tuple[tuple[int, int], ...] = ORTHOGONAL + DIAGONAL


class SquareBoard:
    """A ``width`` x ``height`` board. Use :func:`square_board` to get a shared instance."""

    def __init__(self, width: int, height: int) -> None:
        if width < 1 or height < 1:
            raise ValueError("a board needs at least one file and one rank")
        self.width, self.height = width, height
        self.size = width * height
        self.full_mask = (1 << self.size) - 1

        def step(i: int, df: int, dr: int) -> int | None:
            f, r = i % width + df, i // width + dr
            return r * width + f if 0 <= f < width and 0 <= r < height else None

        #: step[i][d]: the cell one step from i in KING_DIRECTIONS[d], or None off the board.
        self.step: list[list[int | None]] = [
            [step(i, df, dr) for df, dr in KING_DIRECTIONS] for i in range(self.size)
        ]
        self.orthogonal_neighbours = [tuple(j for j in s[:4] if j is not None) for s in self.step]
        self.king_neighbours = [tuple(j for j in s if j is not None) for s in self.step]
        self.orthogonal_mask = [sum(1 << j for j in nb) for nb in self.orthogonal_neighbours]
        self.king_mask = [sum(1 << j for j in nb) for nb in self.king_neighbours]
        #: rays[i][d]: cells from i outward in KING_DIRECTIONS[d], nearest first.
        self.rays: list[list[tuple[int, ...]]] = []
        for i in range(self.size):
            per_direction = []
            for d in range(8):
                ray = []
                j = self.step[i][d]
                while j is not None:
                    ray.append(j)
                    j = self.step[j][d]
                per_direction.append(tuple(ray))
            self.rays.append(per_direction)
        self.symmetry_ids: tuple[int, ...] = tuple(range(8)) if width == height else (0, 2, 4, 5)
        self.symmetries: dict[int, tuple[int, ...]] = {
            s: self._permutation(s) for s in self.symmetry_ids
        }

    def _image(self, f: int, r: int, symmetry: int) -> tuple[int, int]:
        w, h = self.width - 1, self.height - 1
        return {
            0: (f, r),
            1: (r, w - f),
            2: (w - f, h - r),
            3: (h - r, f),
            4: (w - f, r),
            5: (f, h - r),
            6: (r, f),
            7: (h - r, w - f),
        }[symmetry]

    def _permutation(self, symmetry: int) -> tuple[int, ...]:
        out = []
        for i in range(self.size):
            f, r = self._image(i % self.width, i // self.width, symmetry)
            out.append(r * self.width + f)
        return tuple(out)

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

    # ------------------------------------------------------------ names
    def cell_name(self, i: int) -> str:
        return f"{chr(ord('a') + i % self.width)}{i // self.width + 1}"

    def cell_by_name(self, name: str) -> int:
        name = name.strip().lower()
        if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
            raise PositionError(f"{name!r} is not a square name (file letter and rank, e.g. c3)")
        f, r = ord(name[0]) - ord("a"), int(name[1:]) - 1
        if not (0 <= f < self.width and 0 <= r < self.height):
            raise PositionError(f"square {name!r} is not on the {self.width}x{self.height} board")
        return r * self.width + f

    # ------------------------------------------------------------ notation
    def parse_cells(self, text: str, symbols: str) -> list[int]:
        """Board part of a position string (top rank first) into per-cell symbol indices."""
        rows = text.strip().split("/")
        if len(rows) != self.height:
            raise PositionError(f"expected {self.height} ranks separated by '/', got {len(rows)}")
        cells = [0] * self.size
        for k, row_text in enumerate(rows):
            if len(row_text) != self.width:
                raise PositionError(
                    f"rank {self.height - k} should have {self.width} cells, got {len(row_text)} ({row_text!r})"
                )
            rank = self.height - 1 - k
            for f, ch in enumerate(row_text):
                if ch not in symbols:
                    raise PositionError(f"unknown cell symbol {ch!r} (expected one of {symbols!r})")
                cells[rank * self.width + f] = symbols.index(ch)
        return cells

    def render_cells(self, cells: Sequence[int], symbols: str) -> str:
        return "/".join(
            "".join(symbols[cells[r * self.width + f]] for f in range(self.width))
            for r in reversed(range(self.height))
        )

    def describe(self, cells: Sequence[int], symbols: str) -> str:
        lines = [
            f"{r + 1} " + " ".join(symbols[cells[r * self.width + f]] for f in range(self.width))
            for r in reversed(range(self.height))
        ]
        lines.append("  " + " ".join(chr(ord("a") + f) for f in range(self.width)))
        return "\n".join(lines)

    def draw(
        self,
        ax: Any,
        facecolors: Sequence[str] | None = None,
        labels: Sequence[str] | None = None,
        stones: dict[int, str] | None = None,
        coordinates: bool = True,
        fontsize: float = 9,
    ) -> None:
        """Draw the board on a matplotlib Axes, a1 at the bottom left."""
        from matplotlib.patches import Circle, Rectangle

        for i in range(self.size):
            f, r = i % self.width, i // self.width
            face = facecolors[i] if facecolors is not None else "#f3e6c8"
            ax.add_patch(
                Rectangle((f, r), 1, 1, facecolor=face, edgecolor="#444444", linewidth=1.0)
            )
            if stones and i in stones:
                ax.add_patch(
                    Circle((f + 0.5, r + 0.5), 0.36, facecolor=stones[i], edgecolor="#222222")
                )
            if labels is not None and labels[i]:
                ax.text(f + 0.5, r + 0.5, labels[i], ha="center", va="center", fontsize=fontsize)
        if coordinates:
            for f in range(self.width):
                ax.text(
                    f + 0.5, -0.3, chr(ord("a") + f), ha="center", va="center", fontsize=fontsize
                )
            for r in range(self.height):
                ax.text(-0.3, r + 0.5, str(r + 1), ha="center", va="center", fontsize=fontsize)
        ax.set_xlim(-0.6, self.width + 0.1)
        ax.set_ylim(-0.6, self.height + 0.1)
        ax.set_aspect("equal")
        ax.axis("off")


@cache
def square_board(width: int, height: int) -> SquareBoard:
    """The shared board of that size."""
    return SquareBoard(width, height)
