"""An embedded solution database (SQLite, in the standard library) so that solved positions
are answered again without solving: ``cgt query``, and checkpoints of long solves.

Rows are keyed by the game's name, its parameters (canonical JSON) and the position's key
(canonical under symmetry when the solve used symmetry, as recorded per row). The default
file is ``$CGT_DB`` or ``~/.cache/cgt/solutions.sqlite``.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Hashable, Iterable
from pathlib import Path
from typing import Any

from cgt.protocol import Game, Outcome

SCHEMA = """
CREATE TABLE IF NOT EXISTS solutions (
    game TEXT NOT NULL,
    params TEXT NOT NULL,
    key TEXT NOT NULL,
    outcome INTEGER NOT NULL,
    remoteness INTEGER,
    solver TEXT NOT NULL,
    PRIMARY KEY (game, params, key)
) WITHOUT ROWID;
"""


def default_path() -> Path:
    env = os.environ.get("CGT_DB")
    if env:
        return Path(env)
    return Path.home() / ".cache" / "cgt" / "solutions.sqlite"


def key_text(key: Hashable) -> str:
    """Stable text of a position key (ints, strings, bytes and tuples of them)."""
    return repr(key)


class SolutionDatabase:
    """Solved positions of every game, persisted in one SQLite file."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.connection = sqlite3.connect(self.path)
        self.connection.executescript(SCHEMA)

    @staticmethod
    def _params(game: Game[Any, Any]) -> str:
        return json.dumps(game.parameters, sort_keys=True, default=str)

    def store(
        self,
        game: Game[Any, Any],
        rows: Iterable[tuple[Hashable, Outcome, int | None]],
        solver: str,
    ) -> int:
        """Store ``(key, outcome, remoteness)`` rows; returns how many were written."""
        params = self._params(game)
        data = [(game.name, params, key_text(k), int(o), r, solver) for k, o, r in rows]
        with self.connection:
            self.connection.executemany(
                "INSERT OR REPLACE INTO solutions VALUES (?, ?, ?, ?, ?, ?)", data
            )
        return len(data)

    def lookup_key(self, game: Game[Any, Any], key: Hashable) -> tuple[Outcome, int | None] | None:
        row = self.connection.execute(
            "SELECT outcome, remoteness FROM solutions WHERE game=? AND params=? AND key=?",
            (game.name, self._params(game), key_text(key)),
        ).fetchone()
        return None if row is None else (Outcome(row[0]), row[1])

    def lookup(self, game: Game[Any, Any], position: Any) -> tuple[Outcome, int | None] | None:
        """Value of ``position`` if it (or a symmetric image) was solved before."""
        for key in (game.canonical_key(position), game.key(position)):
            found = self.lookup_key(game, key)
            if found is not None:
                return found
        return None

    def count(self, game: Game[Any, Any] | None = None) -> int:
        if game is None:
            return int(self.connection.execute("SELECT COUNT(*) FROM solutions").fetchone()[0])
        return int(
            self.connection.execute(
                "SELECT COUNT(*) FROM solutions WHERE game=? AND params=?",
                (game.name, self._params(game)),
            ).fetchone()[0]
        )

    def close(self) -> None:
        self.connection.close()
