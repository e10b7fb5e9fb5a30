"""The LAG tier retrograde (solvers.kernels.lag_tiers) against the pure-Python retrograde of
the readable rules, position for position, and the ways it can be stopped and resumed."""

from __future__ import annotations

import itertools
import json
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cgt.errors import ParameterError
from cgt.games.lag import GOAL_CHECKS, GOALS, Lag
from cgt.protocol import Outcome
from solvers import solve
from solvers.budget import SearchBudgetExceeded
from solvers.kernels.lag import LagKernel
from solvers.kernels.lag_tiers import (
    LagTiers,
    TierError,
    tier_positions,
    tiers_below,
    tiers_up_to,
)
from solvers.retrograde import retrograde
from tests.cli_runner import run

pytest.importorskip("numba")

#: Small setups whose every reachable position the pure-Python retrograde solves in seconds.
SETUPS = [
    (3, "B.B/..../...../..../W.W W"),
    (3, "B.B/..../...../.W../W.W W"),
    (2, "BB/.../WW W"),
    (2, "B./.../.W B"),
]


def mismatches(game: Lag, tables: LagTiers) -> list[str]:
    """Positions reachable from the start where the tables and the pure-Python retrograde
    (readable rules, symmetry off) disagree on the outcome or the remoteness."""
    solution = retrograde(game, symmetry=False, keep_positions=True)
    wrong = []
    for node in range(len(solution)):
        position = solution.position_of(node)
        expected = (solution.outcome(position), solution.remoteness(position))
        if tables.value(position) != expected:
            wrong.append(game.render(position))
    return wrong


def full_tables(game: Lag, **options: bool) -> LagTiers:
    white, black, _ = game.initial_position()
    tables = LagTiers(game, tiers_below(white.bit_count(), black.bit_count()), **options)
    tables.solve_tiers()
    return tables


@pytest.mark.parametrize(("goal", "goal_check"), list(itertools.product(GOALS, GOAL_CHECKS)))
@pytest.mark.parametrize(("size", "setup"), SETUPS)
def test_tiers_agree_with_retrograde_everywhere(
    size: int, setup: str, goal: str, goal_check: str
) -> None:
    game = Lag(size=size, setup=setup, goal=goal, goal_check=goal_check)
    tables = full_tables(game)
    assert mismatches(game, tables) == []
    for stats in tables.tier_stats.values():
        assert stats["unsolved"] == 0  # no draws: every position is a win or a loss
        assert stats["wins"] + stats["losses"] == stats["positions"]


@pytest.mark.parametrize("goal", GOALS)
def test_solving_from_the_root_only_agrees_too(goal: str) -> None:
    game = Lag(size=3, setup=SETUPS[0][1], goal=goal)
    tables = LagTiers(game, tiers_below(2, 2))
    tables.solve_from(game.initial_position())
    assert mismatches(game, tables) == []
    # only what the root reaches was solved
    assert np.count_nonzero(tables.table) < tables.positions


def test_a_flipped_end_score_is_caught() -> None:
    game = Lag(size=3, setup=SETUPS[0][1])
    broken = full_tables(game, broken_end_score=True)
    wrong = mismatches(game, broken)
    assert wrong
    # the terminal positions themselves are among the disagreements
    assert any(not game.moves(game.parse(text)) for text in wrong)


def test_ranking_is_a_bijection_onto_the_tiers() -> None:
    # every placement of the size-2 board (3^7) with either side to move gets its own index
    game = Lag(size=2, setup="BB/.../WW W")
    tables = LagTiers(game, tiers_up_to(7, 7, 7), colour_symmetry=False)
    assert tables.positions == 2 * 3**7 == sum(tier_positions(7, w, b) for w, b in tables.tiers)
    seen = set()
    for cells in itertools.product(range(3), repeat=7):
        white = sum(1 << i for i, c in enumerate(cells) if c == 1)
        black = sum(1 << i for i, c in enumerate(cells) if c == 2)
        for side in (0, 1):
            seen.add(tables.index((white, black, side)))
    assert seen == set(range(tables.positions))


@pytest.mark.parametrize("goal", GOALS)
def test_colour_symmetry_keeps_half_the_tiers_and_every_value(goal: str) -> None:
    game = Lag(size=3, setup="B.B/..../...../.W../W.W W", goal=goal)
    whole = LagTiers(game, tiers_below(3, 3), colour_symmetry=False)
    whole.solve_tiers()
    half = LagTiers(game, tiers_below(3, 3))
    half.solve_tiers()
    assert all(w >= b for w, b in half.tiers) and len(half.tiers) < len(whole.tiers)
    for tier in half.tiers:
        assert np.array_equal(half.tier_slice(tier), whole.tier_slice(tier))
    rng = np.random.default_rng(5)
    for _ in range(3000):  # positions of the tiers kept colour-swapped, read through the flip
        cells = rng.permutation(19)
        w, b = sorted(rng.choice(4, size=2, replace=False))  # w < b
        position = (
            sum(1 << int(c) for c in cells[:w]),
            sum(1 << int(c) for c in cells[w : w + b]),
            int(rng.integers(2)),
        )
        assert half.value(position) == whole.value(position)
    # 2 against 3, kept colour-swapped (parsed by a game whose setup allows 3 a side)
    root = Lag(size=3, setup="BBB/..../...../..../WWW W").parse("B.B/..../.B.../.W../W.. B")
    assert LagTiers(game, tiers_below(2, 3)).solve_from(root) == whole.value(root)


def test_tier_sizes_are_binomials() -> None:
    assert tier_positions(19, 7, 7) == comb(19, 7) * comb(12, 7) * 2
    assert tiers_below(1, 2) == [(0, 0), (0, 1), (1, 0), (0, 2), (1, 1), (1, 2)]


def test_a_missing_lower_tier_is_refused() -> None:
    game = Lag(size=3, setup=SETUPS[0][1])
    with pytest.raises(TierError, match="not kept"):
        LagTiers(game, [(2, 2)]).solve_tiers()


def test_an_interrupted_solve_resumes_and_tiers_load(tmp_path: Path) -> None:
    game = Lag(size=3, setup="B.B/..../...../..../WWW W")
    reference = full_tables(game)
    tables = LagTiers(game, tiers_below(3, 2))
    tables._slice_nodes = 64  # stop early: many slices
    tables.deadline = 0.0  # already passed: the first slice that does not finish stops
    with pytest.raises(SearchBudgetExceeded):
        tables.solve_tiers()
    assert 0 < np.count_nonzero(tables.table) < tables.positions
    tables.save(tmp_path)  # only complete tiers are written
    tables.deadline = None
    tables.solve_tiers()
    assert np.array_equal(tables.table, reference.table)
    tables.save(tmp_path)
    loaded = LagTiers(game, tiers_below(3, 2))
    assert sorted(loaded.load(tmp_path)) == sorted(loaded.tiers)
    assert np.array_equal(loaded.table, reference.table)
    with pytest.raises(TierError, match="holds tiers of"):
        LagTiers(Lag(size=3, setup="B.B/..../...../..../WWW W", goal="strict"), []).load(tmp_path)


def test_solver_tiers_gives_the_retrograde_answer() -> None:
    game = Lag(size=3, setup=SETUPS[0][1])
    ours = solve(game, solver="tiers")
    theirs = solve(game, solver="retrograde", symmetry=False)
    assert ours.solver == "tiers"
    assert (ours.outcome, ours.remoteness) == (theirs.outcome, theirs.remoteness)
    assert {(m.name, m.outcome, m.remoteness) for m in ours.moves} == {
        (m.name, m.outcome, m.remoteness) for m in theirs.moves
    }
    assert ours.principal_variation == theirs.principal_variation
    assert ours.outcome is Outcome.WIN


SEARCHES = {"value": {}, "remoteness": {"remoteness": True}, "dfpn": {"method": "dfpn"}}


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("goal", GOALS)
def test_probing_the_tables_from_the_kernel_changes_no_value(goal: str, search: str) -> None:
    game = Lag(size=3, setup="B.B/..../...../.W../W.W W", goal=goal)  # 3 against 2
    lower = LagTiers(game, tiers_below(2, 2))  # the tiers below the start's, some captures away
    lower.solve_tiers()
    options: dict[str, Any] = {"tt_entries": 1 << 12, **SEARCHES[search]}
    plain = LagKernel(game, **options)
    probing = LagKernel(game, tiers=lower, **options)
    solution = retrograde(game, symmetry=False, keep_positions=True)
    for node in range(len(solution)):
        position = solution.position_of(node)
        assert probing.value(position) == plain.value(position)
    assert probing.tier_hits > 0 and plain.tier_hits == 0


def test_probed_tables_are_really_read() -> None:
    # tables solved under a flipped end score, probed: some value changes, so the probe
    # answers instead of the search (and the test above compares something)
    game = Lag(size=3, setup="B.B/..../...../.W../W.W W")
    broken = LagTiers(game, tiers_below(2, 2), broken_end_score=True)
    broken.solve_tiers()
    plain = LagKernel(game, tt_entries=1 << 12)
    probing = LagKernel(game, tt_entries=1 << 12, tiers=broken)
    solution = retrograde(game, symmetry=False, keep_positions=True)
    positions = [solution.position_of(node) for node in range(len(solution))]
    assert any(probing.value(p) != plain.value(p) for p in positions)
    with pytest.raises(ParameterError, match="cannot answer"):
        LagKernel(Lag(size=3, setup="B.B/..../...../.W../W.W W", goal="strict"), tiers=broken)


def test_cgt_solve_with_tiers(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("solve", "lag", "-p", "size=3", "-p", f"setup={SETUPS[1][1]}", "--json")
    code, out, _ = run(capsys, *args, "--solver", "tiers")
    assert code == 0
    ours = json.loads(out)
    code, out, _ = run(capsys, *args, "--solver", "retrograde", "--no-symmetry")
    theirs = json.loads(out)
    assert ours["solver"] == "tiers"
    for key in ("outcome", "remoteness", "moves", "best_moves"):
        assert ours[key] == theirs[key]
    code, _, err = run(capsys, *args, "--solver", "tiers", "--save")
    assert code == 2 and "do not apply" in err


def test_a_tier_directory_resumes_a_solve_and_feeds_the_kernel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Lag(size=3, setup=SETUPS[1][1])  # 3 against 2
    reference = solve(game, solver="retrograde", symmetry=False)
    directory = tmp_path / "tiers"
    # a first run that finished only the tiers below the start's (as if it had been stopped)
    LagTiers(game, tiers_below(2, 2)).solve_tiers(save_to=directory)
    listed = json.loads((directory / "tiers.json").read_text())["tiers"]
    assert len(listed) == len(LagTiers(game, tiers_below(2, 2)).tiers)
    resumed = solve(game, solver="tiers", tier_dir=directory)
    assert resumed.extra["tiers_loaded"] == len(listed)  # taken up, not solved again
    assert (resumed.outcome, resumed.remoteness) == (reference.outcome, reference.remoteness)
    assert {(m.name, m.outcome, m.remoteness) for m in resumed.moves} == {
        (m.name, m.outcome, m.remoteness) for m in reference.moves
    }
    again = solve(game, solver="tiers", tier_dir=directory)
    assert again.extra["tiers_loaded"] == again.extra["tiers"]  # every tier was written
    probing = solve(game, solver="compiled", tier_dir=directory)
    assert probing.extra["tier_hits"] > 0 and probing.outcome == reference.outcome
    # the command line, and the one-line refusals
    args = ("solve", "lag", "-p", "size=3", "-p", f"setup={SETUPS[1][1]}", "--json")
    code, out, _ = run(capsys, *args, "--solver", "tiers", "--tiers-dir", str(directory))
    assert code == 0 and json.loads(out)["outcome"] == reference.outcome.label
    strict = ("solve", "lag", "-p", "size=3", "-p", f"setup={SETUPS[1][1]}", "-p", "goal=strict")
    code, _, err = run(capsys, *strict, "--solver", "tiers", "--tiers-dir", str(directory))
    assert code == 2 and "holds tiers of" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(
        capsys, *args, "--solver", "tiers", "--tiers-dir", str(directory / "w0b0.npy")
    )
    assert code == 2 and "not a directory" in err
    code, _, err = run(capsys, *args, "--solver", "retrograde", "--tiers-dir", str(directory))
    assert code == 2 and "tier tables apply to lag" in err
    code, _, err = run(capsys, *args, "--solver", "compiled", "--tiers-dir", str(tmp_path / "none"))
    assert code == 2 and "cannot read" in err
