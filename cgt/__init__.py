"""cgt: combinatorial game theory analysis toolkit.

Games are defined through :mod:`cgt.protocol`, found through :mod:`cgt.registry`, solved by
the :mod:`solvers` package and checked against their documents' claims by :mod:`proofs`.
"""

from cgt.errors import CGTError, MoveError, ParameterError, PositionError, UnknownGameError
from cgt.protocol import Game, Outcome, Param
from cgt.registry import game_class, game_names, load_game, register

__all__ = [
    "CGTError",
    "Game",
    "MoveError",
    "Outcome",
    "Param",
    "ParameterError",
    "PositionError",
    "UnknownGameError",
    "game_class",
    "game_names",
    "load_game",
    "register",
]
__version__ = "0.1.0"
