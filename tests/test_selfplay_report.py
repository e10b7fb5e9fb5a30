"""The self-play sections: estimates say "estimated" with their interval, a solved board where
self-play points the wrong way is said plainly, and regenerating gives the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

from cgtapp.report.document import ReportContext
from cgtapp.report.selfplay import benchmark_page, selfplay_section

HEAD = {
    "command": "python benchmarks/selfplay.py x",
    "date": "2026-01-01 00:00 UTC",
    "commit": "abc",
}


def _level(playouts: int, first: int, games: int) -> dict:
    from solvers.selfplay import GameRecord, summarise

    records = [
        GameRecord(playouts, seed, ("a1", "b1"), 0 if seed < first else 1, 0)
        for seed in range(games)
    ]
    return summarise(playouts, records).as_dict()


def _write(folder: Path) -> None:
    folder.mkdir(parents=True)
    designers = {
        **HEAD,
        "board": "toy-5",
        "game": "toy",
        "params": {"size": 5},
        "first_player": "White",
        "players": ["White", "Black"],
        "levels": [_level(100, 12, 20), _level(200, 17, 20)],
    }
    calibration = {
        **HEAD,
        "board": "toy-3",
        "game": "toy",
        "params": {"size": 3},
        "exact": {"outcome": "loss", "winner": "Black", "side": "second"},
        "accuracy": {
            "budgets": [
                {"playouts": 100, "critical": {"positions": 10, "kept": 7, "rate": 0.7}},
            ],
            "critical_positions": 10,
            "budget_reaching_95": None,
            "basis_of_95": "critical",
        },
        "trend": [
            {"playouts": 100, "first_win_rate": 0.9, "interval": [0.7, 0.97], "says": "first"}
        ],
        "right_winner_from": None,
        "wrong_way_at": [100],
    }
    (folder / "selfplay-toy-5.json").write_text(json.dumps(designers))
    (folder / "calibration-toy-3.json").write_text(json.dumps(calibration))


def test_the_section_says_estimated_and_the_wrong_way_plainly(tmp_path: Path):
    _write(tmp_path / "data" / "selfplay")
    lines = selfplay_section("toy", ReportContext(out_dir=tmp_path))
    text = "\n".join(lines)
    assert "Self-play points the wrong way on toy-3" in text
    assert text.index("wrong way") < text.index("### toy-5")  # said before any estimate
    # 17 of 20: 85.0%, Wilson 95% interval 64.0% to 94.8%
    assert "Estimated: the first player (White) wins more often" in text
    assert "64.0% to 94.8%" in text
    assert "verified" not in text.replace("never verified", "")
    assert selfplay_section("other", ReportContext(out_dir=tmp_path)) == []


def test_regenerating_gives_the_same_bytes(tmp_path: Path):
    _write(tmp_path / "data" / "selfplay")
    ctx = ReportContext(out_dir=tmp_path)
    first = selfplay_section("toy", ctx)
    figure = (tmp_path / "figures" / "toy_selfplay_trend.png").read_bytes()
    assert selfplay_section("toy", ctx) == first
    assert (tmp_path / "figures" / "toy_selfplay_trend.png").read_bytes() == figure
    page = benchmark_page(tmp_path / "data" / "selfplay")
    assert page == benchmark_page(tmp_path / "data" / "selfplay")
    assert "## Calibration on the solved boards" in page


def _drawn_calibration(says: str) -> dict:
    from solvers.calibration import accuracy_by_value

    records = [
        {"value": "win", "ply": 1, "moves": 4, "keeping": 1, "chosen": {"100": ["m", True]}},
        {"value": "win", "ply": 9, "moves": 4, "keeping": 1, "chosen": {"100": ["m", False]}},
        {"value": "win", "ply": 5, "moves": 4, "keeping": 2, "chosen": {"100": ["m", True]}},
        {"value": "draw", "ply": 5, "moves": 6, "keeping": 5, "chosen": {"100": ["m", True]}},
        {"value": "draw", "ply": 2, "moves": 6, "keeping": 6},
        {"value": "loss", "ply": 8, "moves": 2, "keeping": 2},
    ]
    return {
        **HEAD,
        "board": "toy-4",
        "game": "toy",
        "params": {"size": 4},
        "exact": {"outcome": "draw", "winner": "draw", "side": "draw"},
        "accuracy": {
            "budgets": [{"playouts": 100, "critical": {"positions": 2, "kept": 1, "rate": 0.5}}],
            "critical_positions": 2,
            "budget_reaching_95": None,
            "basis_of_95": "all",
            "max_ply": 9,
            "exact_source": "stored solution",
            "by_value": accuracy_by_value(records, [100], 9),
        },
        "trend": [
            {
                "playouts": 100,
                "first_win_rate": 0.25,
                "interval": [0.12, 0.45],
                "says": says,
                "draw_rate": 0.625,
                "draw_interval": [0.43, 0.79],
                "first_wins": 1,
                "second_wins": 2,
            }
        ],
        "stored_solution": {
            "file": "toy-1.cgtpack",
            "records": 1234,
            "created": "2026-01-01",
            "command": "cgt solve toy --save",
            "git_commit": "abc",
        },
        "right_winner_from": 100 if says == "draw" else None,
        "wrong_way_at": [] if says in ("draw", "undecided") else [100],
    }


def test_a_drawn_solved_board_shows_its_draws_and_its_accuracy_by_value(tmp_path: Path):
    folder = tmp_path / "data" / "selfplay"
    folder.mkdir(parents=True)
    (folder / "calibration-toy-4.json").write_text(json.dumps(_drawn_calibration("undecided")))
    text = "\n".join(selfplay_section("toy", ReportContext(out_dir=tmp_path)))
    assert "| toy-4 | draw (neither player) | 100: 25.0%, draws 62.5% (undecided) |" in text
    assert "the draws' 95% interval lies above 50%" in text
    assert "### toy-4: move accuracy by value and stage (stored solution)" in text
    # won: 3 sampled, all informative, 2 kept (early, middle) of 3; drawn: 1 judged, 1 not
    row = "| won (a winning move kept) | 3 | 3 (3) | 2 of 3 (66.7%; early 1/1, middle 1/1, late 0/1) |"
    assert row in text
    # the stages in their order even after the JSON's keys were sorted
    sorted_keys = json.loads(json.dumps(_drawn_calibration("draw"), sort_keys=True))
    (folder / "calibration-toy-4.json").write_text(json.dumps(sorted_keys))
    text = "\n".join(selfplay_section("toy", ReportContext(out_dir=tmp_path)))
    assert row in text
    assert "| drawn (a drawing move kept) | 2 | 1 (1) | 1 of 1 (100.0%; middle 1/1) | 100 |" in text
    assert "| lost (every move loses) | 1 | 0 (0) | - | - |" in text
    assert "`toy-1.cgtpack`, 1,234 records, made 2026-01-01 by `cgt solve toy --save`" in text
    assert "Self-play points the wrong way" not in text
    page = benchmark_page(folder)
    assert "### toy-4: move accuracy by value and stage" in page


def test_self_play_favouring_a_side_on_a_drawn_board_is_the_wrong_way(tmp_path: Path):
    folder = tmp_path / "data" / "selfplay"
    folder.mkdir(parents=True)
    (folder / "calibration-toy-4.json").write_text(json.dumps(_drawn_calibration("second")))
    text = "\n".join(selfplay_section("toy", ReportContext(out_dir=tmp_path)))
    assert (
        "**Self-play points the wrong way on toy-4**: the exact result is a draw, but self-play "
        "favoured one side at 100 playouts a move." in text
    )


def test_the_drawn_board_answer_says_whether_the_draw_rate_rises_toward_the_draw() -> None:
    from cgtapp.report.selfplay import drawn_board_answer

    data = _drawn_calibration("draw")
    weak = {"playouts": 50, "first_win_rate": 0.5, "interval": [0.3, 0.7], "says": "undecided",
            "draw_rate": 0.25, "draw_interval": [0.12, 0.45], "games": 24}  # fmt: skip
    data["trend"] = [weak, {**data["trend"][0], "says": "draw", "games": 24}]
    en, ja = drawn_board_answer(data)
    assert "self-play drew 25.0% at 50, 62.5% at 100 playouts a move (24 games a budget)" in en
    assert "rises with every doubling, toward the exact draw; the weakest and strongest" in en
    assert "the decided games split 1 first-player wins to 2 second-player wins" in en
    middle = {**weak, "playouts": 75, "draw_rate": 0.2, "draw_interval": [0.09, 0.4]}
    data["trend"] = [weak, middle, data["trend"][1]]
    en, _ = drawn_board_answer(data)
    assert "is higher at the strongest budget than at the weakest, but not at every step" in en
    data["trend"] = [weak, data["trend"][2]]
    assert "kept the win in 2 of 3 won positions" in en  # plies 1 and 5 kept, ply 9 not
    assert "Estimated" in en and "［推定］" in ja and "verified" not in en
    data["trend"] = [{**weak, "draw_rate": 0.9, "draw_interval": [0.7, 0.97]}, data["trend"][1]]
    en, _ = drawn_board_answer(data)
    assert "falls, away from the exact draw" in en
    data["trend"] = [{**row, "capped": n, "ply_cap": 200} for n, row in enumerate(data["trend"])]
    en, ja = drawn_board_answer(data)
    assert "the draws include games stopped at the 200-ply cap (0 at 50, 1 at 100)" in en
    assert "200手の上限で打ち切った対局を含みます：50で0局、100で1局" in ja
