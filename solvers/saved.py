"""Solves that are kept: a packed kernel's whole solved space written to a
:mod:`solvers.store` file and indexed in the solution database (``cgt solve --solver compiled
--save`` on Entropy and Interleave).

The records are converted and compressed a few blocks at a time straight from the kernel's
array, so keeping a space needs no second copy of it in memory (the 5x5 Entropy space is
3.9 billion records).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from cgt.errors import ParameterError
from cgt.progress import Progress
from cgt.protocol import Game
from solvers import store
from solvers.api import auto_retrograde_limit
from solvers.budget import Deadline
from solvers.database import PackedEntry, SolutionDatabase, params_text
from solvers.result import SolveResult
from solvers.retrograde import PositionLimitExceeded, retrograde
from solvers.split import solve_by_openings

#: Records converted at a time while writing (16 blocks: 16 MiB of records).
CHUNK_RECORDS = 16 * store.RECORDS_PER_BLOCK


def stores_packed(game: Game[Any, Any]) -> bool:
    """Whether ``game``'s compiled solve is kept as a packed store by ``--save`` (its plug-in
    declares a packed retrograde that solves a whole space at once)."""
    from solvers.kernels import plugin_of

    plugin = plugin_of(game)
    return plugin is not None and plugin.packed


def git_commit() -> str | None:
    """The commit of the toolkit's source tree, when it runs from a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        done = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    commit = done.stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
        timeout=5,
        check=False,
    ).stdout.strip()
    return commit + ("-dirty" if dirty else "")


def packed_path(database: SolutionDatabase, game: Game[Any, Any], root: str) -> Path:
    """The file a packed solution of ``game`` from ``root`` is written to."""
    import hashlib

    digest = hashlib.sha256(f"{params_text(game.parameters)}\n{root}".encode()).hexdigest()
    return database.packed_dir / f"{game.name}-{digest[:16]}.cgtpack"


def check_writable(folder: Path) -> None:
    """Refuse before a long solve when its result could not be written."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise store.StoreError(
            f"cannot write packed solutions to {folder}: {exc.strerror}"
        ) from None


def _chunks(space: Any) -> Iterator[np.ndarray]:
    for first in range(0, space.size, CHUNK_RECORDS):
        yield space.records(first, min(space.size, first + CHUNK_RECORDS))


def solve_and_store(
    game: Game[Any, Any],
    position: Any,
    database: SolutionDatabase,
    *,
    symmetry: bool = True,
    remoteness: bool = True,
    progress: Progress | None = None,
    max_seconds: float | None = None,
    command: str | None = None,
) -> tuple[SolveResult, PackedEntry]:
    """Solve ``position`` with ``game``'s packed kernel and keep the whole solved space:
    the root's result and the database entry of the written file."""
    from solvers.kernels import KERNELS

    if not stores_packed(game):
        raise ParameterError(f"{game.name} has no packed solver to store")
    root = game.render(position)
    path = packed_path(database, game, root)
    check_writable(path.parent)
    commit = git_commit()  # the code that solves, even if the checkout moves on meanwhile
    entries: list[PackedEntry] = []

    def keep(space: Any, result: SolveResult) -> None:
        started = time.perf_counter()
        created = datetime.now(UTC).isoformat(timespec="seconds")
        meta = {
            "game": game.name,
            "params": game.parameters,
            "root": root,
            "root_outcome": result.outcome.label,
            "root_remoteness": result.remoteness,
            "solver": "compiled",
            "ranking": space.ranking_meta(),
            "records": space.size,
            "solve": {
                k: result.extra.get(k)
                for k in ("method", "seconds_per_phase", "wins", "losses", "draws", "duplicates")
                if k in result.extra
            },
            "positions": result.positions,
            "created": created,
            "git_commit": commit,
            "command": command,
            "encoding": "uint16: bits 14-15 outcome for the player to move (0 not a "
            "position, 1 win, 2 loss, 3 draw), bits 0-13 remoteness",
        }
        size = store.write_packed_solution(path, _chunks(space), meta, progress=progress)
        result.extra["stored"] = {
            "path": str(path),
            "bytes": size,
            "records": space.size,
            "seconds": round(time.perf_counter() - started, 3),
        }
        entries.append(
            PackedEntry(
                path=path,
                game=game.name,
                params=dict(game.parameters),
                root=root,
                records=space.size,
                bytes=size,
                format_version=store.FORMAT_VERSION,
                created=created,
                git_commit=commit,
                command=command,
            )
        )

    options: dict[str, Any] = {
        "remoteness": remoteness,
        "symmetry": symmetry,
        "keep_space": keep,
    }
    if max_seconds is not None:
        options["max_seconds"] = max_seconds
    if progress is not None:
        options["progress"] = progress
    result = KERNELS[game.name](game, position, **options)
    database.register_packed(entries[0])
    result.extra["requested_solver"] = "compiled"
    return result, entries[0]


def solve_and_store_rows(
    game: Game[Any, Any],
    position: Any,
    database: SolutionDatabase,
    *,
    solver: str,
    split_solver: str,
    jobs: int = 1,
    backend: str = "loky",
    symmetry: bool,
    remoteness: bool,
    tt_entries: int,
    progress: Progress | None,
    max_seconds: float | None,
) -> SolveResult:
    """Solve ``position`` and keep its positions as rows of ``database`` (``cgt solve --save``
    or ``--jobs``). ``auto`` takes the road it takes without ``--save``: retrograde (every
    position stored) while the graph is small, else the openings searched by
    ``split_solver``, each checkpointed as it is proven; ``--jobs`` and the searches go to
    the openings at once."""
    deadline = Deadline(max_seconds)
    if jobs == 1 and solver in ("auto", "retrograde"):
        limit = None if solver == "retrograde" else auto_retrograde_limit(game)
        options: dict[str, Any] = {
            "symmetry": symmetry,
            "progress": progress,
            "max_positions": limit,
        }
        try:
            solution = retrograde(game, position, max_seconds=deadline.remaining(), **options)
        except PositionLimitExceeded:
            pass  # too big to enumerate: search the openings
        else:
            database.store(game, solution, solver="retrograde")
            return solution.result(position)
    return solve_by_openings(
        game,
        position,
        jobs=jobs,
        backend=backend,
        remoteness=remoteness,
        symmetry=symmetry,
        tt_entries=tt_entries,
        database=database,
        progress=progress,
        solver=split_solver,
        max_seconds=deadline.remaining(),
    )


def command_line(context: dict[str, Any] | None = None) -> str:
    """The ``cgt`` command that is running (its arguments from ``context["argv"]``, else
    the process's), as a person would type it again."""
    import shlex

    argv = (context or {}).get("argv")
    args = list(argv) if argv is not None else sys.argv[1:]
    return " ".join(shlex.quote(a) for a in ["cgt", *args])
