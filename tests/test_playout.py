"""The compiled playout interface agrees with the readable rules, and the Monte-Carlo player
finds the wins that retrograde analysis knows."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from cgt.errors import CGTError, ParameterError
from cgt.protocol import Outcome
from cgt.registry import load_game
from solvers.api import solve
from solvers.kernels import PLAYOUTS
from solvers.player import choose_move, playout_rules, search_move
from solvers.playout import disagreements, protocol_rules
from solvers.retrograde import retrograde

# every game with a plug-in, on small boards and on the designers' boards, every rule switch
PLUG_IN_CASES = [
    ("control", {"size": 3}),
    ("control", {"size": 5}),
    ("control", {"size": 5, "control": "sight"}),
    ("control", {"size": 7, "opening": "free"}),
    ("lag", {"size": 3}),
    ("lag", {"size": 4, "goal": "strict"}),
    ("lag", {"size": 4, "goal": "far-row"}),
    ("lag", {"size": 5, "goal": "far-row-one-object"}),
    ("interleave", {"size": 3}),
    ("interleave", {"size": 4, "win": "groups"}),
    ("interleave", {"size": 4, "turns": "loser"}),
    ("interleave", {"size": 5, "first": "black"}),
    ("super-nonnect", {}),
    ("super-nonnect", {"rule": "revised"}),
    ("super-nonnect", {"shape": "hex7", "rule": "revised"}),
    ("super-nonnect", {"a": 2, "b": 3}),
    ("entropy", {}),
    ("entropy", {"goal": "disable"}),
    ("entropy", {"width": 7, "height": 7}),
]


@pytest.mark.parametrize(("name", "params"), PLUG_IN_CASES)
def test_plug_in_matches_the_readable_rules_move_for_move(name: str, params: dict[str, Any]):
    rules = PLAYOUTS[name](load_game(name, **params))
    assert disagreements(rules, walks=12, plies=400, seed=7) == []


def test_the_check_refutes_a_plug_in_that_drops_a_move_or_forgets_the_turn():
    rules = PLAYOUTS["lag"](load_game("lag", size=3))

    def drop_last(state, tables, out):  # one move fewer than the rules allow
        return rules.generate(state, tables, out) - 1

    def keep_turn(state, code, tables, child):
        rules.play(state, code, tables, child)
        child[2] = state[2]

    assert any(
        "moves differ" in d for d in disagreements(replace(rules, generate=drop_last), 3, 50)
    )
    assert any("after" in d for d in disagreements(replace(rules, play=keep_turn), 3, 50))


def test_the_readable_fallback_matches_its_own_rules():
    rules = protocol_rules(load_game("tictactoe"))
    assert disagreements(rules, walks=10, plies=20) == []


# ------------------------------------------------------------------------- the player
SMALL_BOARDS = [
    ("control", {"size": 2}),
    ("control", {"size": 2, "control": "sight"}),
    ("interleave", {"size": 2}),
    ("super-nonnect", {"a": 2, "b": 2}),
    ("tictactoe", {}),  # no plug-in: the readable fallback
]
# boards with won positions where some move loses (every move wins every won Control size-2
# position), solved position by position
WON_POSITION_BOARDS = [
    ("control", {"size": 3}, 8),
    ("lag", {"size": 3}, 10),
    ("interleave", {"size": 2}, 0),
    ("super-nonnect", {"a": 2, "b": 2}, 0),
    ("tictactoe", {}, 0),
]


def _won_positions(name: str, params: dict[str, Any], depth: int, count: int) -> list[tuple]:
    """(game, position, winning move names) for won positions that also have a losing move
    (so a careless choice goes wrong), found by random play from the start (at least
    ``depth`` plies) and solved exactly."""
    game = load_game(name, **params)
    chooser = random.Random(3)
    found = []
    for _ in range(40 * count):
        position = game.initial_position()
        for _ in range(depth + chooser.randrange(6)):
            moves = game.moves(position)
            if game.result(position) is not None:
                break
            position = game.play(position, chooser.choice(list(moves)))
        if game.result(position) is not None:
            continue
        result = solve(game, position, tt_entries=1 << 16)
        winning = {m.name for m in result.moves if m.outcome is Outcome.WIN}
        if result.outcome is Outcome.WIN and len(winning) < len(result.moves):
            found.append((game, position, winning))
            if len(found) == count:
                break
    return found


@pytest.mark.parametrize(("name", "params", "depth"), WON_POSITION_BOARDS)
def test_the_search_plays_a_winning_move_on_won_positions(
    name: str, params: dict[str, Any], depth: int
):
    cases = _won_positions(name, params, depth, count=12)
    assert len(cases) == 12
    for game, position, winning in cases:
        choice = search_move(game, position, playouts=3000, seed=1)
        assert choice.name in winning, (game.render(position), choice.name, winning)


@pytest.mark.parametrize(("name", "params"), SMALL_BOARDS)
def test_the_search_proves_the_short_forced_wins_retrograde_knows(
    name: str, params: dict[str, Any]
):
    game = load_game(name, **params)
    solution = retrograde(game, symmetry=False, keep_positions=True)
    short = [
        solution.position_of(n)
        for n in range(len(solution))
        if solution.outcome(solution.position_of(n)) is Outcome.WIN
        and 0 < (solution.remoteness(solution.position_of(n)) or 0) <= 5
    ]
    random.Random(5).shuffle(short)
    for position in short[:10]:
        choice = search_move(game, position, playouts=20_000, seed=2)
        assert choice.estimate.kind == "proven"
        assert choice.estimate.outcome is Outcome.WIN
        winning = {m.name for m in solution.move_values(position) if m.outcome is Outcome.WIN}
        assert choice.name in winning


def test_tictactoe_is_never_called_a_win_and_a_row_in_one_is_proven():
    game = load_game("tictactoe")
    choice = search_move(game, game.initial_position(), playouts=20_000, seed=0)
    # tic-tac-toe is a draw: the search may prove it, never a win or a loss
    assert choice.estimate.outcome in (None, Outcome.DRAW)
    assert choice.estimate.win_rate is not None and 0.3 < choice.estimate.win_rate < 0.9
    choice = search_move(game, game.parse("XX./OO./..."), playouts=500, seed=0)
    assert (choice.name, choice.estimate.outcome) == ("c3", Outcome.WIN)


def test_same_seed_same_move_and_candidates_add_up():
    game = load_game("lag", size=4)
    first = search_move(game, game.initial_position(), playouts=3000, seed=11)
    again = search_move(game, game.initial_position(), playouts=3000, seed=11)
    assert first == again
    assert first.estimate.playouts == 3000
    assert first.candidates[0].visits >= first.candidates[-1].visits
    assert all(0.0 <= c.win_rate <= 1.0 for c in first.candidates)


def test_the_search_refuses_a_finished_game_and_a_bad_budget():
    game = load_game("control", size=2)
    with pytest.raises(ParameterError, match="playouts"):
        search_move(game, game.initial_position(), playouts=0)
    finished = (0b1, 0, 1)  # a position whatever: find a real finished one below
    solution = retrograde(game, symmetry=False, keep_positions=True)
    for n in range(len(solution)):
        position = solution.position_of(n)
        if game.result(position) is not None:
            finished = position
            break
    with pytest.raises(CGTError, match="over"):
        search_move(game, finished, playouts=10)


def test_choose_move_plays_the_stored_or_solved_answer(tmp_path):
    game = load_game("control", size=2)
    choice = choose_move(game, game.initial_position(), seconds=30, db=tmp_path / "none.sqlite")
    exact = retrograde(game).result()
    assert choice.source == "solved"
    assert choice.estimate.kind == "proven"
    assert choice.estimate.outcome is exact.outcome
    assert choice.estimate.remoteness == exact.remoteness
    assert choice.name in exact.best_moves


def test_a_game_subclass_with_other_rules_plays_over_its_own_rules():
    from cgt.games.control import Control

    class Shifted(Control):  # same name, other class: the plug-in must not be used
        pass

    assert not playout_rules(Shifted(size=2)).compiled
    assert playout_rules(load_game("control", size=2)).compiled
    rules = playout_rules(load_game("control", size=2))
    assert rules.decode(rules.encode((0, 0, 0))) == (0, 0, 0)


# ------------------------------------------------------------- the engine's hooks
def _engine_rules(name: str, params: dict[str, Any]) -> Any:
    from solvers.kernels import plugin_of

    game = load_game(name, **params)
    plugin = plugin_of(game)
    assert plugin is not None
    return (plugin.engine or plugin.playout)(game)  # type: ignore[misc]


ENGINE_CASES = [
    ("control", {"size": 2}),
    ("control", {"size": 3}),
    ("control", {"size": 3, "control": "sight", "opening": "free"}),
    ("control", {"size": 4}),
    ("lag", {"size": 3}),
    ("interleave", {"size": 3}),
    ("super-nonnect", {"a": 2, "b": 3}),
    ("super-nonnect", {"rule": "revised"}),
    ("entropy", {}),
]


@pytest.mark.parametrize(("name", "params"), ENGINE_CASES)
def test_engine_plug_in_keys_orders_and_moves_agree_with_the_readable_rules(
    name: str, params: dict[str, Any]
) -> None:
    from solvers.playout import engine_disagreements

    rules = _engine_rules(name, params)
    assert disagreements(rules, walks=6, plies=200, seed=3) == []
    assert engine_disagreements(rules, walks=6, plies=60, seed=3) == []


def test_the_engine_check_refutes_a_key_a_child_key_and_a_move_map_that_are_wrong() -> None:
    """Control size 3 keys its positions by their smallest image: a key that forgets black's
    pieces, a child key that swaps the colours, and a move map that ignores the symmetry are
    each caught."""
    from numba import njit

    from solvers.playout import engine_disagreements

    rules = _engine_rules("control", {"size": 3})
    key, child_key = rules.key, rules.child_key

    @njit
    def no_black(state, tables):  # type: ignore[no-untyped-def]
        k0, _, tag, symmetry = key(state, tables)
        return k0, np.uint64(0), tag, symmetry

    @njit
    def plain_child(state, code, tables, scratch):  # type: ignore[no-untyped-def]
        k0, k1, tag, _ = child_key(state, code, tables, scratch)
        return k1, k0, tag, 0

    @njit
    def identity(code, symmetry, tables):  # type: ignore[no-untyped-def]
        return code

    cases = {
        "shares its key": replace(rules, key=no_black),
        "child_key": replace(rules, child_key=plain_child),
        "stored move": replace(rules, move_from_key=identity),
    }
    for words, broken in cases.items():
        assert any(words in d for d in engine_disagreements(broken, walks=4, plies=30)), words
