"""Interleave (Alexander Brady, 2022): a relaxed real-time placement game on a hexhex board.

Rules (docs/rules.md, "Interleave"):

* An empty cell is **seen** by the first stone along each of the six rays leaving it
  (adjacent stones included), so by at most six stones.
* A player may take an empty cell when strictly more opponent stones than own stones see it
  (0 against 0: nobody).
* Setup (pie rule): one player puts any stones of either colour on the board, at least one
  black; the other then chooses a colour. Here the setup is the parameter ``setup`` (a board
  string, default one black stone on the centre) and the pie choice is analysed by solving the
  setup for both colours (``proofs/interleave.py``).
* Win condition ``win=stones``: more stones on the board; ``win=groups``: the largest-group
  cascade (compare the largest groups, then the next largest, ...; whoever runs out of groups
  first loses). Every tie goes to Red.

The real game has no turns. Two turn models make it a game the solvers can analyse:

* ``turns=pass``: players alternate; a turn is one placement or a pass; two passes in a row end
  the game and the win condition decides. ``first`` says who moves first (default Red, the
  colour listed first in the rules; the analysis solves both).
* ``turns=loser``: the move always belongs to whoever is currently losing under the win
  condition (Black on a tie, since ties go to Red). That player places a stone or, when no
  cell is open to them, loses. The side to move is a function of the board.

Positions are :class:`InterleavePosition` ``(red, black, to_move, passes)``: bitboards of the
stones, the player to move (0 Red, 1 Black) and the number of consecutive passes just made
(0, 1, or 2 = game over; always 0 under ``turns=loser``).

Notation: the board rows top to bottom separated by ``/`` with ``.`` ``R`` ``B``, a space, the
side to move ``R`` or ``B``, followed by one ``+`` per consecutive pass just made:
``.B/R.B/.. R`` (Red to move), ``.B/R.B/.. R+`` (Black has just passed), ``.B/R.B/.. B++``
(both passed: the game is over). Moves are cell names (``b2``) and ``pass``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from cgt.boards.hexhex import MAX_SIZE, HexBoard, hex_board
from cgt.errors import ParameterError, PositionError
from cgt.protocol import Game, Outcome, Param, PieceStyle
from cgt.registry import register

RED, BLACK = 0, 1
COLOUR_LETTERS = "RB"
#: Cell symbols of the board notation, indexed by content: empty, red, black.
CELL_SYMBOLS = ".RB"
#: The move that passes the turn (``turns=pass`` only).
PASS = -1


class InterleavePosition(NamedTuple):
    """Stones of each colour as bitboards, the player to move and consecutive passes."""

    red: int
    black: int
    to_move: int
    passes: int


# --------------------------------------------------------------------------- the rules
def seers(board: HexBoard, red: int, black: int, cell: int) -> tuple[int, int]:
    """(red stones, black stones) that see the empty ``cell``: the first stone on each ray."""
    red_count = black_count = 0
    for ray in board.rays[cell]:
        for other in ray:
            if red >> other & 1:
                red_count += 1
                break
            if black >> other & 1:
                black_count += 1
                break
    return red_count, black_count


def placeable(board: HexBoard, red: int, black: int, colour: int) -> int:
    """Bitmask of the empty cells ``colour`` may take: seen by strictly more opponent stones
    than own stones."""
    occupied = red | black
    mask = 0
    for cell in range(board.size):
        if occupied >> cell & 1:
            continue
        red_count, black_count = seers(board, red, black, cell)
        own, opponent = (red_count, black_count) if colour == RED else (black_count, red_count)
        if opponent > own:
            mask |= 1 << cell
    return mask


def group_sizes(board: HexBoard, stones: int) -> list[int]:
    """Sizes of the groups (edge-connected sets) of ``stones``, largest first."""
    sizes = []
    remaining = stones
    while remaining:
        frontier = remaining & -remaining
        group = 0
        while frontier:
            group |= frontier
            grown = 0
            for cell in HexBoard.cells_of(frontier):
                grown |= board.neighbour_mask[cell]
            frontier = grown & stones & ~group
        sizes.append(group.bit_count())
        remaining &= ~group
    return sorted(sizes, reverse=True)


def leader(board: HexBoard, red: int, black: int, win: str) -> int:
    """The colour currently winning under the win condition (``RED`` on every tie).

    ``groups``: the largest-group cascade is exactly the lexicographic order of the group
    sizes sorted largest first, where a list beats each of its proper prefixes (the player
    who runs out of groups first loses); equal lists are a tie.
    """
    if win == "stones":
        return RED if red.bit_count() >= black.bit_count() else BLACK
    return RED if group_sizes(board, red) >= group_sizes(board, black) else BLACK


@lru_cache(maxsize=1 << 20)
def _placeable_both(n: int, red: int, black: int) -> tuple[int, int]:
    board = hex_board(n)
    return placeable(board, red, black, RED), placeable(board, red, black, BLACK)


@lru_cache(maxsize=1 << 20)
def _leader_cached(n: int, red: int, black: int, win: str) -> int:
    return leader(hex_board(n), red, black, win)


# ---------------------------------------------------------------------------- the game
@register
class Interleave(Game[InterleavePosition, int]):
    """Interleave under a turn model (see the module docstring)."""

    name = "interleave"
    summary = "place where more opponent than own stones see the cell; no racing (Brady 2022)"
    title = "Interleave"
    claims_module = "proofs.interleave"
    report_module = "cgtapp.report.games.interleave"
    pieces = (
        PieceStyle("R", "Red", fill="#c8322d"),
        PieceStyle("B", "Black", fill="#222222"),
    )
    legend = (("#c0392b", "Red"), ("black", "Black"))
    players = ("Red", "Black")
    normal_play = False  # scored at the end by stones or groups
    params = (
        Param("size", int, 2, "side of the hexhex board", minimum=2, maximum=MAX_SIZE),
        Param(
            "win",
            str,
            "stones",
            "stones: more stones; groups: largest-group cascade",
            choices=("stones", "groups"),
        ),
        Param(
            "turns",
            str,
            "pass",
            "pass: alternate with passes; loser: the loser moves",
            choices=("pass", "loser"),
        ),
        Param("first", str, "red", "who moves first under turns=pass", choices=("red", "black")),
        Param(
            "setup",
            str,
            None,
            "setup board (rows of . R B separated by /); default: one black stone on the centre",
        ),
    )
    symmetry_count = 12

    size: int
    win: str
    turns: str
    first: str
    setup: str | None

    def validate(self) -> None:
        self.board = hex_board(self.size)
        if self.turns == "loser" and self.first != "red":
            raise ParameterError(
                "parameter first: only applies to turns=pass "
                "(under turns=loser the losing player moves)"
            )
        if self.setup is None:
            self.setup_red, self.setup_black = 0, 1 << self.board.index[(0, 0)]
            return
        try:
            cells = self.board.parse_cells(self.setup, CELL_SYMBOLS)
        except PositionError as exc:
            raise ParameterError(f"parameter setup: {exc}") from None
        self.setup_red = sum(1 << i for i, c in enumerate(cells) if c == 1)
        self.setup_black = sum(1 << i for i, c in enumerate(cells) if c == 2)
        if not self.setup_black:
            raise ParameterError("parameter setup: the setup needs at least one black stone")

    # ------------------------------------------------------------------- helpers
    def placeable_cells(self, red: int, black: int, colour: int) -> int:
        """The cells ``colour`` may take (cached :func:`placeable`; subclasses used by the
        claims' tests replace it with a deliberately broken rule)."""
        return _placeable_both(self.size, red, black)[colour]

    def leader(self, red: int, black: int) -> int:
        """The colour currently winning under ``win`` (Red on a tie)."""
        return _leader_cached(self.size, red, black, self.win)

    def position(
        self, red: int, black: int, to_move: int | None = None, passes: int = 0
    ) -> InterleavePosition:
        """Position with these stones; under ``turns=loser`` the mover is derived, otherwise
        ``to_move`` defaults to the ``first`` player."""
        if self.turns == "loser":
            return InterleavePosition(red, black, 1 - self.leader(red, black), 0)
        if to_move is None:
            to_move = RED if self.first == "red" else BLACK
        return InterleavePosition(red, black, to_move, passes)

    # ---------------------------------------------------------------------- rules
    def initial_position(self) -> InterleavePosition:
        return self.position(self.setup_red, self.setup_black)

    def to_move(self, position: InterleavePosition) -> int:
        return position.to_move

    def moves(self, position: InterleavePosition) -> list[int]:
        red, black, mover, passes = position
        if passes >= 2:
            return []
        cells = list(HexBoard.cells_of(self.placeable_cells(red, black, mover)))
        # Pass first: it is usually the leader's best move and refutes the loser's pass
        # within two plies, so searches that stop at the first winning move stay small.
        return [PASS, *cells] if self.turns == "pass" else cells

    def play(self, position: InterleavePosition, move: int) -> InterleavePosition:
        red, black, mover, passes = position
        if move == PASS:
            return InterleavePosition(red, black, 1 - mover, passes + 1)
        if mover == RED:
            red |= 1 << move
        else:
            black |= 1 << move
        return self.position(red, black, 1 - mover, 0)

    def result(self, position: InterleavePosition) -> Outcome | None:
        red, black, mover, passes = position
        if self.turns == "pass":
            if passes < 2:
                return None  # passing is always possible
            return Outcome.WIN if self.leader(red, black) == mover else Outcome.LOSS
        # turns=loser: the mover is the losing player; with no open cell the game ends.
        return None if self.placeable_cells(red, black, mover) else Outcome.LOSS

    # -------------------------------------------------------- identity and symmetry
    def key(self, position: InterleavePosition) -> int:
        red, black, mover, passes = position
        return ((black << self.board.size | red) << 3) | mover << 2 | passes

    def transform(self, position: InterleavePosition, symmetry: int) -> InterleavePosition:
        red, black, mover, passes = position
        return InterleavePosition(
            self.board.transform_mask(red, symmetry),
            self.board.transform_mask(black, symmetry),
            mover,
            passes,
        )

    def transform_move(self, position: InterleavePosition, move: int, symmetry: int) -> int:
        return move if move == PASS else self.board.symmetries[symmetry][move]

    def with_to_move(self, position: InterleavePosition, player: int) -> InterleavePosition:
        if self.turns == "loser":
            raise NotImplementedError("under turns=loser the board decides who moves")
        return position._replace(to_move=player, passes=0)

    # --------------------------------------------------------------------- notation
    def _cells(self, red: int, black: int) -> list[int]:
        return [1 if red >> i & 1 else 2 if black >> i & 1 else 0 for i in range(self.board.size)]

    def render(self, position: InterleavePosition) -> str:
        red, black, mover, passes = position
        board_text = self.board.render_cells(self._cells(red, black), CELL_SYMBOLS)
        return f"{board_text} {COLOUR_LETTERS[mover]}{'+' * passes}"

    def parse(self, text: str) -> InterleavePosition:
        fields = text.split()
        if len(fields) != 2:
            raise PositionError(
                f"expected the board and the side to move (e.g. '.B/R.B/.. R'), got {text!r}"
            )
        board_text, side = fields
        cells = self.board.parse_cells(board_text, CELL_SYMBOLS)
        red = sum(1 << i for i, c in enumerate(cells) if c == 1)
        black = sum(1 << i for i, c in enumerate(cells) if c == 2)
        if not black:
            raise PositionError("impossible position: no black stone (every setup has one)")
        if side[0] not in COLOUR_LETTERS or side[1:].strip("+") or len(side) > 3:
            raise PositionError(
                f"side to move must be R or B followed by up to two '+', got {side!r}"
            )
        mover, passes = COLOUR_LETTERS.index(side[0]), len(side) - 1
        if self.turns == "loser":
            if passes:
                raise PositionError("there are no passes under turns=loser")
            expected = self.position(red, black)
            if mover != expected.to_move:
                raise PositionError(
                    f"impossible position: under turns=loser {self.players[expected.to_move]} "
                    f"(the losing player) moves, not {self.players[mover]}"
                )
            return expected
        return InterleavePosition(red, black, mover, passes)

    def move_name(self, position: InterleavePosition, move: int) -> str:
        return "pass" if move == PASS else self.board.cell_name(move)

    def describe(self, position: InterleavePosition) -> str:
        red, black, mover, passes = position
        drawing = self.board.describe(self._cells(red, black), CELL_SYMBOLS)
        if passes >= 2:
            status = "game over (two passes)"
        else:
            status = f"{self.players[mover]} to move" + (" (opponent passed)" if passes else "")
        return f"{drawing}\n{status}; {self.players[self.leader(red, black)]} is ahead"

    def draw(
        self,
        position: InterleavePosition,
        ax: Any,
        cell_colours: dict[int, str] | None = None,
        cell_labels: dict[int, str] | None = None,
    ) -> None:
        red, black = position.red, position.black
        stones = {i: "#c0392b" for i in HexBoard.cells_of(red)}
        stones.update({i: "black" for i in HexBoard.cells_of(black)})
        size = self.board.size
        facecolors = None
        if cell_colours:
            facecolors = [cell_colours.get(i, "#f3e6c8") for i in range(size)]
        labels = [cell_labels.get(i, "") for i in range(size)] if cell_labels else None
        self.board.draw(ax, facecolors=facecolors, labels=labels, stones=stones)
        status = (
            "game over" if position.passes >= 2 else f"{self.players[position.to_move]} to move"
        )
        ax.set_title(status, fontsize=9)

    def move_target(self, position: InterleavePosition, move: int) -> int | None:
        return None if move == PASS else move
