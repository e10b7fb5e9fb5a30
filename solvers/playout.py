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
(tests/test_playout.py). The search knows nothing else about a game: it is ``mcts`` in
:mod:`solvers.engine_mcts`, written once and compiled per plug-in like the engine's exact
search (:func:`compiled_search`, cached on disk), which runs on the same functions plus the
optional hooks of docs/engine.md.

A game without a plug-in plays through :func:`protocol_rules`: the same four functions in
plain Python over the readable game (a state is the index of a position in a list), run by
the same search in plain Python. Slow, but the same search.

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

from collections.abc import Callable
from dataclasses import dataclass, field
from types import FunctionType, ModuleType
from typing import Any

import numpy as np

from cgt.protocol import Game, Outcome
from solvers.engine_build import specialise
from solvers.engine_mcts import UNPROVEN

#: The template of the Monte-Carlo search (compiled per plug-in).
MCTS_TEMPLATE = "solvers.engine_mcts"
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


def seed_state(seed: int) -> np.ndarray:
    """The generator's state for ``seed`` (never zero: xorshift would stay at zero)."""
    mixed = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 64)
    return np.array([mixed or 1], dtype=np.uint64)


@dataclass(frozen=True)
class SearchTree:
    """What one search found at the root (rewards and values for the root's mover)."""

    proven: Outcome | None
    iterations: int
    codes: tuple[int, ...]
    visits: tuple[int, ...]
    rewards: tuple[float, ...]
    child_proven: tuple[Outcome | None, ...]


def compiled_search(rules: PlayoutRules) -> ModuleType:
    """The Monte-Carlo search (:mod:`solvers.engine_mcts`) compiled for ``rules``: its
    ``mcts`` and ``random_playouts``, with the plug-in bound (cached on disk)."""
    return specialise(MCTS_TEMPLATE, rules.hooks())


def _python_search(rules: PlayoutRules) -> Callable[..., Any]:
    """The same search in plain Python with ``rules``' functions bound (a game without a
    compiled plug-in: :func:`protocol_rules`)."""
    import solvers.engine_mcts as template

    bound = {
        **vars(template),
        "generate": rules.generate,
        "final": rules.final,
        "play": rules.play,
        "mover": rules.mover,
    }
    return FunctionType(template.mcts.py_func.__code__, bound)


def run_search(rules: PlayoutRules, root: np.ndarray, playouts: int, seed: int) -> SearchTree:
    """One search of ``playouts`` iterations from the encoded ``root``."""
    search = compiled_search(rules).mcts if rules.compiled else _python_search(rules)
    value, iterations, codes, visits, rewards, child_proven = search(
        root, rules.tables, playouts, rules.max_moves, rules.max_plies, seed_state(seed)
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
            named = rules.identity_words or rules.words  # the rest is derived, checked by use
            if not np.array_equal(child[:named], rules.encode(position)[:named]):
                found.append(f"{where}: position after {moves[k]!r}")
                break
    return found


def engine_disagreements(rules: PlayoutRules, walks: int, plies: int, seed: int = 0) -> list[str]:
    """Where the plug-in's engine hooks (docs/engine.md) are wrong, over ``walks`` random
    games of up to ``plies`` plies, checked against the readable rules:

    * ``child_key`` of every move equals ``key`` of the position after it;
    * no two positions share a key unless the game's own symmetries map one to the other
      (:meth:`~cgt.protocol.Game.canonical_key`), and the tag is below 32;
    * a position's stored move comes back right from the key's frame in every symmetric
      image with the same key: ``move_from_key(move_to_key(m, s), s')`` is the image of
      ``m`` (:meth:`~cgt.protocol.Game.transform_move`);
    * a move ``order`` says wins at once leads to a finished position lost by its mover;
    * ``alternating`` holds where the plug-in declares it.

    Empty if none. Every check (with :func:`disagreements` for the rules themselves) runs on
    any plug-in, so a game added with a plug-in gets them for free."""
    import random

    import solvers.engine_defaults as defaults

    game = rules.game
    key = rules.key or defaults.key
    child_key = rules.child_key
    order = rules.order or defaults.order
    to_key = rules.move_to_key or defaults.move_to_key
    from_key = rules.move_from_key or defaults.move_from_key
    chooser = random.Random(seed)
    buffer = np.zeros(rules.max_moves, dtype=np.int64)
    keys_out = np.zeros(rules.max_moves, dtype=np.int64)
    child = np.zeros(rules.words, dtype=np.uint64)
    scratch = np.zeros(rules.words, dtype=np.uint64)
    owner: dict[tuple[int, int, int], Any] = {}
    found: list[str] = []

    def key_of(state: np.ndarray) -> tuple[tuple[int, int, int], int]:
        k0, k1, tag, symmetry = key(state, rules.tables)
        return (int(k0), int(k1), int(tag)), int(symmetry)

    for walk in range(walks):
        position = game.initial_position()
        for ply in range(plies):
            where = f"walk {walk} ply {ply} {game.render(position)!r}"
            state = rules.encode(position)
            the_key, symmetry = key_of(state)
            if not 0 <= the_key[2] < 32:
                found.append(f"{where}: tag {the_key[2]} outside 0..31")
            canonical = game.canonical_key(position)
            if owner.setdefault(the_key, canonical) != canonical:
                found.append(f"{where}: shares its key with a position it is not symmetric to")
            count = int(rules.generate(state, rules.tables, buffer))
            if count == 0:
                break
            codes = [int(c) for c in buffer[:count]]
            moves = list(game.moves(position))
            for code in codes:
                rules.play(state, code, rules.tables, child)
                if rules.alternating and rules.mover(child, rules.tables) == rules.mover(
                    state, rules.tables
                ):
                    found.append(f"{where}: declared alternating, the mover moves again")
                if child_key is not None:
                    k0, k1, tag, _ = child_key(state, code, rules.tables, scratch)
                    if (int(k0), int(k1), int(tag)) != key_of(child)[0]:
                        found.append(f"{where}: child_key of move {code} is not its key")
            winner = int(order(state, rules.tables, buffer, 0, count, keys_out))
            if winner >= 0:
                rules.play(state, codes[winner], rules.tables, child)
                ended = int(rules.generate(child, rules.tables, keys_out)) == 0
                if not ended or int(rules.final(child, rules.tables)) != -1:
                    found.append(f"{where}: order's winning move {codes[winner]} does not win")
            k = chooser.randrange(count)
            stored = int(to_key(codes[k], symmetry, rules.tables))
            images = [game.transform(position, image) for image in range(game.symmetry_count)]
            for image, other in enumerate(images):
                other_key, other_symmetry = key_of(rules.encode(other))
                if other_key != the_key:
                    continue  # the plug-in keys this position without symmetry
                # the move's images by every symmetry taking the position to this image
                # (several when the position is symmetric itself: any of them is right)
                expected = {
                    rules.code_of(other, game.transform_move(position, moves[k], s))
                    for s, same in enumerate(images)
                    if game.key(same) == game.key(other)
                }
                if int(from_key(stored, other_symmetry, rules.tables)) not in expected:
                    found.append(f"{where}: stored move {codes[k]} wrong in image {image}")
            position = game.play(position, moves[k])
    return found
