"""The bitmask roads for Domineering values (readable and compiled) against the protocol road
and the rules.

Two independent references: the generic :class:`ValueCalculator` on the protocol game
(``kernel=False``: named-tuple positions, the game's own components and symmetry keys), and a
negamax on sets of ``(row, column)`` cells written here, whose outcome classes any value must
reproduce. Transposes and mirrors are checked from the rule text: a transpose swaps the
players' directions (value ``-G``), a mirror does not (value ``G``).
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from cgt.algebra.expression import parse_game
from cgt.algebra.game import CanonicalForm, negate_id
from cgt.algebra.values import ValueCalculator
from cgt.errors import ParameterError, PositionError
from cgt.games.domineering import DomineeringPosition
from cgt.games.domineering_values import DomineeringValues, crop, normal_key, region_masks
from cgt.registry import load_game

Cells = frozenset[tuple[int, int]]


def cells_of(rows: int, cols: int, empty: int) -> Cells:
    return frozenset((i // cols, i % cols) for i in range(rows * cols) if empty >> i & 1)


@cache
def wins_moving_first(free: Cells, left: bool) -> bool:
    """Left covers a cell and the one a rank above it, Right a cell and its right neighbour."""
    step = (1, 0) if left else (0, 1)
    for r, c in free:
        other = (r + step[0], c + step[1])
        if other in free and not wins_moving_first(free - {(r, c), other}, not left):
            return True
    return False


def outcome_class(free: Cells) -> str:
    key = (wins_moving_first(free, True), wins_moving_first(free, False))
    return {(True, True): "N", (False, False): "P", (True, False): "L", (False, True): "R"}[key]


def random_board(rng: random.Random) -> tuple[int, int, int]:
    rows, cols = rng.randint(1, 4), rng.randint(1, 5)
    full = (1 << (rows * cols)) - 1
    empty = full & ~rng.getrandbits(rows * cols) | rng.getrandbits(rows * cols)  # ~3/4 free
    return rows, cols, empty


def transpose(rows: int, cols: int, empty: int) -> tuple[int, int, int]:
    out = 0
    for i in range(rows * cols):
        if empty >> i & 1:
            r, c = divmod(i, cols)
            out |= 1 << (c * rows + r)
    return cols, rows, out


def mirror(rows: int, cols: int, empty: int) -> tuple[int, int, int]:
    out = 0
    for i in range(rows * cols):
        if empty >> i & 1:
            r, c = divmod(i, cols)
            out |= 1 << (r * cols + cols - 1 - c)
    return rows, cols, out


#: Both bitmask roads: the readable one (Python) and the compiled one (numba).
ROADS = pytest.mark.parametrize("compiled", [False, True], ids=["readable", "compiled"])


@ROADS
def test_agrees_with_the_protocol_road_on_random_boards(compiled: bool) -> None:
    rng = random.Random(20261122)
    domineering = load_game("domineering")
    kernel = DomineeringValues(compiled)
    protocol = ValueCalculator(domineering, kernel=False)
    for _ in range(300):
        rows, cols, empty = random_board(rng)
        position = DomineeringPosition(rows, cols, ((1 << (rows * cols)) - 1) & ~empty, 0)
        assert kernel.value_id(rows, cols, empty) == protocol.value_id(position)


@ROADS
def test_wide_rows_without_tables_agree_with_the_protocol_road(compiled: bool) -> None:
    # rows wider than 12 cells are mirrored and transposed without lookup tables
    rng = random.Random(11)
    domineering = load_game("domineering")
    kernel = DomineeringValues(compiled)
    protocol = ValueCalculator(domineering, kernel=False)
    for _ in range(20):
        rows, cols = rng.randint(1, 2), rng.randint(13, 16)
        empty = rng.getrandbits(rows * cols) & rng.getrandbits(rows * cols)  # ~1/4 free
        position = DomineeringPosition(rows, cols, ((1 << (rows * cols)) - 1) & ~empty, 0)
        assert kernel.value_id(rows, cols, empty) == protocol.value_id(position)
        assert kernel.value_id(cols, rows, transpose(rows, cols, empty)[2]) == negate_id(
            kernel.value_id(rows, cols, empty)
        )
    # a strip of n free cells is n // 2 moves for one player only (Winning Ways, ch. 1)
    assert CanonicalForm(kernel.value_id(1, 31, (1 << 31) - 1)) == -15
    assert CanonicalForm(kernel.value_id(31, 1, (1 << 31) - 1)) == 15


@ROADS
def test_outcome_classes_agree_with_a_plain_negamax(compiled: bool) -> None:
    rng = random.Random(7)
    kernel = DomineeringValues(compiled)
    for _ in range(200):
        rows, cols, empty = random_board(rng)
        value = CanonicalForm(kernel.value_id(rows, cols, empty))
        assert value.outcome() == outcome_class(cells_of(rows, cols, empty))


@ROADS
def test_transpose_negates_and_mirror_keeps_the_value(compiled: bool) -> None:
    rng = random.Random(3)
    for _ in range(100):
        board = random_board(rng)
        # a fresh table each time, so that the second lookup cannot reuse the first's key
        value = DomineeringValues(compiled).value_id(*board)
        assert DomineeringValues(compiled).value_id(*transpose(*board)) == negate_id(value)
        assert DomineeringValues(compiled).value_id(*mirror(*board)) == value
        key, transposed = normal_key(*board)
        key_of_transpose, transposed_again = normal_key(*transpose(*board))
        assert key_of_transpose == key
        if transposed_again == transposed:  # the board is its own transpose up to mirrors
            assert negate_id(value) == value


@ROADS
@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [(2, 2, "+-1"), (3, 3, "+-1"), (2, 3, "{2|-1/2}"), (3, 2, "{1/2|-2}"), (2, 4, "Miny(2)")],
)
def test_published_values(rows: int, cols: int, expected: str, compiled: bool) -> None:
    # Winning Ways and CGSuite (2x2, 3x3, 2x3) and pycgt's documented 2x4 = Miny(2) (CGSuite's value)
    value = DomineeringValues(compiled).value_id(rows, cols, (1 << (rows * cols)) - 1)
    assert CanonicalForm(value) == parse_game(expected)


def test_regions_leave_out_dead_cells_and_crop() -> None:
    # 3 x 4, rank 0 at the bottom:  rank 2 "..#.", rank 1 "..#.", rank 0 "#..#"
    rows, cols = 3, 4
    empty = 0b1011_1011_0110
    masks = region_masks(rows, cols, empty)
    # the right column's two cells form a vertical domino region; the rest is one region
    assert sorted(crop(rows, cols, m) for m in masks) == sorted(
        [(2, 1, 0b11), (3, 3, 0b011_011_110)]
    )
    # a lone cell is no region at all
    assert region_masks(2, 2, 0b1001) == []


def test_bad_shapes_and_masks_are_refused() -> None:
    with pytest.raises(ParameterError):
        DomineeringValues().value_id(40, 1, 1)
    with pytest.raises(PositionError):
        DomineeringValues().value_id(2, 2, 0b10000)


def test_the_readable_road_reports_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    from cgt.games import domineering_values

    monkeypatch.setattr(domineering_values, "_PROGRESS_EVERY", 16)
    reports: list[dict[str, int]] = []
    values = DomineeringValues(compiled=False, progress=reports.append)
    values.value_id(4, 4, 0xFFFF)
    assert [r["expanded"] for r in reports] == list(range(16, values.expanded + 1, 16))
