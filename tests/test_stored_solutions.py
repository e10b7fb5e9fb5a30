"""Stored packed solutions (solvers/saved.py, solvers/query.py, solvers/ranking.py) and the
commands around them: what is stored reads back as the in-memory kernel solved it and as
the pure-Python retrograde (an independent algorithm) solves it; ``cgt query`` from a fresh
process says what ``cgt solve`` says; ``cgt db`` lists and removes; a missing, truncated,
other-version or damaged store and a bad ``--db`` are one-line errors with exit status 2."""

from __future__ import annotations

import json
import random
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cgt.games.entropy import Entropy
from cgt.games.interleave import Interleave
from cgt.protocol import Game, Outcome
from solvers import store
from solvers.database import SolutionDatabase
from solvers.kernels.entropy import EntropySpace
from solvers.kernels.entropy import warm_up as warm_up_entropy
from solvers.kernels.interleave import warm_up as warm_up_interleave
from solvers.query import NotStoredError, query_position, value_from_moves
from solvers.ranking import ranking_from_meta
from solvers.retrograde import retrograde
from solvers.saved import solve_and_store
from solvers.store import PackedSolution
from tests.test_cli import run

ENTROPY_43 = ["width=4", "height=3", "setup=SS../..../..OO O"]


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up_entropy()
    warm_up_interleave()


def reachable(game: Game[Any, Any]) -> list[Any]:
    start = game.initial_position()
    seen = {start}
    stack = [start]
    while stack:
        position = stack.pop()
        if game.result(position) is None:
            for child in (game.play(position, m) for m in game.moves(position)):
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    return sorted(seen, key=game.key)  # type: ignore[arg-type]


def values(moves: list[Any]) -> list[tuple[str, Any, Any]]:
    return [(m.name, m.outcome, m.remoteness) for m in moves]


@pytest.mark.parametrize(
    "game",
    [
        Entropy(width=3, height=3, setup="SS./.../.OO O"),
        Entropy(width=4, height=3, setup="SS../..../..OO O"),
        Entropy(width=3, height=3, setup="SSS/.../OOO O", goal="disable"),
        Interleave(size=2),
        Interleave(size=2, turns="loser"),
        Interleave(size=2, win="groups", first="black"),
    ],
    ids=lambda g: g.label(),
)
def test_stored_space_answers_every_reachable_position_as_the_retrograde(
    game: Game[Any, Any], tmp_path: Path
) -> None:
    database = SolutionDatabase(tmp_path / "db.sqlite")
    result, entry = solve_and_store(game, game.initial_position(), database)
    assert entry.path.exists() and entry.bytes == entry.path.stat().st_size
    solution = retrograde(game, game.initial_position(), symmetry=False)
    positions = reachable(game)
    assert len(positions) > 1
    for position in positions:
        answer = query_position(game, position, database)
        expected = solution.result(position)
        assert (answer.outcome, answer.remoteness) == (expected.outcome, expected.remoteness)
        assert values(answer.moves) == values(expected.moves)
        assert answer.best_moves == expected.best_moves
        assert answer.source == "packed"
    root = query_position(game, None, database)
    assert (root.outcome, root.remoteness) == (result.outcome, result.remoteness)


@pytest.mark.parametrize(
    "game",
    [
        Entropy(width=4, height=3, setup="SS../..../..OO O"),
        Entropy(width=3, height=3, setup="SSS/.../OOO O"),
    ],
    ids=lambda g: g.label(),
)
def test_every_record_equals_the_in_memory_space(game: Entropy, tmp_path: Path) -> None:
    _, entry = solve_and_store(game, game.initial_position(), SolutionDatabase(tmp_path / "d"))
    space = EntropySpace(game)
    space.solve()
    assert space.value is not None
    with PackedSolution.open(entry.path) as stored:
        records = stored.load_all()
        ranking = ranking_from_meta(stored.meta["ranking"])
    assert records.size == space.size
    for index in range(space.size):
        record = store.decode_record(int(records[index]))
        if int(space.value[index]) == 1:  # DUPLICATE: a non-canonical index
            assert record is None
            continue
        position = space.position(index)
        assert ranking.index(position) == index
        assert record == space.value_of(position)


def test_python_ranking_equals_the_compiled_one_on_5x5() -> None:
    space = EntropySpace(Entropy())
    space.build_tables()
    ranking = ranking_from_meta(space.ranking_meta())
    rng = random.Random(7)
    for _ in range(500):
        cells = rng.sample(range(25), 14)
        position = (
            sum(1 << c for c in cells[:7]),
            sum(1 << c for c in cells[7:]),
            rng.randrange(2),
        )
        assert ranking.index(position) == space.index(position)
    assert ranking.index((0b111, 0b111000, 0)) is None  # 3+3 pieces: another space


def test_query_without_a_store_is_not_stored(tmp_path: Path) -> None:
    with pytest.raises(NotStoredError, match="not in the solution database"):
        query_position(Interleave(size=2), None, tmp_path / "empty.sqlite")


# ---------------------------------------------------------------------- command line
@pytest.fixture()
def saved_43(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, Path]:
    db = str(tmp_path / "db.sqlite")
    code, _, err = run(capsys, "solve", "entropy", *params_args(),
                       "--solver", "compiled", "--save", "--db", db)  # fmt: skip
    assert code == 0, err
    (entry,) = SolutionDatabase(db).packed_solutions()
    return db, entry.path


def params_args() -> list[str]:
    return [arg for p in ENTROPY_43 for arg in ("-p", p)]


def test_fresh_process_query_equals_solve_on_random_positions(
    saved_43: tuple[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = saved_43
    game = Entropy(width=4, height=3, setup="SS../..../..OO O")
    rng = random.Random(3)
    picks = rng.sample([p for p in reachable(game) if game.result(p) is None], 4)
    for position in [game.initial_position(), *picks]:
        text = game.render(position)
        fresh = subprocess.run(
            [sys.executable, "-m", "cgtapp", "query", "entropy", text, *params_args(), "--db", db,
             "--json"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        answer = json.loads(fresh.stdout)
        code, out, _ = run(capsys, "solve", "entropy", *params_args(), "--position", text,
                           "--solver", "retrograde", "--json")  # fmt: skip
        solved = json.loads(out)
        assert code == 0 and answer["source"] == "packed"
        for key in ("position", "outcome", "remoteness", "moves", "best_moves"):
            assert answer[key] == solved[key], key


def test_db_list_and_remove(saved_43: tuple[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    db, path = saved_43
    code, out, _ = run(capsys, "db", "list", "--db", db, "--json")
    listing = json.loads(out)
    (item,) = listing["packed"]
    assert item["path"] == str(path) and item["bytes"] == path.stat().st_size
    # 2 sides x 22 classes of O pairs under the 4x3 board's 4 symmetries (Burnside:
    # (66 + 6 + 6 + 10) / 4) x C(10, 2) S pairs
    assert item["records"] == 2 * 22 * 45
    assert "--save" in item["command"] and item["present"]
    code, out, _ = run(capsys, "db", "list", "--db", db)
    assert code == 0 and str(path) in out
    code, out, _ = run(capsys, "db", "remove", "entropy", *params_args(), "--db", db)
    assert code == 0 and "removed packed solution" in out and not path.exists()
    code, _, err = run(capsys, "db", "remove", "entropy", *params_args(), "--db", db)
    assert code == 2 and "nothing is stored" in err


def one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("cgt: error:"), err
    assert "Traceback" not in err
    for word in words:
        assert word in err, err


def test_missing_stored_solution(
    saved_43: tuple[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, path = saved_43
    path.unlink()
    one_line_error(*run(capsys, "query", "entropy", *params_args(), "--db", db)[::2], "missing")


def test_truncated_stored_solution(
    saved_43: tuple[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, path = saved_43
    path.write_bytes(path.read_bytes()[:-7])
    one_line_error(*run(capsys, "query", "entropy", *params_args(), "--db", db)[::2], "truncated")


def test_stored_solution_of_another_version(
    saved_43: tuple[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, path = saved_43
    data = bytearray(path.read_bytes())
    data[8:12] = struct.pack("<I", 99)
    data[store.HEADER.size : store.HEADER_SIZE] = struct.pack(
        "<I", store._crc(data[: store.HEADER.size])
    )  # a file another version wrote whole, not a flipped bit
    path.write_bytes(bytes(data))
    one_line_error(*run(capsys, "query", "entropy", *params_args(), "--db", db)[::2], "version 99")


def test_moving_the_database_folder_keeps_its_stored_solutions(
    saved_43: tuple[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = saved_43
    folder = Path(db).parent
    moved = folder.parent / (folder.name + "-moved")
    folder.rename(moved)
    code, out, err = run(
        capsys, "query", "entropy", *params_args(), "--db", str(moved / "db.sqlite")
    )
    assert code == 0 and "from packed" in out, err


def test_two_runs_saving_one_packed_solution_at_once_both_finish(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite")
    command = [sys.executable, "-m", "cgtapp", "solve", "interleave", "-p", "size=2",
               "--solver", "compiled", "--save", "--db", db]  # fmt: skip
    runs = [
        subprocess.Popen([*command, *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for extra in ([], ["-p", "win=stones", "--json"])  # the same solution twice
    ]
    for process in runs:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    (entry,) = SolutionDatabase(db).packed_solutions()
    with PackedSolution.open(entry.path) as solution:
        solution.verify()
    assert sorted(p.suffix for p in entry.path.parent.iterdir()) == [".cgtpack", ".lock"]


def test_stored_solution_with_a_bad_block(
    saved_43: tuple[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, path = saved_43
    with PackedSolution.open(path) as solution:
        first_block = int(solution._offsets[0])
    data = bytearray(path.read_bytes())
    data[first_block + 3] ^= 0xFF
    path.write_bytes(bytes(data))
    one_line_error(*run(capsys, "query", "entropy", *params_args(), "--db", db)[::2], "checksum")


def corrupt_db(tmp_path: Path) -> str:
    path = tmp_path / "corrupt.sqlite"
    path.write_bytes(b"this is no database " * 400)
    return str(path)


def unwritable_db(tmp_path: Path) -> str:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    return str(blocker / "db.sqlite")  # its folder is a file: cannot be created, even by root


@pytest.mark.parametrize("make_db", [corrupt_db, unwritable_db])
@pytest.mark.parametrize(
    "command",
    [
        ["query", "tictactoe"],
        ["solve", "tictactoe", "--save"],
        ["solve", "tictactoe", "--jobs", "2"],
        ["solve", "entropy", "-p", "width=3", "-p", "height=3", "-p", "setup=SS./.../.OO O",
         "--solver", "compiled", "--save"],
        ["db", "list"],
    ],
    ids=["query", "save", "jobs", "packed-save", "db-list"],
)  # fmt: skip
def test_bad_database_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make_db: Any, command: list[str]
) -> None:
    code, _, err = run(capsys, *command, "--db", make_db(tmp_path))
    one_line_error(code, err, "solution database")


def test_records_of_the_spaces_are_the_documented_encoding() -> None:
    space = EntropySpace(Entropy(width=3, height=3, setup="SS./.../.OO O"))
    space.solve()
    records = space.records(0, space.size)
    assert records.dtype == np.uint16
    for index in range(space.size):
        decoded = store.decode_record(int(records[index]))
        if decoded is not None:
            assert decoded == space.value_of(space.position(index))


@pytest.mark.slow
def test_the_stored_5x5_solution_satisfies_the_game_equations() -> None:
    """The 5x5 space kept by ``cgt solve entropy --solver compiled --save`` (default database):
    at the start and at positions of random play, the stored value is what the readable
    rules' moves and the stored values of their children make it (a won position has a
    winning move one ply faster, a lost one only losing moves, the slowest one ply slower)."""
    game = Entropy()
    database = SolutionDatabase()
    if not database.packed_solutions(game.name, dict(game.parameters)):
        pytest.skip("no stored 5x5 solution: run cgt solve entropy --solver compiled --save")
    rng = random.Random(5)
    position = game.initial_position()
    outcomes = set()
    for step in range(600):
        if step % 2:  # every other one a random placement of the 7 + 7 pieces
            cells = rng.sample("O" * 7 + "S" * 7 + "." * 11, 25)
            rows = "/".join("".join(cells[i : i + 5]) for i in range(0, 25, 5))
            position = game.parse(f"{rows} {rng.choice('OS')}")
        answer = query_position(game, position, database)
        outcomes.add(answer.outcome)
        over = game.result(position)
        if over is not None:
            assert (answer.outcome, answer.moves) == (over, [])
            position = game.initial_position()
            continue
        assert len(answer.moves) == len(game.moves(position))
        assert (answer.outcome, answer.remoteness) == value_from_moves(answer.moves)
        position = game.play(position, rng.choice(list(game.moves(position))))
    assert outcomes == {Outcome.WIN, Outcome.LOSS, Outcome.DRAW}


def test_unwritable_packed_folder_is_refused_before_solving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "db.packed").write_text("a file where the packed folder should be")
    code, _, err = run(capsys, "solve", "interleave", "--solver", "compiled", "--save",
                       "--db", str(tmp_path / "db.sqlite"))  # fmt: skip
    one_line_error(code, err, "cannot write packed solutions")
    assert "phase=" not in err  # refused before any solving progress
