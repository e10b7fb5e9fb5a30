"""Alpha-beta with a transposition table against hand-computed toy games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import solvers.alphabeta as alphabeta_module
from cgt.errors import ParameterError
from cgt.protocol import Game, Outcome
from solvers.alphabeta import AlphaBeta
from solvers.tt import EXACT, LOWER, UPPER, TranspositionTable
from tests.toy_games import (
    HAND_GRAPHS,
    DoubleTake,
    Subtraction,
    TiedFinish,
    TwoHeapNim,
    escapable_cycle,
    random_graph_game,
    reachable,
    reference_values,
)

TABLE_SIZES = (2, 16, 1 << 12)


@pytest.mark.parametrize("entries", TABLE_SIZES)
@pytest.mark.parametrize("graph", sorted(HAND_GRAPHS))
def test_hand_computed_graph_values(graph: str, entries: int) -> None:
    game, expected = HAND_GRAPHS[graph]
    searcher = AlphaBeta(game, tt_entries=entries)
    for node, value in expected.items():
        assert searcher.value(node) == value, node


@pytest.mark.parametrize("remoteness", [True, False])
@pytest.mark.parametrize("entries", TABLE_SIZES)
def test_toy_games_match_hand_formulas(entries: int, remoteness: bool) -> None:
    def check(game: Game[Any, Any], expected: Any, heap_of: Any) -> None:
        searcher = AlphaBeta(game, tt_entries=entries, remoteness=remoteness)
        for position in reachable(game):
            outcome, distance = expected(*heap_of(position))
            assert searcher.value(position) == (outcome, distance if remoteness else None)

    check(Subtraction(heap=13), Subtraction.expected, lambda p: (p[0],))
    check(DoubleTake(heap=11), DoubleTake.expected, lambda p: (p[0],))
    check(TwoHeapNim(a=3, b=5), TwoHeapNim.expected, lambda p: (p[0], p[1]))
    tied = TiedFinish(heap=6)
    searcher = AlphaBeta(tied, tt_entries=entries, remoteness=remoteness)
    for position in reachable(tied):
        if position[0] > 0:
            outcome, distance = TiedFinish.expected(position[0])
            assert searcher.value(position) == (outcome, distance if remoteness else None)


@pytest.mark.parametrize("seed", range(40))
def test_random_cyclic_graphs_match_naive_reference(seed: int) -> None:
    game = random_graph_game(seed, size=30, max_degree=3)
    positions = reachable(game)
    expected = reference_values(game, positions)
    for entries in (4, 1 << 10):
        searcher = AlphaBeta(game, tt_entries=entries)
        for position in positions:
            assert searcher.value(position) == expected[position], (entries, position)
        # each position also searched first, with an empty table (no help from earlier ones)
        for position in positions[:5]:
            assert AlphaBeta(game, tt_entries=entries).value(position) == expected[position]


def test_solve_gives_move_values_best_moves_and_principal_variation() -> None:
    result = AlphaBeta(escapable_cycle()).solve("B")
    assert result.outcome == Outcome.LOSS and result.remoteness == 2
    assert [(m.name, m.outcome, m.remoteness) for m in result.moves] == [
        ("on", Outcome.LOSS, 2),
        ("resign", Outcome.LOSS, 1),
    ]
    assert result.best_moves == ["on"]
    assert result.principal_variation == ["on", "escape"]
    assert result.solver == "alphabeta"
    assert result.extra["nodes"] > 0


def test_principal_variation_is_a_perfect_line() -> None:
    game = Subtraction(heap=13)  # 13 = 4 * 3 + 1: win in 7, first move takes 1
    result = AlphaBeta(game).solve()
    assert result.best_moves == ["1"]
    assert len(result.principal_variation) == 7
    position = game.initial_position()
    for name in result.principal_variation:
        position = game.play(position, game.parse_move(position, name))
    assert position[0] == 0 and position[1] == 1  # the second player is left without a move


def test_terminal_position_has_no_moves() -> None:
    result = AlphaBeta(Subtraction(heap=0)).solve()
    assert (result.outcome, result.remoteness, result.moves) == (Outcome.LOSS, 0, [])
    assert result.principal_variation == []


def test_without_remoteness_scores_are_plain_outcomes() -> None:
    result = AlphaBeta(Subtraction(heap=10), remoteness=False).solve()
    assert result.outcome == Outcome.WIN and result.remoteness is None
    assert result.best_moves == ["2"]  # the only move to a multiple of 4
    assert all(m.remoteness is None for m in result.moves)


def test_transposition_table_verifies_full_keys() -> None:
    table = TranspositionTable(8)  # 4 buckets: ints k and k + 4 share a bucket
    table.store(1, EXACT, 10, "a", work=5)
    table.store(5, LOWER, 20, "b", work=1)  # less work: goes to the always-replace slot
    assert table.probe(1) == (EXACT, 10, "a")
    assert table.probe(5) == (LOWER, 20, "b")
    assert table.probe(9) is None  # same bucket, different key: never someone else's entry
    table.store(9, UPPER, 30, "c", work=2)  # replaces 5, keeps the costlier 1
    assert table.probe(5) is None
    assert table.probe(1) == (EXACT, 10, "a")
    assert table.probe(9) == (UPPER, 30, "c")
    table.store(13, EXACT, 40, "d", work=50)  # costlier: takes slot 0, demotes 1, drops 9
    assert table.probe(13) == (EXACT, 40, "d")
    assert table.probe(1) == (EXACT, 10, "a")
    assert table.probe(9) is None
    assert table.replacements == 2
    assert table.capacity == 8 and table.filled == 2
    assert table.approx_bytes > 0


def test_table_capacity_is_validated_and_rounded() -> None:
    with pytest.raises(ParameterError, match="entries"):
        TranspositionTable(1)
    with pytest.raises(ParameterError, match="entries"):
        AlphaBeta(Subtraction(), tt_entries=0)
    assert TranspositionTable(100).capacity == 64


def test_tiny_table_replaces_entries_and_agrees() -> None:
    game = TwoHeapNim(a=5, b=6)
    small = AlphaBeta(game, tt_entries=16)
    large = AlphaBeta(game, tt_entries=1 << 14)
    for position in reachable(game):
        assert small.value(position) == large.value(position)
    assert small.table.replacements > 0
    assert large.table.replacements == 0


def test_custom_move_ordering_is_used_and_changes_nothing() -> None:
    calls = []

    def reverse(game: Game[Any, Any], position: Any, moves: Sequence[Any]) -> list[Any]:
        calls.append(position)
        return list(reversed(moves))

    game = Subtraction(heap=15)
    ordered = AlphaBeta(game, ordering=reverse).solve()
    plain = AlphaBeta(game).solve()
    assert calls
    assert (ordered.outcome, ordered.remoteness, ordered.best_moves) == (
        plain.outcome,
        plain.remoteness,
        plain.best_moves,
    )


def test_progress_is_reported_and_interrupt_propagates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(alphabeta_module, "PROGRESS_INTERVAL", 0.0)
    reports: list[dict[str, Any]] = []
    AlphaBeta(TwoHeapNim(a=25, b=26), progress=reports.append).solve()
    assert reports and reports[0]["phase"] == "search" and reports[-1]["nodes"] > 0

    class InterruptedOnce(Subtraction):
        interrupted = False

        def play(self, position: tuple[int, int], move: int) -> tuple[int, int]:
            if position[0] < 5 and not self.interrupted:
                self.interrupted = True
                raise KeyboardInterrupt
            return super().play(position, move)

    searcher = AlphaBeta(InterruptedOnce(heap=20))
    with pytest.raises(KeyboardInterrupt):
        searcher.solve()
    # the search can go on afterwards: nothing half-done was stored as a result
    assert searcher.value((20, 0)) == Subtraction.expected(20)


def test_long_paths_do_not_hit_the_recursion_limit() -> None:
    game = Subtraction(heap=3001)  # 3001 = 4 * 750 + 1: won; the search path is 3001 deep
    assert AlphaBeta(game, remoteness=False).value(game.initial_position()) == (
        Outcome.WIN,
        None,
    )
