"""Root splitting with joblib, the solution database, and resuming an interrupted solve."""

from __future__ import annotations

from pathlib import Path

import pytest

from cgt.protocol import Outcome
from cgt.registry import load_game
from solvers.database import SolutionDatabase
from solvers.retrograde import retrograde
from solvers.split import solve_by_openings


def summary(result):  # type: ignore[no-untyped-def]
    return (
        result.outcome,
        result.remoteness,
        [(m.name, m.outcome, m.remoteness) for m in result.moves],
    )


def test_two_local_workers_give_the_same_answer_as_one(tmp_path: Path) -> None:
    game = load_game("tictactoe")
    position = game.parse("x../.o./... X")
    one = solve_by_openings(
        game, position, jobs=1, database=SolutionDatabase(tmp_path / "a.sqlite")
    )
    two = solve_by_openings(
        game, position, jobs=2, database=SolutionDatabase(tmp_path / "b.sqlite")
    )
    assert summary(one) == summary(two)
    # and both agree with retrograde analysis, the other road
    assert summary(one) == summary(retrograde(game, position).result(position))


def test_interrupted_solve_resumes_without_losing_finished_openings(tmp_path: Path) -> None:
    game = load_game("tictactoe")
    position = game.parse("x../.o./... X")
    db_path = tmp_path / "resume.sqlite"

    def interrupt_after_three(info: dict[str, object]) -> None:
        if info["solved"] == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_by_openings(
            game, position, database=SolutionDatabase(db_path), progress=interrupt_after_three
        )
    database = SolutionDatabase(db_path)
    assert database.count(game) == 3  # the three finished openings were checkpointed
    resumed = solve_by_openings(game, position, database=database)
    # the finished openings and their symmetric images need no new search
    children = [game.play(position, m) for m in game.moves(position)]
    finished = {game.canonical_key(c) for c in children[:3]}
    expected = sum(1 for c in children if game.canonical_key(c) in finished)
    assert expected > 3  # the board has a mirror symmetry, so some openings coincide
    assert resumed.extra["resumed"] == expected
    assert summary(resumed) == summary(retrograde(game, position).result(position))


def test_database_answers_every_solved_position_and_symmetric_images(tmp_path: Path) -> None:
    game = load_game("tictactoe")
    solution = retrograde(game)
    database = SolutionDatabase(tmp_path / "t.sqlite")
    assert database.store(game, solution, solver="retrograde") == 765
    # a position and its mirror image: X in a corner, O in the centre; perfect play draws
    for text in ("x../.o./... X", "..x/.o./... X"):
        assert database.lookup(game, game.parse(text)) == (Outcome.DRAW, None)
    # X in the corner, O on an edge: a classical first-player win
    found = database.lookup(game, game.parse("xo./.../... X"))
    assert found is not None and found[0] == Outcome.WIN
