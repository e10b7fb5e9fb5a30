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
* a number plus a tiny, ``{x || x | x - y}`` (with ``x - y`` below ``x``), as ``xTiny(y)``,
  and its negative as ``-xMiny(y)``; the number is left out when it is 0: ``Tiny(2)``,
  ``2Tiny(2)``, ``Miny(2)``;
* anything else in braces, nested forms with longer bars: ``{3||2|1}``, ``{2|-1/2}``.
  Braces of a compound option are dropped (using one more bar) only when it is the only
  option on its side; a form that needs five bars is braced again. Options are listed in
  CGSuite's order: numbers, then nimbers, then the rest by their own options.

Reading accepts all of the above, the Unicode signs (``±``, ``↑``, ``↓``, ``⇑``, ``⇓``), sums
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
    left_options_id,
    negate_id,
    number_of_id,
    right_options_id,
    uptimal_of_id,
)
from cgt.algebra.thermograph import left_stop
from cgt.errors import PositionError

# ------------------------------------------------------------------ printing
MAX_BARS = 5
"""A form needing this many bars is printed in braces, so its parent starts again at one bar
(CGSuite does the same, which keeps deep forms readable)."""


def _format_number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _format_uptimal(x: Fraction, n: int, m: int) -> str:
    ups = ""
    if n != 0:
        arrow = "^" if n > 0 else "v"
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
    """Sort key of a canonical form among the options of a printed game (CGSuite's order):
    numbers first, ascending; then nimbers, ascending; then every other form by its sorted
    Left options, then its sorted Right options, compared lexicographically."""
    x = number_of_id(g)
    if x is not None:
        return (0, x)
    tag = uptimal_of_id(g)
    if tag is not None and tag[0] == 0 and tag[1] == 0:
        return (1, tag[2])
    return (
        2,
        tuple(sorted(order_key(o) for o in left_options_id(g))),
        tuple(sorted(order_key(o) for o in right_options_id(g))),
    )


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
    if tag is not None:
        text = _format_uptimal(*tag)
        x, n, m = tag
        plain = (n == 0 and m == 0) or (x == 0 and n == 0) or (x == 0 and m == 0)
        if parens and not plain:  # +-(1*), +-(^*): a number, nimber or ups needs none
            text = f"({text})"
        return text, 0
    if negate_id(g) == g:  # a switch: G = -G, so G = {A, B, ... | -A, -B, ...}
        lefts = sorted_options(g, left=True)
        if len(lefts) == 1:
            return "+-" + _format(lefts[0], True, True)[0], 0
        return "+-{" + ",".join(_format(o, True, False)[0] for o in lefts) + "}", 0
    tiny = _number_tiny(g)
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


def _number_tiny(g: int) -> str | None:
    """``xTiny(y)`` or ``xMiny(y)`` when ``g`` is a number plus a tiny (or miny), else None.

    ``x + Tiny(y) = {x || x | x - y}`` for a number ``x`` and a game ``y`` with ``x - y``
    below ``x`` even when Left moves first (left stop of ``x - y`` below ``x``); the
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
    """``(x, y)`` when ``g = {x || x | x - y}`` with the conditions of :func:`_number_tiny`."""
    left, right = left_options_id(g), right_options_id(g)
    if len(left) != 1 or len(right) != 1:
        return None
    x = number_of_id(left[0])
    if x is None:
        return None
    inner_left, inner_right = left_options_id(right[0]), right_options_id(right[0])
    if len(inner_left) != 1 or len(inner_right) != 1 or inner_left[0] != left[0]:
        return None
    if not left_stop(CanonicalForm(inner_right[0])) < x:
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


# ------------------------------------------------------------------ parsing
class _Parser:
    """Recursive descent over CGSuite text; errors are :class:`PositionError`."""

    def __init__(self, text: str) -> None:
        self.original = text
        self.text = (
            text.replace("±", "+-")
            .replace("↑", "^")
            .replace("↓", "v")
            .replace("⇑", "^^")
            .replace("⇓", "vv")
            .replace(" ", "")
        )
        self.pos = 0

    def fail(self, problem: str) -> PositionError:
        return PositionError(f"cannot read game {self.original!r}: {problem}")

    def peek(self, count: int = 1) -> str:
        return self.text[self.pos : self.pos + count]

    def parse(self) -> CanonicalForm:
        if not self.text:
            raise self.fail("empty text")
        game = self.expression()
        if self.pos != len(self.text):
            raise self.fail(f"unexpected {self.text[self.pos]!r} at position {self.pos + 1}")
        return game

    def expression(self) -> CanonicalForm:
        total = self.term()
        while self.pos < len(self.text):
            if self.peek(2) == "+-":
                self.pos += 2
                total = total + self.switch()
            elif self.peek() == "+":
                self.pos += 1
                total = total + self.term()
            elif self.peek() == "-":
                self.pos += 1
                total = total - self.term()
            else:
                break
        return total

    def term(self) -> CanonicalForm:
        if self.peek(2) == "+-":
            self.pos += 2
            return self.switch()
        if self.peek() == "-":
            self.pos += 1
            if self.peek().isdigit():
                # "-1^" is the literal -1 + ^ (CGSuite prints it so), not -(1^)
                return self._uptimal(negative=True)
            return -self.term()
        return self.atom()

    def switch(self) -> CanonicalForm:
        """What follows ``+-``: a game ``G`` (``+-G = {G | -G}``), or a list of options
        ``{A,B}`` or ``(A,B)`` (``+-{A,B} = {A,B | -A,-B}``, CGSuite's printing)."""
        opening = self.peek()
        if opening in "{(":
            end = self._matching(self.pos, opening, "}" if opening == "{" else ")")
            inside = self.text[self.pos + 1 : end]
            is_list = (
                not _top_level_has(inside, "|") if opening == "{" else _top_level_has(inside, ",")
            )
            if is_list:
                self.pos = end + 1
                options = [self._sub(part) for part in _split_top_level(inside, ",")]
                return CanonicalForm.from_options(options, [-g for g in options])
        game = self.term()
        return CanonicalForm.from_options([game], [-game])

    def atom(self) -> CanonicalForm:
        char = self.peek()
        if char == "{":
            end = self._matching(self.pos, "{", "}")
            inside = self.text[self.pos + 1 : end]
            self.pos = end + 1
            return self._braced(inside)
        if char == "(":
            end = self._matching(self.pos, "(", ")")
            inner = _Parser(self.text[self.pos + 1 : end])
            inner.original = self.original
            self.pos = end + 1
            return inner.parse()
        tiny = self._tiny()
        if tiny is not None:
            return tiny
        if not char:
            raise self.fail("unexpected end of text")
        if char.isdigit() or char in "^v*":
            return self._uptimal()
        raise self.fail(f"unexpected {char!r} at position {self.pos + 1}")

    def _tiny(self) -> CanonicalForm | None:
        """``Tiny(G) = {0 || 0 | -G}`` or ``Miny(G) = -Tiny(G)`` at the cursor, if there."""
        for name, sign in (("Tiny(", 1), ("Miny(", -1)):
            if self.text.startswith(name, self.pos):
                end = self._matching(self.pos + len(name) - 1, "(", ")")
                inner = _Parser(self.text[self.pos + len(name) : end])
                inner.original = self.original
                self.pos = end + 1
                x = inner.parse()
                tiny = CanonicalForm.from_options([0], [CanonicalForm.from_options([0], [-x])])
                return tiny if sign > 0 else -tiny
        return None

    def _digits(self) -> str:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos].isdigit():
            self.pos += 1
        return self.text[start : self.pos]

    def _uptimal(self, negative: bool = False) -> CanonicalForm:
        """``x``, ``x^``, ``xv3*2``, ...; a number may be followed directly by a tiny or a
        miny (``2Tiny(2)``). ``negative``: a minus sign before the number was read."""
        number = Fraction(0)
        digits = self._digits()
        if digits:
            number = Fraction(int(digits))
            if self.peek() == "/" and self.text[self.pos + 1 : self.pos + 2].isdigit():
                self.pos += 1
                denominator = int(self._digits())
                if denominator == 0 or denominator & (denominator - 1):
                    raise self.fail(f"{digits}/{denominator} is not a dyadic rational")
                number = Fraction(int(digits), denominator)
        if negative:
            number = -number
        ups = 0
        if self.peek() in ("^", "v") and self.peek():
            arrow = self.peek()
            count = 0
            while self.peek() == arrow:
                count += 1
                self.pos += 1
            more = self._digits()
            if more:
                if count != 1:
                    raise self.fail("write ^3, not ^^3")
                count = int(more)
            ups = count if arrow == "^" else -count
        star = 0
        if self.peek() == "*":
            self.pos += 1
            more = self._digits()
            star = int(more) if more else 1
        value = CanonicalForm.uptimal(number, ups, star)
        if digits and ups == 0 and star == 0:
            tiny = self._tiny()
            if tiny is not None:
                return value + tiny
        return value

    def _matching(self, start: int, opening: str, closing: str) -> int:
        depth = 0
        for i in range(start, len(self.text)):
            if self.text[i] in "{(":
                depth += 1
            elif self.text[i] in "})":
                depth -= 1
                if depth == 0:
                    if self.text[i] != closing:
                        raise self.fail(f"{opening!r} closed by {self.text[i]!r}")
                    return i
        raise self.fail(f"unclosed {opening!r}")

    def _braced(self, inside: str) -> CanonicalForm:
        """The game ``{inside}``: split at the longest run of bars outside any brackets."""
        runs: list[tuple[int, int]] = []  # (start, length) of top-level bar runs
        depth = 0
        i = 0
        while i < len(inside):
            char = inside[i]
            if char in "{(":
                depth += 1
            elif char in "})":
                depth -= 1
            elif char == "|" and depth == 0:
                j = i
                while j < len(inside) and inside[j] == "|":
                    j += 1
                runs.append((i, j - i))
                i = j
                continue
            i += 1
        if not runs:
            raise self.fail(f"no '|' in {{{inside}}}")
        longest = max(length for _, length in runs)
        splits = [start for start, length in runs if length == longest]
        if len(splits) > 1:
            raise self.fail(f"ambiguous bars in {{{inside}}}")
        left_text = inside[: splits[0]]
        right_text = inside[splits[0] + longest :]
        return CanonicalForm.from_options(self._side(left_text), self._side(right_text))

    def _side(self, text: str) -> list[CanonicalForm]:
        if not text:
            return []
        if _top_level_has(text, "|"):
            return [self._braced(text)]
        return [self._sub(part) for part in _split_top_level(text, ",")]

    def _sub(self, text: str) -> CanonicalForm:
        if not text:
            raise self.fail("empty option")
        inner = _Parser(text)
        inner.original = self.original
        return inner.parse()


def _top_level_has(text: str, char: str) -> bool:
    depth = 0
    for c in text:
        if c in "{(":
            depth += 1
        elif c in "})":
            depth -= 1
        elif c == char and depth == 0:
            return True
    return False


def _split_top_level(text: str, separator: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for c in text:
        if c in "{(":
            depth += 1
        elif c in "})":
            depth -= 1
        if c == separator and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(c)
    parts.append("".join(current))
    return parts


def parse_game(text: str) -> CanonicalForm:
    """The canonical form of a game written in CGSuite notation.

    >>> str(parse_game("{0|*}"))
    '^'
    """
    return _Parser(text).parse()
