"""Benchmark cases of the compiled LAG kernel (solvers/kernels/lag.py), registered by
benchmarks/run.py:

    from benchmarks.cases_lag_kernel import register as register_lag_kernel_cases
    register_lag_kernel_cases(case)

Each case reports ``seconds`` without compilation, ``rate`` and ``nodes_per_second`` in search
nodes per second and ``compile_seconds`` (the compile or cache-load time, also in the note and
in its own case) apart; ``positions`` counts the distinct table entries written. Run them
alone with ``python benchmarks/cases_kernels.py --lag lag``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

Case = Callable[[], dict[str, Any]]
CaseDecorator = Callable[[str], Callable[[Case], Case]]

#: Transposition-table slots for the size-3 solves (32 bytes each: 512 MiB).
SIZE_3_TT_ENTRIES = 1 << 24
#: Wall-clock budget of the bounded size-4 attempt.
SIZE_4_BUDGET_SECONDS = 300.0


def _compiled_lag(size: int, goal: str, remoteness: bool) -> dict[str, Any]:
    from cases_kernels import kernel_row

    from cgt.games.lag import Lag
    from solvers.kernels.lag import solve_lag, warm_up

    warm_up()  # outside the process time of the solve
    cpu = time.process_time()
    result = solve_lag(
        Lag(size=size, goal=goal),
        remoteness=remoteness,
        tt_entries=SIZE_3_TT_ENTRIES,
        principal_variation=False,
    )
    openings = ", ".join(f"{m.name}:{m.outcome.label}" for m in result.moves)
    return kernel_row(result, time.process_time() - cpu, f"; openings {openings}")


def _size_4_attempt() -> dict[str, Any]:
    """Size 4, goal standard, value mode, within a wall-clock budget (an open board)."""
    from cases_kernels import kernel_row

    from cgt.games.lag import Lag
    from solvers.kernels import SearchBudgetExceeded
    from solvers.kernels.lag import solve_lag, warm_up

    compile_seconds = warm_up()
    try:
        result = solve_lag(
            Lag(size=4),
            tt_entries=SIZE_3_TT_ENTRIES,
            principal_variation=False,
            max_seconds=SIZE_4_BUDGET_SECONDS,
        )
    except SearchBudgetExceeded as exc:
        rate = exc.nodes / exc.seconds if exc.seconds else 0.0
        return {
            "result": "open",
            "positions": exc.nodes,
            "seconds": exc.seconds,
            "rate": rate,
            "nodes": exc.nodes,
            "nodes_per_second": round(rate),
            "compile_seconds": round(compile_seconds, 3),
            "note": (
                f"not solved in {SIZE_4_BUDGET_SECONDS:.0f} s (positions column: nodes), "
                f"{rate / 1e6:.2f} M nodes/s, compile {compile_seconds:.2f} s"
            ),
            "open": f"lag size 4 standard: not solved, {exc.nodes:,} nodes in {exc.seconds:.0f} s",
        }
    openings = ", ".join(f"{m.name}:{m.outcome.label}" for m in result.moves)
    return kernel_row(result, note=f"; openings {openings}")


def _perft_rate(size: int, compiled_depth: int, readable_depth: int) -> dict[str, Any]:
    """Move generation speed as perft (move sequences of a fixed length from the standard
    setup) leaves per second: the compiled kernel at ``compiled_depth`` against the readable
    rules at ``readable_depth`` (fewer plies: pure Python is far slower)."""
    from cgt.games.lag import Lag
    from solvers.kernels.lag import LagKernel, warm_up

    compile_seconds = warm_up()
    game = Lag(size=size)
    kernel = LagKernel(game, tt_entries=2)
    start = game.initial_position()

    def readable_perft(position: Any, depth: int) -> int:  # bulk-counts the last ply, as
        if depth <= 1:  # the kernel does
            return len(game.moves(position)) if depth == 1 else 1
        return sum(readable_perft(child, depth - 1) for _, child in game.children(position))

    started = time.perf_counter()
    readable_leaves = readable_perft(start, readable_depth)
    python_seconds = time.perf_counter() - started
    started = time.perf_counter()
    leaves = kernel.perft(start, compiled_depth)
    compiled_seconds = time.perf_counter() - started
    return {
        "result": "-",
        "positions": leaves,
        "seconds": compiled_seconds,
        "rate": leaves / compiled_seconds,
        "compile_seconds": round(compile_seconds, 3),
        "note": (
            f"perft({compiled_depth}) = {leaves} leaves compiled; readable rules perft"
            f"({readable_depth}) = {readable_leaves} at {readable_leaves / python_seconds:.0f}"
            f" leaves/s; compile {compile_seconds:.2f} s"
        ),
    }


def _compile() -> dict[str, Any]:
    from solvers.kernels.lag import warm_up

    seconds = warm_up()
    return {
        "result": "-",
        "positions": 0,
        "seconds": seconds,
        "rate": 0.0,
        "compile_seconds": round(seconds, 3),
        "note": "compile, or load from numba's disk cache when it is warm",
    }


def register(case: CaseDecorator) -> None:
    """Add the LAG kernel cases to the suite through run.py's ``case`` decorator."""

    @case("lag kernel/compile or cache load")
    def _lag_compile() -> dict[str, Any]:
        return _compile()

    @case("lag size 3/move generation (perft)")
    def _lag3_perft() -> dict[str, Any]:
        return _perft_rate(3, compiled_depth=7, readable_depth=5)

    # goal=standard first: the standard board in value mode (every opening solved)
    for goal in ("standard", "strict", "far-row-one-object", "far-row"):

        @case(f"lag size 3 {goal}/compiled")
        def _lag3_compiled(goal: str = goal) -> dict[str, Any]:
            return _compiled_lag(3, goal, remoteness=False)

    @case("lag size 3 far-row/compiled remoteness")
    def _lag3_far_row_remoteness() -> dict[str, Any]:
        return _compiled_lag(3, "far-row", remoteness=True)

    @case("lag size 4 standard/compiled, bounded")
    def _lag4() -> dict[str, Any]:
        return _size_4_attempt()
