"""Control: a territory game on a hexhex board (docs/rules.md, "Control").

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

**Fixed cells.** A position may carry a fourth bitboard, ``(white, black, player, fixed)``
with ``fixed != 0``: cells out of play, which never change. A fixed piece votes but cannot be
removed; a fixed empty cell cannot be played on (and, being empty, does not vote). Notation:
``w`` and ``b`` for fixed pieces, ``#`` for a fixed empty cell. Such positions are the
*regions* that :meth:`Control.components` splits a position into; three-element positions
(``fixed == 0``) are the game as played, and every position of the game as played stays one.

**Why regions are independent** (adjacent control only). Whether a move on cell ``x`` is
legal depends only on what ``x`` holds and on the pieces on ``x``'s neighbours (its votes),
and a move on ``x`` changes only ``x``, so only the votes on ``x``'s neighbours. A piece is
*frozen* (:func:`frozen_pieces`) when it can never be removed: even if every neighbour that
is not a frozen piece of its colour came to hold an opponent piece, the opponent would not
have a strict majority. Frozen pieces never move and nothing is placed on them, so the other
cells (empty or unfrozen pieces) split into groups connected through non-frozen neighbours,
and a move in one group changes no vote on any cell of another. The position is then the
disjunctive sum of the groups, each played with its frozen neighbours as fixed voters; a
player with no move in any group has no move at all and loses, as in the sum. Control by
sight lets a move change votes far away, so ``control=sight`` positions are never split; the
empty board with White's perimeter opening pending is not split either (the opening rule
reads the whole board).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal, cast

from cgt.boards.hexhex import MAX_SIZE, HexBoard, hex_board
from cgt.errors import ParameterError, PositionError
from cgt.protocol import Game, Param, PieceStyle
from cgt.registry import register

WHITE = 0
BLACK = 1
PLAYER_LETTERS = "WB"
#: Cell symbols of the notation, indexed by cell state: empty, white, black, and the fixed
#: (out of play) states: fixed empty, fixed white, fixed black.
CELL_SYMBOLS = ".WB#wb"
#: Offset of a fixed state from the plain one (``#`` is fixed ``.``, ``w`` fixed ``W``).
FIXED_STATE = 3
#: A removal of the piece on cell ``c`` is the move ``REMOVAL + c`` (placements are ``c``).
REMOVAL = 1 << 16

#: ``(white, black, player)``, or ``(white, black, player, fixed)`` with ``fixed != 0``
#: (cells out of play, see the module docstring); build one with :func:`control_position`.
ControlPosition = tuple[int, ...]
#: Who controls a cell: a rule name, or (for checks that test a deliberately broken rule) a
#: function ``(board, white, black, cell) -> WHITE | BLACK | None``.
ControllerFunction = Callable[[HexBoard, int, int, int], "int | None"]
ControlRule = Literal["adjacent", "sight"] | ControllerFunction


# ---------------------------------------------------------------------------- positions
def control_position(white: int, black: int, player: int, fixed: int = 0) -> ControlPosition:
    """The position tuple: three elements when no cell is fixed (the game as played)."""
    return (white, black, player) if fixed == 0 else (white, black, player, fixed)


def position_parts(position: ControlPosition) -> tuple[int, int, int, int]:
    """``(white, black, player, fixed)`` of a position of either length."""
    if len(position) == 3:
        return position[0], position[1], position[2], 0
    white, black, player, fixed = position
    return white, black, player, fixed


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
    fixed: int = 0,
) -> list[int]:
    """Placements (empty cells the opponent does not control) then removals (opponent pieces
    on cells the mover controls), in cell order, never on a ``fixed`` cell. White's first move
    (empty board, no fixed cell) is a placement on a perimeter cell unless
    ``opening == "free"``."""
    occupied = white | black
    if occupied == 0 and fixed == 0 and player == WHITE and opening == "perimeter":
        return list(board.perimeter)
    white_controls, black_controls = control_masks(board, white, black, rule)
    own_controls, opponent_controls = (
        (white_controls, black_controls) if player == WHITE else (black_controls, white_controls)
    )
    opponent_pieces = black if player == WHITE else white
    placeable = board.full_mask & ~occupied & ~opponent_controls & ~fixed
    removable = opponent_pieces & own_controls & ~fixed
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


def frozen_pieces(board: HexBoard, white: int, black: int, fixed: int = 0) -> int:
    """Bitboard of the pieces that no sequence of legal moves can remove (adjacent control).

    The greatest fixed point of: a piece is frozen when, even if every neighbour that is not
    a frozen piece of its colour came to hold an opponent piece, the opponent would not hold
    a strict majority of its votes. Fixed pieces are frozen by definition, and fixed empty
    neighbours never vote. Start with every piece frozen and unfreeze until nothing changes.
    Sound because the first frozen piece to be removed would, just before, still have all its
    frozen same-colour neighbours, which are at least half of its possible voters.
    """
    pieces = white | black
    never_voting = fixed & ~pieces
    frozen = pieces
    changed = True
    while changed:
        changed = False
        for cell in board.cells_of(frozen & ~fixed):
            neighbours = board.neighbour_mask[cell]
            own = white if white >> cell & 1 else black
            sure_votes = (own & frozen & neighbours).bit_count()
            possible_voters = (neighbours & ~never_voting).bit_count()
            if possible_voters - sure_votes > sure_votes:
                frozen &= ~(1 << cell)
                changed = True
    return frozen


def independent_regions(board: HexBoard, white: int, black: int, fixed: int = 0) -> list[int]:
    """The groups of cells that can still change (empty or unfrozen, not fixed), connected
    through adjacency, in order of their lowest cell (adjacent control; see the module
    docstring for why they are independent)."""
    frozen = frozen_pieces(board, white, black, fixed)
    remaining = board.full_mask & ~frozen & ~fixed
    regions = []
    while remaining:
        region = remaining & -remaining
        frontier = region
        while frontier:
            grown = 0
            for cell in board.cells_of(frontier):
                grown |= board.neighbour_mask[cell]
            frontier = grown & remaining & ~region
            region |= frontier
        remaining &= ~region
        regions.append(region)
    return regions


# ---------------------------------------------------------------------------- the game
@register
class Control(Game[ControlPosition, int]):
    """Control on a hexhex board of side ``size``; see the module docstring for the rules."""

    name = "control"
    summary = "territory by adjacency majority on a hexhex board; place or remove, no move loses"
    title = "Control"
    claims_module = "proofs.control"
    report_module = "cgtapp.report.games.control"
    pieces = (
        PieceStyle("W", "White piece", fill="#ffffff"),
        PieceStyle("B", "Black piece", fill="#222222"),
        PieceStyle("w", fill="#ffffff", ring=True),
        PieceStyle("b", fill="#222222", ring=True),
        PieceStyle("#", kind="void"),
    )
    legend = (("white", "White piece"), ("black", "Black piece"))
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
        # Adjacency control always ends (control.termination); line of sight has cycles
        # (control.sight-cycle), so its positions can repeat.
        self.acyclic = self.control != "sight"

    # ------------------------------------------------------------------ the rules
    def initial_position(self) -> ControlPosition:
        return (0, 0, WHITE)

    def to_move(self, position: ControlPosition) -> int:
        return position[2]

    def moves(self, position: ControlPosition) -> list[int]:
        white, black, player, fixed = position_parts(position)
        return legal_moves(self.board, white, black, player, self.rule, self.opening, fixed)

    def play(self, position: ControlPosition, move: int) -> ControlPosition:
        white, black, player, fixed = position_parts(position)
        white, black = apply_move(white, black, player, move)
        return control_position(white, black, 1 - player, fixed)

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
    def key(self, position: ControlPosition) -> tuple[int, ...]:
        return position

    def transform(self, position: ControlPosition, symmetry: int) -> ControlPosition:
        white, black, player, fixed = position_parts(position)
        return control_position(
            self._transform_mask(white, symmetry),
            self._transform_mask(black, symmetry),
            player,
            self._transform_mask(fixed, symmetry),
        )

    def canonical_key(self, position: ControlPosition) -> tuple[int, ...]:
        if len(position) == 3:
            white, black, player = position
            return min(
                (self._transform_mask(white, s), self._transform_mask(black, s), player)
                for s in range(12)
            )
        # The same minimum as over (white, black, player, fixed) images, cheaper: the fixed
        # mask only breaks ties, and its complement (the few free cells) is the one mapped.
        white, black, player, fixed = position
        transform = self._transform_mask
        images = [(transform(white, s), transform(black, s), s) for s in range(12)]
        low_white, low_black, _ = min(images)
        full = self.board.full_mask
        free = full & ~fixed
        low_fixed = min(
            full & ~transform(free, s)
            for image_white, image_black, s in images
            if image_white == low_white and image_black == low_black
        )
        return (low_white, low_black, player, low_fixed)

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
        white = sum(1 << i for i, state in enumerate(cells) if state % FIXED_STATE == 1)
        black = sum(1 << i for i, state in enumerate(cells) if state % FIXED_STATE == 2)
        fixed = sum(1 << i for i, state in enumerate(cells) if state >= FIXED_STATE)
        player = PLAYER_LETTERS.index(side)
        whites, blacks = white.bit_count(), black.bit_count()
        # Every move raises (mover's pieces - opponent's pieces) by one, so after k moves
        # each, #W == #B with White to move, and #W == #B + 1 with Black to move. A position
        # with fixed cells is a region of a game, whose pieces need not balance.
        expected_whites = blacks if player == WHITE else blacks + 1
        if fixed == 0 and whites != expected_whites:
            raise PositionError(
                f"impossible position: {whites} white and {blacks} black pieces with "
                f"{self.players[player]} to move (need #W == #B"
                f"{'' if player == WHITE else ' + 1'})"
            )
        return control_position(white, black, player, fixed)

    def render(self, position: ControlPosition) -> str:
        white, black, player, fixed = position_parts(position)
        cells = self.board.render_cells(self._cell_states(white, black, fixed), CELL_SYMBOLS)
        return f"{cells} {PLAYER_LETTERS[player]}"

    def move_name(self, position: ControlPosition, move: int) -> str:
        if move >= REMOVAL:
            return "x" + self.board.cell_name(move - REMOVAL)
        return self.board.cell_name(move)

    def describe(self, position: ControlPosition) -> str:
        white, black, player, fixed = position_parts(position)
        drawing = self.board.describe(self._cell_states(white, black, fixed), CELL_SYMBOLS)
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
        dark: Black's; fixed cells grey), unless ``cell_colours`` overrides a cell."""
        white, black, _, fixed = position_parts(position)
        white_controls, black_controls = control_masks(self.board, white, black, self.rule)
        tints = []
        for cell in range(self.board.size):
            if cell_colours and cell in cell_colours:
                tints.append(cell_colours[cell])
            elif fixed >> cell & 1:
                tints.append("#9a9a9a")
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
        white, black, _, fixed = position_parts(position)
        return control_position(white, black, player, fixed)

    def components(self, position: ControlPosition) -> list[ControlPosition] | None:
        """One position per independent region (see the module docstring), ``None`` under
        control by sight (or a replaced rule) and on the empty board before White's perimeter
        opening; ``[position]`` when there is a single region. A region's position keeps the
        region's cells and the frozen pieces next to them (fixed); every other cell is fixed and empty, and the whole is moved to a normal
        placement, so equal regions anywhere on the board (translated, rotated or mirrored)
        are equal positions. A translation is harmless: a region cell that gains an
        on-board neighbour gains a fixed empty one, which never votes. A position where nothing can change has no component (value 0)."""
        if self.rule != "adjacent":
            return None
        white, black, player, fixed = position_parts(position)
        if white | black | fixed == 0 and self.opening == "perimeter":
            return None
        board = self.board
        regions = independent_regions(board, white, black, fixed)
        if len(regions) == 1:
            # Nothing to add up: the position itself, without paying for a normal placement
            # at every position of a search that does not split.
            return [position]
        out = []
        for region in regions:
            voters = 0
            for cell in board.cells_of(region):
                voters |= board.neighbour_mask[cell]
            kept = region | voters & (white | black)
            out.append(self._normal_placement(white & kept, black & kept, player, region))
        return out

    def _normal_placement(
        self, white: int, black: int, player: int, region: int
    ) -> ControlPosition:
        """The region's position (every cell outside ``region`` fixed), in a placement that
        depends only on its shape up to translation and the board's symmetries: each of the
        12 symmetric images is pushed to the top (then to the left) as far as the board
        allows, and the image with the smallest key wins. Equal shapes give equal image sets,
        so they end in the same placement."""
        board = self.board
        m = board.n - 1
        kept_cells = list(board.cells_of(white | black | region))
        best: ControlPosition | None = None
        for permutation in board.symmetries:
            coords = [board.coords[permutation[c]] for c in kept_cells]
            low_q = min(q for q, _ in coords)
            high_q = max(q for q, _ in coords)
            low_r = min(r for _, r in coords)
            high_r = max(r for _, r in coords)
            low_s = min(q + r for q, r in coords)
            high_s = max(q + r for q, r in coords)
            # A shift (dq, dr) keeps every cell on the board when |q|, |r| and |q + r| stay
            # within m; take the smallest dr that admits a dq, then the smallest dq.
            for dr in range(-m - low_r, m - high_r + 1):
                dq = max(-m - low_q, -m - low_s - dr)
                if dq <= min(m - high_q, m - high_s - dr):
                    break
            else:  # pragma: no cover - the unshifted image is always on the board
                raise AssertionError("no placement on the board")
            image = {
                cell: board.index[(q + dq, r + dr)] for cell, (q, r) in zip(kept_cells, coords)
            }

            def moved(mask: int, image: dict[int, int] = image) -> int:
                return sum(1 << image[cell] for cell in board.cells_of(mask))

            candidate = control_position(
                moved(white), moved(black), player, board.full_mask & ~moved(region)
            )
            if best is None or candidate < best:
                best = candidate
        assert best is not None
        return best

    # ---------------------------------------------------------------- helpers
    def _cell_states(self, white: int, black: int, fixed: int = 0) -> Sequence[int]:
        return [
            (1 if white >> i & 1 else 2 if black >> i & 1 else 0)
            + (FIXED_STATE if fixed >> i & 1 else 0)
            for i in range(self.board.size)
        ]
