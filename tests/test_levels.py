"""Every plug-in of the engine's packed retrograde by levels (solvers/engine_levels.py,
solvers/levels.py) against its game's readable rules and the pure-Python retrograde.

Two independent roads: :func:`solvers.levels.unmove_disagreements` runs the readable rules on
every index of a small space (the ranking round trip, duplicates, the successor's steps, the
scan's results and move counts, every un-move's parent really moving into the child, the
weights into a parent adding up to its moves); the solved values equal :func:`solvers.retrograde.retrograde` on every
reachable position. The check refutes a plug-in with a dropped un-move, a wrong parent, a
miscounted scan, a successor that skips an index or weights that ignore a parent's symmetry.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cgt.protocol import Outcome
from cgt.registry import load_game
from solvers.engine_levels import UPDATE_SCALE
from solvers.kernels import PLUGINS
from solvers.levels import LevelsRules, outcome_of, solve_levels, unmove_disagreements
from solvers.retrograde import retrograde

LEVELS = {plugin.game: plugin.levels for plugin in PLUGINS if plugin.levels is not None}

#: Small spaces of every levels plug-in: symmetric placements among them (where one un-move
#: stands for several moves), both goals, square and rectangular boards.
LEVELS_CASES = [
    ("entropy", {"width": 3, "height": 3, "setup": "SS./.../.OO O"}),
    ("entropy", {"width": 3, "height": 3, "setup": "SSS/.../OOO O", "goal": "disable"}),
    ("entropy", {"width": 4, "height": 3, "setup": "SS../..../..OO O"}),
    ("entropy", {"width": 4, "height": 4, "setup": "SS../..../..../..OO O"}),
]


def levels_rules(name: str, params: dict[str, Any]) -> LevelsRules:
    return LEVELS[name](load_game(name, **params))


def test_every_levels_plug_in_has_a_case() -> None:
    assert set(LEVELS) == {name for name, _ in LEVELS_CASES}


@pytest.mark.parametrize(("name", "params"), LEVELS_CASES)
def test_ranking_scan_and_unmoves_match_the_readable_rules(name: str, params: dict[str, Any]):
    assert unmove_disagreements(levels_rules(name, params)) == []


@pytest.mark.parametrize(("name", "params"), LEVELS_CASES)
def test_values_equal_the_python_retrograde(name: str, params: dict[str, Any]) -> None:
    rules = levels_rules(name, params)
    value, stats = solve_levels(rules, {}, {})
    solution = retrograde(rules.game, symmetry=False, keep_positions=True)
    outcomes = set()
    for node in range(len(solution)):
        position = solution.position_of(node)
        expected = (Outcome(int(solution.outcomes[node])), solution.remoteness(position))
        assert outcome_of(int(value[rules.index(position)])) == expected, position
        outcomes.add(expected[0])
    assert outcomes == {Outcome.WIN, Outcome.LOSS, Outcome.DRAW}
    assert stats["positions"] >= len(solution) // 8  # the whole space, by classes


def test_the_check_refutes_a_dropped_unmove_a_wrong_parent_a_miscount_a_bad_step() -> None:
    rules = levels_rules(*LEVELS_CASES[0])

    def dropped(index, loses, tables, value, out, count, scratch):  # type: ignore[no-untyped-def]
        written = rules.parents(index, loses, tables, value, out, count, scratch)
        return written - 1 if written > count else written

    def wrong_parent(index, loses, tables, value, out, count, scratch):  # type: ignore[no-untyped-def]
        written = rules.parents(index, loses, tables, value, out, count, scratch)
        if written > count and index % 7 == 0:
            out[count] += UPDATE_SCALE * (1 if out[count] // UPDATE_SCALE == 0 else -1)
        return written

    def miscount(index, state, tables, moves):  # type: ignore[no-untyped-def]
        code = rules.scan(index, state, tables, moves)
        return code + 1 if code > 1 and index % 5 == 0 else code

    def skips(state, tables):  # type: ignore[no-untyped-def]
        return rules.successor(state, tables) and rules.successor(state, tables)

    for broken in (
        replace(rules, parents=dropped),
        replace(rules, parents=wrong_parent),
        replace(rules, scan=miscount),
        replace(rules, successor=skips),
    ):
        assert unmove_disagreements(broken) != []


def test_the_check_refutes_un_moves_that_ignore_a_parents_symmetry() -> None:
    """An un-move into a parent that a symmetry maps onto itself stands for as many of its
    moves as the symmetries fixing it (solvers.kernels.entropy.child_updates); counted as
    one, the parent's moves are not all accounted for."""
    rules = levels_rules(*LEVELS_CASES[3])

    def weight_one(index, loses, tables, value, out, count, scratch):  # type: ignore[no-untyped-def]
        written = rules.parents(index, loses, tables, value, out, count, scratch)
        for i in range(count, written):
            if out[i] % UPDATE_SCALE > 1:
                out[i] -= out[i] % UPDATE_SCALE - 1
        return written

    found = unmove_disagreements(replace(rules, parents=weight_one))
    assert found and all("un-moves into it weigh" in line for line in found)
