"""What goes to other processes and what comes from other files ends in an answer or one
line, never a traceback: every registered game pickles (``--jobs`` sends it to worker
processes), the dask backend without a client is refused saying how to connect one, and a
plug-in file that does not load (syntax error, an exception, a failed import, sys.exit) is
one ``cgt: error:`` line naming the file."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from cgt.registry import game_names, load_game
from tests.cli_runner import run


@pytest.mark.parametrize("name", game_names())
def test_every_registered_game_pickles_and_plays_the_same(name: str) -> None:
    game = load_game(name)
    copy = pickle.loads(pickle.dumps(game))
    assert type(copy) is type(game) and copy.parameters == game.parameters
    rng = random.Random(7)
    position, twin = game.initial_position(), copy.initial_position()
    for _ in range(6):  # a few random plies: the copy plays the rules of the original
        moves = [game.move_name(position, m) for m in game.moves(position)]
        assert moves == [copy.move_name(twin, m) for m in copy.moves(twin)]
        if not moves or game.result(position) is not None:
            break
        pick = rng.randrange(len(moves))
        position = game.play(position, game.moves(position)[pick])
        twin = copy.play(twin, copy.moves(twin)[pick])
        assert game.render(position) == copy.render(twin)


def test_lag_solves_with_jobs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # LAG once failed to pickle (a lambda made in validate), so --jobs could not run at all
    board = ["-p", "size=2", "-p", "setup=BB/.../WW W"]
    code, alone, err = run(capsys, "solve", "lag", *board, "--solver", "alphabeta")
    assert code == 0, err
    code, split, err = run(capsys, "solve", "lag", *board, "--jobs", "2", "--solver",
                           "alphabeta", "--db", str(tmp_path / "j.sqlite"))  # fmt: skip
    assert code == 0, err
    winner = [line for line in alone.splitlines() if line.startswith("winner:")]
    assert winner and winner == [line for line in split.splitlines() if line.startswith("winner:")]


def one_line(code: int, err: str, *words: str) -> None:
    assert code == 2 and err.count("\n") == 1 and err.startswith("cgt: error:"), err
    for word in words:
        assert word in err, err


@pytest.mark.parametrize("command", [["solve", "control", "-p", "size=2", "--jobs", "2"],
                                     ["frontier", "control", "-p", "size=2", "--depth", "1"]])  # fmt: skip
def test_dask_without_a_client_is_refused_saying_how_to_connect_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    code, _, err = run(capsys, *command, "--backend", "dask", "--db", str(tmp_path / "d.sqlite"))
    one_line(code, err, "Client(", "--load")


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("def broken(:\n", ["syntax error at line 1"]),
        ("x = 1\nraise RuntimeError('no board\\nsecond line')\n", ["line 2", "RuntimeError"]),
        ("import a_module_nobody_has_written\n", ["line 1", "a_module_nobody_has_written"]),
        ("import sys\nsys.exit(0)\n", ["sys.exit(0)"]),
    ],
    ids=["syntax", "raises", "import", "exit"],
)
def test_a_plugin_that_does_not_load_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, source: str, words: list[str]
) -> None:
    plugin = tmp_path / "mygame.py"
    plugin.write_text(source)
    code, out, err = run(capsys, "--load", str(plugin), "games")
    one_line(code, err, "mygame.py", *words)
    assert out == ""


@pytest.mark.parametrize("name", ["", "no_such_module_anywhere"])
def test_a_module_that_does_not_import_is_one_line(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    one_line(*run(capsys, "--load", name, "games")[::2], "game module")
