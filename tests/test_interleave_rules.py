"""Interleave rules on hand-built positions, with the expected answers worked out by hand
from the rule text (docs/rules.md, "Interleave"). Cell names: rows a..e from the top, numbered from
the left; on size 3 the middle row c has five cells and c3 is the centre."""

from __future__ import annotations

import pytest

from cgt.boards.hexhex import hex_board
from cgt.errors import MoveError, ParameterError, PositionError
from cgt.games.interleave import BLACK, PASS, RED, Interleave, leader, placeable
from cgt.protocol import Outcome
from cgt.registry import load_game


def masks(size: int, red: str = "", black: str = "") -> tuple[int, int]:
    """Bitboards from space-separated cell names."""
    board = hex_board(size)
    return (
        sum(1 << board.cell_by_name(c) for c in red.split()),
        sum(1 << board.cell_by_name(c) for c in black.split()),
    )


def names(size: int, mask: int) -> set[str]:
    board = hex_board(size)
    return {board.cell_name(i) for i in board.cells_of(mask)}


# ------------------------------------------------------------------------------ sight
def test_a_lone_stone_is_seen_along_its_rays_through_empty_cells() -> None:
    # Red on c1, the left corner: its rays run east along row c (c2..c5: c4 is three cells
    # away with two empty cells between), north-east (b1, a1) and south-east (d1, e1).
    board = hex_board(3)
    red, black = masks(3, red="c1")
    assert names(3, placeable(board, red, black, BLACK)) == {
        "c2",
        "c3",
        "c4",
        "c5",
        "b1",
        "a1",
        "d1",
        "e1",
    }
    assert placeable(board, red, black, RED) == 0  # 0 black against 1 red: never Red


def test_a_nearer_stone_blocks_the_sight_of_a_farther_one() -> None:
    # Red c1, Black c3. c4 sees Black c3 to its west (Red c1 is behind it) and nothing else,
    # so only Red may take c4. c2 sees Red c1 and Black c3: 1 against 1, nobody.
    board = hex_board(3)
    red, black = masks(3, red="c1", black="c3")
    red_cells = names(3, placeable(board, red, black, RED))
    black_cells = names(3, placeable(board, red, black, BLACK))
    assert "c4" in red_cells and "c4" not in black_cells
    assert "c2" not in red_cells and "c2" not in black_cells


def test_the_comparison_is_strict_two_against_one_allows_one_against_one_does_not() -> None:
    # c2 sees c1 (west), b1 (north-west), c3 (east). Red c1 + Red b1 + Black c3: 2 red
    # against 1 black, so Black may take c2 and Red may not.
    board = hex_board(3)
    red, black = masks(3, red="c1 b1", black="c3")
    assert "c2" in names(3, placeable(board, red, black, BLACK))
    assert "c2" not in names(3, placeable(board, red, black, RED))
    # with only Red c1 and Black c3 it is 1 against 1: nobody
    red, black = masks(3, red="c1", black="c3")
    assert "c2" not in names(
        3, placeable(board, red, black, BLACK) | placeable(board, red, black, RED)
    )


def test_an_empty_board_is_open_to_nobody() -> None:
    board = hex_board(2)
    assert placeable(board, 0, 0, RED) == placeable(board, 0, 0, BLACK) == 0


# ---------------------------------------------------------------------- win conditions
@pytest.mark.parametrize(
    ("red", "black", "stones_winner", "groups_winner"),
    [
        # Red [3, 1] (a1 a2 a3; e3) against Black [3, 2] (c1 c2 c3; c5 d4): the largest
        # groups tie at 3, then 2 beats 1. Stones 4 against 5.
        ("a1 a2 a3 e3", "c1 c2 c3 c5 d4", BLACK, BLACK),
        # Red [2, 2] (a1 a2; e1 e2) against Black [2, 2, 1] (c1 c2; c4 c5; e3): equal until
        # Red runs out of groups, so Black wins. Stones 4 against 5.
        ("a1 a2 e1 e2", "c1 c2 c4 c5 e3", BLACK, BLACK),
        # Red [3] (a1 a2 a3) against Black [1, 1, 1, 1] (c1 c3 c5 e2): stones favour Black
        # 3 against 4, the cascade favours Red (3 > 1).
        ("a1 a2 a3", "c1 c3 c5 e2", BLACK, RED),
        # Red [2, 1] (a1 a2; e3) against Black [2, 1] (c1 c2; c5): a tie in both, Red wins.
        ("a1 a2 e3", "c1 c2 c5", RED, RED),
        # Red has no stone, Black one: Black has more stones and Red runs out first.
        ("", "c3", BLACK, BLACK),
        # Red [1, 1, 1] (a1 a3 e1) against Black [2] (c4 c5): stones 3 against 2 for Red,
        # cascade 1 against 2 for Black.
        ("a1 a3 e1", "c4 c5", RED, BLACK),
    ],
)
def test_win_conditions_with_ties_to_red(
    red: str, black: str, stones_winner: int, groups_winner: int
) -> None:
    board = hex_board(3)
    red_mask, black_mask = masks(3, red, black)
    assert leader(board, red_mask, black_mask, "stones") == stones_winner
    assert leader(board, red_mask, black_mask, "groups") == groups_winner


# ------------------------------------------------------------------------ turn models
def test_two_passes_in_a_row_end_the_game_and_the_win_condition_decides() -> None:
    game = Interleave(size=2)  # one black stone on the centre, Red first
    start = game.initial_position()
    assert game.render(start) == "../.B./.. R"
    once = game.play(start, PASS)
    assert game.render(once) == "../.B./.. B+" and game.result(once) is None
    twice = game.play(once, PASS)
    assert game.render(twice) == "../.B./.. R++"
    assert game.moves(twice) == []
    assert game.result(twice) == Outcome.LOSS  # Red to move, Black has more stones


def test_a_placement_resets_the_pass_count() -> None:
    game = Interleave(size=2, first="black")
    once = game.play(game.initial_position(), PASS)  # Black passes, Red to move
    assert game.render(once) == "../.B./.. R+"
    cell = game.parse_move(once, "a1")  # a1 is seen by the centre stone only
    after = game.play(once, cell)
    assert game.render(after) == "R./.B./.. B"
    assert game.result(after) is None


def test_loser_model_gives_the_move_to_the_losing_player_black_on_a_tie() -> None:
    game = Interleave(size=2, turns="loser")
    start = game.initial_position()
    assert start.to_move == RED  # 0 stones against 1: Red is losing
    assert PASS not in game.moves(start)
    after = game.play(start, game.parse_move(start, "a1"))
    assert after.to_move == BLACK  # 1 against 1 is a tie, which Red wins
    with pytest.raises(PositionError):
        game.parse("R./.B./.. R")  # Red is not the losing player here


def test_loser_who_cannot_place_loses() -> None:
    game = Interleave(size=2, turns="loser")
    full = game.parse("BB/BBR/RR R")  # 3 red against 4 black, no empty cell
    assert game.moves(full) == [] and game.result(full) == Outcome.LOSS
    # Red losing (2 stones against 4) while the only empty cell, a1, is seen by its three
    # neighbours a2 (R), b1 (R), b2 (B): one black against two red, so Red may not take it.
    stuck = game.parse(".R/RBB/BB R")
    assert stuck.to_move == RED
    assert game.result(stuck) == Outcome.LOSS


def test_loser_in_the_pass_model_may_still_pass() -> None:
    game = Interleave(size=2)
    full = game.parse("BB/BBR/RR R")
    assert game.moves(full) == [PASS]


# ---------------------------------------------------------------------- notation, input
def test_move_names_are_cell_names_and_pass() -> None:
    game = Interleave(size=2)
    start = game.initial_position()
    assert [game.move_name(start, m) for m in game.moves(start)] == [
        "pass",
        "a1",
        "a2",
        "b1",
        "b3",
        "c1",
        "c2",
    ]
    with pytest.raises(MoveError):
        game.parse_move(start, "b2")  # occupied


@pytest.mark.parametrize(
    "text",
    [
        "../.B./..",
        "../.B. R",
        "../.X./.. R",
        "../..../.. R",
        "../.../.. R",
        "../.B./.. Q",
        "../.B./.. R+++",
        "../.B./.. RB",
        "../.B./.. R -",
    ],
)
def test_parse_rejects_malformed_and_impossible_positions(text: str) -> None:
    with pytest.raises(PositionError):
        Interleave(size=2).parse(text)


def test_parse_rejects_passes_under_the_loser_model() -> None:
    with pytest.raises(PositionError):
        Interleave(size=2, turns="loser").parse("../.B./.. R+")


@pytest.mark.parametrize(
    "params",
    [
        {"setup": "../.R./.."},
        {"setup": "../.B"},
        {"setup": "../.Z./.."},
        {"setup": "../.../.."},
        {"size": 2, "setup": ".../..../..B../..../..."},
        {"size": 1},
        {"win": "area"},
        {"turns": "realtime"},
        {"turns": "loser", "first": "black"},
        {"colour": "red"},
    ],
)
def test_bad_parameters_raise_parameter_errors(params: dict[str, object]) -> None:
    with pytest.raises(ParameterError):
        load_game("interleave", **params)


def test_setup_parameter_sets_the_initial_board() -> None:
    game = load_game("interleave", size="3", setup="B../..../..R../..../...", first="black")
    assert game.render(game.initial_position()) == "B../..../..R../..../... B"


def test_describe_and_draw() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    game = Interleave(size=2)
    text = game.describe(game.parse("R./.B./.. B+"))
    assert "R ." in text and "Black to move" in text and "Red is ahead" in text
    fig, ax = plt.subplots()
    game.draw(game.initial_position(), ax)
    assert len(ax.patches) == 8  # seven cells and one stone
    plt.close(fig)
