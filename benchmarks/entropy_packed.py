"""Time the packed Entropy retrograde (solvers/kernels/entropy.py) on one board and print
one JSON line: wall and CPU seconds per phase, positions decided per level and a digest of
the value array (two runs with the same digest solved every index identically).

    python -m benchmarks.entropy_packed 5 5 "SSSS./...../...../...../.OOOO O" --threads 2

``--threads`` sets numba's thread count for the parallel kernels (default: all cores).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("width", type=int)
    parser.add_argument("height", type=int)
    parser.add_argument("setup")
    parser.add_argument("--threads", type=int, default=0, help="numba threads (0: all)")
    parser.add_argument("--no-symmetry", action="store_true")
    parser.add_argument("--max-seconds", type=float, default=None)
    args = parser.parse_args()

    import numba

    from cgt.games.entropy import Entropy
    from cgt.progress import StderrProgress
    from solvers.kernels.entropy import EntropySpace, warm_up

    if args.threads:
        numba.set_num_threads(args.threads)
    compile_seconds = warm_up()
    space = EntropySpace(
        Entropy(width=args.width, height=args.height, setup=args.setup),
        symmetry=not args.no_symmetry,
    )
    started, cpu = time.perf_counter(), time.process_time()
    space.solve(max_seconds=args.max_seconds, progress=StderrProgress("entropy"))
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert space.value is not None
    print(
        json.dumps(
            {
                "board": f"{args.width}x{args.height} {args.setup}",
                "threads": numba.get_num_threads(),
                "compile_seconds": round(compile_seconds, 2),
                "wall_seconds": round(wall, 2),
                "cpu_seconds": round(cpu, 2),
                "seconds_per_phase": {k: round(v, 2) for k, v in space.seconds.items()},
                "cpu_seconds_per_phase": {k: round(v, 2) for k, v in space.cpu_seconds.items()},
                "value_digest": hashlib.sha256(space.value.tobytes()).hexdigest()[:16],
                **space.stats,
            }
        )
    )


if __name__ == "__main__":
    main()
