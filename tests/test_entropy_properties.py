"""Property tests: Entropy's bitboard rules against a second, deliberately plain statement of
the rules written here on a dictionary grid, over random playouts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cgt.games.entropy import Entropy
from cgt.protocol import Outcome

Grid = dict[tuple[int, int], str]

BOARDS = [
    Entropy(),
    Entropy(width=4, height=4, setup="SSSS/..../..../OOOO O"),
    Entropy(width=3, height=3, setup="SS./.../.OO O"),
    Entropy(width=5, height=4, setup="SSSSS/S...S/O...O/OOOOO O"),
    Entropy(goal="disable"),
]


def grid_of(text: str) -> tuple[Grid, str, int, int]:
    board, side = text.split()
    rows = board.split("/")
    height, width = len(rows), len(rows[0])
    grid = {(f, height - 1 - k): ch for k, row in enumerate(rows) for f, ch in enumerate(row)}
    return grid, side, width, height


def neighbours(square: tuple[int, int], grid: Grid) -> list[tuple[int, int]]:
    f, r = square
    return [
        (f + df, r + dr)
        for df in (-1, 0, 1)
        for dr in (-1, 0, 1)
        if (df, dr) != (0, 0) and (f + df, r + dr) in grid
    ]


def plain_moves(text: str) -> list[str]:
    """The rule text, literally: a piece with a friend slides like a queen over empty
    squares; while the mover has isolated pieces only slides leaving none of them isolated;
    nothing legal means "pass"."""
    grid, side, _, _ = grid_of(text)
    mine = [sq for sq, ch in grid.items() if ch == side]
    isolated = [sq for sq in mine if all(grid[n] == "." for n in neighbours(sq, grid))]
    legal = []
    for start in mine:
        if not any(grid[n] == side for n in neighbours(start, grid)):
            continue
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if (df, dr) == (0, 0):
                    continue
                target = (start[0] + df, start[1] + dr)
                while target in grid and grid[target] == ".":
                    after = dict(grid)
                    after[start], after[target] = ".", side
                    if all(any(after[n] != "." for n in neighbours(sq, after)) for sq in isolated):
                        legal.append(f"{name(start)}-{name(target)}")
                    target = (target[0] + df, target[1] + dr)
    return legal or ["pass"]


def name(square: tuple[int, int]) -> str:
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"


def plain_goal(grid: Grid, player: str, need_enemy: bool) -> bool:
    enemy = "S" if player == "O" else "O"
    for sq, ch in grid.items():
        if ch != player:
            continue
        around = [grid[n] for n in neighbours(sq, grid)]
        if player in around or (need_enemy and enemy not in around):
            return False
    return True


def plain_result(text: str, need_enemy: bool) -> Outcome | None:
    grid, side, _, _ = grid_of(text)
    o_won, s_won = plain_goal(grid, "O", need_enemy), plain_goal(grid, "S", need_enemy)
    if o_won and s_won:
        return Outcome.DRAW
    if o_won or s_won:
        return Outcome.WIN if (o_won and side == "O") or (s_won and side == "S") else Outcome.LOSS
    other = text[:-1] + ("S" if side == "O" else "O")
    if plain_moves(text) == ["pass"] and plain_moves(other) == ["pass"]:
        return Outcome.DRAW
    return None


@settings(max_examples=40, deadline=None)
@given(
    board=st.sampled_from(range(len(BOARDS))), choices=st.lists(st.integers(0, 10**6), max_size=40)
)
def test_random_playouts_agree_with_the_plain_rules(board: int, choices: list[int]) -> None:
    game = BOARDS[board]
    position = game.initial_position()
    for choice in choices:
        text = game.render(position)
        assert game.parse(text) == position
        assert game.key(position) == game.key(game.parse(text))
        moves = game.moves(position)
        names = [game.move_name(position, m) for m in moves]
        assert len(set(names)) == len(names)
        assert sorted(names) == sorted(plain_moves(text))
        assert game.result(position) == plain_result(text, game.goal == "standard")
        if game.result(position) is not None:
            break
        move = moves[choice % len(moves)]
        assert game.parse_move(position, game.move_name(position, move)) == move
        position = game.play(position, move)
        assert (position[0].bit_count(), position[1].bit_count()) == game.piece_counts


@settings(max_examples=30, deadline=None)
@given(choices=st.lists(st.integers(0, 10**6), max_size=25), symmetry=st.integers(0, 7))
def test_symmetric_images_have_the_same_rules(choices: list[int], symmetry: int) -> None:
    game = BOARDS[0]
    position = game.initial_position()
    for choice in choices:
        moves = game.moves(position)
        image = game.transform(position, symmetry)
        assert {game.transform_move(position, m, symmetry) for m in moves} == set(game.moves(image))
        assert game.canonical_key(image) == game.canonical_key(position)
        assert game.canonical_key(position) == min(
            game.key(game.transform(position, s)) for s in range(game.symmetry_count)
        )
        if game.result(position) is not None:
            break
        position = game.play(position, moves[choice % len(moves)])
