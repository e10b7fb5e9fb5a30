"""Calibration of the self-play player (:mod:`solvers.player`, :mod:`solvers.selfplay`) on
boards with an exact answer: the exact value of a sampled position and of each of its moves,
how often the search keeps that value, per value and stage, and what a level of self-play
says about the winner.

The exact answer comes from a stored solution (:func:`solvers.query.query_position`) where
the board has one, else from a solve within a time budget: a board whose solve takes an hour
(Entropy 5x5, 3.8 billion positions) is read from its packed store, one position at a time.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.api import solve
from solvers.database import SolutionDatabase
from solvers.player import search_move
from solvers.query import open_stored, packed_entries, query_position
from solvers.selfplay import wilson

#: The values of a position for the player to move, in the order the tables list them.
VALUES = ("win", "draw", "loss")
#: Stages of a sampled position: its ply against the deepest ply sampled, in thirds.
STAGES = ("early", "middle", "late")


@dataclass(frozen=True)
class ExactAnswer:
    """A position's exact value for the player to move, its moves by name and the ones that
    keep that value (a winning move of a won position, a drawing one of a drawn position;
    every move of a lost one), and where the answer came from (``stored`` or ``solved``)."""

    outcome: Outcome
    moves: tuple[str, ...]
    keeping: tuple[str, ...]
    source: str

    @property
    def informative(self) -> bool:
        """Whether some move gives the value away, so the player's choice can be judged."""
        return len(self.keeping) < len(self.moves)


def _answer(outcome: Outcome, moves: Iterable[Any], source: str) -> ExactAnswer:
    listed = list(moves)
    return ExactAnswer(
        outcome=outcome,
        moves=tuple(m.name for m in listed),
        keeping=tuple(m.name for m in listed if m.outcome is outcome),
        source=source,
    )


def stored_answer(
    game: Game[Any, Any], position: Any, database: SolutionDatabase | Path | str | None
) -> ExactAnswer:
    """The exact answer read from the stored solution in ``database`` (its packed store or
    its rows); :class:`solvers.query.NotStoredError` when nothing stored holds it."""
    found = query_position(game, position, database)
    return _answer(found.outcome, found.moves, "stored")


def stored_provenance(
    game: Game[Any, Any], database: SolutionDatabase | Path | str | None
) -> dict[str, Any] | None:
    """Where the stored answers come from: the newest packed solution of ``game`` in
    ``database`` (file name, records, bytes, when and by which commit and command it was
    made, the solve's seconds per phase), None when there is none."""
    if not isinstance(database, SolutionDatabase):
        database = SolutionDatabase(database, must_exist=True)
    entries = packed_entries(game, database)
    if not entries:
        return None
    entry = entries[0]
    solve_meta = open_stored(entry.path).solution.meta.get("solve", {})
    return {
        "file": entry.path.name,
        "records": entry.records,
        "bytes": entry.bytes,
        "created": entry.created,
        "git_commit": entry.git_commit,
        "command": entry.command,
        "seconds_per_phase": solve_meta.get("seconds_per_phase"),
    }


def solved_answer(
    game: Game[Any, Any], position: Any, *, method: str, max_seconds: float
) -> ExactAnswer:
    """The exact answer of a solve of ``position`` (a :class:`cgt.errors.CGTError` when the
    budget runs out)."""
    result = solve(game, position, remoteness=False, max_seconds=max_seconds, method=method)
    return _answer(result.outcome, result.moves, "solved")


def random_position(
    game: Game[Any, Any], chooser: random.Random, max_depth: int
) -> tuple[Any, int] | None:
    """A position after a uniform number of uniformly random moves below ``max_depth`` from
    the start, with that number; None when the game ended on the way (the draw is used up
    all the same, so a seed gives the same sample every time)."""
    position = game.initial_position()
    depth = chooser.randrange(max_depth)
    for _ in range(depth):
        if game.result(position) is not None:
            return None
        position = game.play(position, chooser.choice(list(game.moves(position))))
    if game.result(position) is not None:
        return None
    return position, depth


def judge_moves(
    game: Game[Any, Any], position: Any, keeping: Iterable[str], budgets: list[int], seed: int
) -> dict[str, list[Any]]:
    """Per budget (as text): the search's move at that budget (seed ``seed + budget``, as
    ``cgt move --playouts``) and whether it is one of the moves ``keeping`` the value."""
    kept = set(keeping)
    chosen: dict[str, list[Any]] = {}
    for budget in budgets:
        choice = search_move(game, position, playouts=budget, seed=seed + budget)
        chosen[str(budget)] = [choice.name, choice.name in kept]
    return chosen


def sample_by_value(
    game: Game[Any, Any],
    exact: Callable[[Any], ExactAnswer],
    path: Path,
    *,
    max_depth: int,
    budgets: list[int],
    quota: int,
    max_drawn: int,
    seed: int = 0,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Random positions (:func:`random_position`) valued by ``exact`` until ``quota`` won and
    ``quota`` drawn positions where some move gives the value away have been judged at every
    budget (:func:`judge_moves`), or ``max_drawn`` positions have been drawn. Every position
    drawn is appended to the JSON-lines file ``path`` as it is valued (``position``, ``ply``,
    ``value``, ``moves``, ``keeping`` and, when judged, ``chosen``); the draws replay for the
    same seed, so a stopped run takes up the stored records and goes on. Returns the
    records."""
    path.parent.mkdir(parents=True, exist_ok=True)
    done: list[dict[str, Any]] = []
    if path.exists():
        done = [json.loads(line) for line in path.read_text().splitlines() if line]
    chooser = random.Random(seed)
    judged = {"win": 0, "draw": 0}
    records: list[dict[str, Any]] = []
    while min(judged.values()) < quota and len(records) < max_drawn:
        sample = random_position(game, chooser, max_depth)
        if sample is None:
            continue
        position, ply = sample
        if len(records) < len(done):
            record = done[len(records)]
        else:
            answer = exact(position)
            value = answer.outcome.label
            record = {"position": game.render(position), "ply": ply, "value": value,
                      "moves": len(answer.moves), "keeping": len(answer.keeping)}  # fmt: skip
            if answer.informative and judged.get(value, quota) < quota:
                record["chosen"] = judge_moves(game, position, answer.keeping, budgets, seed)
            with path.open("a") as stream:
                stream.write(json.dumps(record) + "\n")
        records.append(record)
        if "chosen" in record:
            judged[record["value"]] += 1
            if progress is not None:
                progress({"phase": "move accuracy", "drawn": len(records), **judged})
    return records


def stage_of(ply: int, max_ply: int) -> str:
    """``early``, ``middle`` or ``late``: the third of ``0..max_ply`` that ``ply`` falls in."""
    third = max(1, max_ply // 3)
    return STAGES[min(2, ply // third)]


def accuracy_by_value(
    records: list[dict[str, Any]], budgets: list[int], max_ply: int
) -> dict[str, Any]:
    """Per exact value (win, draw, loss) of the positions valued: how many there are, how
    many are informative (some move gives the value away), how many of those were judged
    (searched at every budget), and per budget how often the search's move kept the value
    on the judged ones, with its 95% Wilson interval and per stage; ``budget_reaching_95`` the first budget whose rate is at least 95% (None if
    none is, or no position is informative). A record holds ``value``, ``moves``,
    ``keeping``, ``ply`` and ``chosen`` (budget as text -> [move, kept])."""
    out: dict[str, Any] = {}
    for value in VALUES:
        group = [r for r in records if r.get("value") == value]
        informative = [r for r in group if r["keeping"] < r["moves"]]
        judged = [r for r in informative if "chosen" in r]
        rows: list[dict[str, Any]] = []
        for budget in budgets:
            key = str(budget)
            kept = sum(1 for r in judged if r["chosen"][key][1])
            low, high = wilson(kept, len(judged))
            by_stage = {}
            for stage in STAGES:
                in_stage = [r for r in judged if stage_of(r["ply"], max_ply) == stage]
                by_stage[stage] = [sum(1 for r in in_stage if r["chosen"][key][1]), len(in_stage)]
            rows.append(
                {
                    "playouts": budget,
                    "kept": kept,
                    "rate": round(kept / len(judged), 4) if judged else None,
                    "interval": [round(low, 4), round(high, 4)],
                    "by_stage": by_stage,
                }
            )
        reaching = next(
            (row["playouts"] for row in rows if row["rate"] is not None and row["rate"] >= 0.95),
            None,
        )
        out[value] = {
            "positions": len(group),
            "informative": len(informative),
            "judged": len(judged),
            "budgets": rows,
            "budget_reaching_95": reaching,
        }
    return out


def trend_says(first_wins: int, second_wins: int, draws: int) -> str:
    """What one level of self-play says about the winner: ``draw`` when the draws' 95%
    interval lies above one half; else ``first`` or ``second`` when the first player's share
    of the decided games has its interval wholly above or below one half; else
    ``undecided``. With no drawn game this is the first player's win rate over all games."""
    games = first_wins + second_wins + draws
    if games and wilson(draws, games)[0] > 0.5:
        return "draw"
    low, high = wilson(first_wins, first_wins + second_wins)
    if high < 0.5:
        return "second"
    if low > 0.5:
        return "first"
    return "undecided"
