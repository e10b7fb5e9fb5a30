"""Requests the explorer refuses: every failure is JSON (404, 405, 415, 403, 500), another web
page cannot drive it (foreign Host or Origin, a body that is not JSON), and a position it could
not solve is not refused for good."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from cgt.protocol import Outcome
from cgt.registry import load_game
from cgtapp.explorer import values as values_module
from cgtapp.explorer.app import Explorer, create_app
from cgtapp.explorer.values import NotSolved, PositionValues, ValueSource
from tests.explorer_support import cli_json
from tests.test_explorer_api import LOCAL_URL, client_for


@pytest.mark.parametrize(
    ("method", "path", "status", "words"),
    [
        ("get", "/nope", 404, "no such address: /nope"),
        ("get", "/api/nope", 404, "no such address"),
        ("get", "/reports/abc", 404, "no such address"),
        ("get", "/api/play", 405, "GET is not allowed on /api/play (allowed: POST)"),
        ("get", "/api/computer", 405, "allowed: POST"),
        ("delete", "/api/game", 405, "DELETE is not allowed"),
    ],
)
def test_unknown_addresses_and_methods_are_answered_in_json(
    tmp_path: Path, method: str, path: str, status: int, words: str
) -> None:
    client = client_for("tictactoe", {}, tmp_path / "none.sqlite")
    response = client.request(method, path)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    assert words in response.json()["error"]


def test_an_internal_failure_is_a_json_500_and_the_server_keeps_serving(tmp_path: Path) -> None:
    game = load_game("tictactoe")

    class Failing(Explorer):
        def game_data(self) -> dict[str, Any]:
            raise RuntimeError("broken")

    app = create_app(Failing(game, ValueSource(game, tmp_path / "none.sqlite")))
    client = TestClient(app, base_url=LOCAL_URL, raise_server_exceptions=False)
    response = client.get("/api/game")
    assert response.status_code == 500
    assert response.json() == {"error": "internal error of the explorer (RuntimeError)"}
    assert client.get("/api/position").json()["value"]["outcome"] == "draw"


@pytest.mark.parametrize(
    ("headers", "words"),
    [
        ({"Host": "evil.example"}, "Host 'evil.example'"),
        ({"Host": "evil.example:8765"}, "is not this explorer's address"),
        ({"Host": "127.0.0.1.evil.example"}, "is not this explorer's address"),
        ({"Origin": "http://evil.example"}, "another site"),
        ({"Origin": "http://127.0.0.1:9999"}, "another site"),  # another port: another site
        ({"Origin": "null"}, "another site"),  # a sandboxed page
    ],
)
def test_another_site_cannot_read_or_drive_the_explorer(
    tmp_path: Path, headers: dict[str, str], words: str
) -> None:
    client = client_for("control", {"size": 2}, tmp_path / "none.sqlite")
    for response in (
        client.get("/api/game", headers=headers),
        client.post("/api/play", json={"move": "a1"}, headers=headers),
    ):
        assert response.status_code == 403
        assert words in response.json()["error"]


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "10.1.2.3", "myhost:8765"]
)
def test_this_machine_is_reached_by_address_by_localhost_and_by_its_host_name(
    tmp_path: Path, host: str
) -> None:
    game = load_game("control", size=2)
    app = create_app(Explorer(game, ValueSource(game, tmp_path / "none.sqlite")), {"myhost"})
    client = TestClient(app, base_url=LOCAL_URL)
    origin = f"http://{host}"
    response = client.post(
        "/api/play", json={"move": "a1"}, headers={"Host": host, "Origin": origin}
    )
    assert response.status_code == 200 and response.json()["played"] == "a1"


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_a_body_that_is_not_declared_json_is_refused(
    tmp_path: Path, content_type: str | None
) -> None:
    # the bodies a page of another site may send without asking the explorer first (CORS)
    client = client_for("control", {"size": 2}, tmp_path / "none.sqlite")
    headers = {} if content_type is None else {"Content-Type": content_type}
    for path in ("/api/play", "/api/computer"):
        response = client.post(path, content=b'{"move": "a1"}', headers=headers)
        assert response.status_code == 415
        assert "application/json" in response.json()["error"]
    declared = client.post(
        "/api/play",
        content=b'{"move": "a1"}',
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert declared.status_code == 200


def test_an_unsolved_position_has_every_key_of_a_solved_one(tmp_path: Path) -> None:
    solved = client_for("control", {"size": 2}, tmp_path / "none.sqlite").get("/api/position")
    unsolved = client_for("control", {"size": 5}, tmp_path / "none.sqlite", budget=0.2)
    answer = unsolved.get("/api/position").json()
    assert answer["value"] is None and answer["source"] is None and answer["solver"] is None
    assert set(solved.json()) - {"best_moves"} <= set(answer) - {"message"}


class SolvesOnSecondAsking(ValueSource):
    """Runs out of budget on its first solve, then solves (counting its solves)."""

    solves = 0

    def _solve(self, position: Any) -> PositionValues:
        self.solves += 1
        if self.solves == 1:
            raise NotSolved("not solved within 0 s")
        return super()._solve(position)


def test_a_failed_solve_is_tried_again_once_its_time_is_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load_game("control", size=2)
    source = SolvesOnSecondAsking(game, tmp_path / "none.sqlite")
    client = TestClient(create_app(Explorer(game, source)), base_url=LOCAL_URL)
    assert "not solved" in client.get("/api/position").json()["message"]
    # asked again at once: the same answer without a second solve
    assert "not solved" in client.get("/api/position").json()["message"]
    assert source.solves == 1
    monkeypatch.setattr(values_module, "FAILED_SECONDS", 0.0)
    answer = client.get("/api/position").json()
    assert source.solves == 2
    # by hand (the API test's reference): White wins Control size 2
    assert answer["value"]["outcome"] == Outcome.WIN.label and answer["source"] == "solved"


class NeverSolves(ValueSource):
    def _solve(self, position: Any) -> PositionValues:
        raise NotSolved("not solved within 0 s")


def test_a_solution_stored_after_a_failed_solve_is_served(tmp_path: Path) -> None:
    db = tmp_path / "solutions.sqlite"
    game = load_game("control", size=2)
    source = NeverSolves(game, db)
    client = TestClient(create_app(Explorer(game, source)), base_url=LOCAL_URL)
    assert client.get("/api/position").json()["value"] is None
    stored = cli_json(["solve", "control", "-p", "size=2", "--save", "--db", str(db), "--json"])
    answer = client.get("/api/position").json()
    assert answer["source"] == "stored"
    assert answer["value"]["outcome"] == stored["outcome"]
    assert answer["value"]["remoteness"] == stored["remoteness"]


def test_a_refusal_quotes_a_long_input_cut_short(tmp_path: Path) -> None:
    client = client_for("control", {"size": 2}, tmp_path / "none.sqlite")
    response = client.get("/api/position", params={"position": "z" * 4096})
    assert response.status_code == 400
    message = response.json()["error"]
    assert "expected" in message and len(message) < 400 and message.endswith(" characters)")


def test_a_body_not_in_utf_8_is_refused(tmp_path: Path) -> None:
    # RFC 8259: JSON between systems is UTF-8; json.loads alone would read UTF-16 too
    client = client_for("control", {"size": 2}, tmp_path / "none.sqlite")
    body = '{"move": "a1"}'.encode("utf-16")
    response = client.post("/api/play", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and "must be JSON" in response.json()["error"]
