"""CGSuite notation against CGSuite itself: the expected outputs of CGSuite's own test suite
(aaron-siegel/cgsuite, lib/core/src/test/scala/org/cgsuite/lang: GameGridTest,
GameTest, CanonicalShortGameTestCase), read as published facts, and hand-computed values of
the notation's less obvious constructs."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgt.algebra import (
    STAR,
    UP,
    CanonicalForm,
    cool,
    heat,
    left_stop,
    mean,
    parse_game,
    right_stop,
    temperature,
)
from cgt.algebra.notation import format_game, sorted_options

F = Fraction

# Texts CGSuite prints (each is its own canonical output): printing our parse must give it back.
CGSUITE_OUTPUTS = [
    # GameGridTest: Domineering 4x4, Amazons, Clobber family, Fox and Geese
    "+-{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}",
    "+-{3,{4|0,{1|0,*}},{4|{0,{1/2|0}|v},+-1,+-{1,{2|0}}}}",
    "{^^*|*,v}",
    "{0,v*|vv}",
    "{^^*|0,*}",
    "^",
    "{*|-1}",
    "*4",
    "{4*|7/2}",
    # GameTest: cooling, heating, overheating, Conway and Norton products, powers
    "*6",
    "^30*2",
    "{^6|^^}",
    "{0||0,*|0,{0,*|0,*2}}",
    "{3||2*|1*}",
    "{11/4||2|3/2}",
    "{5/2|2*}",
    "{19/8|17/8}",
    "9/4*",
    "{7/2|||5/2|3/2||+-1/2}",
    "{4|||3|1||0|-2}",
    "{3*||2|1}",
    "v4",
    "{^^*|v*}",
    "{^^*||0|v4}",
    "{^^*||0|v6}",
    "{1||+-(1*)|-1,{-1|-3}}",
    "{0||0|-2,{0|-2,{0|-2}}}",
    "{0||0,{0|-2,{0|-2}}|-2,{0,{0|-2,{0|-2}}|-2,{0|-2}}}",
    "{Tiny(2)||0|-2|||0|-2}",
    "{Tiny(2)|{0|-2},{Tiny(2)||0|-2}||{0|-2},{Tiny(2)||0|-2}}",
    "{1,{1,+-1|-1}|-1}",
    "+-1",
    # CanonicalShortGameTestCase outputs
    "25/16",
    "*8",
    "v*",
    "6^*",
    "^*6",
    "73/16v9*8",
    "^[4]",  # {0|*||*|||*||||*}: CGSuite at e909ab8 prints generalised ups
    "{0|^<2>}",  # {0||0|v*}
]


@pytest.mark.parametrize("text", CGSUITE_OUTPUTS)
def test_prints_what_cgsuite_prints(text: str) -> None:
    assert str(parse_game(text)) == text


# (input, CGSuite's output, birthday, left stop, right stop, mean, temperature, Left options,
#  Right options), from CanonicalShortGameTestCase
CGSUITE_CASES = [
    ("0", "0", 0, "0", "0", "0", "-1", "{}", "{}"),
    ("5", "5", 5, "5", "5", "5", "-1", "{4}", "{}"),
    ("-1/2", "-1/2", 2, "-1/2", "-1/2", "-1/2", "-1/2", "{-1}", "{0}"),
    ("25/16", "25/16", 6, "25/16", "25/16", "25/16", "-1/16", "{3/2}", "{13/8}"),
    ("*8", "*8", 8, "0", "0", "0", "0", "{0,*,*2,*3,*4,*5,*6,*7}", "{0,*,*2,*3,*4,*5,*6,*7}"),
    ("^", "^", 2, "0", "0", "0", "0", "{0}", "{*}"),
    ("v*", "v*", 2, "0", "0", "0", "0", "{0}", "{0,*}"),
    ("6+^*", "6^*", 8, "6", "6", "6", "0", "{6,6*}", "{6}"),
    ("^*6", "^*6", 8, "0", "0", "0", "0", "{0}", "{*7}"),
    ("73/16+v9*8", "73/16v9*8", 27, "73/16", "73/16", "73/16", "0", "{73/16v8*9}", "{73/16}"),
    ("{0|*||*|||*||||*}", "^[4]", 5, "0", "0", "0", "0", "{^[3]}", "{*}"),
    ("{0||0|v*}", "{0|^<2>}", 4, "0", "0", "0", "0", "{0}", "{^<2>}"),
]


@pytest.mark.parametrize(
    (
        "text",
        "printed",
        "birthday",
        "left",
        "right",
        "expected_mean",
        "expected_temperature",
        "lo",
        "ro",
    ),
    CGSUITE_CASES,
)
def test_cgsuite_unary_cases(
    text: str,
    printed: str,
    birthday: int,
    left: str,
    right: str,
    expected_mean: str,
    expected_temperature: str,
    lo: str,
    ro: str,
) -> None:
    game = parse_game(text)

    def options(is_left: bool) -> str:
        shown = (format_game(CanonicalForm(o)) for o in sorted_options(game.id, is_left))
        return "{" + ",".join(shown) + "}"

    assert str(game) == printed
    assert game.birthday() == birthday
    assert (str(left_stop(game)), str(right_stop(game))) == (left, right)
    assert (str(mean(game)), str(temperature(game))) == (expected_mean, expected_temperature)
    assert (options(True), options(False)) == (lo, ro)


def test_cooling_and_heating_as_cgsuite() -> None:
    """GameTest: ``{3||2+*|1+*}.Cool(t)`` and ``.Heat(t)``."""
    game = parse_game("{3||2+*|1+*}")
    cooled = {"0": "{3||2*|1*}", "1/4": "{11/4||2|3/2}", "1/2": "{5/2|2*}"}
    cooled |= {"5/8": "{19/8|17/8}", "3/4": "9/4*", "70": "9/4"}
    for t, expected in cooled.items():
        assert str(cool(game, t)) == expected
    heated = {"0": "{3||2*|1*}", "1/2": "{7/2|||5/2|3/2||+-1/2}", "1": "{4|||3|1||0|-2}"}
    for t, expected in heated.items():
        assert str(heat(game, t)) == expected
    assert str(heat(game, STAR)) == "{3*||2|1}"


def test_notation_means_what_cgsuite_means() -> None:
    """Hand-built values of the constructs whose reading is easy to get wrong."""
    two_tiny_two = CanonicalForm.from_options(
        [2], [CanonicalForm.from_options([2], [0])]
    )  # {2 || 2 | 0}
    assert parse_game("2Tiny(2)") == two_tiny_two == 2 + parse_game("Tiny(2)")
    assert str(two_tiny_two) == "2Tiny(2)"
    assert parse_game("-1^") == -1 + UP  # a literal: -1 then up, not -(1^)
    assert str(-1 + UP) == "-1^"
    assert parse_game("-1/2Miny(2)") == F(-1, 2) - parse_game("Tiny(2)")
    switch_of_two = CanonicalForm.from_options([1, parse_game("{2|0}")], [-1, parse_game("{0|-2}")])
    assert parse_game("+-{1,{2|0}}") == parse_game("+-(1,{2|0})") == switch_of_two
    assert parse_game("+-{2|1}") == CanonicalForm.from_options(
        [parse_game("{2|1}")], [parse_game("{-1|-2}")]
    )
    one_star = 1 + STAR
    assert parse_game("+-(1*)") == CanonicalForm.from_options([one_star], [-one_star])
    assert parse_game("+-1*") == parse_game("+-1") + STAR  # different game from +-(1*)
    assert parse_game("2+-1") == parse_game("{3|1}")
    assert parse_game("±1") == parse_game("{1|-1}")


def test_four_bars_start_again_in_braces() -> None:
    """CGSuite's maxSlashes = 4: a form whose text needs four bars is braced, so its parent
    starts again at one bar (the audit's example ``{20|{10||9|8|||7||||6}}``)."""
    game = CanonicalForm.from_options([2], [1])
    for top in range(3, 8):
        game = CanonicalForm.from_options([top], [game])
    assert str(game) == "{7||6|{5||||4|||3||2|1}}"
    assert parse_game(str(game)) == game
    audit = parse_game("{20|{10||9|8|||7||||6}}")
    assert audit == CanonicalForm.from_options([20], [parse_game("{10||9|8|||7||||6}")])
    assert str(audit) == "{20|{10||9|8|||7||||6}}"


def _cgsuite_style_games() -> st.SearchStrategy[CanonicalForm]:
    """Random games built from the pieces whose printing has special cases (negative numbers
    with ups, tinies with a number in front, switches of uptimals)."""
    leaves = st.builds(
        CanonicalForm.uptimal,
        st.tuples(st.integers(-4, 4), st.integers(0, 2)).map(lambda p: F(p[0], 2 ** p[1])),
        st.integers(-3, 3),
        st.integers(0, 3),
    )
    tinies = st.builds(
        lambda x, y, sign: x + (parse_game(f"Tiny({y})") if sign else parse_game(f"Miny({y})")),
        st.integers(-2, 2),
        st.sampled_from(["1", "2", "1/2", "{2|1}"]),
        st.booleans(),
    )
    base = st.one_of(leaves, tinies)
    return st.recursive(
        base,
        lambda children: st.one_of(
            st.builds(
                CanonicalForm.from_options,
                st.lists(children, min_size=1, max_size=3),
                st.lists(children, min_size=1, max_size=3),
            ),
            st.builds(
                lambda gs: CanonicalForm.from_options(gs, [-g for g in gs]),
                st.lists(children, min_size=1, max_size=2),
            ),
        ),
        max_leaves=6,
    )


@settings(max_examples=150, deadline=None)
@given(_cgsuite_style_games())
def test_printing_round_trips(game: CanonicalForm) -> None:
    text = str(game)
    assert parse_game(text) == game
    assert str(parse_game(text)) == text
