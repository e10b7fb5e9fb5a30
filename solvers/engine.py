"""One compiled exact search for every game with a playout plug-in.

A game's plug-in states its rules as four compiled functions over a state of uint64 words
(:mod:`solvers.playout`: ``generate``, ``final``, ``play``, ``mover``). The Monte-Carlo
player runs on them; so does this exact search, written once and compiled per game (numba
specialises :func:`engine_search` for the functions passed to it). A game added in one file
with such a plug-in (``docs/connect_four.py``) gets ``cgt solve --solver compiled``, the
frontier and the explorer with no other file changed.

The search
----------
Negamax alpha-beta, fail-soft, iterative (an explicit stack of frames, one per ply, so no
recursion and no limit but ``max_ply``), with the conventions of the hand-built kernels
(:mod:`solvers.kernels.table`): scores for the player to move, -1/0/1 in value mode and
``BIG - r`` / ``-(BIG - r)`` for a win / loss in ``r`` plies in remoteness mode; a child's
score is negated when the players alternate and kept when the same player moves again (a
game's players need not alternate); in remoteness mode a score moves one ply toward zero on
its way up and windows passed down are widened by one step, so bounds stay exact.

The transposition table keys an entry by the WHOLE state (every word compared on a probe,
so no two positions ever share an entry), in buckets of two slots: the first keeps the entry
whose subtree took the most work, the second is replaced always. An entry holds its bound
(exact, lower, upper), score and best move; the best move is searched first when the
position comes back.

What it does not do: positions that repeat (the state has no history, so a cycle would
never end): the search is for acyclic games (``game.acyclic``), and :class:`EngineKernel`
refuses the others. Nor symmetry, ETC or history: the hand-built kernels keep those for the
seed games, measured on their benchmark pages.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cgt.errors import ParameterError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.kernels.base import CompiledKernel, run_solve
from solvers.kernels.table import (
    BIG,
    EXACT,
    INFINITY,
    LOWER,
    NO_NODE_LIMIT,
    S_ABORTED,
    S_HITS,
    S_MAX_PLY,
    S_NEW_STORES,
    S_NODE_LIMIT,
    S_NODES,
    S_OVERFLOW,
    S_PROBES,
    S_STORES,
    UPPER,
)
from solvers.playout import PlayoutRules
from solvers.result import SolveResult

#: Deepest search path (plies) by default.
DEFAULT_MAX_PLY = 512
#: Default table capacity (slots); each holds the state's words and one data word.
DEFAULT_TT_ENTRIES = 1 << 21
#: Length of the control array (statistics at the indices of solvers.kernels.table).
CONTROL_LENGTH = 32

# data word: flag (2 bits) | move code + 1 (20 bits) | score + SCORE_OFFSET (24 bits) |
# log2 of the subtree's work (6 bits)
_MOVE_SHIFT = 2
_SCORE_SHIFT = 22
_WORK_SHIFT = 46
_MOVE_MASK = (1 << 20) - 1
_SCORE_MASK = (1 << 24) - 1
SCORE_OFFSET = 1 << 23
#: Largest move code a plug-in may use (the data word keeps 20 bits for it).
MAX_MOVE_CODE = _MOVE_MASK - 1


@njit(cache=True, inline="always")
def _hash(state: np.ndarray) -> np.uint64:
    h = np.uint64(0x243F6A8885A308D3)
    for w in state:
        h = (h ^ w) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=True, inline="always")
def _same(keys: np.ndarray, slot: int, state: np.ndarray) -> bool:
    for k in range(state.shape[0]):  # noqa: SIM110 (numba compiles no generator)
        if keys[slot, k] != state[k]:
            return False
    return True


@njit(cache=True, inline="always")
def _probe(keys: np.ndarray, data: np.ndarray, state: np.ndarray, mask: int) -> int:
    """The slot holding ``state``, or -1."""
    base = int(_hash(state) & np.uint64(mask)) & ~1
    for slot in (base, base + 1):
        if data[slot] != 0 and _same(keys, slot, state):
            return slot
    return -1


@njit(cache=True, inline="always")
def _bit_length(x: int) -> int:
    n = 0
    while x > 0:
        n += 1
        x >>= 1
    return n


@njit(cache=True)
def _store(
    keys: np.ndarray,
    data: np.ndarray,
    state: np.ndarray,
    mask: int,
    flag: int,
    score: int,
    move: int,
    work: int,
    ctl: np.ndarray,
) -> None:
    base = int(_hash(state) & np.uint64(mask)) & ~1
    work_bits = min(_bit_length(work), 63)
    if move < 0 or move > MAX_MOVE_CODE:  # no room for it: the entry keeps no move
        move = -1
    word = (
        np.uint64(flag)
        | (np.uint64(move + 1) << np.uint64(_MOVE_SHIFT))
        | (np.uint64(score + SCORE_OFFSET) << np.uint64(_SCORE_SHIFT))
        | (np.uint64(work_bits) << np.uint64(_WORK_SHIFT))
    )
    if data[base] != 0 and _same(keys, base, state):
        slot = base
    elif data[base + 1] != 0 and _same(keys, base + 1, state):
        slot = base + 1
    elif data[base] == 0 or int(data[base] >> np.uint64(_WORK_SHIFT)) <= work_bits:
        slot = base
    else:
        slot = base + 1
    if data[slot] == 0:
        ctl[S_NEW_STORES] += 1
    ctl[S_STORES] += 1
    keys[slot, :] = state
    data[slot] = word


@njit(cache=True, inline="always")
def _toward_root(score: int, remoteness: bool) -> int:
    if not remoteness or score == 0:
        return score
    return score - 1 if score > 0 else score + 1


# Not cached on disk: a function taking other compiled functions as arguments is typed by
# them, and numba's cache would then pickle the plug-ins' modules into the index of every
# game (a file loaded with ``cgt --load`` is not importable by name in another process).
@njit
def engine_search(
    root: np.ndarray,
    tables: Any,
    final: Any,
    generate: Any,
    play: Any,
    mover: Any,
    alpha: int,
    beta: int,
    remoteness: bool,
    keys: np.ndarray,
    data: np.ndarray,
    ctl: np.ndarray,
    states: np.ndarray,
    moves: np.ndarray,
    frames: np.ndarray,
) -> int:
    """Score of ``root`` for its mover within (``alpha``, ``beta``) (fail-soft; exact for a
    full window). ``states`` (max_ply + 1 rows of the state's words), ``moves`` (max_ply + 1
    rows of move codes) and ``frames`` (max_ply + 1 rows of 9 integers) are the stack.
    Stops with ``ctl[S_ABORTED]`` set once ``ctl[S_NODES]`` passes ``ctl[S_NODE_LIMIT]``;
    nothing on the unfinished path is stored, so a later call resumes from the table."""
    # frame columns
    count_col, cursor_col, alpha_col, beta_col, alpha0_col = 0, 1, 2, 3, 4
    best_col, best_move_col, sign_col, nodes_col = 5, 6, 7, 8
    enter, go_on, hand_up = 0, 1, 2  # what the loop does next at ``ply``
    max_ply = states.shape[0] - 1
    mask = data.shape[0] - 1
    win = BIG if remoteness else 1
    widen = 1 if remoteness else 0
    states[0, :] = root
    frames[0, alpha_col] = alpha
    frames[0, beta_col] = beta
    ply = 0
    step = enter
    value = 0
    while True:
        if step == enter:
            ctl[S_NODES] += 1
            if ctl[S_NODES] > ctl[S_NODE_LIMIT]:
                ctl[S_ABORTED] = 1
                return 0
            if ply > ctl[S_MAX_PLY]:
                ctl[S_MAX_PLY] = ply
            state = states[ply]
            a = frames[ply, alpha_col]
            b = frames[ply, beta_col]
            ctl[S_PROBES] += 1
            slot = _probe(keys, data, state, mask)  # finished positions are never stored
            table_move = -1
            if slot >= 0:
                ctl[S_HITS] += 1
                word = data[slot]
                flag = int(word & np.uint64(3))
                stored = int((word >> np.uint64(_SCORE_SHIFT)) & np.uint64(_SCORE_MASK))
                stored -= SCORE_OFFSET
                table_move = int((word >> np.uint64(_MOVE_SHIFT)) & np.uint64(_MOVE_MASK)) - 1
                if (
                    flag == EXACT
                    or (flag == LOWER and stored >= b)
                    or (flag == UPPER and stored <= a)
                ):
                    value = stored
                    step = hand_up
                    continue
            if ply == max_ply:
                ctl[S_OVERFLOW] = 1
                ctl[S_ABORTED] = 1
                return 0
            count = generate(state, tables, moves[ply])
            if count == 0:  # the game is over: its result for the player to move
                value = final(state, tables) * win
                step = hand_up
                continue
            if table_move >= 0:  # the table's best move first
                for i in range(count):
                    if moves[ply, i] == table_move:
                        moves[ply, i] = moves[ply, 0]
                        moves[ply, 0] = table_move
                        break
            frames[ply, count_col] = count
            frames[ply, cursor_col] = 0
            frames[ply, alpha0_col] = a
            frames[ply, best_col] = -INFINITY
            frames[ply, best_move_col] = -1
            frames[ply, nodes_col] = ctl[S_NODES]
            step = go_on
        elif step == hand_up:  # ``value`` is the score of the position at ``ply``
            if ply == 0:
                return value
            ply -= 1
            v = _toward_root(frames[ply, sign_col] * value, remoteness)
            cursor = frames[ply, cursor_col]
            if v > frames[ply, best_col]:
                frames[ply, best_col] = v
                frames[ply, best_move_col] = moves[ply, cursor]
            if v > frames[ply, alpha_col]:
                frames[ply, alpha_col] = v
            frames[ply, cursor_col] = cursor + 1
            step = go_on
        else:  # the node at ``ply``: done, cut off, or on to its next child
            best = frames[ply, best_col]
            b = frames[ply, beta_col]
            cursor = frames[ply, cursor_col]
            if best >= b or cursor >= frames[ply, count_col]:
                if best <= frames[ply, alpha0_col]:
                    flag = UPPER
                elif best >= b:
                    flag = LOWER
                else:
                    flag = EXACT
                work = ctl[S_NODES] - frames[ply, nodes_col]
                move = frames[ply, best_move_col]
                _store(keys, data, states[ply], mask, flag, best, move, work, ctl)
                value = best
                step = hand_up
                continue
            play(states[ply], moves[ply, cursor], tables, states[ply + 1])
            low = frames[ply, alpha_col] - widen
            high = b + widen
            if mover(states[ply + 1], tables) == mover(states[ply], tables):
                frames[ply, sign_col] = 1
                frames[ply + 1, alpha_col] = low
                frames[ply + 1, beta_col] = high
            else:
                frames[ply, sign_col] = -1
                frames[ply + 1, alpha_col] = -high
                frames[ply + 1, beta_col] = -low
            ply += 1
            step = enter


class EngineKernel(CompiledKernel):
    """The engine on one game's playout plug-in: its table and stack, kept across solves."""

    def __init__(
        self,
        rules: PlayoutRules,
        *,
        remoteness: bool = False,
        tt_entries: int = DEFAULT_TT_ENTRIES,
        max_ply: int = DEFAULT_MAX_PLY,
    ) -> None:
        game = rules.game
        if not game.acyclic:
            raise ParameterError(
                f"the compiled engine searches games whose positions cannot repeat; "
                f"{game.label()} declares they can (acyclic = False)"
            )
        if not rules.compiled:
            raise ParameterError(f"{game.name} has no compiled plug-in for the engine")
        capacity = 1 << max(1, int(tt_entries).bit_length() - 1)
        self.rules = rules
        self.game = game
        self.remoteness = remoteness
        self.max_ply = max_ply
        self.capacity = capacity
        self.keys = np.zeros((capacity, rules.words), dtype=np.uint64)
        self.tt = np.zeros(capacity, dtype=np.uint64)
        self.ctl = np.zeros(CONTROL_LENGTH, dtype=np.int64)
        self.ctl[S_NODE_LIMIT] = NO_NODE_LIMIT
        self.states = np.zeros((max_ply + 1, rules.words), dtype=np.uint64)
        self.move_stack = np.zeros((max_ply + 1, rules.max_moves), dtype=np.int64)
        self.frames = np.zeros((max_ply + 1, 9), dtype=np.int64)

    @property
    def approx_bytes(self) -> int:
        return int(self.keys.nbytes + self.tt.nbytes)

    def check_position(self, position: Any) -> np.ndarray:
        return self.rules.encode(position)

    def _generated(self, position: Any) -> tuple[np.ndarray, np.ndarray, int]:
        state = self.rules.encode(position)
        buffer = np.zeros(self.rules.max_moves, dtype=np.int64)
        return state, buffer, int(self.rules.generate(state, self.rules.tables, buffer))

    def moves(self, position: Any) -> list[Any]:
        _, buffer, count = self._generated(position)
        return [self.rules.move_of(position, int(code)) for code in buffer[:count]]

    def terminal_outcome(self, position: Any) -> Outcome | None:
        state, _, count = self._generated(position)
        return None if count else Outcome(int(self.rules.final(state, self.rules.tables)))

    def _search(self, position: Any, alpha: int, beta: int) -> int:
        rules = self.rules
        return int(
            engine_search(
                rules.encode(position),
                rules.tables,
                rules.final,
                rules.generate,
                rules.play,
                rules.mover,
                alpha,
                beta,
                self.remoteness,
                self.keys,
                self.tt,
                self.ctl,
                self.states,
                self.move_stack,
                self.frames,
            )
        )


def solve_with_engine(
    rules: PlayoutRules,
    position: Any = None,
    *,
    remoteness: bool = False,
    tt_entries: int = DEFAULT_TT_ENTRIES,
    symmetry: bool = True,
    principal_variation: bool = True,
    max_seconds: float | None = None,
    progress: Progress | None = None,
    move_values: bool = True,
    max_ply: int = DEFAULT_MAX_PLY,
) -> SolveResult:
    """Solve ``position`` (default: the start) of ``rules.game`` with the engine, with the
    options of every kernel's entry point (:mod:`solvers.kernels`); ``symmetry`` is accepted
    and recorded, the engine keys no symmetry."""
    import time

    started = time.perf_counter()
    kernel = EngineKernel(rules, remoteness=remoteness, tt_entries=tt_entries, max_ply=max_ply)
    return run_solve(
        kernel,
        rules.game,
        position,
        compile_seconds=time.perf_counter() - started,
        principal_variation=principal_variation,
        max_seconds=max_seconds,
        progress=progress,
        symmetry=False,
        move_values=move_values,
    )


def engine_solver(playout: Any) -> Any:
    """A kernel entry point (the uniform signature of :mod:`solvers.kernels`) for a game
    whose plug-in gives its playout rules by ``playout(game)``."""

    def solve(game: Game[Any, Any], position: Any = None, **options: Any) -> SolveResult:
        return solve_with_engine(playout(game), position, **options)

    return solve
