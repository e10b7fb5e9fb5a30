"""Records of attempts on boards too large to solve within a check: each one the stored
result of a reproducible command (``benchmarks/attempts.py``), never a constant in the code.

A record is one JSON file ``reports/data/attempts/<name>.json``:

    {"attempt": "control-size4", "game": "control", "board": "size 4 (37 cells), perimeter
     opening", "solver": "...", "command": "python benchmarks/attempts.py control-size4
     --max-seconds 300", "date": "2026-11-23 18:02 UTC", "commit": "abc1234",
     "nodes": 1234567, "seconds": 300.0, "cpu_seconds": 290.1, "outcome": "open",
     "result": "one sentence: how far it got or what it found", "parameters": {...}}

``outcome`` is ``"open"`` (the budget ran out) or ``"solved"``; ``seconds`` is wall time and
``cpu_seconds`` process time (compare those on a shared machine). :func:`read_attempt` is the
one reader, for the checks and the reports alike.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cgt.errors import CGTError

#: Where the records live, in the repository (committed: a fresh clone has them).
ATTEMPTS_DIR = Path(__file__).resolve().parent.parent / "reports" / "data" / "attempts"
#: The fields every record has.
ATTEMPT_FIELDS = (
    "attempt",
    "game",
    "board",
    "solver",
    "command",
    "date",
    "commit",
    "nodes",
    "seconds",
    "cpu_seconds",
    "outcome",
    "result",
)


class AttemptRecordError(CGTError):
    """An attempt record that cannot be read (corrupt JSON, missing fields)."""


def attempt_path(name: str, directory: Path | None = None) -> Path:
    return (directory or ATTEMPTS_DIR) / f"{name}.json"


def read_attempt(name: str, directory: Path | None = None) -> dict[str, Any] | None:
    """The stored record of attempt ``name``, or None when it was never run. A record that
    exists but cannot be read raises :class:`AttemptRecordError` (one line)."""
    path = attempt_path(name, directory)
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise AttemptRecordError(f"cannot read the attempt record {path}: {exc}") from None
    if not isinstance(record, dict):
        raise AttemptRecordError(f"the attempt record {path} is not a JSON object")
    missing = [f for f in ATTEMPT_FIELDS if f not in record]
    if missing:
        raise AttemptRecordError(f"the attempt record {path} lacks {', '.join(missing)}")
    return record


def write_attempt(record: dict[str, Any], directory: Path | None = None) -> Path:
    """Store ``record`` (every field of :data:`ATTEMPT_FIELDS`) as ``<attempt>.json``."""
    missing = [f for f in ATTEMPT_FIELDS if f not in record]
    if missing:
        raise ValueError(f"an attempt record needs {', '.join(missing)}")
    path = attempt_path(record["attempt"], directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, sort_keys=False) + "\n")
    return path


def attempt_sentence(record: dict[str, Any] | None, name: str) -> str:
    """One plain sentence about the attempt, for findings and reports."""
    if record is None:
        return f"no attempt recorded (run python benchmarks/attempts.py {name})"
    return (
        f"{record['result']} ({record['solver']}; {record['nodes']:,} nodes in "
        f"{record['seconds']:,.0f} s on {record['date']} at commit {record['commit']}; "
        f"reproduce: {record['command']})"
    )
