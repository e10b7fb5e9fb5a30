"""Playing against the computer through ``POST /api/computer``: a legal move answered like
``/api/play`` with the computer's estimate; a best move where the value is known (solved or
stored), checked against ``cgt solve`` / ``cgt query``; a win one move away taken by the
search too; bad requests refused. Any correct player passes: nothing here depends on which of
several good moves the search picks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from cgt.registry import load_game
from cgtapp.explorer.app import MAX_PLAYOUTS
from tests.explorer_support import cli_json
from tests.test_explorer_api import ENTROPY_4X3, client_for, param_args


def computer(client: Any, **body: Any) -> dict[str, Any]:
    response = client.post("/api/computer", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_the_search_plays_a_legal_move_with_its_estimate(tmp_path: Path) -> None:
    game = load_game("control", size=2)
    client = client_for("control", {"size": 2}, tmp_path / "none.sqlite")
    start = game.initial_position()
    data = computer(client, playouts=64, perfect=False)
    legal = {game.move_name(start, m): game.render(game.play(start, m)) for m in game.moves(start)}
    assert data["played"] in legal and data["position"] == legal[data["played"]]
    assert data["previous"] == game.render(start) and data["choice"] == "search"
    estimate = data["estimate"]
    assert estimate["player"] == "White" and estimate["kind"] in ("search", "proven")
    if estimate["kind"] == "search":
        assert 0 <= estimate["win_rate"] <= 1 and estimate["playouts"] > 0
    assert {c["move"] for c in data["candidates"]} <= set(legal)
    # answered like /api/play: the same keys and values for the position reached
    played = client.post("/api/play", json={"move": data["played"]}).json()
    assert {k: v for k, v in data.items() if k in played} == played


@pytest.mark.parametrize("perfect", [True, False])
def test_a_win_one_move_away_is_taken(tmp_path: Path, perfect: bool) -> None:
    # by hand: X (to move, two marks each) completes the top rank with c3; nothing else wins
    client = client_for("tictactoe", {}, tmp_path / "none.sqlite")
    data = computer(client, position="XX./OO./...", playouts=200, perfect=perfect)
    assert data["played"] == "c3" and data["game_over"] and data["value"]["winner"] == "X"


def test_perfect_play_on_a_solved_board_keeps_the_value(tmp_path: Path) -> None:
    params = {"size": 2}
    client = client_for("control", params, tmp_path / "none.sqlite")
    position = client.get("/api/position").json()["position"]
    for _ in range(3):
        reference = cli_json(
            ["solve", "control", *param_args(params), "--position", position, "--json"]
        )
        data = computer(client, position=position)
        assert data["choice"] == "solved" and data["estimate"]["kind"] == "proven"
        assert data["estimate"]["outcome"] == reference["outcome"]
        assert data["estimate"]["remoteness"] == reference["remoteness"]
        assert data["played"] in reference["best_moves"]
        if data["game_over"]:
            break
        position = data["position"]


def test_perfect_play_reads_the_stored_solution(tmp_path: Path) -> None:
    db = tmp_path / "solutions.sqlite"
    args = param_args(ENTROPY_4X3)
    cli_json(
        ["solve", "entropy", *args, "--solver", "compiled", "--save", "--db", str(db), "--json"]
    )
    client = client_for("entropy", ENTROPY_4X3, db)
    data = computer(client)
    reference = cli_json(["query", "entropy", *args, "--db", str(db), "--json"])
    assert data["choice"] == "stored" and data["played"] in reference["best_moves"]
    assert data["estimate"]["outcome"] == reference["outcome"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"playouts": 0}, "'playouts' must be a whole number from 1"),
        ({"playouts": -5}, "'playouts'"),
        ({"playouts": MAX_PLAYOUTS + 1}, "'playouts'"),
        ({"playouts": 1e30}, "'playouts'"),
        ({"playouts": "many"}, "'playouts'"),
        ({"playouts": True}, "'playouts'"),
        ({"seed": -1}, "'seed'"),
        ({"perfect": "yes"}, "'perfect' must be true or false"),
        ({"position": 7}, "position string"),
        ({"position": "zz"}, "expected"),
        ({"position": "XXX/OO./..."}, "the game is over"),
    ],
)
def test_bad_requests_to_the_computer_are_400(
    tmp_path: Path, body: dict[str, Any], words: str
) -> None:
    client = client_for("tictactoe", {}, tmp_path / "none.sqlite")
    response = client.post("/api/computer", json=body)
    assert response.status_code == 400
    assert words in response.json()["error"]
