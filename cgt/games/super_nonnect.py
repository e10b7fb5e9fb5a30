"""Super Nonnect: Super Tic-Tac-Toe's "the cell you play sends the opponent to that board",
with cutting instead of marking, and a board that must stay in one piece.

Rules (docs/rules.md, "Super Nonnect"): the board is an arrangement of mini-boards. Both
players have the same single move (the game is impartial): **cut** one uncut cell. The first
cut may be anywhere; every later cut must be in the mini-board *designated* by the previous
cut, the one whose place in the arrangement is the place of the cut cell inside its own
mini-board. The uncut cells must stay connected (cells are adjacent when they share an edge,
across mini-board borders too). **Decision** (docs/rules.md): a cut that disconnects them loses at
once, which is the same as being illegal, so such cuts are simply not generated.

* ``rule=original``: a player sent to a fully cut mini-board has no cut and loses.
* ``rule=revised`` (the document's fix): a cut that would send the opponent to a fully cut
  mini-board is forbidden. Either way a player with no legal cut loses (normal play).

**Decision** (empty board): cutting the last uncut cell leaves the empty set, which we count
as connected: the document forbids splitting the board "into two or more pieces", and the
empty set has no piece. It only matters under the original rule, where that cut is then legal
and the opponent, sent to a full mini-board, loses. (Under the revised rule that cut is
forbidden anyway.)

Shapes
------
``shape=square`` (parameters ``a`` rows, ``b`` columns; default 3 x 3, ``a*b >= 2``): an
``a`` x ``b`` arrangement of mini-boards of ``a`` x ``b`` cells, one grid of ``a*a`` ranks and
``b*b`` files. Mini-boards and places inside a mini-board are numbered row by row from the top
left (0 = top left, ``a*b - 1`` = bottom right); the cell at place ``k`` of its mini-board
designates mini-board ``k``. Cells are named chess-style over the whole board (files a, b, ...
left to right, ranks 1, 2, ... bottom to top), and the bit of cell ``i`` is its
:class:`cgt.boards.square.SquareBoard` index ``rank * width + file``.

``shape=hex7`` (``a`` and ``b`` must keep their defaults; setting them is a
:class:`ParameterError`): seven flowers (a hexagon and its six neighbours) arranged as a
flower, 49 hexagons in axial coordinates (docs/rules.md conventions, pointy-top, ``r`` the row
from the top). The centre flower is centred at (0, 0) and the flower in direction ``d`` at
the rotation of (2, 1) that contains the cell two steps from (0, 0) in direction ``d``: the
seven flowers then tile the hex grid without overlap (the 49 cells are one connected
region). Flowers and places are numbered 0 = centre (``C``), then 1..6 = ``E NE NW W SW SE``
(the order of :data:`cgt.boards.hexhex.DIRECTIONS`); the centre cell of a flower designates
the centre flower and the cell in direction ``d`` designates the flower in direction ``d``.
A cell is named ``FLOWER.place``: ``C.c`` is the centre of the centre flower, ``NE.SW`` the
south-west cell of the north-east flower. The region is chiral (the tiling by flowers turns
one way), so it keeps only its 6 rotations, not the 12 symmetries of a hexagon: a mirror
maps it onto its mirror image, a different set of cells.

Position strings: ``.`` uncut, ``x`` cut, rows top to bottom separated by ``/``, then a space
and the designated mini-board number (``-`` before the first cut), e.g. 2 x 2 at the start:
``..../..../..../.... -``. For ``hex7`` the nine rows have 2, 5, 7, 7, 7, 7, 7, 5, 2 cells
(listed left to right). The side to move is not written: it is the parity of the number of
cuts (First to move after an even number).

Positions are :class:`SuperNonnectPosition` ``(cut, designated, to_move)``: the bitmask of cut
cells, the designated mini-board (``-1`` for the free first cut) and the player to move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from cgt.boards.hexhex import DIRECTION_NAMES, DIRECTIONS
from cgt.boards.square import square_board
from cgt.errors import MoveError, ParameterError, PositionError
from cgt.protocol import Game, Param, PieceStyle
from cgt.registry import register

#: Names of the hex7 flowers and of the places inside a flower, by number.
FLOWER_NAMES: tuple[str, ...] = ("C", *DIRECTION_NAMES)
PLACE_NAMES: tuple[str, ...] = ("c", *DIRECTION_NAMES)


class SuperNonnectPosition(NamedTuple):
    """Cut cells (bitmask), designated mini-board (-1: free first cut), player to move."""

    cut: int
    designated: int
    to_move: int


@dataclass
class Geometry:
    """Everything the rules need to know about one board shape, as bitmasks.

    ``rows`` lists cell bits in display order (top row first, left to right). Connectivity is
    a flood fill by shifts: for each direction, ``(delta, sources)`` moves every cell of
    ``sources`` (the cells whose neighbour in that direction is on the board) by ``delta`` bits.
    """

    rows: list[list[int]]
    board_of: dict[int, int]  # cell bit -> mini-board it lies in
    target_of: dict[int, int]  # cell bit -> mini-board it designates
    board_masks: list[int]
    neighbour_masks: dict[int, int]
    shifts: list[tuple[int, int]]
    names: dict[int, str]
    centres: dict[int, tuple[float, float]]  # drawing coordinates
    #: symmetries: (cell permutation, mini-board permutation), identity first.
    symmetries: list[tuple[dict[int, int], list[int]]]

    @property
    def cells(self) -> list[int]:
        return [c for row in self.rows for c in row]

    @property
    def full_mask(self) -> int:
        return sum(1 << c for c in self.cells)


def _shifts_from(neighbour_of: dict[int, list[tuple[int, int | None]]]) -> list[tuple[int, int]]:
    """Group (direction -> neighbour) into per-direction (delta, source mask) pairs."""
    by_direction: dict[int, tuple[int, int]] = {}
    for cell, steps in neighbour_of.items():
        for d, other in steps:
            if other is None:
                continue
            delta = other - cell
            old_delta, mask = by_direction.get(d, (delta, 0))
            if old_delta != delta:
                raise AssertionError("direction with two different bit offsets")
            by_direction[d] = (delta, mask | (1 << cell))
    return [by_direction[d] for d in sorted(by_direction)]


def _keep_symmetries(
    candidates: list[dict[int, int]], board_of: dict[int, int], target_of: dict[int, int]
) -> list[tuple[dict[int, int], list[int]]]:
    """The candidates that map mini-boards onto mini-boards and commute with designation.

    A symmetry of the game must send the cell at place k of mini-board m to the cell at place
    s(k) of mini-board s(m), with the same map s on boards and places, so that "where the next
    cut must go" is transformed along with the board.
    """
    kept: list[tuple[dict[int, int], list[int]]] = []
    for perm in candidates:
        if any(perm == other for other, _ in kept):
            continue  # e.g. the top-bottom mirror of a board one cell high
        board_map: dict[int, int] = {}
        ok = True
        for cell, image in perm.items():
            for source, destination in (
                (board_of[cell], board_of[image]),
                (target_of[cell], target_of[image]),
            ):
                if board_map.setdefault(source, destination) != destination:
                    ok = False
        if ok:
            kept.append((perm, [board_map[m] for m in range(len(board_map))]))
    return kept


def square_geometry(a: int, b: int) -> Geometry:
    """The a x b arrangement of a x b mini-boards: ``a*a`` ranks by ``b*b`` files."""
    width, height = b * b, a * a
    board = square_board(width, height)
    board_of, target_of = {}, {}
    for cell in range(board.size):
        row_from_top, column = height - 1 - cell // width, cell % width
        board_of[cell] = (row_from_top // a) * b + column // b
        target_of[cell] = (row_from_top % a) * b + column % b
    rows = [[rank * width + f for f in range(width)] for rank in reversed(range(height))]
    board_masks = [0] * (a * b)
    for cell, m in board_of.items():
        board_masks[m] |= 1 << cell
    neighbour_of = {c: [(d, board.step[c][d]) for d in range(4)] for c in range(board.size)}
    candidates = [dict(enumerate(board.symmetries[s])) for s in board.symmetry_ids]
    return Geometry(
        rows=rows,
        board_of=board_of,
        target_of=target_of,
        board_masks=board_masks,
        neighbour_masks={c: board.orthogonal_mask[c] for c in range(board.size)},
        shifts=_shifts_from(neighbour_of),
        names={c: board.cell_name(c) for c in range(board.size)},
        centres={c: (c % width + 0.5, c // width + 0.5) for c in range(board.size)},
        symmetries=_keep_symmetries(candidates, board_of, target_of),
    )


def _cube_image(q: int, r: int, symmetry: int) -> tuple[int, int]:
    """The 12 isometries of the hex grid fixing (0, 0), numbered as in cgt.boards.hexhex."""
    x, y, z = q, r, -q - r
    if symmetry >= 6:
        x, y, z = z, y, x
    for _ in range(symmetry % 6):
        x, y, z = -y, -z, -x
    return x, y


def hex7_geometry() -> Geometry:
    """Seven flowers arranged as a flower (49 hexagons), see the module docstring."""
    flower_centres: list[tuple[int, int]] = [(0, 0)]
    rotations = [_cube_image(2, 1, s) for s in range(6)]
    for dq, dr in DIRECTIONS:  # the flower in direction d holds the cell 2 steps that way
        (centre,) = [
            (cq, cr)
            for cq, cr in rotations
            if any((cq + eq, cr + er) == (2 * dq, 2 * dr) for eq, er in ((0, 0), *DIRECTIONS))
        ]
        flower_centres.append(centre)
    coords: dict[tuple[int, int], tuple[int, int]] = {}  # axial -> (flower, place)
    for flower, (cq, cr) in enumerate(flower_centres):
        for place, (eq, er) in enumerate(((0, 0), *DIRECTIONS)):
            cell = (cq + eq, cr + er)
            if cell in coords:
                raise AssertionError(f"flowers overlap at {cell}")
            coords[cell] = (flower, place)
    q_min = min(q for q, _ in coords)
    r_min = min(r for _, r in coords)
    stride = max(q for q, _ in coords) - q_min + 1

    def bit(q: int, r: int) -> int:
        return (r - r_min) * stride + (q - q_min)

    by_bit = {bit(q, r): (q, r) for q, r in coords}
    rows = [
        sorted((bit(q, r) for q, r in coords if r == row), key=lambda c: by_bit[c][0])
        for row in range(r_min, max(r for _, r in coords) + 1)
    ]
    board_of = {c: coords[qr][0] for c, qr in by_bit.items()}
    target_of = {c: coords[qr][1] for c, qr in by_bit.items()}
    board_masks = [0] * 7
    for c, m in board_of.items():
        board_masks[m] |= 1 << c
    neighbour_of = {
        c: [
            (d, bit(q + dq, r + dr) if (q + dq, r + dr) in coords else None)
            for d, (dq, dr) in enumerate(DIRECTIONS)
        ]
        for c, (q, r) in by_bit.items()
    }
    candidates = []
    for s in range(12):
        images = {c: _cube_image(q, r, s) for c, (q, r) in by_bit.items()}
        if all(image in coords for image in images.values()):
            candidates.append({c: bit(*image) for c, image in images.items()})
    return Geometry(
        rows=rows,
        board_of=board_of,
        target_of=target_of,
        board_masks=board_masks,
        neighbour_masks={
            c: sum(1 << o for _, o in steps if o is not None) for c, steps in neighbour_of.items()
        },
        shifts=_shifts_from(neighbour_of),
        names={c: f"{FLOWER_NAMES[board_of[c]]}.{PLACE_NAMES[target_of[c]]}" for c in by_bit},
        centres={c: (math.sqrt(3) * (q + r / 2), -1.5 * r) for c, (q, r) in by_bit.items()},
        symmetries=_keep_symmetries(candidates, board_of, target_of),
    )


def bits_of(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@register
class SuperNonnect(Game[SuperNonnectPosition, int]):
    """Super Nonnect on a square arrangement of a x b mini-boards or on seven hex flowers."""

    name = "super-nonnect"
    summary = "cut cells of the designated mini-board; keep the board connected (impartial)"
    title = "Super Nonnect"
    claims_module = "proofs.super_nonnect"
    report_module = "cgtapp.report.games.super_nonnect"
    pieces = (PieceStyle("x", "cut cell", kind="cut"),)
    legend = (
        ("#f3e6c8", "uncut cell"),
        ("#555555", "cut cell"),
        ("#bfe3f5", "mini-board of the next cut"),
    )
    params = (
        Param(
            "shape",
            str,
            "square",
            "square (a x b mini-boards) or hex7 (seven flowers)",
            choices=("square", "hex7"),
        ),
        Param(
            "a",
            int,
            3,
            "rows of mini-boards, and rows inside a mini-board (square)",
            minimum=1,
            maximum=6,
        ),
        Param(
            "b",
            int,
            3,
            "columns of mini-boards, and columns inside one (square)",
            minimum=1,
            maximum=6,
        ),
        Param(
            "rule",
            str,
            "original",
            "original: sent to a full mini-board loses; revised: sending there is forbidden",
            choices=("original", "revised"),
        ),
    )
    variants: ClassVar[dict[str, dict[str, Any]]] = {
        "revised": {"rule": "revised"},
        "hex7": {"shape": "hex7"},
    }
    impartial = True

    shape: str
    a: int
    b: int
    rule: str

    def __init__(self, **parameters: Any) -> None:
        super().__init__(**parameters)
        self.geometry = (
            square_geometry(self.a, self.b) if self.shape == "square" else hex7_geometry()
        )
        g = self.geometry
        self.full_mask = g.full_mask
        self.board_count = len(g.board_masks)
        self.symmetry_count = len(g.symmetries)
        self._designation_bits = (self.board_count + 1).bit_length()
        self._by_name = {name.lower(): c for c, name in g.names.items()}

    def validate(self) -> None:
        if self.shape == "hex7" and (self.a != 3 or self.b != 3):
            raise ParameterError("super-nonnect: parameters a and b apply only to shape=square")
        if self.shape == "square" and self.a * self.b < 2:
            raise ParameterError(f"super-nonnect: a*b must be at least 2, got {self.a}x{self.b}")

    # ------------------------------------------------------------------ the rules
    def initial_position(self) -> SuperNonnectPosition:
        return SuperNonnectPosition(0, -1, 0)

    def to_move(self, position: SuperNonnectPosition) -> int:
        return position.to_move

    def connected(self, uncut: int) -> bool:
        """Whether the cells of ``uncut`` form one edge-connected piece (empty: yes)."""
        if uncut == 0:
            return True
        seen = uncut & -uncut
        shifts = self.geometry.shifts
        while True:
            grown = seen
            for delta, sources in shifts:
                grown |= (seen & sources) << delta if delta > 0 else (seen & sources) >> -delta
            grown &= uncut
            if grown == seen:
                return seen == uncut
            seen = grown

    def candidate_cells(self, position: SuperNonnectPosition) -> int:
        """Uncut cells where the next cut must go (designation only, before the other rules)."""
        uncut = self.full_mask & ~position.cut
        if position.designated < 0:
            return uncut
        return uncut & self.geometry.board_masks[position.designated]

    def moves(self, position: SuperNonnectPosition) -> list[int]:
        g = self.geometry
        uncut = self.full_mask & ~position.cut
        revised = self.rule == "revised"
        legal = []
        for cell in bits_of(self.candidate_cells(position)):
            rest = uncut & ~(1 << cell)
            # a cell with at most one uncut neighbour is a leaf: cutting it cannot disconnect
            neighbours = g.neighbour_masks[cell] & rest
            if neighbours & (neighbours - 1) and not self.connected(rest):
                continue
            if revised and not rest & g.board_masks[g.target_of[cell]]:
                continue  # would send the opponent to a fully cut mini-board
            legal.append(cell)
        return legal

    def play(self, position: SuperNonnectPosition, move: int) -> SuperNonnectPosition:
        if not self.candidate_cells(position) >> move & 1:
            raise MoveError(
                f"super-nonnect: cell {move} cannot be cut in {self.render(position)!r}"
            )
        return SuperNonnectPosition(
            position.cut | (1 << move), self.geometry.target_of[move], 1 - position.to_move
        )

    # ------------------------------------------------------------ identity and symmetry
    def key(self, position: SuperNonnectPosition) -> int:
        return (position.cut << self._designation_bits) | (position.designated + 1)

    def transform(self, position: SuperNonnectPosition, symmetry: int) -> SuperNonnectPosition:
        perm, board_map = self.geometry.symmetries[symmetry]
        cut = 0
        for cell in bits_of(position.cut):
            cut |= 1 << perm[cell]
        designated = board_map[position.designated] if position.designated >= 0 else -1
        return SuperNonnectPosition(cut, designated, position.to_move)

    def transform_move(self, position: SuperNonnectPosition, move: int, symmetry: int) -> int:
        return self.geometry.symmetries[symmetry][0][move]

    # ------------------------------------------------------------------ notation
    def cell_name(self, cell: int) -> str:
        return self.geometry.names[cell]

    def cell_by_name(self, text: str) -> int:
        """The cell called ``text`` (case-insensitive); :class:`MoveError` if there is none."""
        cell = self._by_name.get(text.strip().lower())
        if cell is None:
            example = "c3" if self.shape == "square" else "NE.SW"
            raise MoveError(f"super-nonnect: {text!r} is not a cell of this board (e.g. {example})")
        return cell

    def move_name(self, position: SuperNonnectPosition, move: int) -> str:
        return self.geometry.names[move]

    def parse_move(self, position: SuperNonnectPosition, text: str) -> int:
        cell = self.cell_by_name(text)
        if cell not in self.moves(position):
            raise MoveError(
                f"super-nonnect: {text.strip()} is not a legal cut in {self.render(position)!r}"
            )
        return cell

    def render(self, position: SuperNonnectPosition) -> str:
        board = "/".join(
            "".join("x" if position.cut >> c & 1 else "." for c in row)
            for row in self.geometry.rows
        )
        designation = "-" if position.designated < 0 else str(position.designated)
        return f"{board} {designation}"

    def parse(self, text: str) -> SuperNonnectPosition:
        g = self.geometry
        parts = text.split()
        if len(parts) != 2:
            raise PositionError(
                "super-nonnect position: expected the board, a space and the designated "
                f"mini-board (or '-'), got {text!r}"
            )
        board_text, designation_text = parts
        rows = board_text.split("/")
        if len(rows) != len(g.rows):
            raise PositionError(f"expected {len(g.rows)} rows separated by '/', got {len(rows)}")
        cut = 0
        for k, (row_text, row) in enumerate(zip(rows, g.rows)):
            if len(row_text) != len(row):
                raise PositionError(
                    f"row {k + 1} should have {len(row)} cells, got {len(row_text)} ({row_text!r})"
                )
            for ch, cell in zip(row_text, row):
                if ch not in ".x":
                    raise PositionError(
                        f"unknown cell symbol {ch!r} (expected '.' uncut or 'x' cut)"
                    )
                if ch == "x":
                    cut |= 1 << cell
        if designation_text == "-":
            designated = -1
        elif designation_text.isdigit() and int(designation_text) < self.board_count:
            designated = int(designation_text)
        else:
            raise PositionError(
                f"designated mini-board must be '-' or 0..{self.board_count - 1}, got {designation_text!r}"
            )
        cuts = bin(cut).count("1")
        if (designated < 0) != (cuts == 0):
            raise PositionError("the designation is '-' exactly when nothing has been cut yet")
        if not self.connected(self.full_mask & ~cut):
            raise PositionError("the uncut cells are not connected: no legal game reaches this")
        if designated >= 0:
            if not any(g.target_of[c] == designated for c in bits_of(cut)):
                raise PositionError(
                    f"no cut cell designates mini-board {designated}, so no last cut could have sent play there"
                )
            if self.rule == "revised" and not (self.full_mask & ~cut) & g.board_masks[designated]:
                raise PositionError(
                    f"mini-board {designated} is fully cut: the revised rule forbids sending play there"
                )
        return SuperNonnectPosition(cut, designated, cuts % 2)

    def describe(self, position: SuperNonnectPosition) -> str:
        g = self.geometry
        lines = []
        if self.shape == "square":
            width = self.b * self.b
            for k, row in enumerate(g.rows):
                if k and k % self.a == 0:
                    lines.append("")
                rank = len(g.rows) - k
                cells = ["x" if position.cut >> c & 1 else "." for c in row]
                groups = [" ".join(cells[j : j + self.b]) for j in range(0, width, self.b)]
                lines.append(f"{rank:>2} " + "   ".join(groups))
            files = [chr(ord("a") + f) for f in range(width)]
            lines.append(
                "   " + "   ".join(" ".join(files[j : j + self.b]) for j in range(0, width, self.b))
            )
        else:
            # the drawing, and beside each row its cells' names (as moves name them)
            left = min(round(x / math.sqrt(3) * 2) for x, _ in g.centres.values())
            drawn = []
            for row in g.rows:
                offset = round(g.centres[row[0]][0] / math.sqrt(3) * 2) - left
                drawn.append(" " * offset + " ".join(".x"[position.cut >> c & 1] for c in row))
            width = max(len(text) for text in drawn)
            for row, text in zip(g.rows, drawn):
                lines.append(f"{text:<{width}}    " + " ".join(g.names[c] for c in row))
        if position.designated < 0:
            where = "any mini-board (first cut)"
        elif self.shape == "square":
            board_row, board_column = divmod(position.designated, self.b)
            where = (
                f"mini-board {position.designated} (row {board_row + 1}, "
                f"column {board_column + 1} from the top left)"
            )
        else:
            where = f"flower {position.designated} ({FLOWER_NAMES[position.designated]})"
        lines.append(f"{self.players[position.to_move]} to cut in {where}")
        return "\n".join(line.rstrip() for line in lines)

    def move_target(self, position: SuperNonnectPosition, move: int) -> int:
        return move  # a move is the cell it cuts

    def draw(
        self,
        position: SuperNonnectPosition,
        ax: Any,
        cell_colours: dict[int, str] | None = None,
        cell_labels: dict[int, str] | None = None,
    ) -> None:
        """Cut cells dark, the designated mini-board tinted, mini-board borders thick;
        ``cell_colours`` / ``cell_labels`` (cell bit -> colour / text) are drawn over that."""
        g = self.geometry
        designated_mask = g.board_masks[position.designated] if position.designated >= 0 else 0
        colours = cell_colours or {}
        labels = cell_labels or {}

        def face(cell: int) -> str:
            if cell in colours:
                return colours[cell]
            if position.cut >> cell & 1:
                return "#555555"
            return "#bfe3f5" if designated_mask >> cell & 1 else "#f3e6c8"

        if self.shape == "square":
            width, height = self.b * self.b, self.a * self.a
            board = square_board(width, height)
            board.draw(
                ax,
                facecolors=[face(c) for c in range(board.size)],
                labels=[labels.get(c, "") for c in range(board.size)],
            )
            for k in range(0, width + 1, self.b):
                ax.plot([k, k], [0, height], color="black", linewidth=2.5)
            for k in range(0, height + 1, self.a):
                ax.plot([0, width], [k, k], color="black", linewidth=2.5)
            return
        from matplotlib.patches import RegularPolygon

        for cell, (x, y) in g.centres.items():
            ax.add_patch(
                RegularPolygon(
                    (x, y),
                    numVertices=6,
                    radius=1.0,
                    orientation=0.0,
                    facecolor=face(cell),
                    edgecolor="#444444",
                    linewidth=1.0,
                )
            )
            text = labels.get(cell, PLACE_NAMES[g.target_of[cell]])
            ax.text(x, y, text, ha="center", va="center", fontsize=6)
        for cell, (x, y) in g.centres.items():  # thick edges between different flowers
            for other in bits_of(g.neighbour_masks[cell]):
                if g.board_of[other] != g.board_of[cell] and cell < other:
                    ox, oy = g.centres[other]
                    mx, my = (x + ox) / 2, (y + oy) / 2
                    dx, dy = (oy - y) / math.sqrt(3) / 2 * 1.0, -(ox - x) / math.sqrt(3) / 2 * 1.0
                    ax.plot([mx - dx, mx + dx], [my - dy, my + dy], color="black", linewidth=2.5)
        xs = [x for x, _ in g.centres.values()]
        ys = [y for _, y in g.centres.values()]
        ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
        ax.set_ylim(min(ys) - 1.3, max(ys) + 1.3)
        ax.set_aspect("equal")
        ax.axis("off")
