"""Would regions walled off by frozen pieces help prove Control size 4? (issue 15)

Issue 15 asks to consider deciding Control positions as sums of small regions by their CGT
values, as CGT-guided solvers of Domineering and Amazons do. :meth:`Control.components`
already splits a position where frozen pieces (pieces that can never be removed,
:func:`cgt.games.control.frozen_pieces`) wall groups of cells off from each other, and
:class:`cgt.algebra.values.ValueCalculator` adds the regions' canonical forms. This benchmark
measures, on size 4 with adjacent control, where such splits occur and what deciding a split
position by values costs beside the compiled alpha-beta kernel; writes
``benchmarks/control_regions.json`` and the generated ``benchmarks/CONTROL_REGIONS.md``.

    python benchmarks/control_regions.py [--games 1000] [--solves 40]

Samples:

* every position of ``--games`` games of uniformly random legal moves from the start (seeded),
  by ply: how many have a frozen piece, how many split into two or more regions, and the
  size of the largest region (cells that can still change);
* the positions of the frontier the open-board proof uses (``cgt frontier control -p size=4
  --depth 3``, every position 3 plies below the start up to symmetry), the same counts;
* one split position per ply of the random games (the first met, up to ``--solves``), each
  decided twice: by the kernel's alpha-beta (fresh table, value mode) and by the sum of its
  regions' canonical forms (fresh calculator, stopped after ``--value-seconds``). Where both
  finish, the outcomes must agree (a second road); the table gives both costs.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from cgt.algebra.values import ValueCalculator  # noqa: E402
from cgt.games.control import Control, frozen_pieces, independent_regions  # noqa: E402
from solvers.frontier import build_tree  # noqa: E402
from solvers.kernel_table import INFINITY, NO_NODE_LIMIT, S_NODE_LIMIT, S_NODES  # noqa: E402
from solvers.kernels.control import ControlKernel  # noqa: E402

JSON_PATH = ROOT / "benchmarks" / "control_regions.json"
MARKDOWN_PATH = ROOT / "benchmarks" / "CONTROL_REGIONS.md"
#: What the Control report quotes beside the size-4 frontier (cgtapp/report/data.py).
REPORT_NOTE_PATH = ROOT / "reports" / "data" / "frontier" / "control-4-regions.json"
SIZE = 4
FRONTIER_DEPTH = 3


def shape(game: Control, position: Any) -> tuple[bool, int, int]:
    """(has a frozen piece, number of regions, cells of the largest region)."""
    white, black, _ = position
    frozen = frozen_pieces(game.board, white, black)
    regions = independent_regions(game.board, white, black)
    return frozen != 0, len(regions), max((r.bit_count() for r in regions), default=0)


def random_play(game: Control, games: int) -> tuple[dict[int, list[tuple[bool, int, int]]], list]:
    """Shapes of every unfinished position of ``games`` random games, by ply, and the split
    positions met (ply, position), in order of ply."""
    by_ply: dict[int, list[tuple[bool, int, int]]] = defaultdict(list)
    split: list[tuple[int, Any]] = []
    for seed in range(games):
        rng = random.Random(seed)
        position, ply = game.initial_position(), 0
        while True:
            moves = game.moves(position)
            if not moves:
                break
            if ply > 0:  # the empty board before the perimeter opening is never split
                s = shape(game, position)
                by_ply[ply].append(s)
                if s[1] >= 2:
                    split.append((ply, position))
            position = game.play(position, rng.choice(moves))
            ply += 1
    split.sort(key=lambda item: item[0])
    return by_ply, split


def summarise(shapes: list[tuple[bool, int, int]]) -> dict[str, Any]:
    split = [s for s in shapes if s[1] >= 2]
    return {
        "positions": len(shapes),
        "with_frozen": sum(1 for s in shapes if s[0]),
        "split": len(split),
        "largest_region_median": statistics.median(s[2] for s in shapes) if shapes else 0,
        "largest_region_when_split_median": (
            statistics.median(s[2] for s in split) if split else None
        ),
    }


def outcome_for_mover(value_outcome: str, mover: int) -> int:
    """+1 when the player to move wins the position whose value has this outcome class."""
    if value_outcome == "N":
        return 1
    if value_outcome == "P":
        return -1
    return 1 if (value_outcome == "L") == (mover == 0) else -1


class ValueTimeout(Exception):
    pass


def _value_timeout(signum: int, frame: Any) -> None:
    raise ValueTimeout


def decide_both_ways(
    game: Control, positions: list[tuple[int, Any]], value_seconds: float
) -> list[dict[str, Any]]:
    signal.signal(signal.SIGALRM, _value_timeout)
    rows = []
    for ply, position in positions:
        kernel = ControlKernel(game, tt_entries=1 << 20)
        kernel.ctl[S_NODE_LIMIT] = NO_NODE_LIMIT
        started = time.process_time()
        kernel_value = int(kernel._search(position, -INFINITY, INFINITY))
        kernel_seconds = time.process_time() - started
        calculator = ValueCalculator(game)
        started = time.process_time()
        signal.setitimer(signal.ITIMER_REAL, value_seconds)
        try:
            value: Any = calculator(position)
        except ValueTimeout:
            value = None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        spent = time.process_time() - started
        parts = game.components(position) or [position]
        rows.append(
            {
                "ply": ply,
                "position": game.render(position),
                "regions": len(parts),
                "largest_region": shape(game, position)[2],
                "kernel_value": kernel_value,
                "kernel_nodes": int(kernel.ctl[S_NODES]),
                "kernel_seconds": round(kernel_seconds, 4),
                "value": None if value is None else str(value),
                "value_verdict": (
                    None
                    if value is None
                    else outcome_for_mover(value.outcome(), game.to_move(position))
                ),
                "positions_valued": calculator.evaluated,
                "value_seconds": round(spent, 4),
            }
        )
        print(f"ply {ply}: {rows[-1]['value']} ({rows[-1]['value_seconds']} s)", file=sys.stderr)
    return rows


def report_note(report: dict[str, Any]) -> dict[str, Any]:
    """The facts the report quotes (``regions_summary`` in cgtapp/report/data.py)."""
    plies = report["random_play"]
    valued = [r["ply"] for r in report["solves"] if r["value"] is not None]
    return {
        "date": report["date"],
        "commit": report["commit"],
        "command": report["command"],
        "games": report["games"],
        "frontier_depth": FRONTIER_DEPTH,
        "frontier_positions": report["frontier"]["positions"],
        "frontier_split": report["frontier"]["split"],
        "first_split_ply": min((int(p) for p, s in plies.items() if s["split"]), default=None),
        "first_valued_ply": min(valued, default=None),
        "value_seconds": report["value_seconds"],
        "outcomes_agree": all(
            r["kernel_value"] == r["value_verdict"] for r in report["solves"] if r["value"]
        ),
    }


def markdown(report: dict[str, Any]) -> str:
    plies = report["random_play"]
    first_split = min((int(p) for p, s in plies.items() if s["split"]), default=None)
    frontier = report["frontier"]
    solves = report["solves"]
    valued = [r for r in solves if r["value"] is not None]
    agree = all(r["kernel_value"] == r["value_verdict"] for r in valued)
    limit = report["value_seconds"]
    lines = [
        "# Control size 4: regions walled off by frozen pieces",
        "",
        f"Generated by `{report['command']}` on {report['date']}, commit `{report['commit']}`"
        f" ({report['machine']}). Control size 4, adjacent control. A position *splits* when "
        "frozen pieces (pieces that can never be removed) cut the cells that can still change "
        "into two or more regions, which are then independent games whose CGT values add up "
        "(`Control.components`, `cgt value`). Random play is not strong play; it shows where "
        "on the way through a game splits can occur at all.",
        "",
        f"## Where splits occur ({report['games']:,} random games)",
        "",
        "| ply | positions | with a frozen piece | split into 2+ regions | largest region "
        "(cells, median) | largest region when split (median) |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for ply, s in sorted(plies.items(), key=lambda item: int(item[0])):
        when = s["largest_region_when_split_median"]
        lines.append(
            f"| {ply} | {s['positions']:,} | {s['with_frozen']:,} | {s['split']:,} | "
            f"{s['largest_region_median']} | {'' if when is None else when} |"
        )
    lines += [
        "",
        f"The frontier of the open-board proof (every position {FRONTIER_DEPTH} plies below "
        f"the start, up to symmetry): {frontier['positions']:,} positions, "
        f"{frontier['with_frozen']:,} with a frozen piece, {frontier['split']:,} split.",
        "",
        f"## Deciding split positions both ways (the first met at each ply; values stopped "
        f"after {limit} s)",
        "",
        "| ply | position | regions | largest region | value (sum of the regions) | kernel "
        "nodes | kernel s | positions valued | values s |",
        "|---:|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for r in solves:
        value = "not finished" if r["value"] is None else f"`{r['value']}`"
        lines.append(
            f"| {r['ply']} | `{r['position']}` | {r['regions']} | {r['largest_region']} | "
            f"{value} | {r['kernel_nodes']:,} | {r['kernel_seconds']} | "
            f"{r['positions_valued']:,} | {r['value_seconds']} |"
        )
    lines += [
        "",
        f"Values finished for {len(valued)} of {len(solves)} positions; where they did, the "
        f"outcome agrees with the kernel's value for the player to move: "
        f"{'yes, every one' if agree else 'NO'}. The kernel decided all {len(solves)} in "
        f"{sum(r['kernel_seconds'] for r in solves):.2f} process seconds in all (at most "
        f"{max((r['kernel_seconds'] for r in solves), default=0.0)} s, "
        f"{max((r['kernel_nodes'] for r in solves), default=0):,} nodes, for one).",
        "",
        "## Verdict",
        "",
    ]
    if first_split is None:
        lines.append("No random game reached a split position.")
    else:
        first_valued = min((r["ply"] for r in valued), default=None)
        lines.append(
            f"No position of the proof's frontier splits ({frontier['split']:,} of "
            f"{frontier['positions']:,}), and random play meets the first split at ply "
            f"{first_split}"
            + (
                f"; the region values first finish within {limit} s at ply {first_valued}"
                if first_valued is not None
                else ""
            )
            + ". The cost of the proof lies near the root (about tenfold per two plies "
            "toward it, issue 15), where nothing splits. Where positions split, the kernel "
            f"decided the {len(valued)} whose values finished in "
            f"{sum(r['kernel_seconds'] for r in valued):.2f} s against "
            f"{sum(r['value_seconds'] for r in valued):.2f} s for their values"
            + (
                " (the kernel is faster)"
                if sum(r["kernel_seconds"] for r in valued)
                < sum(r["value_seconds"] for r in valued)
                else " (the values are faster)"
            )
            + ". So region sums cannot shorten the open-board proof and it does not use them;"
            " they remain the road to values (`cgt value`) and a second road for the split "
            "positions above."
        )
    lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--solves", type=int, default=40)
    parser.add_argument("--value-seconds", type=float, default=10.0)
    args = parser.parse_args()
    from baseline_trees import command_line, provenance  # beside this file

    game = Control(size=SIZE)
    by_ply, split = random_play(game, args.games)
    tree = build_tree(game, game.initial_position(), FRONTIER_DEPTH)
    frontier_shapes = [
        shape(game, tree.positions[i]) for i in tree.jobs if tree.levels[i] == FRONTIER_DEPTH
    ]
    chosen: list[tuple[int, Any]] = []
    for ply, position in split:  # the first split position met at each ply
        if not chosen or chosen[-1][0] != ply:
            chosen.append((ply, position))
        if len(chosen) >= args.solves:
            break
    defaults = {"games": 1000, "solves": 40, "value_seconds": 10.0}
    report = {
        **provenance(command_line("control_regions.py", args, defaults)),
        "games": args.games,
        "value_seconds": args.value_seconds,
        "random_play": {str(p): summarise(s) for p, s in sorted(by_ply.items())},
        "frontier": summarise(frontier_shapes),
        "solves": decide_both_ways(game, chosen, args.value_seconds),
    }
    JSON_PATH.write_text(json.dumps(report, indent=1) + "\n")
    REPORT_NOTE_PATH.write_text(json.dumps(report_note(report), indent=1) + "\n")
    MARKDOWN_PATH.write_text(markdown(report))
    print(markdown(report))


if __name__ == "__main__":
    main()
