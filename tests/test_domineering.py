"""Domineering against its published values (Winning Ways, CGSuite) and outcome classes
(Lachmann, Moore and Rapaport, "Who wins Domineering on rectangular boards?", 2002).

Two independent references live in this file: a solver on sets of ``(row, column)`` cells
(row 0 at the top, as CGSuite draws grids) that shares no code with the bitmask module, and a
tiny game-form comparator (Conway's definition of ``<=``) that checks CGT values such as
``2x3 = {2|-1/2}`` without any CGT library.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from cgt.errors import MoveError, ParameterError, PositionError
from cgt.games.domineering import Domineering
from cgt.protocol import Outcome
from cgt.registry import load_game

LEFT, RIGHT = 0, 1
Cells = frozenset[tuple[int, int]]


def domineering(**params: object) -> Domineering:
    """The game through the registry, typed as the class for its extra methods."""
    game = load_game("domineering", **params)
    assert isinstance(game, Domineering)
    return game


# ------------------------------------------------------------------ reference rules on cell sets
def reference_free_cells(text: str) -> tuple[Cells, int]:
    """Empty cells and side to move of a CGSuite string, read independently of the module."""
    board, _, side = text.partition(" ")
    free = frozenset(
        (r, c) for r, row in enumerate(board.split("|")) for c, ch in enumerate(row) if ch == "."
    )
    return free, {"": LEFT, "L": LEFT, "R": RIGHT}[side.strip()]


def reference_moves(free: Cells, player: int) -> list[Cells]:
    """Left covers (r, c) and the cell below it, Right (r, c) and the cell to its right."""
    out = []
    for r, c in free:
        other = (r + 1, c) if player == LEFT else (r, c + 1)
        if other in free:
            out.append(free - {(r, c), other})
    return out


@cache
def reference_wins(free: Cells, player: int) -> bool:
    """True when ``player``, to move, wins (normal play)."""
    return any(not reference_wins(child, 1 - player) for child in reference_moves(free, player))


def reference_outcome_class(free: Cells) -> str:
    left_first, right_first = reference_wins(free, LEFT), reference_wins(free, RIGHT)
    return {(True, True): "N", (False, False): "P", (True, False): "L", (False, True): "R"}[
        (left_first, right_first)
    ]


def full_rectangle(rows: int, cols: int) -> Cells:
    return frozenset((r, c) for r in range(rows) for c in range(cols))


# ------------------------------------------------------------------ game forms, Conway's <=
class Forms:
    """Interned game forms: form id -> (Left option ids, Right option ids)."""

    def __init__(self) -> None:
        self.options: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        self.ids: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        self._leq: dict[tuple[int, int], bool] = {}
        self._sums: dict[tuple[int, int], int] = {}

    def form(self, left: list[int] | tuple[int, ...], right: list[int] | tuple[int, ...]) -> int:
        key = (tuple(sorted(set(left))), tuple(sorted(set(right))))
        if key not in self.ids:
            self.ids[key] = len(self.options)
            self.options.append(key)
        return self.ids[key]

    def leq(self, g: int, h: int) -> bool:
        """G <= H iff no Left option of G is >= H and no Right option of H is <= G."""
        if (g, h) not in self._leq:
            self._leq[g, h] = not any(self.leq(h, gl) for gl in self.options[g][0]) and not any(
                self.leq(hr, g) for hr in self.options[h][1]
            )
        return self._leq[g, h]

    def equal(self, g: int, h: int) -> bool:
        return self.leq(g, h) and self.leq(h, g)

    def integer(self, n: int) -> int:
        form = self.form((), ())
        for _ in range(abs(n)):
            form = self.form((form,), ()) if n > 0 else self.form((), (form,))
        return form

    def add(self, g: int, h: int) -> int:
        """The disjunctive sum, straight from the definition."""
        if (g, h) not in self._sums:
            gl, gr = self.options[g]
            hl, hr = self.options[h]
            left = [self.add(x, h) for x in gl] + [self.add(g, x) for x in hl]
            right = [self.add(x, h) for x in gr] + [self.add(g, x) for x in hr]
            self._sums[g, h] = self.form(left, right)
        return self._sums[g, h]


@pytest.fixture()
def forms() -> Forms:
    return Forms()


def form_of_position(forms: Forms, game, position) -> int:
    """Game form of a module position, using its moves for both players."""
    memo: dict = {}

    def walk(p) -> int:
        key = (p.rows, p.cols, p.blocked)
        if key not in memo:
            left = [walk(game.play_as(p, LEFT, m)) for m in game.moves_for(p, LEFT)]
            right = [walk(game.play_as(p, RIGHT, m)) for m in game.moves_for(p, RIGHT)]
            memo[key] = forms.form(left, right)
        return memo[key]

    return walk(position)


# ------------------------------------------------------------------ the module under test
def module_wins(game, position, memo: dict) -> bool:
    """Simple negamax over the module's own moves, memoised on its canonical key."""
    key = game.canonical_key(position)
    if key not in memo:
        memo[key] = any(not module_wins(game, child, memo) for _, child in game.children(position))
    return memo[key]


def module_outcome_class(game, position) -> str:
    memo: dict = {}
    left_first = module_wins(game, game.with_to_move(position, LEFT), memo)
    right_first = module_wins(game, game.with_to_move(position, RIGHT), memo)
    return {(True, True): "N", (False, False): "P", (True, False): "L", (False, True): "R"}[
        (left_first, right_first)
    ]


@pytest.mark.parametrize(("n", "expected"), [(2, "N"), (3, "N"), (4, "N"), (5, "P")])
def test_square_boards_outcome_classes(n, expected):
    """n x n: first player wins for n = 2, 3, 4; second player wins 5x5 (Lachmann, Moore, Rapaport)."""
    assert reference_outcome_class(full_rectangle(n, n)) == expected
    if n <= 4:  # 5x5 through the module is the test below
        game = domineering(rows=n, cols=n)
        assert module_outcome_class(game, game.initial_position()) == expected


def test_five_by_five_through_the_module_is_a_second_player_win():
    # about 2 s of CPU: no longer marked slow
    game = domineering(rows=5, cols=5)
    assert module_outcome_class(game, game.initial_position()) == "P"


def test_two_by_three_is_first_player_win():
    """2 rows x 3 columns = {2|-1/2}: whoever starts wins (N)."""
    assert reference_outcome_class(full_rectangle(2, 3)) == "N"
    game = domineering(board="...|...")
    assert module_outcome_class(game, game.initial_position()) == "N"


@pytest.mark.parametrize("n", range(1, 8))
def test_single_column_and_row_outcomes(n):
    """A column of n cells is floor(n/2) > 0 for n >= 2: Left wins whoever starts (L);
    a row is -floor(n/2) (R); a column or row of one cell is 0 (P)."""
    column, row = domineering(rows=n, cols=1), domineering(rows=1, cols=n)
    expected_column = "L" if n >= 2 else "P"
    expected_row = "R" if n >= 2 else "P"
    assert reference_outcome_class(full_rectangle(n, 1)) == expected_column
    assert reference_outcome_class(full_rectangle(1, n)) == expected_row
    assert module_outcome_class(column, column.initial_position()) == expected_column
    assert module_outcome_class(row, row.initial_position()) == expected_row


@pytest.mark.parametrize("n", range(1, 8))
def test_column_and_row_values(forms, n):
    column, row = domineering(rows=n, cols=1), domineering(rows=1, cols=n)
    assert forms.equal(
        form_of_position(forms, column, column.initial_position()), forms.integer(n // 2)
    )
    assert forms.equal(
        form_of_position(forms, row, row.initial_position()), forms.integer(-(n // 2))
    )


def test_published_values(forms):
    """2x2 = 3x3 = +-1 = {1|-1}; 2 rows x 3 columns = {2|-1/2} (Winning Ways, CGSuite)."""
    one, two, minus_one = forms.integer(1), forms.integer(2), forms.integer(-1)
    minus_half = forms.form((minus_one,), (forms.integer(0),))
    plus_minus_one = forms.form((one,), (minus_one,))
    expected = {
        "..|..": plus_minus_one,
        "...|...|...": plus_minus_one,
        "...|...": forms.form((two,), (minus_half,)),
    }
    game = domineering()
    for text, value in expected.items():
        assert forms.equal(form_of_position(forms, game, game.parse(text)), value), text
    # the comparator can fail: 2x3 is not +-1, and 3 rows x 2 columns is its negative
    two_by_three = form_of_position(forms, game, game.parse("...|..."))
    assert not forms.equal(two_by_three, plus_minus_one)
    three_by_two = form_of_position(forms, game, game.parse("..|..|.."))
    assert forms.equal(forms.add(two_by_three, three_by_two), forms.integer(0))


def test_moves_match_reference_on_random_positions():
    game = domineering()
    rng = random.Random(7)
    for _ in range(200):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        board = "|".join("".join(rng.choice("..#") for _ in range(cols)) for _ in range(rows))
        text = f"{board} {rng.choice('LR')}"
        position = game.parse(text)
        assert game.render(position) == text
        free, player = reference_free_cells(text)
        assert game.to_move(position) == player
        children = sorted(
            sorted(reference_free_cells(game.render(c))[0]) for _, c in game.children(position)
        )
        assert children == sorted(sorted(c) for c in reference_moves(free, player))
        assert all(game.to_move(c) == 1 - player for _, c in game.children(position))
        # symmetries keep the game: same outcome, moves map onto moves
        for s in range(game.symmetry_count):
            image = game.transform(position, s)
            assert reference_wins(
                reference_free_cells(game.render(image))[0], player
            ) == reference_wins(free, player)
            for move in game.moves(position):
                assert game.transform(game.play(position, move), s) == game.play(
                    image, game.transform_move(position, move, s)
                )


def test_components_sum_to_the_position(forms):
    """The sum of the components has the same value as the whole board."""
    game = domineering()
    rng = random.Random(11)
    for _ in range(40):
        board = "|".join("".join(rng.choice("...#") for _ in range(4)) for _ in range(4))
        position = game.parse(board)
        parts = game.components(position)
        free = reference_free_cells(board)[0]
        assert sum(len(reference_free_cells(game.render(p))[0]) for p in parts) == len(free)
        total = forms.integer(0)
        for part in parts:
            assert len(parts) == 1 or game.components(part) == [part]
            total = forms.add(total, form_of_position(forms, game, part))
        assert forms.equal(total, form_of_position(forms, game, position)), board


def test_components_examples():
    game = domineering()
    assert [game.render(p) for p in game.components(game.parse(".#.|###|..# R"))] == [
        ".. R",
        ". R",
        ". R",
    ]
    assert game.components(game.parse("##|## L")) == []
    # an L-shaped region is cut to its bounding box, the missing corner blocked
    cropped = game.components(game.parse("###|#..|#.#"))
    assert [game.render(p) for p in cropped] == ["..|.# L"]


def test_with_to_move_and_transposes_are_not_symmetries():
    game = domineering()
    position = game.parse("...|..#")
    assert game.to_move(game.with_to_move(position, RIGHT)) == RIGHT
    assert game.render(game.with_to_move(position, RIGHT)) == "...|..# R"
    # a 1x2 row (Right's) is not equivalent to a 2x1 column (Left's)
    assert game.canonical_key(game.parse("..")) != game.canonical_key(game.parse(".|."))
    # but the mirror images of an L-shaped board are
    images = {game.canonical_key(game.parse(t)) for t in ("..|.#", "..|#.", ".#|..", "#.|..")}
    assert len(images) == 1


@pytest.mark.parametrize("text", ["", "..|. L", "..|.x", ".. X", ".. L extra", "|"])
def test_parse_rejects_malformed(text):
    with pytest.raises(PositionError):
        domineering().parse(text)


def test_parameters_and_moves():
    assert domineering().initial_position() == domineering(rows=4, cols=4).start
    game = domineering(board="..|.. R")
    assert (game.rows, game.cols, game.to_move(game.initial_position())) == (2, 2, RIGHT)
    with pytest.raises(ParameterError):
        domineering(rows=3, board="..|..")
    with pytest.raises(ParameterError):
        domineering(rows=0)
    with pytest.raises(PositionError):
        domineering(board="..|.")
    start = domineering(rows=2, cols=3).initial_position()
    names = [game.move_name(start, m) for m in game.moves(start)]
    assert names == ["a1-a2", "b1-b2", "c1-c2"]
    right = game.with_to_move(start, RIGHT)
    assert [game.move_name(right, m) for m in game.moves(right)] == [
        "a1-b1",
        "b1-c1",
        "a2-b2",
        "b2-c2",
    ]
    after = game.play(start, game.parse_move(start, "b1-b2"))
    assert game.render(after) == ".#.|.#. R"
    with pytest.raises(MoveError):
        game.parse_move(start, "a1-b1")  # horizontal: not Left's


def test_with_real_solvers_if_present():
    solvers = pytest.importorskip("solvers")
    if not hasattr(solvers, "solve"):
        pytest.skip("solvers.solve is not written yet")
    game = domineering(rows=3, cols=3)
    assert solvers.solve(game).outcome == Outcome.WIN
    game = domineering(board="....|....|.... R")
    expected = reference_wins(full_rectangle(3, 4), RIGHT)
    assert solvers.solve(game).outcome == (Outcome.WIN if expected else Outcome.LOSS)


def test_draw_and_move_targets():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    game = domineering()
    position = game.parse("#..|..#|... R")
    targets = [game.move_target(position, m) for m in game.moves(position)]
    assert [game.move_name(position, m)[:2] for m in game.moves(position)] == [
        game.grid(position).cell_name(t) for t in targets
    ]
    fig, ax = plt.subplots()
    game.draw(position, ax, cell_colours={0: "#00aa00"}, cell_labels={0: "3"})
    assert len(ax.patches) == 9
    assert [t.get_text() for t in ax.texts].count("3") >= 1
    plt.close(fig)
