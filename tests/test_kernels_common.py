"""What every compiled kernel shares (solvers/kernel_base.py and table.py): one entry-point
signature, the time budget, progress reports, searches resumed in node-budget slices, and the
memory estimate.

Values are checked against solvers.retrograde (every reachable position, exact remoteness),
an implementation that shares nothing with the kernels.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from cgt.errors import CGTError, ParameterError
from cgt.registry import load_game
from solvers import kernel_base, kernels
from solvers.kernel_table import BUCKET_BYTES
from solvers.kernels import KERNELS, SearchBudgetExceeded, estimate_bytes
from solvers.kernels.control import ControlKernel
from solvers.retrograde import retrograde

#: The signature every entry point of KERNELS has (name -> default), after (game, position).
UNIFORM_OPTIONS: dict[str, Any] = {
    "remoteness": False,
    "tt_entries": 1 << 22,
    "symmetry": True,
    "principal_variation": True,
    "max_seconds": None,
    "progress": None,
    "move_values": True,
}

#: Small games of every kernel whose whole graph retrograde analysis enumerates.
SMALL_GAMES: list[tuple[str, dict[str, Any]]] = [
    ("control", {"size": 2}),
    ("lag", {"size": 3, "setup": "B.B/..../...../..../W.W W"}),
    ("super-nonnect", {"a": 2, "b": 2, "rule": "original"}),
]

#: Boards far beyond a fraction of a second for each kernel.
BIG_GAMES: list[tuple[str, dict[str, Any]]] = [
    ("control", {"size": 4}),
    ("lag", {"size": 4}),
    ("super-nonnect", {"a": 3, "b": 3}),
    ("entropy", {"width": 5, "height": 5, "setup": "SSSS./...../...../...../.OOOO S"}),
    ("interleave", {"size": 3}),
]


def test_every_game_with_a_kernel_is_listed() -> None:
    assert set(KERNELS) == {"control", "entropy", "interleave", "lag", "super-nonnect"}
    assert kernels.has_kernel(load_game("lag", size=3))
    assert not kernels.has_kernel(load_game("tictactoe"))


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_uniform_entry_point_signature(name: str) -> None:
    parameters = inspect.signature(KERNELS[name]).parameters
    assert list(parameters)[:2] == ["game", "position"]
    assert parameters["position"].default is None
    for option, default in UNIFORM_OPTIONS.items():
        assert parameters[option].kind == inspect.Parameter.KEYWORD_ONLY, option
        assert parameters[option].default == default, option


@pytest.mark.parametrize(("name", "params"), SMALL_GAMES, ids=lambda v: str(v))
def test_searches_resumed_in_tiny_slices_keep_every_value(
    name: str, params: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Slices of ten nodes: each search is aborted and resumed many times, so a
    # result stored from an aborted subtree would show up as a wrong value.
    monkeypatch.setattr(kernel_base, "FIRST_SLICE_NODES", 10)
    monkeypatch.setattr(kernel_base, "MIN_SLICE_NODES", 10)
    monkeypatch.setattr(kernel_base, "SLICE_SECONDS", 1e-9)
    game = load_game(name, **params)
    events: list[dict[str, Any]] = []
    result = KERNELS[name](game, remoteness=True, tt_entries=1 << 12, progress=events.append)
    expected = retrograde(game, symmetry=False).result()
    assert (result.outcome, result.remoteness) == (expected.outcome, expected.remoteness)
    assert [(m.name, m.outcome, m.remoteness) for m in result.moves] == [
        (m.name, m.outcome, m.remoteness) for m in expected.moves
    ]
    searches = [e for e in events if e["phase"] == "search"]
    root_moves = [e for e in events if e["phase"] == "root move"]
    assert len(root_moves) == len(expected.moves)
    assert len(searches) >= 2
    nodes = [e["nodes"] for e in searches]
    assert nodes == sorted(nodes) and all(e["seconds"] >= 0 for e in searches)


@pytest.mark.parametrize(("name", "params"), BIG_GAMES, ids=lambda v: str(v))
def test_max_seconds_raises_one_toolkit_error(name: str, params: dict[str, Any]) -> None:
    game = load_game(name, **params)
    with pytest.raises(SearchBudgetExceeded) as caught:
        KERNELS[name](game, tt_entries=1 << 16, max_seconds=0.05, principal_variation=False)
    error = caught.value
    assert isinstance(error, CGTError)  # the command line prints it on one line
    assert error.nodes > 0 and error.seconds >= 0.05
    assert "\n" not in str(error)


def test_bad_max_seconds_is_a_parameter_error() -> None:
    game = load_game("control", size=2)
    for bad in (0, -1.0, float("nan"), "10", True):
        with pytest.raises(ParameterError, match="max_seconds"):
            KERNELS["control"](game, max_seconds=bad)


def test_sight_rule_search_resumes_with_the_same_values() -> None:
    # Under control=sight results that depended on a repetition cut-off are never stored, so
    # a slice can end without writing anything new: the slices must then grow until the
    # search finishes. The unsliced values are checked against retrograde analysis in
    # test_kernels_control.py.
    game = load_game("control", size=3, control="sight")
    root = game.initial_position()
    plain = ControlKernel(game, tt_entries=1 << 16)
    sliced = ControlKernel(game, tt_entries=1 << 16)
    sliced.set_budget(None, lambda event: None)
    for move in game.moves(root)[:3]:
        sliced._slice_nodes = 50
        child = game.play(root, move)
        assert sliced.score(child) == plain.score(child)


def test_dfpn_resumes_too() -> None:
    game = load_game("control", size=3)
    root = game.initial_position()
    plain = ControlKernel(game, method="dfpn", tt_entries=1 << 16)
    sliced = ControlKernel(game, method="dfpn", tt_entries=1 << 16)
    sliced.set_budget(None, lambda event: None)
    sliced._slice_nodes = 200
    for move in game.moves(root)[:4]:
        child = game.play(root, move)
        assert sliced.score(child) == plain.score(child)


def test_estimate_bounds_the_table_actually_allocated() -> None:
    game = load_game("control", size=3)
    for entries in (2, 1000, 1 << 12, (1 << 12) + 1):
        kernel = ControlKernel(game, tt_entries=entries)
        assert kernel.tt.nbytes <= estimate_bytes(entries)
        # 32 bytes per slot, the count rounded down to a power of two (never above the ask)
        assert kernel.capacity <= entries and kernel.tt.nbytes == kernel.capacity * 32
    # 2^28 slots: 8 GiB of table plus a bucket and the fixed overhead
    assert estimate_bytes(1 << 28) == (1 << 33) + BUCKET_BYTES + kernels.OVERHEAD_BYTES
    with pytest.raises(ParameterError):
        estimate_bytes(1)


@pytest.mark.parametrize(("name", "params"), SMALL_GAMES)
def test_root_only_solves_give_retrograde_values_and_no_moves(
    name: str, params: dict[str, Any]
) -> None:
    from solvers.api import solve

    game = load_game(name, **params)
    solution = retrograde(game, symmetry=False, keep_positions=True)
    for node in range(0, len(solution), max(1, len(solution) // 60)):
        position = solution.position_of(node)
        result = solve(game, position, solver="compiled", root_only=True, tt_entries=1 << 10)
        assert result.outcome == solution.outcome(position), game.render(position)
        assert result.moves == [] and result.principal_variation == []
        if game.result(position) is None:  # the full solve still lists every move
            assert solve(game, position, solver="compiled", tt_entries=1 << 10).moves
