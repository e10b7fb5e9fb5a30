"""Benchmark cases of the packed Entropy retrograde (solvers/kernels/entropy.py), registered
by benchmarks/run.py:

    from benchmarks.cases_entropy_kernel import register as register_entropy_cases
    register_entropy_cases(case)

``positions`` counts the canonical positions of the ranked space (every placement of the
piece counts, reachable or not), ``seconds`` the solve without compilation and ``rate``
positions per second; the note has the phases, the array bytes, the outcome counts and the
compile (or cache-load) time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Case = Callable[[], dict[str, Any]]
CaseDecorator = Callable[[str], Callable[[Case], Case]]


def _packed(width: int, height: int, setup: str, symmetry: bool = True) -> dict[str, Any]:
    from cgt.games.entropy import Entropy
    from solvers.kernels.entropy import solve_entropy

    game = Entropy(width=width, height=height, setup=setup)
    result = solve_entropy(game, symmetry=symmetry, principal_variation=False)
    extra = result.extra
    solve_seconds = sum(extra["seconds_per_phase"].values())
    return {
        "result": result.winner,
        "positions": result.positions,
        "seconds": solve_seconds,
        "rate": result.positions / solve_seconds if solve_seconds else 0.0,
        "note": (
            f"{extra['ranked_indices']:,} indices, {extra['memory']}, phases "
            f"{extra['seconds_per_phase']} (cpu {extra['cpu_seconds_per_phase']}), "
            f"win/loss/draw {extra['wins']}/{extra['losses']}/{extra['draws']}, max remoteness "
            f"{extra['max_remoteness']}, compile {extra['compile_seconds']} s"
        ),
    }


def register(case: CaseDecorator) -> None:
    """Add the packed Entropy cases to the suite through run.py's ``case`` decorator."""

    @case("entropy 4x3 SSSS/..../OOOO/compiled packed retrograde")
    def _entropy43() -> dict[str, Any]:
        return _packed(4, 3, "SSSS/..../OOOO O")

    @case("entropy 4x4 4+4/compiled packed retrograde")
    def _entropy44() -> dict[str, Any]:
        return _packed(4, 4, "SSSS/..../..../OOOO O")

    @case("entropy 4x4 4+4/compiled packed retrograde, no symmetry")
    def _entropy44_plain() -> dict[str, Any]:
        return _packed(4, 4, "SSSS/..../..../OOOO O", symmetry=False)

    @case("entropy 5x5 3+3/compiled packed retrograde")
    def _entropy55_3() -> dict[str, Any]:
        return _packed(5, 5, "SSS../...../...../...../..OOO O")

    @case("entropy 5x5 4+4/compiled packed retrograde")
    def _entropy55_4() -> dict[str, Any]:
        return _packed(5, 5, "SSSS./...../...../...../.OOOO O")
