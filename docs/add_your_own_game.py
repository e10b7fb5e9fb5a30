"""Notakto: tic-tac-toe where both players place X and whoever completes a line loses.

Run it with ``cgt --load docs/add_your_own_game.py solve notakto``.
"""

from cgt.errors import PositionError
from cgt.protocol import Game, Outcome, Param
from cgt.registry import register

ROWS = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
LINES = [sum(1 << i for i in line) for line in ROWS]  # bit i: square i, a1=0 b1=1 ... c3=8


@register
class Notakto(Game[int, int]):
    """A position is the bitmask of the squares holding an X; a move is a square index."""

    name = "notakto"
    summary = "Notakto: both players play X on a 3x3 board; completing a line loses"
    params = (Param("misere", bool, True, help="completing a line loses (false: wins)"),)
    impartial = True  # both players have the same moves
    normal_play = False  # misere by default: completing a line loses (no CGT value)
    misere: bool

    def initial_position(self) -> int:
        return 0

    def to_move(self, position: int) -> int:
        return position.bit_count() % 2  # players alternate, so the count tells who moves

    def has_line(self, position: int) -> bool:
        return any(position & line == line for line in LINES)

    def moves(self, position: int) -> list[int]:
        if self.has_line(position):
            return []
        return [i for i in range(9) if not position >> i & 1]

    def play(self, position: int, move: int) -> int:
        return position | 1 << move

    def result(self, position: int) -> Outcome | None:
        if self.has_line(position):  # the previous player completed it
            return Outcome.WIN if self.misere else Outcome.LOSS
        return None  # a full board always holds a line

    def parse(self, text: str) -> int:
        rows = text.strip().split("/")  # top rank first, e.g. "X../.X./..."
        if len(rows) != 3 or any(len(row) != 3 or set(row) - set(".xX") for row in rows):
            raise PositionError(f"expected 3 rows of '.' or 'X' separated by '/': {text!r}")
        cells = "".join(reversed(rows)).upper()  # rank 1 first, so cell i is bit i
        return sum(1 << i for i, c in enumerate(cells) if c == "X")

    def render(self, position: int) -> str:
        cells = ["X" if position >> i & 1 else "." for i in range(9)]
        return "/".join("".join(cells[r * 3 : r * 3 + 3]) for r in (2, 1, 0))

    def move_name(self, position: int, move: int) -> str:
        return "abc"[move % 3] + str(move // 3 + 1)  # a1 bottom left, as in chess
