"""Writing the reports: one game's page, every page and the index, with progress on stderr
and this run's timings in the run log only (the pages stay byte-identical across runs)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from cgt.progress import Progress
from cgtapp.report import data
from cgtapp.report.document import (
    ATTEMPT_TABLES,
    RANDOM_SAMPLES,
    GameReport,
    ReportContext,
    attempt_status,
    display_name,
    generic_report,
    log,
    write_page,
)
from cgtapp.report.games import reports
from cgtapp.report.tables import claim_finding, table


def report_for(game_name: str, params: dict[str, Any] | None = None) -> GameReport:
    """The designer's report of a seed game, or the exhaustive report of any other board."""
    if not params and game_name in reports():
        return reports()[game_name]
    return generic_report(game_name, params or {})


def write_report(
    game_name: str,
    out_dir: Path,
    params: dict[str, Any] | None = None,
    *,
    refresh: bool = False,
    samples: int = RANDOM_SAMPLES,
    progress: Progress | None = None,
    languages: tuple[str, ...] = ("en",),
) -> Path:
    """Write ``<out_dir>/<slug>.md`` (and its figures) from the stored results, and in
    ``languages`` other than English ``<out_dir>/<language>/<slug>.md``; ``samples`` random
    games are played on a small board computed here (not on stored ones)."""
    ctx = ReportContext(out_dir, refresh, progress, samples=samples)
    return write_page(report_for(game_name, params), ctx, languages)


def write_all(
    out_dir: Path,
    games: list[str] | None = None,
    *,
    refresh: bool = False,
    progress: Progress | None = None,
) -> list[Path]:
    """Every seed game's report and ``README.md`` indexing them."""
    started = time.perf_counter()
    names = games or list(reports())
    paths = []
    for k, name in enumerate(names, 1):
        if progress:
            progress({"phase": f"report {k}/{len(names)}: {name}"})
        paths.append(
            write_report(name, out_dir, refresh=refresh, progress=progress, languages=("en", "ja"))
        )
    written = [report_for(n) for n in names]
    write_index(out_dir, written, paths)
    update_readme(out_dir, written, paths)
    log(out_dir, f"all reports written in {time.perf_counter() - started:.1f} s")
    return paths


def write_index(out_dir: Path, written: list[GameReport], paths: list[Path]) -> Path:
    """``README.md``: every report with its headline, the boards out of reach, and every
    claim with its verdict and finding."""
    from proofs.registry import all_claims, verdict_words

    ctx = ReportContext(out_dir)
    lines = [
        "# Reports",
        "",
        "One report per game, on the largest board the toolkit has solved, each opening with "
        "the designer's questions answered; smaller boards appear inside as comparisons. Every "
        "number comes from a stored result under [`data/`](data/) (with the command, date and "
        "commit that produced it).",
        "",
        "Regenerate every page from the stored results: `cgt report all` (a few minutes, no "
        "solving); re-solve and rewrite the stored results: `cgt report all --refresh`. The "
        "timings of a run go to `run-log.txt` (not committed).",
        "",
        "## Reports",
        "",
    ]
    rows = [
        [display_name(r.game), r.headline(ctx), f"[{path.stem}]({path.name})"]
        for r, path in zip(written, paths)
    ]
    lines += table(["game", "result with perfect play", "report"], rows)
    records = data.attempts(out_dir)
    for heading, belongs in ATTEMPT_TABLES:
        rows = [
            [
                display_name(a.get("game", "")),
                a.get("board", "?"),
                attempt_status(a),
                a.get("how_far", a.get("summary", "")),
                f"[record]({a['file']})",
            ]
            for a in records
            if belongs(a)
        ]
        if rows:
            lines += ["", f"## {heading.split(':')[0]}", ""]
            lines += table(["game", "board", "status", "how far the attempts got", "data"], rows)
    lines += ["", "## The documents' claims", ""]
    claim_rows = []
    for c in all_claims():
        cert_path = out_dir / "claims" / f"{c.id}.json"
        if cert_path.exists():
            cert = json.loads(cert_path.read_text())
            claim_rows.append(
                [
                    display_name(c.game),
                    f"`{c.id}`",
                    f"**{verdict_words(cert)}**",
                    claim_finding(cert, limit=240),
                    f"[certificate](claims/{c.id}.md)",
                ]
            )
    lines += table(["game", "claim", "verdict", "finding", "certificate"], claim_rows)
    lines += [
        "",
        "Re-check every claim: `cgt check` (and rewrite these certificates: "
        "`cgt check --out reports/claims`).",
        "",
    ]
    path = out_dir / "README.md"
    path.write_text("\n".join(lines) + "\n")
    return path


README_START = "<!-- results: written by `cgt report all` from reports/data/, do not edit -->"
README_END = "<!-- end of results -->"


def update_readme(out_dir: Path, written: list[GameReport], paths: list[Path]) -> Path | None:
    """Rewrite the results block of the project's ``README.md`` (beside ``out_dir``) from the
    stored results, so the README never carries a number typed by hand; a README without
    the markers is left alone."""
    readme = out_dir.parent / "README.md"
    if not readme.exists():
        return None
    text = readme.read_text()
    if README_START not in text or README_END not in text:
        return None
    ctx = ReportContext(out_dir)
    folder = out_dir.name
    lines = ["", "What the reports find (each links to its report):", ""]
    for report, path in zip(written, paths):
        name = display_name(report.game)
        lines.append(f"- [{name}]({folder}/{path.name}): {report.headline(ctx)}")
    lines.append("")
    head, rest = text.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    readme.write_text(head + README_START + "\n".join(lines) + "\n" + README_END + tail)
    return readme
