"""The engine's df-pn (solvers.engine_dfpn, ``EngineKernel(method="dfpn")``): one proof-number
search over any game's plug-in, checked against solvers.retrograde over the readable rules on
the boards of tests/test_engine.py (wins and losses, and draws in Connect Four)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from numba import njit

from cgt.errors import ParameterError
from solvers.engine import EngineKernel, solve_with_engine
from solvers.engine_dfpn import HINT_PROOF_SHIFT
from solvers.kernel_table import S_NODES
from solvers.retrograde import retrograde
from tests.cli_runner import run
from tests.test_engine import (  # noqa: F401 (the fixture keeps Connect Four to this module)
    BOARDS,
    CONNECT_FOUR,
    CYCLIC_BOARDS,
    _load_connect_four,
    _only_this_module_sees_connect_four,
    _rules,
)


@pytest.mark.parametrize(("name", "params"), BOARDS)
def test_dfpn_values_equal_retrograde(name: str, params: dict[str, Any]) -> None:
    """The start and every root move (each child proved as its own root: wins, losses and
    draws alike)."""
    rules = _rules(name, params)
    game = rules.game
    start = game.initial_position()
    expected = retrograde(game, start).result(start)
    result = solve_with_engine(rules, method="dfpn", tt_entries=1 << 14)
    assert result.outcome == expected.outcome
    assert [(m.name, m.outcome) for m in result.moves] == [
        (m.name, m.outcome) for m in expected.moves
    ]


@pytest.mark.parametrize("first_numbers", ["replies", "unit"])
def test_dfpn_values_equal_retrograde_on_random_positions(first_numbers: str) -> None:
    """Every position of a random line through each board, with a small table (entries are
    replaced) that carries over from one position to the next."""
    chooser = random.Random(11)
    for name, params in BOARDS:
        rules = _rules(name, params)
        game = rules.game
        kernel = EngineKernel(rules, method="dfpn", first_numbers=first_numbers, tt_entries=1 << 8)
        position = game.initial_position()
        solution = retrograde(game, position)
        while game.result(position) is None and game.moves(position):
            expected = solution.result(position).outcome
            assert kernel.value(position)[0] == expected, (name, game.render(position))
            position = game.play(position, chooser.choice(list(game.moves(position))))


def test_dfpn_resumes_from_its_table_after_running_out_of_nodes() -> None:
    """A search stopped by its node budget stores nothing on its path; calls of a few
    hundred nodes each still finish, with retrograde's value."""
    rules = _rules("lag", {"size": 3, "setup": "B.B/..../...../..../W.W W"})
    game = rules.game
    start = game.initial_position()
    expected = retrograde(game, start).result(start).outcome
    kernel = EngineKernel(rules, method="dfpn", tt_entries=1 << 12)
    answers = [kernel.bounded_score(start, -2, 2, max_nodes=40) for _ in range(200)]
    assert answers[0] is None  # the budget is far below the search
    finished = [a for a in answers if a is not None]
    assert finished and finished[0] == expected.value


@njit
def _order_by_index(
    state: np.ndarray, tables: Any, moves: np.ndarray, start: int, count: int, keys: np.ndarray
) -> int:
    for k in range(start, count):
        keys[k] = k
    return -1


@njit
def _order_naming_the_first_move_a_winner(
    state: np.ndarray, tables: Any, moves: np.ndarray, start: int, count: int, keys: np.ndarray
) -> int:
    keys[start:count] = 1
    return start


def test_dfpn_starts_children_from_the_order_hint_and_trusts_an_immediate_win() -> None:
    """With an ``order`` hook the children start from its hints (the values stay exact);
    a hook that names a move as winning at once is believed, so a false one shows: the
    second hook turns Super Nonnect 2 x 2's losing positions into wins."""
    rules = _rules("super-nonnect", {"a": 2, "b": 2, "rule": "revised"})
    game = rules.game
    start = game.initial_position()
    solution = retrograde(game, start)
    hinted = replace(rules, order=_order_by_index)
    result = solve_with_engine(hinted, method="dfpn", first_numbers="hint")
    assert [m.outcome for m in result.moves] == [m.outcome for m in solution.result(start).moves]
    lying = EngineKernel(replace(rules, order=_order_naming_the_first_move_a_winner), method="dfpn")
    losses = [
        child
        for child in (game.play(start, m) for m in game.moves(start))
        if solution.result(child).outcome.value < 0 and game.moves(child)
    ]
    assert losses and all(lying.value(child)[0].value > 0 for child in losses)


@njit
def _order_with_proof_numbers(
    state: np.ndarray, tables: Any, moves: np.ndarray, start: int, count: int, keys: np.ndarray
) -> int:
    for k in range(start, count):
        keys[k] = (k + 1) | ((count - k) << HINT_PROOF_SHIFT)
    return -1


def test_dfpn_reads_a_first_proof_number_above_the_hints_replies() -> None:
    """A hint's bits from HINT_PROOF_SHIFT up are the child's first proof number: the same
    low bits with a proof number above them start other children first (another count of
    nodes), and the values stay retrograde's."""
    rules = _rules("super-nonnect", {"a": 2, "b": 2, "rule": "revised"})
    game = rules.game
    start = game.initial_position()
    solution = retrograde(game, start)
    children = [game.play(start, m) for m in game.moves(start)]
    children = [child for child in children if game.moves(child)]
    expected = [solution.result(child).outcome for child in children]
    nodes = []
    for order in (_order_by_index, _order_with_proof_numbers):
        kernel = EngineKernel(replace(rules, order=order), method="dfpn", first_numbers="hint")
        assert [kernel.value(child)[0] for child in children] == expected
        nodes.append(kernel.stat(S_NODES))
    assert nodes[0] != nodes[1]


def test_a_broken_plug_in_gives_a_dfpn_value_retrograde_refutes() -> None:
    """The comparison with retrograde can fail: Connect Four scoring a line as a win for the
    player to move, and Control scoring no move as a win (misère), give other values."""
    module = _load_connect_four()

    @njit
    def flipped(state: np.ndarray, tables: np.ndarray) -> int:
        ended = module.c4_final(state, tables)
        return 1 if ended == -1 else ended

    @njit
    def misere(state: np.ndarray, tables: Any) -> int:
        return 1

    for name, params, final in (
        ("connect-four", {"rows": 3, "cols": 4, "connect": 3}, flipped),
        ("control", {"size": 2}, misere),
    ):
        rules = _rules(name, params)
        game = rules.game
        start = game.initial_position()
        expected = retrograde(game, start).result(start).outcome
        # Control's order hint assumes that no move loses: the broken rule goes without it
        broken_rules = replace(rules, final=final, order=None)
        broken = solve_with_engine(broken_rules, method="dfpn", move_values=False)
        assert broken.outcome != expected, name


@pytest.mark.parametrize(("name", "params"), CYCLIC_BOARDS[:1])
def test_dfpn_refuses_games_whose_positions_repeat_and_remoteness(
    name: str, params: dict[str, Any]
) -> None:
    with pytest.raises(ParameterError, match="cannot repeat"):
        EngineKernel(_rules(name, params), method="dfpn")
    rules = _rules("control", {"size": 2})
    with pytest.raises(ParameterError, match="remoteness"):
        EngineKernel(rules, method="dfpn", remoteness=True)
    without_hints = _rules("connect-four", {"rows": 3, "cols": 4, "connect": 3})
    with pytest.raises(ParameterError, match="order hint"):
        EngineKernel(without_hints, method="dfpn", first_numbers="hint")
    with pytest.raises(ParameterError, match="unknown search method"):
        EngineKernel(rules, method="mcts")


def test_a_game_from_its_own_file_proves_a_draw_by_dfpn_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Connect Four 4 rows x 3 columns, connect 3, is a draw (retrograde): df-pn proves it
    with its two questions, every root move a draw too."""
    code, out, err = run(
        capsys, "--load", str(CONNECT_FOUR), "solve", "connect-four", "-p", "rows=4",
        "-p", "cols=3", "-p", "connect=3", "--solver", "compiled", "--method", "dfpn", "--json",
    )  # fmt: skip
    assert code == 0, err
    game = _load_connect_four().ConnectFour(rows=4, cols=3, connect=3)
    start = game.initial_position()
    expected = retrograde(game, start).result(start)
    answer = json.loads(out)
    assert answer["method"] == "dfpn"
    assert answer["outcome"] == expected.outcome.label
    assert [m["outcome"] for m in answer["moves"]] == [m.outcome.label for m in expected.moves]
