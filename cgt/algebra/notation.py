"""CGSuite notation for short games: read and write the lingua franca of the field.

Printing follows CGSuite's plain-text output:

* numbers ``0``, ``3``, ``-3/4``; nimbers ``*``, ``*2``; a number plus a nimber ``1*``,
  ``1/2*2``;
* ups: ``^``, ``^^`` for double-up, ``^3`` (and higher) for more; ``v``, ``vv``, ``v3`` down;
  followed by the star part and preceded by a number part: ``^*``, ``vv*3``, ``1/2^``;
* a switch ``{H | -H}`` with ``H > 0`` as ``+-H`` (``+-1``, ``+-{2|1}``);
* ``{0 || 0 | -x}`` as ``Tiny(x)`` and ``{x | 0 || 0}`` as ``Miny(x)`` for a number ``x > 0``;
* anything else in braces, nested forms with longer bars: ``{3||2|1}``, ``{2|-1/2}``.
  Braces of a compound option are dropped (using one more bar) only when it is the only
  option on its side, so that the printed text never depends on how commas bind.

Reading accepts all of the above, the Unicode signs (``±``, ``↑``, ``↓``, ``⇑``, ``⇓``), sums
and differences (``1+*``, ``^-*2``), parentheses and repeated ``+-`` (``+-1+-2``).
"""

from __future__ import annotations

from fractions import Fraction

from cgt.algebra.game import CanonicalForm, coerce
from cgt.errors import PositionError


# ------------------------------------------------------------------ printing
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
    """CGSuite text of a canonical form (``{1|-1}`` prints as ``+-1``, ``{3||2|1}`` braced)."""
    text, depth = _format(game)
    return f"{{{text}}}" if depth else text


def _format(game: CanonicalForm) -> tuple[str, int]:
    """Text of ``game`` and its bar depth (0 when the text needs no braces to stand alone).

    A result with depth > 0 is the *inside* of a braced form, e.g. ``("2|1", 1)``.
    """
    tag = game.uptimal_value()
    if tag is not None:
        return _format_uptimal(*tag), 0
    left, right = game.left_options, game.right_options
    if len(left) == 1 and len(right) == 1 and right[0] == -left[0] and left[0] > 0:
        inner, depth = _format(left[0])
        return ("+-" + (f"{{{inner}}}" if depth else inner)), 0
    tiny = _tiny_parameter(game)
    if tiny is not None:
        return f"Tiny({tiny})", 0
    miny = _tiny_parameter(-game)
    if miny is not None:
        return f"Miny({miny})", 0
    sides: list[list[tuple[str, int]]] = [
        [_format(g) for g in left],
        [_format(g) for g in right],
    ]
    depth = 1
    texts: list[str] = []
    for side in sides:
        if len(side) == 1:
            text, option_depth = side[0]
            depth = max(depth, option_depth + 1)
            texts.append(text)
        else:
            texts.append(",".join(f"{{{t}}}" if d else t for t, d in side))
    return texts[0] + "|" * depth + texts[1], depth


def _tiny_parameter(game: CanonicalForm) -> str | None:
    """``x`` as text when ``game`` is ``{0 || 0 | -x}`` for a number ``x > 0``."""
    left, right = game.left_options, game.right_options
    if len(left) != 1 or len(right) != 1 or left[0].id != coerce(0).id:
        return None
    inner = right[0]
    if len(inner.left_options) != 1 or len(inner.right_options) != 1:
        return None
    if inner.left_options[0].id != coerce(0).id:
        return None
    x = (-inner.right_options[0]).number_value()
    if x is None or x <= 0:
        return None
    return _format_number(x)


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
                switch = self.term()
                total = total + _switch(switch)
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
            return _switch(self.term())
        if self.peek() == "-":
            self.pos += 1
            return -self.term()
        return self.atom()

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
        for name, sign in (("Tiny(", 1), ("Miny(", -1)):
            if self.text.startswith(name, self.pos):
                end = self._matching(self.pos + len(name) - 1, "(", ")")
                inner = _Parser(self.text[self.pos + len(name) : end])
                inner.original = self.original
                self.pos = end + 1
                x = inner.parse()
                tiny = CanonicalForm.from_options([0], [CanonicalForm.from_options([0], [-x])])
                return tiny if sign > 0 else -tiny
        if not char:
            raise self.fail("unexpected end of text")
        if char.isdigit() or char in "^v*":
            return self._uptimal()
        raise self.fail(f"unexpected {char!r} at position {self.pos + 1}")

    def _digits(self) -> str:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos].isdigit():
            self.pos += 1
        return self.text[start : self.pos]

    def _uptimal(self) -> CanonicalForm:
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
        return CanonicalForm.uptimal(number, ups, star)

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


def _switch(game: CanonicalForm) -> CanonicalForm:
    """``+-G = {G | -G}``."""
    return CanonicalForm.from_options([game], [-game])


def parse_game(text: str) -> CanonicalForm:
    """The canonical form of a game written in CGSuite notation.

    >>> str(parse_game("{0|*}"))
    '^'
    """
    return _Parser(text).parse()
