"""The compiled Control kernel against its targets (issue 15), the current tree beside a
baseline commit measured in the same run; writes ``benchmarks/control_kernel.json`` and
``benchmarks/CONTROL_KERNEL.md`` (generated, never edited by hand).

    python benchmarks/control_kernel.py                 # baseline: BASELINE_COMMIT
    python benchmarks/control_kernel.py --baseline REV --repeats 3

Workloads (value mode, ``control=adjacent``, every one the same for both trees):

* ``size3``: solve Control size 3 from the empty board, every one of the 12 perimeter
  openings solved as its own root, as ``cgt solve control -p size=3 --solver compiled
  --value-only`` does (target: at most 55,000 nodes);
* ``size4_rate``: the first 20 million nodes of the search of size 4 after the opening a1
  (the ``control size 4 after a1/compiled, first 20 M nodes`` row of benchmarks/run.py;
  target: at least 9 million nodes per second of process time);
* ``size4_solves``: six positions 13 plies after a1 (random play, seed 3) solved to the end,
  each with a fresh table: the time a real solve takes, which the node rate alone does not
  show once the search spends work per node to visit fewer nodes.

What a node is (both trees): one visit of a position by the search, that is one call of the
compiled ``search`` entered, plus one for each child whose table entry settles it without a
call (the kernel probes a child's entry before calling the search on it, and counts such a
child as the call it replaces). ``calls`` counts the calls alone (nodes minus children
settled by their entry), where the kernel reports it.

Speeds are process time (``time.process_time``): the machine is shared, and wall time is
reported beside it with the load average. Each tree runs in its own process (the baseline
from ``git archive`` in a temporary directory, its numba cache compiled there once), the
two trees alternately, ``--repeats`` times; the tables report the median and the best.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The kernel before the issue-15 work (main at the time), measured beside the current tree.
BASELINE_COMMIT = "c8f2486"
RATE_NODES = 20_000_000
SIZE3_TARGET_NODES = 55_000
RATE_TARGET = 9_000_000
SOLVE_PLIES = 13
SOLVE_POSITIONS = 6
SOLVE_SEED = 3
JSON_PATH = ROOT / "benchmarks" / "control_kernel.json"
MARKDOWN_PATH = ROOT / "benchmarks" / "CONTROL_KERNEL.md"


# ------------------------------------------------------------ measurement (one process)
def measure() -> dict[str, Any]:
    """The three workloads on the tree first on ``sys.path`` (this process's kernel)."""
    from baseline_trees import random_positions, settled, timed  # beside this file

    from cgt.games.control import Control
    from solvers.kernel_table import INFINITY, NO_NODE_LIMIT, S_NODE_LIMIT, S_NODES
    from solvers.kernels import control as module

    compile_seconds = module.warm_up()
    out: dict[str, Any] = {"compile_seconds": round(compile_seconds, 2), "kernel": module.__file__}

    game3 = Control(size=3)
    kernel3 = module.ControlKernel(game3)
    result, cpu, wall = timed(
        lambda: kernel3.solve(game3.initial_position(), principal_variation=False)
    )
    nodes = result.extra["nodes"]
    settled_children = settled(kernel3, module)
    out["size3"] = {
        "nodes": nodes,
        "calls": None if settled_children is None else nodes - settled_children,
        "openings": len(result.moves),
        "winner": result.winner,
        "opening_outcomes": sorted({m.outcome.label for m in result.moves}),
        "cpu_seconds": round(cpu, 4),
        "wall_seconds": round(wall, 4),
    }

    game4 = Control(size=4)
    root = game4.initial_position()
    after_a1 = game4.play(root, game4.parse_move(root, "a1"))
    kernel4 = module.ControlKernel(game4, tt_entries=1 << 22)
    kernel4.ctl[S_NODE_LIMIT] = RATE_NODES
    _, cpu, wall = timed(lambda: kernel4._search(after_a1, -INFINITY, INFINITY))
    nodes = int(kernel4.ctl[S_NODES])
    settled_children = settled(kernel4, module)
    out["size4_rate"] = {
        "nodes": nodes,
        "calls": None if settled_children is None else nodes - settled_children,
        "cpu_seconds": round(cpu, 3),
        "wall_seconds": round(wall, 3),
        "rate_cpu": round(nodes / cpu),
        "rate_wall": round(nodes / wall),
    }

    positions = random_positions(game4, after_a1, SOLVE_PLIES, SOLVE_POSITIONS, SOLVE_SEED)
    values, total_nodes, total_cpu, total_wall = [], 0, 0.0, 0.0
    for position in positions:
        kernel = module.ControlKernel(game4, tt_entries=1 << 22)
        kernel.ctl[S_NODE_LIMIT] = NO_NODE_LIMIT
        value, cpu, wall = timed(lambda k=kernel, p=position: k._search(p, -INFINITY, INFINITY))
        values.append(int(value))
        total_nodes += int(kernel.ctl[S_NODES])
        total_cpu += cpu
        total_wall += wall
    out["size4_solves"] = {
        "positions": [game4.render(p) for p in positions],
        "values": values,
        "nodes": total_nodes,
        "cpu_seconds": round(total_cpu, 3),
        "wall_seconds": round(total_wall, 3),
    }
    return out


# ------------------------------------------------------------ driver
def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians and bests over the repeats (node counts are the same in every repeat)."""
    rates = [r["size4_rate"]["rate_cpu"] for r in runs]
    solve_cpu = [r["size4_solves"]["cpu_seconds"] for r in runs]
    first = runs[0]
    return {
        "size3_nodes": first["size3"]["nodes"],
        "size3_calls": first["size3"]["calls"],
        "size3_winner": first["size3"]["winner"],
        "size4_rate_cpu_median": round(statistics.median(rates)),
        "size4_rate_cpu_best": max(rates),
        "size4_rate_wall_median": round(
            statistics.median(r["size4_rate"]["rate_wall"] for r in runs)
        ),
        "size4_rate_calls": first["size4_rate"]["calls"],
        "size4_solves_nodes": first["size4_solves"]["nodes"],
        "size4_solves_values": first["size4_solves"]["values"],
        "size4_solves_cpu_median": round(statistics.median(solve_cpu), 3),
        "size4_solves_cpu_best": min(solve_cpu),
    }


def _count(value: int | None) -> str:
    return "not counted" if value is None else f"{value:,}"


def markdown(report: dict[str, Any]) -> str:
    from baseline_trees import load_range  # beside this file

    cur, base = report["current"]["summary"], report["baseline"]["summary"]
    agree = cur["size4_solves_values"] == base["size4_solves_values"]
    size3_met = cur["size3_nodes"] <= SIZE3_TARGET_NODES
    rate_met = cur["size4_rate_cpu_median"] >= RATE_TARGET
    speedup = base["size4_solves_cpu_median"] / cur["size4_solves_cpu_median"]
    m = report["machine"]
    lines = [
        "# Compiled Control kernel: targets of issue 15",
        "",
        f"Generated by `{report['command']}` on {report['date']}, commit "
        f"`{report['commit']}` (baseline: commit `{report['baseline']['commit']}`), "
        f"{m['cpu']}, {m['cores']} cores, Python {m['python']}. Load average (1 min) before "
        f"the runs: {load_range(report)} on {m['cores']} cores (the machine was shared: "
        "speeds are process time, wall time beside). "
        f"{report['repeats']} runs of each tree, alternately; median (best).",
        "",
        "A node is one visit of a position: one call of the compiled search entered, plus "
        "one for each child settled by its table entry without a call; `calls` counts the "
        "calls alone.",
        "",
        "| workload | baseline | current | target | met? |",
        "|---|---:|---:|---:|---|",
        f"| size 3, all 12 openings: nodes | {base['size3_nodes']:,} | {cur['size3_nodes']:,} | "
        f"<= {SIZE3_TARGET_NODES:,} | {'yes' if size3_met else 'no'} |",
        f"| size 3, all 12 openings: calls | {_count(base['size3_calls'])} | "
        f"{_count(cur['size3_calls'])} | | |",
        f"| size 4 after a1, first 20 M nodes: nodes/s of process time | "
        f"{base['size4_rate_cpu_median'] / 1e6:.2f} M ({base['size4_rate_cpu_best'] / 1e6:.2f} M) | "
        f"{cur['size4_rate_cpu_median'] / 1e6:.2f} M ({cur['size4_rate_cpu_best'] / 1e6:.2f} M) | "
        f">= {RATE_TARGET / 1e6:.0f} M | {'yes' if rate_met else 'no'} |",
        f"| same, nodes/s of wall time | {base['size4_rate_wall_median'] / 1e6:.2f} M | "
        f"{cur['size4_rate_wall_median'] / 1e6:.2f} M | | |",
        f"| same, calls among the 20 M nodes | {_count(base['size4_rate_calls'])} | "
        f"{_count(cur['size4_rate_calls'])} | | |",
        f"| size 4, {SOLVE_POSITIONS} positions {SOLVE_PLIES} plies after a1 solved: nodes | "
        f"{base['size4_solves_nodes']:,} | {cur['size4_solves_nodes']:,} | | |",
        f"| same, process seconds | {base['size4_solves_cpu_median']:.2f} "
        f"({base['size4_solves_cpu_best']:.2f}) | {cur['size4_solves_cpu_median']:.2f} "
        f"({cur['size4_solves_cpu_best']:.2f}) | | {speedup:.2f}x faster |",
        "",
        f"Size 3: {cur['size3_winner']} player wins (baseline: {base['size3_winner']}). The "
        f"{SOLVE_POSITIONS} size-4 solves give the same values in both trees: "
        f"{'yes' if agree else 'NO'} ({cur['size4_solves_values']}).",
        "",
    ]
    return "\n".join(lines)


def _complete(report: dict[str, Any]) -> None:
    report["targets"] = {"size3_nodes": SIZE3_TARGET_NODES, "size4_rate_cpu": RATE_TARGET}
    for name in ("current", "baseline"):
        report[name]["summary"] = _summary(report[name]["runs"])


def main() -> None:
    from baseline_trees import kernel_main  # beside this file

    kernel_main(
        sys.modules[__name__],
        lambda args: measure(),
        repeats=2,
        show="size4_rate",
        complete=_complete,
    )


if __name__ == "__main__":
    main()
