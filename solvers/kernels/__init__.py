"""Compiled (numba) exact solvers for particular games, for boards the generic solvers cannot
reach in pure Python.

A kernel restates one game's rules on uint64 bitboards and searches them with a negamax
alpha-beta whose transposition table lives in one numpy array (:mod:`solvers.kernels.table`).
It is a second, independent statement of the rules, so tests compare it move for move with
the readable game module and value for value with :mod:`solvers.retrograde`.

Kernels are compiled on first use and cached on disk (numba ``cache=True``); the compile or
cache-load time is reported separately from the solving time (``extra["compile_seconds"]``).
Importing this package compiles nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solvers.kernels.control import solve_control
from solvers.kernels.super_nonnect import solve_super_nonnect
from solvers.result import SolveResult

#: Registry name of a game -> its compiled solver ``solver(game, position, **options)``.
KERNELS: dict[str, Callable[..., SolveResult]] = {
    "control": solve_control,
    "super-nonnect": solve_super_nonnect,
}


def has_kernel(game: Any) -> bool:
    """Whether ``game`` has a compiled solver (by registry name)."""
    return getattr(game, "name", None) in KERNELS


__all__ = ["KERNELS", "has_kernel", "solve_control", "solve_super_nonnect"]
