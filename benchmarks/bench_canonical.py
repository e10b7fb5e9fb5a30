"""Time canonical forms of empty Domineering boards: our engine against pycgt and cgt-py.

Run from the repository root::

    python benchmarks/bench_canonical.py                 # table on stdout
    python benchmarks/bench_canonical.py --write benchmarks/CANONICAL.md
    python benchmarks/bench_canonical.py --boards 2x10,5x5 --engines ours,cgt-py

Every (engine, board) pair runs in a fresh Python process (cold caches: our interned table
is process-wide) under a timeout, so a slow peer cannot hang the run; only the computation
is timed, not the imports. Fast boards run ``--repeats`` times and keep the best, because the
machine is shared and a single sample of a few milliseconds is mostly noise. Wall-clock and
CPU seconds are both reported: on a loaded machine wall time overstates the work, so the
speed ratios are taken on CPU time.

Boards: the 2 x n strips from 2 x 3 upwards, each engine going on until one strip costs it
more than ``--strip-budget`` CPU seconds (a few seconds: "as far as each tool gets"), then
6x3, 4x4 and 5x5 (value 0), the boards the peers were first timed on.

The main suite (``benchmarks/run.py``) takes two in-process cases of our engine from
:func:`register`.

Engines: ``ours`` (the bitmask road for Domineering, :mod:`cgt.games.domineering_values`),
``ours-protocol`` (the generic :class:`ValueCalculator` on the game protocol, as before the
bitmask road existed), ``pycgt`` and ``cgt-py`` (PyPI; benchmark-only dependencies, never
imported by the package; ``cgt-py`` also needs ``anywidget``). Each peer's canonical form is
rebuilt option by option in our engine (after the clock stops) and compared with ours as a
game, because the peers print some forms in notations of their own.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parent.parent
ENGINES = ("ours", "ours-python", "ours-protocol", "pycgt", "cgt-py")
STRIP_LENGTHS = range(3, 31)  # 2 x n strips; each engine stops at its strip budget
#: (rows, cols) of the boards after the strips: the boards the peers were first timed on.
BOARDS = [(6, 3), (4, 4), (5, 5)]
REPEAT_BELOW_SECONDS = 1.0  # boards slower than this are timed once


def board_text(rows: int, cols: int) -> str:
    """CGSuite's grid notation of an empty board: rows from the top, separated by ``|``."""
    return "|".join("." * cols for _ in range(rows))


# ------------------------------------------------------------------ one measurement (child)
def compute(engine: str, rows: int, cols: int) -> Any:
    """The engine's canonical form of the empty board (its own object; imports done already)."""
    if engine in ("ours", "ours-python", "ours-protocol"):
        from cgt.algebra.values import ValueCalculator
        from cgt.registry import load_game

        domineering = load_game("domineering")
        calculator = ValueCalculator(
            domineering, kernel=engine != "ours-protocol", compiled=engine == "ours"
        )
        return calculator(domineering.parse(board_text(rows, cols)))
    if engine == "pycgt":
        from pycgt.rulesets import domineering as pycgt_domineering

        return pycgt_domineering.rectangle(rows, cols)
    if engine == "cgt-py":
        import cgt_py

        return cgt_py.Domineering(board_text(rows, cols)).canonical_form
    raise ValueError(f"unknown engine {engine!r}")


def printed(engine: str, form: Any) -> str:
    """The engine's own printing of its form."""
    if engine == "pycgt":
        from pycgt.notation import render

        return str(render(form))
    if engine == "cgt-py":
        match = re.fullmatch(r"CanonicalForm\('(.*)'\)", repr(form))
        return match.group(1) if match else repr(form)
    return str(form)


def as_ours(engine: str, form: Any) -> str:
    """A peer's form rebuilt from its options in our engine, printed in CGSuite notation.

    The peers print some forms in notations of their own (pycgt's ``+-{A,B}`` is
    ``{A,B|-A,-B}``), so values are compared as games, option by option, not as text.
    """
    from cgt.algebra.game import CanonicalForm

    if engine in ("ours", "ours-python", "ours-protocol"):
        return str(form)
    if engine == "pycgt":
        options = (lambda g: g.left, lambda g: g.right)
        identity: Callable[[Any], Hashable] = id
    else:
        options = (lambda g: g.left_options, lambda g: g.right_options)
        identity = repr  # cgt-py forms are not hashable; their text is canonical
    memo: dict[Any, CanonicalForm] = {}

    def rebuild(g: Any) -> CanonicalForm:
        key = identity(g)
        if key not in memo:
            memo[key] = CanonicalForm.from_options(
                [rebuild(x) for x in options[0](g)], [rebuild(x) for x in options[1](g)]
            )
        return memo[key]

    return str(rebuild(form))


def preload(engine: str) -> None:
    """Import the engine's modules before the clock starts (import time is not the work)."""
    if engine in ("ours", "ours-python", "ours-protocol"):
        import cgt.algebra.values
        import cgt.games.domineering  # noqa: F401

        if engine == "ours":
            # numba's compiled code, from its disk cache: the analogue of importing cgt-py's
            # compiled extension module, which is not timed either
            from cgt.games.domineering_kernel import load

            load()
    elif engine == "pycgt":
        import pycgt.rulesets.domineering  # noqa: F401
    elif engine == "cgt-py":
        import cgt_py  # noqa: F401


def worker(engine: str, rows: int, cols: int) -> None:
    """Child process: print one JSON line ``{value, ours, wall, cpu}`` (only compute timed)."""
    sys.path.insert(0, str(REPOSITORY))
    preload(engine)
    wall, cpu = time.perf_counter(), time.process_time()
    form = compute(engine, rows, cols)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        json.dumps(
            {
                "value": printed(engine, form),
                "ours": as_ours(engine, form),
                "wall": wall,
                "cpu": cpu,
            }
        )
    )


# ------------------------------------------------------------------ the run (parent)
@dataclass
class Sample:
    """Best of the runs of one engine on one board; ``error`` when it did not finish."""

    value: str | None = None
    ours: str | None = None
    wall: float | None = None
    cpu: float | None = None
    error: str | None = None

    def cell(self) -> str:
        if self.error is not None:
            return self.error
        return f"{self.wall:.3g} ({self.cpu:.3g})"  # 3 digits: boards span 0.1 ms to 60 s


def measure(engine: str, rows: int, cols: int, timeout: float, repeats: int) -> Sample:
    best = Sample(error="not run")
    for attempt in range(repeats):
        command = [sys.executable, __file__, "--worker", engine, str(rows), str(cols)]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=timeout, cwd=REPOSITORY
            )
        except subprocess.TimeoutExpired:
            return Sample(error=f"timeout {timeout:.0f} s")
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return Sample(error=f"failed: {last[:60]}")
        data = json.loads(done.stdout.strip().splitlines()[-1])
        if best.wall is None or data["wall"] < best.wall:
            best = Sample(data["value"], data["ours"], data["wall"], data["cpu"])
        if attempt == 0 and data["wall"] > REPEAT_BELOW_SECONDS:
            break
    return best


def agree(samples: dict[str, Sample]) -> str:
    """``yes`` when every finished engine's value is the same game (rebuilt in our engine)."""
    sys.path.insert(0, str(REPOSITORY))
    from cgt.algebra.expression import parse_game

    values = {}
    for engine, sample in samples.items():
        if sample.ours is None:
            continue
        try:
            values[engine] = parse_game(sample.ours)
        except Exception as problem:  # a peer's notation we cannot read: say so, do not guess
            return f"cannot parse {engine}: {problem}"
    distinct = set(values.values())
    return (
        "yes" if len(distinct) == 1 else "NO: " + ", ".join(f"{e}={v}" for e, v in values.items())
    )


def machine() -> str:
    from run import cpu_model  # beside this file

    model = cpu_model() or platform.processor() or platform.machine()
    return f"{model}, {os.cpu_count()} logical CPUs, Python {platform.python_version()}, {platform.system()}"


def versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for package in ("pycgt", "cgt-py"):
        try:
            out.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            out.append(f"{package} not installed")
    return ", ".join(out)


def commit() -> str:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], capture_output=True, text=True, cwd=REPOSITORY
        ).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", "cgt/algebra", "benchmarks")
    return f"{head} + uncommitted changes in cgt/algebra, benchmarks" if dirty else head


def ratio(slow: Sample, fast: Sample) -> str:
    """``slow / fast`` in CPU time, e.g. ``2.6x``; ``-`` when either did not finish."""
    if slow.cpu is None or fast.cpu is None or fast.cpu <= 0:
        return "-"
    return f"{slow.cpu / fast.cpu:.1f}x"


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=3, metavar=("ENGINE", "ROWS", "COLS"))
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument(
        "--boards",
        default=None,
        help="e.g. 2x3,5x5 (rows x cols); default: strips, then 6x3,4x4,5x5",
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per board")
    parser.add_argument(
        "--strip-budget",
        type=float,
        default=5.0,
        help="an engine stops lengthening 2 x n strips after one costs it this many CPU s",
    )
    parser.add_argument("--strip-timeout", type=float, default=60.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--write", type=Path, default=None, help="write the Markdown table here")
    args = parser.parse_args(argv)
    if args.worker:
        engine, rows, cols = args.worker
        worker(engine, int(rows), int(cols))
        return
    engines = args.engines.split(",")
    if args.boards:
        boards = [(int(b.split("x")[0]), int(b.split("x")[1])) for b in args.boards.split(",")]
        strips: list[tuple[int, int]] = []
    else:
        strips = [(2, n) for n in STRIP_LENGTHS]
        boards = BOARDS
    started = datetime.datetime.now(datetime.UTC)
    load_before = os.getloadavg()
    peers = [e for e in engines if e != "ours"] if "ours" in engines else []
    header = (
        "| board (rows x cols) | value (CGSuite) | "
        + " | ".join(engines)
        + " | agree |"
        + "".join(f" CPU {e} / ours |" for e in peers)
    )
    lines = [header, "|" + "---|" * (len(engines) + len(peers) + 3)]
    printings: list[str] = []
    print(header, flush=True)
    out_of_budget: dict[str, str] = {}  # engine -> why it stopped lengthening strips
    for rows, cols in strips + boards:
        is_strip = (rows, cols) in strips
        if is_strip and len(out_of_budget) == len(engines):
            continue  # every engine is past its strip budget
        samples = {}
        for engine in engines:
            if is_strip and engine in out_of_budget:
                samples[engine] = Sample(error=out_of_budget[engine])
                continue
            timeout = min(args.timeout, args.strip_timeout) if is_strip else args.timeout
            sample = measure(engine, rows, cols, timeout, args.repeats)
            samples[engine] = sample
            if is_strip and (sample.cpu is None or sample.cpu > args.strip_budget):
                out_of_budget[engine] = f"stopped after 2x{cols}"
        shown = next((s.ours for s in samples.values() if s.ours is not None), "-")
        for engine, sample in samples.items():
            if sample.value is not None and sample.value != sample.ours:
                printings.append(f"- {rows}x{cols}, {engine} prints `{sample.value}`")
        shown = shown.replace("|", "\\|")  # a bare | would end the Markdown table cell
        line = (
            f"| {rows}x{cols} | `{shown}` | "
            + " | ".join(samples[e].cell() for e in engines)
            + f" | {agree(samples)} |"
            + "".join(f" {ratio(samples[e], samples['ours'])} |" for e in peers)
        )
        lines.append(line)
        print(line, flush=True)
    load_after = os.getloadavg()
    if args.write:
        text = "\n".join(
            [
                "# Canonical forms of Domineering boards: our engine, pycgt, cgt-py",
                "",
                f"- Date: {started:%Y-%m-%d %H:%M} UTC",
                f"- Commit: {commit()}",
                f"- Machine: {machine()}",
                f"- Peers: {versions()}",
                f"- Load average (1 min) before / after the run: {load_before[0]:.2f} / "
                f"{load_after[0]:.2f} (shared machine: other jobs ran at the same time)",
                f"- Command: `python benchmarks/bench_canonical.py {' '.join(argv)}`",
                "",
                "Seconds of wall-clock time (CPU time in parentheses) for the canonical form "
                "of the empty board; best of "
                f"{args.repeats} runs for boards under {REPEAT_BELOW_SECONDS:.0f} s. Every "
                "engine is measured the same way, cold: each run is a fresh Python process "
                "that imports the engine (not timed), then times one call that builds the "
                "engine's board object and its canonical form (ours: `load_game`, "
                "`ValueCalculator`, `parse`, the value; cgt-py: `Domineering(text)."
                "canonical_form`; pycgt: `rectangle(rows, cols)`). Interpreter start-up and "
                "imports are not timed for anyone, and neither is loading compiled code: "
                "cgt-py's Rust extension is loaded by its import, ours (the numba kernel of "
                "`cgt/games/domineering_kernel.py`) by `domineering_kernel.load()`, which "
                "runs the kernel once on a throwaway board with tables of its own and "
                "adds nothing to the table of forms the timed call uses (about 0.25 s, "
                "plus 0.3 s to import numba, once per process). Tables an engine builds "
                "on first use are timed (ours: the kernel's tables, and every canonical form "
                "of the answer rebuilt in the Python table of forms, beyond the few made at "
                "import). `value` is CGSuite notation as printed by our engine; `agree` "
                "compares every engine's value as a game. `ours` is the compiled road, "
                "`ours-python` the readable bitmask road in pure Python, `ours-protocol` the "
                "generic protocol road (no Domineering bitmask road, but today's algebra). "
                "2 x n strips: each engine "
                f"goes on until one strip costs it more than {args.strip_budget:g} CPU seconds "
                f"(or {args.strip_timeout:g} s of wall time). The last columns are CPU-time "
                "ratios: above 1x means ours is faster.",
                "",
                *lines,
                "",
                "Peers' own printings where they differ from CGSuite notation as we print it "
                "(same values, see `agree`):",
                "",
                *(printings or ["- none"]),
                "",
            ]
        )
        args.write.write_text(text)


# ------------------------------------------------------------------ cases of benchmarks/run.py
def _case_row(rows: int, cols: int, compiled: bool) -> dict[str, Any]:
    """One in-process measurement of our engine, in ``benchmarks/run.py``'s row format."""
    sys.path.insert(0, str(REPOSITORY))
    preload("ours" if compiled else "ours-python")
    from cgt.algebra.game import table_size
    from cgt.algebra.values import ValueCalculator
    from cgt.registry import load_game

    domineering = load_game("domineering")
    calculator = ValueCalculator(domineering, compiled=compiled)
    position = domineering.parse(board_text(rows, cols))
    started = time.perf_counter()
    value = calculator(position)
    seconds = time.perf_counter() - started
    regions = calculator.evaluated
    return {
        "result": str(value).replace("|", "\\|"),
        "positions": regions,
        "seconds": seconds,
        "rate": regions / seconds if seconds else 0.0,
        "note": (
            f"Domineering {rows}x{cols} canonical form, our "
            f"{'compiled' if compiled else 'readable (pure Python)'} bitmask road; positions = "
            f"regions expanded; {table_size()} canonical forms in the Python table "
            "(peers: bench_canonical.py)"
        ),
    }


def register(case: Callable[[str], Callable[[Callable[[], dict[str, Any]]], Any]]) -> None:
    """Add short canonical-form cases of our engine to ``benchmarks/run.py``'s suite."""

    # named "<board>/compiled" and "<board>/python" so that run.py pairs them
    for rows, cols, compiled in [
        (5, 5, True),
        (5, 5, False),
        (2, 14, True),
        (2, 14, False),
        (2, 18, True),
    ]:
        road = "compiled" if compiled else "python"

        def measure_case(rows: int = rows, cols: int = cols, compiled: bool = compiled) -> Any:
            return _case_row(rows, cols, compiled)

        case(f"domineering {rows}x{cols} canonical form/{road}")(measure_case)


if __name__ == "__main__":
    main(sys.argv[1:])
