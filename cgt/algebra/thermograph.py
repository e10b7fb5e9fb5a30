"""Temperature theory: stops, thermographs, mean, temperature, cooling and heating, plus the
two "modulo small stuff" tools: atomic weight and reduced canonical form.

Thermographs are computed for temperatures ``t >= 0`` from the options' walls (Berlekamp's
scaffolds, Siegel ch. II.5): the left scaffold is ``max over G^L of RW(G^L)(t) - t``, the right
scaffold ``min over G^R of LW(G^R)(t) + t``; they meet at the temperature, above which the
thermograph is a vertical mast at the mean. Walls are exact piecewise-linear functions with
:class:`~fractions.Fraction` breakpoints. Numbers have negative temperature (``-1`` for an
integer, ``-1/2^k`` for ``m/2^k``) and a mast from ``t = 0``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import pairwise
from typing import Any

from cgt.algebra.budget import poll
from cgt.algebra.game import (
    CanonicalForm,
    add_id,
    canonical_id,
    is_dyadic,
    le_id,
    left_options_id,
    negate_id,
    number_id,
    number_of_id,
    right_options_id,
    table_size,
    uptimal_of_id,
)
from cgt.errors import ParameterError


# ------------------------------------------------------------------ stops
@cache
def _stops(g: int) -> tuple[Fraction, Fraction]:
    x = number_of_id(g)
    if x is not None:
        return x, x
    left = max(_stops(gl)[1] for gl in left_options_id(g))
    right = min(_stops(gr)[0] for gr in right_options_id(g))
    return left, right


def left_stop(game: CanonicalForm) -> Fraction:
    """The number reached when Left starts and both play optimally to a number."""
    return _stops(game.id)[0]


def right_stop(game: CanonicalForm) -> Fraction:
    """The number reached when Right starts."""
    return _stops(game.id)[1]


# ------------------------------------------------------------------ piecewise-linear walls
@dataclass(frozen=True)
class Wall:
    """A continuous piecewise-linear function of the temperature ``t >= 0``.

    ``points`` are ``(t, value)`` breakpoints starting at ``t = 0``; between them the function
    is linear, after the last it continues with slope ``tail_slope``.
    """

    points: tuple[tuple[Fraction, Fraction], ...]
    tail_slope: Fraction = Fraction(0)

    @staticmethod
    def constant(value: Fraction) -> Wall:
        return Wall(((Fraction(0), value),))

    def __call__(self, t: Fraction | int) -> Fraction:
        t = Fraction(t)
        points = self.points
        if t >= points[-1][0]:
            return points[-1][1] + self.tail_slope * (t - points[-1][0])
        for (t0, v0), (t1, v1) in pairwise(points):
            if t0 <= t <= t1:
                return v0 + (v1 - v0) * (t - t0) / (t1 - t0)
        raise ValueError(f"temperature {t} is below 0")

    def slope_after(self, t: Fraction) -> Fraction:
        """Slope of the piece starting at ``t``."""
        for (t0, v0), (t1, v1) in pairwise(self.points):
            if t0 <= t < t1:
                return (v1 - v0) / (t1 - t0)
        return self.tail_slope

    def shifted(self, slope: int) -> Wall:
        """``t -> self(t) + slope * t``."""
        return Wall(tuple((t, v + slope * t) for t, v in self.points), self.tail_slope + slope)

    def truncated(self, top: Fraction) -> Wall:
        """Equal to ``self`` up to ``top`` and constant after it."""
        points = [p for p in self.points if p[0] < top] + [(top, self(top))]
        return Wall(_simplify(points), Fraction(0))

    def as_lists(self) -> dict[str, Any]:
        return {
            "points": [[str(t), str(v)] for t, v in self.points],
            "tail_slope": str(self.tail_slope),
        }


def _simplify(points: list[tuple[Fraction, Fraction]]) -> tuple[tuple[Fraction, Fraction], ...]:
    """Drop repeated and collinear interior breakpoints."""
    unique: list[tuple[Fraction, Fraction]] = []
    for p in points:
        if not unique or unique[-1][0] != p[0]:
            unique.append(p)
    kept = [unique[0]]
    for i in range(1, len(unique) - 1):
        (t0, v0), (t1, v1), (t2, v2) = kept[-1], unique[i], unique[i + 1]
        if (v1 - v0) * (t2 - t1) != (v2 - v1) * (t1 - t0):
            kept.append(unique[i])
    if len(unique) > 1:
        kept.append(unique[-1])
    return tuple(kept)


def _envelope(walls: list[Wall], pick: Any) -> Wall:
    """Pointwise ``pick`` (``max`` or ``min``) of walls, exactly."""
    if len(walls) == 1:
        return walls[0]
    breaks = sorted({t for w in walls for t, _ in w.points})
    # crossings inside each linear piece, and in the common tail
    extra: set[Fraction] = set()
    spans = [*pairwise(breaks), (breaks[-1], None)]
    for start, end in spans:
        poll(table_size())  # wide envelopes (*600) take long over forms already known
        lines = [(w(start), w.slope_after(start)) for w in walls]
        for i in range(len(lines)):
            for j in range(i + 1, len(lines)):
                (a, sa), (b, sb) = lines[i], lines[j]
                if sa != sb:
                    cross = start + (b - a) / (sa - sb)
                    if cross > start and (end is None or cross < end):
                        extra.add(cross)
    ts = sorted(set(breaks) | extra)
    points = [(t, pick(w(t) for w in walls)) for t in ts]
    last = ts[-1]
    tail_values = [(w(last), w.slope_after(last)) for w in walls]
    best = pick(v for v, _ in tail_values)
    slopes = [s for v, s in tail_values if v == best]
    return Wall(_simplify(points), pick(slopes))


@dataclass(frozen=True)
class Thermograph:
    """Left and right walls for ``t >= 0``, the temperature and the mast (mean) value.

    Both walls are vertical (constant) above ``max(temperature, 0)``.
    """

    left_wall: Wall
    right_wall: Wall
    temperature: Fraction
    mast: Fraction

    def as_dict(self) -> dict[str, Any]:
        return {
            "temperature": str(self.temperature),
            "mast": str(self.mast),
            "left_wall": self.left_wall.as_lists(),
            "right_wall": self.right_wall.as_lists(),
        }

    def plot(self, ax: Any = None, **style: Any) -> Any:
        """Draw on a matplotlib ``Axes`` in the usual orientation: Left's values to the left
        (the value axis is reversed), temperature upwards. Returns the ``Axes``."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(4, 3))
        top = max(self.temperature, Fraction(0)) + 1
        for wall in (self.left_wall, self.right_wall):
            ts = [t for t, _ in wall.points if t <= top] + [top]
            ax.plot([float(wall(t)) for t in ts], [float(t) for t in ts], **{"color": "k", **style})
        ax.invert_xaxis()
        ax.set_xlabel("value")
        ax.set_ylabel("temperature")
        return ax


def number_temperature(x: Fraction) -> Fraction:
    """Temperature of the number ``x``: ``-1`` for integers, ``-1/2^k`` for ``m/2^k``."""
    return Fraction(-1, x.denominator) if x.denominator > 1 else Fraction(-1)


@cache
def _thermograph(g: int) -> Thermograph:
    x = number_of_id(g)
    if x is not None:
        vertical = Wall.constant(x)
        return Thermograph(vertical, vertical, number_temperature(x), x)
    left_stop, right_stop = _stops(g)
    if left_stop == right_stop:
        # the walls start at the stops and meet where they first touch: at t = 0 here
        # (infinitesimals such as *1000, whose envelopes would take minutes)
        vertical = Wall.constant(left_stop)
        return Thermograph(vertical, vertical, Fraction(0), left_stop)
    left_scaffold = _envelope(
        [_thermograph(gl).right_wall for gl in left_options_id(g)], max
    ).shifted(-1)
    right_scaffold = _envelope(
        [_thermograph(gr).left_wall for gr in right_options_id(g)], min
    ).shifted(1)
    temperature = _first_meeting(left_scaffold, right_scaffold)
    mast = left_scaffold(temperature)
    return Thermograph(
        left_scaffold.truncated(temperature),
        right_scaffold.truncated(temperature),
        temperature,
        mast,
    )


def _first_meeting(left: Wall, right: Wall) -> Fraction:
    """Smallest ``t >= 0`` with ``left(t) <= right(t)``; ``left - right`` never increases."""
    ts = sorted({t for t, _ in left.points} | {t for t, _ in right.points})
    previous = ts[0]
    if left(previous) <= right(previous):
        return previous
    for t in [*ts[1:], None]:
        if t is None:
            # both walls are linear after the last breakpoint: solve for the crossing
            gap = left(previous) - right(previous)
            closing = right.tail_slope - left.tail_slope
            return previous + gap / closing
        if left(t) <= right(t):
            gap_start = left(previous) - right(previous)
            gap_end = left(t) - right(t)
            return previous + (t - previous) * gap_start / (gap_start - gap_end)
        previous = t
    raise AssertionError("unreachable")


def thermograph(game: CanonicalForm) -> Thermograph:
    """The thermograph of ``game`` (for ``t >= 0``)."""
    return _thermograph(game.id)


def mean(game: CanonicalForm) -> Fraction:
    """The mean value: ``n.G`` is within a bounded distance of ``n.mean`` for every ``n``."""
    return _thermograph(game.id).mast


def temperature(game: CanonicalForm) -> Fraction:
    """How much a player gains by moving first, in the limit (negative for numbers)."""
    return _thermograph(game.id).temperature


# ------------------------------------------------------------------ cooling and heating
def _dyadic(t: Fraction | int | str, what: str) -> Fraction:
    value = Fraction(t)
    if not is_dyadic(value):
        raise ParameterError(f"{what} {value} is not a dyadic rational")
    return value


@cache
def _cool(g: int, t: Fraction) -> int:
    graph = _thermograph(g)
    if t > graph.temperature:
        return number_id(graph.mast)
    if number_of_id(g) is not None and t >= 0:
        return g
    shift_left = number_id(-t)
    shift_right = number_id(t)
    return canonical_id(
        [add_id(_cool(gl, t), shift_left) for gl in left_options_id(g)],
        [add_id(_cool(gr, t), shift_right) for gr in right_options_id(g)],
    )


def cool(game: CanonicalForm, t: Fraction | int | str) -> CanonicalForm:
    """``G`` cooled by ``t > -1``: each move taxed by ``t``, until ``G`` freezes to its mean.

    ``G_t = {G^L_t - t | G^R_t + t}`` unless ``t`` exceeds the temperature, where ``G_t`` is
    the mean (Siegel II.5). Numbers have negative temperatures, so a negative ``t`` (CGSuite
    allows ``-1 < t``) can thaw them: ``(1/4).Cool(-1/4) = 1/4*``.
    """
    value = _dyadic(t, "cooling temperature")
    if value <= -1:
        raise ParameterError(f"invalid cooling temperature (must be > -1): {value}")
    return CanonicalForm(_cool(game.id, value))


@cache
def _heat(g: int, t: int) -> int:
    if number_of_id(g) is not None:
        return g
    minus_t = negate_id(t)
    return canonical_id(
        [add_id(_heat(gl, t), t) for gl in left_options_id(g)],
        [add_id(_heat(gr, t), minus_t) for gr in right_options_id(g)],
    )


def heat(game: CanonicalForm, t: CanonicalForm | Fraction | int | str) -> CanonicalForm:
    """``G`` heated by ``t``: ``{G^L heated + t | G^R heated - t}``, numbers unchanged.

    Heating inverts cooling on the games that cooling produces from hot games. ``t`` may be
    a dyadic number or any game (CGSuite's ``Heat(*)``: heating by ``*`` gives
    ``{3||2*|1*}.Heat(*) = {3*||2|1}``).
    """
    if isinstance(t, CanonicalForm):
        return CanonicalForm(_heat(game.id, t.id))
    return CanonicalForm(_heat(game.id, number_id(_dyadic(t, "heating temperature"))))


# ------------------------------------------------------------------ atomic weight
@cache
def far_star(g: int) -> int:
    """CGSuite's far star index: one more than the largest nimber among the subpositions of
    ``g`` (at least 1); ``*far_star(g)`` is confused with no subposition's difference."""
    tag = uptimal_of_id(g)
    if tag is not None and tag[0] == 0 and tag[1] == 0:
        return tag[2] + 1
    return max((far_star(o) for o in left_options_id(g) + right_options_id(g)), default=1)


@cache
def _atomic_weight(g: int) -> int:
    """The atomic weight calculus (Siegel, *Combinatorial Game Theory*, II.7; as CGSuite's
    ``naiveAtomicWeight``): ``x + n.^ + *m`` weighs ``n``; otherwise
    ``A = {aw(G^L) - 2 | aw(G^R) + 2}``, except that an integer ``A`` is replaced, when ``G``
    is above (below) its far star, by the least integer exceeding every ``aw(G^L) - 2`` (the
    greatest below every ``aw(G^R) + 2``)."""
    tag = uptimal_of_id(g)
    if tag is not None:
        return number_id(tag[1])
    two = number_id(2)
    minus_two = number_id(-2)
    lefts = [add_id(_atomic_weight(gl), minus_two) for gl in left_options_id(g)]
    rights = [add_id(_atomic_weight(gr), two) for gr in right_options_id(g)]
    candidate = canonical_id(lefts, rights)
    x = number_of_id(candidate)
    if x is None or x.denominator != 1:
        return candidate
    star = CanonicalForm.nimber(far_star(g)).id
    below, above = le_id(g, star), le_id(star, g)
    if below and not above:
        return number_id(max((_least_integer_not_below(o) for o in lefts), default=0))
    if above and not below:
        return number_id(min((_greatest_integer_not_above(o) for o in rights), default=0))
    return candidate


def _least_integer_not_below(g: int) -> int:
    """The least integer ``n`` with ``n |> G`` (not ``n <= G``)."""
    stop = _stops(g)[1]
    n = -((-stop.numerator) // stop.denominator)
    return n + 1 if le_id(number_id(n), g) else n


def _greatest_integer_not_above(g: int) -> int:
    """The greatest integer ``n`` with ``n <| G`` (not ``G <= n``)."""
    stop = _stops(g)[0]
    n = stop.numerator // stop.denominator
    return n - 1 if le_id(g, number_id(n)) else n


@cache
def norton_product(g: int, u: int) -> int:
    """Norton's product ``G.U`` (Siegel II.7): ``n`` copies of ``U`` for an integer ``n``,
    else ``{G^L.U + U + I | G^R.U - U - I}`` over the undominated incentives ``I`` of ``U``."""
    x = number_of_id(g)
    if x is not None and x.denominator == 1:
        base = u if x >= 0 else negate_id(u)
        total = number_id(0)
        for _ in range(abs(int(x))):
            total = add_id(total, base)
        return total
    incentives = [add_id(ul, negate_id(u)) for ul in left_options_id(u)]
    incentives += [add_id(u, negate_id(ur)) for ur in right_options_id(u)]
    best = [i for i in set(incentives) if not any(j != i and le_id(i, j) for j in set(incentives))]
    steps = [add_id(u, i) for i in best]
    return canonical_id(
        [add_id(norton_product(gl, u), step) for gl in left_options_id(g) for step in steps],
        [
            add_id(norton_product(gr, u), negate_id(step))
            for gr in right_options_id(g)
            for step in steps
        ],
    )


@cache
def ordinal_sum(g: int, h: int) -> int:
    """The ordinal sum ``G : H = {G^L, G:H^L | G^R, G:H^R}`` (moving in ``G`` ends ``H``)."""
    return canonical_id(
        list(left_options_id(g)) + [ordinal_sum(g, hl) for hl in left_options_id(h)],
        list(right_options_id(g)) + [ordinal_sum(g, hr) for hr in right_options_id(h)],
    )


def atomic_weight(game: CanonicalForm) -> CanonicalForm:
    """Atomic weight of an atomic game: its size measured in ups.

    Every all-small game is atomic; another infinitesimal ``G`` is atomic when
    ``G - aw(G).^`` lies between ``-e`` and ``e`` for ``e = ^* + (*N : -1)`` with ``*N`` a
    far star (CGSuite's test, after Siegel II.7). Raises :class:`ParameterError` for a game
    that is not atomic (numbers and hot games included).
    """
    g = game.id
    if not _is_infinitesimal(g):
        raise ParameterError(f"that game is not atomic (not infinitesimal): {game}")
    weight = _atomic_weight(g)
    if game.is_all_small():
        return CanonicalForm(weight)
    up = CanonicalForm.uptimal(0, 1, 0).id
    difference = add_id(g, negate_id(norton_product(weight, up)))
    power = 2
    while power < far_star(g):
        power <<= 1
    red_kite = ordinal_sum(CanonicalForm.nimber(power).id, number_id(-1))
    epsilon = add_id(CanonicalForm.uptimal(0, 1, 1).id, red_kite)
    if le_id(difference, epsilon) and le_id(negate_id(epsilon), difference):
        return CanonicalForm(weight)
    raise ParameterError(f"that game is not atomic: {game}")


# ------------------------------------------------------------------ reduced canonical form
def _le_mod_infinitesimals(g: int, h: int) -> bool:
    """``G <= H`` modulo infinitesimals: ``G <= H + e`` for some infinitesimal ``e``; that is,
    the left stop of ``G - H`` is at most 0."""
    return _stops(add_id(g, negate_id(h)))[0] <= 0


@cache
def _reduced(g: int) -> int:
    if number_of_id(g) is not None:
        return g
    ls, rs = _stops(g)
    if ls == rs:
        x = number_id(ls)
        difference = add_id(g, negate_id(x))
        if _is_infinitesimal(difference):
            return x
    lefts = sorted({_reduced(gl) for gl in left_options_id(g)})
    rights = sorted({_reduced(gr) for gr in right_options_id(g)})
    while True:
        lefts = _undominated(lefts, lambda a, b: _le_mod_infinitesimals(a, b))
        rights = _undominated(rights, lambda a, b: _le_mod_infinitesimals(b, a))
        current = canonical_id(lefts, rights)
        changed = False
        for i, gl in enumerate(lefts):
            for glr in right_options_id(gl):
                if _le_mod_infinitesimals(glr, current):
                    lefts = sorted(set(lefts[:i] + lefts[i + 1 :] + list(left_options_id(glr))))
                    changed = True
                    break
            if changed:
                break
        if not changed:
            for i, gr in enumerate(rights):
                for grl in left_options_id(gr):
                    if _le_mod_infinitesimals(current, grl):
                        rights = sorted(
                            set(rights[:i] + rights[i + 1 :] + list(right_options_id(grl)))
                        )
                        changed = True
                        break
                if changed:
                    break
        if not changed:
            result = canonical_id(lefts, rights)
            ls, rs = _stops(result)
            if ls == rs and _is_infinitesimal(add_id(result, negate_id(number_id(ls)))):
                return number_id(ls)
            return result


def _undominated(options: list[int], le: Any) -> list[int]:
    """Options not dominated by another; among options equal modulo infinitesimals keep the
    first (smallest id), so the result is deterministic."""
    kept: list[int] = []
    for i, a in enumerate(options):
        dominated = False
        for j, b in enumerate(options):
            if i == j:
                continue
            if le(a, b) and (not le(b, a) or j < i):
                dominated = True
                break
        if not dominated:
            kept.append(a)
    return kept


def _is_infinitesimal(g: int) -> bool:
    """Between every negative and every positive number: both stops are 0 at every level.

    Equivalently ``-x < G < x`` for all numbers ``x > 0``, which holds iff both stops of
    ``G`` are 0 (for a short game, a non-zero stop would be bounded away from 0).
    """
    return _stops(g) == (0, 0)


def reduced_canonical_form(game: CanonicalForm) -> CanonicalForm:
    """The simplest game infinitesimally close to ``game`` (Calistrate's reduced canonical
    form, ``rcf``): ``^`` and ``*`` reduce to 0, ``{2|^}`` to ``{2|0}``."""
    return CanonicalForm(_reduced(game.id))


def is_infinitesimal(game: CanonicalForm) -> bool:
    """True when ``-x < G < x`` for every positive number ``x``."""
    return _is_infinitesimal(game.id)
