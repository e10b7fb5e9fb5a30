"""Self-play balance: the counts add up, an interrupted run resumes without losing or
replaying a game, and ``cgt move`` / ``cgt balance`` answer with the documented keys or a
one-line refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import solvers.selfplay as selfplay
from cgt.errors import CGTError
from cgt.registry import load_game
from solvers.selfplay import GameStore, balance, wilson
from tests.cli_runner import run


def test_wilson_interval_matches_the_textbook_example():
    # 8 successes in 10 trials, 95%: (0.490, 0.943) (Wilson 1927; Newcombe 1998, method 3)
    low, high = wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.49, 0.943)
    assert wilson(0, 0) == (0.0, 1.0)


def test_levels_add_up_and_every_game_is_stored(tmp_path: Path):
    game = load_game("control", size=2)
    store = tmp_path / "games.jsonl"
    levels = balance(game, game.initial_position(), games=4, budgets=[20, 40], store=store)
    assert [level.playouts for level in levels] == [20, 40]
    for level in levels:
        assert level.games == 4
        assert level.first_wins + level.second_wins + level.draws == 4
        assert sum(n for _, n in level.openings) == 4
        assert level.mean_length > 0
    lines = store.read_text().splitlines()
    assert len(lines) == 1 + 8  # the header, then one line per game


def test_an_interrupted_run_resumes_without_losing_or_replaying_a_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    game = load_game("control", size=2)
    position = game.initial_position()
    whole = balance(game, position, games=5, budgets=[30], store=tmp_path / "whole.jsonl")

    played: list[int] = []
    original = selfplay._play_job

    def counting(*args):  # type: ignore[no-untyped-def]
        played.append(args[3])
        if len(played) == 3:
            raise KeyboardInterrupt  # stopped while the third game is being played
        return original(*args)

    monkeypatch.setattr(selfplay, "_play_job", counting)
    store = tmp_path / "stopped.jsonl"
    with pytest.raises(KeyboardInterrupt):
        balance(game, position, games=5, budgets=[30], store=store)
    assert len(store.read_text().splitlines()) == 1 + 2
    first_seeds = list(played)
    played.clear()
    monkeypatch.setattr(selfplay, "_play_job", original)
    monkeypatch.setattr(selfplay, "_play_job", lambda *a: (played.append(a[3]), original(*a))[1])
    resumed = balance(game, position, games=5, budgets=[30], store=store)
    assert not set(played) & set(first_seeds[:2])  # the two stored games were not replayed
    assert len(played) == 3
    assert resumed == whole  # same seeds, same games, same counts


def test_a_store_of_another_board_is_refused_in_one_line(tmp_path: Path):
    store = tmp_path / "games.jsonl"
    small = load_game("control", size=2)
    GameStore(store, small, small.initial_position())
    other = load_game("control", size=3)
    with pytest.raises(CGTError, match="not a self-play store of control"):
        GameStore(store, other, other.initial_position())


def test_cgt_balance_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str], tmp_path):
    store = tmp_path / "nim.jsonl"
    args = ["balance", "nim", "--games", "3", "--playouts", "10,20", "--jobs", "1"]
    code, out, err = run(capsys, *args, "--store", str(store), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [level["playouts"] for level in data["levels"]] == [10, 20]
    keys = {"playouts", "games", "first_wins", "second_wins", "draws", "first_win_rate"}
    for level in data["levels"]:
        assert keys | {"interval", "mean_length"} <= set(level)
        assert level["first_wins"] + level["second_wins"] + level["draws"] == level["games"] == 3
    code, out, _ = run(capsys, *args, "--store", str(store))
    assert code == 0 and "estimated by self-play" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["balance", "nim", "--games", "2", "--playouts", "10,x"], "--playouts takes"),
        (["balance", "nim", "--games", "2", "--playouts", "0"], "--playouts takes"),
        (["move", "nim", "--playouts", "10", "--seconds", "1"], "not both"),
        (["move", "control", "-p", "size=2", "WB./.../. W"], ""),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(capsys, args, message):
    code, _out, err = run(capsys, *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and message in err
    assert "Traceback" not in err


def test_cgt_move_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str], tmp_path):
    code, out, err = run(capsys, "move", "lag", "--playouts", "300", "--seed", "4", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {"move", "source", "estimate", "candidates"} <= set(data)
    assert data["source"] == "search" and data["estimate"]["kind"] == "search"
    code, again, _ = run(capsys, "move", "lag", "--playouts", "300", "--seed", "4", "--json")
    assert json.loads(again)["move"] == data["move"]
    db = tmp_path / "empty.sqlite"
    code, out, err = run(capsys, "move", "control", "-p", "size=2", "--db", str(db), "--json")
    assert code == 0, err
    solved = json.loads(out)
    assert solved["source"] == "solved" and solved["estimate"]["kind"] == "proven"
