"""Connect Four, with a compiled plug-in: the readable rules and their bitboard restatement in
one file, so the compiled engine, the strong player, the frontier and the explorer run it.

    cgt --load docs/connect_four.py solve connect-four --solver compiled       # 5 x 4 board
    cgt --load docs/connect_four.py solve connect-four -p rows=4 -p cols=4 --solver compiled
    cgt --load docs/connect_four.py move connect-four --playouts 2000

Players drop a disc into a column that is not full; it falls to the lowest empty cell. Four
discs of one colour in a row, a column or a diagonal win (``connect`` for other lengths); a
full board without one is a draw. Red moves first.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cgt.errors import PositionError
from cgt.protocol import Game, Outcome, Param
from cgt.registry import register

#: A position: the columns left to right, each the discs from the bottom up ("R" or "Y").
Position = tuple[str, ...]


@register
class ConnectFour(Game[Position, int]):
    """Connect Four on ``rows`` x ``cols``; a move is the index of a column (0 = a)."""

    name = "connect-four"
    title = "Connect Four"
    summary = "drop discs into columns; four of your colour in a line wins"
    params = (
        Param("rows", int, 4, help="cells per column", minimum=2, maximum=7),
        Param("cols", int, 5, help="number of columns", minimum=2, maximum=8),
        Param("connect", int, 4, help="discs in a line that win", minimum=2, maximum=7),
    )
    players = ("Red", "Yellow")
    normal_play = False  # a line wins and a full board draws
    rows: int
    cols: int
    connect: int

    def initial_position(self) -> Position:
        return ("",) * self.cols

    def to_move(self, position: Position) -> int:
        return sum(map(len, position)) % 2  # Red first, then turns alternate

    def disc(self, position: Position, col: int, row: int) -> str:
        """The disc at (col, row), ``.`` for an empty cell or one off the board."""
        if not (0 <= col < self.cols and 0 <= row < len(position[col])):
            return "."
        return position[col][row]

    def has_line(self, position: Position, colour: str) -> bool:
        for col in range(self.cols):
            for row in range(self.rows):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(
                        self.disc(position, col + k * dc, row + k * dr) == colour
                        for k in range(self.connect)
                    ):
                        return True
        return False

    def result(self, position: Position) -> Outcome | None:
        last = "RY"[1 - self.to_move(position)]
        if self.has_line(position, last):  # the player who just moved made a line
            return Outcome.LOSS
        if all(len(column) == self.rows for column in position):
            return Outcome.DRAW
        return None

    def moves(self, position: Position) -> list[int]:
        if self.result(position) is not None:
            return []
        return [c for c in range(self.cols) if len(position[c]) < self.rows]

    def play(self, position: Position, move: int) -> Position:
        colour = "RY"[self.to_move(position)]
        return (*position[:move], position[move] + colour, *position[move + 1 :])

    def parse(self, text: str) -> Position:
        rows = text.strip().split("/")  # top row first: "...../...../..R../.YR.."
        if len(rows) != self.rows or any(len(r) != self.cols or set(r) - set(".RY") for r in rows):
            raise PositionError(
                f"expected {self.rows} rows of {self.cols} cells ('.', 'R', 'Y') "
                f"separated by '/': {text!r}"
            )
        columns = []
        for col in range(self.cols):
            column = "".join(r[col] for r in reversed(rows)).rstrip(".")
            if "." in column:
                raise PositionError(f"column {'abcdefgh'[col]} has a gap under a disc: {text!r}")
            columns.append(column)
        position = tuple(columns)
        red, yellow = (sum(c.count(x) for c in columns) for x in "RY")
        if red - yellow not in (0, 1):
            raise PositionError(f"Red moves first, so {red} red and {yellow} yellow discs "
                                f"cannot happen: {text!r}")  # fmt: skip
        return position

    def render(self, position: Position) -> str:
        return "/".join(
            "".join(self.disc(position, col, row) for col in range(self.cols))
            for row in reversed(range(self.rows))
        )

    def move_name(self, position: Position, move: int) -> str:
        return "abcdefgh"[move]


# ------------------------------------------------------------------ the compiled plug-in
# A state is three words: Red's discs, Yellow's discs, the player to move. Cell (col, row)
# is bit col * (rows + 1) + row: each column has one spare bit on top, so a line never wraps
# from one column into the next, and a line of ``connect`` discs in direction d (1 up a
# column, rows + 1 along a row, rows + 2 and rows on the diagonals) shows as ``connect``
# shifted copies that overlap. ``tables`` is (rows, cols, connect) in an int64 array.


@njit(cache=True)
def _line(discs: np.uint64, step: int, connect: int) -> bool:
    run = discs
    for _ in range(connect - 1):
        run &= run >> np.uint64(step)
    return run != np.uint64(0)


@njit(cache=True)
def c4_generate(state: np.ndarray, tables: np.ndarray, out: np.ndarray) -> int:
    """The columns that are not full, none once the player who just moved made a line."""
    rows, cols, connect = tables[0], tables[1], tables[2]
    last = state[1] if state[2] == 0 else state[0]  # the discs of the player who just moved
    for step in (1, rows + 1, rows + 2, rows):
        if _line(last, step, connect):
            return 0
    count = 0
    for col in range(cols):
        top = np.uint64(1) << np.uint64(col * (rows + 1) + rows - 1)
        if (state[0] | state[1]) & top == 0:
            out[count] = col
            count += 1
    return count


@njit(cache=True)
def c4_final(state: np.ndarray, tables: np.ndarray) -> int:
    """The result of a finished game for the player to move: lost to a line, else drawn."""
    rows, connect = tables[0], tables[2]
    last = state[1] if state[2] == 0 else state[0]
    for step in (1, rows + 1, rows + 2, rows):
        if _line(last, step, connect):
            return -1
    return 0


@njit(cache=True)
def c4_play(state: np.ndarray, code: int, tables: np.ndarray, child: np.ndarray) -> None:
    rows = tables[0]
    filled = state[0] | state[1]
    cell = code * (rows + 1)
    while filled & (np.uint64(1) << np.uint64(cell)):
        cell += 1
    child[0] = state[0]
    child[1] = state[1]
    child[state[2]] |= np.uint64(1) << np.uint64(cell)
    child[2] = np.uint64(1) - state[2]


@njit(cache=True)
def c4_mover(state: np.ndarray, tables: np.ndarray) -> int:
    return int(state[2])


def playout_rules(game: Game[Any, Any]) -> Any:
    """The plug-in of one board (:class:`solvers.playout.PlayoutRules`)."""
    from solvers.playout import PlayoutRules

    assert isinstance(game, ConnectFour)
    height = game.rows + 1

    def encode(position: Position) -> np.ndarray:
        state = np.zeros(3, dtype=np.uint64)
        for col, column in enumerate(position):
            for row, disc in enumerate(column):
                state["RY".index(disc)] |= np.uint64(1 << (col * height + row))
        state[2] = game.to_move(position)
        return state

    def decode(state: np.ndarray) -> Position:
        return tuple(
            "".join(
                "R" if int(state[0]) >> (col * height + row) & 1 else "Y"
                for row in range(game.rows)
                if (int(state[0]) | int(state[1])) >> (col * height + row) & 1
            )
            for col in range(game.cols)
        )

    return PlayoutRules(
        game=game,
        words=3,
        alternating=True,
        max_moves=game.cols,
        tables=np.array([game.rows, game.cols, game.connect], dtype=np.int64),
        final=c4_final,
        generate=c4_generate,
        play=c4_play,
        mover=c4_mover,
        encode=encode,
        decode=decode,
        code_of=lambda position, move: move,
        move_of=lambda position, code: code,
        max_plies=game.rows * game.cols,
    )


def _register_plugin() -> None:
    from solvers.engine import engine_solver
    from solvers.kernels import KernelPlugin, register_plugin

    register_plugin(
        KernelPlugin("connect-four", engine_solver(playout_rules), playout=playout_rules)
    )


_register_plugin()
