"""The compiled engine (solvers.engine): one exact search over any game's playout plug-in.

The second road for every value is solvers.retrograde over the readable rules. The games
are the seed games' plug-ins on boards retrograde enumerates, and Connect Four from
docs/connect_four.py, a game added in one file with its plug-in.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cgt.protocol import Outcome
from cgt.registry import load_game
from solvers.engine import TEMPLATES, EngineKernel, solve_with_engine
from solvers.engine_search import C_MOVE_CODES, HISTORY
from solvers.kernels import PLAYOUTS, plugin_of
from solvers.playout import disagreements, engine_disagreements
from solvers.retrograde import retrograde
from tests.cli_runner import run

ROOT = Path(__file__).resolve().parent.parent
CONNECT_FOUR = ROOT / "docs" / "connect_four.py"


@pytest.fixture(autouse=True, scope="module")
def _only_this_module_sees_connect_four() -> Any:
    """Connect Four registers its game and plug-in when loaded; other test modules list the
    registered games and plug-ins, so what this module added is taken out afterwards (only
    that: a built-in game imported meanwhile registered itself once and for all)."""
    from cgt import registry
    from solvers import kernels

    games_before = set(registry._REGISTRY) | set(registry.BUILTIN_GAMES)
    plugins_before = list(kernels.PLUGINS)
    yield
    for name in set(registry._REGISTRY) - games_before:
        del registry._REGISTRY[name]
    for plugin in [p for p in kernels.PLUGINS if p not in plugins_before]:
        kernels.PLUGINS.remove(plugin)
        for index in (kernels.KERNELS, kernels.KERNEL_CLASSES, kernels.PLAYOUTS):
            index.pop(plugin.game, None)
    sys.modules.pop("cgt_plugin_connect_four", None)


def _load_connect_four() -> Any:
    """docs/connect_four.py as ``cgt --load`` imports it (registers the game and plug-in)."""
    if "cgt_plugin_connect_four" not in sys.modules:
        spec = importlib.util.spec_from_file_location("cgt_plugin_connect_four", CONNECT_FOUR)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return sys.modules["cgt_plugin_connect_four"]


BOARDS = [
    ("control", {"size": 2}),
    ("control", {"size": 2, "opening": "free"}),
    ("super-nonnect", {"a": 2, "b": 2, "rule": "original"}),
    ("super-nonnect", {"a": 2, "b": 2, "rule": "revised"}),
    ("lag", {"size": 3, "setup": "B.B/..../...../..../W.W W"}),
    ("interleave", {"size": 2}),
    ("connect-four", {"rows": 3, "cols": 4, "connect": 3}),
    ("connect-four", {"rows": 4, "cols": 3, "connect": 3}),
]


def _rules(name: str, params: dict[str, Any]) -> Any:
    if name == "connect-four":
        _load_connect_four()
    game = load_game(name, **params)
    return PLAYOUTS[name](game)


@pytest.mark.parametrize("remoteness", [False, True])
@pytest.mark.parametrize(("name", "params"), BOARDS)
def test_engine_values_equal_retrograde(
    name: str, params: dict[str, Any], remoteness: bool
) -> None:
    rules = _rules(name, params)
    game = rules.game
    start = game.initial_position()
    expected = retrograde(game, start).result(start)
    result = solve_with_engine(rules, remoteness=remoteness)
    assert result.outcome == expected.outcome
    if remoteness:
        assert result.remoteness == expected.remoteness
    assert [(m.name, m.outcome) for m in result.moves] == [
        (m.name, m.outcome) for m in expected.moves
    ]


def test_engine_values_equal_retrograde_on_random_positions() -> None:
    """Every position of a random line through each board, not only the start."""
    import random

    chooser = random.Random(3)
    for name, params in BOARDS:
        rules = _rules(name, params)
        game = rules.game
        kernel = EngineKernel(rules, remoteness=True, tt_entries=1 << 12)
        position = game.initial_position()
        solution = retrograde(game, position)
        while game.result(position) is None and game.moves(position):
            expected = solution.result(position)
            assert kernel.value(position) == (expected.outcome, expected.remoteness), (
                name,
                game.render(position),
            )
            position = game.play(position, chooser.choice(list(game.moves(position))))


@pytest.mark.parametrize(
    ("name", "params", "players_with_counts"),
    [
        ("control", {"size": 3}, 2),
        ("super-nonnect", {"a": 2, "b": 3, "rule": "revised"}, 1),
    ],
)
def test_history_is_kept_per_player_unless_the_game_is_impartial(
    name: str, params: dict[str, Any], players_with_counts: int
) -> None:
    """Cut-offs credit the mover's history counts; an impartial game (Super Nonnect: both
    players have the same moves) keeps one set, in player 0's place."""
    rules = _rules(name, params)
    kernel = EngineKernel(rules, tt_entries=1 << 12)
    kernel.solve(rules.game.initial_position(), principal_variation=False)
    codes = int(kernel.ctl[C_MOVE_CODES])
    counts = [kernel.ctl[HISTORY + p * codes : HISTORY + (p + 1) * codes] for p in (0, 1)]
    assert sum(1 for row in counts if row.any()) == players_with_counts


def test_connect_four_plug_in_matches_its_readable_rules() -> None:
    for rows, cols, connect in ((4, 5, 4), (6, 7, 4), (3, 4, 3)):
        rules = _rules("connect-four", {"rows": rows, "cols": cols, "connect": connect})
        assert disagreements(rules, walks=40, plies=60, seed=rows * cols) == []
        assert engine_disagreements(rules, walks=10, plies=60, seed=rows) == []


def test_connect_four_four_by_four_is_a_draw() -> None:
    """4 x 4 Connect Four is a draw (a published result: Allis 1988, tables of small
    boards; retrograde agrees on 3 x 4 above)."""
    rules = _rules("connect-four", {"rows": 4, "cols": 4})
    assert solve_with_engine(rules, move_values=False).outcome == Outcome.DRAW


def test_a_broken_plug_in_gives_a_value_retrograde_refutes() -> None:
    """The comparison with retrograde can fail: a plug-in whose ``final`` scores a line as a
    win for the player to move (the sign flipped) gives 3 x 4 (connect 3) another value."""
    from numba import njit

    module = _load_connect_four()
    rules = _rules("connect-four", {"rows": 3, "cols": 4, "connect": 3})

    @njit
    def flipped(state: np.ndarray, tables: np.ndarray) -> int:
        ended = module.c4_final(state, tables)
        return 1 if ended == -1 else ended

    game = rules.game
    start = game.initial_position()
    expected = retrograde(game, start).result(start).outcome
    broken = solve_with_engine(replace(rules, final=flipped), move_values=False).outcome
    assert broken != expected


CYCLIC_BOARDS = [
    ("control", {"size": 2, "control": "sight"}),
    ("control", {"size": 2, "control": "sight", "opening": "free"}),
    ("entropy", {"width": 4, "height": 3, "setup": "SS../.O../...O S"}),
]


@pytest.mark.parametrize(("name", "params"), CYCLIC_BOARDS)
def test_on_games_whose_positions_repeat_the_engine_equals_retrograde(
    name: str, params: dict[str, Any]
) -> None:
    """Positions repeat under Control's sight rule and in Entropy: a repetition on the path
    scores a draw and what depended on one is never stored, so every root value is exact,
    along a random line as well as at the start."""
    import random

    rules = _rules(name, params)
    game = rules.game
    assert not game.acyclic
    position = game.initial_position()
    solution = retrograde(game, position)
    for remoteness in (False, True):
        result = solve_with_engine(rules, remoteness=remoteness)
        expected = solution.result(position)
        assert (result.outcome, result.remoteness) == (
            expected.outcome,
            expected.remoteness if remoteness else None,
        )
        assert [(m.name, m.outcome) for m in result.moves] == [
            (m.name, m.outcome) for m in expected.moves
        ]
    kernel = EngineKernel(rules, remoteness=True, tt_entries=1 << 12)
    chooser = random.Random(5)
    while game.result(position) is None and game.moves(position):
        expected = solution.result(position)
        assert kernel.value(position) == (expected.outcome, expected.remoteness)
        position = game.play(position, chooser.choice(list(game.moves(position))))


def test_a_game_from_its_own_file_solves_on_the_engine_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys, "--load", str(CONNECT_FOUR), "solve", "connect-four", "-p", "rows=3",
        "-p", "cols=4", "-p", "connect=3", "--solver", "compiled", "--json",
    )  # fmt: skip
    assert code == 0, err
    game = load_game("connect-four", rows=3, cols=4, connect=3)
    expected = retrograde(game, game.initial_position()).result(game.initial_position())
    answer = json.loads(out)
    assert answer["solver"] == "compiled"
    assert answer["outcome"] == expected.outcome.label
    assert plugin_of(game) is not None


@pytest.mark.parametrize(("method", "function"), [("alphabeta", "search"), ("dfpn", "dfpn")])
def test_a_second_process_loads_the_engine_from_the_disk_cache(
    tmp_path: Path, method: str, function: str
) -> None:
    """The engine is compiled per plug-in into a copy under $CGT_ENGINE_CACHE (one per
    search method); numba caches that copy's machine code, so a second process finds it
    instead of compiling."""
    import os
    import subprocess

    script = (
        "from cgt.registry import load_game\n"
        "from solvers.kernels import PLAYOUTS\n"
        "from solvers.engine import EngineKernel\n"
        "kernel = EngineKernel(PLAYOUTS['control'](load_game('control', size=2)), "
        f"method={method!r})\n"
        "print(kernel.value(kernel.game.initial_position())[0].label)\n"
        f"search = kernel.search_module.{function}\n"
        "print(len(search.stats.cache_hits), len(search.stats.cache_misses))\n"
    )
    env = {**os.environ, "CGT_ENGINE_CACHE": str(tmp_path)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        ).stdout.split("\n")
        for _ in range(2)
    ]
    assert runs[0][0] == runs[1][0] == "win"
    first_hits, _ = map(int, runs[0][1].split())
    second_hits, second_misses = map(int, runs[1][1].split())
    assert first_hits == 0
    assert second_hits > 0 and second_misses == 0
    template = TEMPLATES[method].rsplit(".", 1)[-1]
    assert any(tmp_path.glob(f"cgt_engine_{template}_*.py"))
