"""Every small board of the seed games through ``cgt solve``, one JSON line per command.

    python benchmarks/small_boards.py              # every game
    python benchmarks/small_boards.py lag entropy  # only these games

Each command runs as a user would run it (a fresh ``cgt solve ... --json`` process), so the
wall time includes start-up and, for compiled solvers, loading the kernel from numba's cache.
The line gives the outcome for the side to move, remoteness, positions, the solver's own
time, the wall time and the root moves that win for the side to move.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

#: (game, parameters, solver): the boards of issue 3, both solvers where both fit.
CASES: list[tuple[str, list[str], str]] = [
    ("control", ["size=2"], "retrograde"),
    ("control", ["size=2"], "alphabeta"),
    ("control", ["size=2", "control=sight"], "retrograde"),
    ("control", ["size=3"], "compiled"),
    ("control", ["size=3", "opening=free"], "compiled"),
    ("lag", ["size=3"], "compiled"),
    ("lag", ["size=3", "goal=strict"], "compiled"),
    ("lag", ["size=3", "goal=far-row"], "compiled"),
    ("interleave", ["size=2"], "retrograde"),
    ("interleave", ["size=2"], "alphabeta"),
    ("interleave", ["size=2", "win=groups"], "retrograde"),
    ("interleave", ["size=2", "turns=loser"], "retrograde"),
    ("interleave", ["size=2", "first=black"], "retrograde"),
    ("interleave", ["size=3"], "retrograde"),
    *[
        ("super-nonnect", [f"a={a}", f"b={b}", f"rule={rule}"], "auto")
        for rule in ("original", "revised")
        for a, b in ((1, 2), (2, 1), (2, 2), (2, 3))
    ],
    ("super-nonnect", ["shape=hex7", "rule=original"], "compiled"),
    ("super-nonnect", ["shape=hex7", "rule=revised"], "compiled"),
    ("entropy", ["width=4", "height=3", "setup=SS../..../..OO O"], "retrograde"),
    ("entropy", ["width=4", "height=3", "setup=SS../..../..OO O"], "compiled"),
    ("entropy", ["width=4", "height=4", "setup=SSSS/S..S/O..O/OOOO O"], "compiled"),
]


def run(game: str, params: list[str], solver: str) -> dict[str, object]:
    command = ["cgt", "solve", game]
    for param in params:
        command += ["-p", param]
    command += ["--solver", solver, "--json"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    shown = " ".join(command[:-1])
    if done.returncode:
        return {"command": shown, "error": done.stderr.strip().splitlines()[-1:]}
    result = json.loads(done.stdout)
    return {
        "command": shown,
        "outcome": result.get("outcome"),
        "remoteness": result.get("remoteness"),
        "positions": result.get("positions"),
        "seconds": round(float(result.get("seconds", 0.0)), 2),
        "wall": round(wall, 1),
        "root_moves": len(result.get("moves", [])),
        "winning_root_moves": [m["move"] for m in result.get("moves", []) if m["outcome"] == "win"],
    }


def main() -> None:
    only = set(sys.argv[1:])
    for game, params, solver in CASES:
        if not only or game in only:
            print(json.dumps(run(game, params, solver)), flush=True)


if __name__ == "__main__":
    main()
