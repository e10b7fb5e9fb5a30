"""Sprague-Grundy theory: published Grundy sequences (OEIS A002186-A002188), proved periods,
Bouton's theorem for Nim, and the generic mex calculator against a simple recursion."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgt.algebra.impartial import (
    detect_period,
    grundy_value,
    grundys_game_moves,
    heap_grundy_sequence,
    mex,
    nim_moves,
    octal_grundy_sequence,
    octal_periodicity,
    parse_octal_code,
)
from cgt.errors import ParameterError
from cgt.registry import load_game

KAYLES = [1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4]
DAWSONS_KAYLES = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3]
GRUNDYS_GAME = [0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]


def test_mex() -> None:
    assert mex([]) == 0 and mex([0, 1, 3]) == 2 and mex([1, 2]) == 0


def test_published_sequences() -> None:
    assert octal_grundy_sequence("0.77", 25)[1:] == KAYLES
    assert octal_grundy_sequence("0.07", 25)[1:] == DAWSONS_KAYLES
    assert heap_grundy_sequence(grundys_game_moves, 21)[1:] == GRUNDYS_GAME
    assert heap_grundy_sequence(nim_moves, 10) == list(range(10))


def test_proved_periods() -> None:
    kayles = octal_periodicity("0.77")
    assert kayles is not None and kayles.proved
    # period 12 from n = 71 (the last exceptional value is g(70))
    assert (kayles.period, kayles.pre_period, kayles.last_exceptional) == (12, 71, 70)
    dawson = octal_periodicity("0.07")
    assert dawson is not None and dawson.period == 34
    # 0.07 heap n is Dawson's chess (0.137) heap n - 1, whose last exception is n = 51
    chess = octal_periodicity("0.137")
    assert chess is not None and (chess.period, chess.last_exceptional) == (34, 51)
    assert dawson.last_exceptional == 52


def test_period_claim_holds_on_more_values() -> None:
    values = octal_grundy_sequence("0.77", 400)
    assert all(values[n + 12] == values[n] for n in range(71, 388))
    assert values[70 + 12] != values[70]


def test_detect_period_on_plain_sequences() -> None:
    found = detect_period([5, 7] + [1, 2, 3] * 5)
    assert found is not None and (found.pre_period, found.period, found.proved) == (2, 3, False)
    assert detect_period([1, 2, 3, 4, 5, 6]) is None


@pytest.mark.parametrize("code", ["0.8", "1.77", "0.", "0.000", "kayles"])
def test_bad_octal_codes(code: str) -> None:
    with pytest.raises(ParameterError):
        parse_octal_code(code)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=1, max_size=4))
def test_bouton(heaps: list[int]) -> None:
    nim = load_game("nim", heaps=",".join(map(str, heaps)))
    xor = 0
    for h in heaps:
        xor ^= h
    assert grundy_value(nim) == xor


@cache
def _simple_octal_grundy(code: str, heaps: tuple[int, ...]) -> int:
    """Grundy value of a whole multi-heap position by plain mex over all its options."""
    digits = [int(c) for c in code[2:]]
    options = set()
    for i, n in enumerate(heaps):
        rest_heaps = heaps[:i] + heaps[i + 1 :]
        for k, digit in enumerate(digits, start=1):
            left = n - k
            splits: list[tuple[int, ...]] = []
            if digit & 1 and left == 0:
                splits.append(())
            if digit & 2 and left > 0:
                splits.append((left,))
            if digit & 4 and left >= 2:
                splits += [(a, left - a) for a in range(1, left)]
            for parts in splits:
                options.add(_simple_octal_grundy(code, tuple(sorted(rest_heaps + parts))))
    return mex(options)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["0.77", "0.07", "0.137", "0.6", "0.51"]),
    st.lists(st.integers(1, 7), max_size=3),
)
def test_generic_calculator_matches_plain_mex(code: str, heaps: list[int]) -> None:
    game = load_game("octal", code=code, heaps=",".join(map(str, heaps)) or "0")
    assert grundy_value(game) == _simple_octal_grundy(code, tuple(sorted(heaps)))
