"""Properties of Control over random play, checked against a second, deliberately simple
statement of the rules written here with axial coordinates and position strings (no
bitboards, no code shared with cgt.games.control), plus symmetry and small-board solves."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgt.games.control import Control

STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


# ------------------------------------------------------------- the simple rule statement
def cells_of_board(n: int) -> list[list[tuple[int, int]]]:
    """Rows top to bottom of (q, r): the hexagon max(|q|, |r|, |q+r|) <= n-1."""
    m = n - 1
    return [[(q, r) for q in range(-m, m + 1) if abs(q + r) <= m] for r in range(-m, m + 1)]


def read(n: int, text: str) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], str], str]:
    """Position string -> (colour of each cell, name of each cell, side to move)."""
    board_text, side = text.split()
    colour, name = {}, {}
    for row_number, (row_text, row) in enumerate(zip(board_text.split("/"), cells_of_board(n))):
        for column, (symbol, cell) in enumerate(zip(row_text, row)):
            colour[cell] = symbol
            name[cell] = f"{chr(ord('a') + row_number)}{column + 1}"
    return colour, name, side


def voters(colour: dict[tuple[int, int], str], cell: tuple[int, int], sight: bool) -> list[str]:
    q, r = cell
    found = []
    for dq, dr in STEPS:
        k = 1
        while (q + k * dq, r + k * dr) in colour:
            symbol = colour[(q + k * dq, r + k * dr)]
            if symbol != ".":
                found.append(symbol)
                break
            if not sight:
                break
            k += 1
    return found


def owner(colour: dict[tuple[int, int], str], cell: tuple[int, int], sight: bool) -> str:
    votes = voters(colour, cell, sight)
    whites, blacks = votes.count("W"), votes.count("B")
    return "W" if whites > blacks else "B" if blacks > whites else "."


def simple_moves(n: int, text: str, sight: bool = False, free: bool = False) -> set[str]:
    colour, name, me = read(n, text)
    other = "B" if me == "W" else "W"
    if all(s == "." for s in colour.values()) and me == "W" and not free:
        return {
            name[c] for c in colour if sum((c[0] + dq, c[1] + dr) in colour for dq, dr in STEPS) < 6
        }
    moves = set()
    for cell, symbol in colour.items():
        if symbol == "." and owner(colour, cell, sight) != other:
            moves.add(name[cell])
        if symbol == other and owner(colour, cell, sight) == me:
            moves.add("x" + name[cell])
    return moves


# ------------------------------------------------------------------------- properties
@cache
def game_of(size: int, control: str, opening: str) -> Control:
    return Control(size=size, control=control, opening=opening)


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(2, 4),
    control=st.sampled_from(["adjacent", "sight"]),
    opening=st.sampled_from(["perimeter", "free"]),
    choices=st.lists(st.integers(0, 10**6), max_size=40),
)
def test_random_play_matches_simple_rules(
    size: int, control: str, opening: str, choices: list[int]
) -> None:
    game = game_of(size, control, opening)
    position = game.initial_position()
    for choice in [*choices, None]:
        text = game.render(position)
        assert game.parse(text) == position
        moves = game.moves(position)
        assert {game.move_name(position, m) for m in moves} == simple_moves(
            size, text, sight=control == "sight", free=opening == "free"
        )
        if not moves or choice is None:
            break
        position = game.play(position, moves[choice % len(moves)])


def random_positions(game: Control, count: int, seed: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    positions: list[tuple[int, int, int]] = []
    while len(positions) < count:
        position = game.initial_position()
        for _ in range(rng.randrange(1, 25)):
            moves = game.moves(position)
            if not moves:
                break
            position = game.play(position, rng.choice(moves))
        positions.append(position)
    return positions


@pytest.mark.parametrize("control", ["adjacent", "sight"])
def test_symmetry_images_share_key_and_moves(control: str) -> None:
    game = Control(size=3, control=control)
    for position in random_positions(game, 25, seed=7):
        key = game.canonical_key(position)
        moves = game.moves(position)
        for s in range(12):
            image = game.transform(position, s)
            assert game.canonical_key(image) == key
            # same count of pieces, and the image's moves are the images of the moves
            assert sorted(game.transform_move(position, m, s) for m in moves) == sorted(
                game.moves(image)
            )
            # the transform is the board's permutation (checked on the bitboards)
            assert image[0] == game.board.transform_mask(position[0], s)


def test_symmetry_group_preserves_adjacency() -> None:
    # independent of the game: each of the 12 permutations maps neighbours to neighbours
    board = Control(size=3).board
    assert len({board.symmetries[s] for s in range(12)}) == 12
    for perm in board.symmetries:
        for i in range(board.size):
            assert {perm[j] for j in board.neighbours[i]} == set(board.neighbours[perm[i]])


# ------------------------------------------------------------------- small-board solves
def simple_first_player_wins(n: int, text: str, sight: bool, seen: dict[str, bool]) -> bool:
    """Memoised negamax over position strings with the simple rules (acyclic graphs only)."""
    if text in seen:
        return seen[text]
    seen[text] = False  # provisional: a revisit on the current path would be a cycle
    result = False
    for move in sorted(simple_moves(n, text, sight)):
        if not simple_first_player_wins(n, simple_play(n, text, move), sight, seen):
            result = True
            break
    seen[text] = result
    return result


def simple_play(n: int, text: str, move: str) -> str:
    colour, name, me = read(n, text)
    cell = next(c for c, label in name.items() if label == move.lstrip("x"))
    colour[cell] = "." if move.startswith("x") else me
    rows = ["".join(colour[c] for c in row) for row in cells_of_board(n)]
    return "/".join(rows) + (" B" if me == "W" else " W")


@pytest.mark.parametrize("control", ["adjacent", "sight"])
def test_size2_solve_agrees_with_simple_negamax(control: str) -> None:
    from solvers import solve

    game = Control(size=2, control=control)
    result = solve(game, solver="retrograde")
    seen: dict[str, bool] = {}
    start = game.render(game.initial_position())
    assert (result.winner == "first") == simple_first_player_wins(
        2, start, control == "sight", seen
    )
    for move_value in result.moves:  # every perimeter opening, valued for White
        after = simple_play(2, start, move_value.name)
        white_wins = not simple_first_player_wins(2, after, control == "sight", seen)
        assert (move_value.outcome.label == "win") == white_wins


def test_size2_retrograde_and_alphabeta_agree() -> None:
    from solvers import solve

    for control in ("adjacent", "sight"):
        game = Control(size=2, control=control)
        assert solve(game, solver="retrograde").winner == solve(game, solver="alphabeta").winner
