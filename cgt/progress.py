"""Progress reporting on stderr for long runs (never on stdout, which may carry JSON)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

#: One report of how far a long computation got: its ``phase`` and counts (``nodes``,
#: ``positions``, ``seconds``...). Solvers, checks and reports send them; the command line
#: prints them on stderr (:class:`StderrProgress`).
ProgressEvent = dict[str, Any]
#: Where long work sends its progress events.
Progress = Callable[[ProgressEvent], None]


class StderrProgress:
    """Callable given to solvers as ``progress``: prints at most every ``interval`` seconds.

    On a terminal it rewrites one line; elsewhere (CI logs, pipes) it prints a line at a
    slower pace so logs stay readable.
    """

    def __init__(self, label: str, interval: float = 0.5, stream: TextIO | None = None) -> None:
        global _latest
        self.label = label
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.interval = interval if self.tty else max(interval, 10.0)
        self.start = time.perf_counter()
        self.last = 0.0
        self.wrote = False
        #: The counters of the latest report, printed or not (how far the run got).
        self.latest: dict[str, Any] = {}
        #: Root moves whose value a search has proven (``{"move", "outcome"}``), in order.
        self.proven_moves: list[dict[str, Any]] = []
        _latest = self

    def __call__(self, info: ProgressEvent) -> None:
        now = time.perf_counter()
        self.latest = {**self.latest, **info}
        if info.get("phase") == "root move" and "move" in info:
            self.proven_moves.append({"move": info["move"], "outcome": info.get("outcome")})
        if now - self.last < self.interval:
            return
        self.last = now
        fields = " ".join(f"{k}={_fmt(v)}" for k, v in info.items())
        text = f"{self.label}: {fields} [{now - self.start:.1f}s]"
        if self.tty:
            self.stream.write("\r\033[K" + text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self.wrote = True

    def close(self) -> None:
        if self.wrote and self.tty:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def how_far(self) -> str:
        """``3.2 s (phase=search nodes=120,345 ...)``: what an interrupted run had done."""
        counters = " ".join(f"{k}={_fmt(v)}" for k, v in self.latest.items() if k != "seconds")
        proven = f", {len(self.proven_moves)} root moves proven" if self.proven_moves else ""
        return f"{self.seconds():.1f} s ({self.label}: {counters or 'no progress reported yet'}{proven})"


#: The most recently started progress reporter (the command line's Ctrl-C message reads it).
_latest: StderrProgress | None = None


def latest_progress() -> StderrProgress | None:
    """The progress reporter of the run started last in this process, if any."""
    return _latest


def forget_progress() -> None:
    """Forget the last run (a new command starts)."""
    global _latest
    _latest = None


def _fmt(value: Any) -> str:
    if isinstance(value, int) and abs(value) >= 10_000:
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)
