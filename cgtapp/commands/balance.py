"""``cgt balance``: self-play at doubling strengths, as SkillTrace does (solvers.selfplay)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import click

from cgt.errors import ParameterError
from cgt.progress import StderrProgress
from cgtapp.commands.options import param_option


def parse_budgets(text: str) -> list[int]:
    """``"100,200,400"`` -> [100, 200, 400]; a one-line error on anything else."""
    try:
        budgets = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ParameterError(
            f"--playouts takes positive integers separated by commas, got {text!r}"
        ) from None
    if not budgets or min(budgets) < 1:
        raise ParameterError(
            f"--playouts takes positive integers separated by commas, got {text!r}"
        )
    return budgets


def default_store(game_name: str, params: dict[str, object]) -> Path:
    """Where a board's games are kept unless --store says: the user cache, one file per game
    and parameters."""
    from solvers.database import default_path

    digest = hashlib.sha1(json.dumps(params, sort_keys=True, default=str).encode()).hexdigest()
    return default_path().parent / "selfplay" / f"{game_name}-{digest[:12]}.jsonl"


@click.command("balance")
@click.argument("game_name", metavar="GAME")
@param_option
@click.option("--games", type=click.IntRange(min=1), required=True, help="Games per strength.")
@click.option(
    "--playouts",
    "budgets_text",
    required=True,
    metavar="N1,N2,...",
    help="The strengths: playouts a move for both sides (double them, as SkillTrace does).",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), help="Workers (default: every core).")
@click.option("--backend", default="loky", help="joblib backend (loky; dask or ray from a plugin).")
@click.option(
    "--store",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="File of the finished games (default: one per board under ~/.cache/cgt/selfplay); "
    "run again to resume.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")
def balance_command(
    game_name: str,
    params: tuple[str, ...],
    games: int,
    budgets_text: str,
    seed: int,
    jobs: int | None,
    backend: str,
    store: Path | None,
    as_json: bool,
) -> None:
    """Self-play balance of GAME: both sides played by the search at each strength in turn.

    Per strength: the first player's wins, the second's, draws, the first player's win rate
    with its 95% Wilson interval, the mean length, and the openings chosen. Every finished
    game is stored at once; the same command run again plays only the missing games. These
    are estimates: compare them with the calibration on solved boards before quoting them.
    """
    from cgtapp.commands.options import emit_json, make_game
    from solvers.selfplay import balance, default_jobs

    budgets = parse_budgets(budgets_text)
    game = make_game(game_name, params)
    position = game.initial_position()
    path = store if store is not None else default_store(game.name, game.parameters)
    progress = StderrProgress(f"balance {game.label()}")
    try:
        levels = balance(
            game,
            position,
            games=games,
            budgets=budgets,
            store=path,
            seed=seed,
            jobs=jobs or default_jobs(),
            backend=backend,
            progress=progress,
        )
    finally:
        progress.close()
    first, second = game.players[game.to_move(position)], game.players[1 - game.to_move(position)]
    if as_json:
        emit_json(
            {
                "game": game.name,
                "params": game.parameters,
                "position": game.render(position),
                "first_player": first,
                "store": str(path),
                "levels": [level.as_dict() for level in levels],
            }
        )
        return
    click.echo(f"game:     {game.label()}   first player: {first}   games stored in {path}")
    click.echo(
        f"{'playouts':>9} {'games':>6} {first + ' wins':>12} {second + ' wins':>12} {'draws':>6} "
        f"{'first wins':>11}  {'95% interval':<15} {'length':>7}"
    )
    for level in levels:
        rate = level.first_win_rate or 0.0
        low, high = level.interval
        click.echo(
            f"{level.playouts:>9,} {level.games:>6} {level.first_wins:>12} {level.second_wins:>12} "
            f"{level.draws:>6} {100 * rate:>10.1f}%  {100 * low:5.1f}-{100 * high:5.1f}%   "
            f"{level.mean_length:>7.1f}"
        )
    strongest = levels[-1]
    openings = ", ".join(f"{m} ({n})" for m, n in strongest.openings[:5])
    click.echo(f"openings at {strongest.playouts:,} playouts: {openings}")
    click.echo("(estimated by self-play, not verified; see the calibration on solved boards)")
