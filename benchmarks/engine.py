"""The compiled engine on a game added in one file, against the pure-Python road.

    python benchmarks/engine.py            # writes benchmarks/engine.json and ENGINE.md

Connect Four (docs/connect_four.py, its readable class and its plug-in) is solved from the
start by the engine (solvers.engine, value mode) and by the pure-Python alpha-beta
(solvers.alphabeta) on the same boards, in the same run; where retrograde (the readable rules,
every position) finishes within its budget its value is the referee. Times are process CPU
seconds (the machine may be shared); the engine's compilation is done by a warm-up solve on
a smaller board first and is reported apart.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BOARDS = [{"rows": 4, "cols": 4}, {"rows": 4, "cols": 5}]
RETROGRADE_SECONDS = 300.0
#: The engine's table for these boards (slots; the page faults of a table far larger than the
#: search fills would dominate a solve this small).
ENGINE_TT_ENTRIES = 1 << 18


def load_connect_four() -> None:
    name = "cgt_plugin_connect_four"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / "connect_four.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)


def measure() -> dict[str, Any]:
    from cgt.errors import CGTError
    from cgt.registry import load_game
    from solvers import solve
    from solvers.engine import solve_with_engine
    from solvers.kernels import PLAYOUTS

    load_connect_four()
    started = time.process_time()
    warm = load_game("connect-four", rows=3, cols=3, connect=3)
    solve_with_engine(PLAYOUTS["connect-four"](warm), move_values=False, tt_entries=1 << 10)
    compile_seconds = time.process_time() - started
    rows = []
    for params in BOARDS:
        game = load_game("connect-four", **params)
        rules = PLAYOUTS["connect-four"](game)
        t = time.process_time()
        engine = solve_with_engine(
            rules, move_values=False, principal_variation=False, tt_entries=ENGINE_TT_ENTRIES
        )
        engine_seconds = time.process_time() - t
        t = time.process_time()
        python = solve(game, solver="alphabeta", root_only=True)
        python_seconds = time.process_time() - t
        t = time.process_time()
        try:
            referee = solve(game, solver="retrograde", max_seconds=RETROGRADE_SECONDS)
            retro: dict[str, Any] = {
                "outcome": referee.outcome.label,
                "positions": referee.positions,
                "seconds": round(time.process_time() - t, 2),
            }
        except CGTError as exc:
            retro = {"outcome": None, "stopped": str(exc)}
        engine_nodes = int(engine.extra["nodes"])
        python_nodes = int(python.extra["nodes"])
        rows.append(
            {
                "board": f"{params['rows']} rows x {params['cols']} columns",
                "engine": {
                    "outcome": engine.outcome.label,
                    "nodes": engine_nodes,
                    "seconds": round(engine_seconds, 3),
                    "nodes_per_second": round(engine_nodes / engine_seconds),
                },
                "python_alphabeta": {
                    "outcome": python.outcome.label,
                    "nodes": python_nodes,
                    "seconds": round(python_seconds, 3),
                    "nodes_per_second": round(python_nodes / python_seconds),
                },
                "retrograde": retro,
                "node_rate_ratio": round(
                    (engine_nodes / engine_seconds) / (python_nodes / python_seconds), 1
                ),
                "time_ratio": round(python_seconds / engine_seconds, 1),
            }
        )
        print(rows[-1], file=sys.stderr)
    return {
        "compile_seconds": round(compile_seconds, 2),
        "engine_tt_entries": ENGINE_TT_ENTRIES,
        "rows": rows,
    }


def provenance(command: str) -> dict[str, Any]:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return {
        "command": command,
        "commit": commit or "unknown",
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def page(record: dict[str, Any]) -> str:
    run = record["run"]
    lines = [
        "# The compiled engine on a game added in one file",
        "",
        f"Written by `{run['command']}` on {run['date']} at commit `{run['commit']}` "
        f"({run['machine']}, load average {run['load_average']} at the end). Connect Four from "
        "`docs/connect_four.py` (its readable class and its plug-in, nothing else) solved from "
        "the start, root value only, by the engine (`solvers/engine.py`) and by the pure-Python "
        "alpha-beta (`solvers/alphabeta.py`), process CPU seconds. Retrograde over the readable "
        "rules is the referee where it finishes. The engine's compilation (a warm-up solve on "
        f"3 x 3) took {record['compile_seconds']} s; its table has {record['engine_tt_entries']:,} "
        "slots.",
        "",
        "| board | value (engine / Python / retrograde) | engine nodes | engine s | engine nodes/s "
        "| Python nodes | Python s | Python nodes/s | node rate ratio | time ratio |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in record["rows"]:
        e, p, r = row["engine"], row["python_alphabeta"], row["retrograde"]
        referee = r["outcome"] or "stopped"
        lines.append(
            f"| {row['board']} | {e['outcome']} / {p['outcome']} / {referee} | {e['nodes']:,} "
            f"| {e['seconds']} | {e['nodes_per_second']:,} | {p['nodes']:,} | {p['seconds']} "
            f"| {p['nodes_per_second']:,} | {row['node_rate_ratio']}x | {row['time_ratio']}x |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--markdown", action="store_true", help="rewrite the page only")
    args = parser.parse_args()
    json_path = ROOT / "benchmarks" / "engine.json"
    if not args.markdown:
        record = measure()
        record["run"] = provenance("python benchmarks/engine.py")
        json_path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    record = json.loads(json_path.read_text())
    (ROOT / "benchmarks" / "ENGINE.md").write_text(page(record))


if __name__ == "__main__":
    main()
