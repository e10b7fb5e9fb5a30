"""Loopy games in ``cgt eval``: the values behind :func:`cgt.algebra.expression.loopy_value`.

The expression parser hands over every node that needs loopy games: the names ``on``,
``off``, ``over``, ``under``, ``upon``, ``dud`` and ``pass``, labelled braces ``a{0|a}``,
braces with a loopy option (``{0|pass}``, ``{over|*}``), sidling ``S & T``, and game
functions applied to a loopy value. Braces are read here from the syntax tree (not from their
evaluated options) because ``pass`` and labels are edges back to enclosing braces, which only
exist as a whole definition (:class:`cgt.algebra.loopy.DefinitionNode`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from cgt.algebra.expression import (
    Binary,
    Braces,
    Call,
    Evaluator,
    ExpressionError,
    Name,
    Node,
    Outcome,
    Tuple,
    Unary,
    evaluate,
    set_loopy_extension,
)
from cgt.algebra.game import CanonicalForm
from cgt.algebra.loopy import (
    NAMED,
    DefinitionNode,
    LoopyValue,
    LoopyValueError,
    coerce,
    definition_value,
    refers_outside,
)
from cgt.errors import PositionError


class PassReference:
    """What ``pass`` (or a label) evaluates to outside a definition being read: not a game,
    so the braces around it are handed back here as a whole."""

    is_game_value = False
    outside_braces = True

    def __str__(self) -> str:
        return "pass"


PASS = PassReference()


def loopy_value(node: Node, evaluator: Evaluator) -> Any:
    """The value of a node that needs loopy games (see the module docstring)."""
    try:
        return _loopy_value(node, evaluator)
    except LoopyValueError as exc:
        raise ExpressionError(f"column {node.column}: {exc}") from None


def _loopy_value(node: Node, evaluator: Evaluator) -> Any:
    if isinstance(node, Name):
        if node.name == "pass":
            return PASS
        if node.name in NAMED:
            return NAMED[node.name]
        raise ExpressionError(f"column {node.column}: {node.name} stands outside its braces")
    if isinstance(node, Binary) and node.op == "&":
        assert node.left is not None and node.right is not None
        onside = evaluator.game(evaluator(node.left), node.left)
        offside = evaluator.game(evaluator(node.right), node.right)
        return LoopyValue.sided(onside, offside)
    if isinstance(node, Braces):
        result = _definition(node, evaluator, {}, None)
        if isinstance(result, DefinitionNode):
            raise ExpressionError(f"column {node.column}: pass or a label outside its braces")
        return result
    if isinstance(node, Call):
        return _function(node, evaluator)
    if isinstance(node, Unary) and node.op == "+-" and node.operand is not None:
        operand = node.operand
        items: tuple[Node, ...] = (operand,)
        if isinstance(operand, Tuple):
            items = operand.items
        elif isinstance(operand, Braces) and operand.right is None:
            items = operand.left
        options = [coerce(evaluator.game(evaluator(item), item)) for item in items]
        return LoopyValue.from_options(options, [-g for g in options])
    raise ExpressionError(f"column {node.column}: not a loopy game")


def _definition(
    node: Braces,
    evaluator: Evaluator,
    scope: dict[str, DefinitionNode],
    enclosing: DefinitionNode | None,
) -> LoopyValue | DefinitionNode:
    """The value of braces, or their vertex when they refer to braces around them."""
    if node.right is None:
        raise ExpressionError(f"column {node.column}: braces without a bar are not a game")
    vertex = DefinitionNode()
    inner = dict(scope)
    if node.label is not None:
        inner[node.label] = vertex
    for options, side in ((node.left, vertex.left), (node.right, vertex.right)):
        for option in options:
            side.append(_option(option, evaluator, inner, vertex))
    if refers_outside(vertex, scope.values()):
        return vertex
    return definition_value(vertex)


def _option(
    option: Node,
    evaluator: Evaluator,
    scope: dict[str, DefinitionNode],
    vertex: DefinitionNode,
) -> LoopyValue | DefinitionNode:
    if isinstance(option, Name) and option.name == "pass":
        return vertex
    if isinstance(option, Name) and option.name in scope:
        return scope[option.name]
    if isinstance(option, Braces) and option.right is not None:
        return _definition(option, evaluator, scope, vertex)
    value = evaluator.game(evaluator(option), option)
    return coerce(value)


def _function(node: Call, evaluator: Evaluator) -> Any:
    """Game functions of a loopy value: outcome, sides, stopper tests."""
    name = node.name.replace("_", "").lower()
    value = coerce(evaluator.game(evaluator(node.args[0]), node.args[0]))
    if name in ("outcome", "outcomeclass"):
        return Outcome(value.outcome())
    if name == "onside":
        return LoopyValue(value.onside, value.onside)
    if name == "offside":
        return LoopyValue(value.offside, value.offside)
    if name == "isstopper":
        return value.is_stopper()
    short = value.short_form()
    rest = [evaluator(arg) for arg in node.args[1:]]
    if (
        short is not None
        and name in evaluator.functions
        and not any(isinstance(arg, LoopyValue) and arg.short_form() is None for arg in rest)
    ):
        # a loopfree value reached here as a loopy one: every function applies to it (but
        # not with a loopy argument: the function would hand it straight back here)
        args = [short] + [arg.short_form() if isinstance(arg, LoopyValue) else arg for arg in rest]
        return evaluator.functions[name][2](evaluator, node, args)
    raise ExpressionError(f"column {node.column}: {node.name} is not defined for loopy games")


def parse_loopy(text: str) -> LoopyValue:
    """Read a game, loopy or not, in CGSuite notation (``{0|pass}``, ``a{0|{|a}}``, ``on``,
    ``1 + over``, ``S & T``...) with the expression reader of ``cgt eval``
    (:mod:`cgt.algebra.expression`, whose loopy nodes come back to this module). ``pass`` is an edge back to the innermost braces
    it stands in; ``name{...}`` labels braces so that ``name`` inside them is an edge back to
    them. Raises a :class:`cgt.errors.CGTError` naming what is wrong."""
    value = evaluate(text)
    if not (isinstance(value, LoopyValue | CanonicalForm | int | Fraction)) or isinstance(
        value, bool
    ):
        raise PositionError(f"{text!r} is not a game")
    return coerce(value)


set_loopy_extension(loopy_value)
