"""Memory of the search tables: a big zeroed array may get transparent huge pages (its mapping
must be eligible for them), and a kernel dropped frees its table.

Python's ``mmap.mmap(-1, size)`` maps shared memory (shmem), which gets huge pages only where
the system's ``shmem_enabled`` allows, usually never; the kernel then reports the mapping as
not eligible (``THPeligible: 0`` in /proc/self/smaps), whatever the advice."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from solvers.memory import HUGE_PAGE_THRESHOLD, zeroed_array

SMAPS = Path("/proc/self/smaps")
THP = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def mapping_fields(address: int) -> dict[str, str]:
    """The smaps fields of the mapping that holds ``address``."""
    fields: dict[str, str] = {}
    inside = False
    for line in SMAPS.read_text().splitlines():
        head = line.split(" ", 1)[0]
        if "-" in head and ":" not in head:
            low, high = (int(x, 16) for x in head.split("-"))
            if inside:
                break
            inside = low <= address < high
            if inside:
                fields["flags"] = line.split()[1]
        elif inside and ":" in line:
            name, value = line.split(":", 1)
            fields[name] = value.strip()
    return fields


@pytest.mark.skipif(
    not SMAPS.exists() or not THP.exists() or "[never]" in THP.read_text(),
    reason="needs Linux with transparent huge pages",
)
def test_big_zeroed_array_is_a_private_mapping_eligible_for_huge_pages() -> None:
    array = zeroed_array(HUGE_PAGE_THRESHOLD // 8 + 4096, np.uint64)
    assert not array.any()
    fields = mapping_fields(array.ctypes.data)
    assert fields["flags"].endswith("p"), fields["flags"]  # private, not shared
    if "THPeligible" in fields:  # kernels since 4.15 say it
        assert fields["THPeligible"] == "1"


def test_a_dropped_control_kernel_frees_its_table_at_once() -> None:
    """Its table goes with the kernel, not at the next run of the cycle collector: a process
    solving position after position with fresh kernels (a benchmark, a batch of jobs) would
    otherwise hold table after table."""
    import gc
    import weakref

    from cgt.registry import load_game
    from solvers.kernels.control import ControlKernel

    game = load_game("control", size=3)
    kernel = ControlKernel(game, tt_entries=1 << 10)
    assert kernel.score(game.initial_position()) == -1  # size 3: the second player wins
    table = weakref.ref(kernel)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        del kernel
        assert table() is None
    finally:
        if was_enabled:
            gc.enable()
