"""Time canonical forms of Domineering boards (the CGT engine's standard workload).

Run from the repository root: ``python benchmarks/bench_canonical.py [--big]``. The interned
table of canonical forms is process-wide, so boards are timed in order of size and later
boards reuse earlier forms, as in a session (each board gets a fresh position table).
``--big`` adds 5x5 (about 45 s in pure Python).
Published for comparison (ANCHORS.md, 2-core machine):
pycgt 6x3 0.51 s, 5x5 43.5 s; cgt-py 6x3 0.03 s, 5x5 4.1 s.
"""

from __future__ import annotations

import sys
import time

from cgt.algebra import game as engine
from cgt.algebra.values import ValueCalculator
from cgt.registry import load_game


def board(rows: int, cols: int) -> str:
    return "|".join("." * cols for _ in range(rows))


def main(argv: list[str]) -> None:
    domineering = load_game("domineering")
    sizes = [(2, n) for n in range(2, 9)] + [(3, 3), (4, 4), (6, 3)]
    if "--big" in argv:
        sizes.append((5, 5))
    print(f"{'board':>6} {'seconds':>8} {'expanded':>9} {'forms':>6}  value")
    for rows, cols in sizes:
        start = time.perf_counter()
        calculator = ValueCalculator(domineering)
        value = calculator(domineering.parse(board(rows, cols)))
        seconds = time.perf_counter() - start
        text = str(value)
        if len(text) > 50:
            text = text[:47] + "..."
        print(
            f"{rows}x{cols:<4} {seconds:8.3f} {calculator.evaluated:9d} "
            f"{engine.table_size():6d}  {text}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
