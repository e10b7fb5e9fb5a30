"""Progress reporting on stderr for long runs (never on stdout, which may carry JSON)."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


class StderrProgress:
    """Callable given to solvers as ``progress``: prints at most every ``interval`` seconds.

    On a terminal it rewrites one line; elsewhere (CI logs, pipes) it prints a line at a
    slower pace so logs stay readable.
    """

    def __init__(self, label: str, interval: float = 0.5, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.interval = interval if self.tty else max(interval, 10.0)
        self.start = time.perf_counter()
        self.last = 0.0
        self.wrote = False

    def __call__(self, info: dict[str, Any]) -> None:
        now = time.perf_counter()
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


def _fmt(value: Any) -> str:
    if isinstance(value, int) and abs(value) >= 10_000:
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)
