"""Errors the toolkit reports to users.

Every error a user can cause (unknown game, bad parameter, malformed position, illegal move)
is a :class:`CGTError`; the command line prints its message on one line and exits with
status 2. Anything else is a bug and keeps its traceback.
"""

from typing import Any

#: Exit status of bad input (a :class:`CGTError`).
EXIT_BAD_INPUT = 2
#: Exit status of a run stopped by its time budget (``--max-seconds``): not bad input.
EXIT_STOPPED = 3


class CGTError(Exception):
    """Base class of errors caused by user input.

    ``exit_status`` and ``label`` say how the command line ends: ``cgt: error: ...`` and
    status 2 for bad input; a subclass that is not bad input (a run stopped by its time
    budget) sets its own."""

    exit_status: int = EXIT_BAD_INPUT
    label: str = "error"


class UnknownGameError(CGTError):
    """No game is registered under that name."""


class ParameterError(CGTError):
    """A parameter is unknown, has a bad value, or clashes with another parameter."""


class PositionError(CGTError):
    """A position string is malformed or describes an impossible position."""


def unpack_position(position: Any, count: int, description: str) -> tuple[Any, ...]:
    """The ``count`` fields of ``position`` (a tuple, or any iterable); a
    :class:`PositionError` ``"<description>, got <position>"`` when it has not that many."""
    try:
        fields = tuple(position)
    except TypeError:
        fields = None
    if fields is None or len(fields) != count:
        raise PositionError(f"{description}, got {position!r}")
    return fields


class MoveError(CGTError):
    """A move string names no legal move."""


class ClaimError(CGTError):
    """No claim is registered under that id."""
