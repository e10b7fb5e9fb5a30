"""Reports: the design metrics against a deliberately simple second implementation, random
play against hand-worked games, the setups-by-stones sweep against the claims' own solver,
the palette in grey-scale, the stored results, and the written Markdown (every link
resolves, every figure exists, a rerun writes the same bytes) on tiny boards."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from cgt.protocol import Outcome
from cgt.registry import load_game
from cgtapp.report import data
from cgtapp.report.analysis import design_metrics, random_games
from cgtapp.report.build import write_report
from cgtapp.report.figures import OUTCOME_COLOURS
from cgtapp.report.tables import claim_finding
from solvers.retrograde import retrograde


def _simple_metrics(game: Any) -> dict[str, Any]:
    """Branching and forgiveness over every reachable position, by plain memoised negamax
    (tic-tac-toe has no cycles, so recursion is sound)."""

    @cache
    def wins(position: Any) -> Outcome:
        result = game.result(position)
        if result is not None:
            return result
        children = [wins(game.play(position, m)) for m in game.moves(position)]
        if Outcome.LOSS in children:
            return Outcome.WIN
        return Outcome.DRAW if Outcome.DRAW in children else Outcome.LOSS

    seen: set[Any] = set()
    stack = [game.initial_position()]
    degrees, shares, single = [], [], 0
    while stack:
        position = stack.pop()
        key = game.key(position)
        if key in seen:
            continue
        seen.add(key)
        if game.result(position) is not None:
            continue
        children = [game.play(position, m) for m in game.moves(position)]
        stack.extend(children)
        degrees.append(len(children))
        if wins(position) == Outcome.WIN:
            keep = sum(1 for c in children if wins(c) == Outcome.LOSS)
            shares.append(keep / len(children))
            single += keep == 1
    return {
        "branching_mean": sum(degrees) / len(degrees),
        "branching_max": max(degrees),
        "won_positions": len(shares),
        "won_positions_with_single_winning_move": single,
        "forgiveness": sum(shares) / len(shares),
    }


def test_design_metrics_agree_with_a_simple_negamax_on_tictactoe() -> None:
    game = load_game("tictactoe")
    solution = retrograde(game, symmetry=False, keep_positions=True)
    metrics = design_metrics(solution)
    expected = _simple_metrics(game)
    assert metrics["branching_max"] == expected["branching_max"] == 9
    assert metrics["branching_mean"] == pytest.approx(expected["branching_mean"])
    assert metrics["won_positions"] == expected["won_positions"]
    assert (
        metrics["won_positions_with_single_winning_move"]
        == expected["won_positions_with_single_winning_move"]
    )
    assert metrics["forgiveness"] == pytest.approx(expected["forgiveness"])
    assert sum(metrics["winning_moves_histogram"].values()) == expected["won_positions"]
    assert 0 < metrics["decisiveness"] < 1
    assert metrics["decisiveness"] + metrics["drawishness"] == pytest.approx(1)


def test_random_games_on_hand_worked_nim() -> None:
    # one heap of 1: the first player takes it and wins after exactly one ply, every time
    game = load_game("nim", heaps="1")
    play = random_games(game, game.initial_position(), samples=20)
    assert play.lengths == [1] * 20
    assert play.winners == {"first": 20}
    # heaps 1 and 1: two plies, the second player always takes the last object
    game = load_game("nim", heaps="1,1")
    play = random_games(game, game.initial_position(), samples=20)
    assert play.lengths == [2] * 20 and play.winners == {"second": 20}


def test_random_games_are_reproducible() -> None:
    game = load_game("tictactoe")
    root = game.initial_position()
    assert (
        random_games(game, root, 30, seed=3).lengths == random_games(game, root, 30, seed=3).lengths
    )


def test_claim_finding_prefers_the_correction_then_the_argument_then_plain_fields() -> None:
    assert claim_finding({"corrected_statement": "it is c3-d4", "evidence": {"note": "x"}}) == (
        "it is c3-d4"
    )
    assert claim_finding({"evidence": {"argument": "by  parity", "n": 3}}) == "by parity"
    text = claim_finding({"evidence": {"positions": 12, "line": ["a1", "b2"], "deep": {"a": 1}}})
    assert text == "positions: 12; line: a1, b2"
    outcomes = {"outcomes": {"1x2": {"winner": "first"}, "3x3": {"winner": "inconclusive"}}}
    assert claim_finding({"evidence": outcomes}) == "outcomes: 1x2 first, 3x3 inconclusive"
    assert claim_finding({"evidence": {}}) == "see the certificate"


def test_claim_finding_prefers_the_checkers_own_finding() -> None:
    cert = {"finding": "refuted as printed: a typo", "corrected_statement": "it is c3-d4"}
    assert claim_finding(cert) == "refuted as printed: a typo"


def _grey(colour: str) -> float:
    """Relative luminance (WCAG) of a #rrggbb colour: what a grey-scale print keeps."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_win_draw_loss_colours_stay_apart_in_grey_scale() -> None:
    win, loss, draw = (_grey(OUTCOME_COLOURS[o]) for o in (Outcome.WIN, Outcome.LOSS, Outcome.DRAW))

    # contrast ratios of at least 1.5 between every pair (WCAG's formula)
    def ratio(a: float, b: float) -> float:
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)

    assert ratio(win, loss) >= 1.5 and ratio(loss, draw) >= 1.5 and ratio(win, draw) >= 1.5


def test_stored_results_keep_their_provenance_and_refuse_garbage(tmp_path: Path) -> None:
    stored = data.save(tmp_path, "x", {"n": 3}, "cgt report x --refresh")
    loaded = data.load(tmp_path, "x")
    assert loaded == stored and loaded.results == {"n": 3}
    assert loaded.command == "cgt report x --refresh" and loaded.date and loaded.commit
    assert data.load(tmp_path, "missing") is None
    (tmp_path / "data" / "bad.json").write_text("{}")
    with pytest.raises(data.ReportDataError):
        data.load(tmp_path, "bad")


def test_setups_by_stones_agree_with_the_claims_solver_on_size_2() -> None:
    from proofs.interleave import solve_setup
    from solvers.kernels.interleave import every_setup_by_stones

    result = every_setup_by_stones(2, "stones", "loser")
    rows = result["by_stones"]
    assert sum(r["setups"] for r in rows) == 3**7
    # the empty board: nobody can place, the tie goes to Red (by hand)
    (empty,) = [r for r in rows if r["red_stones"] == r["black_stones"] == 0]
    assert empty["red_wins"] == 1
    checked = 0
    for r in rows:
        for key, colour in (("first_red_won", "Red"), ("first_black_won", "Black")):
            if r[key] and r["black_stones"]:
                red, black = r[key]
                assert solve_setup(2, red, black, turns="loser")["winner"] == colour
                checked += 1
    assert checked > 10
    pie = result["pie_setups"]
    assert pie["setups"] == 3**7 - 2**7


def _links(markdown: str) -> list[str]:
    return [
        target
        for target in re.findall(r"\]\(([^)]+)\)", markdown)
        if not target.startswith(("http://", "https://", "#"))
    ]


def test_a_report_links_only_existing_files_and_a_rerun_writes_the_same_bytes(
    tmp_path: Path,
) -> None:
    path = write_report("tictactoe", tmp_path)
    assert path.name == "tictactoe.md"
    text = path.read_text()
    assert "**a draw**" in text  # tic-tac-toe is a draw (known)
    for target in _links(text):
        assert (path.parent / target.split("#")[0]).exists(), f"broken link {target}"
    stored = data.load(tmp_path, "tictactoe")
    assert stored is not None and stored.results["winner"] == "draw"
    before = {
        p: p.read_bytes()
        for p in tmp_path.rglob("*")
        if p.is_file() and p.suffix in (".md", ".png", ".json")
    }
    write_report("tictactoe", tmp_path)
    after = {
        p: p.read_bytes()
        for p in tmp_path.rglob("*")
        if p.is_file() and p.suffix in (".md", ".png", ".json")
    }
    assert after == before
    # Nim 1,2 has nim-sum 3, so the first player wins (by hand)
    nim = write_report("nim", tmp_path, {"heaps": "1,2"}).read_text()
    assert "**the first player wins**" in nim or "(the first player) wins" in nim


@pytest.mark.slow
def test_entropy_summary_of_a_stored_solution_replays_under_the_readable_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess
    import sys

    from cgtapp.report.games.entropy import compute_from_store

    params = {"width": 4, "height": 3, "setup": "SSSS/..../OOOO O"}
    monkeypatch.setenv("CGT_DB", str(tmp_path / "db.sqlite"))
    options = [arg for k, v in params.items() for arg in ("-p", f"{k}={v}")]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "cgt",
            "solve",
            "entropy",
            *options,
            "--solver",
            "compiled",
            "--save",
        ],
        check=True,
        capture_output=True,
    )
    summary = compute_from_store(params)
    assert summary["start"]["outcome"] == "draw"  # the 4x3 start is drawn (retrograde, above)
    assert sum(summary["by_outcome"].values()) == summary["positions"]
    longest = summary["longest_win"]
    game = load_game("entropy", **params)
    position = game.parse(longest["position"])
    winner = game.to_move(position)
    assert len(longest["line"]) == longest["remoteness"]
    for name in longest["line"]:
        assert game.result(position) is None
        position = game.play(position, game.parse_move(position, name))
    result = game.result(position)
    assert result is not None and result != Outcome.DRAW
    mover_wins = result == Outcome.WIN
    assert (game.to_move(position) == winner) == mover_wins


def test_frontier_records_quote_their_notes_and_refuse_broken_ones(tmp_path: Path) -> None:
    committed = Path(__file__).resolve().parent.parent / "reports" / "data" / "frontier"
    folder = tmp_path / "data" / "frontier"
    folder.mkdir(parents=True)
    for name in ("control-4.json", "control-4-resume.json", "control-4-regions.json"):
        (folder / name).write_text((committed / name).read_text())
    (record,) = data.frontier_attempts(tmp_path)  # the notes are not boards of their own
    regions = json.loads((folder / "control-4-regions.json").read_text())
    resume = json.loads((folder / "control-4-resume.json").read_text())
    assert f"first split comes at ply {regions['first_split_ply']}" in record["how_far"]
    assert f"{regions['frontier_positions']:,} positions" in record["how_far"]
    assert f"proven jobs {resume['runs'][0]['proven_before']} -> " in record["how_far"]
    (folder / "control-4-regions.json").write_text('{"date": "today"}')
    with pytest.raises(data.ReportDataError, match="not a frontier record"):
        data.frontier_attempts(tmp_path)
