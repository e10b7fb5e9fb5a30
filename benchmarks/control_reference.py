"""Control's compiled search against a C reference solver, in one run (issue 24's yardstick:
at least 0.9x as fast as the C reference on ten fixed size-4 positions).

    python benchmarks/control_reference.py                # measure, write JSON and page
    python benchmarks/control_reference.py --repeats 5
    python benchmarks/control_reference.py --markdown     # rewrite the page from the JSON
    python benchmarks/control_reference.py --choose       # re-derive the ten positions

The C reference (``benchmarks/reference/control.c``, compiled here with ``gcc -O2
-march=native`` into a temporary directory; no build step in the package) is a benchmark tool
written for this comparison; ``tests/test_control_c_reference.py`` holds its values to the
kernel's on random positions. Every contender solves every position with a fresh table of
:data:`TABLE_LOG2` entries, value mode (win or loss for the player to move), root value only.

Contenders are a list (:func:`contenders`): a name and a ``prepare(position)`` that does the
setup (a fresh table, the solver's objects) and returns the timed call, which gives ``(value,
nodes)``. A third one, such as an engine-based Control, is one more entry there.

Speeds are process CPU time, the script's own plus its children's (the C solver runs as a
child process, one per position, ``resource.getrusage(RUSAGE_CHILDREN)``): the machine is
shared. The contenders alternate position by position, ``--repeats`` times; the page gives
the median (and best) seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
C_SOURCE = ROOT / "benchmarks" / "reference" / "control.c"
POSITIONS_PATH = ROOT / "benchmarks" / "control_reference_positions.json"
JSON_PATH = ROOT / "benchmarks" / "control_reference.json"
MARKDOWN_PATH = ROOT / "benchmarks" / "CONTROL_REFERENCE.md"
C_FLAGS = ("-O2", "-march=native")
#: Every contender's table: 2^22 entries (16 bytes each in C, 32 in the kernel).
TABLE_LOG2 = 22
#: The speed the issue asks of the compiled search, as a fraction of the C reference's.
TARGET_SPEED = 0.9
#: How the ten positions were chosen (``--choose``): random play from the opening ``a1``,
#: ``plies`` more plies with ``random.Random(seed)``, kept when the position has a move and
#: the kernel proves its value in ``min_nodes`` to ``max_nodes`` nodes (a fraction of a
#: second to a few seconds; node counts, unlike seconds, are the same on every machine).
CHOICE = {
    "size": 4,
    "opening": "a1",
    "plies": 14,
    "seed": 24,
    "min_nodes": 1_000_000,
    "max_nodes": 20_000_000,
    "count": 10,
}

#: The timed call of a contender: ``(value for the player to move, 1 or -1, nodes)``.
Solve = Callable[[], tuple[int, int]]


@dataclass(frozen=True)
class Contender:
    """A solver in the comparison: ``prepare(position)`` does the untimed setup and returns
    the timed call."""

    name: str
    about: str
    prepare: Callable[[Any], Solve]
    #: Whether the issue's target (at least TARGET_SPEED of the C reference's speed) applies.
    targeted: bool = True


# ------------------------------------------------------------ the C reference
def compile_reference(directory: Path, defines: tuple[str, ...] = ()) -> Path | None:
    """The C reference compiled into ``directory`` with the macros ``defines`` (``BROKEN``:
    the planted bug; ``NO_HUGE_PAGES``: the table on ordinary pages), or ``None`` when gcc
    is not installed."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    binary = directory / "-".join(["control", *(d.lower() for d in defines)])
    flags = [*C_FLAGS, *(f"-D{d}" for d in defines)]
    subprocess.run([gcc, *flags, "-o", str(binary), str(C_SOURCE)], check=True)
    return binary


def run_reference(binary: Path, texts: list[str], table_log2: int = TABLE_LOG2) -> list[list[int]]:
    """``[value, nodes]`` of each position (the game's notation), by one run of the C
    reference (a fresh table for each position)."""
    done = subprocess.run(
        [str(binary), str(table_log2)],
        input="\n".join(texts) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    return [[int(word) for word in line.split()] for line in done.stdout.splitlines()]


def c_reference(game: Any, binary: Path, name: str, pages: str) -> Contender:
    def prepare(position: Any) -> Solve:
        text = game.render(position)

        def solve() -> tuple[int, int]:
            ((value, nodes),) = run_reference(binary, [text])
            return value, nodes

        return solve

    return Contender(
        name,
        f"benchmarks/reference/control.c compiled with gcc {' '.join(C_FLAGS)}, one process "
        f"per position; 16-byte entries ({(16 << TABLE_LOG2) >> 20} MiB) {pages}",
        prepare,
        targeted=False,
    )


# ------------------------------------------------------------ the compiled kernel
def engine_control(game: Any) -> Contender:
    """The engine on Control's plug-in (solvers.kernels.control), value mode, root value
    only (``score``), with its default settings (symmetry, mobility ordering, history by
    work, ETC)."""
    from solvers.kernel_table import S_NODES
    from solvers.kernels.control import ControlKernel, warm_up

    warm_up()  # compiled (or loaded from the cache) before any timing

    # The previous position's kernel is kept until the next one is built, then dropped
    # (its table freed) just before: the new table then takes memory just freed, as a C
    # process takes what the one before it freed. Memory that has lain free for a while
    # costs the first touch of each page far more on this machine (a virtual machine's
    # host takes free memory back): measured up to 0.3 s a position in system time.
    held: list[Any] = []

    def prepare(position: Any) -> Solve:
        held.clear()
        kernel = ControlKernel(game, tt_entries=1 << TABLE_LOG2)
        held.append(kernel)

        def solve() -> tuple[int, int]:
            return kernel.score(position), int(kernel.ctl[S_NODES])

        return solve

    return Contender(
        "engine",
        "the engine on Control's plug-in, `ControlKernel.score` (root value only, default "
        "settings); "
        f"32-byte slots ({(32 << TABLE_LOG2) >> 20} MiB)",
        prepare,
    )


def contenders(game: Any, directory: Path) -> list[Contender]:
    """The C reference first (the ratios are to it), then the compiled searches, then two
    variants of the C reference that show what two of its choices are worth: the history
    credited by the square of the bit length of a cut-off's work (the engine's ``depth``,
    where the reference credits the work itself), and the table on ordinary pages."""
    binary = compile_reference(directory)
    kernel_history = compile_reference(directory, ("HISTORY_BIT_LENGTH_SQUARED",))
    ordinary_pages = compile_reference(directory, ("NO_HUGE_PAGES",))
    assert binary is not None and kernel_history is not None and ordinary_pages is not None
    return [
        c_reference(game, binary, "C reference", "on huge pages where the system grants them"),
        engine_control(game),
        c_reference(
            game,
            kernel_history,
            "C, history by bit length squared",
            "on huge pages; history credited by the square of the work's bit length",
        ),
        c_reference(game, ordinary_pages, "C, ordinary pages", "on ordinary 4 KiB pages"),
    ]


# ------------------------------------------------------------ measurement
def cpu_seconds() -> float:
    """Process CPU time of this process and its finished children (user + system)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(
    positions: list[Any], entrants: list[Contender], repeats: int
) -> dict[str, list[dict[str, Any]]]:
    """Per contender, per position: value, nodes and the CPU seconds of every repeat; the
    contenders alternate position by position."""
    results: dict[str, list[dict[str, Any]]] = {
        c.name: [{"seconds": []} for _ in positions] for c in entrants
    }
    for repeat in range(repeats):
        for k, position in enumerate(positions):
            for contender in entrants:
                solve = contender.prepare(position)
                started = cpu_seconds()
                value, nodes = solve()
                seconds = cpu_seconds() - started
                row = results[contender.name][k]
                row["seconds"].append(round(seconds, 4))
                if (
                    row.setdefault("value", value) != value
                    or row.setdefault("nodes", nodes) != nodes
                ):
                    raise RuntimeError(f"{contender.name}: position {k} changed between repeats")
            print(
                f"repeat {repeat + 1}/{repeats}, position {k + 1}/{len(positions)}: "
                + ", ".join(f"{n} {r[k]['seconds'][-1]:.3f} s" for n, r in results.items()),
                file=sys.stderr,
                flush=True,
            )
    return results


def choose_positions(game: Any) -> dict[str, Any]:
    """The positions of :data:`CHOICE`, with the kernel's value and nodes when chosen, and
    the number of candidates tried."""
    from solvers.kernel_table import S_NODES
    from solvers.kernels.control import ControlKernel, warm_up

    warm_up()
    rng = random.Random(CHOICE["seed"])
    root = game.initial_position()
    start = game.play(root, game.parse_move(root, CHOICE["opening"]))
    chosen: list[dict[str, Any]] = []
    tried = 0
    while len(chosen) < CHOICE["count"]:
        position = start
        for _ in range(CHOICE["plies"]):
            moves = game.moves(position)
            if not moves:
                break
            position = game.play(position, rng.choice(moves))
        else:
            if not game.moves(position):
                continue
            tried += 1
            kernel = ControlKernel(game, tt_entries=1 << TABLE_LOG2)
            value = kernel.score(position)
            nodes = int(kernel.ctl[S_NODES])
            print(f"candidate {tried}: {nodes:,} nodes", file=sys.stderr, flush=True)
            if CHOICE["min_nodes"] <= nodes <= CHOICE["max_nodes"]:
                chosen.append(
                    {"position": game.render(position), "value": value, "kernel_nodes": nodes}
                )
    return {"choice": CHOICE, "candidates": tried, "positions": chosen}


# ------------------------------------------------------------ the page
def _summary(row: dict[str, Any]) -> tuple[float, float]:
    return statistics.median(row["seconds"]), min(row["seconds"])


def markdown(report: dict[str, Any]) -> str:
    names = [c["name"] for c in report["contenders"]]
    reference = names[0]
    results = report["results"]
    count = len(report["positions"])
    totals = {n: sum(_summary(r)[0] for r in results[n]) for n in names}
    agree = all(len({results[n][k]["value"] for n in names}) == 1 for k in range(count))
    lines = [
        "# Control: the compiled search against a C reference",
        "",
        f"Generated by `{report['command']}` on {report['date']}, commit `{report['commit']}`, "
        f"{report['machine']}, {report['compiler']}; transparent huge pages: "
        f"`{report['huge_pages']}`. Load average (1 min) {report['load_before']} before and "
        f"{report['load_after']} after the runs (the machine is shared: seconds are process "
        f"CPU time, the C solver's as a child process). {report['repeats']} runs, the "
        "contenders alternating position by position; median (best) seconds.",
        "",
        "## What the C reference is",
        "",
        "`benchmarks/reference/control.c`: a single-threaded solver of Control (adjacent "
        "control, White's opening on the perimeter) in about 400 lines of C, written as the "
        "yardstick of issue 24; not part of the package. It proves win or loss for the player "
        "to move (no draws: under adjacent control every game ends) by negamax alpha-beta on "
        "two bitboards in the kernel's padded hex layout, with bit-sliced vote counts kept "
        "incrementally, the opponent's replies to each move counted by popcount (fewest "
        "first; a move leaving none wins at once), ties by the history heuristic (credited "
        "with the nodes each win took), a transposition "
        "table of 16-byte entries four to a 64-byte line (full key verified; on huge pages "
        "where the system grants them) and enhanced transposition cut-offs. It reads "
        "positions in the game's notation on stdin and prints each one's value and nodes. "
        "`tests/test_control_c_reference.py` holds its values to the kernel's on random "
        "size-3 and size-4 positions and shows the comparison catches a planted bug. "
        f"Every contender here uses a fresh table of 2^{report['table_log2']} entries per "
        "position.",
        "",
        "The contenders:",
        "",
        *[f"- {c['name']}: {c['about']}" for c in report["contenders"]],
        "",
        "A node is one position visited: a search call, or a child settled by its table "
        "entry (both solvers count them the same way; the kernel also keys positions with "
        "few pieces by symmetry, the C solver does not).",
        "",
        "## The ten positions",
        "",
        f"{report['choice_note']}",
        "",
    ]
    header = "| # | position | value |"
    rule = "|---:|---|---:|"
    for n in names:
        header += f" {n} nodes | {n} s |"
        rule += "---:|---:|"
    for n in names[1:]:
        header += f" {n} time / C time |"
        rule += "---:|"
    lines += [header, rule]
    for k, position in enumerate(report["positions"]):
        row = f"| {k + 1} | `{position}` | {results[reference][k]['value']:+d} |"
        for n in names:
            median, best = _summary(results[n][k])
            row += f" {results[n][k]['nodes']:,} | {median:.3f} ({best:.3f}) |"
        for n in names[1:]:
            row += f" {_summary(results[n][k])[0] / _summary(results[reference][k])[0]:.2f} |"
        lines.append(row)
    total = "| | all ten | |"
    for n in names:
        total += f" {sum(r['nodes'] for r in results[n]):,} | {totals[n]:.3f} |"
    for n in names[1:]:
        total += f" {totals[n] / totals[reference]:.2f} |"
    lines += [total, ""]
    lines.append(
        "Values (1: the player to move wins) agree between the contenders on every position: "
        + ("yes." if agree else "**NO**.")
    )
    lines.append("")
    for contender in report["contenders"][1:]:
        n = contender["name"]
        speed = totals[reference] / totals[n]
        verdict = (
            f" (target: at least {TARGET_SPEED}x: {'met' if speed >= TARGET_SPEED else 'not met'})"
            if contender["targeted"]
            else ""
        )
        lines.append(
            f"- {n}: {totals[n]:.3f} s against {totals[reference]:.3f} s for the C reference "
            f"(sums of medians): {speed:.2f}x as fast as the C reference{verdict}."
        )
    lines.append("")
    return "\n".join(lines)


def write_page(report: dict[str, Any]) -> str:
    """Write the page of ``report`` and return its text."""
    text = markdown(report)
    MARKDOWN_PATH.write_text(text)
    return text


# ------------------------------------------------------------ driver
def _huge_pages() -> str:
    try:
        return Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text().strip()
    except OSError:
        return "unknown"


def _choice_note(stored: dict[str, Any]) -> str:
    c = stored["choice"]
    return (
        f"Size {c['size']}, the opening {c['opening']} then {c['plies']} random plies "
        f"(`random.Random({c['seed']})`, uniform over the legal moves), kept when the "
        f"position has a move and the kernel proves it in {c['min_nodes']:,} to "
        f"{c['max_nodes']:,} nodes: the first {c['count']} of {stored['candidates']} "
        "candidates (`benchmarks/control_reference_positions.json`, written by `--choose`)."
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--markdown", action="store_true", help="rewrite the page from the JSON")
    parser.add_argument("--choose", action="store_true", help="re-derive the positions file")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")
    if args.markdown:
        write_page(json.loads(JSON_PATH.read_text()))
        return
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from baseline_trees import load, provenance  # beside this file

    from cgt.games.control import Control

    game = Control(size=CHOICE["size"])
    if args.choose:
        POSITIONS_PATH.write_text(json.dumps(choose_positions(game), indent=1) + "\n")
        print(f"wrote {POSITIONS_PATH}", file=sys.stderr)
        return
    if shutil.which("gcc") is None:
        print(
            "gcc not found: the C reference cannot be compiled; nothing measured", file=sys.stderr
        )
        return
    stored = json.loads(POSITIONS_PATH.read_text())
    positions = [game.parse(p["position"]) for p in stored["positions"]]
    command = "python benchmarks/control_reference.py" + (
        f" --repeats {args.repeats}" if args.repeats != 3 else ""
    )
    with tempfile.TemporaryDirectory(prefix="control-reference-") as directory:
        entrants = contenders(game, Path(directory))
        load_before = load()
        started = time.perf_counter()
        results = measure(positions, entrants, args.repeats)
    compiler = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout
    report = {
        **provenance(command),
        "compiler": compiler.splitlines()[0] + " " + " ".join(C_FLAGS),
        "huge_pages": _huge_pages(),
        "load_before": load_before,
        "load_after": load(),
        "wall_seconds": round(time.perf_counter() - started, 1),
        "repeats": args.repeats,
        "table_log2": TABLE_LOG2,
        "choice_note": _choice_note(stored),
        "positions": [p["position"] for p in stored["positions"]],
        "contenders": [
            {"name": c.name, "about": c.about, "targeted": c.targeted} for c in entrants
        ],
        "results": results,
    }
    JSON_PATH.write_text(json.dumps(report, indent=1) + "\n")
    print(write_page(report))


if __name__ == "__main__":
    main()
