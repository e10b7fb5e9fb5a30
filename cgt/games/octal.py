"""Heap games: octal games by code (Kayles 0.77, Dawson's Kayles 0.07) and Grundy's game.

A position is a :class:`HeapsPosition`: the sorted heap sizes (empty heaps dropped) and the
player to move, so that solvers see the players alternate. A move replaces one heap by the
heaps it leaves; it is written ``7->2+3`` (a heap of 7 leaves heaps of 2 and 3), ``5->4`` or
``2->0`` (the heap is taken away). Position notation: heap sizes separated by commas, ``0``
for no heap, then optionally a space and ``F`` or ``S`` for the side to move (``F``, the
first player, if left out): ``1,3,5`` or ``2,2 S``.

Octal code ``0.d1d2...``: removing ``k`` tokens from a heap is allowed when digit ``dk`` has
bit 1 (taking the whole heap), bit 2 (leaving one heap) or bit 4 (leaving two non-empty heaps).
Kayles is 0.77 (knock down one pin or two adjacent pins of a row), Dawson's Kayles 0.07.
A digit before the point allows splitting a heap without taking anything (``4.7``, Daisies),
hexadecimal digits (8 and above) leaving three heaps (``0.3F``); a subtraction game ``S``
is the octal game with digit 3 at each ``s`` in ``S`` (``subtraction -p set=1,2,3`` is
``0.333``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, NamedTuple

from cgt.algebra.impartial import HeapMoves, grundys_game_moves, octal_moves, subtraction_code
from cgt.errors import ParameterError, PositionError
from cgt.protocol import Game, Param
from cgt.registry import register

SIDE_LETTERS = "FS"


class HeapsPosition(NamedTuple):
    """Heap sizes in increasing order (no empty heap) and the player to move (0 or 1)."""

    heaps: tuple[int, ...]
    to_move: int


HeapMove = tuple[int, tuple[int, ...]]
"""``(heap size, heaps left in its place)``."""


def parse_heaps(text: str, what: str = "heaps") -> tuple[int, ...]:
    """Sorted non-empty heap sizes from ``"3,4,5"``; :class:`ParameterError` if malformed."""
    sizes: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not (part.isascii() and part.isdigit()):
            raise ParameterError(f"{what}: expected comma-separated heap sizes, got {text!r}")
        if len(part) > len(str(MAX_HEAP)) or int(part) > MAX_HEAP:
            raise ParameterError(f"{what}: a heap of more than {MAX_HEAP:,} tokens, got {part}")
        sizes.append(int(part))
    return tuple(sorted(s for s in sizes if s > 0))


#: Largest heap: a heap lists one move per smaller heap (and its splits), so a heap of
#: 10^23 tokens hangs every command on its first list of moves.
MAX_HEAP = 1_000_000


class HeapGame(Game[HeapsPosition, HeapMove]):
    """An impartial game played on heaps, one heap per move (subclasses give the heap rule)."""

    impartial: ClassVar[bool] = True
    heaps: str

    def heap_moves(self, n: int) -> list[tuple[int, ...]]:
        """What a move on a heap of ``n`` may leave in its place."""
        raise NotImplementedError

    def heap_rule(self) -> HeapMoves:
        return self.heap_moves

    def validate(self) -> None:
        self.start = HeapsPosition(parse_heaps(self.heaps, "parameter heaps"), 0)

    def initial_position(self) -> HeapsPosition:
        return self.start

    def to_move(self, position: HeapsPosition) -> int:
        return position.to_move

    def moves(self, position: HeapsPosition) -> Sequence[HeapMove]:
        return [(n, parts) for n in sorted(set(position.heaps)) for parts in self.heap_moves(n)]

    def play(self, position: HeapsPosition, move: HeapMove) -> HeapsPosition:
        heap, parts = move
        heaps = list(position.heaps)
        heaps.remove(heap)
        heaps.extend(p for p in parts if p > 0)
        return HeapsPosition(tuple(sorted(heaps)), 1 - position.to_move)

    def key(self, position: HeapsPosition) -> Hashable:
        return (position.to_move, position.heaps)

    def with_to_move(self, position: HeapsPosition, player: int) -> HeapsPosition:
        return position._replace(to_move=player)

    def components(self, position: HeapsPosition) -> list[HeapsPosition] | None:
        """Each heap is an independent game (Sprague-Grundy: values nim-add)."""
        if len(position.heaps) <= 1:
            return None
        return [HeapsPosition((h,), position.to_move) for h in position.heaps]

    def parse(self, text: str) -> HeapsPosition:
        parts = text.split()
        if not parts or len(parts) > 2:
            raise PositionError(f"expected heap sizes and an optional side (F or S), got {text!r}")
        side = 0
        if len(parts) == 2:
            if parts[1] not in SIDE_LETTERS:
                raise PositionError(f"side to move must be F or S, got {parts[1]!r}")
            side = SIDE_LETTERS.index(parts[1])
        try:
            heaps = parse_heaps(parts[0], "position")
        except ParameterError as exc:
            raise PositionError(str(exc)) from None
        return HeapsPosition(heaps, side)

    def render(self, position: HeapsPosition) -> str:
        heaps = ",".join(map(str, position.heaps)) or "0"
        return heaps if position.to_move == 0 else f"{heaps} S"

    def move_name(self, position: HeapsPosition, move: HeapMove) -> str:
        heap, parts = move
        return f"{heap}->{'+'.join(map(str, parts)) or '0'}"


@register
class Octal(HeapGame):
    name = "octal"
    summary = "octal heap game given by its code (0.77 is Kayles)"
    params: ClassVar[tuple[Param, ...]] = (
        Param("code", str, "0.77", help="octal or hexadecimal code: 0.77, 0.07, 4.7, 0.3F"),
        Param("heaps", str, "7", help="comma-separated heap sizes"),
    )
    code: str

    def validate(self) -> None:
        self._rule = octal_moves(self.code)
        super().validate()

    def heap_moves(self, n: int) -> list[tuple[int, ...]]:
        return list(self._rule(n))


class _FixedCodeOctal(Octal):
    """An octal game under its own name: the code is fixed, only the heaps vary."""

    fixed_code: ClassVar[str] = ""
    params: ClassVar[tuple[Param, ...]] = (
        Param("heaps", str, "7", help="comma-separated heap sizes"),
    )

    def __init__(self, **parameters: Any) -> None:
        self.code = self.fixed_code
        super().__init__(**parameters)


@register
class Kayles(_FixedCodeOctal):
    name = "kayles"
    summary = "Kayles (octal 0.77): knock down one pin or two adjacent pins"
    fixed_code = "0.77"


@register
class DawsonsKayles(_FixedCodeOctal):
    name = "dawsons-kayles"
    summary = "Dawson's Kayles (octal 0.07): knock down two adjacent pins"
    fixed_code = "0.07"


@register
class Subtraction(Octal):
    name = "subtraction"
    summary = "subtraction game: take s tokens from a heap, s in the subtraction set"
    params: ClassVar[tuple[Param, ...]] = (
        Param("set", str, "1,2,3", help="comma-separated subtraction set, e.g. 1,2,3"),
        Param("heaps", str, "7", help="comma-separated heap sizes"),
    )

    def __init__(self, **parameters: Any) -> None:
        text = str(parameters.get("set", "1,2,3"))
        try:
            values = [int(part) for part in text.split(",")]
        except ValueError:
            raise ParameterError(
                f"subtraction set {text!r}: write positive integers like 1,2,3"
            ) from None
        self.code = subtraction_code(values)
        super().__init__(**parameters)


@register
class GrundysGame(HeapGame):
    name = "grundys-game"
    summary = "Grundy's game: split a heap into two unequal heaps"
    params = (Param("heaps", str, "7", help="comma-separated heap sizes"),)

    def heap_moves(self, n: int) -> list[tuple[int, ...]]:
        return grundys_game_moves(n)
