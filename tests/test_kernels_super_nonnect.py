"""The compiled Super Nonnect kernel against the readable rules and pure-Python retrograde.

Independent sources: move lists from cgt.games.super_nonnect (the readable statement of the
rules), values from solvers.retrograde (every reachable position, exact remoteness), and the
kernel's df-pn (a different search) where retrograde cannot go. Every search option is
compared (iterative deepening, ETC, symmetry keys at no, some or every count of cuts), and
the comparisons are shown to catch faults: a map that is no symmetry, and a deepening that
takes a pass's "unknown" for a loss.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from cgt.errors import ParameterError, PositionError
from cgt.games.super_nonnect import SuperNonnect, bits_of
from solvers.engine_search import S_ETC_CUTOFFS, S_ROOT_FLAGGED, S_SETTLED
from solvers.kernel_table import INFINITY, S_ABORTED, S_NODE_LIMIT
from solvers.kernels.super_nonnect import (
    MAX_CELLS,
    SuperNonnectKernel,
    _joined,
    solve_super_nonnect,
    warm_up,
)
from solvers.retrograde import PositionLimitExceeded, retrograde

SHAPES: list[dict[str, Any]] = [
    {"a": 1, "b": 2},
    {"a": 2, "b": 2},
    {"a": 2, "b": 3},
    {"a": 3, "b": 2},
    {"a": 3, "b": 3},  # 81 cells: both words of the kernel's masks
    {"shape": "hex7"},
]


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def random_lines(game: SuperNonnect, games: int, seed: int) -> list[list[Any]]:
    """Random games, each as its list of positions from the start to the end."""
    rng = random.Random(seed)
    lines = []
    for _ in range(games):
        line = [game.initial_position()]
        while moves := game.moves(line[-1]):
            line.append(game.play(line[-1], rng.choice(moves)))
        lines.append(line)
    return lines


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "-".join(map(str, s.values())))
@pytest.mark.parametrize("rule", ["original", "revised"])
def test_move_generator_matches_readable_rules(shape: dict[str, Any], rule: str) -> None:
    game = SuperNonnect(rule=rule, **shape)
    kernel = SuperNonnectKernel(game, tt_entries=64)
    for line in random_lines(game, 15, seed=len(shape) + len(rule)):
        for position in line:
            assert kernel.moves(position) == game.moves(position), game.render(position)


@pytest.mark.parametrize("shape", [{"a": 3, "b": 3}, {"shape": "hex7"}], ids=["3x3", "hex7"])
def test_join_test_of_a_cut_matches_the_readable_connectivity(shape: dict[str, Any]) -> None:
    """The floods from a cut's neighbours (``_joined``) answer what the readable rules'
    connectivity does, for every uncut cell of positions along random games: cuts that keep
    the board in one piece and cuts that split it, with two to four neighbours on 3x3 and
    more than four (one flood) on hex7 (the generator asks it only after the ring lookup
    fails; asked of every cut here, it meets every case)."""
    game = SuperNonnect(rule="original", **shape)
    board = SuperNonnectKernel(game, tt_entries=64).board
    seen: set[tuple[int, bool]] = set()
    for line in random_lines(game, 6, seed=5):
        for position in line:
            uncut = game.full_mask & ~position.cut
            for cell in bits_of(uncut):
                rest = uncut & ~(1 << cell)
                lo, hi = board._words(board.to_compact(rest))
                c = board.compact[cell]
                ends = sum(1 for d in bits_of(game.geometry.neighbour_masks[cell]) if rest >> d & 1)
                if ends < 2:  # the generator settles a leaf without asking
                    continue
                joined = bool(_joined(c, lo, hi, board.neighbours))
                assert joined == game.connected(rest), (game.render(position), cell)
                seen.add((min(ends, 5), joined))
    expected = {(n, answer) for n in (2, 3, 4) for answer in (True, False)}
    assert expected <= seen, seen
    if "shape" in shape:
        assert (5, True) in seen


#: Value-mode options compared with retrograde: the defaults, iterative deepening (with a
#: table of 4 slots too: entries replaced all the time), no ETC with symmetry keys at every
#: count of cuts, and no symmetry at all.
VALUE_OPTIONS: list[dict[str, Any]] = [
    {},
    {"deepening": True},
    {"deepening": True, "tt_entries": 4},
    {"etc": False, "symmetry_cuts": MAX_CELLS},
    {"symmetry_cuts": -1},
]
REMOTENESS_OPTIONS: list[dict[str, Any]] = [
    {},
    {"symmetry_cuts": -1, "mobility_ordering": False},
    {"symmetry_cuts": MAX_CELLS, "etc": False},
]


def _kernels(game: SuperNonnect) -> list[tuple[bool, SuperNonnectKernel]]:
    """(remoteness?, kernel) for every option set; one kernel serves many positions, so
    entries stored for one root are met again from the next."""
    return [
        (
            remoteness,
            SuperNonnectKernel(game, remoteness=remoteness, **{"tt_entries": 1 << 12, **options}),
        )
        for remoteness, option_sets in ((True, REMOTENESS_OPTIONS), (False, VALUE_OPTIONS))
        for options in option_sets
    ]


def _disagreements(
    kernels: list[tuple[bool, SuperNonnectKernel]], positions: list[Any], solution: Any
) -> list[Any]:
    """(position, kernel options) where a kernel's value differs from the retrograde one."""
    wrong = []
    for position in positions:
        expected = (solution.outcome(position), solution.remoteness(position))
        for remoteness, kernel in kernels:
            if kernel.value(position) != (expected if remoteness else (expected[0], None)):
                wrong.append(position)
    return wrong


def _assert_same_values(game: SuperNonnect, positions: list[Any], solution: Any) -> None:
    kernels = _kernels(game)
    assert _disagreements(kernels, positions, solution) == []


@pytest.mark.parametrize("rule", ["original", "revised"])
@pytest.mark.parametrize("shape", [{"a": 1, "b": 2}, {"a": 2, "b": 2}], ids=["1x2", "2x2"])
def test_every_small_board_position_matches_retrograde(shape: dict[str, Any], rule: str) -> None:
    game = SuperNonnect(rule=rule, **shape)
    solution = retrograde(game, symmetry=False, keep_positions=True)
    positions = [solution.position_of(i) for i in range(len(solution))]
    _assert_same_values(game, positions, solution)


@pytest.mark.parametrize("shape", [{"a": 2, "b": 3}, {"a": 3, "b": 3}, {"shape": "hex7"}])
@pytest.mark.parametrize("rule", ["original", "revised"])
def test_near_end_positions_match_retrograde(shape: dict[str, Any], rule: str) -> None:
    """Positions some plies before the end of random games (graphs small enough for the
    pure-Python retrograde; bigger ones are skipped, at least five checked)."""
    game = SuperNonnect(rule=rule, **shape)
    checked = 0
    for line in random_lines(game, 12, seed=11):
        position = line[max(0, len(line) - 6)]
        try:
            solution = retrograde(game, position, symmetry=True, max_positions=3_000)
        except PositionLimitExceeded:
            continue
        _assert_same_values(game, [position], solution)
        checked += 1
    assert checked >= 5


def test_solve_2x2_root_and_every_move_match_retrograde() -> None:
    for rule in ("original", "revised"):
        game = SuperNonnect(a=2, b=2, rule=rule)
        expected = retrograde(game, symmetry=False).result()
        result = solve_super_nonnect(game, remoteness=True)
        assert (result.outcome, result.remoteness) == (expected.outcome, expected.remoteness)
        assert [(m.name, m.outcome, m.remoteness) for m in result.moves] == [
            (m.name, m.outcome, m.remoteness) for m in expected.moves
        ]
        assert len(result.principal_variation) == result.remoteness


def test_bad_input_raises_toolkit_errors() -> None:
    kernel = SuperNonnectKernel(SuperNonnect(a=2, b=2), tt_entries=64)
    with pytest.raises(PositionError):
        kernel.moves((1 << 16, -1, 0))  # off the 16-cell board
    with pytest.raises(PositionError):
        kernel.moves((0, 4, 0))  # no mini-board 4 on 2 x 2
    from cgt.games.control import Control

    with pytest.raises(ParameterError):
        SuperNonnectKernel(Control(size=2))
    with pytest.raises(ParameterError):
        SuperNonnectKernel(SuperNonnect(a=2, b=2), tt_entries=0)


# --------------------------------------------------------- the search's ingredients
def test_etc_settled_children_and_deepening_are_exercised() -> None:
    """The comparisons above go through the new code paths: children settled by their
    entry, ETC cut-offs, and more than one deepening pass."""
    game = SuperNonnect(a=2, b=3, rule="revised")
    position = random_lines(game, 1, seed=3)[0][4]
    plain = SuperNonnectKernel(game, tt_entries=1 << 16)
    deepening = CountedPasses(game, tt_entries=1 << 16, deepening=True)
    assert plain.value(position) == deepening.value(position)
    assert plain.stat(S_SETTLED) > 0 and plain.stat(S_ETC_CUTOFFS) > 0
    assert len(deepening.horizons_searched) > 2


class CountedPasses(SuperNonnectKernel):
    """A kernel that records the horizon of every pass its engine searches."""

    def __init__(self, game: SuperNonnect, **options: Any) -> None:
        super().__init__(game, **options)
        self.horizons_searched: list[int] = []
        search = self.engine._call

        def counted(root: np.ndarray, alpha: int, beta: int, horizon: int) -> int:
            self.horizons_searched.append(horizon)
            return search(root, alpha, beta, horizon)

        self.engine._call = counted  # type: ignore[method-assign]


def _broken_symmetry(kernel: SuperNonnectKernel) -> None:
    """Make symmetry 1 of the kernel a map that is no symmetry of the game: its cell images
    and move maps are kept, but the designated mini-board is not mapped along (the identity
    on mini-boards), so positions that differ only in where the next cut must go share
    keys."""
    kernel.board_perm[1] = np.arange(kernel.board_perm.shape[1])


def test_a_symmetry_that_is_not_one_is_caught() -> None:
    """The retrograde comparison refutes a kernel keyed by a map that is no symmetry: the
    same check passes the real kernel and fails the broken one."""
    game = SuperNonnect(a=2, b=2, rule="revised")
    solution = retrograde(game, symmetry=False, keep_positions=True)
    positions = [solution.position_of(i) for i in range(len(solution))]
    good = [(True, SuperNonnectKernel(game, remoteness=True, symmetry_cuts=MAX_CELLS))]
    assert _disagreements(good, positions, solution) == []
    broken = SuperNonnectKernel(game, remoteness=True, symmetry_cuts=MAX_CELLS)
    _broken_symmetry(broken)
    assert _disagreements([(True, broken)], positions, solution) != []


#: Positions the baseline alpha-beta (before ETC and history by work) searched deep into:
#: hex7 revised from the start (2,618 nodes in benchmarks/DFPN.md), and a 3x3 revised
#: position 18 cuts into a random game where it needed several times the budget below.
#: The budgets are bounds on the node count (deterministic), not timings.
WITHIN_BUDGET = [
    ({"shape": "hex7", "rule": "revised"}, None, 1_000),
    (
        {"a": 3, "b": 3, "rule": "revised"},
        "x.xx.x.xx/........./xx.x...x./........./........./.....x.../xx..x.x.x/....x..../....x.... 2",
        2_500,
    ),
]


@pytest.mark.parametrize(("params", "text", "budget"), WITHIN_BUDGET, ids=["hex7", "3x3+18"])
def test_value_mode_proves_within_a_node_budget_and_agrees_with_dfpn(
    params: dict[str, Any], text: str | None, budget: int
) -> None:
    game = SuperNonnect(**params)
    position = game.initial_position() if text is None else game.parse(text)
    kernel = SuperNonnectKernel(game, tt_entries=1 << 16)
    kernel.ctl[S_NODE_LIMIT] = budget
    score = kernel._search(position, -INFINITY, INFINITY)
    assert not kernel.ctl[S_ABORTED], f"not proven within {budget:,} nodes"
    proof = SuperNonnectKernel(game, tt_entries=1 << 16, method="dfpn")
    assert kernel.decode(score)[0] == proof.value(position)[0]


class UnknownTakenForLoss(SuperNonnectKernel):
    """A deepening kernel with a fault: a pass that proves nothing (its root's result
    depended on the horizon) is taken for a loss, as if the horizon were the end of the
    game."""

    def __init__(self, game: SuperNonnect, **options: Any) -> None:
        super().__init__(game, **options)
        search = self.engine._call

        def faulty(root: np.ndarray, alpha: int, beta: int, horizon: int) -> int:
            score = search(root, alpha, beta, horizon)
            if self.ctl[S_ROOT_FLAGGED] and not self.ctl[S_ABORTED]:
                self.ctl[S_ROOT_FLAGGED] = 0
                return -1
            return score

        self.engine._call = faulty  # type: ignore[method-assign]


def test_deepening_that_takes_unknown_for_a_loss_is_caught() -> None:
    game = SuperNonnect(a=2, b=2, rule="original")
    solution = retrograde(game, symmetry=False, keep_positions=True)
    positions = [solution.position_of(i) for i in range(len(solution))]
    broken = UnknownTakenForLoss(game, deepening=True, tt_entries=1 << 12)
    assert _disagreements([(False, broken)], positions, solution) != []
