"""The ranked retrograde's Python side: a game's ranked space (:class:`RankedSpace`: its
plug-in's rules and a ranking of its positions) and :class:`SweepEngine`, the records and the
compiled pass of :mod:`solvers.engine_sweep` run in node-budget slices with progress and a
deadline. Every record written is final, so a stopped solve (deadline, Ctrl-C between two
slices) loses nothing and the next one skips what is solved.

The plug-in's side is docs/engine.md, "Ranked retrograde"; a ranking is checked by
:func:`ranking_disagreements` (tests/test_engine_sweep.py).
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from cgt.errors import CGTError, ParameterError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.budget import SearchBudgetExceeded
from solvers.engine_build import specialise
from solvers.engine_sweep import (
    C_ALTERNATING,
    C_CHILDREN_SOLVED,
    C_CURSOR,
    C_DEPTH,
    C_ONLY_MARKED,
    C_ROOT,
    CTL_LENGTH,
    FRAME_COLUMNS,
    MARKED,
    S_ABORTED,
    S_NODE_LIMIT,
    S_NODES,
    S_OUTSIDE,
    S_OVERFLOW,
    S_REMOTENESS,
    S_RESULT,
    SHARED_SLOTS,
    SOLVED,
)
from solvers.engine_sweep_defaults import (
    OUTSIDE,
    TRANSIENT,
    record_mover,
    record_of,
    record_value,
)
from solvers.playout import PlayoutRules, int_words

#: The template of the ranked retrograde (compiled per plug-in).
TEMPLATE = "solvers.engine_sweep"
#: Deepest path of the pass (plies) by default; an acyclic game's paths in reach are shorter.
DEFAULT_MAX_PLY = 1024
#: Target wall time of one compiled slice (progress, deadline and Ctrl-C granularity).
SLICE_SECONDS = 0.5
FIRST_SLICE_NODES = 1 << 16
#: Fewest nodes of a slice.
MIN_SLICE_NODES = 1 << 12
#: Ranks per compiled call of the marking pass (progress and deadline between calls).
MARK_CHUNK = 1 << 22


def ranked_rules(game: Game[Any, Any], module: ModuleType, **fields: Any) -> PlayoutRules:
    """The rules of a ranked space whose module defines them as ``ranked_final``,
    ``ranked_generate``, ``ranked_play`` and ``ranked_mover``; the other fields by keyword
    (``decode`` default: the state's words as ints)."""
    hooks = {
        name: getattr(module, f"ranked_{name}") for name in ("final", "generate", "play", "mover")
    }
    return PlayoutRules(game=game, **hooks, **{"decode": int_words, **fields})


class OutsideSpaceError(CGTError):
    """A move leads to a position the ranked space does not hold (a tier not kept)."""


@dataclass
class RankedSpace:
    """A game's ranked space: its plug-in (whose ``tables`` also hold what the ranking
    needs) and the ranking of its positions (docs/engine.md, "Ranked retrograde")."""

    rules: PlayoutRules
    #: ranks are ``0 .. size - 1``
    size: int
    #: ``rank(state, tables) -> int``: the position's rank; ``TRANSIENT`` (-1) for one that
    #: has no record (evaluated whenever it is met), ``OUTSIDE`` (-2) for one not in the space
    rank: Callable[..., int]
    #: ``unrank(index, tables, state)``: writes the position of a rank into ``state``
    unrank: Callable[..., None]
    #: ``record_of(result, remoteness, state, tables) -> int`` and ``record_value(record) ->
    #: (result, remoteness)``: the record layout (None: solvers.store's, uint16); solved
    #: records are at least 2 (0 and 1 mean not solved)
    record_of: Callable[..., int] | None = None
    record_value: Callable[..., Any] | None = None
    #: ``record_mover(record) -> int``: the mover a record keeps (spares the engine asking
    #: ``mover`` of a solved child, where that costs); None: records keep none
    record_mover: Callable[..., int] | None = None
    #: ``child_rank(state, code, tables, scratch) -> int``: the rank of the child after
    #: ``code`` without playing it (None: played into ``scratch`` and ranked)
    child_rank: Callable[..., int] | None = None
    #: ``children_key(state, tables) -> int``: positions with the same key (>= 0) have the
    #: same mover and the same stored children, reached by the moves after their transient
    #: ones (which ``generate`` lists first); the engine folds those children once for all
    #: of them (Interleave: a placement's side to move before and just after a pass).
    #: None: -1 for every position (nothing shared)
    children_key: Callable[..., int] | None = None
    record_dtype: Any = np.uint16
    #: every move raises the rank (a transient state's children too): a descending range
    #: meets every child solved, the cheapest order
    rising: bool = False

    def hooks(self) -> dict[str, Any]:
        """The compiled functions the template is specialised for, by name."""
        rules = self.rules
        return {
            "generate": rules.generate,
            "final": rules.final,
            "play": rules.play,
            "mover": rules.mover,
            "final_remoteness": rules.final_remoteness,
            "rank": self.rank,
            "unrank": self.unrank,
            "record_of": self.record_of or record_of,
            "record_value": self.record_value or record_value,
            "record_mover": self.record_mover or record_mover,
            **({"child_rank": self.child_rank} if self.child_rank is not None else {}),
            **({"children_key": self.children_key} if self.children_key is not None else {}),
            "nrt": rules.nrt,
        }

    def value_of_record(self, record: int) -> tuple[Outcome, int | None] | None:
        """(outcome for the mover, remoteness or None for a draw) of a record; None when
        it is not solved."""
        if record < SOLVED:
            return None
        result, remoteness = (self.record_value or record_value)(np.int64(record))
        if result == 0:
            return Outcome.DRAW, None
        return (Outcome.WIN if result > 0 else Outcome.LOSS), int(remoteness)

    def rank_of(self, state: np.ndarray) -> int:
        return int(self.rank(state, self.rules.tables))

    def state_of(self, index: int) -> np.ndarray:
        state = np.zeros(self.rules.words, dtype=np.uint64)
        self.unrank(np.int64(index), self.rules.tables, state)
        return state


class SweepEngine:
    """The records of a ranked space and the compiled pass that fills them.

    ``records``: an array to fill (default: a new one of zeros, whose untouched pages the
    operating system never allocates). ``deadline`` (a ``time.perf_counter`` time): a solve
    still running then stops with :class:`SearchBudgetExceeded` after its slice."""

    def __init__(
        self,
        space: RankedSpace,
        records: np.ndarray | None = None,
        *,
        max_ply: int = DEFAULT_MAX_PLY,
    ) -> None:
        self.space = space
        self.module = specialise(TEMPLATE, space.hooks())
        rules = space.rules
        self.records = (
            np.zeros(max(space.size, 1), dtype=space.record_dtype) if records is None else records
        )
        self.max_ply = max_ply
        self.states = np.zeros((max_ply + 1, rules.words), dtype=np.uint64)
        #: the pass's stack: states, moves, frames, and the stored children's folds kept
        self.stack = (
            self.states,
            np.zeros((max_ply + 1, max(rules.max_moves, 1)), dtype=np.int64),
            np.zeros((max_ply + 1, FRAME_COLUMNS), dtype=np.int64),
            np.full((SHARED_SLOTS, 4), -1, dtype=np.int64),
        )
        self.ctl = np.zeros(CTL_LENGTH, dtype=np.int64)
        self.ctl[C_ALTERNATING] = int(rules.alternating)
        self.slice_nodes = FIRST_SLICE_NODES
        self.started = time.perf_counter()
        self.deadline: float | None = None

    @property
    def nodes(self) -> int:
        """Positions evaluated so far (every one from all of its children)."""
        return int(self.ctl[S_NODES])

    def solve_range(
        self,
        first: int,
        last: int,
        *,
        descending: bool | None = None,
        only_marked: bool = False,
        progress: Progress | None = None,
        event: dict[str, Any] | None = None,
    ) -> None:
        """Solve every unsolved rank in ``first .. last - 1`` (and what they need),
        highest first when ``descending`` (default: when every move raises the rank)."""
        if descending is None:
            descending = self.space.rising
        start, stop, step = (last - 1, first - 1, -1) if descending else (first, last, 1)
        self.ctl[C_ROOT] = 0
        self.ctl[C_CURSOR] = start
        self.ctl[C_DEPTH] = 0
        self.ctl[C_ONLY_MARKED] = int(only_marked)
        self.ctl[C_CHILDREN_SOLVED] = int(descending and self.space.rising)
        self._run(start, stop, step, progress, event or {})

    def solve_root(
        self, state: np.ndarray, progress: Progress | None = None
    ) -> tuple[Outcome, int | None]:
        """Solve ``state`` and every position it reaches that is not solved yet; its value
        (stored too when it has a rank)."""
        index = self.space.rank_of(state)
        if index == OUTSIDE:
            raise OutsideSpaceError("the position is not in the ranked space")
        if index != TRANSIENT:
            known = self.space.value_of_record(int(self.records[index]))
            if known is not None:
                return known
        self.states[0, :] = state
        self.ctl[C_ROOT] = 1
        self.ctl[C_DEPTH] = 0
        self.ctl[C_CHILDREN_SOLVED] = 0
        self._run(0, 0, 1, progress, {"phase": "solve from root"})
        self.ctl[C_ROOT] = 0
        result, remoteness = int(self.ctl[S_RESULT]), int(self.ctl[S_REMOTENESS])
        if result == 0:
            return Outcome.DRAW, None
        return (Outcome.WIN if result > 0 else Outcome.LOSS), remoteness

    def mark_reached(self, state: np.ndarray, progress: Progress | None = None) -> int:
        """Mark every rank ``state`` reaches (a space whose moves raise the rank, before
        ``solve_range(..., only_marked=True)``); returns the lowest rank marked (``size``
        when none is)."""
        space = self.space
        rules = space.rules
        self.ctl[S_OUTSIDE] = self.ctl[S_OVERFLOW] = 0
        lowest = space.size
        pending = [state]
        while pending:  # the root, and the transient positions it leads to first
            current = pending.pop()
            index = space.rank_of(current)
            if index >= 0:
                if self.records[index] < SOLVED:
                    self.records[index] = MARKED
                lowest = min(lowest, index)
                continue
            if index == OUTSIDE:
                raise OutsideSpaceError("the position is not in the ranked space")
            moves = np.zeros(max(rules.max_moves, 1), dtype=np.int64)
            for k in range(int(rules.generate(current, rules.tables, moves))):
                child = np.zeros(rules.words, dtype=np.uint64)
                rules.play(current, moves[k], rules.tables, child)
                pending.append(child)
        started = time.perf_counter()
        for first in range(lowest, space.size, MARK_CHUNK):
            last = min(space.size, first + MARK_CHUNK)
            self.module.mark(first, last, self.records, rules.tables, self.stack, self.ctl)
            self._check_flags()
            if progress is not None:
                progress(
                    {
                        "phase": "mark reached",
                        "ranks": last - lowest,
                        "of": space.size - lowest,
                        "seconds": round(time.perf_counter() - started, 3),
                    }
                )
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise SearchBudgetExceeded(
                    last - lowest, time.perf_counter() - self.started, unit="ranks marked"
                )
        return lowest

    def _check_flags(self) -> None:
        """The errors a compiled pass reports through its control array."""
        if self.ctl[S_OVERFLOW]:
            raise ParameterError(
                f"a path longer than {self.max_ply} plies: the game is not acyclic, or "
                "raise max_ply"
            )
        if self.ctl[S_OUTSIDE]:
            raise OutsideSpaceError("a move leads out of the ranked space")

    def _run(
        self, first: int, last: int, step: int, progress: Progress | None, event: dict[str, Any]
    ) -> None:
        """The compiled pass in node-budget slices sized from the measured speed; between
        slices, progress and the deadline."""
        ctl = self.ctl
        ctl[S_OUTSIDE] = ctl[S_OVERFLOW] = 0
        started = time.perf_counter()
        while True:
            ctl[S_ABORTED] = 0
            nodes_before = self.nodes
            ctl[S_NODE_LIMIT] = nodes_before + self.slice_nodes
            slice_started = time.perf_counter()
            done = self.module.solve(
                first, last, step, self.records, self.space.rules.tables, self.stack, ctl
            )
            self._check_flags()
            if done:
                return
            seconds = max(time.perf_counter() - slice_started, 1e-6)
            rate = (self.nodes - nodes_before) / seconds
            self.slice_nodes = int(min(max(rate * SLICE_SECONDS, MIN_SLICE_NODES), 1 << 28))
            if progress is not None:
                progress(
                    {
                        **event,
                        "positions": self.nodes,
                        "ranks": abs(int(ctl[C_CURSOR]) - first),
                        "of": abs(last - first),
                        "seconds": round(time.perf_counter() - started, 3),
                    }
                )
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise SearchBudgetExceeded(
                    self.nodes, time.perf_counter() - self.started, unit="positions"
                )


# ------------------------------------------------------------------ checking a ranking
def ranking_disagreements(space: RankedSpace, samples: int = 300, seed: int = 0) -> list[str]:
    """Every way the ranking of ``space`` fails on ``samples`` random ranks: a rank that
    does not decode to itself (``rank(unrank(i)) != i``), and a child whose rank by the
    compiled ``play`` (or ``child_rank``) differs from the rank of the readable rules' child
    (the game's own ``play`` on the decoded position, encoded again); with a
    ``children_key``, two positions of one key (a sampled one and the transient positions
    it leads to, across every sample) whose movers or stored children differ, or a
    transient child listed after a stored one. Empty when the ranking holds."""
    rules = space.rules
    game = rules.game
    tables = rules.tables
    rng = random.Random(seed)
    moves = np.zeros(max(rules.max_moves, 1), dtype=np.int64)
    child = np.zeros(rules.words, dtype=np.uint64)
    wrong = []
    shared: dict[int, tuple[int, list[int]]] = {}
    for _ in range(samples):
        index = rng.randrange(space.size)
        state = space.state_of(index)
        if space.rank_of(state) != index:
            wrong.append(f"rank {index} decodes to a position of rank {space.rank_of(state)}")
            continue
        position = rules.decode(state)
        for k in range(int(rules.generate(state, tables, moves))):
            rules.play(state, moves[k], tables, child)
            played = game.play(position, rules.move_of(position, int(moves[k])))
            expected = space.rank_of(rules.encode(played))
            ranks = {space.rank_of(child)}
            if space.child_rank is not None:
                ranks.add(int(space.child_rank(state, moves[k], tables, child.copy())))
            if ranks != {expected}:
                wrong.append(
                    f"after move {int(moves[k])} of rank {index}: ranks {sorted(ranks)}, "
                    f"the readable rules' child has {expected}"
                )
        if space.children_key is not None:
            wrong += _children_key_disagreements(space, state, index, shared)
    return wrong


def _children_key_disagreements(
    space: RankedSpace, state: np.ndarray, index: int, shared: dict[int, tuple[int, list[int]]]
) -> list[str]:
    """What breaks ``children_key``'s promise at the position of rank ``index`` and the
    transient positions it leads to; ``shared``: (mover, stored children) by key so far."""
    rules = space.rules
    tables = rules.tables
    moves = np.zeros(max(rules.max_moves, 1), dtype=np.int64)
    wrong = []
    pending = [state]
    while pending:
        current = pending.pop()
        count = int(rules.generate(current, tables, moves))
        stored: list[int] = []
        late = False  # a transient child after a stored one
        for code in moves[:count].copy():
            child = np.zeros(rules.words, dtype=np.uint64)
            rules.play(current, code, tables, child)
            rank = space.rank_of(child)
            if rank == TRANSIENT:
                late |= bool(stored)
                pending.append(child)
            else:
                stored.append(rank)
        key = int(space.children_key(current, tables)) if count else -1  # type: ignore[misc]
        if key < 0:
            continue
        seen = (int(rules.mover(current, tables)), sorted(stored))
        if late:
            wrong.append(f"near rank {index}: a transient child after a stored one (key {key})")
        if shared.setdefault(key, seen) != seen:
            wrong.append(f"near rank {index}: key {key} names two movers or children sets")
    return wrong


def ranked_space_of(plugin: Any, game: Game[Any, Any]) -> RankedSpace | None:
    """The ranked space a kernel plug-in (:class:`solvers.kernels.plugin.KernelPlugin`)
    gives for ``game`` (its start's space): its ``ranked_space``, or its tier module's
    ``ranked_space``; None when it has none."""
    if plugin.ranked_space is not None:
        return plugin.ranked_space(game)  # type: ignore[no-any-return]
    if plugin.tier_module is not None:
        module = importlib.import_module(plugin.tier_module)
        return module.ranked_space(game)  # type: ignore[no-any-return]
    return None
