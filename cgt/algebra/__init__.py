"""CGT algebra: short partizan games in canonical form, CGSuite notation, temperature theory,
impartial games (Grundy values, octal games, periodicity) and values of protocol games."""

# Importing the package installs what the form table and the expression reader take from
# the modules built on them: CGSuite printing (notation) and loopy games (loopy_expression).
from cgt.algebra.expression import parse_game
from cgt.algebra.game import DOWN, STAR, UP, ZERO, CanonicalForm, set_fast_paths
from cgt.algebra.loopy_expression import parse_loopy
from cgt.algebra.notation import format_game
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
    "parse_loopy",
    "reduced_canonical_form",
    "right_stop",
    "set_fast_paths",
    "temperature",
    "thermograph",
]
