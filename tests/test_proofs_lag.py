"""The LAG claim checks: they verify the real rules, and each one can fail."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from cgt.games.lag import GOALS, Lag
from cgt.protocol import Outcome
from proofs.lag import (
    DEFAULT_TERMINATION_INSTANCES,
    PerfectPlay,
    classify_end,
    ideal_goal_frequency,
    lag_with_rules,
    potential,
    search_state_graph,
    termination,
)
from proofs.registry import get_claim, run_claim


def reachable_digraph(game: Lag) -> nx.DiGraph:
    """The reachable state graph built plainly with networkx (second road to the counts)."""
    graph = nx.DiGraph()
    root = game.initial_position()
    graph.add_node(root)
    todo = [root]
    while todo:
        position = todo.pop()
        for move in game.moves(position):
            child = game.play(position, move)
            if child not in graph:
                todo.append(child)
            graph.add_edge(position, child)
    return graph


def test_claims_are_registered() -> None:
    assert get_claim("lag.termination").game == "lag"
    assert get_claim("lag.ideal-goal-frequency").game == "lag"


def test_termination_verified_and_counts_agree_with_networkx() -> None:
    verdict = run_claim("lag.termination")
    assert verdict.verdict == "verified"
    for (size, setup), searched in zip(DEFAULT_TERMINATION_INSTANCES, verdict.evidence["searched"]):
        graph = reachable_digraph(Lag(size=size, setup=setup))
        assert nx.is_directed_acyclic_graph(graph)
        assert searched["positions"] == graph.number_of_nodes()
        assert searched["edges"] == graph.number_of_edges()
        assert searched["terminal_positions"] == sum(1 for n in graph if graph.out_degree(n) == 0)
        assert searched["potential_failures"] == 0


@pytest.mark.parametrize("rules", ["backward-allowed", "free-sideways"])
def test_termination_refuted_with_broken_rules(rules: str) -> None:
    verdict = termination(rules=rules)
    assert verdict.verdict == "refuted"
    cycle = verdict.evidence["cycle"]
    assert cycle[0] == cycle[-1] and len(cycle) >= 3
    # The cycle is a real one under the broken rules, and impossible under the real rules.
    size = 2 if len(cycle[0].split("/")) == 3 else 3
    setup = dict(DEFAULT_TERMINATION_INSTANCES)[size]
    broken, real = lag_with_rules(rules, size=size, setup=setup), Lag(size=size, setup=setup)
    real_step_missing = False
    for before, after in itertools.pairwise(cycle):
        position = broken.parse(before)
        assert broken.parse(after) in {broken.play(position, m) for m in broken.moves(position)}
        real_children = {real.play(position, m) for m in real.moves(position)}
        real_step_missing |= real.parse(after) not in real_children
    assert real_step_missing


def test_potential_rises_on_random_size4_games() -> None:
    rng = random.Random(7)
    for goal in GOALS:
        game = Lag(size=4, goal=goal)
        for _game_number in range(5):
            position = game.initial_position()
            while game.moves(position):
                child = game.play(position, rng.choice(game.moves(position)))
                assert potential(game, child) > potential(game, position)
                position = child


def test_state_graph_search_stops_at_the_position_budget() -> None:
    summary = search_state_graph(Lag(size=3), Lag(size=3).initial_position(), max_positions=500)
    assert summary["positions"] == 500 and not summary["complete"]
    assert termination(instances=[(3, None)], max_positions=500).verdict == "inconclusive"


def test_perfect_play_agrees_with_the_retrograde_solver() -> None:
    retrograde = pytest.importorskip("solvers.retrograde").retrograde
    for goal in GOALS:
        game = Lag(size=3, goal=goal, setup="B.B/..../...../..../W.W W")
        solution = retrograde(game, symmetry=False)
        ours = PerfectPlay(game)
        for position in reachable_digraph(game):
            assert ours.wins(position) is (solution.outcome(position) is Outcome.WIN)


@pytest.mark.parametrize(
    ("text", "goal", "winner", "objects", "ideal"),
    [
        # White stuck with one object, Black two: White wins, the ideal goal.
        ("W../..../...../..../B.B W", "standard", "White", 1, True),
        # White stuck with two objects (a1, a3), Black two: tie, White wins dispersed.
        ("W.W/..../...../..../B.B W", "standard", "White", 2, False),
        # Same under strict: White stuck with two objects loses; Black wins with two.
        ("W.W/..../...../..../B.B W", "strict", "Black", 2, False),
        # White just reached the far row with one object: a goal, not the no-move ideal.
        ("W../..../..B../..../... B", "far-row-one-object", "White", 1, False),
    ],
)
def test_classify_end(text: str, goal: str, winner: str, objects: int, ideal: bool) -> None:
    game = Lag(size=3, goal=goal)
    end = classify_end(game, game.parse(text))
    assert (end["winner"], end["winner_objects"], end["ideal"]) == (winner, objects, ideal)


def test_ideal_goal_frequency_follows_the_measurement() -> None:
    # A finished game won dispersed (see test_classify_end): every sampled game is dispersed,
    # so the concern is borne out; a finished game won with one object refutes it.
    dispersed = ideal_goal_frequency(setup="W.W/..../...../..../B.B W", games=5)
    assert dispersed.verdict == "verified"
    assert dispersed.evidence["standard_dispersed_share"] == 1.0
    compact = ideal_goal_frequency(setup="W../..../...../..../B.B W", games=5)
    assert compact.verdict == "refuted"
    assert compact.evidence["per_goal"]["standard"]["ideal_goal_share"] == 1.0


def test_ideal_goal_frequency_default_runs_fast() -> None:
    verdict = run_claim("lag.ideal-goal-frequency")
    assert verdict.verdict in ("verified", "refuted")
    per_goal = verdict.evidence["per_goal"]
    assert set(per_goal) == set(GOALS)
    for stats in per_goal.values():
        assert sum(stats["winner_objects_histogram"].values()) == stats["games"]


@pytest.mark.slow
def test_termination_on_size3_back_rows_setup() -> None:
    # Size 3 with each home back row filled (3 pieces a side): about 0.7 million positions.
    verdict = termination(instances=[(3, "BBB/..../...../..../WWW W")], max_positions=None)
    assert verdict.verdict == "verified"
    assert verdict.evidence["searched"][0]["complete"]
