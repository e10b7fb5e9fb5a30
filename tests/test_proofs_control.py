"""The Control claims: each verifies with the real rules and fails with a broken one."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cgt.boards.hexhex import HexBoard
from cgt.games.control import BLACK, WHITE, adjacency_potential, controlled_empty
from proofs.attempts import read_attempt
from proofs.control import find_cycle_by_playouts, make_game, replay_cycle
from proofs.registry import get_claim, run_claim

CLAIM_IDS = (
    "control.termination",
    "control.no-draws",
    "control.parity",
    "control.stuck-player-has-less-territory",
    "control.sight-cycle",
    "control.size4-second-player",
)


def ties_go_to_white(board: HexBoard, white: int, black: int, cell: int) -> int | None:
    """Broken control: a non-strict majority (White wins ties, given at least one piece)."""
    mask = board.neighbour_mask[cell]
    whites, blacks = (white & mask).bit_count(), (black & mask).bit_count()
    if whites >= blacks and whites > 0:
        return WHITE
    return BLACK if blacks > whites else None


def test_all_claims_registered() -> None:
    for claim_id in CLAIM_IDS:
        assert get_claim(claim_id).game == "control"


def test_termination_verified_with_symbolic_delta() -> None:
    verdict = run_claim("control.termination")
    assert verdict.verdict == "verified"
    # hand derivation: o own and p opponent neighbours, both move types give o - p
    assert verdict.evidence["symbolic"]["delta_placement"] == "o - p"
    assert verdict.evidence["symbolic"]["delta_removal"] == "o - p"
    assert verdict.scope["boards"]["size 2"]["positions"] > 0


def test_termination_refutes_wrong_sign_potential() -> None:
    def minus_v(board: HexBoard, white: int, black: int) -> int:
        return -adjacency_potential(board, white, black)

    verdict = run_claim("control.termination", potential=minus_v)
    assert verdict.verdict == "refuted"


def test_termination_refutes_non_strict_majority() -> None:
    verdict = run_claim("control.termination", rule=ties_go_to_white, sampled_sizes=())
    assert verdict.verdict == "refuted"
    assert verdict.scope["proof_for_every_size"] is False
    # a tied removal: V unchanged and a piece fewer
    failure = verdict.evidence["local_counterexample"]
    assert failure["move"] == "removal"
    assert failure["potential_before_after"][1][1] == failure["potential_before_after"][0][1] - 1


def test_termination_symbolic_step_refutes_a_wrong_pair_score() -> None:
    # V with the signs swapped (mixed pairs count +1): the derived change of a move is p - o,
    # negative on a controlled cell, so the argument fails before any board is looked at.
    verdict = run_claim(
        "control.termination", pair_score=lambda a, b: -a * b, exhaustive_sizes=(), sampled_sizes=()
    )
    assert verdict.verdict == "refuted"
    symbolic = verdict.evidence["symbolic"]
    assert symbolic["holds"] is False and symbolic["delta_placement"] == "-o + p"
    assert verdict.scope["proof_for_every_size"] is False


def test_termination_symbolic_step_refutes_a_score_not_of_the_balance() -> None:
    # +1 for any pair with a piece of the mover's colour beside any piece: the change of a
    # move is o + p, which the vote balance o - p does not determine
    verdict = run_claim(
        "control.termination",
        pair_score=lambda a, b: a * b * b,
        exhaustive_sizes=(),
        sampled_sizes=(),
    )
    assert verdict.verdict == "refuted"
    assert "not a function of o - p" in " ".join(verdict.evidence["symbolic"]["fails"])


def test_termination_refuted_under_sight_by_the_local_lemma() -> None:
    # Under sight a piece beyond an empty neighbour votes; the 7-cell patch could not show
    # it (every ray of its centre ends after one cell). No whole board is needed.
    verdict = run_claim("control.termination", rule="sight", exhaustive_sizes=(), sampled_sizes=())
    assert verdict.verdict == "refuted"
    assert verdict.scope["proof_for_every_size"] is False
    failure = verdict.evidence["local_counterexample"]
    assert failure["outside"] != "empty"  # the cells beyond the neighbours decided it


def edge_needs_margin_two(board: HexBoard, white: int, black: int, cell: int) -> int | None:
    """Broken control at the rim only: a cell with fewer than six neighbours needs a
    majority of two. Placements next to an opponent majority of one become legal there."""
    mask = board.neighbour_mask[cell]
    whites, blacks = (white & mask).bit_count(), (black & mask).bit_count()
    margin = 1 if len(board.neighbours[cell]) == 6 else 2
    if whites - blacks >= margin:
        return WHITE
    return BLACK if blacks - whites >= margin else None


def test_termination_local_lemma_reaches_edge_and_corner_cells() -> None:
    # the old lemma enumerated only the centre of a 7-cell patch and verified this rule
    verdict = run_claim(
        "control.termination", rule=edge_needs_margin_two, exhaustive_sizes=(), sampled_sizes=()
    )
    assert verdict.verdict == "refuted"
    assert verdict.evidence["local_counterexample"]["cell"] in ("a2", "a1")


def test_termination_verified_sets_proof_only_after_every_step() -> None:
    verdict = run_claim("control.termination", sampled_sizes=())
    assert verdict.verdict == "verified" and verdict.scope["proof_for_every_size"] is True
    assert "a1" in verdict.scope["local_cells"]  # a corner: three neighbours, three off board


def test_adjacency_potential_by_hand() -> None:
    board = make_game(2).board
    # W a1 a2 (adjacent, same: +1), B b2 touches both (mixed: -2) -> V = -1
    a1, a2, b2 = (board.cell_by_name(c) for c in ("a1", "a2", "b2"))
    assert adjacency_potential(board, 1 << a1 | 1 << a2, 1 << b2) == -1


def test_no_draws_verified_and_graph_acyclic() -> None:
    verdict = run_claim("control.no-draws")
    assert verdict.verdict == "verified"
    assert verdict.scope["proof_for_every_size"] is True
    assert "termination" in verdict.scope["derived_from"]
    assert all(board["acyclic"] for board in verdict.scope["boards"].values())


def test_no_draws_refuted_under_sight_with_a_replayed_cycle() -> None:
    # size 2 under sight has no cycle (its graph is acyclic), so the cycle comes from size 3
    verdict = run_claim("control.no-draws", rule="sight")
    assert verdict.verdict == "refuted"
    assert verdict.scope["proof_for_every_size"] is False
    cycle = verdict.evidence["cycle"]
    assert cycle["replayed"] and cycle["size"] == 3
    assert replay_cycle(make_game(3, "sight"), cycle) is None
    assert "sight" in verdict.finding


def test_parity_verified_and_refutes_wrong_statement() -> None:
    assert run_claim("control.parity").verdict == "verified"
    assert run_claim("control.parity", expected_change=2, sampled_sizes=()).verdict == "refuted"


def test_stuck_player_territory_verified() -> None:
    verdict = run_claim("control.stuck-player-has-less-territory")
    assert verdict.verdict == "verified"
    # the scope separates what a machine checked from the written argument for every size
    assert verdict.scope["proof_for_every_size"] is False
    assert "written argument" in verdict.scope["every_size"]
    assert "size 2" in verdict.scope["checked_by_machine"]
    ties: list[str] = verdict.evidence["empty_scoring_ties"]
    # full size-2 board, Black stuck (see test_control_rules): 0 - 0 controlled empty cells
    assert "BB/WWB/WW B" in ties


def test_stuck_player_refuted_under_empty_cell_scoring() -> None:
    def empty_cells_only(board: HexBoard, white: int, black: int, rule: object) -> tuple[int, int]:
        return controlled_empty(board, white, black)

    verdict = run_claim(
        "control.stuck-player-has-less-territory", territory_of=empty_cells_only, sampled_sizes=()
    )
    assert verdict.verdict == "refuted"
    assert verdict.evidence["counterexample"]["stuck"] == "Black"


def test_sight_cycle_verified_by_replay() -> None:
    verdict = run_claim("control.sight-cycle")
    assert verdict.verdict == "verified"
    assert verdict.evidence["replayed"]
    assert verdict.evidence["adjacent_same_search_found_cycle"] is False
    cycle = verdict.evidence["cycle"]["cycle"]
    assert len(cycle) % 2 == 0
    assert cycle[0]["position"] == verdict.evidence["cycle"]["returns_to"]


def test_hand_checked_sight_cycle_replays() -> None:
    # Checked by hand with the sight rule (first piece on each ray) on size 3:
    # c4 tie 2-2, b3 tie 2-2, c3 tie 2-2, xc4 W 3-1, xb3 B 2-1, xc3 W 2-1.
    certificate: dict[str, Any] = {
        "opening_line": ["b4", "c2", "e1", "a2", "c5"],
        "cycle": [
            {"position": ".B./...W/.B..W/..../W.. B", "move": "c4"},
            {"position": ".B./...W/.B.BW/..../W.. W", "move": "b3"},
            {"position": ".B./..WW/.B.BW/..../W.. B", "move": "c3"},
            {"position": ".B./..WW/.BBBW/..../W.. W", "move": "xc4"},
            {"position": ".B./..WW/.BB.W/..../W.. B", "move": "xb3"},
            {"position": ".B./...W/.BB.W/..../W.. W", "move": "xc3"},
        ],
    }
    assert replay_cycle(make_game(3, "sight"), certificate) is None
    # the same moves are not all legal under adjacency
    assert replay_cycle(make_game(3, "adjacent"), certificate) is not None
    corrupted = copy.deepcopy(certificate)
    corrupted["cycle"][3]["move"] = "xa2"  # White does not control a2
    verdict = run_claim("control.sight-cycle", cycle=corrupted, compare_adjacent=False)
    assert verdict.verdict != "verified"
    assert "illegal" in verdict.evidence["replay_failed"]


def test_cycle_search_finds_nothing_under_adjacency() -> None:
    assert find_cycle_by_playouts(make_game(3, "adjacent"), playouts=3, seed=1) is None
    verdict = run_claim("control.sight-cycle", rule="adjacent", playouts=3, compare_adjacent=False)
    assert verdict.verdict != "verified"


def test_size4_claim_inconclusive_and_can_fail() -> None:
    verdict = run_claim("control.size4-second-player", target_budget_seconds=0.5)
    assert verdict.verdict == "inconclusive"
    assert verdict.evidence["target_attempt"]["nodes"] > 0
    # the longer attempt is the stored record of benchmarks/attempts.py, not a sentence
    assert verdict.evidence["recorded_attempt"] == read_attempt("control-size4")
    assert "control-size4" in verdict.finding or "attempts.py" in verdict.finding
    size2 = verdict.evidence["exact_results"]["size 2"]
    assert size2["retrograde_agrees"]
    # size 3: Black wins against every opening, by negamax and by the compiled kernel
    size3 = verdict.evidence["exact_results"]["size 3"]
    assert size3["winner"] == "second (Black)" and size3["compiled_kernel_agrees"]
    assert set(size3["openings_for_white"].values()) == {"loss"}
    # the same statement made about size 2 is false: White wins there
    assert run_claim("control.size4-second-player", target_size=2).verdict == "refuted"


@pytest.mark.slow
def test_size3_second_player_wins_two_roads() -> None:
    from solvers import solve

    verdict = run_claim("control.size4-second-player", sizes=(2, 3), target_size=3)
    assert verdict.verdict == "verified"
    result = solve(make_game(3), solver="alphabeta", remoteness=False)  # second road
    assert result.winner == "second"
