"""CGSuite notation for short games: read and write the lingua franca of the field.

Printing follows CGSuite's plain-text output, checked against the expected outputs of
CGSuite's own test suite (``tests/test_algebra_notation.py``):

* numbers ``0``, ``3``, ``-3/4``; nimbers ``*``, ``*2``; a number plus a nimber ``1*``,
  ``1/2*2``;
* ups: ``^``, ``^^`` for double-up, ``^3`` (and higher) for more; ``v``, ``vv``, ``v3`` down;
  followed by the star part and preceded by a number part: ``^*``, ``vv*3``, ``-1^``;
* a switch, a game equal to its own negative ``{A,B,... | -A,-B,...}``, as ``+-A`` for one
  option (``+-1``, ``+-{2|1}``, and ``+-(1*)`` in parentheses when ``A`` is a number plus
  ups or star, so that it cannot be read as ``+-1 + *``) or ``+-{A,B}`` for several;
* generalised ups (:mod:`cgt.algebra.generalised`): ``^<3>`` (up-third), ``^[3]``
  (``^ + ^<2> + ^<3>``), ``v<2>*``, with a number part in front as for ups;
* a number plus a tiny, ``{x || x | x - y}`` (with the mean of ``x - y`` below ``x``, as
  CGSuite decides), as ``xTiny(y)``,
  and its negative as ``-xMiny(y)``; the number is left out when it is 0: ``Tiny(2)``,
  ``2Tiny(2)``, ``Miny(2)``;
* anything else in braces, nested forms with longer bars: ``{3||2|1}``, ``{2|-1/2}``.
  Braces of a compound option are dropped (using one more bar) only when it is the only
  option on its side; a form that needs four bars (CGSuite's ``maxSlashes``) is braced again.
  Options are listed in CGSuite's order: numbers, then nimbers, then uptimals by their
  expansions, then the rest by their own options.

Reading (:func:`parse_game`, by the expression grammar) accepts all of the above, the
Unicode signs (``±``, ``↑``, ``↓``, ``⇑``, ``⇓``), sums
and differences (``1+*``, ``^-*2``, ``2+-1``), parentheses, ``+-(A,B)`` for ``+-{A,B}``, and
repeated ``+-`` (``+-1+-2``). A minus sign directly before a number belongs to it:
``-1^`` is ``-1 + ^``, as CGSuite prints that sum.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from cgt.algebra.game import (
    CanonicalForm,
    add_id,
    install_printers,
    left_options_id,
    negate_id,
    number_of_id,
    right_options_id,
    uptimal_of_id,
)
from cgt.algebra.generalised import expansion, generalised_parts
from cgt.algebra.thermograph import mean

# ------------------------------------------------------------------ printing
MAX_BARS = 4
"""CGSuite's ``maxSlashes``: a form whose text needs this many bars is printed in braces, so
its parent starts again at one bar (``{20|{10||9|8|||7||||6}}``)."""


def _format_number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _format_uptimal(x: Fraction, n: int, m: int, kind: str = "") -> str:
    """``x + n.^ + *m`` (``kind`` ``""``), or ``x +- ^<|n|> + *m`` (``"<>"``) or
    ``x +- ^[|n|] + *m`` (``"[]"``), as CGSuite writes them."""
    ups = ""
    if n != 0:
        arrow = "^" if n > 0 else "v"
        if kind:
            ups = f"{arrow}{kind[0]}{abs(n)}{kind[1]}"
        else:
            ups = arrow * abs(n) if abs(n) <= 2 else f"{arrow}{abs(n)}"
    star = "" if m == 0 else ("*" if m == 1 else f"*{m}")
    number = "" if x == 0 and (ups or star) else _format_number(x)
    return number + ups + star


def format_game(game: CanonicalForm) -> str:
    """CGSuite text of a canonical form: ``{1|-1}`` prints as ``+-1``, ``{2||2|0}`` as
    ``2Tiny(2)``, ``{3||2|1}`` in braces."""
    return _format(game.id, True, False)[0]


@cache
def order_key(g: int) -> tuple[Any, ...]:
    """Sort key of a canonical form among the options of a printed game (CGSuite's
    ``DeterministicOrdering``): numbers first, ascending; then nimbers, ascending; then
    uptimals by their expansions (number part, then the coefficients of ``^<1>, ^<2>, ...``
    lexicographically, then the length, then the nimber); then every other form by its
    sorted Left options, then its sorted Right options, compared lexicographically."""
    x = number_of_id(g)
    if x is not None:
        return (0, x)
    found = expansion(g)
    if found is not None:
        number, coefficients, m = found
        if number == 0 and not coefficients:
            return (1, m)
        # Java's compareTo: common prefix of coefficients, then length, then nimber
        return (2, number, _CoefficientOrder(coefficients), m)
    return (
        3,
        tuple(sorted(order_key(o) for o in left_options_id(g))),
        tuple(sorted(order_key(o) for o in right_options_id(g))),
    )


class _CoefficientOrder:
    """Coefficients compared as CGSuite's ``UptimalExpansion.compareTo``: the first
    difference in the common prefix, else the shorter first."""

    __slots__ = ("values",)

    def __init__(self, values: tuple[int, ...]) -> None:
        self.values = values

    def __lt__(self, other: _CoefficientOrder) -> bool:
        for a, b in zip(self.values, other.values):
            if a != b:
                return a < b
        return len(self.values) < len(other.values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _CoefficientOrder) and self.values == other.values

    def __hash__(self) -> int:
        return hash(self.values)


def sorted_options(g: int, left: bool) -> list[int]:
    """Left (or Right) options of ``g`` in CGSuite's printing order."""
    return sorted(left_options_id(g) if left else right_options_id(g), key=order_key)


def _format(g: int, braces: bool, parens: bool) -> tuple[str, int]:
    """Text of the form ``g`` and its bar count (0 when the text stands alone).

    ``braces``: a compound form must come in braces (the top level, and each option on a side
    with several); otherwise a lone option's bars are returned so the parent uses one more.
    ``parens``: the form follows ``+-`` and must not run into what follows it.
    """
    tag = uptimal_of_id(g)
    generalised = None if tag is not None else generalised_parts(g)
    if tag is not None or generalised is not None:
        if tag is not None:
            x, n, m = tag
            text, kind = _format_uptimal(x, n, m), ""
        else:
            assert generalised is not None
            x, n, kind, m = generalised
            text = _format_uptimal(x, n, m, kind)
        # CGSuite's isCompact: a number, a nimber, or ups alone need no parentheses
        plain = (n == 0 and m == 0) or (x == 0 and n == 0) or (x == 0 and m == 0)
        if parens and not plain:  # +-(1*), +-(^*)
            text = f"({text})"
        return text, 0
    if negate_id(g) == g:  # a switch: G = -G, so G = {A, B, ... | -A, -B, ...}
        lefts = sorted_options(g, left=True)
        if len(lefts) == 1:
            return "+-" + _format(lefts[0], True, True)[0], 0
        return "+-{" + ",".join(_format(o, True, False)[0] for o in lefts) + "}", 0
    tiny = number_tiny(g)
    if tiny is not None:
        text = tiny
        return (f"({text})" if parens else text), 0
    sides = []
    bars = 1
    for left in (True, False):
        options = sorted_options(g, left)
        parts = []
        for option in options:
            text, depth = _format(option, len(options) > 1, False)
            bars = max(bars, depth + 1)
            parts.append(text)
        sides.append(",".join(parts))
    text = sides[0] + "|" * bars + sides[1]
    if braces or bars >= MAX_BARS:
        return "{" + text + "}", 0
    return text, bars


def number_tiny(g: int) -> str | None:
    """``xTiny(y)`` or ``xMiny(y)`` when ``g`` is a number plus a tiny (or miny), else None.

    ``x + Tiny(y) = {x || x | x - y}`` for a number ``x`` and a game ``y`` whose ``x - y``
    has a mean below ``x`` (CGSuite's ``isNumberTiny``: by the mean, not the stops); the
    subscript ``y`` is printed as a game of its own, the number ``x`` in front when not 0.
    """
    for game, name, sign in ((g, "Tiny", 1), (negate_id(g), "Miny", -1)):
        parts = _tiny_parts(game)
        if parts is not None:
            translate, subscript = parts
            prefix = "" if translate == 0 else _format_number(sign * translate)
            return f"{prefix}{name}({_format(subscript, True, False)[0]})"
    return None


def _tiny_parts(g: int) -> tuple[Fraction, int] | None:
    """``(x, y)`` when ``g = {x || x | x - y}`` with the conditions of :func:`number_tiny`."""
    left, right = left_options_id(g), right_options_id(g)
    if len(left) != 1 or len(right) != 1:
        return None
    x = number_of_id(left[0])
    if x is None:
        return None
    inner_left, inner_right = left_options_id(right[0]), right_options_id(right[0])
    if len(inner_left) != 1 or len(inner_right) != 1 or inner_left[0] != left[0]:
        return None
    if not mean(CanonicalForm(inner_right[0])) < x:
        return None
    return x, add_id(left[0], negate_id(inner_right[0]))


_LATEX = [
    ("+-", r"\pm "),
    ("Tiny(", r"\mathrm{Tiny}("),
    ("Miny(", r"\mathrm{Miny}("),
    ("^", r"\uparrow "),
    ("v", r"\downarrow "),
    ("*", r"\ast "),
    ("{", r"\{"),
    ("}", r"\}"),
    ("|", r"\mid "),
    ("<", r"\langle "),
    (">", r"\rangle "),
]
_HTML = [
    ("+-", "±"),
    ("^", "↑"),
    ("v", "↓"),
    ("<", "&lt;"),
    (">", "&gt;"),
]


def _translate(text: str, table: list[tuple[str, str]]) -> str:
    """Replace the symbols of CGSuite's plain text (longest first, one pass)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        for plain, rendered in table:
            if text.startswith(plain, i):
                out.append(rendered)
                i += len(plain)
                break
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def format_latex(game: CanonicalForm) -> str:
    """LaTeX of the CGSuite text (``\\uparrow\\ast`` for ``^*``), without the dollars."""
    return _translate(format_game(game), _LATEX)


def format_html(game: CanonicalForm) -> str:
    """HTML of the CGSuite text with arrows and ``±`` as Unicode signs."""
    return f"<code>{_translate(format_game(game), _HTML)}</code>"


install_printers(text=format_game, latex=format_latex, html=format_html)
