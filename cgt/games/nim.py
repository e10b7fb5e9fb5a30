"""Nim: take any positive number of tokens from one heap; who cannot move loses.

The reference impartial game: by the Sprague-Grundy theorem every impartial game is
equivalent to a Nim heap, and a Nim position is a second-player win iff the XOR of its heap
sizes is 0 (Bouton). Positions and moves as in :mod:`cgt.games.octal`: ``3,4,5`` and ``5->3``.
"""

from __future__ import annotations

from cgt.algebra.impartial import nim_moves
from cgt.games.octal import HeapGame
from cgt.protocol import Param
from cgt.registry import register


@register
class Nim(HeapGame):
    name = "nim"
    summary = "Nim: take tokens from one heap (impartial reference game)"
    title = "Nim"
    params = (Param("heaps", str, "3,4,5", help="comma-separated heap sizes"),)

    def heap_moves(self, n: int) -> list[tuple[int, ...]]:
        return nim_moves(n)
