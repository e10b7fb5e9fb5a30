"""The Entropy claims: default verdicts, independent cross-checks, and that each check fails on
a wrong detail or a broken rule."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

import pytest

from cgt.games.entropy import PLAYER_O, Entropy, EntropyMove, EntropyPosition
from cgt.protocol import Outcome
from proofs.entropy import FIGURE_3
from proofs.registry import get_claim, run_claim

CLAIM_IDS = [
    "entropy.fig2-must-resolve",
    "entropy.fig2-threat",
    "entropy.fig2-a4c4",
    "entropy.fig2-e4c4",
    "entropy.fig3-only-defence",
    "entropy.fig3-endgame",
    "entropy.solved",
]


class NoIsolationRule(Entropy):
    """A broken Entropy that forgets the isolation rule: every queen slide of a piece with a
    friend is legal."""

    def real_moves(self, position: EntropyPosition, player: int) -> list[EntropyMove]:
        mine, occupied = position[player], position[0] | position[1]
        slides = []
        for source in self.board.cells_of(mine):
            if self.board.king_mask[source] & mine:
                for ray in self.board.rays[source]:
                    for target in ray:
                        if occupied >> target & 1:
                            break
                        slides.append((source, target))
        return slides


def simple_retrograde(game: Entropy, root: EntropyPosition) -> dict[EntropyPosition, Outcome]:
    """Outcome of every position reachable from ``root`` for its player to move, by the
    textbook method with dictionaries: win if some child is bad for the opponent, loss when
    every child is good for them, draw for whatever cycles forever."""
    children: dict[EntropyPosition, list[EntropyPosition]] = {}
    parents: dict[EntropyPosition, set[EntropyPosition]] = {}
    value: dict[EntropyPosition, Outcome] = {}
    queue = deque([root])
    children[root] = []
    while queue:
        position = queue.popleft()
        outcome = game.result(position)
        if outcome is not None:
            value[position] = outcome
            continue
        kids = list({game.play(position, m) for m in game.moves(position)})
        children[position] = kids
        for kid in kids:
            parents.setdefault(kid, set()).add(position)
            if kid not in children:
                children[kid] = []
                queue.append(kid)

    def seen_by(parent: EntropyPosition, kid: EntropyPosition) -> Outcome:
        same = game.to_move(kid) == game.to_move(parent)
        return value[kid] if same else -value[kid]

    unresolved = {p: len(k) for p, k in children.items() if p not in value}
    work = deque(value)
    while work:
        kid = work.popleft()
        for parent in parents.get(kid, ()):
            if parent in value:
                continue
            if seen_by(parent, kid) == Outcome.WIN:
                value[parent] = Outcome.WIN
                work.append(parent)
                continue
            unresolved[parent] -= 1
            if unresolved[parent] == 0:
                value[parent] = max(seen_by(parent, k) for k in children[parent])
                work.append(parent)
    return {p: value.get(p, Outcome.DRAW) for p in children}


def test_every_claim_id_is_registered() -> None:
    for claim_id in CLAIM_IDS:
        assert get_claim(claim_id).game == "entropy"


# ------------------------------------------------------------------------------ figure 2
def test_fig2_must_resolve_verified_and_fails_on_a_wrong_detail_or_rule() -> None:
    verdict = run_claim("entropy.fig2-must-resolve")
    assert verdict.verdict == "verified"
    assert verdict.evidence["legal_move_count"] == 13  # derived in test_entropy_rules.py
    assert run_claim("entropy.fig2-must-resolve", legal_examples=("a3-b3",)).verdict == "refuted"
    assert run_claim("entropy.fig2-must-resolve", isolated="a4").verdict == "refuted"
    broken = run_claim("entropy.fig2-must-resolve", game=NoIsolationRule())
    assert broken.verdict == "refuted"
    assert "d3-d2" in broken.evidence["legal_moves_leaving_it_isolated"]


def test_fig2_threat_verified_and_fails_on_a_wrong_line() -> None:
    verdict = run_claim("entropy.fig2-threat")
    assert verdict.verdict == "verified"
    assert verdict.evidence["final_position"] == "S.O.S/O.S.O/O..OS/S.S../..OOS O"
    assert run_claim("entropy.fig2-threat", threat=("b3-c2",)).verdict == "refuted"
    assert run_claim("entropy.fig2-threat", threat=("b3-c2", "c3-d4")).verdict == "refuted"
    assert run_claim("entropy.fig2-threat", threat=("b3-c4",)).verdict == "refuted"  # illegal


def test_fig2_a4c4_verified_and_fails_on_wrong_pieces() -> None:
    verdict = run_claim("entropy.fig2-a4c4")
    assert verdict.verdict == "verified"
    assert sorted(verdict.evidence["legal_S_moves"]) == ["b3-a4", "b3-b4", "b3-b5", "c3-b4"]
    assert run_claim("entropy.fig2-a4c4", resolving_pieces=("b3",)).verdict == "refuted"
    assert run_claim("entropy.fig2-a4c4", isolated="e5").verdict == "refuted"
    assert run_claim("entropy.fig2-a4c4", o_move="a4-a5").verdict == "refuted"


def test_fig2_e4c4_document_move_is_not_a_queen_move_and_the_forced_move_is_c3d4() -> None:
    """The document's "C3 -> E4" is two files and one rank: no queen move. By hand (see
    test_entropy_rules.py) the unique legal move is c3-d4."""
    verdict = run_claim("entropy.fig2-e4c4")
    assert verdict.verdict == "refuted"
    assert verdict.evidence["legal_S_moves"] == ["c3-d4"]
    assert verdict.corrected_statement is not None and "c3-d4" in verdict.corrected_statement
    assert run_claim("entropy.fig2-e4c4", only_move="c3-d4").verdict == "verified"
    assert run_claim("entropy.fig2-e4c4", only_move="c3-b4").verdict == "refuted"
    assert (
        run_claim("entropy.fig2-e4c4", only_move="c3-d4", game=NoIsolationRule()).verdict
        == "refuted"
    )


# ------------------------------------------------------------------------------ figure 3
def test_fig3_only_defence_verified_and_fails_on_a_wrong_detail() -> None:
    verdict = run_claim("entropy.fig3-only-defence")
    assert verdict.verdict == "verified"
    assert verdict.evidence["preventing_O_moves"] == ["b2-b4", "b2-b5"]
    assert run_claim("entropy.fig3-only-defence", defender="a2").verdict == "refuted"
    assert run_claim("entropy.fig3-only-defence", threat="d2-d1").verdict == "refuted"


def test_fig3_endgame_verified_with_the_losing_moves_found_by_hand() -> None:
    """After b2-b4 d2-e1, c2 is the only S piece touching no O, and every S piece touches
    another O than the one moving, so an O move hands S the win at once exactly when it lands
    next to c2 (b1 c1 d1 b2 d2 b3 c3 d3): a4-b3; b4-b3 b4-b2 b4-b1 b4-c3 b4-d2; d4-d3 d4-d2
    d4-d1 d4-c3 d4-b2. b4-b5 is a b4 move that does not lose."""
    verdict = run_claim("entropy.fig3-endgame")
    assert verdict.verdict == "verified"
    evidence = verdict.evidence
    hand_losses = [
        "a4-b3",
        "b4-b3",
        "b4-b2",
        "b4-b1",
        "b4-c3",
        "b4-d2",
        "d4-d3",
        "d4-d2",
        "d4-d1",
        "d4-c3",
        "d4-b2",
    ]
    assert sorted(evidence["losing_first_moves"]) == sorted(hand_losses)
    assert sorted(evidence["losing_first_moves_that_lose_at_once"]) == sorted(hand_losses)
    assert evidence["first_moves_of_b4"]["b4-b5"] == "win"
    assert evidence["S_can_move_in_positions"] == 0
    assert evidence["outcome_for_O"] == "win"


def test_fig3_endgame_agrees_with_a_simple_retrograde() -> None:
    game = Entropy()
    endgame = game.parse(FIGURE_3)
    for move in ("b2-b4", "d2-e1"):
        endgame = game.play(endgame, game.parse_move(endgame, move))
    values = simple_retrograde(game, endgame)
    assert values[endgame] == Outcome.WIN
    winning = sorted(
        game.move_name(endgame, m)
        for m in game.moves(endgame)
        if values[game.play(endgame, m)] == Outcome.LOSS
    )  # S to move loses
    verdict = run_claim("entropy.fig3-endgame")
    assert winning == sorted(verdict.evidence["winning_first_moves"])
    assert len(values) == verdict.evidence["positions"]


def test_fig3_endgame_fails_on_a_wrong_piece_or_rule() -> None:
    assert run_claim("entropy.fig3-endgame", early_piece="c5").verdict == "refuted"
    disable = run_claim("entropy.fig3-endgame", game=Entropy(goal="disable"))
    assert disable.verdict == "refuted"  # S has already won under goal=disable
    assert disable.evidence["outcome_for_O"] == "loss"


# ------------------------------------------------------------------------------ solved
SMALL = ((3, 3, "SS./.../.OO O"), (3, 3, "SSS/.../OOO O"))


def test_solved_is_inconclusive_and_small_boards_agree_with_a_simple_retrograde() -> None:
    verdict = run_claim("entropy.solved", budget_seconds=0.5, small_boards=SMALL)
    assert verdict.verdict == "inconclusive"
    assert verdict.evidence["5x5"]["complete"] is False
    assert verdict.evidence["5x5"]["upper_bound_positions"] == 480700 * 31824 * 2
    for width, height, setup in SMALL:
        game = Entropy(width=width, height=height, setup=setup)
        values = simple_retrograde(game, game.initial_position())
        expected = {Outcome.WIN: "first", Outcome.LOSS: "second", Outcome.DRAW: "draw"}[
            values[game.initial_position()]
        ]
        board = verdict.evidence["small_boards"][f"{width}x{height} {setup}"]
        assert board["winner"] == expected
        start = game.initial_position()
        for move in game.moves(start):
            seen: Any = -values[game.play(start, move)]
            assert board["first_moves"][game.move_name(start, move)] == seen.label
        assert game.to_move(start) == PLAYER_O


def test_solved_fails_on_a_wrong_expectation() -> None:
    verdict = run_claim(
        "entropy.solved",
        budget_seconds=0.1,
        small_boards=SMALL[:1],
        expected={"3x3 SS./.../.OO O": "first"},
    )
    assert verdict.verdict == "refuted"


@pytest.mark.slow
def test_solved_default_scope() -> None:
    verdict = run_claim("entropy.solved")
    assert verdict.verdict == "inconclusive"
    assert all(b["winner"] == "draw" for b in verdict.evidence["small_boards"].values())


# ---------------------------------------------------------------- solved, full mode
FULL_SMALL = (4, 3, "SSSS/..../OOOO O")


def test_full_mode_solves_the_board_and_agrees_with_a_simple_retrograde(tmp_path: Path) -> None:
    verdict = run_claim("entropy.solved", full=True, full_board=FULL_SMALL, samples=300,
                        database=tmp_path / "solutions.sqlite")  # fmt: skip
    assert verdict.mode == "full"
    game = Entropy(width=4, height=3, setup=FULL_SMALL[2])
    start = game.initial_position()
    values = simple_retrograde(game, start)
    expected = {Outcome.WIN: "first", Outcome.LOSS: "second", Outcome.DRAW: "draw"}[values[start]]
    assert verdict.verdict == "verified"
    assert verdict.evidence["winner"] == expected
    for move in game.moves(start):
        seen: Any = -values[game.play(start, move)]
        assert verdict.evidence["openings"][game.move_name(start, move)] == seen.label
    road = verdict.evidence["readable_rules_sample"]
    assert road["inconsistent"] == [] and road["random_decided"] == 150
    proof = verdict.evidence["proof"]
    assert proof["complete"] and proof["inconsistent"] == 0
    assert (
        proof["indices_checked"]
        == proof["indices"]
        == verdict.evidence["stored_solution"]["records"]
    )


def test_full_mode_second_road_catches_a_wrong_value() -> None:
    from proofs.entropy import _consistent
    from solvers.kernels.entropy import WIN_BASE, EntropySpace

    game = Entropy(width=4, height=3, setup=FULL_SMALL[2])
    space = EntropySpace(game)
    space.solve()
    assert space.value is not None
    decided = [int(i) for i in (space.value >= WIN_BASE).nonzero()[0][:50]]
    positions = [space.position(i) for i in decided]
    assert all(_consistent(game, space.value_of, p) for p in positions)
    for index, position in zip(decided, positions):
        space.value[index] ^= 1  # a win in r becomes a loss in r, and back
        assert not _consistent(game, space.value_of, position)
        space.value[index] ^= 1


def test_full_mode_refutes_a_wrong_expectation(tmp_path: Path) -> None:
    label = "4x3 SSSS/..../OOOO O"
    verdict = run_claim(
        "entropy.solved",
        full=True,
        full_board=FULL_SMALL,
        samples=20,
        database=tmp_path / "solutions.sqlite",
        expected={label: "first"},
    )
    assert verdict.verdict == "refuted"
