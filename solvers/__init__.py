"""Exact solvers over the game protocol: retrograde analysis and alpha-beta search.

``solve(game)`` picks one; ``solvers.retrograde.retrograde`` and ``AlphaBeta`` are there for
callers who need the whole solved graph or a bounded-memory search. (The function
``retrograde`` is not re-exported here: it would hide the module ``solvers.retrograde``.)
"""

from solvers.alphabeta import AlphaBeta
from solvers.api import solve
from solvers.result import MoveValue, SolveResult
from solvers.retrograde import PositionLimitExceeded, RetrogradeSolution
from solvers.tt import TranspositionTable

__all__ = [
    "AlphaBeta",
    "MoveValue",
    "PositionLimitExceeded",
    "RetrogradeSolution",
    "SolveResult",
    "TranspositionTable",
    "solve",
]
