"""The ``cgt`` command line.

Exit statuses: 0 done; 2 bad input (every error a user can cause ends in one line on stderr,
``cgt: error: ...``); 3 a run stopped by its time budget (``--max-seconds``: one line
``cgt: stopped: ...`` saying how far it got, and with ``--json`` an object on stdout with the
work done and what was proven); 130 interrupted (Ctrl-C: one line saying how far the run got).
Progress of long runs goes to stderr, results to stdout.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from cgt.errors import CGTError
from cgt.progress import StderrProgress, forget_progress, latest_progress
from cgt.registry import game_class, game_names, load_plugin
from cgtapp.commands.bounds import SECONDS
from cgtapp.commands.options import (
    EXIT_INTERRUPTED,
    db_option,
    emit_json,
    make_game,
    param_option,
    parse_position,
)
from cgtapp.commands.strategy import strategy_option


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--load",
    "plugins",
    multiple=True,
    metavar="FILE.py|MODULE",
    help="Import a file or module that registers extra games.",
)
@click.version_option(package_name="cgt-toolkit")
def cli(plugins: tuple[str, ...]) -> None:
    """Combinatorial game theory toolkit: solve games, check claims, compute values, write reports."""
    for plugin in plugins:
        load_plugin(plugin)


@cli.command("games")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def games_command(as_json: bool) -> None:
    """List every game with its parameters, defaults and variants."""
    entries: list[dict[str, Any]] = []
    for name in game_names():
        cls = game_class(name)
        entries.append(
            {
                "name": name,
                "summary": cls.summary,
                "players": list(cls.players),
                "impartial": cls.impartial,
                "params": [
                    {
                        "name": p.name,
                        "type": p.kind.__name__,
                        "default": p.default,
                        "choices": list(p.choices) if p.choices else None,
                        "help": p.help,
                    }
                    for p in cls.params
                ],
                "variants": cls.variants,
                "compiled": _compiled_road(name),
            }
        )
    if as_json:
        emit_json(entries)
        return
    for entry in entries:
        click.echo(f"{entry['name']}: {entry['summary']}")
        for p in entry["params"]:
            allowed = f" ({'|'.join(str(c) for c in p['choices'])})" if p["choices"] else ""
            help_text = f"  {p['help']}" if p["help"] else ""
            click.echo(f"    {p['name']}={p['default']}{allowed}{help_text}")
        for variant, preset in entry["variants"].items():
            settings = " ".join(f"-p {k}={v}" for k, v in preset.items())
            click.echo(f"    variant {variant}: {settings}")
        if entry["compiled"]:
            click.echo(f"    compiled: {', '.join(entry['compiled'])}")


def _compiled_road(name: str) -> list[str]:
    """What the game's compiled plug-in offers: ``--solver compiled`` with its ``--method``
    choices, a packed retrograde kept whole by ``--save``, ``--solver tiers``."""
    from solvers.kernels import PLUGINS  # numba loads only for this command

    plugin = next((p for p in PLUGINS if p.game == name), None)
    if plugin is None:
        return []
    road = [f"method {m}" for m in plugin.methods] if plugin.kernel_class else []
    if plugin.packed:
        road.append("packed retrograde")
    if plugin.tier_module:
        road.append("tiers")
    if plugin.playout:
        road.append("playouts")
    return road


@cli.command("show")
@click.argument("game_name", metavar="GAME")
@click.argument("position", required=False)
@param_option
def show_command(game_name: str, position: str | None, params: tuple[str, ...]) -> None:
    """Render POSITION (default: the initial position) and list its legal moves."""
    game = make_game(game_name, params)
    pos = parse_position(game, position)
    click.echo(game.describe(pos))
    click.echo(f"position: {game.render(pos)}")
    result = game.result(pos)
    player = game.players[game.to_move(pos)]
    if result is not None:
        click.echo(f"game over: {result.label} for {player} (to move)")
        return
    names = [game.move_name(pos, m) for m in game.moves(pos)]
    click.echo(f"{player} to move; {len(names)} legal move{'' if len(names) == 1 else 's'}:")
    click.echo("  " + " ".join(names))


@cli.command("solve")
@click.argument("game_name", metavar="GAME")
@click.argument("position", required=False)
@param_option
@click.option(
    "--position",
    "position_option",
    default=None,
    metavar="POSITION",
    help="The same as the POSITION argument (kept for older scripts).",
)
@click.option(
    "--solver",
    type=click.Choice(["auto", "retrograde", "alphabeta", "compiled", "tiers"]),
    default="auto",
    show_default=True,
    help="auto: retrograde when the graph is small, else the compiled kernel if the game has "
    "one, else alpha-beta. tiers: every position of every piece-count tier at or below the "
    "position's, lower tiers first (endgame databases). 'cgt games' lists each game's "
    "compiled road.",
)
@click.option(
    "--method",
    type=click.Choice(["alphabeta", "dfpn"]),
    default="alphabeta",
    show_default=True,
    help="Search of the compiled kernel: alpha-beta, or dfpn (depth-first proof-number "
    "search where the game's plug-in offers it, see 'cgt games'; wins and losses only, "
    "implies --value-only).",
)
@click.option("--no-symmetry", is_flag=True, help="Do not merge symmetric positions.")
@click.option(
    "--value-only",
    is_flag=True,
    help="Alpha-beta: prove the value only, without exact remoteness (faster).",
)
@click.option(
    "--tt-entries",
    type=click.IntRange(min=2),
    default=None,
    help="Transposition table slots (alpha-beta 2^20, compiled 2^22 by default); a table that "
    "does not fit in memory is refused before the solve starts.",
)
@click.option(
    "--max-seconds",
    type=SECONDS,
    default=None,
    help="Give up after this many seconds (any solver) and say how far it got.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Solve the openings in parallel (alpha-beta per opening, checkpointed).",
)
@click.option(
    "--backend",
    default="loky",
    show_default=True,
    help="joblib backend for --jobs: loky, threading, or a registered cluster backend.",
)
@click.option(
    "--save",
    is_flag=True,
    help="Store the solved positions in the solution database (--solver compiled on entropy "
    "and interleave: the whole solved space, in a packed file beside the database).",
)
@db_option
@click.option(
    "--tiers-dir",
    "tier_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="LAG tier tables (a directory). With --solver tiers: take up the tiers already "
    "solved there and write each tier as it is solved, so a stopped solve resumes; with "
    "--solver compiled: probe them from the search.",
)
@strategy_option(
    "Write the winner's strategy to this file instead of the move table (a win or "
    "loss; docs/strategy-format.md): the kernel's search (--method, --tt-entries) or "
    "retrograde; resumes from FILE.partial. Check it with 'cgt check --strategy FILE'."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")
def solve_command(
    game_name: str,
    position: str | None,
    params: tuple[str, ...],
    position_option: str | None,
    solver: str,
    method: str,
    no_symmetry: bool,
    value_only: bool,
    tt_entries: int | None,
    max_seconds: float | None,
    jobs: int,
    backend: str,
    save: bool,
    db: Path | None,
    tier_dir: Path | None,
    strategy_file: Path | None,
    as_json: bool,
) -> None:
    """Solve POSITION of GAME (default: the initial position) with perfect play: winner,
    remoteness and the value of every move.

    With --jobs N (or --save) the openings are solved as separate jobs whose results are
    checkpointed in the solution database: an interrupted run resumes where it stopped.
    A run stopped by --max-seconds exits with status 3 and says how far it got (with --json,
    as an object on stdout); Ctrl-C exits with 130, also saying how far it got.
    """
    if position is not None and position_option is not None:
        raise click.UsageError(
            "the position is given both as an argument and with --position: give it once"
        )
    position = position if position is not None else position_option
    if method == "dfpn" and (jobs > 1 or save or db is not None):
        raise click.UsageError("--method dfpn solves in one process: drop --jobs, --save and --db")
    if solver == "tiers" and (save or jobs > 1):
        raise click.UsageError(
            "--solver tiers solves whole piece-count tiers in memory; --save and --jobs do not "
            "apply to it (--tiers-dir DIR keeps its tables)"
        )
    if tier_dir is not None and (save or jobs > 1 or db is not None):
        raise click.UsageError("--tiers-dir solves in one process: drop --jobs, --save and --db")
    game = make_game(game_name, params)
    pos = parse_position(game, position)
    if strategy_file is not None:
        if jobs > 1 or save or db is not None or tier_dir is not None:
            raise click.UsageError("--strategy solves in one process: drop --jobs, --save, --db")
        from cgtapp.commands.strategy import solve_with_strategy
        from solvers.saved import command_line

        command = command_line(click.get_current_context().find_root().obj)
        solve_with_strategy(
            game,
            pos,
            strategy_file,
            method=method,
            tt_entries=tt_entries,
            command=command,
            as_json=as_json,
            solver=solver if solver in ("compiled", "retrograde") else "auto",
        )
        return
    from solvers import solve
    from solvers.api import auto_search_solver
    from solvers.budget import SearchBudgetExceeded
    from solvers.database import SolutionDatabase
    from solvers.saved import command_line, solve_and_store, solve_and_store_rows, stores_packed

    if solver == "alphabeta" and not game.acyclic:
        click.echo(
            f"cgt: warning: positions of {game.label()} can repeat (endless play is a draw), "
            "where depth-first alpha-beta keeps meeting its own path; --solver retrograde "
            "(or compiled, or auto) fits better",
            err=True,
        )
    if db is not None and not save and jobs == 1:
        click.echo("cgt: warning: --db is used with --save or --jobs; this solve stores nothing",
                   err=True)  # fmt: skip
    progress = StderrProgress(f"solve {game.label()}")
    database = SolutionDatabase(db) if (save or jobs > 1) else None
    split_solver = solver if solver in ("alphabeta", "compiled") else auto_search_solver(game)
    try:
        if save and solver in ("compiled", "auto") and jobs == 1 and stores_packed(game):
            assert database is not None
            result, _ = solve_and_store(
                game,
                pos,
                database,
                symmetry=not no_symmetry,
                remoteness=not value_only,
                progress=progress,
                max_seconds=max_seconds,
                command=command_line(click.get_current_context().find_root().obj),
            )
        elif database is not None:  # --jobs, or --save of rows
            result = solve_and_store_rows(
                game,
                pos,
                database,
                solver=solver,
                split_solver=split_solver,
                jobs=jobs,
                backend=backend,
                symmetry=not no_symmetry,
                remoteness=not value_only,
                tt_entries=tt_entries or (1 << 20),
                progress=progress,
                max_seconds=max_seconds,
            )
        else:
            result = solve(
                game,
                pos,
                solver=solver,
                symmetry=not no_symmetry,
                remoteness=not value_only,
                progress=progress,
                tt_entries=tt_entries,
                max_seconds=max_seconds,
                method=method,
                tier_dir=tier_dir,
            )
    except SearchBudgetExceeded as stopped:
        # the solver's clock starts late (after loading, compiling, enumerating): say the
        # time the whole solve took
        stopped = SearchBudgetExceeded(stopped.nodes, progress.seconds(), stopped.unit)
        if as_json:
            emit_json(
                {
                    "game": game.name,
                    "params": game.parameters,
                    "position": game.render(pos),
                    "status": "stopped",
                    "reason": "time budget (--max-seconds) spent",
                    "max_seconds": max_seconds,
                    "requested_solver": solver,
                    "winner": None,
                    "nodes": stopped.nodes,
                    "unit": stopped.unit,
                    "seconds": round(stopped.seconds, 3),
                    "wall_seconds": round(progress.seconds(), 3),  # with loading, compiling
                    "proven_moves": progress.proven_moves,
                    "last_progress": progress.latest,
                }
            )
        raise stopped from None
    finally:
        progress.close()
    data = result.as_dict()
    if as_json:
        emit_json(data)
        return
    first = game.players[game.to_move(pos)]
    click.echo(f"game:       {game.label()}")
    click.echo(f"position:   {data['position']}")
    click.echo(f"solver:     {data['solver']}")
    rem = "-" if data["remoteness"] is None else data["remoteness"]
    who = "draw" if data["winner"] == "draw" else f"{data['winner']} player"
    click.echo(f"winner:     {who} ({first} is to move); remoteness {rem}")
    click.echo(f"positions:  {data['positions']:,}   time: {data['seconds']:.3f} s")
    if data["principal_variation"]:
        click.echo(f"perfect play: {' '.join(data['principal_variation'])}")
    if data["moves"]:
        width = max(4, *(len(m["move"]) for m in data["moves"]))
        click.echo(f"{'move':<{width}}  outcome  remoteness")
        for m in data["moves"]:
            r = "-" if m["remoteness"] is None else m["remoteness"]
            mark = " *" if m["move"] in data["best_moves"] else ""
            click.echo(f"{m['move']:<{width}}  {m['outcome']:<7}  {r}{mark}")
        click.echo("(* best moves; outcome for the player making the move)")


@cli.command("query")
@click.argument("game_name", metavar="GAME")
@click.argument("position", required=False)
@param_option
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def query_command(
    game_name: str, position: str | None, params: tuple[str, ...], db: Path | None, as_json: bool
) -> None:
    """Value, remoteness and best moves of a solved position, without solving again: from a
    packed solution of these parameters when one holds it, else from the database's rows."""
    from solvers.database import SolutionDatabase
    from solvers.query import query_position

    game = make_game(game_name, params)
    pos = parse_position(game, position)
    answer = query_position(
        game, pos, None if db is None else SolutionDatabase(db, must_exist=True)
    )
    if as_json:
        emit_json(answer.as_dict())
        return
    rem = "-" if answer.remoteness is None else answer.remoteness
    click.echo(
        f"{answer.position}: {answer.outcome.label} for the player to move, remoteness {rem}"
    )
    if answer.moves:
        width = max(4, *(len(m.name) for m in answer.moves))
        click.echo(f"{'move':<{width}}  outcome  remoteness")
        for m in answer.moves:
            r = "-" if m.remoteness is None else m.remoteness
            mark = " *" if m.name in answer.best_moves else ""
            click.echo(f"{m.name:<{width}}  {m.outcome.label:<7}  {r}{mark}")
        click.echo("(* best moves; outcome for the player making the move)")
    click.echo(f"(from {answer.source} {answer.store})")


@cli.command("check")
@click.argument("claims", nargs=-1)
@click.option("--list", "list_only", is_flag=True, help="List the claims and exit.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of verdicts.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write each claim's certificate (JSON and Markdown) into this directory "
    "(default: none; 'cgt report all' writes the reports' certificates).",
)
@click.option(
    "--no-certificates",
    is_flag=True,
    hidden=True,
    help="Write no certificate files (the default without --out; kept for older scripts).",
)
@click.option(
    "--full",
    is_flag=True,
    help="Run the long exact mode of the checks that have one (entropy.solved: the stored 5x5 "
    "solution, solved and saved first when absent, checked at every position; resumable; "
    "interleave.timing-independence: every size-3 setup compared turn model by turn model, "
    "four sweeps of 4-8 min CPU and 2.3 GiB each).",
)
@strategy_option(
    "Check this strategy file from the game's readable rules instead of the claims: "
    "one line, verified or the first failure with the line that reaches it (exit 1)."
)
def check_command(
    claims: tuple[str, ...],
    list_only: bool,
    as_json: bool,
    out: Path | None,
    no_certificates: bool,
    full: bool,
    strategy_file: Path | None,
) -> None:
    """Check the claims of the source documents (all of them by default); with --out, write
    each verdict's certificate there. With --strategy FILE, check a strategy file instead."""
    if strategy_file is not None:
        if claims or list_only or out is not None:
            raise click.UsageError("--strategy checks one file: give no claims, --list or --out")
        from cgtapp.commands.strategy import check_strategy_file

        check_strategy_file(strategy_file, as_json)
        return
    from cgtapp.commands.outputs import output_failure, writable_directory

    if out is not None and not no_certificates and not list_only:
        writable_directory(out)  # before the claims are even loaded
    from proofs.certificates import write_certificate
    from proofs.registry import all_claims, get_claim, run_claim

    # a claim named twice runs once, in the order first named
    entries = [get_claim(c) for c in dict.fromkeys(claims)] if claims else all_claims()
    if list_only:
        if as_json:
            emit_json([{"claim": c.id, "game": c.game, "statement": c.statement} for c in entries])
        else:
            for c in entries:
                click.echo(f"{c.id:<48} {c.statement}")
        return
    verdicts = []
    for entry in entries:
        click.echo(f"checking {entry.id} ...", err=True)
        verdict = run_claim(entry.id, full=full)
        verdicts.append(verdict)
        if out is not None and not no_certificates:
            try:
                write_certificate(verdict, out)
            except OSError as exc:
                raise output_failure(out, exc) from None
        if not as_json:
            click.echo(f"{verdict.verdict:<12} {entry.id}  ({verdict.seconds:.1f} s)")
            click.echo(f"{'':<12} {verdict.finding}")
    if as_json:
        emit_json([v.as_dict() for v in verdicts])


def _add_optional_commands() -> None:
    """Commands that live in their own modules (one concern per module)."""
    from cgtapp.commands import COMMANDS

    for command in COMMANDS():
        cli.add_command(command)


#: Longest error message printed whole: a message that quotes a pasted 100 kB position is
#: cut in the middle, keeping what it says about the input at both ends.
MESSAGE_CHARACTERS = 400


def shortened(message: str) -> str:
    """``message`` on one line of at most about :data:`MESSAGE_CHARACTERS` characters."""
    message = " ".join(message.splitlines())
    if len(message) <= MESSAGE_CHARACTERS:
        return message
    cut = len(message) - MESSAGE_CHARACTERS + 100
    return f"{message[:300]} [... {cut:,} characters ...] {message[-100:]}"


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``cgt`` console script."""
    _add_optional_commands()
    forget_progress()
    try:
        args = list(argv) if argv is not None else sys.argv[1:]
        # the arguments ride along so that stored results can say which command made them
        cli.main(args=args, prog_name="cgt", standalone_mode=False, obj={"argv": args})
    except CGTError as exc:
        click.echo(f"cgt: {exc.label}: {shortened(str(exc))}", err=True)
        sys.exit(exc.exit_status)
    except (click.exceptions.Abort, KeyboardInterrupt):
        running = latest_progress()
        how_far = f" after {running.how_far()}" if running is not None else ""
        click.echo(f"cgt: interrupted{how_far}", err=True)  # click ends the progress line
        sys.exit(EXIT_INTERRUPTED)
    except click.exceptions.NoArgsIsHelpError as exc:  # "cgt", "cgt db": what they offer
        click.echo(exc.ctx.get_help() if exc.ctx is not None else exc.format_message())
        sys.exit(0)
    except click.ClickException as exc:
        click.echo(f"cgt: error: {shortened(exc.format_message())}", err=True)
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)


if __name__ == "__main__":  # pragma: no cover
    main()
