"""The command line: JSON output, readable output, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cgt.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_tictactoe_solve_json_is_a_draw_with_nine_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "tictactoe", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == "tictactoe"
    assert data["winner"] == "draw"
    assert len(data["moves"]) == 9
    # every first move of tic-tac-toe keeps the draw (a classical hand result)
    assert {m["outcome"] for m in data["moves"]} == {"draw"}
    assert data["positions"] > 0 and data["seconds"] >= 0


def test_both_solvers_give_the_same_json_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    verdicts = []
    for solver in ("retrograde", "alphabeta"):
        code, out, _ = run(capsys, "solve", "tictactoe", "--solver", solver, "--json")
        assert code == 0
        data = json.loads(out)
        verdicts.append((data["winner"], [(m["move"], m["outcome"]) for m in data["moves"]]))
    assert verdicts[0] == verdicts[1]


def test_readable_solve_output_lists_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "tictactoe", "--position", "xo./.x./... O")
    assert code == 0
    assert "winner:" in out and "c1" in out


def test_games_lists_parameters_and_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    names = {g["name"] for g in json.loads(out)}
    assert {"tictactoe", "control", "lag", "interleave", "super-nonnect", "entropy"} <= names


def test_show_lists_legal_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "tictactoe")
    assert code == 0
    assert "9 legal moves" in out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("solve", "no-such-game"), "unknown game 'no-such-game'"),
        (("solve", "control", "-p", "colour=red"), "unknown parameter 'colour'"),
        (("solve", "control", "-p", "size=0"), "size"),
        (("solve", "control", "-p", "size=abc"), "expected an integer"),
        (("solve", "control", "-p", "size"), "KEY=VALUE"),
        (("show", "tictactoe", "xx/"), "expected 3"),
        (("show", "tictactoe", "xxx/xxx/xxx X"), ""),
        (("solve", "tictactoe", "--solver", "magic"), "magic"),
        (("check", "no.such-claim"), "unknown claim"),
    ],
)
def test_bad_input_gives_one_line_error_and_status_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], fragment: str
) -> None:
    code, _out, err = run(capsys, *args)
    assert code == 2
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("cgt: error: ")
    assert fragment in lines[0]
    assert "Traceback" not in err


def test_console_script_errors_without_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "cgt", "solve", "nonsense"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("cgt: error: unknown game")
    assert "Traceback" not in proc.stderr
