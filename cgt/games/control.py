"""Control: a territory game on a hexhex board (GAMES.md "Control", seed 000_ee315fd8d025ee46).

The rules, as the module implements them:

* A player **controls** a cell when a strict majority of the pieces standing on the cell's
  six neighbours are theirs. The cell itself does not count; a tie (or no piece) gives
  control to nobody. Under ``control=sight`` ("Tumpletore with removal") the pieces that
  count are the ones that *see* the cell: the first piece along each of its six rays.
* White moves first and, unless ``opening=free``, must place on a perimeter cell.
* A move either **places** one own piece on an empty cell the opponent does not control, or
  **removes** one opponent piece from a cell the mover controls. No passing.
* A player with no legal move loses (normal play).

A position is ``(white bitboard, black bitboard, player to move)`` over
:func:`cgt.boards.hexhex.hex_board`. A move is an int: the cell index for a placement,
``REMOVAL + cell`` for a removal (named ``c3`` and ``xc3``). The opening restriction applies
to the position with an empty board and White to move, which is only ever the initial
position: White-to-move positions have equal piece counts, and emptying the board would need
Black to remove White's last piece while owning none, but control needs pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal, cast

from cgt.boards.hexhex import MAX_SIZE, HexBoard, hex_board
from cgt.errors import ParameterError, PositionError
from cgt.protocol import Game, Param
from cgt.registry import register

WHITE = 0
BLACK = 1
PLAYER_LETTERS = "WB"
#: Cell symbols of the notation, indexed by cell state: empty, white, black.
CELL_SYMBOLS = ".WB"
#: A removal of the piece on cell ``c`` is the move ``REMOVAL + c`` (placements are ``c``).
REMOVAL = 1 << 16

ControlPosition = tuple[int, int, int]
#: Who controls a cell: a rule name, or (for checks that test a deliberately broken rule) a
#: function ``(board, white, black, cell) -> WHITE | BLACK | None``.
ControllerFunction = Callable[[HexBoard, int, int, int], "int | None"]
ControlRule = Literal["adjacent", "sight"] | ControllerFunction


# ---------------------------------------------------------------------------- control
def seeing_cells(board: HexBoard, occupied: int, cell: int, rule: str) -> list[int]:
    """The occupied cells whose pieces take part in the vote on ``cell``.

    ``adjacent``: the occupied neighbours. ``sight``: along each of the six rays, the first
    occupied cell (pieces further along that ray are hidden behind it).
    """
    if rule == "adjacent":
        return [j for j in board.neighbours[cell] if occupied >> j & 1]
    seen = []
    for ray in board.rays[cell]:
        for j in ray:
            if occupied >> j & 1:
                seen.append(j)
                break
    return seen


def controller(
    board: HexBoard, white: int, black: int, cell: int, rule: ControlRule = "adjacent"
) -> int | None:
    """WHITE or BLACK if that colour holds a strict majority of the pieces voting on ``cell``
    (its neighbours, or under ``sight`` the pieces that see it); ``None`` on a tie."""
    if callable(rule):
        return rule(board, white, black, cell)
    voters = seeing_cells(board, white | black, cell, rule)
    white_votes = sum(1 for j in voters if white >> j & 1)
    black_votes = len(voters) - white_votes
    if white_votes > black_votes:
        return WHITE
    if black_votes > white_votes:
        return BLACK
    return None


def control_masks(
    board: HexBoard, white: int, black: int, rule: ControlRule = "adjacent"
) -> tuple[int, int]:
    """Bitboards of the cells controlled by White and by Black (any cell, occupied or not)."""
    if rule == "adjacent":  # fast path, same rule as controller(): strict majority of neighbours
        white_controls = black_controls = 0
        for cell, mask in enumerate(board.neighbour_mask):
            w, b = (white & mask).bit_count(), (black & mask).bit_count()
            if w > b:
                white_controls |= 1 << cell
            elif b > w:
                black_controls |= 1 << cell
        return white_controls, black_controls
    white_controls = black_controls = 0
    for cell in range(board.size):
        owner = controller(board, white, black, cell, rule)
        if owner == WHITE:
            white_controls |= 1 << cell
        elif owner == BLACK:
            black_controls |= 1 << cell
    return white_controls, black_controls


def legal_moves(
    board: HexBoard,
    white: int,
    black: int,
    player: int,
    rule: ControlRule = "adjacent",
    opening: str = "perimeter",
) -> list[int]:
    """Placements (empty cells the opponent does not control) then removals (opponent pieces
    on cells the mover controls), in cell order. White's first move is a placement on a
    perimeter cell unless ``opening == "free"``."""
    occupied = white | black
    if occupied == 0 and player == WHITE and opening == "perimeter":
        return list(board.perimeter)
    white_controls, black_controls = control_masks(board, white, black, rule)
    own_controls, opponent_controls = (
        (white_controls, black_controls) if player == WHITE else (black_controls, white_controls)
    )
    opponent_pieces = black if player == WHITE else white
    placeable = board.full_mask & ~occupied & ~opponent_controls
    removable = opponent_pieces & own_controls
    return list(board.cells_of(placeable)) + [REMOVAL + c for c in board.cells_of(removable)]


def apply_move(white: int, black: int, player: int, move: int) -> tuple[int, int]:
    """The boards after ``player`` makes ``move`` (no legality check)."""
    if move >= REMOVAL:
        bit = 1 << (move - REMOVAL)
        return (white, black & ~bit) if player == WHITE else (white & ~bit, black)
    bit = 1 << move
    return (white | bit, black) if player == WHITE else (white, black | bit)


def territory(
    board: HexBoard, white: int, black: int, rule: ControlRule = "adjacent"
) -> tuple[int, int]:
    """Territory of White and Black for the document's second scoring: the cells holding an
    own piece or controlled by the player (each cell counted once)."""
    white_controls, black_controls = control_masks(board, white, black, rule)
    return (white | white_controls).bit_count(), (black | black_controls).bit_count()


def controlled_empty(
    board: HexBoard, white: int, black: int, rule: ControlRule = "adjacent"
) -> tuple[int, int]:
    """Score of the document's first scoring: empty cells controlled by White and by Black."""
    white_controls, black_controls = control_masks(board, white, black, rule)
    empty = board.full_mask & ~(white | black)
    return (white_controls & empty).bit_count(), (black_controls & empty).bit_count()


def adjacency_potential(board: HexBoard, white: int, black: int) -> int:
    """V of the termination proof: adjacent same-colour pairs minus adjacent mixed pairs."""
    same = mixed = 0
    for cell in board.cells_of(white | black):
        mask = board.neighbour_mask[cell]
        own, other = (white, black) if white >> cell & 1 else (black, white)
        same += (own & mask).bit_count()
        mixed += (other & mask).bit_count()
    return (same - mixed) // 2  # every pair was counted from both ends


# ---------------------------------------------------------------------------- the game
@register
class Control(Game[ControlPosition, int]):
    """Control on a hexhex board of side ``size``; see the module docstring for the rules."""

    name = "control"
    summary = "territory by adjacency majority on a hexhex board; place or remove, no move loses"
    params = (
        Param("size", int, 3, "side of the hexhex board", minimum=2, maximum=MAX_SIZE),
        Param(
            "control",
            str,
            "adjacent",
            "who controls a cell: adjacent pieces or pieces in sight",
            choices=("adjacent", "sight"),
        ),
        Param(
            "opening",
            str,
            "perimeter",
            "where White's first piece may go",
            choices=("perimeter", "free"),
        ),
    )
    variants: ClassVar[dict[str, dict[str, Any]]] = {
        "tumpletore-with-removal": {"control": "sight"},
        "free-opening": {"opening": "free"},
    }
    players = ("White", "Black")
    symmetry_count = 12
    size: int
    control: str
    opening: str

    def validate(self) -> None:
        self.board = hex_board(self.size)
        #: The control rule used by the move generator. Claims checks may replace it by a
        #: function to show that they refute a deliberately broken rule.
        self.rule: ControlRule = cast(ControlRule, self.control)

    # ------------------------------------------------------------------ the rules
    def initial_position(self) -> ControlPosition:
        return (0, 0, WHITE)

    def to_move(self, position: ControlPosition) -> int:
        return position[2]

    def moves(self, position: ControlPosition) -> list[int]:
        white, black, player = position
        return legal_moves(self.board, white, black, player, self.rule, self.opening)

    def play(self, position: ControlPosition, move: int) -> ControlPosition:
        white, black, player = position
        white, black = apply_move(white, black, player, move)
        return (white, black, 1 - player)

    def controller(self, position: ControlPosition, cell: int) -> int | None:
        """WHITE, BLACK or None: who controls ``cell`` in ``position``."""
        return controller(self.board, position[0], position[1], cell, self.rule)

    def territory(self, position: ControlPosition) -> tuple[int, int]:
        """(White, Black) territory: own pieces plus controlled cells."""
        return territory(self.board, position[0], position[1], self.rule)

    def controlled_empty(self, position: ControlPosition) -> tuple[int, int]:
        """(White, Black) count of controlled empty cells."""
        return controlled_empty(self.board, position[0], position[1], self.rule)

    def score(
        self, position: ControlPosition, method: Literal["territory", "empty"] = "territory"
    ) -> tuple[int, int]:
        """Score by agreement, (White, Black): ``territory`` (own pieces plus controlled cells)
        or ``empty`` (controlled empty cells only), the document's two optional scorings."""
        if method == "territory":
            return self.territory(position)
        if method == "empty":
            return self.controlled_empty(position)
        raise ParameterError(f"unknown scoring method {method!r} (territory|empty)")

    # ------------------------------------------------------------ identity and symmetry
    def key(self, position: ControlPosition) -> tuple[int, int, int]:
        return position

    def transform(self, position: ControlPosition, symmetry: int) -> ControlPosition:
        white, black, player = position
        return (
            self._transform_mask(white, symmetry),
            self._transform_mask(black, symmetry),
            player,
        )

    def canonical_key(self, position: ControlPosition) -> tuple[int, int, int]:
        white, black, player = position
        return min(
            (self._transform_mask(white, s), self._transform_mask(black, s), player)
            for s in range(12)
        )

    def _transform_mask(self, mask: int, symmetry: int) -> int:
        """Same as HexBoard.transform_mask, by table lookup on 8-bit chunks: canonical keys
        are computed at every node of a solve, so this is the solvers' hot spot."""
        tables = self._chunk_tables()[symmetry]
        out = 0
        chunk = 0
        while mask:
            out |= tables[chunk][mask & 0xFF]
            mask >>= 8
            chunk += 1
        return out

    def _chunk_tables(self) -> list[list[list[int]]]:
        tables: list[list[list[int]]] | None = getattr(self, "_tables", None)
        if tables is None:
            chunks = (self.board.size + 7) // 8
            tables = [
                [
                    [
                        self.board.transform_mask((v << (8 * k)) & self.board.full_mask, s)
                        for v in range(256)
                    ]
                    for k in range(chunks)
                ]
                for s in range(12)
            ]
            self._tables = tables
        return tables

    def transform_move(self, position: ControlPosition, move: int, symmetry: int) -> int:
        permutation = self.board.symmetries[symmetry]
        if move >= REMOVAL:
            return REMOVAL + permutation[move - REMOVAL]
        return permutation[move]

    # ---------------------------------------------------------------- notation
    def parse(self, text: str) -> ControlPosition:
        parts = text.split()
        if len(parts) != 2:
            raise PositionError(
                f"expected '<rows separated by /> <W|B>' (e.g. '.W/.../.. B'), got {text!r}"
            )
        cells_text, side = parts
        if side not in PLAYER_LETTERS:
            raise PositionError(f"side to move must be W or B, got {side!r}")
        cells = self.board.parse_cells(cells_text, CELL_SYMBOLS)
        white = sum(1 << i for i, state in enumerate(cells) if state == 1)
        black = sum(1 << i for i, state in enumerate(cells) if state == 2)
        player = PLAYER_LETTERS.index(side)
        whites, blacks = white.bit_count(), black.bit_count()
        # Every move raises (mover's pieces - opponent's pieces) by one, so after k moves
        # each, #W == #B with White to move, and #W == #B + 1 with Black to move.
        expected_whites = blacks if player == WHITE else blacks + 1
        if whites != expected_whites:
            raise PositionError(
                f"impossible position: {whites} white and {blacks} black pieces with "
                f"{self.players[player]} to move (need #W == #B"
                f"{'' if player == WHITE else ' + 1'})"
            )
        return (white, black, player)

    def render(self, position: ControlPosition) -> str:
        white, black, player = position
        return f"{self.board.render_cells(self._cell_states(white, black), CELL_SYMBOLS)} {PLAYER_LETTERS[player]}"

    def move_name(self, position: ControlPosition, move: int) -> str:
        if move >= REMOVAL:
            return "x" + self.board.cell_name(move - REMOVAL)
        return self.board.cell_name(move)

    def describe(self, position: ControlPosition) -> str:
        white, black, player = position
        drawing = self.board.describe(self._cell_states(white, black), CELL_SYMBOLS)
        return f"{drawing}\n{self.players[player]} to move"

    def move_target(self, position: ControlPosition, move: int) -> int:
        return move % REMOVAL  # the cell placed on or cleared

    def draw(
        self,
        position: ControlPosition,
        ax: Any,
        cell_colours: dict[int, str] | None = None,
        cell_labels: dict[int, str] | None = None,
    ) -> None:
        """Stones in their colours; empty cells tinted by who controls them (light: White's,
        dark: Black's), unless ``cell_colours`` overrides a cell."""
        white, black, _ = position
        white_controls, black_controls = control_masks(self.board, white, black, self.rule)
        tints = []
        for cell in range(self.board.size):
            if cell_colours and cell in cell_colours:
                tints.append(cell_colours[cell])
            elif white_controls >> cell & 1:
                tints.append("#fbf7ee")
            elif black_controls >> cell & 1:
                tints.append("#b9ae98")
            else:
                tints.append("#e6d5ae")
        stones = {c: "white" for c in self.board.cells_of(white)}
        stones.update({c: "black" for c in self.board.cells_of(black)})
        labels = [(cell_labels or {}).get(c, "") for c in range(self.board.size)]
        self.board.draw(ax, facecolors=tints, labels=labels if cell_labels else None, stones=stones)

    # ------------------------------------------------------------- CGT support
    def with_to_move(self, position: ControlPosition, player: int) -> ControlPosition:
        if player not in (WHITE, BLACK):
            raise ParameterError(f"player must be 0 (White) or 1 (Black), got {player!r}")
        return (position[0], position[1], player)

    # ---------------------------------------------------------------- helpers
    def _cell_states(self, white: int, black: int) -> Sequence[int]:
        return [1 if white >> i & 1 else 2 if black >> i & 1 else 0 for i in range(self.board.size)]
