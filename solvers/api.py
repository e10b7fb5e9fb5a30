"""The single entry point :func:`solve`, so callers never choose how a game gets solved."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cgt.errors import ParameterError
from cgt.progress import Progress
from cgt.protocol import Game
from solvers.alphabeta import AlphaBeta
from solvers.budget import Deadline
from solvers.memory import require_memory
from solvers.result import SolveResult
from solvers.retrograde import PositionLimitExceeded, retrograde
from solvers.tt import TranspositionTable

if TYPE_CHECKING:  # the plug-ins are imported when a kernel is asked for (numba is slow to load)
    from solvers.kernels.plugin import KernelPlugin

SOLVERS = ("auto", "retrograde", "alphabeta", "compiled", "tiers")
#: "auto" enumerates at most this many positions before switching to a search: retrograde
#: keeps every position in memory and enumerates at some 10^4-10^5 positions per second.
AUTO_MAX_POSITIONS = 2_000_000
#: For a game with a compiled kernel "auto" only checks that the graph is not tiny before it
#: hands over: the kernel searches millions of nodes per second where retrograde in Python
#: enumerates some 10^4 positions per second, so a larger first enumeration only delays it.
AUTO_MAX_POSITIONS_BEFORE_KERNEL = 2_000
#: Default transposition-table capacity of the pure-Python alpha-beta (slots).
DEFAULT_TT_ENTRIES = 1 << 20
#: Default transposition-table capacity of a compiled kernel (slots of a few machine words).
DEFAULT_KERNEL_TT_ENTRIES = 1 << 22
#: Search methods of the compiled kernels: alpha-beta (every kernel) or depth-first
#: proof-number search (win/loss only, the plug-ins that declare it in their ``methods``).
METHODS = ("alphabeta", "dfpn")


def compiled_solver_names() -> list[str]:
    """Registry names of the games that have a compiled kernel."""
    from solvers.kernels import PLUGINS

    return sorted(plugin.game for plugin in PLUGINS)


def plugins_with(capability: Callable[[KernelPlugin], bool]) -> list[KernelPlugin]:
    """The compiled plug-ins that declare ``capability``, by game name."""
    from solvers.kernels import PLUGINS

    return sorted((p for p in PLUGINS if capability(p)), key=lambda p: p.game)


def _names(plugins: list[KernelPlugin]) -> str:
    return ", ".join(p.game for p in plugins)


def auto_retrograde_limit(game: Game[Any, Any], max_positions: int = AUTO_MAX_POSITIONS) -> int:
    """Positions "auto" enumerates by retrograde before it searches instead."""
    if game.name in compiled_solver_names():
        return min(max_positions, AUTO_MAX_POSITIONS_BEFORE_KERNEL)
    return max_positions


def auto_search_solver(game: Game[Any, Any]) -> str:
    """The search "auto" runs when the graph is too big to enumerate: the game's kernel, else
    alpha-beta."""
    return "compiled" if game.name in compiled_solver_names() else "alphabeta"


def kernel_table_bytes(tt_entries: int) -> int:
    """Memory of a compiled kernel's transposition table of ``tt_entries`` slots."""
    from solvers.kernels import estimate_bytes

    return estimate_bytes(tt_entries)


def solve(
    game: Game[Any, Any],
    position: Any = None,
    *,
    solver: str = "auto",
    symmetry: bool = True,
    remoteness: bool = True,
    progress: Progress | None = None,
    tt_entries: int | None = None,
    max_positions: int = AUTO_MAX_POSITIONS,
    max_seconds: float | None = None,
    method: str = "alphabeta",
    tier_dir: Path | None = None,
    root_only: bool = False,
) -> SolveResult:
    """Solve ``position`` (default: the initial position) of ``game`` exactly.

    ``solver``: ``retrograde`` (every reachable position, exact remoteness, cycles as draws),
    ``alphabeta`` (depth-first, memory bounded by ``tt_entries``), ``compiled`` (the game's
    numba kernel, :mod:`solvers.kernels`; only for games that have one) or ``auto``
    (retrograde when the reachable graph has at most ``max_positions`` positions, else the
    compiled kernel when the game has one, else alpha-beta).
    ``remoteness=False`` lets the searches prune more; retrograde always knows remoteness.
    ``tiers`` (LAG only) solves every position of every piece-count tier at or below the
    position's, lower tiers first (:mod:`solvers.kernels.lag_tiers`).
    ``max_seconds`` bounds the whole solve, whichever solvers ``auto`` goes through (it
    then raises :class:`solvers.budget.SearchBudgetExceeded`, saying how far it got).
    A table that cannot fit in the available memory is refused before the solve starts.
    ``method="dfpn"``: the compiled kernel's depth-first proof-number search instead of its
    alpha-beta (games whose plug-in declares it, ``solver`` compiled or auto, wins and losses
    only: it implies ``remoteness=False``).
    ``tier_dir`` (LAG): a directory of tier tables. With ``solver="tiers"`` the tiers found
    there are taken up and every tier solved is written there at once (a stopped solve
    resumes from its finished tiers); with ``solver="compiled"`` the search probes them.
    ``root_only``: the compiled kernels give the root's value alone (no move values, no
    line), far cheaper for a won root; the other solvers give their full result anyway.
    """
    if solver not in SOLVERS:
        raise ParameterError(f"unknown solver {solver!r} (solvers: {', '.join(SOLVERS)})")
    if method not in METHODS:
        raise ParameterError(f"unknown search method {method!r} (methods: {', '.join(METHODS)})")
    if method == "dfpn":
        if solver not in ("auto", "compiled"):
            raise ParameterError(f"method dfpn runs in the compiled kernel, not solver {solver}")
        with_dfpn = plugins_with(lambda p: "dfpn" in p.methods)
        if game.name not in {p.game for p in with_dfpn}:
            raise ParameterError(
                f"method dfpn is available for {_names(with_dfpn)}, not {game.name!r}"
            )
        solver = "compiled"
        remoteness = False
    if tt_entries is not None and (not isinstance(tt_entries, int) or tt_entries < 2):
        raise ParameterError(f"tt_entries must be an integer >= 2, got {tt_entries!r}")
    if solver == "compiled" and game.name not in compiled_solver_names():
        raise ParameterError(
            f"no compiled kernel for {game.name!r} (kernels: {', '.join(compiled_solver_names())})"
        )
    if tier_dir is not None:
        with_tiers = plugins_with(lambda p: p.tier_module is not None)
        if game.name not in {p.game for p in with_tiers} or solver not in ("tiers", "compiled"):
            raise ParameterError(
                f"tier tables apply to {_names(with_tiers)} with solver tiers or "
                f"compiled, not {game.name} with solver {solver}"
            )
    if solver == "tiers":
        return _solve_tiers(game, position, remoteness, progress, max_seconds, tier_dir)
    deadline = Deadline(max_seconds)
    if position is None:
        position = game.initial_position()
    has_kernel = game.name in compiled_solver_names()

    def enumerate_all(limit: int | None) -> SolveResult | None:
        try:
            solution = retrograde(
                game,
                position,
                symmetry=symmetry,
                progress=progress,
                max_positions=limit,
                max_seconds=deadline.remaining(),
            )
        except PositionLimitExceeded:
            return None  # only in "auto": too big to enumerate, search instead
        result = solution.result(position)
        result.extra["requested_solver"] = solver
        return result

    def compiled(fall_back: bool) -> SolveResult | None:
        result = _solve_compiled(
            game,
            position,
            symmetry,
            remoteness,
            progress,
            tt_entries,
            deadline.remaining(),
            fall_back,
            method,
            tier_dir,
            root_only,
        )
        if result is not None:
            result.extra["requested_solver"] = solver
        return result

    if solver in ("retrograde", "compiled"):
        result = enumerate_all(None) if solver == "retrograde" else compiled(fall_back=False)
        assert result is not None  # no limit, no fall-back: a result or an exception
        return result
    if solver == "auto":
        # Small graphs: retrograde (exact remoteness of every position); larger ones: the
        # kernel if the game has one and it takes the board, else retrograde up to the full
        # limit, else alpha-beta.
        result = enumerate_all(auto_retrograde_limit(game, max_positions))
        if result is None and has_kernel:
            result = compiled(fall_back=True)
            if result is None and max_positions > AUTO_MAX_POSITIONS_BEFORE_KERNEL:
                result = enumerate_all(max_positions)
        if result is not None:
            return result
    entries = tt_entries or DEFAULT_TT_ENTRIES
    require_memory(
        TranspositionTable.bytes_for(entries),
        f"an alpha-beta table of {entries:,} entries",
        "lower --tt-entries",
    )
    searcher = AlphaBeta(
        game,
        tt_entries=entries,
        symmetry=symmetry,
        remoteness=remoteness,
        progress=progress,
        max_seconds=deadline.remaining(),
    )
    result = searcher.solve(position)
    result.extra["requested_solver"] = solver
    return result


def _solve_compiled(
    game: Game[Any, Any],
    position: Any,
    symmetry: bool,
    remoteness: bool,
    progress: Progress | None,
    tt_entries: int | None,
    max_seconds: float | None,
    fall_back: bool,
    method: str = "alphabeta",
    tier_dir: Path | None = None,
    root_only: bool = False,
) -> SolveResult | None:
    """The game's kernel; with ``fall_back``, None when the kernel refuses the board (too big
    for its bitboards, an option it lacks) so that alpha-beta can try instead."""
    from solvers.kernels import plugin_of

    plugin = plugin_of(game)
    assert plugin is not None  # the caller checked compiled_solver_names()
    entries = tt_entries or DEFAULT_KERNEL_TT_ENTRIES
    require_memory(
        kernel_table_bytes(entries),
        f"a compiled table of {entries:,} entries",
        "lower --tt-entries",
    )
    options: dict[str, Any] = {
        "remoteness": remoteness,
        "tt_entries": entries,
        "symmetry": symmetry,
    }
    if max_seconds is not None:
        options["max_seconds"] = max_seconds
    if progress is not None:
        options["progress"] = progress
    if method != "alphabeta":  # only the plug-ins with more than one method take the option
        options["method"] = method
    if root_only:
        options["move_values"] = False
        options["principal_variation"] = False
    if tier_dir is not None:  # a plug-in with tier tables probes them from its search
        options["tiers"] = _tier_module(game).load_tier_tables(game, tier_dir)
    try:
        return plugin.solve(game, position, **options)
    except ParameterError:
        if fall_back:
            return None
        raise


def _solve_tiers(
    game: Game[Any, Any],
    position: Any,
    remoteness: bool,
    progress: Progress | None,
    max_seconds: float | None,
    tier_dir: Path | None,
) -> SolveResult:
    """The game's tier retrograde (every tier at or below the position's piece counts)."""
    solve_by_tiers = _tier_module(game).solve_tiers
    result: SolveResult = solve_by_tiers(
        game,
        position,
        remoteness=remoteness,
        progress=progress,
        max_seconds=max_seconds,
        tier_dir=tier_dir,
    )
    result.extra["requested_solver"] = "tiers"
    return result


def _tier_module(game: Game[Any, Any]) -> Any:
    """The module of the game's retrograde by tiers, as its plug-in declares it."""
    with_tiers = plugins_with(lambda p: p.tier_module is not None)
    plugin = next((p for p in with_tiers if p.game == game.name), None)
    if plugin is None or plugin.tier_module is None:
        raise ParameterError(f"no tier retrograde for {game.name!r} (games: {_names(with_tiers)})")
    return importlib.import_module(plugin.tier_module)
