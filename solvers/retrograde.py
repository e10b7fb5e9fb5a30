"""Retrograde analysis: solve every position reachable from a root, cycles included.

Two phases, as in the GamesCrafters solvers:

1. *Forward enumeration*: a breadth-first walk from the root calls only the game protocol
   (``result``, ``moves``, ``play``, ``to_move`` and ``key``/``canonical_key``). Each distinct
   key gets an integer id; the children of every position are kept as one flat integer array
   with offsets (CSR), so a graph of millions of positions costs a few bytes per edge besides
   the key dictionary.
2. *Backward propagation* with child counters, one remoteness level at a time. Terminal
   positions are level 0. A position becomes a WIN at level r+1 as soon as a child resolved at
   level r is bad for the opponent (the first such level is the smallest, so the winner's
   remoteness is the fastest win); it becomes a LOSS at level r+1 when its last child is
   resolved at level r, all of them good for the opponent (the last level is the largest, so
   the loser's remoteness is the slowest loss). Whatever is never resolved (play that can go
   round a cycle forever with neither side able to force an end) is a DRAW, like terminal
   draws; draws have no remoteness.

Players need not alternate: when ``to_move(child) == to_move(parent)`` the child's value
counts for the parent as it is (a child WIN is a parent WIN), otherwise it is negated.
The propagation is vectorised with numpy level by level, so it costs far less than the
enumeration, which is bounded by the speed of the game's own Python methods.
"""

from __future__ import annotations

import time
from array import array
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from typing import Any

import numpy as np

from cgt.errors import PositionError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.budget import Deadline
from solvers.result import MoveValue, SolveResult

#: Seconds between two calls of the progress callback.
PROGRESS_INTERVAL = 0.5
#: Marker in the per-position terminal array for "not a terminal position".
_NOT_TERMINAL = 2
#: Remoteness stored for draws (``None`` outside).
_NO_REMOTENESS = -1


class PositionLimitExceeded(Exception):
    """The reachable graph has more positions than ``max_positions`` allowed.

    Not a user error: :func:`solvers.api.solve` catches it to fall back to alpha-beta.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(f"more than {limit} reachable positions")
        self.limit = limit


class RetrogradeSolution:
    """Every position reachable from a root, with its outcome and remoteness.

    Positions are looked up by their key (canonical when solved with ``symmetry``), so the
    solution answers for any position of the graph or any symmetric image of one. The raw
    graph is public for other tools: ``child_ptr``/``child_ids`` (CSR: the children of id ``i``
    are ``child_ids[child_ptr[i]:child_ptr[i + 1]]``, without duplicates), ``same_player``
    (per edge: the child has the same player to move), ``to_move``, ``outcomes``
    (int8, ``Outcome`` values for the player to move), ``remoteness_array`` (int32, -1 for
    draws) and ``terminal`` (bool).
    """

    def __init__(
        self,
        game: Game[Any, Any],
        root: Any,
        symmetry: bool,
        ids: dict[Hashable, int],
        to_move: np.ndarray,
        terminal_codes: np.ndarray,
        child_ptr: np.ndarray,
        child_ids: np.ndarray,
        same_player: np.ndarray,
        outcomes: np.ndarray,
        remoteness_array: np.ndarray,
        seconds: float,
        positions_by_id: list[Any] | None,
    ) -> None:
        self.game = game
        self.root = root
        self.symmetry = symmetry
        self._ids = ids
        self._keys_by_id: list[Hashable] | None = None
        self.to_move = to_move
        self.terminal = terminal_codes != _NOT_TERMINAL
        self.child_ptr = child_ptr
        self.child_ids = child_ids
        self.same_player = same_player
        self.outcomes = outcomes
        self.remoteness_array = remoteness_array
        self.seconds = seconds
        self._positions_by_id = positions_by_id
        self._key = game.canonical_key if symmetry else game.key

    # ------------------------------------------------------------------ lookups
    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, position: Any) -> bool:
        return self._key(position) in self._ids

    def id_of(self, position: Any) -> int:
        """Integer id of ``position``; :class:`PositionError` if the root cannot reach it."""
        node = self._ids.get(self._key(position))
        if node is None:
            raise PositionError(
                f"{self.game.name}: position {self.game.render(position)!r} is not reachable "
                "from the solved root"
            )
        return node

    def key_of(self, node: int) -> Hashable:
        """Key of the position with id ``node``."""
        if self._keys_by_id is None:
            self._keys_by_id = list(self._ids)  # dicts keep insertion order: index == id
        return self._keys_by_id[node]

    def position_of(self, node: int) -> Any:
        """A position with id ``node`` (only when solved with ``keep_positions=True``)."""
        if self._positions_by_id is None:
            raise ValueError("positions were not kept: solve with keep_positions=True")
        return self._positions_by_id[node]

    def outcome(self, position: Any) -> Outcome:
        """Outcome of ``position`` for its player to move."""
        return Outcome(int(self.outcomes[self.id_of(position)]))

    def remoteness(self, position: Any) -> int | None:
        """Plies to the end under perfect play (winner fastest, loser slowest); None: draw."""
        value = int(self.remoteness_array[self.id_of(position)])
        return None if value == _NO_REMOTENESS else value

    def _value(self, node: int) -> tuple[Outcome, int | None]:
        value = int(self.remoteness_array[node])
        return Outcome(int(self.outcomes[node])), None if value == _NO_REMOTENESS else value

    def move_values(self, position: Any) -> list[MoveValue]:
        """Every legal move of a non-terminal ``position`` with its value seen by the mover."""
        node = self.id_of(position)
        if self.terminal[node]:
            return []
        mover = self.game.to_move(position)
        values = []
        for move in self.game.moves(position):
            child = self.game.play(position, move)
            outcome, remoteness = self._value(self.id_of(child))
            if self.game.to_move(child) != mover:
                outcome = -outcome
            values.append(
                MoveValue(
                    move=move,
                    name=self.game.move_name(position, move),
                    outcome=outcome,
                    remoteness=None if remoteness is None else remoteness + 1,
                )
            )
        return values

    def result(self, position: Any = None) -> SolveResult:
        """Full solution of ``position`` (default: the root) in the shared result format."""
        if position is None:
            position = self.root
        outcome = self.outcome(position)
        remoteness = self.remoteness(position)
        values = self.move_values(position)
        best = best_move_values(values, outcome, remoteness)
        return SolveResult(
            game=self.game.name,
            params=dict(self.game.parameters),
            position=self.game.render(position),
            solver="retrograde",
            outcome=outcome,
            remoteness=remoteness,
            moves=values,
            best_moves=[m.name for m in best],
            principal_variation=self.principal_variation(position),
            positions=len(self),
            seconds=self.seconds,
            extra={"terminal_positions": int(self.terminal.sum()), "symmetry": self.symmetry},
        )

    def principal_variation(self, position: Any, max_length: int = 200) -> list[str]:
        """Move names of one perfect line from ``position``: the first best move each time.

        A won or lost line ends at a terminal position after ``remoteness`` plies; a drawn
        line stops when a position repeats or after ``max_length`` plies.
        """
        return follow_best_moves(
            self.game,
            position,
            self.id_of,
            lambda p: self._value(self.id_of(p)),
            self.move_values,
            max_length,
        )

    # ------------------------------------------------------------------ reports
    def __iter__(self) -> Iterator[tuple[Hashable, Outcome, int | None]]:
        """``(key, outcome, remoteness)`` for every position, in id order."""
        for node, key in enumerate(self._ids):
            outcome, remoteness = self._value(node)
            yield key, outcome, remoteness

    def summary(self) -> dict[str, Any]:
        """Counts for reports: positions, terminal positions, and outcome x remoteness."""
        by_value: dict[str, dict[int | None, int]] = {}
        for code in (Outcome.WIN, Outcome.LOSS, Outcome.DRAW):
            mask = self.outcomes == int(code)
            rem = self.remoteness_array[mask]
            counts: dict[int | None, int] = {}
            if code == Outcome.DRAW:
                if mask.any():
                    counts[None] = int(mask.sum())
            else:
                values, freq = np.unique(rem, return_counts=True)
                counts = {int(v): int(f) for v, f in zip(values, freq)}
            by_value[code.label] = counts
        return {
            "positions": len(self),
            "terminal": int(self.terminal.sum()),
            "edges": int(self.child_ids.size),
            "by_outcome": {label: sum(c.values()) for label, c in by_value.items()},
            "by_outcome_remoteness": by_value,
            "seconds": round(self.seconds, 4),
        }

    def to_networkx(self, max_nodes: int = 200_000) -> Any:
        """The state graph as a networkx DiGraph on keys, with node attributes ``outcome``,
        ``remoteness``, ``to_move``, ``terminal`` and edge attribute ``same_player``."""
        import networkx as nx

        if len(self) > max_nodes:
            raise ValueError(f"{len(self)} positions is more than max_nodes={max_nodes}")
        graph = nx.DiGraph()
        for node, key in enumerate(self._ids):
            outcome, remoteness = self._value(node)
            graph.add_node(
                key,
                outcome=outcome,
                remoteness=remoteness,
                to_move=int(self.to_move[node]),
                terminal=bool(self.terminal[node]),
            )
        for node in range(len(self)):
            parent = self.key_of(node)
            for edge in range(int(self.child_ptr[node]), int(self.child_ptr[node + 1])):
                graph.add_edge(
                    parent,
                    self.key_of(int(self.child_ids[edge])),
                    same_player=bool(self.same_player[edge]),
                )
        return graph


def best_move_values(
    values: list[MoveValue], outcome: Outcome, remoteness: int | None
) -> list[MoveValue]:
    """The moves that keep the position's value: the winner's fastest wins, the loser's
    slowest losses, the drawing moves of a draw. With unknown remoteness, every move of the
    right outcome."""
    keep = [m for m in values if m.outcome == outcome]
    if remoteness is None or outcome == Outcome.DRAW:
        return keep
    return [m for m in keep if m.remoteness == remoteness]


def follow_best_moves(
    game: Game[Any, Any],
    position: Any,
    key: Callable[[Any], Hashable],
    value: Callable[[Any], tuple[Outcome, int | None]],
    move_values: Callable[[Any], list[MoveValue]],
    max_length: int = 200,
) -> list[str]:
    """Move names of one perfect line from ``position`` in any solved table: the first best
    move each time (``value`` and ``move_values`` read the table), until the game ends, a
    position repeats (``key`` identifies positions; a drawn line) or ``max_length`` plies."""
    line: list[str] = []
    seen: set[Hashable] = set()
    while len(line) < max_length:
        identity = key(position)
        if identity in seen:
            break
        seen.add(identity)
        outcome, remoteness = value(position)
        best = best_move_values(move_values(position), outcome, remoteness)
        if not best:
            break
        line.append(best[0].name)
        position = game.play(position, best[0].move)
    return line


def retrograde(
    game: Game[Any, Any],
    root: Any = None,
    *,
    symmetry: bool = True,
    progress: Progress | None = None,
    max_positions: int | None = None,
    keep_positions: bool = False,
    max_seconds: float | None = None,
) -> RetrogradeSolution:
    """Solve every position reachable from ``root`` (default: the initial position).

    ``symmetry`` merges positions with equal :meth:`Game.canonical_key`. ``progress`` is called
    about every 0.5 s with a dict (``phase``, counts). :class:`PositionLimitExceeded` is raised
    as soon as more than ``max_positions`` positions are found. ``keep_positions`` keeps one
    position per id for :meth:`RetrogradeSolution.position_of` (costs memory).
    ``max_seconds`` bounds both phases: :class:`~solvers.budget.SearchBudgetExceeded` once
    it runs out.
    """
    deadline = Deadline(max_seconds)
    started = deadline.started
    if root is None:
        root = game.initial_position()
    key_of = game.canonical_key if symmetry else game.key
    reporter = _Reporter(progress, started)

    # ---------------------------------------------------------- forward enumeration
    ids: dict[Hashable, int] = {key_of(root): 0}
    queue: deque[Any] = deque([root])  # positions in id order: the next popped has id len(to_move)
    to_move = array("b")
    terminal_codes = array("b")
    child_ptr = array("q", [0])
    child_ids = array("i")
    positions_by_id: list[Any] | None = [] if keep_positions else None
    while queue:
        position = queue.popleft()
        if positions_by_id is not None:
            positions_by_id.append(position)
        to_move.append(game.to_move(position))
        outcome = game.result(position)
        if outcome is None:
            children_seen: set[int] = set()
            for move in game.moves(position):
                child = game.play(position, move)
                child_key = key_of(child)
                child_id = ids.get(child_key)
                if child_id is None:
                    child_id = len(ids)
                    if max_positions is not None and child_id >= max_positions:
                        raise PositionLimitExceeded(max_positions)
                    ids[child_key] = child_id
                    queue.append(child)
                if child_id not in children_seen:
                    children_seen.add(child_id)
                    child_ids.append(child_id)
                    if not len(child_ids) & 63:  # one position of a big board has thousands
                        deadline.check(len(ids), "positions enumerated")
            if not children_seen:
                raise ValueError(
                    f"{game.name}: position {game.render(position)!r} has no legal move but "
                    "result() says the game is not over"
                )
            terminal_codes.append(_NOT_TERMINAL)
        else:
            terminal_codes.append(int(outcome))
        child_ptr.append(len(child_ids))
        deadline.check(len(ids), "positions enumerated")
        if reporter.due(len(to_move)):
            reporter.report({"phase": "enumerate", "expanded": len(to_move), "positions": len(ids)})

    count = len(ids)
    moving = np.frombuffer(to_move, dtype=np.int8).copy()
    codes = np.frombuffer(terminal_codes, dtype=np.int8).copy()
    ptr = np.frombuffer(child_ptr, dtype=np.int64).copy()
    children = np.frombuffer(child_ids, dtype=np.int32).copy()
    degree = np.diff(ptr)
    parent_of_edge = np.repeat(np.arange(count, dtype=np.int32), degree)
    same_player = moving[children] == moving[parent_of_edge]

    outcomes, remoteness = _propagate(
        codes, ptr, children, parent_of_edge, same_player, reporter, deadline
    )
    return RetrogradeSolution(
        game=game,
        root=root,
        symmetry=symmetry,
        ids=ids,
        to_move=moving,
        terminal_codes=codes,
        child_ptr=ptr,
        child_ids=children,
        same_player=same_player,
        outcomes=outcomes,
        remoteness_array=remoteness,
        seconds=time.perf_counter() - started,
        positions_by_id=positions_by_id,
    )


def _propagate(
    codes: np.ndarray,
    ptr: np.ndarray,
    children: np.ndarray,
    parent_of_edge: np.ndarray,
    same_player: np.ndarray,
    reporter: _Reporter,
    deadline: Deadline,
) -> tuple[np.ndarray, np.ndarray]:
    """Backward induction with child counters, one remoteness level per round."""
    count = codes.size
    is_terminal = codes != _NOT_TERMINAL
    outcomes = np.where(is_terminal, codes, 0).astype(np.int8)
    remoteness = np.full(count, _NO_REMOTENESS, dtype=np.int32)
    resolved = is_terminal.copy()  # terminal draws are final too
    decided = is_terminal & (codes != int(Outcome.DRAW))
    remoteness[decided] = 0
    # children not yet known to be good for the opponent
    counters = np.diff(ptr).astype(np.int64)

    # reverse graph (CSR by child): the edges into each position
    order = np.argsort(children, kind="stable")
    in_parent = parent_of_edge[order]
    in_same = same_player[order]
    in_ptr = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(np.bincount(children, minlength=count), out=in_ptr[1:])

    frontier = np.flatnonzero(decided)
    level = 0
    while frontier.size:
        starts = in_ptr[frontier]
        sizes = in_ptr[frontier + 1] - starts
        total = int(sizes.sum())
        if total == 0:
            break
        offsets = np.repeat(starts - (np.cumsum(sizes) - sizes), sizes)
        edges = offsets + np.arange(total)
        parents = in_parent[edges]
        child_outcome = np.repeat(outcomes[frontier], sizes)
        # value of the child for the parent's player to move
        value = np.where(in_same[edges], child_outcome, -child_outcome)
        open_parent = ~resolved[parents]
        new_wins = np.unique(parents[open_parent & (value == int(Outcome.WIN))])
        losing_edges = parents[open_parent & (value == int(Outcome.LOSS))]
        touched, hits = np.unique(losing_edges, return_counts=True)
        counters[touched] -= hits
        # a parent with a winning child never reaches zero: the two sets are disjoint
        new_losses = touched[counters[touched] == 0]
        level += 1
        outcomes[new_wins] = int(Outcome.WIN)
        outcomes[new_losses] = int(Outcome.LOSS)
        remoteness[new_wins] = level
        remoteness[new_losses] = level
        resolved[new_wins] = True
        resolved[new_losses] = True
        frontier = np.concatenate((new_wins, new_losses))
        deadline.check(int(resolved.sum()), "positions resolved")
        if reporter.due():
            reporter.report(
                {
                    "phase": "propagate",
                    "level": level,
                    "resolved": int(resolved.sum()),
                    "positions": count,
                }
            )
    return outcomes, remoteness


class _Reporter:
    """Calls the progress callback at most every :data:`PROGRESS_INTERVAL` seconds."""

    def __init__(self, callback: Progress | None, started: float) -> None:
        self.callback = callback
        self.started = started
        self.last = time.perf_counter()

    def due(self, counter: int = 0) -> bool:
        if self.callback is None or counter & 255:
            return False
        return time.perf_counter() - self.last >= PROGRESS_INTERVAL

    def report(self, info: dict[str, Any]) -> None:
        assert self.callback is not None
        self.last = time.perf_counter()
        info["seconds"] = round(self.last - self.started, 3)
        self.callback(info)
