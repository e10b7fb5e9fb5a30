"""The compiled Domineering road (numba) against the readable one and the Python algebra.

The compiled road restates the algebra (interning, comparison, sums, canonical reduction) and
the board work; the readable road (:mod:`cgt.games.domineering_values`, checked against the
protocol road and a plain negamax in its own tests) is the reference here, on random boards,
and :mod:`cgt.algebra.game` is the reference for the compiled sums and comparisons.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from fractions import Fraction

import pytest

from cgt.algebra.game import (
    CanonicalForm,
    add_id,
    le_id,
    negate_id,
    simplest_number_between,
)
from cgt.games import domineering_kernel
from cgt.games.domineering_kernel import KernelValues, add, board_value, le, negate
from cgt.games.domineering_values import DomineeringValues


def random_board(rng: random.Random, max_rows: int = 4, max_cols: int = 6) -> tuple[int, int, int]:
    rows, cols = rng.randint(1, max_rows), rng.randint(1, max_cols)
    cells = rows * cols
    empty = ((1 << cells) - 1) & ~rng.getrandbits(cells) | rng.getrandbits(cells)  # ~3/4 free
    return rows, cols, empty


def test_values_survive_a_reload_from_numba_cache_in_fresh_processes() -> None:
    # numba issue 6061: cached recursive functions can crash when reloaded from the cache;
    # the first process may compile and write the cache, the second reloads it
    script = (
        "from cgt.games.domineering_kernel import KernelValues, load\n"
        "from cgt.algebra.game import CanonicalForm\n"
        "load()\n"
        "print(CanonicalForm(KernelValues().value_id(2, 4, 255)),"
        " CanonicalForm(KernelValues().value_id(4, 4, 65535)))\n"
    )
    outputs = [
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
        for _ in range(2)
    ]
    for done in outputs:
        assert done.returncode == 0, done.stderr[-500:]
        # 2 x 4 is Miny(2) (pycgt's documented value, CGSuite's); 4 x 4 as CGSuite prints it
        assert done.stdout.split(" ", 1)[0] == "Miny(2)"
    assert outputs[0].stdout == outputs[1].stdout


def test_agrees_with_the_readable_road_on_random_boards() -> None:
    rng = random.Random(20261123)
    shared = KernelValues()  # tables kept between boards, as in a long session
    readable = DomineeringValues(compiled=False)
    for _ in range(400):
        board = random_board(rng)
        expected = readable.value_id(*board)
        assert shared.value_id(*board) == expected
        assert KernelValues().value_id(*board) == expected


def test_full_rectangles_agree_with_the_readable_road() -> None:
    for rows, cols in [(2, 7), (3, 4), (3, 5), (4, 4), (2, 9)]:
        full = (1 << (rows * cols)) - 1
        compiled, readable = KernelValues(bits=3), DomineeringValues(compiled=False)
        assert compiled.value_id(rows, cols, full) == readable.value_id(rows, cols, full)
        # the same regions are expanded, each once, however often the tables grew
        assert compiled.expanded == readable.expanded


def test_tables_grow_and_keep_every_value() -> None:
    rng = random.Random(5)
    boards = [random_board(rng, 4, 5) for _ in range(60)]
    tiny = KernelValues(bits=3)  # 8 slots, 4 forms: every table must grow many times
    sizes = (tiny.tables.boards.shape[0], tiny.tables.forms.shape[0])
    readable = DomineeringValues(compiled=False)
    for board in boards:
        assert tiny.value_id(*board) == readable.value_id(*board)
    assert tiny.tables.boards.shape[0] > sizes[0] and tiny.tables.forms.shape[0] > sizes[1]


def test_lines_up_to_62_cells_are_one_players_moves() -> None:
    # a single row of n cells is -floor(n/2), a single column floor(n/2) (Winning Ways)
    full = (1 << 62) - 1
    assert CanonicalForm(KernelValues().value_id(1, 62, full)) == -31
    assert CanonicalForm(KernelValues().value_id(62, 1, full)) == 31
    assert CanonicalForm(KernelValues().value_id(2, 31, 0b111 << 40)) == -1


def test_compiled_sums_comparisons_and_negatives_agree_with_the_python_algebra() -> None:
    rng = random.Random(17)
    values = KernelValues()
    kernel_ids = []
    for _ in range(40):
        rows, cols, empty = random_board(rng, 3, 4)
        kernel_ids.append(values.run(board_value, rows, cols, empty))
    for _ in range(300):
        g, h = rng.choice(kernel_ids), rng.choice(kernel_ids)
        python_g, python_h = values.python_id(g), values.python_id(h)
        assert values.python_id(values.run(add, g, h)) == add_id(python_g, python_h)
        assert values.run(le, g, h) == le_id(python_g, python_h)
        assert values.python_id(values.run(negate, g)) == negate_id(python_g)


def test_simplest_number_between_matches_the_python_algebra() -> None:
    rng = random.Random(1)
    for _ in range(500):
        a = Fraction(rng.randint(-64, 64), 2 ** rng.randint(0, 5))
        b = Fraction(rng.randint(-64, 64), 2 ** rng.randint(0, 5))
        lo, hi = min(a, b), max(a, b)
        if lo == hi:
            continue
        expected = simplest_number_between(lo, hi)
        assert domineering_kernel.simplest_number_between(float(lo), float(hi)) == expected
        assert domineering_kernel.simplest_number_between(-math.inf, float(hi)) == (
            simplest_number_between(None, hi)
        )
        assert domineering_kernel.simplest_number_between(float(lo), math.inf) == (
            simplest_number_between(lo, None)
        )


def test_small_boards_take_the_readable_road_until_the_compiled_one_is_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small, large = (2, 3, 63), (5, 5, (1 << 25) - 1)
    monkeypatch.setattr(domineering_kernel, "_loaded", False)
    assert not DomineeringValues()._use_compiled(*small)
    assert DomineeringValues()._use_compiled(*large)
    monkeypatch.setattr(domineering_kernel, "_loaded", True)
    assert DomineeringValues()._use_compiled(*small)
    assert not DomineeringValues(compiled=False)._use_compiled(*large)
    # 64 cells do not fit the compiled road's masks: the readable road takes them
    assert not DomineeringValues(compiled=True)._use_compiled(8, 8, 1)


def test_the_compilation_note_is_given_only_when_numba_has_no_cached_code() -> None:
    notes: list[str] = []
    domineering_kernel.load(note=notes.append)  # compiled or loaded by now, in any case
    assert domineering_kernel.compiled_before()
    domineering_kernel.load(note=notes.append)  # loaded: nothing to say
    assert len(notes) <= 1


def test_work_in_slices_reports_progress_and_gives_the_same_value() -> None:
    reports: list[dict[str, int]] = []
    sliced = KernelValues(progress=reports.append, slice_regions=5)
    readable = DomineeringValues(compiled=False)
    assert sliced.value_id(4, 4, 0xFFFF) == readable.value_id(4, 4, 0xFFFF)
    assert len(reports) >= 10  # 4 x 4 expands about 200 regions, 5 a slice
    assert [r["expanded"] for r in reports] == sorted(r["expanded"] for r in reports)
    assert sliced.expanded == readable.expanded


def test_an_interruption_between_slices_loses_no_finished_work() -> None:
    def interrupt(report: dict[str, int]) -> None:
        raise KeyboardInterrupt  # what Ctrl-C does when the kernel hands control back

    values = KernelValues(progress=interrupt, slice_regions=50)
    with pytest.raises(KeyboardInterrupt):
        values.value_id(4, 4, 0xFFFF)
    done = values.expanded
    assert done >= 50
    values.progress = None
    readable = DomineeringValues(compiled=False)
    assert values.value_id(4, 4, 0xFFFF) == readable.value_id(4, 4, 0xFFFF)
    # the second call expanded only what the first had not: each region once in all
    assert values.expanded == readable.expanded
