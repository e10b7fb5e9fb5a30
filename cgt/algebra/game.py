"""Short partizan games in canonical form, interned so that a value is an integer id.

Why this design (after CGSuite's, re-derived from the theory in Siegel's *Combinatorial Game
Theory* and *Lessons in Play*; no code copied):

* Every canonical form is stored exactly once, in a table from ``(left option ids, right option
  ids)`` to an id. Two canonical forms are equal as games iff they are the same form, so game
  equality is an integer comparison and every operation can be cached on ids.
* Values of the form ``x + n.^ + *m`` (a number plus ups plus a nimber, called *uptimal* here)
  carry that triple; sums and comparisons of two of them never look at options.
* Numbers are dyadic rationals (:class:`fractions.Fraction`); their canonical forms are built
  directly by the simplest-number rule.
* Sums with a number use the number translation theorem: for ``G`` not a number,
  ``G + x = {G^L + x | G^R + x}`` is already canonical.
* Comparisons with a number use number avoidance: for ``G`` not a number,
  ``G >= x`` iff no ``G^R <= x``.

The fast paths can be switched off (:func:`set_fast_paths`) so that tests can check them
against the plain definitions.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Protocol, Union

Uptimal = tuple[Fraction, int, int]
"""``(x, n, m)`` standing for ``x + n.^ + *m``."""

# ------------------------------------------------------------------ the interned table
_left: list[tuple[int, ...]] = []
_right: list[tuple[int, ...]] = []
_number: list[Fraction | None] = []
_uptimal: list[Uptimal | None] = []
_index: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
_number_index: dict[Fraction, int] = {}
_uptimal_index: dict[Uptimal, int] = {}
_number_key: list[float | Fraction | None] = []
"""The number of each form (``None`` if not a number) as a float when the float is exact, for
comparisons: a Fraction comparison costs an abstract-base-class check and a cross product,
a float comparison one instruction. Float and Fraction compare exactly with each other, so a
number too fine for a float keeps its Fraction and still compares right."""
_uptimal_key: list[tuple[float | Fraction, int, int] | None] = []
"""The uptimal triple of each form with its number part as in ``_number_key``."""

# ------------------------------------------------------------------ operation caches
_ID_BITS = 40
"""Comparisons and sums are cached under ``(g << _ID_BITS) | h``: an int hashes faster than a
pair, and no table reaches 2**40 forms."""
_le_cache: dict[int, bool] = {}
_sum_cache: dict[int, int] = {}
_neg_cache: dict[int, int] = {}
_birthday_cache: dict[int, int] = {}
_reduction_cache: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
"""Option id sets given to :func:`canonical_id` (sorted, deduplicated) to the result's id."""
_simplest_cache: dict[tuple[int, int], int] = {}
"""``(id of the largest Left number or -1, id of the smallest Right number or -1)`` to the id
of the simplest number between them."""

_fast_paths = True

_NO_CHECKPOINT = 1 << 62
_checkpoint = _NO_CHECKPOINT
"""Table size at which :func:`_intern` next asks the active budget
(:mod:`cgt.algebra.budget`) whether to go on: one integer comparison per new form."""


class FormBudget(Protocol):
    """What the table of forms asks of the budget of the computation running now. The
    budget (:class:`cgt.algebra.budget.Budget`) builds on this module, so it is installed
    here (:func:`set_active_budget`) rather than imported."""

    def tick(self, forms: int) -> int:
        """Check the bounds at a checkpoint; the next checkpoint."""
        ...

    def check(self, forms: int, extra_bytes: int = 0, what: str = "") -> None: ...

    def room_for(self, forms_now: int, more: int, what: str, more_bytes: int = 0) -> None: ...


_budget: FormBudget | None = None

if sys.getrecursionlimit() < 20000:
    # Sums and comparisons recurse once per birthday level of each operand; deep games
    # (long sums of components) need more than Python's default of 1000 frames.
    sys.setrecursionlimit(20000)


def set_fast_paths(enabled: bool) -> bool:
    """Switch the number/uptimal shortcuts on or off; returns the previous setting.

    Used by tests to compare the shortcuts with the plain recursive definitions. The
    operation caches are cleared because entries computed either way must agree anyway,
    but a test wants to exercise the code path it selected.
    """
    global _fast_paths
    previous = _fast_paths
    _fast_paths = enabled
    clear_caches()
    return previous


def clear_caches() -> None:
    """Forget cached operation results (the interned table itself is kept)."""
    _le_cache.clear()
    _sum_cache.clear()
    _neg_cache.clear()
    _reduction_cache.clear()
    _simplest_cache.clear()


def table_size() -> int:
    """Number of distinct canonical forms created so far."""
    return len(_left)


def active_budget() -> FormBudget | None:
    """The budget of the computation running now, if any."""
    return _budget


def set_active_budget(budget: FormBudget | None, checkpoint: int | None) -> None:
    """Make ``budget`` the active one (``None``: none), consulted next when the table holds
    ``checkpoint`` forms (``None``: never)."""
    global _budget, _checkpoint
    _budget = budget
    _checkpoint = _NO_CHECKPOINT if checkpoint is None else checkpoint


def _budget_tick(forms: int) -> None:
    global _checkpoint
    _checkpoint = _NO_CHECKPOINT if _budget is None else _budget.tick(forms)


def _intern(left: Iterable[int], right: Iterable[int], tag: Uptimal | None = None) -> int:
    """Id of the form ``{left | right}``, which the caller guarantees is canonical."""
    key = (tuple(sorted(set(left))), tuple(sorted(set(right))))
    found = _index.get(key)
    if found is not None:
        return found
    if tag is None:
        # may intern smaller forms (the options of a candidate), so it runs before this
        # form takes the next id
        tag = _recognise(key[0], key[1])
        found = _index.get(key)
        if found is not None:
            return found
    new_id = len(_left)
    if new_id >= _checkpoint:
        _budget_tick(new_id)  # may raise BudgetExceeded: nothing is half-written yet
    _left.append(key[0])
    _right.append(key[1])
    _index[key] = new_id
    if tag is not None and tag[1] == 0 and tag[2] == 0:
        _number.append(tag[0])
        _number_index.setdefault(tag[0], new_id)
    else:
        _number.append(None)
    _uptimal.append(tag)
    if tag is not None:
        _uptimal_index.setdefault(tag, new_id)
        x = _comparable(tag[0])
        _uptimal_key.append((x, tag[1], tag[2]))
        _number_key.append(x if tag[1] == 0 and tag[2] == 0 else None)
    else:
        _uptimal_key.append(None)
        _number_key.append(None)
    return new_id


def _comparable(x: Fraction) -> float | Fraction:
    """``x`` as a float when that float is exactly ``x`` (see ``_number_key``), else ``x``.

    Short-game numbers are dyadic: a numerator of at most 53 bits over a power of two
    within the float exponent range converts exactly (cheaper than converting back to check).
    """
    if x.numerator.bit_length() <= 53 and x.denominator.bit_length() <= 1000:
        return float(x)
    return x


def intern_canonical(left: Iterable[int], right: Iterable[int], number: Fraction | None) -> int:
    """Id of ``{left | right}``, which the caller guarantees is a canonical form (``number``:
    the number it is, if it is one). For engines that build canonical forms themselves (the
    compiled Domineering kernel, :mod:`cgt.games.domineering_kernel`); nothing is checked.
    """
    return _intern(left, right, None if number is None else (number, 0, 0))


def _recognise(left: tuple[int, ...], right: tuple[int, ...]) -> Uptimal | None:
    """The uptimal triple of a new canonical form, if it is one (``None`` otherwise).

    Canonical numbers are exactly the forms whose options are numbers with every left option
    below every right option. For the others a candidate triple is read off the shape of the
    options and confirmed by comparing with the known canonical form of that triple.
    """
    options = left + right
    # Compared through _number_key and _uptimal_key (floats where exact), in plain loops:
    # Fraction comparisons cost microseconds each, and this runs for every new form.
    keys = _number_key
    numbers = True
    lo = hi = -1  # ids of the largest Left and the smallest Right number option
    for g in left:
        x = keys[g]
        if x is None:
            numbers = False
            break
        if lo < 0 or x > keys[lo]:  # type: ignore[operator]
            lo = g
    if numbers:
        for g in right:
            x = keys[g]
            if x is None:
                numbers = False
                break
            if hi < 0 or x < keys[hi]:  # type: ignore[operator]
                hi = g
    if numbers and (lo < 0 or hi < 0 or keys[lo] < keys[hi]):  # type: ignore[operator]
        lo_number = None if lo < 0 else _number[lo]
        hi_number = None if hi < 0 else _number[hi]
        return (simplest_number_between(lo_number, hi_number), 0, 0)
    if not options:
        return None
    tags = _uptimal_key
    first = tags[options[0]]
    if first is None:
        return None
    for g in options:
        tag = tags[g]
        if tag is None or tag[0] != first[0]:
            return None
    base = _uptimal[options[0]][0]  # type: ignore[index]
    candidates: list[Uptimal] = []
    if left == right:
        candidates.append((base, 0, len(left)))
    if len(left) == 1 and len(right) == 1:
        low, high = _uptimal[left[0]], _uptimal[right[0]]
        assert low is not None and high is not None
        if low[1:] == (0, 0) and high[1] >= 0:
            candidates.append((base, high[1] + 1, high[2] ^ 1))
        if high[1:] == (0, 0) and low[1] <= 0:
            candidates.append((base, low[1] - 1, low[2] ^ 1))
    if len(left) == 2 and len(right) == 1:
        candidates.append((base, 1, 1))
    if len(left) == 1 and len(right) == 2:
        candidates.append((base, -1, 1))
    for candidate in candidates:
        if _uptimal_shape(candidate) == (left, right):
            return candidate
    return None


# ------------------------------------------------------------------ numbers and uptimals
def simplest_number_between(lo: Fraction | None, hi: Fraction | None) -> Fraction:
    """The simplest dyadic number strictly between ``lo`` and ``hi`` (``None``: unbounded)."""
    if lo is not None and hi is not None and lo >= hi:
        raise ValueError(f"no number lies strictly between {lo} and {hi}")
    if (lo is None or lo < 0) and (hi is None or hi > 0):
        return Fraction(0)
    if lo is not None and lo >= 0:
        candidate = Fraction(lo.numerator // lo.denominator + 1)
        if hi is None or candidate < hi:
            return candidate
    if hi is not None and hi <= 0:
        candidate = Fraction(-((-hi.numerator) // hi.denominator) - 1)
        if lo is None or candidate > lo:
            return candidate
    assert lo is not None and hi is not None
    denominator = 2
    while True:
        numerator = (lo * denominator).__floor__() + 1
        if Fraction(numerator, denominator) < hi:
            return Fraction(numerator, denominator)
        denominator *= 2


def is_dyadic(x: Fraction) -> bool:
    """True when ``x`` has a power of two as denominator (the only short-game numbers)."""
    d = x.denominator
    return d & (d - 1) == 0


def number_id(x: Fraction | int) -> int:
    """Id of the canonical form of the dyadic number ``x``."""
    if type(x) is not Fraction:  # Fraction(x) of a Fraction costs an abstract-base-class check
        x = Fraction(x)
    found = _number_index.get(x)
    if found is not None:
        return found
    if not is_dyadic(x):
        raise ValueError(f"{x} is not a dyadic rational, so it is not a short game")
    if x.denominator == 1:
        return _integer_id(int(x))
    step = Fraction(1, x.denominator)
    return _intern((number_id(x - step),), (number_id(x + step),), (x, 0, 0))


def _integer_id(n: int) -> int:
    """Id of the integer ``n``, built upwards from the nearest integer already in the table
    (a loop, not a recursion: ``n = {n-1 | }`` has ``|n|`` subpositions, and 20,000 of them
    would overflow Python's stack)."""
    step = 1 if n > 0 else -1
    known = 0
    while known != n and Fraction(known + step) in _number_index:
        known += step
    if known == 0 and Fraction(0) not in _number_index:
        _intern((), (), (Fraction(0), 0, 0))
    if abs(n - known) > 1 << 12:
        budget = active_budget()
        if budget is not None:
            budget.room_for(table_size(), abs(n - known), f"the integer {n}")
    g = _number_index[Fraction(known)]
    while known != n:
        known += step
        g = (
            _intern((g,), (), (Fraction(known), 0, 0))
            if step > 0
            else _intern((), (g,), (Fraction(known), 0, 0))
        )
    return g


def _uptimal_shape(triple: Uptimal) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Option ids of the canonical form of ``x + n.^ + *m``.

    ``*m = {*0..*(m-1) | *0..*(m-1)}``; for ``n >= 1``, ``n.^ + *m = {0 | (n-1).^ + *(m^1)}``
    except ``^* = {0, * | 0}``; negative ``n`` by symmetry; the number ``x`` is added to every
    option (number translation).
    """
    x, n, m = triple
    if n == 0:
        stars = tuple(sorted(uptimal_id((x, 0, j)) for j in range(m)))
        return stars, stars
    if n > 0:
        if (n, m) == (1, 1):
            return tuple(sorted((number_id(x), uptimal_id((x, 0, 1))))), (number_id(x),)
        return (number_id(x),), (uptimal_id((x, n - 1, m ^ 1)),)
    left, right = _uptimal_shape((-x, -n, m))
    return tuple(sorted(negate_id(g) for g in right)), tuple(sorted(negate_id(g) for g in left))


def uptimal_id(triple: Uptimal) -> int:
    """Id of the canonical form of ``x + n.^ + *m``."""
    found = _uptimal_index.get(triple)
    if found is not None:
        return found
    x, n, m = triple
    if n == 0 and m == 0:
        return number_id(x)
    if n == 0 and m > 2 and (x, 0, m - 1) not in _uptimal_index:
        _build_nimbers(x, m)
    if abs(n) > 2:
        # n.^ + *m = {x | (n-1).^ + *(m^1)}: build the chain upwards, not by recursion
        sign = 1 if n > 0 else -1
        for k in range(1, abs(n)):
            if (x, sign * k, m ^ ((abs(n) - k) & 1)) not in _uptimal_index:
                uptimal_id((sign * x, k, m ^ ((abs(n) - k) & 1)))
    left, right = _uptimal_shape(triple)
    return _intern(left, right, triple)


def _build_nimbers(x: Fraction, m: int) -> None:
    """Intern ``x + *j`` for ``j < m`` in increasing order (a loop: ``*m`` has ``m`` options
    on each side and ``m`` levels of subpositions, too deep for a recursion), asking the
    active budget first: ``*m`` holds about ``m * m / 2`` option ids."""
    known = 1
    while (x, 0, known + 1) in _uptimal_index:
        known += 1
    budget = active_budget()
    if budget is not None and m - known > 256:
        budget.room_for(table_size(), m - known, f"*{m}", (m * m - known * known) * 4)
    for j in range(known + 1, m):
        if budget is not None and j % 256 == 0:
            budget.check(table_size())
        uptimal_id((x, 0, j))


def _uptimal_le(g: tuple[float | Fraction, int, int], h: tuple[float | Fraction, int, int]) -> bool:
    """``x + n.^ + *m <= y + k.^ + *j`` for two distinct triples, without building ``G - H``.

    ``G <= H`` iff ``G - H = (x - y) + (n - k).^ + *(m ^ j)`` is negative or zero. A nonzero
    number part decides the sign alone; otherwise ``n.^ + *m`` is zero for ``n = m = 0``,
    confused with zero for ``n = 0`` (``*m``) and for ``^*``, ``v*``, and has the sign of
    ``n`` else. ``x`` and ``y`` are compared, not subtracted (a Fraction subtraction cost more
    than the rest of a comparison).
    """
    if g[0] != h[0]:
        return g[0] < h[0]
    ups = g[1] - h[1]
    star = g[2] ^ h[2]
    if star == 0:
        return ups <= 0
    if ups == 0 or (star == 1 and (ups == 1 or ups == -1)):
        return False  # *m and ^*, v* are confused with 0
    return ups < 0


# ------------------------------------------------------------------ the operations
def negate_id(g: int) -> int:
    """Id of ``-G``: swap the roles of Left and Right everywhere."""
    found = _neg_cache.get(g)
    if found is not None:
        return found
    tag = _uptimal[g]
    if _fast_paths and tag is not None:
        result = uptimal_id((-tag[0], -tag[1], tag[2]))
    else:
        neg_tag = None if tag is None else (-tag[0], -tag[1], tag[2])
        result = _intern(
            [negate_id(r) for r in _right[g]], [negate_id(x) for x in _left[g]], neg_tag
        )
    _neg_cache[g] = result
    _neg_cache[result] = g
    return result


def le_id(g: int, h: int) -> bool:
    """``G <= H``: Left, moving second in ``H - G``, wins (no ``G^L >= H``, no ``H^R <= G``)."""
    if g == h:
        return True
    key = (g << _ID_BITS) | h
    found = _le_cache.get(key)
    if found is not None:
        return found
    result = True
    if _fast_paths:
        tg, th = _uptimal_key[g], _uptimal_key[h]
        if tg is not None and th is not None:
            result = _uptimal_le(tg, th)
            _le_cache[key] = result
            return result
        if _number[g] is not None:
            # number avoidance: x <= H iff no H^R <= x
            for hr in _right[h]:
                if le_id(hr, g):
                    result = False
                    break
            _le_cache[key] = result
            return result
        if _number[h] is not None:
            for gl in _left[g]:
                if le_id(h, gl):
                    result = False
                    break
            _le_cache[key] = result
            return result
    # plain loops, not any(...): this is the engine's innermost recursion
    for gl in _left[g]:
        if le_id(h, gl):
            result = False
            break
    else:
        for hr in _right[h]:
            if le_id(hr, g):
                result = False
                break
    _le_cache[key] = result
    return result


def add_id(g: int, h: int) -> int:
    """Id of ``G + H`` (the disjunctive sum)."""
    if g > h:
        g, h = h, g
    if g == ZERO_ID:
        return h
    key = (g << _ID_BITS) | h
    found = _sum_cache.get(key)
    if found is not None:
        return found
    tg, th = _uptimal[g], _uptimal[h]
    if _fast_paths and tg is not None and th is not None:
        result = uptimal_id((tg[0] + th[0], tg[1] + th[1], tg[2] ^ th[2]))
    elif _fast_paths and (_number[g] is not None or _number[h] is not None):
        x, other = (g, h) if _number[g] is not None else (h, g)
        # number translation: {G^L + x | G^R + x} is canonical when G is not a number
        result = _intern(
            [add_id(x, gl) for gl in _left[other]], [add_id(x, gr) for gr in _right[other]]
        )
    else:
        result = canonical_id(
            [add_id(gl, h) for gl in _left[g]] + [add_id(g, hl) for hl in _left[h]],
            [add_id(gr, h) for gr in _right[g]] + [add_id(g, hr) for hr in _right[h]],
        )
    _sum_cache[key] = result
    return result


def _pending_le(left: list[int], right: list[int], x: int) -> bool:
    """``{left | right} <= X`` for a form not yet in canonical form."""
    for gl in left:
        if le_id(x, gl):
            return False
    return all(not _le_pending(xr, left, right) for xr in _right[x])


def _le_pending(x: int, left: list[int], right: list[int]) -> bool:
    """``X <= {left | right}`` for a form not yet in canonical form."""
    # the comparisons of canonical forms (cached) first: they settle most cases
    for gr in right:
        if le_id(gr, x):
            return False
    return all(not _pending_le(left, right, xl) for xl in _left[x])


def _undominated(options: list[int], for_left: bool) -> list[int]:
    """The options no other option dominates (for Left: not below another; for Right: not
    above another), sorted (``options`` come sorted).

    Distinct canonical forms are distinct values, so two options are never both ``<=`` each
    other; each option is compared only with the undominated ones found so far, not with all.
    """
    if len(options) < 2:
        return options
    kept: list[int] = []
    for a in options:
        for b in kept:
            if le_id(a, b) if for_left else le_id(b, a):
                break  # a is dominated by b
        else:
            kept = [b for b in kept if not (le_id(b, a) if for_left else le_id(a, b))]
            kept.append(a)
    return sorted(kept)


def canonical_id(left: Iterable[int], right: Iterable[int]) -> int:
    """Id of the canonical form of ``{left | right}`` whose options are canonical ids.

    The standard reduction: delete dominated options, bypass reversible ones, repeat until
    neither applies; the result is the unique simplest form of the value. Results are cached
    by the option sets: a Domineering run meets the same option sets again and again (a
    third of its reductions repeat one done before).
    """
    lefts = sorted(set(left))
    rights = sorted(set(right))
    key = (tuple(lefts), tuple(rights))
    found = _reduction_cache.get(key)
    if found is not None:
        return found
    if _fast_paths:
        found = _number_options_id(lefts, rights)
        if found is not None:
            _reduction_cache[key] = found
            return found
    while True:
        lefts = _undominated(lefts, for_left=True)
        rights = _undominated(rights, for_left=False)
        changed = False
        for i, gl in enumerate(lefts):
            for glr in _right[gl]:
                if _le_pending(glr, lefts, rights):
                    lefts = sorted(set(lefts[:i] + lefts[i + 1 :] + list(_left[glr])))
                    changed = True
                    break
            if changed:
                break
        if not changed:
            for i, gr in enumerate(rights):
                for grl in _left[gr]:
                    if _pending_le(lefts, rights, grl):
                        rights = sorted(set(rights[:i] + rights[i + 1 :] + list(_right[grl])))
                        changed = True
                        break
                if changed:
                    break
        if not changed:
            found = _intern(lefts, rights)
            _reduction_cache[key] = found
            return found


def _number_options_id(lefts: list[int], rights: list[int]) -> int | None:
    """Id of ``{lefts | rights}`` when every option is a number and each Left one is below
    each Right one: the simplest number between the largest Left and the smallest Right
    option. ``None`` otherwise (the form is then not this shortcut's business)."""
    numbers = _number_key
    lo: float | Fraction | None = None
    lo_id = -1
    for g in lefts:
        x = numbers[g]
        if x is None:
            return None
        if lo is None or x > lo:
            lo, lo_id = x, g
    hi: float | Fraction | None = None
    hi_id = -1
    for g in rights:
        x = numbers[g]
        if x is None:
            return None
        if hi is None or x < hi:
            hi, hi_id = x, g
    if lo is not None and hi is not None and lo >= hi:
        return None
    found = _simplest_cache.get((lo_id, hi_id))
    if found is None:
        found = number_id(
            simplest_number_between(
                None if lo_id < 0 else _number[lo_id], None if hi_id < 0 else _number[hi_id]
            )
        )
        _simplest_cache[(lo_id, hi_id)] = found
    return found


def birthday_id(g: int) -> int:
    """Birthday: 0 for ``0``, else one more than the largest birthday of an option."""
    found = _birthday_cache.get(g)
    if found is None:
        x = _number[g]
        if x is not None:
            # m/2^k (k >= 1) is born on day ceil(|x|) + k, an integer n on day |n|
            k = x.denominator.bit_length() - 1
            whole = -((-abs(x.numerator)) // x.denominator)
            return whole + k
        found = 1 + max((birthday_id(o) for o in _left[g] + _right[g]), default=-1)
        _birthday_cache[g] = found
    return found


def left_options_id(g: int) -> tuple[int, ...]:
    return _left[g]


def right_options_id(g: int) -> tuple[int, ...]:
    return _right[g]


def number_of_id(g: int) -> Fraction | None:
    return _number[g]


def uptimal_of_id(g: int) -> Uptimal | None:
    return _uptimal[g]


ZERO_ID = number_id(0)

Coercible = Union["CanonicalForm", int, Fraction]


class CanonicalForm:
    """A short partizan game in canonical form; equality is game equality.

    The partial order is the game order: ``G <= H`` iff Left wins ``H - G`` moving second.
    Two games may be neither ``<=`` nor ``>=`` (confused, see :meth:`confused_with`).
    """

    __slots__ = ("id",)

    def __init__(self, node_id: int) -> None:
        self.id = node_id

    # ----------------------------------------------------------- construction
    @staticmethod
    def from_options(left: Iterable[Coercible], right: Iterable[Coercible]) -> CanonicalForm:
        """Canonical form of ``{left | right}`` (options: games or dyadic numbers)."""
        return CanonicalForm(
            canonical_id([coerce(g).id for g in left], [coerce(g).id for g in right])
        )

    @staticmethod
    def number(x: int | Fraction | str) -> CanonicalForm:
        """The dyadic number ``x`` (``"3/4"`` accepted)."""
        return CanonicalForm(number_id(Fraction(x)))

    @staticmethod
    def nimber(m: int) -> CanonicalForm:
        """``*m``: both players may move to any smaller nimber."""
        if m < 0:
            raise ValueError("nimbers are indexed by non-negative integers")
        return CanonicalForm(uptimal_id((Fraction(0), 0, m)))

    @staticmethod
    def uptimal(x: int | Fraction = 0, ups: int = 0, star: int = 0) -> CanonicalForm:
        """``x + ups.^ + *star``."""
        return CanonicalForm(uptimal_id((Fraction(x), ups, star)))

    # ----------------------------------------------------------- structure
    @property
    def left_options(self) -> tuple[CanonicalForm, ...]:
        return tuple(CanonicalForm(g) for g in _left[self.id])

    @property
    def right_options(self) -> tuple[CanonicalForm, ...]:
        return tuple(CanonicalForm(g) for g in _right[self.id])

    def is_number(self) -> bool:
        return _number[self.id] is not None

    def is_integer(self) -> bool:
        x = _number[self.id]
        return x is not None and x.denominator == 1

    def is_nimber(self) -> bool:
        tag = _uptimal[self.id]
        return tag is not None and tag[0] == 0 and tag[1] == 0

    def is_uptimal(self) -> bool:
        """True for ``x + n.^ + *m`` (numbers, nimbers, ups and their sums)."""
        return _uptimal[self.id] is not None

    def number_value(self) -> Fraction | None:
        """The number this game equals, or ``None``."""
        return _number[self.id]

    def uptimal_value(self) -> Uptimal | None:
        """``(x, n, m)`` when the game equals ``x + n.^ + *m``, else ``None``."""
        return _uptimal[self.id]

    def nim_value(self) -> int | None:
        """``m`` when the game is ``*m``, else ``None``."""
        tag = _uptimal[self.id]
        return tag[2] if tag is not None and tag[0] == 0 and tag[1] == 0 else None

    def birthday(self) -> int:
        return birthday_id(self.id)

    def is_all_small(self) -> bool:
        """Every subposition has Left options iff it has Right options (infinitesimal family)."""
        seen: set[int] = set()
        stack = [self.id]
        while stack:
            g = stack.pop()
            if g in seen:
                continue
            seen.add(g)
            if bool(_left[g]) != bool(_right[g]):
                return False
            stack.extend(_left[g] + _right[g])
        return True

    # ----------------------------------------------------------- algebra
    def __add__(self, other: Coercible) -> CanonicalForm:
        if not _coercible(other):
            return NotImplemented  # a loopy value adds itself (cgt.algebra.loopy)
        return CanonicalForm(add_id(self.id, coerce(other).id))

    __radd__ = __add__

    def __neg__(self) -> CanonicalForm:
        return CanonicalForm(negate_id(self.id))

    def __sub__(self, other: Coercible) -> CanonicalForm:
        if not _coercible(other):
            return NotImplemented
        return CanonicalForm(add_id(self.id, negate_id(coerce(other).id)))

    def __rsub__(self, other: Coercible) -> CanonicalForm:
        if not _coercible(other):
            return NotImplemented
        return coerce(other) - self

    def __mul__(self, count: int) -> CanonicalForm:
        """``G + G + ... + G`` (``count`` copies; negative counts copy ``-G``)."""
        if not isinstance(count, int):
            return NotImplemented
        base = self if count >= 0 else -self
        total = CanonicalForm(ZERO_ID)
        for _ in range(abs(count)):
            total = total + base
        return total

    __rmul__ = __mul__

    # ----------------------------------------------------------- order
    def __eq__(self, other: object) -> bool:
        if isinstance(other, CanonicalForm):
            return self.id == other.id
        if isinstance(other, int | Fraction):
            return _number[self.id] == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.id)

    def __le__(self, other: Coercible) -> bool:
        if not _coercible(other):
            return NotImplemented
        return le_id(self.id, coerce(other).id)

    def __ge__(self, other: Coercible) -> bool:
        if not _coercible(other):
            return NotImplemented
        return le_id(coerce(other).id, self.id)

    def __lt__(self, other: Coercible) -> bool:
        if not _coercible(other):
            return NotImplemented
        o = coerce(other).id
        return le_id(self.id, o) and not le_id(o, self.id)

    def __gt__(self, other: Coercible) -> bool:
        if not _coercible(other):
            return NotImplemented
        o = coerce(other).id
        return le_id(o, self.id) and not le_id(self.id, o)

    def confused_with(self, other: Coercible) -> bool:
        """``G || H``: neither ``G <= H`` nor ``G >= H`` (the first player wins ``G - H``)."""
        o = coerce(other).id
        return not le_id(self.id, o) and not le_id(o, self.id)

    def outcome(self) -> str:
        """Outcome class: ``L`` (Left wins), ``R``, ``N`` (first player), ``P`` (second)."""
        ge_zero = le_id(ZERO_ID, self.id)
        le_zero = le_id(self.id, ZERO_ID)
        if ge_zero and le_zero:
            return "P"
        if ge_zero:
            return "L"
        if le_zero:
            return "R"
        return "N"

    # ----------------------------------------------------------- printing
    def __str__(self) -> str:
        return _printer("text", self)

    def __repr__(self) -> str:
        """CGSuite notation, so a REPL shows ``^*`` (``parse_game(repr(g)) == g``)."""
        return str(self)

    def _repr_latex_(self) -> str:
        """Jupyter's rendering: arrows, stars and bars as mathematics."""
        return f"${_printer('latex', self)}$"

    def _repr_html_(self) -> str:
        return _printer("html", self)


Printer = Callable[[CanonicalForm], str]

_printers: dict[str, Printer] = {}


def install_printers(*, text: Printer, latex: Printer, html: Printer) -> None:
    """How forms print. CGSuite notation (:mod:`cgt.algebra.notation`) builds on this module
    and installs its printers when :mod:`cgt.algebra` is imported, so that this module does
    not import it."""
    _printers.update(text=text, latex=latex, html=html)


def _printer(kind: str, form: CanonicalForm) -> str:
    printer = _printers.get(kind)
    return printer(form) if printer is not None else f"CanonicalForm({form.id})"


def _coercible(value: object) -> bool:
    """Whether :func:`coerce` takes ``value``; operators return ``NotImplemented`` for
    anything else, so that Python asks the other operand (a loopy value, for instance)."""
    return isinstance(value, CanonicalForm) or (
        isinstance(value, int | Fraction) and not isinstance(value, bool)
    )


def coerce(value: Coercible) -> CanonicalForm:
    """A game from a game, an ``int`` or a dyadic ``Fraction``."""
    if isinstance(value, CanonicalForm):
        return value
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise TypeError(f"cannot use {value!r} as a game")
    return CanonicalForm(number_id(Fraction(value)))


ZERO = CanonicalForm(ZERO_ID)
STAR = CanonicalForm.nimber(1)
UP = CanonicalForm.uptimal(0, 1, 0)
DOWN = -UP
