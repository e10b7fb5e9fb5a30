"""The compiled playout interface of a game, and one Monte-Carlo tree search over it.

The interface (what a game's plug-in in ``solvers/kernels/`` supplies)
-----------------------------------------------------------------------
A plug-in is a :class:`PlayoutRules`: four compiled functions over a *state*, a numpy
``uint64`` array of :attr:`PlayoutRules.words` words (bitboards and a side to move, laid out as
the game likes), and ``tables``, whatever read-only data the functions need (a tuple of
numpy arrays; a scratch array in it is allowed, the search is single-threaded):

* ``generate(state, tables, out) -> int``: writes the legal move codes (int64, at most
  :attr:`PlayoutRules.max_moves`) into ``out`` and returns how many; 0 exactly when the game
  is over (a game with a pass lists it while the game goes on; a game won by a pattern
  returns 0 once it is there, whatever moves the board would allow);
* ``final(state, tables) -> int``: the result of a finished position for the player to move
  (1 win, 0 draw, -1 loss), asked only where ``generate`` gave 0;
* ``play(state, code, tables, child)``: writes the state after the move into ``child``;
* ``mover(state, tables) -> int``: the player to move (0 or 1; players need not alternate).

The Python side of a plug-in converts between the game's positions and moves and the compiled
ones (``encode``, ``decode``, ``code_of``, ``move_of``), and gives ``max_plies``, the length
after which a playout is scored a draw (games whose positions can repeat never end by
themselves). Tests check every plug-in move for move against the readable rules
(tests/test_playout.py). The search knows nothing else about a game: it is :func:`mcts`
below, written once and compiled per game (numba specialises a function for each compiled
function passed to it). Issue 24's engine can grow from the same four functions: an exact
search needs in addition only a key of the state for its table.

A game without a plug-in plays through :func:`protocol_rules`: the same four functions in
plain Python over the readable game (a state is the index of a position in a list), run by
the uncompiled :func:`mcts` (``mcts.py_func``). Slow, but the same search.

The search
----------
UCT with the MCTS-Solver rule (Winands, Björnsson and Saito 2008): a child whose game is over
is proven; a node is proven won when one child is proven lost for its mover, proven when all
its children are proven (then its value is the best of them), and proven children are never
chosen for their proven loss. A proven root stops the search early. Children are added one
per iteration (a node's moves are regenerated when it grows, starting at a random offset so
that no move order is favoured); every node stores its state, so no position is replayed.
Playouts choose uniformly among the legal moves. Rewards are 1, 1/2, 0 for the player who
made the move into a node.

Determinism: the random numbers are xorshift64* from ``seed``, so the same seed and budget
give the same tree and the same move.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
from numba import njit

from cgt.protocol import Game, Outcome

#: ``proven`` of a node whose value is not known.
UNPROVEN = 2
#: Exploration constant of UCT (rewards in 0..1).
EXPLORATION = 1.0
#: Playout length after which an unfinished game is scored a draw, unless the plug-in says.
DEFAULT_MAX_PLIES = 1000


@dataclass
class PlayoutRules:
    """A game's compiled playout interface (see the module docstring)."""

    game: Game[Any, Any]
    words: int
    max_moves: int
    tables: Any
    final: Callable[..., int]
    generate: Callable[..., int]
    play: Callable[..., None]
    mover: Callable[..., int]
    encode: Callable[[Any], np.ndarray]
    decode: Callable[[np.ndarray], Any]
    code_of: Callable[[Any, Any], int]
    move_of: Callable[[Any, int], Any]
    max_plies: int = DEFAULT_MAX_PLIES
    #: False for :func:`protocol_rules` (run the search uncompiled)
    compiled: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
    # The engine's optional hooks (docs/engine.md; None: solvers.engine_defaults)
    #: ``key(state, tables) -> (word 0, word 1, tag < 32, symmetry)``: the table key
    key: Callable[..., Any] | None = None
    #: ``child_key(state, code, tables, scratch)``: the key of a child, without playing it
    child_key: Callable[..., Any] | None = None
    #: ``order(state, tables, moves, start, count, keys) -> int``: ordering hints, and the
    #: index of a move that wins at once or -1
    order: Callable[..., int] | None = None
    #: a move code into the frame of a key of symmetry ``s``, and back
    move_to_key: Callable[..., int] | None = None
    move_from_key: Callable[..., int] | None = None
    #: ``final_remoteness(state, tables) -> int``: plies from a position ``generate`` ends to
    #: the end of its game (0: it is the end; more where a table answers for the position)
    final_remoteness: Callable[..., int] | None = None
    #: move codes are below this (history counts); 0: ``max_moves``
    move_codes: int = 0
    #: True when every move hands the turn to the other player
    alternating: bool = False
    #: the first words of a state that name the position (the rest kept for speed, such as
    #: counts updated move by move); 0: every word
    identity_words: int = 0
    #: False when the functions need no numba reference counting (no slicing, no allocation):
    #: the engine then runs without it, faster
    nrt: bool = True

    def hooks(self) -> dict[str, Any]:
        """The compiled functions the engine is specialised for, by hook name."""
        names = ("generate", "final", "play", "mover", "key", "child_key", "order")
        more = ("move_to_key", "move_from_key", "final_remoteness")
        hooks = {name: getattr(self, name) for name in (*names, *more)}
        return {**hooks, "nrt": self.nrt}


# ----------------------------------------------------------------------- random numbers
_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)


@njit(inline="always")
def _next(rng: np.ndarray) -> np.uint64:
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * _MULTIPLIER


@njit(inline="always")
def _below(rng: np.ndarray, n: int) -> int:
    """A random integer in 0..n-1."""
    return int((_next(rng) >> np.uint64(11)) % np.uint64(n))


def seed_state(seed: int) -> np.ndarray:
    """The generator's state for ``seed`` (never zero: xorshift would stay at zero)."""
    mixed = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 64)
    return np.array([mixed or 1], dtype=np.uint64)


# ----------------------------------------------------------------------------- search
def mcts(
    root: np.ndarray,
    tables: Any,
    final: Any,
    generate: Any,
    play: Any,
    mover: Any,
    playouts: int,
    max_moves: int,
    max_plies: int,
    rng: np.ndarray,
) -> tuple[int, int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """MCTS-Solver from ``root`` for ``playouts`` iterations (fewer if the root is proven).

    Returns (the root's proven value for its mover or UNPROVEN, iterations run, and per root
    child: move code, visits, summed reward for the root's mover, proven value for the
    root's mover or UNPROVEN).
    """
    words = root.shape[0]
    capacity = playouts + 2
    states = np.zeros((capacity, words), dtype=np.uint64)
    parent = np.full(capacity, -1, dtype=np.int64)
    first_child = np.full(capacity, -1, dtype=np.int64)
    next_sibling = np.full(capacity, -1, dtype=np.int64)
    move = np.zeros(capacity, dtype=np.int64)
    node_mover = np.zeros(capacity, dtype=np.int64)
    moves_count = np.zeros(capacity, dtype=np.int64)
    grown = np.zeros(capacity, dtype=np.int64)
    offset = np.zeros(capacity, dtype=np.int64)
    visits = np.zeros(capacity, dtype=np.float64)
    reward = np.zeros(capacity, dtype=np.float64)
    proven = np.full(capacity, UNPROVEN, dtype=np.int64)
    buffer = np.zeros(max_moves, dtype=np.int64)
    scratch = np.zeros(words, dtype=np.uint64)
    scratch_child = np.zeros(words, dtype=np.uint64)

    states[0, :] = root
    node_mover[0] = mover(root, tables)
    moves_count[0] = generate(root, tables, buffer)
    if moves_count[0] == 0:
        proven[0] = final(root, tables)
    else:
        offset[0] = _below(rng, moves_count[0])
    nodes = 1
    iterations = 0
    while iterations < playouts and proven[0] == UNPROVEN:
        iterations += 1
        # selection: down through fully grown, unproven nodes
        node = 0
        while proven[node] == UNPROVEN and grown[node] == moves_count[node]:
            log_n = math.log(visits[node] + 1.0)
            best = -1
            best_score = -1.0
            child = first_child[node]
            while child >= 0:
                p = proven[child]
                if p != UNPROVEN:
                    value = p if node_mover[child] == node_mover[node] else -p
                    if value < 0:
                        child = next_sibling[child]
                        continue  # a proven loss for the mover is never chosen
                if visits[child] == 0.0:
                    score = 1e9
                else:
                    score = reward[child] / visits[child] + EXPLORATION * math.sqrt(
                        log_n / visits[child]
                    )
                if score > best_score:
                    best_score = score
                    best = child
                child = next_sibling[child]
            node = best
        if proven[node] == UNPROVEN:
            # expansion: the next move of this node, in the order from its random offset
            count = generate(states[node], tables, buffer)
            code = buffer[(offset[node] + grown[node]) % count]
            grown[node] += 1
            child = nodes
            nodes += 1
            play(states[node], code, tables, states[child])
            parent[child] = node
            move[child] = code
            next_sibling[child] = first_child[node]
            first_child[node] = child
            node_mover[child] = mover(states[child], tables)
            moves_count[child] = generate(states[child], tables, buffer)
            if moves_count[child] == 0:
                proven[child] = final(states[child], tables)
            else:
                offset[child] = _below(rng, moves_count[child])
            node = child
        # simulation: the value for the mover of ``node``
        if proven[node] != UNPROVEN:
            value = proven[node]
        else:
            scratch[:] = states[node]
            side = node_mover[node]
            value = 0
            for _ in range(max_plies):
                count = generate(scratch, tables, buffer)
                if count == 0:
                    outcome = final(scratch, tables)
                    value = outcome if mover(scratch, tables) == side else -outcome
                    break
                play(scratch, buffer[_below(rng, count)], tables, scratch_child)
                scratch[:] = scratch_child
        # backpropagation; every node is rewarded for the player who moved into it
        side = node_mover[node]
        walk = node
        while walk >= 0:
            visits[walk] += 1.0
            up = parent[walk]
            if up >= 0:
                actor_value = value if node_mover[up] == side else -value
                reward[walk] += 0.5 * (actor_value + 1)
            walk = up
        # the solver: prove ancestors while their children allow it
        walk = parent[node]
        if proven[node] == UNPROVEN:
            walk = -1
        while walk >= 0:
            m = node_mover[walk]
            best_value = -2
            open_child = False
            won = False
            child = first_child[walk]
            while child >= 0:
                p = proven[child]
                if p == UNPROVEN:
                    open_child = True
                else:
                    v = p if node_mover[child] == m else -p
                    if v == 1:
                        won = True
                        break
                    if v > best_value:
                        best_value = v
                child = next_sibling[child]
            if won:
                proven[walk] = 1
            elif not open_child and grown[walk] == moves_count[walk]:
                proven[walk] = best_value
            else:
                break
            walk = parent[walk]

    children = grown[0]
    codes = np.zeros(children, dtype=np.int64)
    child_visits = np.zeros(children, dtype=np.float64)
    child_reward = np.zeros(children, dtype=np.float64)
    child_proven = np.full(children, UNPROVEN, dtype=np.int64)
    child = first_child[0]
    k = children - 1
    while child >= 0:  # siblings are linked newest first: fill from the end
        codes[k] = move[child]
        child_visits[k] = visits[child]
        child_reward[k] = reward[child]
        if proven[child] != UNPROVEN:
            p = proven[child]
            child_proven[k] = p if node_mover[child] == node_mover[0] else -p
        child = next_sibling[child]
        k -= 1
    return proven[0], iterations, codes, child_visits, child_reward, child_proven


#: The search compiled for one game at a time (numba specialises it on the functions
#: passed in; a function taking functions cannot use numba's disk cache).
mcts_compiled = njit(mcts)


@dataclass(frozen=True)
class SearchTree:
    """What one search found at the root (rewards and values for the root's mover)."""

    proven: Outcome | None
    iterations: int
    codes: tuple[int, ...]
    visits: tuple[int, ...]
    rewards: tuple[float, ...]
    child_proven: tuple[Outcome | None, ...]


def run_search(rules: PlayoutRules, root: np.ndarray, playouts: int, seed: int) -> SearchTree:
    """One search of ``playouts`` iterations from the encoded ``root``."""
    search = mcts_compiled if rules.compiled else mcts
    value, iterations, codes, visits, rewards, child_proven = search(
        root,
        rules.tables,
        rules.final,
        rules.generate,
        rules.play,
        rules.mover,
        playouts,
        rules.max_moves,
        rules.max_plies,
        seed_state(seed),
    )

    def outcome(v: int) -> Outcome | None:
        return None if v == UNPROVEN else Outcome(int(v))

    return SearchTree(
        proven=outcome(int(value)),
        iterations=int(iterations),
        codes=tuple(int(c) for c in codes),
        visits=tuple(int(v) for v in visits),
        rewards=tuple(float(r) for r in rewards),
        child_proven=tuple(outcome(int(p)) for p in child_proven),
    )


def random_playouts(
    root: np.ndarray,
    tables: Any,
    final: Any,
    generate: Any,
    play: Any,
    max_moves: int,
    max_plies: int,
    rng: np.ndarray,
    count: int,
) -> int:
    """Total plies of ``count`` random playouts from ``root`` (the benchmark's workload)."""
    total = 0
    buffer = np.zeros(max_moves, dtype=np.int64)
    state = np.zeros(root.shape[0], dtype=np.uint64)
    child = np.zeros(root.shape[0], dtype=np.uint64)
    for _ in range(count):
        state[:] = root
        for _ in range(max_plies):
            n = generate(state, tables, buffer)
            if n == 0:
                break
            play(state, buffer[_below(rng, n)], tables, child)
            state[:] = child
            total += 1
    return total


random_playouts_compiled = njit(random_playouts)


# ------------------------------------------------------------- the readable fallback
class ProtocolTables:
    """The positions a protocol-level search has met; a state is an index into them."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.positions: list[Any] = []
        self.index: dict[Any, int] = {}
        self.moves: dict[int, list[Any]] = {}

    def add(self, position: Any) -> int:
        found = self.index.get(position)
        if found is None:
            found = len(self.positions)
            self.positions.append(position)
            self.index[position] = found
        return found

    def legal(self, index: int) -> list[Any]:
        moves = self.moves.get(index)
        if moves is None:
            moves = list(self.game.moves(self.positions[index]))
            self.moves[index] = moves
        return moves


def _protocol_final(state: np.ndarray, tables: ProtocolTables) -> int:
    return int(tables.game.result(tables.positions[int(state[0])]))  # type: ignore[arg-type]


def _protocol_generate(state: np.ndarray, tables: ProtocolTables, out: np.ndarray) -> int:
    if tables.game.result(tables.positions[int(state[0])]) is not None:
        return 0
    moves = tables.legal(int(state[0]))
    out[: len(moves)] = np.arange(len(moves))
    return len(moves)


def _protocol_play(state: np.ndarray, code: int, tables: ProtocolTables, child: np.ndarray) -> None:
    index = int(state[0])
    position = tables.positions[index]
    child[0] = tables.add(tables.game.play(position, tables.legal(index)[int(code)]))


def _protocol_mover(state: np.ndarray, tables: ProtocolTables) -> int:
    return int(tables.game.to_move(tables.positions[int(state[0])]))


#: Moves a protocol position may have at most (the move buffer of the fallback search).
PROTOCOL_MAX_MOVES = 4096


def protocol_rules(game: Game[Any, Any]) -> PlayoutRules:
    """The playout interface over the readable rules (any game of the protocol)."""
    tables = ProtocolTables(game)

    def encode(position: Any) -> np.ndarray:
        return np.array([tables.add(position)], dtype=np.uint64)

    def decode(state: np.ndarray) -> Any:
        return tables.positions[int(state[0])]

    def code_of(position: Any, game_move: Any) -> int:
        return tables.legal(tables.add(position)).index(game_move)

    def move_of(position: Any, code: int) -> Any:
        return tables.legal(tables.add(position))[code]

    return PlayoutRules(
        game=game,
        words=1,
        max_moves=PROTOCOL_MAX_MOVES,
        tables=tables,
        final=_protocol_final,
        generate=_protocol_generate,
        play=_protocol_play,
        mover=_protocol_mover,
        encode=encode,
        decode=decode,
        code_of=code_of,
        move_of=move_of,
        max_plies=DEFAULT_MAX_PLIES if game.acyclic else 200,
        compiled=False,
    )


# ------------------------------------------------------------- helpers for plug-ins
def plug_in(module: ModuleType, game: Game[Any, Any], **fields: Any) -> PlayoutRules:
    """The :class:`PlayoutRules` of a kernel module that defines the four compiled functions
    as ``playout_final``, ``playout_generate``, ``playout_play`` and ``playout_mover`` (and
    the engine's optional hooks as ``playout_key``, ``playout_order``, ...); the other fields
    by keyword."""
    hooks = {
        name: getattr(module, f"playout_{name}")
        for name in (
            "key",
            "child_key",
            "order",
            "move_to_key",
            "move_from_key",
            "final_remoteness",
        )
        if hasattr(module, f"playout_{name}")
    }
    return PlayoutRules(
        game=game,
        final=module.playout_final,
        generate=module.playout_generate,
        play=module.playout_play,
        mover=module.playout_mover,
        **hooks,
        **fields,
    )


def mask_words(mask: int, count: int) -> list[int]:
    """A Python bitboard as ``count`` uint64 words, lowest first."""
    return [(mask >> (64 * k)) & 0xFFFFFFFFFFFFFFFF for k in range(count)]


def int_words(state: np.ndarray) -> tuple[int, ...]:
    """A state as a tuple of Python ints (the position of games whose state is their
    position's fields in order)."""
    return tuple(int(w) for w in state)


def words_mask(words: np.ndarray) -> int:
    """The Python bitboard of uint64 words, lowest first."""
    return sum(int(w) << (64 * k) for k, w in enumerate(words))


def disagreements(rules: PlayoutRules, walks: int, plies: int, seed: int = 0) -> list[str]:
    """Where the plug-in and the readable rules differ, over ``walks`` random games of up to
    ``plies`` plies from the initial position: the end and its outcome, the player to move,
    the legal moves in order, and the position after each move played. Empty if none."""
    import random

    game = rules.game
    chooser = random.Random(seed)
    buffer = np.zeros(rules.max_moves, dtype=np.int64)
    child = np.zeros(rules.words, dtype=np.uint64)
    found: list[str] = []
    for walk in range(walks):
        position = game.initial_position()
        for ply in range(plies):
            where = f"walk {walk} ply {ply} {game.render(position)!r}"
            state = rules.encode(position)
            if rules.mover(state, rules.tables) != game.to_move(position):
                found.append(f"{where}: player to move")
            expected = game.result(position)
            count = int(rules.generate(state, rules.tables, buffer))
            if (count == 0) != (expected is not None):
                found.append(f"{where}: {count} moves where the game's result is {expected}")
                break
            if expected is not None:
                final = int(rules.final(state, rules.tables))
                if final != int(expected):
                    found.append(f"{where}: result {final} against {expected}")
                break
            codes = [int(c) for c in buffer[:count]]
            moves = list(game.moves(position))
            if [rules.move_of(position, c) for c in codes] != moves:
                found.append(f"{where}: moves differ")
                break
            k = chooser.randrange(count)
            if rules.code_of(position, moves[k]) != codes[k]:
                found.append(f"{where}: code of {moves[k]!r}")
            rules.play(state, codes[k], rules.tables, child)
            position = game.play(position, moves[k])
            if not np.array_equal(child, rules.encode(position)):
                found.append(f"{where}: position after {moves[k]!r}")
                break
    return found
