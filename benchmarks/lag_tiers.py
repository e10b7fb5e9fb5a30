"""LAG endgame databases by piece-count tiers (solvers.kernels.lag_tiers): time, memory and
positions per tier, the start's value against the alpha-beta kernel, and what probing the
tables changes in the kernel's search. Writes ``benchmarks/lag_tiers.json`` (every case run
so far, each with its machine, date, commit and command) and regenerates
``benchmarks/LAG_TIERS.md`` from it.

    nice python benchmarks/lag_tiers.py size3 --goal standard   # one goal, every tier (7+7)
    nice python benchmarks/lag_tiers.py size3 --goal far-row --goal-check mover
    nice python benchmarks/lag_tiers.py size4 --total 6         # size 4, tiers w + b <= 6
    python benchmarks/lag_tiers.py markdown                      # regenerate the Markdown

Each case runs in its own process, so ``peak RSS`` is the case's own.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

RESULTS_JSON = ROOT / "benchmarks" / "lag_tiers.json"
RESULTS_MD = ROOT / "benchmarks" / "LAG_TIERS.md"


def stderr_progress(event: dict[str, Any]) -> None:
    if "solved" in str(event.get("phase", "")):
        print(
            f"  {event['phase']}: {event['positions']:,} positions in {event['seconds']} s "
            f"(largest remoteness {event['max_remoteness']})",
            file=sys.stderr,
            flush=True,
        )


def peak_rss_mib() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def provenance(command: str) -> dict[str, Any]:
    from run import load_average, machine

    return {**machine(), "load_average": load_average(), "command": command}


def solve_and_measure(tables: Any) -> dict[str, Any]:
    """Solve every tier of ``tables``: per-tier statistics, time, memory."""
    started = time.perf_counter()
    cpu_before = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    stats = tables.solve_tiers(progress=stderr_progress)
    seconds = time.perf_counter() - started
    cpu_seconds = resource.getrusage(resource.RUSAGE_SELF).ru_utime - cpu_before
    return {
        "tiers": [dict(s) for s in stats.values()],
        # with colour symmetry only the tiers with w >= b are kept (and solved)
        "colour_symmetry": bool(tables.flip_cell.size),
        "positions": tables.positions,
        "seconds": round(seconds, 1),
        # the machine is shared: the CPU time says what the solve itself cost
        "cpu_seconds": round(cpu_seconds, 1),
        "positions_per_second": round(tables.positions / seconds),
        "table_bytes": tables.bytes,
        "peak_rss_mib": peak_rss_mib(),
    }


def kernel_value(game: Any, remoteness: bool, max_seconds: float) -> dict[str, Any]:
    """The alpha-beta kernel's answer for the start (value of every opening too)."""
    from solvers.kernel_base import SearchBudgetExceeded
    from solvers.kernels.lag import solve_lag

    try:
        result = solve_lag(
            game, remoteness=remoteness, principal_variation=False, max_seconds=max_seconds
        )
    except SearchBudgetExceeded as stopped:
        return {"finished": False, "seconds": round(stopped.seconds, 1), "nodes": stopped.nodes}
    return {
        "finished": True,
        "outcome": result.outcome.label,
        "remoteness": result.remoteness,
        "winning_openings": sorted(m.name for m in result.moves if m.outcome.label == "win"),
        "seconds": round(result.seconds, 2),
        "nodes": result.extra["nodes"],
    }


def size3_case(goal: str, goal_check: str, kernel_seconds: float) -> dict[str, Any]:
    from cgt.games.lag import Lag
    from solvers.kernels.lag_tiers import LagTiers, tiers_below

    game = Lag(size=3, goal=goal, goal_check=goal_check)
    start = game.initial_position()
    tables = LagTiers(game, tiers_below(start[0].bit_count(), start[1].bit_count()))
    solved = solve_and_measure(tables)
    outcome, remoteness = tables.value(start)
    openings = tables.move_values(start)
    return {
        "board": "size 3, standard setup (7 pieces each)",
        "goal": goal,
        "goal_check": goal_check,
        **solved,
        "start": {
            "outcome": outcome.label,
            "winner": "White" if outcome.label == "win" else "Black",
            "remoteness": remoteness,
            "winning_openings": sorted(m.name for m in openings if m.outcome.label == "win"),
        },
        "kernel_value_mode": kernel_value(game, False, kernel_seconds),
        "kernel_remoteness_mode": kernel_value(game, True, kernel_seconds),
    }


#: Size-4 starts searched with and without probing the tables: the standard setup, and
#: back rows only, whose games reach the small tiers after fewer captures (one capture from
#: 4 against 3 reaches a tier of w + b <= 6).
PROBE_STARTS = (
    ("the standard setup (9 against 9)", None),
    ("the back rows only (4 against 4)", "BBBB/...../....../......./....../...../WWWW W"),
    (
        "four White against three Black on the back rows",
        "BBB./...../....../......./....../...../WWWW W",
    ),
)


def probe_runs(game: Any, tables: Any, seconds: float) -> list[dict[str, Any]]:
    """The alpha-beta kernel (value mode) on ``game``'s start within ``seconds``, without
    and with probing ``tables``: result, nodes, positions the tables answered, time."""
    from solvers.budget import SearchBudgetExceeded
    from solvers.kernel_table import S_NODES
    from solvers.kernels.lag import LagKernel, warm_up

    warm_up()
    runs = []
    for mode, tiers in (("plain", None), ("probing the tables", tables)):
        kernel = LagKernel(game, remoteness=False, tt_entries=1 << 22, tiers=tiers)
        kernel.set_budget(max_seconds=seconds)
        try:
            outcome, _ = kernel.value(game.initial_position())
            result = f"{'White' if outcome.label == 'win' else 'Black'} wins"
        except SearchBudgetExceeded:
            result = f"not solved in {seconds:g} s"
        runs.append(
            {
                "mode": mode,
                "result": result,
                "nodes": kernel.stat(S_NODES),
                "db_hits": kernel.tier_hits,
                "seconds": round(kernel.elapsed(), 2),
            }
        )
    return runs


def size4_case(goal: str, total: int, probe_seconds: float) -> dict[str, Any]:
    from cgt.games.lag import Lag
    from solvers.kernels.lag_tiers import LagTiers, tiers_up_to

    game = Lag(size=4, goal=goal)
    pieces = game.initial_position()[0].bit_count()
    tables = LagTiers(game, tiers_up_to(total, pieces, pieces))
    solved = solve_and_measure(tables)
    probing = []
    for description, setup in PROBE_STARTS:
        start_game = Lag(size=4, goal=goal, setup=setup) if setup else game
        probing.append(
            {
                "description": f"{description}, {probe_seconds:g} s each",
                "setup": setup,
                "runs": probe_runs(start_game, tables, probe_seconds),
            }
        )
    return {
        "board": "size 4",
        "goal": goal,
        "total": total,
        **solved,
        "probing": probing,
    }


def tier_table(tiers: list[dict[str, Any]]) -> list[str]:
    """Markdown rows of the per-tier statistics."""
    lines = [
        "| tier (W+B) | positions | wins (to move) | losses | largest remoteness | time (s) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for t in tiers:
        lines.append(
            f"| {t['tier'][0]}+{t['tier'][1]} | {t['positions']:,} | {t['wins']:,} | "
            f"{t['losses']:,} | {t['max_remoteness']} | {t['seconds']} |"
        )
    return lines


def markdown(results: dict[str, Any]) -> str:
    lines = [
        "# LAG endgame databases by piece-count tiers",
        "",
        "Generated by `benchmarks/lag_tiers.py` from `benchmarks/lag_tiers.json`; every case "
        "was run in its own process with the command shown. The solver is "
        "`solvers/kernels/lag_tiers.py`: the engine's ranked retrograde over every position "
        "of every tier (White pieces, Black pieces), lower tiers first, each position evaluated from "
        "all of its children (fastest win, slowest loss). The alpha-beta kernel's answer is "
        "the second road. `(w >= b)`: only the tiers with at least as many White as Black "
        "pieces are kept and solved; the others are their colour-swapped images (the board "
        "turned upside down), read through that symmetry.",
        "",
    ]
    size3 = [r for key, r in sorted(results.items()) if key.startswith("size3")]
    if size3:
        lines += [
            "## Size 3 from the standard setup, every tier up to 7 + 7",
            "",
            "| goal | goal_check | winner | remoteness | winning openings | kernel (value mode) "
            "| kernel remoteness | positions solved | time (s) | CPU (s) | positions/s | table "
            "| peak RSS (MiB) | date, commit, load |",
            "|---|---|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|---|",
        ]
        for r in size3:
            kv, kr = r["kernel_value_mode"], r["kernel_remoteness_mode"]
            kernel = (
                f"{'White' if kv['outcome'] == 'win' else 'Black'}, "
                f"{' '.join(kv['winning_openings']) or 'none'} ({kv['seconds']} s)"
                if kv["finished"]
                else f"not finished in {kv['seconds']} s"
            )
            kernel_rem = (
                f"{kr['remoteness']} ({kr['seconds']} s)"
                if kr["finished"]
                else f"not finished in {kr['seconds']} s"
            )
            start = r["start"]
            p = r["provenance"]
            lines.append(
                f"| {r['goal']} | {r['goal_check']} | {start['winner']} | {start['remoteness']} "
                f"| {' '.join(start['winning_openings']) or 'none'} | {kernel} | {kernel_rem} "
                f"| {r['positions']:,}{' (w >= b)' if r.get('colour_symmetry') else ''} "
                f"| {r['seconds']} | {r.get('cpu_seconds', '-')} | {r['positions_per_second']:,} "
                f"| {r['table_bytes'] / 2**30:.2f} GiB | {r['peak_rss_mib']:,.0f} "
                f"| {p['date']}, `{p['commit']}`, load {p['load_average']} |"
            )
        lines += ["", "Commands:", ""]
        lines += [f"- `{r['provenance']['command']}`" for r in size3]
        first = size3[0]
        lines += [
            "",
            f"Positions and time per tier (goal `{first['goal']}`, goal_check "
            f"`{first['goal_check']}`):",
            "",
        ]
        lines += tier_table(first["tiers"])
    size4 = [r for key, r in sorted(results.items()) if key.startswith("size4")]
    for r in size4:
        p = r["provenance"]
        lines += [
            "",
            f"## Size 4 endgame tables, every tier with w + b <= {r['total']} (goal {r['goal']})",
            "",
            f"{r['positions']:,} positions, {r['seconds']} s ({r.get('cpu_seconds', '-')} s CPU) "
            f"({r['positions_per_second']:,} positions/s), table {r['table_bytes'] / 2**20:,.0f} "
            f"MiB, peak RSS {r['peak_rss_mib']:,.0f} MiB. {p['date']}, `{p['commit']}`, load "
            f"{p['load_average']}; `{p['command']}`.",
            "",
        ]
        lines += tier_table(r["tiers"])
        for probe in r.get("probing", []):
            lines += [
                "",
                f"Probing from the alpha-beta kernel, {probe['description']}:",
                "",
                "| search | result | nodes | table probes answered | time (s) |",
                "|---|---|---:|---:|---:|",
            ]
            for row in probe["runs"]:
                lines.append(
                    f"| {row['mode']} | {row['result']} | {row['nodes']:,} | "
                    f"{row.get('db_hits', 0):,} | {row['seconds']} |"
                )
    from ranked_retrograde import old_against_new_section

    lines += old_against_new_section("lag")
    return "\n".join(lines) + "\n"


def save(key: str, result: dict[str, Any]) -> None:
    results = json.loads(RESULTS_JSON.read_text()) if RESULTS_JSON.exists() else {}
    results[key] = result
    RESULTS_JSON.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    RESULTS_MD.write_text(markdown(results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", choices=["size3", "size4", "markdown"])
    parser.add_argument("--goal", default="standard")
    parser.add_argument("--goal-check", default="both")
    parser.add_argument("--total", type=int, default=6, help="size 4: tiers with w + b <= this")
    parser.add_argument(
        "--kernel-seconds", type=float, default=120.0, help="budget of each kernel comparison"
    )
    parser.add_argument("--probe-seconds", type=float, default=60.0)
    args = parser.parse_args()
    command = "python benchmarks/lag_tiers.py " + " ".join(sys.argv[1:])
    if args.case == "markdown":
        results = json.loads(RESULTS_JSON.read_text())
        RESULTS_MD.write_text(markdown(results))
        return
    if args.case == "size3":
        result = size3_case(args.goal, args.goal_check, args.kernel_seconds)
        key = f"size3-{args.goal}-{args.goal_check}"
    else:
        result = size4_case(args.goal, args.total, args.probe_seconds)
        key = f"size4-{args.goal}-{args.total}"
    result["provenance"] = provenance(command)
    save(key, result)
    print(json.dumps(result.get("start", {})), file=sys.stderr)


if __name__ == "__main__":
    main()
