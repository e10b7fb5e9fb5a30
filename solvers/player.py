"""PLACEHOLDER written on the explorer branch so that the explorer can be built and tested
against the player's API; the "player" branch's search replaces this whole file at merge.

It has exactly the names and signatures of that API and nothing else: a one-ply search over
the readable rules (take a move that wins at once, avoid one that lets the opponent win at
once, otherwise a seeded random move), with the playouts only counted, never run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cgt.protocol import Game, Outcome


@dataclass(frozen=True)
class Candidate:
    move: str
    visits: int
    win_rate: float


@dataclass(frozen=True)
class Estimate:
    kind: str
    outcome: Outcome | None
    remoteness: int | None
    win_rate: float | None
    playouts: int


@dataclass(frozen=True)
class MoveChoice:
    move: Any
    name: str
    source: str
    estimate: Estimate
    candidates: tuple[Candidate, ...]


def _mover_result(game: Game[Any, Any], position: Any, child: Any) -> Outcome | None:
    """The game's result after a move, for the player who made it (None: not over)."""
    result = game.result(child)
    if result is None:
        return None
    return result if game.to_move(child) == game.to_move(position) else -result


def search_move(game: Game[Any, Any], position: Any, *, playouts: int, seed: int = 0) -> MoveChoice:
    moves = list(game.moves(position))
    if not moves:
        raise ValueError("no legal move")
    scored = []
    for move in moves:
        child = game.play(position, move)
        result = _mover_result(game, position, child)
        if result is None:
            threats = [_mover_result(game, child, game.play(child, m)) for m in game.moves(child)]
            rate = 0.0 if Outcome.WIN in threats else 0.5
        else:
            rate = (int(result) + 1) / 2
        scored.append((rate, move))
    best = max(rate for rate, _ in scored)
    pick = random.Random(seed).choice([m for rate, m in scored if rate == best])
    candidates = tuple(
        Candidate(game.move_name(position, m), playouts // len(moves), rate) for rate, m in scored
    )
    proven = best == 1.0
    estimate = Estimate(
        "proven" if proven else "search",
        Outcome.WIN if proven else None,
        1 if proven else None,
        None if proven else best,
        playouts,
    )
    return MoveChoice(pick, game.move_name(position, pick), "search", estimate, candidates)


def choose_move(
    game: Game[Any, Any],
    position: Any,
    *,
    playouts: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    db: Path | None = None,
) -> MoveChoice:
    return search_move(game, position, playouts=playouts or 1000, seed=seed)
