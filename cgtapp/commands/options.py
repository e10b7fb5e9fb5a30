"""What every command shares: the game and its parameters from the command line, the
position argument, JSON output and the exit status of an interrupted run. The commands and
the command line (:mod:`cgtapp.cli`, which registers them) import these from here."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from cgt.errors import ParameterError
from cgt.protocol import Game
from cgt.registry import load_game

#: Exit status of a run interrupted by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130


def parse_params(pairs: Sequence[str]) -> dict[str, str]:
    """``["size=3", "rule=revised"]`` -> ``{"size": "3", "rule": "revised"}``; a key given
    twice is an error (which value was meant is not for the toolkit to guess)."""
    params: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ParameterError(f"parameter {pair!r} is not of the form KEY=VALUE")
        if key in params:
            raise ParameterError(
                f"parameter {key} given twice ({key}={params[key]} and {key}={value})"
            )
        params[key] = value
    return params


def make_game(name: str, pairs: Sequence[str]) -> Game[Any, Any]:
    return load_game(name, **parse_params(pairs))


def parse_position(game: Game[Any, Any], text: str | None) -> Any:
    return game.initial_position() if text is None else game.parse(text)


param_option = click.option(
    "-p",
    "--param",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="Game parameter, repeatable (see 'cgt games').",
)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, default=str))


db_option = click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Solution database file (default $CGT_DB or ~/.cache/cgt/solutions.sqlite).",
)
