"""Property tests: LAG's bitboard rules against a second, deliberately plain statement of the
rules written here with axial coordinates, sets and dictionaries (no bitboards, no shared
code with cgt.games.lag beyond parse/render of the position string under test)."""

from __future__ import annotations

import random

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from cgt.errors import PositionError
from cgt.games.lag import GOAL_CHECKS, GOALS, Lag
from cgt.protocol import Outcome

Cell = tuple[int, int]
NEIGHBOUR_STEPS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
FORWARD = {"W": [(0, -1), (1, -1)], "B": [(-1, 1), (0, 1)]}
SIDEWAYS = [(1, 0), (-1, 0)]


class PlainLag:
    """LAG straight from the rule text, on a dict {(q, r): 'W' | 'B'}."""

    def __init__(self, n: int, goal: str, goal_check: str = "both") -> None:
        self.n, self.goal, self.goal_check = n, goal, goal_check
        m = n - 1
        self.rows = [
            [(q, r) for q in range(-m, m + 1) if max(abs(q), abs(r), abs(q + r)) <= m]
            for r in range(-m, m + 1)
        ]
        self.cells = {c for row in self.rows for c in row}

    def name(self, cell: Cell) -> str:
        for k, row in enumerate(self.rows):
            if cell in row:
                return f"{chr(ord('a') + k)}{row.index(cell) + 1}"
        raise AssertionError(cell)

    def read(self, text: str) -> tuple[dict[Cell, str], str]:
        board_text, side = text.split()
        pieces = {}
        for row_text, row in zip(board_text.split("/"), self.rows, strict=True):
            for ch, cell in zip(row_text, row, strict=True):
                if ch != ".":
                    pieces[cell] = ch
        return pieces, side

    def groups(self, pieces: dict[Cell, str], colour: str) -> int:
        todo = {c for c, p in pieces.items() if p == colour}
        count = 0
        while todo:
            count += 1
            stack = [todo.pop()]
            while stack:
                q, r = stack.pop()
                for dq, dr in NEIGHBOUR_STEPS:
                    if (q + dq, r + dr) in todo:
                        todo.remove((q + dq, r + dr))
                        stack.append((q + dq, r + dr))
        return count

    def far_row(self, colour: str) -> list[Cell]:
        return self.rows[0] if colour == "W" else self.rows[-1]

    def meets_goal(self, pieces: dict[Cell, str], colour: str) -> bool:
        if self.goal not in ("far-row", "far-row-one-object"):
            return False
        on_far_row = any(pieces.get(c) == colour for c in self.far_row(colour))
        if self.goal == "far-row":
            return on_far_row
        return on_far_row and self.groups(pieces, colour) == 1

    def goal_winner(self, pieces: dict[Cell, str], side: str) -> str | None:
        """Who has won by a far-row goal: first the player who just moved, then (checking
        both players) the player to move."""
        other = "B" if side == "W" else "W"
        if self.meets_goal(pieces, other):
            return other
        if self.goal_check == "both" and self.meets_goal(pieces, side):
            return side
        return None

    def moves(self, text: str) -> set[str]:
        pieces, side = self.read(text)
        other = "B" if side == "W" else "W"
        if self.goal_winner(pieces, side) is not None:
            return set()
        k = self.groups(pieces, side)
        names = set()
        for (q, r), colour in pieces.items():
            if colour != side:
                continue
            for dq, dr in FORWARD[side] + SIDEWAYS:
                target = (q + k * dq, r + k * dr)
                if target not in self.cells or pieces.get(target) == side:
                    continue
                if (dq, dr) in SIDEWAYS:
                    after = dict(pieces)
                    del after[(q, r)]
                    after[target] = side
                    if not self.groups(after, side) < k:
                        continue
                joiner = "x" if pieces.get(target) == other else "-"
                names.add(f"{self.name((q, r))}{joiner}{self.name(target)}")
        return names

    def winner(self, text: str) -> str | None:
        """'W' or 'B' if the game is over, else None."""
        pieces, side = self.read(text)
        other = "B" if side == "W" else "W"
        goal_winner = self.goal_winner(pieces, side)
        if goal_winner is not None:
            return goal_winner
        if self.moves(text):
            return None
        mine, theirs = self.groups(pieces, side), self.groups(pieces, other)
        if self.goal == "strict":
            return side if mine == 1 else other
        return side if mine <= theirs else other


def check_position(game: Lag, plain: PlainLag, position: tuple[int, int, int]) -> None:
    text = game.render(position)
    assert game.parse(text) == position
    names = [game.move_name(position, m) for m in game.moves(position)]
    assert len(names) == len(set(names))
    assert set(names) == plain.moves(text), text
    outcome = game.result(position)
    expected = plain.winner(text)
    if expected is None:
        assert outcome is None, text
    else:
        side = "WB"[game.to_move(position)]
        assert outcome is (Outcome.WIN if expected == side else Outcome.LOSS), text
    mirrored = game.transform(position, 1)
    assert game.canonical_key(mirrored) == game.canonical_key(position)
    assert {game.transform_move(position, m, 1) for m in game.moves(position)} == set(
        game.moves(mirrored)
    )


@settings(max_examples=40, deadline=None)
@given(
    size=st.sampled_from([3, 4]),
    goal=st.sampled_from(GOALS),
    goal_check=st.sampled_from(GOAL_CHECKS),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_playouts_follow_the_plain_rules(
    size: int, goal: str, goal_check: str, seed: int
) -> None:
    game = Lag(size=size, goal=goal, goal_check=goal_check)
    plain = PlainLag(size, goal, goal_check)
    rng = random.Random(seed)
    position = game.initial_position()
    for _ply in range(200):
        check_position(game, plain, position)
        moves = game.moves(position)
        if not moves:
            assert game.result(position) is not None
            break
        position = game.play(position, rng.choice(moves))
    else:
        raise AssertionError("a game lasted 200 plies")


@st.composite
def scattered_positions(draw: st.DrawFn) -> str:
    """Any placement of at most 7 pieces a side on the size-3 board (reachable or not), so
    that sideways merges, stuck pieces and captures in every direction come up often."""
    plain = PlainLag(3, "standard")
    cells = [c for row in plain.rows for c in row]
    contents = draw(st.lists(st.sampled_from(".WB"), min_size=len(cells), max_size=len(cells)))
    for colour in "WB":
        while contents.count(colour) > 7:
            contents[contents.index(colour)] = "."
    side = draw(st.sampled_from("WB"))
    other = "B" if side == "W" else "W"
    if other not in contents:
        contents[draw(st.integers(0, len(cells) - 1))] = other
    rows, k = [], 0
    for row in plain.rows:
        rows.append("".join(contents[k : k + len(row)]))
        k += len(row)
    return "/".join(rows) + " " + side


@settings(max_examples=300, deadline=None)
@given(
    text=scattered_positions(),
    goal=st.sampled_from(GOALS),
    goal_check=st.sampled_from(GOAL_CHECKS),
)
def test_arbitrary_positions_follow_the_plain_rules(text: str, goal: str, goal_check: str) -> None:
    game, plain = Lag(size=3, goal=goal, goal_check=goal_check), PlainLag(3, goal, goal_check)
    try:
        position = game.parse(text)
    except PositionError:  # a side never moved but the other lost pieces: cannot arise
        reject()
    check_position(game, plain, position)
