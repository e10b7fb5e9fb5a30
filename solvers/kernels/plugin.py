"""What a game's compiled plug-in declares to the engine.

A kernel module (one per game, a second statement of its rules on bitboards) ends with a
:class:`KernelPlugin` naming the game it serves and what it can do; :mod:`solvers.kernels`
lists the plug-ins, and everything the solvers know about a game's compiled road (which
search methods, a packed store, tier tables, a kernel kept between jobs) is read from there,
not from tables keyed by game names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cgt.protocol import Game
from solvers.kernel_base import CompiledKernel, KernelSolver
from solvers.levels import LevelsRules
from solvers.playout import PlayoutRules


@dataclass(frozen=True)
class KernelPlugin:
    """A game's compiled plug-in."""

    #: registry name of the game it serves
    game: str
    #: the kernel's solve, with the uniform signature of :mod:`solvers.kernels`
    solve: KernelSolver
    #: its search kernel class, for callers that keep one kernel (and its table) across
    #: many positions (frontier jobs); None for a packed retrograde that solves a whole space
    kernel_class: type[CompiledKernel] | None = None
    #: search methods its ``method`` option takes (``dfpn``: proof-number search)
    methods: tuple[str, ...] = ("alphabeta",)
    #: True when its solve is a packed retrograde kept whole by ``--save`` (solvers.saved)
    packed: bool = False
    #: module of its retrograde by piece-count tiers, if it has one: it provides
    #: ``solve_tiers(game, position, ...)`` and ``load_tier_tables(game, directory)``, and
    #: the kernel's solve takes the tables as ``tiers=`` (imported only when asked for)
    tier_module: str | None = None
    #: its compiled playout interface for a game instance (:mod:`solvers.playout`): the
    #: Monte-Carlo player's rules, and the engine's (:mod:`solvers.engine`)
    playout: Callable[[Game[Any, Any]], PlayoutRules] | None = None
    #: its plug-in of the engine's exact search for a game instance, when it is not the
    #: playout one (a state with more words kept for the search: counts, symmetric images)
    engine: Callable[[Game[Any, Any]], PlayoutRules] | None = None
    #: its ranked space for the engine's packed retrograde by levels, for a game instance
    #: (:class:`solvers.levels.LevelsRules`; tests/test_levels.py checks every one)
    levels: Callable[[Game[Any, Any]], LevelsRules] | None = None
    #: its ranked space for a game instance (:class:`solvers.sweep.RankedSpace`: the
    #: positions of the game's start ranked, for the engine's ranked retrograde), where its
    #: tier module does not give one as ``ranked_space``
    ranked_space: Callable[[Game[Any, Any]], Any] | None = None
