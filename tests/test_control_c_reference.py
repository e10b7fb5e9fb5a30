"""The C reference solver of Control (benchmarks/reference/control.c) against the compiled
kernel (solvers.kernels.control): a second road to the same values.

The C solver is a separate statement of the rules and of the search (its own move
generation, reply counts, table and cut-offs), written for the benchmark
benchmarks/control_reference.py; the kernel is checked against the readable rules and
retrograde in tests/test_kernels_control.py. Equal values on random positions say the
benchmark times two solvers of the same game; the C solver compiled with its planted bug
(-DBROKEN: a tie in the votes counts as control) must disagree, or the comparison could not
fail. Skipped when gcc is not installed.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cgt.games.control import Control
from solvers.kernels.control import ControlKernel, warm_up
from tests.test_kernels_control import random_positions

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "control_reference.py"


def _benchmark_module() -> Any:
    """benchmarks/control_reference.py (not a package: loaded from its path), whose
    compile and run helpers the benchmark itself uses."""
    spec = importlib.util.spec_from_file_location("control_reference", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path, Path]:
    """(the benchmark module, the C solver, the C solver with the planted bug)."""
    module = _benchmark_module()
    directory = tmp_path_factory.mktemp("control-c")
    binary = module.compile_reference(directory)
    broken = module.compile_reference(directory, ("BROKEN",))
    return module, binary, broken


def kernel_values(game: Control, positions: list[Any]) -> list[int]:
    """Root values by the kernel in value mode (one table for all: entries are exact)."""
    warm_up()
    kernel = ControlKernel(game, tt_entries=1 << 16)
    return [kernel.score(p) for p in positions]


#: (size, positions, first ply): every size-3 stage from the empty board, and size-4
#: positions near the end (from ply 24 on), where each solve takes milliseconds.
CASES = [(3, 300, 0), (4, 40, 24)]


def values(
    reference: tuple[Any, Path, Path], broken: bool, size: int, count: int, min_plies: int
) -> tuple[list[int], list[int]]:
    """(the C solver's values, with the planted bug if ``broken``; the kernel's) on the same
    random positions."""
    module, binary, broken_binary = reference
    game = Control(size=size)
    positions = random_positions(game, count, seed=size, min_plies=min_plies)
    solved = module.run_reference(
        broken_binary if broken else binary, [game.render(p) for p in positions], 16
    )
    return [value for value, _ in solved], kernel_values(game, positions)


@pytest.mark.parametrize(("size", "count", "min_plies"), CASES)
def test_c_reference_values_equal_the_kernel(
    reference: tuple[Any, Path, Path], size: int, count: int, min_plies: int
) -> None:
    c_values, expected = values(reference, False, size, count, min_plies)
    assert c_values == expected
    # adjacent control has no draws: both solvers say win or loss, and both occur
    assert set(expected) == {-1, 1}


def test_c_reference_solves_the_size3_board_as_published(
    reference: tuple[Any, Path, Path],
) -> None:
    # Size 3 from the empty board (White opens on the perimeter): Black, the second player,
    # wins against every opening (README.md, reports/control.md).
    module, binary, _ = reference
    game = Control(size=3)
    ((value, nodes),) = module.run_reference(binary, [game.render(game.initial_position())], 16)
    assert value == -1
    assert nodes > 0


@pytest.mark.parametrize(("size", "count", "min_plies"), CASES)
def test_comparison_refutes_a_broken_control_rule(
    reference: tuple[Any, Path, Path], size: int, count: int, min_plies: int
) -> None:
    c_values, expected = values(reference, True, size, count, min_plies)
    assert c_values != expected


def test_c_reference_refuses_bad_input(reference: tuple[Any, Path, Path]) -> None:
    _, binary, _ = reference
    refusals = {
        "W#/.../.. W": "no fixed cells",
        "../.../.. X": "side to move must be W or B",
        "../..../.. W": "a row has the wrong number of cells",
        "../.. W": "3, 5 or 7 rows",
        "garbage": "expected '<rows separated by /> <W|B>'",
    }
    for text, reason in refusals.items():
        done = subprocess.run([str(binary)], input=text + "\n", capture_output=True, text=True)
        assert done.returncode == 2, text
        assert done.stderr.startswith("control: line 1:") and reason in done.stderr, done.stderr
