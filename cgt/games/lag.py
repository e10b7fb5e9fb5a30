"""LAG: race your pieces across a hexhex board, moving exactly as far as you have groups.

Rules (docs/rules.md, "LAG"):

* Hexhex board of side ``size``. White sits at the bottom edge, Black at the top edge; each
  fills the two rows nearest to them (size 3: 3 + 4 = 7 pieces each). White moves first.
  No passing.
* An *object* is a maximal connected group of same-colour pieces (hex adjacency).
* A move: one own piece travels in a straight line exactly ``k`` cells, ``k`` being the
  mover's number of objects before the move. It jumps over whatever lies between, may not
  leave the board nor land on an own piece, and captures an opponent piece it lands on.
* Forward (away from the mover: NW/NE for White, SW/SE for Black) is always allowed;
  sideways (E/W along the row) only if the mover's number of objects *after* the move is
  strictly smaller than before (captures change only the opponent's objects, so a sideways
  capture needs the same merge); backward never.
* ``goal=standard``: the game ends when the player to move has no legal move; the player
  with fewer objects wins, and on equal counts the player who has no legal move wins.

Decisions where the text is silent (also in the report of this module's author):

* **No pieces left.** A player whose pieces were all captured has 0 objects, so ``k = 0``
  and no legal move: the game ends on their turn. Read literally, 0 objects is fewer than the
  opponent's (at least 1, the capturing piece), so under ``standard`` (and the fallback of the
  far-row goals) *the player without pieces wins*; under ``strict`` they lose (0 is not 1).
  Capturing the opponent's last piece is therefore a blunder under ``standard``.
* **goal=strict** ("合法手が存在しなくなったときグループが1個ならば勝ち、そうでなければ負け"):
  when the player to move has no legal move, *that* player (the one who ended the game) wins
  if they have exactly one object and loses otherwise; the opponent's count does not matter.
  This matches the document's "ideal goal": unable to move and one group wins whatever the
  opponent's position.
* **goal=far-row-one-object**: a player meets the goal when one of their pieces stands on
  the far row (the opponent's back row) and they have exactly one object;
  **goal=far-row**: the same with any number of objects. The document states the goal as a
  condition on the board, so after every move both players are checked
  (``goal_check=both``): the player who just moved wins if they meet it, else the player to
  move wins if *they* do (a capture removed their last stray piece). ``goal_check=mover``
  is the other reading: only the player who just moved is checked. For both goals, a game
  that stops first because the player to move has no legal move is scored by the standard
  rule. Positions are stateless, so "the player who just moved" is the player not to move;
  a ``setup`` in which a player already meets the goal is a finished game.
* The standard setup needs ``size >= 3`` (at size 2 the home rows overlap); size 2 needs an
  explicit ``setup``.

Positions are ``(white bitboard, black bitboard, player to move)`` with bit ``i`` for cell
``i`` of :func:`cgt.boards.hexhex.hex_board`; player 0 is White. Moves are
``(from cell, to cell)``, named ``c1-a1`` or ``c1xa1`` for a capture. The only symmetry is the
left-right mirror (the players' edges fix top and bottom).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, ClassVar

from cgt.boards.hexhex import MAX_SIZE, MIRROR_LEFT_RIGHT, HexBoard, hex_board
from cgt.errors import MoveError, ParameterError, PositionError
from cgt.protocol import Game, Outcome, Param, PieceStyle
from cgt.registry import register

LagPosition = tuple[int, int, int]
LagMove = tuple[int, int]

WHITE, BLACK = 0, 1
GOALS = ("standard", "strict", "far-row-one-object", "far-row")
FAR_ROW_GOALS = ("far-row-one-object", "far-row")
#: Who a far-row goal is checked for after a move: both players, or only the mover.
GOAL_CHECKS = ("both", "mover")
_SYMBOLS = ".WB"
_SIDE_LETTERS = "WB"

# Direction indices of cgt.boards.hexhex.DIRECTIONS: E, NE, NW, W, SW, SE.
_FORWARD = {WHITE: (1, 2), BLACK: (4, 5)}
_SIDEWAYS = (0, 3)
_BACKWARD = {WHITE: (4, 5), BLACK: (1, 2)}


def count_objects(mask: int, neighbour_mask: list[int]) -> int:
    """Number of maximal connected groups of the cells in ``mask`` (flood fill on bits)."""
    count = 0
    while mask:
        group = frontier = mask & -mask
        while frontier:
            grown = 0
            while frontier:
                low = frontier & -frontier
                grown |= neighbour_mask[low.bit_length() - 1]
                frontier ^= low
            frontier = grown & mask & ~group
            group |= frontier
        mask &= ~group
        count += 1
    return count


@register
class Lag(Game[LagPosition, LagMove]):
    """LAG on a hexhex board; see the module docstring for the rules and decisions."""

    name = "lag"
    summary = "move exactly as many cells as you have groups; fewest groups at the end wins"
    title = "LAG"
    claims_module = "proofs.lag"
    report_module = "cgtapp.report.games.lag"
    pieces = (
        PieceStyle("W", "White (moves up)", fill="#ffffff"),
        PieceStyle("B", "Black (moves down)", fill="#222222"),
    )
    legend = (("white", "White (moves up)"), ("black", "Black (moves down)"))
    params = (
        Param(
            "size",
            int,
            3,
            "side of the hexhex board (the document plays 4, or 5)",
            minimum=2,
            maximum=MAX_SIZE,
        ),
        Param("goal", str, "standard", "end condition: " + "|".join(GOALS), choices=GOALS),
        Param(
            "goal_check",
            str,
            "both",
            "far-row goals: after a move, check both players (the goal is a condition on the "
            "board) or only the mover",
            choices=GOAL_CHECKS,
        ),
        Param("setup", str, None, "start from this position string instead of the standard setup"),
    )
    variants: ClassVar[dict[str, dict[str, Any]]] = {goal: {"goal": goal} for goal in GOALS}
    players = ("White", "Black")
    symmetry_count = 2
    normal_play = False  # scored at the end: fewer objects wins, or a far-row goal

    #: Deliberately broken rules, for showing that the claim checks can fail. Never set them
    #: on the registered game: subclass it (see proofs/lag.py).
    allow_backward: ClassVar[bool] = False
    sideways_needs_merge: ClassVar[bool] = True

    size: int
    goal: str
    goal_check: str
    setup: str | None

    def validate(self) -> None:
        self.board: HexBoard = hex_board(self.size)
        board = self.board
        self._objects: Callable[[int], int] = lru_cache(maxsize=1 << 20)(
            lambda mask: count_objects(mask, board.neighbour_mask)
        )
        self.far_row_mask = {
            WHITE: sum(1 << i for i in board.rows[0]),
            BLACK: sum(1 << i for i in board.rows[-1]),
        }
        self._directions: dict[int, tuple[tuple[int, bool], ...]] = {}
        for player in (WHITE, BLACK):
            dirs = [(d, False) for d in _FORWARD[player]] + [(d, True) for d in _SIDEWAYS]
            if self.allow_backward:
                dirs += [(d, False) for d in _BACKWARD[player]]
            self._directions[player] = tuple(dirs)
        self._mirror = board.symmetries[MIRROR_LEFT_RIGHT]
        #: The setup, once known: the parser refuses positions that cannot arise from it.
        self._setup_position: LagPosition | None = None
        if self.setup:
            self._max_pieces = (board.size, board.size)
            try:
                self._initial = self.parse(self.setup)
            except PositionError as exc:
                raise ParameterError(f"parameter setup: {exc}") from None
            self._max_pieces = (self._initial[0].bit_count(), self._initial[1].bit_count())
        else:
            if self.size < 3:
                raise ParameterError(
                    f"parameter size: the standard setup needs size >= 3 (the two home rows "
                    f"overlap at size {self.size}); give setup=<position>"
                )
            black = sum(1 << i for row in board.rows[:2] for i in row)
            white = sum(1 << i for row in board.rows[-2:] for i in row)
            self._initial = (white, black, WHITE)
            self._max_pieces = (white.bit_count(), black.bit_count())
        self._setup_position = self._initial

    # ----------------------------------------------------------------- the rules
    def initial_position(self) -> LagPosition:
        return self._initial

    def to_move(self, position: LagPosition) -> int:
        return position[2]

    def objects(self, position: LagPosition, player: int) -> int:
        """Number of objects (connected groups) of ``player`` (0 White, 1 Black)."""
        return self._objects(position[player])

    def meets_goal(self, position: LagPosition, player: int) -> bool:
        """True if ``player`` meets the far-row goal: a piece on the far row (and, for
        ``far-row-one-object``, exactly one object)."""
        if self.goal not in FAR_ROW_GOALS:
            return False
        pieces = position[player]
        if not pieces & self.far_row_mask[player]:
            return False
        return self.goal == "far-row" or self._objects(pieces) == 1

    def goal_winner(self, position: LagPosition) -> int | None:
        """The player who has won by a far-row goal, if any: the player who just moved if they
        meet it, else (``goal_check=both``) the player to move if they do."""
        last = 1 - position[2]
        if self.meets_goal(position, last):
            return last
        if self.goal_check == "both" and self.meets_goal(position, position[2]):
            return position[2]
        return None

    def goal_reached(self, position: LagPosition) -> bool:
        """True if the game has ended by a far-row goal (:meth:`goal_winner`)."""
        return self.goal_winner(position) is not None

    def moves(self, position: LagPosition) -> list[LagMove]:
        if self.goal_reached(position):
            return []
        player = position[2]
        own = position[player]
        k = self._objects(own)
        if k == 0:
            return []
        rays = self.board.rays
        result: list[LagMove] = []
        mask = own
        while mask:
            low = mask & -mask
            mask ^= low
            cell = low.bit_length() - 1
            for direction, sideways in self._directions[player]:
                ray = rays[cell][direction]
                if len(ray) < k:
                    continue  # would leave the board
                target = ray[k - 1]
                if own >> target & 1:
                    continue  # may not land on an own piece
                if (
                    sideways
                    and self.sideways_needs_merge
                    and self._objects(own ^ low ^ (1 << target)) >= k
                ):
                    continue  # sideways only if it reduces the mover's objects
                result.append((cell, target))
        return result

    def play(self, position: LagPosition, move: LagMove) -> LagPosition:
        source, target = move
        player = position[2]
        own, other = position[player], position[1 - player]
        if not own >> source & 1 or own >> target & 1:
            raise MoveError(
                f"lag: {move!r} does not move a {self.players[player]} piece to a free cell"
            )
        own ^= (1 << source) | (1 << target)
        other &= ~(1 << target)
        if player == WHITE:
            return (own, other, BLACK)
        return (other, own, WHITE)

    def result(self, position: LagPosition) -> Outcome | None:
        winner = self.goal_winner(position)
        if winner is not None:
            return Outcome.WIN if winner == position[2] else Outcome.LOSS
        if self.moves(position):
            return None
        mine = self._objects(position[position[2]])
        if self.goal == "strict":
            return Outcome.WIN if mine == 1 else Outcome.LOSS
        theirs = self._objects(position[1 - position[2]])
        # Fewer objects wins; on equal counts the player who has no legal move wins.
        return Outcome.WIN if mine <= theirs else Outcome.LOSS

    # ------------------------------------------------------------ identity and symmetry
    def key(self, position: LagPosition) -> int:
        size = self.board.size
        return position[0] | position[1] << size | position[2] << (2 * size)

    def transform(self, position: LagPosition, symmetry: int) -> LagPosition:
        if symmetry == 0:
            return position
        if symmetry != 1:
            raise ValueError(f"lag has no symmetry {symmetry} (only 0 and the mirror 1)")
        mirror = self.board.transform_mask
        return (
            mirror(position[0], MIRROR_LEFT_RIGHT),
            mirror(position[1], MIRROR_LEFT_RIGHT),
            position[2],
        )

    def transform_move(self, position: LagPosition, move: LagMove, symmetry: int) -> LagMove:
        if symmetry == 0:
            return move
        if symmetry != 1:
            raise ValueError(f"lag has no symmetry {symmetry} (only 0 and the mirror 1)")
        return (self._mirror[move[0]], self._mirror[move[1]])

    # ---------------------------------------------------------------- notation
    def _cells(self, position: LagPosition) -> list[int]:
        white, black = position[0], position[1]
        return [1 if white >> i & 1 else 2 if black >> i & 1 else 0 for i in range(self.board.size)]

    def parse(self, text: str) -> LagPosition:
        """Position from ``"BBB/BBBB/...../WWWW/WWW W"`` (rows top to bottom, side to move).

        Rejects malformed strings and impossible positions: more pieces of a colour than the
        setup gives, no piece for the player who has just moved (a move never removes the
        mover's own last piece), and positions that contradict a side that never moved (see
        :meth:`check_reachable`).
        """
        parts = text.split()
        if len(parts) != 2:
            raise PositionError(
                f"lag position {text!r}: expected the board, a space and the side to move (W or B)"
            )
        board_text, side = parts
        if side.upper() not in _SIDE_LETTERS:
            raise PositionError(f"lag position: side to move must be W or B, got {side!r}")
        cells = self.board.parse_cells(board_text.upper(), _SYMBOLS)
        white = sum(1 << i for i, c in enumerate(cells) if c == 1)
        black = sum(1 << i for i, c in enumerate(cells) if c == 2)
        to_move = _SIDE_LETTERS.index(side.upper())
        for player, pieces in ((WHITE, white), (BLACK, black)):
            limit = self._max_pieces[player]
            if pieces.bit_count() > limit:
                raise PositionError(
                    f"lag position: {self.players[player]} has {pieces.bit_count()} pieces, "
                    f"more than the {limit} of the setup"
                )
        if not (white, black)[1 - to_move]:
            raise PositionError(
                f"lag position: {self.players[1 - to_move]} (who has just moved) has no pieces"
            )
        position = (white, black, to_move)
        self.check_reachable(position)
        return position

    def check_reachable(self, position: LagPosition) -> None:
        """Refuse a position that contradicts a side that never moved.

        A side whose pieces stand exactly on its setup cells has never moved: no move goes
        backward, so the sum over its pieces of the rows advanced never falls and every
        forward move raises it; a sideways move must lower the side's object count, which
        only its own forward moves or the loss of a piece raise again, so the side cannot
        come back to its setup either. Such a side has captured nothing, so the other side
        has all its pieces; and if it is the side that moves first, no move was made at all,
        while if it moves second, the other side made one move at most.
        """
        setup = self._setup_position
        if setup is None:  # parsing the setup itself
            return
        first = setup[2]
        for side in (WHITE, BLACK):
            if position[side] != setup[side]:
                continue
            other = 1 - side
            lost = setup[other].bit_count() - position[other].bit_count()
            if lost > 0:
                raise PositionError(
                    f"lag position: {self.players[other]} has lost {lost} piece(s) although "
                    f"{self.players[side]} never moved (its pieces stand exactly as set up), "
                    "and only its moves capture"
                )
            if side == first and position != setup:
                raise PositionError(
                    f"lag position: {self.players[side]}, who moves first, never moved (its "
                    "pieces stand exactly as set up), so only the setup itself can arise"
                )
            # the side moving second never moved: the first side made one move at most
            if position != setup and position not in self._setup_children():
                raise PositionError(
                    f"lag position: {self.players[side]} never moved (its pieces stand "
                    f"exactly as set up), so {self.players[other]} made one move at most, "
                    "and no single move from the setup gives this position"
                )

    def _setup_children(self) -> set[LagPosition]:
        setup = self._setup_position
        assert setup is not None
        return {self.play(setup, move) for move in self.moves(setup)}

    def render(self, position: LagPosition) -> str:
        board = self.board.render_cells(self._cells(position), _SYMBOLS)
        return f"{board} {_SIDE_LETTERS[position[2]]}"

    def move_name(self, position: LagPosition, move: LagMove) -> str:
        source, target = move
        other = position[1 - position[2]]
        joiner = "x" if other >> target & 1 else "-"
        return f"{self.board.cell_name(source)}{joiner}{self.board.cell_name(target)}"

    def describe(self, position: LagPosition) -> str:
        drawing = self.board.describe(self._cells(position), _SYMBOLS)
        white_objects, black_objects = self.objects(position, WHITE), self.objects(position, BLACK)
        return (
            f"{drawing}\n{self.players[position[2]]} to move; objects: "
            f"White {white_objects}, Black {black_objects}; step k = {self.objects(position, position[2])}"
        )

    def draw(
        self,
        position: LagPosition,
        ax: Any,
        cell_colours: dict[int, str] | None = None,
        cell_labels: dict[int, str] | None = None,
    ) -> None:
        cells = self._cells(position)
        stones = {i: ("white" if c == 1 else "black") for i, c in enumerate(cells) if c}
        size = self.board.size
        facecolors = None
        if cell_colours:
            facecolors = [cell_colours.get(i, "#f3e6c8") for i in range(size)]
        labels = [cell_labels.get(i, "") for i in range(size)] if cell_labels else None
        self.board.draw(ax, facecolors=facecolors, labels=labels, stones=stones)
        ax.set_title(f"{self.players[position[2]]} to move", fontsize=9)

    def move_target(self, position: LagPosition, move: LagMove) -> int | None:
        return move[1]

    def move_source(self, position: LagPosition, move: LagMove) -> int | None:
        return move[0]

    # ------------------------------------------------------------- CGT support
    def with_to_move(self, position: LagPosition, player: int) -> LagPosition:
        return (position[0], position[1], player)
