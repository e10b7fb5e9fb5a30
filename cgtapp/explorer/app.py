"""The explorer's web application (Starlette): the page, its static files and the JSON API.

Routes (all read-only; nothing the client sends names a file):

* ``GET /`` the page; ``GET /static/NAME`` its script and style sheet, read once from the
  package at start-up and served from memory.
* ``GET /api/game`` the game, its parameters, players, start position and report links.
* ``GET /api/position?position=TEXT`` the position (default: the start), its board, its value
  and every legal move with its value.
* ``POST /api/play`` with JSON ``{"position": TEXT, "move": NAME}``: the position after the
  move, answered as ``/api/position``.
* ``GET /reports/N`` the N-th report or certificate of ``/api/game``'s list, from the reports
  directory fixed when the server starts.

Bad input (a malformed position, an illegal move, a body too large or not JSON) is answered
with HTTP 400 and ``{"error": message}``; the server keeps serving.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cgt.errors import CGTError
from cgt.protocol import Game, Outcome
from cgtapp.explorer.board_view import board_data, move_cells
from cgtapp.explorer.values import NotSolved, PositionValues, ValueSource

#: Largest request body accepted (a position string and a move name need far less).
MAX_BODY_BYTES = 8192
#: Longest position string or move name accepted.
MAX_TEXT_CHARS = 4096
#: The page's files, served from memory: name -> media type.
STATIC_FILES = {
    "index.html": "text/html; charset=utf-8",
    "explorer.js": "text/javascript; charset=utf-8",
    "explorer.css": "text/css; charset=utf-8",
}
#: Report files the explorer links to: suffix -> media type.
REPORT_TYPES = {
    ".md": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}


#: Requests that may wait for a solve at once (lookups in stored solutions do not count);
#: more are answered 503 at once, so the work queued behind the one-at-a-time solver stays
#: bounded (at most this many budgets).
MAX_WAITING = 16


class BadRequest(CGTError):
    """A request the API cannot answer because of its input."""


class Busy(CGTError):
    """Too many requests are already waiting for solves (HTTP 503)."""


@dataclass(frozen=True)
class ReportFile:
    """One report or claim certificate the page links to."""

    title: str
    path: Path
    media_type: str


def game_reports(game: Game[Any, Any], reports_dir: Path | None) -> list[ReportFile]:
    """The game's reports (``reports/GAME*.md``) and claim certificates
    (``reports/claims/GAME.*.md``), listed once when the server starts."""
    if reports_dir is None or not reports_dir.is_dir():
        return []
    found: list[ReportFile] = []
    for path in sorted(reports_dir.glob(f"{game.name}*.md")):
        stem = path.stem
        if stem == game.name or stem.startswith(game.name + "_"):
            found.append(ReportFile(f"report {stem}", path, REPORT_TYPES[".md"]))
    claims = reports_dir / "claims"
    if claims.is_dir():
        for path in sorted(claims.glob(f"{game.name}.*.md")):
            found.append(ReportFile(f"claim {path.stem}", path, REPORT_TYPES[".md"]))
    return found


def outcome_data(
    game: Game[Any, Any], position: Any, outcome: Outcome, remoteness: int | None
) -> dict[str, Any]:
    """A value for the player to move, with the winner's name."""
    mover = game.to_move(position)
    if outcome == Outcome.DRAW:
        winner = "draw"
    else:
        winner = game.players[mover if outcome == Outcome.WIN else 1 - mover]
    return {"outcome": outcome.label, "remoteness": remoteness, "winner": winner}


class Explorer:
    """The answers of the API for one game, independent of the web framework."""

    def __init__(
        self,
        game: Game[Any, Any],
        values: ValueSource,
        reports_dir: Path | None = None,
    ) -> None:
        self.game = game
        self.values = values
        self.reports = game_reports(game, reports_dir)
        #: requests waiting for a solve (solves run one at a time)
        self.waiting = 0

    # -------------------------------------------------------------- input
    def parse_position(self, text: str | None) -> Any:
        if text is None or not text.strip():
            return self.game.initial_position()
        if len(text) > MAX_TEXT_CHARS:
            raise BadRequest(f"position string longer than {MAX_TEXT_CHARS} characters")
        try:
            return self.game.parse(text)
        except CGTError:
            raise
        except Exception as exc:  # a game's parser failing on odd input is still bad input
            raise BadRequest(f"cannot read position {text!r}: {exc}") from None

    def find_move(self, position: Any, name: Any) -> Any:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_TEXT_CHARS:
            raise BadRequest("'move' must be a move name (a non-empty string)")
        if self.game.result(position) is not None:
            raise BadRequest(
                f"the game is over in {self.game.render(position)!r}: no move is legal"
            )
        for move in self.game.moves(position):
            if self.game.move_name(position, move) == name.strip():
                return move
        raise BadRequest(f"{name!r} is not a legal move in {self.game.render(position)!r}")

    # ------------------------------------------------------------ answers
    def game_data(self) -> dict[str, Any]:
        game = self.game
        return {
            "game": game.name,
            "label": game.label(),
            "summary": game.summary,
            "params": game.parameters,
            "players": list(game.players),
            "start": game.render(game.initial_position()),
            "budget_seconds": self.values.max_seconds,
            "reports": [
                {"title": r.title, "url": f"/reports/{i}"} for i, r in enumerate(self.reports)
            ],
        }

    def position_data(
        self, position: Any, found: PositionValues | None, message: str | None
    ) -> dict[str, Any]:
        """The API's answer for ``position`` given its values (``None``: not solved)."""
        game = self.game
        mover = game.to_move(position)
        result = game.result(position)
        data: dict[str, Any] = {
            "game": game.name,
            "params": game.parameters,
            "position": game.render(position),
            "to_move": game.players[mover],
            "to_move_index": mover,
            "game_over": result is not None,
            "board": board_data(game, position),
        }
        if result is not None:
            data["value"] = outcome_data(game, position, result, 0)
            data["source"] = "rules"
        elif found is not None:
            data["value"] = outcome_data(game, position, found.outcome, found.remoteness)
            data["source"] = found.source
            data["solver"] = found.solver
        else:
            data["value"] = None
            data["message"] = message
        by_name = {m.name: m for m in found.moves} if found is not None else {}
        moves = []
        if result is None:
            for move in game.moves(position):
                name = game.move_name(position, move)
                source, target = move_cells(game, position, move)
                known = by_name.get(name)
                moves.append(
                    {
                        "move": name,
                        "from": source,
                        "to": target,
                        "outcome": None if known is None else known.outcome.label,
                        "remoteness": None if known is None else known.remoteness,
                        "position": game.render(game.play(position, move)),
                    }
                )
        data["moves"] = moves
        if found is not None and moves:
            best = [
                m["move"]
                for m in moves
                if m["outcome"] == found.outcome.label
                and (found.remoteness is None or m["remoteness"] == found.remoteness)
            ]
            data["best_moves"] = best
        return data

    async def answer(self, position: Any) -> dict[str, Any]:
        """Everything about ``position``; solving (if needed) runs in a worker thread so that
        the server keeps answering other requests meanwhile."""
        if self.game.result(position) is not None:
            return self.position_data(position, None, None)
        message = None
        found = self.values.cached(position)
        if found is None:  # stored or in memory: a quick look in a worker thread
            try:
                found = await anyio.to_thread.run_sync(self.values.lookup, position)
            except NotSolved as exc:
                message = str(exc)
        if found is None and message is None:
            if self.waiting >= MAX_WAITING:
                raise Busy(
                    f"the server is busy with {self.waiting} positions (each solved within "
                    f"{self.values.max_seconds:g} s); ask again in a moment"
                )
            self.waiting += 1
            try:
                found = await anyio.to_thread.run_sync(self.values.values, position)
            except NotSolved as exc:
                message = str(exc)
            finally:
                self.waiting -= 1
        return self.position_data(position, found, message)


def error_response(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(explorer: Explorer) -> Starlette:
    """The Starlette application serving ``explorer``."""
    package = resources.files("cgtapp.explorer") / "static"
    static = {name: (package / name).read_bytes() for name in STATIC_FILES}

    def handles_bad_input(
        endpoint: Callable[[Request], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            try:
                return await endpoint(request)
            except Busy as exc:
                return error_response(str(exc), 503)
            except CGTError as exc:
                return error_response(str(exc))

        return wrapped

    async def index(request: Request) -> Response:
        return Response(static["index.html"], media_type=STATIC_FILES["index.html"])

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static:
            return error_response(f"no static file {name!r}", 404)
        return Response(
            static[name], media_type=STATIC_FILES[name], headers={"Cache-Control": "no-cache"}
        )

    async def game_endpoint(request: Request) -> Response:
        return JSONResponse(explorer.game_data())

    @handles_bad_input
    async def position_endpoint(request: Request) -> Response:
        position = explorer.parse_position(request.query_params.get("position"))
        return JSONResponse(await explorer.answer(position))

    @handles_bad_input
    async def play_endpoint(request: Request) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            raise BadRequest(f"request body larger than {MAX_BODY_BYTES} bytes")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise BadRequest(f"request body larger than {MAX_BODY_BYTES} bytes")
        try:
            payload = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise BadRequest('the body must be JSON: {"position": ..., "move": ...}') from None
        if not isinstance(payload, dict):
            raise BadRequest('the body must be a JSON object: {"position": ..., "move": ...}')
        text = payload.get("position")
        if text is not None and not isinstance(text, str):
            raise BadRequest("'position' must be a position string")
        position = explorer.parse_position(text)
        move = explorer.find_move(position, payload.get("move"))
        child = explorer.game.play(position, move)
        data = await explorer.answer(child)
        data["played"] = explorer.game.move_name(position, move)
        data["previous"] = explorer.game.render(position)
        return JSONResponse(data)

    async def report_endpoint(request: Request) -> Response:
        number = request.path_params["number"]
        if not 0 <= number < len(explorer.reports):
            return error_response(f"no report number {number}", 404)
        report = explorer.reports[number]
        try:
            content = report.path.read_bytes()
        except OSError as exc:
            return error_response(f"report {report.title} cannot be read: {exc.strerror}", 404)
        return Response(content, media_type=report.media_type)

    routes = [
        Route("/", index),
        Route("/static/{name}", static_file),
        Route("/api/game", game_endpoint),
        Route("/api/position", position_endpoint),
        Route("/api/play", play_endpoint, methods=["POST"]),
        Route("/reports/{number:int}", report_endpoint),
    ]
    return Starlette(routes=routes)
