"""``cgt value``: the CGT value of a position, in CGSuite notation, with its temperature theory.

Example: ``cgt value domineering "..|.."`` prints ``+-1`` with outcome N, stops 1 and -1,
mean 0 and temperature 1. A position that splits into independent components (Domineering
regions, Snort, Control regions around frozen pieces) also lists each component's value. Impartial games print their nimber ``*g`` (Grundy value ``g``);
octal games (``octal``, ``kayles``, ``dawsons-kayles``) also the period and pre-period of
their Grundy sequence, and heap positions of up to 40 tokens their misère Grundy value and
genus.

Only short normal-play games have such values: a game that is not normal play (LAG,
Interleave, Entropy, tic-tac-toe) or whose positions can repeat (Control with
``control=sight``) is refused in one line, saying why (:func:`cgt.algebra.values.check_valuable`;
the table in docs/rules.md, "Which games have CGT values").
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from typing import Any

import click

from cgt.algebra.budget import Budget
from cgt.algebra.impartial import HeapGenus, misere_periodicity, octal_periodicity
from cgt.algebra.loopy import LoopyValue
from cgt.algebra.thermograph import left_stop, right_stop, thermograph
from cgt.algebra.values import ValueCalculator, loopy_value_of
from cgt.errors import ParameterError
from cgt.progress import StderrProgress
from cgt.registry import load_game
from cgtapp.commands.bounds import bound_options, make_budget, run_bounded

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
    game_name: str,
    params: dict[str, Any],
    position_text: str | None,
    budget: Budget | None = None,
) -> dict[str, Any]:
    """Value of a position as plain data (what ``cgt value --json`` prints).

    Raises :class:`cgt.errors.CGTError` subclasses for an unknown game, bad parameters or a
    malformed position, :class:`~cgt.algebra.budget.BudgetExceeded` when ``budget`` stops
    the computation. Numbers are strings (``"1/2"``) so JSON keeps them exact.
    """
    game = load_game(game_name, **params)
    position = game.initial_position() if position_text is None else game.parse(position_text)
    if budget is None or budget.max_seconds is None:
        refuse_hopeless(game, position)
    progress = StderrProgress("value")
    if budget is not None:
        budget.progress = progress
    # a normal-play game whose positions repeat (Control by sight) has a loopy value
    loopy = not getattr(game, "acyclic", True) and getattr(game, "normal_play", True)
    calculator = ValueCalculator(game, progress=progress, loopy=loopy)
    try:
        with budget.active() if budget is not None else nullcontext():
            if loopy:
                found = loopy_value_of(game, position, progress=progress)
                if isinstance(found, LoopyValue):
                    return loopy_report(game, position, found)
                value = found
            else:
                value = calculator(position)
            graph = thermograph(value)
    finally:
        progress.close()
    parameters = dict(game.parameters)
    for side in ("rows", "cols"):  # a board given as a position has its own size
        if side in parameters and isinstance(getattr(position, side, None), int):
            parameters[side] = getattr(position, side)
    report: dict[str, Any] = {
        "game": game.name,
        "params": parameters,
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
        heaps = getattr(position, "heaps", None)
        heap_moves = getattr(game, "heap_moves", None)
        if heaps is not None and heap_moves is not None and sum(heaps) <= MISERE_MAX_TOKENS:
            genus = HeapGenus(heap_moves)(heaps)
            report["misere_grundy"] = genus.misere
            report["genus"] = str(genus)
    code = getattr(game, "code", None)
    if isinstance(code, str):
        report["periodicity"] = octal_period_report(code)
    single_heap_moves = getattr(game, "heap_moves", None)
    if game.impartial and single_heap_moves is not None:
        report["misere_periodicity"] = misere_period_report(single_heap_moves)
    return report


#: Single heaps whose misère Grundy values are searched for a period: a game that splits
#: heaps values every multiset of smaller heaps on the way (misère play has no nim-sum),
#: so it gets fewer.
MISERE_PERIOD_VALUES = 300
MISERE_PERIOD_VALUES_SPLITTING = 30


def misere_period_report(heap_moves: Any) -> dict[str, Any] | None:
    """Apparent period and pre-period of the misère Grundy values of single heaps (never
    proved: no periodicity theorem covers misère play), or ``None`` if none shows."""
    splits = any(len(parts) > 1 for n in range(1, 12) for parts in heap_moves(n))
    values = MISERE_PERIOD_VALUES_SPLITTING if splits else MISERE_PERIOD_VALUES
    found = misere_periodicity(heap_moves, values)
    if found is None:
        return {"period": None, "checked_up_to": values}
    return {
        "period": found.period,
        "pre_period": found.pre_period,
        "proved": False,
        "checked_up_to": found.checked_up_to,
    }


def refuse_hopeless(game: Any, position: Any) -> None:
    """Refuse, before any work, a value the game says cannot finish (a huge Domineering
    board) unless the user gave a time bound to try anyway."""
    reason = game.value_out_of_reach(position)
    if reason is not None:
        raise ParameterError(f"{reason}; give --max-seconds to try anyway")


#: Heap positions with at most this many tokens also get their misère genus (misère play
#: has no nim-sum: every sub-multiset of heaps is valued on its own).
MISERE_MAX_TOKENS = 40


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
@bound_options
def value_command(
    game_name: str,
    position: str | None,
    params: tuple[str, ...],
    as_json: bool,
    max_seconds: float | None,
    max_forms: int | None,
    max_memory: str | None,
) -> None:
    """Canonical form (CGSuite notation), outcome class, stops, mean and temperature of a
    position (default: the initial position) of a short normal-play game; other games are
    refused, saying why. Bounded by --max-seconds, --max-forms and --max-memory (exit
    status 3 when a bound stops it)."""
    from cgtapp.cli import parse_params

    budget = make_budget(max_seconds, max_forms, max_memory)
    report = run_bounded(
        budget, as_json, lambda: value_report(game_name, parse_params(params), position, budget)
    )
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
    if "genus" in report:
        click.echo(
            f"  misère       grundy {report['misere_grundy']}, genus {report['genus']} "
            "(γk: misère Grundy value with k copies of *2 added)"
        )
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
    if report.get("misere_periodicity") is not None:
        found = report["misere_periodicity"]
        click.echo(
            f"  misère period none in the misère Grundy values of heaps 0-{found['checked_up_to'] - 1}"
            if found["period"] is None
            else f"  misère period {found['period']} from heap {found['pre_period']} "
            f"(apparent in {found['checked_up_to']} values, not proved)"
        )
    if "periodicity" in report:
        found = report["periodicity"]
        click.echo(
            "  period       none found in the Grundy values computed"
            if found is None
            else f"  period       {found['period']} from heap {found['pre_period']} "
            + (
                f"(proved by the Guy-Smith theorem from {found['checked_up_to']} values)"
                if found["proved"]
                else f"(apparent in {found['checked_up_to']} values, not proved)"
            )
        )
