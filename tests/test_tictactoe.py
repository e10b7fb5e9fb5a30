"""Tic-tac-toe against its published numbers (Bottomley 2001) and a string-based re-implementation.

The reference rules in this file work on 9-character strings (row-major from the top, as a
person writes the board) and share nothing with the bitboard module under test.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import pytest

from cgt.errors import MoveError, ParameterError, PositionError
from cgt.protocol import Outcome
from cgt.registry import load_game

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def reference_winner(board: str) -> str | None:
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def reference_children(board: str) -> list[str]:
    if reference_winner(board) or "." not in board:
        return []
    letter = "X" if board.count("X") == board.count("O") else "O"
    return [board[:i] + letter + board[i + 1 :] for i in range(9) if board[i] == "."]


def as_notation(board: str) -> str:
    return "/".join(board[k : k + 3] for k in (0, 3, 6))


def reference_reachable() -> set[str]:
    start = "." * 9
    seen, frontier = {start}, [start]
    while frontier:
        nxt = []
        for board in frontier:
            for child in reference_children(board):
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    return seen


def reference_symmetries(board: str) -> list[str]:
    """The 8 images of a board under rotations and reflections, by moving (row, column)."""
    grid = [board[k : k + 3] for k in (0, 3, 6)]
    images = []
    for _ in range(4):
        grid = ["".join(grid[2 - c][r] for c in range(3)) for r in range(3)]  # rotate 90 degrees
        images.append("".join(grid))
        images.append("".join(row[::-1] for row in grid))
    return images


@pytest.fixture(scope="module")
def game():
    return load_game("tictactoe")


@pytest.fixture(scope="module")
def reachable() -> set[str]:
    return reference_reachable()


def test_reference_counts_match_published_numbers(reachable):
    """5,478 legal positions, 765 up to symmetry (Henry Bottomley, "How many Tic-Tac-Toe (noughts and crosses) games are possible?" (2001)):
    checks the reference itself."""
    assert len(reachable) == 5478
    assert len({min(reference_symmetries(b)) for b in reachable}) == 765


def test_game_reaches_exactly_the_legal_positions(game, reachable):
    seen = {game.initial_position()}
    frontier = list(seen)
    while frontier:
        nxt = []
        for position in frontier:
            if game.result(position) is not None:
                assert not game.moves(position)
                continue
            for _, child in game.children(position):
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    assert len(seen) == 5478
    assert {game.render(p) for p in seen} == {as_notation(b) for b in reachable}
    assert len({game.canonical_key(p) for p in seen}) == 765


def test_number_of_games_and_their_results(game):
    """255,168 games: 131,184 won by X, 77,904 by O, 46,080 drawn (Bottomley 2001)."""

    @cache
    def games_from(position: tuple[int, int]) -> Counter[str]:
        outcome = game.result(position)
        if outcome is not None:
            if outcome == Outcome.DRAW:
                return Counter(draw=1)
            winner = game.players[1 - game.to_move(position)]  # the player to move has lost
            return Counter({winner: 1})
        total: Counter[str] = Counter()
        for _, child in game.children(position):
            total += games_from(child)
        return total

    counts = games_from(game.initial_position())
    assert counts == Counter(X=131184, O=77904, draw=46080)
    assert sum(counts.values()) == 255168


def test_perfect_play_is_a_draw(game):
    @cache
    def value(position: tuple[int, int]) -> int:  # for the player to move
        outcome = game.result(position)
        if outcome is not None:
            return int(outcome)
        return max(-value(child) for _, child in game.children(position))

    assert value(game.initial_position()) == 0
    # after X in a corner, O loses with anything but the centre (a classic fact)
    corner = game.play(game.initial_position(), game.parse_move(game.initial_position(), "a1"))
    replies = {game.move_name(corner, m): -value(game.play(corner, m)) for m in game.moves(corner)}
    assert {name for name, v in replies.items() if v == 0} == {"b2"}


def test_with_real_solvers_if_present(game):
    solvers = pytest.importorskip("solvers")
    if not hasattr(solvers, "solve"):
        pytest.skip("solvers.solve is not written yet")
    from solvers.alphabeta import AlphaBeta
    from solvers.retrograde import retrograde

    assert solvers.solve(game).outcome == Outcome.DRAW
    assert AlphaBeta(game).solve(game.initial_position()).outcome == Outcome.DRAW
    # retrograde enumerates every reachable position: 765 classes with symmetry, 5,478 without
    assert len(retrograde(game, symmetry=True)) == 765
    assert len(retrograde(game, symmetry=False)) == 5478


def test_parse_accepts_exactly_the_reachable_boards(game, reachable):
    """Every one of the 3^9 fillings is parsed iff it is reachable from the empty board."""
    for cells in itertools.product(".XO", repeat=9):
        board = "".join(cells)
        text = as_notation(board)
        if board in reachable:
            assert game.render(game.parse(text)) == text
        else:
            with pytest.raises(PositionError):
                game.parse(text)


@pytest.mark.parametrize(
    "text",
    [
        "XXX/OO./O..",  # X has a line but O has moved since
        "XXX/OOO/X..",  # both have a line
        "XX./.../...",  # two X, no O
        "O../.../...",  # O moved first
        "XX/OO/..",  # wrong width
        "X../...",  # wrong height
        "X?./.../...",  # unknown symbol
        "X../.../... X",  # O is the side to move
        "X../.../... Z",
    ],
)
def test_parse_rejects_impossible_or_malformed_positions(game, text):
    with pytest.raises(PositionError):
        game.parse(text)


def test_notation_round_trip_and_side_to_move(game):
    position = game.parse("x.o/.x./..o X")
    assert game.render(position) == "X.O/.X./..O"
    assert game.players[game.to_move(position)] == "X"
    assert [game.move_name(position, m) for m in game.moves(position)] == [
        "a1",
        "b1",
        "a2",
        "c2",
        "b3",
    ]
    # c3 is the top right square (ranks bottom to top)
    assert game.render(
        game.play(game.initial_position(), game.parse_move(game.initial_position(), "c3"))
    ) == ("..X/.../...")


def test_finished_positions(game):
    x_won = game.parse("XXX/OO./...")
    assert game.result(x_won) == Outcome.LOSS and not game.moves(x_won)
    full = game.parse("XOX/XOO/OXX")
    assert game.result(full) == Outcome.DRAW
    last_move_wins = game.parse("XOO/.XO/X.. X")
    assert (
        game.result(game.play(last_move_wins, game.parse_move(last_move_wins, "c1")))
        == Outcome.LOSS
    )


def test_bad_moves_and_parameters(game):
    start = game.initial_position()
    with pytest.raises(MoveError):
        game.parse_move(start, "d1")
    with pytest.raises(MoveError):
        game.parse_move(game.play(start, 0), "a1")
    with pytest.raises(ParameterError):
        load_game("tictactoe", size=2)


def test_symmetry_moves_follow_positions(game):
    position = game.parse("X../.O./...")
    for s in range(game.symmetry_count):
        image = game.transform(position, s)
        for move in game.moves(position):
            assert game.transform(game.play(position, move), s) == game.play(
                image, game.transform_move(position, move, s)
            )


def test_draw_and_move_targets(game):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    position = game.parse("X.O/.X./..O")
    assert [game.move_target(position, m) for m in game.moves(position)] == list(
        game.moves(position)
    )
    fig, ax = plt.subplots()
    game.draw(position, ax, cell_colours={0: "#00aa00"}, cell_labels={0: "7", 8: "ignored"})
    texts = [t.get_text() for t in ax.texts]
    assert texts.count("X") == 2 and texts.count("O") == 2 and "7" in texts
    assert "ignored" not in texts  # square 8 (c3) holds an O: its letter wins
    plt.close(fig)
