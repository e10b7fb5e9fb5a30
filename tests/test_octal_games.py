"""The heap games as protocol games: notation, moves, errors, and the exact solvers agreeing
with Sprague-Grundy theory (a position is a second-player win iff its Grundy value is 0)."""

from __future__ import annotations

import pytest

from cgt.algebra.impartial import octal_grundy_sequence
from cgt.errors import MoveError, ParameterError, PositionError
from cgt.protocol import Outcome
from cgt.registry import load_game
from solvers import solve


def test_registry_names_and_defaults() -> None:
    assert load_game("nim").initial_position().heaps == (3, 4, 5)
    assert getattr(load_game("kayles"), "code") == "0.77"  # noqa: B009
    assert getattr(load_game("dawsons-kayles"), "code") == "0.07"  # noqa: B009
    assert load_game("octal", code="0.07").parameters["code"] == "0.07"


def test_notation_round_trip_and_side_to_move() -> None:
    nim = load_game("nim")
    position = nim.parse("5,3 S")
    assert position.heaps == (3, 5) and nim.to_move(position) == 1
    assert nim.render(position) == "3,5 S"
    assert nim.parse(nim.render(nim.parse("0"))).heaps == ()


def test_kayles_moves_from_the_rule_text() -> None:
    kayles = load_game("kayles", heaps="4")
    start = kayles.initial_position()
    names = sorted(kayles.move_name(start, m) for m in kayles.moves(start))
    # take 1: leave 3, or split 1+2; take 2: leave 2, or split 1+1
    assert names == ["4->1+1", "4->1+2", "4->2", "4->3"]
    after = kayles.play(start, kayles.parse_move(start, "4->1+2"))
    assert after.heaps == (1, 2) and kayles.to_move(after) == 1


@pytest.mark.parametrize(
    ("name", "params", "error"),
    [
        ("nim", {"heaps": "3,a"}, ParameterError),
        ("octal", {"code": "0.Z"}, ParameterError),  # 0.9 is hexadecimal now
        ("kayles", {"code": "0.77"}, ParameterError),  # the code of kayles is fixed
    ],
)
def test_bad_parameters(name: str, params: dict[str, str], error: type[Exception]) -> None:
    with pytest.raises(error):
        load_game(name, **params)


def test_bad_positions_and_moves() -> None:
    nim = load_game("nim")
    for text in ("", "3,4 X", "3;4", "3 4 5"):
        with pytest.raises(PositionError):
            nim.parse(text)
    with pytest.raises(MoveError):
        nim.parse_move(nim.initial_position(), "3->4")


@pytest.mark.parametrize("code", ["0.77", "0.07"])
def test_solver_agrees_with_grundy_values(code: str) -> None:
    values = octal_grundy_sequence(code, 12)
    for n in range(1, 12):
        game = load_game("octal", code=code, heaps=str(n))
        result = solve(game)
        assert (result.outcome == Outcome.LOSS) == (values[n] == 0), n


def test_solver_on_nim_sums() -> None:
    assert solve(load_game("nim", heaps="1,2,3")).outcome == Outcome.LOSS
    assert solve(load_game("nim", heaps="3,4,5")).outcome == Outcome.WIN
