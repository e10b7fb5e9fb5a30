"""Temperature theory against hand computations from the definitions (Siegel ch. II)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgt.algebra import (
    STAR,
    UP,
    ZERO,
    CanonicalForm,
    atomic_weight,
    cool,
    heat,
    left_stop,
    mean,
    parse_game,
    reduced_canonical_form,
    right_stop,
    temperature,
    thermograph,
)
from cgt.errors import ParameterError

F = Fraction


@pytest.mark.parametrize(
    ("text", "left", "right", "expected_mean", "expected_temperature"),
    [
        ("+-1", 1, -1, 0, 1),
        ("{2|-1/2}", 2, F(-1, 2), F(3, 4), F(5, 4)),  # 2 - t = -1/2 + t at t = 5/4
        ("{3||2|1}", 3, 2, F(9, 4), F(3, 4)),  # 3 - t meets 3/2 + t (after {2|1} freezes)
        ("{1|0}", 1, 0, F(1, 2), F(1, 2)),
        ("^", 0, 0, 0, 0),
        ("*", 0, 0, 0, 0),
        ("1/2", F(1, 2), F(1, 2), F(1, 2), F(-1, 2)),
        ("3", 3, 3, 3, -1),
        ("3/8", F(3, 8), F(3, 8), F(3, 8), F(-1, 8)),
    ],
)
def test_stops_mean_temperature(
    text: str, left: F, right: F, expected_mean: F, expected_temperature: F
) -> None:
    game = parse_game(text)
    assert (left_stop(game), right_stop(game)) == (left, right)
    assert (mean(game), temperature(game)) == (expected_mean, expected_temperature)


def test_thermograph_walls_of_a_switch() -> None:
    graph = thermograph(parse_game("{2|-1/2}"))
    assert graph.left_wall(0) == 2 and graph.right_wall(0) == F(-1, 2)
    assert graph.left_wall(1) == 1 and graph.right_wall(1) == F(1, 2)
    assert graph.left_wall(5) == graph.right_wall(5) == F(3, 4)


def test_cooling_and_heating() -> None:
    assert cool(parse_game("+-1"), 1) == STAR  # {1-1 | -1+1}
    assert cool(parse_game("+-1"), F(1, 2)) == parse_game("+-1/2")
    assert cool(parse_game("+-1"), 2) == ZERO  # frozen at the mean
    assert cool(parse_game("{2|-1/2}"), 2) == CanonicalForm.number(F(3, 4))
    assert cool(parse_game("7/4"), 3) == parse_game("7/4")  # numbers do not cool
    assert heat(STAR, 1) == parse_game("+-1")
    assert heat(cool(parse_game("+-3"), 1), 1) == parse_game("+-3")
    with pytest.raises(ParameterError):
        cool(STAR, F(1, 3))


def test_atomic_weights() -> None:
    assert atomic_weight(UP) == 1
    assert atomic_weight(STAR) == 0
    assert atomic_weight(parse_game("^^*")) == 2
    assert atomic_weight(parse_game("v*")) == -1
    with pytest.raises(ParameterError):
        atomic_weight(parse_game("+-1"))


def test_reduced_canonical_form() -> None:
    assert reduced_canonical_form(UP) == ZERO
    assert reduced_canonical_form(parse_game("1*")) == 1
    assert reduced_canonical_form(parse_game("{2|^}")) == parse_game("{2|0}")
    assert reduced_canonical_form(parse_game("+-1")) == parse_game("+-1")
    assert reduced_canonical_form(parse_game("{1*|-1*}")) == parse_game("+-1")


def _games_from(texts: list[str]) -> st.SearchStrategy[CanonicalForm]:
    base = st.sampled_from([parse_game(t) for t in texts])
    return st.recursive(
        base,
        lambda children: st.builds(
            lambda a, b: CanonicalForm.from_options(a, b),
            st.lists(children, min_size=1, max_size=2),
            st.lists(children, min_size=1, max_size=2),
        ),
        max_leaves=6,
    )


partizan_games = _games_from(["0", "1", "-1", "1/2", "*", "2", "-3/2"])
all_small_games = _games_from(["0", "*", "^", "v"])


@settings(max_examples=80, deadline=None)
@given(partizan_games)
def test_thermograph_is_consistent_with_stops(game: CanonicalForm) -> None:
    graph = thermograph(game)
    assert graph.left_wall(0) == left_stop(game)
    assert graph.right_wall(0) == right_stop(game)
    above = max(graph.temperature, F(0)) + 1
    assert graph.left_wall(above) == graph.right_wall(above) == mean(game)
    assert right_stop(game) <= mean(game) <= left_stop(game)


@settings(max_examples=40, deadline=None)
@given(partizan_games, partizan_games)
def test_mean_is_additive(a: CanonicalForm, b: CanonicalForm) -> None:
    assert mean(a + b) == mean(a) + mean(b)


@settings(max_examples=40, deadline=None)
@given(all_small_games, all_small_games)
def test_atomic_weight_is_additive(a: CanonicalForm, b: CanonicalForm) -> None:
    assert atomic_weight(a + b) == atomic_weight(a) + atomic_weight(b)


@settings(max_examples=40, deadline=None)
@given(partizan_games)
def test_reduced_form_differs_by_an_infinitesimal(game: CanonicalForm) -> None:
    difference = game - reduced_canonical_form(game)
    assert left_stop(difference) == 0 and right_stop(difference) == 0


def test_thermograph_as_data_and_as_a_plot() -> None:
    """{2|-1/2} by hand: walls 2 - t and -1/2 + t meet at t = 5/4 on the mast 3/4."""
    import matplotlib

    matplotlib.use("Agg")
    graph = thermograph(parse_game("{2|-1/2}"))
    data = graph.as_dict()
    assert (data["temperature"], data["mast"]) == ("5/4", "3/4")
    assert data["left_wall"]["points"] == [["0", "2"], ["5/4", "3/4"]]
    assert data["right_wall"]["points"] == [["0", "-1/2"], ["5/4", "3/4"]]
    ax = graph.plot()
    left_line, right_line = ax.get_lines()
    assert list(left_line.get_xdata())[:2] == [2.0, 0.75]  # value axis: Left's wall at 2
    assert list(left_line.get_ydata())[:2] == [0.0, 1.25]
    assert list(right_line.get_xdata())[:2] == [-0.5, 0.75]
    assert ax.xaxis_inverted()  # Left's values on the left, as in the literature
    import matplotlib.pyplot as plt

    plt.close(ax.figure)


def test_heating_by_a_game_and_by_a_number() -> None:
    # by hand: * heated by 1 is {0 + 1 | 0 - 1} = +-1, so ^ = {0|*} heated by 1 is
    # {0 + 1 | +-1 - 1} = {1 || 0|-2}
    assert heat(UP, 1) == CanonicalForm.from_options([1], [parse_game("{0|-2}")])
    assert heat(STAR, STAR) == ZERO  # {0 + * | 0 - *} = {*|*} = 0
    with pytest.raises(ParameterError):
        heat(STAR, F(1, 3))
