"""Claims of the LAG document (docs/rules.md, "LAG"): termination and the frequency of ideal goals.

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
with the winner's pieces still dispersed (more than one object). The check measures, on size 3
with the standard setup, how often the winner ends with one object in three kinds of games:
every optimal line (the winner plays a fastest win, the loser a slowest loss; counted exactly,
which needs remoteness from the compiled kernel: about 1.5 to 4 minutes on a shared 2-core
machine, most of it the root search), the perfect-play winner against a random loser, and
random play. The document names no rate ("frequently", "easy to bring about"), so the
verdict is ``measured``: the numbers and the document's words, no pass or fail.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from cgt.errors import ParameterError
from cgt.games.lag import BLACK, WHITE, Lag, LagMove, LagPosition
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
    cycle: list[str] | None = None
    complete = True
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
            complete = False
            break
        if state is None:
            if max_positions is not None and len(colour) >= max_positions:
                complete = False
                break
            colour[key] = on_path
            child_moves = game.moves(child)
            terminal += not child_moves
            path.append(child)
            iterators.append(iter(child_moves))
    return _graph_summary(
        colour, terminal, edges, potential_failures, first_failure, complete=complete, cycle=cycle
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
        return Verdict.verified(
            scope=scope,
            evidence=evidence,
            finding="Holds for every size: every legal move raises (captures, forward progress, "
            "-objects), so no position repeats; the state graphs searched ("
            + "; ".join(
                f"size {r['size']} {r['setup']}: {r['positions']:,} positions" for r in results
            )
            + ") have no cycle.",
        )
    return Verdict.inconclusive(
        scope=scope,
        evidence=evidence,
        finding="Not settled: a search stopped at its position limit before covering its graph.",
    )


# --------------------------------------------------------------------- ideal goals
#: The three ways of playing a game that the ideal-goal measurement reports (see
#: :func:`ideal_goal_frequency`).
PLAY_OPTIMAL = (
    "optimal lines: the winner always plays a fastest win, the loser a slowest loss; every "
    "such choice enumerated (exact counts over all optimal lines, no sampling)"
)
PLAY_WINNER_VS_RANDOM = (
    "the perfect-play winner picks uniformly among its winning moves, the other side "
    "uniformly among all its legal moves (seeded sample)"
)
PLAY_RANDOM = "both sides pick uniformly among all legal moves (seeded sample)"
ENGINES = ("kernel", "python")


class Oracle:
    """Answers whether the player to move in a LAG position wins with perfect play, from
    :meth:`value`, cached for the run by mirror-canonical key."""

    def __init__(self, game: Lag) -> None:
        self.game = game
        self.memo: dict[Any, tuple[bool, int]] = {}

    def value(self, position: LagPosition) -> tuple[bool, int]:
        """(the player to move wins, remoteness) of ``position`` under perfect play."""
        raise NotImplementedError

    def wins(self, position: LagPosition) -> bool:
        """True if the player to move in ``position`` wins with perfect play."""
        return self.value(position)[0]

    @property
    def positions_solved(self) -> int:
        return len(self.memo)


class PerfectPlay(Oracle):
    """Outcome and remoteness of LAG positions by memoised negamax (the game is acyclic).

    Deliberately simple, the second road to the compiled kernel: a position is won iff some
    move leads to a lost position; a win's remoteness is one more than the smallest
    remoteness of a lost child (fastest win), a loss's one more than the largest remoteness
    of any child (slowest loss). Memo keyed by the mirror-canonical key, which the rules
    respect. Fine for toy boards; size 3 with the standard setup needs the kernel.
    """

    def value(self, position: LagPosition) -> tuple[bool, int]:
        """(the player to move wins, remoteness) of ``position`` under perfect play."""
        game, memo = self.game, self.memo
        key = game.canonical_key(position)
        known = memo.get(key)
        if known is not None:
            return known
        outcome = game.result(position)
        if outcome is not None:
            value = (outcome is Outcome.WIN, 0)
        else:
            children = [self.value(game.play(position, m)) for m in game.moves(position)]
            lost = [r for wins, r in children if not wins]
            if lost:
                value = (True, min(lost) + 1)
            else:
                value = (False, max(r for _, r in children) + 1)
        memo[key] = value
        return value


class KernelPlay(Oracle):
    """The same questions answered by the compiled kernel (:mod:`solvers.kernels.lag`) in
    remoteness mode, whose transposition table carries over between queries (after the
    root is solved most later queries are table hits). Answers are also cached by
    mirror-canonical key for the run.
    """

    def __init__(self, game: Lag, tt_entries: int = 1 << 24) -> None:
        from solvers.kernels.lag import LagKernel

        super().__init__(game)
        self.kernel = LagKernel(game, remoteness=True, tt_entries=tt_entries, symmetry=True)

    def value(self, position: LagPosition) -> tuple[bool, int]:
        """(the player to move wins, remoteness) of ``position`` under perfect play."""
        key = self.game.canonical_key(position)
        known = self.memo.get(key)
        if known is None:
            outcome, remoteness = self.kernel.value(position)
            known = (outcome is Outcome.WIN, int(remoteness or 0))
            self.memo[key] = known
        return known


def make_oracle(game: Lag, engine: str) -> Oracle:
    """The perfect-play oracle for ``engine`` (``kernel``: compiled; ``python``: negamax)."""
    if engine == "kernel":
        return KernelPlay(game)
    if engine == "python":
        return PerfectPlay(game)
    raise ParameterError(f"engine: {engine!r} is not one of {'|'.join(ENGINES)}")


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


def optimal_moves(game: Lag, oracle: Oracle, position: LagPosition) -> list[LagMove]:
    """The moves of optimal play: for the winner those reaching a lost position with the
    smallest remoteness (fastest win), for the loser those with the largest (slowest loss)."""
    wins, remoteness = oracle.value(position)
    chosen = []
    for move in game.moves(position):
        child_wins, child_remoteness = oracle.value(game.play(position, move))
        if child_wins != wins and child_remoteness == remoteness - 1:
            chosen.append(move)
    return chosen


def count_optimal_lines(game: Lag, oracle: Oracle) -> dict[str, Any]:
    """Every optimal line from the start (see :func:`optimal_moves`), counted exactly.

    A dynamic programme over the positions of optimal play (memo by mirror-canonical key:
    mirror images have mirrored lines with the same endings) gives, for each ending (winner's
    objects, ideal or not), the number of distinct optimal lines reaching it and the
    probability of reaching it when every optimal choice is taken uniformly at random.
    """
    memo: dict[Any, dict[tuple[int, bool, bool], tuple[int, float]]] = {}

    def endings(position: LagPosition) -> dict[tuple[int, bool, bool], tuple[int, float]]:
        key = game.canonical_key(position)
        if key in memo:
            return memo[key]
        if game.result(position) is not None:
            end = classify_end(game, position)
            out = {(end["winner_objects"], end["ideal"], end["goal_reached"]): (1, 1.0)}
        else:
            moves = optimal_moves(game, oracle, position)
            out = {}
            for move in moves:
                for ending, (lines, chance) in endings(game.play(position, move)).items():
                    old_lines, old_chance = out.get(ending, (0, 0.0))
                    out[ending] = (old_lines + lines, old_chance + chance / len(moves))
        memo[key] = out
        return out

    root = game.initial_position()
    root_wins, root_remoteness = oracle.value(root)
    table = endings(root)
    lines = sum(n for n, _ in table.values())
    histogram: dict[str, int] = {}
    for (objects, _, _), (n, _) in table.items():
        histogram[str(objects)] = histogram.get(str(objects), 0) + n
    one = sum(n for (objects, _, _), (n, _) in table.items() if objects == 1)
    return {
        "perfect_play_winner": game.players[
            game.to_move(root) if root_wins else 1 - game.to_move(root)
        ],
        "remoteness": root_remoteness,
        "games": lines,
        "winner_one_object": one,
        "winner_one_object_share": round(one / lines, 4),
        "winner_one_object_chance": round(
            sum(p for (objects, _, _), (_, p) in table.items() if objects == 1) + 0.0, 4
        ),
        "ideal_goal_share": round(sum(n for (_, i, _), (n, _) in table.items() if i) / lines, 4),
        "far_row_goal_share": round(sum(n for (_, _, g), (n, _) in table.items() if g) / lines, 4),
        "winner_objects_histogram": dict(sorted(histogram.items())),
        "mean_plies": root_remoteness,
        "optimal_play_positions": len(memo),
    }


def sample_games(game: Lag, games: int, seed: int, oracle: Oracle | None = None) -> dict[str, Any]:
    """Play ``games`` games from the start with a seeded generator and count the endings.

    Without ``oracle`` both sides move uniformly at random (:data:`PLAY_RANDOM`); with one,
    the side that wins with perfect play picks uniformly among its winning moves and the
    other side uniformly among all moves (:data:`PLAY_WINNER_VS_RANDOM`).
    """
    rng = random.Random(seed)
    root = game.initial_position()
    root_winner = None
    if oracle is not None:
        root_winner = game.to_move(root) if oracle.wins(root) else 1 - game.to_move(root)
    one_object = ideal = goal_reached = plies = 0
    wins_by_player = [0, 0]
    by_objects: dict[int, int] = {}
    examples: list[str] = []
    for _ in range(games):
        position = root
        while game.result(position) is None:
            moves = game.moves(position)
            if oracle is not None and game.to_move(position) == root_winner:
                moves = [m for m in moves if not oracle.wins(game.play(position, m))]
            position = game.play(position, rng.choice(moves))
            plies += 1
        end = classify_end(game, position)
        wins_by_player[game.players.index(end["winner"])] += 1
        by_objects[end["winner_objects"]] = by_objects.get(end["winner_objects"], 0) + 1
        one_object += end["winner_objects"] == 1
        ideal += end["ideal"]
        goal_reached += end["goal_reached"]
        if end["winner_objects"] != 1 and len(examples) < 3:
            examples.append(game.render(position))
    out: dict[str, Any] = {
        "games": games,
        "seed": seed,
        "wins": dict(zip(game.players, wins_by_player, strict=True)),
        "winner_one_object": one_object,
        "winner_one_object_share": round(one_object / games, 4),
        "ideal_goal_share": round(ideal / games, 4),
        "far_row_goal_share": round(goal_reached / games, 4),
        "winner_objects_histogram": {str(k): v for k, v in sorted(by_objects.items())},
        "mean_plies": round(plies / games, 2),
        "dispersed_win_examples": examples,
    }
    if root_winner is not None:
        out["perfect_play_winner"] = game.players[root_winner]
    return out


@claim(
    "lag.ideal-goal-frequency",
    game="lag",
    statement="concern of the document: games are often won with the winner's pieces still "
    "dispersed (more than one object) rather than by the ideal goal (unable to move, one "
    "object); measured, since the document names no rate",
)
def ideal_goal_frequency(
    size: int = 3,
    setup: str | None = None,
    goals: Sequence[str] = ("standard",),
    engine: str = "kernel",
    random_games: int = 2000,
    winner_vs_random_games: int = 200,
    seed: int = 0,
) -> Verdict:
    """Measure how often the winner ends with one object, three ways, for each goal.

    1. Optimal lines (:func:`count_optimal_lines`): exact counts over every line in which
       the winner plays a fastest win and the loser a slowest loss.
    2. ``winner_vs_random_games`` games of the perfect-play winner against a random loser.
    3. ``random_games`` games of random play.

    The measurement is (1) for ``goal=standard``, the current rule: the share of optimal lines
    the winner ends with more than one object. The document's concern ("if wins with the
    pieces dispersed happen frequently, or are easy to bring about on purpose") names no
    rate, so the verdict is ``measured``. (2) and (3) are reported beside it: they show how
    much the answer depends on the players.
    ``engine="kernel"`` answers perfect-play questions with the compiled kernel (size 3 with
    the standard setup: about 30 s), ``"python"`` with :class:`PerfectPlay` (toy boards).
    """
    if "standard" not in goals:
        raise ParameterError("goals must include standard (the rule the concern is about)")
    per_goal: dict[str, Any] = {}
    winner_vs_random: dict[str, Any] = {}
    random_play: dict[str, Any] = {}
    for goal in goals:
        game = Lag(size=size, goal=goal, setup=setup)
        oracle = make_oracle(game, engine)
        started = time.perf_counter()
        per_goal[goal] = count_optimal_lines(game, oracle)
        if winner_vs_random_games:
            winner_vs_random[goal] = sample_games(game, winner_vs_random_games, seed, oracle)
        per_goal[goal]["positions_solved"] = oracle.positions_solved
        per_goal[goal]["seconds"] = round(time.perf_counter() - started, 2)
        if random_games:
            random_play[goal] = sample_games(game, random_games, seed)
    standard = per_goal["standard"]
    dispersed_share = round(1 - standard["winner_one_object_share"], 4)
    game = Lag(size=size, setup=setup)
    scope = {
        "size": size,
        "setup": game.render(game.initial_position()),
        "setup_name": "standard (two home rows each)" if setup is None else "given",
        "goals": list(goals),
        "engine": engine,
        "play": PLAY_OPTIMAL,
        "other_measurements": {
            "winner_vs_random": f"{PLAY_WINNER_VS_RANDOM}; {winner_vs_random_games} games",
            "random": f"{PLAY_RANDOM}; {random_games} games",
            "seed": seed,
        },
        "games_per_goal": "all optimal lines",
        "seed": seed,
        "measured_on": "optimal lines, goal=standard",
    }
    evidence: dict[str, Any] = {
        "standard_dispersed_share": dispersed_share,
        "per_goal": per_goal,
        "winner_vs_random": winner_vs_random,
        "random": random_play,
    }
    if "standard" in winner_vs_random and "standard" in random_play:
        evidence["reading"] = (
            "winner dispersed (more than one object) in "
            f"{dispersed_share:.2%} of the optimal lines, "
            f"{1 - winner_vs_random['standard']['winner_one_object_share']:.1%} of the games "
            "of the perfect-play winner against a random loser, "
            f"{1 - random_play['standard']['winner_one_object_share']:.1%} of random games"
        )
    finding = (
        f"Under perfect play (size {size}, {scope['setup_name']} setup, goal=standard) the "
        f"winner ends with its pieces dispersed in {dispersed_share:.2%} of the optimal lines"
    )
    if "reading" in evidence:
        finding += (
            f", against {1 - winner_vs_random['standard']['winner_one_object_share']:.1%} when "
            "the perfect-play winner meets a random loser and "
            f"{1 - random_play['standard']['winner_one_object_share']:.1%} in random games"
        )
    finding += "; the document names no rate to hold this against."
    return Verdict.measured(
        scope=scope,
        evidence=evidence,
        quantity="share of the optimal lines (goal=standard) won with the winner's pieces "
        "dispersed (more than one object)",
        value=f"{dispersed_share:.2%}",
        held_against="the document's concern: if wins with the pieces dispersed happen "
        "frequently, or are easy to bring about on purpose, LAG does not achieve its idea "
        "(駒が分散しているにも関わらず勝利しているような状況が頻繁に起こる、または意図的に起こすことが"
        "容易であるならば); it names no rate",
        share=dispersed_share,
        finding=finding,
    )
