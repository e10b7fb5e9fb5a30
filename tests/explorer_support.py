"""Running the explorer as a person does, for the load and browser tests and
``docs/screenshots.py``: ``cgt explore`` in its own process on a free loopback port, and the
system's Chromium (Debian's ``chromium`` and ``chromium-driver``) driven by selenium."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cgtapp.cli import cli

ROOT = Path(__file__).resolve().parent.parent
#: Where Debian installs the browser and its driver (never downloaded by the tests).
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: Seconds a started server may take to print its address (imports, first compile).
START_SECONDS = 60


def interruptible() -> None:
    """Run in a child before it starts: Ctrl-C (SIGINT) back to its default. Some library of
    the test run (seen after the first half of the suite) leaves SIGINT ignored in the test
    process, and a child inherits that, so it would shrug off the Ctrl-C that stops it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def explorer_server(args: list[str], env: dict[str, str] | None = None) -> Iterator[str]:
    """Start ``cgt explore ARGS --port 0`` and yield its address; stop it (Ctrl-C) after."""
    command = [sys.executable, "-m", "cgtapp", "explore", *args, "--port", "0"]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
        start_new_session=True,
        preexec_fn=interruptible,
    )
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + START_SECONDS
        line = ""
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if line or process.poll() is not None:
                break
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if found is None:
            process.kill()
            _, errors = process.communicate(timeout=10)
            raise RuntimeError(f"cgt explore did not start: {line!r} {errors[-2000:]}")
        yield found.group(0)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def browser_missing() -> str | None:
    """Why no browser test can run here, or ``None`` when one can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not path.exists() and shutil.which(path.name) is None:
            return f"{path} not found (apt-get install -y chromium chromium-driver)"
    return None


@contextmanager
def chromium(width: int = 1280, height: int = 860) -> Iterator[Any]:
    """A headless Chromium from the system packages, driven by selenium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM if CHROMIUM.exists() else shutil.which("chromium"))
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(argument)
    driver_path = CHROMEDRIVER if CHROMEDRIVER.exists() else shutil.which("chromedriver")
    driver = webdriver.Chrome(service=Service(str(driver_path)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def wait_ready(driver: Any, position: str | None = None, seconds: float = 60) -> None:
    """Wait until the page has drawn an answer (of ``position``, when given)."""
    from selenium.webdriver.support.ui import WebDriverWait

    def ready(d: Any) -> bool:
        data = d.execute_script(
            "return [document.body.dataset.ready, document.body.dataset.position]"
        )
        return data[0] == "true" and (position is None or data[1] == position)

    WebDriverWait(driver, seconds, poll_frequency=0.05).until(ready)


def cli_json(args: list[str]) -> dict[str, Any]:
    """What ``cgt ARGS`` prints as JSON (in this process)."""
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data
