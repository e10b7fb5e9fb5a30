"""Attempts on boards too large for the checks: run one with a time budget and store its
result as a record under ``reports/data/attempts/`` (format: :mod:`proofs.attempts`), which
the checks and the reports read. ``seconds`` is the search's own time; ``wall_seconds_total``
and ``cpu_seconds`` include the kernel's compilation (or disk-cache load). A longer budget is a longer attempt; the record says which.

    python benchmarks/attempts.py control-size4 --max-seconds 300
    python benchmarks/attempts.py super-nonnect-3x3-revised --max-seconds 300

Progress goes to stderr; Ctrl-C stops the search and stores how far it got.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _commit() -> str:
    out = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    )
    return out.stdout.strip() or "unknown"


def _progress(state: dict[str, Any]) -> None:
    print(f"  {state}", file=sys.stderr, flush=True)


def control_size4(max_seconds: float, tt_entries: int) -> dict[str, Any]:
    from cgt.games.control import Control
    from solvers.kernels.control import solve_control

    game = Control(size=4)
    return {
        "game": "control",
        "board": "size 4 (37 cells), perimeter opening",
        "solver": f"compiled Control kernel, value mode, {tt_entries:,}-slot table",
        "solve": lambda: solve_control(
            game,
            remoteness=False,
            principal_variation=False,
            tt_entries=tt_entries,
            max_seconds=max_seconds,
            progress=_progress,
        ),
    }


#: The opening the frontier proof of Super Nonnect 3x3 (revised) found winning
#: (``python benchmarks/open_boards.py super-nonnect-3x3-revised``, reports/data/frontier/).
SUPER_NONNECT_3X3_WINNING_OPENING = "a1"


def super_nonnect_3x3_revised(max_seconds: float, tt_entries: int) -> dict[str, Any]:
    """Who wins from the start, by df-pn on the root alone (one winning opening suffices,
    not every opening's value: the full solve of the earlier attempts stayed open), then the
    position after the opening the frontier proof found winning
    (``SUPER_NONNECT_3X3_WINNING_OPENING``) proved lost for its mover, to name a winning
    opening. Both on fresh kernels, without the frontier's tree of jobs or kept table, so
    they are a second computation of the frontier's result."""
    from cgt.games.super_nonnect import SuperNonnect
    from cgt.protocol import Outcome
    from solvers.api import solve
    from solvers.result import MoveValue

    game = SuperNonnect(a=3, b=3, rule="revised")
    root = game.initial_position()
    opening = next(
        m for m in game.moves(root) if game.move_name(root, m) == SUPER_NONNECT_3X3_WINNING_OPENING
    )

    def dfpn(position: Any) -> Any:
        return solve(
            game,
            position,
            solver="compiled",
            method="dfpn",
            root_only=True,
            tt_entries=tt_entries,
            max_seconds=max_seconds,
            progress=_progress,
        )

    def prove() -> Any:
        result = dfpn(root)
        if result.outcome is Outcome.WIN:
            after = dfpn(game.play(root, opening))
            if after.outcome is Outcome.LOSS:  # the opening wins
                result.moves = [
                    MoveValue(opening, SUPER_NONNECT_3X3_WINNING_OPENING, Outcome.WIN, None)
                ]
            result.extra["nodes"] += after.extra["nodes"]
            result.seconds += after.seconds
        return result

    return {
        "game": "super-nonnect",
        "board": "3x3 (81 cells), revised rule",
        "solver": (
            f"compiled Super Nonnect kernel, df-pn on the root alone, {tt_entries:,}-slot "
            f"table; then the position after {SUPER_NONNECT_3X3_WINNING_OPENING}"
        ),
        "solve": prove,
    }


ATTEMPTS: dict[str, Callable[[float, int], dict[str, Any]]] = {
    "control-size4": control_size4,
    "super-nonnect-3x3-revised": super_nonnect_3x3_revised,
}


def main() -> None:
    from proofs.attempts import write_attempt
    from solvers.budget import SearchBudgetExceeded

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("attempt", choices=sorted(ATTEMPTS))
    parser.add_argument("--max-seconds", type=float, default=300.0)
    parser.add_argument("--tt-entries", type=int, default=1 << 24)
    args = parser.parse_args()
    plan = ATTEMPTS[args.attempt](args.max_seconds, args.tt_entries)
    command = "python benchmarks/attempts.py " + shlex.join(
        [
            args.attempt,
            "--max-seconds",
            f"{args.max_seconds:g}",
            "--tt-entries",
            str(args.tt_entries),
        ]
    )
    wall, cpu = time.perf_counter(), time.process_time()
    record: dict[str, Any] = {
        "attempt": args.attempt,
        "game": plan["game"],
        "board": plan["board"],
        "solver": plan["solver"],
        "command": command,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _commit(),
        "parameters": {"max_seconds": args.max_seconds, "tt_entries": args.tt_entries},
    }
    try:
        result = plan["solve"]()
    except (SearchBudgetExceeded, KeyboardInterrupt) as stop:
        nodes = getattr(stop, "nodes", None)
        record.update(
            nodes=nodes if nodes is not None else 0,
            seconds=round(getattr(stop, "seconds", time.perf_counter() - wall), 1),
            outcome="open",
            result=f"not solved: open after {args.max_seconds:g} s"
            if isinstance(stop, SearchBudgetExceeded)
            else "not solved: interrupted",
        )
    else:
        record.update(
            nodes=int(result.extra.get("nodes") or result.positions or 0),
            seconds=round(result.seconds, 1),
            outcome="solved",
            result=f"solved: the {result.winner} player wins"
            + "".join(f" ({m.name} wins)" for m in result.moves[:1] if len(result.moves) == 1),
            openings={m.name: m.outcome.label for m in result.moves},
        )
    # seconds: the search alone (the kernel's own clock); the totals add compilation
    record["wall_seconds_total"] = round(time.perf_counter() - wall, 1)
    record["cpu_seconds"] = round(time.process_time() - cpu, 1)
    path = write_attempt(record)
    print(f"{record['result']}: {record['nodes']:,} nodes in {record['seconds']} s -> {path}")


if __name__ == "__main__":
    main()
