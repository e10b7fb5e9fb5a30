"""The Monte-Carlo tree search, written once; :mod:`solvers.engine_build` compiles a copy per
game (cached on disk), as it does the exact search (:mod:`solvers.engine_search`).

The block between the ``plug-in`` markers binds the rules functions the search calls
(``generate``, ``final``, ``play``, ``mover``: docs/engine.md); here, unspecialised, stubs.
:func:`solvers.playout.run_search` runs a game's copy, or for a game without a compiled
plug-in this module's functions in plain Python over the readable rules
(:func:`solvers.playout.protocol_rules`). The search is described in :mod:`solvers.playout`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

# isort: split
# <plug-in>
from solvers.engine_defaults import key
from solvers.engine_defaults import unplugged_final as final
from solvers.engine_defaults import unplugged_generate as generate
from solvers.engine_defaults import unplugged_mover as mover
from solvers.engine_defaults import unplugged_play as play

NRT = True


@njit(cache=True, inline="always")
def child_key(state, code, tables, scratch):  # type: ignore[no-untyped-def]
    play(state, code, tables, scratch)
    return key(scratch, tables)


# </plug-in>

#: ``proven`` of a node whose value is not known.
UNPROVEN = 2
#: Exploration constant of UCT (rewards in 0..1).
EXPLORATION = 1.0


# ----------------------------------------------------------------------- random numbers
_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, inline="always")
def _next(rng: np.ndarray) -> np.uint64:
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * _MULTIPLIER


@njit(cache=True, inline="always")
def _below(rng: np.ndarray, n: int) -> int:
    """A random integer in 0..n-1."""
    return int((_next(rng) >> np.uint64(11)) % np.uint64(n))


# ----------------------------------------------------------------------------- search
@njit(cache=True)
def mcts(
    root: np.ndarray,
    tables: object,
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


@njit(cache=True)
def random_playouts(
    root: np.ndarray,
    tables: object,
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
