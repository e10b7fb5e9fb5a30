"""The explorer's JSON API through Starlette's test client: its values are those of
``cgt solve`` / ``cgt query`` on the same positions, bad input gets HTTP 400 with a message,
and the server keeps answering afterwards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from cgt.registry import load_game
from cgtapp.explorer.app import MAX_BODY_BYTES, Explorer, create_app
from cgtapp.explorer.values import ValueSource
from tests.explorer_support import cli_json

#: The explorer answers requests addressed to this machine only.
LOCAL_URL = "http://127.0.0.1:8765"
ENTROPY_4X3 = {"width": 4, "height": 3, "setup": "SS../..../..OO O"}


def client_for(
    name: str, params: dict[str, Any], db: Path, reports: Path | None = None, budget: float = 30
) -> TestClient:
    game = load_game(name, **params)
    return TestClient(
        create_app(Explorer(game, ValueSource(game, db, max_seconds=budget), reports)),
        base_url=LOCAL_URL,
    )


def param_args(params: dict[str, Any]) -> list[str]:
    return [arg for key, value in params.items() for arg in ("-p", f"{key}={value}")]


def assert_same_values(api: dict[str, Any], reference: dict[str, Any]) -> None:
    """The API's value and move values equal the command line's, move by move."""
    assert api["position"] == reference["position"]
    assert api["value"]["outcome"] == reference["outcome"]
    assert api["value"]["remoteness"] == reference["remoteness"]
    ours = {m["move"]: (m["outcome"], m["remoteness"]) for m in api["moves"]}
    theirs = {m["move"]: (m["outcome"], m["remoteness"]) for m in reference["moves"]}
    assert ours == theirs
    assert sorted(api["best_moves"]) == sorted(reference["best_moves"])


def walk(client: TestClient, plies: int) -> list[dict[str, Any]]:
    """Answers along a line that always plays the first listed move."""
    answers = [client.get("/api/position").json()]
    for _ in range(plies):
        current = answers[-1]
        if not current["moves"]:
            break
        response = client.post(
            "/api/play", json={"position": current["position"], "move": current["moves"][0]["move"]}
        )
        assert response.status_code == 200, response.text
        answers.append(response.json())
    return answers


def test_control_size_2_values_equal_cgt_solve(tmp_path: Path) -> None:
    params = {"size": 2}
    client = client_for("control", params, tmp_path / "none.sqlite")
    for answer in walk(client, 4):
        if answer["game_over"]:
            continue
        reference = cli_json(
            ["solve", "control", *param_args(params), "--position", answer["position"], "--json"]
        )
        assert answer["source"] == "solved"
        assert_same_values(answer, reference)


def test_tictactoe_is_a_draw_and_a_completed_line_wins_at_once(tmp_path: Path) -> None:
    client = client_for("tictactoe", {}, tmp_path / "none.sqlite")
    start = client.get("/api/position").json()
    # the classical result: every opening of tic-tac-toe is a draw with perfect play
    assert start["value"] == {"outcome": "draw", "remoteness": None, "winner": "draw"}
    assert sorted(m["move"] for m in start["moves"]) == sorted(
        f"{f}{r}" for f in "abc" for r in "123"
    )
    assert {m["outcome"] for m in start["moves"]} == {"draw"}
    # by hand: X (to move, 2 marks each) completes the top rank with c3 and wins in one ply
    threat = client.get("/api/position", params={"position": "XX./OO./..."}).json()
    assert threat["value"]["outcome"] == "win" and threat["value"]["remoteness"] == 1
    assert "c3" in threat["best_moves"]
    reference = cli_json(["solve", "tictactoe", "--position", "XX./OO./...", "--json"])
    assert_same_values(threat, reference)


@pytest.mark.parametrize(
    ("solver", "kept_as"),
    [("retrograde", "database"), ("compiled", "packed")],  # SQLite rows; the packed store
)
def test_stored_entropy_values_equal_cgt_query(tmp_path: Path, solver: str, kept_as: str) -> None:
    db = tmp_path / "solutions.sqlite"
    args = param_args(ENTROPY_4X3)
    cli_json(["solve", "entropy", *args, "--solver", solver, "--save", "--db", str(db), "--json"])
    client = client_for("entropy", ENTROPY_4X3, db)
    answers = walk(client, 6)
    assert len(answers) > 3
    for answer in answers:
        if answer["game_over"]:
            continue
        reference = cli_json(
            ["query", "entropy", answer["position"], *args, "--db", str(db), "--json"]
        )
        assert answer["source"] == "stored" and answer["solver"] == kept_as
        assert reference["source"] == kept_as
        assert_same_values(answer, reference)
    # movement game: every move names the square a piece leaves and the one it reaches
    start = answers[0]
    cells = {c["cell"]: c["name"] for c in start["board"]["cells"]}
    for move in start["moves"]:
        assert move["move"] == f"{cells[move['from']]}-{cells[move['to']]}"


def test_not_stored_and_not_solved_in_time_says_so(tmp_path: Path) -> None:
    client = client_for("control", {"size": 5}, tmp_path / "none.sqlite", budget=0.2)
    answer = client.get("/api/position").json()
    assert answer["value"] is None
    assert "not solved within 0.2 s" in answer["message"]
    assert len(answer["moves"]) == 6 * (5 - 1)  # the perimeter of side 5, still listed
    assert all(m["outcome"] is None for m in answer["moves"])


@pytest.mark.parametrize(
    ("method", "path", "payload", "words"),
    [
        ("get", "/api/position?position=zz", None, "expected"),
        ("get", "/api/position?position=W./.../.. W", None, "impossible position"),
        ("get", "/api/position?position=" + "." * 5000, None, "longer than"),
        ("post", "/api/play", {"position": "../.../.. W", "move": "b2"}, "not a legal move"),
        ("post", "/api/play", {"position": "../.../.. W", "move": ""}, "move name"),
        ("post", "/api/play", {"position": "../.../.. W"}, "move name"),
        ("post", "/api/play", {"position": 7, "move": "a1"}, "position string"),
        ("post", "/api/play", [1, 2], "JSON object"),
        ("post", "/api/play", "not json", "must be JSON"),
        ("post", "/api/play", "x" * (MAX_BODY_BYTES + 1), "larger than"),
    ],
)
def test_bad_input_is_a_400_with_a_message_and_the_server_keeps_serving(
    tmp_path: Path, method: str, path: str, payload: Any, words: str
) -> None:
    client = client_for("control", {"size": 2}, tmp_path / "none.sqlite")
    if method == "get":
        response = client.get(path)
    elif isinstance(payload, str):
        response = client.post(
            path, content=payload.encode(), headers={"Content-Type": "application/json"}
        )
    else:
        response = client.post(path, json=payload)
    assert response.status_code == 400
    assert words in response.json()["error"]
    after = client.get("/api/position")
    assert after.status_code == 200 and after.json()["value"]["outcome"] == "win"


def test_game_over_has_no_moves_and_refuses_a_move(tmp_path: Path) -> None:
    client = client_for("tictactoe", {}, tmp_path / "none.sqlite")
    over = client.get("/api/position", params={"position": "XXX/OO./..."}).json()
    assert over["game_over"] and over["moves"] == []
    assert over["value"]["winner"] == "X"  # X completed the top rank
    response = client.post("/api/play", json={"position": "XXX/OO./...", "move": "c1"})
    assert response.status_code == 400 and "game is over" in response.json()["error"]


def test_reports_are_served_by_number_from_the_fixed_directory_only(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    (reports / "claims").mkdir(parents=True)
    (reports / "control_size-2.md").write_text("# Control size 2\n")
    (reports / "claims" / "control.parity.md").write_text("parity certificate\n")
    (reports / "entropy_4x3.md").write_text("another game\n")
    (tmp_path / "secret.txt").write_text("not for the client\n")
    client = client_for("control", {"size": 2}, tmp_path / "none.sqlite", reports)
    listed = client.get("/api/game").json()["reports"]
    assert [r["title"] for r in listed] == ["report control_size-2", "claim control.parity"]
    assert client.get(listed[1]["url"]).text == "parity certificate\n"
    for path in ("/reports/2", "/reports/-1", "/reports/../secret.txt", "/static/../app.py",
                 "/static/%2e%2e%2fapp.py", "/reports/..%2f..%2fsecret.txt"):  # fmt: skip
        response = client.get(path)
        assert response.status_code == 404, path
        assert "not for the client" not in response.text


def test_the_page_and_its_files_are_served(tmp_path: Path) -> None:
    client = client_for("control", {"size": 2}, tmp_path / "none.sqlite")
    page = client.get("/")
    assert page.status_code == 200 and 'src="/static/explorer.js"' in page.text
    script = client.get("/static/explorer.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert "/api/play" in script.text


def test_control_board_shows_who_controls_each_empty_cell(tmp_path: Path) -> None:
    client = client_for("control", {"size": 2}, tmp_path / "none.sqlite")
    answer = client.get("/api/position", params={"position": "W./.../.. B"}).json()
    cells = {c["name"]: c for c in answer["board"]["cells"]}
    assert answer["board"]["shape"] == "hex" and cells["a1"]["symbol"] == "W"
    # by hand: a1's neighbours a2, b1, b2 have one voter, White's; b3, c1, c2 have none
    assert {n: c.get("controlled_by") for n, c in cells.items() if n != "a1"} == {
        "a2": 0,
        "b1": 0,
        "b2": 0,
        "b3": None,
        "c1": None,
        "c2": None,
    }
    # so Black may place only where White does not control, and removes nothing
    assert sorted(m["move"] for m in answer["moves"]) == ["b3", "c1", "c2"]
    assert all(m["from"] is None for m in answer["moves"])
    assert {cells[m["move"]]["cell"] for m in answer["moves"]} == {m["to"] for m in answer["moves"]}


def test_requests_beyond_the_waiting_limit_get_503_and_the_rest_are_answered(
    tmp_path: Path,
) -> None:
    import asyncio
    import threading

    httpx = pytest.importorskip("httpx2")
    from cgtapp.explorer.app import MAX_WAITING

    game = load_game("control", size=2)
    release = threading.Event()

    class HeldValues(ValueSource):
        """Solves only once the test lets it, so that requests pile up meanwhile."""

        def values(self, position: Any) -> Any:
            release.wait(30)
            return super().values(position)

    app = create_app(Explorer(game, HeldValues(game, tmp_path / "none.sqlite")))

    async def scenario() -> tuple[list[int], int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=LOCAL_URL) as client:

            async def ask() -> int:
                response = await client.get("/api/position")
                return int(response.status_code)

            waiting = [asyncio.create_task(ask()) for _ in range(MAX_WAITING)]
            await asyncio.sleep(0.5)  # every one of them now waits for the solver
            refused = await ask()
            release.set()
            return list(await asyncio.gather(*waiting)), refused

    answered, refused = asyncio.run(scenario())
    assert refused == 503
    assert answered == [200] * MAX_WAITING


def test_super_nonnect_board_marks_the_designated_mini_board(tmp_path: Path) -> None:
    client = client_for("super-nonnect", {"a": 2, "b": 2}, tmp_path / "none.sqlite")
    start = client.get("/api/position").json()
    assert start["board"]["shape"] == "square" and len(start["board"]["cells"]) == 16
    after = client.post("/api/play", json={"position": start["position"], "move": "a4"}).json()
    cells = {c["name"]: c for c in after["board"]["cells"]}
    assert cells["a4"]["symbol"] == "x"  # cut
    # by hand: a4 is place 0 (top left) of its mini-board, so it sends the opponent to
    # mini-board 0, the top-left 2x2 block: files a-b, ranks 3-4
    assert {n for n, c in cells.items() if c["designated"]} == {"a4", "b4", "a3", "b3"}
    assert sorted(m["move"] for m in after["moves"]) == ["a3", "b3", "b4"]


def test_lag_moves_are_arrows_from_the_piece_to_its_target(tmp_path: Path) -> None:
    client = client_for("lag", {"size": 3}, tmp_path / "none.sqlite", budget=0.2)
    start = client.get("/api/position").json()
    cells = {c["cell"]: c for c in start["board"]["cells"]}
    # by hand: White's 7 pieces form one group, so each moves exactly one cell, forward
    # (NW or NE) from row d onto the empty row c: 4 pieces x 2 directions
    assert len(start["moves"]) == 8
    for move in start["moves"]:
        source, target = cells[move["from"]], cells[move["to"]]
        assert move["move"] == f"{source['name']}-{target['name']}"
        assert source["symbol"] == "W" and target["symbol"] == "."
        assert source["name"][0] == "d" and target["name"][0] == "c"
