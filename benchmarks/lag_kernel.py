"""The compiled LAG kernel, the current tree beside a baseline commit measured in the same
run (issue 15's review of the alpha-beta search, issue 24's object count); writes
``benchmarks/lag_kernel.json`` and ``benchmarks/LAG_KERNEL.md`` (generated, never edited by
hand: ``--markdown`` regenerates the page from the JSON alone).

    python benchmarks/lag_kernel.py                 # baseline: BASELINE_COMMIT
    python benchmarks/lag_kernel.py --baseline REV --repeats 2
    python benchmarks/lag_kernel.py --markdown      # the page again from the JSON

Workloads (value mode, every one the same for both trees, table of ``TT_ENTRIES`` slots):

* ``size3``: size 3 from the standard setup under each goal, every opening solved as its own
  root (``kernel.solve``, as ``cgt solve lag -p size=3 --solver compiled --value-only``):
  nodes, calls, process seconds, the winner and the winning openings (which must equal
  benchmarks/LAG_TIERS.md, the retrograde tier tables' answer: :data:`EXPECTED_SIZE3`);
* ``dfpn_positions``: the two size-4 positions of benchmarks/DFPN.md, each searched once with
  a fresh table within a budget of ``POSITION_BUDGET`` nodes ("open" when it runs out);
* ``size4_solves``: for each (plies, seed) of ``SOLVE_SETS``, ``SOLVE_POSITIONS`` random
  size-4 positions that many plies after the setup, each solved to the end with a fresh
  table; the values must agree;
* ``size4_rate``: the first 20 million nodes of size 4 from the setup (in the current tree
  also with iterative deepening off: the node rate of the search proper);
* ``perft``: move sequences of ``PERFT`` plies from the setup (the last ply counted in bulk),
  the move generator alone, where the object count after each move decides the sideways
  moves and the merge bonus;
* ``variants`` (current tree only): the kept choices against their alternatives
  (deepening schedules, ETC off, symmetry off) on size 3 ``far-row-one-object`` and
  ``strict``, the ``size4_solves`` positions and the short win of DFPN.md.

A node is one visit of a position: one call of the compiled ``search`` entered, plus one for
each child whose table entry settles it without a call (counted as the call it replaces);
``calls`` counts the calls alone (nodes minus ``S_SETTLED``) where the kernel reports it.
Speeds are process time (``time.process_time``), the machine being shared.
"""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: LAG's hand-built kernel with its own alpha-beta loop (and issue 24's object count), the
#: last commit before its search moved onto the engine, measured beside the current tree,
#: and what the page calls each.
BASELINE_COMMIT = "2065c93"
BASELINE_WHAT = "LAG's hand-built kernel with its own alpha-beta search"
CURRENT_WHAT = "LAG's rules as a plug-in of the engine (solvers/engine.py)"
TT_ENTRIES = 1 << 22
GOALS = ("standard", "strict", "far-row-one-object", "far-row")
#: Winner and winning openings of size 3 by goal (benchmarks/LAG_TIERS.md, by the tier
#: tables' retrograde analysis: an independent road).
EXPECTED_SIZE3 = {
    "standard": ("first", ["d1-c2", "d4-c4"]),
    "strict": ("first", ["d1-c1", "d4-c5"]),
    "far-row-one-object": ("first", ["d2-c3", "d3-c3"]),
    "far-row": ("second", []),
}
#: The size-4 positions of benchmarks/DFPN.md (df-pn: a win in 17 nodes; open).
DFPN_POSITIONS = {
    "lag-4 standard +14 random (seed 1)": "BB.B/..B../..BWB./.B.B.../WB..WW/..WWW/.W.. W",
    "lag-4 standard +13 random (seed 1) (hard)": "BB.B/..BB./..BWB./.B...../WB..WW/..WWW/.W.. B",
}
POSITION_BUDGET = 100_000_000
RATE_NODES = 20_000_000
#: Perft from the setup: (board size, plies).
PERFT = ((3, 8), (4, 7))
#: Random size-4 positions solved to the end: (plies after the setup, seed), 8 of each.
SOLVE_SETS = ((24, 5), (23, 6))
SOLVE_POSITIONS = 8
JSON_PATH = ROOT / "benchmarks" / "lag_kernel.json"
MARKDOWN_PATH = ROOT / "benchmarks" / "LAG_KERNEL.md"


# ------------------------------------------------------------ measurement (one process)
def _table() -> Any:
    """The transposition table's module: solvers.kernel_table, solvers.kernels.table in
    trees from before the engine."""
    try:
        return importlib.import_module("solvers.kernel_table")
    except ModuleNotFoundError:
        return importlib.import_module("solvers.kernels.table")


def _calls(kernel: Any, module: Any, nodes: int) -> int | None:
    """The nodes that were calls of the search, not children settled by their entry (the
    engine's count, or the hand-built kernel's at the same index)."""
    try:
        index = importlib.import_module("solvers.engine_search").S_SETTLED
    except ModuleNotFoundError:
        index = module.S_SETTLED
    return nodes - int(kernel.ctl[index])


def _search(module: Any, game: Any, position: Any, budget: int, **options: Any) -> dict[str, Any]:
    """One search of ``position`` with a fresh table within ``budget`` nodes."""
    table = _table()
    kernel = module.LagKernel(game, tt_entries=TT_ENTRIES, **options)
    kernel.ctl[table.S_NODE_LIMIT] = budget
    cpu = time.process_time()
    value = int(kernel._search(position, -table.INFINITY, table.INFINITY))
    seconds = time.process_time() - cpu
    nodes = int(kernel.ctl[table.S_NODES])
    return {
        "value": "open" if kernel.ctl[table.S_ABORTED] else value,
        "nodes": nodes,
        "calls": _calls(kernel, module, nodes),
        "cpu_seconds": round(seconds, 3),
    }


def _size3(module: Any, goal: str, **options: Any) -> dict[str, Any]:
    from cgt.games.lag import Lag

    game = Lag(size=3, goal=goal)
    kernel = module.LagKernel(game, tt_entries=TT_ENTRIES, **options)
    cpu, wall = time.process_time(), time.perf_counter()
    result = kernel.solve(game.initial_position(), principal_variation=False)
    nodes = result.extra["nodes"]
    return {
        "nodes": nodes,
        "calls": _calls(kernel, module, nodes),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "wall_seconds": round(time.perf_counter() - wall, 3),
        "winner": result.winner,
        "winning_openings": [m.name for m in result.moves if m.outcome.label == "win"],
    }


def _solves(module: Any, game: Any, positions: list[Any], **options: Any) -> dict[str, Any]:
    runs = [_search(module, game, p, _table().NO_NODE_LIMIT, **options) for p in positions]
    return {
        "values": [r["value"] for r in runs],
        "nodes": sum(r["nodes"] for r in runs),
        "cpu_seconds": round(sum(r["cpu_seconds"] for r in runs), 3),
    }


#: The alternatives to the kept choices (current tree only): name -> LagKernel options.
VARIANTS = {
    "kept (deepening 2, 4, ... up to 8 plies on size 3, 16 on size 4, then unbounded; ETC; "
    "mirror at every piece count)": {},
    "no iterative deepening": {"deepening": None},
    "deepening up to 8 plies": {"deepening": (2, 2, 8)},
    "deepening up to 16 plies": {"deepening": (2, 2, 16)},
    "ETC off": {"etc": False},
    "mirror symmetry off": {"symmetry": False},
    "mirror only up to 10 pieces": {"symmetry_pieces": 10},
}


def _perft(module: Any, size: int, plies: int) -> dict[str, Any]:
    from cgt.games.lag import Lag

    game = Lag(size=size)
    kernel = module.LagKernel(game, tt_entries=2)
    cpu = time.process_time()
    leaves = kernel.perft(game.initial_position(), plies)
    seconds = time.process_time() - cpu
    return {"leaves": leaves, "cpu_seconds": round(seconds, 3), "rate_cpu": round(leaves / seconds)}


def measure(current: bool) -> dict[str, Any]:
    """The workloads on the tree first on ``sys.path`` (this process's kernel); the
    ``current`` tree's also without deepening and with the variants."""
    from baseline_trees import random_positions  # beside this file

    from cgt.games.lag import Lag
    from solvers.kernels import lag as module

    compile_seconds = module.warm_up()
    out: dict[str, Any] = {"compile_seconds": round(compile_seconds, 2), "kernel": module.__file__}
    out["perft"] = {
        f"size {size}, {plies} plies": _perft(module, size, plies) for size, plies in PERFT
    }
    out["size3"] = {goal: _size3(module, goal) for goal in GOALS}
    game4 = Lag(size=4)
    out["dfpn_positions"] = {
        name: _search(module, game4, game4.parse(text), POSITION_BUDGET)
        for name, text in DFPN_POSITIONS.items()
    }
    sets = {
        f"{plies} plies, seed {seed}": random_positions(
            game4, game4.initial_position(), plies, SOLVE_POSITIONS, seed
        )
        for plies, seed in SOLVE_SETS
    }
    out["size4_solves"] = {
        name: {
            "positions": [game4.render(p) for p in positions],
            **_solves(module, game4, positions),
        }
        for name, positions in sets.items()
    }
    rates = {"default": {}} if not current else {"default": {}, "no deepening": {"deepening": None}}
    out["size4_rate"] = {}
    for name, options in rates.items():
        run = _search(module, game4, game4.initial_position(), RATE_NODES, **options)
        run["rate_cpu"] = round(run["nodes"] / run["cpu_seconds"])
        out["size4_rate"][name] = run
    if current:
        short = game4.parse(DFPN_POSITIONS["lag-4 standard +14 random (seed 1)"])
        out["variants"] = {
            name: {
                "size3_far_row_one_object": _size3(module, "far-row-one-object", **options),
                "size3_strict": _size3(module, "strict", **options),
                "size4_solves": {
                    set_name: _solves(module, game4, positions, **options)
                    for set_name, positions in sets.items()
                },
                "short_win": _search(module, game4, short, POSITION_BUDGET, **options),
            }
            for name, options in VARIANTS.items()
        }
    return out


# ------------------------------------------------------------ the page
def _median(runs: list[dict[str, Any]], *path: str) -> float:
    from baseline_trees import run_median  # beside this file

    return float(run_median(runs, *path))


def _count(value: int | None) -> str:
    return "not counted" if value is None else f"{value:,}"


def _ratio(before: float, after: float) -> str:
    if after == 0:
        return "-"
    return f"{before / after:.2f}x"


def _rate(nodes: int, seconds: float) -> str:
    return "-" if seconds == 0 else f"{nodes / seconds / 1e6:.2f} M"


def _value(value: Any) -> str:
    return {1: "win", -1: "loss"}.get(value, str(value))


def markdown(report: dict[str, Any]) -> str:
    from baseline_trees import load_range  # beside this file

    cur_runs, base_runs = report["current"]["runs"], report["baseline"]["runs"]
    cur, base = cur_runs[0], base_runs[0]  # node counts and values: the same in every run
    m = report["machine"]
    lines = [
        "# Compiled LAG kernel: the current tree against a baseline, in one run",
        "",
        f"Generated by `{report['command']}` on {report['date']}, commit "
        f"`{report['commit']}` ({report['current'].get('what', 'current')}; baseline: commit "
        f"`{report['baseline']['commit']}`, {report['baseline']['what']}), {m['cpu']}, "
        f"{m['cores']} cores, Python "
        f"{m['python']}. Load "
        f"average (1 min) before the runs: {load_range(report)} (the machine was shared: "
        f"times are process seconds). {report['repeats']} run(s) of each tree, alternately; "
        f"times are medians. Table: {TT_ENTRIES:,} slots, fresh for every workload.",
        "",
        "A node is one visit of a position: one call of the compiled search entered, plus one "
        "for each child settled by its table entry without a call; `calls` counts the calls "
        "alone.",
        "",
        "## Move generation: perft from the setup",
        "",
        "Move sequences of a fixed length (the last ply counted in bulk, so this is the move "
        "generator at every position one ply short), process seconds.",
        "",
        "| board | leaves (both trees) | baseline s | current s | baseline leaves/s | "
        "current leaves/s | faster |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, c in cur["perft"].items():
        same = "" if c["leaves"] == base["perft"][name]["leaves"] else " (baseline differs!)"
        bs, cs = (_median(runs, "perft", name, "cpu_seconds") for runs in (base_runs, cur_runs))
        brate, crate = (_median(runs, "perft", name, "rate_cpu") for runs in (base_runs, cur_runs))
        lines.append(
            f"| {name} | {c['leaves']:,}{same} | {bs:.3f} | {cs:.3f} | {brate / 1e6:.1f} M | "
            f"{crate / 1e6:.1f} M | {_ratio(crate, brate)} |"
        )
    lines += [
        "",
        "## Size 3 from the standard setup, every opening (value mode)",
        "",
        "| goal | baseline nodes | current nodes | current calls | baseline s | current s | "
        "baseline nodes/s | current nodes/s | time | winner, winning openings (both trees) | "
        "= LAG_TIERS.md? |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for goal in GOALS:
        c, b = cur["size3"][goal], base["size3"][goal]
        cs = _median(cur_runs, "size3", goal, "cpu_seconds")
        bs = _median(base_runs, "size3", goal, "cpu_seconds")
        answer = (c["winner"], c["winning_openings"])
        same = answer == (b["winner"], b["winning_openings"])
        expected = EXPECTED_SIZE3[goal] == answer and same
        lines.append(
            f"| {goal} | {b['nodes']:,} | {c['nodes']:,} | {_count(c['calls'])} | {bs:.2f} | "
            f"{cs:.2f} | {_rate(b['nodes'], bs)} | {_rate(c['nodes'], cs)} | "
            f"{_ratio(bs, cs)} faster | {c['winner']}: "
            f"{' '.join(c['winning_openings']) or 'none'}{'' if same else ' (baseline differs!)'} "
            f"| {'yes' if expected else 'NO'} |"
        )
    lines += [
        "",
        f"## The size-4 positions of DFPN.md (budget {POSITION_BUDGET:,} nodes)",
        "",
        "| position | baseline | current |",
        "|---|---|---|",
    ]
    for name, text in DFPN_POSITIONS.items():
        cells = []
        for runs in (base_runs, cur_runs):
            r = runs[0]["dfpn_positions"][name]
            seconds = _median(runs, "dfpn_positions", name, "cpu_seconds")
            state = "open after" if r["value"] == "open" else f"{_value(r['value'])} in"
            cells.append(f"{state} {r['nodes']:,} nodes, {seconds:.2f} s")
        lines.append(f"| {name} `{text}` | {cells[0]} | {cells[1]} |")
    lines += [
        "",
        f"## Random size-4 positions after the setup ({SOLVE_POSITIONS} a set), solved with "
        "fresh tables",
        "",
        "| set | baseline nodes | current nodes | fewer | baseline s | current s | faster | "
        "same values? |",
        "|---|---:|---:|---|---:|---:|---|---|",
    ]
    for name in cur["size4_solves"]:
        cs, bs = cur["size4_solves"][name], base["size4_solves"][name]
        cur_solve = _median(cur_runs, "size4_solves", name, "cpu_seconds")
        base_solve = _median(base_runs, "size4_solves", name, "cpu_seconds")
        values = ", ".join(_value(v) for v in cs["values"])
        lines.append(
            f"| {name} | {bs['nodes']:,} | {cs['nodes']:,} | {_ratio(bs['nodes'], cs['nodes'])} "
            f"| {base_solve:.2f} | {cur_solve:.2f} | {_ratio(base_solve, cur_solve)} | "
            f"{'yes' if cs['values'] == bs['values'] else 'NO'} ({values}) |"
        )
    lines += [
        "",
        f"## Node rate: the first {RATE_NODES // 1_000_000} M nodes of size 4 from the setup",
        "",
        "| tree | process s | nodes/s (process time) | calls among the nodes |",
        "|---|---:|---:|---:|",
    ]
    for tree, runs in (("baseline", base_runs), ("current", cur_runs)):
        for name in runs[0]["size4_rate"]:
            rate = _median(runs, "size4_rate", name, "rate_cpu")
            seconds = _median(runs, "size4_rate", name, "cpu_seconds")
            calls = runs[0]["size4_rate"][name]["calls"]
            lines.append(
                f"| {tree} ({name}) | {seconds:.2f} | {rate / 1e6:.2f} M | {_count(calls)} |"
            )
    lines += [
        "",
        "The current tree's default includes the deepening passes before the unbounded "
        "search; the row without deepening is the search proper, to compare with the "
        "baseline's.",
        "",
        "## What was kept, against the alternatives (current tree)",
        "",
        "Nodes, process seconds.",
        "",
        "| variant | size 3 far-row-one-object | size 3 strict | "
        + " | ".join(f"size 4, {name}" for name in cur["size4_solves"])
        + " | short win (DFPN.md +14) |",
        "|---|" + "---:|" * (3 + len(cur["size4_solves"])),
    ]
    for name in cur["variants"]:
        v = cur["variants"][name]
        cells = []
        for goal in ("size3_far_row_one_object", "size3_strict"):
            seconds = _median(cur_runs, "variants", name, goal, "cpu_seconds")
            cells.append(f"{v[goal]['nodes']:,}, {seconds:.2f}")
        for set_name in cur["size4_solves"]:
            seconds = _median(cur_runs, "variants", name, "size4_solves", set_name, "cpu_seconds")
            cells.append(f"{v['size4_solves'][set_name]['nodes']:,}, {seconds:.2f}")
        short = v["short_win"]
        cells.append(
            f"open after {short['nodes']:,}"
            if short["value"] == "open"
            else f"{_value(short['value'])} in {short['nodes']:,}"
        )
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", *KEPT, ""]
    return "\n".join(lines)


#: Why each choice was kept (the measurements are the tables above and the commit messages).
KEPT = [
    "Kept, and why (the tables above are the measurements):",
    "",
    "- Iterative deepening in value mode, passes with ply bounds 2, 4, 6, ..., then one "
    "unbounded search: it proves the short win of DFPN.md at once, where the plain search "
    "dives into the first move's subtree. The last bound is by board size: 8 on size 3, "
    "where every opening needs the full depth and deeper passes cost more than they save "
    '(rows "deepening up to 8/16 plies", size 3 columns), 16 on size 4, where the '
    "deeper passes find the random positions' wins and losses with fewer nodes (size 4 "
    "columns).",
    '- Enhanced transposition cut-off: compare the row "ETC off".',
    "- History credited at every cut-off by the work it took (not one by a child merely "
    "unknown within a pass's bound).",
    '- The mirror key at every piece count: compare the rows "mirror symmetry off" and '
    '"mirror only up to 10 pieces".',
]


def main() -> None:
    from baseline_trees import kernel_main  # beside this file

    kernel_main(
        sys.modules[__name__],
        lambda args: measure(Path(args.measure).resolve() == ROOT),
        described=(BASELINE_WHAT, CURRENT_WHAT),
    )


if __name__ == "__main__":
    main()
