"""Impartial games: Grundy values (Sprague-Grundy theory), heap games and octal codes, and the
periodicity of their Grundy sequences.

Every impartial game equals a nimber ``*g``; ``g``, its Grundy value, is the least
non-negative integer that is not the Grundy value of an option (mex), and the Grundy value of
a sum is the nim-sum (XOR) of the parts. Heap games whose moves act on one heap at a time
(Nim, octal games, Grundy's game) are therefore described by one sequence ``g(0), g(1), ...``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from functools import reduce
from operator import xor
from typing import Any

from cgt.errors import ParameterError

HeapMoves = Callable[[int], Iterable[tuple[int, ...]]]
"""A heap rule: for a heap of size ``n``, the tuples of heaps a move can leave in its place."""


def mex(values: Iterable[int]) -> int:
    """Least non-negative integer not in ``values``."""
    present = set(values)
    g = 0
    while g in present:
        g += 1
    return g


def nim_sum(values: Iterable[int]) -> int:
    """XOR of Grundy values: the Grundy value of a sum of impartial games."""
    return reduce(xor, values, 0)


# ------------------------------------------------------------------ any protocol game
class GrundyCalculator:
    """Grundy values of positions of an impartial protocol game, memoised by canonical key.

    Components (``game.components``) are evaluated separately and nim-summed, so a position
    made of many small independent parts costs only the parts.
    """

    def __init__(self, game: Any) -> None:
        if not getattr(game, "impartial", False):
            raise ParameterError(f"game {game.name} is not impartial; use value_of for a CGT value")
        self.game = game
        self.table: dict[Hashable, int] = {}

    def _key(self, position: Any) -> Hashable:
        return self.game.canonical_key(position)

    def __call__(self, position: Any) -> int:
        key = self._key(position)
        found = self.table.get(key)
        if found is not None:
            return found
        parts = self.game.components(position)
        if parts is not None and not (len(parts) == 1 and self._key(parts[0]) == key):
            value = nim_sum(self(part) for part in parts)
        else:
            value = self._by_options(position)
        self.table[key] = value
        return value

    def _by_options(self, position: Any) -> int:
        """mex of the options, iteratively (deep games would overflow Python's stack)."""
        stack: list[tuple[Any, Iterator[Any], set[int]]] = [
            (position, iter(self._children(position)), set())
        ]
        result = 0
        while stack:
            node, children, seen = stack[-1]
            advanced = False
            for child in children:
                key = self._key(child)
                value = self.table.get(key)
                if value is None:
                    parts = self.game.components(child)
                    if parts is not None and not (len(parts) == 1 and self._key(parts[0]) == key):
                        value = self(child)
                    else:
                        stack.append((child, iter(self._children(child)), set()))
                        advanced = True
                        break
                seen.add(value)
            if advanced:
                continue
            stack.pop()
            result = mex(seen)
            self.table[self._key(node)] = result
            if stack:
                stack[-1][2].add(result)
        return result

    def _children(self, position: Any) -> list[Any]:
        outcome = self.game.result(position)
        moves = self.game.moves(position)
        if outcome is not None and moves:
            raise ParameterError(f"game {self.game.name} is not a normal-play game")
        return [self.game.play(position, move) for move in moves]


def grundy_value(game: Any, position: Any = None) -> int:
    """Grundy value of ``position`` (default: the initial position) of an impartial game."""
    if position is None:
        position = game.initial_position()
    return GrundyCalculator(game)(position)


# ------------------------------------------------------------------ heap games
def heap_grundy_sequence(heap_moves: HeapMoves, count: int) -> list[int]:
    """``g(0) .. g(count - 1)`` of a heap game, each from the already computed smaller ones."""
    values: list[int] = []
    for n in range(count):
        values.append(mex(nim_sum(values[h] for h in parts) for parts in heap_moves(n)))
    return values


def nim_moves(n: int) -> list[tuple[int, ...]]:
    """Nim: take any positive number of tokens from the heap."""
    return [(k,) if k else () for k in range(n)]


def grundys_game_moves(n: int) -> list[tuple[int, ...]]:
    """Grundy's game: split a heap into two non-empty heaps of different sizes."""
    return [(a, n - a) for a in range(1, (n + 1) // 2) if a != n - a]


def parse_octal_code(code: str) -> tuple[int, ...]:
    """Digits ``d1, d2, ...`` of an octal code such as ``0.77`` or ``.137`` (``d0`` must be 0).

    Digit ``dk`` says what removing ``k`` tokens from a heap may leave: bit 1 nothing (the
    whole heap is taken), bit 2 one non-empty heap, bit 4 two non-empty heaps.
    """
    text = code.strip()
    if text.startswith("0."):
        text = text[2:]
    elif text.startswith("."):
        text = text[1:]
    else:
        raise ParameterError(f"octal code {code!r} must start with '0.' (for example 0.77)")
    if not text or any(c not in "01234567" for c in text):
        raise ParameterError(f"octal code {code!r}: digits after the point must be 0-7")
    digits = tuple(int(c) for c in text.rstrip("0"))
    if not digits:
        raise ParameterError(f"octal code {code!r} allows no move at all")
    return digits


def octal_moves(code: str) -> HeapMoves:
    """The heap rule of an octal game."""
    digits = parse_octal_code(code)

    def moves(n: int) -> list[tuple[int, ...]]:
        result: list[tuple[int, ...]] = []
        for k, digit in enumerate(digits, start=1):
            rest = n - k
            if rest < 0:
                break
            if digit & 1 and rest == 0:
                result.append(())
            if digit & 2 and rest > 0:
                result.append((rest,))
            if digit & 4 and rest >= 2:
                result.extend((a, rest - a) for a in range(1, rest // 2 + 1))
        return result

    return moves


def octal_grundy_sequence(code: str, count: int) -> list[int]:
    """Grundy values ``g(0) .. g(count - 1)`` of the octal game ``code``."""
    return heap_grundy_sequence(octal_moves(code), count)


# ------------------------------------------------------------------ periodicity
@dataclass(frozen=True)
class Periodicity:
    """``g(n + period) = g(n)`` for every ``n >= pre_period``.

    ``proved`` is True when the Guy-Smith periodicity theorem turns the finite check into a
    proof (octal games); ``checked_up_to`` is how many values were examined.
    """

    pre_period: int
    period: int
    proved: bool
    checked_up_to: int

    @property
    def last_exceptional(self) -> int | None:
        """The largest ``n`` that does not follow the period (``None`` if there is none)."""
        return self.pre_period - 1 if self.pre_period > 0 else None


def _smallest_pre_period(values: list[int], period: int) -> int:
    """Least ``e`` with ``values[n + period] == values[n]`` for every ``e <= n`` in range."""
    e = len(values) - period
    while e > 0 and values[e - 1 + period] == values[e - 1]:
        e -= 1
    return e


def detect_period(values: list[int], min_cycles: int = 3) -> Periodicity | None:
    """Apparent period of a finite sequence: the smallest period (then smallest pre-period)
    that the data repeats at least ``min_cycles`` times. Not a proof (``proved=False``)."""
    for period in range(1, len(values) // min_cycles + 1):
        e = _smallest_pre_period(values, period)
        if len(values) - e >= min_cycles * period:
            return Periodicity(e, period, False, len(values))
    return None


def octal_periodicity(code: str, max_values: int = 2000) -> Periodicity | None:
    """Proved period and pre-period of an octal game, or ``None`` if none is found in range.

    Guy-Smith periodicity theorem: if the code's last non-zero digit is ``d_t`` and
    ``g(n + p) = g(n)`` for all ``e <= n < 2e + p + t``, then ``g(n + p) = g(n)`` for all
    ``n >= e``. Values are computed in doubling batches until some ``(e, p)`` satisfies it.
    """
    t = len(parse_octal_code(code))
    count = 64
    while True:
        count = min(count * 2, max_values)
        values = octal_grundy_sequence(code, count)
        for period in range(1, count // 2):
            e = _smallest_pre_period(values, period)
            # the theorem needs n + p < count for every n < 2e + p + t
            if 2 * e + 2 * period + t <= count:
                return Periodicity(e, period, True, count)
        if count >= max_values:
            return None
