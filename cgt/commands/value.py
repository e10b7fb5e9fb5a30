"""``cgt value``: the CGT value of a position, in CGSuite notation, with its temperature theory.

Example: ``cgt value domineering "..|.."`` prints ``+-1`` with outcome N, stops 1 and -1,
mean 0 and temperature 1. A position that splits into independent components (Domineering
regions, Snort, Control regions around frozen pieces) also lists each component's value. Impartial games print their nimber ``*g`` (Grundy value ``g``);
octal games (``octal``, ``kayles``, ``dawsons-kayles``) also the period and pre-period of
their Grundy sequence.
"""

from __future__ import annotations

import json
from typing import Any

import click

from cgt.algebra.impartial import octal_periodicity
from cgt.algebra.loopy import LoopyValue
from cgt.algebra.thermograph import left_stop, right_stop, thermograph
from cgt.algebra.values import ValueCalculator, loopy_value_of
from cgt.progress import StderrProgress
from cgt.registry import load_game

OUTCOME_WORDS = {
    "L": "Left wins",
    "R": "Right wins",
    "N": "the first player wins",
    "P": "the second player wins",
    "D": "a draw whoever starts",
    "NHat": "Left wins moving first, a draw when Right starts",
    "PHat": "a draw when Left starts, Left wins when Right starts",
    "NCheck": "a draw when Left starts, Right wins when Right starts",
    "PCheck": "Right wins when Left starts, a draw when Right starts",
}


def value_report(
    game_name: str, params: dict[str, Any], position_text: str | None
) -> dict[str, Any]:
    """Value of a position as plain data (what ``cgt value --json`` prints).

    Raises :class:`cgt.errors.CGTError` subclasses for an unknown game, bad parameters or a
    malformed position. Numbers are strings (``"1/2"``) so JSON keeps them exact.
    """
    game = load_game(game_name, **params)
    position = game.initial_position() if position_text is None else game.parse(position_text)
    progress = StderrProgress("value")
    calculator = ValueCalculator(game, progress=progress)
    try:
        if getattr(game, "positions_repeat", False):
            found = loopy_value_of(game, position, progress=progress)
            if isinstance(found, LoopyValue):
                return loopy_report(game, position, found)
            value = found
        else:
            value = calculator(position)
    finally:
        progress.close()
    graph = thermograph(value)
    report: dict[str, Any] = {
        "game": game.name,
        "params": game.parameters,
        "position": game.render(position),
        "canonical": str(value),
        "outcome": value.outcome(),
        "left_stop": str(left_stop(value)),
        "right_stop": str(right_stop(value)),
        "mean": str(graph.mast),
        "temperature": str(graph.temperature),
        "birthday": value.birthday(),
    }
    parts = game.components(position)
    if parts is not None and len(parts) >= 2:  # independent components: the value is their sum
        report["components"] = [
            {"position": game.render(part), "value": str(calculator(part))} for part in parts
        ]
    if game.impartial:
        report["grundy"] = value.nim_value()
    code = getattr(game, "code", None)
    if isinstance(code, str):
        report["periodicity"] = octal_period_report(code)
    return report


def loopy_report(game: Any, position: Any, value: LoopyValue) -> dict[str, Any]:
    """The report of a position whose value is loopy: the value in CGSuite notation, its
    outcome class (with draws) and its sides; stops, mean and temperature are left out (they
    belong to loopfree games here)."""
    report: dict[str, Any] = {
        "game": game.name,
        "params": game.parameters,
        "position": game.render(position),
        "canonical": str(value),
        "loopy": True,
        "stopper": value.is_stopper(),
        "outcome": value.outcome(),
        "first_player_outcomes": value.outcomes(),
    }
    if not value.is_stopper():
        report["onside"] = str(value.onside)
        report["offside"] = str(value.offside)
    return report


#: How many Grundy values ``cgt value`` computes at most when looking for an octal period.
PERIOD_SEARCH_VALUES = 1000


def octal_period_report(code: str) -> dict[str, Any] | None:
    """Proved period and pre-period of an octal game's Grundy sequence (Guy-Smith theorem),
    or ``None`` when none shows within :data:`PERIOD_SEARCH_VALUES` values."""
    found = octal_periodicity(code, max_values=PERIOD_SEARCH_VALUES)
    if found is None:
        return None
    return {
        "period": found.period,
        "pre_period": found.pre_period,
        "proved": found.proved,
        "checked_up_to": found.checked_up_to,
    }


@click.command("value")
@click.argument("game_name", metavar="GAME")
@click.argument("position", required=False)
@click.option("-p", "--param", "params", multiple=True, metavar="KEY=VALUE", help="Game parameter.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object.")
def value_command(
    game_name: str, position: str | None, params: tuple[str, ...], as_json: bool
) -> None:
    """Canonical form (CGSuite notation), outcome class, stops, mean and temperature of a
    position (default: the initial position) of a normal-play game."""
    from cgt.cli import parse_params

    report = value_report(game_name, parse_params(params), position)
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"{report['game']} {report['position']}")
    click.echo(f"  value        {report['canonical']}")
    if report.get("loopy"):
        click.echo(f"  outcome      {report['outcome']} ({OUTCOME_WORDS[report['outcome']]})")
        if not report["stopper"]:
            click.echo(f"  onside       {report['onside']}")
            click.echo(f"  offside      {report['offside']}")
        click.echo("  loopy        positions repeat; stops and temperature are not given")
        return
    if "grundy" in report:
        click.echo(f"  grundy       {report['grundy']}")
    click.echo(f"  outcome      {report['outcome']} ({OUTCOME_WORDS[report['outcome']]})")
    click.echo(
        f"  stops        {report['left_stop']} (Left first), {report['right_stop']} (Right first)"
    )
    click.echo(f"  mean         {report['mean']}")
    click.echo(f"  temperature  {report['temperature']}")
    click.echo(f"  birthday     {report['birthday']}")
    if "components" in report:
        click.echo(f"  components   {len(report['components'])}, the value is their sum:")
        for part in report["components"]:
            click.echo(f"    {part['value']:<10} {part['position']}")
    if "periodicity" in report:
        found = report["periodicity"]
        click.echo(
            f"  period       none found in the first {PERIOD_SEARCH_VALUES} Grundy values"
            if found is None
            else f"  period       {found['period']} from heap {found['pre_period']} "
            f"(proved by the Guy-Smith theorem from {found['checked_up_to']} values)"
        )
