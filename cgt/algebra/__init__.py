"""CGT algebra: short partizan games in canonical form, CGSuite notation, temperature theory,
impartial games (Grundy values, octal games, periodicity) and values of protocol games."""

from cgt.algebra.game import DOWN, STAR, UP, ZERO, CanonicalForm, set_fast_paths
from cgt.algebra.notation import format_game, parse_game
from cgt.algebra.thermograph import (
    Thermograph,
    Wall,
    atomic_weight,
    cool,
    heat,
    is_infinitesimal,
    left_stop,
    mean,
    reduced_canonical_form,
    right_stop,
    temperature,
    thermograph,
)

__all__ = [
    "DOWN",
    "STAR",
    "UP",
    "ZERO",
    "CanonicalForm",
    "Thermograph",
    "Wall",
    "atomic_weight",
    "cool",
    "format_game",
    "heat",
    "is_infinitesimal",
    "left_stop",
    "mean",
    "parse_game",
    "reduced_canonical_form",
    "right_stop",
    "set_fast_paths",
    "temperature",
    "thermograph",
]
