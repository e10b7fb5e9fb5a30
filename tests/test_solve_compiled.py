"""``solve(..., solver="compiled")`` and ``cgt solve --solver compiled``: the compiled kernels
behind the one entry point, checked against the pure-Python retrograde (a second road), and
the memory bound that refuses a table before the solve starts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgt.errors import ParameterError
from cgt.registry import load_game
from solvers import solve
from solvers.database import SolutionDatabase
from solvers.memory import require_memory
from solvers.split import solve_by_openings
from tests.cli_runner import run


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("control", {"size": 2}),
        ("super-nonnect", {"a": 2, "b": 2, "rule": "revised"}),
        ("super-nonnect", {"a": 1, "b": 2, "rule": "original"}),
        ("super-nonnect", {"a": 1, "b": 3, "rule": "revised"}),
        ("lag", {"size": 2, "setup": "BB/.../WW W"}),
    ],
)
def test_compiled_solver_agrees_with_retrograde_on_every_opening(
    name: str, params: dict[str, object]
) -> None:
    game = load_game(name, **params)
    compiled = solve(game, solver="compiled", remoteness=True)
    retro = solve(game, solver="retrograde")
    assert compiled.solver == "compiled"
    assert (compiled.outcome, compiled.remoteness) == (retro.outcome, retro.remoteness)
    by_move = {m.name: (m.outcome, m.remoteness) for m in retro.moves}
    assert {m.name: (m.outcome, m.remoteness) for m in compiled.moves} == by_move


def test_compiled_value_mode_matches_the_retrograde_winner() -> None:
    game = load_game("control", size=2)
    compiled = solve(game, solver="compiled", remoteness=False)
    assert compiled.winner == solve(game, solver="retrograde").winner
    assert compiled.remoteness is None


def test_a_game_without_a_kernel_is_refused_by_name() -> None:
    with pytest.raises(ParameterError, match="no compiled kernel for 'tictactoe'"):
        solve(load_game("tictactoe"), solver="compiled")


def test_a_table_too_big_for_memory_is_refused_before_the_solve_starts() -> None:
    with pytest.raises(ParameterError, match=r"needs .* GiB"):
        solve(load_game("control", size=3), solver="compiled", tt_entries=1 << 45)
    with pytest.raises(ParameterError, match="alpha-beta table"):
        solve(load_game("tictactoe"), solver="alphabeta", tt_entries=1 << 40)


def test_memory_bound_compares_with_the_available_memory() -> None:
    require_memory(100, "x", available=1000)  # fits: 100 <= 80% of 1000
    with pytest.raises(ParameterError, match="x needs 900 B but only 800 B"):
        require_memory(900, "x", available=1000)


def test_split_openings_with_the_kernel_agree_with_retrograde(tmp_path: Path) -> None:
    game = load_game("control", size=2)
    database = SolutionDatabase(tmp_path / "db.sqlite")
    split = solve_by_openings(game, solver="compiled", database=database, tt_entries=1 << 12)
    retro = solve(game, solver="retrograde")
    assert (split.outcome, split.remoteness) == (retro.outcome, retro.remoteness)
    assert database.lookup(game, game.initial_position()) == (retro.outcome, retro.remoteness)


def test_cli_compiled_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "solve", "super-nonnect", "-p", "a=2", "-p", "b=3", "--solver", "compiled", "--json"
    )
    assert code == 0
    data = json.loads(out)
    # 2x3 original: first player wins (hand-checked in tests/test_super_nonnect_rules.py)
    assert data["solver"] == "compiled" and data["winner"] == "first"


def test_cli_compiled_for_a_game_without_kernel_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "solve", "tictactoe", "--solver", "compiled")
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "no compiled kernel" in err


def test_an_unknown_parallel_backend_is_refused_before_work_starts(tmp_path: Path) -> None:
    game = load_game("control", size=2)
    with pytest.raises(ParameterError, match="unknown joblib backend 'nope'"):
        solve_by_openings(game, jobs=2, backend="nope")


def test_auto_hands_a_graph_too_big_to_enumerate_to_the_kernel() -> None:
    # Control size 2: retrograde sees the whole graph; with room for only 10 positions
    # "auto" must hand over to the kernel and still give the same exact answer.
    game = load_game("control", size=2)
    whole = solve(game, solver="retrograde")
    handed_over = solve(game, max_positions=10)
    assert handed_over.solver == "compiled"
    assert (handed_over.outcome, handed_over.remoteness) == (whole.outcome, whole.remoteness)


def test_auto_goes_to_the_kernel_at_once_on_a_board_that_is_not_tiny() -> None:
    # Control size 3 has far more than a few thousand positions: "auto" may look at a tiny
    # part of the graph to see that it is not tiny, but must not enumerate ~10^5 positions
    # in pure Python (some 5 s) before handing the work to the kernel.
    calls = 0

    class CountedControl(type(load_game("control"))):  # type: ignore[misc]
        def moves(self, position: Any) -> Any:
            nonlocal calls
            calls += 1
            return super().moves(position)

    result = solve(CountedControl(size=3))
    assert result.solver == "compiled"
    assert calls < 10_000
