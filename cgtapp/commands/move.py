"""``cgt move``: the move the toolkit would play, with its estimate (solvers.player)."""

from __future__ import annotations

from pathlib import Path

import click

from cgt.errors import ParameterError
from cgtapp.commands.options import db_option, param_option
from cgtapp.commands.strategy import strategy_option
from solvers.player import DEFAULT_PLAYOUTS, MoveChoice

#: Seconds ``cgt move`` gives an exact solve when neither --playouts nor --seconds is given.
DEFAULT_SOLVE_SECONDS = 10.0


def describe_estimate(choice: MoveChoice, player: str) -> str:
    """The estimate in words: exact results say so, search results say "estimated"."""
    estimate = choice.estimate
    if estimate.kind == "proven":
        outcome = estimate.outcome.label if estimate.outcome is not None else "?"
        plies = "" if estimate.remoteness is None else f" in {estimate.remoteness} plies"
        by = (
            ""
            if choice.source != "search"
            else f" (proved by the search in {estimate.playouts:,} playouts)"
        )
        return f"{outcome}{plies} for {player}, exact{by}"
    rate = estimate.win_rate if estimate.win_rate is not None else 0.0
    return (
        f"estimated: {player} wins {100 * rate:.1f}% of the search's playouts after this move "
        f"({estimate.playouts:,} playouts; an estimate, not a proof)"
    )


@click.command("move")
@click.argument("game_name", metavar="GAME")
@click.argument("position", required=False)
@param_option
@click.option(
    "--playouts",
    type=click.IntRange(min=1),
    default=None,
    help="Always search, with this many playouts (no exact lookup): the player's strength "
    "at this budget.",
)
@click.option(
    "--seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help=f"Time for an exact solve when nothing is stored (default {DEFAULT_SOLVE_SECONDS:g}); "
    f"if it runs out, search with {DEFAULT_PLAYOUTS:,} playouts.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the search.")
@db_option
@strategy_option(
    "A winning strategy file (docs/strategy-format.md): where it covers the position, its "
    "move is played first (source 'strategy')."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")
def move_command(
    game_name: str,
    position: str | None,
    params: tuple[str, ...],
    playouts: int | None,
    seconds: float | None,
    seed: int,
    db: Path | None,
    strategy_file: Path | None,
    as_json: bool,
) -> None:
    """The move to play in POSITION of GAME (default: the start), and what it is worth.

    Without --playouts: a strategy file's move where it covers the position, else the stored
    solution's best move, else an exact solve's within
    --seconds, else the Monte-Carlo search's. With --playouts N: the search's move after N
    playouts (the same seed gives the same move).
    """
    from cgtapp.commands.options import emit_json, make_game, parse_position
    from solvers.player import choose_move, search_move
    from solvers.strategy import StrategyFile

    if playouts is not None and seconds is not None:
        raise ParameterError("give --playouts (always search) or --seconds (solve first), not both")
    game = make_game(game_name, params)
    pos = parse_position(game, position)
    if playouts is not None:
        choice = search_move(game, pos, playouts=playouts, seed=seed)
    else:
        choice = choose_move(
            game,
            pos,
            seconds=DEFAULT_SOLVE_SECONDS if seconds is None else seconds,
            seed=seed,
            db=db,
            strategy=None if strategy_file is None else StrategyFile(strategy_file),
        )
    player = game.players[game.to_move(pos)]
    if as_json:
        emit_json(
            {
                "game": game.name,
                "params": game.parameters,
                "position": game.render(pos),
                "player": player,
                **choice.as_dict(),
            }
        )
        return
    click.echo(f"move:       {choice.name}   (from: {choice.source})")
    click.echo(f"estimate:   {describe_estimate(choice, player)}")
    if choice.source != "search":
        values = {1.0: "win", 0.5: "draw", 0.0: "loss"}
        click.echo("moves:      (exact value for the mover)")
        for c in choice.candidates:
            click.echo(f"  {c.move:<10} {values[c.win_rate]}")
    elif choice.candidates:
        click.echo("candidates: (visits; win rate for the mover after the move)")
        for c in choice.candidates:
            click.echo(f"  {c.move:<10} {c.visits:>9,}   {100 * c.win_rate:5.1f}%")
