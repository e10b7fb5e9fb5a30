"""The compiled Super Nonnect kernel against the readable rules and pure-Python retrograde.

Independent sources: move lists from cgt.games.super_nonnect (the readable statement of the
rules), values from solvers.retrograde (every reachable position, exact remoteness).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cgt.errors import ParameterError, PositionError
from cgt.games.super_nonnect import SuperNonnect
from solvers.kernels.super_nonnect import SuperNonnectKernel, solve_super_nonnect, warm_up
from solvers.retrograde import PositionLimitExceeded, retrograde

SHAPES: list[dict[str, Any]] = [
    {"a": 1, "b": 2},
    {"a": 2, "b": 2},
    {"a": 2, "b": 3},
    {"a": 3, "b": 2},
    {"a": 3, "b": 3},  # 81 cells: both words of the kernel's masks
    {"shape": "hex7"},
]


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def random_lines(game: SuperNonnect, games: int, seed: int) -> list[list[Any]]:
    """Random games, each as its list of positions from the start to the end."""
    rng = random.Random(seed)
    lines = []
    for _ in range(games):
        line = [game.initial_position()]
        while moves := game.moves(line[-1]):
            line.append(game.play(line[-1], rng.choice(moves)))
        lines.append(line)
    return lines


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "-".join(map(str, s.values())))
@pytest.mark.parametrize("rule", ["original", "revised"])
def test_move_generator_matches_readable_rules(shape: dict[str, Any], rule: str) -> None:
    game = SuperNonnect(rule=rule, **shape)
    kernel = SuperNonnectKernel(game, tt_entries=64)
    for line in random_lines(game, 15, seed=len(shape) + len(rule)):
        for position in line:
            assert kernel.moves(position) == game.moves(position), game.render(position)


def _assert_same_values(game: SuperNonnect, positions: list[Any], solution: Any) -> None:
    kernels = [
        SuperNonnectKernel(game, remoteness=True, tt_entries=1 << 12),
        SuperNonnectKernel(
            game, remoteness=True, tt_entries=1 << 12, symmetry_cuts=-1, mobility_ordering=False
        ),
    ]
    value_kernel = SuperNonnectKernel(game, remoteness=False, tt_entries=1 << 12)
    for position in positions:
        expected = (solution.outcome(position), solution.remoteness(position))
        for kernel in kernels:
            assert kernel.value(position) == expected, game.render(position)
        assert value_kernel.value(position) == (expected[0], None), game.render(position)


@pytest.mark.parametrize("rule", ["original", "revised"])
@pytest.mark.parametrize("shape", [{"a": 1, "b": 2}, {"a": 2, "b": 2}], ids=["1x2", "2x2"])
def test_every_small_board_position_matches_retrograde(shape: dict[str, Any], rule: str) -> None:
    game = SuperNonnect(rule=rule, **shape)
    solution = retrograde(game, symmetry=False, keep_positions=True)
    positions = [solution.position_of(i) for i in range(len(solution))]
    _assert_same_values(game, positions, solution)


@pytest.mark.parametrize("shape", [{"a": 2, "b": 3}, {"a": 3, "b": 3}, {"shape": "hex7"}])
@pytest.mark.parametrize("rule", ["original", "revised"])
def test_near_end_positions_match_retrograde(shape: dict[str, Any], rule: str) -> None:
    """Positions some plies before the end of random games (graphs small enough for the
    pure-Python retrograde; bigger ones are skipped, at least five checked)."""
    game = SuperNonnect(rule=rule, **shape)
    checked = 0
    for line in random_lines(game, 12, seed=11):
        position = line[max(0, len(line) - 6)]
        try:
            solution = retrograde(game, position, symmetry=True, max_positions=3_000)
        except PositionLimitExceeded:
            continue
        _assert_same_values(game, [position], solution)
        checked += 1
    assert checked >= 5


def test_solve_2x2_root_and_every_move_match_retrograde() -> None:
    for rule in ("original", "revised"):
        game = SuperNonnect(a=2, b=2, rule=rule)
        expected = retrograde(game, symmetry=False).result()
        result = solve_super_nonnect(game, remoteness=True)
        assert (result.outcome, result.remoteness) == (expected.outcome, expected.remoteness)
        assert [(m.name, m.outcome, m.remoteness) for m in result.moves] == [
            (m.name, m.outcome, m.remoteness) for m in expected.moves
        ]
        assert len(result.principal_variation) == result.remoteness


def test_bad_input_raises_toolkit_errors() -> None:
    kernel = SuperNonnectKernel(SuperNonnect(a=2, b=2), tt_entries=64)
    with pytest.raises(PositionError):
        kernel.moves((1 << 16, -1, 0))  # off the 16-cell board
    with pytest.raises(PositionError):
        kernel.moves((0, 4, 0))  # no mini-board 4 on 2 x 2
    from cgt.games.control import Control

    with pytest.raises(ParameterError):
        SuperNonnectKernel(Control(size=2))
    with pytest.raises(ParameterError):
        SuperNonnectKernel(SuperNonnect(a=2, b=2), tt_entries=0)
