"""``cgt db``: what the solution database holds, and removing it.

``cgt db list`` prints every stored solution: the packed solutions of the compiled retrograde
kernels (game, parameters, records, size on disk, when, at which commit and by which command)
and the positions stored as rows (game, parameters, solver, count). ``cgt db remove GAME
[-p KEY=VALUE ...]`` deletes what is stored for that game and those parameters.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from cgt.errors import CGTError
from cgtapp.commands.options import db_option


def database_listing(db: Path | None) -> dict[str, Any]:
    """What ``cgt db list --json`` prints: the database's path, its packed solutions and
    its positions stored as rows."""
    from solvers.database import SolutionDatabase

    database = SolutionDatabase(db, must_exist=db is not None)
    packed = []
    for entry in database.packed_solutions():
        item = entry.as_dict()
        item["present"] = entry.path.exists()
        packed.append(item)
    rows = [
        {"game": game, "params": params, "solver": solver, "positions": count}
        for game, params, solver, count in database.position_summary()
    ]
    return {"database": str(database.path), "packed": packed, "positions": rows}


def _params_text(params: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items() if v is not None) or "-"


@click.group("db")
def db_command() -> None:
    """List or remove stored solutions (packed files and database rows)."""


@db_command.command("list")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def list_command(db: Path | None, as_json: bool) -> None:
    """Every stored solution: size, when, and by which command."""
    from solvers.memory import format_bytes

    listing = database_listing(db)
    if as_json:
        click.echo(json.dumps(listing, indent=2))
        return
    click.echo(f"solution database {listing['database']}")
    if not listing["packed"] and not listing["positions"]:
        click.echo("  (empty)")
    for item in listing["packed"]:
        missing = "" if item["present"] else "  MISSING FILE"
        click.echo(
            f"  packed  {item['game']} {_params_text(item['params'])}  from {item['root']}: "
            f"{item['records']:,} records, {format_bytes(item['bytes'])}, {item['created']}, "
            f"commit {item['git_commit'] or '?'}{missing}"
        )
        click.echo(f"          {item['path']}  made by: {item['command'] or '?'}")
    for row in listing["positions"]:
        click.echo(
            f"  rows    {row['game']} {_params_text(row['params'])}: {row['positions']:,} "
            f"positions ({row['solver']})"
        )


@db_command.command("remove")
@click.argument("game_name", metavar="GAME")
@click.option("-p", "--param", "params", multiple=True, metavar="KEY=VALUE", help="Game parameter.")
@db_option
def remove_command(game_name: str, params: tuple[str, ...], db: Path | None) -> None:
    """Delete the stored solutions of GAME with these parameters (packed files and rows)."""
    from cgtapp.commands.options import make_game
    from solvers.database import SolutionDatabase

    game = make_game(game_name, params)
    database = SolutionDatabase(db, must_exist=db is not None)
    removed = []
    for entry in database.packed_solutions(game.name, dict(game.parameters)):
        database.remove_packed(entry)
        removed.append(f"packed solution {entry.path}")
    rows = database.remove_positions(game.name, dict(game.parameters))
    if rows:
        removed.append(f"{rows:,} positions")
    if not removed:
        raise CGTError(f"nothing is stored for {game.label()} in {database.path}")
    for item in removed:
        click.echo(f"removed {item}")
