"""The entry point and the result of a solve by a packed space (the dense kernels of Entropy
and Interleave).

A packed space solves every position of its ranked space at once, so the root's answer is
read off the arrays afterwards the same way for every such kernel: the root's value, every
root move's value, the best moves and one principal variation. A plug-in's entry point is
:func:`packed_solver` over the plug-in's ``open_space`` (its space for a position) and
``warm_up``; the space answers :class:`PackedSpace`.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.kernel_base import KernelSolver, kernel_solver
from solvers.memory import format_bytes
from solvers.result import MoveValue, SolveResult
from solvers.retrograde import best_move_values

#: Called by a packed kernel with its solved space and the root's result, before the
#: space's arrays are freed (``keep_space=`` of a :func:`packed_solver` entry point).
SpaceKeeper = Callable[[Any, SolveResult], None]


class PackedSummary(NamedTuple):
    """What a solved packed space says of its solve in the :class:`SolveResult`."""

    #: positions solved
    positions: int
    #: bytes of its arrays
    bytes_used: int
    #: the kernel's own information (``extra``)
    extra: dict[str, Any]


class SolvedSpace(Protocol):
    """What a solved packed space answers about its positions."""

    seconds: dict[str, float]

    def value_of(self, position: Any) -> tuple[Outcome, int | None]: ...

    def move_values(self, position: Any) -> list[MoveValue]: ...

    def principal_variation(self, position: Any, max_length: int = 200) -> list[str]: ...


class PackedSpace(SolvedSpace, Protocol):
    """A plug-in's packed space, opened for one root position."""

    def check_memory(self) -> None: ...

    def solve(
        self, *, progress: Progress | None = None, max_seconds: float | None = None, root: Any
    ) -> None: ...

    def solve_summary(self, compile_seconds: float) -> PackedSummary: ...


#: A plug-in's space for ``(game, position or None for the start, symmetry)``, with the
#: position as the space takes it (checked: :class:`~cgt.errors.PositionError` or
#: :class:`~cgt.errors.ParameterError` for what it cannot solve).
SpaceOpener = Callable[[Game[Any, Any], Any, bool], tuple[PackedSpace, Any]]


def packed_solve_result(
    game: Game[Any, Any],
    position: Any,
    space: SolvedSpace,
    summary: PackedSummary,
    *,
    remoteness: bool,
    principal_variation: bool,
    started: float,
    solve_seconds: float,
) -> SolveResult:
    """The :class:`SolveResult` of ``position`` from a solved ``space``: the summary's
    positions solved in ``solve_seconds``, ``started`` being when solving began.
    Remoteness is always known; ``remoteness=False`` only leaves it out, as the search
    kernels do."""
    positions, bytes_used, extra = summary
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


def solve_packed(
    open_space: SpaceOpener,
    warm_up: Callable[[], float],
    game: Game[Any, Any],
    position: Any,
    *,
    remoteness: bool,
    symmetry: bool,
    principal_variation: bool,
    max_seconds: float | None,
    progress: Progress | None,
    keep_space: SpaceKeeper | None,
    **_search_options: Any,
) -> SolveResult:
    """The body of a packed kernel's entry point (:func:`packed_solver`). The search
    options ``tt_entries`` and ``move_values`` do not apply: the arrays are sized by the
    space, and every root move's value comes with the root's."""
    space, position = open_space(game, position, symmetry)
    space.check_memory()
    compile_seconds = warm_up()
    started = time.perf_counter()
    space.solve(root=position, progress=progress, max_seconds=max_seconds)
    solve_seconds = time.perf_counter() - started
    result = packed_solve_result(
        game,
        position,
        space,
        summary=space.solve_summary(compile_seconds),
        remoteness=remoteness,
        principal_variation=principal_variation,
        started=started,
        solve_seconds=solve_seconds,
    )
    if keep_space is not None:
        keep_space(space, result)
    return result


def packed_solver(
    name: str, open_space: SpaceOpener, warm_up: Callable[[], float], doc: str
) -> KernelSolver:
    """A packed kernel's entry point ``name``, with the uniform signature of
    :mod:`solvers.kernels` and ``keep_space``: it solves the space ``open_space`` gives for
    a position (default: the start), compiling first (``warm_up``), and reads the root's
    result off it. ``doc`` says what the space is; the rest of the docstring is shared."""
    body = functools.partial(solve_packed, open_space, warm_up)
    return kernel_solver(name, body, doc.rstrip() + "\n\n" + PACKED_SOLVER_DOC, keep_space=None)


PACKED_SOLVER_DOC = """    ``keep_space(space, result)`` is called with the solved space (for example to store it,
    :mod:`solvers.saved`) before its arrays are freed.

    ``move_values`` and ``tt_entries`` are accepted for the solver API's sake and unused:
    the whole space is solved, so every root move's value comes with the root's, and the
    arrays are sized by the space. Remoteness is always computed; ``remoteness=False`` only
    leaves it out of the result, as the other kernels do. Refuses with
    :class:`~cgt.errors.ParameterError` when the arrays cannot fit in memory; a
    :class:`~solvers.kernel_base.SearchBudgetExceeded` after ``max_seconds``. ``seconds``
    excludes compilation (``extra["compile_seconds"]``)."""
