"""The engine's ranked retrograde (solvers/engine_sweep.py) against the hand-written solvers
it replaced, old and new in one process (same machine load): LAG's tiers and Interleave's
every-setup sweep. The old solvers are the modules of commit ``OLD_COMMIT`` read from git and
imported under another name. Each case checks that both write the same records (SHA-256 of
the arrays) and times both (CPU seconds, the fair measure on a shared machine, and wall).
Writes ``benchmarks/ranked_retrograde.json`` and regenerates ``benchmarks/INTERLEAVE.md``
and ``benchmarks/LAG_TIERS.md`` (whose old-against-new table this module gives).

    nice python benchmarks/ranked_retrograde.py lag --goal far-row          # size 3, 7 + 7
    nice python benchmarks/ranked_retrograde.py interleave --turns loser    # size 3, 3^19
    python benchmarks/ranked_retrograde.py markdown
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

RESULTS_JSON = ROOT / "benchmarks" / "ranked_retrograde.json"
INTERLEAVE_MD = ROOT / "benchmarks" / "INTERLEAVE.md"
#: The last commit with the hand-written tier solve and Interleave sweep.
OLD_COMMIT = "3bac20c"


def old_module(path: str) -> ModuleType:
    """``path`` (e.g. ``solvers/kernels/lag_tiers.py``) as it was at :data:`OLD_COMMIT`."""
    source = subprocess.run(
        ["git", "show", f"{OLD_COMMIT}:{path}"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    name = Path(path).stem + "_before"
    folder = Path(tempfile.gettempdir()) / "cgt-ranked-retrograde"
    folder.mkdir(exist_ok=True)
    file = folder / f"{name}.py"
    if not file.exists() or file.read_bytes() != source:
        file.write_bytes(source)
    spec = importlib.util.spec_from_file_location(name, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def timed(solve: Any) -> tuple[Any, float, float]:
    """(what ``solve()`` returns, CPU seconds, wall seconds)."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = solve()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def digest(array: Any) -> str:
    return hashlib.sha256(memoryview(array).cast("B")).hexdigest()[:16]


def side_by_side(count: int, runs: dict[str, tuple[str, float, float]]) -> dict[str, Any]:
    """The two runs' figures, per second of CPU, and whether they wrote the same records."""
    row: dict[str, Any] = {"count": count}
    for label, (sha, cpu, wall) in runs.items():
        row[label] = {
            "sha256": sha,
            "cpu_seconds": round(cpu, 2),
            "wall_seconds": round(wall, 2),
            "per_cpu_second": round(count / cpu),
        }
    row["identical"] = runs["old"][0] == runs["new"][0]
    row["new_over_old_cpu"] = round(runs["new"][1] / runs["old"][1], 2)
    return row


def compare(path: str, new: ModuleType, prepare: Any) -> dict[str, Any]:
    """Old (``path`` at :data:`OLD_COMMIT`) against ``new``: ``prepare(module)`` compiles
    and returns ``(solve, records, count)``; only ``solve()`` is timed."""
    runs = {}
    count = 0
    for label, module in (("old", old_module(path)), ("new", new)):
        solve, records, count = prepare(module)
        _, cpu, wall = timed(solve)
        runs[label] = (digest(records()), cpu, wall)
        del solve, records  # the arrays go before the next run
    return side_by_side(count, runs)


def lag_case(goal: str, goal_check: str, white: int, black: int) -> dict[str, Any]:
    from cgt.games.lag import Lag
    from solvers.kernels import lag_tiers

    game = Lag(size=3, goal=goal, goal_check=goal_check)

    def prepare(module: ModuleType) -> tuple[Any, Any, int]:
        module.LagTiers(game, module.tiers_below(1, 1)).solve_tiers()  # compiled first
        tables = module.LagTiers(game, module.tiers_below(white, black))
        return tables.solve_tiers, lambda: tables.table, tables.positions

    return {
        "game": "lag",
        "board": f"size 3, goal {goal}, goal_check {goal_check}, tiers up to {white}+{black}",
        "unit": "positions",
        **compare("solvers/kernels/lag_tiers.py", lag_tiers, prepare),
    }


def interleave_case(size: int, win: str, turns: str) -> dict[str, Any]:
    from cgt.games.interleave import Interleave
    from solvers.kernels import interleave

    def prepare(module: ModuleType) -> tuple[Any, Any, int]:
        module.InterleaveSpace(Interleave(size=2, win=win, turns=turns)).solve()  # compiled
        space = module.InterleaveSpace(Interleave(size=size, win=win, turns=turns))
        return space.solve, lambda: space.value, space.ranks

    return {
        "game": "interleave",
        "board": f"size {size}, win {win}, turns {turns}, every placement",
        "unit": "placements",
        **compare("solvers/kernels/interleave.py", interleave, prepare),
    }


def comparison_lines(results: dict[str, Any], game: str) -> list[str]:
    """The old-against-new table of ``game``'s cases."""
    rows = [r for _, r in sorted(results.items()) if r["game"] == game]
    if not rows:
        return []
    unit = rows[0]["unit"]
    lines = [
        "| case | " + unit + " | records identical | old CPU (s) | new CPU (s) | new / old "
        f"| old {unit}/s (CPU) | new {unit}/s (CPU) | old wall (s) | new wall (s) | date, commit, "
        "load |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        p = r["provenance"]
        o, n = r["old"], r["new"]
        lines.append(
            f"| {r['board']} | {r['count']:,} | {'yes' if r['identical'] else 'NO'} "
            f"| {o['cpu_seconds']} | {n['cpu_seconds']} | {r['new_over_old_cpu']} "
            f"| {o['per_cpu_second']:,} | {n['per_cpu_second']:,} | {o['wall_seconds']} "
            f"| {n['wall_seconds']} | {p['date']}, `{p['commit']}`, load {p['load_average']} |"
        )
    lines += ["", "Commands:", ""] + [f"- `{r['provenance']['command']}`" for r in rows]
    return lines


#: What the ratios show: where the engine's pass does more than the hand-written one did,
#: and what its plug-in does faster.
WHY_SLOWER = {
    "lag": "Both evaluate a position with the same rule functions (solvers/kernels/lag.py). "
    "The plug-in ranks a child from the boards after the move (`child_rank`, no state row "
    "written and read back) and decodes an index of a range by successors from the last "
    "one decoded, also across the positions the depth-first pass has already solved (the "
    "old solve enumerated every position in order). The engine still keeps a frame per ply "
    "in memory where the old solve kept its values in a recursive call's registers, and "
    "checks the far row twice at a finished position (`generate`, then `final`).",
    "interleave": "The plug-in's rules are faster than the old kernel's: `open_cells` "
    "counts a cell's seers by colour with two popcounts and sets the open bits without "
    "branches (random size-3 placements: 67 ns a call at the old commit, 30 ns now), the "
    "leader under `win=stones` is two popcounts compiled in place of a call, and the sweep "
    "decodes a placement by stepping its digit blocks (no division). Under `turns=pass` a "
    "side's placements are folded once for the two positions that have them as children "
    "(that side to move before and just after a pass: the plug-in's `children_key`). What "
    "remains under `turns=pass` is the engine's generic work per placement: two stored "
    "states entered, each with its state just after a pass played, generated and "
    "evaluated, and the end after two passes played and evaluated, where the hand-written "
    "sweep computed the four values of a placement arithmetically.",
}


def old_against_new_section(game: str) -> list[str]:
    """The section a game's benchmark page shows (empty before any run)."""
    if not RESULTS_JSON.exists():
        return []
    lines = comparison_lines(json.loads(RESULTS_JSON.read_text()), game)
    if not lines:
        return []
    return [
        "",
        "## The engine's ranked retrograde against the hand-written solver",
        "",
        f"Generated by `benchmarks/ranked_retrograde.py` from "
        f"`benchmarks/ranked_retrograde.json`: the old solver (commit `{OLD_COMMIT}`) and the "
        "engine's ranked retrograde (`solvers/engine_sweep.py`) one after the other in one "
        "process; records compared by SHA-256; CPU seconds are the fair measure on the shared "
        "machine.",
        "",
        *lines,
        "",
        WHY_SLOWER[game],
    ]


def interleave_markdown() -> str:
    lines = [
        "# Interleave: the packed sweep over every placement",
        "",
        "The every-setup sweep (`solvers/kernels/interleave.py`, `InterleaveSpace.solve`): "
        "every placement of the board's cells ranked in base 3, solved from the highest rank "
        "down by the engine's ranked retrograde. Under `turns=pass` the two states without a "
        "pending pass are kept per placement and the states just after a pass are evaluated "
        "when met (transient); under `turns=loser` one state per placement. The counts "
        "(`python benchmarks/interleave_every_setup.py`) are the report's "
        "(`reports/data/interleave-size-3-setups.json`).",
        *old_against_new_section("interleave"),
    ]
    return "\n".join(lines) + "\n"


def regenerate() -> None:
    """INTERLEAVE.md here, LAG_TIERS.md by its own script (which reads this one's table)."""
    INTERLEAVE_MD.write_text(interleave_markdown())
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "lag_tiers.py"), "markdown"], check=True
    )


def main() -> None:
    from run import load_average, machine

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", choices=["lag", "interleave", "markdown"])
    parser.add_argument("--goal", default="far-row")
    parser.add_argument("--goal-check", default="both")
    parser.add_argument("--white", type=int, default=7)
    parser.add_argument("--black", type=int, default=7)
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--win", default="stones")
    parser.add_argument("--turns", default="loser")
    args = parser.parse_args()
    if args.case == "markdown":
        regenerate()
        return
    if args.case == "lag":
        result = lag_case(args.goal, args.goal_check, args.white, args.black)
        key = f"lag-{args.goal}-{args.goal_check}-{args.white}-{args.black}"
    else:
        result = interleave_case(args.size, args.win, args.turns)
        key = f"interleave-{args.size}-{args.win}-{args.turns}"
    command = "python benchmarks/ranked_retrograde.py " + " ".join(sys.argv[1:])
    result["provenance"] = {**machine(), "load_average": load_average(), "command": command}
    results = json.loads(RESULTS_JSON.read_text()) if RESULTS_JSON.exists() else {}
    results[key] = result
    RESULTS_JSON.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    regenerate()
    print(json.dumps(result), file=sys.stderr)


if __name__ == "__main__":
    main()
