"""The command line's answers to what a sceptical user tries: warnings where a solver fits
badly, one-line errors (exit 2) for bad input, its own exit status for a run stopped by
``--max-seconds``, and where files are (not) written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgt.registry import load_game
from tests.cli_runner import run


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("cgt: warning:")]


def test_alphabeta_on_a_game_with_cycles_warns_that_retrograde_fits_better(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Line-of-sight Control can repeat positions (control.sight-cycle), so endless play is a
    # draw and the depth-first search keeps meeting its own path.
    code, out, err = run(
        capsys, "solve", "control", "-p", "size=2", "-p", "control=sight", "--solver", "alphabeta"
    )
    assert code == 0 and "winner:" in out
    [warning] = warnings(err)
    assert "retrograde" in warning and "repeat" in warning


def test_alphabeta_on_a_game_that_always_ends_does_not_warn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "solve", "control", "-p", "size=2", "--solver", "alphabeta")
    assert code == 0 and warnings(err) == []


def one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def unwritable(tmp_path: Path) -> Path:
    """A directory that cannot be created: its parent is a regular file (works as root too)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    return blocker / "out"


@pytest.mark.parametrize(
    "command",
    [
        ("report", "tictactoe", "--samples", "10"),
        ("check", "entropy.fig2-e4c4"),
    ],
)
def test_an_unwritable_out_directory_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: tuple[str, ...]
) -> None:
    target = unwritable(tmp_path)
    code, _, err = run(capsys, *command, "--out", str(target))
    assert code == 2
    line = one_error_line(err)
    assert line.startswith("cgt: error: ") and str(target) in line


@pytest.mark.parametrize("samples", ["0", "-5"])
def test_report_refuses_a_sample_count_below_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, samples: str
) -> None:
    code, _, err = run(capsys, "report", "tictactoe", "--out", str(tmp_path), "--samples", samples)
    assert code == 2
    assert "samples" in one_error_line(err)
    assert not (tmp_path / "tictactoe.md").exists()


def test_a_run_stopped_by_max_seconds_has_its_own_status_and_says_how_far(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cgt.errors import EXIT_STOPPED

    # Pure-Python alpha-beta on Control size 3 needs far more than a third of a second.
    args = ("solve", "control", "-p", "size=3", "--solver", "alphabeta", "--max-seconds", "0.3")
    code, out, err = run(capsys, *args)
    assert code == EXIT_STOPPED == 3
    line = one_error_line(err)
    assert line.startswith("cgt: stopped: ") and "nodes searched" in line and out == ""
    code, out, err = run(capsys, *args, "--json")
    assert code == 3
    data = json.loads(out)
    assert data["status"] == "stopped" and data["max_seconds"] == 0.3
    assert data["nodes"] > 0 and data["unit"] == "nodes searched" and data["seconds"] >= 0.3
    assert data["winner"] is None and isinstance(data["proven_moves"], list)


def test_ctrl_c_says_how_far_the_run_got(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cgt import progress

    original = progress.StderrProgress.__call__

    def interrupt_after_first_report(self: progress.StderrProgress, info: dict[str, Any]) -> None:
        original(self, info)
        if info.get("nodes"):
            raise KeyboardInterrupt  # as if the user pressed Ctrl-C during the search

    monkeypatch.setattr(progress.StderrProgress, "__call__", interrupt_after_first_report)
    code, out, err = run(capsys, "solve", "control", "-p", "size=3", "--solver", "alphabeta")
    assert code == 130 and out == ""
    last = err.strip().splitlines()[-1]
    assert last.startswith("cgt: interrupted after ") and "nodes=" in last


def test_check_writes_no_certificate_without_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "check", "entropy.fig2-e4c4")
    assert code == 0 and "entropy.fig2-e4c4" in out
    assert list(tmp_path.iterdir()) == []  # nothing written into the current directory
    code, _, _ = run(capsys, "check", "entropy.fig2-e4c4", "--out", "certs")
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "certs").iterdir()) == [
        "entropy.fig2-e4c4.json",
        "entropy.fig2-e4c4.md",
    ]


def test_solve_takes_the_position_as_an_argument(capsys: pytest.CaptureFixture[str]) -> None:
    position = "xo./.x./... O"  # not the initial position: X a3 and b2, O b3, O to move
    code, out, _ = run(capsys, "solve", "tictactoe", position, "--json")
    assert code == 0
    as_argument = json.loads(out)
    code, out, _ = run(capsys, "solve", "tictactoe", "--position", position, "--json")
    assert code == 0 and json.loads(out)["winner"] == as_argument["winner"]
    assert as_argument["position"] == "XO./.X./..."  # the position solved is the one given
    code, _, err = run(capsys, "solve", "tictactoe", position, "--position", position)
    assert code == 2 and "both" in one_error_line(err)


def test_a_parameter_given_twice_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "solve", "control", "-p", "size=2", "-p", "size=3")
    assert code == 2
    line = one_error_line(err)
    assert "size" in line and "twice" in line


@pytest.mark.parametrize(("game", "size"), [("control", 2), ("lag", 3), ("interleave", 3)])
def test_show_draws_hex_cell_names_beside_each_row(
    capsys: pytest.CaptureFixture[str], game: str, size: int
) -> None:
    from cgt.boards.hexhex import hex_board

    code, out, _ = run(capsys, "show", game, "-p", f"size={size}")
    assert code == 0
    board = hex_board(size)
    lines = out.splitlines()
    for row in board.rows:
        names = [board.cell_name(i) for i in row]
        # the row's drawing and its cell names, left to right, on one line
        assert any(
            line.split()[len(names) :] == names and len(line.split()) == 2 * len(names)
            for line in lines
        ), names


def test_show_draws_the_cell_names_of_super_nonnect_hex7(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "show", "super-nonnect", "-p", "shape=hex7")
    assert code == 0
    game = load_game("super-nonnect", shape="hex7")
    start = game.initial_position()
    lines = [line.split() for line in out.splitlines()]
    for row in game.geometry.rows:
        names = [game.move_name(start, cell) for cell in row]  # every cell is a first cut
        assert [len(row) * ["."] + names == line for line in lines].count(True) == 1, names
