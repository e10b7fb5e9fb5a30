"""Output directories of the commands (``--out``): checked before any work starts, so an
unwritable one ends in one line (exit status 2) instead of a traceback after minutes of
work."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from cgt.errors import CGTError


class OutputError(CGTError):
    """An output directory or file cannot be written."""


def writable_directory(path: Path, option: str = "--out") -> Path:
    """Create ``path`` if needed and make sure a file can be written in it; otherwise raise
    :class:`OutputError` naming the option, the directory and the reason."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".cgt-write-test-"):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise OutputError(f"{option} {path}: cannot write there ({reason})") from None
    return path


def output_failure(path: Path | str, exc: OSError) -> OutputError:
    """The one-line error for a write that failed part way (disk full, removed directory)."""
    return OutputError(f"cannot write {os.fspath(path)}: {exc.strerror or exc}")
