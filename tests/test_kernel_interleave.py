"""The compiled Interleave kernel (solvers/kernels/interleave.py) against the readable rules
(cgt.games.interleave), the pure-Python retrograde and the claims' memoised negamax.

Independent checks: open cells, leader, move lists (in order) and end-of-game results agree
with the readable module on seeded random positions of sizes 2 and 3, both win conditions,
both turn models; the sweep over every placement of size 2 gives every position (every
setup, side to move and pass count) the outcome and remoteness of
:func:`solvers.retrograde.retrograde`; solve results agree field by field; the every-setup
counts agree with :class:`proofs.interleave.WinnerSolver` over :func:`pie_setups`, and the
setup count up to symmetry with that enumeration (250 on size 2).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable

import pytest

from cgt.errors import ParameterError, PositionError
from cgt.games.interleave import Interleave, InterleavePosition, leader, placeable
from cgt.protocol import Outcome
from proofs.interleave import WinnerSolver, pie_setups
from solvers import solve
from solvers.kernels.interleave import (
    InterleaveSpace,
    SweepBudgetExceeded,
    solve_every_setup,
    solve_interleave,
    warm_up,
)
from solvers.retrograde import retrograde

WINS = ("stones", "groups")
#: (turns, first) of every turn model
MODELS = (("pass", "red"), ("pass", "black"), ("loser", "red"))


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def random_placement(cells: int, rng: random.Random) -> tuple[int, int]:
    """Stones on a random share of the cells (from nearly empty to nearly full boards)."""
    density = rng.random()
    red = black = 0
    for cell in range(cells):
        if rng.random() < density:
            if rng.random() < 0.5:
                red |= 1 << cell
            else:
                black |= 1 << cell
    return red, black


# --------------------------------------------------------------------------- the rules
@pytest.mark.parametrize("size", [2, 3])
@pytest.mark.parametrize("win", WINS)
def test_open_cells_and_leader_match_the_readable_rules(size: int, win: str) -> None:
    game = Interleave(size=size, win=win)
    space = InterleaveSpace(game)
    board = game.board
    rng = random.Random(size * 10 + len(win))
    for _ in range(1500):
        red, black = random_placement(board.size, rng)
        expected = (placeable(board, red, black, 0), placeable(board, red, black, 1))
        assert space.open_cells(red, black) == expected
        assert space.leader(red, black) == leader(board, red, black, win)


@pytest.mark.parametrize("size", [2, 3])
@pytest.mark.parametrize(("turns", "first"), MODELS)
def test_moves_and_results_match_the_readable_rules(size: int, turns: str, first: str) -> None:
    for win in WINS:
        game = Interleave(size=size, win=win, turns=turns, first=first)
        space = InterleaveSpace(game)
        rng = random.Random(size + len(turns) + len(win))
        for _ in range(400):
            red, black = random_placement(game.board.size, rng)
            if turns == "loser":
                position = game.position(red, black)
            else:
                position = InterleavePosition(red, black, rng.randint(0, 1), rng.randint(0, 2))
            assert space.moves(position) == list(game.moves(position))
            assert space.terminal_outcome(position) == game.result(position)


# -------------------------------------------------------------- every size-2 position
def every_position(game: Interleave) -> list[InterleavePosition]:
    """Every position of the size-2 board with a black stone, every side and pass count the
    turn model allows."""
    positions = []
    for contents in itertools.product(range(3), repeat=game.board.size):
        red = sum(1 << c for c, k in enumerate(contents) if k == 1)
        black = sum(1 << c for c, k in enumerate(contents) if k == 2)
        if not black:
            continue
        if game.turns == "loser":
            positions.append(game.position(red, black))
        else:
            for mover, passes in itertools.product((0, 1), (0, 1, 2)):
                positions.append(InterleavePosition(red, black, mover, passes))
    return positions


def retrograde_values(
    game: Interleave, positions: list[InterleavePosition]
) -> dict[Hashable, tuple[Outcome, int | None]]:
    """Outcome and remoteness of every position by the pure-Python retrograde, solving from
    each position no earlier solve reached."""
    known: dict[Hashable, tuple[Outcome, int | None]] = {}
    for position in positions:
        if game.key(position) in known:
            continue
        solution = retrograde(game, position, symmetry=False)
        for key, outcome, remoteness in solution:
            known[key] = (outcome, remoteness)
    return known


@pytest.mark.parametrize("win", WINS)
@pytest.mark.parametrize("turns", ["pass", "loser"])
def test_sweep_of_every_size2_placement_matches_retrograde(win: str, turns: str) -> None:
    game = Interleave(size=2, win=win, turns=turns)
    space = InterleaveSpace(game)  # no fixed stones: every placement of the board
    space.solve()
    assert space.stats["placements_solved"] == 3**7
    positions = every_position(game)
    expected = retrograde_values(game, positions)
    for position in positions:
        assert space.value_of(position) == expected[game.key(position)], game.render(position)


SETUPS_SIZE2 = ["../.B./..", "R./.B./..", "../RBR/..", "B./..B/.R", "RR/B.B/.."]


@pytest.mark.parametrize("setup", SETUPS_SIZE2)
@pytest.mark.parametrize("win", WINS)
@pytest.mark.parametrize(("turns", "first"), MODELS)
def test_solve_result_matches_retrograde(setup: str, win: str, turns: str, first: str) -> None:
    game = Interleave(size=2, win=win, turns=turns, first=first, setup=setup)
    compiled = solve(game, solver="compiled")
    expected = solve(game, solver="retrograde")
    assert compiled.solver == "compiled"
    assert (compiled.outcome, compiled.remoteness) == (expected.outcome, expected.remoteness)
    assert [m.as_dict() for m in compiled.moves] == [m.as_dict() for m in expected.moves]
    assert compiled.best_moves == expected.best_moves
    assert compiled.principal_variation == expected.principal_variation


def test_solve_from_a_position_after_a_pass() -> None:
    game = Interleave(size=2)
    position = game.parse("R./.B./.. B+")
    compiled = solve_interleave(game, position, remoteness=True)
    expected = retrograde(game, position).result(position)
    assert (compiled.outcome, compiled.remoteness) == (expected.outcome, expected.remoteness)
    assert [m.as_dict() for m in compiled.moves] == [m.as_dict() for m in expected.moves]


# ---------------------------------------------------------------------- every setup
@pytest.mark.parametrize("win", WINS)
@pytest.mark.parametrize("turns", ["pass", "loser"])
def test_every_setup_counts_match_the_claims_solver(win: str, turns: str) -> None:
    counts = solve_every_setup(2, win, turns)["counts"]
    setups = pie_setups(2)
    firsts = ("red", "black") if turns == "pass" else ("red",)
    winners = []
    for first, label in zip(firsts, counts):
        game = Interleave(size=2, win=win, turns=turns, first=first)
        solver = WinnerSolver(game)
        winners.append([solver.winner(game.position(r, b)) for r, b in setups])
        assert counts[label]["setups_up_to_symmetry"] == len(setups) == 250
        assert counts[label]["red_wins_up_to_symmetry"] == winners[-1].count(0)
        assert counts[label]["setups"] == 3**7 - 2**7  # every placement with a black stone
    if turns == "pass":
        differ = sum(a != b for a, b in zip(*winners))
        assert counts["first_player_matters"]["setups_up_to_symmetry"] == differ


# ------------------------------------------------------------------------- refusals
def test_refuses_other_games_big_spaces_and_foreign_positions() -> None:
    from cgt.games.control import Control

    with pytest.raises(ParameterError, match="cannot solve"):
        InterleaveSpace(Control(size=2))
    with pytest.raises(ParameterError, match="needs"):
        solve_interleave(Interleave(size=4))  # 3^36 placements
    game = Interleave(size=2, setup="R./.B./..")
    space = InterleaveSpace(game, *game.initial_position()[:2])
    with pytest.raises(PositionError, match="lacks stones"):
        space.check_position(Interleave(size=2).initial_position())


def test_budget_runs_out() -> None:
    with pytest.raises(SweepBudgetExceeded, match="time budget"):
        solve_interleave(Interleave(size=2), max_seconds=1e-9)


# ---------------------------------------------------------------- size 3, one setup
@pytest.mark.slow
@pytest.mark.parametrize("turns", ["pass", "loser"])
def test_size3_default_setup_matches_retrograde(turns: str) -> None:
    game = Interleave(size=3, turns=turns)
    compiled = solve_interleave(game, remoteness=True)
    expected = retrograde(game).result()
    assert (compiled.outcome, compiled.remoteness) == (expected.outcome, expected.remoteness)
    assert [m.as_dict() for m in compiled.moves] == [m.as_dict() for m in expected.moves]
    assert compiled.best_moves == expected.best_moves
    assert compiled.principal_variation == expected.principal_variation


def test_first_player_matters_reads_both_states() -> None:
    import numpy as np

    from solvers.kernels.interleave import _first_player_matters

    # codes 2 + 2r + (1 if the player to move loses): (Red to move, Black to move)
    red_moves = np.array([2, 3, 2, 3], dtype=np.uint8)
    black_moves = np.array([3, 2, 2, 3], dtype=np.uint8)
    # Red wins both ways; Black both ways; the mover wins; the mover loses
    assert _first_player_matters(red_moves, black_moves).tolist() == [False, False, True, True]
