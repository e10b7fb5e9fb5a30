"""Claims of the LAG document (GAMES.md "LAG"): termination and the frequency of ideal goals.

``lag.termination`` rests on a potential that every legal move strictly increases, for every
board size (a proof), and confirms it by exhaustive search for cycles on small instances.
Lexicographically ordered, the potential is

    (pieces captured so far, total forward progress of all pieces, -(total objects))

where a piece's forward progress is the number of rows it stands from its owner's home edge.
A capture raises the first entry. A non-capturing forward move keeps the first and raises the
second by k >= 1 (nobody else's pieces move). A non-capturing sideways move keeps both and,
by the sideways rule, strictly lowers the mover's objects while the opponent's stay as they
were. Backward moves are the only ones that could lower the progress, and they are banned.
All entries are bounded, so no position can repeat and every game ends.

``lag.ideal-goal-frequency`` is the document's *concern*, not a yes/no rule: games may be won
with the winner's pieces still dispersed (more than one object). The check samples games
played perfectly (the winner picks uniformly among winning moves, the loser among all moves)
and reports how often the winner ends with one object, for each goal variant.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from cgt.errors import ParameterError
from cgt.games.lag import BLACK, GOALS, WHITE, Lag, LagPosition
from cgt.protocol import Outcome
from proofs.registry import Verdict, claim

#: Small instances searched exhaustively by default (fast enough for CI): the size-2 board
#: with two pieces a side, and the size-3 board with the two outer pieces of each home row.
DEFAULT_TERMINATION_INSTANCES: tuple[tuple[int, str], ...] = (
    (2, "BB/.../WW W"),
    (3, "B.B/..../...../..../W.W W"),
)
#: The broken rules the termination check can be run with, to show it finds cycles.
RULE_SETS = ("standard", "backward-allowed", "free-sideways")


class _BackwardLag(Lag):
    """LAG with backward moves allowed (a deliberately broken rule; not registered)."""

    allow_backward: ClassVar[bool] = True


class _FreeSidewaysLag(Lag):
    """LAG with sideways moves that need not reduce objects (deliberately broken)."""

    sideways_needs_merge: ClassVar[bool] = False


def lag_with_rules(rules: str, **parameters: Any) -> Lag:
    """A LAG game with the standard rules or one of the broken rule sets of :data:`RULE_SETS`."""
    classes = {"standard": Lag, "backward-allowed": _BackwardLag, "free-sideways": _FreeSidewaysLag}
    if rules not in classes:
        raise ParameterError(f"rules: {rules!r} is not one of {'|'.join(RULE_SETS)}")
    return classes[rules](**parameters)


def potential(game: Lag, position: LagPosition) -> tuple[int, int, int]:
    """The termination potential (see the module docstring); every legal move raises it."""
    board = game.board
    last_row = len(board.rows) - 1
    white, black = position[0], position[1]
    progress = 0
    for row_number, row in enumerate(board.rows):
        row_mask = sum(1 << i for i in row)
        progress += (last_row - row_number) * (white & row_mask).bit_count()
        progress += row_number * (black & row_mask).bit_count()
    pieces = white.bit_count() + black.bit_count()
    objects = game.objects(position, WHITE) + game.objects(position, BLACK)
    return (-pieces, progress, -objects)


def search_state_graph(
    game: Lag, root: LagPosition, max_positions: int | None = None
) -> dict[str, Any]:
    """Depth-first search of the positions reachable from ``root``, looking for a cycle.

    Colours positions grey while on the search path and black when finished: an edge to a
    grey position closes a cycle, which is returned as position strings (first repeated at
    the end). Also counts edges on which :func:`potential` fails to rise. Stops early at a
    cycle or after ``max_positions`` positions (then ``complete`` is False).
    """
    on_path, done = 1, 2
    colour: dict[int, int] = {game.key(root): on_path}
    path: list[LagPosition] = [root]
    iterators = [iter(game.moves(root))]
    terminal = 1 if not game.moves(root) else 0
    edges = potential_failures = 0
    first_failure: list[str] | None = None
    while iterators:
        position = path[-1]
        move = next(iterators[-1], None)
        if move is None:
            colour[game.key(position)] = done
            path.pop()
            iterators.pop()
            continue
        child = game.play(position, move)
        edges += 1
        if potential(game, child) <= potential(game, position):
            potential_failures += 1
            if first_failure is None:
                first_failure = [game.render(position), game.move_name(position, move)]
        key = game.key(child)
        state = colour.get(key)
        if state == on_path:
            start = next(i for i, p in enumerate(path) if p == child)
            cycle = [game.render(p) for p in path[start:]] + [game.render(child)]
            return _graph_summary(
                colour,
                terminal,
                edges,
                potential_failures,
                first_failure,
                complete=False,
                cycle=cycle,
            )
        if state is None:
            if max_positions is not None and len(colour) >= max_positions:
                return _graph_summary(
                    colour,
                    terminal,
                    edges,
                    potential_failures,
                    first_failure,
                    complete=False,
                    cycle=None,
                )
            colour[key] = on_path
            child_moves = game.moves(child)
            terminal += not child_moves
            path.append(child)
            iterators.append(iter(child_moves))
    return _graph_summary(
        colour, terminal, edges, potential_failures, first_failure, complete=True, cycle=None
    )


def _graph_summary(
    colour: dict[int, int],
    terminal: int,
    edges: int,
    potential_failures: int,
    first_failure: list[str] | None,
    *,
    complete: bool,
    cycle: list[str] | None,
) -> dict[str, Any]:
    return {
        "positions": len(colour),
        "terminal_positions": terminal,
        "edges": edges,
        "complete": complete,
        "cycle": cycle,
        "potential_failures": potential_failures,
        "first_potential_failure": first_failure,
    }


@claim(
    "lag.termination",
    game="lag",
    statement="every game of LAG ends: no sequence of legal moves repeats a position",
)
def termination(
    instances: Sequence[tuple[int, str | None]] = DEFAULT_TERMINATION_INSTANCES,
    rules: str = "standard",
    max_positions: int | None = 2_000_000,
) -> Verdict:
    """Search each instance ``(size, setup or None for the standard setup)`` for a cycle.

    Verified when no instance has a cycle and the potential rises on every edge searched
    (the potential is the proof for all sizes; the searches check it against the code).
    Refuted, with the cycle, as soon as one is found (``rules`` selects broken rules).
    """
    results = []
    for size, setup in instances:
        game = lag_with_rules(rules, size=size, setup=setup)
        summary = search_state_graph(game, game.initial_position(), max_positions)
        summary = {"size": size, "setup": game.render(game.initial_position()), **summary}
        results.append(summary)
        if summary["cycle"] is not None:
            return Verdict.refuted(
                scope={"rules": rules, "instances": [[s, t] for s, t in instances]},
                evidence={"cycle": summary["cycle"], "searched": results},
                corrected_statement=None if rules != "standard" else "LAG can cycle",
            )
    scope = {
        "rules": rules,
        "instances": [[r["size"], r["setup"]] for r in results],
        "proof": "potential (captures, forward progress, -objects) rises on every legal move, "
        "for every board size",
    }
    evidence = {"searched": results}
    if all(r["complete"] and r["potential_failures"] == 0 for r in results):
        return Verdict.verified(scope=scope, evidence=evidence)
    return Verdict.inconclusive(scope=scope, evidence=evidence)


# --------------------------------------------------------------------- ideal goals
class PerfectPlay:
    """Win/loss of LAG positions by memoised negamax (the game is acyclic, see above).

    Deliberately simple: a position is won iff some move leads to a lost position. The memo
    is keyed by the mirror-canonical key, which the rules respect.
    """

    def __init__(self, game: Lag) -> None:
        self.game = game
        self.memo: dict[Any, bool] = {}

    def wins(self, position: LagPosition) -> bool:
        """True if the player to move in ``position`` wins with perfect play."""
        game, memo = self.game, self.memo
        key = game.canonical_key(position)
        if key in memo:
            return memo[key]
        outcome = game.result(position)
        if outcome is not None:
            value = outcome is Outcome.WIN
        else:
            value = any(not self.wins(game.play(position, m)) for m in game.moves(position))
        memo[key] = value
        return value


def classify_end(game: Lag, position: LagPosition) -> dict[str, Any]:
    """Who won a finished game and with how many objects, and whether it was an ideal goal
    (the winner is the player without a legal move and has exactly one object)."""
    outcome = game.result(position)
    if outcome is None:
        raise ValueError("the game is not over")
    to_move = position[2]
    winner = to_move if outcome is Outcome.WIN else 1 - to_move
    winner_objects = game.objects(position, winner)
    return {
        "winner": game.players[winner],
        "winner_objects": winner_objects,
        "loser_objects": game.objects(position, 1 - winner),
        "ideal": winner == to_move and winner_objects == 1 and not game.goal_reached(position),
        "goal_reached": game.goal_reached(position),
    }


def sample_perfect_games(
    game: Lag, games: int, seed: int, solver: PerfectPlay | None = None
) -> dict[str, Any]:
    """Play ``games`` perfect games from the start: the player who can win picks uniformly
    among winning moves, the other uniformly among all moves. Counts the endings."""
    solver = solver or PerfectPlay(game)
    rng = random.Random(seed)
    root = game.initial_position()
    root_winner = game.players[game.to_move(root) if solver.wins(root) else 1 - game.to_move(root)]
    one_object = ideal = goal_reached = plies = 0
    by_objects: dict[int, int] = {}
    examples: list[str] = []
    for _ in range(games):
        position = root
        while game.result(position) is None:
            moves = game.moves(position)
            if solver.wins(position):
                moves = [m for m in moves if not solver.wins(game.play(position, m))]
            position = game.play(position, rng.choice(moves))
            plies += 1
        end = classify_end(game, position)
        by_objects[end["winner_objects"]] = by_objects.get(end["winner_objects"], 0) + 1
        one_object += end["winner_objects"] == 1
        ideal += end["ideal"]
        goal_reached += end["goal_reached"]
        if end["winner_objects"] != 1 and len(examples) < 3:
            examples.append(game.render(position))
    return {
        "perfect_play_winner": root_winner,
        "games": games,
        "winner_one_object": one_object,
        "winner_one_object_share": round(one_object / games, 4),
        "ideal_goal_share": round(ideal / games, 4),
        "far_row_goal_share": round(goal_reached / games, 4),
        "winner_objects_histogram": {str(k): v for k, v in sorted(by_objects.items())},
        "mean_plies": round(plies / games, 2),
        "dispersed_win_examples": examples,
        "positions_solved": len(solver.memo),
    }


@claim(
    "lag.ideal-goal-frequency",
    game="lag",
    statement="concern of the document: games are often won with the winner's pieces still "
    "dispersed (more than one object) rather than by the ideal goal (unable to move, one "
    "object). Verified = the concern is borne out under perfect play.",
)
def ideal_goal_frequency(
    size: int = 3,
    setup: str | None = "B.B/..../...../..../W.W W",
    goals: Sequence[str] = GOALS,
    games: int = 200,
    seed: int = 0,
    dispersed_threshold: float = 0.25,
) -> Verdict:
    """Sample ``games`` perfect-play games per goal variant (see :func:`sample_perfect_games`).

    The concern is judged on ``goal=standard`` (the current rule): verified when at least
    ``dispersed_threshold`` of the sampled perfect games end with the winner holding more
    than one object, refuted otherwise. The other goals are measured for comparison.
    """
    if "standard" not in goals:
        raise ParameterError("goals must include standard (the rule the concern is about)")
    per_goal = {}
    for goal in goals:
        game = Lag(size=size, goal=goal, setup=setup)
        per_goal[goal] = sample_perfect_games(game, games, seed)
    dispersed_share = 1 - per_goal["standard"]["winner_one_object_share"]
    scope = {
        "size": size,
        "setup": Lag(size=size, setup=setup).render(Lag(size=size, setup=setup).initial_position()),
        "games_per_goal": games,
        "seed": seed,
        "play": "perfect: the winning side picks uniformly among winning moves, the losing side "
        "uniformly among all moves",
        "judged_on": "goal=standard",
        "dispersed_threshold": dispersed_threshold,
    }
    evidence = {"standard_dispersed_share": round(dispersed_share, 4), "per_goal": per_goal}
    if dispersed_share >= dispersed_threshold:
        return Verdict.verified(scope=scope, evidence=evidence)
    return Verdict.refuted(scope=scope, evidence=evidence)
