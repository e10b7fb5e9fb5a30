"""The rankings of the packed kernels' spaces in plain Python: which record of a stored
solution (:mod:`solvers.store`) holds a position's value.

Why not the kernels' own compiled ranking: answering one query from a fresh process must take
well under a second, and loading numba and its cached kernels takes about as long by itself,
while ranking one position and its few dozen children in Python takes microseconds. The
ranking is read from the stored solution's ``meta["ranking"]`` (written by the kernel's
``ranking_meta()``), so a file is read the way it was written; tests check these rankings
against the kernels' on random positions.
"""

from __future__ import annotations

from bisect import bisect_left
from math import comb
from typing import Any, Protocol

from cgt.errors import PositionError, unpack_position


class Ranking(Protocol):
    """Maps a game position to the index of its record."""

    def index(self, position: Any) -> int | None:
        """The record index of ``position``; None when the space keeps no record for it (a
        state whose value follows from its children, or a position outside the space)."""


def colex_rank(cells: list[int]) -> int:
    """Rank of a cell set (ascending cells) among the sets of its size: sum C(c_i, i + 1)."""
    return sum(comb(cell, i + 1) for i, cell in enumerate(cells))


def cells_of(mask: int) -> list[int]:
    """The cells of a bit set, ascending."""
    return [cell for cell in range(mask.bit_length()) if mask >> cell & 1]


class EntropyRanking:
    """:mod:`solvers.kernels.entropy`'s ranking: ``(side * classes + class) * s_ranks +
    S rank``, the class being that of the O set under the board's symmetries (classes
    numbered by their representatives' colex ranks, ascending) and the S rank the smallest
    colex rank, among the cells the representative leaves free, of the S sets that the
    symmetries taking the O set to its representative make of it."""

    def __init__(self, ranking: dict[str, Any]) -> None:
        self.cells = int(ranking["cells"])
        self.k1, self.k2 = (int(k) for k in ranking["pieces"])
        self.classes = int(ranking["classes"])
        self.s_ranks = int(ranking["s_ranks"])
        self.symmetries: list[list[int]] = [list(map(int, p)) for p in ranking["symmetries"]]
        self.representatives: list[int] = list(map(int, ranking["class_representatives"]))

    def _image(self, mask: int, symmetry: list[int]) -> int:
        out = 0
        for cell in cells_of(mask):
            out |= 1 << symmetry[cell]
        return out

    def index(self, position: Any) -> int | None:
        o_cells, s_cells, side = unpack_position(
            position, 3, "an Entropy position is (O, S, player)"
        )
        if (o_cells.bit_count(), s_cells.bit_count()) != (self.k1, self.k2) or (
            o_cells | s_cells
        ) >> self.cells:
            return None  # another piece count or board: another space
        images = [(colex_rank(cells_of(self._image(o_cells, g))), g) for g in self.symmetries]
        best = min(rank for rank, _ in images)
        cls = bisect_left(self.representatives, best)
        if cls == len(self.representatives) or self.representatives[cls] != best:
            raise PositionError(f"O set of {position!r} has no class in the stored ranking")
        representative = self.representatives[cls]
        o_image = next(self._image(o_cells, g) for rank, g in images if rank == representative)
        free = [cell for cell in range(self.cells) if not o_image >> cell & 1]
        place = {cell: j for j, cell in enumerate(free)}  # cell -> its position among free
        s_rank = min(
            colex_rank(sorted(place[cell] for cell in cells_of(self._image(s_cells, g))))
            for rank, g in images
            if rank == representative
        )
        return (side * self.classes + cls) * self.s_ranks + s_rank


class InterleaveRanking:
    """:mod:`solvers.kernels.interleave`'s ranking: a placement's rank has the base-3 digit
    of each free cell (0 empty, 1 red, 2 black), least significant first; under
    ``turns=pass`` the index is ``2 * rank + side`` for the states without a pending pass,
    under ``turns=loser`` it is the rank."""

    def __init__(self, ranking: dict[str, Any]) -> None:
        self.cells = int(ranking["cells"])
        self.free_cells: list[int] = list(map(int, ranking["free_cells"]))
        self.fixed_red, self.fixed_black = (int(f) for f in ranking["fixed"])
        self.states = int(ranking["states"])

    def index(self, position: Any) -> int | None:
        red, black, mover, passes = unpack_position(
            position, 4, "an Interleave position is (red, black, to_move, passes)"
        )
        if red & self.fixed_red != self.fixed_red or black & self.fixed_black != self.fixed_black:
            return None  # not above the solved root's stones
        if passes:
            return None  # a pending pass: the value follows from the children
        rank = 0
        power = 1
        for cell in self.free_cells:
            if red >> cell & 1:
                rank += power
            elif black >> cell & 1:
                rank += 2 * power
            power *= 3
        return rank if self.states == 1 else 2 * rank + mover


SCHEMES: dict[str, type[EntropyRanking] | type[InterleaveRanking]] = {
    "entropy": EntropyRanking,
    "interleave": InterleaveRanking,
}


def ranking_from_meta(ranking: dict[str, Any]) -> Ranking:
    """The ranking described by a stored solution's ``meta["ranking"]``."""
    scheme = ranking.get("scheme")
    if scheme not in SCHEMES:
        raise PositionError(f"unknown ranking scheme {scheme!r} in a stored solution")
    return SCHEMES[str(scheme)](ranking)
