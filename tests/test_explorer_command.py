"""``cgt explore`` on the command line: one-line errors for bad input, loopback unless told
otherwise (with a warning), and Ctrl-C stops the server cleanly."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import urllib.request

import pytest

from cgtapp.commands.explore import is_loopback
from tests.explorer_support import ROOT, explorer_server


def run_cgt(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cgtapp", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["no-such-game"], "no-such-game"),
        (["control", "-p", "size=1"], "size"),
        (["control", "--budget", "0"], "budget"),
        (["control", "--budget", "601"], "budget"),
        (["control", "--port", "70000"], "port"),
        (["control", "--host", "no such host"], "--host"),
    ],
)
def test_bad_input_is_one_line_with_exit_status_2(args: list[str], words: str) -> None:
    done = run_cgt("explore", *args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cgt: error:") and words in lines[0]
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = run_cgt("explore", "control", "-p", "size=2", "--port", str(port))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"cgt: error: cannot listen on 127.0.0.1:{port}: Address already in use"
    ]


def test_another_host_warns_before_listening() -> None:
    # 192.0.2.1 (TEST-NET-1, RFC 5737) is on no interface: the warning comes, then the bind
    # fails, so nothing ever listens beyond loopback in this test
    done = run_cgt("explore", "control", "-p", "size=2", "--host", "192.0.2.1")
    warning, error = done.stderr.strip().splitlines()
    assert warning.startswith("cgt: warning: listening on 192.0.2.1: anyone who can reach")
    assert error.startswith("cgt: error: cannot listen on 192.0.2.1")
    assert done.returncode == 2


def test_loopback_addresses() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
    assert not is_loopback("example.org")


def test_listens_on_loopback_and_stops_on_ctrl_c() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "cgtapp", "explore", "tictactoe", "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("cgt explore tictactoe: http://127.0.0.1:")
        url = line.split()[3]
        with urllib.request.urlopen(url + "api/game", timeout=30) as response:
            assert b'"tictactoe"' in response.read()
    finally:
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=30)
    # the command line's convention for Ctrl-C: one line and status 130, after uvicorn's
    # graceful shutdown
    assert process.returncode == 130
    assert errors.strip().splitlines()[-1] == "cgt: interrupted"
    assert "Traceback" not in errors


def test_the_server_answers_bad_requests_and_keeps_serving() -> None:
    with explorer_server(["tictactoe"]) as url:
        request = urllib.request.Request(url + "api/play", data=b"{", method="POST")
        with pytest.raises(urllib.error.HTTPError) as failure:
            urllib.request.urlopen(request, timeout=30)
        assert failure.value.code == 400
        with urllib.request.urlopen(url + "api/position", timeout=30) as response:
            assert b'"draw"' in response.read()
