"""``cgt report``: write analysis reports (Markdown with figures) under ``reports/``."""

from __future__ import annotations

from pathlib import Path

import click

from cgt.progress import StderrProgress


@click.command("report")
@click.argument("game_name", metavar="GAME|all")
@click.option("-p", "--param", "params", multiple=True, metavar="KEY=VALUE", help="Game parameter.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("reports"),
    show_default=True,
    help="Directory of the reports.",
)
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=2000,
    show_default=True,
    help="Random games played for the length distribution.",
)
def report_command(game_name: str, params: tuple[str, ...], out: Path, samples: int) -> None:
    """Solve a board and write its report; 'all' writes every default board and the index."""
    from cgt.cli import parse_params
    from cgt.commands.outputs import output_failure, writable_directory
    from cgt.registry import load_game
    from cgt.report import Board, write_all, write_report

    writable_directory(out)
    progress = StderrProgress("report")
    try:
        if game_name == "all":
            if params:
                raise click.UsageError("'cgt report all' takes no parameters")
            for path in write_all(out, progress=progress, random_samples=samples):
                click.echo(f"wrote {path}")
            click.echo(f"wrote {out / 'README.md'}")
            return
        board = Board(game_name, parse_params(params))
        load_game(board.game, **board.params)  # validate before any work
        click.echo(f"wrote {write_report(board, out, random_samples=samples, progress=progress)}")
    except OSError as exc:  # the directory was writable at the start: disk full, removed ...
        raise output_failure(exc.filename or out, exc) from None
    finally:
        progress.close()
