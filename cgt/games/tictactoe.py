"""Tic-tac-toe: the reference game whose every count is published (Henry
Bottomley, "How many Tic-Tac-Toe (noughts and crosses) games are possible?", 2001).

X moves first; players alternate placing their letter on an empty square of a ``size`` x
``size`` board (3 by default); whoever completes a full row, column or diagonal wins; a full
board without a line is a draw. The game is here because its numbers (5,478 reachable
positions, 765 up to symmetry, 255,168 games, a draw with perfect play) test the solvers.

A position is ``(x, o)``: one bitboard per player, bit ``i`` for square ``i`` of
:mod:`cgt.boards.square` (``a1`` is bit 0). The side to move follows from the counts (X moves
when both have as many stones), so it is not stored. Position strings list the ranks from the
top, separated by ``/``: ``X.O/.X./..O``; an optional `` X`` or `` O`` after a space names the
side to move and must agree with the counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from cgt.boards.square import SquareBoard, square_board
from cgt.errors import MoveError, PositionError
from cgt.protocol import Game, Outcome, Param, PieceStyle
from cgt.registry import register

TicTacToePosition = tuple[int, int]
"""``(x bitboard, o bitboard)``."""

#: Cell symbols of the notation, indexed by the cell's state (empty, X, O).
SYMBOLS = ".XO"


def winning_lines(board: SquareBoard) -> tuple[int, ...]:
    """Masks of every full row, column and the two long diagonals of a square board."""
    n = board.width
    rows = [sum(1 << (r * n + f) for f in range(n)) for r in range(n)]
    columns = [sum(1 << (r * n + f) for r in range(n)) for f in range(n)]
    diagonals = [
        sum(1 << (k * n + k) for k in range(n)),
        sum(1 << (k * n + n - 1 - k) for k in range(n)),
    ]
    return tuple(rows + columns + diagonals)


@register
class TicTacToe(Game[TicTacToePosition, int]):
    """Noughts and crosses on a ``size`` x ``size`` board; a move is a square index."""

    name = "tictactoe"
    summary = "Tic-tac-toe (noughts and crosses): a line of your letter wins, a full board draws"
    title = "Tic-tac-toe"
    pieces = (PieceStyle("X", kind="mark"), PieceStyle("O", kind="mark"))
    params = (
        Param("size", int, 3, help="side of the square board; lines span it", minimum=3, maximum=5),
    )
    players: ClassVar[tuple[str, str]] = ("X", "O")
    normal_play = False  # a line wins, a full board draws
    size: int

    def validate(self) -> None:
        self.board = square_board(self.size, self.size)
        self.lines = winning_lines(self.board)
        self.symmetry_count = len(self.board.symmetry_ids)  # 8: the board is square

    # ----------------------------------------------------------------- the rules
    def initial_position(self) -> TicTacToePosition:
        return (0, 0)

    def to_move(self, position: TicTacToePosition) -> int:
        x, o = position
        return 0 if x.bit_count() == o.bit_count() else 1

    def has_line(self, stones: int) -> bool:
        """True when ``stones`` cover a complete line."""
        return any(stones & line == line for line in self.lines)

    def moves(self, position: TicTacToePosition) -> Sequence[int]:
        x, o = position
        if self.has_line(x) or self.has_line(o):
            return []
        empty = self.board.full_mask & ~(x | o)
        return list(self.board.cells_of(empty))

    def play(self, position: TicTacToePosition, move: int) -> TicTacToePosition:
        x, o = position
        if self.to_move(position) == 0:
            return (x | 1 << move, o)
        return (x, o | 1 << move)

    def result(self, position: TicTacToePosition) -> Outcome | None:
        x, o = position
        # Only the player who just moved can have a line, so the player to move has lost.
        if self.has_line(x) or self.has_line(o):
            return Outcome.LOSS
        if x | o == self.board.full_mask:
            return Outcome.DRAW
        return None

    # ------------------------------------------------------------ identity and symmetry
    def key(self, position: TicTacToePosition) -> int:
        x, o = position
        return x | o << self.board.size

    def transform(self, position: TicTacToePosition, symmetry: int) -> TicTacToePosition:
        symmetry_id = self.board.symmetry_ids[symmetry]
        x, o = position
        return (
            self.board.transform_mask(x, symmetry_id),
            self.board.transform_mask(o, symmetry_id),
        )

    def transform_move(self, position: TicTacToePosition, move: int, symmetry: int) -> int:
        return self.board.symmetries[self.board.symmetry_ids[symmetry]][move]

    # ---------------------------------------------------------------- notation
    def cells(self, position: TicTacToePosition) -> list[int]:
        """Per-square state: 0 empty, 1 X, 2 O."""
        x, o = position
        return [1 if x >> i & 1 else 2 if o >> i & 1 else 0 for i in range(self.board.size)]

    def parse(self, text: str) -> TicTacToePosition:
        board_text, _, side_text = text.strip().partition(" ")
        cells = self.board.parse_cells(board_text.upper(), SYMBOLS)
        x = sum(1 << i for i, c in enumerate(cells) if c == 1)
        o = sum(1 << i for i, c in enumerate(cells) if c == 2)
        position = (x, o)
        self.check_reachable(position)
        side = side_text.strip().upper()
        if side and side not in self.players:
            raise PositionError(f"side to move must be X or O, got {side_text.strip()!r}")
        expected = self.players[self.to_move(position)]
        if side and side != expected:
            raise PositionError(f"with these stone counts {expected} is to move, not {side}")
        return position

    def check_reachable(self, position: TicTacToePosition) -> None:
        """Raise :class:`PositionError` unless some game from the empty board reaches it.

        Reachable means: X has as many stones as O or one more; at most the player who moved
        last has a line; and all that player's lines share a square (the last move made them
        all at once: before it nobody had a line, or the game would have stopped).
        """
        x, o = position
        if x & o:
            raise PositionError("a square holds both X and O")
        nx, no = x.bit_count(), o.bit_count()
        if nx not in (no, no + 1):
            raise PositionError(f"X must have as many stones as O or one more, got X={nx} O={no}")
        x_lines = [line for line in self.lines if x & line == line]
        o_lines = [line for line in self.lines if o & line == line]
        if x_lines and o_lines:
            raise PositionError("both X and O have a line")
        if x_lines and nx == no:
            raise PositionError("O moved after X had already completed a line")
        if o_lines and nx == no + 1:
            raise PositionError("X moved after O had already completed a line")
        winner_lines = x_lines or o_lines
        if winner_lines:
            common = winner_lines[0]
            for line in winner_lines[1:]:
                common &= line
            if not common:
                raise PositionError(
                    "the winner's lines share no square, so one was completed after the game ended"
                )

    def render(self, position: TicTacToePosition) -> str:
        return self.board.render_cells(self.cells(position), SYMBOLS)

    def move_name(self, position: TicTacToePosition, move: int) -> str:
        return self.board.cell_name(move)

    def parse_move(self, position: TicTacToePosition, text: str) -> int:
        try:
            square = self.board.cell_by_name(text)
        except PositionError as exc:
            raise MoveError(f"tictactoe: {exc}") from None
        if square not in self.moves(position):
            raise MoveError(
                f"tictactoe: {text.strip()!r} is not a legal move in {self.render(position)!r}"
            )
        return square

    def describe(self, position: TicTacToePosition) -> str:
        return self.board.describe(self.cells(position), SYMBOLS)

    def move_target(self, position: TicTacToePosition, move: int) -> int:
        return move

    def draw(
        self,
        position: TicTacToePosition,
        ax: Any,
        cell_colours: dict[int, str] | None = None,
        cell_labels: dict[int, str] | None = None,
    ) -> None:
        """Draw the board with X and O letters; overlays colour and label empty squares."""
        letters = ["", "X", "O"]
        labels = [letters[c] for c in self.cells(position)]
        for square, text in (cell_labels or {}).items():
            labels[square] = labels[square] or text
        faces = [(cell_colours or {}).get(square, "#f3e6c8") for square in range(self.board.size)]
        self.board.draw(ax, facecolors=faces, labels=labels, fontsize=16)
