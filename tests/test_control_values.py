"""CGT values of Control positions split into independent regions (``Control.components``).

Independent evidence: frozen pieces are checked by a brute-force walk over every position
reachable by legal moves of either player in any order (and a deliberately over-generous
frozen rule is refuted by the same walk); values with the decomposition are compared with
the plain recursion on options (``components=False``), with sums of single-cell regions
computed by hand, and with the exact solver's outcomes for both players to move."""

from __future__ import annotations

import random
from itertools import product

import pytest

from cgt.algebra import parse_game
from cgt.algebra.values import ValueCalculator
from cgt.boards.hexhex import HexBoard, hex_board
from cgt.errors import CGTError
from cgt.games.control import (
    BLACK,
    REMOVAL,
    WHITE,
    Control,
    frozen_pieces,
    independent_regions,
    legal_moves,
)
from cgt.protocol import Outcome
from cgt.registry import load_game
from solvers import solve
from solvers.kernels.control import ControlKernel
from tests.cli_runner import run

#: Size 3, every piece frozen; the empty cells a1, c3 and e3 are regions of one cell each.
#: a1's voters are three White pieces, c3's three White and three Black, e3's three Black.
THREE_SINGLE_CELLS = ".WW/WWWW/WW.BB/BBBB/BB. W"


# ---------------------------------------------------------------------------- brute force
def removes_a_frozen_piece(
    board: HexBoard, white: int, black: int, frozen: int
) -> tuple[int, int, int] | None:
    """Walk every (white, black) reachable from the given boards by legal moves of either
    player, in any order (not only alternating); return ``(white, black, move)`` of a move that
    removes a piece of ``frozen``, or ``None`` if no reachable move does."""
    seen = {(white, black)}
    stack = [(white, black)]
    while stack:
        w, b = stack.pop()
        for player in (WHITE, BLACK):
            # opening="free": the perimeter rule only concerns the empty board, never reached
            # from a board with pieces (a last piece cannot be removed: no one controls it).
            for move in legal_moves(board, w, b, player, opening="free"):
                if move >= REMOVAL and frozen >> (move - REMOVAL) & 1:
                    return w, b, move
                bit = 1 << (move % REMOVAL)
                if move >= REMOVAL:
                    child = (w, b & ~bit) if player == WHITE else (w & ~bit, b)
                else:
                    child = (w | bit, b) if player == WHITE else (w, b | bit)
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    return None


def frozen_counting_only_present_voters(board: HexBoard, white: int, black: int) -> int:
    """A deliberately wrong frozen rule: it forgets that empty neighbours may fill up with
    opponent pieces (only the pieces standing now may vote against)."""
    frozen = white | black
    changed = True
    while changed:
        changed = False
        for cell in board.cells_of(frozen):
            neighbours = board.neighbour_mask[cell]
            own = white if white >> cell & 1 else black
            sure = (own & frozen & neighbours).bit_count()
            present = (neighbours & (white | black)).bit_count()
            if present - sure > sure:
                frozen &= ~(1 << cell)
                changed = True
    return frozen


def random_fills(board: HexBoard, count: int, seed: int, max_active: int) -> list[tuple[int, int]]:
    """Random boards (each cell empty, White or Black) whose cells that can still change
    number at most ``max_active``, so that the brute-force walk stays small."""
    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < count:
        white = black = 0
        empty_share = rng.choice((0.1, 0.2, 0.35))
        for cell in range(board.size):
            roll = rng.random()
            if roll < empty_share:
                continue
            if rng.random() < 0.5:
                white |= 1 << cell
            else:
                black |= 1 << cell
        active = board.full_mask & ~frozen_pieces(board, white, black)
        if active.bit_count() <= max_active:
            out.append((white, black))
    return out


def every_size2_board() -> list[tuple[int, int]]:
    board = hex_board(2)
    boards = []
    for states in product(range(3), repeat=board.size):
        white = sum(1 << c for c, s in enumerate(states) if s == 1)
        black = sum(1 << c for c, s in enumerate(states) if s == 2)
        boards.append((white, black))
    return boards


def test_frozen_pieces_are_never_removed_on_every_size2_board() -> None:
    board = hex_board(2)
    frozen_seen = 0
    for white, black in every_size2_board():
        frozen = frozen_pieces(board, white, black)
        frozen_seen += frozen.bit_count()
        assert removes_a_frozen_piece(board, white, black, frozen) is None
    assert frozen_seen > 0  # the check is not vacuous


def test_frozen_pieces_are_never_removed_on_random_size3_boards() -> None:
    board = hex_board(3)
    for white, black in random_fills(board, 40, seed=3, max_active=9):
        frozen = frozen_pieces(board, white, black)
        assert frozen, "the sample should have frozen pieces"
        assert removes_a_frozen_piece(board, white, black, frozen) is None


@pytest.mark.parametrize("size", [2, 3])
def test_the_brute_force_refutes_an_over_generous_frozen_rule(size: int) -> None:
    board = hex_board(size)
    boards = every_size2_board() if size == 2 else random_fills(board, 40, seed=3, max_active=9)
    refuted = [
        found
        for white, black in boards
        if (
            found := removes_a_frozen_piece(
                board, white, black, frozen_counting_only_present_voters(board, white, black)
            )
        )
        is not None
    ]
    assert refuted


def test_a_fixed_piece_is_frozen_and_fixed_empty_cells_never_vote() -> None:
    """By hand on size 2 (centre b2, six neighbours): a lone White centre piece with every
    other cell empty can be surrounded, so it is not frozen; with the six other cells fixed
    and empty, nobody can ever vote on it, so it is frozen. A fixed Black piece is frozen even
    when surrounded by White."""
    board = hex_board(2)
    centre = board.cell_by_name("b2")
    assert frozen_pieces(board, 1 << centre, 0) == 0
    others = board.full_mask & ~(1 << centre)
    assert frozen_pieces(board, 1 << centre, 0, fixed=others) == 1 << centre
    assert frozen_pieces(board, others, 1 << centre, fixed=1 << centre) >> centre & 1


# ---------------------------------------------------------------------------- notation
def test_fixed_cells_round_trip_and_old_strings_are_unchanged() -> None:
    game = load_game("control", size=2)
    plain = game.parse(".W/.B./.. W")
    assert len(plain) == 3 and game.render(plain) == ".W/.B./.. W"
    region = game.parse("#w/.B./.b B")
    assert len(region) == 4
    assert game.render(region) == "#w/.B./.b B"
    white, black, player, fixed = region
    assert player == BLACK and white.bit_count() == 1 and black.bit_count() == 2
    assert fixed.bit_count() == 3  # '#', 'w' and 'b'
    # A region need not balance its piece counts (the parity rule is for whole games).
    assert len(game.parse("ww/.../.. B")) == 4
    with pytest.raises(CGTError, match="impossible position"):
        game.parse("WW/.../.. B")


def test_fixed_cells_are_never_played() -> None:
    """By hand on size 2: White b1 (fixed) and the centre b2 empty and free, every other cell
    fixed and empty. White may place on b2 (a White vote only), Black may not (White controls
    it); nobody may touch the fixed cells, not even remove the fixed White piece."""
    game = load_game("control", size=2)
    position = game.parse("##/w.#/## W")
    assert [game.move_name(position, m) for m in game.moves(position)] == ["b2"]
    as_black = game.with_to_move(position, BLACK)
    assert game.moves(as_black) == []
    after = game.play(position, game.parse_move(position, "b2"))
    assert game.render(after) == "##/wW#/## B"


def test_the_compiled_kernel_refuses_fixed_cells() -> None:
    """The kernel plays the game as played; the pure-Python solvers take fixed cells (White
    places on b2 and Black, with no move, loses)."""
    game = load_game("control", size=2)
    region = game.parse("##/w.#/## W")
    with pytest.raises(CGTError, match="fixed cells"):
        ControlKernel(game, tt_entries=64).moves(region)
    assert solve(game, region, solver="retrograde").outcome == Outcome.WIN


# ---------------------------------------------------------------------------- values
def random_split_positions(game: Control, count: int, seed: int) -> list[tuple[int, ...]]:
    """Positions of the game as played (random legal games) that split into 2+ regions."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        position = game.initial_position()
        for _ in range(rng.randrange(6, 22)):
            moves = game.moves(position)
            if not moves:
                break
            position = game.play(position, rng.choice(moves))
        parts = game.components(position)
        if parts is not None and len(parts) >= 2:
            out.append(position)
    return out


def test_single_cell_regions_add_up_by_hand() -> None:
    """THREE_SINGLE_CELLS: every piece is frozen (each has at least half of its neighbours of
    its own colour, all pieces), so the regions are a1, c3, e3. a1: only White may place
    (Black may not place on a White-controlled cell) and the new piece cannot be removed:
    {0|} = 1. e3 likewise for Black: -1. c3 (3-3 tie): either player places once, then
    nothing: {0|0} = *. Sum: 1 + * - 1 = *. Without e3 (fixed empty) the sum is 1*."""
    game = load_game("control", size=3)
    position = game.parse(THREE_SINGLE_CELLS)
    regions = independent_regions(game.board, position[0], position[1])
    assert [game.board.cell_name(r.bit_length() - 1) for r in regions] == ["a1", "c3", "e3"]
    assert all(r.bit_count() == 1 for r in regions)
    calculator = ValueCalculator(game)
    parts = game.components(position)
    assert parts is not None
    assert [calculator(part) for part in parts] == [
        parse_game("1"),
        parse_game("*"),
        parse_game("-1"),
    ]
    assert calculator(position) == parse_game("*")
    fixed_pieces = ".ww/wwww/ww.bb/bbbb/bb# W"
    assert calculator(game.parse(fixed_pieces)) == parse_game("1*")
    plain = ValueCalculator(game, components=False)
    assert plain(position) == parse_game("*")
    assert plain(game.parse(fixed_pieces)) == parse_game("1*")


def test_decomposed_values_equal_the_plain_recursion_on_size3() -> None:
    game = load_game("control", size=3)
    decomposed = ValueCalculator(game)
    plain = ValueCalculator(game, components=False)
    for position in random_split_positions(game, 40, seed=11):
        assert decomposed(position) == plain(position), game.render(position)
    assert decomposed.component_lookups > 0 and decomposed.component_hits > 0


def test_decomposed_values_equal_the_plain_recursion_on_hand_built_positions() -> None:
    game = load_game("control", size=3)
    hand_built = [
        THREE_SINGLE_CELLS,
        "WW./WWWB/WW.BB/BBBB/WB. W",  # one region: a3, c3, e3 and unfrozen Black pieces
        "WW./.WWB/WWWBB/W.B./BBB B",  # four regions
        "WB./WBBB/W.BB./.WWB/WWW B",  # three regions, one with unfrozen pieces
        "ww./wwbb/w.b.b/bbb./... W",  # fixed pieces, an open region at the bottom
    ]
    decomposed = ValueCalculator(game)
    plain = ValueCalculator(game, components=False)
    for text in hand_built:
        position = game.parse(text)
        for side in (WHITE, BLACK):
            mover = game.with_to_move(position, side)
            assert decomposed(mover) == plain(mover), text


@pytest.mark.parametrize("seed", [5, 6])
def test_outcome_of_the_value_agrees_with_the_solver(seed: int) -> None:
    """The value's outcome class (L, R, N, P) says who wins with each player to move; the
    retrograde solver checks both sides on the whole position (no decomposition)."""
    game = load_game("control", size=3)
    calculator = ValueCalculator(game)
    for position in random_split_positions(game, 12, seed=seed):
        outcome = calculator(position).outcome()
        for side, winners in ((WHITE, "LN"), (BLACK, "RN")):
            result = solve(game, game.with_to_move(position, side), solver="retrograde")
            assert (result.outcome == Outcome.WIN) == (outcome in winners), game.render(position)


def test_equal_regions_anywhere_share_one_key() -> None:
    """By hand: an empty cell between two fixed White pieces, everything else fixed and
    empty, is {0|} = 1 wherever it stands. Each position below has two such regions, one on
    the bottom edge (e1 e2 e3) and one on the top edge (a1 a2 a3) or in the middle row
    (c1 c2 c3); no board symmetry maps the top edge onto the middle row, but a translation
    does, so all four regions become one position. Each sum is 1 + 1 = 2."""
    game = load_game("control", size=3)
    top = game.parse("w.w/####/#####/####/w.w W")
    middle = game.parse("###/####/w.w##/####/w.w W")
    assert game.canonical_key(top) != game.canonical_key(middle)
    top_parts, middle_parts = game.components(top), game.components(middle)
    assert top_parts is not None and middle_parts is not None
    assert len(set(top_parts + middle_parts)) == 1
    calculator = ValueCalculator(game)
    assert calculator(top) == calculator(middle) == parse_game("2")
    assert calculator.component_lookups == 4 and calculator.component_hits == 3
    assert ValueCalculator(game, components=False)(middle) == parse_game("2")


def test_sight_and_the_opening_are_not_split() -> None:
    assert load_game("control", size=3, control="sight").components((0, 0, WHITE)) is None
    sight = load_game("control", size=3, control="sight")
    assert sight.components(sight.parse(THREE_SINGLE_CELLS)) is None
    game = load_game("control", size=3)
    assert game.components(game.initial_position()) is None
    free = load_game("control", size=3, opening="free")
    assert free.components(free.initial_position()) == [free.initial_position()]


# ---------------------------------------------------------------------------- command line


def test_cgt_value_prints_the_sum_of_the_regions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "value", "control", THREE_SINGLE_CELLS)
    assert code == 0
    assert "value        *\n" in out
    assert "outcome      N" in out
    assert "components   3, the value is their sum:" in out
    region_values = [line.split()[0] for line in out.splitlines()[-3:]]
    assert region_values == ["1", "*", "-1"]  # a1, c3, e3 as computed by hand above
    code, out, _ = run(capsys, "value", "control", ".ww/wwww/ww.bb/bbbb/bb# W")
    assert code == 0 and "value        1*\n" in out


@pytest.mark.parametrize(
    "text", [".WW/WWWW/WW.BB/BBBB/BB. X", ".WW/WWWW/WW?BB/BBBB/BB. W", ".WW/WWWW W"]
)
def test_cgt_value_bad_notation_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    code, _out, err = run(capsys, "value", "control", text)
    assert code == 2
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("cgt: error: ")
    assert "Traceback" not in err
