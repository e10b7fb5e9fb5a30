"""A board solved for its report opens solved in the explorer: LAG size 3, whose search took
the kernel 38 minutes, is served from ``reports/data/lag-size-3.json``. The values are checked
against the second road, the tier retrograde of ``benchmarks/LAG_TIERS.md`` (winner,
remoteness and winning openings of each goal); a stored result the rules refuse is not
served."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from cgt.registry import load_game
from cgtapp.explorer.app import Explorer
from cgtapp.explorer.values import ValueSource
from tests.explorer_support import ROOT
from tests.test_explorer_api import client_for

REPORTS = ROOT / "reports"


@pytest.mark.parametrize(
    ("goal", "outcome", "remoteness", "winning"),
    [  # benchmarks/LAG_TIERS.md, size 3 from the standard setup (every tier up to 7 + 7)
        ("standard", "win", 26, ["d1-c2", "d4-c4"]),
        ("strict", "win", 24, ["d1-c1", "d4-c5"]),
        ("far-row-one-object", "win", 19, ["d2-c3", "d3-c3"]),
        ("far-row", "loss", 10, []),
    ],
)
def test_lag_size_3_opens_solved_from_the_report(
    tmp_path: Path, goal: str, outcome: str, remoteness: int, winning: list[str]
) -> None:
    client = client_for("lag", {"size": 3, "goal": goal}, tmp_path / "none.sqlite", REPORTS, 0.2)
    start = client.get("/api/position").json()
    assert start["value"]["outcome"] == outcome and start["value"]["remoteness"] == remoteness
    assert start["source"] == "stored" and "data/lag-size-3.json" in start["solver"]
    assert sorted(m["move"] for m in start["moves"] if m["outcome"] == "win") == winning
    if outcome == "win":
        assert sorted(start["best_moves"]) == winning


def test_the_perfect_line_of_the_report_is_served_and_played(tmp_path: Path) -> None:
    client = client_for("lag", {"size": 3}, tmp_path / "none.sqlite", REPORTS, 0.2)
    # the computer plays White, then Black, perfectly from the stored values: White keeps
    # its win, each ply one nearer the end (a win in 26 is answered by a loss in 25, ...)
    position = client.get("/api/position").json()["position"]
    for remoteness in (26, 25):
        data = client.post("/api/computer", json={"position": position}).json()
        assert data["choice"] == "stored"
        assert data["estimate"]["remoteness"] == remoteness
        assert data["value"]["winner"] == "White"
        assert data["value"]["remoteness"] == remoteness - 1
        position = data["position"]


def test_unknown_boards_are_not_taken_from_the_report(tmp_path: Path) -> None:
    # size 4 is not solved: the report holds its attempts, no values
    client = client_for("lag", {"size": 4}, tmp_path / "none.sqlite", REPORTS, 0.2)
    answer = client.get("/api/position").json()
    assert answer["value"] is None and answer["source"] is None
    assert "a larger --budget may solve it" in answer["message"]


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (("d1-c2", "d1-c9"), "not the legal moves"),
        (("BBB/BBBB/...../WWWW/WWW W", "BBB/BBBB/...../WWWW/WWW X"), "not used"),
    ],
)
def test_a_stored_position_the_rules_refuse_is_not_served(
    tmp_path: Path, damage: tuple[str, str], words: str
) -> None:
    data = tmp_path / "reports" / "data"
    data.mkdir(parents=True)
    record = json.loads((REPORTS / "data" / "lag-size-3.json").read_text())
    start = record["results"]["standard"]
    old, new = damage
    if old == start["position"]:
        start["position"] = new
    else:
        next(m for m in start["moves"] if m["move"] == old)["move"] = new
    (data / "lag-size-3.json").write_text(json.dumps(record))
    game = load_game("lag", size=3)
    explorer = Explorer(game, ValueSource(game, tmp_path / "none.sqlite", 0.2), data.parent)
    assert len(explorer.warnings) == 1
    assert "data/lag-size-3.json" in explorer.warnings[0] and words in explorer.warnings[0]
    # the start is not served from the damaged record; the rest of its line still is
    assert explorer.values.cached(game.initial_position()) is None
    assert len(explorer.values.known) == 3


def test_no_reports_directory_means_no_report_values(tmp_path: Path) -> None:
    shutil.rmtree(tmp_path, ignore_errors=True)
    game = load_game("lag", size=3)
    explorer = Explorer(game, ValueSource(game, tmp_path / "none.sqlite", 0.2), tmp_path)
    assert explorer.values.known == {} and explorer.warnings == []
