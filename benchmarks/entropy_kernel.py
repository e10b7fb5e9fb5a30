"""The packed Entropy retrograde, the current tree beside a baseline commit measured in the
same run; writes ``benchmarks/entropy_kernel.json`` and ``benchmarks/ENTROPY_KERNEL.md``
(generated, never edited by hand: ``--markdown`` regenerates the page from the JSON alone).

    python benchmarks/entropy_kernel.py                 # baseline: BASELINE_COMMIT
    python benchmarks/entropy_kernel.py --baseline REV --repeats 2
    python benchmarks/entropy_kernel.py --markdown      # the page again from the JSON

Each board's whole ranked space is solved (``EntropySpace.solve``) with numba's threads on
all cores, then with one thread, after the kernels are compiled (``warm_up`` and the small
``WARM_BOARDS``, not timed: a tree's numba cache may be cold). Recorded per board: wall and
process seconds of the scan and the propagation, and digests of the ``value`` array and of
the :mod:`solvers.store` records written from it (the packed store's bytes): equal digests
in both trees mean every index was solved identically.
"""

from __future__ import annotations

import hashlib
import itertools
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Entropy's hand-built retrograde driver (scan, levels, frontier in solvers/kernels/
#: entropy.py), the last commit before it became a plug-in of the engine's levels template.
BASELINE_COMMIT = "3bac20c"
BASELINE_WHAT = "Entropy's own packed retrograde driver"
CURRENT_WHAT = (
    "Entropy's ranking, scan and un-moves as hooks of the engine's levels retrograde "
    "(solvers/engine_levels.py, solvers/levels.py)"
)
#: (width, height, setup, symmetry): the 4x4 space with and without symmetry classes, and
#: two 5x5 sub-spaces (3 and 4 pieces a side), the last about a minute of process time.
BOARDS = (
    (4, 4, "SSSS/..../..../OOOO O", True),
    (4, 4, "SSSS/..../..../OOOO O", False),
    (5, 5, "SSS../...../...../...../..OOO O", True),
    (5, 5, "SSSS./...../...../...../.OOOO O", True),
)
#: Solved untimed first, with and without symmetry, so that whatever ``warm_up`` leaves
#: uncompiled (a tree's numba cache may be cold) is compiled before the timed boards.
WARM_BOARDS = ((3, 3, "SS./.../.OO O"), (4, 4, "SS../..../..../..OO O"))
JSON_PATH = ROOT / "benchmarks" / "entropy_kernel.json"
MARKDOWN_PATH = ROOT / "benchmarks" / "ENTROPY_KERNEL.md"


def _digest(array: Any) -> str:
    return hashlib.sha256(array.tobytes()).hexdigest()[:16]


def measure() -> dict[str, Any]:
    """Every board solved once by the kernel first on ``sys.path``."""
    import numba

    from cgt.games.entropy import Entropy
    from solvers.kernels.entropy import EntropySpace, warm_up

    started = time.perf_counter()
    warm_up()
    for (width, height, setup), symmetry in itertools.product(WARM_BOARDS, (True, False)):
        EntropySpace(Entropy(width=width, height=height, setup=setup), symmetry=symmetry).solve()
    compile_seconds = time.perf_counter() - started
    boards: dict[str, Any] = {}
    every_thread = numba.config.NUMBA_NUM_THREADS
    for threads, (width, height, setup, symmetry) in itertools.product(
        dict.fromkeys((every_thread, 1)), BOARDS
    ):
        numba.set_num_threads(threads)
        name = f"{_name(width, height, setup, symmetry)}, {threads} thread{'s' * (threads > 1)}"
        space = EntropySpace(Entropy(width=width, height=height, setup=setup), symmetry=symmetry)
        started, cpu = time.perf_counter(), time.process_time()
        space.solve()
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        assert space.value is not None
        boards[name] = {
            "indices": space.size,
            "positions": space.stats["positions"],
            "max_remoteness": space.stats["max_remoteness"],
            "wall_seconds": round(wall, 3),
            "cpu_seconds": round(cpu, 3),
            "seconds_per_phase": {k: round(v, 3) for k, v in space.seconds.items()},
            "cpu_seconds_per_phase": {k: round(v, 3) for k, v in space.cpu_seconds.items()},
            "value_digest": _digest(space.value),
            "records_digest": _digest(space.records(0, space.size)),
        }
        print(f"{name}: {cpu:.1f} s", file=sys.stderr)
    return {"compile_seconds": round(compile_seconds, 2), "boards": boards}


def _name(width: int, height: int, setup: str, symmetry: bool) -> str:
    pieces = setup.count("O") - 1  # the last O is the side to move
    return f"{width}x{height} {pieces}+{pieces}" + ("" if symmetry else ", no symmetry")


def _median(runs: list[dict[str, Any]], board: str, *path: str) -> float:
    from baseline_trees import run_median  # beside this file

    return float(run_median(runs, "boards", board, *path))


def markdown(report: dict[str, Any]) -> str:
    from baseline_trees import load_range  # beside this file

    cur_runs, base_runs = report["current"]["runs"], report["baseline"]["runs"]
    m = report["machine"]
    first = list(cur_runs[0]["boards"])[:: len(BOARDS)]  # the first space, every thread count
    waits = [_median(runs, first[0], "cpu_seconds") / _median(runs, first[-1], "cpu_seconds")
             for runs in (base_runs, cur_runs)]  # fmt: skip
    lines = [
        "# Packed Entropy retrograde: the current tree against a baseline, in one run",
        "",
        f"Generated by `{report['command']}` on {report['date']}, commit "
        f"`{report['commit']}` ({report['current']['what']}; baseline: commit "
        f"`{report['baseline']['commit']}`, {report['baseline']['what']}), {m['cpu']}, "
        f"{m['cores']} cores, Python {m['python']}. Every space is solved with numba's "
        "threads on every core, then with one thread (the work alone, free of the waits of "
        "threads on a shared machine). Load average (1 min) before the runs: "
        f"{load_range(report)} (the machine was shared: process seconds, of every "
        f"thread, are the measure). {report['repeats']} run(s) "
        "of each tree, alternately; times are medians; compilation excluded.",
        "",
        "With every core on a shared machine, a small space's process seconds include the "
        f"threads waiting for each other (the first space: {waits[0]:.1f} times its "
        f"one-thread seconds in the baseline, {waits[1]:.1f} in the current tree): the "
        "one-thread rows compare the work.",
        "",
        "Identical: the digests of the `value` array and of the packed store's records "
        "(`records(0, size)`, what `cgt solve --save` writes) in both trees.",
        "",
        "| space | indices | max remoteness | baseline s (process) | current s (process) | "
        "baseline s (wall) | current s (wall) | time | scan s, baseline / current | "
        "propagation s, baseline / current | identical |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for board, c in cur_runs[0]["boards"].items():
        b = base_runs[0]["boards"][board]
        same = all(
            run["boards"][board][key] == c[key]
            for run in cur_runs + base_runs
            for key in ("value_digest", "records_digest")
        )
        bc, cc = (_median(runs, board, "cpu_seconds") for runs in (base_runs, cur_runs))
        bw, cw = (_median(runs, board, "wall_seconds") for runs in (base_runs, cur_runs))
        phases = [
            " / ".join(
                f"{_median(runs, board, 'cpu_seconds_per_phase', phase):.2f}"
                for runs in (base_runs, cur_runs)
            )
            for phase in ("scan", "propagate")
        ]
        ratio = bc / cc if cc else float("inf")
        time_word = f"{ratio:.2f}x " + ("faster" if ratio >= 1 else "slower")
        lines.append(
            f"| {board} | {c['indices']:,} | {c['max_remoteness']}"
            f"{'' if b['max_remoteness'] == c['max_remoteness'] else ' (baseline differs!)'} | "
            f"{bc:.2f} | {cc:.2f} | {bw:.2f} | {cw:.2f} | {time_word} | {phases[0]} | "
            f"{phases[1]} | {'yes' if same else 'NO'} (`{c['value_digest']}`, "
            f"`{c['records_digest']}`) |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from baseline_trees import kernel_main  # beside this file

    kernel_main(
        sys.modules[__name__],
        lambda args: measure(),
        described=(BASELINE_WHAT, CURRENT_WHAT),
    )


if __name__ == "__main__":
    main()
