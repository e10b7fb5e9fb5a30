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


@cache
def generalised_parts(g: int) -> tuple[Fraction, int, str, int] | None:
    """``(x, n, kind, m)`` when ``g = x +- ^<n> + *m`` (kind ``"<>"``) or ``x +- ^[n] + *m``
    (kind ``"[]"``) with ``n >= 2`` (``n`` carries the sign), else ``None``.

    A generalised uptimal with a positive last coefficient has one Right option, a negative
    one one Left option; both stops equal ``x``. Candidates ``n`` run up to the birthday
    bound (``^<n>`` and ``^[n]`` are born on day ``n + 1``) and are confirmed by comparing
    ids; ``g - x -+ ^<n>`` must then be a nimber.
    """
    from cgt.algebra.game import birthday_id
    from cgt.algebra.thermograph import left_stop, right_stop

    if uptimal_of_id(g) is not None:
        return None
    left, right = left_options_id(g), right_options_id(g)
    if len(left) != 1 and len(right) != 1:
        return None
    game = CanonicalForm(g)
    x = left_stop(game)
    if right_stop(game) != x:
        return None
    infinitesimal = add_id(g, number_id(-x))
    top = birthday_id(g)
    for n in range(2, top + 1):
        for kind in ("<>", "[]"):
            unit = _generalised_id(n, kind == "[]")
            for sign, signed_unit in ((1, unit), (-1, negate_id(unit))):
                rest = uptimal_of_id(add_id(infinitesimal, negate_id(signed_unit)))
                if rest is not None and rest[0] == 0 and rest[1] == 0:
                    return x, sign * n, kind, rest[2]
    return None


def uptimal_with_generalised(x: Fraction, n: int, kind: str, m: int) -> int:
    """Id of ``x +- ^<n> + *m`` (or ``^[n]``), ``n`` signed."""
    unit = _generalised_id(abs(n), kind == "[]")
    if n < 0:
        unit = negate_id(unit)
    return add_id(unit, uptimal_id((x, 0, m)))
