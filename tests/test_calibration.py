"""The calibration of the self-play player on solved boards (solvers/calibration.py): the
exact values it reads from a stored solution are the retrograde's, the move-accuracy sample
by value keeps its quota and resumes without valuing a position twice, the tallies by value
and stage add up, and a level of self-play with most games drawn says "draw"."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cgt.games.entropy import Entropy
from cgt.protocol import Outcome
from solvers.calibration import (
    ExactAnswer,
    accuracy_by_value,
    random_position,
    sample_by_value,
    stage_of,
    stored_answer,
    stored_provenance,
    trend_says,
)
from solvers.database import SolutionDatabase
from solvers.retrograde import retrograde
from solvers.saved import solve_and_store

#: A small board with won, lost and drawn positions (4x3, two pieces each).
SMALL = Entropy(width=4, height=3, setup="SS../..../..OO O")


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> SolutionDatabase:
    database = SolutionDatabase(tmp_path_factory.mktemp("db") / "db.sqlite")
    solve_and_store(SMALL, SMALL.initial_position(), database)
    return database


def test_the_stored_answer_is_the_retrograde_value_and_its_keeping_moves(
    stored: SolutionDatabase,
) -> None:
    solution = retrograde(SMALL, SMALL.initial_position(), symmetry=False)
    chooser = random.Random(3)
    seen = {outcome: 0 for outcome in Outcome}
    informative = 0
    for _ in range(300):
        sample = random_position(SMALL, chooser, 20)
        if sample is None:
            continue
        position = sample[0]
        answer = stored_answer(SMALL, position, stored)
        expected = solution.result(position)
        assert answer.source == "stored"
        assert answer.outcome is expected.outcome
        assert set(answer.moves) == {m.name for m in expected.moves}
        assert set(answer.keeping) == {
            m.name for m in expected.moves if m.outcome is expected.outcome
        }
        seen[answer.outcome] += 1
        informative += answer.informative
    assert all(seen.values()), seen  # the sample met wins, losses and draws
    assert informative > 0


def test_a_position_won_by_hand_is_read_as_won_with_its_winning_move(
    stored: SolutionDatabase,
) -> None:
    # S c3 d3 (touching each other: S cannot meet the goal), O b2 c1, O to move. c1-d2 leaves
    # b2 touching c3 and d2 touching c3 and d3, the two O apart: O wins at once. No other
    # move does (b2's moves leave c1 without an S beside it; c1-c2 touches b2).
    position = SMALL.parse("..SS/.O../..O. O")
    winning_now = {
        SMALL.move_name(position, move)
        for move in SMALL.moves(position)
        if SMALL.result(SMALL.play(position, move)) is not None
        and SMALL.winner(SMALL.play(position, move)) == 0
    }
    assert winning_now == {"c1-d2"}
    answer = stored_answer(SMALL, position, stored)
    assert answer.outcome is Outcome.WIN
    assert "c1-d2" in answer.keeping and answer.informative


def test_trend_says_draw_when_most_games_are_drawn_and_judges_sides_on_decided_games() -> None:
    assert trend_says(3, 1, 20) == "draw"
    # 5 first wins, 4 second, 15 draws: the first player's win rate over all games (21%,
    # interval below 50%) would wrongly call the second player stronger
    assert trend_says(5, 4, 15) == "undecided"
    assert trend_says(20, 2, 2) == "first"
    assert trend_says(1, 20, 3) == "second"
    # with no draw it is the first player's win rate over all games
    assert trend_says(18, 6, 0) == "first"
    assert trend_says(16, 8, 0) == "undecided"
    assert trend_says(0, 0, 0) == "undecided"


def _record(value: str, ply: int, kept: list[bool], moves: int = 5, keeping: int = 2) -> dict:
    return {
        "value": value,
        "ply": ply,
        "moves": moves,
        "keeping": keeping,
        "chosen": {str(b): ["m", k] for b, k in zip((10, 20), kept, strict=True)},
    }


def test_accuracy_by_value_counts_only_informative_positions_by_stage() -> None:
    records = [
        _record("win", 0, [False, True]),
        _record("win", 5, [True, True]),
        _record("win", 8, [True, True]),
        _record("win", 8, [True, True], keeping=5),  # every move wins: not informative
        _record("draw", 1, [True, False]),
        {"value": "draw", "ply": 2, "moves": 3, "keeping": 1},  # valued, not judged
        {"value": "loss", "ply": 4, "moves": 3, "keeping": 3},
    ]
    out = accuracy_by_value(records, [10, 20], max_ply=9)
    win = out["win"]
    assert (win["positions"], win["informative"], win["judged"]) == (4, 3, 3)
    assert [row["kept"] for row in win["budgets"]] == [2, 3]
    assert win["budgets"][0]["by_stage"] == {"early": [0, 1], "middle": [1, 1], "late": [1, 1]}
    assert win["budget_reaching_95"] == 20
    draw = out["draw"]
    assert (draw["positions"], draw["informative"], draw["judged"]) == (2, 2, 1)
    assert [row["kept"] for row in draw["budgets"]] == [1, 0]
    assert draw["budgets"][0]["rate"] == 1.0 and draw["budget_reaching_95"] == 10
    assert out["loss"]["informative"] == 0 and out["loss"]["budget_reaching_95"] is None
    assert [stage_of(p, 9) for p in (0, 2, 3, 5, 6, 40)] == [
        "early", "early", "middle", "middle", "late", "late"
    ]  # fmt: skip


def test_the_sample_by_value_fills_its_quota_and_resumes_without_valuing_again(
    stored: SolutionDatabase, tmp_path: Path
) -> None:
    path = tmp_path / "positions.jsonl"
    valued: list[str] = []

    def exact(position: Any) -> ExactAnswer:
        valued.append(SMALL.render(position))
        return stored_answer(SMALL, position, stored)

    options: dict[str, Any] = {"max_depth": 16, "budgets": [8, 32], "quota": 3, "max_drawn": 400}
    records = sample_by_value(SMALL, exact, path, **options)
    judged = [r for r in records if "chosen" in r]
    assert sorted(r["value"] for r in judged) == ["draw"] * 3 + ["win"] * 3
    assert all(r["keeping"] < r["moves"] for r in judged)
    assert not any("chosen" in r for r in records if r["value"] == "loss")
    assert len(valued) == len(records)
    assert [json.loads(line) for line in path.read_text().splitlines()] == records
    # a run stopped after half the records takes them up and draws the same rest
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    valued.clear()
    again = sample_by_value(SMALL, exact, path, **options)
    assert again == records
    assert len(valued) == len(records) - len(lines) // 2


def test_the_provenance_names_the_stored_file_and_its_solve(stored: SolutionDatabase) -> None:
    found = stored_provenance(SMALL, stored)
    assert found is not None
    entry = stored.packed_solutions(SMALL.name, dict(SMALL.parameters))[0]
    assert found["file"] == entry.path.name and found["records"] == entry.records
    assert set(found["seconds_per_phase"]) == {"tables", "scan", "propagate"}
    assert stored_provenance(Entropy(width=3, height=3, setup="SS./.../.OO O"), stored) is None
