"""Run the ``cgt`` command line inside the test process: exit status, stdout, stderr."""

from __future__ import annotations

import pytest

from cgtapp.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
