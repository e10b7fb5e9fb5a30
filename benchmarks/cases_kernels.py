"""Benchmark cases of the compiled kernels (solvers/kernels), registered by benchmarks/run.py:

    from benchmarks.cases_kernels import register as register_kernel_cases
    register_kernel_cases(case)

Each case reports the compile (or cache-load) time in its note, apart from ``seconds``, and
``rate`` in search nodes per second (``positions`` counts distinct table entries written).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

Case = Callable[[], dict[str, Any]]
CaseDecorator = Callable[[str], Callable[[Case], Case]]


def _compiled_control(
    size: int, remoteness: bool, method: str = "alphabeta", **params: Any
) -> dict[str, Any]:
    from cgt.games.control import Control
    from solvers.kernels.control import solve_control

    game = Control(size=size, **params)
    result = solve_control(game, remoteness=remoteness, method=method, principal_variation=False)
    return _row(result)


def _compiled_super_nonnect(remoteness: bool, **params: Any) -> dict[str, Any]:
    from cgt.games.super_nonnect import SuperNonnect
    from solvers.kernels.super_nonnect import solve_super_nonnect

    game = SuperNonnect(**params)
    return _row(solve_super_nonnect(game, remoteness=remoteness, principal_variation=False))


def _row(result: Any) -> dict[str, Any]:
    """The benchmark row of a compiled solve: rate in search nodes per second."""
    nodes = result.extra["nodes"]
    winning = [m.name for m in result.moves if m.outcome.label == "win"]
    shown = " ".join(winning[:12]) + (" ..." if len(winning) > 12 else "")
    return {
        "result": result.winner,
        "positions": result.positions,
        "seconds": result.extra["search_seconds"],
        "rate": nodes / result.extra["search_seconds"] if result.extra["search_seconds"] else 0.0,
        "note": (
            f"{nodes} nodes, compile {result.extra['compile_seconds']} s, "
            f"remoteness {result.remoteness}; winning moves {len(winning)}/{len(result.moves)}"
            f"{': ' + shown if winning else ''}"
        ),
    }


def _movegen_rate(size: int) -> dict[str, Any]:
    """Move generations per second on the same random positions: the readable rules
    (``game.moves``) against the compiled generator run in a compiled loop (what the search
    sees; calling it from Python one position at a time is dominated by call overhead)."""
    import numpy as np
    from numba import njit

    from cgt.games.control import Control
    from solvers.kernels.control import MOVE_CODES, ControlKernel, generate_moves, warm_up

    compile_seconds = warm_up()
    game = Control(size=size)
    kernel = ControlKernel(game, tt_entries=64)
    rng = random.Random(1)
    positions: list[Any] = []
    while len(positions) < 2000:
        position = game.initial_position()
        for _ in range(40):
            positions.append(position)
            moves = game.moves(position)
            if not moves:
                break
            position = game.play(position, rng.choice(moves))
    started = time.perf_counter()
    for position in positions:
        game.moves(position)
    python_seconds = time.perf_counter() - started
    whites = np.array([kernel.to_padded(p[0]) for p in positions], dtype=np.uint64)
    blacks = np.array([kernel.to_padded(p[1]) for p in positions], dtype=np.uint64)
    sides = np.array([p[2] for p in positions], dtype=np.int64)
    geo, ctl = kernel.geo, kernel.ctl

    @njit
    def generate_all(repeats: int, out: np.ndarray) -> int:
        total = 0
        for _ in range(repeats):
            for i in range(whites.shape[0]):
                total += generate_moves(whites[i], blacks[i], sides[i], geo, ctl, out)
        return total

    out = np.zeros(MOVE_CODES, dtype=np.int16)
    generate_all(1, out)  # compile the loop
    repeats = 200
    started = time.perf_counter()
    generate_all(repeats, out)
    compiled_seconds = time.perf_counter() - started
    generations = repeats * len(positions)
    return {
        "result": "-",
        "positions": len(positions),
        "seconds": compiled_seconds,
        "rate": generations / compiled_seconds,
        "note": (
            f"readable rules {len(positions) / python_seconds:.0f}/s, compiled "
            f"{generations / compiled_seconds:.0f}/s; kernel compile {compile_seconds:.2f} s"
        ),
    }


def register(case: CaseDecorator) -> None:
    """Add the kernel cases to the suite through run.py's ``case`` decorator."""

    @case("control size 2/compiled remoteness")
    def _control2_compiled() -> dict[str, Any]:
        return _compiled_control(2, remoteness=True)

    @case("control size 3/compiled")
    def _control3_compiled() -> dict[str, Any]:
        return _compiled_control(3, remoteness=False)

    @case("control size 3/compiled remoteness")
    def _control3_compiled_remoteness() -> dict[str, Any]:
        return _compiled_control(3, remoteness=True)

    @case("control size 3 free opening/compiled")
    def _control3_free() -> dict[str, Any]:
        return _compiled_control(3, remoteness=False, opening="free")

    @case("control size 3/compiled dfpn")
    def _control3_dfpn() -> dict[str, Any]:
        return _compiled_control(3, remoteness=False, method="dfpn")

    @case("control size 3 sight/compiled")
    def _control3_sight() -> dict[str, Any]:
        return _compiled_control(3, remoteness=False, control="sight")

    @case("super-nonnect 2x3 revised/compiled")
    def _sn23_revised() -> dict[str, Any]:
        return _compiled_super_nonnect(False, a=2, b=3, rule="revised")

    @case("super-nonnect 2x3 original/compiled")
    def _sn23_original() -> dict[str, Any]:
        return _compiled_super_nonnect(False, a=2, b=3, rule="original")

    @case("control size 3/move generation")
    def _control3_movegen() -> dict[str, Any]:
        return _movegen_rate(3)
