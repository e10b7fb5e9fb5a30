"""Compiled (numba) exact solvers for particular games, for boards the generic solvers cannot
reach in pure Python.

A kernel restates one game's rules on uint64 bitboards and searches them with a negamax
alpha-beta whose transposition table lives in one numpy array (:mod:`solvers.kernel_table`).
It is a second, independent statement of the rules, so tests compare it move for move with
the readable game module and value for value with :mod:`solvers.retrograde`.

Every entry point in :data:`KERNELS` has the same signature::

    solve_X(game, position=None, *, remoteness=False, tt_entries=1 << 22, symmetry=True,
            principal_variation=True, max_seconds=None, progress=None, move_values=True,
            **game_specific_options) -> SolveResult

``move_values=False`` asks for the root's value alone (no move values, no line): a won root
then needs one winning move proved instead of every move's exact value.

``max_seconds`` running out raises :class:`~solvers.kernel_base.SearchBudgetExceeded` (a
:class:`~cgt.errors.CGTError`); ``progress`` (a :data:`cgt.progress.Progress`)
is called about every half second with ``{"phase": "search", "nodes", "positions",
"seconds"}`` and after each root move with ``{"phase": "root move", "move", "outcome",
"nodes", "seconds"}``. :func:`estimate_bytes` gives the table's memory before allocating it.

Kernels are compiled on first use and cached on disk (numba ``cache=True``); the compile or
cache-load time is reported separately from the solving time (``extra["compile_seconds"]``).
Importing this package compiles nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cgt.protocol import Game
from solvers.kernel_base import CompiledKernel, KernelSolver, SearchBudgetExceeded
from solvers.kernel_table import table_bytes
from solvers.kernels import control, entropy, interleave, lag, super_nonnect
from solvers.kernels.control import ControlKernel, solve_control
from solvers.kernels.entropy import solve_entropy
from solvers.kernels.interleave import solve_interleave
from solvers.kernels.lag import LagKernel, solve_lag
from solvers.kernels.plugin import KernelPlugin
from solvers.kernels.super_nonnect import SuperNonnectKernel, solve_super_nonnect
from solvers.playout import PlayoutRules

#: Every compiled plug-in: what each declares is all the solvers know of its game. A game
#: added in a file of its own adds its plug-in with :func:`register_plugin`.
PLUGINS: list[KernelPlugin] = [
    control.PLUGIN,
    entropy.PLUGIN,
    interleave.PLUGIN,
    lag.PLUGIN,
    super_nonnect.PLUGIN,
]

#: Registry name of a game -> its compiled solver (the uniform signature above).
KERNELS: dict[str, KernelSolver] = {}

#: Registry name of a game -> its search kernel class, for callers that keep one kernel, and
#: so its transposition table, across many positions (frontier jobs in a worker process).
#: The constructors share ``remoteness``, ``tt_entries`` and ``method``.
KERNEL_CLASSES: dict[str, type[CompiledKernel]] = {}

#: Registry name of a game -> its compiled playout interface (:mod:`solvers.playout`), used
#: by the Monte-Carlo player (:mod:`solvers.player`) and by the engine. A factory may raise
#: :class:`~cgt.errors.CGTError` for parameters it does not support (the player then plays
#: over the readable rules).
PLAYOUTS: dict[str, Callable[[Game[Any, Any]], PlayoutRules]] = {}


def _index(plugin: KernelPlugin) -> None:
    KERNELS[plugin.game] = plugin.solve
    if plugin.kernel_class is not None:
        KERNEL_CLASSES[plugin.game] = plugin.kernel_class
    if plugin.playout is not None:
        PLAYOUTS[plugin.game] = plugin.playout


for _plugin in PLUGINS:
    _index(_plugin)


def register_plugin(plugin: KernelPlugin) -> KernelPlugin:
    """Add the compiled plug-in of a game defined outside the toolkit (its file, loaded with
    ``cgt --load``), replacing any earlier one for the same game."""
    PLUGINS[:] = [p for p in PLUGINS if p.game != plugin.game] + [plugin]
    _index(plugin)
    return plugin


def plugin_of(game: Any) -> KernelPlugin | None:
    """The compiled plug-in of ``game`` (by its registry name), if it has one."""
    name = getattr(game, "name", None)
    return next((plugin for plugin in PLUGINS if plugin.game == name), None)


#: Memory of a kernel besides its table (search stacks, history, board tables): a bound.
OVERHEAD_BYTES = 64 << 20


def estimate_bytes(tt_entries: int) -> int:
    """Memory a kernel solve with a table of ``tt_entries`` slots needs (every kernel uses the
    layout of :mod:`solvers.kernel_table`: 32 bytes per slot, the count rounded down to a
    power of two), so a caller can refuse a table that cannot fit before allocating it."""
    return table_bytes(tt_entries) + OVERHEAD_BYTES


def has_kernel(game: Any) -> bool:
    """Whether ``game`` has a compiled solver (by registry name)."""
    return getattr(game, "name", None) in KERNELS


__all__ = [
    "KERNELS",
    "KERNEL_CLASSES",
    "PLAYOUTS",
    "PLUGINS",
    "ControlKernel",
    "KernelPlugin",
    "LagKernel",
    "SearchBudgetExceeded",
    "SuperNonnectKernel",
    "estimate_bytes",
    "has_kernel",
    "plugin_of",
    "register_plugin",
    "solve_control",
    "solve_entropy",
    "solve_interleave",
    "solve_lag",
    "solve_super_nonnect",
]
