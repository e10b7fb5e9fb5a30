"""Benchmark cases of the compiled kernels (solvers/kernels), registered by benchmarks/run.py:

    from benchmarks.cases_kernels import register as register_kernel_cases
    register_kernel_cases(case)

Every search case reports its search time in ``seconds`` (compilation excluded), search nodes
per second in ``rate`` and in ``nodes_per_second``, and the compile (or cache-load) time in
``compile_seconds``, both also in the note; ``positions`` counts distinct table entries
written. Search rates are CPU-bound: on a shared machine compare ``cpu_seconds`` (process
time) rather than wall time.

Run the cases alone (in this process, one after the other; ``--lag`` adds the LAG cases)::

    python benchmarks/cases_kernels.py [--lag] [substring ...]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

Case = Callable[[], dict[str, Any]]
CaseDecorator = Callable[[str], Callable[[Case], Case]]

#: Nodes of the fixed-budget size-4 Control workload (a node rate, not a solve).
CONTROL_4_NODES = 20_000_000


def kernel_row(result: Any, cpu_seconds: float | None = None, note: str = "") -> dict[str, Any]:
    """The benchmark row of a compiled solve: search nodes per second and compile time
    reported separately (used by cases_lag_kernel.py too)."""
    nodes = result.extra["nodes"]
    seconds = result.extra["search_seconds"]
    rate = nodes / seconds if seconds else 0.0
    compile_seconds = result.extra["compile_seconds"]
    winning = [m.name for m in result.moves if m.outcome.label == "win"]
    shown = " ".join(winning[:12]) + (" ..." if len(winning) > 12 else "")
    row = {
        "result": result.winner,
        "positions": result.positions,
        "seconds": seconds,
        "rate": rate,
        "nodes": nodes,
        "nodes_per_second": round(rate),
        "compile_seconds": compile_seconds,
        "note": (
            f"{nodes:,} nodes, {rate / 1e6:.2f} M nodes/s, compile {compile_seconds} s, "
            f"remoteness {result.remoteness}; winning moves {len(winning)}/{len(result.moves)}"
            f"{': ' + shown if winning else ''}{note}"
        ),
    }
    if cpu_seconds is not None:
        row["cpu_seconds"] = round(cpu_seconds, 4)
    return row


def _timed(solve: Callable[[], Any], note: str = "") -> dict[str, Any]:
    """Row of ``solve()`` with the process time of the whole solve besides the wall time."""
    cpu = time.process_time()
    result = solve()
    return kernel_row(result, time.process_time() - cpu, note)


def _compiled_control(
    size: int, remoteness: bool, method: str = "alphabeta", **params: Any
) -> dict[str, Any]:
    from cgt.games.control import Control
    from solvers.kernels.control import solve_control, warm_up

    warm_up()  # outside the process time of the solve
    game = Control(size=size, **params)
    return _timed(
        lambda: solve_control(game, remoteness=remoteness, method=method, principal_variation=False)
    )


def _compiled_super_nonnect(remoteness: bool, **params: Any) -> dict[str, Any]:
    from cgt.games.super_nonnect import SuperNonnect
    from solvers.kernels.super_nonnect import solve_super_nonnect, warm_up

    warm_up()
    game = SuperNonnect(**params)
    return _timed(
        lambda: solve_super_nonnect(game, remoteness=remoteness, principal_variation=False)
    )


def _control_node_rate(size: int, opening: str, nodes: int) -> dict[str, Any]:
    """A fixed workload: the first ``nodes`` nodes of the value-mode alpha-beta after
    ``opening`` (deterministic, so the rate compares across versions and machines)."""
    from cgt.games.control import Control
    from solvers.kernel_table import INFINITY, S_ABORTED, S_NEW_STORES, S_NODE_LIMIT, S_NODES
    from solvers.kernels.control import ControlKernel, warm_up

    compile_seconds = warm_up()
    game = Control(size=size)
    root = game.initial_position()
    child = game.play(root, game.parse_move(root, opening))
    kernel = ControlKernel(game, tt_entries=1 << 22)
    kernel.ctl[S_NODE_LIMIT] = nodes
    started, cpu = time.perf_counter(), time.process_time()
    kernel._search(child, -INFINITY, INFINITY)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    searched = int(kernel.ctl[S_NODES])
    finished = not kernel.ctl[S_ABORTED]
    return {
        "result": "solved" if finished else "-",
        "positions": int(kernel.ctl[S_NEW_STORES]),
        "seconds": seconds,
        "rate": searched / seconds,
        "nodes": searched,
        "nodes_per_second": round(searched / seconds),
        "cpu_seconds": round(cpu_seconds, 3),
        "compile_seconds": round(compile_seconds, 3),
        "note": (
            f"first {searched:,} nodes after {opening}: {searched / seconds / 1e6:.2f} M "
            f"nodes/s wall, {searched / cpu_seconds / 1e6:.2f} M nodes/s of process time; "
            f"compile {compile_seconds:.2f} s"
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
    geo, ctl = kernel.geo, kernel.config

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
        "compile_seconds": round(compile_seconds, 3),
        "note": (
            f"readable rules {len(positions) / python_seconds:.0f}/s, compiled "
            f"{generations / compiled_seconds:.0f}/s; kernel compile {compile_seconds:.2f} s"
        ),
    }


def _compile() -> dict[str, Any]:
    """Compile (or load from numba's disk cache) every kernel in KERNELS, timed apart."""
    from solvers.kernels import control, lag, super_nonnect

    started = time.perf_counter()
    parts = {
        "control": control.warm_up(),
        "lag": lag.warm_up(),
        "super-nonnect": super_nonnect.warm_up(),
    }
    return {
        "result": "-",
        "positions": 0,
        "seconds": time.perf_counter() - started,
        "rate": 0.0,
        "compile_seconds": round(sum(parts.values()), 3),
        "note": "compile or disk-cache load: "
        + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in parts.items()),
    }


def register(case: CaseDecorator) -> None:
    """Add the kernel cases to the suite through run.py's ``case`` decorator."""

    @case("kernels/compile or cache load")
    def _kernels_compile() -> dict[str, Any]:
        return _compile()

    @case("control size 2/compiled remoteness")
    def _control2_compiled() -> dict[str, Any]:
        return _compiled_control(2, remoteness=True)

    @case("control size 3/compiled")
    def _control3_compiled() -> dict[str, Any]:
        return _compiled_control(3, remoteness=False)

    @case("control size 3 all 12 openings/compiled remoteness")
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

    @case(f"control size 4 after a1/compiled, first {CONTROL_4_NODES // 10**6} M nodes")
    def _control4_rate() -> dict[str, Any]:
        return _control_node_rate(4, "a1", CONTROL_4_NODES)

    @case("super-nonnect 2x3 revised/compiled")
    def _sn23_revised() -> dict[str, Any]:
        return _compiled_super_nonnect(False, a=2, b=3, rule="revised")

    @case("super-nonnect 2x3 original/compiled")
    def _sn23_original() -> dict[str, Any]:
        return _compiled_super_nonnect(False, a=2, b=3, rule="original")

    @case("control size 3/move generation")
    def _control3_movegen() -> dict[str, Any]:
        return _movegen_rate(3)


def main(argv: list[str]) -> None:
    """Run the cases of this module (and of cases_lag_kernel.py with ``--lag``) in this
    process and print one line per case."""
    cases: dict[str, Case] = {}

    def collect(name: str) -> Callable[[Case], Case]:
        def add(fn: Case) -> Case:
            cases[name] = fn
            return fn

        return add

    register(collect)
    if "--lag" in argv:
        from cases_lag_kernel import register as register_lag

        register_lag(collect)
    wanted = [a for a in argv if not a.startswith("--")]
    for name, fn in cases.items():
        if wanted and not any(w in name for w in wanted):
            continue
        row = fn()
        print(
            f"{name}: {row['result']}, {row['seconds']:.3f} s, {row['rate']:,.0f}/s"
            f"{', cpu ' + str(row['cpu_seconds']) + ' s' if 'cpu_seconds' in row else ''}; "
            f"{row['note']}",
            flush=True,
        )


if __name__ == "__main__":
    from pathlib import Path

    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent)]  # as benchmarks/run.py sees the modules
    main(sys.argv[1:])
