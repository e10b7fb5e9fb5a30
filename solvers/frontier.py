"""Long solves as a frontier of independent jobs that span sessions and machines.

The positions ``depth`` plies below the root, merged by symmetry and by transposition, are
the *jobs*. Each job is solved on its own (value only: who wins with perfect play) and
stored in the solution database as soon as it finishes, so running the same command again
runs only the jobs not yet proven, and progress on an unsolved board is a number that grows
from run to run.

The tree above the frontier is small; every run rebuilds it and evaluates it from the stored
jobs. A node is won for its mover as soon as one move leads to a position lost for the
player who then moves (a single winning child decides it), lost once every move leads to a
won one. A job that can no longer change the root's value is never run: jobs are taken only
from undecided subtrees, depth first, in small batches, and the tree is re-evaluated after
every batch.

A job may be given a time budget (``job_seconds``). A job that runs out of it is recorded as
*open*, with the nodes and seconds it spent; runs with the same budget skip it (so the other
jobs go on), and a run that gives jobs a larger budget tries it again.

Jobs run with joblib, so any joblib backend runs them: ``loky`` (processes on this machine),
or a cluster through ``dask`` (``dask.distributed``) or ``ray``, registered in a plugin file
loaded with ``cgt --load`` (see the README). The database stays with the process that
drives the run; workers only solve and send back ``(outcome, nodes, seconds)``.

Soundness in games whose positions can repeat: a node is decided only from decided children
and from the game's own result, never from a repetition seen above the frontier, so the
graph-history problem does not arise here; it is the job solver's to answer for.
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cgt.errors import ParameterError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.budget import Deadline, SearchBudgetExceeded, check_max_seconds
from solvers.database import SolutionDatabase, key_text

JobSolver = str  # "auto", "retrograde", "alphabeta" or "compiled": see solvers.api.solve

JOBS_SCHEMA = """
CREATE TABLE IF NOT EXISTS frontier_jobs (
    game TEXT NOT NULL,
    params TEXT NOT NULL,
    key TEXT NOT NULL,
    outcome INTEGER,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    budget REAL,
    attempts INTEGER NOT NULL,
    solver TEXT NOT NULL,
    PRIMARY KEY (game, params, key)
) WITHOUT ROWID;
"""

#: The largest tree above the frontier that is built (positions); deeper frontiers are
#: refused with a message rather than filling the memory.
DEFAULT_MAX_TREE = 2_000_000


@dataclass
class FrontierTree:
    """The positions from the root down to the frontier, each once (up to symmetry).

    Node 0 is the root. ``children[i]`` lists ``(child, flips)``: ``flips`` is true when the
    player to move changes along the move (a child's value is then negated for the parent).
    ``terminal[i]`` is the game's result at a finished position, for its player to move.
    Jobs are the unfinished nodes with no children in the tree: the nodes at the frontier's
    depth, and below it the children of jobs that were *split* (see ``expand``).
    """

    depth: int
    keys: list[Hashable]
    positions: list[Any]
    levels: list[int]
    children: list[list[tuple[int, bool]]]
    terminal: list[Outcome | None]
    root_moves: list[tuple[str, int, bool]] = field(default_factory=list)
    index: dict[Hashable, int] = field(default_factory=dict)
    split: set[int] = field(default_factory=set)

    def __len__(self) -> int:
        return len(self.keys)

    def is_job(self, node: int) -> bool:
        return self.terminal[node] is None and not self.children[node]

    @property
    def jobs(self) -> list[int]:
        return [i for i in range(len(self)) if self.is_job(i)]


def expand(
    game: Game[Any, Any],
    tree: FrontierTree,
    node: int,
    *,
    symmetry: bool = True,
    max_nodes: int = DEFAULT_MAX_TREE,
) -> list[int]:
    """Add the children of ``node`` to the tree; return the nodes that are new.

    A child already in the tree (a transposition, a symmetric image, a repetition) is the
    same node."""
    parent = tree.positions[node]
    mover = game.to_move(parent)
    level = tree.levels[node] + 1
    added: list[int] = []
    for move in game.moves(parent):
        child = game.play(parent, move)
        key = game.canonical_key(child) if symmetry else game.key(child)
        found = tree.index.get(key)
        if found is None:
            found = len(tree)
            if found >= max_nodes:
                raise ParameterError(
                    f"the tree above the frontier has more than {max_nodes:,} positions "
                    f"(reached at depth {level}); choose a smaller depth or larger jobs"
                )
            tree.index[key] = found
            tree.keys.append(key)
            tree.positions.append(child)
            tree.levels.append(level)
            tree.children.append([])
            tree.terminal.append(game.result(child))
            added.append(found)
        flips = game.to_move(child) != mover
        tree.children[node].append((found, flips))
        if node == 0:
            tree.root_moves.append((game.move_name(parent, move), found, flips))
    return added


def build_tree(
    game: Game[Any, Any],
    position: Any,
    depth: int,
    *,
    symmetry: bool = True,
    max_nodes: int = DEFAULT_MAX_TREE,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
) -> FrontierTree:
    """Every position at most ``depth`` plies below ``position``, breadth first, each once.

    A position reached again (by a transposition, a symmetric image, or a repetition) is the
    same node, first reached at its smallest depth. A deep frontier takes long to build:
    ``deadline`` is checked and ``progress`` told at every expanded node."""
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
        raise ParameterError(f"frontier depth must be an integer >= 0, got {depth!r}")
    key = game.canonical_key(position) if symmetry else game.key(position)
    tree = FrontierTree(depth, [key], [position], [0], [[]], [game.result(position)])
    tree.index[key] = 0
    level = [0]
    for plies in range(1, depth + 1):
        following: list[int] = []
        for node in level:
            if tree.terminal[node] is None:
                following += expand(game, tree, node, symmetry=symmetry, max_nodes=max_nodes)
            if deadline is not None:
                deadline.check(len(tree), "positions of the tree above the frontier")
            if progress is not None:
                progress({"phase": "frontier tree", "depth": plies, "positions": len(tree)})
        level = following
        if not level:
            break  # every line ended before the depth asked for
    return tree


def evaluate(tree: FrontierTree, known: dict[int, Outcome]) -> list[Outcome | None]:
    """Value of every node for its mover, from the finished positions and ``known`` jobs;
    ``None`` where the jobs proven so far do not decide it.

    Values only ever go from undecided to decided, so sweeping until nothing changes ends
    (transpositions and repetitions can point a node at a node of a smaller index)."""
    value: list[Outcome | None] = [
        tree.terminal[i] if tree.terminal[i] is not None else known.get(i) for i in range(len(tree))
    ]
    changed = True
    while changed:
        changed = False
        for node in range(len(tree) - 1, -1, -1):
            if value[node] is not None or not tree.children[node]:
                continue
            seen: list[Outcome] = []
            for child, flips in tree.children[node]:
                v = value[child]
                if v is None:
                    continue
                seen.append(-v if flips else v)
            if Outcome.WIN in seen:
                value[node] = Outcome.WIN
            elif len(seen) == len(tree.children[node]):
                value[node] = max(seen)
            else:
                continue
            changed = True
    return value


def relevant_jobs(
    tree: FrontierTree, value: list[Outcome | None], skip: set[int] | None = None
) -> list[int]:
    """Unproven jobs that can still change the root's value, depth first in move order:
    the jobs below undecided nodes only. ``skip`` leaves out jobs (open ones)."""
    out: list[int] = []
    seen: set[int] = set()
    stack = [0]
    while stack:
        node = stack.pop()
        if node in seen or value[node] is not None:
            continue
        seen.add(node)
        if tree.is_job(node):
            if not skip or node not in skip:
                out.append(node)
            continue
        stack.extend(child for child, _ in reversed(tree.children[node]))
    return out


#: Proof and disproof numbers at this are infinite (a proven or excluded subtree). Python's
#: integers do not overflow, and the estimates of untried jobs stay far below it
#: (``ESTIMATE_CAP``), so a sum of finite numbers never passes for infinity.
PN_INFINITY = 10**200
ESTIMATE_CAP = 10**100


def proof_numbers(
    tree: FrontierTree,
    value: list[Outcome | None],
    leaf_numbers: Callable[[int], tuple[int, int]],
    excluded: set[int],
) -> tuple[list[int], list[int]]:
    """Proof and disproof numbers of every node, for its mover (negamax form).

    The proof number of a node is the smallest number of jobs whose proof would show that
    its mover wins, the disproof number that of jobs showing the mover loses; an undecided
    job has ``leaf_numbers(job)``. A job in ``excluded`` (open at this budget, or already
    handed to a worker) is infinite both ways, so it is never chosen. A draw counts as a
    won child for the parent's disproof (the parent cannot lose through it) and never as a
    proof. Repetitions (loopy games) are cut where they close, as unknown jobs."""
    size = len(tree)
    proof = [0] * size
    disproof = [0] * size
    state = [0] * size  # 0 new, 1 on the stack, 2 done
    stack: list[tuple[int, int]] = [(0, 0)]
    while stack:
        node, next_child = stack.pop()
        if next_child == 0:
            if state[node] == 2:
                continue
            state[node] = 1
            if value[node] is not None or not tree.children[node]:
                outcome = value[node]
                if outcome is Outcome.WIN:
                    proof[node], disproof[node] = 0, PN_INFINITY
                elif outcome is Outcome.LOSS:
                    proof[node], disproof[node] = PN_INFINITY, 0
                elif outcome is Outcome.DRAW or node in excluded:
                    proof[node], disproof[node] = PN_INFINITY, PN_INFINITY
                else:
                    proof[node], disproof[node] = leaf_numbers(node)
                state[node] = 2
                continue
        children = tree.children[node]
        if next_child < len(children):
            stack.append((node, next_child + 1))
            child = children[next_child][0]
            if state[child] == 0:
                stack.append((child, 0))
            elif state[child] == 1:  # a repetition closes here
                proof[child], disproof[child] = 1, 1
            continue
        best = PN_INFINITY
        total = 0
        for child, flips in children:
            if value[child] is Outcome.DRAW:
                total += 0
                continue
            child_proof, child_disproof = (
                (proof[child], disproof[child]) if flips else (disproof[child], proof[child])
            )
            best = min(best, child_disproof)
            total = min(PN_INFINITY, total + child_proof)
        proof[node], disproof[node] = best, total
        state[node] = 2
    return proof, disproof


def job_estimate(replies: int, level: int, deepest_split: int) -> tuple[int, int]:
    """Proof and disproof numbers of a job not yet tried.

    Proof 1 and disproof ``replies`` (every reply must be refuted to disprove the mover: the
    reply-count initialisation), scaled up for a job at or above the deepest level where a
    job has already run out of its budget: such a job will most likely be split too, down
    past that level, and alpha-beta's work grows by about the square root of the branching
    factor per ply. Without the scaling, proof-number search splits every shallow job before
    going one level deeper, which costs a job budget per shallow job for nothing."""
    half_powers = deepest_split - level + 1 if level <= deepest_split else 0
    scale = min(ESTIMATE_CAP, math.isqrt(replies**half_powers))
    return max(1, scale), min(ESTIMATE_CAP, max(1, scale * replies))


def most_proving_job(
    tree: FrontierTree, value: list[Outcome | None], proof: list[int], disproof: list[int]
) -> int | None:
    """The job reached from the root by always following the child that sets its parent's
    proof number (the cheapest way to prove the parent), or, where excluded jobs have made
    that infinite, the child cheapest to refute on the way to a disproof; ``None`` when
    every job below an undecided node is proven or excluded."""
    node = 0
    visited = {0}
    while tree.children[node]:
        best: int | None = None
        best_number = PN_INFINITY
        for prove in (True, False):
            for child, flips in tree.children[node]:
                if value[child] is not None or child in visited:
                    continue
                if prove:  # the child's disproof proves the parent
                    number = disproof[child] if flips else proof[child]
                else:  # the child's proof is one part of the parent's disproof
                    number = proof[child] if flips else disproof[child]
                if number < best_number:
                    best, best_number = child, number
            if best is not None:
                break
        if best is None:
            return None
        node = best
        visited.add(node)
    if value[node] is not None or proof[node] >= PN_INFINITY:
        return None
    return node


class JobStore:
    """Proven jobs in the ``solutions`` table (so ``cgt query`` answers them too) and the
    work spent on every job, proven or open, in ``frontier_jobs``."""

    def __init__(self, database: SolutionDatabase, game: Game[Any, Any]) -> None:
        self.database = database
        self.game = game
        self.params = json.dumps(game.parameters, sort_keys=True, default=str)
        try:
            database.connection.executescript(JOBS_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ParameterError(f"solution database {database.path}: {exc}") from None

    def proven(self, key: Hashable) -> Outcome | None:
        found = self.database.lookup_key(self.game, key)
        return None if found is None else found[0]

    def attempts(self) -> dict[str, tuple[int | None, int, float, float | None]]:
        """key text -> (outcome, nodes, seconds, largest budget tried) of every job tried."""
        rows = self.database.connection.execute(
            "SELECT key, outcome, nodes, seconds, budget FROM frontier_jobs "
            "WHERE game=? AND params=?",
            (self.game.name, self.params),
        ).fetchall()
        return {row[0]: (row[1], row[2], row[3], row[4]) for row in rows}

    def attempts_of(self, key: Hashable) -> tuple[int | None, int, float, float | None]:
        """(outcome, nodes, seconds, largest budget tried) of one job that was tried."""
        row = self.database.connection.execute(
            "SELECT outcome, nodes, seconds, budget FROM frontier_jobs "
            "WHERE game=? AND params=? AND key=?",
            (self.game.name, self.params, key_text(key)),
        ).fetchone()
        return (row[0], row[1], row[2], row[3])

    def record(
        self,
        key: Hashable,
        outcome: Outcome | None,
        nodes: int,
        seconds: float,
        budget: float | None,
        solver: str,
    ) -> None:
        """Add one attempt's work to the job's row; a proven job goes to ``solutions`` too,
        in the same transaction as its row, so an interrupted run never half-stores it."""
        text = key_text(key)
        connection = self.database.connection
        with connection:
            row = connection.execute(
                "SELECT nodes, seconds, attempts FROM frontier_jobs "
                "WHERE game=? AND params=? AND key=?",
                (self.game.name, self.params, text),
            ).fetchone()
            total_nodes, total_seconds, attempts = row if row is not None else (0, 0.0, 0)
            connection.execute(
                "INSERT OR REPLACE INTO frontier_jobs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    self.game.name,
                    self.params,
                    text,
                    None if outcome is None else int(outcome),
                    total_nodes + nodes,
                    total_seconds + seconds,
                    budget,
                    attempts + 1,
                    solver,
                ),
            )
            if outcome is not None:
                connection.execute(
                    "INSERT OR REPLACE INTO solutions VALUES (?, ?, ?, ?, ?, ?)",
                    (self.game.name, self.params, text, int(outcome), None, f"frontier-{solver}"),
                )

    #: Columns of a job row in a ledger (:meth:`JobStore.ledger`), in the table's order.
    LEDGER_COLUMNS = ("key", "outcome", "nodes", "seconds", "budget", "attempts", "solver")

    def ledger(self) -> list[dict[str, Any]]:
        """Every job row of this game and parameters, sorted by key: what a run has proven
        and spent, to be kept beside the reports so that a run on another machine resumes."""
        rows = self.database.connection.execute(
            "SELECT key, outcome, nodes, seconds, budget, attempts, solver FROM frontier_jobs "
            "WHERE game=? AND params=? ORDER BY key",
            (self.game.name, self.params),
        ).fetchall()
        return [dict(zip(self.LEDGER_COLUMNS, row, strict=True)) for row in rows]

    def take_ledger(self, rows: list[dict[str, Any]]) -> int:
        """Add a ledger's rows to the database where they hold more work than the row there
        (more attempts); proven jobs go to ``solutions`` too. Returns the rows taken."""
        taken = 0
        connection = self.database.connection
        with connection:
            for row in rows:
                here = connection.execute(
                    "SELECT attempts FROM frontier_jobs WHERE game=? AND params=? AND key=?",
                    (self.game.name, self.params, row["key"]),
                ).fetchone()
                if here is not None and here[0] >= row["attempts"]:
                    continue
                connection.execute(
                    "INSERT OR REPLACE INTO frontier_jobs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (self.game.name, self.params, *(row[c] for c in self.LEDGER_COLUMNS)),
                )
                if row["outcome"] is not None:
                    connection.execute(
                        "INSERT OR REPLACE INTO solutions VALUES (?, ?, ?, ?, ?, ?)",
                        (
                            self.game.name,
                            self.params,
                            row["key"],
                            row["outcome"],
                            None,
                            f"frontier-{row['solver']}",
                        ),
                    )
                taken += 1
        return taken


#: The kernel this process keeps between compiled jobs: (its game and options, the kernel).
_job_kernel: list[tuple[Hashable, Any]] = []


def job_kernel(game: Game[Any, Any], tt_entries: int | None, method: str) -> Any:
    """The compiled kernel for jobs of ``game`` in this process, kept from job to job, or
    None when the game has no search kernel. Sibling jobs share much of their trees, a kept
    table carries what one job proved into the next, and a new table costs its page faults
    (measured on benchmarks/TUNING.md and benchmarks/FRONTIER_JOBS.md). The table's entries are exact for their position whatever the path (Control under sight
    never stores a result that met a repetition), so they stay true for every later job.
    Only the latest game's kernel is kept, so a process holds one table."""
    from solvers.api import DEFAULT_KERNEL_TT_ENTRIES, kernel_table_bytes
    from solvers.kernels import KERNEL_CLASSES
    from solvers.memory import require_memory

    kernel_class = KERNEL_CLASSES.get(game.name)
    if kernel_class is None:
        return None
    entries = tt_entries or DEFAULT_KERNEL_TT_ENTRIES
    key = (game.name, repr(sorted(game.parameters.items())), entries, method)
    if not _job_kernel or _job_kernel[0][0] != key:
        _job_kernel.clear()
        require_memory(
            kernel_table_bytes(entries),
            f"a compiled table of {entries:,} entries",
            "lower --tt-entries",
        )
        kernel = kernel_class(game, remoteness=False, tt_entries=entries, method=method)  # type: ignore[call-arg]
        _job_kernel.append((key, kernel))
    return _job_kernel[0][1]


def solve_job(
    game: Game[Any, Any],
    position: Any,
    solver: JobSolver,
    tt_entries: int | None,
    max_seconds: float | None,
    method: str = "alphabeta",
    run_ends: float | None = None,
    strategy_file: str | None = None,
) -> tuple[int | None, int, float]:
    """Solve one job (value only): ``(outcome code or None if the budget ran out, nodes,
    seconds)``. Runs in a worker process or on a cluster node, so it returns plain data.
    ``method`` is the compiled kernel's search: alpha-beta or df-pn. Compiled jobs search
    the root alone (a job needs its value, not its moves' values) with the process's kept
    kernel (:func:`job_kernel`). ``run_ends``: the wall-clock moment (``time.time``, the one
    clock workers share) the whole run stops; a job that starts late in a batch gets what is
    left of the run, not the batch's budget.
    ``strategy_file``: a proven compiled job also writes the winner's strategy there
    (:mod:`solvers.strategy`, from the kept kernel's table), so a proof of the root can be
    assembled from checkable pieces; its time counts in the job's."""
    from solvers.api import solve

    started = time.perf_counter()
    if run_ends is not None:
        left = run_ends - time.time()
        if left <= 0:
            return None, 0, 0.0
        max_seconds = left if max_seconds is None else min(max_seconds, left)
    kernel = job_kernel(game, tt_entries, method) if solver == "compiled" else None
    if kernel is not None:
        from solvers.kernel_table import S_NODES

        nodes_before = kernel.stat(S_NODES)  # the kept kernel counts every job's nodes
        try:
            result = kernel.solve(
                position, move_values=False, principal_variation=False, max_seconds=max_seconds
            )
        except SearchBudgetExceeded:
            return None, kernel.stat(S_NODES) - nodes_before, time.perf_counter() - started
        if strategy_file is not None:
            from solvers.strategy import write_strategy

            write_strategy(
                game, position, strategy_file, command="cgt frontier (job)", kernel=kernel
            )
        return int(result.outcome), int(result.extra["nodes"]), time.perf_counter() - started
    try:
        result = solve(
            game,
            position,
            solver=solver,
            remoteness=False,
            tt_entries=tt_entries,
            max_seconds=max_seconds,
            method=method,
            root_only=True,  # a job needs its value, not its moves' values
        )
    except SearchBudgetExceeded as exc:
        return None, exc.nodes, time.perf_counter() - started
    nodes = int(result.extra.get("nodes", result.positions))
    return int(result.outcome), nodes, time.perf_counter() - started


@dataclass
class FrontierStatus:
    """How far the proof of a root has got: the numbers ``cgt frontier`` prints."""

    game: str
    params: dict[str, Any]
    position: str
    depth: int
    tree_positions: int
    jobs: int
    won: int
    lost: int
    drawn: int
    open: int
    not_started: int
    relevant: int
    root: Outcome | None
    openings: list[tuple[str, Outcome | None]]
    nodes: int
    seconds: float
    run_jobs: int = 0
    run_nodes: int = 0
    run_seconds: float = 0.0
    stopped_by_budget: bool = False
    split: int = 0
    decided_positions: int = 0
    shallowest_decided: int | None = None
    tree_full: bool = False

    @property
    def proven(self) -> int:
        return self.won + self.lost + self.drawn

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "params": self.params,
            "position": self.position,
            "depth": self.depth,
            "tree_positions": self.tree_positions,
            "jobs": self.jobs,
            "proven": self.proven,
            "won": self.won,
            "lost": self.lost,
            "drawn": self.drawn,
            "open": self.open,
            "not_started": self.not_started,
            "split": self.split,
            "decided_positions": self.decided_positions,
            "shallowest_decided": self.shallowest_decided,
            "relevant": self.relevant,
            "root": None if self.root is None else self.root.label,
            "winner": None
            if self.root is None
            else {Outcome.WIN: "first", Outcome.LOSS: "second", Outcome.DRAW: "draw"}[self.root],
            "openings": [
                {"move": name, "outcome": None if o is None else o.label}
                for name, o in self.openings
            ],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "this_run": {
                "jobs": self.run_jobs,
                "nodes": self.run_nodes,
                "seconds": round(self.run_seconds, 3),
                "stopped_by_budget": self.stopped_by_budget,
                "tree_full": self.tree_full,
            },
        }


def job_strategy_name(key: Hashable) -> str:
    """File name of a job's strategy: a digest of the job's key (its position up to
    symmetry), so the same job always has the same file."""
    return hashlib.sha256(key_text(key).encode()).hexdigest()[:20] + ".jsonl.gz"


def solve_frontier(
    game: Game[Any, Any],
    position: Any = None,
    *,
    depth: int,
    database: SolutionDatabase,
    jobs: int = 1,
    backend: str = "loky",
    solver: JobSolver = "auto",
    job_seconds: float | None = None,
    max_seconds: float | None = None,
    tt_entries: int | None = None,
    symmetry: bool = True,
    run: bool = True,
    progress: Progress | None = None,
    max_tree: int = DEFAULT_MAX_TREE,
    split: bool = False,
    method: str = "alphabeta",
    strategy_dir: Path | None = None,
) -> FrontierStatus:
    """Prove ``position`` (default: the start) by the jobs ``depth`` plies below it, storing
    each proven job in ``database`` at once; ``run=False`` only reports the frontier.

    With ``split`` (which needs ``job_seconds``), a job that runs out of its budget is split:
    its children become jobs, and so on down, so a board too big for any job at the chosen
    depth is still proved piece by piece. The tree is rebuilt from the stored attempts on
    every run, so the same command resumes with the same splits. In acyclic games the next
    job is the most-proving one of proof-number search (PN² with budgeted jobs as the
    second level: Allis; Breuker, Uiterwijk and van den Herik), which concentrates the work
    where it decides most; loopy games take undecided jobs depth first.

    Stops when the root is decided, when every relevant job is proven or open, or when
    ``max_seconds`` is spent (jobs still running then are recorded as open).

    ``strategy_dir``: each compiled job proven in this run writes its winner's strategy
    there, named by :func:`job_strategy_name`."""
    from joblib import delayed

    from solvers.split import check_backend, make_parallel

    check_max_seconds(job_seconds)
    check_max_seconds(max_seconds)
    if jobs < 1:
        raise ParameterError(f"jobs must be at least 1, got {jobs}")
    if method != "alphabeta" and solver != "compiled":
        raise ParameterError(f"method {method} runs in the compiled kernel: use solver compiled")
    if split and job_seconds is None:
        raise ParameterError("splitting jobs needs a job budget: give job_seconds")
    if run:
        check_backend(backend)
    deadline = Deadline(max_seconds)
    if position is None:
        position = game.initial_position()
    tree = build_tree(
        game,
        position,
        depth,
        symmetry=symmetry,
        max_nodes=max_tree,
        deadline=deadline,
        progress=progress,
    )
    store = JobStore(database, game)
    known: dict[int, Outcome] = {}
    tried = store.attempts()

    def spent_its_budget(node: int) -> bool:
        """Whether ``node`` ran out of a budget at least this run's (so it is open)."""
        row = tried.get(key_text(tree.keys[node]))
        if row is None or row[0] is not None:
            return False
        budget = row[3]
        # an open job is tried again only with a larger budget than it already had (no
        # budget recorded: the run's own deadline cut it short, so it is tried again)
        return budget is not None and job_seconds is not None and job_seconds <= budget

    def settle(nodes: list[int]) -> None:
        """Look up the stored proofs of new jobs and split those that spent their budget."""
        queue = list(nodes)
        while queue:
            node = queue.pop()
            if not tree.is_job(node):
                continue
            found = store.proven(tree.keys[node])
            if found is not None:
                known[node] = found
            elif split and spent_its_budget(node):
                tree.split.add(node)
                queue += expand(game, tree, node, symmetry=symmetry, max_nodes=max_tree)

    settle(tree.jobs)
    run_jobs = run_nodes = 0
    run_seconds = 0.0
    stopped = tree_full = False
    mobility: dict[int, int] = {}

    def leaf_numbers(node: int) -> tuple[int, int]:
        if node not in mobility:
            mobility[node] = max(1, len(game.moves(tree.positions[node])))
        return job_estimate(
            mobility[node], tree.levels[node], max((tree.levels[n] for n in tree.split), default=-1)
        )

    def open_jobs() -> set[int]:
        return {n for n in tree.jobs if n not in known and spent_its_budget(n)}

    def next_batch(size: int) -> list[int]:
        if not game.acyclic:
            return relevant_jobs(tree, value, open_jobs())[:size]
        excluded = open_jobs()
        batch: list[int] = []
        while len(batch) < size:
            proof, disproof = proof_numbers(tree, value, leaf_numbers, excluded)
            job = most_proving_job(tree, value, proof, disproof)
            if job is None:
                break
            batch.append(job)
            excluded.add(job)
        return batch

    value = evaluate(tree, known)
    while run and value[0] is None:
        pending = next_batch(max(jobs, 1) if split else max(2 * jobs, 1))
        if not pending:
            break
        remaining = deadline.remaining()
        if remaining is not None and remaining <= 1e-3:
            stopped = True
            break
        budget = job_seconds
        if remaining is not None:
            budget = remaining if budget is None else min(budget, remaining)
        run_ends = None if remaining is None else time.time() + remaining
        outputs = make_parallel(jobs, backend)(
            delayed(solve_job)(
                game,
                tree.positions[node],
                solver,
                tt_entries,
                budget,
                method,
                run_ends,
                None
                if strategy_dir is None
                else str(strategy_dir / job_strategy_name(tree.keys[node])),
            )
            for node in pending
        )
        for node, (code, nodes, seconds) in zip(pending, outputs):
            outcome = None if code is None else Outcome(code)
            # an attempt cut short by the run's own deadline is not the job's budget spent
            # a job still running when the run ended may have had less than its budget: it
            # is tried again rather than marked open
            run_over = run_ends is not None and time.time() >= run_ends
            spent = budget == job_seconds and not run_over
            recorded_budget = job_seconds if outcome is None and spent else None
            if outcome is None and recorded_budget is None:
                stopped = True
            store.record(
                tree.keys[node],
                outcome,
                nodes,
                seconds,
                recorded_budget,
                solver if method == "alphabeta" else f"{solver}-{method}",
            )
            tried[key_text(tree.keys[node])] = store.attempts_of(tree.keys[node])
            run_jobs += 1
            run_nodes += nodes
            run_seconds += seconds
            if outcome is not None:
                known[node] = outcome
            elif split and recorded_budget is not None:
                try:
                    settle([node])
                except ParameterError:
                    tree_full = stopped = True
            if progress:
                progress(
                    {
                        "proven": len(known),
                        "jobs": len(tree.jobs),
                        "split": len(tree.split),
                        "this_run": run_jobs,
                        "nodes": run_nodes,
                    }
                )
        value = evaluate(tree, known)
        if stopped:
            break
    status = _status(game, tree, store, known, value, run_jobs, run_nodes, run_seconds, stopped)
    status.tree_full = tree_full
    return status


def _status(
    game: Game[Any, Any],
    tree: FrontierTree,
    store: JobStore,
    known: dict[int, Outcome],
    value: list[Outcome | None],
    run_jobs: int,
    run_nodes: int,
    run_seconds: float,
    stopped: bool,
) -> FrontierStatus:
    tried = store.attempts()
    job_nodes = tree.jobs
    counts = {Outcome.WIN: 0, Outcome.LOSS: 0, Outcome.DRAW: 0}
    open_count = not_started = 0
    nodes = 0
    seconds = 0.0
    for node in job_nodes:
        row = tried.get(key_text(tree.keys[node]))
        if row is not None:
            nodes += row[1]
            seconds += row[2]
        if node in known:
            counts[known[node]] += 1
        elif row is not None:
            open_count += 1
        else:
            not_started += 1
    for node in tree.split:  # the work spent on jobs before they were split counts too
        row = tried.get(key_text(tree.keys[node]))
        if row is not None:
            nodes += row[1]
            seconds += row[2]
    decided = sum(
        1
        for node in range(len(tree))
        if value[node] is not None and tree.terminal[node] is None and tree.children[node]
    )
    shallowest = min(
        (
            tree.levels[node]
            for node in range(len(tree))
            if value[node] is not None and tree.terminal[node] is None
        ),
        default=None,
    )
    openings = [
        (name, None if value[child] is None else (-value[child] if flips else value[child]))  # type: ignore[operator]
        for name, child, flips in tree.root_moves
    ]
    return FrontierStatus(
        game=game.name,
        params=dict(game.parameters),
        position=game.render(tree.positions[0]),
        depth=tree.depth,
        tree_positions=len(tree),
        jobs=len(job_nodes),
        won=counts[Outcome.WIN],
        lost=counts[Outcome.LOSS],
        drawn=counts[Outcome.DRAW],
        open=open_count,
        not_started=not_started,
        relevant=len(relevant_jobs(tree, value)),
        root=value[0],
        openings=openings,
        nodes=nodes,
        seconds=seconds,
        run_jobs=run_jobs,
        run_nodes=run_nodes,
        run_seconds=run_seconds,
        stopped_by_budget=stopped,
        split=len(tree.split),
        decided_positions=decided,
        shallowest_decided=shallowest,
    )
