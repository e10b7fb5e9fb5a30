"""Time canonical forms of empty Domineering boards: our engine against pycgt and cgt-py.

Run from the repository root::

    python benchmarks/bench_canonical.py                 # table on stdout
    python benchmarks/bench_canonical.py --write benchmarks/CANONICAL.md

Every (engine, board) pair runs in a fresh Python process (cold caches: our interned table
is process-wide) under a timeout, so a slow peer cannot hang the run; only the computation
is timed, not the imports. Fast boards run ``--repeats`` times and keep the best, because the
machine is shared and a single sample of a few milliseconds is mostly noise. Wall-clock and
CPU seconds are both reported: on a loaded machine wall time overstates the work.

Engines: ``ours`` (the bitmask road for Domineering, :mod:`cgt.algebra.domineering_values`),
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
ENGINES = ("ours", "ours-protocol", "pycgt", "cgt-py")
#: (rows, cols): 2 x n strips, then the boards ANCHORS.md quotes the peers on.
BOARDS = [(2, n) for n in range(3, 9)] + [(6, 3), (4, 4), (5, 5)]
REPEAT_BELOW_SECONDS = 5.0  # boards slower than this are timed once


def board_text(rows: int, cols: int) -> str:
    """CGSuite's grid notation of an empty board: rows from the top, separated by ``|``."""
    return "|".join("." * cols for _ in range(rows))


# ------------------------------------------------------------------ one measurement (child)
def compute(engine: str, rows: int, cols: int) -> Any:
    """The engine's canonical form of the empty board (its own object; imports done already)."""
    if engine in ("ours", "ours-protocol"):
        from cgt.algebra.values import ValueCalculator
        from cgt.registry import load_game

        domineering = load_game("domineering")
        calculator = ValueCalculator(domineering, kernel=engine == "ours")
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

    if engine in ("ours", "ours-protocol"):
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
    if engine in ("ours", "ours-protocol"):
        import cgt.algebra.values
        import cgt.games.domineering  # noqa: F401
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
        return f"{self.wall:.3f} ({self.cpu:.3f})"


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
    from cgt.algebra.notation import parse_game

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
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
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


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=3, metavar=("ENGINE", "ROWS", "COLS"))
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument(
        "--boards", default=None, help="e.g. 2x3,5x5 (rows x cols); default: the standard set"
    )
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--write", type=Path, default=None, help="write the Markdown table here")
    args = parser.parse_args(argv)
    if args.worker:
        engine, rows, cols = args.worker
        worker(engine, int(rows), int(cols))
        return
    engines = args.engines.split(",")
    boards = (
        [tuple(int(n) for n in b.split("x")) for b in args.boards.split(",")]
        if args.boards
        else BOARDS
    )
    started = datetime.datetime.now(datetime.UTC)
    load_before = os.getloadavg()
    header = "| board (rows x cols) | value (CGSuite) | " + " | ".join(engines) + " | agree |"
    lines = [header, "|" + "---|" * (len(engines) + 3)]
    printings: list[str] = []
    print(header, flush=True)
    for rows, cols in boards:
        samples = {e: measure(e, rows, cols, args.timeout, args.repeats) for e in engines}
        shown = next((s.ours for s in samples.values() if s.ours is not None), "-")
        for engine, sample in samples.items():
            if sample.value is not None and sample.value != sample.ours:
                printings.append(f"- {rows}x{cols}, {engine} prints `{sample.value}`")
        shown = shown.replace("|", "\\|")  # a bare | would end the Markdown table cell
        line = (
            f"| {rows}x{cols} | `{shown}` | "
            + " | ".join(samples[e].cell() for e in engines)
            + f" | {agree(samples)} |"
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
                "of the empty board, each in a fresh process (cold caches), imports not "
                f"timed; best of {args.repeats} runs for boards under {REPEAT_BELOW_SECONDS:.0f} "
                "s. `value` is CGSuite notation as printed by our engine; `agree` compares "
                "every engine's value as a game. `ours-protocol` is the generic protocol road "
                "(no Domineering bitmask road, but today's algebra).",
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


if __name__ == "__main__":
    main(sys.argv[1:])
