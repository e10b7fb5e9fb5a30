"""The computations behind the stored results: an exhaustive analysis of a small board, the
compiled solvers' answers on the boards that matter, and the move values along a perfect line.

Everything here returns plain JSON-able dicts (stored under ``reports/data/`` by
:mod:`cgtapp.report.data`); the pages are written from those dicts only. Solvers are asked only
through their public entry points (:func:`solvers.api.solve`, :func:`solvers.retrograde.retrograde`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from cgt.registry import load_game


def design_metrics(solution: Any) -> dict[str, Any]:
    """Exact metrics over every position of a solved state graph (up to symmetry), counted
    over the legal moves of each position (GamesCrafters and Ludii style).

    Forgiveness is the mean share of legal moves that keep a won position won: near 1 the
    game forgives slips, near 0 every won position is a knife edge.
    """
    legal_counts: list[int] = []
    winning_moves_hist: Counter[int] = Counter()
    shares: list[float] = []
    for node in range(len(solution)):
        if solution.terminal[node]:
            continue
        position = solution.position_of(node)
        values = solution.move_values(position)
        legal_counts.append(len(values))
        if Outcome(int(solution.outcomes[node])) == Outcome.WIN:
            keep = sum(1 for v in values if v.outcome == Outcome.WIN)
            winning_moves_hist[keep] += 1
            shares.append(keep / len(values))
    outcomes = solution.outcomes
    decided = float((outcomes != int(Outcome.DRAW)).mean()) if len(outcomes) else 0.0
    return {
        "branching_mean": float(np.mean(legal_counts)) if legal_counts else 0.0,
        "branching_max": max(legal_counts, default=0),
        "forgiveness": float(np.mean(shares)) if shares else 0.0,
        "won_positions": len(shares),
        "won_positions_with_single_winning_move": winning_moves_hist.get(1, 0),
        "winning_moves_histogram": dict(sorted(winning_moves_hist.items())),
        "decisiveness": decided,
        "drawishness": 1 - decided,
    }


@dataclass
class RandomPlay:
    """Games of uniformly random play from one root: their lengths and who won."""

    lengths: list[int]
    #: "first", "second", "draw" or "unfinished" (cap reached) -> games.
    winners: Counter[str]
    max_plies: int


def random_games(
    game: Game[Any, Any], root: Any, samples: int, seed: int = 1, max_plies: int = 500
) -> RandomPlay:
    """Play ``samples`` uniformly random games from ``root`` (seeded, so reproducible)."""
    rng = random.Random(seed)
    first = game.to_move(root)
    lengths: list[int] = []
    winners: Counter[str] = Counter()
    for _ in range(samples):
        position, plies = root, 0
        result = game.result(position)
        while plies < max_plies and result is None:
            moves = list(game.moves(position))
            position = game.play(position, rng.choice(moves))
            plies += 1
            result = game.result(position)
        lengths.append(plies)
        if result is None:
            winners["unfinished"] += 1
        elif result == Outcome.DRAW:
            winners["draw"] += 1
        else:
            mover_wins = result == Outcome.WIN
            first_to_move = game.to_move(position) == first
            winners["first" if mover_wins == first_to_move else "second"] += 1
    return RandomPlay(lengths, winners, max_plies)


def move_values(result: Any) -> list[dict[str, Any]]:
    """A solve result's moves as ``{"move", "outcome", "remoteness"}`` dicts."""
    return [m.as_dict() for m in result.moves]


def exhaustive(
    game_name: str, params: dict[str, Any], samples: int = 2000, progress: Progress | None = None
) -> dict[str, Any]:
    """Retrograde analysis of every reachable position of a small board: the result, every
    opening, positions by value and remoteness, design metrics, random play, the longest
    forced wins and the move values along a perfect line."""
    from solvers.retrograde import retrograde

    game = load_game(game_name, **params)
    root = game.initial_position()
    solution = retrograde(game, root, symmetry=True, progress=progress, keep_positions=True)
    plain = (
        retrograde(game, root, symmetry=False, progress=progress)
        if game.symmetry_count > 1
        else solution
    )
    result = solution.result(root)
    summary = solution.summary()
    play = random_games(game, root, samples)
    by_rem = {
        label: {str(r): int(n) for r, n in sorted(counts.items()) if r is not None}
        for label, counts in summary["by_outcome_remoteness"].items()
        if label != "draw"
    }
    wins = np.flatnonzero(solution.outcomes == int(Outcome.WIN))
    longest = []
    if wins.size:
        order = wins[np.argsort(-solution.remoteness_array[wins], kind="stable")][:3]
        for node in order:
            position = solution.position_of(int(node))
            longest.append(
                {
                    "position": game.render(position),
                    "remoteness": int(solution.remoteness_array[node]),
                    "line": solution.result(position).principal_variation,
                }
            )
    line = []
    position = root
    for ply, name in enumerate(result.principal_variation[:8]):
        values = solution.move_values(position)
        line.append(
            {"ply": ply, "position": game.render(position), "moves": [v.as_dict() for v in values]}
        )
        position = game.play(position, game.parse_move(position, name))
    lengths = Counter(play.lengths)
    return {
        "game": game_name,
        "params": params,
        "parameters": {k: str(v) for k, v in game.parameters.items()},
        "start": game.render(root),
        "winner": result.winner,
        "remoteness": result.remoteness,
        "principal_variation": result.principal_variation,
        "openings": move_values(result),
        "reachable_positions": len(plain),
        "positions_up_to_symmetry": len(solution),
        "symmetries": game.symmetry_count,
        "terminal_positions": int(summary["terminal"]),
        "by_outcome": {k: int(summary["by_outcome"].get(k, 0)) for k in ("win", "loss", "draw")},
        "by_outcome_remoteness": by_rem,
        "metrics": design_metrics(solution),
        "random_play": {
            "games": samples,
            "seed": 1,
            "max_plies": play.max_plies,
            "winners": dict(sorted(play.winners.items())),
            "lengths": {str(k): lengths[k] for k in sorted(lengths)},
            "mean_length": round(float(np.mean(play.lengths)), 2),
        },
        "longest_wins": longest,
        "perfect_line": line,
    }


def compiled(
    game: Game[Any, Any],
    position: Any = None,
    *,
    remoteness: bool = True,
    max_seconds: float | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """One position solved by the game's compiled solver: winner, remoteness, every move's
    value, a perfect line and the search's size (nodes)."""
    from solvers.api import solve

    result = solve(
        game,
        position,
        solver="compiled",
        remoteness=remoteness,
        max_seconds=max_seconds,
        progress=progress,
    )
    return {
        "position": result.position,
        "winner": result.winner,
        "remoteness": result.remoteness,
        "principal_variation": result.principal_variation,
        "moves": move_values(result),
        "nodes": int(result.extra.get("nodes", result.positions)),
        "seconds": round(result.seconds, 1),
    }


def along_line(
    game: Game[Any, Any],
    line: list[str],
    plies: list[int],
    solve_position: Callable[[Any], dict[str, Any]],
) -> list[dict[str, Any]]:
    """The move values of the positions reached after ``plies`` moves of ``line``."""
    out = []
    position = game.initial_position()
    for ply in range(max(plies, default=-1) + 1):
        if ply in plies and game.moves(position):
            solved = solve_position(position)
            out.append({"ply": ply, "position": game.render(position), "moves": solved["moves"]})
        if ply >= len(line):
            break
        position = game.play(position, game.parse_move(position, line[ply]))
    return out
