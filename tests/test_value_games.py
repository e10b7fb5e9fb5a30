"""``cgt value`` on the games beside Domineering: Super Nonnect's Grundy values against a plain
mex recursion over its rules, Control's values against the exact solver, and Snort's
decomposition into components against hand-computed sums."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from click.testing import CliRunner

from cgt.algebra import STAR, parse_game
from cgt.algebra.values import ValueCalculator, value_of
from cgt.protocol import Outcome
from cgt.registry import load_game
from cgtapp.commands.value import value_command, value_report
from solvers import solve


def plain_grundy(game: Any) -> Any:
    """Second road: mex of the options' values by plain recursion on the rules, no symmetry,
    no components."""

    @cache
    def grundy(position: Any) -> int:
        seen = {grundy(game.play(position, move)) for move in game.moves(position)}
        g = 0
        while g in seen:
            g += 1
        return g

    return grundy


def random_positions(game: Any, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        position = game.initial_position()
        for _ in range(rng.randrange(0, 6)):
            moves = list(game.moves(position))
            if not moves:
                break
            position = game.play(position, rng.choice(moves))
        out.append(position)
    return out


@pytest.mark.parametrize("rule", ["original", "revised"])
def test_super_nonnect_grundy_values_agree_with_plain_mex(rule: str) -> None:
    game = load_game("super-nonnect", a=2, b=2, rule=rule)
    reference = plain_grundy(game)
    calculator = ValueCalculator(game)
    for position in random_positions(game, 25, seed=7):
        value = calculator(position)
        assert value.nim_value() == reference(position)


def test_super_nonnect_through_cgt_value() -> None:
    game = load_game("super-nonnect", a=2, b=2, rule="revised")
    expected = plain_grundy(game)(game.initial_position())
    report = value_report("super-nonnect", {"a": 2, "b": 2, "rule": "revised"}, None)
    assert report["grundy"] == expected
    assert report["canonical"] == (
        "0" if expected == 0 else "*" if expected == 1 else f"*{expected}"
    )
    assert report["outcome"] == ("P" if expected == 0 else "N")
    assert report["temperature"] == ("-1" if expected == 0 else "0")


def test_control_values_agree_with_the_solver() -> None:
    """The outcome class of a value says who wins with either player to move; the exact solver
    checks both, on every position after White's opening on size 2."""
    game = load_game("control", size=2)
    calculator = ValueCalculator(game)
    start = game.initial_position()
    for move in game.moves(start):
        after = game.play(start, move)
        outcome = calculator(after).outcome()
        for side, winners in ((0, "LN"), (1, "RN")):
            result = solve(game, game.with_to_move(after, side))
            assert (result.outcome == Outcome.WIN) == (outcome in winners)


def test_snort_components_add() -> None:
    """By hand: an edge is {1|-1} = +-1 (colouring one end leaves the other to the same
    player only); a lone vertex is {0|0} = *. Disjoint parts add: +-1 + +-1 = 0 because
    +-1 is its own negative, and +-1 + * prints as CGSuite's +-(1*)."""
    edge = value_of(load_game("snort", edges="0-1"))
    assert edge == parse_game("+-1")
    assert value_of(load_game("snort", edges="0-1", n=3)) == edge + STAR
    assert value_report("snort", {"edges": "0-1", "n": 3}, None)["canonical"] == "+-(1*)"
    two_edges = load_game("snort", edges="0-1,2-3")
    assert value_of(two_edges) == 0
    parts = two_edges.components(two_edges.initial_position())
    assert parts is not None and len(parts) == 2
    assert sum((value_of(two_edges, part) for part in parts), start=parse_game("0")) == 0


def test_octal_games_report_their_period() -> None:
    """OEIS A002186, A002187 and Winning Ways: Kayles has period 12 from n = 71; Dawson's Kayles
    has period 34. Heaps 3 and 5 of Kayles: g = 3 xor 4 = 7 (published sequence)."""
    kayles = value_report("kayles", {"heaps": "3,5"}, None)
    assert kayles["grundy"] == 7 and kayles["canonical"] == "*7"
    assert kayles["periodicity"]["period"] == 12
    assert kayles["periodicity"]["pre_period"] == 71 and kayles["periodicity"]["proved"]
    dawson = value_report("dawsons-kayles", {"heaps": "4"}, None)
    assert dawson["grundy"] == 2 and dawson["periodicity"]["period"] == 34
    assert "periodicity" not in value_report("nim", {"heaps": "1,2"}, None)
    text = CliRunner().invoke(value_command, ["octal", "-p", "code=0.77", "-p", "heaps=4"])
    assert text.exit_code == 0 and "period       12 from heap 71" in text.output
