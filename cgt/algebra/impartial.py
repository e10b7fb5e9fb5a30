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

from cgt.algebra.budget import poll
from cgt.algebra.game import table_size
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
            poll(table_size())  # a heap of 1,000 tokens visits half a million moves
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


HEX_DIGITS = "0123456789abcdefABCDEF"


def parse_code(code: str) -> tuple[int, ...]:
    """Digits ``d0, d1, d2, ...`` of an octal or hexadecimal code: ``0.77``, ``.137``,
    ``4.7`` (a digit before the point), ``0.3F`` (hexadecimal digits).

    Digit ``dk`` says what removing ``k`` tokens from a heap may leave: bit 1 nothing (the
    whole heap is taken), bit 2 one non-empty heap, bit 4 two non-empty heaps, bit 8
    (hexadecimal games) three non-empty heaps. ``d0`` concerns removing nothing, so only its
    splitting bits (4, 8) mean a move: ``4.7`` (Daisies) may split a heap in two.
    """
    text = code.strip()
    whole, point, fraction = text.partition(".")
    if not point:
        raise ParameterError(f"code {code!r} needs a point, as in 0.77 or 4.7")
    whole = whole or "0"
    if len(whole) != 1 or whole not in HEX_DIGITS:
        raise ParameterError(f"code {code!r}: one digit before the point (0, 4, 8 or C)")
    first = int(whole, 16)
    if first & 3:
        raise ParameterError(
            f"code {code!r}: before the point only splitting (4, 8, C) is a move, "
            "taking nothing cannot leave the heap as it was"
        )
    fraction = fraction.replace(" ", "")
    if any(c not in HEX_DIGITS for c in fraction):
        raise ParameterError(f"code {code!r}: digits after the point must be 0-9 or A-F")
    digits = (first, *(int(c, 16) for c in fraction.rstrip("0")))
    if not any(digits):
        raise ParameterError(f"code {code!r} allows no move at all")
    return digits


def parse_octal_code(code: str) -> tuple[int, ...]:
    """Digits ``d1, d2, ...`` of a code whose digit before the point is 0 (see
    :func:`parse_code` for the others)."""
    digits = parse_code(code)
    if digits[0]:
        raise ParameterError(f"code {code!r} has a digit before the point; use parse_code")
    return digits[1:]


def is_hexadecimal(code: str) -> bool:
    """True when some digit allows leaving three heaps (bit 8): not an octal game."""
    return any(d & 8 for d in parse_code(code))


def subtraction_code(subtraction_set: Iterable[int]) -> str:
    """The octal code of the subtraction game ``S``: remove ``s`` in ``S`` tokens from one
    heap (digit 3 at each ``s``: leave the rest, or nothing): ``{1,2,3}`` is ``0.333``."""
    values = sorted(set(subtraction_set))
    if not values or values[0] < 1:
        raise ParameterError("a subtraction set is a non-empty set of positive integers")
    digits = ["0"] * values[-1]
    for s in values:
        digits[s - 1] = "3"
    return "0." + "".join(digits)


def _splits(total: int, parts: int, smallest: int = 1) -> Iterator[tuple[int, ...]]:
    """Ways to write ``total`` as ``parts`` non-decreasing positive integers."""
    if parts == 1:
        if total >= smallest:
            yield (total,)
        return
    for first in range(smallest, total // parts + 1):
        for rest in _splits(total - first, parts - 1, first):
            yield (first, *rest)


def octal_moves(code: str) -> HeapMoves:
    """The heap rule of an octal or hexadecimal game."""
    digits = parse_code(code)

    def moves(n: int) -> list[tuple[int, ...]]:
        result: list[tuple[int, ...]] = []
        for k, digit in enumerate(digits):
            rest = n - k
            if rest < 0:
                break
            if digit & 1 and rest == 0 and k > 0:
                result.append(())
            if digit & 2 and rest > 0 and k > 0:
                result.append((rest,))
            for bit, parts in ((4, 2), (8, 3)):
                if digit & bit and rest >= parts:
                    result.extend(_splits(rest, parts))
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


HEX_PERIOD_VALUES = 300
"""Grundy values examined for an apparent period of a hexadecimal game."""


def octal_periodicity(code: str, max_values: int = 2000) -> Periodicity | None:
    """Proved period and pre-period of an octal game, or ``None`` if none is found in range.

    Guy-Smith periodicity theorem: if the code's last non-zero digit is ``d_t`` and
    ``g(n + p) = g(n)`` for all ``e <= n < 2e + p + t``, then ``g(n + p) = g(n)`` for all
    ``n >= e``. Values are computed in doubling batches until some ``(e, p)`` satisfies it.
    The theorem is for octal games; a hexadecimal code (a move leaving three heaps) gets an
    apparent period only (``proved=False``), three full periods seen.
    """
    t = len(parse_code(code)) - 1
    if is_hexadecimal(code):
        # a triple split costs n^2 options: a few hundred values are what is affordable
        return detect_period(octal_grundy_sequence(code, min(max_values, HEX_PERIOD_VALUES)))
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


# ------------------------------------------------------------------ misère play
@dataclass(frozen=True)
class Genus:
    """Conway's genus ``g^(γ0 γ1 γ2 ...)`` of an impartial game (Winning Ways ch. 13): ``g``
    its normal-play Grundy value, ``γk`` the misère Grundy value of the game plus ``k``
    copies of ``*2``; ``γ0`` is the misère Grundy value. The ``γ`` sequence ends in a
    period of two; ``sup`` keeps it up to where that period has started (at least two
    entries) and :meth:`gamma` extends it."""

    grundy: int
    sup: tuple[int, ...]

    def gamma(self, k: int) -> int:
        """``γk``."""
        if k < len(self.sup):
            return self.sup[k]
        return self.sup[len(self.sup) - 2 + ((len(self.sup) ^ k) & 1)]

    @property
    def misere(self) -> int:
        """The misère Grundy value ``γ0``."""
        return self.sup[0]

    def __str__(self) -> str:
        if any(x >= 10 for x in self.sup):
            return f"{self.grundy}^({','.join(map(str, self.sup))})"
        return f"{self.grundy}^{''.join(map(str, self.sup))}"


ZERO_GENUS = Genus(0, (1, 2, 0))
"""The empty game: misère value 1 (the player to move has lost... by winning), then
``0 + *2`` has 2 and ``*2 + *2`` has 0."""


def genus_of_options(options: Iterable[Genus]) -> Genus:
    """The genus of a game from its options' genera (the genus calculus, as CGSuite's
    ``Genus(List)``): ``g`` is the mex of the options' ``g``; ``γ0`` the mex of their
    ``γ0``; ``γk`` the mex of their ``γk`` and of ``γ(k-1)``, ``γ(k-1) ^ 1``."""
    options = list(options)
    if not options:
        return ZERO_GENUS
    grundy = mex(o.grundy for o in options)
    length = max(1, *(len(o.sup) - 1 for o in options)) + 2
    gammas = [mex(o.gamma(0) for o in options)]
    for k in range(1, length + 1):
        previous = gammas[k - 1]
        gammas.append(mex([previous, previous ^ 1, *(o.gamma(k) for o in options)]))
    while length > 1 and gammas[length] == gammas[length - 2]:
        length -= 1
    return Genus(grundy, tuple(gammas[: length + 1]))


class HeapGenus:
    """Genera of positions of a heap game (multisets of heaps), each valued once. A move
    may leave several heaps, whose sum's genus comes from its own options (misère play has
    no nim-sum), so the table is keyed by the sorted heaps, not by single heaps."""

    def __init__(self, heap_moves: HeapMoves) -> None:
        self.heap_moves = heap_moves
        self.table: dict[tuple[int, ...], Genus] = {(): ZERO_GENUS}

    def _children(self, position: tuple[int, ...]) -> list[tuple[int, ...]]:
        children = []
        for i, heap in enumerate(position):
            if i and position[i - 1] == heap:
                continue  # equal heaps give the same options
            others = position[:i] + position[i + 1 :]
            for parts in self.heap_moves(heap):
                children.append(tuple(sorted(others + tuple(p for p in parts if p))))
        return children

    def __call__(self, heaps: Iterable[int]) -> Genus:
        start = tuple(sorted(h for h in heaps if h))
        table = self.table
        stack = [start]
        while stack:  # depth-first without recursion: a heap of n has n levels below it
            position = stack[-1]
            if position in table:
                stack.pop()
                continue
            children = self._children(position)
            missing = [c for c in children if c not in table]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            table[position] = genus_of_options(table[c] for c in children)
        return table[start]


def heap_genus_sequence(heap_moves: HeapMoves, count: int) -> list[Genus]:
    """Genera of single heaps ``0 .. count - 1`` of a heap game."""
    genus = HeapGenus(heap_moves)
    return [genus((n,)) for n in range(count)]


def misere_periodicity(heap_moves: HeapMoves, values: int) -> Periodicity | None:
    """Apparent period of the misère Grundy values of the single heaps ``0 .. values - 1``.

    No periodicity theorem covers misère play in general (a move that splits a heap leaves
    a sum, and misère sums have no nim-sum), so this is never a proof (``proved`` is False):
    the period the computed values repeat at least three times, as for hexadecimal codes."""
    genus = HeapGenus(heap_moves)
    return detect_period([genus((n,)).misere for n in range(values)])
