"""``cgt solve ... --strategy FILE`` and ``cgt check --strategy FILE``: write a winning
strategy file (:mod:`solvers.strategy`) and check one from the readable rules
(:mod:`proofs.strategy_check`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from cgt.progress import StderrProgress
from cgt.protocol import Game


def strategy_option(help: str) -> Any:
    """The ``--strategy FILE`` option of ``cgt solve`` and ``cgt check``."""
    return click.option(
        "--strategy",
        "strategy_file",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=help,
    )


#: Exit status of a strategy file that was read and found wrong (2 is a file not read at all).
EXIT_REFUTED = 1


def solve_with_strategy(
    game: Game[Any, Any],
    position: Any,
    path: Path,
    *,
    method: str,
    tt_entries: int | None,
    command: str,
    as_json: bool,
    solver: str = "auto",
) -> None:
    """Prove ``position`` and write the winner's strategy to ``path`` (resuming from
    ``path.partial``); print the winner and the strategy's size against the search."""
    from cgtapp.commands.outputs import output_failure, writable_directory
    from solvers.strategy import write_strategy

    writable_directory(path.parent, "--strategy")  # before the search, not after it
    progress = StderrProgress(f"strategy {game.label()}")
    try:
        written = write_strategy(
            game,
            position,
            path,
            command=command,
            method=method,
            tt_entries=tt_entries or (1 << 24),
            progress=progress,
            solver=solver,
        )
    except OSError as exc:
        raise output_failure(path, exc) from None
    finally:
        progress.close()
    if as_json:
        click.echo(json.dumps(written, indent=2))
        return
    click.echo(f"game:       {game.label()}")
    click.echo(f"position:   {written['root']}")
    click.echo(f"winner:     {written['winner']} player ({written['source']})")
    click.echo(
        f"strategy:   {path}: {written['positions']:,} entries, {written['visited']:,} "
        f"positions, {written['bytes']:,} bytes; {written['nodes']:,} nodes searched, "
        f"{written['extract_seconds']:.1f} s"
    )


def check_strategy_file(path: Path, as_json: bool) -> None:
    """Print the one-line verdict on the file; exit 1 when it is refuted."""
    from proofs.strategy_check import check_strategy

    verdict = check_strategy(path)
    click.echo(json.dumps(verdict.as_dict(), indent=2) if as_json else verdict.summary())
    if not verdict.verified:
        sys.exit(EXIT_REFUTED)
