"""``--max-seconds`` holds everywhere the README says it does: every long phase checks the
clock (enumeration before a search, building a frontier, valuing a graph of known values, the
envelopes of a wide thermograph), the run stops with exit status 3 and one ``cgt: ...`` line,
and the time it reports is the time the whole solve took. Small budgets, so each case takes
a second or two; the boards are ones that take minutes or more without a budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solvers import api
from solvers.database import SolutionDatabase
from tests.cli_runner import run

BUDGET = "0.5"
HOT_OPTIONS = ",".join(f"{{{i}|-{i}}}*" for i in range(1, 200))


def stopped(code: int, err: str) -> None:
    assert code == 3, err
    lines = [line for line in err.replace("\r", "\n").splitlines() if line.startswith("cgt: ")]
    assert len(lines) == 1 and "Traceback" not in err, err


@pytest.mark.parametrize(
    "args",
    [
        # graphs of values the table of forms already holds: no new form, no checkpoint
        ["value", "snort", "-p", "graph=grid", "-p", "rows=6", "-p", "cols=6"],
        ["value", "control", "-p", "size=4"],
        ["value", "nim", "-p", "heaps=1000"],  # the mex of half a million moves
        # the envelopes of a wide thermograph: 199 hot options, each known at once
        ["eval", f"temperature({{{HOT_OPTIONS}|-1000}})"],
        # enumeration before any search: one position of these boards has thousands of moves
        ["solve", "entropy", "-p", "width=26", "-p", "height=26"],
        ["solve", "domineering", "-p", "rows=50", "-p", "cols=50"],
    ],
    ids=["snort-6x6", "control-4", "nim-1000", "thermograph", "entropy-26", "domineering-50"],
)
def test_a_long_phase_stops_at_the_budget(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str]
) -> None:
    code, _, err = run(capsys, *args, "--max-seconds", BUDGET)
    stopped(code, err)


def test_building_a_deep_frontier_stops_at_the_budget(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "f.sqlite")
    code, out, err = run(capsys, "frontier", "control", "-p", "size=3", "--depth", "99",
                         "--max-seconds", BUDGET, "--db", db, "--json")  # fmt: skip
    stopped(code, err)
    assert "tree above the frontier" in err and json.loads(out)["status"] == "stopped"


def test_a_frontier_run_stopped_by_its_budget_exits_3_and_keeps_its_proofs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "f.sqlite")
    # pure-Python alpha-beta jobs on Control size 3 take minutes each
    args = ["frontier", "control", "-p", "size=3", "--depth", "1", "--solver", "alphabeta",
            "--db", db]  # fmt: skip
    code, out, err = run(capsys, *args, "--max-seconds", BUDGET)
    stopped(code, err)
    assert "same command resumes" in err and "stopped by --max-seconds" in out
    code, out, _ = run(capsys, *args, "--status")
    assert code == 0 and "not started" in out


def test_a_stopped_solve_reports_the_time_the_whole_solve_took(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # auto enumerates first and hands the rest of the budget to the search: the search's
    # own clock alone would say less than the budget that was spent
    code, out, err = run(capsys, "solve", "domineering", "-p", "rows=50", "-p", "cols=50",
                         "--max-seconds", BUDGET, "--json")  # fmt: skip
    stopped(code, err)
    report = json.loads(out)
    assert report["status"] == "stopped" and report["seconds"] >= float(BUDGET)
    assert f"in {report['seconds']:.1f} s" in err


def test_db_without_save_stores_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    code, out, err = run(capsys, "solve", "tictactoe", "--db", str(db))
    assert code == 0 and "draw" in out and "stores nothing" in err
    assert not db.exists() or SolutionDatabase(db).count() == 0


def test_save_keeps_the_road_auto_takes_without_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Auto hands a graph above its small limit to the game's kernel; ``--save`` once made it
    enumerate everything in Python instead (Control size 3: 494k positions in 15 s against
    1.2 s). With the limit lowered, Control size 2 shows the road without a long solve."""
    monkeypatch.setattr(api, "AUTO_MAX_POSITIONS_BEFORE_KERNEL", 10)
    db = tmp_path / "d.sqlite"
    code, out, err = run(capsys, "solve", "control", "-p", "size=2", "--save", "--db", str(db))
    assert code == 0, err
    ((_, _, solver, rows),) = SolutionDatabase(db).position_summary()
    assert solver == "compiled" and rows > 0  # the openings, each proven by the kernel
    monkeypatch.setattr(api, "AUTO_MAX_POSITIONS_BEFORE_KERNEL", 2_000)
    code, plain, _ = run(capsys, "solve", "control", "-p", "size=2")
    assert out.splitlines()[3] == plain.splitlines()[3]  # the same winner
