"""--max-seconds bounds every solver, not only the compiled kernels."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from cgt.registry import load_game
from solvers import solve
from solvers.alphabeta import AlphaBeta
from solvers.budget import Deadline, SearchBudgetExceeded
from solvers.database import SolutionDatabase
from solvers.retrograde import retrograde
from solvers.split import solve_by_openings

# 4x4 tic-tac-toe has ~10^7 positions: no solver finishes it within a fraction of a second
BIG = {"size": 4}


def test_retrograde_stops_at_its_budget_and_says_how_far_it_got() -> None:
    with pytest.raises(SearchBudgetExceeded) as caught:
        retrograde(load_game("tictactoe", **BIG), max_seconds=0.2)
    assert "positions enumerated" in str(caught.value)
    assert caught.value.nodes > 0


def test_alphabeta_stops_at_its_budget() -> None:
    searcher = AlphaBeta(load_game("tictactoe", **BIG), max_seconds=0.2)
    with pytest.raises(SearchBudgetExceeded) as caught:
        searcher.solve()
    assert "nodes searched" in str(caught.value)
    assert caught.value.nodes >= 4096  # the clock is read every 4096 nodes


@pytest.mark.parametrize("solver", ["auto", "retrograde", "alphabeta"])
def test_solve_honours_the_budget_whatever_the_solver(solver: str) -> None:
    with pytest.raises(SearchBudgetExceeded):
        solve(load_game("tictactoe", **BIG), solver=solver, max_seconds=0.2)


@pytest.mark.parametrize("solver", ["retrograde", "alphabeta"])
def test_a_generous_budget_changes_nothing(solver: str) -> None:
    game = load_game("tictactoe")
    bounded = solve(game, solver=solver, max_seconds=600)
    free = solve(game, solver=solver)
    assert (bounded.outcome, bounded.remoteness, bounded.best_moves) == (
        free.outcome,
        free.remoteness,
        free.best_moves,
    )


def test_budget_error_survives_the_trip_back_from_a_worker_process() -> None:
    error = SearchBudgetExceeded(1234, 5.5, "positions decided")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), copy.nodes, copy.seconds, str(copy)) == (
        SearchBudgetExceeded,
        1234,
        5.5,
        str(error),
    )


def test_split_solve_stops_at_its_budget_and_keeps_finished_openings(tmp_path: Path) -> None:
    game = load_game("tictactoe", **BIG)
    database = SolutionDatabase(tmp_path / "budget.sqlite")
    with pytest.raises(SearchBudgetExceeded):
        solve_by_openings(game, jobs=2, database=database, max_seconds=0.5)


def test_deadline_refuses_a_bad_budget() -> None:
    from cgt.errors import ParameterError

    for bad in (0, -1, float("nan"), True):
        with pytest.raises(ParameterError):
            Deadline(bad)  # type: ignore[arg-type]
    assert Deadline(None).remaining() is None


def test_cli_budget_ends_in_one_line_and_status_3() -> None:
    # A spent budget is not bad input (status 2): it has its own status, 3.
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cgtapp",
            "solve",
            "tictactoe",
            "-p",
            "size=4",
            "--max-seconds",
            "0.3",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3
    lines = [line for line in done.stderr.splitlines() if line.startswith("cgt: stopped:")]
    assert len(lines) == 1 and "time budget" in lines[0]
    assert "Traceback" not in done.stderr
