"""``cgt eval``: evaluate a CGSuite expression and print the result in CGSuite notation.

Examples::

    cgt eval "{1|-1} + ^ + *2"          # {1|-1}+^*2 in canonical form
    cgt eval "^ <= *"                   # false (^ and * are confused: "^ <> *" is true)
    cgt eval "temperature({3||2|1})"    # 3/2
    cgt eval "thermograph({2|-1})" --plot thermograph.png
    cgt eval "cool({3||2*|1*}, 1)"
    cgt eval "atomic_weight({0|^*})" --json

The grammar and the function library: :mod:`cgt.algebra.expression`.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from cgt.algebra.expression import evaluate, format_value, value_kind
from cgt.algebra.game import CanonicalForm, is_dyadic
from cgt.errors import CGTError
from cgt.progress import StderrProgress
from cgtapp.commands.bounds import bound_options, make_budget, run_bounded


def eval_report(value: Any, text: str) -> dict[str, Any]:
    """The machine-readable answer (``--json``): the expression, the kind of its value, the
    value in CGSuite notation and, for a short game, its temperature theory."""
    from cgt.algebra.game import CanonicalForm
    from cgt.algebra.notation import sorted_options
    from cgt.algebra.thermograph import Thermograph, left_stop, right_stop, thermograph

    report: dict[str, Any] = {
        "expression": text,
        "kind": value_kind(value),
        "value": format_value(value),
    }
    if isinstance(value, CanonicalForm):
        graph = thermograph(value)
        report |= {
            "outcome": value.outcome(),
            "birthday": value.birthday(),
            "left_stop": format_value(left_stop(value)),
            "right_stop": format_value(right_stop(value)),
            "mean": format_value(graph.mast),
            "temperature": format_value(graph.temperature),
            "left_options": [str(CanonicalForm(o)) for o in sorted_options(value.id, True)],
            "right_options": [str(CanonicalForm(o)) for o in sorted_options(value.id, False)],
        }
    elif isinstance(value, Thermograph):
        report["thermograph"] = value.as_dict()
    elif isinstance(value, list):
        report["items"] = [format_value(v) for v in value]
    return report


def plot_thermograph(value: Any, path: Path) -> None:
    """Draw the thermograph of ``value`` (a thermograph, or a short game's) into ``path``."""
    from cgt.algebra.game import CanonicalForm
    from cgt.algebra.thermograph import Thermograph, thermograph

    if isinstance(value, CanonicalForm):
        value = thermograph(value)
    if not isinstance(value, Thermograph):
        raise CGTError(f"--plot needs a game or a thermograph, not a {value_kind(value)}")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = value.plot()
    title = f"mast {format_value(value.mast)}, temperature {format_value(value.temperature)}"
    ax.set_title(title)
    try:
        ax.figure.savefig(path, dpi=120, bbox_inches="tight")
    except OSError as exc:
        raise CGTError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(ax.figure)


@click.command("eval", context_settings={"ignore_unknown_options": True})
@click.argument("expression")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object.")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE.png",
    help="Draw the thermograph of the result (a game or a thermograph) into FILE.",
)
@bound_options
def eval_command(
    expression: str,
    as_json: bool,
    plot: Path | None,
    max_seconds: float | None,
    max_forms: int | None,
    max_memory: str | None,
) -> None:
    """Evaluate a CGSuite EXPRESSION: games ({1|-1}, ^, *2, 3/8, +-1, Tiny(2)), sums and
    differences, comparisons (<=, >=, <, >, ==, <> for confused), and functions
    (temperature, thermograph, mean, left_stop, right_stop, outcome, birthday,
    left_options, right_options, cool, heat, atomic_weight, reduced, compare, pow, powto;
    also as methods: G.Temperature). Bounded by --max-seconds, --max-forms, --max-memory."""
    progress = StderrProgress("eval")

    def compute() -> tuple[Any, dict[str, Any] | None, str]:
        value = evaluate(expression, numbers_as_games=False)  # a number prints at once
        if (as_json or plot is not None) and isinstance(value, Fraction) and is_dyadic(value):
            value = CanonicalForm.number(value)  # its temperature theory is a game's
        return value, (eval_report(value, expression) if as_json else None), format_value(value)

    try:
        budget = make_budget(max_seconds, max_forms, max_memory, progress)
        value, report, text = run_bounded(budget, as_json, compute)
    finally:
        progress.close()
    if plot is not None:
        plot_thermograph(value, plot)
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(text)
