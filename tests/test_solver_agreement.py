"""Two roads to every value: retrograde and alpha-beta agree position by position.

On the toy games, on random cyclic graphs and on every game of ``cgt/games`` at small sizes
(a game whose module is not written yet is skipped), with and without symmetry, with a big
and a tiny transposition table. Also the ``solve`` entry point.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from cgt.errors import CGTError, ParameterError
from cgt.protocol import Game, Outcome
from cgt.registry import BUILTIN_GAMES, load_game
from solvers import AlphaBeta, solve
from solvers.retrograde import retrograde
from tests.toy_games import (
    HAND_GRAPHS,
    DoubleTake,
    Subtraction,
    TiedFinish,
    TwoHeapNim,
    random_graph_game,
    reachable,
)

#: Games of cgt/games with parameters small enough for a test of a few seconds at most.
REFERENCE_GAMES: list[tuple[str, dict[str, Any]]] = [
    ("tictactoe", {}),
    ("nim", {"heaps": "1,2,3"}),
    ("kayles", {"heaps": "7"}),
    ("dawsons-kayles", {"heaps": "8"}),
    ("domineering", {"rows": 2, "cols": 4}),
    ("domineering", {"rows": 3, "cols": 3}),
    ("domineering", {"rows": 4, "cols": 4}),
    ("snort", {"graph": "path", "n": 6}),
    ("snort", {"graph": "cycle", "n": 6}),
    ("snort", {"graph": "grid", "rows": 3, "cols": 3}),
    ("control", {"size": 2}),
    ("control", {"size": 2, "control": "sight"}),
    ("interleave", {"size": 2}),
    ("interleave", {"size": 2, "turns": "loser"}),
    ("super-nonnect", {"a": 2, "b": 2}),
]
#: Reachable positions (without symmetry) above which a reference game is skipped.
MAX_TEST_POSITIONS = 6000


def toy_games() -> list[tuple[str, Game[Any, Any]]]:
    games: list[tuple[str, Game[Any, Any]]] = [
        (name, game) for name, (game, _) in sorted(HAND_GRAPHS.items())
    ]
    games += [
        ("subtraction", Subtraction(heap=14)),
        ("double-take", DoubleTake(heap=12)),
        ("tied-finish", TiedFinish(heap=8)),
        ("two-heap-nim", TwoHeapNim(a=4, b=6)),
    ]
    games += [
        (f"random-{seed}", random_graph_game(seed, size=40, max_degree=3)) for seed in range(25)
    ]
    return games


def assert_solvers_agree(game: Game[Any, Any], positions: list[Any]) -> None:
    """Retrograde (with and without symmetry) and alpha-beta (shared big table, and a tiny one
    from the root) give every position the same outcome, remoteness and move values."""
    plain = retrograde(game, symmetry=False)
    merged = retrograde(game, symmetry=True)
    assert len(plain) == len(positions)
    searcher = AlphaBeta(game, tt_entries=1 << 16)
    for position in positions:
        value = (plain.outcome(position), plain.remoteness(position))
        assert (merged.outcome(position), merged.remoteness(position)) == value, position
        assert searcher.value(position) == value, position
    root = game.initial_position()
    expected = plain.result(root)
    for result in (
        merged.result(root),
        searcher.solve(root),
        AlphaBeta(game, tt_entries=16).solve(root),
    ):
        assert result.outcome == expected.outcome
        assert result.remoteness == expected.remoteness
        assert [m.as_dict() for m in result.moves] == [m.as_dict() for m in expected.moves]
        assert result.best_moves == expected.best_moves
    # without remoteness alpha-beta still finds every outcome
    quick = AlphaBeta(game, remoteness=False).solve(root)
    assert quick.outcome == expected.outcome
    assert [m.outcome for m in quick.moves] == [m.outcome for m in expected.moves]


@pytest.mark.parametrize(
    ("label", "game"), toy_games(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_toy_games_agree(label: str, game: Game[Any, Any]) -> None:
    assert_solvers_agree(game, reachable(game))


def load_reference_game(name: str, params: dict[str, Any]) -> Game[Any, Any]:
    """The game, or a skip when its module is not written yet or takes other parameters."""
    try:
        importlib.import_module(BUILTIN_GAMES[name])
    except ModuleNotFoundError:
        pytest.skip(f"{BUILTIN_GAMES[name]} is not written yet")
    try:
        return load_game(name, **params)
    except ParameterError as error:
        pytest.skip(f"{name} does not take {params}: {error}")


@pytest.mark.parametrize(
    ("name", "params"),
    REFERENCE_GAMES,
    ids=lambda x: x if isinstance(x, str) else "-".join(f"{k}{v}" for k, v in x.items()),
)
def test_reference_games_agree(name: str, params: dict[str, Any]) -> None:
    game = load_reference_game(name, params)
    positions = reachable(game)
    if len(positions) > MAX_TEST_POSITIONS:
        pytest.skip(f"{len(positions)} positions: too many for this test")
    assert_solvers_agree(game, positions)


# ---------------------------------------------------------------------- the solve() API
def test_solve_with_each_solver_gives_the_same_answer() -> None:
    game = TwoHeapNim(a=3, b=5)
    answers = {name: solve(game, solver=name) for name in ("auto", "retrograde", "alphabeta")}
    assert answers["auto"].solver == "retrograde"
    assert answers["alphabeta"].solver == "alphabeta"
    for result in answers.values():
        assert (result.outcome, result.remoteness) == TwoHeapNim.expected(3, 5)
        assert result.best_moves == ["b2"]  # equalise the heaps
        assert result.extra["requested_solver"] in answers


def test_auto_falls_back_to_alphabeta_on_big_graphs() -> None:
    result = solve(Subtraction(heap=41), max_positions=10)
    assert result.solver == "alphabeta"
    assert (result.outcome, result.remoteness) == Subtraction.expected(41)


def test_solve_a_given_position_and_without_remoteness() -> None:
    game = Subtraction(heap=30)
    result = solve(game, (9, 1), solver="alphabeta", remoteness=False, tt_entries=64)
    assert result.outcome == Outcome.WIN and result.remoteness is None
    assert result.extra["tt"]["capacity"] == 64


@pytest.mark.parametrize("bad", [{"solver": "minimax"}, {"tt_entries": 1}])
def test_bad_solver_parameters_are_parameter_errors(bad: dict[str, Any]) -> None:
    with pytest.raises(ParameterError):
        solve(Subtraction(heap=3), **bad)
    assert issubclass(ParameterError, CGTError)
