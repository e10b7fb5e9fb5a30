"""The result of a solve by a packed space (the dense kernels of Entropy and Interleave).

A packed space solves every position of its ranked space at once, so the root's answer is
read off the arrays afterwards the same way for every such kernel: the root's value, every
root move's value, the best moves and one principal variation.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from cgt.protocol import Game, Outcome
from solvers.memory import format_bytes
from solvers.result import MoveValue, SolveResult
from solvers.retrograde import best_move_values

#: Called by a packed kernel with its solved space and the root's result, before the
#: space's arrays are freed (``keep_space=`` of :func:`solve_entropy`, :func:`solve_interleave`).
SpaceKeeper = Callable[[Any, SolveResult], None]


class SolvedSpace(Protocol):
    """What a solved packed space answers about its positions."""

    seconds: dict[str, float]

    def value_of(self, position: Any) -> tuple[Outcome, int | None]: ...

    def move_values(self, position: Any) -> list[MoveValue]: ...

    def principal_variation(self, position: Any, max_length: int = 200) -> list[str]: ...


def packed_solve_result(
    game: Game[Any, Any],
    position: Any,
    space: SolvedSpace,
    *,
    remoteness: bool,
    principal_variation: bool,
    positions: int,
    bytes_used: int,
    started: float,
    solve_seconds: float,
    extra: dict[str, Any],
) -> SolveResult:
    """The :class:`SolveResult` of ``position`` from a solved ``space``: ``positions`` solved
    in ``solve_seconds`` (the arrays taking ``bytes_used``), ``started`` being when solving
    began. Remoteness is always known; ``remoteness=False`` only leaves it out, as the
    search kernels do. ``extra`` is the kernel's own information."""
    outcome, distance = space.value_of(position)
    move_values = space.move_values(position)
    line = space.principal_variation(position) if principal_variation else []
    best = best_move_values(move_values, outcome, distance)
    if not remoteness:
        distance = None
        move_values = [MoveValue(m.move, m.name, m.outcome, None) for m in move_values]
    return SolveResult(
        game=game.name,
        params=dict(game.parameters),
        position=game.render(position),
        solver="compiled",
        outcome=outcome,
        remoteness=distance,
        moves=move_values,
        best_moves=[m.name for m in best],
        principal_variation=line,
        positions=positions,
        seconds=time.perf_counter() - started,
        extra={
            **extra,
            "seconds_per_phase": {k: round(v, 3) for k, v in space.seconds.items()},
            "positions_per_second": round(positions / solve_seconds) if solve_seconds else None,
            "bytes": bytes_used,
            "memory": format_bytes(bytes_used),
        },
    )
