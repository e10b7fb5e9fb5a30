"""Reports: the design metrics against a deliberately simple second implementation, random
play against hand-worked games, and the written Markdown (every link resolves, every figure
exists) on tiny boards."""

from __future__ import annotations

import re
import shlex
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from cgt.protocol import Outcome
from cgt.registry import load_game
from cgt.report import Board, claim_finding, design_metrics, random_games, write_all
from cgt.report_sections import LARGER_BOARDS, PENDING, larger_boards_rows
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


def test_larger_boards_name_registered_games_and_commands_that_parse() -> None:
    for entry in LARGER_BOARDS:
        load_game(entry.game)  # a registered game
        if entry.command:
            words = shlex.split(entry.command)
            assert words[0] == "cgt" and words[1] in ("solve", "check")
            if words[1] == "solve":
                assert words[2] == entry.game
    rows = larger_boards_rows()
    assert len(rows) == len(LARGER_BOARDS)
    assert all(status != PENDING for _, _, status, _ in rows)  # no placeholder lands


def _links(markdown: str) -> list[str]:
    return [
        target
        for target in re.findall(r"\]\(([^)]+)\)", markdown)
        if not target.startswith(("http://", "https://", "#"))
    ]


def test_write_all_writes_reports_an_index_and_only_valid_links(tmp_path: Path) -> None:
    boards = [
        Board("tictactoe", {}, "tictactoe", "3x3"),
        Board("nim", {"heaps": "1,2"}, "nim_1-2"),
    ]
    paths = write_all(tmp_path, boards, random_samples=30)
    assert [p.name for p in paths] == ["tictactoe.md", "nim_1-2.md"]
    index = (tmp_path / "README.md").read_text()
    assert "`cgt report all`" in index
    assert "[tictactoe](tictactoe.md)" in index and "[nim_1-2](nim_1-2.md)" in index
    # tic-tac-toe is a draw; Nim 1,2 has nim-sum 3, so the first player wins (by hand)
    assert "| Tic-tac-toe | 3x3 | **a draw** |" in index
    assert "**the first player" in (tmp_path / "nim_1-2.md").read_text()
    for page in [tmp_path / "README.md", *paths]:
        text = page.read_text()
        for target in _links(text):
            assert (page.parent / target).exists(), f"{page.name}: broken link {target}"
    report = (tmp_path / "tictactoe.md").read_text()
    assert "## State space" in report and "## Design metrics" in report
    assert "Reproduce everything on this page: `cgt report tictactoe`" in report
    assert "![value of every opening](figures/tictactoe_openings.png)" in report
