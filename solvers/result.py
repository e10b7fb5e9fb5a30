"""The result object shared by every solver, so callers never care which solver answered."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cgt.protocol import Outcome


@dataclass(frozen=True)
class MoveValue:
    """Value of one legal move, seen by the player who makes it."""

    move: Any
    name: str
    outcome: Outcome
    #: Plies from the position after the move to the end of the game under perfect play
    #: plus one (the move itself); ``None`` for draws and where the solver could not tell.
    remoteness: int | None

    def as_dict(self) -> dict[str, Any]:
        return {"move": self.name, "outcome": self.outcome.label, "remoteness": self.remoteness}


@dataclass
class SolveResult:
    """Solution of one position.

    ``outcome`` is for the player to move in ``position``; ``remoteness`` counts plies to the
    end with perfect play (the winner hurries, the loser delays); ``None`` for a draw.
    """

    game: str
    params: dict[str, Any]
    position: str
    solver: str
    outcome: Outcome
    remoteness: int | None
    moves: list[MoveValue]
    best_moves: list[str]
    principal_variation: list[str]
    positions: int
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def winner(self) -> str:
        """``first`` (the player to move), ``second`` or ``draw``."""
        return {Outcome.WIN: "first", Outcome.LOSS: "second", Outcome.DRAW: "draw"}[self.outcome]

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "params": self.params,
            "position": self.position,
            "solver": self.solver,
            "winner": self.winner,
            "outcome": self.outcome.label,
            "remoteness": self.remoteness,
            "best_moves": self.best_moves,
            "principal_variation": self.principal_variation,
            "moves": [m.as_dict() for m in self.moves],
            "positions": self.positions,
            "seconds": round(self.seconds, 4),
            **self.extra,
        }
