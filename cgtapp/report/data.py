"""The stored results the reports are written from: one JSON file per result under
``reports/data/``, each carrying the command, date and commit that produced it.

A page never computes a number on its own: it reads these files, so ``cgt report all`` in a
fresh clone writes the same bytes every time and needs none of the multi-gigabyte solutions.
``cgt report GAME --refresh`` (or a benchmark) re-solves and rewrites a file.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cgt.errors import CGTError

#: Where the data lives, relative to the reports directory.
DATA_DIRNAME = "data"


class ReportDataError(CGTError):
    """A stored result is missing or unreadable."""


@dataclass(frozen=True)
class Stored:
    """One stored result: what it holds and how it was made."""

    name: str
    results: dict[str, Any]
    command: str
    date: str
    commit: str

    def provenance(self) -> str:
        """One line saying where the numbers come from, for the foot of a section."""
        return (
            f"Data: [`data/{self.name}.json`](data/{self.name}.json), written by `{self.command}` "
            f"on {self.date} at commit `{self.commit}`."
        )


def git_commit(cwd: Path | None = None) -> str:
    """The short commit of the checkout (``unknown`` outside git); ``+`` marks local edits."""
    here = cwd or Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=here,
            check=False,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", ":/cgt", ":/cgtapp", ":/solvers", ":/proofs"],
            capture_output=True,
            text=True,
            cwd=here,
            check=False,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return (commit or "unknown") + ("+" if commit and dirty else "")


def data_dir(out_dir: Path) -> Path:
    return out_dir / DATA_DIRNAME


def load(out_dir: Path, name: str) -> Stored | None:
    """The stored result ``name`` (``data/<name>.json``), or None when there is none."""
    path = data_dir(out_dir) / f"{name}.json"
    if not path.exists():
        return None
    try:
        raw = json.loads(path.read_text())
        return Stored(name, raw["results"], raw["command"], raw["date"], raw["commit"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ReportDataError(f"{path}: not a stored result ({exc})") from exc


def save(out_dir: Path, name: str, results: dict[str, Any], command: str) -> Stored:
    """Write ``results`` as ``data/<name>.json`` with today's date and the current commit."""
    stored = Stored(name, results, command, datetime.now(UTC).strftime("%Y-%m-%d"), git_commit())
    path = data_dir(out_dir) / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "command": stored.command,
        "date": stored.date,
        "commit": stored.commit,
        "results": results,
    }
    path.write_text(json.dumps(record, indent=1, sort_keys=False, default=str) + "\n")
    return stored


def ensure(
    out_dir: Path,
    name: str,
    compute: Callable[[], dict[str, Any]],
    command: str,
    refresh: bool = False,
) -> Stored:
    """The stored result ``name``; computed and written first when missing or ``refresh``."""
    stored = None if refresh else load(out_dir, name)
    if stored is None:
        stored = save(out_dir, name, compute(), command)
    return stored


#: The attempts recorded before attempt records became data files of their own; kept beside
#: the newer records (an entry says ``superseded_by`` when a later record solved its board).
LEGACY_ATTEMPTS = "larger-boards"


def attempts(out_dir: Path) -> list[dict[str, Any]]:
    """Records of attempts at the larger boards: ``data/attempts/*.json`` (sorted by file
    name), every entry of ``data/larger-boards.json`` and the frontier proofs. Each is a dict
    with at least ``game``, ``board``, ``status`` and ``file`` (the data file it came from);
    :func:`is_solved` and :func:`is_open` sort them."""
    folder = data_dir(out_dir) / "attempts"
    records = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            record = json.loads(path.read_text())
        except ValueError as exc:
            raise ReportDataError(f"{path}: not JSON ({exc})") from exc
        if isinstance(record, dict) and "results" in record and "game" not in record:
            record = {**record, **record["results"]}
        if isinstance(record, dict):
            record.setdefault("how_far", _attempt_summary(record))
            record.setdefault(
                "status", "solved" if record.get("outcome") == "solved" else "not solved"
            )
            records.append({**record, "file": f"data/attempts/{path.name}"})
    legacy = load(out_dir, LEGACY_ATTEMPTS)
    for entry in legacy.results.get("attempts", []) if legacy else []:
        records.append({**entry, "file": f"data/{LEGACY_ATTEMPTS}.json"})
    return records + frontier_attempts(out_dir)


def is_solved(record: dict[str, Any]) -> bool:
    """Whether the record solved its board (its status starts with "solved")."""
    return str(record.get("status", "")).startswith("solved")


def is_open(record: dict[str, Any]) -> bool:
    """Whether the record is an attempt at a board nobody has solved yet: not solved, and
    not an earlier attempt at a board a later record solved."""
    return not is_solved(record) and not record.get("superseded_by")


def _attempt_summary(record: dict[str, Any]) -> str:
    """One sentence from a record of ``benchmarks/attempts.py``: what ran and how far."""
    parts = [str(record.get("solver", "")).strip(), str(record.get("result", "")).strip()]
    text = ": ".join(p for p in parts if p)
    if isinstance(record.get("nodes"), int):
        text += f" ({record['nodes']:,} nodes"
        if record.get("seconds") is not None:
            text += f" in {float(record['seconds']):,.0f} s"
        text += f"; {record.get('date', '?')}, commit {record.get('commit', '?')})"
    return text + "."


def resume_summary(record: dict[str, Any]) -> str:
    """One sentence on a proof stopped with Ctrl-C and resumed (benchmarks/resume_demo.py)."""
    runs = record["runs"]
    counts = " -> ".join(str(r["proven_before"]) for r in runs) + f" -> {runs[-1]['proven_after']}"
    kept = (
        "no proven job was lost or tried again"
        if record["no_proven_job_lost"]
        else ("a proven job was lost or tried again")
    )
    return (
        f"Stopped with Ctrl-C and resumed {len(runs)} times ({record['run']['date']}): "
        f"proven jobs {counts}; {kept}."
    )


def regions_summary(record: dict[str, Any]) -> str:
    """One sentence on where a board splits into regions walled off by frozen pieces
    (benchmarks/control_regions.py)."""
    first_valued = record["first_valued_ply"]
    return (
        f"Regions walled off by frozen pieces ({record['date']}, `{record['command']}`): "
        f"{record['frontier_split']:,} of the {record['frontier_positions']:,} positions "
        f"{record['frontier_depth']} plies below the start split; in {record['games']:,} "
        f"random games the first split comes at ply {record['first_split_ply']}"
        + (
            f" and region values finish within {record['value_seconds']:g} s from ply "
            f"{first_valued}"
            if first_valued is not None
            else ""
        )
        + ", so the proof does not add up region values."
    )


def history_summary(record: dict[str, Any]) -> str:
    """One sentence on earlier runs of a board whose proven jobs were lost with their
    database, before the jobs were kept in a ledger beside the reports."""
    st, run = record["earlier_status"], record["earlier_run"]
    return (
        f"Earlier runs proved {st['proven']:,} of {st['jobs']:,} jobs ({st['won']:,} won, "
        f"{st['lost']:,} lost; {st['nodes']:,} nodes in {st['seconds']:,.0f} s of job time) "
        f"by {run['date']} (commit {run['commit']}); those jobs were lost with "
        f"{record['lost_with']}, so the frontier above starts again. From "
        f"{record['ledger_from']} every job is kept in `{record['ledger']}`, and a run on any "
        "machine resumes from it."
    )


def runs_summary(record: dict[str, Any]) -> str:
    """One sentence per run of a board's frontier: which search, proven jobs per hour of job
    time (which jobs each run took, the record's ``about`` says), and the machine's load
    average where the run recorded it (job time is wall-clock time)."""
    parts = [
        f"{run['dates']} ({run['search']}, commit {run['commit']}"
        + (
            f", load average {run['load_average'][0]:g}-{run['load_average'][1]:g}"
            if "load_average" in run
            else ""
        )
        + f"): {run['proven']:,} job{'' if run['proven'] == 1 else 's'} proven in "
        f"{run['job_seconds']:,.0f} s of job time, "
        f"{run['proven'] * 3600 / run['job_seconds']:,.0f} an hour, "
        f"{run['nodes'] / run['job_seconds'] / 1e6:,.1f} M nodes a second"
        for run in record["searches"]
    ]
    return f"Runs, {record['about']}: " + "; ".join(parts) + "."


#: Records quoted with their board's frontier record, by the suffix of their file name.
FRONTIER_NOTES = {
    "-resume": resume_summary,
    "-regions": regions_summary,
    "-history": history_summary,
    "-searches": runs_summary,
}


def frontier_attempts(out_dir: Path) -> list[dict[str, Any]]:
    """The frontier proofs of the open boards (``data/frontier/*.json``, written by
    ``benchmarks/open_boards.py``), as attempt records: how many jobs are proven."""
    folder = data_dir(out_dir) / "frontier"
    records = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        if path.stem.endswith(tuple(FRONTIER_NOTES)):
            continue  # a note on a board (resume, regions), quoted with its board below
        try:
            record = json.loads(path.read_text())
            st = record["status"]
            params = ", ".join(f"{k}={v}" for k, v in st["params"].items())
            root = f"{st['winner']} player wins" if st["winner"] else "the start undecided"
            how_far = (
                f"frontier proof at depth {st['depth']}: {st['proven']:,} of {st['jobs']:,} "
                f"jobs proven ({st['won']:,} won, {st['lost']:,} lost for the player to "
                f"move), {st['open']:,} open after {record['job_seconds']:g} s each, "
                f"{st['not_started']:,} not started; "
                + (
                    f"{st['split']:,} jobs split into their children when they ran out, "
                    f"{st['decided_positions']:,} positions above the jobs decided; "
                    if st.get("split")
                    else ""
                )
                + f"{root}; {st['nodes']:,} nodes in "
                f"{st['seconds']:,.0f} s of job time ({record['run']['date']}, commit "
                f"{record['run']['commit']})."
            )
            for suffix, summary in FRONTIER_NOTES.items():
                note = path.with_name(f"{path.stem}{suffix}.json")
                if note.is_file():
                    how_far += " " + summary(json.loads(note.read_text()))
        except (ValueError, KeyError, TypeError) as exc:
            raise ReportDataError(f"{path}: not a frontier record ({exc})") from exc
        records.append(
            {
                "game": st["game"],
                "board": f"{params} (frontier of jobs)",
                "status": "not solved" if st["winner"] is None else "solved",
                "how_far": how_far,
                "command": record["command"],
                "file": f"data/frontier/{path.name}",
            }
        )
    return records
