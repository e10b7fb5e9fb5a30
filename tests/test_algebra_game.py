"""Canonical forms: published and hand-computed values, CGSuite notation, and the algebraic
laws checked against a deliberately naive implementation of Conway's definitions."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgt.algebra import STAR, UP, ZERO, CanonicalForm, parse_game, set_fast_paths
from cgt.errors import PositionError

# ------------------------------------------------------------------ a naive reference
# A game is (left options, right options), frozensets of games; nothing is simplified.
Naive = tuple[frozenset, frozenset]
NAIVE_ZERO: Naive = (frozenset(), frozenset())


@cache
def naive_le(g: Naive, h: Naive) -> bool:
    """Conway's definition: G <= H iff no G^L >= H and no H^R <= G."""
    return not any(naive_le(h, gl) for gl in g[0]) and not any(naive_le(hr, g) for hr in h[1])


@cache
def naive_neg(g: Naive) -> Naive:
    return (frozenset(naive_neg(r) for r in g[1]), frozenset(naive_neg(x) for x in g[0]))


@cache
def naive_add(g: Naive, h: Naive) -> Naive:
    return (
        frozenset([naive_add(x, h) for x in g[0]] + [naive_add(g, x) for x in h[0]]),
        frozenset([naive_add(x, h) for x in g[1]] + [naive_add(g, x) for x in h[1]]),
    )


@cache
def to_canonical(g: Naive) -> CanonicalForm:
    return CanonicalForm.from_options(
        [to_canonical(x) for x in g[0]], [to_canonical(x) for x in g[1]]
    )


def naive_games(max_leaves: int = 5) -> st.SearchStrategy[Naive]:
    return st.recursive(
        st.just(NAIVE_ZERO),
        lambda children: st.tuples(
            st.frozensets(children, max_size=2), st.frozensets(children, max_size=2)
        ),
        max_leaves=max_leaves,
    )


def naive_number(x: Fraction) -> Naive:
    """Dyadic number from its definition (integers by successor, m/2^k between neighbours)."""
    if x.denominator == 1:
        if x == 0:
            return NAIVE_ZERO
        return (
            (frozenset([naive_number(x - 1)]), frozenset())
            if x > 0
            else (frozenset(), frozenset([naive_number(x + 1)]))
        )
    step = Fraction(1, x.denominator)
    return (frozenset([naive_number(x - step)]), frozenset([naive_number(x + step)]))


# ------------------------------------------------------------------ known values
@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("{|}", "0"),
        ("{0|}", "1"),
        ("{|0}", "-1"),
        ("{0|1}", "1/2"),
        ("{1/2|1}", "3/4"),
        ("{-1|1}", "0"),  # simplest number between
        ("{0|0}", "*"),
        ("{0,*|0,*}", "*2"),
        ("{0|*}", "^"),
        ("{*|0}", "v"),
        ("{0,*|0}", "^*"),
        ("{0|^*}", "^^"),
        ("{0|^}", "^^*"),
        ("{1|1}", "1*"),
        ("{1|-1}", "+-1"),
        ("{1/2|-1/2}", "+-1/2"),
        ("{2|-1/2}", "{2|-1/2}"),
        ("{3||2|1}", "{3||2|1}"),
        ("{0||0|-2}", "Tiny(2)"),
        ("{2|0||0}", "Miny(2)"),
        ("{0|v}", "*"),  # v reverses out through its left option *
    ],
)
def test_canonical_forms_print_as_cgsuite(text: str, printed: str) -> None:
    assert str(parse_game(text)) == printed


def test_hand_computed_identities() -> None:
    half = CanonicalForm.number(Fraction(1, 2))
    assert half + half == 1
    assert UP + (-UP) == ZERO
    assert STAR + STAR == ZERO
    assert parse_game("^^*") == UP + UP + STAR
    assert parse_game("{0|*}") == UP
    assert parse_game("Tiny(2)") == parse_game("{0||0|-2}")
    assert parse_game("Miny(2)") == -parse_game("Tiny(2)")
    assert parse_game("1/2*2") == half + CanonicalForm.nimber(2)
    # *a + *b = *(a xor b)
    assert CanonicalForm.nimber(3) + CanonicalForm.nimber(5) == CanonicalForm.nimber(6)


def test_order_and_outcome_classes() -> None:
    assert UP > ZERO and STAR.confused_with(ZERO) and not UP.confused_with(ZERO)
    assert parse_game("^*").confused_with(0)  # ^* is fuzzy
    assert parse_game("^^*") > 0  # but ^^* is positive
    assert parse_game("^*2") > 0
    assert [parse_game(t).outcome() for t in ("1", "-1", "*", "0", "+-1", "^", "v")] == [
        "L",
        "R",
        "N",
        "P",
        "N",
        "L",
        "R",
    ]
    assert parse_game("{0|^}").confused_with(STAR) is False  # {0|^} = ^^* > *
    assert parse_game("Tiny(1)") < UP  # tinies are smaller than every positive uptimal


def test_birthdays() -> None:
    assert [parse_game(t).birthday() for t in ("0", "*", "1", "1/2", "^", "*2", "+-1")] == [
        0,
        1,
        1,
        2,
        2,
        2,
        2,
    ]


@pytest.mark.parametrize("bad", ["", "{1|", "{1|2||3|4||5}", "3/5", "1 +", "{a|b}", "^^3"])
def test_malformed_notation_is_a_position_error(bad: str) -> None:
    with pytest.raises(PositionError):
        parse_game(bad)


# ------------------------------------------------------------------ laws against the reference
@settings(max_examples=150, deadline=None)
@given(naive_games(), naive_games())
def test_order_agrees_with_the_definition(g: Naive, h: Naive) -> None:
    assert (to_canonical(g) <= to_canonical(h)) == naive_le(g, h)


@settings(max_examples=150, deadline=None)
@given(naive_games(), naive_games())
def test_canonical_forms_are_unique(g: Naive, h: Naive) -> None:
    equal = naive_le(g, h) and naive_le(h, g)
    assert (to_canonical(g) == to_canonical(h)) == equal


@settings(max_examples=100, deadline=None)
@given(naive_games(4), naive_games(4))
def test_sum_agrees_with_the_definition(g: Naive, h: Naive) -> None:
    total = naive_add(g, h)
    assert to_canonical(g) + to_canonical(h) == to_canonical(total)


@settings(max_examples=100, deadline=None)
@given(naive_games(), naive_games(), naive_games())
def test_group_laws(a: Naive, b: Naive, c: Naive) -> None:
    x, y, z = to_canonical(a), to_canonical(b), to_canonical(c)
    assert x + (-x) == ZERO
    assert x + y == y + x
    assert (x + y) + z == x + (y + z)
    negated = -x
    assert -negated == x
    assert (x <= y) == (y - x >= 0)
    # G <= H exactly when H - G is a second-player win (P, i.e. zero) or a Left win (L)
    assert (x <= y) == ((y - x).outcome() in ("P", "L"))
    assert (x == y) == ((y - x).outcome() == "P")
    assert x.confused_with(y) == ((y - x).outcome() == "N")
    assert CanonicalForm.from_options(x.left_options, x.right_options) == x  # idempotent


@settings(max_examples=100, deadline=None)
@given(naive_games())
def test_notation_round_trip(g: Naive) -> None:
    game = to_canonical(g)
    assert parse_game(str(game)) == game


@settings(max_examples=60, deadline=None)
@given(
    st.tuples(st.integers(-6, 6), st.integers(0, 3)).map(lambda p: Fraction(p[0], 2 ** p[1])),
    st.integers(-3, 3),
    st.integers(0, 4),
)
def test_uptimal_shortcuts_match_plain_sums(x: Fraction, ups: int, star: int) -> None:
    """x + n.^ + *m built by the packed fast path equals the plain sum of its parts."""
    fast = CanonicalForm.uptimal(x, ups, star)
    previous = set_fast_paths(False)
    try:
        plain = to_canonical(naive_number(x)) + UP * ups + CanonicalForm.nimber(star)
        # comparisons without shortcuts agree too
        assert (plain <= 0) == (fast <= 0)
    finally:
        set_fast_paths(previous)
    assert plain == fast
    assert str(fast) == str(plain)


@settings(max_examples=60, deadline=None)
@given(naive_games(4), naive_games(4))
def test_fast_paths_do_not_change_results(g: Naive, h: Naive) -> None:
    x, y = to_canonical(g), to_canonical(h)
    fast = (x + y, x <= y, -x)
    previous = set_fast_paths(False)
    try:
        assert (x + y, x <= y, -x) == fast
    finally:
        set_fast_paths(previous)


# numbers for the comparison shortcuts: small dyadics (exact floats) and ones too fine for a
# float, which keep their Fraction and meet floats in mixed comparisons
FINE = Fraction(1, 2**55)
shortcut_numbers = st.one_of(
    st.tuples(st.integers(-8, 8), st.integers(0, 3)).map(lambda p: Fraction(p[0], 2 ** p[1])),
    st.sampled_from([3 + FINE, 3 - FINE, -1 + FINE, FINE]),
)


@settings(max_examples=150, deadline=None)
@given(
    st.tuples(shortcut_numbers, st.integers(-3, 3), st.integers(0, 3)),
    st.tuples(shortcut_numbers, st.integers(-3, 3), st.integers(0, 3)),
)
def test_uptimal_comparison_shortcut_matches_the_definition(
    g: tuple[Fraction, int, int], h: tuple[Fraction, int, int]
) -> None:
    """x + n.^ + *m <= y + k.^ + *j read off the triples equals Conway's recursion on the
    forms (fast paths off: no triple is looked at)."""
    x, y = CanonicalForm.uptimal(*g), CanonicalForm.uptimal(*h)
    fast = (x <= y, y <= x)
    previous = set_fast_paths(False)
    try:
        assert (x <= y, y <= x) == fast
    finally:
        set_fast_paths(previous)


@settings(max_examples=150, deadline=None)
@given(st.lists(shortcut_numbers, max_size=3), st.lists(shortcut_numbers, max_size=3))
def test_number_options_shortcut_matches_the_reduction(
    left: list[Fraction], right: list[Fraction]
) -> None:
    """{numbers | numbers}: the simplest-number shortcut (cached by its two extreme options)
    gives the form that deleting dominated and reversible options gives."""
    fast = CanonicalForm.from_options(left, right)
    again = CanonicalForm.from_options(list(reversed(left)), right)  # from the cache
    previous = set_fast_paths(False)
    try:
        plain = CanonicalForm.from_options(left, right)
    finally:
        set_fast_paths(previous)
    assert fast == plain == again
    if left and right and max(left) < min(right):
        assert fast.number_value() is not None and max(left) < fast.number_value() < min(right)
