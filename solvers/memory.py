"""Memory bounds: a solve that cannot fit in memory says so before it starts.

Every solver states its memory from an option (the transposition table's number of slots, or
a packed array's length); :func:`require_memory` compares that with what the machine has
available now and refuses with a one-line :class:`~cgt.errors.ParameterError` instead of
swapping for hours or being killed halfway.
"""

from __future__ import annotations

import contextlib
import mmap
import os
from typing import Any

import numpy as np

from cgt.errors import ParameterError

#: Arrays at least this big get their own mapping with transparent huge pages.
HUGE_PAGE_THRESHOLD = 1 << 26

#: Fraction of the currently available memory one solve may claim: the rest is left to
#: Python objects, the operating system and other processes.
USABLE_FRACTION = 0.8


def available_bytes() -> int:
    """Memory the kernel reports as available now (MemAvailable), else physical memory."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - exotic platforms
        return 1 << 62


def format_bytes(count: int) -> str:
    """``1536`` -> ``'1.5 KiB'``: sizes as people read them."""
    size = float(count)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.1f} {unit}" if unit != "B" else f"{int(size)} B"
        size /= 1024
    raise AssertionError("unreachable")


def require_memory(needed: int, what: str, hint: str = "", available: int | None = None) -> None:
    """Raise :class:`ParameterError` when ``needed`` bytes for ``what`` do not fit."""
    budget = int((available_bytes() if available is None else available) * USABLE_FRACTION)
    if needed > budget:
        advice = f"; {hint}" if hint else ""
        raise ParameterError(
            f"{what} needs {format_bytes(needed)} but only {format_bytes(budget)} of memory "
            f"can be used{advice}"
        )


def zeroed_array(length: int, dtype: Any) -> np.ndarray:
    """A zero-filled array of ``length`` items; a big one in its own anonymous mapping
    advised to use transparent huge pages, because random access over gigabytes misses the
    TLB on nearly every access with 4 KiB pages. Freed with the array."""
    item = np.dtype(dtype)
    size = length * item.itemsize
    if size < HUGE_PAGE_THRESHOLD or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.zeros(length, dtype=item)
    # private: a shared anonymous mapping (mmap's default) is shmem, which gets huge pages
    # only where the system's shmem_enabled allows (usually never)
    buffer = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE)  # anonymous: zero-filled by the kernel
    with contextlib.suppress(OSError):  # refused advice: plain pages still work
        buffer.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(buffer, dtype=item)
