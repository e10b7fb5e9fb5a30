"""Small games whose values can be worked out by hand, to test the solvers.

Each one exercises something the real games may not: cycles (draws and escapes), the same
player moving twice in a row, terminal draws, symmetry, and arbitrary graphs drawn at random.
They are not registered: tests build them directly.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from cgt.protocol import Game, Outcome, Param


class GraphGame(Game[Hashable, str]):
    """A game given as an explicit directed graph.

    ``edges[node]`` lists ``(move name, target node)``; ``to_move[node]`` is 0 or 1 (missing:
    0); ``results[node]`` makes a node terminal with that outcome for its player to move.
    A node without edges or result is lost for the player to move (normal play).
    """

    name = "toy-graph"
    normal_play = False  # explicit results may make a finished node a win or a draw
    acyclic = False  # the graph may have cycles

    def __init__(
        self,
        edges: dict[Hashable, list[tuple[str, Hashable]]],
        root: Hashable,
        to_move: dict[Hashable, int] | None = None,
        results: dict[Hashable, Outcome] | None = None,
        label: str = "graph",
    ) -> None:
        super().__init__()
        self.edges = edges
        self.root = root
        self.players_to_move = to_move or {}
        self.results = results or {}
        self.parameters = {"graph": label}

    def initial_position(self) -> Hashable:
        return self.root

    def to_move(self, position: Hashable) -> int:
        return self.players_to_move.get(position, 0)

    def moves(self, position: Hashable) -> Sequence[str]:
        return [name for name, _ in self.edges.get(position, [])]

    def play(self, position: Hashable, move: str) -> Hashable:
        return dict(self.edges[position])[move]

    def result(self, position: Hashable) -> Outcome | None:
        if position in self.results:
            return self.results[position]
        return None if self.edges.get(position) else Outcome.LOSS

    def nodes(self) -> list[Hashable]:
        """Every node named in the graph."""
        found = set(self.edges) | set(self.players_to_move) | set(self.results)
        for targets in self.edges.values():
            found.update(target for _, target in targets)
        return sorted(found, key=str)


def two_cycle_draw() -> GraphGame:
    """A (player 0) and B (player 1) can pass the turn back and forth forever, or resign.

    Resigning loses at once, so neither resigns: A and B are DRAWs; the resign moves are
    LOSSes in 1 for the mover.
    """
    return GraphGame(
        edges={
            "A": [("on", "B"), ("resign", "A-resigned")],
            "B": [("on", "A"), ("resign", "B-resigned")],
        },
        root="A",
        to_move={"A": 0, "B": 1, "A-resigned": 1, "B-resigned": 0},
        results={"A-resigned": Outcome.WIN, "B-resigned": Outcome.WIN},
        label="two-cycle-draw",
    )


def escapable_cycle() -> GraphGame:
    """A (player 0) <-> B (player 1); A may also escape to E, which B (to move) has lost.

    A: WIN in 1 (escape). B: its moves are "on" to A, a LOSS in 1 + 1 = 2 for B, and
    "resign", a LOSS in 1; the loser delays: B is a LOSS in 2 with best move "on".
    """
    return GraphGame(
        edges={"A": [("on", "B"), ("escape", "E")], "B": [("on", "A"), ("resign", "B-resigned")]},
        root="B",
        to_move={"A": 0, "B": 1, "E": 1, "B-resigned": 0},
        results={"E": Outcome.LOSS, "B-resigned": Outcome.WIN},
        label="escapable-cycle",
    )


def three_cycle_with_exits() -> GraphGame:
    """A (0) -> B (1) -> C (0) -> A; C can win at once (W: player 1 to move, lost);
    B can leave to a terminal draw D.

    C: WIN in 1. B: "on" to C is a LOSS in 2 for B, "drawn" is a DRAW: B is a DRAW.
    A: its only move leads to B, a draw: A is a DRAW.
    """
    return GraphGame(
        edges={
            "A": [("on", "B")],
            "B": [("on", "C"), ("drawn", "D")],
            "C": [("on", "A"), ("win", "W")],
        },
        root="A",
        to_move={"A": 0, "B": 1, "C": 0, "D": 0, "W": 1},
        results={"D": Outcome.DRAW, "W": Outcome.LOSS},
        label="three-cycle",
    )


def self_loop(root: str = "X") -> GraphGame:
    """X (player 0) may "wait" (back to X, same player) forever or "give-up": a DRAW.

    Y (player 0) may "wait" to Y or "move" to Z (player 0 again, same player), where "win"
    reaches a terminal lost by player 1. Y: WIN in 2 (move, win); Z: WIN in 1.
    """
    return GraphGame(
        edges={
            "X": [("wait", "X"), ("give-up", "X-lost")],
            "Y": [("wait", "Y"), ("move", "Z")],
            "Z": [("win", "Z-won")],
        },
        root=root,
        to_move={"X": 0, "X-lost": 0, "Y": 0, "Z": 0, "Z-won": 1},
        results={"X-lost": Outcome.LOSS, "Z-won": Outcome.LOSS},
        label=f"self-loop-{root}",
    )


def same_player_chain() -> GraphGame:
    """Player 0 moves three times in a row: S -> T -> U -> V, V a terminal LOSS for player 1.

    U: WIN in 1; T: WIN in 2 (the child U is a WIN for the same player, not negated);
    S: WIN in 3. S also has "bad" to L, a terminal WIN for player 1 to move: a LOSS in 1.
    """
    return GraphGame(
        edges={"S": [("bad", "L"), ("go", "T")], "T": [("go", "U")], "U": [("go", "V")]},
        root="S",
        to_move={"S": 0, "T": 0, "U": 0, "V": 1, "L": 1},
        results={"V": Outcome.LOSS, "L": Outcome.WIN},
        label="same-player-chain",
    )


HAND_GRAPHS: dict[str, tuple[GraphGame, dict[Hashable, tuple[Outcome, int | None]]]] = {}
"""Graph games with every node's value worked out by hand (see each builder's docstring)."""


def _hand(game: GraphGame, values: dict[Hashable, tuple[Outcome, int | None]]) -> None:
    HAND_GRAPHS[str(game.parameters["graph"])] = (game, values)


W, L, D = Outcome.WIN, Outcome.LOSS, Outcome.DRAW
_hand(two_cycle_draw(), {"A": (D, None), "B": (D, None)})
_hand(escapable_cycle(), {"A": (W, 1), "B": (L, 2), "E": (L, 0)})
_hand(three_cycle_with_exits(), {"A": (D, None), "B": (D, None), "C": (W, 1), "D": (D, None)})
_hand(self_loop("X"), {"X": (D, None)})
_hand(self_loop("Y"), {"Y": (W, 2), "Z": (W, 1), "Z-won": (L, 0)})
_hand(same_player_chain(), {"S": (W, 3), "T": (W, 2), "U": (W, 1), "V": (L, 0)})


class Subtraction(Game[tuple[int, int], int]):
    """Take 1, 2 or 3 tokens from a heap; whoever cannot move loses.

    A position is ``(heap, player to move)``: solvers compare ``to_move`` of a position and
    its child, so even an impartial game must say whose turn it is.
    By hand: a heap of 4k is lost (the opponent answers t with 4 - t), any other is won by
    taking n mod 4. Remoteness: from 4k the loser takes 1 each time to delay and the winner
    answers 3, 2 plies per 4 tokens, so 2k; from 4k + j (j = 1..3) one more ply: 2k + 1.
    """

    name = "toy-subtraction"
    params = (Param("heap", int, 10, minimum=0),)
    heap: int

    def initial_position(self) -> tuple[int, int]:
        return (self.heap, 0)

    def to_move(self, position: tuple[int, int]) -> int:
        return position[1]

    def moves(self, position: tuple[int, int]) -> Sequence[int]:
        return [t for t in (1, 2, 3) if t <= position[0]]

    def play(self, position: tuple[int, int], move: int) -> tuple[int, int]:
        return (position[0] - move, 1 - position[1])

    @staticmethod
    def expected(heap: int) -> tuple[Outcome, int]:
        """The hand-derived value above."""
        if heap % 4 == 0:
            return Outcome.LOSS, 2 * (heap // 4)
        return Outcome.WIN, 2 * (heap // 4) + 1


class DoubleTake(Game[tuple[int, int], int]):
    """Take 1 or 2 tokens; after taking 2 the SAME player moves again; no move: you lose.

    So taking the last two leaves you to move on an empty heap: you lose. By hand, f(n) for
    the player to move: f(0) = LOSS; f(1) = WIN (take 1); f(2) = LOSS (take 1: opponent at 1
    wins; take 2: you at 0 lose); in general "take 1" gives the opponent n - 1 and "take 2"
    gives yourself n - 2, so f(n) = WIN iff f(n - 1) = LOSS or f(n - 2) = WIN: odd heaps win,
    even heaps lose. Remoteness r(n) = 1 + min (winner) / max (loser) of r(n-1), r(n-2) over
    the moves keeping the value: r(0) = 0, r(1) = 1, r(2) = 2, r(3) = 2, r(4) = 3, ...
    that is r(n) = n // 2 + 1 for n >= 1.
    """

    name = "toy-double-take"
    params = (Param("heap", int, 9, minimum=0),)
    players: ClassVar[tuple[str, str]] = ("First", "Second")
    heap: int

    def initial_position(self) -> tuple[int, int]:
        return (self.heap, 0)

    def to_move(self, position: tuple[int, int]) -> int:
        return position[1]

    def moves(self, position: tuple[int, int]) -> Sequence[int]:
        return [t for t in (1, 2) if t <= position[0]]

    def play(self, position: tuple[int, int], move: int) -> tuple[int, int]:
        heap, player = position
        return (heap - move, player if move == 2 else 1 - player)

    @staticmethod
    def expected(heap: int) -> tuple[Outcome, int]:
        if heap % 2 == 0:
            return Outcome.LOSS, 0 if heap == 0 else heap // 2 + 1
        return Outcome.WIN, heap // 2 + 1


class TiedFinish(Game[tuple[int, int, int], int]):
    """Take 1 or 2 tokens; emptying the heap with a 1 wins, with a 2 is a DRAW (terminal tie).

    By hand: heap 1: WIN in 1. Heap 2: taking 1 leaves the opponent heap 1 (they win), taking
    2 draws: DRAW. Heap 3: taking 1 leaves heap 2 (draw), taking 2 leaves heap 1 (opponent
    wins): DRAW. Heap n >= 4: both moves leave a draw: DRAW. Heap 0 with last take 2: DRAW.
    """

    name = "toy-tied-finish"
    normal_play = False  # emptying the heap with a 2 is a draw
    params = (Param("heap", int, 6, minimum=0),)
    heap: int

    def initial_position(self) -> tuple[int, int, int]:
        return (self.heap, 0, 0)  # heap, last take, player to move

    def to_move(self, position: tuple[int, int, int]) -> int:
        return position[2]

    def moves(self, position: tuple[int, int, int]) -> Sequence[int]:
        return [t for t in (1, 2) if t <= position[0]]

    def play(self, position: tuple[int, int, int], move: int) -> tuple[int, int, int]:
        return (position[0] - move, move, 1 - position[2])

    def result(self, position: tuple[int, int, int]) -> Outcome | None:
        heap, last, _ = position
        if heap > 0:
            return None
        return Outcome.DRAW if last == 2 else Outcome.LOSS

    @staticmethod
    def expected(heap: int) -> tuple[Outcome, int | None]:
        return (Outcome.WIN, 1) if heap == 1 else (Outcome.DRAW, None)


class TwoHeapNim(Game[tuple[int, int, int], tuple[int, int]]):
    """Nim with two heaps; swapping the heaps is a symmetry (``symmetry_count = 2``).

    A position is ``(heap a, heap b, player to move)``.
    By hand: equal heaps (a, a) lose; the loser delays by taking one token, the winner copies
    on the other heap, so remoteness 2a. Unequal heaps win by equalising (the only winning
    move), then 2 min(a, b) more: remoteness 2 min(a, b) + 1.
    """

    name = "toy-two-heap-nim"
    params = (Param("a", int, 3, minimum=0), Param("b", int, 4, minimum=0))
    a: int
    b: int

    def validate(self) -> None:
        self.symmetry_count = 2

    def initial_position(self) -> tuple[int, int, int]:
        return (self.a, self.b, 0)

    def to_move(self, position: tuple[int, int, int]) -> int:
        return position[2]

    def moves(self, position: tuple[int, int, int]) -> Sequence[tuple[int, int]]:
        return [(heap, take) for heap in (0, 1) for take in range(1, position[heap] + 1)]

    def play(self, position: tuple[int, int, int], move: tuple[int, int]) -> tuple[int, int, int]:
        heap, take = move
        heaps = [position[0], position[1]]
        heaps[heap] -= take
        return (heaps[0], heaps[1], 1 - position[2])

    def transform(self, position: tuple[int, int, int], symmetry: int) -> tuple[int, int, int]:
        return position if symmetry == 0 else (position[1], position[0], position[2])

    def move_name(self, position: tuple[int, int, int], move: tuple[int, int]) -> str:
        return f"{'ab'[move[0]]}{move[1]}"

    @staticmethod
    def expected(a: int, b: int) -> tuple[Outcome, int]:
        if a == b:
            return Outcome.LOSS, 2 * a
        return Outcome.WIN, 2 * min(a, b) + 1


def random_graph_game(seed: int, size: int = 12, max_degree: int = 3) -> GraphGame:
    """A random graph game on nodes 0..size-1: random players (so sometimes the same player
    moves twice), random edges (cycles and self-loops included), random terminal results."""
    rng = random.Random(seed)
    edges: dict[Hashable, list[tuple[str, Hashable]]] = {}
    results: dict[Hashable, Outcome] = {}
    to_move: dict[Hashable, int] = {node: rng.randrange(2) for node in range(size)}
    for node in range(size):
        if rng.random() < 0.25:
            results[node] = rng.choice([Outcome.WIN, Outcome.LOSS, Outcome.DRAW])
            continue
        targets = rng.sample(range(size), rng.randint(1, max_degree))
        edges[node] = [(f"to{target}", target) for target in targets]
    return GraphGame(edges, 0, to_move, results, label=f"random-{seed}")


def reachable(game: Game[Any, Any], root: Any = None) -> list[Any]:
    """Every position reachable from ``root`` (plain depth-first walk, no symmetry)."""
    start = game.initial_position() if root is None else root
    seen = {game.key(start): start}
    stack = [start]
    while stack:
        position = stack.pop()
        if game.result(position) is not None:
            continue
        for move in game.moves(position):
            child = game.play(position, move)
            if game.key(child) not in seen:
                seen[game.key(child)] = child
                stack.append(child)
    return list(seen.values())


def reference_values(
    game: Game[Any, Any], positions: list[Any]
) -> dict[Hashable, tuple[Outcome, int | None]]:
    """Values of a closed set of positions by the slowest obvious method.

    Round k decides, from a snapshot of the rounds before it, every undecided position that
    has a move to a position bad for the opponent (a WIN in k) or whose moves all lead to
    positions good for the opponent (a LOSS in k). Positions never decided are DRAWs. This is
    the definition of remoteness, written independently of the solvers' counters.
    """
    value: dict[Hashable, tuple[Outcome, int | None]] = {}
    undecided = []
    for position in positions:
        outcome = game.result(position)
        if outcome is None:
            undecided.append(position)
        else:
            value[game.key(position)] = (outcome, 0 if outcome != Outcome.DRAW else None)
    terminal_draws = {k for k, (o, _) in value.items() if o == Outcome.DRAW}
    level = 0
    while True:
        level += 1
        snapshot = dict(value)
        progress = False
        still = []
        for position in undecided:
            mover = game.to_move(position)
            seen_by_mover: list[Outcome | None] = []
            for move in game.moves(position):
                child = game.play(position, move)
                child_value = snapshot.get(game.key(child))
                if child_value is None or game.key(child) in terminal_draws:
                    seen_by_mover.append(None)
                    continue
                outcome = child_value[0]
                seen_by_mover.append(outcome if game.to_move(child) == mover else -outcome)
            if Outcome.WIN in seen_by_mover:
                value[game.key(position)] = (Outcome.WIN, level)
                progress = True
            elif all(v == Outcome.LOSS for v in seen_by_mover):
                value[game.key(position)] = (Outcome.LOSS, level)
                progress = True
            else:
                still.append(position)
        undecided = still
        if not progress:
            break
    for position in undecided:
        value[game.key(position)] = (Outcome.DRAW, None)
    return value
