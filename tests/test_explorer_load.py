"""A few hundred concurrent API requests at a real ``cgt explore`` server on loopback: every
answer arrives and is correct (checked against a retrograde solve in this process)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cgt.registry import load_game
from solvers.retrograde import retrograde
from tests.explorer_support import explorer_server

httpx = pytest.importorskip("httpx2")

#: Requests fired at once, and the seconds all of them may take together.
REQUESTS = 300
TIME_LIMIT = 120.0


def expected_answers() -> dict[str, dict[str, Any]]:
    """Every position of Control size 2 within three plies with its value and its moves'
    values, from a retrograde solve in this process."""
    game = load_game("control", size=2)
    solution = retrograde(game)
    answers: dict[str, dict[str, Any]] = {}
    frontier = [game.initial_position()]
    for _ in range(3):
        following = []
        for position in frontier:
            text = game.render(position)
            if text in answers or game.result(position) is not None:
                continue
            result = solution.result(position)
            answers[text] = {
                "outcome": result.outcome.label,
                "remoteness": result.remoteness,
                "moves": {m.name: (m.outcome.label, m.remoteness) for m in result.moves},
            }
            following.extend(game.play(position, m) for m in game.moves(position))
        frontier = following
    return answers


def test_hundreds_of_concurrent_requests_all_answered_correctly() -> None:
    expected = expected_answers()
    positions = sorted(expected)
    assert len(positions) > 10

    def check(data: dict[str, Any]) -> None:
        want = expected[data["position"]]
        assert data["value"]["outcome"] == want["outcome"]
        assert data["value"]["remoteness"] == want["remoteness"]
        assert {m["move"]: (m["outcome"], m["remoteness"]) for m in data["moves"]} == want["moves"]

    async def fire(url: str) -> list[int]:
        limits = httpx.Limits(max_connections=REQUESTS, max_keepalive_connections=REQUESTS)
        async with httpx.AsyncClient(base_url=url, limits=limits, timeout=TIME_LIMIT) as client:
            await client.get("api/position")  # the first answer solves the board once

            async def one(k: int) -> int:
                position = positions[k % len(positions)]
                if k % 3 == 2:  # some plays, some lookups, some bad requests
                    move = sorted(expected[position]["moves"])[k % len(expected[position]["moves"])]
                    response = await client.post(
                        "api/play", json={"position": position, "move": move}
                    )
                    assert response.status_code == 200, response.text
                    data = response.json()
                    assert data["played"] == move and data["previous"] == position
                    if not data["game_over"] and data["position"] in expected:
                        check(data)
                elif k % 7 == 0:
                    response = await client.post(
                        "api/play", json={"position": position, "move": "zz"}
                    )
                    assert response.status_code == 400 and "not a legal move" in response.text
                else:
                    response = await client.get("api/position", params={"position": position})
                    assert response.status_code == 200, response.text
                    check(response.json())
                return k

            return await asyncio.wait_for(
                asyncio.gather(*(one(k) for k in range(REQUESTS))), TIME_LIMIT
            )

    with explorer_server(["control", "-p", "size=2"]) as url:
        done = asyncio.run(fire(url))
    assert sorted(done) == list(range(REQUESTS))  # none lost
