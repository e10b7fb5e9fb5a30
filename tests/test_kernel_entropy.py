"""The compiled Entropy kernel (solvers/kernels/entropy.py) against the readable rules
(cgt.games.entropy), a brute-force enumeration of placements and the pure-Python retrograde.

Three independent checks: move lists (in order) and end-of-game results agree with the
readable module on random positions of several boards and both goals; the ranking is a
bijection onto ``0..N-1`` (N counted by hand: 2 C(cells, k1) C(cells - k1, k2)) and, with
symmetry, onto one index per symmetry class (classes counted with the game's own
``canonical_key``); every position reachable from small setups gets the outcome and
remoteness of :func:`solvers.retrograde.retrograde`.
"""

from __future__ import annotations

import itertools
import random
from math import comb
from typing import Any

import numba
import numpy as np
import pytest

from cgt.errors import ParameterError, PositionError
from cgt.games.entropy import PASS, Entropy, EntropyPosition
from cgt.games.nim import Nim
from cgt.protocol import Outcome
from solvers import levels as levels_driver
from solvers.kernels.entropy import (
    DUPLICATE,
    EntropySpace,
    RetrogradeBudgetExceeded,
    canonical_index_and_stabiliser,
    solve_entropy,
    warm_up,
)
from solvers.retrograde import retrograde

RULE_BOARDS = [
    Entropy(),
    Entropy(goal="disable"),
    Entropy(width=4, height=4, setup="SSSS/..../..../OOOO O"),
    Entropy(width=3, height=3, setup="SS./.../.OO O"),
    Entropy(width=5, height=4),
    Entropy(width=7, height=3, setup="SSSSS../......./..OOOOO O"),
    Entropy(width=8, height=8),  # 64 cells: every bit of the uint64 in use
]

#: Small setups whose whole reachable graph the pure-Python retrograde solves in about a
#: second: square and rectangular boards (8 and 4 symmetries), both goals.
AGREEMENT_BOARDS = [
    Entropy(width=3, height=3, setup="SS./.../.OO O"),
    Entropy(width=3, height=3, setup="SSS/.../OOO O", goal="disable"),
    Entropy(width=4, height=3, setup="SS../..../..OO O"),
    Entropy(width=3, height=4, setup="SSS/.../.../OOO O"),
]


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def random_placement(game: Entropy, rng: random.Random) -> EntropyPosition:
    cells = list(range(game.board.size))
    rng.shuffle(cells)
    k1, k2 = game.piece_counts
    o_cells = sum(1 << c for c in cells[:k1])
    s_cells = sum(1 << c for c in cells[k1 : k1 + k2])
    return (o_cells, s_cells, rng.randint(0, 1))


def random_line(game: Entropy, rng: random.Random, plies: int) -> list[EntropyPosition]:
    position = game.initial_position()
    line = [position]
    for _ in range(plies):
        if game.result(position) is not None:
            break
        position = game.play(position, rng.choice(list(game.moves(position))))
        line.append(position)
    return line


# --------------------------------------------------------------------------- the rules
@pytest.mark.parametrize("game", RULE_BOARDS, ids=lambda g: f"{g.width}x{g.height}-{g.goal}")
def test_moves_and_results_match_the_readable_rules(game: Entropy) -> None:
    rng = random.Random(f"{game.width}{game.height}{game.goal}")
    space = EntropySpace(game, symmetry=False)
    positions = [random_placement(game, rng) for _ in range(300)]
    for _ in range(4):
        positions += random_line(game, rng, 60)
    for position in positions:
        assert space.moves(position) == list(game.moves(position)), game.render(position)
        assert space.result_code(position) == game.result(position), game.render(position)


def test_a_forced_pass_and_an_unresolvable_isolation() -> None:
    """Hand position on 3x3, O to move: O on a1 and c1 (each has no neighbour at all, so no
    friend: neither may move) -> O must pass; S on b3 c3 (friends, empty neighbours) can
    still move, so the game is not over."""
    game = Entropy(width=3, height=3, setup="SS./.../.OO O")
    space = EntropySpace(game, symmetry=False)
    position = game.parse(".SS/.../O.O O")
    assert space.moves(position) == [PASS]
    assert space.result_code(position) is None  # S can still move


# ----------------------------------------------------------------------------- ranking
@pytest.mark.parametrize(
    ("width", "height", "setup"),
    [(3, 3, "SS./.../.OO O"), (4, 2, "SS../.OOO O"), (2, 3, "S./../.O O")],
)
def test_ranking_is_a_bijection_without_symmetry(width: int, height: int, setup: str) -> None:
    game = Entropy(width=width, height=height, setup=setup)
    space = EntropySpace(game, symmetry=False)
    space.build_tables()
    cells = width * height
    k1, k2 = game.piece_counts
    assert space.size == 2 * comb(cells, k1) * comb(cells - k1, k2)
    seen = set()
    for o_set in itertools.combinations(range(cells), k1):
        rest = [c for c in range(cells) if c not in o_set]
        for s_set in itertools.combinations(rest, k2):
            for side in (0, 1):
                position = (sum(1 << c for c in o_set), sum(1 << c for c in s_set), side)
                index = space.index(position)
                assert space.position(index) == position
                seen.add(index)
    assert seen == set(range(space.size))


@pytest.mark.parametrize(
    ("width", "height", "setup"),
    [(3, 3, "SS./.../.OO O"), (4, 3, "SS../..../..OO O"), (4, 4, "S.../..../..../..OO O")],
)
def test_symmetric_ranking_has_one_index_per_class(width: int, height: int, setup: str) -> None:
    game = Entropy(width=width, height=height, setup=setup)
    space = EntropySpace(game, symmetry=True)
    space.solve()
    assert space.value is not None
    cells = width * height
    k1, k2 = game.piece_counts
    classes: dict[int, int] = {}
    for o_set in itertools.combinations(range(cells), k1):
        rest = [c for c in range(cells) if c not in o_set]
        for s_set in itertools.combinations(rest, k2):
            for side in (0, 1):
                position = (sum(1 << c for c in o_set), sum(1 << c for c in s_set), side)
                index = space.index(position)
                canonical = space.position(index)
                images = {game.transform(position, s) for s in range(game.symmetry_count)}
                assert canonical in images
                assert space.value[index] != DUPLICATE
                assert classes.setdefault(game.canonical_key(position), index) == index
    used = {index for index in range(space.size) if space.value[index] != DUPLICATE}
    assert used == set(classes.values())
    assert len(set(classes.values())) == len(classes)


# -------------------------------------------------------------------------- retrograde
@pytest.mark.parametrize("game", AGREEMENT_BOARDS, ids=lambda g: f"{g.width}x{g.height}-{g.goal}")
def test_every_reachable_position_agrees_with_the_python_retrograde(game: Entropy) -> None:
    solution = retrograde(game, symmetry=False, keep_positions=True)
    spaces = [EntropySpace(game, symmetry=s) for s in (False, True)]
    for space in spaces:
        space.solve()
    decided = 0
    for node in range(len(solution)):
        position = solution.position_of(node)
        expected = (Outcome(int(solution.outcomes[node])), solution.remoteness(position))
        decided += expected[0] != Outcome.DRAW
        for space in spaces:
            assert space.value_of(position) == expected, game.render(position)
    assert decided > len(solution) // 4  # wins and losses, not only draws, were compared


#: Spaces with many symmetric placements: a decided child or parent with a non-trivial
#: stabiliser is where one un-move stands for several moves (the weights of
#: solvers.kernels.entropy.child_updates) or the every-image fallback runs.
SYMMETRIC_SPACES = [
    Entropy(width=3, height=3, setup="SSS/.../OOO O"),
    Entropy(width=3, height=3, setup="SSS/.../OOO O", goal="disable"),
    Entropy(width=3, height=3, setup="SS./.../.OO O", goal="disable"),
    Entropy(width=4, height=4, setup="SS../..../..../..OO O"),
    Entropy(width=4, height=4, setup="S.../..../..../..OO O", goal="disable"),
    Entropy(width=4, height=3, setup="SSS./..../.OOO O"),  # rectangle: 4 symmetries
    Entropy(width=5, height=3, setup="SS.../...../...OO O"),
]


def stabiliser_order(game: Entropy, position: EntropyPosition) -> int:
    return sum(game.transform(position, s) == position for s in range(game.symmetry_count))


@pytest.mark.parametrize(
    "game",
    [
        *SYMMETRIC_SPACES,
        pytest.param(  # 320,320 indices
            Entropy(width=4, height=4, setup="SSS./..../..../.OOO O"), marks=pytest.mark.slow
        ),
    ],
    ids=lambda g: f"{g.width}x{g.height}-{g.setup}-{g.goal}",
)
def test_symmetry_changes_no_value_anywhere_in_the_space(game: Entropy) -> None:
    """Every index of the unreduced space (reachable or not, no symmetry: every move counted
    once, no weights) against the reduced space, with decided symmetric positions among
    them (wins and losses both)."""
    full, reduced = EntropySpace(game, symmetry=False), EntropySpace(game, symmetry=True)
    full.solve()
    reduced.solve()
    assert reduced.stats["positions"] < full.stats["positions"] / 2
    symmetric_outcomes = set()
    for index in range(full.size):
        position = full.position(index)
        expected = full.value_of(position)
        assert reduced.value_of(position) == expected, game.render(position)
        if stabiliser_order(game, position) > 1:
            symmetric_outcomes.add(expected[0])
    assert symmetric_outcomes == {Outcome.WIN, Outcome.LOSS, Outcome.DRAW}


@pytest.mark.parametrize(
    "game", SYMMETRIC_SPACES[:4], ids=lambda g: f"{g.width}x{g.height}-{g.setup}-{g.goal}"
)
def test_symmetric_spaces_agree_with_the_python_retrograde(game: Entropy) -> None:
    solution = retrograde(game, symmetry=False, keep_positions=True)
    space = EntropySpace(game, symmetry=True)
    space.solve()
    for node in range(len(solution)):
        position = solution.position_of(node)
        expected = (Outcome(int(solution.outcomes[node])), solution.remoteness(position))
        assert space.value_of(position) == expected, game.render(position)


@pytest.mark.parametrize("game", SYMMETRIC_SPACES[3:6], ids=lambda g: f"{g.width}x{g.height}")
def test_stabiliser_order_matches_the_game_transforms(game: Entropy) -> None:
    space = EntropySpace(game, symmetry=True)
    space.build_tables()
    rng = random.Random(5)
    orders = set()
    for _ in range(400):
        position = random_placement(game, rng)
        o_cells, s_cells, side = position
        index, order = canonical_index_and_stabiliser(
            np.uint64(o_cells), np.uint64(s_cells), side, space.full, space.cfg, space.perm,
            space.binom, space.class_of, space.sym_of, space.rep_mask, space.stab,
        )  # fmt: skip
        assert index == space.index(position)
        assert order == stabiliser_order(game, position), game.render(position)
        orders.add(int(order))
    assert len(orders) > 1


@pytest.mark.parametrize("symmetry", [False, True])
@pytest.mark.parametrize("game", SYMMETRIC_SPACES[3:6], ids=lambda g: f"{g.width}x{g.height}")
def test_one_thread_and_two_threads_and_tiny_rounds_give_the_same_values(
    game: Entropy, symmetry: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parallel scan and the two-phase propagation (frontier split into slices,
    updates applied between rounds) against one thread with the default round size."""
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        serial = EntropySpace(game, symmetry=symmetry)
        serial.solve()
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        monkeypatch.setattr(levels_driver, "UPDATES_PER_SLICE", 1)  # rounds of ~4 children
        monkeypatch.setattr(levels_driver, "MIN_SPLIT", 1)
        parallel = EntropySpace(game, symmetry=symmetry)
        parallel.solve()
    finally:
        numba.set_num_threads(threads)
    assert serial.value is not None and parallel.value is not None
    assert np.array_equal(serial.value, parallel.value)
    measured = ("propagation_updates", "propagation_seconds_generate_apply")
    for key, expected in serial.stats.items():
        assert key in measured or parallel.stats[key] == expected, key
    assert serial.stats["wins"] > 0 and serial.stats["losses"] > 0


def test_solve_entropy_matches_the_retrograde_result() -> None:
    game = Entropy(width=4, height=3, setup="SS../..../..OO O")
    solution = retrograde(game, keep_positions=True)
    # the reachable position with the longest forced win
    node = max(
        (n for n in range(len(solution)) if solution.outcomes[n] == int(Outcome.WIN)),
        key=lambda n: int(solution.remoteness_array[n]),
    )
    position = solution.position_of(node)
    expected = solution.result(position)
    result = solve_entropy(game, position, remoteness=True)
    assert result.solver == "compiled"
    assert (result.outcome, result.remoteness) == (expected.outcome, expected.remoteness)
    assert result.remoteness is not None and result.remoteness >= 3
    assert [m.as_dict() for m in result.moves] == [m.as_dict() for m in expected.moves]
    assert result.best_moves == expected.best_moves
    assert len(result.principal_variation) == result.remoteness
    assert result.extra["ranked_indices"] >= result.positions
    assert set(result.extra["seconds_per_phase"]) == {"tables", "scan", "propagate"}
    plain = solve_entropy(game, position, remoteness=False, principal_variation=False)
    assert plain.remoteness is None and plain.outcome == expected.outcome
    assert plain.principal_variation == []


def test_progress_is_reported() -> None:
    reports: list[dict[str, Any]] = []
    solve_entropy(Entropy(width=3, height=3, setup="SS./.../.OO O"), progress=reports.append)
    assert {r["phase"] for r in reports} >= {"scan", "propagate"}


# ------------------------------------------------------------------------------ refusals
def test_refuses_what_cannot_fit_before_allocating() -> None:
    with pytest.raises(ParameterError, match=r"needs .* but only"):
        solve_entropy(Entropy(width=8, height=8))


def test_refuses_other_games_and_foreign_positions() -> None:
    with pytest.raises(ParameterError):
        solve_entropy(Nim(heaps="1,2"))
    game = Entropy(width=3, height=3, setup="SS./.../.OO O")
    with pytest.raises(PositionError):
        solve_entropy(game, (0b111, 0b11 << 6, 0))  # three O pieces in a 2+2 space
    with pytest.raises(PositionError):
        EntropySpace(game).check_position((1, 1, 0))


def test_time_budget() -> None:
    with pytest.raises(RetrogradeBudgetExceeded):
        solve_entropy(Entropy(width=3, height=3, setup="SS./.../.OO O"), max_seconds=0.0)
