"""A player for every game: the stored answer, else an exact solve within a time budget, else
the Monte-Carlo tree search of :mod:`solvers.playout` (compiled where the game has a playout
plug-in, :data:`solvers.kernels.PLAYOUTS`, over the readable rules otherwise).

:func:`search_move` always searches (so its strength can be measured against exact answers);
:func:`choose_move` plays perfectly where an exact answer is at hand. Both are deterministic:
the same seed and budget give the same move.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cgt.errors import CGTError, ParameterError
from cgt.protocol import Game, Outcome
from cgt.registry import game_class
from solvers.api import solve
from solvers.kernels import PLAYOUTS
from solvers.playout import PlayoutRules, SearchTree, protocol_rules, run_search
from solvers.query import NotStoredError, QueryAnswer, query_position
from solvers.result import SolveResult
from solvers.strategy import StrategyFile

#: Playouts of a search when the caller names no budget.
DEFAULT_PLAYOUTS = 10_000
#: Candidates listed with a choice (the most visited moves).
CANDIDATES = 5
#: A proven move's win rate for the player making it.
PROVEN_RATE = {Outcome.WIN: 1.0, Outcome.DRAW: 0.5, Outcome.LOSS: 0.0}


@dataclass(frozen=True)
class Candidate:
    """One move the search looked at: its name as ``cgt show`` lists it, its visits and the
    mover's win rate after it (0..1; a draw counts one half)."""

    move: str
    visits: int
    win_rate: float


@dataclass(frozen=True)
class Estimate:
    """What the player knows of the position for the mover: ``kind`` ``"proven"`` (exact:
    ``outcome``, and ``remoteness`` where the exact solver gives it; a search that proved the
    position gives no remoteness) or ``"search"`` (``win_rate`` of the chosen move over
    ``playouts`` playouts, an estimate)."""

    kind: str
    outcome: Outcome | None
    remoteness: int | None
    win_rate: float | None
    playouts: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "outcome": None if self.outcome is None else self.outcome.label,
            "remoteness": self.remoteness,
            "win_rate": None if self.win_rate is None else round(self.win_rate, 4),
            "playouts": self.playouts,
        }


@dataclass(frozen=True)
class MoveChoice:
    """The move chosen (the game's move and its name), where the choice came from
    (``"stored"``, ``"solved"`` or ``"search"``), the estimate and the best few moves."""

    move: Any
    name: str
    source: str
    estimate: Estimate
    candidates: tuple[Candidate, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "move": self.name,
            "source": self.source,
            "estimate": self.estimate.as_dict(),
            "candidates": [
                {"move": c.move, "visits": c.visits, "win_rate": round(c.win_rate, 4)}
                for c in self.candidates
            ],
        }


_RULES: dict[tuple[str, str], PlayoutRules] = {}


def playout_rules(game: Game[Any, Any]) -> PlayoutRules:
    """The game's compiled playout interface, or the readable rules' when it has none (or
    the game is a subclass with other rules, or the plug-in refuses these parameters). The
    compiled ones are kept per game and parameters."""
    factory = PLAYOUTS.get(game.name)
    if factory is None or type(game) is not game_class(game.name):
        return protocol_rules(game)
    key = (game.name, repr(sorted(game.parameters.items())))
    if key not in _RULES:
        try:
            _RULES[key] = factory(game)
        except CGTError:
            return protocol_rules(game)
    return _RULES[key]


def _encoded(game: Game[Any, Any], position: Any) -> tuple[PlayoutRules, Any]:
    rules = playout_rules(game)
    try:
        return rules, rules.encode(position)
    except CGTError:
        if not rules.compiled:
            raise
        rules = protocol_rules(game)  # a position the plug-in does not take (fixed cells)
        return rules, rules.encode(position)


def _check_playing(game: Game[Any, Any], position: Any) -> None:
    if game.result(position) is not None:
        raise CGTError(
            f"{game.label()}: the game is over at {game.render(position)!r}, no move to choose"
        )


def search_move(game: Game[Any, Any], position: Any, *, playouts: int, seed: int = 0) -> MoveChoice:
    """The search's move in ``position`` after ``playouts`` playouts (fewer if it proves
    the position first); never looks anything up."""
    if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1:
        raise ParameterError(f"playouts must be a positive integer, got {playouts!r}")
    _check_playing(game, position)
    rules, root = _encoded(game, position)
    tree = run_search(rules, root, playouts, seed)
    return _choice(game, position, rules, tree)


def _rate(tree: SearchTree, k: int) -> float:
    proven = tree.child_proven[k]
    if proven is not None:
        return PROVEN_RATE[proven]
    return tree.rewards[k] / tree.visits[k] if tree.visits[k] else 0.5


def _choice(
    game: Game[Any, Any], position: Any, rules: PlayoutRules, tree: SearchTree
) -> MoveChoice:
    children = range(len(tree.codes))
    if tree.proven is Outcome.WIN:
        pool = [k for k in children if tree.child_proven[k] is Outcome.WIN]
    else:
        pool = [k for k in children if tree.child_proven[k] is not Outcome.LOSS]
        pool = pool or list(children)
    best = max(pool, key=lambda k: (tree.visits[k], _rate(tree, k), -k))
    move = rules.move_of(position, tree.codes[best])
    order = sorted(children, key=lambda k: (-tree.visits[k], -_rate(tree, k), k))
    candidates = tuple(
        Candidate(
            game.move_name(position, rules.move_of(position, tree.codes[k])),
            tree.visits[k],
            _rate(tree, k),
        )
        for k in order[:CANDIDATES]
    )
    if tree.proven is not None:
        estimate = Estimate("proven", tree.proven, None, PROVEN_RATE[tree.proven], tree.iterations)
    else:
        estimate = Estimate("search", None, None, _rate(tree, best), tree.iterations)
    return MoveChoice(move, game.move_name(position, move), "search", estimate, candidates)


def _exact_choice(
    game: Game[Any, Any], position: Any, source: str, answer: QueryAnswer | SolveResult
) -> MoveChoice | None:
    """The first best move of an exact answer, None when it lists no move values."""
    if not answer.moves or not answer.best_moves:
        return None
    chosen = next(m for m in answer.moves if m.name == answer.best_moves[0])
    ranked = sorted(answer.moves, key=lambda m: -PROVEN_RATE[m.outcome])
    candidates = tuple(Candidate(m.name, 0, PROVEN_RATE[m.outcome]) for m in ranked[:CANDIDATES])
    outcome = answer.outcome
    estimate = Estimate("proven", outcome, answer.remoteness, PROVEN_RATE[outcome], 0)
    return MoveChoice(chosen.move, chosen.name, source, estimate, candidates)


def choose_move(
    game: Game[Any, Any],
    position: Any,
    *,
    playouts: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    db: Path | None = None,
    strategy: StrategyFile | None = None,
) -> MoveChoice:
    """The best move the toolkit can give: the move of a checked winning strategy where it
    covers the position (``strategy``, a file of :mod:`solvers.strategy`), else from a stored
    solution (``db``, default the solution database), else from an exact solve within
    ``seconds`` (None: no solve), else from a search of ``playouts`` playouts (default
    :data:`DEFAULT_PLAYOUTS`)."""
    if seconds is not None and (isinstance(seconds, bool) or seconds <= 0):
        raise ParameterError(f"seconds must be positive, got {seconds!r}")
    _check_playing(game, position)
    if strategy is not None and strategy.covers(game, position):
        move = strategy.move_for(position)
        name = game.move_name(position, move)
        # the file holds the winner's positions: the player to move here wins
        estimate = Estimate("proven", Outcome.WIN, None, PROVEN_RATE[Outcome.WIN], 0)
        return MoveChoice(
            move, name, "strategy", estimate, (Candidate(name, 0, PROVEN_RATE[Outcome.WIN]),)
        )
    try:
        answer = query_position(game, position, db)
    except NotStoredError:
        pass
    else:
        choice = _exact_choice(game, position, "stored", answer)
        if choice is not None:
            return choice
    if seconds is not None:
        try:
            result = solve(game, position, max_seconds=seconds)
        except (CGTError, MemoryError):
            pass  # not solved within the budget (or not by these solvers): search
        else:
            choice = _exact_choice(game, position, "solved", result)
            if choice is not None:
                return choice
    return search_move(
        game, position, playouts=DEFAULT_PLAYOUTS if playouts is None else playouts, seed=seed
    )
