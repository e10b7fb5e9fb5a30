"""Interrupt a frontier proof with Ctrl-C, resume it, and show that no proven job is lost.

    python benchmarks/resume_demo.py                     # Control size 4, 2 runs of 240 s
    python benchmarks/resume_demo.py --seconds 120 --runs 3

Each run is the board's own `cgt frontier ... --split` command in a child process, stopped by
SIGINT (what Ctrl-C sends) after ``--seconds``. Between runs the solution database is read
directly: every job proven before a run must still be proven after it, with the same
outcome, and must not have been tried again (its row of work is unchanged). The record goes
to ``reports/data/frontier/BOARD-resume.json`` with the date, commit and command; the frontier
block of ``benchmarks/RESULTS.md`` (benchmarks/open_boards.py) quotes it.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from open_boards import OPEN_BOARDS, OUT, ROOT, commit, write_results_block

JobRows = dict[str, tuple[int | None, int, float, int]]


def job_rows(database: Path, game: str, params: str) -> JobRows:
    """key -> (outcome, nodes, seconds, attempts) of every job tried on the board."""
    if not database.exists():
        return {}
    with sqlite3.connect(database) as connection:
        try:
            rows = connection.execute(
                "SELECT key, outcome, nodes, seconds, attempts FROM frontier_jobs "
                "WHERE game=? AND params=?",
                (game, params),
            ).fetchall()
        except sqlite3.OperationalError:  # no job tried yet: the table is made by the first
            return {}
    return {row[0]: (row[1], row[2], row[3], row[4]) for row in rows}


def proven(rows: JobRows) -> dict[str, tuple[int | None, int, float, int]]:
    return {key: row for key, row in rows.items() if row[0] is not None}


def main(argv: list[str] | None = None) -> int:
    from cgt.registry import load_game
    from solvers.database import default_path

    names = [b.name for b in OPEN_BOARDS]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("board", nargs="?", default="control-4", choices=names)
    parser.add_argument("--seconds", type=float, default=240.0, help="length of each run")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args(argv)
    board = next(b for b in OPEN_BOARDS if b.name == args.board)
    database = args.db or default_path()
    game = load_game(board.game, **board.params)
    params = json.dumps(game.parameters, sort_keys=True, default=str)
    flags = " ".join(f"-p {k}={v}" for k, v in board.params.items())
    cgt_command = (
        f"cgt frontier {board.game} {flags} --depth {board.depth} --solver compiled "
        f"--job-seconds {board.job_seconds:g} --split"
        + ("" if board.method == "alphabeta" else f" --method {board.method}")
    )
    command = [
        sys.executable,
        "-m",
        "cgtapp.cli",
        *shlex.split(cgt_command)[1:],
        "--db",
        str(database),
    ]
    runs: list[dict[str, Any]] = []
    before = job_rows(database, game.name, params)
    for number in range(1, args.runs + 1):
        started = time.perf_counter()
        child = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            child.wait(timeout=args.seconds)
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGINT)
        _out, err = child.communicate()
        wall = time.perf_counter() - started
        after = job_rows(database, game.name, params)
        kept = proven(before)
        lost = [key for key in kept if key not in after or after[key][0] != kept[key][0]]
        retried = [key for key in kept if key in after and after[key] != kept[key]]
        last_line = (err.strip().splitlines() or [""])[-1]
        runs.append(
            {
                "run": number,
                "wall_seconds": round(wall, 1),
                "exit_status": child.returncode,
                "interrupted_by_sigint": child.returncode == 130,
                "proven_before": len(kept),
                "proven_after": len(proven(after)),
                "jobs_tried_before": len(before),
                "jobs_tried_after": len(after),
                "proven_jobs_lost": len(lost),
                "proven_jobs_tried_again": len(retried),
                "last_stderr_line": last_line,
            }
        )
        print(json.dumps(runs[-1]), file=sys.stderr)
        before = after
    record = {
        "board": board.name,
        "command": cgt_command,
        "runs": runs,
        "no_proven_job_lost": all(
            r["proven_jobs_lost"] == 0 and r["proven_jobs_tried_again"] == 0 for r in runs
        ),
        "run": {
            "command": "python benchmarks/resume_demo.py " + " ".join(argv or sys.argv[1:]),
            "date": time.strftime("%Y-%m-%d", time.gmtime()),
            "commit": commit(),
            "machine": f"{os.uname().machine}, {os.cpu_count()} cores",
        },
    }
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{board.name}-resume.json"
    path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    write_results_block(ROOT / "benchmarks" / "RESULTS.md")
    print(
        f"{board.name}: {len(runs)} interrupted runs, no proven job lost: "
        f"{record['no_proven_job_lost']} -> {path}"
    )
    return 0 if record["no_proven_job_lost"] else 1


if __name__ == "__main__":
    sys.exit(main())
