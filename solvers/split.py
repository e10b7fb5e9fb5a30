"""Solving split at the root: every opening is its own job, run in parallel with joblib and
checkpointed in the solution database as soon as it is solved.

An interrupted solve loses only the openings in progress; running the same command again
reads the finished ones back from the database (``resumed`` in the result says how many).
Backends are joblib's: ``loky`` (processes on this machine, the default), ``threading``, or
a cluster backend registered with joblib (``dask`` after ``pip install dask distributed``
and ``from dask.distributed import Client; Client("scheduler:8786")`` in a plugin loaded
with ``cgt --load``; ``ray`` after ``pip install ray`` and ``ray.util.joblib.register_ray()``).
"""

from __future__ import annotations

import time
from typing import Any

from cgt.errors import ParameterError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.alphabeta import AlphaBeta
from solvers.budget import SearchBudgetExceeded, check_max_seconds
from solvers.database import SolutionDatabase
from solvers.result import MoveValue, SolveResult
from solvers.retrograde import best_move_values

SPLIT_SOLVERS = ("alphabeta", "compiled")


def _solve_child(
    game: Game[Any, Any],
    child: Any,
    remoteness: bool,
    symmetry: bool,
    tt_entries: int,
    solver: str = "alphabeta",
    deadline_epoch: float | None = None,
) -> tuple[int, int | None, int]:
    # the budget is a wall-clock moment (time.time), the one clock worker processes share
    max_seconds = None
    if deadline_epoch is not None:
        max_seconds = deadline_epoch - time.time()
        if max_seconds <= 0:
            raise SearchBudgetExceeded(0, 0.0, "nodes searched (budget spent before this opening)")
    if solver == "compiled":
        from solvers.api import solve

        result = solve(
            game,
            child,
            solver="compiled",
            remoteness=remoteness,
            symmetry=symmetry,
            tt_entries=tt_entries,
            max_seconds=max_seconds,
        )
        return int(result.outcome), result.remoteness, int(result.extra.get("nodes", 0))
    searcher = AlphaBeta(
        game,
        tt_entries=tt_entries,
        symmetry=symmetry,
        remoteness=remoteness,
        max_seconds=max_seconds,
    )
    result = searcher.solve(child)
    return int(result.outcome), result.remoteness, result.positions


def check_backend(backend: str) -> None:
    """Refuse an unknown joblib backend by name before any work starts."""
    from joblib.parallel import BACKENDS, EXTERNAL_BACKENDS

    if backend == "dask":
        _require_dask_client()
    if backend in BACKENDS:
        return
    if backend in EXTERNAL_BACKENDS:
        try:
            EXTERNAL_BACKENDS[backend]()  # registers it, if its package is installed
        except ImportError as exc:
            raise ParameterError(
                f"joblib backend {backend!r} needs a package that is not installed ({exc})"
            ) from None
        if backend in BACKENDS:
            return
    raise ParameterError(
        f"unknown joblib backend {backend!r} (registered: {', '.join(sorted(BACKENDS))}); "
        "register a cluster backend in a plugin loaded with 'cgt --load FILE.py'"
    )


def _require_dask_client() -> None:
    """joblib's dask backend sends jobs to the dask.distributed client of the process; without
    one it fails on the first job with a long message, so refuse before any work."""
    try:
        from distributed import get_client
    except ImportError:
        raise ParameterError(
            "joblib backend 'dask' needs dask.distributed (pip install dask distributed)"
        ) from None
    try:
        get_client()
    except ValueError:
        raise ParameterError(
            "joblib backend 'dask' needs a dask.distributed client: connect one in a plugin "
            "loaded with --load, e.g. a file holding 'from dask.distributed import Client; "
            'Client("tcp://SCHEDULER:8786")\' (Client() starts a cluster on this machine)'
        ) from None


def make_parallel(jobs: int, backend: str, ordered: bool = True) -> Any:
    """A ``joblib.Parallel`` of ``jobs`` workers on ``backend``, yielding results in order
    (``ordered=False``: as they finish).

    The backend is set with ``parallel_config`` rather than passed by name: joblib 1.6
    builds a backend named in ``Parallel(backend=...)`` with a ``nesting_level`` argument
    that its dask backend forwards to every task, which then fails."""
    from joblib import Parallel, parallel_config

    with parallel_config(backend=backend):
        return Parallel(n_jobs=jobs, return_as="generator" if ordered else "generator_unordered")


def solve_by_openings(
    game: Game[Any, Any],
    position: Any = None,
    *,
    jobs: int = 1,
    backend: str = "loky",
    remoteness: bool = True,
    symmetry: bool = True,
    tt_entries: int = 1 << 20,
    database: SolutionDatabase | None = None,
    progress: Progress | None = None,
    solver: str = "alphabeta",
    max_seconds: float | None = None,
) -> SolveResult:
    """Solve ``position`` by solving the position after each legal move as a separate job,
    each with ``solver`` (``alphabeta``, or ``compiled`` for a game with a kernel).

    ``max_seconds`` bounds the whole run: :class:`~solvers.budget.SearchBudgetExceeded` once
    it is spent, with every opening solved before then already checkpointed in ``database``
    (the same command resumes from them)."""
    from joblib import delayed

    check_backend(backend)
    if solver not in SPLIT_SOLVERS:
        raise ParameterError(f"--jobs splits with {' or '.join(SPLIT_SOLVERS)}, not {solver!r}")

    check_max_seconds(max_seconds)
    deadline_epoch = None if max_seconds is None else time.time() + max_seconds
    started = time.perf_counter()
    if position is None:
        position = game.initial_position()
    mover = game.to_move(position)
    terminal = game.result(position)
    if terminal is not None:
        return SolveResult(
            game.name,
            dict(game.parameters),
            game.render(position),
            "split",
            terminal,
            0,
            [],
            [],
            [],
            1,
            time.perf_counter() - started,
        )
    moves = list(game.moves(position))
    children = [game.play(position, m) for m in moves]
    known: dict[int, tuple[Outcome, int | None]] = {}
    if database is not None:
        for i, child in enumerate(children):
            found = database.lookup(game, child)
            if found is not None and (
                found[1] is not None or not remoteness or found[0] == Outcome.DRAW
            ):
                known[i] = found
    todo = [i for i in range(len(children)) if i not in known]
    nodes = 0
    if progress:
        progress({"phase": "openings", "solved": len(known), "total": len(children)})
    outputs: Any = []
    if todo:
        outputs = make_parallel(jobs, backend)(
            delayed(_solve_child)(
                game, children[i], remoteness, symmetry, tt_entries, solver, deadline_epoch
            )
            for i in todo
        )
    for done, (i, (code, rem, visited)) in enumerate(zip(todo, outputs), start=1):
        nodes += visited
        known[i] = (Outcome(code), rem)
        if database is not None:  # checkpoint at once
            database.store(
                game,
                [
                    (
                        game.canonical_key(children[i]) if symmetry else game.key(children[i]),
                        Outcome(code),
                        rem,
                    )
                ],
                solver=solver,
            )
        if progress:
            progress(
                {
                    "phase": "openings",
                    "solved": len(children) - len(todo) + done,
                    "total": len(children),
                }
            )
    values = []
    for i, (move, child) in enumerate(zip(moves, children)):
        outcome, rem = known[i]
        if game.to_move(child) != mover:
            outcome = -outcome
        values.append(
            MoveValue(
                move, game.move_name(position, move), outcome, None if rem is None else rem + 1
            )
        )
    best_outcome = max(v.outcome for v in values)
    same = [v for v in values if v.outcome == best_outcome]
    rems = [v.remoteness for v in same if v.remoteness is not None]
    if best_outcome == Outcome.DRAW or len(rems) < len(same):
        root_rem = None
    else:
        root_rem = min(rems) if best_outcome == Outcome.WIN else max(rems)
    best = best_move_values(values, best_outcome, root_rem)
    if database is not None:
        database.store(
            game,
            [
                (
                    game.canonical_key(position) if symmetry else game.key(position),
                    best_outcome,
                    root_rem,
                )
            ],
            solver=solver,
        )
    return SolveResult(
        game=game.name,
        params=dict(game.parameters),
        position=game.render(position),
        solver=f"{solver}-split",
        outcome=best_outcome,
        remoteness=root_rem,
        moves=values,
        best_moves=[v.name for v in best],
        principal_variation=[best[0].name] if best else [],
        positions=nodes,
        seconds=time.perf_counter() - started,
        extra={"jobs": jobs, "backend": backend, "resumed": len(children) - len(todo)},
    )
