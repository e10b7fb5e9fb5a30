"""Depth-first proof-number search against alpha-beta, on the same positions, same kernels.

    python benchmarks/dfpn_vs_alphabeta.py                   # every case (some 30 minutes)
    python benchmarks/dfpn_vs_alphabeta.py --only lag-3      # the cases whose name has lag-3
    python benchmarks/dfpn_vs_alphabeta.py --markdown-only   # rewrite the table from the JSON
    python benchmarks/dfpn_vs_alphabeta.py --engine          # the engine's df-pn against the kernels'

For every case (a game and a position, picked reproducibly: fixed positions or seeded random
playouts) both searches of the game's compiled kernel (``method="alphabeta"`` in value mode
and ``method="dfpn"``) compute the value of the position for the player to move, each from
a fresh kernel with a table of the same capacity. Each run records the nodes, the process
CPU time (the machine is shared: CPU time is what the search itself cost), the wall time and
the load average before and after; a run stopped by ``--max-seconds`` is recorded as open,
with the nodes it had searched. A case whose two values differ is an error (exit 1).

``--engine`` measures instead, on the same cases, each kernel's own df-pn against the engine's
(``solvers.engine.EngineKernel(method="dfpn")`` on whatever plug-in
``solvers.kernels.PLAYOUTS[game](game)`` returns at the time of the run, with its defaults),
one run each in the same process, into the JSON's ``engine_cases``. Every kernel's df-pn is
the engine's now (Control 70e2584, Super Nonnect d714c18, LAG d54fb44), so a new run of
``--engine`` compares the engine with itself; the stored runs measured the kernels' own.

Results go to ``benchmarks/dfpn_vs_alphabeta.json`` (each case with the date, commit,
machine and command of the run that measured it: running a subset updates those cases only)
and the Markdown table ``benchmarks/DFPN.md`` is generated from that file alone, the same
bytes every time for the same JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
JSON_PATH = ROOT / "benchmarks" / "dfpn_vs_alphabeta.json"
MARKDOWN_PATH = ROOT / "benchmarks" / "DFPN.md"
METHODS = ("alphabeta", "dfpn")
#: Table slots of every run (2^22 slots: 128 MiB), the kernels' default.
TT_ENTRIES = 1 << 22
DEFAULT_MAX_SECONDS = 150.0


@dataclass(frozen=True)
class Case:
    """A position to evaluate: ``moves`` played from the start (move names), then
    ``playout`` seeded random moves (``seed``)."""

    name: str
    game: str
    params: tuple[tuple[str, Any], ...]
    moves: tuple[str, ...] = ()
    playout: int = 0
    seed: int = 0
    hard: bool = False


def _control3_cases() -> list[Case]:
    from cgt.games.control import Control

    game = Control(size=3)
    root = game.initial_position()
    openings = [game.move_name(root, m) for m in game.moves(root)]
    size3 = (("size", 3),)
    return [Case("control-3 root", "control", size3)] + [
        Case(f"control-3 after {name}", "control", size3, (name,)) for name in openings
    ]


def cases() -> list[Case]:
    size4 = (("size", 4),)
    result = _control3_cases()
    # size 4: one seeded random playout after a1, the positions 14 and 13 plies in, and 12
    # plies in as the hard case (alpha-beta: 31 million nodes at 14 plies, over 190 million
    # at 12)
    for plies in (14, 13, 12):
        result.append(
            Case(
                f"control-4 a1 +{plies - 1} random (seed 4)",
                "control",
                size4,
                ("a1",),
                plies - 1,
                4,
                hard=plies == 12,
            )
        )
    for goal in ("standard", "strict", "far-row-one-object", "far-row"):
        result.append(Case(f"lag-3 {goal}", "lag", (("size", 3), ("goal", goal))))
    for plies in (14, 13):  # one seeded random game of size 4; 13 plies in: the hard case
        name = f"lag-4 standard +{plies} random (seed 1)"
        result.append(Case(name, "lag", (("size", 4),), (), plies, 1, plies == 13))
    for seed in (2, 3):  # size 4 positions df-pn proves in a second (a loss, then a win)
        name = f"lag-4 standard +15 random (seed {seed})"
        result.append(Case(name, "lag", (("size", 4),), (), 15, seed))
    for rule in ("original", "revised"):
        params = (("a", 2), ("b", 3), ("rule", rule))
        result.append(Case(f"super-nonnect-2x3 {rule}", "super-nonnect", params))
    result.append(
        Case(
            "super-nonnect-hex7 revised", "super-nonnect", (("shape", "hex7"), ("rule", "revised"))
        )
    )
    for cuts in (8, 6):  # one seeded random game of 3x3 revised; 6 cuts in: the hard case
        name = f"super-nonnect-3x3 revised +{cuts} random (seed 2)"
        params = (("a", 3), ("b", 3), ("rule", "revised"))
        result.append(Case(name, "super-nonnect", params, (), cuts, 2, cuts == 6))
    return result


def position_of(case: Case) -> tuple[Any, Any]:
    """(game, position) of a case."""
    from cgt.registry import load_game

    game = load_game(case.game, **dict(case.params))
    position = game.initial_position()
    for name in case.moves:
        by_name = {game.move_name(position, m): m for m in game.moves(position)}
        position = game.play(position, by_name[name])
    rng = random.Random(case.seed)
    for _ in range(case.playout):
        moves = game.moves(position)
        if not moves:
            raise SystemExit(f"{case.name}: the playout ends before its last move")
        position = game.play(position, rng.choice(moves))
    if not game.moves(position):
        raise SystemExit(f"{case.name}: the position is already over")
    return game, position


def kernel_for(game: Any, method: str) -> Any:
    from solvers.kernels.control import ControlKernel
    from solvers.kernels.control import warm_up as control_warm_up
    from solvers.kernels.lag import LagKernel
    from solvers.kernels.lag import warm_up as lag_warm_up
    from solvers.kernels.super_nonnect import SuperNonnectKernel
    from solvers.kernels.super_nonnect import warm_up as nonnect_warm_up

    kernels = {
        "control": (ControlKernel, control_warm_up),
        "lag": (LagKernel, lag_warm_up),
        "super-nonnect": (SuperNonnectKernel, nonnect_warm_up),
    }
    kernel_class, warm_up = kernels[game.name]
    warm_up()  # compile (or load) before the clock starts
    return kernel_class(game, tt_entries=TT_ENTRIES, method=method)


#: The engine comparison's two runs: the kernel's own df-pn, the engine's.
ENGINE_RUNS = ("kernel", "engine")


def engine_kernel_for(game: Any, position: Any) -> Any:
    """The engine's df-pn on the game's plug-in, compiled (or loaded) before the clock."""
    from solvers.engine import EngineKernel
    from solvers.kernels import PLAYOUTS

    rules = PLAYOUTS[game.name](game)
    EngineKernel(rules, method="dfpn", tt_entries=64).bounded_score(position, -2, 2, 1)
    return EngineKernel(rules, method="dfpn", tt_entries=TT_ENTRIES)


def plugin_of(kernel: Any) -> dict[str, Any]:
    """What the engine's plug-in gave: its optional hooks, and df-pn's settings from it."""
    from solvers.engine_build import CHILD_KEY, OPTIONAL_HOOKS

    rules = kernel.rules
    return {
        "hooks": [h for h in (*OPTIONAL_HOOKS, CHILD_KEY) if getattr(rules, h) is not None],
        "first_numbers": kernel.first_numbers,
        "weak": kernel.weak,
    }


def measure(game: Any, position: Any, method: str, max_seconds: float) -> dict[str, Any]:
    """One search of ``position``'s value: nodes, CPU and wall seconds, load average
    (``method``: a kernel's method, or "engine" for the engine's df-pn)."""
    from solvers.budget import SearchBudgetExceeded
    from solvers.kernel_table import S_NODES

    if method == "engine":
        kernel = engine_kernel_for(game, position)
    else:
        kernel = kernel_for(game, method)
    load_before = os.getloadavg()[0]
    kernel.set_budget(max_seconds)
    cpu = time.process_time()
    wall = time.perf_counter()
    try:
        outcome = kernel.value(position)[0].label
    except SearchBudgetExceeded:
        outcome = "open"
    record = {
        "outcome": outcome,
        "nodes": int(kernel.stat(S_NODES)),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "wall_seconds": round(time.perf_counter() - wall, 3),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    if method == "engine":
        record["plugin"] = plugin_of(kernel)
    del kernel
    gc.collect()  # the next run's table replaces this one's
    return record


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        dirty = subprocess.run(
            # the files this script writes do not count as changes to the code measured
            [
                "git",
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                ".",
                f":!{JSON_PATH.relative_to(ROOT)}",
                f":!{MARKDOWN_PATH.relative_to(ROOT)}",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return out.stdout.strip() + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


# ------------------------------------------------------------------------- Markdown
def _number(value: int) -> str:
    return f"{value:,}"


def _run_cell(run: dict[str, Any]) -> str:
    nodes = _number(run["nodes"])
    if run["outcome"] == "open":
        return f"open after {nodes} nodes, {run['cpu_seconds']:.1f} s"
    return f"{nodes} nodes, {run['cpu_seconds']:.2f} s"


def _ratio(ab: dict[str, Any], pn: dict[str, Any]) -> str:
    """The first run's nodes over the second's (> 1: the second searched fewer), and the
    same for CPU time; a bound when a run is open."""
    if ab["outcome"] == "open" and pn["outcome"] == "open":
        return "both open"
    parts = []
    for key, label in (("nodes", "nodes"), ("cpu_seconds", "time")):
        a = max(ab[key], 1e-9)
        b = max(pn[key], 1e-9)
        bound = ">" if ab["outcome"] == "open" else "<" if pn["outcome"] == "open" else ""
        parts.append(f"{label} {bound}{a / b:.2g}x")
    return ", ".join(parts)


def markdown(data: dict[str, Any]) -> str:
    """The Markdown report, a function of the JSON alone."""
    lines = [
        "# Proof-number search against alpha-beta",
        "",
        "<!-- generated by benchmarks/dfpn_vs_alphabeta.py from benchmarks/dfpn_vs_alphabeta.json;"
        " do not edit -->",
        "",
        "Both searches of each game's compiled kernel on the same positions, each from a fresh "
        f"kernel with a table of {_number(data['tt_entries'])} slots: alpha-beta in value mode "
        "(`method=alphabeta`, the kernels' default ordering) and depth-first proof-number "
        "search (`method=dfpn`: transposition table, enhanced transposition cutoff, "
        "children initialised to (1, replies), the 1 + epsilon trick, replacement of the "
        "least-work entry; weak proof numbers in Super Nonnect). Times are process CPU "
        "seconds (the machine is shared; the JSON also has wall time and the load average "
        "before and after each run). A run stopped by the time cap is *open*.",
        "",
        "Nodes are counted as each search counts them: alpha-beta counts a child settled by "
        "its table entry without a call as a node, df-pn counts calls only (the children it "
        "looks up or whose replies it counts before descending are not nodes), so df-pn's "
        "per-node cost is higher.",
        "",
        "| case | position | value (player to move) | alpha-beta | df-pn | alpha-beta / df-pn |",
        "|---|---|---|---|---|---|",
    ]
    lines += _rows(
        data["cases"],
        lambda case, name, value, runs: (
            f"| {name} | `{case['position']}` | {value} | {_run_cell(runs['alphabeta'])} | "
            f"{_run_cell(runs['dfpn'])} | {_ratio(runs['alphabeta'], runs['dfpn'])} |"
        ),
    )
    if data.get("engine_cases"):
        lines += engine_section(data)
    return "\n".join(lines)


def _rows(cases: list[dict[str, Any]], row: Callable[..., str]) -> list[str]:
    """A table's rows, ``row(case, name, value, runs)`` each, and the runs that measured
    them."""
    lines = []
    runs_info = set()
    for case in cases:
        runs = case["runs"]
        values = {r["outcome"] for r in runs.values() if r["outcome"] != "open"}
        value = values.pop() if len(values) == 1 else ("open" if not values else "DISAGREE")
        name = case["name"] + (" (hard)" if case.get("hard") else "")
        lines.append(row(case, name, value, runs))
        run = case["run"]
        runs_info.add(
            (run["date"], run["commit"], run["machine"], run["command"], run["max_seconds"])
        )
    lines += ["", "Measured by:", ""]
    for date, revision, host, command, cap in sorted(runs_info):
        lines.append(f"- {date}, commit `{revision}`, {host}, cap {cap:g} s: `{command}`")
    lines.append("")
    return lines


def _plugin_cell(plugin: dict[str, Any]) -> str:
    hooks = ", ".join(plugin["hooks"]) or "none"
    weak = ", weak" if plugin["weak"] else ""
    return f"{hooks}; first numbers: {plugin['first_numbers']}{weak}"


def engine_section(data: dict[str, Any]) -> list[str]:
    """The engine's df-pn against each kernel's own, a function of the JSON alone."""
    lines = [
        "## The engine's df-pn against the kernels' own",
        "",
        "The same cases, each kernel's own df-pn (`method=dfpn` of its kernel class) against "
        'the engine\'s (`solvers.engine.EngineKernel(method="dfpn")`, one template '
        "compiled per plug-in: `solvers/engine_dfpn.py`), one run each in the same process, "
        "tables of the same capacity. The engine runs on whatever plug-in "
        "`solvers.kernels.PLAYOUTS[game](game)` returned at the commit of the run; the "
        "plug-in column lists the optional hooks it gave (`key`: the plug-in's own table "
        "key, with or without symmetry as the plug-in defines it; `order`: hints, taken as "
        "reply counts), how a new child started (replies: played and its moves generated; "
        "hint: the `order` hint) and whether the plug-in asked for weak proof numbers. The "
        "kernels' df-pn key positions by their canonical image under the board's symmetries "
        "(Control up to 6 pieces, LAG its mirror image and Super Nonnect its images, up to "
        "the kernels' default piece or cut counts) and Super "
        "Nonnect's uses weak proof numbers: a plug-in without these searches more nodes. Both "
        "count calls as nodes, and both pay their rules' cost per node (the engine: the "
        "plug-in's `generate` and `play`). Process CPU seconds from one run each; a run "
        "stopped by the time cap (wall clock, on a shared machine) is *open*.",
        "",
        "| case | value | kernel df-pn | engine df-pn | engine's plug-in | kernel / engine |",
        "|---|---|---|---|---|---|",
    ]
    return lines + _rows(
        data["engine_cases"],
        lambda case, name, value, runs: (
            f"| {name} | {value} | {_run_cell(runs['kernel'])} | {_run_cell(runs['engine'])} "
            f"| {_plugin_cell(runs['engine']['plugin'])} | "
            f"{_ratio(runs['kernel'], runs['engine'])} |"
        ),
    )


def load() -> dict[str, Any]:
    if JSON_PATH.exists():
        data: dict[str, Any] = json.loads(JSON_PATH.read_text())
        return data
    return {"tt_entries": TT_ENTRIES, "cases": []}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], help="cases whose name has this")
    parser.add_argument("--max-seconds", type=float, default=DEFAULT_MAX_SECONDS)
    parser.add_argument("--markdown-only", action="store_true")
    parser.add_argument(
        "--engine", action="store_true", help="the engine's df-pn against the kernels' own"
    )
    args = parser.parse_args(argv)
    data = load()
    if not args.markdown_only:
        run_info = {
            "date": time.strftime("%Y-%m-%d", time.gmtime()),
            "commit": commit(),
            "machine": machine(),
            "command": " ".join(
                [
                    "python benchmarks/dfpn_vs_alphabeta.py",
                    *(argv if argv is not None else sys.argv[1:]),
                ]
            ),
            "max_seconds": args.max_seconds,
        }
        order = [c.name for c in cases()]
        section = "engine_cases" if args.engine else "cases"
        methods = ENGINE_RUNS if args.engine else METHODS
        stored = {c["name"]: c for c in data.get(section, [])}
        failed = False
        for case in cases():
            if args.only and not any(part in case.name for part in args.only):
                continue
            game, position = position_of(case)
            runs = {}
            for method in methods:
                kernel_method = "dfpn" if method == "kernel" else method
                runs[method] = measure(game, position, kernel_method, args.max_seconds)
                print(f"{case.name} {method}: {runs[method]}", file=sys.stderr, flush=True)
            outcomes = {r["outcome"] for r in runs.values()} - {"open"}
            if len(outcomes) > 1:
                print(f"{case.name}: the two searches disagree", file=sys.stderr)
                failed = True
            stored[case.name] = {
                "name": case.name,
                "game": case.game,
                "params": dict(case.params),
                "position": game.render(position),
                "hard": case.hard,
                "runs": runs,
                "run": run_info,
            }
            data[section] = [stored[n] for n in order if n in stored]
            JSON_PATH.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        if failed:
            return 1
    MARKDOWN_PATH.write_text(markdown(data))
    print(f"wrote {MARKDOWN_PATH.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
