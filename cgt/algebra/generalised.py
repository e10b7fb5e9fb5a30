"""Ordinal powers of games of the form ``{0 | H}`` and the generalised ups ``^<n>``, ``^[n]``.

For ``G = {0 | H}`` (Siegel, *Combinatorial Game Theory*, II.7; CGSuite's ``Pow`` and
``PowTo``)::

    G^{->0} = 0,   G^{->n} = {G^{->(n-1)} | H}          (``G.PowTo(n)``)
    G^1 = G,       G^n = {0 | H - G^{->(n-1)}}          (``G.Pow(n)``)

For ``G = ^ = {0 | *}`` these are ``^[n] = ^<1> + ... + ^<n>`` ("up to the n", cumulative)
and ``^<n>`` ("up-nth"); ``^<1> = ^[1] = ^``, ``^<2> = {0 | v*}`` and ``^[2] = {^ | *}`` CGSuite prints
``x + a_1.^<1> + a_2.^<2> + ... + *m`` with one non-zero ``a_i = +-1`` as ``^<i>``/``v<i>``
and with ``a_1 = ... = a_k = +-1`` as ``^[k]``/``v[k]``; :func:`generalised_parts`
recognises those two shapes for the printer.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from cgt.algebra.game import (
    CanonicalForm,
    add_id,
    canonical_id,
    left_options_id,
    negate_id,
    number_id,
    right_options_id,
    uptimal_id,
    uptimal_of_id,
)
from cgt.errors import ParameterError

_UP = CanonicalForm.uptimal(0, 1, 0)


def _base_right(game: CanonicalForm) -> int:
    left, right = left_options_id(game.id), right_options_id(game.id)
    if len(left) != 1 or len(right) != 1 or uptimal_of_id(left[0]) != (Fraction(0), 0, 0):
        raise ParameterError(f"powers need a base of the form {{0|H}}, not {game}")
    return right[0]


@cache
def _power_to(h: int, n: int) -> int:
    if n == 0:
        return number_id(0)
    return canonical_id([_power_to(h, n - 1)], [h])


@cache
def _power(h: int, n: int) -> int:
    if n == 1:
        return canonical_id([number_id(0)], [h])
    return canonical_id([number_id(0)], [add_id(h, negate_id(_power_to(h, n - 1)))])


def power(game: CanonicalForm, n: int, *, cumulative: bool = False) -> CanonicalForm:
    """``G^n`` (``cumulative``: ``G^{->n}``) for ``G = {0 | H}`` and an integer ``n >= 1``."""
    if n < 1:
        raise ParameterError(f"the exponent must be at least 1, not {n}")
    h = _base_right(game)
    return CanonicalForm(_power_to(h, n) if cumulative else _power(h, n))


def generalised_up(n: int, *, cumulative: bool = False) -> CanonicalForm:
    """``^<n>`` (``cumulative``: ``^[n]``)."""
    return power(_UP, n, cumulative=cumulative)


@cache
def _generalised_id(n: int, cumulative: bool) -> int:
    return generalised_up(n, cumulative=cumulative).id


def expansion(g: int) -> tuple[Fraction, tuple[int, ...], int] | None:
    """CGSuite's uptimal expansion ``(x, (a_1, ..., a_k), m)`` of ``g`` when the toolkit
    knows it: ``x + a_1.^ + *m`` and the generalised ups ``x +- ^<n> + *m``,
    ``x +- ^[n] + *m``; ``None`` otherwise (other expansions, such as ``^^ + ^<2>``, are
    not recognised)."""
    tag = uptimal_of_id(g)
    if tag is not None:
        x, n, m = tag
        return x, ((n,) if n else ()), m
    found = generalised_parts(g)
    if found is None:
        return None
    x, n, kind, m = found
    sign = 1 if n > 0 else -1
    if kind == "<>":
        return x, (0,) * (abs(n) - 1) + (sign,), m
    return x, (sign,) * abs(n), m


@cache
def generalised_parts(g: int) -> tuple[Fraction, int, str, int] | None:
    """``(x, n, kind, m)`` when ``g = x +- ^<|n|> + *m`` (kind ``"<>"``) or
    ``x +- ^[|n|] + *m`` (kind ``"[]"``) with ``|n| >= 2`` (the sign of ``n`` is the sign of
    the ups), else ``None``.

    The shape gives the candidate (CGSuite's ``uptimalExpansion``): a positive one has a
    single Right option, ``x + v[n-1] + *(m^1)`` for ``^<n>`` and ``x + *(m^1)`` for ``^[n]``,
    whose Left options include ``x + ^[n-1] + *m``; a negative one is the negative of a
    positive one. The candidate is confirmed by building it and comparing ids.
    """
    if uptimal_of_id(g) is not None:
        return None
    for sign, h in ((1, g), (-1, negate_id(g))):
        found = _positive_parts(h)
        if found is not None:
            x, n, kind, m = found
            return sign * x, sign * n, kind, m
    return None


def _positive_parts(g: int) -> tuple[Fraction, int, str, int] | None:
    right = right_options_id(g)
    if len(right) != 1:
        return None
    below = expansion(right[0])
    if below is None:
        return None
    x, coefficients, star = below
    candidates: list[tuple[int, str]] = []
    if coefficients and all(a == -1 for a in coefficients):
        candidates.append((len(coefficients) + 1, "<>"))
    if not coefficients:
        for option in left_options_id(g):
            found = expansion(option)
            if found is not None and found[1] and all(a == 1 for a in found[1]):
                candidates.append((len(found[1]) + 1, "[]"))
    for n, kind in candidates:
        if n >= 2 and uptimal_with_generalised(x, n, kind, star ^ 1) == g:
            return x, n, kind, star ^ 1
    return None


def uptimal_with_generalised(x: Fraction, n: int, kind: str, m: int) -> int:
    """Id of ``x +- ^<n> + *m`` (or ``^[n]``), ``n`` signed."""
    unit = _generalised_id(abs(n), kind == "[]")
    if n < 0:
        unit = negate_id(unit)
    return add_id(unit, uptimal_id((x, 0, m)))
