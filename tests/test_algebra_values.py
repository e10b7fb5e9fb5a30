"""Values of protocol-game positions: Domineering's published values (Winning Ways, CGSuite), agreement
of the outcome classes with the exact solvers, and the ``cgt value`` report."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cgt.algebra import CanonicalForm, parse_game
from cgt.algebra.values import value_of
from cgt.errors import CGTError, ParameterError, PositionError
from cgt.protocol import Outcome
from cgt.registry import load_game
from cgtapp.commands.value import value_command, value_report
from solvers import solve


def board(rows: int, cols: int) -> str:
    return "|".join("." * cols for _ in range(rows))


@pytest.fixture(scope="module")
def domineering():  # type: ignore[no-untyped-def]
    return load_game("domineering")


@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [(2, 2, "+-1"), (3, 3, "+-1"), (2, 3, "{2|-1/2}"), (3, 2, "{1/2|-2}")],
)
def test_published_domineering_values(domineering, rows: int, cols: int, expected: str) -> None:  # type: ignore[no-untyped-def]
    assert value_of(domineering, domineering.parse(board(rows, cols))) == parse_game(expected)


@pytest.mark.parametrize("n", range(1, 9))
def test_single_column_and_row(domineering, n: int) -> None:  # type: ignore[no-untyped-def]
    # a column is n // 2 free vertical moves for Left; a row the same for Right
    assert value_of(domineering, domineering.parse(board(n, 1))) == n // 2
    assert value_of(domineering, domineering.parse(board(1, n))) == -(n // 2)


def test_components_add(domineering) -> None:  # type: ignore[no-untyped-def]
    # a 3x2 block ({1/2|-2}, the transpose of 2x3 with the players swapped) and a column of 3
    # cells (1), separated by a blocked column
    position = domineering.parse("..#.|..#.|..#.")
    assert value_of(domineering, position) == parse_game("{1/2|-2}") + 1


@pytest.mark.parametrize(("rows", "cols"), [(2, 4), (2, 5), (3, 4), (4, 3), (4, 4)])
def test_outcome_class_agrees_with_the_solver(domineering, rows: int, cols: int) -> None:  # type: ignore[no-untyped-def]
    position = domineering.parse(board(rows, cols))
    outcome = value_of(domineering, position).outcome()
    left_first = solve(domineering, domineering.with_to_move(position, 0)).outcome
    right_first = solve(domineering, domineering.with_to_move(position, 1)).outcome
    assert (left_first == Outcome.WIN) == (outcome in "LN")
    assert (right_first == Outcome.WIN) == (outcome in "RN")


def test_five_by_five_is_zero(domineering) -> None:  # type: ignore[no-untyped-def]
    # about 1.7 s of CPU (not marked slow any more; benchmarks/CANONICAL.md has timings)
    assert value_of(domineering, domineering.parse(board(5, 5))) == 0


def test_four_by_four_prints_as_cgsuite(domineering) -> None:  # type: ignore[no-untyped-def]
    # CGSuite's own test suite (GameGridTest): Domineering(Grid.Empty(4,4)).CanonicalForm
    value = value_of(domineering, domineering.parse(board(4, 4)))
    assert str(value) == "+-{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}"
    report = value_report("domineering", {}, board(4, 4))
    assert report["canonical"] == str(value) and report["outcome"] == "N"


def test_impartial_values_are_nimbers() -> None:
    nim = load_game("nim", heaps="1,2")
    assert value_of(nim) == CanonicalForm.nimber(3)
    kayles = load_game("kayles", heaps="4")
    assert value_of(kayles) == CanonicalForm.nimber(1)


def test_value_report_fields() -> None:
    report = value_report("domineering", {}, "..|..")
    assert report["canonical"] == "+-1"
    assert report["outcome"] == "N"
    assert (report["left_stop"], report["right_stop"]) == ("1", "-1")
    assert (report["mean"], report["temperature"]) == ("0", "1")
    assert value_report("nim", {"heaps": "1,2,3"}, None)["outcome"] == "P"


def test_value_report_errors_are_cgt_errors() -> None:
    with pytest.raises(CGTError):
        value_report("no-such-game", {}, None)
    with pytest.raises(ParameterError):
        value_report("nim", {"heaps": "3,x"}, None)
    with pytest.raises(PositionError):
        value_report("nim", {}, "3,-1")


def test_value_command_json() -> None:
    result = CliRunner().invoke(value_command, ["domineering", "...|...", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["canonical"] == "{2|-1/2}"
    assert data["mean"] == "3/4" and data["temperature"] == "5/4"
    text = CliRunner().invoke(value_command, ["kayles", "-p", "heaps=3"]).output
    assert "*3" in text
