"""Properties of Interleave on random positions, against a second, deliberately simple
statement of the rule written here with axial coordinates (no bitboards, no precomputed rays).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgt.games.interleave import BLACK, PASS, RED, Interleave, InterleavePosition

SIX_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def on_board(size: int, q: int, r: int) -> bool:
    """Axial (q, r) lies on the hexhex board of side ``size``."""
    return max(abs(q), abs(r), abs(q + r)) <= size - 1


def simple_placeable(size: int, stones: dict[tuple[int, int], str], colour: str) -> set:
    """Empty cells ``colour`` ('R' or 'B') may take: walk each of the six directions from the
    cell to the first stone; take the cell if more of those first stones are the opponent's."""
    opponent = "B" if colour == "R" else "R"
    cells = set()
    span = range(-(size - 1), size)
    for q in span:
        for r in span:
            if not on_board(size, q, r) or (q, r) in stones:
                continue
            seen = []
            for dq, dr in SIX_STEPS:
                x, y = q + dq, r + dr
                while on_board(size, x, y) and (x, y) not in stones:
                    x, y = x + dq, y + dr
                if on_board(size, x, y):
                    seen.append(stones[(x, y)])
            if seen.count(opponent) > seen.count(colour):
                cells.add((q, r))
    return cells


def stones_of(game: Interleave, position: InterleavePosition) -> dict[tuple[int, int], str]:
    """The position's stones keyed by axial coordinates."""
    coords = game.board.coords
    stones = {coords[i]: "R" for i in range(game.board.size) if position.red >> i & 1}
    stones.update({coords[i]: "B" for i in range(game.board.size) if position.black >> i & 1})
    return stones


def random_playout(game: Interleave, choices: list[int]) -> list[InterleavePosition]:
    """Positions along a game whose moves are picked by ``choices``."""
    position = game.initial_position()
    seen = [position]
    for choice in choices:
        if game.result(position) is not None:
            break
        moves = game.moves(position)
        position = game.play(position, moves[choice % len(moves)])
        seen.append(position)
    return seen


GAMES = st.builds(
    Interleave,
    size=st.integers(2, 4),
    win=st.sampled_from(["stones", "groups"]),
    turns=st.sampled_from(["pass", "loser"]),
)
CHOICES = st.lists(st.integers(0, 1000), max_size=40)


@settings(max_examples=60, deadline=None)
@given(GAMES, CHOICES)
def test_notation_round_trips_along_random_games(game: Interleave, choices: list[int]) -> None:
    for position in random_playout(game, choices):
        assert game.parse(game.render(position)) == position


@settings(max_examples=60, deadline=None)
@given(GAMES, CHOICES)
def test_generated_moves_are_exactly_the_simple_rule(game: Interleave, choices: list[int]) -> None:
    coords = game.board.coords
    for position in random_playout(game, choices):
        if game.result(position) is not None:
            continue
        colour = "RB"[position.to_move]
        expected = simple_placeable(game.size, stones_of(game, position), colour)
        placements = {coords[m] for m in game.moves(position) if m != PASS}
        assert placements == expected
        assert (PASS in game.moves(position)) == (game.turns == "pass")


@settings(max_examples=40, deadline=None)
@given(GAMES, CHOICES)
def test_loser_model_gives_the_move_to_the_losing_colour(
    game: Interleave, choices: list[int]
) -> None:
    if game.turns != "loser":
        return
    for position in random_playout(game, choices):
        red_n, black_n = position.red.bit_count(), position.black.bit_count()
        if game.win == "stones":
            assert position.to_move == (BLACK if red_n >= black_n else RED)


def random_position(game: Interleave, rng: random.Random) -> InterleavePosition:
    red = black = 0
    for i in range(game.board.size):
        roll = rng.random()
        if roll < 0.3:
            red |= 1 << i
        elif roll < 0.6:
            black |= 1 << i
    black |= 1 << rng.randrange(game.board.size)
    red &= ~black
    return game.position(red, black, rng.randrange(2), rng.randrange(2))


@pytest.mark.parametrize("size", [2, 3, 4])
def test_the_twelve_images_share_a_key_and_mirror_the_moves(size: int) -> None:
    game = Interleave(size=size)
    rng = random.Random(size)
    coords = game.board.coords
    for _ in range(30):
        position = random_position(game, rng)
        keys = set()
        for symmetry in range(12):
            image = game.transform(position, symmetry)
            keys.add(game.canonical_key(image))
            mapped = {game.transform_move(position, m, symmetry) for m in game.moves(position)}
            assert mapped == set(game.moves(image))
            # the image's legal cells are also the simple rule's legal cells of the image
            colour = "RB"[image.to_move]
            assert {coords[m] for m in mapped if m != PASS} == simple_placeable(
                size, stones_of(game, image), colour
            )
        assert len(keys) == 1
