"""Benchmark cases of the packed Interleave sweep (solvers/kernels/interleave.py) beside the
pure-Python retrograde on the same board, registered by benchmarks/run.py:

    from benchmarks.cases_interleave_kernel import register as register_interleave_cases
    register_interleave_cases(case)

The size-3 default setup (one black stone on the centre). ``positions`` counts what each
solver solved: for the sweep the reachable placements times the states per placement (four
under turns=pass: side to move, pass just made), for retrograde the reachable positions up to
symmetry; ``seconds`` excludes compilation, ``cpu_seconds`` is process time (compare that on
a shared machine).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

Case = Callable[[], dict[str, Any]]
CaseDecorator = Callable[[str], Callable[[Case], Case]]


def _solve(solver: str, **params: Any) -> dict[str, Any]:
    from cgt.games.interleave import Interleave
    from solvers import solve
    from solvers.kernels.interleave import warm_up

    if solver == "compiled":
        warm_up()
    game = Interleave(size=3, **params)
    cpu = time.process_time()
    result = solve(game, solver=solver)
    cpu_seconds = time.process_time() - cpu
    seconds = result.seconds
    note = f"remoteness {result.remoteness}, best {' '.join(result.best_moves)}"
    if solver == "compiled":
        extra = result.extra
        note += (
            f"; {extra['placements_solved']:,} of {extra['ranked_placements']:,} placements, "
            f"{extra['memory']}, phases {extra['seconds_per_phase']}, "
            f"compile {extra['compile_seconds']} s"
        )
    return {
        "result": result.winner,
        "positions": result.positions,
        "seconds": seconds,
        "cpu_seconds": round(cpu_seconds, 3),
        "rate": result.positions / seconds if seconds else 0.0,
        "note": note,
    }


def register(case: CaseDecorator) -> None:
    """Add the Interleave cases to the suite through run.py's ``case`` decorator."""

    @case("interleave size 3/compiled packed sweep")
    def _sweep3() -> dict[str, Any]:
        return _solve("compiled")

    @case("interleave size 3/retrograde")
    def _retrograde3() -> dict[str, Any]:
        return _solve("retrograde")

    @case("interleave size 3 win=groups/compiled packed sweep")
    def _sweep3_groups() -> dict[str, Any]:
        return _solve("compiled", win="groups")

    @case("interleave size 3 turns=loser/compiled packed sweep")
    def _sweep3_loser() -> dict[str, Any]:
        return _solve("compiled", turns="loser")

    @case("interleave size 3 turns=loser/retrograde")
    def _retrograde3_loser() -> dict[str, Any]:
        return _solve("retrograde", turns="loser")
