"""Every pie setup of an Interleave board at once: one packed sweep over all 3^cells
placements (solvers/kernels/interleave.py, :func:`solve_every_setup`), then the setups Red
wins, counted over every setup and up to the board's 12 symmetries (what the pie chooser,
who takes the winning colour, faces).

    python benchmarks/interleave_every_setup.py --size 3 --win stones --turns pass
    python benchmarks/interleave_every_setup.py --size 3 --turns loser --max-seconds 600

Prints one JSON object: the counts per turn model (``turns=pass`` answers both first
players in one sweep), the sweep's wall and CPU seconds (process time: compare that on a
shared machine) and the array bytes. Size 3 needs 3^19 bytes per stored state (2.2 GiB under
turns=pass, 1.1 GiB under turns=loser).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    from solvers.kernels.interleave import solve_every_setup, warm_up

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--win", choices=("stones", "groups"), default="stones")
    parser.add_argument("--turns", choices=("pass", "loser"), default="pass")
    parser.add_argument("--max-seconds", type=float, default=None)
    args = parser.parse_args()
    compile_seconds = warm_up()
    wall = time.perf_counter()
    cpu = time.process_time()
    result = solve_every_setup(args.size, args.win, args.turns, max_seconds=args.max_seconds)
    result["wall_seconds"] = round(time.perf_counter() - wall, 1)
    result["cpu_seconds"] = round(time.process_time() - cpu, 1)
    result["compile_seconds"] = round(compile_seconds, 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
