"""Loopy games: stoppers in simplest form, onsides and offsides, sums and comparison.

The theory is Conway's and Siegel's (*Combinatorial Game Theory*, ch. VI); the algorithms
follow the ones CGSuite uses (``LoopyGame``, ``CanonicalStopper``), re-derived from the
theory, no code copied:

* A loopy game is a vertex of a *game graph*: each vertex has Left and Right edges to
  vertices, possibly to itself (a ``pass``). A **stopper** has no infinite *alternating* play
  from any follower (its graph has no cycle of Left and Right edges taken in turn).
* **Comparison of stoppers**: ``G <= H`` iff Left, moving second in ``H - G``, *survives*
  (never is left without a move; infinite play counts as survival). The states ``(G
  follower, H follower, mover)`` of ``H - G`` are labelled backwards from the states where
  Left cannot move, as a retrograde solver does (:func:`_le_table`).
* **Simplest form of a stopper**: delete dominated options and bypass reversible ones at
  every vertex, then fuse equal vertices (Siegel VI.3: the result is unique up to
  isomorphism). Each edit keeps the value of every vertex, so one table of comparisons of the
  starting graph serves the whole simplification. Vertices are then numbered canonically, so
  equal stoppers have equal encodings (:class:`Stopper`).
* **Onside and offside** of a game that is not a stopper: played so that infinite play is a
  win for Left (the onside) or for Right (the offside). A value is a pair ``S & T`` of
  stoppers ``S >= T`` (``dud = on & off``); ``G <= H`` iff the onsides and the offsides
  compare so. Sides are found by **sidling** (Conway, *ONAG* ch. 11; Siegel VI.4): start every
  vertex of a cycle-component at ``on`` (for the onside) or ``off`` and replace it by
  ``{sides of its Left options | sides of its Right options}`` until nothing changes. When
  that does not settle within :data:`SIDLING_ROUNDS` rounds, the value is refused with
  :class:`LoopyValueError` (no general theory covers such games, as CGSuite also says).

Printing follows CGSuite: ``on``, ``off``, ``over``, ``under``, ``dud``, pseudonumbers
``5over``, ``3/2under``, ``^[on]``/``v[on]`` (``upon``), ``pass`` for an edge back to the
braces it stands in, and labels for longer cycles, ``a{0||||0|||a|*||*}``; values that are
not stoppers print as ``onside & offside``. Loopfree values print exactly as
:mod:`cgt.algebra.notation` prints them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from cgt.algebra.game import CanonicalForm, canonical_id
from cgt.algebra.game import left_options_id as _short_left
from cgt.algebra.game import right_options_id as _short_right
from cgt.algebra.notation import MAX_BARS, _format, format_game, order_key
from cgt.errors import CGTError

#: Whether every simplification is checked to keep the values of its roots (tests switch it
#: on; it costs four times the simplification itself).
CHECK_SIMPLIFICATION = False

#: How many rounds of sidling a cycle-component gets before its sides are declared not found.
SIDLING_ROUNDS = 64


class LoopyValueError(CGTError):
    """A loopy game whose value cannot be given (sides not found by sidling, or an operation
    that needs a stopper or a game form)."""


Edges = tuple[tuple[int, ...], ...]


# ---------------------------------------------------------------------- game graphs
@dataclass(frozen=True)
class GameGraph:
    """Vertices ``0..n-1``; ``left[v]`` and ``right[v]`` are the vertices ``v`` moves to."""

    left: Edges
    right: Edges

    def __len__(self) -> int:
        return len(self.left)

    @staticmethod
    def build(left: Sequence[Iterable[int]], right: Sequence[Iterable[int]]) -> GameGraph:
        return GameGraph(
            tuple(tuple(sorted(set(e))) for e in left), tuple(tuple(sorted(set(e))) for e in right)
        )

    def negative(self) -> GameGraph:
        return GameGraph(self.right, self.left)

    def reachable(self, roots: Iterable[int]) -> list[int]:
        """Vertices reachable from ``roots``, in the order first met (roots first)."""
        seen: dict[int, None] = {}
        stack = list(roots)[::-1]
        while stack:
            v = stack.pop()
            if v in seen:
                continue
            seen[v] = None
            stack.extend(reversed(self.left[v] + self.right[v]))
        return list(seen)

    def restricted(self, roots: Sequence[int]) -> tuple[GameGraph, list[int]]:
        """The subgraph reachable from ``roots``, renumbered; and the roots' new numbers."""
        order = self.reachable(roots)
        index = {v: i for i, v in enumerate(order)}
        graph = GameGraph.build(
            [[index[w] for w in self.left[v]] for v in order],
            [[index[w] for w in self.right[v]] for v in order],
        )
        return graph, [index[r] for r in roots]

    def has_alternating_cycle(self, roots: Iterable[int]) -> bool:
        """True when some follower of a root has an infinite alternating play (not a stopper).

        The states are ``(vertex, mover)``; a state moves to ``(option, other mover)``. An
        alternating cycle is a cycle of this state graph (found by depth-first search)."""
        colour: dict[tuple[int, int], int] = {}  # 1: on the stack, 2: done
        # every follower counts, with either player starting (a follower reached only by
        # Left's moves may still start an alternating cycle with Left to move)
        for root in self.reachable(roots):
            for mover in (0, 1):
                if (root, mover) in colour:
                    continue
                colour[(root, mover)] = 1
                stack = [((root, mover), iter(self._moves(root, mover)))]
                while stack:
                    state, moves = stack[-1]
                    for target in moves:
                        next_state = (target, 1 - state[1])
                        seen = colour.get(next_state)
                        if seen == 1:
                            return True
                        if seen is None:
                            colour[next_state] = 1
                            stack.append((next_state, iter(self._moves(*next_state))))
                            break
                    else:
                        colour[state] = 2
                        stack.pop()
        return False

    def has_cycle(self, roots: Iterable[int]) -> bool:
        """True when a cycle of edges of any kind is reachable from ``roots`` (loopy)."""
        components = self.components(roots)
        return any(
            len(c) > 1 or c[0] in self.left[c[0]] or c[0] in self.right[c[0]] for c in components
        )

    def _moves(self, vertex: int, mover: int) -> tuple[int, ...]:
        return self.left[vertex] if mover == 0 else self.right[vertex]

    def components(self, roots: Iterable[int]) -> list[list[int]]:
        """Strongly connected components reachable from ``roots``, each before any component
        that can reach it (options first). Tarjan's algorithm, without recursion."""
        index: dict[int, int] = {}
        low: dict[int, int] = {}
        on_stack: set[int] = set()
        stack: list[int] = []
        found: list[list[int]] = []
        counter = 0
        for root in roots:
            if root in index:
                continue
            work = [(root, iter(self.left[root] + self.right[root]))]
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on_stack.add(root)
            while work:
                v, children = work[-1]
                for w in children:
                    if w not in index:
                        index[w] = low[w] = counter
                        counter += 1
                        stack.append(w)
                        on_stack.add(w)
                        work.append((w, iter(self.left[w] + self.right[w])))
                        break
                    if w in on_stack:
                        low[v] = min(low[v], index[w])
                else:
                    work.pop()
                    if work:
                        parent = work[-1][0]
                        low[parent] = min(low[parent], low[v])
                    if low[v] == index[v]:
                        component = []
                        while True:
                            w = stack.pop()
                            on_stack.discard(w)
                            component.append(w)
                            if w == v:
                                break
                        found.append(component)
        return found


def disjoint_union(graphs: Sequence[GameGraph]) -> tuple[GameGraph, list[int]]:
    """One graph holding all of ``graphs``; and the offset of each one's vertices."""
    left: list[tuple[int, ...]] = []
    right: list[tuple[int, ...]] = []
    offsets = []
    for graph in graphs:
        base = len(left)
        offsets.append(base)
        left.extend(tuple(w + base for w in e) for e in graph.left)
        right.extend(tuple(w + base for w in e) for e in graph.right)
    return GameGraph(tuple(left), tuple(right)), offsets


def graph_sum(g: GameGraph, gs: int, h: GameGraph, hs: int) -> tuple[GameGraph, int]:
    """The graph of the disjunctive sum of ``g`` at ``gs`` and ``h`` at ``hs`` (only the part
    reachable from the start)."""
    index: dict[tuple[int, int], int] = {(gs, hs): 0}
    order = [(gs, hs)]
    left: list[list[int]] = []
    right: list[list[int]] = []
    i = 0
    while i < len(order):
        a, b = order[i]
        i += 1
        sides = []
        for edges_g, edges_h in ((g.left, h.left), (g.right, h.right)):
            targets = []
            for pair in [(x, b) for x in edges_g[a]] + [(a, y) for y in edges_h[b]]:
                found = index.get(pair)
                if found is None:
                    found = index[pair] = len(order)
                    order.append(pair)
                targets.append(found)
            sides.append(targets)
        left.append(sides[0])
        right.append(sides[1])
    return GameGraph.build(left, right), 0


def graph_of_short(forms: Sequence[CanonicalForm]) -> tuple[GameGraph, list[int]]:
    """The game graph of loopfree canonical forms (shared followers are one vertex)."""
    index: dict[int, int] = {}
    order: list[int] = []
    stack = [f.id for f in forms]
    while stack:
        g = stack.pop()
        if g in index:
            continue
        index[g] = len(order)
        order.append(g)
        stack.extend(_short_left(g) + _short_right(g))
    graph = GameGraph.build(
        [[index[o] for o in _short_left(g)] for g in order],
        [[index[o] for o in _short_right(g)] for g in order],
    )
    return graph, [index[f.id] for f in forms]


# ---------------------------------------------------------------------- comparison
def _le_table(graph: GameGraph) -> list[list[bool]]:
    """``table[g][h]``: ``G <= H`` for every two vertices of a graph of stoppers.

    ``G <= H`` iff Left survives ``H - G`` when Right moves first. In ``H - G`` Left moves
    ``G`` to a Right option of ``G`` or ``H`` to a Left option of ``H``; Right the other way.
    The states Right can force to one where Left has no move are found backwards: a state
    with Left to move is lost for Left when every move leads to a lost state (none at all
    included), one with Right to move when some move does. Every other state Left survives.
    """
    n = len(graph)
    left, right = graph.left, graph.right
    rev_left: list[list[int]] = [[] for _ in range(n)]
    rev_right: list[list[int]] = [[] for _ in range(n)]
    for v in range(n):
        for w in left[v]:
            rev_left[w].append(v)
        for w in right[v]:
            rev_right[w].append(v)
    # state (g, h, mover) is the integer (g * n + h) * 2 + mover; mover 0: Left, 1: Right
    lost = bytearray(2 * n * n)
    count = [0] * (2 * n * n)
    queue: deque[int] = deque()
    for g in range(n):
        for h in range(n):
            s = (g * n + h) * 2
            count[s] = len(right[g]) + len(left[h])
            if count[s] == 0:
                lost[s] = 1
                queue.append(s)
    while queue:
        s = queue.popleft()
        pair, mover = divmod(s, 2)
        g, h = divmod(pair, n)
        if mover == 1:
            # predecessors with Left to move: G came from x by a Right move of G (x in
            # rev_right[g]), or H from y by a Left move of H (y in rev_left[h])
            preds = [(x * n + h) * 2 for x in rev_right[g]] + [(g * n + y) * 2 for y in rev_left[h]]
            for p in preds:
                if not lost[p]:
                    count[p] -= 1
                    if count[p] == 0:
                        lost[p] = 1
                        queue.append(p)
        else:
            preds = [(x * n + h) * 2 + 1 for x in rev_left[g]] + [
                (g * n + y) * 2 + 1 for y in rev_right[h]
            ]
            for p in preds:
                if not lost[p]:
                    lost[p] = 1
                    queue.append(p)
    return [[not lost[(g * n + h) * 2 + 1] for h in range(n)] for g in range(n)]


# ---------------------------------------------------------------------- simplest forms
def simplify_stoppers(graph: GameGraph, roots: Sequence[int]) -> tuple[GameGraph, list[int]]:
    """Simplest forms of the stoppers at ``roots`` in one graph, canonically numbered.

    Raises :class:`LoopyValueError` when a root is not a stopper.
    """
    if graph.has_alternating_cycle(roots):
        raise LoopyValueError("not a stopper: some follower has an infinite alternating play")
    graph, roots = graph.restricted(roots)
    le = _le_table(graph)
    n = len(graph)
    left = [set(graph.left[v]) for v in range(n)]
    right = [set(graph.right[v]) for v in range(n)]
    changed = True
    rounds = 0
    while changed:
        changed = False
        rounds += 1
        if rounds > 10 * n + 10:  # bypassing on a stopper always ends (no alternating cycle)
            raise AssertionError("simplification of a stopper did not settle")
        for v in GameGraph.build(left, right).reachable(roots):
            new_left = _undominated(left[v], le, for_left=True)
            new_right = _undominated(right[v], le, for_left=False)
            # a Left option A is reversible through A^R when A^R <= v: replace A by A^R's
            # Left options (and symmetrically for Right)
            for a in sorted(new_left):
                through = next((r for r in sorted(right[a]) if le[r][v]), None)
                if through is not None:
                    new_left = (new_left - {a}) | left[through]
                    break
            else:
                for a in sorted(new_right):
                    through = next((x for x in sorted(left[a]) if le[v][x]), None)
                    if through is not None:
                        new_right = (new_right - {a}) | right[through]
                        break
            if new_left != left[v] or new_right != right[v]:
                left[v], right[v] = new_left, new_right
                changed = True
    # Fuse equal vertices, now that no option is dominated or reversible (fusing before
    # that is wrong: in {on | on} the options equal the whole, and fusing them into it
    # would give {pass | pass} = dud).
    reached = GameGraph.build(left, right).reachable(roots)
    representative = {v: v for v in reached}
    for i, v in enumerate(reached):
        for w in reached[:i]:
            if representative[w] == w and le[v][w] and le[w][v]:
                representative[v] = w
                break
    fused = GameGraph.build(
        [[representative[w] for w in left[v]] if v in representative else [] for v in range(n)],
        [[representative[w] for w in right[v]] if v in representative else [] for v in range(n)],
    )
    simplified, new_roots = fused.restricted([representative[r] for r in roots])
    if CHECK_SIMPLIFICATION:
        _check_same_values(graph, roots, simplified, new_roots)
    return canonical_numbering(simplified, new_roots)


def _check_same_values(
    graph: GameGraph, roots: Sequence[int], other: GameGraph, other_roots: Sequence[int]
) -> None:
    """Assert that simplification kept every root's value (a guard on the theory's use)."""
    if other.has_alternating_cycle(other_roots):
        raise AssertionError("simplifying a stopper gave a game that is not a stopper")
    union, (a, b) = disjoint_union([graph, other])
    le = _le_table(union)
    for r, s in zip(roots, other_roots, strict=True):
        if not (le[r + a][s + b] and le[s + b][r + a]):
            raise AssertionError("simplifying a stopper changed its value")


def _undominated(options: set[int], le: list[list[bool]], *, for_left: bool) -> set[int]:
    """Options not dominated by another (for Left: not below another; for Right: not above)."""
    kept = set(options)
    for a in sorted(options):
        for b in sorted(options):
            if a == b or b not in kept:
                continue
            below = le[a][b] if for_left else le[b][a]
            # of two equal options the first one stays
            if below and (not (le[b][a] if for_left else le[a][b]) or b < a):
                kept.discard(a)
                break
    return kept


def _signatures(graph: GameGraph) -> list[int]:
    """A label of each vertex that isomorphisms keep: colour refinement run to a fixed point
    (with sets of options, so equal labels mean bisimilar vertices, hence equal games; in a
    fused graph every vertex gets its own label)."""
    n = len(graph)
    labels = [0] * n
    classes = 1
    for _ in range(n + 1):
        new = [
            hash(
                (
                    labels[v],
                    tuple(sorted({labels[w] for w in graph.left[v]})),
                    tuple(sorted({labels[w] for w in graph.right[v]})),
                )
            )
            for v in range(n)
        ]
        new_classes = len(set(new))
        labels = new
        if new_classes == classes:
            break
        classes = new_classes
    return labels


def canonical_numbering(graph: GameGraph, roots: Sequence[int]) -> tuple[GameGraph, list[int]]:
    """The graph renumbered by a breadth-first walk from the roots taking options in the
    order of their isomorphism-invariant labels: isomorphic graphs come out identical."""
    labels = _signatures(graph)
    index: dict[int, int] = {}
    order: list[int] = []
    queue = deque(roots)
    while queue:
        v = queue.popleft()
        if v in index:
            continue
        index[v] = len(order)
        order.append(v)
        queue.extend(sorted(graph.left[v], key=labels.__getitem__))
        queue.extend(sorted(graph.right[v], key=labels.__getitem__))
    renumbered = GameGraph.build(
        [[index[w] for w in graph.left[v]] for v in order],
        [[index[w] for w in graph.right[v]] for v in order],
    )
    return renumbered, [index[r] for r in roots]


# ---------------------------------------------------------------------- stoppers
_le_cache: dict[tuple[GameGraph, GameGraph], bool] = {}


@dataclass(frozen=True)
class Stopper:
    """A stopper in simplest form: its graph, canonically numbered, starts at vertex 0.

    Equal stoppers have equal graphs (the simplest form is unique up to isomorphism and the
    numbering is canonical), so equality and hashing are those of the graph.
    """

    graph: GameGraph

    @staticmethod
    def of(graph: GameGraph, start: int) -> Stopper:
        return stoppers_of(graph, [start])[0]

    @staticmethod
    def short(form: CanonicalForm) -> Stopper:
        graph, roots = graph_of_short([form])
        return Stopper(canonical_numbering(*graph.restricted(roots))[0])

    def is_loopfree(self) -> bool:
        return not self.graph.has_cycle([0])

    def short_form(self) -> CanonicalForm | None:
        """The loopfree canonical form this stopper is, or ``None`` when it is loopy."""
        if self.is_loopfree():
            return _short_of(self.graph, 0, {})
        return None

    def __le__(self, other: Stopper) -> bool:
        key = (self.graph, other.graph)
        found = _le_cache.get(key)
        if found is None:
            union, offsets = disjoint_union([self.graph, other.graph])
            found = _le_pair(union, offsets[0], offsets[1])
            _le_cache[key] = found
        return found

    def __neg__(self) -> Stopper:
        return Stopper(canonical_numbering(self.graph.negative(), [0])[0])

    def __str__(self) -> str:
        return format_stopper(self.graph, 0)


def _le_pair(graph: GameGraph, g: int, h: int) -> bool:
    """``G <= H`` for two stoppers of one graph (only the part reachable from them counts)."""
    sub, (g2, h2) = graph.restricted([g, h])
    return _le_table(sub)[g2][h2]


def stoppers_of(graph: GameGraph, roots: Sequence[int]) -> list[Stopper]:
    """The simplest forms of the stoppers at ``roots`` of ``graph``."""
    simplified, new_roots = simplify_stoppers(graph, roots)
    stoppers = []
    for r in new_roots:
        sub, _ = canonical_numbering(*simplified.restricted([r]))
        stoppers.append(Stopper(sub))
    return stoppers


def _short_of(graph: GameGraph, v: int, memo: dict[int, CanonicalForm]) -> CanonicalForm:
    found = memo.get(v)
    if found is None:
        found = CanonicalForm(
            canonical_id(
                [_short_of(graph, w, memo).id for w in graph.left[v]],
                [_short_of(graph, w, memo).id for w in graph.right[v]],
            )
        )
        memo[v] = found
    return found


ON = Stopper(GameGraph(((0,),), ((),)))
OFF = Stopper(GameGraph(((),), ((0,),)))


# ---------------------------------------------------------------------- sides
def sides_of(graph: GameGraph, start: int, *, onside: bool) -> Stopper:
    """The onside (or offside) of the game at ``start`` of ``graph``, by sidling.

    Components of the graph are solved options first (:func:`_side_of_component`).
    """
    solved: dict[int, Stopper] = {}
    for component in graph.components([start]):
        solved.update(_side_of_component(graph, component, solved, onside=onside))
    return solved[start]


def _side_of_component(
    graph: GameGraph, component: list[int], solved: dict[int, Stopper], *, onside: bool
) -> dict[int, Stopper]:
    """Onsides (or offsides) of the vertices of one strongly connected component, given the
    sides of every option outside it in ``solved``.

    A component without an alternating cycle is simplified as a stopper, its options outside
    replaced by their sides. In a component with one, every vertex starts at ``on`` (onside)
    or ``off`` and is replaced by ``{sides of its Left options | sides of its Right
    options}`` until no vertex changes (the onsides decrease to the largest fixed point, the
    offsides increase to the smallest: sidling, Siegel VI.4). Raises
    :class:`LoopyValueError` if that takes more than :data:`SIDLING_ROUNDS` rounds.
    """
    members = set(component)
    if not _component_has_alternating_cycle(graph, component):
        results = _stoppers_with_solved_options(graph, component, solved)
        return dict(zip(component, results, strict=True))
    current = {v: (ON if onside else OFF) for v in component}
    for _ in range(SIDLING_ROUNDS):
        new = {}
        for v in component:
            options = [
                [current[w] if w in members else solved[w] for w in edges[v]]
                for edges in (graph.left, graph.right)
            ]
            new[v] = stopper_from_options(options[0], options[1])
        if new == current:
            return current
        current = new
    raise LoopyValueError(
        f"its {'onside' if onside else 'offside'} was not found by sidling within "
        f"{SIDLING_ROUNDS} rounds (a cycle through {len(component)} positions: sidling may "
        "need infinitely many rounds, or the side may not be a stopper, as for Bach's "
        "Carousel)"
    )


def _component_has_alternating_cycle(graph: GameGraph, component: list[int]) -> bool:
    index = {v: i for i, v in enumerate(component)}
    inner = GameGraph(
        tuple(tuple(index[w] for w in graph.left[v] if w in index) for v in component),
        tuple(tuple(index[w] for w in graph.right[v] if w in index) for v in component),
    )
    return inner.has_alternating_cycle(range(len(component)))


def _stoppers_with_solved_options(
    graph: GameGraph, component: list[int], solved: dict[int, Stopper]
) -> list[Stopper]:
    """Simplest forms of the vertices of ``component`` with every option outside it replaced
    by the stopper in ``solved``."""
    members = {v: i for i, v in enumerate(component)}
    outside = sorted(
        {w for v in component for e in (graph.left, graph.right) for w in e[v] if w not in members}
    )
    union, offsets = disjoint_union([solved[w].graph for w in outside])
    base = len(component)
    place = {w: base + offsets[i] for i, w in enumerate(outside)}
    left = [[members.get(w, place.get(w, -1)) for w in graph.left[v]] for v in component]
    right = [[members.get(w, place.get(w, -1)) for w in graph.right[v]] for v in component]
    left += [[x + base for x in e] for e in union.left]
    right += [[x + base for x in e] for e in union.right]
    return stoppers_of(GameGraph.build(left, right), list(range(base)))


def value_of_graph(graph: GameGraph, start: int) -> LoopyValue | CanonicalForm:
    """The value of the game at ``start``: a :class:`CanonicalForm` when no cycle is
    reachable from it, else a :class:`LoopyValue`.

    Components are solved options first; a vertex outside every cycle whose options all
    have loopfree values gets its canonical form directly (the loopfree engine,
    :func:`cgt.algebra.game.canonical_id`), so only the loopy part pays for stoppers.
    """
    short: dict[int, int] = {}
    onsides: dict[int, Stopper] = {}
    offsides: dict[int, Stopper] = {}
    for component in graph.components([start]):
        v = component[0]
        edges = graph.left[v] + graph.right[v]
        if len(component) == 1 and v not in edges and all(w in short for w in edges):
            short[v] = canonical_id(
                [short[w] for w in graph.left[v]], [short[w] for w in graph.right[v]]
            )
            continue
        for u in component:
            for w in graph.left[u] + graph.right[u]:
                if w in short and w not in onsides:
                    onsides[w] = offsides[w] = Stopper.short(CanonicalForm(short[w]))
        onsides.update(_side_of_component(graph, component, onsides, onside=True))
        offsides.update(_side_of_component(graph, component, offsides, onside=False))
    if start in short:
        return CanonicalForm(short[start])
    return LoopyValue(onsides[start], offsides[start], _form(graph, start))


def _form(graph: GameGraph, start: int) -> tuple[GameGraph, int]:
    sub, (new_start,) = graph.restricted([start])
    return sub, new_start


def stopper_from_options(left: Sequence[Stopper], right: Sequence[Stopper]) -> Stopper:
    """The simplest form of ``{left | right}`` for stoppers as options."""
    union, offsets = disjoint_union([s.graph for s in left] + [s.graph for s in right])
    k = len(left)
    edges_left = [tuple(o + 1 for o in offsets[:k])] + [tuple(x + 1 for x in e) for e in union.left]
    edges_right = [tuple(o + 1 for o in offsets[k:])] + [
        tuple(x + 1 for x in e) for e in union.right
    ]
    return Stopper.of(GameGraph.build(edges_left, edges_right), 0)


# ---------------------------------------------------------------------- values
#: CGSuite's loopy outcome classes by (winner when Left starts, winner when Right starts).
OUTCOME_CLASSES = {
    ("L", "L"): "L",
    ("R", "R"): "R",
    ("L", "R"): "N",
    ("R", "L"): "P",
    ("D", "D"): "D",
    ("L", "D"): "NHat",
    ("D", "L"): "PHat",
    ("D", "R"): "NCheck",
    ("R", "D"): "PCheck",
}

Coercible = Union["LoopyValue", CanonicalForm, int, Fraction]


class LoopyValue:
    """The value of a loopy game: its onside and offside (one stopper when they are equal).

    ``form`` keeps a game graph of the value when one is known (every value built from a
    game or a definition, and sums of those); values given only by their sides (``S & T``)
    have none and cannot be used as an option of a new game.
    """

    __slots__ = ("form", "offside", "onside")

    #: Marks a game for :mod:`cgt.algebra.expression` (which treats it like a short game).
    is_game_value = True

    def __init__(
        self, onside: Stopper, offside: Stopper, form: tuple[GameGraph, int] | None = None
    ) -> None:
        self.onside = onside
        self.offside = offside
        if form is None and onside == offside:
            form = (onside.graph, 0)
        self.form = form

    # --------------------------------------------------------------- construction
    @staticmethod
    def of_graph(graph: GameGraph, start: int) -> LoopyValue:
        """Value of the game at ``start`` of ``graph``: its simplest form when it is a stopper,
        else its sides (:func:`sides_of`)."""
        graph, (start,) = graph.restricted([start])
        if not graph.has_alternating_cycle([start]):
            stopper = Stopper.of(graph, start)
            return LoopyValue(stopper, stopper)
        onside = sides_of(graph, start, onside=True)
        offside = sides_of(graph, start, onside=False)
        return LoopyValue(onside, offside, (graph, start))

    @staticmethod
    def short(form: CanonicalForm) -> LoopyValue:
        stopper = Stopper.short(form)
        return LoopyValue(stopper, stopper)

    @staticmethod
    def sided(onside: Coercible, offside: Coercible) -> LoopyValue:
        """``S & T``: the value with onside ``S`` and offside ``T`` (``S >= T`` required)."""
        on_value, off_value = coerce(onside), coerce(offside)
        if not (on_value.is_stopper() and off_value.is_stopper()):
            raise LoopyValueError("both sides of S & T must be stoppers")
        if not off_value.onside <= on_value.onside:
            raise LoopyValueError("the onside of S & T must be at least its offside")
        return LoopyValue(on_value.onside, off_value.onside)

    @staticmethod
    def from_options(left: Sequence[Coercible], right: Sequence[Coercible]) -> LoopyValue:
        """``{left | right}`` for values with a game form."""
        forms = [coerce(x).game_form() for x in list(left) + list(right)]
        union, offsets = disjoint_union([g for g, _ in forms])
        starts = [o + s for o, (_, s) in zip(offsets, forms, strict=True)]
        k = len(left)
        edges_left = [tuple(x + 1 for x in starts[:k])] + [
            tuple(x + 1 for x in e) for e in union.left
        ]
        edges_right = [tuple(x + 1 for x in starts[k:])] + [
            tuple(x + 1 for x in e) for e in union.right
        ]
        return LoopyValue.of_graph(GameGraph.build(edges_left, edges_right), 0)

    def game_form(self) -> tuple[GameGraph, int]:
        if self.form is None:
            raise LoopyValueError(f"{self} is given by its sides only and has no game form")
        return self.form

    # --------------------------------------------------------------- questions
    def is_stopper(self) -> bool:
        return self.onside == self.offside

    def is_loopfree(self) -> bool:
        return self.is_stopper() and self.onside.is_loopfree()

    def short_form(self) -> CanonicalForm | None:
        """The loopfree canonical form of this value, or ``None`` when it is loopy."""
        return self.onside.short_form() if self.is_stopper() else None

    def outcome(self) -> str:
        """CGSuite's outcome class from who wins when Left and when Right moves first
        (:meth:`outcomes`): ``L``, ``R``, ``N``, ``P``, ``D`` (a draw whoever starts), and
        ``NHat`` (Left first wins, Right first draws), ``PHat`` (draw, Left wins), ``NCheck``
        (draw, Right wins), ``PCheck`` (Right wins, draw)."""
        first = self.outcomes()
        return OUTCOME_CLASSES[(first["left"], first["right"])]

    def outcomes(self) -> dict[str, str]:
        """Who wins with perfect play when Left (``left``) or Right (``right``) moves first:
        ``L`` (Left wins), ``R`` (Right wins) or ``D`` (play goes on forever).

        Left moving first wins outright iff Left wins the offside (infinite play lost) iff
        not ``offside <= 0``; Left at least draws iff not ``onside <= 0``. Symmetrically for
        Right with ``onside >= 0`` and ``offside >= 0``.
        """
        zero = ZERO_STOPPER
        if not self.offside <= zero:
            left_first = "L"
        elif not self.onside <= zero:
            left_first = "D"
        else:
            left_first = "R"
        if not zero <= self.onside:
            right_first = "R"
        elif not zero <= self.offside:
            right_first = "D"
        else:
            right_first = "L"
        return {"left": left_first, "right": right_first}

    # --------------------------------------------------------------- algebra
    def __neg__(self) -> LoopyValue:
        form = None if self.form is None else (self.form[0].negative(), self.form[1])
        return LoopyValue(-self.offside, -self.onside, form)

    def __add__(self, other: Coercible) -> LoopyValue:
        other_value = coerce(other)
        if self.is_stopper() and other_value.is_stopper():
            graph, start = graph_sum(self.onside.graph, 0, other_value.onside.graph, 0)
            return LoopyValue.of_graph(graph, start)
        # (S1 & T1) + (S2 & T2) = onside(S1 + S2) & offside(T1 + T2)
        on_graph, on_start = graph_sum(self.onside.graph, 0, other_value.onside.graph, 0)
        off_graph, off_start = graph_sum(self.offside.graph, 0, other_value.offside.graph, 0)
        form = None
        if self.form is not None and other_value.form is not None:
            form = graph_sum(self.form[0], self.form[1], other_value.form[0], other_value.form[1])
        return LoopyValue(
            sides_of(on_graph, on_start, onside=True),
            sides_of(off_graph, off_start, onside=False),
            form,
        )

    __radd__ = __add__

    def __mul__(self, count: int) -> LoopyValue:
        """``G + G + ... + G`` (``count`` copies; negative counts copy ``-G``)."""
        if not isinstance(count, int) or isinstance(count, bool):
            return NotImplemented
        base = self if count >= 0 else -self
        total = coerce(0)
        for _ in range(abs(count)):
            total = total + base
        return total

    __rmul__ = __mul__

    def __sub__(self, other: Coercible) -> LoopyValue:
        return self + (-coerce(other))

    def __rsub__(self, other: Coercible) -> LoopyValue:
        return coerce(other) - self

    # --------------------------------------------------------------- order
    def __le__(self, other: Coercible) -> bool:
        o = coerce(other)
        return self.onside <= o.onside and self.offside <= o.offside

    def __ge__(self, other: Coercible) -> bool:
        return coerce(other) <= self

    def __lt__(self, other: Coercible) -> bool:
        return self <= other and not coerce(other) <= self

    def __gt__(self, other: Coercible) -> bool:
        return coerce(other) < self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LoopyValue | CanonicalForm | int | Fraction):
            return NotImplemented
        o = coerce(other)
        return self.onside == o.onside and self.offside == o.offside

    def __hash__(self) -> int:
        return hash((self.onside, self.offside))

    def confused_with(self, other: Coercible) -> bool:
        o = coerce(other)
        return not self <= o and not o <= self

    # --------------------------------------------------------------- printing
    def __str__(self) -> str:
        if self.is_stopper():
            return str(self.onside)
        if self.onside == ON and self.offside == OFF:
            return "dud"
        return f"{self.onside} & {self.offside}"

    def __repr__(self) -> str:
        return f"LoopyValue({str(self)!r})"

    def _repr_latex_(self) -> str:
        return "$" + str(self).replace("&", r"\,\&\,") + "$"


def coerce(value: Coercible) -> LoopyValue:
    """A loopy value from a loopy value, a loopfree game, an ``int`` or a dyadic Fraction."""
    if isinstance(value, LoopyValue):
        return value
    if isinstance(value, CanonicalForm):
        return LoopyValue.short(value)
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise TypeError(f"cannot use {value!r} as a game")
    return LoopyValue.short(CanonicalForm.number(value))


ZERO_STOPPER = Stopper.short(CanonicalForm.number(0))
ON_VALUE = LoopyValue(ON, ON)
OFF_VALUE = LoopyValue(OFF, OFF)
#: ``over = {0 | pass}`` and ``under = {pass | 0}``.
OVER = LoopyValue.of_graph(GameGraph(((1,), ()), ((0,), ())), 0)
UNDER = -OVER
#: ``upon = {pass | *}``.
UPON = LoopyValue.of_graph(GameGraph(((0,), (2,), ()), ((1,), (2,), ())), 0)
#: ``dud = {pass | pass}`` = ``on & off``.
DUD = LoopyValue.of_graph(GameGraph(((0,),), ((0,),)), 0)

NAMED: dict[str, LoopyValue] = {
    "on": ON_VALUE,
    "off": OFF_VALUE,
    "over": OVER,
    "under": UNDER,
    "upon": UPON,
    "dud": DUD,
}


# ---------------------------------------------------------------------- printing
def format_stopper(graph: GameGraph, start: int) -> str:
    """CGSuite text of the stopper at ``start`` of a canonically numbered simplest form."""
    return _Printer(graph).text(start)


class _Printer:
    def __init__(self, graph: GameGraph) -> None:
        self.graph = graph
        self.loopfree: dict[int, CanonicalForm | None] = {}
        self.named = 0  # labels handed out so far (CGSuite never reuses one)

    def short(self, v: int) -> CanonicalForm | None:
        if v not in self.loopfree:
            g = self.graph
            if g.has_cycle([v]):
                self.loopfree[v] = None
            else:
                self.loopfree[v] = _short_of(g, v, {})
        return self.loopfree[v]

    def text(self, start: int) -> str:
        return self._format(start, {}, braces=True, parens=False)[0]

    def _named(self, v: int) -> str | None:
        """Names of the plumtrees CGSuite names: on, off, xover, xunder, x^[on], xv[on]."""
        g = self.graph
        left, right = g.left[v], g.right[v]
        if left == (v,) and right == ():
            return "on"
        if left == () and right == (v,):
            return "off"
        if len(left) == 1 and len(right) == 1:
            for loop, other, words in (
                (right, left, ("over", "v[on]")),
                (left, right, ("under", "^[on]")),
            ):
                if loop != (v,):
                    continue
                form = self.short(other[0])
                if form is None:
                    continue
                tag = form.uptimal_value()
                if tag is not None and tag[1] == 0 and tag[2] in (0, 1):
                    x = tag[0]
                    number = "" if x == 0 else _format_short(CanonicalForm.number(x))
                    return number + words[tag[2]]
        return None

    def _format(
        self, v: int, path: dict[int, str | None], *, braces: bool, parens: bool
    ) -> tuple[str, int]:
        """Text of vertex ``v`` and its bar count (0 when it stands alone), as CGSuite's
        printer: ``path`` holds the vertices being printed around ``v``; an edge back to one
        of them gets a label (``a``, ``b``, ... in the order they are needed), an edge to
        ``v`` itself is ``pass``; braces come back when a side is empty, when the form is
        labelled, or when it would need :data:`~cgt.algebra.notation.MAX_BARS` bars."""
        if v in path:
            name = path[v]
            if name is None:
                name = path[v] = _label(self.named)
                self.named += 1
            return name, 0
        form = self.short(v)
        if form is not None:
            return _format(form.id, braces, parens)
        name = self._named(v)
        if name is not None:
            plain = name in ("on", "off", "over", "under", "^[on]", "v[on]")
            return (f"({name})" if parens and not plain else name), 0
        g = self.graph
        path[v] = None
        try:
            special = self._switch(v, path) or self._tiny(v)
            if special is not None:
                return (f"({special})" if parens and "Tiny" in special else special), 0
            sides = []
            bars = 0
            for edges in (g.left[v], g.right[v]):
                parts = []
                for w in self._ordered(edges):
                    if w == v:
                        parts.append("pass")
                        continue
                    text, depth = self._format(w, path, braces=len(edges) > 1, parens=False)
                    bars = max(bars, depth)
                    parts.append(text)
                sides.append(",".join(parts))
            bars += 1
            label = path[v] or ""
        finally:
            del path[v]
        text = sides[0] + "|" * bars + sides[1]
        if braces or label or not g.left[v] or not g.right[v] or bars >= MAX_BARS:
            return label + "{" + text + "}", 0
        return text, bars

    def _switch(self, v: int, path: dict[int, str | None]) -> str | None:
        """``+-A`` or ``+-{A,B}`` for a stopper equal to its own negative."""
        g = self.graph
        if not g.left[v] or len(g.left[v]) != len(g.right[v]) or v in g.left[v]:
            return None
        if any(v in g.reachable([w]) for w in g.left[v] + g.right[v]):
            return None
        if self._sub(v) != -self._sub(v):
            return None
        lefts = self._ordered(g.left[v])
        if len(lefts) == 1:
            return "+-" + self._format(lefts[0], path, braces=True, parens=True)[0]
        texts = [self._format(w, path, braces=True, parens=False)[0] for w in lefts]
        return "+-{" + ",".join(texts) + "}"

    def _tiny(self, v: int) -> str | None:
        """``xTiny(y)``: ``{x || x | x - y}`` with ``x`` a number and ``-y <= under``, and
        ``xMiny(y) = {x + y | x || x}``, in plumtrees (CGSuite's rule)."""
        g = self.graph
        for mine, theirs, word in ((g.left, g.right, "Tiny"), (g.right, g.left, "Miny")):
            if len(mine[v]) != 1 or len(theirs[v]) != 1:
                continue
            number, switch = mine[v][0], theirs[v][0]
            x = self.short(number)
            if x is None or not x.is_number():
                continue
            if mine[switch] != (number,) or len(theirs[switch]) != 1:
                continue
            if not self._plumtree(v):
                continue
            far_stopper = self._sub(theirs[switch][0])
            far = LoopyValue(far_stopper, far_stopper)
            subscript = (coerce(x) - far) if word == "Tiny" else (far - x)
            if not (-subscript <= UNDER):
                continue
            prefix = "" if x == 0 else _format_short(x)
            return f"{prefix}{word}({subscript})"
        return None

    def _plumtree(self, v: int) -> bool:
        """No cycle longer than a pass among the followers of ``v``."""
        return all(len(c) == 1 for c in self.graph.components([v]))

    def _sub(self, v: int) -> Stopper:
        return Stopper(canonical_numbering(*self.graph.restricted([v]))[0])

    def _ordered(self, edges: tuple[int, ...]) -> list[int]:
        """Options in print order: loopfree ones first in CGSuite's order, then the loopy
        ones in the canonical numbering's order."""

        def key(w: int) -> tuple[int, tuple[object, ...], int]:
            form = self.short(w)
            if form is not None:
                return (0, order_key(form.id), 0)
            return (1, (), w)

        return sorted(edges, key=key)


def _label(n: int) -> str:
    """The ``n``-th label: a, b, ..., z, aa, bb, ..."""
    return "abcdefghijklmnopqrstuvwxyz"[n % 26] * (1 + n // 26)


def _format_short(form: CanonicalForm) -> str:
    return format_game(form)


# ---------------------------------------------------------------------- reading
class DefinitionNode:
    """A vertex of a definition being read (``{0|pass}``, ``a{0|{|a}}``): each option is
    another such vertex (``pass``, a label, braces that refer back) or a closed value."""

    __slots__ = ("left", "right")

    def __init__(self) -> None:
        self.left: list[DefinitionNode | LoopyValue] = []
        self.right: list[DefinitionNode | LoopyValue] = []


def refers_outside(node: DefinitionNode, outer: Iterable[DefinitionNode]) -> bool:
    """Whether the definition at ``node`` has an edge to braces around it."""
    outer_ids = {id(n) for n in outer}
    seen: set[int] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        for o in n.left + n.right:
            if isinstance(o, DefinitionNode):
                if id(o) in outer_ids:
                    return True
                stack.append(o)
    return False


def definition_value(root: DefinitionNode) -> LoopyValue:
    """The value of a definition whose edges all stay inside it."""
    index: dict[int, int] = {}
    nodes: list[DefinitionNode] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if id(n) in index:
            continue
        index[id(n)] = len(nodes)
        nodes.append(n)
        stack.extend(o for o in n.left + n.right if isinstance(o, DefinitionNode))
    values = [o for n in nodes for o in n.left + n.right if isinstance(o, LoopyValue)]
    forms = [v.game_form() for v in values]
    union, offsets = disjoint_union([g for g, _ in forms])
    base = len(nodes)
    value_vertex = {
        id(v): base + o + s for v, o, (_, s) in zip(values, offsets, forms, strict=True)
    }

    def target(o: DefinitionNode | LoopyValue) -> int:
        return index[id(o)] if isinstance(o, DefinitionNode) else value_vertex[id(o)]

    left = [[target(o) for o in n.left] for n in nodes]
    right = [[target(o) for o in n.right] for n in nodes]
    left += [[x + base for x in e] for e in union.left]
    right += [[x + base for x in e] for e in union.right]
    return LoopyValue.of_graph(GameGraph.build(left, right), 0)
