"""CGSuite expressions: read, evaluate and print what a CGT researcher types.

``evaluate("{1|-1} + ^ + *2")`` gives the canonical form ``{1|-1}+^*2`` would print as in
CGSuite; ``evaluate("^ <= *")`` gives ``False``; ``evaluate("temperature({3||2|1})")`` the
number ``3/2``... The grammar (a recursive-descent parser, one function per rule, precedence
from loosest to tightest)::

    expression  := sidle (RELATION sidle)?          RELATION: <= >= < > == != <> <| |>
    sidle       := sum ('&' sum)?                    (loopy games: sidling)
    sum         := product (('+' | '-' | '+-') product | SUFFIX)*
    product     := unary (('×' | ' * ') unary)*      (integer times game; '*' needs spaces)
    unary       := ('-' | '+' | '+-') unary | postfix
    postfix     := primary ('.' NAME call?)*         (CGSuite's method style: G.Temperature)
    primary     := literal | '(' expression (',' expression)* ')' | braces
                 | NAME call | NAME braces | NAME
    braces      := '{' slashes '}'                   (a game, or a list of games for +-)
    slashes     := list (BARS list)*                 (split at the longest run of bars)
    call        := '(' (expression (',' expression)*)? ')'
    literal     := NUMBER? UPS? STAR?                (no spaces inside: 1/2^*3, -1v, ^<3>*)

A literal is read as CGSuite prints it, so every printed value reads back as itself:
``1/2*2`` is ``1/2 + *2`` (not a product), ``-1^`` is ``-1 + ^`` (not ``-(1^)``), ``+-1*`` is
``+-1 + *`` (CGSuite prints ``+-(1*)`` for the switch of ``1*``), ``2Tiny(2)`` is
``2 + Tiny(2)``. Numbers are exact: ``3/8``, ``1.5`` (``3/2``) and ``-7``; a number that is not
a dyadic rational (``1/3``) is a rational, fine as an argument but not as a game.

Loopy games (``on``, ``off``, ``over``, ``dud``, ``pass``, labelled definitions ``a{0|a}``,
sidling ``&``) are parsed here and handed to ONE function, :func:`loopy_value`, which is
the extension point for the loopy-game algebra.

Syntax errors are :class:`ExpressionError` (a :class:`~cgt.errors.CGTError`) naming the
column, on one line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from cgt.algebra.game import CanonicalForm, is_dyadic
from cgt.algebra.generalised import expansion, generalised_up, power, subordinate
from cgt.algebra.notation import number_tiny, order_key, sorted_options
from cgt.algebra.thermograph import (
    Thermograph,
    atomic_weight,
    cool,
    heat,
    is_infinitesimal,
    left_stop,
    mean,
    norton_product,
    ordinal_sum,
    reduced_canonical_form,
    right_stop,
    temperature,
    thermograph,
)
from cgt.errors import CGTError, PositionError


class ExpressionError(CGTError):
    """A CGSuite expression that cannot be read or evaluated."""


class LoopyNotSupported(ExpressionError):
    """The expression needs loopy games (``on``, ``pass``, ...), which are not available."""


# ------------------------------------------------------------------ tokens
@dataclass(frozen=True)
class Token:
    """One token; ``column`` is 1-based in the original text, ``spaced`` tells whether
    white space came before it (``1 *2`` differs from ``1*2`` and ``1 * 2``)."""

    kind: str
    text: str
    column: int
    spaced: bool
    value: Any = None


RELATIONS = ("<=>", "<=", ">=", "==", "!=", "<>", "<|", "|>", "<", ">")
_NUMBER = re.compile(r"\d+(?:/\d+|\.\d+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DOWN_WORD = re.compile(r"v+(?![A-Za-z_])")
"""``v``, ``vv``, ... are downs (as in CGSuite's lexer, a word of v's followed by a digit is
still a down: ``v3``); ``vx`` or ``value`` are names."""
_GENERALISED = re.compile(r"(<|\[)(\d+)(>|\])")
_UNICODE_ARROWS = {"↑": ("^", 1), "⇑": ("^", 2), "↓": ("v", 1), "⇓": ("v", 2)}


def _number(text: str) -> Fraction:
    if "." in text:
        whole, decimals = text.split(".")
        return Fraction(int(whole + decimals), 10 ** len(decimals))
    if "/" in text:
        numerator, denominator = text.split("/")
        if int(denominator) == 0:
            raise ZeroDivisionError
        return Fraction(int(numerator), int(denominator))
    return Fraction(int(text))


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``; raises :class:`ExpressionError` at the first bad character."""
    tokens: list[Token] = []
    i = 0
    spaced = True
    while i < len(text):
        char = text[i]
        column = i + 1
        if char.isspace():
            i += 1
            spaced = True
            continue
        if char.isdigit():
            match = _NUMBER.match(text, i)
            assert match is not None
            try:
                value = _number(match.group())
            except ZeroDivisionError:
                raise _error(column, f"division by zero in {match.group()!r}") from None
            tokens.append(Token("NUMBER", match.group(), column, spaced, value))
            i = match.end()
        elif char in "^v" or char in _UNICODE_ARROWS:
            token, i = _arrows(text, i, spaced)
            if token is None:  # a name starting with v
                match = _NAME.match(text, i)
                assert match is not None
                tokens.append(Token("NAME", match.group(), column, spaced, match.group()))
                i = match.end()
            else:
                tokens.append(token)
        elif char == "*":
            after_space = i + 1 < len(text) and text[i + 1].isspace()
            if spaced and after_space and tokens and tokens[-1].kind not in ("OP", "LPAREN"):
                tokens.append(Token("TIMES", "*", column, spaced))
                i += 1
            else:
                j = i + 1
                while j < len(text) and text[j].isdigit():
                    j += 1
                nim = int(text[i + 1 : j]) if j > i + 1 else 1
                tokens.append(Token("STAR", text[i:j], column, spaced, nim))
                i = j
        elif char == "×":
            tokens.append(Token("TIMES", char, column, spaced))
            i += 1
        elif char == "|":
            j = i
            while j < len(text) and text[j] == "|":
                j += 1
            if j - i == 1 and j < len(text) and text[j] == ">":
                tokens.append(Token("RELATION", "|>", column, spaced))
                j += 1
            else:
                tokens.append(Token("BARS", text[i:j], column, spaced, j - i))
            i = j
        elif char.isalpha() or char == "_":
            match = _NAME.match(text, i)
            assert match is not None
            tokens.append(Token("NAME", match.group(), column, spaced, match.group()))
            i = match.end()
        elif text.startswith("+-", i) or char == "±":
            tokens.append(Token("PLUSMINUS", "+-", column, spaced))
            i += 1 if char == "±" else 2
        else:
            relation = next((r for r in RELATIONS if text.startswith(r, i)), None)
            if relation is not None:
                tokens.append(Token("RELATION", relation, column, spaced))
                i += len(relation)
            elif char in "+-&":
                tokens.append(Token("OP", char, column, spaced))
                i += 1
            elif char in "{}(),.":
                kind = {"{": "LBRACE", "}": "RBRACE", "(": "LPAREN", ")": "RPAREN"}
                kind |= {",": "COMMA", ".": "DOT"}
                tokens.append(Token(kind[char], char, column, spaced))
                i += 1
            else:
                raise _error(column, f"unexpected {char!r}")
        spaced = False
    tokens.append(Token("END", "", len(text) + 1, spaced))
    return tokens


def _arrows(text: str, i: int, spaced: bool) -> tuple[Token | None, int]:
    """An ups token at ``text[i]``: ``^``, ``^^``, ``^3``, ``^<3>``, ``^[3]``, ``v``, ``vv``,
    ``v3``, ``↑``...; value ``(count, kind)`` with kind ``""`` (ups), ``"<>"`` (``^<n>``, up
    to the n) or ``"[]"`` (``^[n]``, the sum ``^<1> + ... + ^<n>``). ``None`` for a name."""
    column = i + 1
    char = text[i]
    if char in _UNICODE_ARROWS:
        arrow, count = _UNICODE_ARROWS[char]
        j = i + 1
    elif char == "v":
        match = _DOWN_WORD.match(text, i)
        if match is None:
            return None, i
        arrow, count, j = "v", match.end() - i, match.end()
    else:
        j = i
        while j < len(text) and text[j] == "^":
            j += 1
        arrow, count = "^", j - i
    kind = ""
    generalised = _GENERALISED.match(text, j)
    digits = re.compile(r"\d+").match(text, j)
    if (
        generalised is not None
        and count == 1
        and generalised.group(1) + generalised.group(3)
        in (
            "<>",
            "[]",
        )
    ):
        kind = generalised.group(1) + generalised.group(3)
        count = int(generalised.group(2))
        j = generalised.end()
        if count == 0:
            raise _error(column, f"{text[i:j]!r}: the exponent starts at 1")
    elif digits is not None:
        if count != 1:
            raise _error(column, f"write {arrow}{digits.group()}, not {text[i:j]}{digits.group()}")
        count = int(digits.group())
        j = digits.end()
    sign = 1 if arrow == "^" else -1
    return Token("UPS", text[i:j], column, spaced, (sign * count, kind)), j


def _error(column: int, problem: str) -> ExpressionError:
    return ExpressionError(f"syntax error at column {column}: {problem}")


# ------------------------------------------------------------------ syntax tree
@dataclass(frozen=True)
class Node:
    """A node of the syntax tree; ``column`` locates it for error messages."""

    column: int


@dataclass(frozen=True)
class Literal(Node):
    """``x + ups + *star``: a number (``Fraction``), ups ``(count, kind)`` and a nimber."""

    number: Fraction | None = None
    ups: tuple[int, str] | None = None
    star: int = 0


@dataclass(frozen=True)
class Name(Node):
    name: str = ""


@dataclass(frozen=True)
class Unary(Node):
    op: str = ""  # "-", "+", "+-"
    operand: Node | None = None


@dataclass(frozen=True)
class Binary(Node):
    op: str = ""  # "+", "-", "×", "&" or a relation
    left: Node | None = None
    right: Node | None = None


@dataclass(frozen=True)
class Braces(Node):
    """``{left | right}``; ``right is None`` for a plain list ``{A, B}`` (no bars), which is
    what ``+-{A, B}`` switches over."""

    left: tuple[Node, ...] = ()
    right: tuple[Node, ...] | None = ()
    label: str | None = None  # CGSuite's node label: a{0|a} (loopy definitions)


@dataclass(frozen=True)
class Tuple(Node):
    """``(A, B, ...)``: a list of values (``+-(A, B)`` switches over both)."""

    items: tuple[Node, ...] = ()


@dataclass(frozen=True)
class Call(Node):
    """``name(args)`` or ``args[0].name(args[1:])``."""

    name: str = ""
    args: tuple[Node, ...] = field(default_factory=tuple)


# ------------------------------------------------------------------ parser
class Parser:
    """Recursive descent over :func:`tokenize`'s tokens, one method per grammar rule."""

    def __init__(self, text: str) -> None:
        if not text.strip():
            raise ExpressionError("syntax error at column 1: empty expression")
        self.tokens = tokenize(text)
        self.pos = 0

    @property
    def token(self) -> Token:
        return self.tokens[self.pos]

    def advance(self) -> Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def expect(self, kind: str, what: str) -> Token:
        if self.token.kind != kind:
            raise self.unexpected(f"expected {what}")
        return self.advance()

    def unexpected(self, hint: str = "") -> ExpressionError:
        token = self.token
        seen = "end of expression" if token.kind == "END" else repr(token.text)
        return _error(token.column, f"unexpected {seen}" + (f" ({hint})" if hint else ""))

    def parse(self) -> Node:
        node = self.expression()
        if self.token.kind != "END":
            raise self.unexpected()
        return node

    def expression(self) -> Node:
        left = self.sidle()
        if self.token.kind == "RELATION":
            token = self.advance()
            return Binary(token.column, token.text, left, self.sidle())
        return left

    def sidle(self) -> Node:
        left = self.sum()
        if self.token.kind == "OP" and self.token.text == "&":
            token = self.advance()
            return Binary(token.column, "&", left, self.sum())
        return left

    def sum(self) -> Node:
        total = self.product()
        while True:
            token = self.token
            if token.kind == "OP" and token.text in "+-":
                self.advance()
                total = Binary(token.column, token.text, total, self.product())
            elif token.kind == "PLUSMINUS":
                self.advance()
                switch = Unary(token.column, "+-", self.switch_operand())
                total = Binary(token.column, "+", total, switch)
            elif token.kind in ("UPS", "STAR") and not token.spaced:
                # the rest of a literal after a switch: +-1* is +-1 + *
                total = Binary(token.column, "+", total, self.literal())
            elif token.kind == "NAME" and token.text in ("over", "under") and not token.spaced:
                # a pseudonumber as CGSuite prints it: 5over is 5 + over
                self.advance()
                total = Binary(token.column, "+", total, Name(token.column, token.text))
            else:
                return total

    def product(self) -> Node:
        left = self.unary()
        while self.token.kind == "TIMES":
            token = self.advance()
            left = Binary(token.column, "×", left, self.unary())
        return left

    def unary(self) -> Node:
        token = self.token
        if token.kind == "OP" and token.text in "+-":
            self.advance()
            if token.text == "-" and self.token.kind == "NUMBER" and not self.token.spaced:
                return self.literal(negative_at=token.column)  # -1^ is -1 + ^, as CGSuite prints it
            return Unary(token.column, token.text, self.unary())
        if token.kind == "PLUSMINUS":
            self.advance()
            return Unary(token.column, "+-", self.switch_operand())
        return self.postfix()

    def switch_operand(self) -> Node:
        """What ``+-`` applies to: a bare number binds alone (``+-1*`` is ``+-1 + *``)."""
        token = self.token
        if token.kind == "NUMBER":
            self.advance()
            return Literal(token.column, number=token.value)
        if token.kind == "OP" and token.text == "-" and self.tokens[self.pos + 1].kind == "NUMBER":
            self.advance()
            number = self.advance()
            return Literal(token.column, number=-number.value)
        return self.unary()

    def postfix(self) -> Node:
        node = self.primary()
        while self.token.kind == "DOT":
            self.advance()
            name = self.expect("NAME", "a function name after '.'")
            args: tuple[Node, ...] = ()
            if self.token.kind == "LPAREN" and not self.token.spaced:
                args = self.call_arguments()
            node = Call(name.column, name.value, (node, *args))
        return node

    def primary(self) -> Node:
        token = self.token
        if token.kind in ("NUMBER", "UPS", "STAR"):
            return self.literal()
        if token.kind == "LPAREN":
            self.advance()
            items = [self.expression()]
            while self.token.kind == "COMMA":
                self.advance()
                items.append(self.expression())
            self.expect("RPAREN", "')'")
            return items[0] if len(items) == 1 else Tuple(token.column, tuple(items))
        if token.kind == "LBRACE":
            return self.braces()
        if token.kind == "NAME":
            self.advance()
            following = self.token
            if following.kind == "LPAREN" and not following.spaced:
                return Call(token.column, token.value, self.call_arguments())
            if following.kind == "LBRACE" and not following.spaced:
                braces = self.braces()
                assert isinstance(braces, Braces)
                return Braces(token.column, braces.left, braces.right, token.value)
            return Name(token.column, token.value)
        raise self.unexpected("expected a value")

    def literal(self, negative_at: int | None = None) -> Node:
        """``NUMBER? UPS? STAR?`` written without spaces, then a directly following
        ``Tiny(...)``/``Miny(...)`` (CGSuite's ``2Tiny(2)``)."""
        start = self.token
        number = ups = None
        star = 0
        if self.token.kind == "NUMBER":
            number = self.advance().value
            if negative_at is not None:
                number = -number
        if self.token.kind == "UPS" and (number is None or not self.token.spaced):
            ups = self.advance().value
        if self.token.kind == "STAR" and (
            (number is None and ups is None) or not self.token.spaced
        ):
            star = self.advance().value
        node: Node = Literal(negative_at or start.column, number, ups, star)
        following = self.token
        if (
            number is not None
            and ups is None
            and star == 0
            and following.kind == "NAME"
            and not following.spaced
            and following.value in ("Tiny", "Miny")
        ):
            node = Binary(following.column, "+", node, self.primary())
        return node

    def call_arguments(self) -> tuple[Node, ...]:
        self.expect("LPAREN", "'('")
        args: list[Node] = []
        if self.token.kind != "RPAREN":
            args.append(self.expression())
            while self.token.kind == "COMMA":
                self.advance()
                args.append(self.expression())
        self.expect("RPAREN", "')' or ','")
        return tuple(args)

    def braces(self) -> Node:
        opening = self.expect("LBRACE", "'{'")
        lists: list[tuple[Node, ...]] = [self.option_list()]
        bars: list[Token] = []
        while self.token.kind == "BARS":
            bars.append(self.advance())
            lists.append(self.option_list())
        if self.token.kind != "RBRACE":
            raise self.unexpected("expected ',', '|' or '}'")
        self.advance()
        if not bars:
            return Braces(opening.column, lists[0], None)
        return _slashes(opening.column, lists, bars)

    def option_list(self) -> tuple[Node, ...]:
        if self.token.kind in ("BARS", "RBRACE"):
            return ()
        items = [self.expression()]
        while self.token.kind == "COMMA":
            self.advance()
            items.append(self.expression())
        return tuple(items)


def _slashes(column: int, lists: list[tuple[Node, ...]], bars: list[Token]) -> Braces:
    """``{a | b || c}`` from option lists and the bar runs between them: split at the
    unique longest run; each side with bars is one game (CGSuite's slash expression)."""
    longest = max(token.value for token in bars)
    splits = [i for i, token in enumerate(bars) if token.value == longest]
    if len(splits) > 1:
        raise _error(bars[splits[1]].column, f"ambiguous bars: two runs of {longest} on a level")
    split = splits[0]

    def side(part_lists: list[tuple[Node, ...]], part_bars: list[Token]) -> tuple[Node, ...]:
        if not part_bars:
            return part_lists[0]
        return (_slashes(part_bars[0].column, part_lists, part_bars),)

    left = side(lists[: split + 1], bars[:split])
    right = side(lists[split + 1 :], bars[split + 1 :])
    return Braces(column, left, right)


def parse(text: str) -> Node:
    """The syntax tree of a CGSuite expression."""
    return Parser(text).parse()


# ------------------------------------------------------------------ evaluation
LOOPY_NAMES = frozenset({"on", "off", "over", "under", "dud", "upon", "pass"})
"""Names CGSuite gives to loopy games (``pass`` is the loopy move inside braces)."""


LoopyExtension = Callable[["Node", "Evaluator"], Any]
"""The loopy-game algebra's reading of a node (:func:`set_loopy_extension`)."""

_loopy_extension: LoopyExtension | None = None


def set_loopy_extension(extension: LoopyExtension | None) -> None:
    """Install the function :func:`loopy_value` hands loopy nodes to. The loopy-game algebra
    (:mod:`cgt.algebra.loopy_expression`) builds on this module and installs itself when
    :mod:`cgt.algebra` is imported; without it a loopy node is :class:`LoopyNotSupported`."""
    global _loopy_extension
    _loopy_extension = extension


def loopy_value(node: Node, evaluator: Evaluator) -> Any:
    """THE extension point for loopy games: the value of a node that needs them.

    Called with the whole :class:`Braces` node for braces with a loopy name among their
    options (``{0|pass}``, ``{0|on}``) or a label (``a{0|a}``: ``evaluator.labels`` is there
    for the bindings), with a :class:`Name` for a loopy name elsewhere (``on + 1``), with a
    :class:`Braces` node whose options evaluated to a value that is not a short game, with a
    :class:`Call` of a function given a loopy game, and with the :class:`Binary` node of
    sidling ``G & H``. To evaluate sub-nodes call ``evaluator(sub_node)``.
    Loopy values must support ``+``, unary ``-``, ``<=``, ``>=`` and ``==`` with each other
    and with :class:`CanonicalForm`, and ``str`` in CGSuite notation; the evaluator then
    treats them like short games.
    """
    if _loopy_extension is None:
        raise LoopyNotSupported(f"column {node.column}: {_describe(node)} needs loopy games")
    return _loopy_extension(node, evaluator)


def _describe(node: Node) -> str:
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Braces) and node.label:
        return f"{node.label}{{...}}"
    if isinstance(node, Binary):
        return f"'{node.op}'"
    return "a game with a loopy option"


class Outcome(str):
    """An outcome class, ``L``, ``R``, ``N`` or ``P``."""


Value = Any
"""A value: a game (:class:`CanonicalForm` or a loopy value), a ``Fraction`` (a number that
is not a game, such as ``1/3``, or a temperature), ``bool``, ``int``, :class:`Outcome`, a
thermograph, or a list of values."""


class Evaluator:
    """Evaluates syntax trees; ``functions`` maps normalised names (lower case, no
    underscores) to ``(minimum, maximum number of arguments, function)``."""

    def __init__(self) -> None:
        self.labels: dict[str, Node] = {}
        self.functions = dict(FUNCTIONS)

    def __call__(self, node: Node) -> Value:
        method: Callable[[Any], Value] = getattr(self, "_" + type(node).__name__.lower())
        return method(node)

    def game(self, value: Value, node: Node) -> Any:
        """``value`` as a game: numbers become canonical forms; other values are refused."""
        if isinstance(value, Fraction):
            if not is_dyadic(value):
                raise ExpressionError(
                    f"column {node.column}: {_format_fraction(value)} is not a dyadic "
                    "rational, so it is not a short game"
                )
            return CanonicalForm.number(value)
        if isinstance(value, bool) or not _is_game(value):
            raise ExpressionError(
                f"column {node.column}: expected a game, got {format_value(value)}"
            )
        return value

    def _literal(self, node: Literal) -> Value:
        if node.ups is None and node.star == 0:
            assert node.number is not None
            return node.number if not is_dyadic(node.number) else CanonicalForm.number(node.number)
        number = Fraction(0) if node.number is None else node.number
        if not is_dyadic(number):
            raise ExpressionError(
                f"column {node.column}: {_format_fraction(number)} is not a dyadic rational"
            )
        count, kind = node.ups if node.ups is not None else (0, "")
        if kind:
            value = generalised_up(abs(count), cumulative=kind == "[]")
            value = value if count > 0 else -value
            return value + CanonicalForm.uptimal(number, 0, node.star)
        return CanonicalForm.uptimal(number, count, node.star)

    def _name(self, node: Name) -> Value:
        if node.name in LOOPY_NAMES or node.name in self.labels:
            return loopy_value(node, self)
        constant = CONSTANTS.get(node.name.lower())
        if constant is not None:
            return constant()
        key = _normalise(node.name)
        if key in self.functions:
            raise ExpressionError(f"column {node.column}: {node.name} needs arguments in (...)")
        raise ExpressionError(f"column {node.column}: unknown name {node.name!r}")

    def _unary(self, node: Unary) -> Value:
        assert node.operand is not None
        if node.op == "+-":
            if isinstance(node.operand, Tuple | Braces) and (
                isinstance(node.operand, Tuple) or node.operand.right is None
            ):
                items = node.operand.items if isinstance(node.operand, Tuple) else node.operand.left
                options = [self.game(self(item), item) for item in items]
            else:
                options = [self.game(self(node.operand), node.operand)]
            return self._braces_of(node, options, [-g for g in options])
        value = self(node.operand)
        if node.op == "+":
            return value
        if isinstance(value, Fraction | int) and not isinstance(value, bool):
            return -value
        return -self.game(value, node.operand)

    def _binary(self, node: Binary) -> Value:
        assert node.left is not None and node.right is not None
        if node.op == "&":
            return loopy_value(node, self)
        left, right = self(node.left), self(node.right)
        if node.op == "×":
            return self._times(node, left, right)
        if node.op in ("+", "-"):
            x, y = _number_of(left), _number_of(right)
            if x is not None and y is not None and not (is_dyadic(x) and is_dyadic(y)):
                return _reduce_number(x + y if node.op == "+" else x - y)  # rationals: 5/6
            if _is_plain_number(left) and _is_plain_number(right):
                return left + right if node.op == "+" else left - right
            g, h = self.game(left, node.left), self.game(right, node.right)
            return g + h if node.op == "+" else g - h
        return self._relation(node, left, right)

    def _times(self, node: Binary, left: Value, right: Value) -> Value:
        x, y = _number_of(left), _number_of(right)
        if x is not None and y is not None:
            return _reduce_number(x * y)
        count, game, game_node = left, right, node.right
        if not _is_integer(count):
            count, game, game_node = right, left, node.left
        if not _is_integer(count):
            raise ExpressionError(
                f"column {node.column}: a game can only be multiplied by an integer "
                "(n copies of it)"
            )
        return self.game(game, game_node or node) * int(_as_fraction(count))

    def _relation(self, node: Binary, left: Value, right: Value) -> bool:
        if node.op in ("==", "!="):
            if _is_game_or_number(left) and _is_game_or_number(right):
                equal = _le(self, node, left, right) and _le(self, node, right, left)
            else:
                equal = left == right
            return equal if node.op == "==" else not equal
        if node.op == "<=>":
            raise ExpressionError(f"column {node.column}: use compare(G, H) for '<=>'")
        le = _le(self, node, left, right)
        ge = _le(self, node, right, left)
        results = {
            "<=": le,
            ">=": ge,
            "<": le and not ge,
            ">": ge and not le,
            "<>": not le and not ge,
            "<|": not ge,  # less than or confused with
            "|>": not le,  # greater than or confused with
        }
        return results[node.op]

    def _braces(self, node: Braces) -> Value:
        if node.label is not None or any(
            isinstance(option, Name) and (option.name in LOOPY_NAMES or option.name in self.labels)
            for option in node.left + (node.right or ())
        ):
            return loopy_value(node, self)  # {0|pass}, a{0|a}: the braces go whole
        if node.right is None:
            return [self(item) for item in node.left]
        lefts = [self(option) for option in node.left]
        rights = [self(option) for option in node.right]
        if not all(_is_short(v) for v in lefts + rights):
            return loopy_value(node, self)
        return self._braces_of(
            node,
            [self.game(v, o) for v, o in zip(lefts, node.left)],
            [self.game(v, o) for v, o in zip(rights, node.right)],
        )

    def _braces_of(self, node: Node, left: list[Any], right: list[Any]) -> Value:
        if not all(isinstance(g, CanonicalForm) for g in left + right):
            return loopy_value(node, self)
        return CanonicalForm.from_options(left, right)

    def _tuple(self, node: Tuple) -> Value:
        return [self(item) for item in node.items]

    def _call(self, node: Call) -> Value:
        key = _normalise(node.name)
        found = self.functions.get(key)
        if found is None:
            raise ExpressionError(f"column {node.column}: unknown function {node.name!r}")
        low, high, function = found
        if not low <= len(node.args) <= high:
            wanted = str(low) if low == high else f"{low} to {high}"
            raise ExpressionError(
                f"column {node.column}: {node.name} takes {wanted} argument"
                f"{'' if wanted == '1' else 's'}, not {len(node.args)}"
            )
        args = [self(arg) for arg in node.args]
        try:
            return function(self, node, args)
        except CGTError as exc:
            if str(exc).startswith("column"):
                raise
            raise ExpressionError(f"column {node.column}: {node.name}: {exc}") from None


def _is_short(value: Value) -> bool:
    return isinstance(value, CanonicalForm) or _is_plain_number(value)


def _is_game(value: Value) -> bool:
    """A game: a canonical form or a loopy value (anything the loopy algebra gives)."""
    if isinstance(value, CanonicalForm):
        return True
    return getattr(value, "is_game_value", False) is True


def _is_plain_number(value: Value) -> bool:
    return isinstance(value, Fraction | int) and not isinstance(value, bool)


def _number_of(value: Value) -> Fraction | None:
    """The number ``value`` is (a rational, or a game that is a number), else ``None``."""
    if isinstance(value, CanonicalForm):
        return value.number_value()
    if _is_plain_number(value):
        return Fraction(value)
    return None


def _is_game_or_number(value: Value) -> bool:
    return _is_plain_number(value) or _is_game(value)


def _as_fraction(value: Value) -> Fraction:
    if isinstance(value, CanonicalForm):
        x = value.number_value()
        assert x is not None
        return x
    return Fraction(value)


def _is_integer(value: Value) -> bool:
    if isinstance(value, CanonicalForm):
        return value.is_integer()
    return _is_plain_number(value) and Fraction(value).denominator == 1


def _reduce_number(x: Fraction) -> Value:
    return CanonicalForm.number(x) if is_dyadic(x) else x


def _le(evaluator: Evaluator, node: Binary, left: Value, right: Value) -> bool:
    if _is_plain_number(left) and _is_plain_number(right):
        return bool(Fraction(left) <= Fraction(right))
    assert node.left is not None and node.right is not None
    return bool(evaluator.game(left, node.left) <= evaluator.game(right, node.right))


def _normalise(name: str) -> str:
    return name.replace("_", "").lower()


def _format_fraction(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# ------------------------------------------------------------------ the function library
def _game_function(
    compute: Callable[[CanonicalForm], Value],
) -> Callable[[Evaluator, Call, list[Value]], Value]:
    def apply(evaluator: Evaluator, node: Call, args: list[Value]) -> Value:
        game = evaluator.game(args[0], node.args[0])
        if not isinstance(game, CanonicalForm):
            return loopy_value(node, evaluator)
        return compute(game)

    return apply


def _game_and_number(
    compute: Callable[[CanonicalForm, Value], Value],
) -> Callable[[Evaluator, Call, list[Value]], Value]:
    def apply(evaluator: Evaluator, node: Call, args: list[Value]) -> Value:
        game = evaluator.game(args[0], node.args[0])
        if not isinstance(game, CanonicalForm):
            return loopy_value(node, evaluator)
        other = args[1]
        if isinstance(other, CanonicalForm) and other.is_number():
            other = other.number_value()
        return compute(game, other)

    return apply


def _heat(game: CanonicalForm, t: Value) -> Value:
    return heat(game, t)


def _cool(game: CanonicalForm, t: Value) -> Value:
    if not isinstance(t, Fraction | int):
        raise ExpressionError(f"the cooling temperature must be a number, not {t}")
    return cool(game, t)


def _options(left: bool) -> Callable[[CanonicalForm], Value]:
    return lambda g: [CanonicalForm(o) for o in sorted_options(g.id, left)]


def _compare(evaluator: Evaluator, node: Call, args: list[Value]) -> Value:
    g = evaluator.game(args[0], node.args[0])
    h = evaluator.game(args[1], node.args[1])
    le, ge = g <= h, g >= h
    return Relation("=" if le and ge else "<" if le else ">" if ge else "<>")


class Relation(str):
    """How two games compare: ``<``, ``=``, ``>`` or ``<>`` (confused)."""


def _tiny_miny(sign: int) -> Callable[[Evaluator, Call, list[Value]], Value]:
    def apply(evaluator: Evaluator, node: Call, args: list[Value]) -> Value:
        g = evaluator.game(args[0], node.args[0])
        if not isinstance(g, CanonicalForm):
            return loopy_value(node, evaluator)
        tiny = CanonicalForm.from_options([0], [CanonicalForm.from_options([0], [-g])])
        return tiny if sign > 0 else -tiny

    return apply


def _generalised(cumulative: bool) -> Callable[[Evaluator, Call, list[Value]], Value]:
    def apply(evaluator: Evaluator, node: Call, args: list[Value]) -> Value:
        g = evaluator.game(args[0], node.args[0])
        x = evaluator.game(args[1], node.args[1])
        if not isinstance(g, CanonicalForm) or not isinstance(x, CanonicalForm):
            return loopy_value(node, evaluator)
        return power(g, x, cumulative=cumulative)

    return apply


def _subordinate(evaluator: Evaluator, node: Call, args: list[Value]) -> Value:
    g = evaluator.game(args[0], node.args[0])
    base = evaluator.game(args[1], node.args[1])
    if not isinstance(g, CanonicalForm) or not isinstance(base, CanonicalForm):
        return loopy_value(node, evaluator)
    return CanonicalForm(subordinate(g.id, base.id))


def _two_games(
    combine: Callable[[int, int], int],
) -> Callable[[Evaluator, Call, list[Value]], Value]:
    def apply(evaluator: Evaluator, node: Call, args: list[Value]) -> Value:
        g = evaluator.game(args[0], node.args[0])
        h = evaluator.game(args[1], node.args[1])
        if not isinstance(g, CanonicalForm) or not isinstance(h, CanonicalForm):
            return loopy_value(node, evaluator)
        return CanonicalForm(combine(g.id, h.id))

    return apply


def _incentives(left: bool, right: bool) -> Callable[[CanonicalForm], Value]:
    """Left incentives ``G^L - G``, right incentives ``G - G^R`` or both, keeping those no
    other one exceeds (as CGSuite's ``incentives``), in printing order."""

    def compute(g: CanonicalForm) -> Value:
        found = [o - g for o in g.left_options] if left else []
        found += [g - o for o in g.right_options] if right else []
        unique = list(dict.fromkeys(found))
        unique = [a for a in unique if not any(b != a and a <= b for b in unique)]
        return sorted(unique, key=lambda h: order_key(h.id))

    return compute


def _is_uptimal(g: CanonicalForm) -> bool:
    return expansion(g.id) is not None


def _is_number_tiny(g: CanonicalForm) -> bool:
    """CGSuite's ``IsNumberTiny``: a number, or a number plus a tiny or a miny."""
    return g.is_number() or (not g.is_uptimal() and number_tiny(g.id) is not None)


def _is_atomic(g: CanonicalForm) -> bool:
    try:
        atomic_weight(g)
    except CGTError:
        return False
    return True


def _thermograph(g: CanonicalForm) -> Value:
    return thermograph(g)


FUNCTIONS: dict[str, tuple[int, int, Callable[[Evaluator, Call, list[Value]], Value]]] = {
    "temperature": (1, 1, _game_function(temperature)),
    "thermograph": (1, 1, _game_function(_thermograph)),
    "mean": (1, 1, _game_function(mean)),
    "leftstop": (1, 1, _game_function(left_stop)),
    "rightstop": (1, 1, _game_function(right_stop)),
    "outcome": (1, 1, _game_function(lambda g: Outcome(g.outcome()))),
    "outcomeclass": (1, 1, _game_function(lambda g: Outcome(g.outcome()))),
    "birthday": (1, 1, _game_function(lambda g: g.birthday())),
    "leftoptions": (1, 1, _game_function(_options(True))),
    "rightoptions": (1, 1, _game_function(_options(False))),
    "cool": (2, 2, _game_and_number(_cool)),
    "heat": (2, 2, _game_and_number(_heat)),
    "atomicweight": (1, 1, _game_function(atomic_weight)),
    "aw": (1, 1, _game_function(atomic_weight)),
    "reduced": (1, 1, _game_function(reduced_canonical_form)),
    "reducedcanonicalform": (1, 1, _game_function(reduced_canonical_form)),
    "rcf": (1, 1, _game_function(reduced_canonical_form)),
    "isinfinitesimal": (1, 1, _game_function(is_infinitesimal)),
    "isnumber": (1, 1, _game_function(lambda g: g.is_number())),
    "isnimber": (1, 1, _game_function(lambda g: g.is_nimber())),
    "isallsmall": (1, 1, _game_function(lambda g: g.is_all_small())),
    "nimvalue": (1, 1, _game_function(lambda g: g.nim_value())),
    "leftincentives": (1, 1, _game_function(_incentives(left=True, right=False))),
    "rightincentives": (1, 1, _game_function(_incentives(left=False, right=True))),
    "incentives": (1, 1, _game_function(_incentives(left=True, right=True))),
    "isuptimal": (1, 1, _game_function(_is_uptimal)),
    "isnumbertiny": (1, 1, _game_function(_is_number_tiny)),
    "isatomic": (1, 1, _game_function(_is_atomic)),
    "compare": (2, 2, _compare),
    "tiny": (1, 1, _tiny_miny(1)),
    "miny": (1, 1, _tiny_miny(-1)),
    "nortonproduct": (2, 2, _two_games(norton_product)),
    "ordinalsum": (2, 2, _two_games(ordinal_sum)),
    "subordinate": (2, 2, _subordinate),
    "pow": (2, 2, _generalised(False)),
    "powto": (2, 2, _generalised(True)),
    "onside": (1, 1, lambda evaluator, node, args: loopy_value(node, evaluator)),
    "offside": (1, 1, lambda evaluator, node, args: loopy_value(node, evaluator)),
    "isstopper": (1, 1, lambda evaluator, node, args: loopy_value(node, evaluator)),
}
"""Functions by normalised name: ``atomic_weight``, ``AtomicWeight`` and ``atomicweight``
are one function; each is also a method (``G.Temperature``, ``G.Cool(1)``)."""

CONSTANTS: dict[str, Callable[[], Value]] = {
    "true": lambda: True,
    "false": lambda: False,
}


# ------------------------------------------------------------------ printing
def format_value(value: Value) -> str:
    """CGSuite's text of a value: games in CGSuite notation, ``true``/``false``, numbers
    ``3/8``, lists ``{a,b}`` (CGSuite prints option sets so)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return _format_fraction(value)
    if isinstance(value, list | tuple):
        return "{" + ",".join(format_value(v) for v in value) + "}"
    if value is None:
        return "Nothing"
    if isinstance(value, Thermograph):
        return format_thermograph(value)
    return str(value)


def format_thermograph(graph: Any) -> str:
    """``Thermograph(mast 1/2 from temperature 3/2; left wall ...; right wall ...)``: each
    wall as its ``(temperature, value)`` breakpoints, vertical above the last."""

    def wall(w: Any) -> str:
        return " ".join(f"({_format_fraction(t)},{_format_fraction(v)})" for t, v in w.points)

    return (
        f"Thermograph(mast {_format_fraction(graph.mast)} from temperature "
        f"{_format_fraction(graph.temperature)}; left wall {wall(graph.left_wall)}; "
        f"right wall {wall(graph.right_wall)})"
    )


def evaluate(text: str, evaluator: Evaluator | None = None) -> Value:
    """The value of a CGSuite expression (see the module docstring for the grammar)."""
    tree = parse(text)
    try:
        value = (evaluator or Evaluator())(tree)
    except RecursionError:
        raise ExpressionError(
            "the expression nests too deeply for Python's stack (a game of thousands of "
            "levels, such as ^<5000>)"
        ) from None
    if getattr(value, "outside_braces", False):  # a bare pass: an edge with no braces
        raise ExpressionError("column 1: pass stands outside braces")
    return value


def value_kind(value: Value) -> str:
    """A word for the kind of a value, for ``--json``."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, Outcome):
        return "outcome"
    if isinstance(value, Relation):
        return "relation"
    if isinstance(value, Fraction | int):
        return "number"
    if isinstance(value, Thermograph):
        return "thermograph"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, CanonicalForm):
        return "game"
    return "loopy game" if _is_game(value) else type(value).__name__


def value_names() -> Sequence[str]:
    """The functions an expression may call (normalised names)."""
    return sorted(FUNCTIONS)


def parse_game(text: str) -> CanonicalForm:
    """The canonical form of a game written in CGSuite notation (read by the expression
    grammar, so sums, ``+-``, ``Tiny(2)``, ``^<3>`` and every printed form are accepted);
    :class:`PositionError` if it is not a short game.

    >>> str(parse_game("{0|*}"))
    '^'
    """
    try:
        value = evaluate(text)
    except ExpressionError as exc:
        raise PositionError(f"cannot read game {text!r}: {exc}") from None
    if isinstance(value, Fraction) or not isinstance(value, CanonicalForm):
        raise PositionError(f"cannot read game {text!r}: it is not a short game")
    return value
