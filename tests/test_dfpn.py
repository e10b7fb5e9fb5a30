"""Depth-first proof-number search (``method="dfpn"``) of the Control, LAG and Super Nonnect
kernels against two independent sources: the pure-Python retrograde analysis (every position
of small boards and setups) and the same kernel's alpha-beta (a different search over the same
compiled rules) on positions of random games. A second part shows that the comparison
catches a wrong result: a kernel whose answer is flipped on a single position is found out.

Tiny tables (4 slots) make the replacement policy (df-pn's garbage collection) throw entries
away all the time: the values must not change.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from cgt.errors import ParameterError
from cgt.games.control import Control
from cgt.games.lag import FAR_ROW_GOALS, GOALS, Lag
from cgt.games.super_nonnect import SuperNonnect
from cgt.protocol import Outcome
from solvers.kernel_base import CompiledKernel
from solvers.kernels import control, lag, super_nonnect
from solvers.kernels.control import ControlKernel
from solvers.kernels.lag import LagKernel
from solvers.kernels.super_nonnect import SuperNonnectKernel
from solvers.retrograde import retrograde

SMALL_SETUP = "B.B/..../...../..../W.W W"
LAG_RULES = [{"goal": goal} for goal in GOALS] + [
    {"goal": goal, "goal_check": "mover"} for goal in FAR_ROW_GOALS
]
LAG_IDS = [" ".join(f"{k}={v}" for k, v in rules.items()) for rules in LAG_RULES]
TABLES = (1 << 12, 4)


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    for module in (control, lag, super_nonnect):
        module.warm_up()


def disagreements(
    kernel: CompiledKernel, positions: list[Any], expected: Callable[[Any], Outcome]
) -> list[Any]:
    """Positions whose outcome by ``kernel`` differs from ``expected``."""
    return [p for p in positions if kernel.value(p)[0] != expected(p)]


def every_position(game: Any) -> tuple[list[Any], Any]:
    """Every position reachable from the start, and the retrograde solution."""
    solution = retrograde(game, symmetry=False, keep_positions=True)
    return [solution.position_of(i) for i in range(len(solution))], solution


def random_positions(game: Any, games: int, skip: int, seed: int) -> list[Any]:
    """Positions of random games from ply ``skip`` on (earlier ones are the slow ones)."""
    rng = random.Random(seed)
    positions: list[Any] = []
    for _ in range(games):
        position = game.initial_position()
        ply = 0
        while moves := game.moves(position):
            if ply >= skip:
                positions.append(position)
            position = game.play(position, rng.choice(moves))
            ply += 1
    return positions


def alphabeta_outcome(kernel: CompiledKernel) -> Callable[[Any], Outcome]:
    return lambda position: kernel.value(position)[0]


# ------------------------------------------------------------------------- LAG
@pytest.mark.parametrize("rules", LAG_RULES, ids=LAG_IDS)
def test_lag_every_position_of_a_small_setup_matches_retrograde(rules: dict[str, str]) -> None:
    game = Lag(size=3, setup=SMALL_SETUP, **rules)
    positions, solution = every_position(game)
    assert len(positions) > 200
    for entries in TABLES:
        kernel = LagKernel(game, method="dfpn", tt_entries=entries)
        assert disagreements(kernel, positions, solution.outcome) == []


@pytest.mark.parametrize("rules", LAG_RULES, ids=LAG_IDS)
def test_lag_size3_random_positions_match_alphabeta(rules: dict[str, str]) -> None:
    game = Lag(size=3, **rules)
    # far-row races end within some ten plies; the object-count goals run longer and their
    # positions near the start take alpha-beta minutes
    skip = {"far-row": 3, "far-row-one-object": 6}.get(rules["goal"], 10)
    positions = random_positions(game, games=10, skip=skip, seed=LAG_RULES.index(rules))
    assert len(positions) >= 25
    reference = LagKernel(game, tt_entries=1 << 16)
    kernel = LagKernel(game, method="dfpn", tt_entries=1 << 16)
    assert disagreements(kernel, positions, alphabeta_outcome(reference)) == []


def test_lag_size3_far_row_openings_match_alphabeta() -> None:
    game = Lag(size=3, goal="far-row")
    by_alphabeta = lag.solve_lag(game, principal_variation=False, tt_entries=1 << 18)
    by_dfpn = lag.solve_lag(game, principal_variation=False, tt_entries=1 << 18, method="dfpn")
    assert by_dfpn.extra["method"] == "dfpn"
    assert [(m.name, m.outcome) for m in by_dfpn.moves] == [
        (m.name, m.outcome) for m in by_alphabeta.moves
    ]


# ----------------------------------------------------------------- Super Nonnect
@pytest.mark.parametrize("rule", ["original", "revised"])
def test_super_nonnect_2x2_every_position_matches_retrograde(rule: str) -> None:
    game = SuperNonnect(a=2, b=2, rule=rule)
    positions, solution = every_position(game)
    assert len(positions) > 100
    for entries in TABLES:
        kernel = SuperNonnectKernel(game, method="dfpn", tt_entries=entries)
        assert disagreements(kernel, positions, solution.outcome) == []


@pytest.mark.parametrize("rule", ["original", "revised"])
def test_super_nonnect_2x3_matches_alphabeta_and_retrograde(rule: str) -> None:
    game = SuperNonnect(a=2, b=3, rule=rule)
    lines = [random_positions(game, games=1, skip=1, seed=seed) for seed in range(6)]
    positions = [p for line in lines for p in line]
    reference = SuperNonnectKernel(game, tt_entries=1 << 16)
    kernel = SuperNonnectKernel(game, method="dfpn", tt_entries=1 << 16)
    assert disagreements(kernel, positions, alphabeta_outcome(reference)) == []
    near_end = [p for line in lines for p in line[-5:]]  # small graphs for retrograde
    for position in near_end:
        solution = retrograde(game, position, symmetry=True, max_positions=3_000)
        assert disagreements(kernel, [position], solution.outcome) == []
    assert len(near_end) >= 20
    result = super_nonnect.solve_super_nonnect(
        game, principal_variation=False, tt_entries=1 << 18, method="dfpn"
    )
    expected = super_nonnect.solve_super_nonnect(game, principal_variation=False)
    assert [(m.name, m.outcome) for m in result.moves] == [
        (m.name, m.outcome) for m in expected.moves
    ]


# ------------------------------------------------------------------------- Control
@pytest.mark.parametrize("opening", ["perimeter", "free"])
def test_control_size2_every_position_matches_retrograde(opening: str) -> None:
    game = Control(size=2, opening=opening)
    positions, solution = every_position(game)
    for entries in TABLES:
        kernel = ControlKernel(game, method="dfpn", tt_entries=entries)
        assert disagreements(kernel, positions, solution.outcome) == []


def test_control_size3_random_positions_match_alphabeta() -> None:
    game = Control(size=3)
    positions = random_positions(game, games=3, skip=3, seed=5)
    reference = ControlKernel(game, tt_entries=1 << 16)
    kernel = ControlKernel(game, method="dfpn", tt_entries=1 << 16)
    assert len(positions) >= 30
    assert disagreements(kernel, positions, alphabeta_outcome(reference)) == []


# ------------------------------------------------------------- the check can fail
class FlippedOnce(LagKernel):
    """A df-pn kernel with a planted bug: the opposite answer at one position."""

    def __init__(self, game: Any, wrong: Any, **options: Any) -> None:
        super().__init__(game, **options)
        self.wrong = wrong

    def _search(self, position: Any, alpha: int, beta: int) -> int:
        score = super()._search(position, alpha, beta)
        return -score if position == self.wrong else score


def test_the_comparison_catches_a_flipped_result() -> None:
    game = Lag(size=3, setup=SMALL_SETUP, goal="standard")
    positions, solution = every_position(game)
    playable = [p for p in positions if game.moves(p)]
    wrong = playable[len(playable) // 2]
    broken = FlippedOnce(game, wrong, method="dfpn", tt_entries=1 << 12)
    assert disagreements(broken, positions, solution.outcome) == [wrong]
    reference = LagKernel(game, tt_entries=1 << 12)
    assert disagreements(broken, playable, alphabeta_outcome(reference)) == [wrong]


def test_dfpn_lag_and_super_nonnect_resume_after_budget_slices() -> None:
    """A search cut into slices of a few hundred nodes (nothing stored on an unfinished
    path) ends with the value of the uncut search."""
    cases: list[tuple[CompiledKernel, CompiledKernel, Any]] = []
    lag_game = Lag(size=3, goal="far-row-one-object")
    cases.append(
        (
            LagKernel(lag_game, method="dfpn", tt_entries=1 << 16),
            LagKernel(lag_game, method="dfpn", tt_entries=1 << 16),
            random_positions(lag_game, games=1, skip=6, seed=1)[:5],
        )
    )
    nonnect = SuperNonnect(a=2, b=3)
    cases.append(
        (
            SuperNonnectKernel(nonnect, method="dfpn", tt_entries=1 << 16),
            SuperNonnectKernel(nonnect, method="dfpn", tt_entries=1 << 16),
            random_positions(nonnect, games=1, skip=1, seed=1)[:5],
        )
    )
    for plain, sliced, positions in cases:
        sliced.set_budget(None, lambda event: None)
        for position in positions:
            sliced._slice_nodes = 100
            assert sliced.score(position) == plain.score(position)


def test_dfpn_refuses_what_it_cannot_do() -> None:
    with pytest.raises(ParameterError, match="wins, losses"):
        LagKernel(Lag(size=3), method="dfpn", remoteness=True)
    with pytest.raises(ParameterError, match="wins, losses"):
        SuperNonnectKernel(SuperNonnect(a=2, b=2), method="dfpn", remoteness=True)
    with pytest.raises(ParameterError, match="unknown search method"):
        SuperNonnectKernel(SuperNonnect(a=2, b=2), method="pns")
    with pytest.raises(ParameterError, match="cannot repeat"):
        ControlKernel(Control(size=2, control="sight"), method="dfpn")


# ------------------------------------------------------------------------- command line
def test_command_line_method_dfpn_gives_the_alphabeta_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from tests.cli_runner import run

    answers = []
    for method in ("alphabeta", "dfpn"):
        code, out, _ = run(
            capsys,
            "solve",
            "super-nonnect",
            "-p",
            "a=2",
            "-p",
            "b=3",
            "--solver",
            "compiled",
            "--value-only",
            "--method",
            method,
            "--json",
        )
        assert code == 0
        data = json.loads(out)
        assert data["method"] == method
        answers.append((data["winner"], [(m["move"], m["outcome"]) for m in data["moves"]]))
    assert answers[0] == answers[1]


@pytest.mark.parametrize(
    "args",
    [
        ("control", "-p", "size=2", "-p", "control=sight"),  # positions can repeat: draws
        ("entropy",),  # no df-pn kernel
        ("lag", "-p", "size=3", "--solver", "retrograde"),
        ("lag", "-p", "size=3", "--jobs", "2"),
    ],
)
def test_command_line_refuses_dfpn_where_it_does_not_apply(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    from tests.cli_runner import run

    code, out, err = run(capsys, "solve", *args, "--method", "dfpn")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "dfpn" in err
