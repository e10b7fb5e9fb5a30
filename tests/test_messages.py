"""The small promises of the command line: errors name options as they were typed, say what
is wrong in one line however long the input, a mistyped ``--db`` is refused rather than
created, and the answers read right ("1 legal move", which player is Left, a claim named
twice checked once, a number printed without building its game)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cgt.algebra.expression import evaluate
from cgt.algebra.game import table_size
from tests.cli_runner import run


def one_line(code: int, err: str, *words: str) -> None:
    assert code == 2 and err.count("\n") == 1 and err.startswith("cgt: error:"), err
    for word in words:
        assert word in err, err


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["solve", "tictactoe", "--max-seconds", "nan"], "--max-seconds"),
        (["eval", "1", "--max-seconds", "inf"], "--max-seconds"),
        (["frontier", "tictactoe", "--depth", "1", "--job-seconds", "nan"], "--job-seconds"),
        (["frontier", "tictactoe", "--depth", "1", "--split"], "--job-seconds"),
    ],
)
def test_errors_name_options_as_typed(
    capsys: pytest.CaptureFixture[str], args: list[str], option: str
) -> None:
    code, _, err = run(capsys, *args)
    one_line(code, err, option)
    assert "_seconds" not in err


def test_a_long_bad_position_is_not_echoed_whole(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "show", "snort", "L" * 100_000 + " L")
    one_line(code, err)
    assert len(err) < 600


@pytest.mark.parametrize(
    "digit", ["\u0663", "\u096f", "\uff13"]
)  # Arabic-Indic, Devanagari, fullwidth
def test_other_scripts_digits_are_not_sizes(capsys: pytest.CaptureFixture[str], digit: str) -> None:
    one_line(*run(capsys, "show", "tictactoe", "-p", f"size={digit}")[::2], "size")
    one_line(*run(capsys, "show", "nim", "-p", f"heaps={digit}")[::2], "heaps")
    one_line(*run(capsys, "eval", digit)[::2])


def test_a_heap_too_large_to_list_its_moves_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    one_line(*run(capsys, "show", "nim", "-p", "heaps=99999999999999999999")[::2], "heap")


@pytest.mark.parametrize("command", [["db", "list"], ["query", "tictactoe"],
                                     ["db", "remove", "tictactoe"]])  # fmt: skip
def test_a_mistyped_db_is_refused_not_created(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    mistyped = tmp_path / "solutons" / "db.sqlite"
    one_line(*run(capsys, *command, "--db", str(mistyped))[::2], "does not exist")
    assert not mistyped.parent.exists()


def test_one_legal_move_is_singular(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "tictactoe", "XOX/OXO/OX. X")
    assert code == 0 and "1 legal move:" in out


def test_value_says_which_player_is_left(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "value", "control", "-p", "size=2", "W./..B/.. W", "--json")
    report = json.loads(out)
    assert code == 0 and (report["left"], report["right"]) == ("White", "Black")
    code, out, _ = run(capsys, "value", "control", "-p", "size=2", "W./..B/.. W")
    assert "Left is White, Right is Black" in out


def test_a_claim_named_twice_is_checked_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", "entropy.fig2-a4c4", "entropy.fig2-a4c4", "--json")
    assert code == 0 and [v["claim"] for v in json.loads(out)] == ["entropy.fig2-a4c4"], err


def test_a_number_prints_without_building_its_game(capsys: pytest.CaptureFixture[str]) -> None:
    # the canonical form of 10^6 has 10^6 subpositions (7 s and 470 MiB to print "1000000")
    before = table_size()
    code, out, _ = run(capsys, "eval", "1000000")
    assert code == 0 and out == "1000000\n" and table_size() - before < 1000
    assert str(evaluate("3")) == "3"  # the library still gives games for numbers


def test_no_command_shows_what_there_is(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "db")
    assert code == 0 and "list" in out and "remove" in out and err == ""


def test_a_very_long_number_is_one_error(capsys: pytest.CaptureFixture[str]) -> None:
    one_line(*run(capsys, "eval", "1" * 5000)[::2], "5,000 digits")
