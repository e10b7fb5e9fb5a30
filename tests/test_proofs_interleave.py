"""Interleave's claims: each check verifies the real rule and refutes a deliberately broken one;
the perfect-play helper agrees with the project's retrograde solver and with a simple
negamax written here over the coordinate-walking rule of test_interleave_properties."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import pytest

from cgt.boards.hexhex import HexBoard, hex_board
from cgt.games.interleave import BLACK, RED, Interleave, seers
from proofs.interleave import (
    STATED_SETUPS_SIZE3,
    TURN_MODELS,
    WIN_CONDITIONS,
    WinnerSolver,
    board_string,
    check_line_lemma,
    pie_setups,
    solve_setup,
)
from proofs.registry import run_claim
from tests.test_interleave_properties import SIX_STEPS, simple_placeable


def _rule_with(compare: str):  # type: ignore[no-untyped-def]
    """A placeable rule whose comparison of (opponent, own) seers is ``compare``."""

    def rule(board: HexBoard, red: int, black: int, colour: int) -> int:
        mask = 0
        for cell in range(board.size):
            if (red | black) >> cell & 1:
                continue
            red_n, black_n = seers(board, red, black, cell)
            own, opponent = (red_n, black_n) if colour == RED else (black_n, red_n)
            if {"non-strict": opponent >= own, "inverted": own > opponent}[compare]:
                mask |= 1 << cell
        return mask

    return rule


NON_STRICT = _rule_with("non-strict")
INVERTED = _rule_with("inverted")


class NonStrictInterleave(Interleave):
    """Interleave with the broken rule 'at least as many opponent seers as own'."""

    def placeable_cells(self, red: int, black: int, colour: int) -> int:
        return NON_STRICT(self.board, red, black, colour)


def second_stone(contents: Sequence[int]) -> int | None:
    """Broken sight: the second stone along the ray sees instead of the first."""
    stones = [c for c in contents if c]
    return None if len(stones) < 2 else (RED if stones[1] == 1 else BLACK)


# ------------------------------------------------------------------ structural claims
def test_exclusive_verified_and_refuted_by_a_non_strict_rule() -> None:
    assert run_claim("interleave.exclusive", samples=300).verdict == "verified"
    broken = run_claim("interleave.exclusive", placeable_rule=NON_STRICT, samples=0)
    assert broken.verdict == "refuted"
    # the counterexample cell is seen by as many red as black stones
    red_n, black_n = broken.evidence["seers_red_black"]
    assert red_n == black_n


def test_no_race_verified() -> None:
    verdict = run_claim("interleave.no-race", samples=200)
    assert verdict.verdict == "verified", verdict.evidence


@pytest.mark.parametrize(
    ("rule", "symptom"), [(NON_STRICT, "opponent_lost"), (INVERTED, "mover_gained")]
)
def test_no_race_refuted_by_broken_comparisons(rule, symptom: str) -> None:  # type: ignore[no-untyped-def]
    verdict = run_claim("interleave.no-race", placeable_rule=rule, samples=0, max_line_length=3)
    assert verdict.verdict == "refuted"
    assert symptom in verdict.evidence
    # the counterexample is a real position: replay it with the broken rule
    game = Interleave(size=2)
    board = game.board
    position = game.parse(verdict.evidence["board"] + " R")
    mover = RED if verdict.evidence["mover"] == "Red" else BLACK
    cell = board.cell_by_name(verdict.evidence["placed"])
    red, black = position.red, position.black
    assert rule(board, red, black, mover) >> cell & 1
    after = (red | 1 << cell, black) if mover == RED else (red, black | 1 << cell)
    target = board.cell_by_name(verdict.evidence[symptom][0])
    if symptom == "mover_gained":
        assert not rule(board, red, black, mover) >> target & 1
        assert rule(board, *after, mover) >> target & 1
    else:
        assert rule(board, red, black, 1 - mover) >> target & 1
        assert not rule(board, *after, 1 - mover) >> target & 1


def test_per_line_lemma_refuted_by_second_stone_sight() -> None:
    assert check_line_lemma(5) is None
    counterexample = check_line_lemma(5, ray_seer=second_stone)
    assert counterexample is not None
    assert counterexample["balance_after"] > counterexample["balance_before"]
    verdict = run_claim("interleave.no-race", ray_seer=second_stone, max_line_length=4)
    assert verdict.verdict == "refuted" and "per_line_lemma_fails" in verdict.evidence


# ------------------------------------------------------------------ perfect-play claims
def test_timing_independence_verified_on_size_2() -> None:
    verdict = run_claim("interleave.timing-independence", size3_setups=())
    assert verdict.verdict == "verified"


def test_timing_independence_refuted_when_placing_can_race() -> None:
    verdict = run_claim(
        "interleave.timing-independence", game_class=NonStrictInterleave, size3_setups=()
    )
    assert verdict.verdict == "refuted"
    assert len(set(verdict.evidence["winners"].values())) == 2


def test_emergent_turn_counts_only_positions_where_it_can_fail() -> None:
    verdict = run_claim("interleave.emergent-turn")
    assert verdict.verdict == "verified"
    for counts in verdict.evidence["counts"].values():
        # one position per board at most (the leader to move, no pass pending): the boards
        # with a black stone number 3^7 - 2^7 = 2,059. Counting the positions after a pass,
        # where the leader's pass ends the game, would exceed that.
        assert 0 < counts["leader_to_move_and_winning"] <= 3**7 - 2**7
        assert counts["exceptions_pass_loses"] == 0


def test_emergent_turn_measures_exceptions_when_placing_can_race() -> None:
    broken = run_claim("interleave.emergent-turn", game_class=NonStrictInterleave)
    assert broken.verdict == "measured" and broken.evidence["examples"]
    assert broken.measurement is not None and broken.measurement["share"] > 0
    assert "no rate" in broken.measurement["held_against"]


def test_red_advantage_measured_and_the_opposite_statement_refuted() -> None:
    verdict = run_claim("interleave.red-advantage", size3_setups=())
    # the direction (Red favoured) is stated and holds; "very" has no number: measured
    assert verdict.verdict == "measured"
    assert (
        verdict.measurement is not None and "very favoured" in verdict.measurement["held_against"]
    )
    for won in verdict.evidence["setups_won"].values():
        assert won["Red"] + won["Black"] == 250 and won["Red"] > won["Black"]
    # colour-symmetric setups are decided by the tie-break alone: Red must win each
    for pairs in verdict.evidence["colour_swap_pairs"].values():
        assert pairs["colour_symmetric_won_by_Red"] == pairs["colour_symmetric_setups"] > 0
    assert (
        run_claim("interleave.red-advantage", favoured=BLACK, size3_setups=()).verdict == "refuted"
    )


# ---------------------------------------------------------------------------- setups
def test_pie_setups_of_size_2_match_burnside() -> None:
    # 12 symmetries of the 7-cell board by cycle count: identity 7; rotations by 60 and 300
    # degrees 2; by 120 and 240: 3; by 180: 4; three mirrors through corners 5; three
    # through edge midpoints 4. Setups = orbits of 3-colourings minus orbits of boards
    # without black (2-colourings).
    cycles = [7, 2, 2, 3, 3, 4, 5, 5, 5, 4, 4, 4]
    orbits = sum(3**c for c in cycles) // 12 - sum(2**c for c in cycles) // 12
    assert orbits == 250
    assert len(pie_setups(2)) == orbits


def test_single_stone_setups_of_size_3() -> None:
    # one black stone: centre, inner ring, outer corner or outer edge cell
    assert len(pie_setups(3, max_stones=1)) == 4


# ------------------------------------------------ solver agreement (independent roads)
def simple_winner(
    size: int, stones: dict[tuple[int, int], str], win: str, turns: str, to_move: str
) -> str:
    """Winner by a plain negamax over coordinate dictionaries, from the rule text."""

    def groups(colour: str, board: frozenset) -> list[int]:
        cells = {c for c, k in board if k == colour}
        sizes = []
        while cells:
            stack, size_ = [cells.pop()], 0
            while stack:
                q, r = stack.pop()
                size_ += 1
                for dq, dr in SIX_STEPS:
                    if (q + dq, r + dr) in cells:
                        cells.remove((q + dq, r + dr))
                        stack.append((q + dq, r + dr))
            sizes.append(size_)
        return sorted(sizes, reverse=True)

    def ahead(board: frozenset) -> str:
        if win == "stones":
            reds = sum(k == "R" for _, k in board)
            return "R" if reds >= len(board) - reds else "B"
        red_groups, black_groups = groups("R", board), groups("B", board)
        for i in range(max(len(red_groups), len(black_groups)) + 1):
            if i == len(red_groups) and i == len(black_groups):
                return "R"  # both ran out together: a tie, Red's
            if i == len(red_groups):
                return "B"
            if i == len(black_groups):
                return "R"
            if red_groups[i] != black_groups[i]:
                return "R" if red_groups[i] > black_groups[i] else "B"
        raise AssertionError

    other = {"R": "B", "B": "R"}

    @cache
    def winner(board: frozenset, mover: str, passes: int) -> str:
        if turns == "loser":
            mover = other[ahead(board)]
        elif passes == 2:
            return ahead(board)
        options = simple_placeable(size, dict(board), mover)
        results = [winner(board | {(cell, mover)}, other[mover], 0) for cell in options]
        if turns == "pass":
            results.append(winner(board, other[mover], passes + 1))
        return mover if mover in results else other[mover]

    return winner(frozenset(stones.items()), to_move, 0)


def test_winner_solver_matches_a_simple_negamax_on_every_size_2_setup() -> None:
    board = hex_board(2)
    for win in WIN_CONDITIONS:
        for label, params in TURN_MODELS:
            solver = WinnerSolver(Interleave(size=2, win=win, **params))
            for red, black in pie_setups(2):
                stones = {board.coords[i]: "R" for i in board.cells_of(red)}
                stones.update({board.coords[i]: "B" for i in board.cells_of(black)})
                first = "B" if params.get("first") == "black" else "R"
                expected = simple_winner(2, stones, win, params["turns"], first)
                got = solver.winner(solver.game.position(red, black))
                assert "RB"[got] == expected, (label, win, board_string(2, red, black))


def test_winner_solver_matches_retrograde_on_size_2_setups() -> None:
    from solvers.retrograde import retrograde

    for win in WIN_CONDITIONS:
        for _, params in TURN_MODELS:
            for red, black in pie_setups(2)[::5]:
                game = Interleave(size=2, win=win, setup=board_string(2, red, black), **params)
                root = game.initial_position()
                outcome = retrograde(game, root).outcome(root)
                assert WinnerSolver(game).outcome(root) == outcome


def _agree_with_alpha_beta(setups: Sequence[str]) -> None:
    from solvers import solve

    for text in setups:
        game = Interleave(size=3, turns="loser", setup=text)
        expected = solve(game, solver="alphabeta", remoteness=False)
        assert WinnerSolver(game).outcome(game.initial_position()) == expected.outcome


def test_small_size_3_setups_agree_with_alpha_beta() -> None:
    _agree_with_alpha_beta(
        [
            STATED_SETUPS_SIZE3["one black stone in the centre"],
            STATED_SETUPS_SIZE3["black centre, red neighbour"],
        ]
    )


@pytest.mark.slow
def test_every_stated_size_3_setup_agrees_with_alpha_beta() -> None:
    _agree_with_alpha_beta(list(STATED_SETUPS_SIZE3.values()))


@pytest.mark.slow
def test_size_3_coordinate_rule_matches_on_a_stated_setup() -> None:
    board = hex_board(3)
    text = STATED_SETUPS_SIZE3["black corner, red centre"]
    game = Interleave(size=3, turns="loser", setup=text)
    stones = {board.coords[i]: "R" for i in board.cells_of(game.setup_red)}
    stones.update({board.coords[i]: "B" for i in board.cells_of(game.setup_black)})
    result = solve_setup(3, game.setup_red, game.setup_black, turns="loser")
    assert result["winner"][0] == simple_winner(3, stones, "stones", "loser", "R")


# ------------------------------------------------------- timing, setup by setup (full)
def test_every_setup_winners_of_the_sweep_match_the_negamax_on_size_2() -> None:
    # second road: the compiled sweep's per-setup winner bits against WinnerSolver
    from solvers.kernels.interleave import placement_of_rank, setup_winners

    for turns, key, params in (
        ("pass", "red first", {"turns": "pass", "first": "red"}),
        ("pass", "black first", {"turns": "pass", "first": "black"}),
        ("loser", "loser", {"turns": "loser"}),
    ):
        bits = setup_winners(2, "stones", turns)[key]
        game = Interleave(size=2, win="stones", **params)
        solver = WinnerSolver(game)
        for rank in range(3**7):
            red, black = placement_of_rank(2, rank)
            if not black:
                continue
            red_wins = bool(bits[rank >> 3] >> (rank & 7) & 1)
            assert red_wins == (solver.winner(game.position(red, black)) == RED)


def test_timing_independence_full_mode_compares_setup_by_setup() -> None:
    verdict = run_claim("interleave.timing-independence", full=True, full_size=2, size3_setups=())
    assert verdict.verdict == "verified" and verdict.mode == "full"
    compared = verdict.evidence["every_setup"]["win=stones"]
    assert compared["setups"] == 3**7 - 2**7 and compared["disagreements"] == 0


def test_timing_independence_full_mode_refutes_a_model_that_differs_on_one_setup() -> None:
    # equal totals, one setup swapped in each direction: a comparison of totals would pass
    from solvers.kernels.interleave import setup_winners

    def one_setup_flipped(size: int, win: str, turns: str) -> dict[str, object]:
        winners = setup_winners(size, win, turns)
        if turns == "loser":
            bits = winners["loser"].copy()
            ranks = [r for r in range(3**7) if r % 3 == 2]  # cell a1 black: real setups
            on = next(r for r in ranks if bits[r >> 3] >> (r & 7) & 1)
            off = next(r for r in ranks if not bits[r >> 3] >> (r & 7) & 1)
            bits[on >> 3] ^= 1 << (on & 7)
            bits[off >> 3] ^= 1 << (off & 7)
            winners["loser"] = bits
        return winners

    verdict = run_claim(
        "interleave.timing-independence",
        full=True,
        full_size=2,
        size3_setups=(),
        winners_of=one_setup_flipped,
    )
    assert verdict.verdict == "refuted"
    compared = verdict.evidence["every_setup"]["win=stones"]
    assert compared["disagreements_by_model"]["loser moves"] == 2
    totals = compared["setups_red_wins"]
    assert totals["loser moves"] == totals["pass, Red first"]
    assert len(compared["examples"]) == 2
