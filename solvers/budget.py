"""Time budgets shared by every solver (``--max-seconds``).

A solve that runs out of its budget raises :class:`SearchBudgetExceeded`, a
:class:`~cgt.errors.CGTError`: the command line prints it on one line, saying how far the
solver got, because the input was fine and only the budget was too small for it.
"""

from __future__ import annotations

import math
import time

from cgt.errors import EXIT_STOPPED, CGTError, ParameterError


class SearchBudgetExceeded(CGTError):
    """The solver ran out of its time budget (``max_seconds``) before proving the value.

    ``nodes`` counts the work done in the solver's own unit, named by ``unit`` (nodes
    searched, positions enumerated, positions decided). Not bad input: the command line
    prints ``cgt: stopped: ...`` and exits with status 3 (:data:`EXIT_STOPPED`)."""

    exit_status = EXIT_STOPPED
    label = "stopped"

    def __init__(self, nodes: int, seconds: float, unit: str = "nodes searched") -> None:
        super().__init__(f"no result within the time budget: {nodes:,} {unit} in {seconds:.1f} s")
        self.nodes = nodes
        self.seconds = seconds
        self.unit = unit

    def __reduce__(self) -> tuple[type, tuple[int, float, str]]:
        # rebuilt from its fields when a worker process (joblib) sends it back
        return (type(self), (self.nodes, self.seconds, self.unit))


def check_max_seconds(max_seconds: float | None) -> None:
    """:class:`ParameterError` unless ``max_seconds`` is None or a positive number."""
    if max_seconds is None:
        return
    if (
        isinstance(max_seconds, bool)
        or not isinstance(max_seconds, int | float)
        or not math.isfinite(max_seconds)
        or max_seconds <= 0
    ):
        raise ParameterError(f"max_seconds must be a positive number, got {max_seconds!r}")


class Deadline:
    """The moment a budget of ``max_seconds`` (from now) runs out; ``None``: never.

    Solvers call :meth:`check` now and then (every few hundred positions or nodes: reading
    the clock at every node would cost more than the check is worth)."""

    def __init__(self, max_seconds: float | None) -> None:
        check_max_seconds(max_seconds)
        self.max_seconds = max_seconds
        self.started = time.perf_counter()
        self.at = None if max_seconds is None else self.started + max_seconds

    def remaining(self) -> float | None:
        """Seconds left (at least a millisecond while the budget runs), ``None``: no budget."""
        if self.at is None:
            return None
        return max(self.at - time.perf_counter(), 1e-3)

    def check(self, done: int, unit: str) -> None:
        """Raise :class:`SearchBudgetExceeded` once the budget has run out."""
        if self.at is not None:
            now = time.perf_counter()
            if now > self.at:
                raise SearchBudgetExceeded(done, now - self.started, unit)
