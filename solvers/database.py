"""An embedded solution database (SQLite, in the standard library) so that solved positions
are answered again without solving: ``cgt query``, and checkpoints of long solves.

Rows are keyed by the game's name, its parameters (canonical JSON) and the position's key
(canonical under symmetry when the solve used symmetry, as recorded per row). The default
file is ``$CGT_DB`` or ``~/.cache/cgt/solutions.sqlite``.

The packed solutions of the compiled retrograde kernels (billions of positions) do not go
into rows: they are files of :mod:`solvers.store` in the folder beside the database
(:attr:`SolutionDatabase.packed_dir`), which the table ``packed_solutions`` indexes with the
game, its parameters, the file's size and when, at which commit and by which command it was
made. A database file that is not SQLite, or a place where it cannot be written, is a
one-line :class:`DatabaseError`.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cgt.errors import CGTError
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
CREATE TABLE IF NOT EXISTS packed_solutions (
    path TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    params TEXT NOT NULL,
    root TEXT NOT NULL,
    records INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    format_version INTEGER NOT NULL,
    created TEXT NOT NULL,
    git_commit TEXT,
    command TEXT
);
"""


class DatabaseError(CGTError):
    """The solution database cannot be opened, read or written."""


@dataclass(frozen=True)
class PackedEntry:
    """One stored packed solution as the database indexes it."""

    path: Path
    game: str
    params: dict[str, Any]
    root: str
    records: int
    bytes: int
    format_version: int
    created: str
    git_commit: str | None
    command: str | None

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "path": str(self.path)}


def default_path() -> Path:
    env = os.environ.get("CGT_DB")
    if env:
        return Path(env)
    return Path.home() / ".cache" / "cgt" / "solutions.sqlite"


def params_text(params: dict[str, Any]) -> str:
    """Canonical JSON of a game's parameters (the key of its stored solutions)."""
    return json.dumps(params, sort_keys=True, default=str)


def key_text(key: Hashable) -> str:
    """Stable text of a position key (ints, strings, bytes and tuples of them)."""
    return repr(key)


class SolutionDatabase:
    """Solved positions of every game, persisted in one SQLite file."""

    def __init__(self, path: Path | str | None = None, *, must_exist: bool = False) -> None:
        """Open (creating it, unless ``must_exist``: a reader given a mistyped path must not
        make an empty database and its folders) the database at ``path``."""
        self.path = Path(path) if path is not None else default_path()
        if must_exist and not self.path.exists():
            raise DatabaseError(
                f"solution database {self.path} does not exist (nothing was saved there; "
                "check the path)"
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(
                f"cannot create the solution database's folder {self.path.parent}: {exc.strerror}"
            ) from None
        if self.path.is_dir():
            raise DatabaseError(f"solution database {self.path} is a folder, not a file")
        try:
            self.connection = sqlite3.connect(self.path, check_same_thread=False)
            self.connection.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def _error(self, exc: sqlite3.Error) -> DatabaseError:
        """A one-line error naming the file: not SQLite, unwritable, locked..."""
        message = str(exc)
        if "not a database" in message or "malformed" in message:
            return DatabaseError(f"solution database {self.path} is not a valid SQLite file")
        return DatabaseError(f"solution database {self.path}: {message}")

    @property
    def packed_dir(self) -> Path:
        """Where packed solutions are written: the folder beside the database file."""
        return self.path.with_name(self.path.stem + ".packed")

    @staticmethod
    def _params(game: Game[Any, Any]) -> str:
        return params_text(game.parameters)

    def store(
        self,
        game: Game[Any, Any],
        rows: Iterable[tuple[Hashable, Outcome, int | None]],
        solver: str,
    ) -> int:
        """Store ``(key, outcome, remoteness)`` rows; returns how many were written."""
        params = self._params(game)
        data = [(game.name, params, key_text(k), int(o), r, solver) for k, o, r in rows]
        try:
            with self.connection:
                self.connection.executemany(
                    "INSERT OR REPLACE INTO solutions VALUES (?, ?, ?, ?, ?, ?)", data
                )
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        return len(data)

    # ------------------------------------------------------------ packed solutions
    def register_packed(self, entry: PackedEntry) -> None:
        """Index a packed solution file (replacing an entry with the same path)."""
        row = (
            self._path_text(entry.path),
            entry.game,
            params_text(entry.params),
            entry.root,
            entry.records,
            entry.bytes,
            entry.format_version,
            entry.created,
            entry.git_commit,
            entry.command,
        )
        try:
            with self.connection:
                self.connection.execute(
                    "INSERT OR REPLACE INTO packed_solutions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def packed_solutions(
        self, game_name: str | None = None, params: dict[str, Any] | None = None
    ) -> list[PackedEntry]:
        """The indexed packed solutions (of one game, and parameters), newest first."""
        query = "SELECT * FROM packed_solutions"
        conditions: list[str] = []
        values: list[str] = []
        if game_name is not None:
            conditions.append("game=?")
            values.append(game_name)
        if params is not None:
            conditions.append("params=?")
            values.append(params_text(params))
        if conditions:
            query += " WHERE " + " AND ".join(conditions)
        rows = self._select(query + " ORDER BY created DESC", values)
        return [
            PackedEntry(self._stored_path(r[0]), r[1], json.loads(r[2]), r[3], *r[4:]) for r in rows
        ]

    def _path_text(self, path: Path) -> str:
        """How the index names a packed file: relative to the database's folder when it lies
        there, so that moving the folder keeps every stored solution found."""
        folder = self.path.parent.resolve()
        try:
            return Path(path).resolve().relative_to(folder).as_posix()
        except ValueError:
            return str(Path(path).resolve())

    def _stored_path(self, text: str) -> Path:
        path = Path(text)
        if not path.is_absolute():
            return self.path.parent / path
        beside = self.packed_dir / path.name  # an older absolute entry whose folder moved
        return beside if not path.exists() and beside.exists() else path

    def remove_packed(self, entry: PackedEntry) -> None:
        """Forget a packed solution and delete its file."""
        try:
            with self.connection:
                self.connection.execute(
                    "DELETE FROM packed_solutions WHERE path IN (?, ?)",
                    (self._path_text(entry.path), str(entry.path)),
                )
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        entry.path.unlink(missing_ok=True)

    def position_summary(self) -> list[tuple[str, dict[str, Any], str, int]]:
        """``(game, parameters, solver, positions)`` of the positions stored as rows."""
        rows = self._select(
            "SELECT game, params, solver, COUNT(*) FROM solutions GROUP BY game, params, solver"
            " ORDER BY game, params"
        )
        return [(r[0], json.loads(r[1]), r[2], int(r[3])) for r in rows]

    def remove_positions(self, game_name: str, params: dict[str, Any]) -> int:
        """Delete the positions stored as rows for one game and parameters; how many."""
        try:
            with self.connection:
                cursor = self.connection.execute(
                    "DELETE FROM solutions WHERE game=? AND params=?",
                    (game_name, params_text(params)),
                )
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        return int(cursor.rowcount)

    def _select(self, query: str, values: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            return list(self.connection.execute(query, values).fetchall())
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def lookup_key(self, game: Game[Any, Any], key: Hashable) -> tuple[Outcome, int | None] | None:
        rows = self._select(
            "SELECT outcome, remoteness FROM solutions WHERE game=? AND params=? AND key=?",
            (game.name, self._params(game), key_text(key)),
        )
        return None if not rows else (Outcome(rows[0][0]), rows[0][1])

    def lookup(self, game: Game[Any, Any], position: Any) -> tuple[Outcome, int | None] | None:
        """Value of ``position`` if it (or a symmetric image) was solved before."""
        for key in (game.canonical_key(position), game.key(position)):
            found = self.lookup_key(game, key)
            if found is not None:
                return found
        return None

    def count(self, game: Game[Any, Any] | None = None) -> int:
        if game is None:
            return int(self._select("SELECT COUNT(*) FROM solutions")[0][0])
        return int(
            self._select(
                "SELECT COUNT(*) FROM solutions WHERE game=? AND params=?",
                (game.name, self._params(game)),
            )[0][0]
        )

    def close(self) -> None:
        self.connection.close()
