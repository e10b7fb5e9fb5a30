"""Self-play at doubling strengths (Ludii's SkillTrace): both sides played by the search of
:mod:`solvers.player` at the same budget, every finished game stored at once in a JSON-lines
file, so a stopped run resumes where it stopped.

The numbers are estimates: the first player's win rate carries a 95% Wilson interval, and
what it means on a board nobody can solve is read beside the calibration on the boards the
toolkit has solved (:mod:`solvers.calibration`).
"""

from __future__ import annotations

import json
import math
import os
import zlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cgt.errors import CGTError, ParameterError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from solvers.player import playout_rules, search_move

#: z of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (0..1 for no trial)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class GameRecord:
    """One self-play game: its budget and seed, the moves by name, the winner (index into
    the game's players; None for a draw, or a game stopped at the ply cap) and the first
    player."""

    playouts: int
    seed: int
    moves: tuple[str, ...]
    winner: int | None
    first: int
    capped: bool = False

    @property
    def length(self) -> int:
        return len(self.moves)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["moves"] = list(self.moves)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        return cls(
            playouts=int(data["playouts"]),
            seed=int(data["seed"]),
            moves=tuple(data["moves"]),
            winner=data["winner"],
            first=int(data["first"]),
            capped=bool(data.get("capped", False)),
        )


def play_game(
    game: Game[Any, Any], position: Any, playouts: int, seed: int, max_plies: int | None = None
) -> GameRecord:
    """Both sides played by the search at ``playouts`` playouts a move; a game longer than
    ``max_plies`` (default: the playouts' own cap) stops as a draw."""
    if max_plies is None:
        max_plies = playout_rules(game).max_plies
    first = game.to_move(position)
    moves: list[str] = []
    while game.result(position) is None and len(moves) < max_plies:
        choice = search_move(game, position, playouts=playouts, seed=seed * 1000 + len(moves))
        moves.append(choice.name)
        position = game.play(position, choice.move)
    result = game.result(position)
    mover = game.to_move(position)
    winner = None
    if result is Outcome.WIN:
        winner = mover
    elif result is Outcome.LOSS:
        winner = 1 - mover
    return GameRecord(playouts, seed, tuple(moves), winner, first, capped=result is None)


def game_seed(seed: int, playouts: int, index: int) -> int:
    """The seed of game ``index`` at one budget (stable across runs and machines)."""
    return zlib.crc32(f"{seed}:{playouts}:{index}".encode())


@dataclass(frozen=True)
class Level:
    """The games at one budget, summed up."""

    playouts: int
    games: int
    first_wins: int
    second_wins: int
    draws: int
    mean_length: float
    openings: tuple[tuple[str, int], ...]

    @property
    def first_win_rate(self) -> float | None:
        return self.first_wins / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.first_wins, self.games)

    def as_dict(self) -> dict[str, Any]:
        rate = self.first_win_rate
        low, high = self.interval
        return {
            "playouts": self.playouts,
            "games": self.games,
            "first_wins": self.first_wins,
            "second_wins": self.second_wins,
            "draws": self.draws,
            "first_win_rate": None if rate is None else round(rate, 4),
            "interval": [round(low, 4), round(high, 4)],
            "mean_length": round(self.mean_length, 2),
            "openings": [{"move": m, "games": n} for m, n in self.openings],
        }


def summarise(playouts: int, records: Iterable[GameRecord]) -> Level:
    """A level's counts (draws include games stopped at the ply cap)."""
    games = list(records)
    first = sum(1 for r in games if r.winner is not None and r.winner == r.first)
    second = sum(1 for r in games if r.winner is not None and r.winner != r.first)
    openings = Counter(r.moves[0] for r in games if r.moves)
    return Level(
        playouts=playouts,
        games=len(games),
        first_wins=first,
        second_wins=second,
        draws=len(games) - first - second,
        mean_length=sum(r.length for r in games) / len(games) if games else 0.0,
        openings=tuple(sorted(openings.items(), key=lambda item: (-item[1], item[0]))),
    )


class GameStore:
    """The JSON-lines file of one board's self-play games: a header line naming the game,
    its parameters and start position, then one line per finished game, appended (and
    flushed) as each game ends."""

    def __init__(self, path: Path, game: Game[Any, Any], position: Any) -> None:
        self.path = path
        self.header = {
            "game": game.name,
            "params": game.parameters,
            "position": game.render(position),
        }
        self.records: dict[tuple[int, int], GameRecord] = {}
        if path.exists():
            self._read()
        else:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps({"header": self.header}) + "\n")
            except OSError as exc:
                raise CGTError(f"cannot write the self-play store {path}: {exc.strerror}") from None

    def _read(self) -> None:
        try:
            lines = self.path.read_text().splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise CGTError(f"cannot read the self-play store {self.path}: {exc}") from None
        try:
            header = json.loads(lines[0])["header"] if lines else None
        except (ValueError, KeyError, TypeError):
            header = None
        if header != json.loads(json.dumps(self.header)):
            raise CGTError(
                f"{self.path} is not a self-play store of {self.header['game']} "
                f"{self.header['params']} from {self.header['position']!r}"
            )
        for number, line in enumerate(lines[1:], start=2):
            try:
                record = GameRecord.from_dict(json.loads(line))
            except (ValueError, KeyError, TypeError):
                if number == len(lines):
                    continue  # a line cut short by an interruption: that game is replayed
                raise CGTError(f"{self.path} line {number} is not a game record") from None
            self.records[(record.playouts, record.seed)] = record

    def add(self, record: GameRecord) -> None:
        self.records[(record.playouts, record.seed)] = record
        with self.path.open("a") as stream:
            stream.write(json.dumps(record.as_dict()) + "\n")
            stream.flush()


def stored_levels(
    game: Game[Any, Any], position: Any, store: Path, budgets: list[int], games: int, seed: int = 0
) -> list[Level]:
    """The levels of the games already stored (a run stopped part way: fewer games), without
    playing any; budgets with no stored game are left out."""
    records = GameStore(store, game, position).records
    levels = []
    for playouts in budgets:
        seeds = [game_seed(seed, playouts, i) for i in range(games)]
        found = [records[(playouts, s)] for s in seeds if (playouts, s) in records]
        if found:
            levels.append(summarise(playouts, found))
    return levels


def default_jobs() -> int:
    """All the cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _play_job(game: Game[Any, Any], position: Any, playouts: int, seed: int) -> GameRecord:
    return play_game(game, position, playouts, seed)


def balance(
    game: Game[Any, Any],
    position: Any,
    *,
    games: int,
    budgets: list[int],
    store: Path,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "loky",
    progress: Progress | None = None,
) -> list[Level]:
    """``games`` self-play games at each budget in turn (the stored ones are not played
    again); the levels in the order of ``budgets``."""
    from joblib import delayed

    from solvers.split import check_backend, make_parallel

    if games < 1:
        raise ParameterError(f"games must be at least 1, got {games}")
    if not budgets or any(b < 1 for b in budgets):
        raise ParameterError(f"playouts must be positive integers, got {budgets}")
    if game.result(position) is not None:
        raise CGTError(f"{game.label()}: the game is over at {game.render(position)!r}")
    check_backend(backend)
    games_store = GameStore(store, game, position)
    levels = []
    for playouts in budgets:
        seeds = [game_seed(seed, playouts, i) for i in range(games)]
        pending = [s for s in seeds if (playouts, s) not in games_store.records]
        done = games - len(pending)
        if pending:
            if jobs == 1:
                outputs: Iterable[GameRecord] = (
                    _play_job(game, position, playouts, s) for s in pending
                )
            else:
                outputs = make_parallel(jobs, backend, ordered=False)(
                    delayed(_play_job)(game, position, playouts, s) for s in pending
                )
            for record in outputs:
                games_store.add(record)
                done += 1
                if progress is not None:
                    progress({"phase": "self-play", "playouts": playouts, "games": done})
        levels.append(summarise(playouts, (games_store.records[(playouts, s)] for s in seeds)))
    return levels


# ------------------------------------------------------------------ picks over setups
def winners_of(
    game: Game[Any, Any], position: Any, playouts: int, seeds: Iterable[int]
) -> list[int | None]:
    """The winner (player index, None for a draw or a capped game) of one self-play game per
    seed from ``position``."""
    return [play_game(game, position, playouts, seed).winner for seed in seeds]


def majority(winners: list[int | None]) -> int | None:
    """The player who won most of ``winners`` (None on a tie or when draws are most)."""
    counts = Counter(winners)
    ranked = counts.most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


class RecordStore:
    """A JSON-lines file of records keyed by a string: a header line (checked when the file
    is read again), then one record per line, appended and flushed as each is found, so a
    stopped run resumes without redoing one."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.header = json.loads(json.dumps(header))
        self.records: dict[str, dict[str, Any]] = {}
        if not path.exists():
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps({"header": self.header}) + "\n")
            except OSError as exc:
                raise CGTError(f"cannot write the record store {path}: {exc.strerror}") from None
            return
        try:
            lines = path.read_text().splitlines()
            header_found = json.loads(lines[0])["header"] if lines else None
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
            header_found = None
        if header_found != self.header:
            raise CGTError(f"{path} is not a record store of {self.header}")
        for number, line in enumerate(lines[1:], start=2):
            try:
                record = json.loads(line)
                self.records[str(record["key"])] = record
            except (ValueError, KeyError, TypeError):
                if number == len(lines):
                    continue  # a line cut short by an interruption: that record is redone
                raise CGTError(f"{path} line {number} is not a record") from None

    def add(self, record: dict[str, Any]) -> None:
        self.records[str(record["key"])] = record
        with self.path.open("a") as stream:
            stream.write(json.dumps(record, sort_keys=True) + "\n")
            stream.flush()


def pick_summary(records: Iterable[dict[str, Any]], player: int = 0) -> dict[str, Any]:
    """Over setups (records with ``pick``, and ``exact`` where the exact winner is known):
    how many self-play gives to ``player`` (the share a strong chooser would take with
    that player, with its 95% Wilson interval), how many it leaves undecided, and where the
    exact winner is known how often the pick is the exact one."""
    rows = list(records)
    taken = sum(1 for r in rows if r["pick"] == player)
    undecided = sum(1 for r in rows if r["pick"] is None)
    low, high = wilson(taken, len(rows))
    summary: dict[str, Any] = {
        "setups": len(rows),
        "player_picks": taken,
        "other_picks": len(rows) - taken - undecided,
        "undecided": undecided,
        "share": round(taken / len(rows), 4) if rows else None,
        "interval": [round(low, 4), round(high, 4)],
    }
    judged = [r for r in rows if r.get("exact") is not None]
    if judged:
        agree = sum(1 for r in judged if r["pick"] == r["exact"])
        exact_taken = sum(1 for r in judged if r["exact"] == player)
        low, high = wilson(agree, len(judged))
        summary.update(
            exact_player_wins=exact_taken,
            agree=agree,
            agreement=round(agree / len(judged), 4),
            agreement_interval=[round(low, 4), round(high, 4)],
        )
    return summary
