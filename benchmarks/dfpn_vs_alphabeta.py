"""Depth-first proof-number search against alpha-beta, on the same positions, same kernels.

    python benchmarks/dfpn_vs_alphabeta.py                   # every case (some 30 minutes)
    python benchmarks/dfpn_vs_alphabeta.py --only lag-3      # the cases whose name has lag-3
    python benchmarks/dfpn_vs_alphabeta.py --markdown-only   # rewrite the table from the JSON
    python benchmarks/dfpn_vs_alphabeta.py --engine          # hand-built df-pn (baseline) vs the engine's

For every case (a game and a position, picked reproducibly: fixed positions or seeded random
playouts) both searches of the game's compiled kernel (``method="alphabeta"`` in value mode
and ``method="dfpn"``) compute the value of the position for the player to move, each from
a fresh kernel with a table of the same capacity. Each run records the nodes, the process
CPU time (the machine is shared: CPU time is what the search itself cost), the wall time and
the load average before and after; a run stopped by ``--max-seconds`` is recorded as open,
with the nodes it had searched. A search runs in slices of a fixed number of nodes (the cap
looked at between them), so its node count does not depend on the machine's load;
``--repeats N`` runs each search N times, the searches alternating, and keeps the run of
median CPU time. A case whose two values differ is an error (exit 1).

``--engine`` measures instead, on the same cases, the df-pn of each kernel class at a
baseline commit (``--baseline``, default :data:`BASELINE_COMMIT`: the kernels' own hand-built
proof-number searches) against the same class at the current tree (now a plug-in of the
engine's df-pn, ``solvers/engine_dfpn.py``): each tree in its own process
(``benchmarks/baseline_trees.py``: the baseline extracted by ``git archive``, its own numba
cache), the two alternating case by case, into the JSON's ``engine_cases``.

Results go to ``benchmarks/dfpn_vs_alphabeta.json`` (each case with the date, commit,
machine and command of the run that measured it: running a subset updates those cases only)
and the Markdown table ``benchmarks/DFPN.md`` is generated from that file alone, the same
bytes every time for the same JSON.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
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
#: Nodes of a search between two looks at the time cap (:func:`measure`).
SLICE_NODES = 1 << 22
#: Nodes of the search that compiles a kernel's df-pn before the clock (:func:`_warm_up`).
WARM_UP_NODES = 1 << 16
#: The last commit whose kernels all ran their own hand-built df-pn.
BASELINE_COMMIT = "3a2a2e2"


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


def kernel_for(game: Any, method: str, tt_entries: int = TT_ENTRIES) -> Any:
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
    return kernel_class(game, tt_entries=tt_entries, method=method)


#: The engine comparison's two runs: the baseline tree's kernel df-pn, the current tree's.
ENGINE_RUNS = ("kernel", "engine")


def plugin_of(kernel: Any) -> dict[str, Any] | None:
    """What the engine's plug-in gave, for a kernel that runs on the engine (None for a
    hand-built one): its optional hooks, and df-pn's settings from it."""
    engine = getattr(kernel, "engine", kernel)  # a kernel may wrap its engine
    rules = getattr(engine, "rules", None)
    if rules is None or not hasattr(engine, "first_numbers"):
        return None
    from solvers.engine_build import CHILD_KEY, OPTIONAL_HOOKS

    return {
        "hooks": [h for h in (*OPTIONAL_HOOKS, CHILD_KEY) if getattr(rules, h) is not None],
        "first_numbers": engine.first_numbers,
        "weak": engine.weak,
    }


def _nodes_index() -> int:
    """The node counter's slot, wherever the tree being measured keeps its table module."""
    try:
        from solvers.kernel_table import S_NODES
    except ImportError:  # trees before the engine kept it in solvers/kernels/table.py
        from solvers.kernels.table import S_NODES  # type: ignore[no-redef]
    return int(S_NODES)


def measure(game: Any, position: Any, method: str, max_seconds: float) -> dict[str, Any]:
    """One search of ``position``'s value by the game's kernel class: nodes, CPU and wall
    seconds, load average, and the engine plug-in it ran on, if any.

    The search runs in slices of :data:`SLICE_NODES` nodes, the time cap checked between
    them, rather than in the kernels' budgeted slices, which they size by the measured speed:
    a search stopped and resumed at other nodes takes another path, so its node count would
    depend on the machine's load. The table's pages are touched before the clock starts
    (``table_seconds``): their first touch costs the system zeroing them, on huge pages up
    to 2 MiB at a time, whatever the search."""
    kernel = kernel_for(game, method)
    touched = time.process_time()
    table = getattr(kernel, "tt", None)
    if table is not None:
        table.fill(0)
    table_seconds = round(time.process_time() - touched, 3)
    window = inspect.signature(kernel.score).parameters  # the full window of that tree
    alpha, beta = window["alpha"].default, window["beta"].default
    load_before = os.getloadavg()[0]
    cpu = time.process_time()
    wall = time.perf_counter()
    outcome = "open"
    while time.perf_counter() - wall < max_seconds:
        score = kernel.bounded_score(position, alpha, beta, SLICE_NODES)
        if score is not None:
            outcome = kernel.decode(score)[0].label
            break
    record = {
        "outcome": outcome,
        "slice_nodes": SLICE_NODES,
        "table_seconds": table_seconds,
        "nodes": int(kernel.stat(_nodes_index())),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "wall_seconds": round(time.perf_counter() - wall, 3),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    plugin = plugin_of(kernel) if method == "dfpn" else None
    if plugin is not None:
        record["plugin"] = plugin
    del kernel
    gc.collect()  # the next run's table replaces this one's
    return record


def median_run(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The run of median CPU time among repeated runs of one search (the lower of the two
    middle ones for an even count), with every run's CPU seconds."""
    ranked = sorted(records, key=lambda record: record["cpu_seconds"])
    median = dict(ranked[(len(ranked) - 1) // 2])
    if len(records) > 1:
        median["cpu_seconds_runs"] = [record["cpu_seconds"] for record in records]
    return median


def measure_tree(case_name: str, max_seconds: float) -> None:
    """``--measure TREE``: the df-pn run of one case by the tree first on ``sys.path``,
    printed as one JSON line (for ``baseline_trees.run_tree``)."""
    (case,) = [c for c in cases() if c.name == case_name]
    game, position = position_of(case)
    _warm_up(game, position)
    print(json.dumps(measure(game, position, "dfpn", max_seconds)))


def _warm_up(game: Any, position: Any) -> None:
    """Compile (or load) every path of the df-pn before the clock: search a position a few
    random moves from the end of a game through ``position``, with a small table, for at
    most :data:`WARM_UP_NODES` nodes (the game may end fewer than a few moves after a hard
    ``position``, and that search would not end)."""
    rng = random.Random(0)
    line = [position]
    while game.moves(line[-1]):
        line.append(game.play(line[-1], rng.choice(game.moves(line[-1]))))
    kernel = kernel_for(game, "dfpn", tt_entries=1 << 10)
    window = inspect.signature(kernel.score).parameters
    start = line[max(0, len(line) - 6)]
    kernel.bounded_score(start, window["alpha"].default, window["beta"].default, WARM_UP_NODES)


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
    from run import cpu_model  # beside this file

    model = cpu_model() or platform.processor() or platform.machine()
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


def _plugin_cell(plugin: dict[str, Any] | None) -> str:
    if plugin is None:
        return "not on the engine"
    hooks = ", ".join(plugin["hooks"]) or "none"
    weak = ", weak" if plugin["weak"] else ""
    return f"{hooks}; first numbers: {plugin['first_numbers']}{weak}"


def engine_section(data: dict[str, Any]) -> list[str]:
    """The kernels' hand-built df-pn against the engine's, a function of the JSON alone."""
    lines = [
        "## The kernels' own df-pn against the engine's",
        "",
        "The same cases, the df-pn of each game's kernel class (`method=dfpn`) at the baseline "
        "commit, where each kernel ran its own hand-built proof-number search, against the "
        "same class at the current commit, where it is a plug-in of the engine's df-pn "
        "(`solvers/engine_dfpn.py`, compiled per plug-in). Each tree runs in its own process "
        "with its own compiled code (`benchmarks/baseline_trees.py`), the two alternating "
        "case by case, tables of the same capacity. The plug-in column lists the optional "
        "hooks the current kernel's plug-in gives (`key`: canonical keys under the board's "
        "symmetries; `order`: hints, here taken as the first proof and disproof numbers), how "
        "a new child starts (replies: played and its moves generated, at (1, its replies); "
        "hint: at the `order` hint, the replies as the disproof number and, where the plug-in "
        "gives one, a proof number: Control's, 1 + 2 x the moves the mover keeps) and "
        "whether the plug-in asks for weak proof numbers. Both count calls as nodes. Process "
        "CPU seconds of one run, or the median of the runs where the command repeats them "
        "(`--repeats`: the two trees alternate, every run's seconds are in the JSON); a run "
        "stopped by the time cap (wall clock, on a shared machine) is *open*. A run whose "
        "JSON record has `slice_nodes` searched in slices of that many nodes, the cap looked "
        "at between them, so its nodes do not depend on the machine's load, and had its "
        "table's pages touched before the clock (`table_seconds`: a first touch makes the "
        "system zero a page, a huge page 2 MiB at a time however few entries a search uses; "
        "the current tree's tables sit on huge pages). Older runs searched in the kernels' "
        "own slices of about half a second, sized by the measured speed and each resuming "
        "from the table, which made the nodes of a case vary from run to run: by a few per "
        "cent on most cases, by several times on the hardest (Control size 4 +13).",
        "",
        "| case | value | baseline df-pn | current df-pn | current plug-in | baseline / current |",
        "|---|---|---|---|---|---|",
    ]
    baselines = sorted(  # runs before --baseline measured the kernel's own df-pn in-process
        {
            f"`{c['run']['baseline']}`"
            if "baseline" in c["run"]
            else f"`{c['run']['commit']}` (its own df-pn, in the same process)"
            for c in data["engine_cases"]
        }
    )
    lines += _rows(
        data["engine_cases"],
        lambda case, name, value, runs: (
            f"| {name} | {value} | {_run_cell(runs['kernel'])} | {_run_cell(runs['engine'])} "
            f"| {_plugin_cell(runs['engine'].get('plugin'))} | "
            f"{_ratio(runs['kernel'], runs['engine'])} |"
        ),
    )
    return [*lines, f"Baseline: {', '.join(baselines)}.", ""]


def load() -> dict[str, Any]:
    if JSON_PATH.exists():
        data: dict[str, Any] = json.loads(JSON_PATH.read_text())
        return data
    return {"tt_entries": TT_ENTRIES, "cases": []}


def _trees(baseline: str) -> tuple[str, Path]:
    """The baseline's short commit and a directory holding its tree (``git archive``)."""
    commit_of = subprocess.run(
        ["git", "rev-parse", "--short", baseline], cwd=ROOT, capture_output=True, text=True
    )
    if commit_of.returncode != 0:
        raise SystemExit(f"--baseline {baseline!r}: not a git revision of this repository")
    directory = Path(tempfile.mkdtemp(prefix="dfpn-baseline-"))
    archive = subprocess.run(["git", "archive", baseline], cwd=ROOT, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(directory)], input=archive.stdout, check=True)
    return commit_of.stdout.strip(), directory


def _measure_in(tree: Path, case_name: str, max_seconds: float) -> dict[str, Any]:
    """One case's df-pn run by ``tree``'s kernels, in a process of its own."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from baseline_trees import run_tree  # beside this file

    extra = ["--only", case_name, "--max-seconds", str(max_seconds)]
    record = run_tree(Path(__file__).resolve(), tree, extra)
    record.pop("load_before", None)  # the run's own load_average says it
    record.pop("load_after", None)
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], help="cases whose name has this")
    parser.add_argument("--max-seconds", type=float, default=DEFAULT_MAX_SECONDS)
    parser.add_argument("--markdown-only", action="store_true")
    parser.add_argument(
        "--engine",
        action="store_true",
        help="the kernels' df-pn at --baseline against the current tree's (the engine's)",
    )
    parser.add_argument("--baseline", default=BASELINE_COMMIT, help="git revision (--engine)")
    parser.add_argument(
        "--repeats", type=int, default=1, help="runs of each search, alternating (the median)"
    )
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # internal: one tree, one case
    args = parser.parse_args(argv)
    if args.measure:
        (name,) = args.only
        measure_tree(name, args.max_seconds)
        return 0
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
        stored = {c["name"]: c for c in data.get(section, [])}
        failed = False
        trees = _trees(args.baseline) if args.engine else None
        if trees is not None:
            run_info["baseline"] = trees[0]
        for case in cases():
            if args.only and not any(part in case.name for part in args.only):
                continue
            game, position = position_of(case)
            methods = ENGINE_RUNS if args.engine else METHODS
            measured: dict[str, list[dict[str, Any]]] = {method: [] for method in methods}
            for _ in range(args.repeats):  # the searches alternate
                for method in methods:
                    if trees is None:
                        record = measure(game, position, method, args.max_seconds)
                    else:
                        tree = trees[1] if method == "kernel" else ROOT
                        record = _measure_in(tree, case.name, args.max_seconds)
                    measured[method].append(record)
                    print(f"{case.name} {method}: {record}", file=sys.stderr, flush=True)
            runs = {method: median_run(records) for method, records in measured.items()}
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
        if trees is not None:
            shutil.rmtree(trees[1], ignore_errors=True)
        if failed:
            return 1
    MARKDOWN_PATH.write_text(markdown(data))
    print(f"wrote {MARKDOWN_PATH.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
