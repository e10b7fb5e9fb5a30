"""Benchmark suite: one command, one results table.

    python benchmarks/run.py            # every case, writes benchmarks/RESULTS.md
    python benchmarks/run.py --only control   # cases whose name contains "control"
    python benchmarks/run.py --markdown       # rewrite RESULTS.md from the stored results

Each case runs in its own subprocess so that its memory peak (max RSS) is its own. Every
case's measurement is stored in ``benchmarks/results.json`` with the run that measured it
(machine, date, commit, load average, command): ``--only`` measures some cases again and
keeps the others, and ``benchmarks/RESULTS.md`` is generated from that file alone. Cases
that compare a compiled path with the pure-Python path run both in the same invocation.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

Case = Callable[[], dict[str, Any]]
CASES: dict[str, Case] = {}


def case(name: str) -> Callable[[Case], Case]:
    def register(fn: Case) -> Case:
        CASES[name] = fn
        return fn

    return register


def _solve(game_name: str, solver: str, remoteness: bool = True, **params: Any) -> dict[str, Any]:
    from cgt.registry import load_game
    from solvers import solve

    game = load_game(game_name, **params)
    result = solve(game, solver=solver, remoteness=remoteness)
    rate = result.positions / result.seconds if result.seconds else 0.0
    return {
        "result": result.winner,
        "positions": result.positions,
        "seconds": result.seconds,
        "rate": rate,
        "note": f"remoteness {result.remoteness}" if remoteness else "value only",
    }


# The pure-Python road. Cases named like a compiled case (same text before the "/") are
# compared with it in the "compiled against pure Python" table.


@case("tictactoe/retrograde")
def _ttt_retro() -> dict[str, Any]:
    return _solve("tictactoe", "retrograde")


@case("tictactoe/alphabeta")
def _ttt_ab() -> dict[str, Any]:
    return _solve("tictactoe", "alphabeta")


@case("control size 2/retrograde")
def _control2_retro() -> dict[str, Any]:
    return _solve("control", "retrograde", size=2)


@case("control size 2/alphabeta")
def _control2_ab() -> dict[str, Any]:
    return _solve("control", "alphabeta", size=2)


@case("control size 3/alphabeta")
def _control3_ab() -> dict[str, Any]:
    return _solve("control", "alphabeta", remoteness=False, size=3)


@case("lag size 3 far-row/alphabeta")
def _lag3_far_row_ab() -> dict[str, Any]:
    return _solve("lag", "alphabeta", remoteness=False, size=3, goal="far-row")


@case("super-nonnect 2x2 revised/retrograde")
def _sn22() -> dict[str, Any]:
    return _solve("super-nonnect", "retrograde", a=2, b=2, rule="revised")


@case("super-nonnect 2x3 revised/alphabeta")
def _sn23_ab() -> dict[str, Any]:
    return _solve("super-nonnect", "alphabeta", remoteness=False, a=2, b=3, rule="revised")


@case("interleave size 2/retrograde")
def _il2() -> dict[str, Any]:
    return _solve("interleave", "retrograde", size=2)


@case("entropy 4x3 SSSS/..../OOOO/retrograde")
def _entropy43() -> dict[str, Any]:
    return _solve("entropy", "retrograde", width=4, height=3, setup="SSSS/..../OOOO O")


def _register_case_modules() -> None:
    """The compiled-kernel and algebra cases live beside this file, one module per area."""
    import importlib

    for module_name in (
        "cases_kernels",
        "cases_lag_kernel",
        "cases_entropy_kernel",
        "cases_interleave_kernel",
        "bench_canonical",
    ):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        register = getattr(module, "register", None)
        if register is not None:
            register(case)


sys.path.insert(0, str(Path(__file__).resolve().parent))
_register_case_modules()


def load_average() -> str:
    """The 1-minute load average: other work on the machine slows every case down."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except (OSError, IndexError):
        return "unknown"


def open_boards_table() -> list[str]:
    """The boards still out of reach with how far the attempts got, then the larger boards
    solved since, from the stored attempt records the reports use as well
    (cgtapp.report.data.attempts), so the two never disagree."""
    from cgtapp.report.data import attempts, is_open

    records = attempts(ROOT / "reports")
    lines = []
    for heading, wanted in (
        ("Open boards (attempts and how far they got)", True),
        ("Larger boards solved by a stored proof", False),
    ):
        lines += [
            "",
            f"## {heading}",
            "",
            "| game | board | status | how far / how |",
            "|---|---|---|---|",
        ]
        for entry in records:
            if is_open(entry) != wanted:
                continue
            how = str(entry.get("how_far", entry.get("summary", "")))
            if entry.get("command"):
                how += f" Reproduce: `{entry['command']}`"
            lines.append(
                f"| {entry.get('game')} | {entry.get('board')} | {entry.get('status', 'not solved')} | {how} |"
            )
    return lines


def rewrite_open_boards(path: Path) -> None:
    """Replace the open-boards table of a written RESULTS.md (up to the frontier block,
    which benchmarks/open_boards.py rewrites) with one from the stored records."""
    text = path.read_text()
    start = text.index("\n## Open boards (attempts and how far they got)")
    end = text.index("\n<!-- frontier")
    path.write_text(text[:start] + "\n".join(open_boards_table()) + "\n" + text[end:])


def cpu_model() -> str | None:
    """The processor's model name, where the system lists it (/proc/cpuinfo)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def machine() -> dict[str, str]:
    cpu = cpu_model() or platform.processor() or "unknown"
    try:
        mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f"{mem_kb / 2**20:.1f} GiB"
    except (OSError, ValueError, IndexError):
        memory = "unknown"
    commit = (
        subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        ).stdout.strip()
        or "unknown"
    )
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "memory": memory,
        "python": platform.python_version(),
        "system": platform.platform(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit,
    }


def run_one(name: str) -> dict[str, Any]:
    start = time.perf_counter()
    out = CASES[name]()
    out.setdefault("seconds", time.perf_counter() - start)
    out["wall"] = time.perf_counter() - start
    out["max_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def comparison_table(rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Compiled cases beside the pure-Python case of the same board (same name before "/")."""
    by_board: dict[str, dict[str, dict[str, Any]]] = {}
    for name, r in rows:
        board, _, solver = name.rpartition("/")  # board names may contain "/"
        if "error" not in r:
            by_board.setdefault(board, {})[solver] = r
    out: list[str] = []
    for board, solvers in by_board.items():
        compiled = {k: v for k, v in solvers.items() if k.startswith("compiled")}
        python = {k: v for k, v in solvers.items() if k in ("alphabeta", "retrograde", "python")}
        for (c_name, c), (p_name, p) in ((c, p) for c in compiled.items() for p in python.items()):
            speedup = p["seconds"] / c["seconds"] if c["seconds"] else float("inf")
            ratio = f"{speedup:,.0f}x" if speedup >= 10 else f"{speedup:.2g}x"
            out.append(
                f"| {board} | {p_name} {p['seconds']:.3f} s | {c_name} {c['seconds']:.3f} s | "
                f"{ratio} | {p.get('result', '')} / {c.get('result', '')} |"
            )
    if not out:
        return []
    header = [
        "",
        "## Compiled against pure Python (same board, same run)",
        "",
        "| board | pure Python | compiled (excl. compile) | speed-up | results agree? |",
        "|---|---:|---:|---:|---|",
    ]
    return header + out


RESULTS_JSON = ROOT / "benchmarks" / "results.json"


def load_results() -> dict[str, Any]:
    """The stored measurements: ``runs`` (id -> machine, date, commit, loads, command) and
    ``cases`` (name -> the measurement and its run's id)."""
    if RESULTS_JSON.exists():
        data: dict[str, Any] = json.loads(RESULTS_JSON.read_text())
        return data
    return {"runs": {}, "cases": {}}


def measure(args: argparse.Namespace, stored: dict[str, Any]) -> None:
    """Measure the selected cases, each in a fresh process, and store them as one run."""
    load_before = load_average()
    info = machine()
    run_id = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S")  # two runs a minute apart differ
    for name in CASES:
        if args.only not in name:
            continue
        print(f"running {name} ...", file=sys.stderr, flush=True)
        try:
            proc = subprocess.run(
                [sys.executable, __file__, "--case", name],
                capture_output=True,
                text=True,
                timeout=args.timeout,
                check=False,
            )
            if proc.returncode != 0:
                last = (proc.stderr.strip().splitlines() or ["failed"])[-1]
                result: dict[str, Any] = {"error": last}
            else:
                result = json.loads(proc.stdout.strip().splitlines()[-1])
        except subprocess.TimeoutExpired:
            result = {"error": f"timed out after {args.timeout:.0f} s"}
        stored["cases"][name] = {"run": run_id, "result": result}
        stored["runs"][run_id] = {
            **info,
            "load_before": load_before,
            "load_after": load_average(),
            "command": "python benchmarks/run.py" + (f" --only {args.only}" if args.only else ""),
        }
        live = {c["run"] for c in stored["cases"].values()}
        stored["runs"] = {k: v for k, v in stored["runs"].items() if k in live}
        RESULTS_JSON.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")


def stored_rows(stored: dict[str, Any]) -> tuple[dict[str, str], list[tuple[str, dict[str, Any]]]]:
    """The machine of the latest run, and the stored cases in the suite's order."""
    runs = stored["runs"]
    info = runs[max(runs)] if runs else {}
    rows = [(name, stored["cases"][name]["result"]) for name in CASES if name in stored["cases"]]
    return info, rows


def run_lines(stored: dict[str, Any]) -> list[str]:
    return [
        f"{i + 1}. {run['date']}, commit `{run['commit']}`, load average (1 min) before / "
        f"after {run['load_before']} / {run['load_after']} on {run['cores']} cores: "
        f"`{run['command']}`"
        for i, (_, run) in enumerate(sorted(stored["runs"].items()))
    ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", default="", help="run only cases whose name contains this")
    parser.add_argument("--case", help=argparse.SUPPRESS)  # internal: run one case, print JSON
    parser.add_argument(
        "--markdown", action="store_true", help="rewrite --output from the stored results only"
    )
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--output", type=Path, default=ROOT / "benchmarks" / "RESULTS.md")
    parser.add_argument(
        "--open-boards-only",
        action="store_true",
        help="rewrite only the open-boards table of --output from the stored records "
        "(after a new attempt or frontier run), keeping the measured cases as they are",
    )
    args = parser.parse_args()
    if args.open_boards_only:
        rewrite_open_boards(args.output)
        return
    if args.case:
        print(json.dumps(run_one(args.case)))
        return
    stored = load_results()
    if not args.markdown:
        measure(args, stored)
    info, rows = stored_rows(stored)
    if not rows:
        raise SystemExit(f"no stored results in {RESULTS_JSON.relative_to(ROOT)}: run the suite")
    lines = [
        "# Benchmark results",
        "",
        f"Machine: {info['cpu']}, {info['cores']} cores, {info['memory']}; {info['system']}; "
        f"Python {info['python']}.",
        "",
        f"<!-- generated by benchmarks/run.py from {RESULTS_JSON.relative_to(ROOT)} -->",
        "",
        "Each case runs in a fresh process; `rate` is positions (retrograde) or nodes (search) "
        "per second; compile times are reported as separate cases. The run column names the "
        "run that measured the case:",
        "",
        *run_lines(stored),
        "",
        "| case | result | positions / nodes | time (s) | rate (/s) | peak RSS (MiB) | run | note |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    run_number = {run_id: i + 1 for i, run_id in enumerate(sorted(stored["runs"]))}
    for name, r in rows:
        number = run_number[stored["cases"][name]["run"]]
        if "error" in r:
            lines.append(f"| {name} | error: {r['error']} | | | | | {number} | |")
            continue
        lines.append(
            f"| {name} | {r.get('result', '')} | {r.get('positions', 0):,} | "
            f"{r['seconds']:.3f} | {r.get('rate', 0):,.0f} | {r['max_rss_mib']:.0f} | "
            f"{number} | {r.get('note', '')} |"
        )
    lines += comparison_table(rows)
    extra = [r for _, r in rows if "open" in r]
    if extra:
        lines += ["", "## Bounded attempts in this run", ""] + [f"- {r['open']}" for r in extra]
    lines += open_boards_table()
    from open_boards import frontier_table  # beside this file

    lines += ["", *frontier_table()]
    args.output.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
