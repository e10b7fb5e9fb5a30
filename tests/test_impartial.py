"""Sprague-Grundy theory: published Grundy sequences (OEIS A002186-A002188), proved periods,
Bouton's theorem for Nim, and the generic mex calculator against a simple recursion."""

from __future__ import annotations

import json
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


@pytest.mark.parametrize("code", ["0.G", "1.77", "2.7", "0.", "0.000", "kayles", "47"])
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


# CGSuite's GameHeapTest (aaron-siegel/cgsuite e909ab8): normal Grundy values of heaps 1..20,
# CheckPeriodicity(2000) as (period, pre-period), misère Grundy values and genera of heaps
# 0..20. CGSuite abbreviates the genus of tame games (2^2 for 2^20, 1^1 for 1^13, 0 for 0^120)
# by their phylum; the full form is compared through the γ sequence it stands for.
CGSUITE_HEAPS = {
    "0.77": (
        "1,2,3,1,4,3,2,1,4,2,6,4,1,2,7,1,4,3,2,1",
        (12, 71),
        "1,0,2,3,0,1,3,2,1,0,2,4,0,1,2,5,1,6,3,2,0",
        "0,1,2,3,1,4^146,3,2^2,1^1,4^046,2^2,6^46,4^046,1^1,2^2,7^57,1^13,4^64,3^31,2^20,1^031",
    ),
    "0.07": (
        "0,1,1,2,0,3,1,1,0,3,3,2,2,4,0,5,2,2,3,3",
        (34, 53),
        "1,1,0,0,2,1,3,0,0,1,1,3,0,2,1,1,0,0,2,1,3",
        "0,0,1,1,2,0,3,1,1,0,3^1431,3,2^0520,2,4^146,0,5^057,2^0520,2,3^1431,3",
    ),
    "0.0330003": (  # Subtraction([2,3,7])
        "0,1,1,2,0,0,1,1,2,0,0,1,1,2,0,0,1,1,2,0",
        (5, 0),
        "1,1,0,0,2,1,1,0,0,2,1,1,0,0,2,1,1,0,0,2,1",
        "0,0,1,1,2,0,0,1,1,2,0,0,1,1,2,0,0,1,1,2,0",
    ),
    "0.3F": (  # hexadecimal: no period in 2000 values for CGSuite
        "1,2,0,1,2,3,4,5,3,4,5,6,7,8,6,7,8,9,10,11",
        None,
        "1,0,2,1,0,2,1,0,4,1,0,4,1,0,6,1,0,6,1,0,6",
        "0,1,2,0,1,2,3^1431,4^0564,5^46,3^1431,4^0564,5^4875,6^(1,9,10,8),7^075,8^6875,"
        "6^(1,9,10,8),7^075,8^(6,10,8),9^(1,9,12,11,9),10^(0,11,13,9,11),11^(6,10,8)",
    ),
}


def _split_genera(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char == "("
        depth -= char == ")"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]


def _cgsuite_gammas(text: str, count: int) -> list[int]:
    """The γ sequence a CGSuite genus stands for: written digits, then (tame phylum, as
    CGSuite's Genus.supDigit) γk = g xor 2 for odd k and g for even k, with γ0 = 1 - g when
    nothing is written and g < 2."""
    base, _, sup = text.partition("^")
    g = int(base)
    written = [int(x) for x in sup.strip("()").split(",")] if "," in sup else [int(x) for x in sup]
    if len(written) >= 2:
        return [
            written[k] if k < len(written) else written[len(written) - 2 + ((len(written) ^ k) & 1)]
            for k in range(count)
        ]
    gammas = []
    for k in range(count):
        if k < len(written):
            gammas.append(written[k])
        elif k == 0 and g < 2:
            gammas.append(1 - g)
        else:
            gammas.append(g ^ ((k & 1) << 1))
    return gammas


@pytest.mark.parametrize("code", sorted(CGSUITE_HEAPS))
def test_heap_games_as_cgsuite_tabulates_them(code: str) -> None:
    from cgt.algebra.impartial import heap_genus_sequence, octal_moves

    normal, period, misere, genera = CGSUITE_HEAPS[code]
    assert octal_grundy_sequence(code, 21)[1:] == [int(x) for x in normal.split(",")]
    found = octal_periodicity(code)
    if period is None:
        assert found is None
    else:
        assert found is not None and found.proved and (found.period, found.pre_period) == period
    ours = heap_genus_sequence(octal_moves(code), 21)
    assert [g.misere for g in ours] == [int(x) for x in misere.split(",")]
    for genus, theirs in zip(ours, _split_genera(genera), strict=True):
        base, _, sup = theirs.partition("^")
        if len(sup.strip("()").split(",")) >= 2 or len(sup) >= 2:  # written in full by CGSuite
            assert str(genus) == theirs
        assert [genus.gamma(k) for k in range(8)] == _cgsuite_gammas(theirs, 8), theirs
        assert genus.grundy == int(base)


def test_wider_codes_from_published_results() -> None:
    # Daisies, octal 4.7 (a heap may also split in two): "period two sequence *1, *2"
    # (Plambeck, Daisies, Kayles and the Sibert-Conway decomposition, TCS 96, 1992)
    daisies = octal_grundy_sequence("4.7", 60)
    assert daisies[1:] == [1, 2] * 29 + [1]
    found = octal_periodicity("4.7")
    assert found is not None and found.proved and (found.period, found.pre_period) == (2, 1)
    # the subtraction game {1,2,3} is n mod 4 (Winning Ways ch. 4), octal 0.333
    from cgt.algebra.impartial import subtraction_code

    assert subtraction_code([3, 1, 2]) == "0.333"
    assert octal_grundy_sequence("0.333", 40) == [n % 4 for n in range(40)]
    found = octal_periodicity("0.333")
    assert found is not None and (found.period, found.pre_period) == (4, 0)
    # a hexadecimal digit leaves three heaps: 0.8 takes one token and splits the rest in 3
    assert octal_grundy_sequence("0.8", 5) == [0, 0, 0, 0, 1]


def test_value_shows_misere_genus(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_cli import run

    # Kayles heap 5: genus 4^146 in CGSuite's table (misère Grundy value 1)
    code, out, _ = run(capsys, "value", "kayles", "-p", "heaps=5", "--json")
    data = json.loads(out)
    assert code == 0 and (data["grundy"], data["misere_grundy"], data["genus"]) == (4, 1, "4^146")
    code, out, _ = run(capsys, "value", "subtraction", "-p", "set=1,2,3", "-p", "heaps=6", "--json")
    data = json.loads(out)
    assert data["grundy"] == 2 and data["periodicity"]["period"] == 4


@pytest.mark.parametrize(
    ("subtraction_set", "pre_period", "period"),
    [
        # by hand, misère values of a single heap (a finished game has value 1):
        # {1}: 1, 0, 1, 0, ...; {1, 2}: g(0) = 1, g(1) = mex{1} = 0, g(2) = mex{0, 1} = 2,
        # g(3) = mex{2, 0} = 1 = g(0), so 1, 0, 2 repeat from heap 0
        ("1", 0, 2),
        ("1,2", 0, 3),
    ],
)
def test_misere_period_of_subtraction_games_by_hand(
    subtraction_set: str, pre_period: int, period: int
) -> None:
    from cgt.algebra.impartial import misere_periodicity
    from cgt.registry import load_game

    found = misere_periodicity(load_game("subtraction", set=subtraction_set).heap_moves, 60)
    assert found is not None and not found.proved
    assert (found.pre_period, found.period) == (pre_period, period)


def test_misere_nim_heaps_have_no_period() -> None:
    # misère Nim: a heap of n >= 2 has misère value n (every smaller heap is an option, and
    # heaps 0 and 1 have values 1 and 0), so no period can show
    from cgt.algebra.impartial import misere_periodicity
    from cgt.registry import load_game

    assert misere_periodicity(load_game("nim").heap_moves, 100) is None


def test_cgt_value_reports_the_misere_period(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cli_runner import run

    code, out, _ = run(capsys, "value", "subtraction", "-p", "set=1,2", "--json")
    assert code == 0
    found = json.loads(out)["misere_periodicity"]
    assert (found["period"], found["pre_period"], found["proved"]) == (3, 0, False)
