"""The packed retrograde by levels over a game's ranked space: the Python side of
:mod:`solvers.engine_levels` (the compiled template, which documents the hooks and the
method).

A game gives a :class:`LevelsRules` (docs/engine.md, "A ranked space"): the size of its
space, its tables, and the compiled ``unrank``, ``successor``, ``scan`` and ``parents``.
:class:`LevelsSpace` solves it (scan, propagation level by level, frontier, budget, progress,
statistics; the arrays in huge pages, :mod:`solvers.memory`) and answers from the solved
array: values, move values, a principal variation and the records of :mod:`solvers.store`.
A game's space subclasses it with its ranking and its rules on positions
(:class:`solvers.kernels.entropy.EntropySpace`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

import numba
import numpy as np

import solvers.store as store
from cgt.errors import CGTError, ParameterError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.engine_build import specialise
from solvers.engine_levels import (
    DUPLICATE,
    MAX_REMOTENESS,
    SCAN_DRAW,
    SCAN_DUPLICATE,
    SCAN_LOSS,
    SCAN_WIN,
    TERMINAL_DRAW,
    UNRESOLVED,
    UPDATE_SCALE,
    WIN_BASE,
)
from solvers.kernel_base import SearchBudgetExceeded
from solvers.memory import require_memory, zeroed_array
from solvers.result import MoveValue
from solvers.retrograde import follow_best_moves

#: The compiled template.
TEMPLATE = "solvers.engine_levels"
#: Updates one slice of a propagation round may write before the serial phase applies them
#: (8 bytes each: 1 MiB per slice, so the parents touched stay in the cache between phases).
UPDATES_PER_SLICE = 1 << 17
#: A frontier range is split for an idle thread only when both halves have this many.
MIN_SPLIT = 256
#: Indices of the initial scan per compiled call (between budget checks and progress).
SCAN_STEP = 1 << 22


class RetrogradeBudgetExceeded(SearchBudgetExceeded):
    """The packed retrograde ran out of ``max_seconds`` (the kernels' budget error, counted
    in positions scanned or decided rather than nodes searched)."""

    def __init__(self, positions: int, seconds: float, phase: str = "decided") -> None:
        CGTError.__init__(
            self,
            f"no result within the time budget: {positions:,} positions {phase} in {seconds:.1f} s",
        )
        self.nodes = positions
        self.positions = positions
        self.seconds = seconds


@dataclass
class LevelsRules:
    """A game's ranked space for the levels retrograde (the hooks: solvers.engine_levels)."""

    game: Game[Any, Any]
    #: the space's name in messages ("Entropy")
    what: str
    #: a position's index (its canonical image's), and an index's position
    index: Callable[[Any], int]
    position: Callable[[int], Any]
    #: indices ``0..size-1``
    size: int
    tables: Any
    #: words of the state ``unrank`` writes
    state_words: int
    #: the most legal moves of a position (the counters hold it)
    max_moves: int
    #: the most updates ``parents`` writes for one child
    max_updates: int
    unrank: Callable[..., None]
    scan: Callable[..., int]
    parents: Callable[..., int]
    successor: Callable[..., bool] | None = None
    #: uint64 words of working room ``parents`` gets
    scratch_words: int = 1

    def hooks(self) -> dict[str, Any]:
        names = ("unrank", "successor", "scan", "parents")
        return {**{name: getattr(self, name) for name in names}, "nrt": False}

    def compiled(self) -> ModuleType:
        """The template compiled for these hooks (cached on disk)."""
        return specialise(TEMPLATE, self.hooks())

    @property
    def counter_dtype(self) -> type[np.unsignedinteger[Any]]:
        return np.uint8 if self.max_moves <= 255 else np.uint16


def index_bytes(max_moves: int) -> int:
    """Bytes per index: the value (2) and the counter (1, or 2 above 255 moves)."""
    return 2 + (1 if max_moves <= 255 else 2)


def _split_ranges(pending: list[tuple[int, int]], slices: int) -> list[tuple[int, int]]:
    """Frontier ranges for one propagation round: the pending ones, the longest halved
    until every thread has one (or none is worth splitting)."""
    ranges = sorted(pending, key=lambda r: r[0] - r[1])  # longest first
    while len(ranges) < slices and ranges[0][1] - ranges[0][0] >= 2 * MIN_SPLIT:
        first, last = ranges.pop(0)
        middle = (first + last) // 2
        ranges += [(first, middle), (middle, last)]
        ranges.sort(key=lambda r: r[0] - r[1])
    return ranges


def outcome_of(code: int) -> tuple[Outcome, int | None]:
    """The outcome for the player to move and the remoteness (``None`` for draws) of a
    ``value`` code."""
    if code < WIN_BASE:
        return Outcome.DRAW, None
    return (Outcome.LOSS if code & 1 else Outcome.WIN), (code - WIN_BASE) >> 1


@cache
def _record_of_code() -> np.ndarray:
    """The :mod:`solvers.store` record of every ``value`` code: unresolved and terminal
    draws are draws, duplicates are not positions."""
    table = store.win_loss_records(np.arange(1 << 16), WIN_BASE)
    table[UNRESOLVED] = table[TERMINAL_DRAW] = store.DRAW << store.OUTCOME_SHIFT
    table[DUPLICATE] = store.NOT_A_POSITION
    return table


class LevelsSpace:
    """A ranked space solved by levels. A game's space sets :attr:`game`, and gives
    :meth:`levels_rules` (building its tables on first call, their time in
    ``seconds["tables"]``), :meth:`index` and :meth:`check_memory`."""

    game: Game[Any, Any]

    def __init__(self) -> None:
        self.value: np.ndarray | None = None
        self.seconds: dict[str, float] = {}
        #: CPU seconds of this process per phase (the wall clock counts other processes too)
        self.cpu_seconds: dict[str, float] = {}
        self.stats: dict[str, Any] = {}

    def levels_rules(self) -> LevelsRules:
        raise NotImplementedError

    def index(self, position: Any) -> int:
        raise NotImplementedError

    def check_memory(self) -> None:
        raise NotImplementedError

    # ---------------------------------------------------------------- solving
    def solve(
        self,
        *,
        progress: Progress | None = None,
        max_seconds: float | None = None,
        root: Any = None,
    ) -> None:
        """Fill :attr:`value` for every index, reachable from ``root`` or not (the packed
        entry point names its root; the levels solve the whole space): initial scan, then
        propagation by levels."""
        self.check_memory()
        started = time.perf_counter()
        rules = self.levels_rules()
        self.value = None
        self.value, self.stats = solve_levels(
            rules, self.seconds, self.cpu_seconds, progress, max_seconds, started
        )

    # ---------------------------------------------------------------- reading
    def records(self, start: int, stop: int) -> np.ndarray:
        """Indices ``start..stop-1`` in the record encoding of :mod:`solvers.store` (a new
        array; the solve's own array is left as it is)."""
        if self.value is None:
            raise ValueError("solve() first")
        if self.stats.get("max_remoteness", 0) > store.MAX_REMOTENESS:
            raise ParameterError(f"remoteness beyond {store.MAX_REMOTENESS}: records overflow")
        return np.take(_record_of_code(), self.value[start:stop])

    def value_of(self, position: Any) -> tuple[Outcome, int | None]:
        """Outcome for the player to move and remoteness (``None`` for draws)."""
        if self.value is None:
            raise ValueError("solve() first")
        return outcome_of(int(self.value[self.index(position)]))

    def move_values(self, position: Any) -> list[MoveValue]:
        """Every legal move of a non-terminal position with its value for the mover."""
        if self.game.result(position) is not None:
            return []
        values = []
        for move in self.game.moves(position):
            child = self.game.play(position, move)
            outcome, remoteness = self.value_of(child)
            values.append(
                MoveValue(
                    move=move,
                    name=self.game.move_name(position, move),
                    outcome=-outcome,
                    remoteness=None if remoteness is None else remoteness + 1,
                )
            )
        return values

    def principal_variation(self, position: Any, max_length: int = 200) -> list[str]:
        """One perfect line: the first best move each time, until the game ends, a position
        repeats (a draw) or ``max_length`` plies."""
        return follow_best_moves(
            self.game, position, self.index, self.value_of, self.move_values, max_length
        )


def _check_budget(max_seconds: float | None, started: float, done: int, phase: str) -> None:
    elapsed = time.perf_counter() - started
    if max_seconds is not None and elapsed > max_seconds:
        raise RetrogradeBudgetExceeded(done, elapsed, phase)


def solve_levels(
    rules: LevelsRules,
    seconds: dict[str, float],
    cpu_seconds: dict[str, float],
    progress: Progress | None = None,
    max_seconds: float | None = None,
    started: float | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """The ``value`` array of every index of ``rules``' space and the solve's statistics;
    the wall and CPU seconds of the phases ``scan`` and ``propagate`` go into ``seconds`` and
    ``cpu_seconds``. :class:`RetrogradeBudgetExceeded` once ``max_seconds`` have passed
    since ``started`` (default: now)."""
    if started is None:
        started = time.perf_counter()
    module = rules.compiled()
    size = rules.size
    require_memory(size * index_bytes(rules.max_moves), f"packed {rules.what} retrograde arrays")
    value = zeroed_array(size, np.uint16)
    counter = zeroed_array(size, rules.counter_dtype)
    slices = numba.get_num_threads()
    tables = rules.tables

    phase, cpu = time.perf_counter(), time.process_time()
    states = np.zeros((slices, rules.state_words), dtype=np.uint64)
    moves = np.zeros((slices, rules.max_moves), dtype=np.int64)
    last_report = 0.0
    for first in range(0, size, SCAN_STEP):
        last = min(size, first + SCAN_STEP)
        module.scan_indices(first, last, tables, value, counter, states, moves)
        now = time.perf_counter()
        _check_budget(max_seconds, started, last, "scanned")
        if progress is not None and now - last_report >= 0.5:
            last_report = now
            progress({"phase": "scan", "indices": last, "of": size})
    seconds["scan"] = time.perf_counter() - phase
    cpu_seconds["scan"] = time.process_time() - cpu

    phase, cpu = time.perf_counter(), time.process_time()
    chunk = 1 << 24
    frontier_dtype = np.uint32 if size <= 1 << 32 else np.int64  # halves big levels
    frontier = np.concatenate(  # level 0: the won and lost finished games
        [
            np.flatnonzero(value[first : first + chunk] >= WIN_BASE) + first
            for first in range(0, size, chunk)
        ]
    ).astype(frontier_dtype)
    room = rules.max_updates
    part = max(UPDATES_PER_SLICE, 4 * room)
    out = np.zeros(slices * part, dtype=np.int64)
    written = np.zeros(slices, dtype=np.int64)
    decided = np.zeros(slices * part, dtype=frontier_dtype)
    scratch = np.zeros((slices, rules.scratch_words), dtype=np.uint64)
    last_report = 0.0  # each phase reports at least once
    level = 0
    levels: list[int] = []
    decided_total = int(frontier.size)
    generate_seconds = apply_seconds = 0.0  # the parallel and the serial phase
    updates = 0
    while frontier.size:
        levels.append(int(frontier.size))
        if level + 1 > MAX_REMOTENESS:
            raise ParameterError(f"remoteness beyond {MAX_REMOTENESS}: uint16 values overflow")
        next_parts: list[np.ndarray] = []
        pending = [(0, int(frontier.size))]
        while pending:
            ranges = _split_ranges(pending, slices)
            starts = np.array([r[0] for r in ranges], dtype=np.int64)
            ends = np.array([r[1] for r in ranges], dtype=np.int64)
            written[:] = 0
            round_started = time.perf_counter()
            module.generate_updates(
                frontier,
                starts,
                ends,
                level,
                tables,
                value,
                out[: len(ranges) * part],
                written[: len(ranges)],
                room,
                scratch,
            )
            applying = time.perf_counter()
            count = module.apply_updates(
                out[: len(ranges) * part], written[: len(ranges)], level, value, counter, decided
            )
            generate_seconds += applying - round_started
            apply_seconds += time.perf_counter() - applying
            updates += int(written.sum())
            next_parts.append(decided[:count].copy())
            decided_total += int(count)
            pending = [(int(s), int(e)) for s, e in zip(starts, ends, strict=True) if s < e]
            now = time.perf_counter()
            _check_budget(max_seconds, started, decided_total, "decided")
            if progress is not None and now - last_report >= 0.5:
                last_report = now
                progress({"phase": "propagate", "level": level, "decided": decided_total})
        frontier = np.concatenate(next_parts) if next_parts else np.zeros(0, dtype=frontier_dtype)
        level += 1
    seconds["propagate"] = time.perf_counter() - phase
    cpu_seconds["propagate"] = time.process_time() - cpu
    del counter  # only the propagation needs it

    duplicates = int(np.count_nonzero(value == DUPLICATE))
    decided_codes = value[value >= WIN_BASE]
    wins = int(np.count_nonzero(decided_codes & 1 == 0))
    stats = {
        "indices": size,
        "positions": size - duplicates,
        "duplicates": duplicates,
        "wins": wins,
        "losses": int(decided_codes.size) - wins,
        "draws": size - duplicates - int(decided_codes.size),
        "terminal_draws": int(np.count_nonzero(value == TERMINAL_DRAW)),
        "max_remoteness": len(levels) - 1,
        "decided_per_level": levels,
        "propagation_updates": updates,
        "propagation_seconds_generate_apply": [
            round(generate_seconds, 3),
            round(apply_seconds, 3),
        ],
    }
    return value, stats


# ------------------------------------------------------------------ checking a plug-in
def unmove_disagreements(rules: LevelsRules) -> list[str]:
    """Where the plug-in's ranked space and un-moves differ from the readable rules of its
    game, over the whole space (a small one: the readable rules run on every index). Empty
    if nowhere.

    Checked: the successor's state is the ranking's; every index's scan (duplicates are exactly the indices whose position ranks
    elsewhere; a finished game's result; the number of legal moves); every update ``parents``
    writes names a parent that has a move into the child's index; and for every parent the
    weights of the updates into it, over all children, add up to its number of moves, so
    every move is accounted for exactly once."""
    found: list[str] = []
    state = np.zeros(rules.state_words, dtype=np.uint64)
    moves = np.zeros(rules.max_moves, dtype=np.int64)
    value = np.zeros(rules.size, dtype=np.uint16)
    out = np.zeros(rules.max_updates, dtype=np.int64)
    scratch = np.zeros(rules.scratch_words, dtype=np.uint64)
    game, position_of, index_of = rules.game, rules.position, rules.index
    expected = {Outcome.WIN: SCAN_WIN, Outcome.LOSS: SCAN_LOSS, Outcome.DRAW: SCAN_DRAW}
    positions: dict[int, Any] = {}
    stepped = np.zeros(rules.state_words, dtype=np.uint64)
    for index in range(rules.size):
        if index and rules.successor is not None and rules.successor(stepped, rules.tables):
            rules.unrank(index, rules.tables, state)
            if not np.array_equal(state, stepped):
                found.append(f"index {index}: the successor's state is not the ranking's")
        rules.unrank(index, rules.tables, state)
        stepped[:] = state
        code = int(rules.scan(index, state, rules.tables, moves))
        position = position_of(index)
        canonical = index_of(position) == index
        if code == SCAN_DUPLICATE:
            if canonical:
                found.append(f"index {index}: marked a duplicate, but its position ranks there")
            value[index] = DUPLICATE
            continue
        if not canonical:
            found.append(f"index {index}: its position ranks at {index_of(position)}")
        result = game.result(position)
        right = expected[result] if result is not None else len(game.moves(position))
        if code != right:
            found.append(f"index {index} {game.render(position)!r}: scan {code}, rules {right}")
        if code <= 0:
            value[index] = -code
        positions[index] = position
    weights = dict.fromkeys((i for i, p in positions.items() if value[i] == UNRESOLVED), 0)
    children: dict[int, set[int]] = {}
    for child in positions:
        updates = []
        for loses in (False, True):
            count = int(rules.parents(child, loses, rules.tables, value, out, 0, scratch))
            updates.append([divmod(int(u), UPDATE_SCALE) for u in out[:count]])
        won, counted = updates[1], updates[0]
        if [p for p, _ in won] != [p for p, _ in counted] or any(w for _, w in won):
            found.append(f"index {child}: a losing child's updates are not its parents, won")
        for parent, weight in counted:
            if parent not in weights:
                found.append(f"index {child}: parent {parent} is no undecided position")
                continue
            if parent not in children:
                position = positions[parent]
                children[parent] = {
                    index_of(game.play(position, move)) for move in game.moves(position)
                }
            if child not in children[parent]:
                found.append(f"index {child}: parent {parent} has no move into it")
            weights[parent] += weight
    for parent, total in weights.items():
        position = positions[parent]
        if total != len(game.moves(position)):
            found.append(
                f"index {parent} {game.render(position)!r}: un-moves into it weigh {total}, "
                f"it has {len(game.moves(position))} moves"
            )
    return found
