"""Super Nonnect's alpha-beta on the engine (issue 24) beside the hand-built kernel it
replaced, both measured in the same run; writes ``benchmarks/super_nonnect_kernel.json`` and
``benchmarks/SUPER_NONNECT_KERNEL.md`` (generated, never edited by hand).

    python benchmarks/super_nonnect_kernel.py              # baseline: BASELINE_COMMIT
    python benchmarks/super_nonnect_kernel.py --baseline REV --repeats 1
    python benchmarks/super_nonnect_kernel.py --markdown   # the page again from the JSON

The baseline is the tree before the port (its own alpha-beta in
``solvers/kernels/super_nonnect.py``), extracted with ``git archive`` and run in its own
process (:mod:`baseline_trees`); the current tree runs the engine
(:mod:`solvers.engine`) on the plug-in. Both are driven through the same
``SuperNonnectKernel`` constructor and options.

Workloads (alpha-beta, every one the same for both trees, each from a fresh kernel with a
table of TT_ENTRIES slots):

* ``small``: the boards that solve fully in seconds (2x3 under both rules, hex7 under both
  rules), the root and every first move each solved as its own root, as ``cgt solve
  super-nonnect ... --solver compiled --value-only`` does, in value mode (``small``) and in
  remoteness mode (``small_remoteness``, exact distances): nodes, process seconds, the winner
  and the winning first moves, checked against the stored results of
  ``reports/data/super-nonnect-shapes.json`` (exact remoteness, written by ``cgt report
  super-nonnect``); 2x3 original solved once untimed first, in each mode;
* ``dfpn_cases``: the two 3x3 revised positions of benchmarks/DFPN.md (one seeded random
  game, 8 and 6 cuts in), each capped at DFPN_CASE_NODES nodes ("open" when the cap ends it);
* ``random`` and ``second_set``: seeded random 3x3 revised positions (RANDOM_SET, SECOND_SET:
  how many, cuts in, seed), each solved to the end with a fresh table (the values must agree
  between trees);
* ``rate``: the first RATE_NODES nodes of 3x3 revised from the start.

``variants`` (current tree only): the same small boards and first random set with one option
changed at a time, the evidence for the defaults; and the diagnosis of the +8 position
(where alpha-beta loses to df-pn).

What a node is (both trees): one visit of a position, plus one for each child whose table
entry settles it without a visit (both searches probe a child's entry before visiting it).
Speeds are process time (``time.process_time``); the machine is shared, wall time and the
load average are recorded beside it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The hand-built kernel (main before the port to the engine), measured beside the current tree.
BASELINE_COMMIT = "3a2a2e2"
TT_ENTRIES = 1 << 22
SMALL_BOARDS: list[tuple[str, dict[str, Any]]] = [
    ("2x3 original", {"a": 2, "b": 3, "rule": "original"}),
    ("2x3 revised", {"a": 2, "b": 3, "rule": "revised"}),
    ("hex7 original", {"shape": "hex7", "rule": "original"}),
    ("hex7 revised", {"shape": "hex7", "rule": "revised"}),
]
DFPN_CASE_NODES = 10_000_000
DFPN_CASE_CUTS = (8, 6)
DFPN_CASE_SEED = 2
#: Random 3x3 revised positions: (how many, cuts in, seed).
RANDOM_SET = (8, 16, 5)
SECOND_SET = (30, 18, 7)
RATE_NODES = 10_000_000
#: The diagnosis of the +8 position (current tree): its horizon passes up to this many
#: nodes in all, and each child solved by alpha-beta (capped) and by df-pn.
PASSES_NODES = 20_000_000
CHILD_NODES = 3_000_000
#: Options of the current kernel measured one at a time against its defaults.
VARIANTS: dict[str, dict[str, Any]] = {
    "no ETC": {"etc": False},
    "no history": {"history": False},
    "symmetry: none": {"symmetry_cuts": -1},
    "symmetry: <= 2 cuts": {"symmetry_cuts": 2},
    "symmetry: <= 8 cuts": {"symmetry_cuts": 8},
    "symmetry: every position": {"symmetry_cuts": 128},
}
STORED = ROOT / "reports" / "data" / "super-nonnect-shapes.json"
JSON_PATH = ROOT / "benchmarks" / "super_nonnect_kernel.json"
MARKDOWN_PATH = ROOT / "benchmarks" / "SUPER_NONNECT_KERNEL.md"


# ------------------------------------------------------------ measurement (one process)
def _played(game: Any, cuts: int, seed: int) -> Any:
    """The position ``cuts`` cuts into the seeded random game (benchmarks/dfpn_vs_alphabeta's
    positions: one ``random.Random(seed)``, a uniform choice among the legal cuts)."""
    from baseline_trees import random_positions  # beside this file

    return random_positions(game, game.initial_position(), cuts, 1, seed)[0]


def _small(module: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The SMALL_BOARDS solved in turn, each timed; the first solved once untimed before, so
    that its row does not carry the one-time costs of a process's first solve."""
    from baseline_trees import timed  # beside this file

    from cgt.games.super_nonnect import SuperNonnect

    out = {}
    first = SuperNonnect(**SMALL_BOARDS[0][1])
    module.SuperNonnectKernel(first, tt_entries=TT_ENTRIES, **options).solve(
        first.initial_position(), principal_variation=False
    )
    for name, params in SMALL_BOARDS:
        game = SuperNonnect(**params)
        kernel = module.SuperNonnectKernel(game, tt_entries=TT_ENTRIES, **options)
        result, cpu, wall = timed(
            lambda k=kernel, g=game: k.solve(g.initial_position(), principal_variation=False)
        )
        out[name] = {
            "nodes": result.extra["nodes"],
            "winner": result.winner,
            "winning_moves": sorted(result.best_moves),
            "cpu_seconds": round(cpu, 4),
            "wall_seconds": round(wall, 4),
        }
    return out


def _random(module: Any, options: dict[str, Any], sample: tuple[int, int, int]) -> dict[str, Any]:
    """The positions of ``sample`` (how many, cuts in, seed), each solved with a fresh table."""
    from baseline_trees import random_positions, timed  # beside this file

    from cgt.games.super_nonnect import SuperNonnect
    from solvers.kernel_table import INFINITY, S_NODES

    game = SuperNonnect(a=3, b=3, rule="revised")
    values, nodes, cpu_total, wall_total = [], 0, 0.0, 0.0
    count, cuts, seed = sample
    positions = random_positions(game, game.initial_position(), cuts, count, seed)
    for position in positions:
        kernel = module.SuperNonnectKernel(game, tt_entries=TT_ENTRIES, **options)
        value, cpu, wall = timed(lambda k=kernel, p=position: k.score(p, -INFINITY, INFINITY))
        values.append(int(value))
        nodes += int(kernel.ctl[S_NODES])
        cpu_total += cpu
        wall_total += wall
    return {
        "positions": [game.render(p) for p in positions],
        "values": values,
        "nodes": nodes,
        "cpu_seconds": round(cpu_total, 3),
        "wall_seconds": round(wall_total, 3),
    }


def _capped(kernel: Any, position: Any, nodes: int) -> tuple[Any, float, float, int]:
    """(value or "open", process seconds, wall seconds, nodes) of a search capped at
    ``nodes`` nodes."""
    from baseline_trees import timed  # beside this file

    from solvers.kernel_table import INFINITY, S_ABORTED, S_NODE_LIMIT, S_NODES

    kernel.ctl[S_NODE_LIMIT] = nodes
    value, cpu, wall = timed(lambda: kernel._search(position, -INFINITY, INFINITY))
    visited = min(int(kernel.ctl[S_NODES]), nodes)
    return ("open" if kernel.ctl[S_ABORTED] else int(value)), cpu, wall, visited


def measure() -> dict[str, Any]:
    """The workloads on the tree first on ``sys.path`` (this process's kernel)."""
    from cgt.games.super_nonnect import SuperNonnect
    from solvers.kernels import super_nonnect as module

    compile_seconds = module.warm_up()
    out: dict[str, Any] = {"compile_seconds": round(compile_seconds, 2), "kernel": module.__file__}
    out["small"] = _small(module, {})
    out["small_remoteness"] = _small(module, {"remoteness": True})

    game = SuperNonnect(a=3, b=3, rule="revised")
    cases = {}
    for cuts in DFPN_CASE_CUTS:
        position = _played(game, cuts, DFPN_CASE_SEED)
        kernel = module.SuperNonnectKernel(game, tt_entries=TT_ENTRIES)
        value, cpu, wall, nodes = _capped(kernel, position, DFPN_CASE_NODES)
        cases[f"+{cuts} random (seed {DFPN_CASE_SEED})"] = {
            "position": game.render(position),
            "value": value,
            "nodes": nodes,
            "cpu_seconds": round(cpu, 3),
            "wall_seconds": round(wall, 3),
        }
    out["dfpn_cases"] = cases
    out["random"] = _random(module, {}, RANDOM_SET)
    out["second_set"] = _random(module, {}, SECOND_SET)

    kernel = module.SuperNonnectKernel(game, tt_entries=TT_ENTRIES)
    _, cpu, wall, nodes = _capped(kernel, game.initial_position(), RATE_NODES)
    out["rate"] = {
        "nodes": nodes,
        "cpu_seconds": round(cpu, 3),
        "wall_seconds": round(wall, 3),
        "rate_cpu": round(nodes / cpu),
        "rate_wall": round(nodes / wall),
    }
    return out


def _diagnosis(module: Any) -> dict[str, Any]:
    """Where alpha-beta loses to df-pn on the +8 position: the nodes of each horizon pass of
    the engine (until PASSES_NODES in all), and each child of the position solved by
    alpha-beta (capped at CHILD_NODES) and by df-pn, each from a fresh table."""
    from cgt.games.super_nonnect import SuperNonnect
    from solvers.engine_search import S_ROOT_FLAGGED
    from solvers.kernel_table import INFINITY, S_ABORTED, S_NODE_LIMIT, S_NODES

    game = SuperNonnect(a=3, b=3, rule="revised")
    position = _played(game, DFPN_CASE_CUTS[0], DFPN_CASE_SEED)
    kernel = module.SuperNonnectKernel(game, tt_entries=TT_ENTRIES, deepening=True)
    root = kernel.check_position(position)
    kernel.ctl[S_NODE_LIMIT] = PASSES_NODES
    passes = []
    for horizon in kernel.engine.horizons():
        before = int(kernel.ctl[S_NODES])
        value = kernel.engine._call(root, -INFINITY, INFINITY, horizon)
        aborted = bool(kernel.ctl[S_ABORTED])
        unknown = bool(kernel.ctl[S_ROOT_FLAGGED])
        passes.append(
            {
                "horizon": horizon,
                "value": "open" if aborted else "unknown" if unknown else value,
                "nodes": min(int(kernel.ctl[S_NODES]), PASSES_NODES) - before,
            }
        )
        if aborted or not unknown:
            break
    children = []
    for move in game.moves(position):
        child = game.play(position, move)
        searches = {}
        for method in ("alphabeta", "dfpn"):
            kernel = module.SuperNonnectKernel(game, tt_entries=TT_ENTRIES, method=method)
            cap = CHILD_NODES if method == "alphabeta" else 1 << 40
            value, _, _, nodes = _capped(kernel, child, cap)
            searches[method] = {"value": value, "nodes": nodes}
        children.append({"move": game.move_name(position, move), **searches})
    return {"position": game.render(position), "passes": passes, "children": children}


def measure_variants() -> dict[str, Any]:
    """The current kernel with one option changed at a time (small boards, the first random
    set; the defaults first), and the diagnosis of the +8 position."""
    from solvers.kernels import super_nonnect as module

    module.warm_up()
    variants = {}
    for name, options in {"defaults": {}, **VARIANTS}.items():
        print(f"variant {name} ...", file=sys.stderr, flush=True)
        variants[name] = {
            "options": options,
            "small": _small(module, options),
            "random": _random(module, options, RANDOM_SET),
        }
    print("diagnosis ...", file=sys.stderr, flush=True)
    return {"variants": variants, "diagnosis": _diagnosis(module)}


# ------------------------------------------------------------ driver
def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Node counts (the same in every repeat) and medians of the times."""
    from baseline_trees import run_median  # beside this file

    first = runs[0]

    def median(*path: str) -> float:
        return round(run_median(runs, *path), 4)

    summary: dict[str, Any] = {}
    for table in ("small", "small_remoteness", "dfpn_cases"):
        summary[table] = {
            name: {**row, "cpu_seconds": median(table, name, "cpu_seconds")}
            for name, row in first[table].items()
        }
    for table in ("random", "second_set"):
        summary[table] = {**first[table], "cpu_seconds": median(table, "cpu_seconds")}
    summary["rate"] = {
        **first["rate"],
        "rate_cpu": round(median("rate", "rate_cpu")),
        "rate_wall": round(median("rate", "rate_wall")),
    }
    return summary


def _ratio(base: float, cur: float) -> str:
    return f"{base / cur:.2f}x" if cur else ""


def _stored() -> dict[str, Any]:
    """The stored winner, winning first moves and fastest winning first moves of each board."""
    results: dict[str, Any] = json.loads(STORED.read_text())["results"]
    stored = {}
    for name, row in results.items():
        wins = [m for m in row["moves"] if m["outcome"] == "win"]
        fastest = min((m["remoteness"] for m in wins), default=None)
        stored[name] = {
            "winner": row["winner"],
            "winning_moves": sorted(m["move"] for m in wins),
            "fastest_moves": sorted(m["move"] for m in wins if m["remoteness"] == fastest),
        }
    return stored


def _case_cell(row: dict[str, Any]) -> str:
    if row["value"] == "open":
        return f"open after {row['nodes']:,} nodes, {row['cpu_seconds']:.1f} s"
    outcome = "win" if row["value"] > 0 else "loss"
    return f"{outcome}: {row['nodes']:,} nodes, {row['cpu_seconds']:.2f} s"


def _board_lines(
    cur: dict[str, Any], base: dict[str, Any], stored: dict[str, Any], moves: str
) -> list[str]:
    """The boards' table; ``moves``: the stored moves the solves' best moves must equal
    (``winning_moves`` in value mode, ``fastest_moves`` in remoteness mode)."""
    lines = [
        "| board | kernel nodes | engine nodes | kernel s | engine s | engine speed | winner, "
        "best first moves | = stored? |",
        "|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for name, row in cur.items():
        old = base[name]
        same = (
            row["winner"] == old["winner"] == stored[name]["winner"]
            and row["winning_moves"] == old["winning_moves"] == stored[name][moves]
        )
        lines.append(
            f"| {name} | {old['nodes']:,} | {row['nodes']:,} | {old['cpu_seconds']:.3f} | "
            f"{row['cpu_seconds']:.3f} | {_ratio(old['cpu_seconds'], row['cpu_seconds'])} | "
            f"{row['winner']}, {len(row['winning_moves'])} moves | {'yes' if same else 'NO'} |"
        )
    total = {
        t: {k: sum(r[k] for r in rows.values()) for k in ("nodes", "cpu_seconds")}
        for t, rows in (("cur", cur), ("base", base))
    }
    lines.append(
        f"| all four | {total['base']['nodes']:,} | {total['cur']['nodes']:,} | "
        f"{total['base']['cpu_seconds']:.3f} | {total['cur']['cpu_seconds']:.3f} | "
        f"{_ratio(total['base']['cpu_seconds'], total['cur']['cpu_seconds'])} | | |"
    )
    return lines


def _random_lines(title: str, rnd: dict[str, Any], old: dict[str, Any]) -> list[str]:
    same = rnd["values"] == old["values"]
    return [
        f"## {title}, solved to the end",
        "",
        "| | kernel | engine | engine against kernel |",
        "|---|---:|---:|---|",
        f"| nodes | {old['nodes']:,} | {rnd['nodes']:,} | "
        f"{_ratio(old['nodes'], rnd['nodes'])} fewer |",
        f"| process seconds | {old['cpu_seconds']:.2f} | {rnd['cpu_seconds']:.2f} | "
        f"{_ratio(old['cpu_seconds'], rnd['cpu_seconds'])} faster |",
        "",
        f"Same values in both trees: {'yes' if same else 'NO'} ({rnd['values']}).",
        "",
    ]


def _set_title(sample: tuple[int, int, int]) -> str:
    count, cuts, seed = sample
    return f"{count} random 3x3 revised positions {cuts} cuts in (seed {seed})"


def markdown(report: dict[str, Any]) -> str:
    from baseline_trees import load_range  # beside this file

    cur, base = report["current"]["summary"], report["baseline"]["summary"]
    stored = _stored()
    m = report["machine"]
    lines = [
        "# Super Nonnect on the engine (issue 24): the hand-built kernel against the engine",
        "",
        "<!-- generated by benchmarks/super_nonnect_kernel.py from "
        "benchmarks/super_nonnect_kernel.json; do not edit -->",
        "",
        f"Generated by `{report['command']}` on {report['date']}, commit "
        f"`{report['commit']}` (kernel: commit `{report['baseline']['commit']}`, the "
        "hand-built alpha-beta of `solvers/kernels/super_nonnect.py` before the port; engine: "
        "`solvers/engine.py` on the plug-in), "
        f"{m['cpu']}, {m['cores']} cores, Python {m['python']}. Load average (1 min) before "
        f"the runs: {load_range(report)} on {m['cores']} cores (the machine was shared: "
        "times are process seconds). "
        f"{report['repeats']} run(s) of each tree, alternately, each in its own process; "
        f"times are medians. Alpha-beta, a fresh table of {TT_ENTRIES:,} slots for every solve.",
        "",
        "A node is one visit of a position, plus one for each child settled by its table entry "
        "without a visit (both searches probe a child's entry first).",
        "",
        "## Boards that solve fully (root and every first move), value mode",
        "",
        *_board_lines(cur["small"], base["small"], stored, "winning_moves"),
        "",
        "`= stored?`: the winner and the set of winning first moves are the same in both "
        "trees and in `reports/data/super-nonnect-shapes.json` (exact remoteness, "
        "`cgt report super-nonnect`). Each process solves 2x3 original once untimed before "
        "these rows (and again before the remoteness rows), so that no row holds the one-time "
        "costs of a first solve.",
        "",
        "## The same boards in remoteness mode (exact distances)",
        "",
        *_board_lines(cur["small_remoteness"], base["small_remoteness"], stored, "fastest_moves"),
        "",
        "Best first moves here are the fastest wins; `= stored?` compares them with the "
        "stored moves of least remoteness.",
        "",
        "## The 3x3 revised positions of benchmarks/DFPN.md",
        "",
        f"Capped at {DFPN_CASE_NODES:,} nodes (df-pn, for comparison, proves the +8 position "
        "a loss in about 1.08 M nodes; the +6 position is open for both searches there).",
        "",
        "| position | kernel | engine |",
        "|---|---|---|",
    ]
    for name, row in cur["dfpn_cases"].items():
        old = base["dfpn_cases"][name]
        lines.append(f"| {name} `{row['position']}` | {_case_cell(old)} | {_case_cell(row)} |")
    lines.append("")
    lines += _random_lines(_set_title(RANDOM_SET), cur["random"], base["random"])
    lines += _random_lines(_set_title(SECOND_SET), cur["second_set"], base["second_set"])
    lines += [
        f"## Node rate: the first {RATE_NODES // 1_000_000} M nodes of 3x3 revised from the start",
        "",
        "| | kernel | engine |",
        "|---|---:|---:|",
        f"| nodes/s of process time | {base['rate']['rate_cpu'] / 1e6:.3f} M | "
        f"{cur['rate']['rate_cpu'] / 1e6:.3f} M |",
        "",
    ]
    lines += _variant_lines(report["current_tree"]["variants"], stored)
    lines += _diagnosis_lines(report["current_tree"]["diagnosis"]) + KEPT + [""]
    return "\n".join(lines)


def _variant_lines(variants: dict[str, Any], stored: dict[str, Any]) -> list[str]:
    same = all(
        v["random"]["values"] == variants["defaults"]["random"]["values"]
        and all(v["small"][n]["winning_moves"] == stored[n]["winning_moves"] for n in v["small"])
        for v in variants.values()
    )
    lines = [
        "## One option at a time (engine)",
        "",
        "Nodes (process seconds) of the engine with one option of `SuperNonnectKernel` "
        "changed against its defaults: the small boards above in value mode (all four "
        f"together) and the {_set_title(RANDOM_SET)}. Values are the same in every variant: "
        + ("yes" if same else "NO")
        + ".",
        "",
        "| variant | options | small boards | random positions |",
        "|---|---|---:|---:|",
    ]
    for name, v in variants.items():
        small_nodes = sum(r["nodes"] for r in v["small"].values())
        small_cpu = sum(r["cpu_seconds"] for r in v["small"].values())
        lines.append(
            f"| {name} | `{json.dumps(v['options'])}` | {small_nodes:,} ({small_cpu:.2f} s) "
            f"| {v['random']['nodes']:,} ({v['random']['cpu_seconds']:.2f} s) |"
        )
    return [*lines, ""]


def _diagnosis_lines(diagnosis: dict[str, Any]) -> list[str]:
    def cell(row: dict[str, Any]) -> str:
        if row["value"] == "open":
            return f"open after {row['nodes']:,}"
        return f"{'win' if row['value'] > 0 else 'loss'}, {row['nodes']:,}"

    passes = diagnosis["passes"]
    return [
        "## Where alpha-beta loses to df-pn: the +8 position",
        "",
        f"`{diagnosis['position']}`. The engine's horizon passes (`deepening=True`): the "
        "nodes of each pass, a pass stopping the given number of cuts below the position "
        f"(unknown: nothing proven within it), until {PASSES_NODES:,} nodes in all:",
        "",
        "| horizon (cuts) | " + " | ".join(str(p["horizon"]) for p in passes) + " |",
        "|---|" + "---:|" * len(passes),
        "| nodes | " + " | ".join(f"{p['nodes']:,}" for p in passes) + " |",
        "| value | " + " | ".join(str(p["value"]) for p in passes) + " |",
        "",
        "Each child of the position (the opponent to move), from a fresh table: alpha-beta "
        f"on the engine (value for the player to move there, nodes; capped at {CHILD_NODES:,}) "
        "against df-pn:",
        "",
        "| child | alpha-beta | df-pn |",
        "|---|---:|---:|",
        *(
            f"| {child['move']} | {cell(child['alphabeta'])} | {cell(child['dfpn'])} |"
            for child in diagnosis["children"]
        ),
        "",
    ]


#: What the port kept and why (read with the tables above; the numbers are in them).
KEPT = [
    "## What the port kept, and why",
    "",
    "* **The rules on bitboards stay** (`solvers/kernels/super_nonnect.py`): the move "
    "generator with the ring lookup before a flood, the designated mini-board, "
    "the revised rule and the symmetry tables; the plug-in's `order` counts the replies "
    "each cut leaves (mobility ordering) and names a cut leaving none, a win at once; "
    "`key` is the canonical image for positions with few cuts (`DEFAULT_SYMMETRY_CUTS`).",
    "* **One change to the rules' code, the flood** (`_joined`): where the ring lookup "
    "does not settle a cut, the kernel flooded the whole board from one cell and compared "
    "it with the uncut cells; the plug-in floods from each uncut neighbour of the cut, a "
    "step of each in turn, and stops when the floods have met (the board stays connected) "
    "or one has run out of cells (the cut splits it). The same moves (the node counts of "
    "the search are those of the old flood). The whole-board flood was the largest single "
    "cost in a profile of the engine before the change (the kernel's generator, the same "
    "code), and most of the engine's lead in the tables above is this "
    "change: with the whole-board flood the engine's search measured about level with the "
    "kernel's (the commit that made the change gives the numbers).",
    "* **The search is the engine's**: table move first, mobility then history, children's "
    "keys computed and their buckets prefetched before the replies are counted, children "
    "settled by their entries, ETC. History counts are kept per player to move in partizan "
    "games and once for both players in impartial ones (Super Nonnect: both players have "
    "the same cuts), as the kernel kept them.",
    "* **`deepening`** maps onto the engine's horizon passes (one cut deeper each pass). "
    "The engine stores nothing a horizon decided, where the kernel kept each pass's "
    "unknown bounds for the next pass; the option stays off by default.",
    '* **df-pn** (`method="dfpn"`) is the engine\'s proof-number search '
    "(`solvers/engine_dfpn.py`) on the same plug-in, with weak proof numbers.",
]


def _complete(report: dict[str, Any]) -> None:
    from baseline_trees import run_tree  # beside this file

    for name in ("current", "baseline"):
        report[name]["summary"] = _summary(report[name]["runs"])
    print("variants of the current tree ...", file=sys.stderr, flush=True)
    report["current_tree"] = run_tree(Path(__file__), ROOT, ["--variants"])


def main() -> None:
    from baseline_trees import kernel_main, kernel_parser  # beside this file

    parser = kernel_parser(__doc__, BASELINE_COMMIT, 1)
    parser.add_argument("--variants", action="store_true", help=argparse.SUPPRESS)
    kernel_main(
        sys.modules[__name__],
        lambda args: measure_variants() if args.variants else measure(),
        show="rate",
        complete=_complete,
        parser=parser,
    )


if __name__ == "__main__":
    main()
