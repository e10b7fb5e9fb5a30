"""The bounds every value computation takes on the command line (``cgt value``, ``cgt eval``):
``--max-seconds``, ``--max-forms`` and ``--max-memory`` (see :mod:`cgt.algebra.budget`)."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from cgt.algebra.budget import Budget, BudgetExceeded, format_size, parse_size, physical_memory
from cgt.progress import Progress

EXIT_STOPPED = 3
"""Exit status of a computation stopped by its bounds: the input was fine, the bounds were
too small for it (bad input exits with 2)."""

T = TypeVar("T")

F = TypeVar("F", bound=Callable[..., Any])


class Seconds(click.ParamType):
    """A positive, finite number of seconds (``FloatRange`` lets ``nan`` and ``inf`` through,
    which then fail deep inside a solver, under the solver's own parameter name)."""

    name = "SECONDS"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r} is not a positive number of seconds", param, ctx)
        return seconds


SECONDS = Seconds()


def default_max_memory() -> int:
    """Half the machine's memory (4 GiB when the system does not say)."""
    total = physical_memory()
    return (total // 2) if total else 4 << 30


def bound_options(command: F) -> F:
    """Add the three bound options to a click command (parameters ``max_seconds``,
    ``max_forms``, ``max_memory``)."""
    options = [
        click.option(
            "--max-seconds",
            type=SECONDS,
            default=None,
            help="Give up after this many seconds and say how far the computation got.",
        ),
        click.option(
            "--max-forms",
            type=click.IntRange(min=1),
            default=None,
            help="Refuse to hold more canonical forms than this (the table that grows).",
        ),
        click.option(
            "--max-memory",
            default=None,
            metavar="SIZE",
            help="Refuse to grow past this much memory, e.g. 3G or 512M "
            f"(default: half the machine's memory, {format_size(default_max_memory())}).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def make_budget(
    max_seconds: float | None,
    max_forms: int | None,
    max_memory: str | None,
    progress: Progress | None = None,
) -> Budget:
    """The budget the options ask for."""
    limit = default_max_memory() if max_memory is None else parse_size(max_memory)
    return Budget(max_seconds, max_forms, limit, progress)


def run_bounded(budget: Budget, as_json: bool, compute: Callable[[], T]) -> T:
    """``compute()`` inside ``budget``; when a bound stops it, say so on one line on stderr
    (and with ``as_json`` print how far it got on stdout) and exit with
    :data:`EXIT_STOPPED`."""
    try:
        with budget.active():
            return compute()
    except BudgetExceeded as exc:
        if as_json:
            import json

            click.echo(json.dumps(exc.as_dict(), indent=2))
        click.echo(f"cgt: {exc}", err=True)
        sys.exit(EXIT_STOPPED)
