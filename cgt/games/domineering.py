"""Domineering with CGSuite's conventions: the reference partizan game of CGT.

Players take turns placing a domino on two empty orthogonally adjacent cells: Left places
them VERTICALLY, Right HORIZONTALLY; a player who cannot place one loses (normal play).
Its published values (Winning Ways and CGSuite: 2x2 = +-1, 2 rows x 3 columns = {2|-1/2}, a column of n
cells = floor(n/2)) test the CGT algebra, and its outcome classes test the solvers.

A position carries its own board shape, because :meth:`Domineering.components` cuts a board
into regions that each become a smaller board of their own (CGSuite's decomposition):
``DomineeringPosition(rows, cols, blocked, to_move)`` with ``blocked`` a bitmask of occupied
or missing cells (cell ``rank * cols + file`` as in :mod:`cgt.boards.square`, so bit 0 is the
bottom-left cell ``a1``) and ``to_move`` 0 for Left, 1 for Right.

Notation (CGSuite's grids): rows from the top separated by ``|``, ``.`` empty and ``#`` blocked,
then a space and ``L`` or ``R`` for the side to move (``L`` if left out): ``..#|... R``.
A move is the bitmask of the two cells it covers, named by them, lower or left cell first:
``a1-a2`` (vertical, Left) or ``a1-b1`` (horizontal, Right).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar, NamedTuple

from cgt.boards.square import SquareBoard, square_board
from cgt.errors import ParameterError, PositionError
from cgt.games.domineering_values import DomineeringValues
from cgt.progress import Progress
from cgt.protocol import Game, Param
from cgt.registry import register

#: Boards with more free cells than this are refused unless a time bound is given: the
#: largest boards valued so far (5x6, 4x8, 2x20; benchmarks/CANONICAL.md) have 30 to 40 cells,
#: and the 6x6 board (36) does not finish within the memory of a 24 GB machine.
HOPELESS_CELLS = 40

LEFT, RIGHT = 0, 1
#: Symmetries of :class:`SquareBoard` that keep vertical dominoes vertical: identity, rotation
#: by 180 degrees, left-right mirror, top-bottom mirror. Transposes turn vertical dominoes into
#: horizontal ones, so they exchange the players and are not symmetries of a position.
VERTICAL_PRESERVING_SYMMETRIES: tuple[int, ...] = (0, 2, 4, 5)
#: Side-to-move letters of the notation, indexed by player.
SIDE_LETTERS = "LR"
DEFAULT_SIDE = 4


class DomineeringPosition(NamedTuple):
    """A board shape, its blocked cells and the player to move (0 Left, 1 Right)."""

    rows: int
    cols: int
    blocked: int
    to_move: int


@cache
def domino_masks(rows: int, cols: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Masks of every vertical (Left's) and every horizontal (Right's) domino on the board."""
    vertical = tuple(
        (1 << i) | (1 << (i + cols)) for i in range(rows * cols) if i // cols < rows - 1
    )
    horizontal = tuple((1 << i) | (1 << (i + 1)) for i in range(rows * cols) if i % cols < cols - 1)
    return vertical, horizontal


def parse_board(text: str) -> tuple[int, int, int]:
    """``(rows, cols, blocked)`` from the board part of the notation (``..#|...``)."""
    row_texts = text.split("|")
    cols = len(row_texts[0])
    if cols == 0:
        raise PositionError(f"empty row in board {text!r}")
    if any(len(row) != cols for row in row_texts):
        raise PositionError(f"rows of board {text!r} have different lengths")
    rows = len(row_texts)
    blocked = 0
    for k, row in enumerate(row_texts):
        rank = rows - 1 - k  # the first row written is the top one
        for f, ch in enumerate(row):
            if ch == "#":
                blocked |= 1 << (rank * cols + f)
            elif ch != ".":
                raise PositionError(f"unknown cell symbol {ch!r} in {text!r} (expected '.' or '#')")
    return rows, cols, blocked


@register
class Domineering(Game[DomineeringPosition, int]):
    """Domineering on a ``rows`` x ``cols`` rectangle, or on the board given by ``board``."""

    name = "domineering"
    summary = "Domineering: Left places vertical dominoes, Right horizontal; last to place wins"
    title = "Domineering"
    params = (
        Param("rows", int, None, help="number of rows (default 4, or those of board)", minimum=1),
        Param(
            "cols", int, None, help="number of columns (default 4, or those of board)", minimum=1
        ),
        Param("board", str, None, help="starting position in CGSuite notation, e.g. '..#|... R'"),
    )
    players: ClassVar[tuple[str, str]] = ("Left", "Right")
    symmetry_count = len(VERTICAL_PRESERVING_SYMMETRIES)
    rows: int
    cols: int
    board: str | None

    def validate(self) -> None:
        if self.board is not None:
            start = self.parse(self.board)
            for name, given, actual in (
                ("rows", self.rows, start.rows),
                ("cols", self.cols, start.cols),
            ):
                if given is not None and given != actual:
                    raise ParameterError(
                        f"parameter {name}={given} disagrees with board {self.board!r} ({actual})"
                    )
        else:
            rows = self.rows if self.rows is not None else DEFAULT_SIDE
            cols = self.cols if self.cols is not None else DEFAULT_SIDE
            start = DomineeringPosition(rows, cols, 0, LEFT)
        self.start = start
        self.rows, self.cols = start.rows, start.cols
        self.parameters["rows"], self.parameters["cols"] = start.rows, start.cols

    # ----------------------------------------------------------------- the rules
    def initial_position(self) -> DomineeringPosition:
        return self.start

    def to_move(self, position: DomineeringPosition) -> int:
        return position.to_move

    def moves_for(self, position: DomineeringPosition, player: int) -> list[int]:
        """Dominoes ``player`` could place here, whoever is to move (CGT needs both sides)."""
        free = ~position.blocked
        return [
            mask
            for mask in domino_masks(position.rows, position.cols)[player]
            if mask & free == mask
        ]

    def moves(self, position: DomineeringPosition) -> Sequence[int]:
        return self.moves_for(position, position.to_move)

    def play(self, position: DomineeringPosition, move: int) -> DomineeringPosition:
        return position._replace(blocked=position.blocked | move, to_move=1 - position.to_move)

    def play_as(self, position: DomineeringPosition, player: int, move: int) -> DomineeringPosition:
        """The position after ``player`` places ``move``; the other player is then to move."""
        return position._replace(blocked=position.blocked | move, to_move=1 - player)

    # ------------------------------------------------------------ identity and symmetry
    def grid(self, position: DomineeringPosition) -> SquareBoard:
        return square_board(position.cols, position.rows)

    def transform(self, position: DomineeringPosition, symmetry: int) -> DomineeringPosition:
        board = self.grid(position)
        return position._replace(
            blocked=board.transform_mask(position.blocked, VERTICAL_PRESERVING_SYMMETRIES[symmetry])
        )

    def transform_move(self, position: DomineeringPosition, move: int, symmetry: int) -> int:
        return self.grid(position).transform_mask(move, VERTICAL_PRESERVING_SYMMETRIES[symmetry])

    # ------------------------------------------------------------- CGT support
    def with_to_move(self, position: DomineeringPosition, player: int) -> DomineeringPosition:
        return position._replace(to_move=player)

    def components(self, position: DomineeringPosition) -> list[DomineeringPosition]:
        """The regions of orthogonally connected empty cells, each cut to its bounding box.

        Cells of the box outside the region are blocked. A full board has no component (its
        value is 0, the empty sum). Every component keeps the side to move of ``position``.
        """
        board = self.grid(position)
        empty = board.full_mask & ~position.blocked
        out = []
        while empty:
            region = empty & -empty
            frontier = region
            while frontier:
                grown = 0
                for i in board.cells_of(frontier):
                    grown |= board.orthogonal_mask[i]
                frontier = grown & empty & ~region
                region |= frontier
            empty &= ~region
            out.append(self.crop(position, region))
        return out

    def value_shortcut(self, compiled: bool | None, progress: Progress | None) -> BitmaskValues:
        return BitmaskValues(DomineeringValues(compiled, progress))

    def value_out_of_reach(self, position: DomineeringPosition) -> str | None:
        free = position.rows * position.cols - bin(position.blocked).count("1")
        if free <= HOPELESS_CELLS:
            return None
        return (
            f"a Domineering board with {free} free cells will not finish (boards of more than "
            f"{HOPELESS_CELLS} free cells are out of reach)"
        )

    def crop(self, position: DomineeringPosition, region: int) -> DomineeringPosition:
        """The position on the bounding box of ``region``, whose other cells are blocked."""
        cols = position.cols
        cells = list(SquareBoard.cells_of(region))
        ranks = [i // cols for i in cells]
        files = [i % cols for i in cells]
        low_rank, low_file = min(ranks), min(files)
        new_rows, new_cols = max(ranks) - low_rank + 1, max(files) - low_file + 1
        kept = sum(1 << ((r - low_rank) * new_cols + f - low_file) for r, f in zip(ranks, files))
        full = (1 << (new_rows * new_cols)) - 1
        return DomineeringPosition(new_rows, new_cols, full & ~kept, position.to_move)

    # ---------------------------------------------------------------- notation
    def parse(self, text: str) -> DomineeringPosition:
        parts = text.split()
        if not parts or len(parts) > 2:
            raise PositionError(
                f"expected a board and an optional side to move (L or R), got {text!r}"
            )
        rows, cols, blocked = parse_board(parts[0])
        side = parts[1].upper() if len(parts) == 2 else "L"
        if side not in ("L", "R"):
            raise PositionError(f"side to move must be L or R, got {parts[1]!r}")
        return DomineeringPosition(rows, cols, blocked, SIDE_LETTERS.index(side))

    def render(self, position: DomineeringPosition) -> str:
        rows, cols, blocked, to_move = position
        board = "|".join(
            "".join("#" if blocked >> (rank * cols + f) & 1 else "." for f in range(cols))
            for rank in reversed(range(rows))
        )
        return f"{board} {SIDE_LETTERS[to_move]}"

    def move_name(self, position: DomineeringPosition, move: int) -> str:
        board = self.grid(position)
        low, high = board.cells_of(move)
        return f"{board.cell_name(low)}-{board.cell_name(high)}"

    def describe(self, position: DomineeringPosition) -> str:
        board = self.grid(position)
        cells = [position.blocked >> i & 1 for i in range(board.size)]
        return f"{board.describe(cells, '.#')}\n{self.players[position.to_move]} to move"

    def move_target(self, position: DomineeringPosition, move: int) -> int:
        """The lower cell of a vertical domino, the left cell of a horizontal one."""
        return (move & -move).bit_length() - 1

    def draw(
        self,
        position: DomineeringPosition,
        ax: Any,
        cell_colours: dict[int, str] | None = None,
        cell_labels: dict[int, str] | None = None,
    ) -> None:
        """Draw the board, blocked or covered cells dark; overlays colour and label cells."""
        board = self.grid(position)
        faces = [
            "#555555" if position.blocked >> i & 1 else (cell_colours or {}).get(i, "#f3e6c8")
            for i in range(board.size)
        ]
        labels = [(cell_labels or {}).get(i, "") for i in range(board.size)]
        board.draw(ax, facecolors=faces, labels=labels)
        ax.set_title(f"{self.players[position.to_move]} to move", fontsize=10)


class BitmaskValues:
    """Canonical values on plain bitmasks (:class:`DomineeringValues`, about nine times
    faster than the protocol road on 5x5) as the game's value shortcut."""

    def __init__(self, values: DomineeringValues) -> None:
        self.values = values

    @property
    def expanded(self) -> int:
        return self.values.expanded

    def covers(self, position: DomineeringPosition) -> bool:
        return self.values.fits(position.rows, position.cols)

    def value_id(self, position: DomineeringPosition) -> int:
        rows, cols = position.rows, position.cols
        return self.values.value_id(rows, cols, ((1 << (rows * cols)) - 1) & ~position.blocked)
