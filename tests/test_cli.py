"""The command line: JSON output, readable output, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.cli_runner import run


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


def test_games_says_what_each_compiled_plugin_offers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    road = {g["name"]: g["compiled"] for g in json.loads(out)}
    assert road["tictactoe"] == []  # no plug-in: the pure-Python solvers only
    assert "tiers" in road["lag"] and "method dfpn" in road["lag"]
    assert "packed retrograde" in road["entropy"] and "method dfpn" not in road["entropy"]


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
        (("solve", "control", "-p", "size=99"), "above the maximum 12"),
        (("show", "interleave", "-p", "size=40"), "above the maximum 12"),
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
        [sys.executable, "-m", "cgtapp", "solve", "nonsense"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("cgt: error: unknown game")
    assert "Traceback" not in proc.stderr


def test_report_writes_markdown_and_figures(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    code, _out, _ = run(capsys, "report", "tictactoe", "--out", str(tmp_path))
    assert code == 0
    text = (tmp_path / "tictactoe.md").read_text()
    # numbers that must be there (5,478 positions, 765 up to symmetry: Henry Bottomley 2001)
    assert "5,478" in text and "765" in text and "**a draw**" in text
    for figure in ("tictactoe_values.png", "tictactoe_lengths.png", "tictactoe_line.png"):
        assert (tmp_path / "figures" / figure).stat().st_size > 1000


def test_check_json_lists_verdicts_and_writes_certificates(
    capsys: pytest.CaptureFixture[str], tmp_path
) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "check", "entropy.fig2-e4c4", "--json", "--out", str(tmp_path))
    assert code == 0
    [verdict] = json.loads(out)
    assert verdict["claim"] == "entropy.fig2-e4c4"
    # the document's c3-e4 is not a queen move, so the claim as written is refuted
    assert verdict["verdict"] == "refuted"
    assert {"scope", "evidence"} <= set(verdict)
    # the finding says it in plain words: a typo for the forced reply c3-d4
    assert "not a queen move" in verdict["finding"] and "c3-d4" in verdict["finding"]
    cert = json.loads((tmp_path / "entropy.fig2-e4c4.json").read_text())
    assert cert["reproduce"] == "cgt check entropy.fig2-e4c4 --json"
    assert cert["finding"] == verdict["finding"]
    assert verdict["finding"] in (tmp_path / "entropy.fig2-e4c4.md").read_text()
    code, out, _ = run(capsys, "check", "entropy.fig2-e4c4", "--no-certificates")
    assert code == 0 and out.splitlines()[1].strip() == verdict["finding"]


def test_query_answers_from_the_database_without_solving(
    capsys: pytest.CaptureFixture[str], tmp_path
) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "db.sqlite")
    assert run(capsys, "solve", "tictactoe", "--save", "--db", db)[0] == 0
    code, out, _ = run(capsys, "query", "tictactoe", "xo./.../... X", "--db", db, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["outcome"] == "win"  # X corner, O adjacent edge: X wins (classical)
    code, _, err = run(capsys, "query", "tictactoe", "--db", str(tmp_path / "missing.sqlite"))
    assert code == 2 and "does not exist" in err  # a mistyped path is not a new database
    code, _, err = run(capsys, "query", "tictactoe", "-p", "size=4", "--db", db)
    assert code == 2 and "not in the solution database" in err
