"""Attack the open boards by frontier proofs and store how far each got.

    python benchmarks/open_boards.py                      # every open board, resuming
    python benchmarks/open_boards.py control-4 --max-seconds 3600 --jobs 2

Each board's proof is a frontier of jobs (solvers.frontier) whose proven jobs are kept in the
solution database (``--db``, default ``$CGT_DB`` or the user cache), so every run resumes
where the last stopped, on this machine or any other sharing the file. After the run each
board's status (jobs proven won / lost, open, not started, nodes, job time) is written with
the date, commit, machine and command to ``reports/data/frontier/BOARD.json``, the one
source of the frontier figures in ``benchmarks/RESULTS.md`` and the reports.

The database is a cache on one machine; the jobs themselves (proven or not, with the work
spent on each) are kept in ``reports/data/frontier/BOARD-jobs.jsonl.gz``, committed with the
status. A run first takes that ledger into its database and writes it back when it stops
(also when stopped by Ctrl-C), so a run on a fresh machine resumes where the last one
stopped on any other.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "reports" / "data" / "frontier"


@dataclass(frozen=True)
class OpenBoard:
    """A board nobody has solved, with the frontier it is attacked by."""

    name: str
    game: str
    params: dict[str, Any]
    depth: int
    job_seconds: float
    why: str
    split: bool = True
    #: the jobs' search: df-pn where benchmarks/DFPN.md shows it far ahead of alpha-beta
    method: str = "alphabeta"


OPEN_BOARDS = (
    OpenBoard(
        "control-4",
        "control",
        {"size": 4},
        3,
        30.0,
        "the designer's recommended board; the document's engines suggest the second player",
    ),
    OpenBoard("lag-4", "lag", {"size": 4}, 2, 30.0, "the board the document plays", method="dfpn"),
    OpenBoard(
        "super-nonnect-3x3-revised",
        "super-nonnect",
        {"a": 3, "b": 3, "rule": "revised"},
        2,
        30.0,
        "the document's own board under its revised rule",
        method="dfpn",
    ),
)


BLOCK_START = "<!-- frontier: written by benchmarks/open_boards.py from reports/data/frontier/ -->"
BLOCK_END = "<!-- end of frontier -->"


def frontier_table(folder: Path = OUT) -> list[str]:
    """The frontier reached on each open board, from the stored status files."""
    lines = [
        BLOCK_START,
        "## Frontier proofs of the larger boards",
        "",
        "Each larger board is attacked by a frontier proof (`cgt frontier`): the positions a few "
        "plies below the start are jobs, each proven job is stored as it finishes, and the "
        "same command resumes. `won` / `lost` are for the player to move in the job's "
        "position. With `--split`, a job that runs out of its budget is *split*: its children "
        "become jobs, chosen by proof-number search (PN²), and a split job is decided as soon "
        "as its children decide it (`decided above the jobs`). Without it, `open` jobs ran out "
        "of their budget and are retried only with a larger one.",
        "",
        "| board | depth | jobs | proven (won / lost) | open | not started | split | decided above "
        "the jobs | start | job nodes | job time (s) | as of | command |",
        "|---|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---|---|",
    ]
    resumed: list[str] = []
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text())
        if "runs" in record:  # an interrupt-and-resume record (benchmarks/resume_demo.py)
            resumed.append(resume_sentence(record))
            continue
        if "earlier_status" in record:  # runs whose database was lost (before the ledger)
            from cgtapp.report.data import history_summary

            resumed.append(f"{record['board']}: {history_summary(record)}")
            continue
        if "searches" in record:  # proven jobs per hour, run by run
            from cgtapp.report.data import runs_summary

            resumed.append(f"{record['board']}: {runs_summary(record)}")
            continue
        if "first_split_ply" in record:  # where the board splits (benchmarks/control_regions.py)
            from cgtapp.report.data import regions_summary

            resumed.append(f"{path.stem.removesuffix('-regions')}: {regions_summary(record)}")
            continue
        st = record["status"]
        start = st["winner"] + " player wins" if st["winner"] else "undecided"
        lines.append(
            f"| {record['board']} | {st['depth']} | {st['jobs']:,} | "
            f"{st['proven']:,} ({st['won']:,} / {st['lost']:,}) | {st['open']:,} | "
            f"{st['not_started']:,} | {st.get('split', 0):,} | {st.get('decided_positions', 0):,} | "
            f"{start} | {st['nodes']:,} | {st['seconds']:,.0f} | "
            f"{record['run']['date']}, `{record['run']['commit']}` | `{record['command']}` |"
        )
    return [*lines, "", *resumed, BLOCK_END]


def resume_sentence(record: dict[str, Any]) -> str:
    """One line on an interrupted and resumed proof, from benchmarks/resume_demo.py."""
    runs = record["runs"]
    stopped = sum(1 for r in runs if r["interrupted_by_sigint"])
    verdict = (
        "no proven job was lost or tried again"
        if record["no_proven_job_lost"]
        else ("**a proven job was lost or tried again**")
    )
    return (
        f"Interrupted and resumed ({record['board']}, {record['run']['date']}, "
        f"`{record['run']['commit']}`, `{record['run']['command']}`): {len(runs)} runs of "
        f"`{record['command']}`, {stopped} stopped by SIGINT (Ctrl-C); proven jobs "
        + " -> ".join(str(r["proven_before"]) for r in runs)
        + f" -> {runs[-1]['proven_after']}; {verdict}.\n"
    )


def write_results_block(results: Path, folder: Path = OUT) -> None:
    """Replace (or append) the frontier block of ``results`` (benchmarks/RESULTS.md)."""
    text = results.read_text() if results.exists() else ""
    block = "\n".join(frontier_table(folder))
    if BLOCK_START in text and BLOCK_END in text:
        head, rest = text.split(BLOCK_START, 1)
        tail = rest.split(BLOCK_END, 1)[1]
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    results.write_text(text)


def ledger_path(folder: Path, board: str) -> Path:
    return folder / f"{board}-jobs.jsonl.gz"


def read_ledger(path: Path) -> list[dict[str, Any]]:
    """The job rows of a ledger file (none if there is no file yet)."""
    if not path.exists():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def write_ledger(path: Path, rows: list[dict[str, Any]]) -> None:
    """The rows as gzip-compressed JSON lines, byte for byte the same for the same rows (no
    file name or time in the gzip header), replaced in one step."""
    text = "".join(json.dumps(row, sort_keys=True) + "\n" for row in rows).encode()
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as packed:
        packed.write(text)
    partial.replace(path)


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    from cgt.progress import StderrProgress
    from cgt.registry import load_game
    from solvers.database import SolutionDatabase
    from solvers.frontier import JobStore, solve_frontier

    names = [b.name for b in OPEN_BOARDS]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("boards", nargs="*", metavar="BOARD", help=", ".join(names))
    parser.add_argument("--max-seconds", type=float, default=600.0, help="per board")
    parser.add_argument("--job-seconds", type=float, default=None, help="override per job")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--status", action="store_true", help="write the stored status only, run no job"
    )
    args = parser.parse_args(argv)
    unknown = sorted(set(args.boards) - set(names))
    if unknown:
        parser.error(f"unknown board {unknown[0]!r} (boards: {', '.join(names)})")
    chosen = [b for b in OPEN_BOARDS if not args.boards or b.name in args.boards]
    args.out.mkdir(parents=True, exist_ok=True)
    database = SolutionDatabase(args.db)
    for board in chosen:
        game = load_game(board.game, **board.params)
        job_seconds = args.job_seconds or board.job_seconds
        progress = StderrProgress(f"{board.name}")
        started = time.perf_counter()
        store = JobStore(database, game)
        ledger = ledger_path(args.out, board.name)
        taken = store.take_ledger(read_ledger(ledger))
        if taken:
            print(f"{board.name}: {taken} job rows taken from {ledger}", file=sys.stderr)
        try:
            status = solve_frontier(
                game,
                depth=board.depth,
                database=database,
                jobs=args.jobs,
                solver="compiled",
                job_seconds=job_seconds,
                max_seconds=args.max_seconds,
                run=not args.status,
                progress=progress,
                split=board.split,
                method=board.method,
            )
        finally:
            progress.close()
            write_ledger(ledger, store.ledger())
        params = " ".join(f"-p {k}={v}" for k, v in board.params.items())
        record = {
            "board": board.name,
            "why": board.why,
            "status": status.as_dict(),
            "job_seconds": job_seconds,
            "command": f"cgt frontier {board.game} {params} --depth {board.depth} "
            f"--solver compiled --job-seconds {job_seconds:g}"
            + (" --split" if board.split else "")
            + ("" if board.method == "alphabeta" else f" --method {board.method}"),
            "run": {
                "command": "python benchmarks/open_boards.py " + " ".join(argv or sys.argv[1:]),
                "date": time.strftime("%Y-%m-%d", time.gmtime()),
                "commit": commit(),
                "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                "wall_seconds": round(time.perf_counter() - started, 1),
            },
        }
        path = args.out / f"{board.name}.json"
        path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
        print(
            f"{board.name}: {status.proven}/{status.jobs} jobs proven "
            f"({status.won} won, {status.lost} lost), {status.open} open, "
            f"root {'undecided' if status.root is None else status.root.label} -> {path}"
        )
    database.close()
    write_results_block(ROOT / "benchmarks" / "RESULTS.md", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
