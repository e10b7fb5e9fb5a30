"""Retrograde analysis against hand-computed toy games, a naive reference and tic-tac-toe."""

from __future__ import annotations

from typing import Any

import pytest

import solvers.retrograde as retrograde_module
from cgt.errors import PositionError
from cgt.protocol import Outcome
from solvers.retrograde import PositionLimitExceeded, retrograde
from tests.toy_games import (
    HAND_GRAPHS,
    DoubleTake,
    GraphGame,
    Subtraction,
    TiedFinish,
    TwoHeapNim,
    escapable_cycle,
    random_graph_game,
    reachable,
    reference_values,
)


@pytest.mark.parametrize("graph", sorted(HAND_GRAPHS))
def test_hand_computed_graph_values(graph: str) -> None:
    game, expected = HAND_GRAPHS[graph]
    solution = retrograde(game)
    for node, (outcome, remoteness) in expected.items():
        assert (solution.outcome(node), solution.remoteness(node)) == (outcome, remoteness), node


def test_subtraction_game_matches_mod_four_rule() -> None:
    solution = retrograde(Subtraction(heap=17))
    checked = 0
    for heap in range(18):
        for player in (0, 1):
            if (heap, player) in solution:
                checked += 1
                value = (solution.outcome((heap, player)), solution.remoteness((heap, player)))
                assert value == Subtraction.expected(heap)
    assert checked == 1 + 1 + 2 * 16  # heap 17: player 0 only; heap 16: player 1 only


def test_same_player_moving_twice_is_not_negated() -> None:
    game = DoubleTake(heap=12)
    solution = retrograde(game)
    assert solution.same_player.any()  # the graph really has same-player edges
    for heap in range(13):
        for player in (0, 1):
            if (heap, player) in solution:
                value = (solution.outcome((heap, player)), solution.remoteness((heap, player)))
                assert value == DoubleTake.expected(heap), (heap, player)


def test_terminal_ties_are_draws() -> None:
    solution = retrograde(TiedFinish(heap=7))
    for position in reachable(TiedFinish(heap=7)):
        if position[0] > 0:
            value = (solution.outcome(position), solution.remoteness(position))
            assert value == TiedFinish.expected(position[0])
    assert solution.outcome((7, 0, 0)) == Outcome.DRAW
    assert solution.outcome((0, 2, 0)) == Outcome.DRAW
    assert solution.remoteness((0, 2, 0)) is None
    assert solution.outcome((0, 1, 0)) == Outcome.LOSS


def test_symmetry_merges_swapped_heaps() -> None:
    game = TwoHeapNim(a=3, b=4)
    # every heap pair (x, y) with x <= 3, y <= 4 is reachable (20 pairs). The player to move
    # is the parity of the number of moves, which can be anything from the number of heaps
    # reduced to the number of tokens taken: one parity only when each heap lost at most one
    # token (x in {2, 3}, y in {3, 4}: 4 pairs), both parities otherwise: 4 + 2 * 16 = 36
    plain = reachable(game)
    assert len(plain) == 36
    assert len(retrograde(game, symmetry=False)) == 36
    solution = retrograde(game, symmetry=True)
    assert len(solution) == len({(min(x, y), max(x, y), p) for x, y, p in plain})
    for x, y, player in plain:
        expected = TwoHeapNim.expected(x, y)
        for position in ((x, y, player), (y, x, player)):
            assert (solution.outcome(position), solution.remoteness(position)) == expected


@pytest.mark.parametrize("seed", range(40))
def test_random_cyclic_graphs_match_naive_reference(seed: int) -> None:
    game = random_graph_game(seed, size=30, max_degree=3)
    positions = reachable(game)
    expected = reference_values(game, positions)
    solution = retrograde(game)
    assert len(solution) == len(positions)
    for position in positions:
        assert (solution.outcome(position), solution.remoteness(position)) == expected[position]


def test_result_lists_moves_best_moves_and_principal_variation() -> None:
    game = escapable_cycle()
    result = retrograde(game, "B").result("B")
    assert result.outcome == Outcome.LOSS and result.remoteness == 2
    assert [(m.name, m.outcome, m.remoteness) for m in result.moves] == [
        ("on", Outcome.LOSS, 2),
        ("resign", Outcome.LOSS, 1),
    ]
    assert result.best_moves == ["on"]  # the loser delays
    assert result.principal_variation == ["on", "escape"]
    assert result.positions == 4  # A, B, E, B-resigned
    assert result.solver == "retrograde"


def test_drawn_principal_variation_stops_on_repetition() -> None:
    game, _ = HAND_GRAPHS["two-cycle-draw"]
    result = retrograde(game).result()
    assert result.best_moves == ["on"]
    assert result.principal_variation == ["on", "on"]  # A -> B -> A: repeated, stop


def test_summary_iteration_and_graph_export_are_consistent() -> None:
    game = Subtraction(heap=9)
    solution = retrograde(game)
    summary = solution.summary()
    # From 9, heap h is reached after k moves with ceil((9 - h) / 3) <= k <= 9 - h: heap 9
    # only with player 0, heap 8 only with player 1, every other heap with both: 18
    # positions, 2 of them terminal (heap 0). Losses: heaps 0 (2 positions, remoteness 0),
    # 4 (2, remoteness 2), 8 (1, remoteness 4); wins: heaps 1-3 (6, remoteness 1),
    # 5-7 (6, remoteness 3), 9 (1, remoteness 5).
    assert summary["positions"] == 18 and summary["terminal"] == 2
    assert summary["by_outcome"] == {"win": 13, "loss": 5, "draw": 0}
    assert summary["by_outcome_remoteness"]["loss"] == {0: 2, 2: 2, 4: 1}
    assert summary["by_outcome_remoteness"]["win"] == {1: 6, 3: 6, 5: 1}
    assert {key for key, _, _ in solution} == set(reachable(game))
    graph = solution.to_networkx()
    # heap h has min(h, 3) moves: 3 + 3 + 2 * 3 * 5 (heaps 7..3) + 2 * 2 + 2 * 1
    assert graph.number_of_nodes() == 18
    assert graph.number_of_edges() == 42 == summary["edges"]
    assert graph.nodes[(4, 0)]["outcome"] == Outcome.LOSS


def test_keep_positions_gives_back_a_position_per_id() -> None:
    game = Subtraction(heap=5)
    solution = retrograde(game, keep_positions=True)
    kept = [solution.position_of(i) for i in range(len(solution))]
    assert kept[0] == (5, 0)
    assert sorted(kept) == sorted(reachable(game))


def test_unreachable_position_is_a_position_error() -> None:
    solution = retrograde(Subtraction(heap=5))
    with pytest.raises(PositionError, match="not reachable"):
        solution.outcome((6, 0))


def test_position_limit_stops_enumeration() -> None:
    with pytest.raises(PositionLimitExceeded):
        retrograde(Subtraction(heap=100), max_positions=50)
    # heap 10: heaps 10 and 9 with one player each, heaps 8..0 with both: 20 positions
    assert len(retrograde(Subtraction(heap=10), max_positions=20)) == 20


def test_a_stuck_position_is_reported() -> None:
    class Stuck(GraphGame):
        def result(self, position: Any) -> Outcome | None:
            return None

    with pytest.raises(ValueError, match="no legal move"):
        retrograde(Stuck({"A": [("go", "B")]}, "A"))


def test_progress_is_reported_and_interrupt_propagates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retrograde_module, "PROGRESS_INTERVAL", 0.0)
    reports: list[dict[str, Any]] = []
    retrograde(Subtraction(heap=2000), progress=reports.append)
    assert {"enumerate", "propagate"} <= {r["phase"] for r in reports}

    class Interrupted(Subtraction):
        def play(self, position: tuple[int, int], move: int) -> tuple[int, int]:
            if position[0] < 50:
                raise KeyboardInterrupt
            return super().play(position, move)

    with pytest.raises(KeyboardInterrupt):
        retrograde(Interrupted(heap=100))


def test_tictactoe_position_counts_and_draw() -> None:
    """5,478 legal positions, 765 up to symmetry, perfect play draws (Bottomley 2001)."""
    tictactoe = pytest.importorskip("cgt.games.tictactoe")
    game = tictactoe.TicTacToe()
    plain = retrograde(game, symmetry=False)
    assert len(plain) == 5478
    symmetric = retrograde(game, symmetry=True)
    assert len(symmetric) == 765
    assert symmetric.outcome(game.initial_position()) == Outcome.DRAW
    assert plain.outcome(game.initial_position()) == Outcome.DRAW
