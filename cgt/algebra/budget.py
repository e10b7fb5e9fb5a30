"""Bounds on a value computation: seconds, canonical forms and memory.

Canonical forms are never forgotten (:mod:`cgt.algebra.game` interns every form it meets), so a
value computation that is too large for the machine grows until the system kills it: the
Domineering 6x6 board grew to 20.5 GB. Inside ``with Budget(...).active():`` the table of
forms calls :meth:`Budget.check` every :data:`CHECK_EVERY` new forms (and exactly at the
form limit), the compiled Domineering road between slices of work and before it enlarges its
tables; the first bound crossed raises :class:`BudgetExceeded`, a one-line
:class:`~cgt.errors.CGTError` saying which bound and how far the computation got. Progress
(forms, memory, seconds) goes to ``progress`` at the same moments.

Memory is the resident set size of the process (``/proc/self/statm`` on Linux, the peak from
``getrusage`` elsewhere), so it covers every table, Python's and the compiled road's.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from cgt.algebra import game
from cgt.errors import CGTError
from cgt.progress import Progress

CHECK_EVERY = 4096
"""New canonical forms between two checks of the clock and the memory."""

BYTES_PER_FORM = 600
"""Rough memory of one interned form with its cache entries (measured on Domineering 5x5:
about 600 bytes per form in the Python table), used only to refuse up front a request that
cannot fit, such as an integer of a billion (its canonical form has a billion subpositions)."""


class BudgetExceeded(CGTError):
    """A value computation crossed its bound on time, forms or memory (``bound``: which:
    ``"seconds"``, ``"forms"`` or ``"memory"``), with how far it got."""

    def __init__(self, message: str, bound: str = "", forms: int = 0, seconds: float = 0.0):
        super().__init__(message)
        self.bound = bound
        self.forms = forms
        self.seconds = seconds

    def as_dict(self) -> dict[str, Any]:
        """What ``--json`` prints for a stopped computation."""
        return {
            "stopped": self.bound,
            "message": str(self),
            "forms": self.forms,
            "seconds": round(self.seconds, 3),
            "memory_bytes": resident_bytes(),
        }


def resident_bytes() -> int:
    """Resident memory of this process now (Linux), else the peak so far."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def physical_memory() -> int | None:
    """Bytes of RAM of the machine, when the system says."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (OSError, ValueError):
        return None


def parse_size(text: str) -> int:
    """``"3G"``, ``"512M"``, ``"2.5GiB"``, ``"1000000"`` (bytes) as a number of bytes."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    cleaned = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = cleaned[-1:] if cleaned[-1:] in units else ""
    number = cleaned[: len(cleaned) - len(unit)]
    try:
        value = float(number) * units[unit]
    except ValueError:
        raise CGTError(f"cannot read memory size {text!r} (write e.g. 3G or 512M)") from None
    if value <= 0:
        raise CGTError(f"memory size {text!r} must be positive")
    return int(value)


def format_size(size: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


@dataclass
class Budget:
    """Bounds of one computation (``None``: unbounded) and where progress goes."""

    max_seconds: float | None = None
    max_forms: int | None = None
    max_bytes: int | None = None
    progress: Progress | None = None
    started: float = field(default_factory=time.monotonic)
    forms_at_start: int = 0
    next_poll: float = 0.0

    def check(self, forms: int, extra_bytes: int = 0, what: str = "") -> None:
        """Raise :class:`BudgetExceeded` if a bound is crossed (``forms``: canonical forms
        now; ``extra_bytes``: memory about to be allocated); report progress otherwise."""
        elapsed = time.monotonic() - self.started
        memory = resident_bytes()
        done = f"after {elapsed:.1f} s with {forms:,} canonical forms, {format_size(memory)}"
        if self.max_forms is not None and forms > self.max_forms:
            raise BudgetExceeded(
                f"refused: the value needs more than --max-forms {self.max_forms:,} canonical "
                f"forms ({done})",
                "forms",
                forms,
                elapsed,
            )
        if self.max_bytes is not None and memory + extra_bytes > self.max_bytes:
            growing = f" ({what} would add {format_size(extra_bytes)})" if extra_bytes else ""
            raise BudgetExceeded(
                f"refused: the value needs more than --max-memory {format_size(self.max_bytes)}"
                f"{growing} ({done})",
                "memory",
                forms,
                elapsed,
            )
        if self.max_seconds is not None and elapsed > self.max_seconds:
            raise BudgetExceeded(
                f"gave up: --max-seconds {self.max_seconds:g} reached ({done})",
                "seconds",
                forms,
                elapsed,
            )
        if self.progress is not None:
            self.progress({"forms": forms, "memory": format_size(memory)})

    def room_for(self, forms_now: int, more: int, what: str, more_bytes: int = 0) -> None:
        """Refuse at once a step known to need ``more`` new forms (and ``more_bytes`` of
        memory beyond them) that cannot fit; ``what`` names the step."""
        # memory beyond the forms themselves counts as forms of BYTES_PER_FORM each
        more += more_bytes // BYTES_PER_FORM
        if self.max_forms is not None and forms_now + more > self.max_forms:
            raise BudgetExceeded(
                f"refused: {what} needs {more:,} more canonical forms (or their memory), beyond --max-forms "
                f"{self.max_forms:,} (the table holds {forms_now:,})",
                "forms",
                forms_now,
            )
        needed = more * BYTES_PER_FORM
        if self.max_bytes is not None and resident_bytes() + needed > self.max_bytes:
            raise BudgetExceeded(
                f"refused: {what} needs about {format_size(needed)} more memory, beyond "
                f"--max-memory {format_size(self.max_bytes)}",
                "memory",
                forms_now,
            )

    @contextmanager
    def active(self) -> Iterator[Budget]:
        """Make this the budget of every computation inside the ``with`` block."""
        previous = active_budget()
        self.started = time.monotonic()
        self.forms_at_start = game.table_size()
        game.set_active_budget(self, self._next_checkpoint(game.table_size()))
        try:
            yield self
        finally:
            game.set_active_budget(
                previous,
                None if previous is None else previous._next_checkpoint(game.table_size()),
            )

    def _next_checkpoint(self, forms: int) -> int:
        checkpoint = forms + CHECK_EVERY
        if self.max_forms is not None and forms <= self.max_forms:
            checkpoint = min(checkpoint, self.max_forms + 1)
        return checkpoint

    def tick(self, forms: int) -> int:
        """Called by the table of forms at a checkpoint; returns the next checkpoint."""
        self.check(forms)
        return self._next_checkpoint(forms)


POLL_SECONDS = 0.2
"""Least time between two checks by :func:`poll`."""


def poll(forms: int) -> None:
    """Check the clock and memory of the running computation's budget, if any, at most every
    :data:`POLL_SECONDS`: for long work that meets forms the table already holds (a game
    graph of known values, the envelopes of a wide thermograph), where no checkpoint of the
    table comes. ``forms``: the size of the table of forms now."""
    budget = active_budget()
    if budget is None:
        return
    now = time.monotonic()
    if now >= budget.next_poll:
        budget.next_poll = now + POLL_SECONDS
        budget.check(forms)


def active_budget() -> Budget | None:
    """The budget of the computation running now, if any."""
    budget = game.active_budget()
    return budget if isinstance(budget, Budget) else None
