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
    help="Random games played for the length distribution of a board given with -p.",
)
@click.option(
    "--refresh",
    is_flag=True,
    help="Re-solve the boards and re-check the claims, rewriting the stored results under "
    "OUT/data (the large boards take minutes; Entropy 5x5 needs its stored solution).",
)
@click.option(
    "--lang",
    type=click.Choice(["en", "ja"]),
    default="en",
    show_default=True,
    help="Language of the page: ja writes the Japanese page (the rules in short, what to "
    "change, the designer's questions) to OUT/ja/, from the same stored results.",
)
def report_command(
    game_name: str, params: tuple[str, ...], out: Path, samples: int, refresh: bool, lang: str
) -> None:
    """Write a game's report from the stored results; 'all' writes every seed game's report
    and the index. With -p, the exhaustive report of that board of any game."""
    from cgt.registry import load_game
    from cgtapp.commands.options import parse_params
    from cgtapp.commands.outputs import output_failure, writable_directory
    from cgtapp.report.build import report_for, write_all, write_report

    writable_directory(out)
    progress = StderrProgress("report")
    try:
        if game_name == "all":
            if params:
                raise click.UsageError("'cgt report all' takes no parameters")
            for path in write_all(out, refresh=refresh, progress=progress):
                click.echo(f"wrote {path}")
            click.echo(f"wrote {out / 'README.md'}")
            return
        parsed = parse_params(params)
        load_game(game_name, **parsed)  # validate before any work
        if lang != "en" and not report_for(game_name, parsed).title_ja:
            raise click.UsageError(f"no {lang} page for {game_name} (the seed games only)")
        path = write_report(
            game_name,
            out,
            parsed,
            refresh=refresh,
            samples=samples,
            progress=progress,
            languages=(lang,),
        )
        click.echo(f"wrote {path}")
    except OSError as exc:  # the directory was writable at the start: disk full, removed ...
        raise output_failure(exc.filename or out, exc) from None
    finally:
        progress.close()
