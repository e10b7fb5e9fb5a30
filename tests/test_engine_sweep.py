"""The engine's ranked retrograde (solvers/engine_sweep.py, solvers/sweep.py) on every plug-in
that ranks a space: its ranking decodes each rank to itself and ranks children alike by the
compiled and the readable rules, and the engine's values over the space are those of the
pure-Python retrograde of the readable rules, position for position; each check refutes a
broken ranking."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from numba import njit

from cgt.protocol import Game
from cgt.registry import load_game
from solvers.engine_sweep_defaults import OUTSIDE, TRANSIENT
from solvers.kernels import PLUGINS, plugin_of
from solvers.kernels.tier_index import locate
from solvers.retrograde import retrograde
from solvers.sweep import RankedSpace, SweepEngine, ranked_space_of, ranking_disagreements

pytest.importorskip("numba")

#: Small games of every plug-in with a ranked space, whose every position the pure-Python
#: retrograde solves in seconds.
RANKED_CASES = [
    ("lag", {"size": 3, "setup": "B.B/..../...../..../W.W W"}),
    ("lag", {"size": 3, "setup": "B.B/..../...../.W../W.W W", "goal": "far-row"}),
    ("lag", {"size": 2, "setup": "BB/.../WW W", "goal": "strict"}),
    ("interleave", {"size": 2}),
    ("interleave", {"size": 2, "win": "groups", "first": "black"}),
    ("interleave", {"size": 2, "turns": "loser", "setup": "R./.B./.."}),
    ("interleave", {"size": 2, "turns": "loser", "win": "groups"}),
]


def space_of(name: str, params: dict[str, Any]) -> tuple[Game[Any, Any], RankedSpace]:
    game = load_game(name, **params)
    plugin = plugin_of(game)
    assert plugin is not None
    space = ranked_space_of(plugin, game)
    assert space is not None
    return game, space


def value_mismatches(game: Game[Any, Any], space: RankedSpace) -> list[str]:
    """Positions the start reaches where the engine's values over the whole space and the
    pure-Python retrograde (readable rules, no symmetry) differ."""
    engine = SweepEngine(space)
    engine.solve_range(0, space.size)
    solution = retrograde(game, symmetry=False, keep_positions=True)
    wrong = []
    for node in range(len(solution)):
        position = solution.position_of(node)
        state = space.rules.encode(position)
        index = space.rank_of(state)
        if index == TRANSIENT:
            value = engine.solve_root(state)
        else:
            value = space.value_of_record(int(engine.records[index]))  # type: ignore[assignment]
        if value != (solution.outcome(position), solution.remoteness(position)):
            wrong.append(game.render(position))
    return wrong


def test_every_plug_in_with_a_ranked_space_is_checked() -> None:
    ranked = {p.game for p in PLUGINS if p.ranked_space is not None or p.tier_module}
    assert ranked and ranked <= {name for name, _ in RANKED_CASES}


@pytest.mark.parametrize(("name", "params"), RANKED_CASES)
def test_ranks_decode_to_themselves_and_children_rank_alike(
    name: str, params: dict[str, Any]
) -> None:
    _, space = space_of(name, params)
    assert ranking_disagreements(space, samples=400, seed=3) == []


@pytest.mark.parametrize(("name", "params"), RANKED_CASES)
def test_engine_values_are_the_retrograde_values(name: str, params: dict[str, Any]) -> None:
    game, space = space_of(name, params)
    assert value_mismatches(game, space) == []


# ------------------------------------------------------------------ broken rankings
@njit(cache=True)
def rank_without_the_side_to_move(state: np.ndarray, tables: Any) -> np.int64:
    """LAG's tier rank with the side to move dropped (two positions share a rank)."""
    index, _ = locate(state[0], state[1], np.int64(0), tables[5], tables[6], tables[7])
    return index if index >= 0 else np.int64(OUTSIDE)


@njit(cache=True)
def rank_keeping_the_side_when_flipped(state: np.ndarray, tables: Any) -> np.int64:
    """LAG's tier rank, but a position kept as its colour-swapped image keeps its side to
    move (the image of White to move is Black to move): a bijection onto the wrong
    positions, which only the values can refute."""
    side = np.int64(state[2])
    index, flipped = locate(state[0], state[1], side, tables[5], tables[6], tables[7])
    if index < 0:
        return np.int64(OUTSIDE)
    return index - (1 - 2 * side) if flipped else index


def test_the_checks_refute_broken_rankings() -> None:
    name, params = RANKED_CASES[1]
    game, space = space_of(name, params)
    dropped = replace(space, rank=rank_without_the_side_to_move)
    assert any("decodes to" in line for line in ranking_disagreements(dropped, samples=200))
    # children ranked by the broken rank too (the plug-in's child_rank follows the right one)
    unswapped = replace(space, rank=rank_keeping_the_side_when_flipped, child_rank=None)
    assert ranking_disagreements(unswapped, samples=200) == []  # consistent, yet wrong:
    assert value_mismatches(game, unswapped)


@njit(cache=True)
def children_key_without_the_side_to_move(state: np.ndarray, tables: Any) -> np.int64:
    """Interleave's children key with the side to move dropped: the two sides' placements
    of one placement share a key."""
    return np.int64(state[4]) if state[3] < 2 else np.int64(-1)


def test_the_checks_refute_a_broken_children_key() -> None:
    name, params = RANKED_CASES[3]  # Interleave, turns=pass
    game, space = space_of(name, params)
    assert space.children_key is not None
    assert value_mismatches(game, space) == []
    broken = replace(space, children_key=children_key_without_the_side_to_move)
    assert any("two movers" in line for line in ranking_disagreements(broken, samples=50))
    assert value_mismatches(game, broken)


def test_a_path_deeper_than_the_stack_is_refused_and_a_stopped_solve_resumes() -> None:
    from cgt.errors import ParameterError
    from solvers.budget import SearchBudgetExceeded

    name, params = RANKED_CASES[0]
    game, space = space_of(name, params)
    with pytest.raises(ParameterError, match="longer than 2 plies"):
        SweepEngine(space, max_ply=2).solve_root(space.rules.encode(game.initial_position()))
    whole = SweepEngine(space)
    whole.solve_range(0, space.size)
    stopped = SweepEngine(space)
    stopped.slice_nodes = 50
    stopped.deadline = 0.0  # passed: the first slice that does not finish stops
    with pytest.raises(SearchBudgetExceeded):
        stopped.solve_range(0, space.size)
    assert 0 < np.count_nonzero(stopped.records) < space.size
    stopped.deadline = None
    stopped.solve_range(0, space.size)
    assert np.array_equal(stopped.records, whole.records)


@pytest.mark.parametrize(("name", "params"), [RANKED_CASES[0], RANKED_CASES[3]])
def test_slices_of_one_node_write_the_records_of_one_slice(
    name: str, params: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # every node a slice: the pass stops and resumes at every point of its stack
    import solvers.sweep

    _, space = space_of(name, params)
    whole = SweepEngine(space)
    whole.slice_nodes = 1 << 40
    whole.solve_range(0, space.size)
    monkeypatch.setattr(solvers.sweep, "SLICE_SECONDS", 0.0)
    monkeypatch.setattr(solvers.sweep, "MIN_SLICE_NODES", 1)
    sliced = SweepEngine(space)
    sliced.slice_nodes = 1
    sliced.solve_range(0, space.size)
    assert np.array_equal(sliced.records, whole.records)
