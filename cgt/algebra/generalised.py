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
    le_id,
    left_options_id,
    negate_id,
    number_id,
    right_options_id,
    uptimal_id,
    uptimal_of_id,
)
from cgt.algebra.thermograph import ordinal_sum
from cgt.errors import ParameterError

_UP = CanonicalForm.uptimal(0, 1, 0)


def _base_right(game: CanonicalForm) -> int:
    left, right = left_options_id(game.id), right_options_id(game.id)
    if len(left) != 1 or len(right) != 1 or uptimal_of_id(left[0]) != (Fraction(0), 0, 0):
        raise ParameterError("invalid base for `Pow` operation (base must be of the form {0|H})")
    return right[0]


@cache
def subordinate(g: int, base: int) -> int:
    """CGSuite's ``G.Subordinate(B)``: ``G`` rewritten over the base ``B``, dropping every
    option of ``G`` that is an option of ``B`` (``n.Subordinate(1) = n - 1`` for integers,
    ``(7/4).Subordinate(1) = 3/4``); the inverse of the ordinal sum ``B : X``."""
    lo, ro = left_options_id(g), right_options_id(g)
    for bl in left_options_id(base):
        if not any(le_id(bl, gl) for gl in lo) and not any(
            le_id(blr, g) for blr in right_options_id(bl)
        ):
            raise ParameterError("that game cannot be subordinated to the specified base")
    for br in right_options_id(base):
        if not any(le_id(gr, br) for gr in ro) and not any(
            le_id(g, brl) for brl in left_options_id(br)
        ):
            raise ParameterError("that game cannot be subordinated to the specified base")
    base_left, base_right = set(left_options_id(base)), set(right_options_id(base))
    return canonical_id(
        [subordinate(gl, base) for gl in lo if gl not in base_left],
        [subordinate(gr, base) for gr in ro if gr not in base_right],
    )


@cache
def _power_to(g: int, x: int) -> int:
    """``G^{->x} = G : x.Subordinate(1)`` (CGSuite's ``PowTo``; for an integer ``n``,
    ``G^{->n} = {G^{->(n-1)} | H}``); ``G^{->0} = 0``."""
    if x == number_id(0):
        return x
    try:
        exponent = subordinate(x, number_id(1))
    except ParameterError:
        raise ParameterError("invalid exponent") from None
    return ordinal_sum(g, exponent)


@cache
def _power(g: int, x: int) -> int:
    """``G^x = {0 | H - G^{->(x-1)}}`` for ``G = {0 | H}`` (CGSuite's ``Pow``)."""
    h = right_options_id(g)[0]
    return canonical_id(
        [number_id(0)], [add_id(h, negate_id(_power_to(g, add_id(x, number_id(-1)))))]
    )


def power(
    game: CanonicalForm, x: CanonicalForm | int, *, cumulative: bool = False
) -> CanonicalForm:
    """``G^x`` (``cumulative``: ``G^{->x}``) for a number ``x`` (CGSuite's ``Pow`` needs
    ``G = {0 | H}``, ``PowTo`` any ``G``)."""
    exponent = x if isinstance(x, CanonicalForm) else CanonicalForm.number(x)
    if not exponent.is_number():
        raise ParameterError(f"invalid exponent: {exponent} (only numbers)")
    if not cumulative:
        _base_right(game)
        return CanonicalForm(_power(game.id, exponent.id))
    return CanonicalForm(_power_to(game.id, exponent.id))


def generalised_up(n: int, *, cumulative: bool = False) -> CanonicalForm:
    """``^<n>`` (``cumulative``: ``^[n]``)."""
    return power(_UP, n, cumulative=cumulative)


@cache
def _generalised_id(n: int, cumulative: bool) -> int:
    return generalised_up(n, cumulative=cumulative).id


Expansion = tuple[Fraction, tuple[int, ...], int]
"""``(x, (a_1, ..., a_k), m)``: ``x + a_1.^<1> + ... + a_k.^<k> + *m`` with ``a_k != 0``."""


@cache
def expansion(g: int) -> Expansion | None:
    """CGSuite's uptimal expansion of ``g``, or ``None`` when ``g`` is not an uptimal.

    How it is found (after CGSuite's ``uptimalExpansion``): ``x + n.^ + *m`` is known from the
    table; otherwise an uptimal whose last coefficient is positive has exactly one Right
    option, itself an uptimal ``R``, and its expansion is ``R`` with 1 added to each of the
    first ``k`` coefficients and ``*`` added, for ``k`` the length of ``R`` or one more than
    the longest expansion among the Left options. Each candidate is confirmed by building
    its canonical form and comparing ids; a negative last coefficient is the same on ``-g``.
    """
    tag = uptimal_of_id(g)
    if tag is not None:
        x, n, m = tag
        return x, ((n,) if n else ()), m
    for sign, h in ((1, g), (-1, negate_id(g))):
        found = _positive_expansion(h)
        if found is not None:
            x, coefficients, m = found
            return sign * x, tuple(sign * a for a in coefficients), m
    return None


def _positive_expansion(g: int) -> Expansion | None:
    right = right_options_id(g)
    if len(right) != 1:
        return None
    below = expansion(right[0])
    if below is None:
        return None
    x, coefficients, star = below
    longest = 0
    for option in left_options_id(g):
        found = expansion(option)
        if found is None or found[0] != x:
            return None
        longest = max(longest, len(found[1]))
    lengths = [len(coefficients)] if coefficients and coefficients[-1] > 0 else []
    lengths.append(max(len(coefficients), longest) + 1)
    for length in lengths:
        raised = (
            tuple((coefficients[i] if i < len(coefficients) else 0) + 1 for i in range(length))
            + coefficients[length:]
        )
        while raised and raised[-1] == 0:
            raised = raised[:-1]
        if raised and raised[-1] > 0 and expansion_id((x, raised, star ^ 1)) == g:
            return x, raised, star ^ 1
    return None


@cache
def expansion_id(found: Expansion) -> int:
    """Id of ``x + a_1.^<1> + ... + a_k.^<k> + *m``."""
    x, coefficients, m = found
    k = len(coefficients)
    if k >= 2 and abs(coefficients[-1]) == 1:
        # ^[k] and ^<k> (and their negatives) directly: a sum of k terms would be built
        # level by level for every level of a chain such as ^<500>
        unit_sum = all(a == coefficients[-1] for a in coefficients)
        single = all(a == 0 for a in coefficients[:-1])
        if unit_sum or single:
            return uptimal_with_generalised(x, k * coefficients[-1], "[]" if unit_sum else "<>", m)
    total = uptimal_id((x, coefficients[0] if coefficients else 0, m))
    for i, a in enumerate(coefficients[1:], start=2):
        unit = _generalised_id(i, False)
        if a < 0:
            unit = negate_id(unit)
        for _ in range(abs(a)):
            total = add_id(total, unit)
    return total


def generalised_parts(g: int) -> tuple[Fraction, int, str, int] | None:
    """``(x, n, kind, m)`` when CGSuite prints ``g`` compactly with a generalised up:
    ``x +- ^<|n|> + *m`` (kind ``"<>"``: one non-zero coefficient, +-1, at ``|n| >= 2``) or
    ``x +- ^[|n|] + *m`` (kind ``"[]"``: ``a_1 = ... = a_n = +-1``, ``|n| >= 2``); the sign
    of ``n`` is the sign of the ups. ``None`` otherwise."""
    if uptimal_of_id(g) is not None:
        return None
    found = expansion(g)
    if found is None:
        return None
    x, coefficients, m = found
    k = len(coefficients)
    if k < 2:
        return None
    sign = 1 if coefficients[-1] > 0 else -1
    if all(a == 0 for a in coefficients[:-1]) and abs(coefficients[-1]) == 1:
        return x, sign * k, "<>", m
    if all(a == coefficients[0] for a in coefficients) and abs(coefficients[0]) == 1:
        return x, sign * k, "[]", m
    return None


def uptimal_with_generalised(x: Fraction, n: int, kind: str, m: int) -> int:
    """Id of ``x +- ^<n> + *m`` (or ``^[n]``), ``n`` signed."""
    unit = _generalised_id(abs(n), kind == "[]")
    if n < 0:
        unit = negate_id(unit)
    return add_id(unit, uptimal_id((x, 0, m)))
