"""Entropy (Augustine Carreno, 1992): scatter your pieces so that each touches an enemy piece
and none touches a friend.

Rules (docs/rules.md, "Entropy"):

* A 5x5 board with seven pieces each, ``SSSSS/S...S/...../O...O/OOOOO`` (rank 5 first).
  O (white in the document) moves first. Pieces never enter or leave the board.
* *Adjacent* means one of the eight neighbours.
* A piece may move only if it is adjacent to a friendly piece. It moves like a chess queen:
  any number of empty cells in one of the eight directions, no jumping, no capturing.
* A piece adjacent to no piece at all is *isolated*. If the mover has isolated pieces, only
  moves after which none of those pieces is isolated are allowed; if there is none, the mover
  passes. Otherwise the mover must move if they can, and passes only when they cannot. A move
  that isolates one of the mover's own pieces is allowed (the document's note).
* **Win**: every piece of a player is adjacent to at least one enemy piece and to no friendly
  piece. It is checked after every move (and pass) for both players: if only one player meets
  it, that player wins, whoever moved; if both do, the game is drawn. If neither player can
  move and nobody has won, the game is drawn. Endless play is a draw (the solvers score
  unresolved cycles as draws).
* Variant ``goal=disable`` (other rule sources): a player wins as soon as none of their pieces
  is adjacent to a friendly piece; both at once is again a draw.

Positions are ``(O cells, S cells, player to move)`` with the cells as bitboards over
:func:`cgt.boards.square.square_board` (cell ``rank * width + file``, a1 = 0). A move is
``(from cell, to cell)``; the pass, legal only when no real move is, is :data:`PASS`.

Other boards (``width``, ``height``) take a ``setup`` position string. Without one, boards at
least 2 wide and 4 high use the standard pattern scaled to the board: S fills the top rank
and the two end cells of the rank below, O the mirror image at the bottom (on 5x5 this is the
document's start). Smaller boards need an explicit ``setup``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from cgt.boards.square import SquareBoard, square_board
from cgt.errors import ParameterError, PositionError
from cgt.protocol import Game, Outcome, Param, PieceStyle
from cgt.registry import register

#: ``(O cells bitboard, S cells bitboard, player to move)``.
EntropyPosition = tuple[int, int, int]
#: ``(from cell, to cell)``, or :data:`PASS`.
EntropyMove = tuple[int, int]

PLAYER_O: Final = 0
PLAYER_S: Final = 1
#: The pass, the only move of a player who has no legal real move.
PASS: Final[EntropyMove] = (-1, -1)
#: Cell symbols of the position notation, indexed by cell content (empty, O, S).
SYMBOLS: Final = ".OS"
PLAYER_SYMBOLS: Final = "OS"
GOALS: Final = ("standard", "disable")
#: Stone colours for drawings: the document's white (O) and red (S).
STONE_COLOURS: Final = ("white", "#c8322d")


def default_setup(width: int, height: int) -> str | None:
    """The document's start pattern scaled to the board, or ``None`` where it does not fit.

    S takes the whole top rank and the two end cells of the next rank, O the mirror image at
    the bottom; O moves first. It needs at least four ranks so the two camps do not overlap.
    """
    if width < 2 or height < 4:
        return None
    back, front = "S" * width, "S" + "." * (width - 2) + "S"
    rows = [back, front] + ["." * width] * (height - 4)
    rows += [front.replace("S", "O"), back.replace("S", "O")]
    return "/".join(rows) + " O"


@register
class Entropy(Game[EntropyPosition, EntropyMove]):
    """Entropy on a ``width`` x ``height`` board (default: the document's 5x5 game)."""

    name = "entropy"
    summary = "Carreno's Entropy: queen moves, win when each piece touches an enemy and no friend"
    title = "Entropy"
    claims_module = "proofs.entropy"
    report_module = "cgtapp.report.games.entropy"
    pieces = (
        PieceStyle("O", "O (the document's white)", fill="#ffffff"),
        PieceStyle("S", "S (the document's red)", fill="#c8322d"),
    )
    legend = (("white", "O (the document's white)"), ("#c8322d", "S (the document's red)"))
    params = (
        Param("width", int, 5, "number of files", minimum=1, maximum=26),
        Param("height", int, 5, "number of ranks", minimum=1, maximum=26),
        Param(
            "setup",
            str,
            None,
            "starting position string (side to move optional, default O); "
            "default: the standard pattern for the board size",
        ),
        Param(
            "goal",
            str,
            "standard",
            "standard: touch an enemy and no friend; disable: touch no friend",
            choices=GOALS,
        ),
    )
    variants: ClassVar[dict[str, dict[str, Any]]] = {"disable": {"goal": "disable"}}
    players = ("O", "S")
    normal_play = False  # won by a pattern, drawn when nobody can move
    acyclic = False  # pieces move back and forth: endless play is a draw

    width: int
    height: int
    setup: str | None
    goal: str

    def validate(self) -> None:
        self.board: SquareBoard = square_board(self.width, self.height)
        self.symmetry_count = len(self.board.symmetry_ids)
        self._king_mask = self.board.king_mask
        self._rays = self.board.rays
        self._needs_enemy = self.goal == "standard"
        self._symmetry_tables = [self._byte_tables(b) for b in self.board.symmetry_ids]
        setup = self.setup if self.setup is not None else default_setup(self.width, self.height)
        if setup is None:
            raise ParameterError(
                f"entropy: a {self.width}x{self.height} board has no default setup; "
                "give setup=<position string>"
            )
        text = setup.strip()
        if len(text.split()) == 1:
            text += " O"
        try:
            self._initial = self._parse_any_counts(text)
        except PositionError as exc:
            raise ParameterError(f"entropy: bad setup {setup!r}: {exc}") from None
        self.piece_counts: tuple[int, int] = (
            self._initial[0].bit_count(),
            self._initial[1].bit_count(),
        )

    def _byte_tables(self, board_symmetry: int) -> list[list[int]]:
        """Image of every byte of a bitboard under one symmetry, so that a transform costs a
        few lookups (``canonical_key`` runs once per enumerated position in the solvers)."""
        tables = []
        for chunk in range((self.board.size + 7) // 8):
            tables.append(
                [
                    self.board.transform_mask(
                        (byte << (8 * chunk)) & self.board.full_mask, board_symmetry
                    )
                    for byte in range(256)
                ]
            )
        return tables

    def _transform_mask(self, mask: int, symmetry: int) -> int:
        image = 0
        for chunk, table in enumerate(self._symmetry_tables[symmetry]):
            image |= table[(mask >> (8 * chunk)) & 255]
        return image

    # ----------------------------------------------------------------- the rules
    def initial_position(self) -> EntropyPosition:
        return self._initial

    def to_move(self, position: EntropyPosition) -> int:
        return position[2]

    def is_isolated(self, position: EntropyPosition, cell: int) -> bool:
        """True when the piece on ``cell`` has no piece of either colour next to it."""
        return not self._king_mask[cell] & (position[0] | position[1])

    def isolated_pieces(self, position: EntropyPosition, player: int) -> list[int]:
        """Cells of ``player``'s isolated pieces, which that player must resolve."""
        occupied = position[0] | position[1]
        return [
            c for c in self.board.cells_of(position[player]) if not self._king_mask[c] & occupied
        ]

    def can_piece_move(self, position: EntropyPosition, cell: int) -> bool:
        """The movement condition: only a piece with a friendly neighbour may move."""
        own = position[0] if position[0] >> cell & 1 else position[1]
        return bool(self._king_mask[cell] & own)

    def real_moves(self, position: EntropyPosition, player: int) -> list[EntropyMove]:
        """Legal moves other than the pass for ``player`` (whether or not it is their turn).

        Queen slides of pieces with a friendly neighbour; while ``player`` has isolated pieces,
        only the slides after which none of them is isolated.
        """
        mine = position[player]
        occupied = position[0] | position[1]
        king, rays = self._king_mask, self._rays
        slides: list[EntropyMove] = []
        for source in self.board.cells_of(mine):
            if not king[source] & mine:
                continue  # no friendly neighbour: this piece may not move
            for ray in rays[source]:
                for target in ray:
                    if occupied >> target & 1:
                        break
                    slides.append((source, target))
        isolated = [c for c in self.board.cells_of(mine) if not king[c] & occupied]
        if not isolated or not slides:
            return slides
        resolving = []
        for source, target in slides:
            after = occupied ^ (1 << source) ^ (1 << target)
            if all(king[c] & after for c in isolated):
                resolving.append((source, target))
        return resolving

    def has_real_move(self, position: EntropyPosition, player: int) -> bool:
        """Whether ``player`` has a legal move other than the pass.

        Without isolated pieces that means a piece with a friendly neighbour and an empty
        neighbour (its first queen step); with isolated pieces the full rule decides.
        """
        mine = position[player]
        occupied = position[0] | position[1]
        king = self._king_mask
        free = self.board.full_mask & ~occupied
        slide_possible = False
        for cell in self.board.cells_of(mine):
            if not king[cell] & occupied:
                return bool(self.real_moves(position, player))  # isolated piece: full rule
            if king[cell] & mine and king[cell] & free:
                slide_possible = True
        return slide_possible

    def moves(self, position: EntropyPosition) -> Sequence[EntropyMove]:
        return self.real_moves(position, position[2]) or [PASS]

    def play(self, position: EntropyPosition, move: EntropyMove) -> EntropyPosition:
        o_cells, s_cells, player = position
        if move == PASS:
            return (o_cells, s_cells, 1 - player)
        change = (1 << move[0]) | (1 << move[1])
        if player == PLAYER_O:
            return (o_cells ^ change, s_cells, PLAYER_S)
        return (o_cells, s_cells ^ change, PLAYER_O)

    def goal_met(self, position: EntropyPosition, player: int) -> bool:
        """The win condition for ``player``: no piece touches a friend and (standard goal)
        every piece touches an enemy."""
        mine, theirs = position[player], position[1 - player]
        king = self._king_mask
        for cell in self.board.cells_of(mine):
            if king[cell] & mine:
                return False
            if self._needs_enemy and not king[cell] & theirs:
                return False
        return True

    def winner(self, position: EntropyPosition) -> int | None:
        """The player who has won, or ``None`` (nobody yet, or both at once: a draw)."""
        o_won, s_won = self.goal_met(position, PLAYER_O), self.goal_met(position, PLAYER_S)
        if o_won == s_won:
            return None
        return PLAYER_O if o_won else PLAYER_S

    def result(self, position: EntropyPosition) -> Outcome | None:
        o_won, s_won = self.goal_met(position, PLAYER_O), self.goal_met(position, PLAYER_S)
        if o_won and s_won:
            return Outcome.DRAW
        if o_won or s_won:
            winner = PLAYER_O if o_won else PLAYER_S
            return Outcome.WIN if winner == position[2] else Outcome.LOSS
        if not self.has_real_move(position, PLAYER_O) and not self.has_real_move(
            position, PLAYER_S
        ):
            return Outcome.DRAW  # neither player can ever move again and nobody has won
        return None

    # ------------------------------------------------------------ identity and symmetry
    def key(self, position: EntropyPosition) -> int:
        size = self.board.size
        return position[0] | position[1] << size | position[2] << (2 * size)

    def transform(self, position: EntropyPosition, symmetry: int) -> EntropyPosition:
        """Symmetry number ``symmetry`` indexes :attr:`SquareBoard.symmetry_ids` (8 on a
        square board, 4 on a rectangle); the side to move is unchanged."""
        if symmetry == 0:
            return position
        return (
            self._transform_mask(position[0], symmetry),
            self._transform_mask(position[1], symmetry),
            position[2],
        )

    def canonical_key(self, position: EntropyPosition) -> int:
        """Smallest :meth:`key` over the symmetric images (the protocol's definition, with
        table lookups instead of building each image)."""
        o_cells, s_cells, player = position
        size = self.board.size
        best = -1
        for tables in self._symmetry_tables:
            o_image = s_image = 0
            for chunk, table in enumerate(tables):
                o_image |= table[(o_cells >> (8 * chunk)) & 255]
                s_image |= table[(s_cells >> (8 * chunk)) & 255]
            candidate = o_image | s_image << size | player << (2 * size)
            if best < 0 or candidate < best:
                best = candidate
        return best

    def transform_move(
        self, position: EntropyPosition, move: EntropyMove, symmetry: int
    ) -> EntropyMove:
        if move == PASS:
            return PASS
        permutation = self.board.symmetries[self.board.symmetry_ids[symmetry]]
        return (permutation[move[0]], permutation[move[1]])

    # ---------------------------------------------------------------- notation
    def _parse_any_counts(self, text: str) -> EntropyPosition:
        parts = text.split()
        if len(parts) != 2:
            raise PositionError(
                f"entropy: expected '<ranks separated by /> <O|S>', got {text.strip()!r}"
            )
        board_text, side = parts
        if side not in PLAYER_SYMBOLS:
            raise PositionError(f"entropy: side to move must be O or S, got {side!r}")
        cells = self.board.parse_cells(board_text, SYMBOLS)
        o_cells = sum(1 << i for i, v in enumerate(cells) if v == 1)
        s_cells = sum(1 << i for i, v in enumerate(cells) if v == 2)
        if not o_cells or not s_cells:
            raise PositionError("entropy: each player needs at least one piece")
        return (o_cells, s_cells, PLAYER_SYMBOLS.index(side))

    def parse(self, text: str) -> EntropyPosition:
        """Position string such as ``SSSSS/S...S/...../O...O/OOOOO O``.

        Pieces never enter or leave the board, so the piece counts must be those of this
        game's setup (use ``setup=`` to analyse other counts).
        """
        position = self._parse_any_counts(text)
        counts = (position[0].bit_count(), position[1].bit_count())
        if counts != self.piece_counts:
            raise PositionError(
                f"entropy: position has {counts[0]} O and {counts[1]} S pieces but this game has "
                f"{self.piece_counts[0]} and {self.piece_counts[1]} (pieces never enter or leave "
                "the board; pass setup=... to analyse other counts)"
            )
        return position

    def _cells(self, position: EntropyPosition) -> list[int]:
        return [
            1 if position[0] >> i & 1 else 2 if position[1] >> i & 1 else 0
            for i in range(self.board.size)
        ]

    def render(self, position: EntropyPosition) -> str:
        return (
            f"{self.board.render_cells(self._cells(position), SYMBOLS)} {self.players[position[2]]}"
        )

    def move_name(self, position: EntropyPosition, move: EntropyMove) -> str:
        if move == PASS:
            return "pass"
        return f"{self.board.cell_name(move[0])}-{self.board.cell_name(move[1])}"

    def describe(self, position: EntropyPosition) -> str:
        return (
            f"{self.board.describe(self._cells(position), SYMBOLS)}\n"
            f"{self.players[position[2]]} to move"
        )

    def draw(
        self,
        position: EntropyPosition,
        ax: Any,
        cell_colours: dict[int, str] | None = None,
        cell_labels: dict[int, str] | None = None,
    ) -> None:
        """O as white stones, S as red stones (the document's colours), over optional cell
        colours and labels."""
        size = self.board.size
        stones = {c: STONE_COLOURS[v - 1] for c, v in enumerate(self._cells(position)) if v}
        faces = None
        if cell_colours:
            faces = [cell_colours.get(i, "#f3e6c8") for i in range(size)]
        labels = [cell_labels.get(i, "") for i in range(size)] if cell_labels else None
        self.board.draw(ax, facecolors=faces, labels=labels, stones=stones)

    def move_target(self, position: EntropyPosition, move: EntropyMove) -> int | None:
        """The square the piece moves to; ``None`` for the pass."""
        return None if move == PASS else move[1]

    def move_source(self, position: EntropyPosition, move: EntropyMove) -> int | None:
        """The square the piece leaves; ``None`` for the pass."""
        return None if move == PASS else move[0]

    # ------------------------------------------------------------- CGT support
    def with_to_move(self, position: EntropyPosition, player: int) -> EntropyPosition:
        return (position[0], position[1], player)
