"""The value of every first cut of Super Nonnect 3x3, up to symmetry, by df-pn on the
position after each cut (compiled kernel), for the report's side-by-side of the two rules.

    python benchmarks/super_nonnect_openings.py --rule revised --max-seconds 60

Each opening is stored in ``reports/data/super-nonnect-3x3-<rule>-openings.json`` as soon as
it is decided or runs out of time, so the same command resumes (a timed-out opening is
retried only with a larger ``--max-seconds``). Progress on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    from cgt.games.super_nonnect import SuperNonnect
    from cgt.protocol import Outcome
    from cgtapp.report import data
    from solvers.api import solve
    from solvers.budget import SearchBudgetExceeded

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule", choices=("revised", "original"), default="revised")
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--tt-entries", type=int, default=1 << 24)
    args = parser.parse_args()
    out_dir = ROOT / "reports"
    name = f"super-nonnect-3x3-{args.rule}-openings"
    command = (
        f"python benchmarks/super_nonnect_openings.py --rule {args.rule} "
        f"--max-seconds {args.max_seconds:g}"
    )
    stored = data.load(out_dir, name)
    openings: dict[str, Any] = dict(stored.results["openings"]) if stored else {}
    game = SuperNonnect(a=3, b=3, rule=args.rule)
    root = game.initial_position()
    classes: dict[Any, list[str]] = {}
    moves = {}
    for move in game.moves(root):
        after = game.play(root, move)
        moves[game.move_name(root, move)] = after
        classes.setdefault(game.canonical_key(after), []).append(game.move_name(root, move))
    for names in classes.values():
        first = names[0]
        known = openings.get(first)
        if known and (known["outcome"] != "open" or known["max_seconds"] >= args.max_seconds):
            continue
        print(f"{first} ({len(names)} cuts alike) ...", file=sys.stderr, flush=True)
        try:
            result = solve(
                game,
                moves[first],
                solver="compiled",
                method="dfpn",
                root_only=True,
                tt_entries=args.tt_entries,
                max_seconds=args.max_seconds,
            )
            # the value after the cut is the opponent's: a loss for them wins the cut
            outcome = {Outcome.LOSS: "win", Outcome.WIN: "loss"}.get(result.outcome, "open")
            nodes, seconds = int(result.extra.get("nodes", result.positions)), result.seconds
        except SearchBudgetExceeded as exc:
            outcome, nodes, seconds = "open", exc.nodes, exc.seconds
        openings[first] = {
            "outcome": outcome,
            "same_up_to_symmetry": names,
            "nodes": nodes,
            "seconds": round(seconds, 1),
            "max_seconds": args.max_seconds,
        }
        print(f"  {first}: {outcome} ({openings[first]['seconds']} s)", file=sys.stderr)
        data.save(out_dir, name, {"rule": args.rule, "openings": openings}, command)


if __name__ == "__main__":
    main()
