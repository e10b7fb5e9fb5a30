"""CGT values of Control positions with and without the decomposition into regions.

    python benchmarks/control_values.py

For each position (size 3 and size 4, from random games, several independent regions), one
JSON line: the value (both roads must agree), the seconds each road takes in a fresh
:class:`~cgt.algebra.values.ValueCalculator`, the table entries, the positions expanded, the
component lookups and how many of them the table already held. A last line evaluates every
position in one shared calculator per road (regions recur across positions).
"""

from __future__ import annotations

import json
import time
from typing import Any

from cgt.algebra.values import ValueCalculator
from cgt.games.control import frozen_pieces
from cgt.registry import load_game

#: (size, position): random games stopped where the board splits into 3 or more regions.
CASES: list[tuple[int, str]] = [
    (3, "BB./B.WW/BBWW./BWWW/BW. B"),
    (3, "BBB/..BW/B..WW/B.W./.WW W"),
    (3, "W.W/WWWW/..B.B/...B/.BB B"),
    (4, "WWBB/WWB../W.BBBB/W.WBB.B/WWWBBB/.WWB./WWWB W"),
    (4, "WWWB/.WWBB/WW...B/WWWBBBB/WW.BBB/.W.BB/WWBB W"),
    (4, ".BB./BB.BB/BBBBBW/WBB.BWW/.WWWWW/W..WW/W.WW B"),
    (4, "BWW./.BWWW/BBWWW./.BBWBBB/BBWBB./WWW.B/WWWB B"),
]


def measure(calculator: ValueCalculator, positions: list[Any]) -> dict[str, Any]:
    start = time.perf_counter()
    values = [str(calculator(position)) for position in positions]
    return {
        "values": values,
        "seconds": round(time.perf_counter() - start, 3),
        "table": len(calculator.table),
        "expanded": calculator.evaluated,
        "component_lookups": calculator.component_lookups,
        "component_hits": calculator.component_hits,
    }


def main() -> None:
    by_size: dict[int, list[Any]] = {}
    for size, text in CASES:
        game = load_game("control", size=size)
        position = game.parse(text)
        by_size.setdefault(size, []).append(position)
        parts = game.components(position) or []
        active = game.board.full_mask & ~frozen_pieces(game.board, position[0], position[1])
        line: dict[str, Any] = {
            "size": size,
            "position": text,
            "regions": len(parts),
            "active_cells": active.bit_count(),
        }
        for road, split in (("decomposed", True), ("plain", False)):
            line[road] = measure(ValueCalculator(game, components=split), [position])
        if line["decomposed"]["values"] != line["plain"]["values"]:
            raise SystemExit(f"the two roads disagree on {text}: {line}")
        print(json.dumps(line), flush=True)
    for size, positions in by_size.items():
        game = load_game("control", size=size)
        shared = {
            road: measure(ValueCalculator(game, components=split), positions)
            for road, split in (("decomposed", True), ("plain", False))
        }
        print(json.dumps({"size": size, "shared_calculator": shared}), flush=True)


if __name__ == "__main__":
    main()
