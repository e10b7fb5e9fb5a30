"""``cgt value`` refuses, in one line with exit status 2, every game or position that has no
short CGT value, and says why: games that are not normal play (LAG, Entropy, Interleave,
tic-tac-toe: the player without a move does not always lose) and games whose positions can
repeat beyond what loopy values reach (Control with line-of-sight control on size 3; on
size 2 its value is computed, tests/test_control_loopy_values.py)."""

from __future__ import annotations

import pytest

from cgt.algebra.values import NotValuableError, ValueCalculator, check_valuable
from cgt.protocol import Game, Outcome
from cgt.registry import load_game
from tests.cli_runner import run
from tests.toy_games import Subtraction


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        # White stands on its far row with one object, Black likewise: White, to move, has no
        # legal move and equal object counts, so White has won (LAG's scoring) although a
        # normal-play value would call the position 0, a loss for the player to move.
        (("lag", "-p", "size=3", "W../..../...../..../..B W"), "not a normal-play game"),
        (("interleave",), "not a normal-play game"),
        (
            ("entropy", "-p", "width=4", "-p", "height=3", "-p", "setup=SSSS/..../OOOO O"),
            "not a normal-play game",
        ),
        (("tictactoe",), "not a normal-play game"),
        # positions can repeat: a loopy value, refused here only because the game graph of
        # the size-3 start is too large for it
        (("control", "-p", "size=3", "-p", "control=sight"), "too many for loopy values"),
    ],
)
def test_value_refuses_games_without_a_short_value(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], reason: str
) -> None:
    code, out, err = run(capsys, "value", *args)
    assert code == 2, out
    # progress lines ("value: ...") may come first; the refusal itself is one line
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("value:")]
    assert len(lines) == 1, err
    assert lines[0].startswith("cgt: error: ") and reason in lines[0]
    assert "Traceback" not in err and out == ""


def test_declared_properties_of_every_registered_game() -> None:
    """Hand classification from the rules (docs/rules.md): which games are normal play and
    which can repeat a position."""
    normal = {"control", "super-nonnect", "domineering", "snort", "nim", "kayles"}
    not_normal = {"lag", "interleave", "entropy", "tictactoe"}
    for name in normal:
        assert load_game(name).normal_play, name
    for name in not_normal:
        assert not load_game(name).normal_play, name
    assert load_game("control").acyclic
    assert not load_game("control", control="sight").acyclic
    assert not load_game("entropy").acyclic
    assert load_game("lag").acyclic


class UndeclaredScoring(Subtraction):
    """Take 1-3; the player left without a move *wins*, but the class forgot to declare
    ``normal_play = False``: the calculator must notice at the first finished position."""

    name = "toy-undeclared-scoring"

    def result(self, position: tuple[int, int]) -> Outcome | None:
        return None if self.moves(position) else Outcome.WIN

    def with_to_move(self, position: tuple[int, int], player: int) -> tuple[int, int]:
        return (position[0], player)


class UndeclaredCycle(Subtraction):
    """Add or take one token (heaps 0..3): positions repeat, and nothing declares it."""

    name = "toy-undeclared-cycle"

    def moves(self, position: tuple[int, int]) -> list[int]:
        return [m for m in (1, -1) if 0 <= position[0] - m <= 3]

    def with_to_move(self, position: tuple[int, int], player: int) -> tuple[int, int]:
        return (position[0], player)


@pytest.mark.parametrize(
    ("game", "reason"),
    [(UndeclaredScoring(heap=3), "not a normal-play game"), (UndeclaredCycle(heap=2), "repeat")],
)
def test_calculator_catches_undeclared_rules(game: Game, reason: str) -> None:  # type: ignore[type-arg]
    check_valuable(game)  # nothing declared: the check lets it through ...
    with pytest.raises(NotValuableError, match=reason):
        ValueCalculator(game)(game.initial_position())  # ... and the calculation refuses
