"""Random playouts of Super Nonnect checked against a second, deliberately simple statement of
the rules written here from the rule text (coordinates, breadth-first search, no bitboards).

:class:`SimpleModel` is also used by the other Super Nonnect tests.
"""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgt.games.super_nonnect import SuperNonnect

# --------------------------------------------------------------------------- the simple model
#: hex7 flower centres, worked out by hand: the flower in direction d holds the cell two steps
#: from (0, 0) in direction d, e.g. E's flower is centred at (2, 1) and holds (2, 0).
HEX7_CENTRES = {
    "C": (0, 0),
    "E": (2, 1),
    "NE": (3, -2),
    "NW": (1, -3),
    "W": (-2, -1),
    "SW": (-3, 2),
    "SE": (-1, 3),
}
HEX_STEPS = {
    "c": (0, 0),
    "E": (1, 0),
    "NE": (1, -1),
    "NW": (0, -1),
    "W": (-1, 0),
    "SW": (-1, 1),
    "SE": (0, 1),
}
HEX_ORDER = ["C", "E", "NE", "NW", "W", "SW", "SE"]  # flower / place numbers 0..6


class SimpleModel:
    """Cells are coordinates; every rule is checked by brute force."""

    def __init__(
        self, shape: str = "square", a: int = 3, b: int = 3, rule: str = "original"
    ) -> None:
        self.rule = rule
        self.board_of: dict[str, int] = {}
        self.place_of: dict[str, int] = {}
        self.coord: dict[str, tuple[int, int]] = {}
        if shape == "square":
            width, height = b * b, a * a
            for y in range(height):  # y = 0 is the top row
                for x in range(width):
                    name = f"{chr(ord('a') + x)}{height - y}"
                    self.coord[name] = (y, x)
                    self.board_of[name] = (y // a) * b + x // b
                    self.place_of[name] = (y % a) * b + x % b
            self.steps = [(0, 1), (1, 0), (0, -1), (-1, 0)]
            self.rows = [[n for n in self.coord if self.coord[n][0] == r] for r in range(height)]
            for row in self.rows:
                row.sort(key=lambda n: self.coord[n][1])
        else:
            for flower, (cq, cr) in HEX7_CENTRES.items():
                for place, (dq, dr) in HEX_STEPS.items():
                    name = f"{flower}.{place}"
                    self.coord[name] = (cq + dq, cr + dr)
                    self.board_of[name] = HEX_ORDER.index(flower)
                    self.place_of[name] = HEX_ORDER.index(place.upper())
            self.steps = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
            rs = sorted({r for _, r in self.coord.values()})
            self.rows = [
                sorted(
                    (n for n in self.coord if self.coord[n][1] == r), key=lambda n: self.coord[n][0]
                )
                for r in rs
            ]
        self.at = {c: n for n, c in self.coord.items()}
        self.boards = len(set(self.board_of.values()))

    def neighbours(self, name: str) -> list[str]:
        x, y = self.coord[name]
        return [self.at[(x + dx, y + dy)] for dx, dy in self.steps if (x + dx, y + dy) in self.at]

    def connected(self, cells: set[str]) -> bool:
        if not cells:
            return True
        start = next(iter(cells))
        seen, queue = {start}, deque([start])
        while queue:
            for other in self.neighbours(queue.popleft()):
                if other in cells and other not in seen:
                    seen.add(other)
                    queue.append(other)
        return seen == cells

    def legal(self, cut: set[str], designated: int) -> set[str]:
        """Cells that may be cut now, straight from the rule text."""
        uncut = set(self.coord) - cut
        out = set()
        for cell in uncut:
            if designated >= 0 and self.board_of[cell] != designated:
                continue
            rest = uncut - {cell}
            if not self.connected(rest):
                continue
            target = self.place_of[cell]
            if self.rule == "revised" and not any(self.board_of[c] == target for c in rest):
                continue
            out.add(cell)
        return out

    def render(self, cut: set[str], designated: int) -> str:
        board = "/".join("".join("x" if n in cut else "." for n in row) for row in self.rows)
        return f"{board} {'-' if designated < 0 else designated}"

    def position_string(self, cuts: list[str]) -> str:
        """String of the position reached by cutting ``cuts`` in order (not checked)."""
        return self.render(set(cuts), self.place_of[cuts[-1]] if cuts else -1)


SHAPES = [
    {"shape": "square", "a": 1, "b": 2},
    {"shape": "square", "a": 2, "b": 1},
    {"shape": "square", "a": 2, "b": 2},
    {"shape": "square", "a": 2, "b": 3},
    {"shape": "square", "a": 3, "b": 2},
    {"shape": "square", "a": 3, "b": 3},
    {"shape": "hex7"},
]


def test_simple_model_matches_the_hand_counts() -> None:
    """The model itself: 81 cells, 9 per mini-board, 9 per place; hex7 has 49 distinct cells
    in 9 rows and each flower's centre touches its six petals."""
    square = SimpleModel()
    assert len(square.coord) == 81
    assert all(list(square.board_of.values()).count(m) == 9 for m in range(9))
    assert all(list(square.place_of.values()).count(m) == 9 for m in range(9))
    hexes = SimpleModel("hex7")
    assert len(hexes.coord) == 49 and len(set(hexes.coord.values())) == 49
    assert [len(row) for row in hexes.rows] == [2, 5, 7, 7, 7, 7, 7, 5, 2]
    for flower in HEX_ORDER:
        assert set(hexes.neighbours(f"{flower}.c")) == {
            f"{flower}.{p}" for p in HEX_STEPS if p != "c"
        }
    assert hexes.connected(set(hexes.coord))


# --------------------------------------------------------------------------- properties
@settings(max_examples=60, deadline=None)
@given(shape=st.sampled_from(SHAPES), rule=st.sampled_from(["original", "revised"]), data=st.data())
def test_random_playouts_follow_the_simple_rules(
    shape: dict[str, object], rule: str, data: st.DataObject
) -> None:
    game = SuperNonnect(rule=rule, **shape)
    model = SimpleModel(rule=rule, **shape)  # type: ignore[arg-type]
    position = game.initial_position()
    cut: set[str] = set()
    designated = -1
    for ply in range(200):
        assert game.to_move(position) == ply % 2
        text = game.render(position)
        assert text == model.render(cut, designated)
        assert game.parse(text) == position
        names = [game.move_name(position, m) for m in game.moves(position)]
        assert len(names) == len(set(names))
        assert set(names) == model.legal(cut, designated)
        if not names:
            break
        name = data.draw(st.sampled_from(sorted(names)))
        position = game.play(position, game.parse_move(position, name))
        cut.add(name)
        designated = model.place_of[name]


@settings(max_examples=30, deadline=None)
@given(shape=st.sampled_from(SHAPES), data=st.data())
def test_symmetric_positions_share_a_key_and_mirror_their_moves(
    shape: dict[str, object], data: st.DataObject
) -> None:
    game = SuperNonnect(**shape)
    position = game.initial_position()
    for _ in range(data.draw(st.integers(0, 25))):
        moves = game.moves(position)
        if not moves:
            break
        position = game.play(position, data.draw(st.sampled_from(moves)))
    key = game.canonical_key(position)
    for s in range(game.symmetry_count):
        image = game.transform(position, s)
        assert game.canonical_key(image) == key
        assert game.parse(game.render(image)) == image
        assert sorted(game.moves(image)) == sorted(
            game.transform_move(position, m, s) for m in game.moves(position)
        )


@pytest.mark.parametrize(
    ("shape", "count"),
    [
        ({"a": 1, "b": 2}, 2),
        ({"a": 2, "b": 1}, 2),
        ({"a": 2, "b": 2}, 16),
        ({"a": 2, "b": 3}, 36),
        ({"a": 3, "b": 3}, 81),
    ],
)
def test_first_moves(shape: dict[str, int], count: int) -> None:
    """By hand: a one-cell-wide board (1x2 is a row of four cells) only loses an end without
    breaking; a grid at least two cells wide and high stays connected after losing any cell."""
    game = SuperNonnect(**shape)
    assert len(game.moves(game.initial_position())) == count


def test_hex7_first_moves_agree_with_the_model() -> None:
    game, model = SuperNonnect(shape="hex7"), SimpleModel("hex7")
    start = game.initial_position()
    assert {game.move_name(start, m) for m in game.moves(start)} == model.legal(set(), -1)
