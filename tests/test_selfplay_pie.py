"""Interleave's pie setups under self-play: the setups are drawn as the exact counts assume,
the picks' counts add up, a wrong pick counts against the calibration, and the record store
resumes without redoing or losing a setup."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cgt.errors import CGTError, ParameterError
from cgt.games.interleave import Interleave
from proofs.interleave import WinnerSolver, random_setup
from solvers.selfplay import RecordStore, majority, pick_summary, winners_of


def test_a_setup_has_the_stones_asked_for_and_a_black_one():
    rng = random.Random(1)
    for stones in (1, 5, 19):
        red, black = random_setup(3, stones, rng)
        assert red & black == 0
        assert (red | black).bit_count() == stones
        assert black
    with pytest.raises(ParameterError):
        random_setup(3, 20, rng)


def test_two_stone_setups_are_both_black_a_third_of_the_time():
    # the colourings of two stones with a black one: RB, BR, BB, equally likely
    rng = random.Random(2)
    draws = [random_setup(2, 2, rng) for _ in range(3000)]
    both_black = sum(1 for red, _ in draws if red == 0) / len(draws)
    assert abs(both_black - 1 / 3) < 0.03


def test_the_majority_is_the_most_frequent_winner_and_a_tie_is_none():
    assert majority([0, 1, 0]) == 0
    assert majority([1, 1, None]) == 1
    assert majority([0, 1]) is None
    assert majority([None, None, 0]) is None
    assert majority([]) is None


def test_pick_counts_add_up_and_a_wrong_pick_lowers_the_agreement():
    records = [
        {"pick": 0, "exact": 0},
        {"pick": 0, "exact": 1},  # self-play took Red where Black wins
        {"pick": 1, "exact": 1},
        {"pick": None, "exact": 0},
    ]
    summary = pick_summary(records)
    assert summary["setups"] == 4
    assert summary["player_picks"] + summary["other_picks"] + summary["undecided"] == 4
    assert (summary["player_picks"], summary["other_picks"], summary["undecided"]) == (2, 1, 1)
    assert summary["share"] == 0.5
    assert summary["exact_player_wins"] == 2
    assert summary["agree"] == 2 and summary["agreement"] == 0.5
    right = pick_summary([{"pick": r["exact"], "exact": r["exact"]} for r in records])
    assert right["agreement"] == 1.0
    assert "agree" not in pick_summary([{"pick": 0, "exact": None}])


def test_self_play_finds_the_winner_of_a_decided_size_2_setup():
    # two black stones on the middle row: Black wins (the exact solver says so), though Red,
    # who takes ties, wins most sparse setups
    game = Interleave(size=2, win="stones", turns="loser")
    position = game.parse("../B.B/.. R")
    exact = WinnerSolver(game).winner(position)
    assert exact == 1
    assert majority(winners_of(game, position, 50, [1, 2, 3])) == exact


def test_the_store_resumes_drops_a_cut_line_and_refuses_another_header(tmp_path: Path):
    path = tmp_path / "picks.jsonl"
    store = RecordStore(path, {"game": "interleave", "size": 3})
    store.add({"key": "1:0:400", "pick": 0})
    store.add({"key": "1:1:400", "pick": 1})
    with path.open("a") as stream:
        stream.write('{"key": "1:2:4')  # interrupted mid-line
    again = RecordStore(path, {"game": "interleave", "size": 3})
    assert sorted(again.records) == ["1:0:400", "1:1:400"]
    assert again.records["1:1:400"]["pick"] == 1
    with pytest.raises(CGTError, match="not a record store"):
        RecordStore(path, {"game": "interleave", "size": 4})
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"header": {"game": "interleave", "size": 3}}


def _pie_data(size: int, exact: bool) -> dict:
    # 20 setups of 2 stones: 14 picked Red; where exact, Red wins 15 and one pick is wrong
    records = [
        {"stones": 2, "pick": 0 if i < 14 else 1, "exact": (0 if i < 15 else 1) if exact else None}
        for i in range(20)
    ]
    level = {
        "playouts": 400,
        "all": pick_summary(records),
        "by_stones": [{"stones": 2, **pick_summary(records), "exact_share_every_setup": 0.9}],
    }
    return {
        "command": "python benchmarks/selfplay.py pie",
        "date": "2026-01-01 00:00 UTC",
        "commit": "abc",
        "board": f"interleave-{size}",
        "game": "interleave",
        "size": size,
        "turns": "loser",
        "players": ["Red", "Black"],
        "setups_per_stone_count": 20,
        "games_per_setup": 3,
        "budgets": [400],
        "exact": exact,
        "wins": {"stones": [level]},
    }


def test_the_pie_section_says_estimated_with_intervals_and_the_calibration(tmp_path: Path):
    from cgtapp.report.document import ReportContext
    from cgtapp.report.selfplay import benchmark_page, pie_section

    folder = tmp_path / "data" / "selfplay"
    folder.mkdir(parents=True)
    for size, exact in ((3, True), (4, False)):
        (folder / f"pie-interleave-{size}.json").write_text(json.dumps(_pie_data(size, exact)))
    ctx = ReportContext(out_dir=tmp_path)
    text = "\n".join(pie_section("interleave", ctx))
    # 14 of 20: 70.0%, Wilson 95% interval 48.1% to 85.5%, which holds 50%
    assert "70.0% (48.1% to 85.5%)" in text
    assert "either (the interval holds 50%)" in text
    assert "### interleave-4, win=stones, turns=loser (estimated)" in text
    assert "90.0% (sampled: 15 of 20)" in text
    assert "pick was the exact winner of the setup in 19 of 20" in text
    assert text.index("interleave-3") < text.index("interleave-4")  # calibration first
    assert "verified" not in text
    assert pie_section("control", ctx) == []
    assert "## Estimated by self-play: the pie setups" in benchmark_page(folder)


def test_the_pie_implication_is_estimated_and_quotes_the_calibration(tmp_path: Path):
    from cgtapp.report.document import ReportContext
    from cgtapp.report.selfplay import pie_implications

    folder = tmp_path / "data" / "selfplay"
    folder.mkdir(parents=True)
    for size, exact in ((3, True), (4, False)):
        (folder / f"pie-interleave-{size}.json").write_text(json.dumps(_pie_data(size, exact)))
    (implication,) = pie_implications("interleave", ReportContext(out_dir=tmp_path))
    assert implication.basis == "estimated"
    assert "takes Red on 70.0% of random pie setups (95% interval 48.1% to 85.5%" in implication.en
    assert "exact winner in 19 of 20" in implication.en
    for number in ("70.0%", "48.1%", "85.5%", "19", "20"):
        assert number in implication.ja
