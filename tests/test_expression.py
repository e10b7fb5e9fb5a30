"""CGSuite expressions (``cgt eval``): the grammar, the evaluator and the command.

Values are checked against hand-derived facts of the theory (Siegel's *Combinatorial Game
Theory*, Winning Ways) and against games built through the Python API, which does not go
through the parser."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgt.algebra import STAR, UP, CanonicalForm
from cgt.algebra.budget import Budget
from cgt.algebra.expression import (
    Binary,
    Braces,
    ExpressionError,
    Literal,
    Unary,
    evaluate,
    format_value,
    parse,
    tokenize,
)
from cgt.errors import CGTError
from tests.test_cli import run

F = Fraction
G = CanonicalForm.from_options


# ------------------------------------------------------------------ the grammar
def test_tokens_carry_columns_and_literal_parts() -> None:
    kinds = [(t.kind, t.text, t.column) for t in tokenize("{1|-1} + ^*2")]
    assert kinds == [
        ("LBRACE", "{", 1),
        ("NUMBER", "1", 2),
        ("BARS", "|", 3),
        ("OP", "-", 4),
        ("NUMBER", "1", 5),
        ("RBRACE", "}", 6),
        ("OP", "+", 8),
        ("UPS", "^", 10),
        ("STAR", "*2", 11),
        ("END", "", 13),
    ]
    assert [t.kind for t in tokenize("vv v3 value")] == ["UPS", "UPS", "NAME", "END"]
    assert [t.kind for t in tokenize("2 * ^")] == ["NUMBER", "TIMES", "UPS", "END"]


def test_slashes_split_at_the_longest_run() -> None:
    # {a|b||c} is {{a|b}||c}: the double bar is the top split
    tree = parse("{3|2||1}")
    assert isinstance(tree, Braces) and len(tree.left) == 1 and isinstance(tree.left[0], Braces)
    assert tree.right == (Literal(7, F(1)),)
    tree = parse("{4||3|2}")
    assert isinstance(tree, Braces) and isinstance(tree.right[0], Braces)  # type: ignore[index]


def test_precedence_of_relations_sums_and_unary_minus() -> None:
    tree = parse("-^ + * <= 0")
    assert isinstance(tree, Binary) and tree.op == "<="
    assert isinstance(tree.left, Binary) and tree.left.op == "+"
    assert isinstance(tree.left.left, Unary) and tree.left.left.op == "-"
    # a minus sign directly before a number belongs to it: -1^ is -1 + ^
    assert parse("-1^") == Literal(1, F(-1), (1, ""), 0)


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("{1|-1", 6),
        ("1 + ", 5),
        ("{1||2||3}", 6),  # two top-level double bars: ambiguous
        ("^ <= $", 6),
        ("temperature(^", 14),
        (")", 1),
        ("3/0", 1),
    ],
)
def test_syntax_errors_name_the_column(text: str, column: int) -> None:
    with pytest.raises(ExpressionError, match=f"column {column}:"):
        evaluate(text)


# ------------------------------------------------------------------ values
def test_games_read_as_cgsuite_writes_them() -> None:
    assert evaluate("{0|*}") == UP
    assert evaluate("^*") == UP + STAR == G([0, STAR], [0])  # ^* = {0,*|0}
    assert evaluate("*3") == CanonicalForm.nimber(3)
    assert evaluate("^3") == UP + UP + UP
    assert evaluate("v") == -UP and evaluate("vv*") == -UP - UP + STAR
    assert evaluate("3/8") == CanonicalForm.number(F(3, 8))
    assert evaluate("1.5") == G([1], [2])  # 3/2 = {1|2}
    assert evaluate("+-1") == G([1], [-1])
    assert evaluate("±1") == evaluate("+-1")
    assert evaluate("{0||0|-2}") == evaluate("Tiny(2)") == G([0], [G([0], [-2])])
    assert evaluate("Miny(2)") == -evaluate("Tiny(2)")
    assert evaluate("2Tiny(2)") == 2 + evaluate("Tiny(2)")
    assert evaluate("-1^") == -1 + UP
    assert evaluate("+-{1,{2|0}}") == G([1, G([2], [0])], [-1, G([0], [-2])])
    assert evaluate("1/2*2") == F(1, 2) + CanonicalForm.nimber(2)  # a literal, not a product
    assert evaluate("2 * ^") == evaluate("2 × ^") == UP + UP


def test_arithmetic_and_comparisons_agree_with_the_theory() -> None:
    g = evaluate("{1|-1} + ^ + *2")
    assert g == G([1], [-1]) + UP + CanonicalForm.nimber(2)
    # ^ and * are confused (Winning Ways: ^ is confused with *, ^* with 0)
    assert evaluate("^ <= *") is False
    assert evaluate("^ >= *") is False
    assert evaluate("^ <> *") is True
    assert evaluate("^* <> 0") is True
    assert evaluate("^ > 0") is True and evaluate("0 < ^") is True
    assert evaluate("* + * == 0") is True
    assert evaluate("^ <| *") is True and evaluate("^ |> *") is True
    assert evaluate("1/2 + 1/2 == 1") is True
    assert format_value(evaluate("compare(^, *)")) == "<>"
    assert format_value(evaluate("compare(^^, ^)")) == ">"


def test_functions_give_hand_computed_values() -> None:
    # a switch {a|b}, a > b: temperature (a-b)/2, mean (a+b)/2, stops a and b
    assert evaluate("temperature({2|-1})") == F(3, 2)
    assert evaluate("mean({2|-1})") == F(1, 2)
    assert evaluate("left_stop({2|-1})") == 2 and evaluate("RightStop({2|-1})") == -1
    # {3||2|1}: Left's scaffold 3 - t meets Right's 3/2 + t at t = 3/4, mean 9/4
    assert evaluate("temperature({3||2|1})") == F(3, 4)
    assert evaluate("{3||2|1}.Mean") == F(9, 4)
    assert format_value(evaluate("outcome({1|-1})")) == "N"
    assert format_value(evaluate("outcome(^)")) == "L"
    assert evaluate("birthday(^)") == 2 and evaluate("birthday(*3)") == 3
    assert evaluate("left_options(*3)") == [0, STAR, CanonicalForm.nimber(2)]
    assert evaluate("right_options(^)") == [STAR]
    # {0|^*} is ^^, of atomic weight 2; rcf drops the infinitesimal: {1|*} -> {1|0}
    assert evaluate("atomic_weight({0|^*})") == 2
    assert evaluate("reduced({1|*})") == G([1], [0])
    # cooling {3||2*|1*} by more than its temperature freezes it at its mean 9/4
    assert evaluate("cool({3||2*|1*}, 1)") == F(9, 4)
    # heating an integer does nothing; heating {1|-1} by 1 gives {2|-2}
    assert evaluate("heat(5, 1)") == 5 and evaluate("heat(+-1, 1)") == G([2], [-2])
    assert evaluate("Tiny(2) <= ^") is True  # tinies are below every positive all-small unit


def test_non_dyadic_numbers_are_numbers_but_not_games() -> None:
    assert format_value(evaluate("1/3")) == "1/3"
    with pytest.raises(ExpressionError, match="1/3 is not a dyadic rational"):
        evaluate("{1/3|1}")
    with pytest.raises(ExpressionError, match="unknown function"):
        evaluate("frobnicate(1)")
    with pytest.raises(ExpressionError, match="takes 2 arguments"):
        evaluate("cool(^)")


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("on", "on"),
        ("off", "off"),
        ("over", "over"),
        ("dud", "dud"),
        ("{0|pass}", "over"),
        ("a{0|a}", "over"),
        ("on + off", "dud"),
        ("1 + over", "1over"),
        ("1 & 0", "1 & 0"),
    ],
)
def test_loopy_names_reach_the_loopy_algebra(text: str, printed: str) -> None:
    """The one extension point (expression.loopy_value) hands loopy nodes to
    cgt.algebra.loopy; the values are checked by hand in tests/test_algebra_loopy.py."""
    assert format_value(evaluate(text)) == printed


def test_loopy_errors_name_the_column() -> None:
    with pytest.raises(ExpressionError, match="column 1: pass stands outside braces"):
        evaluate("pass")
    with pytest.raises(ExpressionError, match=r"onside .* at least its offside"):
        evaluate("^ & *")  # ^ and * are confused: no game has onside ^ and offside *


def test_values_show_cgsuite_notation_in_a_repl() -> None:
    assert repr(evaluate("{1|-1}")) == "+-1"
    assert "\\uparrow" in evaluate("^*")._repr_latex_()
    assert "↑" in evaluate("^^")._repr_html_()


# ------------------------------------------------------------------ the command
def test_eval_prints_cgsuite_notation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "{1|-1} + {1|-1}")
    assert (code, out.strip()) == (0, "0")
    code, out, _ = run(capsys, "eval", "^ <= *")
    assert (code, out.strip()) == (0, "false")
    code, out, _ = run(capsys, "eval", "-1^")  # not taken for an option
    assert (code, out.strip()) == (0, "-1^")


def test_eval_json_and_syntax_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "{2|-1}", "--json")
    data = json.loads(out)
    assert code == 0 and data["kind"] == "game"
    assert (data["temperature"], data["mean"], data["outcome"]) == ("3/2", "1/2", "N")
    assert (data["left_options"], data["right_options"]) == (["2"], ["-1"])
    code, out, err = run(capsys, "eval", "{1|-1")
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "column 6" in err


def test_eval_plots_a_thermograph(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "thermograph.png"
    code, out, _ = run(capsys, "eval", "thermograph({2|-1})", "--plot", str(target))
    assert code == 0 and out.startswith("Thermograph(mast 1/2 from temperature 3/2")
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, err = run(capsys, "eval", "^ <= *", "--plot", str(target))
    assert code == 2 and "needs a game or a thermograph" in err


def test_uptimal_expansions_as_cgsuite_tests_them() -> None:
    """CGSuite's UptimalTest: sums of a number, a nimber and multiples of ^, ^<2>, ^<3> (built
    here from their definitions ^<2> = {0|v*}, ^<3> = {0|v* - ^<2>}) have exactly those
    coefficients as their expansion."""
    from itertools import product

    from cgt.algebra.generalised import expansion

    up2 = G([0], [-UP + STAR])
    up3 = G([0], [-UP + STAR - up2])
    for number, nimber in product([0, 1, F(-5, 4)], [0, 1, 2]):
        for a1, a2, a3 in product(range(-2, 3), repeat=3):
            g = number + CanonicalForm.nimber(nimber) + a1 * UP + a2 * up2 + a3 * up3
            coefficients = (a1, a2, a3)
            while coefficients and coefficients[-1] == 0:
                coefficients = coefficients[:-1]
            assert expansion(g.id) == (F(number), coefficients, nimber), (
                number,
                nimber,
                a1,
                a2,
                a3,
            )
    assert str(up2) == "^<2>" and str(UP + up2 + up3) == "^[3]" and str(-up3 + STAR) == "v<3>*"
    assert evaluate("^<3>") == up3 and evaluate("v[2]*") == -UP - up2 + STAR


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="{}|,()+-*^v<>[]=!.&0123456789/ TinyMcolw_", max_size=16))
def test_any_text_reads_or_fails_with_one_line(text: str) -> None:
    """Whatever is typed, the answer is a value or a CGTError (one line, exit 2), never a
    traceback."""
    try:
        with Budget(max_forms=100_000).active():
            evaluate(text)
    except CGTError as exc:
        assert "\n" not in str(exc)


@pytest.mark.parametrize(
    ("text", "printed"), [("*0", "0"), ("{*0|*0}", "*"), ("*0+*3", "*3"), ("*0 == 0", "true")]
)
def test_star_zero_is_zero(text: str, printed: str) -> None:
    # CGSuite reads *0 as the nimber 0, which is the game 0 (it once ended in an AssertionError)
    assert format_value(evaluate(text)) == printed


@pytest.mark.parametrize("text", ["{" * 5000, "(" * 5000 + "1" + ")" * 5000])
def test_deep_nesting_is_one_error_not_a_recursion_error(text: str) -> None:
    with pytest.raises(ExpressionError, match="nests too deeply"):
        evaluate(text)
