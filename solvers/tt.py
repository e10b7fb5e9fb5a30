"""A fixed-capacity transposition table for alpha-beta search.

Each entry keeps the FULL position key, verified on every probe: storing only a hash is a
classic source of wrong results. It also keeps a bound flag, because a value found under a
narrow window is only a bound: EXACT (the value), LOWER (value >= score, a beta cut-off)
or UPPER (value <= score, every move failed low).

Slots come in buckets of two. Slot 0 is *work-preferred*: a new entry takes it only if its
subtree cost at least as many nodes as the entry there, which is then demoted to slot 1;
otherwise the new entry goes to slot 1, which is *always-replace*. Expensive results survive
while recent ones stay available, and memory never grows past the capacity chosen.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from typing import Any

from cgt.errors import ParameterError

EXACT = 0
LOWER = 1
UPPER = 2

#: Rough size of one stored key and score beyond the slot pointers (a small tuple or int).
ESTIMATED_OBJECT_BYTES = 64


class _Empty:
    """Marker of an empty slot (``None`` could be a game's key)."""

    __slots__ = ()


_EMPTY: Any = _Empty()


class TranspositionTable:
    """``entries`` slots (rounded down to a power of two, at least 2) in buckets of two."""

    def __init__(self, entries: int = 1 << 20) -> None:
        if not isinstance(entries, int) or entries < 2:
            raise ParameterError(
                f"transposition table: entries must be an integer >= 2, got {entries!r}"
            )
        buckets = 1 << ((entries // 2).bit_length() - 1)
        self.capacity = 2 * buckets
        self._mask = buckets - 1
        self._keys: list[Any] = [_EMPTY] * self.capacity
        self._flags = bytearray(self.capacity)
        self._scores: list[int] = [0] * self.capacity
        self._moves: list[Any] = [None] * self.capacity
        self._work: list[int] = [0] * self.capacity
        self.probes = 0
        self.hits = 0
        self.stores = 0
        self.new_stores = 0
        self.replacements = 0
        self.filled = 0

    def probe(self, key: Hashable) -> tuple[int, int, Any] | None:
        """``(flag, score, best move)`` stored for ``key``, or None."""
        self.probes += 1
        slot = (hash(key) & self._mask) << 1
        keys = self._keys
        if keys[slot] is not _EMPTY and keys[slot] == key:
            self.hits += 1
            return self._flags[slot], self._scores[slot], self._moves[slot]
        slot += 1
        if keys[slot] is not _EMPTY and keys[slot] == key:
            self.hits += 1
            return self._flags[slot], self._scores[slot], self._moves[slot]
        return None

    def store(self, key: Hashable, flag: int, score: int, move: Any, work: int) -> None:
        """Record a result; ``work`` (nodes searched for it) decides what is kept."""
        self.stores += 1
        first = (hash(key) & self._mask) << 1
        keys = self._keys
        for slot in (first, first + 1):  # the key is already there: update in place
            if keys[slot] is not _EMPTY and keys[slot] == key:
                self._write(slot, key, flag, score, move, max(work, self._work[slot]))
                return
        self.new_stores += 1
        second = first + 1
        if keys[first] is _EMPTY or work >= self._work[first]:
            if keys[first] is not _EMPTY:  # demote the old preferred entry
                if keys[second] is _EMPTY:
                    self.filled += 1
                else:
                    self.replacements += 1
                self._write(
                    second,
                    keys[first],
                    self._flags[first],
                    self._scores[first],
                    self._moves[first],
                    self._work[first],
                )
            else:
                self.filled += 1
            self._write(first, key, flag, score, move, work)
        else:
            if keys[second] is _EMPTY:
                self.filled += 1
            else:
                self.replacements += 1
            self._write(second, key, flag, score, move, work)

    def _write(self, slot: int, key: Any, flag: int, score: int, move: Any, work: int) -> None:
        self._keys[slot] = key
        self._flags[slot] = flag
        self._scores[slot] = score
        self._moves[slot] = move
        self._work[slot] = work

    def clear(self) -> None:
        """Forget every entry (statistics are kept)."""
        self._keys = [_EMPTY] * self.capacity
        self.filled = 0

    @property
    def approx_bytes(self) -> int:
        """Approximate memory: the slot arrays plus an estimate for each stored object."""
        arrays = sum(
            sys.getsizeof(a)
            for a in (self._keys, self._flags, self._scores, self._moves, self._work)
        )
        return arrays + self.filled * ESTIMATED_OBJECT_BYTES

    @staticmethod
    def bytes_for(entries: int) -> int:
        """Approximate memory of a full table of ``entries`` slots (to choose a capacity)."""
        return entries * (4 * 8 + 1 + ESTIMATED_OBJECT_BYTES)

    def stats(self) -> dict[str, Any]:
        """Counters for reports."""
        return {
            "capacity": self.capacity,
            "filled": self.filled,
            "probes": self.probes,
            "hits": self.hits,
            "stores": self.stores,
            "new_stores": self.new_stores,
            "replacements": self.replacements,
            "approx_bytes": self.approx_bytes,
        }
