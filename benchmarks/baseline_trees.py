"""Measure the current tree beside a baseline commit, each in its own process.

Shared by the kernel benchmarks (``control_kernel.py``, ``lag_kernel.py``,
``super_nonnect_kernel.py``): a benchmark script defines ``measure() -> dict`` (one
measurement of the kernel first on ``sys.path``) and calls :func:`compare`, which extracts the
baseline with ``git archive`` into a temporary directory, then runs ``script --measure TREE``
for the two trees alternately, ``repeats`` times, and returns every run's JSON with the load
average around it. Each tree compiles its own numba cache in its own directory, so the two
kernels never share compiled code.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def load() -> float:
    """The one-minute load average: the machine is shared, so every run records it."""
    return round(os.getloadavg()[0], 2)


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def run_tree(script: Path, tree: Path, extra: list[str] | None = None) -> dict[str, Any]:
    """One measurement by ``script --measure tree`` in a fresh process importing ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    load_before = load()
    done = subprocess.run(
        [sys.executable, str(script), "--measure", str(tree), *(extra or [])],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    out["load_before"] = load_before
    out["load_after"] = load()
    return out


def compare(
    script: Path,
    baseline: str,
    repeats: int,
    extra: list[str] | None = None,
    show: str | None = None,
) -> dict[str, Any]:
    """Runs of the current tree and of ``baseline``, alternately, with the common header.

    ``show`` names a key of a run printed to stderr after it, as progress. The result holds
    ``command``-independent facts: date, commit (marked when solvers/ or cgt/ have
    uncommitted changes, since the measured kernel is then not the commit's), machine,
    platform, repeats, and ``current``/``baseline`` with their commit and runs.
    """
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from run import machine  # beside this file

    baseline_commit = git("rev-parse", "--short", baseline)
    dirty = git("status", "--porcelain", "--", "solvers", "cgt") != ""
    runs: dict[str, list[dict[str, Any]]] = {"current": [], "baseline": []}
    with tempfile.TemporaryDirectory(prefix="kernel-baseline-") as temporary:
        archive = subprocess.run(
            ["git", "archive", baseline], cwd=ROOT, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", temporary], input=archive, check=True)
        trees = {"current": ROOT, "baseline": Path(temporary)}
        for repeat in range(repeats):
            for name, tree in trees.items():
                print(f"run {repeat + 1}/{repeats}: {name} ...", file=sys.stderr, flush=True)
                runs[name].append(run_tree(script, tree, extra))
                if show is not None:
                    print(json.dumps(runs[name][-1][show]), file=sys.stderr, flush=True)
    info = machine()
    if dirty:
        info["commit"] += " with uncommitted changes"
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": info["commit"],
        "machine": {k: info[k] for k in ("cpu", "cores", "memory", "python", "system")},
        "platform": platform.platform(),
        "repeats": repeats,
        "current": {"commit": info["commit"], "runs": runs["current"]},
        "baseline": {"commit": baseline_commit, "runs": runs["baseline"]},
    }


def load_range(report: dict[str, Any]) -> str:
    """The one-minute load averages before a report's runs, as ``lowest-highest``."""
    loads = [r["load_before"] for t in ("current", "baseline") for r in report[t]["runs"]]
    return f"{min(loads)}-{max(loads)}"


def run_median(runs: list[dict[str, Any]], *path: str) -> Any:
    """The median over ``runs`` of the value each holds at ``path`` (keys, outermost first)."""
    values = []
    for run in runs:
        value: Any = run
        for key in path:
            value = value[key]
        values.append(value)
    return statistics.median(values)


def random_positions(game: Any, start: Any, plies: int, count: int, seed: int) -> list[Any]:
    """``count`` positions ``plies`` uniformly random moves after ``start`` (seeded), each
    with a move left: the games that end sooner are skipped."""
    rng = random.Random(seed)
    positions: list[Any] = []
    while len(positions) < count:
        position = start
        for _ in range(plies):
            moves = game.moves(position)
            if not moves:
                break
            position = game.play(position, rng.choice(moves))
        else:
            if game.moves(position):
                positions.append(position)
    return positions


def settled(kernel: Any, module: Any) -> int | None:
    """Children settled by their table entry (``module.S_SETTLED``), where the kernel
    counts them."""
    index = getattr(module, "S_SETTLED", None)
    return None if index is None else int(kernel.ctl[index])


# ------------------------------------------------------------ what every benchmark script shares
def kernel_parser(doc: str, baseline: str, repeats: int) -> argparse.ArgumentParser:
    """The options of a kernel benchmark measured beside a baseline commit: ``--baseline``,
    ``--repeats``, ``--markdown`` (regenerate the page from the JSON only) and the internal
    ``--measure TREE`` that :func:`run_tree` passes."""
    parser = argparse.ArgumentParser(
        description=doc.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", default=baseline, help="git revision to compare")
    parser.add_argument("--repeats", type=int, default=repeats)
    parser.add_argument("--markdown", action="store_true", help="regenerate the page only")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # internal: one tree, print JSON
    return parser


def command_line(script: str, args: argparse.Namespace, defaults: dict[str, Any]) -> str:
    """``python benchmarks/SCRIPT`` with the options whose value is not the default, as the
    page records the command that wrote it."""

    def shown(value: Any) -> str:
        return f"{value:g}" if isinstance(value, float) else str(value)

    return f"python benchmarks/{script}" + "".join(
        f" --{name.replace('_', '-')} {shown(getattr(args, name))}"
        for name, default in defaults.items()
        if getattr(args, name) != default
    )


def provenance(command: str) -> dict[str, Any]:
    """Command, date, commit and machine at the head of a benchmark's JSON."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from run import machine  # beside this file

    info = machine()
    return {
        "command": command,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": info["commit"],
        "machine": f"{info['cpu']}, {info['cores']} cores, Python {info['python']}",
    }


def kernel_main(
    script: ModuleType,
    measure: Callable[[argparse.Namespace], dict[str, Any]],
    *,
    repeats: int = 1,
    described: tuple[str, str] | None = None,
    show: str | None = None,
    complete: Callable[[dict[str, Any]], None] | None = None,
    parser: argparse.ArgumentParser | None = None,
) -> None:
    """The command line of the kernel benchmark ``script`` (its module: its docstring, its
    ``markdown(report)``, its pages ``JSON_PATH`` and ``MARKDOWN_PATH``, its default
    ``BASELINE_COMMIT``): ``--measure TREE`` prints ``measure(args)`` of that tree,
    ``--markdown`` rewrites the page from the JSON, else both trees are measured (``show``:
    a key of each run printed as progress), ``complete(report)`` adds what the page needs
    besides the runs, and the pages are written. ``described``: what the default baseline
    commit is and what the current tree is, for the page; ``parser``: :func:`kernel_parser`
    with the script's own options."""
    baseline: str = script.BASELINE_COMMIT
    markdown: Callable[[dict[str, Any]], str] = script.markdown
    json_path: Path = script.JSON_PATH
    markdown_path: Path = script.MARKDOWN_PATH
    if parser is None:
        parser = kernel_parser(script.__doc__ or "", baseline, repeats)
    args = parser.parse_args()
    if args.measure:
        sys.path.insert(0, args.measure)
        print(json.dumps(measure(args)))
        return
    if args.markdown:
        markdown_path.write_text(markdown(json.loads(json_path.read_text())))
        return
    path = Path(script.__file__ or "")
    command = command_line(path.name, args, {"baseline": baseline, "repeats": repeats})
    report = {"command": command, **compare(path, args.baseline, args.repeats, show=show)}
    if described is not None:
        baseline_what, current_what = described
        report["baseline"]["what"] = baseline_what if args.baseline == baseline else "the baseline"
        report["current"]["what"] = current_what
    if complete is not None:
        complete(report)
    json_path.write_text(json.dumps(report, indent=1) + "\n")
    text = markdown(report)
    markdown_path.write_text(text)
    print(text)


def timed(work: Callable[[], Any]) -> tuple[Any, float, float]:
    """``work()``'s result, its process seconds and its wall seconds."""
    started, cpu = time.perf_counter(), time.process_time()
    out = work()
    return out, time.process_time() - cpu, time.perf_counter() - started
