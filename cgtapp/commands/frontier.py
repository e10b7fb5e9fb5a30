"""``cgt frontier``: prove a large board by independent, checkpointed jobs (solvers.frontier)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from cgt.errors import EXIT_STOPPED, CGTError
from cgt.progress import StderrProgress
from cgtapp.commands.bounds import SECONDS
from cgtapp.commands.options import db_option


@click.command("frontier")
@click.argument("game_name", metavar="GAME")
@click.argument("position", required=False)
@click.option("-p", "--param", "params", multiple=True, metavar="KEY=VALUE", help="Game parameter.")
@click.option(
    "--depth",
    type=click.IntRange(min=0),
    required=True,
    help="Jobs are the positions this many plies below POSITION (default: the start).",
)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--backend",
    default="loky",
    show_default=True,
    help="joblib backend: loky, threading, or a cluster backend (dask, ray) from a plugin.",
)
@click.option(
    "--solver",
    type=click.Choice(["auto", "retrograde", "alphabeta", "compiled"]),
    default="auto",
    show_default=True,
    help="Solver of each job (value only).",
)
@click.option(
    "--job-seconds",
    type=SECONDS,
    default=None,
    help="Budget of one job; a job that runs out is recorded as open and skipped until a "
    "run gives jobs a larger budget.",
)
@click.option(
    "--max-seconds",
    type=SECONDS,
    default=None,
    help="Stop the run after this many seconds (proven jobs stay stored).",
)
@click.option(
    "--method",
    type=click.Choice(["alphabeta", "dfpn"]),
    default="alphabeta",
    show_default=True,
    help="Search of each job in the compiled kernel: alpha-beta, or df-pn where the game's "
    "plug-in offers it ('cgt games'; benchmarks/DFPN.md says which wins where).",
)
@click.option(
    "--split",
    is_flag=True,
    help="Split a job that runs out of --job-seconds into its children (recursively), and "
    "choose jobs by proof-number search (PN2): the board is proved piece by piece.",
)
@click.option("--tt-entries", type=click.IntRange(min=2), default=None)
@click.option("--no-symmetry", is_flag=True, help="Do not merge symmetric positions.")
@click.option("--status", "status_only", is_flag=True, help="Only show the frontier; run nothing.")
@db_option
@click.option(
    "--strategies",
    "strategy_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Each compiled job proven by this run writes its winner's strategy file in this "
    "directory (docs/strategy-format.md), for 'cgt check --strategy'.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")
def frontier_command(
    game_name: str,
    position: str | None,
    params: tuple[str, ...],
    depth: int,
    jobs: int,
    backend: str,
    solver: str,
    job_seconds: float | None,
    max_seconds: float | None,
    method: str,
    split: bool,
    tt_entries: int | None,
    no_symmetry: bool,
    status_only: bool,
    db: Path | None,
    strategy_dir: Path | None,
    as_json: bool,
) -> None:
    """Prove who wins POSITION of GAME by the jobs DEPTH plies below it.

    Every proven job is stored in the solution database as it finishes; the same command
    run again (here or on another machine sharing the database file) runs only the jobs
    still unproven, and only those that can still change the answer. Prints how many jobs
    are proven (won / lost for the player to move), open, or not started.
    """
    from cgtapp.commands.options import emit_json, make_game, parse_position
    from solvers.budget import SearchBudgetExceeded
    from solvers.database import SolutionDatabase
    from solvers.frontier import solve_frontier

    if split and job_seconds is None:
        raise click.UsageError("--split needs --job-seconds (the budget a job runs out of)")
    game = make_game(game_name, params)
    pos = parse_position(game, position)
    if strategy_dir is not None:
        from cgtapp.commands.outputs import writable_directory

        writable_directory(strategy_dir, "--strategies")
    database = SolutionDatabase(db)
    progress = StderrProgress(f"frontier {game.label()} depth {depth}")
    try:
        status = solve_frontier(
            game,
            pos,
            depth=depth,
            database=database,
            jobs=jobs,
            backend=backend,
            solver=solver,
            job_seconds=job_seconds,
            max_seconds=max_seconds,
            tt_entries=tt_entries,
            symmetry=not no_symmetry,
            run=not status_only,
            progress=progress,
            split=split,
            method=method,
            strategy_dir=strategy_dir,
        )
    except SearchBudgetExceeded as stopped:  # before any job: while building the tree
        if as_json:
            emit_json({"status": "stopped", "reason": str(stopped), "seconds": stopped.seconds})
        raise
    finally:
        progress.close()
        database.close()
    data = status.as_dict()
    if as_json:
        emit_json(data)
    else:
        print_status(data, depth, game.label())
    run = data["this_run"]
    if run["stopped_by_budget"] and max_seconds is not None:
        raise FrontierStopped(
            f"--max-seconds {max_seconds:g} reached: {run['jobs']:,} jobs ran this run, "
            f"{data['proven']:,} of {data['jobs']:,} are proven (kept in the database: the same "
            "command resumes)"
        )


class FrontierStopped(CGTError):
    """A frontier run stopped by ``--max-seconds`` (exit status 3, not an error)."""

    exit_status = EXIT_STOPPED
    label = "stopped"


def print_status(data: dict[str, Any], depth: int, label: str) -> None:
    """The frontier's status as text."""
    click.echo(f"game:      {label}   position: {data['position']}")
    click.echo(
        f"frontier:  {data['jobs']:,} jobs at depth {depth} "
        f"({data['tree_positions']:,} positions down to it, up to symmetry)"
    )
    click.echo(
        f"jobs:      {data['proven']:,} proven ({data['won']:,} won, {data['lost']:,} lost"
        f"{', ' + format(data['drawn'], ',') + ' drawn' if data['drawn'] else ''} "
        f"for the player to move), {data['open']:,} open, {data['not_started']:,} not started; "
        f"{data['relevant']:,} can still change the answer"
    )
    if data["split"]:
        shallowest = data["shallowest_decided"]
        click.echo(
            f"split:     {data['split']:,} jobs ran out of their budget and were split into their "
            f"children; {data['decided_positions']:,} positions above the jobs are decided"
            + ("" if shallowest is None else f", the nearest {shallowest} plies below the root")
        )
    root = "undecided" if data["winner"] is None else f"{data['winner']} player wins"
    if data["winner"] == "draw":
        root = "draw"
    click.echo(f"root:      {root}")
    for opening in data["openings"]:
        outcome = opening["outcome"] or "undecided"
        click.echo(f"  {opening['move']:<8} {outcome}")
    run = data["this_run"]
    click.echo(
        f"work:      {data['nodes']:,} nodes in {data['seconds']:.1f} s of job time in all; "
        f"this run {run['jobs']:,} jobs, {run['nodes']:,} nodes, {run['seconds']:.1f} s"
        + (" (stopped by --max-seconds)" if run["stopped_by_budget"] else "")
    )
    if data["openings"]:
        click.echo("(opening outcomes are for the player making the move)")
